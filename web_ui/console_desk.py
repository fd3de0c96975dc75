"""The Director's scoring desk at the console: ``desk_router(console, director, guarded) -> APIRouter``.

Corrections and adjusted scores (``controller.room.adjustments``), each kept with who, when and
why; the scores, travellers and ranking of ``/api/room`` and ``/api/ranking`` follow at once.
Reading needs the Director's session (``director``); every change also the same origin and the
CSRF token (``guarded``), as the console's other changes (``web_ui.console``). Errors are
``{"detail": ...}``: 422 for a body that is not what is expected, 409 for an entry the desk
refuses (why, in plain words); the desk is unchanged either way.

- ``GET /api/desk``: ``{"entries": [{"id", "kind", "law", "board", "table", "by", "at", "reason",
  "what", "undone", ...}]}``, oldest first;
- ``POST /api/desk/corrections {"board", "table", "contract", "declarer", "tricks", "lead", "by",
  "reason"}``: the result as it should stand (``"contract": "Pass"``: passed out), Law 79C;
- ``POST /api/desk/artificial {"board", "table", "ns", "ew", ...}``: ``A+``, ``A`` or ``A-`` to
  each side (Law 12C2);
- ``POST /api/desk/assigned {"board", "table", "results": [{"contract", "declarer", "tricks",
  "weight"}], ...}``: one result (weight 100) or a weighted score (Law 12C1(c));
- ``POST /api/desk/penalties {"board", "table", "side", "amount", ...}``: a procedural penalty
  (Law 90) on ``NS`` or ``EW``: a fraction of a top in matchpoints, IMPs in IMP scoring;
- ``POST /api/desk/undo {"entry", "by", "reason"}``: take an entry back (an entry itself).

Each change answers the entry as made (``{"id", "kind", ...}``).

Who plays (``controller.room.roster``), when the console keeps a roster (``console.people``):

- ``GET /api/desk/roster``: ``{"members": [{"name", "federation_id", "email", "club"}]}``;
- ``POST /api/desk/roster/import {"csv": "..."}``: the club's roster from a CSV file (name,
  federation number, email, club): ``{"added", "updated", "members"}``; a file with a bad line is a
  422 naming every bad line, and nothing is imported;
- ``GET /api/desk/pairs``: ``{"pairs": [{"section", "pair", "seats": [{"from_round", "first",
  "second"}]}], "expected": [{"section", "pair"}], "rounds"}``;
- ``POST /api/desk/pairs {"section", "pair", "first": {"name", "federation_id"}, "second": ...}``:
  the pair's players from the start (North then South, or East then West);
- ``POST /api/desk/substitutes {"section", "pair", "from_round", "seat": "first"|"second",
  "player": {"name", "federation_id"}}``: a substitute from that round on (the pair keeps its
  number and its score);
- ``POST /api/desk/absent {"section", "pair", "from_round", "to_round", "by", "reason"}``: a pair
  late or gone for those rounds: average minus to it, average plus to its opponents on each board
  it missed (Law 12C2), all the entries made or none;
- the movement as played (pairs swapped, a table added or removed) and a kept session reopened:
  ``web_ui.desk_moves``;
- ``GET /api/desk/event?session=<kept>&session=...&now=true``: an event of several sessions, each
  partnership's results carried over (``controller.room.event``).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Annotated, Any, Literal, Protocol, runtime_checkable

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from pydantic import BaseModel, Field

from controller.fieldscore.model import Artificial, Award
from controller.records.people import Player
from controller.room.adjustments import DeskEntry, DeskError, Played, absent
from controller.room.console import Room
from controller.room.deskmsg import with_answers
from controller.room.event import EventSession, carry_over
from controller.room.roster import RosterError, player
from web_ui.desk_moves import moves_routes

__all__ = ["DeskService", "PeopleService", "desk_router"]

Json = dict[str, Any]

Board = Annotated[str, Field(pattern=r"^[1-9][0-9]{0,2}$", description="the board's number")]
Table = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,16}$", description="the table, as the console names it")]
By = Annotated[str, Field(min_length=1, max_length=60, description="who makes the entry (the Director's name)")]
Reason = Annotated[str, Field(min_length=1, max_length=300, description="why: kept with the entry")]
Tricks = Annotated[int, Field(ge=0, le=13)]
AwardText = Literal["A+", "A", "A-"]


@runtime_checkable
class DeskService(Protocol):
    """What the desk needs of the console (``tablectl.room.console.Console``)."""

    def desk(self) -> Json:
        """``{"entries": [...]}``, oldest first."""
        ...

    def adjust(self, entry: DeskEntry) -> Json:
        """Make and keep ``entry``, made now (DeskError: refused, nothing changed)."""
        ...


class _OfRoom:
    """The desk of a console that offers only its ``room`` (kept in memory only)."""

    def __init__(self, room: Room, lock: Any) -> None:
        self.room = room
        self.lock = lock

    def desk(self) -> Json:
        with self.lock:
            return {"entries": with_answers(self.room.results.desk.as_json(), self.room.desk_answers)}

    def adjust(self, entry: DeskEntry) -> Json:
        with self.lock:
            return self.room.results.adjust(replace(entry, at=time.time())).as_json()

    def absent(self, section: str | None, pair: str, rounds: range, by: str, reason: str) -> Json:
        with self.lock:
            made = absent(self.room.results, section, pair, rounds, by, reason, time.time())
            return {"entries": [e.as_json() for e in made]}


@runtime_checkable
class PeopleService(Protocol):
    """What the roster's routes need of the console's ``people`` (``tablectl.room.console_people.People``)."""

    def roster_json(self) -> Json: ...

    def import_roster(self, text: str) -> Json: ...

    def pairs_json(self) -> Json: ...

    def name_pair(self, section: str | None, pair: str, first: Player, second: Player) -> Json: ...

    def substitute(self, section: str | None, pair: str, from_round: int, which: Literal["first", "second"],
                   sub: Player) -> Json: ...


def _service(console: object) -> DeskService:
    if isinstance(console, DeskService):
        return console
    room = getattr(console, "room", None)
    if isinstance(room, Room):
        return _OfRoom(room, getattr(console, "_lock", None) or threading.RLock())
    raise TypeError(f"{type(console).__name__} offers no desk (DeskService) and no room")


class _Entry(BaseModel):
    model_config = {"extra": "forbid"}
    by: By = "Director"
    reason: Reason


class _AtTable(_Entry):
    board: Board
    table: Table


class CorrectionBody(_AtTable):
    """The result as it should stand (Law 79C)."""

    contract: str = Field(min_length=1, max_length=10, description='"4S", "3NTX", or "Pass"')
    declarer: Literal["N", "E", "S", "W"] | None = None
    tricks: Tricks | None = Field(default=None, description="the tricks declarer took")
    lead: str | None = Field(default=None, min_length=2, max_length=3, description='the opening lead: "HK"')


class ArtificialBody(_AtTable):
    """An artificial adjusted score to each side (Law 12C2)."""

    ns: AwardText
    ew: AwardText


class AssignedResult(BaseModel):
    model_config = {"extra": "forbid"}
    contract: str = Field(min_length=1, max_length=10)
    declarer: Literal["N", "E", "S", "W"] | None = None
    tricks: Tricks | None = None
    weight: float = Field(default=100.0, gt=0, le=100, description="in %; the weights add up to 100")


class AssignedBody(_AtTable):
    """An assigned adjusted score: one result, or several weighted (Law 12C1)."""

    results: list[AssignedResult] = Field(min_length=1, max_length=6)


class PenaltyBody(_AtTable):
    """A procedural penalty on one side (Law 90)."""

    side: Literal["NS", "EW"]
    amount: float = Field(gt=0, le=100, description="a fraction of a top (matchpoints) or IMPs")


class PlayerBody(BaseModel):
    model_config = {"extra": "forbid"}
    name: str = Field(min_length=1, max_length=60)
    federation_id: str = Field(default="", max_length=20, description="the national federation's number")


Section = Annotated[str, Field(default="", max_length=8, pattern=r"^[A-Za-z]{0,8}$")]
Pair = Annotated[str, Field(pattern=r"^[A-Za-z0-9]{1,8}$", description="the pair's number")]


class RosterBody(BaseModel):
    """A roster CSV file's text."""

    model_config = {"extra": "forbid"}
    csv: str = Field(min_length=1, max_length=1_000_000)


