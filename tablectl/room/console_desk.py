"""The Director's desk entries kept in the console's store (``console.sqlite``, table ``desk_entry``).

Every correction, adjusted score, procedural penalty and undo the Director makes
(``controller.room.adjustments``) is kept, in order, as the JSON of its entry. A restarted
console reads them back after the tables' messages, so that the scores stand as they stood.
An entry is kept before it counts: when it cannot be written the desk is left as it was.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

from controller.room.adjustments import Desk, DeskEntry, DeskError, absent
from controller.room.deskmsg import with_answers
from controller.room.results import RoomResults

__all__ = ["DeskStore", "absent_kept", "adjust_kept", "desk_json", "load_desk", "restore_desk"]

log = logging.getLogger(__name__)

Json = dict[str, Any]


class DeskStore:
    """The desk's entries in the console's SQLite file (a connection of its own for each use:
    entries are few, and the console's own connection stays the console's)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with contextlib.closing(self._connect()) as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS desk_entry (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)")

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(str(self.path), isolation_level=None, timeout=10.0)
        conn.execute("PRAGMA journal_mode=WAL")
        return conn

    def add(self, entry: DeskEntry) -> None:
        """Keep ``entry`` (sqlite3.Error when it cannot be written, or its id is taken)."""
        with contextlib.closing(self._connect()) as conn:
            conn.execute("INSERT INTO desk_entry VALUES (?, ?)", (entry.id, json.dumps(entry.as_json())))

    def add_all(self, entries: list[DeskEntry]) -> None:
        """Keep ``entries`` in one transaction: all or none (sqlite3.Error)."""
        with contextlib.closing(self._connect()) as conn:
            conn.execute("BEGIN")
            try:
                conn.executemany("INSERT INTO desk_entry VALUES (?, ?)",
                                 [(e.id, json.dumps(e.as_json())) for e in entries])
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def load(self) -> list[DeskEntry]:
        """Every entry kept, in order; one that cannot be read ends the list (what follows it may
        depend on it), with a warning."""
        with contextlib.closing(self._connect()) as conn:
            rows = list(conn.execute("SELECT id, payload FROM desk_entry ORDER BY id"))
        return _entries(rows)


def load_desk(path: Path) -> list[DeskEntry]:
    """The entries kept in a kept session's file, read only (none in a file older than the desk)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            rows = list(conn.execute("SELECT id, payload FROM desk_entry ORDER BY id"))
    except sqlite3.Error:
        return []
    return _entries(rows)


class _Numbered(Protocol):
    @property
    def id(self) -> int: ...


_E = TypeVar("_E", bound=_Numbered)


def entries_in_order(rows: list[Any], parse: Callable[[Any], _E], what: str) -> list[_E]:
    """The entries of ``(id, payload)`` rows, read by ``parse``, numbered 1, 2, ... in order: one that
    cannot be read or is out of order ends the list (what follows it may depend on it), with a
    warning naming it as ``what`` (the desk's entries, the movement's changes)."""
    out: list[_E] = []
    for id_, payload in rows:
        try:
            entry = parse(json.loads(payload))
        except (ValueError, TypeError) as exc:
            log.warning("console: %s %s cannot be read (%s): it and those after it are ignored", what, id_, exc)
            break
        if entry.id != len(out) + 1:
            log.warning("console: %s %s is out of order: it and those after it are ignored", what, id_)
            break
        out.append(entry)
    return out


def _entries(rows: list[Any]) -> list[DeskEntry]:
    return entries_in_order(rows, DeskEntry.from_json, "desk entry")


def restore_desk(results: RoomResults, entries: list[DeskEntry]) -> None:
    """Put the kept ``entries`` back as they were made (they were checked when made)."""
    results.desk = Desk(tuple(entries))
    results.scored_again()


def adjust_kept(results: RoomResults, store: DeskStore, entry: DeskEntry, at: float) -> DeskEntry:
    """Add ``entry``, made at ``at`` (wall-clock seconds), to the desk and keep it; DeskError when
    it is refused or cannot be kept, the desk unchanged either way."""
    before = results.desk
    made = results.adjust(replace(entry, at=at))
    _keep(results, before, lambda: store.add(made), "the entry")
    return made


def absent_kept(results: RoomResults, store: DeskStore, section: str | None, pair: str, rounds: range,
                by: str, reason: str, at: float) -> list[DeskEntry]:
    """``pair`` late or gone for ``rounds`` (``controller.room.adjustments.absent``), every entry
    kept or none; DeskError, the desk unchanged, when refused or not kept."""
    before = results.desk
    made = absent(results, section, pair, rounds, by, reason, at)
    _keep(results, before, lambda: store.add_all(made), "the entries")
    return made


def _keep(results: RoomResults, before: Desk, write: Callable[[], None], what: str) -> None:
    """Write the desk's new entries (``write``); when the store cannot, the desk goes back to ``before``,
    scored again, and DeskError says so."""
    try:
        write()
    except sqlite3.Error as exc:
        results.desk = before
        results.scored_again()
        raise DeskError(f"{what} could not be kept in the console's store ({exc}): nothing changed") from None


def desk_json(results: RoomResults, answers: Mapping[tuple[str, int], Json] | None = None) -> Json:
    """Every entry, oldest first, each with ``undone`` (taken back since), and the tables' answers to the
    corrections sent to their logs (``table_answer``: ``controller.room.deskmsg.with_answers``)."""
    return {"entries": with_answers(results.desk.as_json(), answers or {})}
