"""Reading a damaged table log, and rebuilding one from what can still be read.

The part of the table log (``tablectl.store``) that deals with damage: SQLite's files are
opened here (``connect``: WAL, ``synchronous=FULL``, mode 0600), read past malformed pages
(``scan``: each row SQLite cannot read is reported, the others kept), counted, kept aside
when at risk, and salvaged into a new log (``salvage``). ``tablectl.store`` explains when
each is used.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import shutil
import sqlite3
import tempfile
import time
import urllib.parse
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

from controller.records.eventlog import INPUT_KINDS, BadRow, Row, decode_row, encode_body, row_crc
from tablectl.highwater import HEAD_SEQ, Mark

log = logging.getLogger("tablectl.store")

SCHEMA = """
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


def connect(path: Path) -> sqlite3.Connection:
    """A connection to the log at ``path`` in WAL mode, the file made first if there is none.

    A new log is made readable by its owner only (0600): it holds the arbiter's rulings and
    every hand. SQLite gives the ``-wal`` and ``-shm`` it makes beside it the same mode.
    """
    with contextlib.suppress(FileExistsError):  # an empty file is an empty database to SQLite
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    try:
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise sqlite3.DatabaseError(f"journal mode {mode!r} instead of WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA busy_timeout=5000")
        conn.executescript(SCHEMA)
        conn.execute("SELECT count(*) FROM log").fetchone()
    except sqlite3.DatabaseError:
        conn.close()
        raise
    return conn


def _as_stored(column: str) -> str:
    """``column`` as SQLite holds it, text as a BLOB: text that is not UTF-8 (a bad sector, a hand
    edit) would make sqlite3 raise for the whole read; decoded in Python, it damages one row."""
    return f"CASE typeof({column}) WHEN 'text' THEN CAST({column} AS BLOB) ELSE {column} END"


