"""The players' results page of a table: ``player_results_router(service) -> APIRouter``.

What the room's console publishes for this table's players (``controller.room.players``: the
travellers of the boards they have played, their scorecards, the ranking when the Director
publishes it), received by the table's link (``tablectl.room.link``) and kept by the running
table (``TableRuntime.room_results``). No session is needed: it is the players' page.

- ``GET /results``: the page (``static/results.html``), made for a phone;
- ``GET /api/results``: ``{"available", "table_name", "table", "name", "ended", "settings", "boards",
  "travellers", "scorecards", "ranking"}``; ``available`` is false (and the rest empty) when the
  table is in no club room or the console has sent nothing yet.

Whatever the message says, a traveller is shown only for a board **this table has finished**
(its own log says so) and **the room has released** (``web_ui.privacy``: every table due to play
it has finished it): a player who opens any table's page never sees a board's results before
every table has played it (it would tell him the deal). While the session runs the scorecards keep
only the boards this table finished, and show a board's contract, result and points only once it is
released; a scorecard's place and total only when the ranking is shown.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from fastapi import APIRouter
from fastapi.responses import FileResponse

from controller.room.players import held_back
from controller.table import TableState
from web_ui.privacy import released_in
from web_ui.service import TableService

__all__ = ["RoomResultsSource", "player_results_router", "visible"]

STATIC = Path(__file__).resolve().parent / "static"

Json = dict[str, Any]


@runtime_checkable
class RoomResultsSource(Protocol):
    """A running table that holds what the room published for its players (``TableRuntime``)."""

    def room_results(self) -> Json | None:
        """The latest results message for this table's players (None: none yet)."""
        ...


def finished_boards(state: TableState) -> set[str]:
    """The numbers of the boards this table has finished (a redealt board is not one)."""
    return {str(o.board.number) for o in state.boards if o.board.number is not None and o.status != "redeal"}


def visible(published: Json | None, finished: set[str], table_name: str) -> Json:
    """``published`` cut down to the boards in ``finished`` (module doc)."""
    if not isinstance(published, dict):
        return {"available": False, "table_name": table_name, "table": None, "name": None, "ended": False,
                "settings": None, "boards": [], "travellers": [], "scorecards": [], "ranking": None}
    ended = published.get("ended") is True
    release = released_in(published)
    travellers = [t for t in _list(published.get("travellers"))
                  if isinstance(t, dict) and str(t.get("board")) in finished and release.shows(t.get("board"))]
    ranking = published.get("ranking")
    cards = []
    for card in _list(published.get("scorecards")):
        if isinstance(card, dict):
            rows = [b if release.shows(b.get("board")) else held_back(b) for b in _list(card.get("boards"))
                    if isinstance(b, dict) and (ended or str(b.get("board")) in finished)]
            cards.append({**card, "boards": rows, "standing": card.get("standing") if isinstance(ranking, list)
                          else None})
    return {"available": True, "table_name": table_name, "table": published.get("table"),
            "name": published.get("name"), "ended": ended,
            "settings": published.get("settings"), "boards": [str(t["board"]) for t in travellers],
            "released": release.as_json(),
            "travellers": travellers, "scorecards": cards, "ranking": ranking if isinstance(ranking, list) else None}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def player_results_router(service: TableService, table_name: str = "") -> APIRouter:
    """The page and its API (module doc) over ``service`` (a ``RoomResultsSource`` when it is in a room)."""
    router = APIRouter(tags=["results"])

    @router.get("/results", include_in_schema=False)
    async def results_page() -> FileResponse:
        return FileResponse(STATIC / "results.html")

    @router.get("/api/results", summary="The room's results this table's players may see (boards they have played)")
    async def results() -> Json:
        snap = await asyncio.to_thread(service.snapshot)
        source = service if isinstance(service, RoomResultsSource) else None
        published = None if source is None else await asyncio.to_thread(source.room_results)
        name = table_name or str(getattr(getattr(service, "setup", None), "name", "") or "")
        return visible(published, finished_boards(snap.state), name)

    return router
