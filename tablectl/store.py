"""The table's append-only event log in SQLite: what happened, in order, durably.

The log is event-sourced: its rows (inputs, what each derived, start-up marks, the club
room's rows) and their JSON bodies are those of ``controller.records.eventlog``, the one
codec of the log; this module only keeps them in SQLite. Each input is written in the same
transaction as what the engine derived from it. The live state is never stored:
``controller.engine.rebuild`` re-runs the inputs through the same pure functions
(``Sensing`` and ``step``) and checks that the actions it derives are those stored.

Schema (two tables; ``meta`` holds the session's fixed settings)::

    meta(key TEXT PRIMARY KEY, value TEXT)           -- format, session, session_id, decks, sensing, ...
    log(seq INTEGER PRIMARY KEY,                      -- the order of everything, from 1
        input INTEGER NOT NULL,                       -- the input row this row belongs to
        kind TEXT NOT NULL,                           -- raw | tick | action | derived | notice | run | alert | result
        t REAL NOT NULL,                              -- table time, seconds
        body TEXT NOT NULL,                           -- JSON
        crc INTEGER NOT NULL)                         -- CRC-32 of kind, t and body

``session_id`` (a random hex id) is made when a log that has none is opened, so it names
the session from its first row to its last.

Readers. ``open_reader`` gives a read-only view with its own connection, for another
thread (the club-room link reads the rows after those it has published while the engine
thread writes: WAL lets one writer and readers work at once) or for a log no table is
writing (``snapshot=True``: ``tablectl replay table.sqlite``), which it never changes.

Durability. The database is in WAL mode with ``synchronous=FULL``: every commit ends
with an fsync of the write-ahead log, so a transaction that ``append`` returned from
survives a power cut, not only a crash of the process (``NORMAL`` would be enough for a
crash but may lose the last transactions when the power goes, which is exactly the case a
table under a club's table has to survive). The engine commits once per batch of queued
inputs (group commit), so one fsync covers every event that arrived while the previous one
was being written, and acknowledges (publishes the state, answers the arbiter) only after
the commit.

Damage. SQLite's WAL recovery drops a half-written tail (frames after the last complete
commit) by itself. A row that is damaged anyway (its CRC or JSON does not check out, its
text is not UTF-8: a bad sector, a hand edit) is reported by ``read`` as a ``BadRow`` and the
others are kept (text columns are read as stored and decoded here, row by row). A page that
SQLite finds malformed makes it fail the whole query where it lies: the readers go on past
it (``tablectl.salvage.scan``), each row SQLite cannot read a ``BadRow``. A file that SQLite finds damaged
when the table opens it (``PRAGMA quick_check``) is not written to again: a new log is built
from every row and meta value that can still be read (same ``seq``, same ``session_id``),
with a ``run`` row saying what was kept and lost, and the damaged file is kept beside it
(``table.sqlite.damaged-<time>``), with an error in the system log giving the counts; a file
of which nothing can be read (not a database at all) is moved aside and a new log started.
Nothing here ever stops the table from starting.

Lost commits. A WAL frame whose checksum fails ends what SQLite reads of the WAL, and a
deleted WAL or an emptied database file loses every commit since the last checkpoint: the
log then opens clean, rows missing. So every commit is followed, before the table
acknowledges it, by the log's high-water mark (``tablectl.highwater``, ``table.sqlite.hwm``),
and ``checkpoint`` (a board's end) copies the WAL into the database. When SQLite would drop
what the files hold, ``open`` copies them aside first and reads them again past SQLite's
checks (``tablectl.walframes``: the WAL's frames applied without their checksums), putting
back every whole row the log lacks (``_recover``); it goes on in the mark's session and above
its ``seq``. ``check`` compares the rows read with the mark and writes what is still missing
as a ``log_damaged`` alert row.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import math
import secrets
import shutil
import sqlite3
import tempfile
import time
import urllib.parse
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from controller.errors import BridgeTableError
from controller.records.eventlog import INPUT_KINDS, KINDS, BadRow, Row, decode_row, encode_body, row_crc
from tablectl import walframes
from tablectl.highwater import HEAD_SEQ, Loss, Mark, MarkFile, compare, head_crc, mark_path, read_mark
from tablectl.salvage import (
    Lost,
    Transaction,
    connect,
    counts,
    damage,
    keep_if_at_risk,
    read_meta,
    read_rows,
    salvage,
    scan,
)

__all__ = ["EventStore", "LogReader", "StoreError", "open_reader"]

log = logging.getLogger(__name__)



class StoreError(BridgeTableError, OSError):
    """The log cannot be opened or written (disk full, permissions, a dead SD card)."""


class EventStore:
    """The append-only log of one table session in one SQLite file (see the module doc).

    Used from one thread at a time (the runtime's engine thread once it runs); other threads
    read it through ``open_reader``.
    """

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn
        row = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM log").fetchone()
        self._seq: int = int(row[0])
        self._session_id = ""
        self._rows, self._inputs, self._last_input, self._head = counts(conn)
        self._marks: MarkFile | None = None
        self.mark: Mark | None = None
        """The high-water mark found beside the log when it was opened (None: none), until ``check``."""
        self.mark_problem: str | None = None
        """What is wrong with the high-water mark file, when it exists but cannot be read."""
        self.kept: Path | None = None
        """Where the log's files were copied at open, before SQLite could drop what they held
        (the base name of the copies; None: not copied)."""
        self.recovered = 0
        """Rows put back at open from the copied files, which SQLite could not read (``_recover``)."""

    @classmethod
    def open(cls, path: str | Path) -> EventStore:
        """Open (or create) the log at ``path``; a damaged file is rebuilt from what can be read
        (module doc).

        A log without a ``session_id`` is given one (durably) before this returns: the high-water
        mark's when there is one (the log lost its beginning), else a new one.
        """
        path = Path(path)
        mark, problem = read_mark(path)
        if problem is not None:
            log.error("table log %s: its high-water mark is damaged (%s): whether acknowledged inputs were "
                      "lost cannot be told this time", path, problem)
        kept = keep_if_at_risk(path, mark)
        store = cls._open(path, 0 if mark is None else mark.seq)
        store.mark, store.mark_problem, store.kept = mark, problem, kept
        try:
            if kept is not None:
                store.recovered = store._recover(kept)
            store._session_id = store._ensure_session_id(None if mark is None else mark.session)
            if "high_water_mark" not in store.meta():
                store.set_meta({"high_water_mark": mark_path(path).name})
            elif mark is None and problem is None:  # it was kept: gone now
                store.mark_problem = f"{mark_path(path)} is missing"
                log.error("table log %s: its high-water mark %s is missing: whether acknowledged inputs were "
                          "lost cannot be told this time", path, mark_path(path))
        except StoreError:
            store._conn.close()
            raise
        if mark is not None and mark.session == store._session_id and store._seq < mark.seq:
            store._seq = mark.seq  # the club room may hold rows up to there: the next rows come after them
        store._marks = MarkFile(path, mark)
        return store

    @classmethod
    def _open(cls, path: Path, floor: int = 0) -> EventStore:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the data directory {path.parent}: {exc.strerror or exc}") from None
        try:
            conn = cls._connect(path)
            problem = damage(conn)
            if problem is None:
                return cls(path, conn)
            conn.close()
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and "unable to open" in str(exc):
                raise StoreError(f"cannot open the table log {path}: {exc}") from None
            problem = str(exc)
        except OSError as exc:
            raise StoreError(f"cannot create the table log {path}: {exc.strerror or exc}") from None
        try:
            salvage(path, problem, floor)
            return cls(path, cls._connect(path))
        except (sqlite3.DatabaseError, OSError) as exc2:
            raise StoreError(f"cannot open the table log {path}: {exc2}") from None

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        return connect(path)

    def close(self) -> None:
        """Checkpoint the WAL into the database file and close it (may be called twice)."""
        with contextlib.suppress(sqlite3.Error):
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._conn.close()
        if self._marks is not None:
            self._marks.close()

    def checkpoint(self) -> None:
        """Copy what the WAL holds into the database file (a safe point: a board's end), so that
        a WAL lost or damaged later loses only what came after. ``PASSIVE``: it never waits for a
        reader (the club-room link); what a reader still uses is copied at the next one."""
        try:
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error as exc:
            log.warning("table log %s: checkpoint failed (%s); the WAL keeps the rows", self.path, exc)

    # -- meta ---------------------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        """The session's fixed settings (key -> decoded JSON); a value that cannot be decoded is left out."""
        return read_meta(self._conn, self.path)

    @property
    def session_id(self) -> str:
        """The id of the session this log holds (meta ``session_id``, made when the log had none)."""
        return self._session_id

    def _ensure_session_id(self, known: str | None) -> str:
        value = self.meta().get("session_id")
        if isinstance(value, str) and value:
            return value
        if known:
            log.error("table log %s has lost its session id: session %s goes on (its high-water mark's)",
                      self.path, known)
        session_id = known or secrets.token_hex(8)
        self.set_meta({"session_id": session_id})
        return session_id

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

    @property
    def row_count(self) -> int:
        """How many rows the log holds."""
        return self._rows

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
                body = encode_body(row.body)
                values.append((seq, input_seq, row.kind, row.t, body, row_crc(row.kind, row.t, body)))
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
        self._committed(values)
        return out

    def note(self, row: Row) -> Row:
        """Append one row that is not an input (a ``run`` mark), durably."""
        seq = self._seq + 1
        body = encode_body(row.body)
        value = (seq, 0, row.kind, row.t, body, row_crc(row.kind, row.t, body))
        try:
            with self._transaction():
                self._conn.execute("INSERT INTO log(seq, input, kind, t, body, crc) VALUES (?, ?, ?, ?, ?, ?)", value)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write the table log {self.path}: {exc}") from None
        self._seq = seq
        self._committed([value])
        return Row(row.kind, row.t, row.body, seq, 0)

    def read(self) -> Iterator[Row | BadRow]:
        """Every row in order; a damaged row is a ``BadRow`` saying why (and is logged)."""
        return read_rows(self._conn, self.path, 0)

    # -- the high-water mark ------------------------------------------------------------------

    def _recover(self, kept: Path) -> int:
        """Put back the rows (and meta values) that the log lacks and the copy of its files at
        ``kept`` holds, read with the WAL's frames applied past the first damaged one
        (``tablectl.walframes``: SQLite stops there). Only whole rows go back (their CRC checks,
        an input's ``input`` is its own ``seq``), each at its own ``seq``. Returns how many."""
        wal = Path(f"{kept}-wal")
        if not wal.is_file():
            return 0
        meta: dict[str, Any] = {}
        found: list[Row] = []
        with tempfile.TemporaryDirectory(prefix="tablelog-") as tmp:
            image = Path(tmp) / "table.sqlite"
            try:
                walframes.replay(kept, wal, image)
                conn = sqlite3.connect(f"file:{urllib.parse.quote(str(image))}?mode=ro&immutable=1", uri=True,
                                       isolation_level=None)
            except (OSError, sqlite3.Error) as exc:
                log.error("table log %s: the copy %s cannot be read again (%s)", self.path, kept, exc)
                return 0
            try:
                with contextlib.suppress(sqlite3.DatabaseError):
                    meta = read_meta(conn, self.path)
                with contextlib.suppress(sqlite3.DatabaseError):
                    for item in scan(conn, "log", "seq", ("input", "kind", "t", "body", "crc"), 0):
                        if not isinstance(item, Lost):
                            row = decode_row(*item)
                            if isinstance(row, Row) and (row.input == row.seq if row.is_input else
                                                         0 <= row.input < row.seq):
                                found.append(row)
            finally:
                conn.close()
        held = {int(s) for (s,) in self._conn.execute("SELECT seq FROM log")}
        rows = [r for r in found if r.seq not in held]
        known = self.meta()
        values = {k: v for k, v in meta.items() if k not in known}
        if not rows and not values:
            return 0
        try:
            with self._transaction():
                self._conn.executemany("INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)",
                                       [(k, json.dumps(v, sort_keys=True)) for k, v in values.items()])
                self._conn.executemany(
                    "INSERT OR IGNORE INTO log(seq, input, kind, t, body, crc) VALUES (?, ?, ?, ?, ?, ?)",
                    [(r.seq, r.input, r.kind, r.t, b, row_crc(r.kind, r.t, b))
                     for r in rows for b in (encode_body(r.body),)])
        except sqlite3.Error as exc:
            log.error("table log %s: the rows read again from %s cannot be written (%s)", self.path, kept, exc)
            return 0
        self._seq = max(self._seq, *(r.seq for r in rows)) if rows else self._seq
        self._rows, self._inputs, self._last_input, self._head = counts(self._conn)
        log.error("table log %s: %d row(s) and %d setting(s) that SQLite could not read (a damaged or lost WAL) "
                  "read again from %s and put back", self.path, len(rows), len(values), kept)
        return len(rows)

    def _committed(self, values: list[tuple[int, int, str, float, str, int]]) -> None:
        """Count the rows just committed and write the high-water mark (before anything is acknowledged)."""
        for seq, _input, kind, _t, _body, crc in values:
            self._rows += 1
            if kind in INPUT_KINDS:
                self._inputs += 1
                self._last_input = seq
            if seq <= HEAD_SEQ:
                self._head.append((seq, crc))
        if self._marks is not None:
            self._marks.write(Mark(self._session_id, self._seq, self._rows, self._inputs, self._last_input,
                                   head_crc(self._head), round(time.time(), 3)))

    def check(self, rows: Sequence[Row | BadRow]) -> Loss | None:
        """Compare the log, as ``read`` gave it, with the high-water mark found at open; when rows
        the table had acknowledged are missing or damaged, say so durably and return what is lost.

        The loss is logged as an error and written as an ``alert`` row (``log_damaged``, with
        ``what`` in plain words and ``alarm``: the club-room link publishes it) at a ``seq``
        above the mark's, so that it is told once and the rows written next never take a ``seq``
        the room may hold. Call it once, at start, before anything is appended.
        """
        intact = [r for r in rows if isinstance(r, Row)]
        self._rows = len(intact)
        self._inputs = sum(1 for r in intact if r.is_input)
        self._last_input = max((r.seq for r in intact if r.is_input), default=0)
        self._head = [(r.seq, row_crc(r.kind, r.t, encode_body(r.body))) for r in intact if r.seq <= HEAD_SEQ]
        mark, self.mark = self.mark, None
        kept = self.kept
        loss = None if mark is None else compare(mark, self._session_id, rows, None if kept is None else kept.name)
        if loss is None:
            if kept is not None and not self.recovered:  # kept in case: nothing was lost after all
                for suffix in ("", "-wal"):
                    Path(f"{kept}{suffix}").unlink(missing_ok=True)
                self.kept = None
            return None
        log.error("table log %s: %s", self.path, loss.what)
        self.note(Row("alert", max((r.t for r in intact), default=0.0), loss.alert(time.time())))
        return loss

    def _transaction(self) -> Transaction:
        return Transaction(self._conn)


def open_reader(path: str | Path, *, snapshot: bool = False) -> LogReader:
    """A read-only view of the table log at ``path``, with its own connection (see ``LogReader``).

    For a live log (the runtime's, from another thread or process), the view reads the
    rows each table commit adds. ``snapshot=True`` is for a log that no table is writing
    (``tablectl replay``): nothing beside the file is created or changed, not even in a
    read-only directory; a write-ahead log left by a table that stopped without closing
    it (a power cut) is read too, from a private copy when SQLite cannot read it in place.
    ``StoreError`` if the file is missing or is not a table log.
    """
    path = Path(path)
    if not path.is_file():
        raise StoreError(f"cannot open the table log {path}: no such file")
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    if snapshot and not wal.exists():
        return _reader(path, path, "&immutable=1")  # nothing was left to write: the file is the log
    if snapshot and not shm.exists():
        return _copied_reader(path)  # a WAL left behind; reading it in place would create the -shm
    try:
        return _reader(path, path, "")
    except StoreError:
        if not snapshot:
            raise
        return _copied_reader(path)


class LogReader:
    """A read-only view of a table log, with its own SQLite connection (``open_reader``).

    It may be opened in one thread and used in another (one thread at a time); it never
    writes. ``StoreError`` if the file cannot be read.
    """

    def __init__(self, path: Path, conn: sqlite3.Connection,
                 copy: tempfile.TemporaryDirectory[str] | None = None) -> None:
        self.path = path
        self._conn = conn
        self._copy = copy

    def meta(self) -> dict[str, Any]:
        """The session's fixed settings (key -> decoded JSON), as ``EventStore.meta``."""
        try:
            return read_meta(self._conn, self.path)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the table log {self.path}: {exc}") from None

    @property
    def session_id(self) -> str | None:
        """The id of the session (meta ``session_id``), None in a log that has none."""
        value = self.meta().get("session_id")
        return value if isinstance(value, str) else None

    def last_seq(self) -> int:
        """The ``seq`` of the last row committed (0 for an empty log)."""
        try:
            return int(self._conn.execute("SELECT COALESCE(MAX(seq), 0) FROM log").fetchone()[0])
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the table log {self.path}: {exc}") from None

    def rows_after(self, seq: int, limit: int | None = None) -> list[Row | BadRow]:
        """The rows with a ``seq`` above ``seq``, in order (at most ``limit``); damaged rows as ``BadRow``."""
        try:
            with contextlib.closing(read_rows(self._conn, self.path, seq)) as rows:
                return list(itertools.islice(rows, limit))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the table log {self.path}: {exc}") from None

    def close(self) -> None:
        """Close the connection (and remove the private copy, if any); may be called twice."""
        self._conn.close()
        if self._copy is not None:
            self._copy.cleanup()
            self._copy = None

    def __enter__(self) -> LogReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _reader(path: Path, file: Path, flags: str) -> LogReader:
    """A ``LogReader`` of ``path`` on a read-only connection to ``file`` (``path`` or a copy of it)."""
    uri = f"file:{urllib.parse.quote(str(file.resolve()))}?mode=ro{flags}"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the table log {path}: {exc}") from None
    try:
        conn.execute("PRAGMA query_only=ON")
        conn.execute("PRAGMA busy_timeout=5000")
        conn.execute("SELECT key, value FROM meta LIMIT 0").fetchall()
        conn.execute("SELECT seq, input, kind, t, body, crc FROM log LIMIT 0").fetchall()
    except sqlite3.Error as exc:
        conn.close()
        if isinstance(exc, sqlite3.OperationalError) and "no such table" not in str(exc):
            raise StoreError(f"cannot open the table log {path}: {exc}") from None
        raise StoreError(f"{path} is not a table log ({exc})") from None
    return LogReader(path, conn)


def _copied_reader(path: Path) -> LogReader:
    """A ``LogReader`` of a private copy of the log and its write-ahead log (read there, so
    that nothing is created beside ``path``)."""
    copy = tempfile.TemporaryDirectory(prefix="tablelog-")
    try:
        file = Path(copy.name) / "table.sqlite"
        shutil.copyfile(path, file)
        wal = Path(f"{path}-wal")
        if wal.exists():
            shutil.copyfile(wal, Path(f"{file}-wal"))
        reader = _reader(path, file, "")
    except StoreError:
        copy.cleanup()
        raise
    except OSError as exc:
        copy.cleanup()
        raise StoreError(f"cannot read the table log {path}: {exc.strerror or exc}") from None
    reader._copy = copy
    return reader


