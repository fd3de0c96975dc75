"""The players at a table name themselves before the first board: ``table_players_router(service)``.

A pair's players may be entered by the Director at the console, or by the players themselves on
the table page (issue: the pairs entered or picked at the start of the session). The table page
offers the club's roster as the console sent it (``tablectl.room.link``: names and federation
numbers only, never an e-mail address or a club) to pick from, by name or number, or a name typed
(a visitor needs no number). What they enter goes to the table's log and on to the console
(``TableRuntime.name_players``), which seats the pairs in its Players panel unless the Director
named them himself (``tablectl.room.table_names``: his entry wins).

- ``GET /api/table/roster``: ``{"members": [{"name", "federation_id"}]}`` (empty in no club room);
- ``GET /api/table/players``: ``{"open", "named"}``: whether the players may still name themselves
  (before the first board) and who did (``{"N": {"name", "federation_id"}, ...}``);
- ``POST /api/table/players`` ``{"N": {"name", "federation_id"}, "S": ..., "E": ..., "W": ...}``: at
  least one pair with both its players; a 409 once a board has begun (the Director names them
  then), a 403 from another site, a 404 at a table that cannot take names.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from web_ui.security import same_origin
from web_ui.service import TableService

__all__ = ["PlayersBody", "table_players_router"]

Json = dict[str, Any]


class NamedPlayer(BaseModel):
    """One player: the name, and the federation number when the club has it (letters and digits)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=80, pattern=r"^[^\x00-\x1f\x7f]*$")
    federation_id: str = Field(default="", max_length=20, pattern=r"^[A-Za-z0-9]*$")


class PlayersBody(BaseModel):
    """The players at the table, by seat (any may be missing; a pair needs both of its players)."""

    model_config = ConfigDict(extra="forbid")
    N: NamedPlayer | None = None
    S: NamedPlayer | None = None
    E: NamedPlayer | None = None
    W: NamedPlayer | None = None


def _open(service: TableService) -> bool:
    state = service.snapshot().state
    return state.board is None and not state.boards


def _named(body: PlayersBody) -> dict[str, dict[str, str]]:
    """The seats of the pairs named whole, names trimmed (HTTPException 422 when no pair is)."""
    out: dict[str, dict[str, str]] = {}
    for first, second in (("N", "S"), ("E", "W")):
        a, b = getattr(body, first), getattr(body, second)
        if a is None or b is None or not a.name.strip() or not b.name.strip():
            continue
        for seat, p in ((first, a), (second, b)):
            out[seat] = {"name": " ".join(p.name.split()), "federation_id": p.federation_id}
    if not out:
        raise HTTPException(422, "name both players of a pair: North and South, or East and West")
    return out


def table_players_router(service: TableService) -> APIRouter:
    """The routes of the module doc over ``service`` (a running table: ``TableRuntime``)."""
    api = APIRouter(prefix="/api/table", tags=["table"])

    @api.get("/roster", summary="The club's roster to pick from: names and federation numbers only")
    async def roster() -> Json:
        members = getattr(service, "room_roster", lambda: ())()
        return {"members": [{"name": m["name"], "federation_id": m.get("federation_id", "")} for m in members]}

    @api.get("/players", summary="Whether the players may still name themselves, and who did")
    async def players() -> Json:
        named = getattr(service, "players_named", None)
        return {"open": named is not None and _open(service), "named": {} if named is None else named()}

    @api.post("/players", summary="The players at the table name themselves (before the first board)",
              responses={403: {"description": "from another site"}, 404: {"description": "not here"},
                         409: {"description": "a board has begun"}, 422: {"description": "no pair named whole"}})
    async def name(body: PlayersBody, request: Request) -> Json:
        if same_origin(request.headers) is False:
            raise HTTPException(403, "cross-site request refused")
        take = getattr(service, "name_players", None)
        if take is None:
            raise HTTPException(404, "this table does not take the players' names")
        if not _open(service):
            raise HTTPException(409, "the first board has begun: ask the Director to enter your names")
        await asyncio.to_thread(take, _named(body))
        return {"open": True, "named": service.players_named()}  # type: ignore[attr-defined]

    return api
