"""An event's head console takes the corrections the tables took from their rooms' consoles (pure).

In an event (docs/event-topology.md, "Corrections in an event") a Director corrects a finished
board's result (Law 79C) at the console of the table's room. The table's own log takes the
correction as an entry of its own (``controller.table.corrections``) and publishes that action on
its ``event`` topic, an outbox message like any other: it crosses the bridge, and the head console
holds it, nothing lost and nothing doubled. The table's log is the truth; the head console follows it:

* ``read_correction`` reads a table's ``event`` message: a correction or its taking back that the
  table took (one it refused is no correction), with the table's log session;
* ``head_entry`` makes it an entry of the head console's desk, made by the room's Director, when and
  why they made it, marked ``from_room`` (``controller.room.adjustments.FromRoom``). The table's log
  session, the entry's number at the room's console and when it was made name it: an entry the desk
  holds already is not taken again. Taking back a correction takes back the head's entry of it.
  A correction of a result the head console does not hold yet, or the taking back of a correction it
  has not taken yet, waits (``Taking.wait``): it is taken once the head holds what it follows.

The head Director's own correction of a table's result is refused (``refused_at_head``): it would
be in no table's log, and the room's ranking would not have it. Corrections are made at the room's
console, which sends them to the table; the head console takes them from the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from controller import actions as a
from controller.errors import BridgeTableError
from controller.records.tablelog import action_of
from controller.room.adjustments import Desk, DeskEntry, FromRoom, Played

__all__ = ["TableCorrection", "Taking", "head_entry", "made_at", "read_correction", "refused_at_head", "room_words"]

Json = dict[str, Any]
Key = tuple[str, str, int, str]


@dataclass(frozen=True, slots=True)
class TableCorrection:
    """A correction (``a.CorrectResult``) or its taking back (``a.UndoCorrection``) that ``table``'s
    log took in its ``session``; ``at``: when the table published it (wall-clock seconds)."""

    table: str
    session: str
    action: a.CorrectResult | a.UndoCorrection
    at: float = 0.0

    @property
    def key(self) -> Key:
        """What names the entry: the table, its log session, the entry's number at the room's console
        and when it was made there."""
        return (self.table, self.session, self.action.entry, self.action.made)


@dataclass(frozen=True, slots=True)
class Taking:
    """What the head console does with a ``TableCorrection``: add ``entry`` to its desk; or nothing
    now and try again later (``wait``), or nothing ever (``why``: held already, or cannot be taken)."""

    entry: DeskEntry | None = None
    wait: bool = False
    why: str = ""


def read_correction(table: str, msg: Mapping[str, Any]) -> TableCorrection | None:
    """The correction a table's ``event`` message carries (the envelope's ``session``, the body's
    ``action``), or None: another action, one the table refused, or one that cannot be read."""
    body = msg.get("body", msg)
    if not isinstance(body, Mapping) or body.get("rejected") is not None:
        return None
    action = body.get("action")
    if not isinstance(action, Mapping) or not ("correction" in action or "undo_correction" in action):
        return None
    try:
        found = action_of(dict(action))
    except (BridgeTableError, ValueError):
        return None
    if not isinstance(found, a.CorrectResult | a.UndoCorrection):
        return None
    at = msg.get("at")
    return TableCorrection(table, str(msg.get("session", "")), found,
                           float(at) if isinstance(at, int | float) and not isinstance(at, bool) else 0.0)


def made_at(made: str, fallback: float) -> float:
    """Wall-clock seconds of an entry's ``made`` (ISO 8601, as ``controller.room.deskmsg`` writes it);
    ``fallback`` when it cannot be read."""
    try:
        when = datetime.fromisoformat(made.replace("Z", "+00:00"))
    except ValueError:
        return fallback
    return when.timestamp() if when.tzinfo is not None else fallback


def _key(e: DeskEntry) -> Key | None:
    r = e.from_room
    return None if r is None else (e.table, r.session, r.entry, r.made)


def _taken_from(desk: Desk, table: str, session: str, entry: int) -> DeskEntry | None:
    """The head desk's entry of correction ``entry`` of ``table``'s log ``session`` (the latest)."""
    found = None
    for e in desk.entries:
        r = e.from_room
        if e.kind == "correction" and r is not None and e.table == table and r.session == session and r.entry == entry:
            found = e
    return found


def head_entry(found: TableCorrection, desk: Desk, results: Mapping[str, Mapping[str, Any]], room: str) -> Taking:
    """What the head console's ``desk`` takes of ``found`` (module doc): ``results`` are the tables'
    results it holds (board -> table -> message), ``room`` the table's room ("" when unknown)."""
    if any(_key(e) == found.key for e in desk.entries):
        return Taking(why=f"entry {found.action.entry} of table {found.table}'s room is on the desk already")
    act = found.action
    origin = FromRoom(room, found.session, act.entry, act.made)
    when = made_at(act.made, found.at)
    if isinstance(act, a.CorrectResult):
        board = str(act.board)
        if found.table not in results.get(board, {}):
            return Taking(wait=True, why=f"table {found.table}'s result on board {board} is not here yet")
        return Taking(DeskEntry(0, "correction", board, found.table, act.by, when, act.reason,
                                played=Played(act.contract, act.tricks, act.lead), from_room=origin))
    target = _taken_from(desk, found.table, found.session, act.undoes)
    if target is None:
        return Taking(wait=True, why=f"correction {act.undoes} of table {found.table} is not here yet")
    if target.id in desk.undone():
        return Taking(why=f"this console's entry {target.id} (correction {act.undoes} of table {found.table}) "
                      "was taken back already")
    return Taking(DeskEntry(0, "undo", target.board, found.table, act.by, when, act.reason, undoes=target.id,
                            from_room=origin))


def room_words(room: str) -> str:
    """``room A``, or ``the table's room`` when the head console does not know it."""
    return f"room {room}" if room else "the table's room"


def refused_at_head(entry: DeskEntry, desk: Desk, room_of: Callable[[str], str]) -> str | None:
    """Why an event's head console refuses its Director's ``entry`` (module doc), None when it takes it:
    a correction of a table's result is made at the room's console, which sends it to the table's own
    log; an entry taken from a room is taken back there."""
    if entry.kind == "correction":
        where = room_words(room_of(entry.table))
        return (f"Correct table {entry.table}'s result on board {entry.board} at {where}'s console: the "
                "correction goes into the table's own log there, and this console takes it from the table "
                "(an adjusted score can be given here).")
    target = desk.get(entry.undoes) if entry.kind == "undo" else None
    if target is not None and target.from_room is not None:
        where = room_words(target.from_room.room)
        return (f"Entry {target.id} was made at {where}'s console by {target.by}: take it back there, "
                "where the table's own log keeps it; this console follows the table.")
    return None
