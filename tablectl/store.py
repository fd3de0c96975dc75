"""The table's append-only event log in SQLite: what happened, in order, durably.

The log is event-sourced. Its *inputs* are what came into the table from outside, in the
order the engine took them: raw sensor events (``raw``), deadline ticks of the sensing
layer that changed something (``tick``) and actions entered from outside the sensors
(``action``: the session line, the arbiter's rulings and manual entries, a board started
from the board reader's tag). Each input is followed, in the same transaction, by what the
engine derived from it: the table actions in their table-log JSON form with whether the
table took them (``derived``), and the sensing layer's notices (``notice``). A ``run`` row
marks every start-up. The live state is never stored: ``tablectl.engine.rebuild`` re-runs
the inputs through the same pure functions (``Sensing`` and ``step``) and checks that the
actions it derives are those stored.

Schema (one table; ``meta`` holds the session's fixed settings)::

    meta(key TEXT PRIMARY KEY, value TEXT)           -- format, session, decks, sensing, ...
    log(seq INTEGER PRIMARY KEY,                      -- the order of everything, from 1
        input INTEGER NOT NULL,                       -- the input row this row belongs to
        kind TEXT NOT NULL,                           -- raw | tick | action | derived | notice | run
        t REAL NOT NULL,                              -- table time, seconds
        body TEXT NOT NULL,                           -- JSON
        crc INTEGER NOT NULL)                         -- CRC-32 of kind, t and body

Durability. The database is in WAL mode with ``synchronous=FULL``: every commit ends
with an fsync of the write-ahead log, so a transaction that ``append`` returned from
survives a power cut, not only a crash of the process (``NORMAL`` would be enough for a
crash but may lose the last transactions when the power goes, which is exactly the case a
table under a club's table has to survive). The engine commits once per batch of queued
inputs (group commit), so one fsync covers every event that arrived while the previous one
was being written, and acknowledges (publishes the state, answers the arbiter) only after
the commit.

Damage. SQLite's WAL recovery drops a half-written tail (frames after the last complete
commit) by itself. A row that is damaged anyway (its CRC or JSON does not check out: a bad
sector, a hand edit) is reported by ``read`` as a ``BadRow`` and the others are kept; a file
that is not a database at all is moved aside (``table.sqlite.damaged-<time>``) and a new
log is started, with an error in the system log. Nothing here ever stops the table from
starting.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import sqlite3
import time
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.errors import BridgeTableError
from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth, RawEvent, TagGone, TagSeen

__all__ = [
    "FORMAT",
    "INPUT_KINDS",
    "BadRow",
    "EventStore",
    "Row",
    "StoreError",
    "raw_of",
    "raw_to_json",
]

log = logging.getLogger(__name__)

FORMAT = "bridgetable-log/1"
INPUT_KINDS = frozenset({"raw", "tick", "action"})
KINDS = INPUT_KINDS | {"derived", "notice", "run"}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS log (
    seq INTEGER PRIMARY KEY,
    input INTEGER NOT NULL,
    kind TEXT NOT NULL,
    t REAL NOT NULL,
    body TEXT NOT NULL,
    crc INTEGER NOT NULL
);
"""


class StoreError(BridgeTableError, OSError):
    """The log cannot be opened or written (disk full, permissions, a dead SD card)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the log: ``seq`` (0 until appended), the ``input`` it belongs to, ``kind``,
    table time ``t`` and the decoded JSON ``body``."""

    kind: str
    t: float
    body: Mapping[str, Any]
    seq: int = 0
    input: int = 0

    @property
    def is_input(self) -> bool:
        return self.kind in INPUT_KINDS


@dataclass(frozen=True, slots=True)
class BadRow:
    """A row that cannot be used, and why (it is skipped; the rows around it are kept)."""

    seq: int
    error: str


def _crc(kind: str, t: float, body: str) -> int:
    return zlib.crc32(f"{kind}\x1f{t!r}\x1f{body}".encode())