class PairBody(BaseModel):
    """A pair's two players: North then South, or East then West."""

    model_config = {"extra": "forbid"}
    section: Section = ""
    pair: Pair
    first: PlayerBody
    second: PlayerBody


class SubstituteBody(BaseModel):
    """A substitute for one of a pair's players from a round on."""

    model_config = {"extra": "forbid"}
    section: Section = ""
    pair: Pair
    from_round: int = Field(ge=1, le=200)
    seat: Literal["first", "second"]
    player: PlayerBody


def _player(body: PlayerBody) -> Player:
    return player(body.name, body.federation_id)


class AbsentBody(_Entry):
    """A pair late (or gone) for some rounds: A- to it, A+ to its opponents on the boards missed."""

    section: Section = ""
    pair: Pair
    from_round: int = Field(ge=1, le=200)
    to_round: int = Field(ge=1, le=200)


class UndoBody(_Entry):
    """Take back an entry."""

    entry: int = Field(ge=1)


def _correction(b: CorrectionBody) -> DeskEntry:
    played = Played.parse(b.contract, b.declarer, b.tricks, b.lead)
    return DeskEntry(0, "correction", b.board, b.table, b.by, 0.0, b.reason, played=played)


def _artificial(b: ArtificialBody) -> DeskEntry:
    return DeskEntry(0, "artificial", b.board, b.table, b.by, 0.0, b.reason, award=Artificial(Award(b.ns), Award(b.ew)))


