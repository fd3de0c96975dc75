"""The Director's console pages: ``create_console_app(console, settings) -> FastAPI``.

One page, ``/``, for the Director walking the room (a phone first): a tile per table, the
queue of calls, the alarm banner, each table's arbiter view with its options, and the
travellers. Everything behind the arbiter PIN (``web_ui.security``, as on a table's arbiter
page: an HttpOnly session cookie, a CSRF token on every change, same-origin checks).

HTTP contract (errors are ``{"detail": ...}``):

- ``POST /api/login {"pin"}`` (a club night: one PIN signs in "Director"), or with a team of Directors
  (``ConsoleSettings.find_director``, ``tablectl.room.directors``) ``{"name", "pin"}``, each their own
  -> ``{"csrf", "expires_in", "director", "role", "rooms", "team"}`` (a wrong name and a wrong PIN are
  one "wrong name or PIN", under the same limits); ``GET /api/sign-in``: ``{"team"}`` (whether to ask
  the name); ``POST /api/logout``; ``GET /api/session``: who is signed in;
- who sees what: a head Director (and every Director on a room's own console) sees every table the
  console holds; a room Director on the head console only their rooms' tables: the room, its pushes
  and alarms carry only those (``web_ui.console_scope``), another table's routes answer 403;
- ``GET /api/room``: the room (``controller.room.console.Room.snapshot``);
- ``GET /api/tables/{id}``: that table's arbiter view as it last published it (404: none yet);
- ``POST /api/tables/{id}/open``: the Director is at that table (its calls are being ruled);
- ``POST /api/tables/{id}/rulings`` (the arbiter page's ruling body) and ``/actions`` (its
  action body): sent on the table's ``command`` topic; the answer is the table's: 200
  ``{"accepted": true}``, 409 with its reason, 504 when the table did not answer (offline:
  nothing was applied);
- ``POST /api/calls/mark {"key", "state", "take_over"}``: a call ``acknowledged`` (on my way: the
  call is the signed-in Director's, every page shows "Anna is on the way") or ``resolved`` (done):
  the table is told and shows it; 409 for a call another Director is on the way to (unless
  ``take_over``: "Go instead") or whose table still waits for a ruling (it closes when the table
  has applied one); every ruling and action is sent with the Director's name and kept with the
  table's answer; ``GET /api/acts``: who did what, newest first;
- ``GET /api/settings``: ``{"players": {"travellers", "ranking"}, "ended", "over", "clock"}``;
  ``POST /api/settings/players {"travellers": bool, "ranking": "end"|"live"|"never"}``: what the
  players see at their tables (``controller.room.players``); ``POST /api/session/end {"ended",
  "confirm"}``: the session is over (ending needs ``"confirm": true``: the Director was asked), or
  not (within a minute the tables have seen nothing of it);
  ``POST /api/boards/release {"board", "released"}``: a board shown to the players before every
  table has played it (``controller.room.release``); ``POST /api/clock/start {"round"}``: round N is called now, its
  clock runs (409 without the session); ``POST /api/clock/stop``;
- ``POST /api/session/new``: a new session starts clean, the old one kept; ``GET /api/archive``:
  the sessions kept; ``GET /api/archive/{name}``: one's ranking and travellers
  (``tablectl.room.sessions``);
- ``GET /tables/{id}/arbiter``: a redirect (303) to that table's arbiter page by a signed,
  one-time link (``web_ui.arbiter_link``): the Director is in without the PIN, whatever a PIN
  guesser did there (404 when the console has no link key or no URL for that table);
- ``WebSocket /ws``: ``{"kind": "room", ...}`` (the whole room, ``version`` N) on connecting, then
  after every change ``{"kind": "delta", "base", "version", ...}``: what changed since version
  ``base`` (the tiles that changed, the calls, the new alerts; at most every 2 s the travellers and
  points of the boards that changed, ``travellers_changed`` and ``scores.boards_changed``, and the
  ranking's rows that moved, ``ranking_changed`` (each row with its place ``at``), ``ranking_gone`` and
  ``ranking_count``, or the ranking whole on a full push, after a gap, or when most of a long ranking
  moved; ``full``: every tile), which a page at version ``base`` or later applies and a page
  behind it answers by fetching ``GET /api/room`` (a push waiting for a slow page is replaced by
  the next one: that page finds the gap); ``{"kind": "alarm", "table", "text"}`` the moment a
  table raises an irregularity or calls the Director.
"""

