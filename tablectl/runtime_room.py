"""What a running table holds of its room (a part of ``tablectl.runtime.TableRuntime``).

The room's link (``tablectl.room.link``) hands the table what the console publishes for it: the
players' results (``take_room_results``, shown by ``web_ui.player_results``), the club's roster
(``take_roster``: names and federation numbers only, for the table page's "Who is playing?"),
and that the table is in a room at all (``join_room``: the public pages then show a board only
once the room has released it, ``web_ui.privacy``). The players naming themselves at the table
page (``name_players``) goes the other way, as an ``alert`` row of the table's log.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["TableRoomSide"]


class TableRoomSide:
    """The room's side of the table (module doc): ``TableRuntime.__init__`` sets every attribute below."""

    _lock: threading.Lock
    _room_results: dict[str, Any] | None
    _roster: tuple[dict[str, str], ...]
    _named: dict[str, dict[str, str]]
    _in_room: bool
    room_version: int

    def report(self, body: Mapping[str, Any]) -> None:
        raise NotImplementedError  # ``TableRuntime.report``

    def _notify(self) -> None:
        raise NotImplementedError  # ``TableRuntime._notify``

    def room_results(self) -> dict[str, Any] | None:
        """The results the room's console published for this table's players (None: none yet;
        ``web_ui.player_results``)."""
        with self._lock:
            return self._room_results

    def take_room_results(self, body: Mapping[str, Any]) -> None:
        """Keep what the room's console published for this table's players (``tablectl.room.link``):
        the pages that show it are told."""
        with self._lock:
            self._room_results = dict(body)
            self._in_room = True
            self.room_version += 1
        self._notify()

    def take_roster(self, members: Sequence[Mapping[str, str]]) -> None:
        """Keep the club's roster the console sent (``tablectl.room.link``): names and numbers only."""
        kept = tuple({"name": str(m["name"]), "federation_id": str(m.get("federation_id", ""))} for m in members)
        with self._lock:
            self._roster = kept

    def room_roster(self) -> tuple[dict[str, str], ...]:
        """The club's roster for the table page's list (names and federation numbers)."""
        with self._lock:
            return self._roster

    def players_named(self) -> dict[str, dict[str, str]]:
        """Who named themselves at the table page so far (seat -> ``name``, ``federation_id``)."""
        with self._lock:
            return {seat: dict(p) for seat, p in self._named.items()}

    def name_players(self, players: Mapping[str, Mapping[str, str]]) -> None:
        """The players at the table name themselves (``web_ui.table_players``): kept for the page and
        written to the log as an ``alert`` row (``players_named``) that the link sends the console,
        which seats them in its Players panel unless the Director named the pair himself."""
        named = {seat: {"name": p["name"], "federation_id": p.get("federation_id", "")} for seat, p in players.items()}
        with self._lock:
            self._named = {**self._named, **named}
        words = ", ".join(f"{seat} {p['name']}" for seat, p in named.items())
        self.report({"alert": "players_named", "players": named, "alarm": False,
                     "what": f"the players named themselves at the table: {words}"})
        self._notify()

    def join_room(self) -> None:
        """A room's link is attached (``tablectl.room.link``): from now on the public pages show a
        board only once the room has released it (``web_ui.privacy``), nothing before the console
        has said which."""
        with self._lock:
            self._in_room = True
            self.room_version += 1

    def in_room(self) -> bool:
        with self._lock:
            return self._in_room