def _assigned(b: AssignedBody) -> DeskEntry:
    assigned = tuple((Played.parse(r.contract, r.declarer, r.tricks), r.weight) for r in b.results)
    return DeskEntry(0, "assigned", b.board, b.table, b.by, 0.0, b.reason, assigned=assigned)


def _penalty(b: PenaltyBody) -> DeskEntry:
    return DeskEntry(0, "penalty", b.board, b.table, b.by, 0.0, b.reason, side=b.side, amount=b.amount)


def _undo(b: UndoBody) -> DeskEntry:
    return DeskEntry(0, "undo", "", "", b.by, 0.0, b.reason, undoes=b.entry)


def _by(given: str, request: Request) -> str:
    """Who makes an entry: the Director signed in (``web_ui.security.Session.who``); on a club night's
    one PIN ("Director"), the name the body gives."""
    sessions = getattr(request.app.state, "sessions", None)
    session = None if sessions is None else sessions.get(sessions.token(request))
    who = getattr(session, "who", "Director")
    return given if who == "Director" else str(who)


def _signed(entry: DeskEntry, request: Request) -> DeskEntry:
    """``entry`` made by the Director signed in (``_by``), at a table they cover (else a 403)."""
    sessions = getattr(request.app.state, "sessions", None)
    session = None if sessions is None else sessions.get(sessions.token(request))
    if entry.table and session is not None and not session.sees(entry.table):
        raise HTTPException(403, f"table {entry.table} is not in the rooms you cover")
    return replace(entry, by=_by(entry.by, request))


