"""The movement changes kept in the console's store (``console.sqlite``, table ``move_entry``) and applied to its room.

Every change of the movement the Director makes (``controller.room.moves``: pairs swapped, a
table added or removed, a change taken back) is kept, in order, as the JSON of its entry, before
it counts: when it cannot be written the room is left as it was. A restarted console, and a kept
session read again (``tablectl.room.sessions.read_archive``), apply them after the tables'
messages, so that every result stands with the pairs who played it. The session file itself is
never changed (a new session starts from it as planned).
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from controller.fieldscore.session import Session
from controller.room.console import Room
from controller.room.moves import MoveEntry, MoveError, Moves, refollowed
from tablectl.room.console_desk import entries_in_order

__all__ = ["ConsoleMoves", "apply_moves", "load_moves"]

log = logging.getLogger(__name__)

Json = dict[str, Any]

_SCHEMA = "CREATE TABLE IF NOT EXISTS move_entry (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)"


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None, timeout=10.0)
    conn.execute("PRAGMA journal_mode=WAL")
    return conn


def load_moves(path: Path | None, *, read_only: bool = False) -> Moves:
    """The changes kept in the console's file ``path``, in order; one that cannot be read ends the
    list (what follows may depend on it), with a warning. ``read_only``: a kept session's file."""
    if path is None:
        return Moves()
    try:
        if read_only:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        else:
            conn = _connect(path)
            conn.execute(_SCHEMA)
        with contextlib.closing(conn):
            rows = list(conn.execute("SELECT id, payload FROM move_entry ORDER BY id"))
    except sqlite3.Error:
        return Moves()  # a file older than the movement changes: none
    return Moves(tuple(entries_in_order(rows, MoveEntry.from_json, "movement change")))


def _keep(path: Path, entry: MoveEntry) -> None:
    with contextlib.closing(_connect(path)) as conn:
        conn.execute(_SCHEMA)
        conn.execute("INSERT INTO move_entry VALUES (?, ?)", (entry.id, json.dumps(entry.as_json())))


def apply_moves(room: Room, base: Session | None, moves: Moves, people: Any = None) -> None:
    """Put ``room``'s results to the pairs of ``base`` changed by ``moves`` (``people``: the
    console's ``People``, whose pairs follow the changed movement)."""
    if base is None or (not moves.entries and room.results.session is base):
        return  # played as planned: nothing to follow again
    session = moves.session(base)
    room.results = refollowed(room.results, session)
    if people is not None:
        people.session = session


class ConsoleMoves:
    """The movement changes of a console (``tablectl.room.console.Console``, or any holder of a
    ``room``): kept in its SQLite file (``store.path``, else its ``people``'s file; none: in memory),
    applied to its room, the pages told (``people_changed``)."""

    def __init__(self, console: object) -> None:
        self.console = console
        self.base: Session | None = getattr(console, "session", None)
        room = getattr(console, "room", None)
        if self.base is None and isinstance(room, Room):
            self.base = room.results.session
        self._memory = Moves()
        self._fallback_lock = threading.RLock()

    def _room(self) -> Room:
        room = getattr(self.console, "room", None)
        if not isinstance(room, Room):
            raise MoveError("this console has no room")
        return room

    def _path(self) -> Path | None:
        store = getattr(self.console, "store", None)
        path = getattr(store, "path", None)
        if isinstance(path, Path):
            return path
        people = getattr(self.console, "people", None)
        kept = getattr(people, "store", None)
        return kept if isinstance(kept, Path) else None

    def _lock(self) -> Any:
        return getattr(self.console, "_lock", None) or self._fallback_lock

    def _moves(self) -> Moves:
        path = self._path()
        return self._memory if path is None else load_moves(path)

    def moves(self) -> Json:
        """``{"entries": [...], "sittings": the movement as changed}``, oldest first."""
        with self._lock():
            moves = self._moves()
        session = None if self.base is None else moves.session(self.base)
        sittings = [] if session is None else [
            {"section": name, "round": s.round, "table": s.table, "ns": s.ns, "ew": s.ew,
             "boards": list(m.boards(s.board_set)), "sit_out": s.sit_out}
            for name, m in session.sections for s in m.sittings]
        return {"entries": moves.as_json(), "sittings": sittings,
                "rounds": None if session is None else session.rounds}

    def move(self, entry: MoveEntry, at: float) -> Json:
        """Make and keep the change ``entry``, made at ``at``; the results follow (MoveError:
        refused or not kept, nothing changed)."""
        if self.base is None:
            raise MoveError("changing the movement needs the Director's session (its movement)")
        with self._lock():
            moves, made = self._moves().add(self.base, replace(entry, at=at))
            path = self._path()
            if path is None:
                self._memory = moves
            else:
                try:
                    _keep(path, made)
                except sqlite3.Error as exc:
                    raise MoveError(f"the change could not be kept in the console's store ({exc}): "
                                    "nothing changed") from None
            apply_moves(self._room(), self.base, moves, getattr(self.console, "people", None))
        changed = getattr(self.console, "people_changed", None)
        if callable(changed):
            changed()
        return made.as_json()
