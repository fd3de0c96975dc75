"""An event's head console follows the corrections the tables took from their rooms' consoles: a part of
``tablectl.room.console.Console`` (docs/event-topology.md, "Corrections in an event").

A Director's correction of a finished board's result (Law 79C) made at a room's console goes into the
table's own log (``tablectl.room.deskpush``, ``controller.table.corrections``), and the table publishes
that action on its ``event`` topic, which crosses the bridge with the rest of its outbox. The head
console holds the tables' outboxes, nothing lost and nothing doubled: after each batch it keeps
(``_take_room_corrections``, called by ``Console._take``) it makes every correction or taking back
among them an entry of its own desk (``controller.room.room_corrections.head_entry``), made by the
room's Director, when and why they made it, marked with the room, and kept in the console's store
with the other entries (``tablectl.room.console_desk``): the official ranking follows the room's.

What waits (a correction of a result the head does not hold yet) is tried again after each batch.
Whenever the console's room is new (the console started, or a new session began) every correction
its store holds is read again, so that one kept just before a crash, or before this console took
corrections at all, is taken: an entry the desk holds already is never taken twice.

The head Director's own correction of a table's result, and the taking back of an entry made at a
room's console, are refused with a plain message (``adjust``): they are made at the room's console,
where the table's log keeps them.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from controller.room.adjustments import DeskEntry, DeskError
from controller.room.console import Room
from controller.room.room_corrections import TableCorrection, head_entry, read_correction, refused_at_head
from tablectl.room.console_session import ConsoleSession
from tablectl.room.console_store import Message

__all__ = ["ConsoleMirror", "held_corrections"]

log = logging.getLogger("tablectl.room.console")
"""The console's log (``tablectl.room.console``)."""

Json = dict[str, Any]

WAITING_KEPT = 10_000
"""Corrections kept waiting for what they follow (a night's are a few dozen; past it the oldest go)."""
_MARKS = ('"correction"', '"undo_correction"')
"""What an ``event`` message carrying a correction has in its text (the action's key)."""


def held_corrections(path: Path) -> list[TableCorrection]:
    """Every correction or taking back among the tables' ``event`` messages kept in the console's
    store at ``path``, in the order they arrived (read only; none when it cannot be read)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10.0)) as conn:
            rows = list(conn.execute(
                "SELECT table_id, payload FROM message WHERE kind = 'event' AND (payload LIKE ? OR payload LIKE ?) "
                "ORDER BY received, rowid", tuple(f"%{m}%" for m in _MARKS)))
    except sqlite3.Error as exc:
        log.warning("console: the corrections kept in %s cannot be read (%s)", path, exc)
        return []
    return [found for table, payload in rows if (found := _read(str(table), str(payload))) is not None]


def _read(table: str, text: str) -> TableCorrection | None:
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return read_correction(table, msg) if isinstance(msg, dict) else None


class ConsoleMirror(ConsoleSession):
    """The head console's taking of the rooms' corrections (module doc); ``Console`` sets every
    attribute (``Console.__init__``)."""

    head: bool
    rooms: Mapping[str, Sequence[str]] = MappingProxyType({})
    """Each room's tables (``centre/directors.toml``'s ``[tables]``): which room an entry came from."""
    _mirror_room: Room | None = None
    """The room whose store was read for corrections (another one: read it again)."""
    _mirror_waiting: tuple[TableCorrection, ...] = ()
    """Corrections waiting for what they follow, oldest first."""

    def room_of(self, table: str) -> str:
        """The room of ``table`` ("" when the console does not know it)."""
        return next((room for room, tables in self.rooms.items() if table in tables), "")

    def adjust(self, entry: DeskEntry) -> Json:
        """The Director's ``entry`` (``ConsoleSession.adjust``); on the head console a correction, or
        the taking back of an entry made at a room's console, is refused (DeskError, nothing changed)."""
        if self.head:
            with self._lock:
                why = refused_at_head(entry, self.room.results.desk, self.room_of)
            if why is not None:
                raise DeskError(why)
        return super().adjust(entry)

    def _take_room_corrections(self, kept: list[Message]) -> None:
        """The head console's: the corrections among ``kept`` (just kept in the store) and those
        waiting, taken on its desk (module doc)."""
        if not self.head:
            return
        with self._lock:
            fresh = [found for table, _session, _seq, kind, text, _now in kept
                     if kind == "event" and any(m in text for m in _MARKS)
                     and (found := _read(table, text)) is not None]
            if self._mirror_room is not self.room:  # started, or a new session: everything its store holds
                self._mirror_room = self.room
                self._mirror_waiting = ()
                fresh = held_corrections(self.store.path)
            waiting = (*self._mirror_waiting, *fresh)
            if not waiting:
                return
            made, self._mirror_waiting = self._take_corrections(waiting)
            if made:
                self._bump(())
        if made:  # the pages: the desk, the travellers and the ranking (no table reads the head console)
            self._notify()

    def _take_corrections(self, waiting: tuple[TableCorrection, ...]) -> tuple[int, tuple[TableCorrection, ...]]:
        """Take each of ``waiting`` in order, again while one taken lets another go (under the lock):
        how many were made, and what still waits."""
        made = 0
        left = list(waiting)
        progress = True
        while progress and left:
            progress = False
            still: list[TableCorrection] = []
            for found in left:
                if self._take_correction(found, still):
                    made += 1
                    progress = True
            left = still
        if len(left) > WAITING_KEPT:
            log.warning("console: %d corrections wait for results this console lacks: the oldest are dropped",
                        len(left))
            left = left[-WAITING_KEPT:]
        return made, tuple(left)

    def _take_correction(self, found: TableCorrection, still: list[TableCorrection]) -> bool:
        """Whether ``found`` was made an entry of the desk (kept); what must wait goes to ``still``."""
        results = self.room.results
        taking = head_entry(found, results.desk, results.results, self.room_of(found.table))
        if taking.wait:
            still.append(found)
            return False
        if taking.entry is None:
            log.debug("console: %s", taking.why)
            return False
        before = results.desk
        try:
            made = results.adjust(taking.entry)
        except DeskError as exc:
            log.warning("console: table %s's entry %d of its room's console cannot be taken: %s",
                        found.table, found.action.entry, exc)
            return False
        try:
            self.desk_store.add(made)
        except sqlite3.Error as exc:  # tried again after the next batch
            results.desk = before
            results.scored_again()
            still.append(found)
            log.warning("console: table %s's entry %d of its room's console cannot be kept in %s (%s): it waits",
                        found.table, found.action.entry, self.desk_store.path, exc)
            return False
        log.info("console: table %s's entry %d of its room's console taken as entry %d: %s", found.table,
                 found.action.entry, made.id, made.what())
        self.store.act(made.at, made.by, "desk", made.table, None,
                       {"entry": made.id, "entry_kind": made.kind, "board": made.board, "reason": made.reason,
                        "from_room": made.from_room.as_json() if made.from_room is not None else None})
        return True