def read_meta(conn: sqlite3.Connection, path: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in scan(conn, "meta", "rowid", ("key", "value"), 0):
        if isinstance(item, Lost):
            log.error("table log %s: meta rows %s cannot be read (%s), ignored", path, item, item.error)
            continue
        _, key, value = item
        try:
            name = key.decode("utf-8") if isinstance(key, bytes) else str(key)
        except UnicodeDecodeError:
            log.error("table log %s: a meta key is not UTF-8 text (%r), ignored", path, key)
            continue
        try:
            out[name] = json.loads(value.decode("utf-8") if isinstance(value, bytes) else value)
        except (TypeError, ValueError):  # UnicodeDecodeError is a ValueError
            log.error("table log %s: meta %r is not UTF-8 JSON text, ignored", path, name)
    return out


def read_rows(conn: sqlite3.Connection, path: Path, after: int) -> Generator[Row | BadRow, None, None]:
    """The rows after ``after``, in order: a row that cannot be used is a ``BadRow`` saying why
    (and is logged), and so is each row SQLite cannot read (a damaged page of the file)."""
    for item in scan(conn, "log", "seq", ("input", "kind", "t", "body", "crc"), after):
        if isinstance(item, Lost):
            count = "an unknown number of" if item.last is None else str(item.last - item.first + 1)
            log.error("table log %s: rows %s cannot be read (%s): %s row(s) lost", path, item, item.error, count)
            if item.last is None:
                yield BadRow(item.first, f"table log {path}, rows {item}: cannot be read ({item.error}); lost")
            else:
                for seq in range(item.first, item.last + 1):
                    yield BadRow(seq, f"table log {path}, row {seq}: cannot be read ({item.error}); lost")
            continue
        row = decode_row(*item)
        if isinstance(row, BadRow):
            row = BadRow(row.seq, f"table log {path}, {row.error}")
            log.error("%s", row.error)
        yield row


@dataclasses.dataclass(frozen=True, slots=True)
class Lost:
    """Rows ``first`` to ``last`` of a table (``last`` None: to its end) that SQLite cannot read."""

    first: int
    last: int | None
    error: str
    bound: int
    """Above any key the lost rows may have had (``last`` or, when that is unknown, an estimate)."""

    def __str__(self) -> str:
        if self.last is None:
            return f"from {self.first} on"
        return str(self.first) if self.first == self.last else f"{self.first} to {self.last}"


def scan(conn: sqlite3.Connection, table: str, key: str, columns: tuple[str, ...],
          after: int) -> Iterator[tuple[Any, ...] | Lost]:
    """The rows of ``table`` whose integer ``key`` is above ``after``, in order, as stored
    (``_as_stored``), reading past damage: where SQLite finds the file malformed, the keys it
    cannot read are one ``Lost`` and the scan goes on from the next row it can read.

    A damaged page makes SQLite fail the whole query at the row where it lies; this looks for
    the next readable row key by key (each a seek of its own, which avoids that page) up to
    the table's largest key. ``OperationalError`` (a busy or failing disk) is not damage: raised.
    """
    select = f"SELECT {key}, {', '.join(map(_as_stored, columns))} FROM {table}"
    cursor = after
    top: tuple[int, bool] | None = None
    while True:
        try:
            for values in conn.execute(f"{select} WHERE {key} > ? ORDER BY {key}", (cursor,)):
                cursor = int(values[0])
                yield values
            return
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError as exc:
            error = str(exc)
        if top is None:
            top = _top(conn, table, key, cursor)
        found = _next_readable(conn, select, key, cursor, top[0])
        if found is None:  # nothing readable after the damage
            yield Lost(cursor + 1, top[0] if top[1] else None, error, max(top[0], cursor + 1))
            return
        if int(found[0]) > cursor + 1:
            yield Lost(cursor + 1, int(found[0]) - 1, error, int(found[0]) - 1)
        cursor = int(found[0])
        yield found


def _next_readable(conn: sqlite3.Connection, select: str, key: str, cursor: int,
                   top: int) -> tuple[Any, ...] | None:
    """The first row after ``cursor`` (up to ``top``) that SQLite can read, or None.

    Each probe asks for the first row at or after a key, a seek of its own that fails only
    where it lands on a damaged page: probes at doubling distances find a readable row past
    the damage, then probes key by key from ``cursor`` find the first one.
    """
    def probe(at: int) -> tuple[tuple[Any, ...] | None, bool]:
        try:
            return conn.execute(f"{select} WHERE {key} >= ? ORDER BY {key} LIMIT 1", (at,)).fetchone(), True
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError:
            return None, False

    step, found, beyond = 1, None, None
    while cursor + step <= top:
        found, readable = probe(cursor + step)
        if readable:
            beyond = cursor + step if found is None else int(found[0])
            break
        step *= 2
    if beyond is None:
        return None
    for at in range(cursor + 1, beyond):
        earlier, readable = probe(at)
        if readable:
            return earlier
    return found


def _top(conn: sqlite3.Connection, table: str, key: str, cursor: int) -> tuple[int, bool]:
    """The largest key of ``table`` and True, or when SQLite cannot read it (the last page is
    damaged) an upper bound (as many rows after ``cursor`` as the file could hold) and False."""
    with contextlib.suppress(sqlite3.DatabaseError):
        value = conn.execute(f"SELECT MAX({key}) FROM {table}").fetchone()[0]
        if isinstance(value, int):
            return max(value, cursor), True
    try:
        pages = int(conn.execute("PRAGMA page_count").fetchone()[0])
        size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    except sqlite3.DatabaseError:
        return cursor, False
    return cursor + pages * size // _SMALLEST_ROW, False


_SMALLEST_ROW = 24
"""Fewer bytes than any row of the log takes in its page (cell pointer, header, seq, kind, t, crc, body)."""


def counts(conn: sqlite3.Connection) -> tuple[int, int, int, list[tuple[int, int]]]:
    """The rows and input rows of the log, the last input's ``seq`` and the ``(seq, crc)`` of its
    first rows, as SQLite holds them (``EventStore.check`` counts them again, checked)."""
    inputs = ", ".join(f"'{k}'" for k in sorted(INPUT_KINDS))
    try:
        rows, n_inputs, last = conn.execute(
            f"SELECT count(*), COALESCE(sum(kind IN ({inputs})), 0), "
            f"COALESCE(max(CASE WHEN kind IN ({inputs}) THEN seq END), 0) FROM log").fetchone()
        head = [(int(q), int(c)) for q, c in conn.execute("SELECT seq, crc FROM log WHERE seq <= ? ORDER BY seq",
                                                          (HEAD_SEQ,)) if isinstance(c, int)]
    except sqlite3.DatabaseError:
        return 0, 0, 0, []
    return int(rows), int(n_inputs), int(last), head


def keep_if_at_risk(path: Path, mark: Mark | None) -> Path | None:
    """Copy the log and its WAL aside (``<name>.damaged-<time>``, ``-wal``) before SQLite opens them
    for writing, when the WAL may hold rows that SQLite will drop: the database file is missing
    or empty (SQLite then deletes the WAL), or the log (read-only, in place) lacks rows of its
    high-water mark (a WAL frame whose checksum fails ends what SQLite reads, and the next
    commit writes over the rest). Returns the copies' base name, None when nothing was copied."""
    wal = Path(f"{path}-wal")
    try:
        if wal.stat().st_size == 0:
            return None
    except OSError:
        return None
    try:
        empty = path.stat().st_size == 0
    except OSError:
        empty = True
    if not empty and (mark is None or _holds(path, mark)):
        return None
    aside = _aside_name(path)
    try:
        if path.exists():
            shutil.copyfile(path, aside)
        shutil.copyfile(wal, Path(f"{aside}-wal"))
    except OSError as exc:
        log.error("table log %s: its WAL may hold rows SQLite will drop, but it cannot be copied aside (%s)",
                  path, exc.strerror or exc)
        return None
    log.error("table log %s: its WAL may hold rows SQLite cannot read; the files are copied as %s (with -wal) "
              "before the table goes on", path, aside)
    return aside


def _holds(path: Path, mark: Mark) -> bool:
    """Whether the log at ``path``, read in place without writing, holds the rows of ``mark``
    (counted by SQLite, unchecked: a quick look, not ``EventStore.check``)."""
    uri = f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error:
        return False
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        found = conn.execute("SELECT value FROM meta WHERE key = 'session_id'").fetchone()
        rows = int(conn.execute("SELECT count(*) FROM log WHERE seq <= ?", (mark.seq,)).fetchone()[0])
        return found is not None and json.loads(found[0]) == mark.session and rows >= mark.rows
    except (sqlite3.Error, ValueError, TypeError):
        return False
    finally:
        conn.close()


def damage(conn: sqlite3.Connection) -> str | None:
    """What SQLite's ``quick_check`` finds wrong with the log's file (None: nothing).

    It reads every page (milliseconds for a session's log); ``OperationalError`` is raised.
    """
    try:
        found = [str(r[0]) for r in conn.execute("PRAGMA quick_check(20)").fetchall()]
    except sqlite3.OperationalError:
        raise
    except sqlite3.DatabaseError as exc:
        return str(exc)
    if found == ["ok"]:
        return None
    text = "; ".join(" ".join(line.split()) for line in found)
    return text if len(text) <= 300 else text[:297] + "..."


def salvage(path: Path, problem: str, floor: int = 0) -> None:
    """Rebuild the damaged log at ``path`` from every row that can still be read.

    The damaged file (with its ``-wal``) is read from a private copy; its readable meta and
    rows (with their ``seq``) go to a new log, with a ``run`` row saying what was kept and
    lost; that row's ``seq`` is above any row the damaged log may have held, so the rows
    the table writes next never take a ``seq`` the club room may have had already (nor one up
    to ``floor``, the high-water mark's last ``seq``: rows of a lost WAL are not seen). Then the
    damaged file is renamed aside (``<name>.damaged-<time>``, kept for inspection) and the new
    log put in its place. Logged as an error with the counts.
    """
    meta: dict[str, Any] = {}
    kept: list[Row] = []
    lost: list[Lost | BadRow] = []
    bound = 0
    with tempfile.TemporaryDirectory(prefix="tablelog-") as tmp:
        copy = Path(tmp) / "table.sqlite"
        for suffix in ("", "-wal"):
            if Path(f"{path}{suffix}").exists():
                shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
        conn = sqlite3.connect(str(copy), isolation_level=None)
        try:
            with contextlib.suppress(sqlite3.DatabaseError):
                meta = read_meta(conn, path)
            try:
                for item in scan(conn, "log", "seq", ("input", "kind", "t", "body", "crc"), 0):
                    if isinstance(item, Lost):
                        lost.append(item)
                        bound = max(bound, item.bound)
                        continue
                    row = decode_row(*item)
                    if isinstance(row, Row):
                        kept.append(row)
                    else:
                        log.error("table log %s, %s", path, row.error)
                        lost.append(row)
                    bound = max(bound, row.seq)
            except sqlite3.DatabaseError as exc:  # not even the table's first page
                lost.append(Lost(1, None, str(exc), 0))
        finally:
            conn.close()
    count = sum(1 if isinstance(x, BadRow) else (x.last or x.first) - x.first + 1 for x in lost)
    unknown = any(isinstance(x, Lost) and x.last is None for x in lost)
    lost_text = f"{count}{' or more' if unknown else ''}"
    where = ", ".join(str(x) if isinstance(x, Lost) else str(x.seq) for x in lost[:20])
    aside = _aside_name(path)
    if not meta and not kept:  # nothing of a table log: a new session starts in a new log
        _move(path, aside)
        log.error("table log %s cannot be read (%s): nothing in it could be kept, moved aside to %s; "
                  "starting a new log", path, problem, aside)
        return
    new = path.with_name(f"{path.name}.salvage")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{new}{suffix}").unlink(missing_ok=True)
    conn = connect(new)
    try:
        with Transaction(conn):
            conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?)",
                             [(k, json.dumps(v, sort_keys=True)) for k, v in meta.items()])
            values = [(r.seq, r.input, r.kind, r.t, encode_body(r.body)) for r in kept]
            last_t = max((r.t for r in kept), default=0.0)
            note = {"salvaged": {"from": aside.name, "problem": problem, "kept": len(kept),
                                 "lost": lost_text, "lost_rows": where}}
            values.append((max(bound, floor) + 1, 0, "run", last_t, encode_body(note)))
            conn.executemany("INSERT INTO log(seq, input, kind, t, body, crc) VALUES (?, ?, ?, ?, ?, ?)",
                             [(*v, row_crc(v[2], v[3], v[4])) for v in values])
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    _move(path, aside)
    new.rename(path)
    log.error("table log %s is damaged (%s): rebuilt from what could be read, %d row(s) kept, %s row(s) lost%s; "
              "the damaged file is kept as %s", path, problem, len(kept), lost_text,
              f" (rows {where})" if where else "", aside)


def _move(path: Path, to: Path) -> None:
    """Rename the SQLite file ``path`` (with its ``-wal`` and ``-shm``) to ``to``."""
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{path}{suffix}").exists():
            Path(f"{path}{suffix}").rename(f"{to}{suffix}")


def _aside_name(path: Path) -> Path:
    """A name beside ``path`` for its damaged file that no file has yet."""
    stem = f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
    aside, n = path.with_name(stem), 1
    while any(Path(f"{aside}{suffix}").exists() for suffix in ("", "-wal", "-shm")):
        aside, n = path.with_name(f"{stem}-{n}"), n + 1
    return aside


class Transaction:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self.conn.execute("COMMIT")
        else:
            self.conn.execute("ROLLBACK")