def desk_router(console: object, director: Callable[..., Any], guarded: Callable[..., Any]) -> APIRouter:
    """The desk's routes (module doc) over ``console``: reading behind ``director``, changes behind ``guarded``."""
    service = _service(console)
    api = APIRouter(prefix="/api/desk", tags=["desk"], dependencies=[Depends(director)])

    async def make(build: Callable[[Any], DeskEntry], body: BaseModel, request: Request) -> Json:
        try:
            entry = _signed(build(body), request)
            return await asyncio.to_thread(service.adjust, entry)
        except DeskError as exc:
            raise HTTPException(409, str(exc)) from exc

    changes = [Depends(guarded)]

    @api.get("", summary="The Director's corrections and adjusted scores, oldest first")
    async def desk() -> Json:
        return await asyncio.to_thread(service.desk)

    @api.post("/corrections", dependencies=changes, summary="Correct a table's result (Law 79C)")
    async def correction(body: CorrectionBody, request: Request) -> Json:
        return await make(_correction, body, request)

    @api.post("/artificial", dependencies=changes, summary="An artificial adjusted score to each side (Law 12C2)")
    async def artificial(body: ArtificialBody, request: Request) -> Json:
        return await make(_artificial, body, request)

    @api.post("/assigned", dependencies=changes, summary="An assigned adjusted score, weighted or not (Law 12C1)")
    async def assigned(body: AssignedBody, request: Request) -> Json:
        return await make(_assigned, body, request)

    @api.post("/penalties", dependencies=changes, summary="A procedural penalty on one side (Law 90)")
    async def penalty(body: PenaltyBody, request: Request) -> Json:
        return await make(_penalty, body, request)

    @api.post("/absent", dependencies=changes,
              summary="A pair late or gone for some rounds: A- to it, A+ to its opponents (Law 12C2)")
    async def absent_pair(body: AbsentBody, request: Request) -> Json:
        do = getattr(service, "absent", None)
        if do is None:
            raise HTTPException(409, "this console offers no late or absent pair")
        if body.to_round < body.from_round:
            raise HTTPException(422, f"rounds {body.from_round}-{body.to_round}: the last round comes before the first")
        try:
            out: Json = await asyncio.to_thread(do, body.section or None, body.pair,
                                                range(body.from_round, body.to_round + 1), _by(body.by, request),
                                                body.reason)
        except DeskError as exc:
            raise HTTPException(409, str(exc)) from exc
        return out

    @api.post("/undo", dependencies=changes, summary="Take an entry back (the undo is kept as an entry too)")
    async def undo(body: UndoBody, request: Request) -> Json:
        return await make(_undo, body, request)

    moves_routes(api, console, changes)
    people = getattr(console, "people", None)
    if isinstance(people, PeopleService):
        _people_routes(api, people, changes, getattr(console, "people_changed", None))
        _event_route(api, console, people)
    return api


def _event_route(api: APIRouter, console: object, people: PeopleService) -> None:
    """``GET /api/desk/event``: the sessions kept that the Director picks, and this one, added up."""
    archived = getattr(console, "archived", None)
    ranking = getattr(console, "ranking", None)
    names = getattr(people, "names", None)

    @api.get("/event", summary="An event of several sessions: each partnership's results carried over")
    async def event(session: Annotated[list[str], Query(max_length=20)] = [],  # noqa: B006 (FastAPI's query list)
                    now: bool = True) -> Json:
        def gather() -> Json:
            sessions = []
            for name in session:
                found = archived(name) if archived is not None else None
                if found is None:
                    raise HTTPException(404, f"no kept session {name!r}")
                sessions.append(EventSession(name, found["report"]["ranking"], found.get("names") or {},
                                             found["report"]["scoring"]))
            if now and ranking is not None and names is not None:
                report = ranking()
                sessions.append(EventSession("now", report["ranking"], names(), report["scoring"]))
            if not sessions:
                raise HTTPException(422, "pick at least one session")
            return carry_over(sessions)
        return await asyncio.to_thread(gather)


def _people_routes(api: APIRouter, people: PeopleService, changes: list[Any],
                   changed: Callable[[], object] | None) -> None:
    """The roster's and pairs' routes (module doc) on the desk's router."""

    async def change(do: Callable[..., Json], *args: Any) -> Json:
        try:
            out = await asyncio.to_thread(do, *args)
        except RosterError as exc:
            raise HTTPException(422, str(exc)) from exc
        if changed is not None:
            await asyncio.to_thread(changed)
        return out

    @api.get("/roster", summary="The club's roster")
    async def roster() -> Json:
        return await asyncio.to_thread(people.roster_json)

    @api.post("/roster/import", dependencies=changes,
              summary="Import the roster from a CSV file (all of it, or nothing with every bad line named)")
    async def import_roster(body: RosterBody) -> Json:
        return await change(people.import_roster, body.csv)

    @api.get("/pairs", summary="The session's pairs and who plays in each, round by round")
    async def pairs() -> Json:
        return await asyncio.to_thread(people.pairs_json)

    @api.post("/pairs", dependencies=changes, summary="Name a pair's two players from the start")
    async def name_pair(body: PairBody) -> Json:
        def do() -> Json:
            return people.name_pair(body.section or None, body.pair, _player(body.first), _player(body.second))
        return await change(do)

    @api.post("/substitutes", dependencies=changes,
              summary="A substitute from a round on (the pair keeps its number and score)")
    async def substitute(body: SubstituteBody) -> Json:
        def do() -> Json:
            return people.substitute(body.section or None, body.pair, body.from_round, body.seat, _player(body.player))
        return await change(do)