# No ``from __future__ import annotations`` here: FastAPI reads the routes' annotations, and the
# session dependencies (``Director``, ``Guarded``) are made inside ``create_console_app``, where
# a string annotation could not be resolved (every route would then want a query parameter ``_``).
import asyncio
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Request, Response, WebSocket
from fastapi.responses import FileResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from web_ui import jsonbody
from web_ui.arbiter_link import signed_link
from web_ui.console_desk import desk_router
from web_ui.console_results import results_router
from web_ui.console_scope import alarm_seen, scoped
from web_ui.hub import dumps, pump
from web_ui.models import ActionBody, LoginResult, RulingBody
from web_ui.security import (
    CONSOLE_COOKIE,
    AttemptLimiter,
    HostCheck,
    PinGate,
    Session,
    Sessions,
    clear_session_cookie,
    device_cookie,
    install_headers,
    pin_login,
    refuse_busy,
    same_origin,
    session_dependencies,
    set_session_cookie,
)

__all__ = ["ConsoleService", "ConsoleSettings", "NamedDirector", "create_console_app"]

STATIC = Path(__file__).resolve().parent / "static"
_TABLE = re.compile(r"^[A-Za-z0-9_-]{1,16}$")

Json = dict[str, Any]


class ConsoleService(Protocol):
    """What the pages need of the console (``tablectl.room.console.Console``)."""

    def snapshot(self) -> Json: ...
    def view(self, table: str) -> Json | None: ...
    def opened(self, table: str, by: str = ...) -> None: ...
    def mark(self, key: str, state: str, by: str = ..., take_over: bool = ...) -> Any: ...
    def send(self, table: str, kind: str, body: Json, by: str = ...) -> str: ...
    def reply(self, ref: str, timeout: float) -> Json | None: ...
    def subscribe(self, callback: Callable[[Json], None]) -> Callable[[], None]: ...
    def settings(self) -> Json: ...
    def set_players(self, travellers: bool, ranking: str) -> Json: ...
    def end_session(self, ended: bool = True) -> Json: ...
    def release(self, board: str, released: bool = True) -> Json: ...
    def new_session(self) -> Json: ...
    def archives(self) -> list[Json]: ...
    def archived(self, name: str) -> Json | None: ...
    def start_round(self, round_: int) -> Json: ...
    def stop_clock(self) -> Json: ...


@dataclass(frozen=True, slots=True)
class NamedDirector:
    """A Director of the team as the pages need them: their name, ``head`` or ``room``, the rooms they
    cover, the tables they see (None: all the console holds) and their PIN's check."""

    name: str
    role: str
    rooms: tuple[str, ...]
    scope: frozenset[str] | None
    check_pin: Callable[[str], bool]


class ConsoleSettings(BaseModel):
    """How the composition root configures the console's pages."""

    model_config = {"arbitrary_types_allowed": True}
    check_pin: Callable[[str], bool]
    club: str = "club"
    answer_timeout: float = 8.0
    max_clients: int = 50
    """WebSocket clients at once (the Director's devices); more are refused with 1013."""
    push_interval: float = 0.2
    """Seconds: the room is pushed to the pages at most this often (alarms go at once)."""
    busy_push_interval: float = 1.0
    """Seconds between two pushes while the console's intake is behind (``push_delay``)."""
    link_key: bytes | None = None
    """The key shared with the tables: the Director opens a table's arbiter page by a signed link."""
    table_urls: dict[str, str] = {}
    """Each table's pages (``https://host:port``), for those links."""
    hosts: tuple[str, ...] = ()
    """The names the console answers to besides this machine's own (``web_ui.security.HostCheck``)."""
    find_director: Callable[[str], NamedDirector | None] | None = None
    """The team of Directors (``tablectl.room.directors``): each signs in by name and PIN (None: a
    club night, one PIN signs in "Director", who sees everything)."""