class EventStore:
    """The append-only log of one table session in one SQLite file (see the module doc).

    Used from one thread at a time (the runtime's engine thread once it runs).
    """

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn
        row = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM log").fetchone()
        self._seq: int = int(row[0])

    @classmethod
    def open(cls, path: str | Path) -> EventStore:
        """Open (or create) the log at ``path``; a file that is not a database is moved aside."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the data directory {path.parent}: {exc.strerror or exc}") from None
        try:
            return cls(path, cls._connect(path))
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and "unable to open" in str(exc):
                raise StoreError(f"cannot open the table log {path}: {exc}") from None
            aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
            log.error("table log %s cannot be read (%s): moved aside to %s, starting a new log",
                      path, exc, aside)
            for suffix in ("", "-wal", "-shm"):
                src = Path(str(path) + suffix)
                if src.exists():
                    src.rename(Path(str(aside) + suffix))
            try:
                return cls(path, cls._connect(path))
            except sqlite3.DatabaseError as exc2:
                raise StoreError(f"cannot open the table log {path}: {exc2}") from None

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        try:
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise sqlite3.DatabaseError(f"journal mode {mode!r} instead of WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA busy_timeout=5000")
            conn.executescript(_SCHEMA)
            conn.execute("SELECT count(*) FROM log").fetchone()
        except sqlite3.DatabaseError:
            conn.close()
            raise
        return conn

    def close(self) -> None:
        """Checkpoint the WAL into the database file and close it (may be called twice)."""
        with contextlib.suppress(sqlite3.Error):
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._conn.close()

    # -- meta ---------------------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        """The session's fixed settings (key -> decoded JSON); a value that cannot be decoded is left out."""
        out: dict[str, Any] = {}
        for key, value in self._conn.execute("SELECT key, value FROM meta"):
            try:
                out[str(key)] = json.loads(value)
            except (TypeError, ValueError):
                log.error("table log %s: meta %r is not JSON, ignored", self.path, key)
        return out

    def set_meta(self, values: Mapping[str, Any]) -> None:
        """Write session settings (one transaction, durable when it returns)."""
        try:
            with self._transaction():
                self._conn.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                                       [(k, json.dumps(v, sort_keys=True)) for k, v in values.items()])
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write the table log {self.path}: {exc}") from None

    # -- rows ---------------------------------------------------------------------------------

    @property
    def last_seq(self) -> int:
        return self._seq

    def append(self, groups: Iterable[tuple[Row, Iterable[Row]]]) -> list[Row]:
        """Append inputs, each followed by the rows derived from it, in one durable transaction.

        Returns the rows with their ``seq`` and ``input`` numbers. ``StoreError`` if the
        disk refuses (nothing of the batch is then written).
        """
        seq = self._seq
        out: list[Row] = []
        values: list[tuple[int, int, str, float, str, int]] = []
        for head, derived in groups:
            if not head.is_input:
                raise ValueError(f"a group starts with an input row, not {head.kind!r}")
            input_seq = 0
            for row in (head, *derived):
                if row.kind not in KINDS:
                    raise ValueError(f"unknown row kind {row.kind!r}")
                if not math.isfinite(row.t):
                    raise ValueError(f"row time must be finite, not {row.t!r}")
                seq += 1
                if row is head:
                    input_seq = seq
                body = json.dumps(row.body, separators=(",", ":"), sort_keys=True)
                values.append((seq, input_seq, row.kind, row.t, body, _crc(row.kind, row.t, body)))
                out.append(Row(row.kind, row.t, row.body, seq, input_seq))
        if not values:
            return out
        try:
            with self._transaction():
                self._conn.executemany("INSERT INTO log(seq, input, kind, t, body, crc) VALUES (?, ?, ?, ?, ?, ?)",
                                       values)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write the table log {self.path}: {exc}") from None
        self._seq = seq
        return out

    def note(self, row: Row) -> Row:
        """Append one row that is not an input (a ``run`` mark), durably."""
        seq = self._seq + 1
        body = json.dumps(row.body, separators=(",", ":"), sort_keys=True)
        try:
            with self._transaction():
                self._conn.execute("INSERT INTO log(seq, input, kind, t, body, crc) VALUES (?, ?, ?, ?, ?, ?)",
                                   (seq, 0, row.kind, row.t, body, _crc(row.kind, row.t, body)))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write the table log {self.path}: {exc}") from None
        self._seq = seq
        return Row(row.kind, row.t, row.body, seq, 0)

    def read(self) -> Iterator[Row | BadRow]:
        """Every row in order; a damaged row is a ``BadRow`` saying why (and is logged)."""
        cursor = self._conn.execute("SELECT seq, input, kind, t, body, crc FROM log ORDER BY seq")
        for seq, input_seq, kind, t, body, crc in cursor:
            error = _check(kind, t, body, crc)
            if error is None:
                try:
                    decoded = json.loads(body)
                except ValueError as exc:
                    error = f"body is not JSON ({exc})"
                else:
                    if not isinstance(decoded, dict):
                        error = "body is not a JSON object"
            if error is not None:
                message = f"table log {self.path}, row {seq}: {error}; row skipped"
                log.error("%s", message)
                yield BadRow(int(seq), message)
                continue
            yield Row(str(kind), float(t), decoded, int(seq), int(input_seq))

    def _transaction(self) -> _Transaction:
        return _Transaction(self._conn)


