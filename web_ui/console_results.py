"""The room's results from the Director's console: ``results_router(console, director) -> APIRouter``.

Behind the Director's session (``director`` is the console app's session check, a FastAPI
dependency: ``web_ui.console.create_console_app`` makes it, so it comes in as a parameter):

- ``GET /api/ranking``: the ranking so far (``controller.room.results.RoomResults.report``):
  ``{"name", "scoring", "by_direction", "session", "fouled", "ranking": [{"pair", "section",
  "direction", "boards", "total", "percent", "average", "rank", "tied", "place"}]}``;
- ``GET /api/scorecards/{pair}?section=A``: a pair's boards, points and place (404: no such pair);
- ``GET /api/results.pbn``: the session as PBN 2.1 results, ``[ScoreTable]`` travellers and the
  ``[TotalScoreTable]`` ranking (``controller.records.scoretable.dumps``), each board's deal with it;
- ``GET /api/results.usebio``: the same as USEBIO 1.2 XML (``controller.records.usebio.dumps``).

Both files carry the session's scoring conventions, so that ``tablectl score FILE`` reading
either ranks the pairs as the console does. A fouled board's groups are boards of their own
(``7``, ``7b``: Law 87B). 404 until a board has a result.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from fastapi import APIRouter, Depends, HTTPException
from fastapi.responses import PlainTextResponse, Response

from controller.deal import Deal
from controller.fieldscore.model import EventScore
from controller.records import scoretable, usebio
from controller.room.console import Room

__all__ = ["ResultsService", "results_router"]

Json = dict[str, Any]


@runtime_checkable
class ResultsService(Protocol):
    """What the results need of the console (``tablectl.room.console.Console``)."""

    def results(self) -> tuple[EventScore | None, Mapping[str, Deal]]:
        """The session scored so far (None: no result yet) and each scored board's deal."""
        ...

    def ranking(self) -> Json:
        """The ranking so far with how it was scored (``RoomResults.report``)."""
        ...

    def scorecard(self, pair: str, section: str | None = None) -> Json:
        """A pair's session so far (``RoomResults.scorecard``)."""
        ...


class _OfRoom:
    """The results of a console that offers only its ``room`` (a ``controller.room.console.Room``)."""

    def __init__(self, room: Room, lock: Any) -> None:
        self.room = room
        self.lock = lock

    def results(self) -> tuple[EventScore | None, Mapping[str, Deal]]:
        with self.lock:
            return self.room.results.event_score(), self.room.results.export_deals()

    def ranking(self) -> Json:
        with self.lock:
            return self.room.results.report()

    def scorecard(self, pair: str, section: str | None = None) -> Json:
        with self.lock:
            return self.room.scorecard(pair, section)


def _service(console: object) -> ResultsService:
    if isinstance(console, ResultsService):
        return console
    room = getattr(console, "room", None)
    if isinstance(room, Room):
        return _OfRoom(room, getattr(console, "_lock", None) or threading.RLock())
    raise TypeError(f"{type(console).__name__} offers no results (ResultsService) and no room")


def _filename(name: str, ext: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "results"
    return f"{stem}.{ext}"


def results_router(console: object, director: Callable[..., Any]) -> APIRouter:
    """The results' routes (module doc) over ``console``, each behind the ``director`` dependency."""
    service = _service(console)
    api = APIRouter(prefix="/api", tags=["results"], dependencies=[Depends(director)])

    async def scored() -> tuple[EventScore, Mapping[str, Deal]]:
        score, deals = await asyncio.to_thread(service.results)
        if score is None:
            raise HTTPException(404, "no board has a result yet")
        return score, deals

    @api.get("/ranking", summary="The ranking so far: every pair's total, percentage and place")
    async def ranking() -> Json:
        return await asyncio.to_thread(service.ranking)

    @api.get("/scorecards/{pair}", summary="A pair's session so far: its boards, points and place")
    async def scorecard(pair: str, section: str | None = None) -> Json:
        card = await asyncio.to_thread(service.scorecard, pair, section)
        if not card["boards"] and card["standing"] is None:
            raise HTTPException(404, f"no pair {pair!r}" + (f" in section {section}" if section else ""))
        return card

    @api.get("/results.pbn", response_class=PlainTextResponse,
             summary="The session's results as PBN 2.1: travellers ([ScoreTable]) and ranking ([TotalScoreTable])")
    async def results_pbn() -> PlainTextResponse:
        score, deals = await scored()
        text = await asyncio.to_thread(scoretable.dumps, [score], deals=deals)
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="{_filename(score.event.name, "pbn")}"'})

    @api.get("/results.usebio", summary="The session's results as USEBIO 1.2 XML", response_class=Response)
    async def results_usebio() -> Response:
        score, _ = await scored()
        text = await asyncio.to_thread(usebio.dumps, [score])
        return Response(text, media_type="application/xml", headers={
            "Content-Disposition": f'attachment; filename="{_filename(score.event.name, "xml")}"'})

    return api