class ConsoleLogin(BaseModel):
    """The Director's name (when the console has a team of Directors) and PIN."""

    model_config = {"extra": "forbid"}
    name: str | None = Field(default=None, min_length=1, max_length=40, description="who signs in (a team's Director)")
    pin: str = Field(min_length=1, max_length=64)


class SignedIn(LoginResult):
    """A session was opened for ``director`` (``role``: head or room; ``rooms``: those covered)."""

    director: str
    role: str
    rooms: list[str]
    team: bool
    """The console has a team of Directors (each signs in by name)."""


class MarkBody(BaseModel):
    """The Director moves a call on the queue (``take_over``: on the way instead of another Director)."""

    model_config = {"extra": "forbid"}
    key: str = Field(min_length=1, max_length=120)
    state: Literal["acknowledged", "being_ruled", "resolved"]
    take_over: bool = False


class PlayersBody(BaseModel):
    """The Director's two settings for the players' results pages."""

    model_config = {"extra": "forbid"}
    travellers: bool
    ranking: Literal["end", "live", "never"]


class EndBody(BaseModel):
    model_config = {"extra": "forbid"}
    ended: bool = True
    confirm: bool = Field(default=False, description="true: the Director was asked and said yes (needed to end)")


class ReleaseBody(BaseModel):
    model_config = {"extra": "forbid"}
    board: str = Field(pattern=r"^[0-9]{1,3}$")
    released: bool = True


class ClockBody(BaseModel):
    model_config = {"extra": "forbid"}
    round: int = Field(ge=1, le=200)


def push_delay(settings: ConsoleSettings, console: object) -> float:
    """How long a push waits for the changes that follow it: ``push_interval``, or ``busy_push_interval``
    while the console's intake is behind (``busy``: the whole room raising at once). The pushes are the
    page's bulk, made on the console's cores; the alarms go at once whatever this is."""
    return settings.busy_push_interval if getattr(console, "busy", False) else settings.push_interval


def _table(table: str) -> str:
    if not _TABLE.match(table):
        raise HTTPException(404, f"no table {table!r} in this room")
    return table