def _check(kind: object, t: object, body: object, crc: object) -> str | None:
    if not isinstance(kind, str) or kind not in KINDS:
        return f"unknown kind {kind!r}"
    if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t):
        return f"time {t!r} is not a number of seconds"
    if not isinstance(body, str):
        return "body is not text"
    if crc != _crc(kind, float(t), body):
        return "checksum does not match (damaged row)"
    return None


class _Transaction:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self.conn.execute("COMMIT")
        else:
            self.conn.execute("ROLLBACK")


# -- raw sensor events as JSON ------------------------------------------------------------------

def raw_to_json(event: RawEvent) -> dict[str, Any]:
    """The JSON body of a raw sensor event (``t`` is kept apart, in the row)."""
    if isinstance(event, TagSeen):
        return {"tag": "seen", "reader": event.reader, "uid": event.uid}
    if isinstance(event, TagGone):
        return {"tag": "gone", "reader": event.reader, "uid": event.uid}
    if isinstance(event, ContactChanged):
        return {"contact": event.slot, "seat": event.seat, "present": event.present}
    if isinstance(event, ButtonPressed):
        return {"button": event.name, "seat": event.seat}
    return {"device": event.device, "up": event.up, "detail": event.detail}


def raw_of(body: Mapping[str, Any], t: float) -> RawEvent:
    """The raw sensor event of a JSON body; ValueError if it is not one."""
    def text(key: str) -> str:
        value = body.get(key)
        if not isinstance(value, str):
            raise ValueError(f"raw event field {key!r} must be text, not {value!r}")
        return value

    def flag(key: str) -> bool:
        value = body.get(key)
        if not isinstance(value, bool):
            raise ValueError(f"raw event field {key!r} must be true or false, not {value!r}")
        return value

    if "tag" in body:
        if body["tag"] == "seen":
            return TagSeen(text("reader"), text("uid"), t)
        if body["tag"] == "gone":
            return TagGone(text("reader"), text("uid"), t)
        raise ValueError(f"unknown tag event {body['tag']!r}")
    if "contact" in body:
        return ContactChanged(text("seat"), text("contact"), flag("present"), t)
    if "button" in body:
        return ButtonPressed(text("seat"), text("button"), t)
    if "device" in body:
        return DeviceHealth(text("device"), flag("up"), text("detail"), t)
    raise ValueError(f"not a raw sensor event: {dict(body)!r}")
