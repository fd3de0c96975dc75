"""The room's records as the Director's console keeps them (a part of ``controller.room.console``): a table's
outbox stream as received (``Stream``), a call for the Director (``Call``), a table's tile (``Tile``) and its
colour on the page (``tile_colour``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["CALL_STATES", "EARLY_KEPT", "OPEN_CALLS_PER_TABLE", "Call", "Stream", "Tile", "awaits_ruling", "in_play",
           "open_by_table", "tile_colour"]

Json = dict[str, Any]

CALL_STATES = ("called", "acknowledged", "being_ruled", "resolved")
_IN_PLAY = ("auction", "declaration", "play")
OPEN_CALLS_PER_TABLE = 3
"""Open calls one table can put on the queue: a press of the call button while one is open is the
same call, and past this many open calls a table's next ones are counted (``folded``), not queued,
so that no table can bury the others' calls (its tile still says it needs the Director)."""


EARLY_KEPT = 20_000
"""Messages of one table session held ahead of a gap (a table sends them again after the gap)."""


@dataclass(slots=True)
class Stream:
    """One table session's outbox as received: the contiguous ``acked`` seq and what came early."""

    acked: int = 0
    early: dict[int, int] = field(default_factory=dict)
    """prev -> seq of messages that arrived before the one they follow."""
    early_seqs: set[int] = field(default_factory=set)

    def take(self, seq: int, prev: int) -> bool:
        """Record message ``seq`` (following ``prev``); False if it is held already (a duplicate), or
        when ``EARLY_KEPT`` messages wait already for the one they follow (the table sends them again)."""
        if seq <= self.acked or seq in self.early_seqs:
            return False
        if prev > self.acked and len(self.early) >= EARLY_KEPT:
            return False
        if prev <= self.acked:
            self.acked = seq
            while self.acked in self.early:
                nxt = self.early.pop(self.acked)
                self.early_seqs.discard(nxt)
                self.acked = max(self.acked, nxt)
        else:
            self.early[prev] = seq
            self.early_seqs.add(seq)
        return True


@dataclass(slots=True)
class Call:
    """One call for the Director: an irregularity needing him, or a table's call button."""

    key: str
    table: str
    board: int | None
    what: str
    since: float
    state: str = "called"
    irregularity: int | None = None
    seat: str | None = None
    law: str | None = None
    resolved_at: float | None = None
    outcome: str | None = None
    origin: str = "table"
    """``table`` (an irregularity, the call button) or ``room`` (what the console found across
    the tables: a fouled board, a board out of its round)."""
    by: str | None = None
    """The Director who is on the way (who took the call), or dealing with it; None: nobody yet."""
    resolved_by: str | None = None
    """The Director who closed it (None: the table, or nobody yet)."""

    def as_json(self, now: float) -> Json:
        end = self.resolved_at if self.resolved_at is not None else now
        return {"key": self.key, "table": self.table, "board": self.board, "what": self.what,
                "state": self.state, "since": self.since, "waited": round(max(0.0, end - self.since), 1),
                "irregularity": self.irregularity, "seat": self.seat, "law": self.law, "outcome": self.outcome,
                "origin": self.origin, "by": self.by, "resolved_by": self.resolved_by}


@dataclass(slots=True)
class Tile:
    table: str
    state: Json | None = None
    online: bool = False
    session: str | None = None
    seen: float = 0.0
    state_time: float = 0.0


def awaits_ruling(tile: Tile) -> bool:
    """The table itself says it waits for the Director's ruling (its state lists an irregularity
    awaiting one that needs him): only the table's next state can say it is applied."""
    awaiting = (tile.state or {}).get("awaiting")
    return isinstance(awaiting, list) and any(isinstance(i, dict) and i.get("alarm") is not False for i in awaiting)


def in_play(tile: Tile) -> bool:
    """The table was last heard with a board in progress."""
    return (tile.state or {}).get("phase") in _IN_PLAY


def open_by_table(calls: list[Call]) -> dict[str, list[Call]]:
    """table -> its calls not resolved, in the order of ``calls``."""
    out: dict[str, list[Call]] = {}
    for c in calls:
        if c.state != "resolved":
            out.setdefault(c.table, []).append(c)
    return out


def tile_colour(tile: Tile, calls: list[Call], late: bool = False) -> str:
    """The tile's state: ``lost`` (offline with a board in play or a call open: a power cut, a
    pulled cable), ``offline``, ``irregularity`` (the table awaits a ruling, whatever the queue
    says), ``called`` (the arbiter called at the table), ``late`` (the round's time is up, its
    boards not all played), ``round_finished``, ``idle`` or ``playing``."""
    open_calls = [c for c in calls if c.table == tile.table and c.state != "resolved"]
    if not tile.online and (tile.state is not None or not open_calls):
        # a table whose call came before any state of it (the alerts have a connection of their own:
        # ``tablectl.room.alert_lane``) was online to send it: its states are on their way, it is not lost
        return "lost" if in_play(tile) or open_calls or awaits_ruling(tile) else "offline"
    if awaits_ruling(tile) or any(c.irregularity is not None for c in open_calls):
        return "irregularity"
    if open_calls:
        return "called"
    if late:
        return "late"
    state = tile.state or {}
    if state.get("round_finished"):
        return "round_finished"
    if state.get("phase") in (None, "idle", "done"):
        return "idle"
    return "playing"