def create_console_app(console: ConsoleService, settings: ConsoleSettings, *,
                       clock: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time,
                       sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> FastAPI:
    """The console's FastAPI app (module doc); ``clock``, ``wall`` and ``sleep`` as for ``web_ui.app.create_app``."""
    sessions = Sessions(clock, CONSOLE_COOKIE)
    gate = PinGate(settings.check_pin, AttemptLimiter(clock), sleep)
    clients: dict[asyncio.Queue[str], frozenset[str] | None] = {}
    """Each page's queue, and the tables its Director sees (None: all)."""
    pending = {"room": False}
    pushed = {"version": -1}
    """The version the latest push brought the pages to (a push is the changes since it)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        push_lock = asyncio.Lock()

        async def push_room() -> None:
            await asyncio.sleep(push_delay(settings, console))  # changes within it go out as one room
            pending["room"] = False
            if not clients:
                return
            async with push_lock:  # one after the other: each is the changes since the one before
                scopes = set(clients.values())
                # made and written as JSON off the loop, which meanwhile hands the pages their alarms
                version, texts = await asyncio.to_thread(room_texts, pushed["version"], scopes)
                pushed["version"] = version
                for q, scope in list(clients.items()):
                    if scope not in texts:  # a page that came meanwhile: the next push is its own
                        continue
                    _offer(q, texts[scope], room=True)

        def room_texts(since: int, scopes: set[frozenset[str] | None]) -> tuple[int, dict[frozenset[str] | None, str]]:
            """The push from version ``since`` (the whole room when the console no longer knows), as JSON
            for the whole room's pages and for each room Director's page (their rooms' tables only)."""
            changes = getattr(console, "changes", None)
            delta = None if changes is None else changes(since)
            message = delta if delta is not None else {"kind": "room", **console.snapshot()}
            version = message["version"] if delta is not None else message.get("version", -1)
            texts = {scope: dumps(message if scope is None else scoped(message, scope)) for scope in scopes | {None}}
            return version, texts

        def changed(message: Json) -> None:  # on the console's thread: hand it to the loop
            if message.get("kind") == "alarm":
                text = dumps(message)
                def offer_all() -> None:
                    for q, scope in list(clients.items()):
                        if alarm_seen(message, scope):
                            _offer(q, text)
                loop.call_soon_threadsafe(offer_all)
            elif not pending["room"]:
                pending["room"] = True
                loop.call_soon_threadsafe(lambda: loop.create_task(push_room()))

        unsubscribe = console.subscribe(changed)
        try:
            yield
        finally:
            unsubscribe()

    app = FastAPI(title=f"Director's console: {settings.club}", version="1", lifespan=lifespan,
                  docs_url=None, redoc_url=None)
    jsonbody.install(app)  # first: the headers below go on its answers too

    install_headers(app)
    app.state.sessions = sessions
    director, guarded = session_dependencies("Director", "console")

    Director = Annotated[Session, Depends(director)]
    Guarded = Annotated[Session, Depends(guarded)]

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "console.html")

    api = APIRouter(prefix="/api", tags=["console"])

    team = settings.find_director is not None

    def signed_in(session: Session) -> SignedIn:
        return SignedIn(csrf=session.csrf, expires_in=sessions.expires_in(session), director=session.who,
                        role=session.role, rooms=list(session.rooms), team=team)

    @api.post("/login", response_model=SignedIn,
              summary="Open a Director session: the PIN, or a team's Director's name and PIN")
    async def login(body: ConsoleLogin, request: Request, response: Response) -> SignedIn:
        if same_origin(request.headers) is False:
            raise HTTPException(403, "cross-site login refused: the Origin is not this console")
        cookie = device_cookie(sessions.cookie)
        if settings.find_director is None:
            await pin_login(gate, request, response, body.pin, cookie)
            token, session = sessions.create()
        else:
            found = settings.find_director(body.name or "")
            if found is None:  # a name not in the team costs a check all the same: no name can be told apart
                await pin_login(gate, request, response, body.pin, cookie,
                                lambda pin: settings.check_pin(pin) and False)
            else:
                await pin_login(gate, request, response, body.pin, cookie, found.check_pin)
            assert found is not None
            token, session = sessions.create(found.name, found.role, found.rooms, found.scope)
        set_session_cookie(response, sessions, token, request)
        return signed_in(session)

    @api.get("/sign-in", summary="How to sign in: by name and PIN (a team of Directors) or by the PIN alone")
    async def how_to_sign_in() -> Json:
        return {"team": team}

    @api.post("/logout", status_code=204, summary="End the Director session")
    async def logout(request: Request, _: Guarded) -> Response:
        sessions.end(sessions.token(request))
        response = Response(status_code=204)
        clear_session_cookie(response, sessions)
        return response

    @api.get("/session", response_model=SignedIn, summary="Who is signed in, and the CSRF token (a reloaded page)")
    async def get_session(session: Director) -> SignedIn:
        return signed_in(session)

    def covered(session: Session, table: str) -> str:
        """``table`` (a valid id) when the Director covers it, else a 403 in plain words."""
        if not session.sees(_table(table)):
            raise HTTPException(403, f"table {table} is not in the rooms you cover ({', '.join(session.rooms)}): "
                                     "its room's Directors and the head Director deal with it")
        return table

    @app.get("/tables/{table}/arbiter", include_in_schema=False, response_model=None)
    async def open_arbiter_page(table: str, session: Director) -> Response:
        """The table's arbiter page, by a signed one-time link (``web_ui.arbiter_link``): no PIN there."""
        url = settings.table_urls.get(covered(session, table))
        if url is None or settings.link_key is None:
            raise HTTPException(404, f"the console knows no link to table {table}'s pages "
                                     "(tablectl console --table-url and an arbiter link key)")
        return RedirectResponse(signed_link(settings.link_key, table, url, wall()), status_code=303)

    @api.get("/room", summary="Every table of the room: tiles, calls, travellers, recent alerts")
    async def room(session: Director) -> Json:
        return scoped(await asyncio.to_thread(console.snapshot), session.scope)

    @api.get("/tables/{table}", summary="A table's arbiter view, as the table last published it")
    async def table_view(table: str, session: Director) -> Json:
        view = await asyncio.to_thread(console.view, covered(session, table))
        if view is None:
            raise HTTPException(404, f"table {table} has not published its state yet")
        return view

    @api.post("/tables/{table}/open", status_code=204, summary="The Director is dealing with this table")
    async def open_table(table: str, session: Guarded) -> Response:
        await asyncio.to_thread(console.opened, covered(session, table), session.who)
        return Response(status_code=204)

    async def send(table: str, kind: str, body: Json, session: Session) -> Json:
        """Send Director ``session.who``'s ruling or action to ``table``, and keep it with how it ended."""
        ruled = getattr(console, "ruled", None)

        async def keep(ref: str | None, outcome: str) -> None:
            if ruled is not None:
                await asyncio.to_thread(ruled, session.who, kind, table, ref, body, outcome)

        try:
            ref = await asyncio.to_thread(console.send, covered(session, table), kind, body, session.who)
        except ConnectionError as exc:
            await keep(None, f"not sent: {exc}")
            raise HTTPException(503, str(exc)) from exc
        answer = await asyncio.to_thread(console.reply, ref, settings.answer_timeout)
        if answer is None:
            await keep(ref, "no answer: nothing was applied")
            raise HTTPException(504, f"table {table} did not answer within {settings.answer_timeout:.0f} s "
                                     "(is it offline?): nothing was applied")
        if not answer.get("accepted"):
            reason = answer.get("reason") or "no reason given"
            await keep(ref, f"refused: {reason}")
            raise HTTPException(409, f"table {table} refused it: {reason}")
        await keep(ref, "applied")
        return {"accepted": True, "table": table, "ref": ref, "irregularities": answer.get("irregularities", []),
                "by": session.who}

    @api.post("/tables/{table}/rulings", summary="Rule on an irregularity at a table (sent on its command topic)")
    async def ruling(table: str, body: RulingBody, session: Guarded) -> Json:
        return await send(table, "ruling", body.model_dump(mode="json", exclude_none=True), session)

    @api.post("/tables/{table}/actions", summary="A manual entry or correction at a table")
    async def action(table: str, body: ActionBody, session: Guarded) -> Json:
        return await send(table, "action", body.log_object(), session)

    @api.post("/calls/mark", summary="Move a call on the queue: acknowledged (on my way) or resolved")
    async def mark(body: MarkBody, session: Guarded) -> Json:
        if session.scope is not None:
            calls = (await asyncio.to_thread(console.snapshot)).get("calls", [])
            found = next((c for c in calls if c.get("key") == body.key), None)
            if found is None:
                raise HTTPException(404, f"no call {body.key!r}")
            covered(session, str(found.get("table")))
        try:
            call = await asyncio.to_thread(console.mark, body.key, body.state, session.who, body.take_over)
        except KeyError as exc:
            raise HTTPException(404, f"no call {body.key!r}") from exc
        except ValueError as exc:
            raise HTTPException(409, str(exc)) from exc
        return {"key": call.key, "state": call.state, "by": call.by}

    @api.get("/acts", summary="Who did what: calls taken and closed, rulings and actions, desk entries (newest first)")
    async def acts(session: Director) -> Json:
        found = getattr(console, "acts", None)
        return {"acts": [] if found is None else await asyncio.to_thread(found, session.scope)}

    async def act(fn: Callable[..., Json], *args: Any) -> Json:
        try:
            return await asyncio.to_thread(fn, *args)
        except ValueError as exc:
            raise HTTPException(409, str(exc)) from exc

    @api.get("/settings", summary="What the players see of the results, the session's end, the round clock")
    async def get_settings(_: Director) -> Json:
        return await asyncio.to_thread(console.settings)

    @api.post("/settings/players", summary="What the players see at their tables: travellers on or off, the "
                                           "ranking at the end, live or never")
    async def set_players(body: PlayersBody, _: Guarded) -> Json:
        return await act(console.set_players, body.travellers, body.ranking)

    @api.post("/session/end", summary="The session is over (ended: true) or not (false)")
    async def end_session(body: EndBody, _: Guarded) -> Json:
        if body.ended and not body.confirm:
            raise HTTPException(409, "Ending the session shows every table its final results: ask the Director, "
                                     "then send confirm: true")
        return await act(console.end_session, body.ended)

    @api.post("/session/new", summary="Start a new session: the console empties, the old session is kept")
    async def new_session(_: Guarded) -> Json:
        return await act(console.new_session)

    @api.get("/archive", summary="The sessions kept, newest first")
    async def archive_list(_: Director) -> list[Json]:
        return await asyncio.to_thread(console.archives)

    @api.get("/archive/{name}", summary="A kept session's ranking and travellers")
    async def archive_one(name: str, _: Director) -> Json:
        found = await asyncio.to_thread(console.archived, name)
        if found is None:
            raise HTTPException(404, f"no kept session {name!r}")
        return found

    @api.post("/boards/release", summary="Show a board to the players before every table has played it (or not)")
    async def release_board(body: ReleaseBody, _: Guarded) -> Json:
        return await act(console.release, body.board, body.released)

    @api.post("/clock/start", summary="Round N is called now: its clock runs (the session's round time)")
    async def start_clock(body: ClockBody, _: Guarded) -> Json:
        return await act(console.start_round, body.round)

    @api.post("/clock/stop", summary="Stop the round clock")
    async def stop_clock(_: Guarded) -> Json:
        return await act(console.stop_clock)

    app.include_router(api)
    app.include_router(results_router(console, director))
    app.include_router(desk_router(console, director, guarded))

    @app.websocket("/ws")
    async def ws(socket: WebSocket) -> None:
        token = sessions.token(socket)
        signed = sessions.get(token)
        if same_origin(socket.headers) is not True or signed is None:
            await socket.close(code=1008)
            return
        if len(clients) >= settings.max_clients:
            await refuse_busy(socket)
            return
        q: asyncio.Queue[str] = asyncio.Queue()  # bounded by _offer: the alarms, and one room push
        clients[q] = signed.scope  # counted from now: handshakes under way count against the cap too
        try:
            await socket.accept()
            snapshot = await asyncio.to_thread(console.snapshot)
            if pushed["version"] < 0:  # no push yet: the next is the changes since this page's room
                pushed["version"] = snapshot.get("version", -1)
            _offer(q, dumps(scoped({"kind": "room", **snapshot}, signed.scope)), room=True)
            await pump(socket, q, lambda: sessions.get(token) is not None)
        finally:
            clients.pop(q, None)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(HostCheck, hosts=settings.hosts)  # outermost: an unknown host reaches nothing
    return app


ALARMS_QUEUED = 10_000
"""Alarms one client may have waiting: far beyond any room's burst (a client that far behind has
stalled; it loses the oldest then)."""


def _offer(q: asyncio.Queue[str], text: str, *, room: bool = False) -> None:
    """Queue ``text`` for one client. An alarm is never dropped for a room push: a client too slow
    to keep up keeps every alarm and only the newest room (a room push replaces those still
    waiting, which it makes out of date)."""
    if room or q.qsize() >= ALARMS_QUEUED:
        waiting = [q.get_nowait() for _ in range(q.qsize())]
        if room:
            waiting = [t for t in waiting if not _is_room(t)]
        else:  # ALARMS_QUEUED waiting: a stalled client loses its oldest room push, else its oldest alarm
            rooms = [n for n, t in enumerate(waiting) if _is_room(t)]
            del waiting[rooms[0] if rooms else 0]
        for item in waiting:
            q.put_nowait(item)
    q.put_nowait(text)


def _is_room(text: str) -> bool:
    """A room push, whole or its changes (``dumps`` writes ``kind`` first, compact)."""
    return text.startswith(('{"kind":"room"', '{"kind":"delta"'))
