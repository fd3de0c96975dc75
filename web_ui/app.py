"""The web pages and their HTTP/WebSocket contract: ``create_app(service, settings) -> FastAPI``.

Three audiences (``controller.views`` decides what each may see):

- the **table page** ``/`` and ``GET /api/table``, ``/ws/table``: public information only; before
  the first board the players name themselves there (``web_ui.table_players``);
- the **spectator page** ``/spectator`` and ``GET /api/spectator``, ``/ws/spectator``: the
  public information with the whole play, ``settings.spectator_delay`` seconds late;
  at a table in a club room both public audiences see a board only once the room has released
  it (``web_ui.privacy``);
- the **arbiter page** ``/arbiter`` and ``/api/arbiter/*``, ``/ws/arbiter``: everything, after
  the PIN (``web_ui.security`` for sessions, attempt limits and cross-site checks).

WebSocket messages are full view payloads with their ``seq``, pushed after every change; a
client that reconnects simply gets the latest. Every bad request gets a 4xx with a message
(``{"detail": ...}``) and changes nothing, a body that is not exactly JSON (NaN, a lone
surrogate, not UTF-8: ``web_ui.jsonbody``) too; an action the table refuses is a 409 with
the table's reason.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Query, Request, Response, WebSocket
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

from controller.errors import BridgeTableError
from controller.records import lin, pbn
from controller.records.export import records_of
from controller.records.model import BoardRecord
from controller.records.tablelog import action_of
from controller.seats import Seat
from controller.table import TableState
from controller.views import claim_help_view, spectator_view
from web_ui import jsonbody, privacy
from web_ui.arbiter_link import LINK_PATH, LinkChecker
from web_ui.hub import Channel, Hub, arbiter_payload, dumps, pump
from web_ui.models import ActionBody, LoginBody, LoginResult, RulingBody, SubmitResult
from web_ui.player_results import player_results_router
from web_ui.security import (
    AttemptLimiter,
    HostCheck,
    PinGate,
    Session,
    Sessions,
    arbiter_cookie,
    clear_session_cookie,
    device_cookie,
    install_headers,
    pin_login,
    refuse_busy,
    same_origin,
    session_dependencies,
    set_session_cookie,
)
from web_ui.service import PUBLIC_RECORDS, PublicRecords, Submitted, TableService, WebSettings
from web_ui.table_players import table_players_router

__all__ = ["create_app"]

STATIC = Path(__file__).resolve().parent / "static"

Json = dict[str, Any]


def _error(status: int, message: str) -> dict[int | str, dict[str, Any]]:
    return {status: {"description": message, "content": {"application/json": {"schema": {
        "type": "object", "properties": {"detail": {"type": "string"}}}}}}}


_401 = _error(401, "no arbiter session (log in with the PIN)")
_403 = _error(403, "cross-site request refused: CSRF token missing or wrong, or foreign Origin")
_409 = _error(409, "the table refused it, or it cannot be done now (the reason is in detail)")
_records_403 = _error(403, "the records are not public now (public_records: never, or after_session before "
                           "the session ends)")


def _filename(name: str, ext: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "table"
    return f"{stem}.{ext}"


def _public_records(state: TableState) -> list[BoardRecord]:
    """The finished boards only (never the board in progress), without the tempo notes (Law 16)."""
    out = []
    for rec in records_of(state):
        commentary = tuple(c for c in rec.commentary if not re.match(r"Irregularity \d+: tempo ", c))
        out.append(replace(rec, commentary=commentary))
    return out


def _submitted(result: Submitted) -> SubmitResult:
    reason = result.rejected
    if reason is not None:
        raise HTTPException(409, reason)
    return SubmitResult(
        seq=result.seq,
        events=[{"kind": e.kind, "detail": e.detail, "seat": None if e.seat is None else str(e.seat), "t": e.t}
                for e in result.step.events],
        irregularities=[i.as_dict() for i in result.step.irregularities])


arbiter, guarded = session_dependencies("arbiter", "table")
Arbiter = Annotated[Session, Depends(arbiter)]
Guarded = Annotated[Session, Depends(guarded)]


def create_app(service: TableService, settings: WebSettings, *,
               clock: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time,
               sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> FastAPI:
    """The FastAPI app of one table: pages, HTTP API and WebSockets over ``service``.

    ``clock`` (monotonic seconds) times sessions and PIN lock-outs, ``wall`` (epoch seconds)
    the console's links, ``sleep`` waits out the PIN's slow-down; tests inject theirs.
    """
    if settings.public_records is not None and settings.public_records not in PUBLIC_RECORDS:
        raise ValueError(f"public_records {settings.public_records!r} is not one of {', '.join(PUBLIC_RECORDS)}")
    sessions = Sessions(clock, arbiter_cookie(settings.table_id))
    gate = PinGate(settings.check_pin, AttemptLimiter(clock), sleep)
    published = False  # the arbiter has made the records public (kept in memory: a restart withdraws it)
    links = (None if settings.link_key is None or settings.table_id is None
             else LinkChecker(settings.link_key, settings.table_id, wall))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(service, settings.table_name, settings.spectator_delay)
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title=f"Bridge table: {settings.table_name}", version="1",
                  description="The table's pages, public state, arbiter API and records (docs/web-api.md).",
                  lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.sessions = sessions
    jsonbody.install(app)  # first: the headers below go on its answers too

    install_headers(app)

    async def snapshot_state() -> tuple[int, float, TableState]:
        snap = await asyncio.to_thread(service.snapshot)
        return snap.seq, snap.now, snap.state

    def hub_of(app_: Any) -> Hub | None:
        hub: Hub | None = getattr(app_.state, "hub", None)
        return hub

    def open_session(request: Request, response: Response) -> Session:
        """A new arbiter session, its cookie set on ``response`` (``Secure`` over HTTPS)."""
        token, session = sessions.create()
        set_session_cookie(response, sessions, token, request)
        return session

    # --- pages ----------------------------------------------------------------------------------

    pages = APIRouter(include_in_schema=False)

    @pages.get("/")
    async def table_page() -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @pages.get("/arbiter")
    async def arbiter_page() -> FileResponse:
        return FileResponse(STATIC / "arbiter.html")

    @pages.get("/spectator")
    async def spectator_page() -> FileResponse:
        return FileResponse(STATIC / "spectator.html")

    @pages.get(LINK_PATH, response_model=None)
    async def enter_by_link(request: Request, table: str = "", exp: str = "", nonce: str = "",
                            sig: str = "") -> Response:
        """The Director's signed link from the console (``web_ui.arbiter_link``): a session, then the page."""
        if links is None:
            raise HTTPException(404, "this table takes no links from the console (no arbiter link key)")
        refused = links.refusal(table, exp, nonce, sig)
        if refused is not None:
            raise HTTPException(403, refused)
        response = RedirectResponse("/arbiter", status_code=303)
        open_session(request, response)
        return response

    # --- public: table, spectators, records ----------------------------------------------------------

    public = APIRouter(prefix="/api", tags=["public"])

    @public.get("/table", summary="The table's public state (what the players may see)")
    async def get_table() -> Json:
        from controller.views import table_view
        seq, now, state = await snapshot_state()
        payload = privacy.with_answer(table_view(state, seq=seq, now=now, table_name=settings.table_name), service)
        return privacy.table_payload(payload, await asyncio.to_thread(privacy.release_of, service))

    @public.get("/spectator", response_model=None,
                summary="The spectators' view (the whole play), settings.spectator_delay seconds late")
    async def get_spectator(request: Request) -> Response:
        if settings.spectator_delay <= 0:
            seq, now, state = await snapshot_state()
            payload = privacy.spectator_payload(spectator_view(state, seq=seq, now=now, table_name=settings.table_name),
                                                await asyncio.to_thread(privacy.release_of, service))
            payload["delay"] = 0.0
            return Response(dumps(payload), media_type="application/json")
        hub = hub_of(request.app)
        if hub is None or hub.spectator.latest is None:  # nothing old enough yet
            return JSONResponse({"kind": "spectator", "seq": -1, "waiting": True, "board": None,
                                 "delay": settings.spectator_delay, "table_name": settings.table_name})
        return Response(hub.spectator.latest, media_type="application/json")

    def records_policy(state: TableState) -> PublicRecords:
        if settings.public_records is not None:
            return settings.public_records
        return "after_session" if state.code.rules.duplicated_boards else "finished_boards"

    async def public_records(fmt: Literal["pbn", "lin"]) -> PlainTextResponse:
        _, _, state = await snapshot_state()
        policy = records_policy(state)
        if policy == "never":
            raise HTTPException(403, "the records are the arbiter's (public_records = never)")
        if policy == "after_session" and not (state.finished or published):
            raise HTTPException(403, "the records are the arbiter's until the session ends (public_records = "
                                     "after_session): these boards may still be played at other tables")
        release = await asyncio.to_thread(privacy.release_of, service)
        records = [r for r in _public_records(state) if release is None or release.shows(r.number)]
        text = await asyncio.to_thread(pbn.dumps if fmt == "pbn" else lin.dumps, records)
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="{_filename(settings.table_name, fmt)}"'})

    @public.get("/records.pbn", response_class=PlainTextResponse, responses=_records_403,
                summary="PBN records of the finished boards (never the board in progress), when public")
    async def records_pbn() -> PlainTextResponse:
        return await public_records("pbn")

    @public.get("/records.lin", response_class=PlainTextResponse, responses=_records_403,
                summary="LIN records of the finished boards (never the board in progress), when public")
    async def records_lin() -> PlainTextResponse:
        return await public_records("lin")

    # --- the arbiter ----------------------------------------------------------------------------------

    arb = APIRouter(prefix="/api/arbiter", tags=["arbiter"], responses=_error(400, "a body that is not JSON"))

    @arb.post("/login", response_model=LoginResult, summary="Open an arbiter session with the PIN",
              responses={**_error(401, "wrong PIN"), **_error(403, "foreign Origin"),
                         **_error(429, "too many wrong PINs from this client: wait (Retry-After)")})
    async def login(body: LoginBody, request: Request, response: Response) -> LoginResult:
        if same_origin(request.headers) is False:
            raise HTTPException(403, "cross-site login refused: the Origin is not this table")
        await pin_login(gate, request, response, body.pin, device_cookie(sessions.cookie))
        session = open_session(request, response)
        return LoginResult(csrf=session.csrf, expires_in=sessions.expires_in(session))

    @arb.post("/logout", status_code=204, summary="End the arbiter session", responses={**_401, **_403})
    async def logout(request: Request, _: Guarded) -> Response:
        sessions.end(sessions.token(request))
        response = Response(status_code=204)
        clear_session_cookie(response, sessions)
        return response

    @arb.get("/session", response_model=LoginResult, summary="The session's CSRF token (a reloaded page)",
             responses=_401)
    async def get_session(session: Arbiter) -> LoginResult:
        return LoginResult(csrf=session.csrf, expires_in=sessions.expires_in(session))

    @arb.get("/state", summary="Everything the arbiter sees", responses=_401)
    async def arbiter_state(_: Arbiter) -> Json:
        snap = await asyncio.to_thread(service.snapshot)
        return arbiter_payload(snap, settings.table_name)

    async def submit(obj: dict[str, Any]) -> SubmitResult:
        try:
            action = action_of(obj)
        except (BridgeTableError, ValueError) as exc:
            raise HTTPException(422, f"not a table action: {exc}") from exc
        action = replace(action, t=0.0)
        return _submitted(await asyncio.to_thread(service.submit, action))

    @arb.post("/rulings", response_model=SubmitResult, summary="Rule on an irregularity (docs/irregularities.md)",
              responses={**_401, **_403, **_409})
    async def post_ruling(body: RulingBody, _: Guarded) -> SubmitResult:
        return await submit({"ruling": body.model_dump(mode="json", exclude_none=True)})

    @arb.post("/actions", response_model=SubmitResult,
              summary="A manual entry or correction: one table-log action", responses={**_401, **_403, **_409})
    async def post_action(body: ActionBody, _: Guarded) -> SubmitResult:
        return await submit(body.log_object())

    @arb.get("/claimhelp", summary="Claim help: the position and its double-dummy value (Laws 68-70)",
             responses={**_401, **_409})
    async def claimhelp(session: Arbiter, seat: Annotated[Literal["N", "E", "S", "W"] | None, Query(
            description="the claimer (default: the pending claim's, else declarer)")] = None) -> Json:
        _, _, state = await snapshot_state()
        try:
            return await asyncio.to_thread(claim_help_view, state, None if seat is None else Seat.parse(seat))
        except ValueError as exc:
            raise HTTPException(409, str(exc)) from exc

    @arb.post("/records/publish", status_code=204, responses={**_401, **_403, **_409},
              summary="Make the finished boards' records public now (public_records = after_session: the "
                      "session is over); kept until the table restarts")
    async def publish_records(_: Guarded) -> Response:
        nonlocal published
        if records_policy((await snapshot_state())[2]) == "never":
            raise HTTPException(409, "the records stay the arbiter's: public_records is never")
        published = True
        return Response(status_code=204)

    @arb.get("/records.{fmt}", response_class=PlainTextResponse,
             summary="Every board as PBN, LIN or the table log (JSON Lines)", responses=_401)
    async def arbiter_records(fmt: Literal["pbn", "lin", "jsonl"], _: Arbiter) -> PlainTextResponse:
        text = await asyncio.to_thread(service.records, fmt)
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="{_filename(settings.table_name, fmt)}"'})

    # --- WebSockets ----------------------------------------------------------------------------------

    async def serve(ws: WebSocket, channel: Channel, still_allowed: Callable[[], bool] | None = None) -> None:
        await ws.accept()
        queue = channel.join()
        try:
            await pump(ws, queue, still_allowed)
        finally:
            channel.leave(queue)

    public_clients = 0

    async def serve_public(ws: WebSocket, channel: Callable[[Hub], Channel]) -> None:
        nonlocal public_clients
        hub = hub_of(ws.app)
        if hub is None:
            await ws.close(code=1011)
            return
        if public_clients >= settings.max_public_clients:
            await refuse_busy(ws)
            return
        public_clients += 1
        try:
            await serve(ws, channel(hub))
        finally:
            public_clients -= 1

    @app.websocket("/ws/table")
    async def ws_table(ws: WebSocket) -> None:
        await serve_public(ws, lambda hub: hub.table)

    @app.websocket("/ws/spectator")
    async def ws_spectator(ws: WebSocket) -> None:
        await serve_public(ws, lambda hub: hub.spectator)

    @app.websocket("/ws/arbiter")
    async def ws_arbiter(ws: WebSocket) -> None:
        hub = hub_of(ws.app)
        token = sessions.token(ws)
        if hub is None or same_origin(ws.headers) is not True or sessions.get(token) is None:
            # refused before the handshake completes: the client sees HTTP 403
            await ws.close(code=1008)
            return
        if hub.arbiter.latest is None:
            hub.refresh()
        await serve(ws, hub.arbiter, lambda: sessions.get(token) is not None)

    app.include_router(pages)
    app.include_router(public)
    app.include_router(arb)
    app.include_router(player_results_router(service, settings.table_name))
    app.include_router(table_players_router(service))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(HostCheck, hosts=settings.hosts)  # outermost: an unknown host reaches nothing

    return app
