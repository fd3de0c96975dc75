"""The movement as played, and a kept session reopened, at the Director's desk: ``moves_routes``.

On the desk's router (``web_ui.console_desk``), behind the Director's session; every change also
behind the same origin and the CSRF token. Errors: 422 for a body not as expected, 409 for a change
refused (why, in plain words), nothing changed either way.

- ``GET /api/desk/moves``: ``{"entries": [{"id", "kind", "what", "by", "at", "reason", "undone",
  ...}], "sittings": [{"section", "round", "table", "ns", "ew", "boards", "sit_out"}], "rounds"}``:
  the changes, oldest first, and the movement as changed (``controller.room.moves``);
- ``POST /api/desk/moves/swap {"section", "a", "b", "from_round", "to_round", "by", "reason"}``:
  two pairs swapped places in those rounds (``to_round`` null: to the end);
- ``POST /api/desk/moves/add-table {"section", "table", "ns", "ew", "shares", "from_round", ...}``:
  a new table from a round on, sharing the boards of table ``shares``;
- ``POST /api/desk/moves/remove-table {"section", "table", "from_round", "to_round", ...}``;
- ``POST /api/desk/moves/undo {"entry", "by", "reason"}``: a change taken back (kept as a change);
- ``POST /api/desk/sessions/reopen {"name"}``: a kept session reopened as the live one
  (``tablectl.room.console_reopen``): ``{"reopened", "kept"}``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from controller.room.moves import MoveEntry, MoveError
from tablectl.room.console_moves import ConsoleMoves

__all__ = ["moves_routes"]

Json = dict[str, Any]

Section = Annotated[str, Field(default="", max_length=8, pattern=r"^[A-Za-z]{0,8}$")]
Pair = Annotated[str, Field(pattern=r"^[A-Za-z0-9]{1,8}$", description="a pair's number")]
Round = Annotated[int, Field(ge=1, le=200)]
TableNumber = Annotated[int, Field(ge=1, le=200)]


class _Change(BaseModel):
    model_config = {"extra": "forbid"}
    by: str = Field(default="Director", min_length=1, max_length=60)
    reason: str = Field(min_length=1, max_length=300)


class _Rounds(_Change):
    section: Section = ""
    from_round: Round
    to_round: Round | None = None


class SwapBody(_Rounds):
    """Two pairs swapped places (a pair at the wrong table, a table's pairs the wrong way round)."""

    a: Pair
    b: Pair


class AddTableBody(_Rounds):
    """A new table from a round on: its two pairs, and the table whose boards it shares."""

    table: TableNumber
    ns: Pair
    ew: Pair
    shares: TableNumber


class RemoveTableBody(_Rounds):
    """A table that plays no more in those rounds."""

    table: TableNumber


class UndoMoveBody(_Change):
    entry: int = Field(ge=1)


class ReopenBody(BaseModel):
    model_config = {"extra": "forbid"}
    name: str = Field(min_length=1, max_length=80, pattern=r"^console-[0-9-]+$")


def moves_routes(api: APIRouter, console: object, changes: list[Any]) -> None:
    """The movement's and the kept sessions' routes (module doc) on the desk's router ``api``."""
    book = ConsoleMoves(console)

    async def make(build: Callable[[], MoveEntry]) -> Json:
        try:
            return await asyncio.to_thread(book.move, build(), time.time())
        except MoveError as exc:
            raise HTTPException(409, str(exc)) from exc

    @api.get("/moves", summary="The movement as played: the Director's changes and the sittings they give")
    async def moves() -> Json:
        return await asyncio.to_thread(book.moves)

    @api.post("/moves/swap", dependencies=changes, summary="Two pairs swapped places in some rounds")
    async def swap(body: SwapBody) -> Json:
        return await make(lambda: MoveEntry(0, "swap", body.section, body.from_round, body.by, 0.0, body.reason,
                                            body.to_round, a=body.a, b=body.b))

    @api.post("/moves/add-table", dependencies=changes, summary="A table added from a round on")
    async def add_table(body: AddTableBody) -> Json:
        return await make(lambda: MoveEntry(0, "table_added", body.section, body.from_round, body.by, 0.0,
                                            body.reason, body.to_round, table=body.table, ns=body.ns, ew=body.ew,
                                            shares=body.shares))

    @api.post("/moves/remove-table", dependencies=changes, summary="A table removed from a round on")
    async def remove_table(body: RemoveTableBody) -> Json:
        return await make(lambda: MoveEntry(0, "table_removed", body.section, body.from_round, body.by, 0.0,
                                            body.reason, body.to_round, table=body.table))

    @api.post("/moves/undo", dependencies=changes, summary="Take a movement change back (kept as a change)")
    async def undo(body: UndoMoveBody) -> Json:
        return await make(lambda: MoveEntry(0, "undo", "", 1, body.by, 0.0, body.reason, undoes=body.entry))

    @api.post("/sessions/reopen", dependencies=changes, summary="Reopen a kept session as the live one")
    async def reopen(body: ReopenBody) -> Json:
        if getattr(console, "store", None) is None:
            raise HTTPException(409, "this console keeps no sessions")
        from tablectl.room.console_reopen import ReopenError, reopen_session

        try:
            out: Json = await asyncio.to_thread(reopen_session, console, body.name)
        except ReopenError as exc:
            raise HTTPException(409, str(exc)) from exc
        return out
