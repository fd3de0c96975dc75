"""The console's file, ``console.sqlite``: every table's outbox as received, the messages it
refused, the Director's marks and settings.

``ConsoleStore(path)`` opens it, and when SQLite finds it damaged (a flipped byte, a truncated or
overwritten file: ``PRAGMA quick_check``, or a file SQLite cannot open at all) salvages it the way
a table's log is salvaged (``tablectl.salvage``): every row SQLite can still read is copied into
a new file, the damaged one is renamed aside (``console.sqlite.damaged-<time>``), and
``damaged`` says what happened for the Director's page. What was lost is not lost for good:
the tables' logs are the source of truth, and a console that holds less acknowledges less, so
each table sends again everything after what the console holds (``tablectl.room.console``).

Writes are one transaction each (``add``), rolled back on any error, so that nothing is half
kept and the connection is never left inside a transaction.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.room.console import Room
from tablectl.room.intake import Taken, read_message
from tablectl.salvage import Lost, _aside_name, _move, damage, scan

__all__ = ["REFUSED_KEPT", "ConsoleStore", "Damage", "Refusal", "restore"]

log = logging.getLogger(__name__)

Json = dict[str, Any]

REFUSED_KEPT = 1000
"""Refused messages kept (the latest): enough to see who sent what, bounded under a flood."""
_REFUSED_BYTES = 2048
"""Bytes of a refused message's payload kept with its reason."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS message (table_id TEXT NOT NULL, session TEXT NOT NULL, seq INTEGER NOT NULL,
    kind TEXT NOT NULL, payload TEXT NOT NULL, received REAL NOT NULL,
    PRIMARY KEY (table_id, session, seq));
CREATE TABLE IF NOT EXISTS state (table_id TEXT PRIMARY KEY, payload TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS mark (key TEXT PRIMARY KEY, state TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS refused (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT, kind TEXT NOT NULL,
    session TEXT NOT NULL, seq INTEGER, reason TEXT NOT NULL, payload TEXT NOT NULL, received REAL NOT NULL);
CREATE TABLE IF NOT EXISTS desk_entry (id INTEGER PRIMARY KEY, payload TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seat (id INTEGER PRIMARY KEY, payload TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS act (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, by TEXT NOT NULL,
    kind TEXT NOT NULL, table_id TEXT, ref TEXT, body TEXT NOT NULL, outcome TEXT NOT NULL);
"""
_COLUMNS = {"message": ("table_id", "session", "seq", "kind", "payload", "received"),
            "state": ("table_id", "payload"), "mark": ("key", "state", "at"), "setting": ("key", "value"),
            "refused": ("id", "table_id", "kind", "session", "seq", "reason", "payload", "received"),
            "desk_entry": ("id", "payload"), "seat": ("id", "payload"),
            "act": ("id", "at", "by", "kind", "table_id", "ref", "body", "outcome")}
"""The tables a damaged file's rows are salvaged from: the desk's entries (``tablectl.room.console_desk``)
and the pairs' names (``seat``, ``tablectl.room.console_people``) too, since no table holds them (the
tables send their own outboxes again; the Director's corrections, adjusted scores and names exist only here)."""

CLAIMS = ("on_my_way", "opened")
"""The acts that make a call a Director's (``act``): on my way, the table opened."""
ACTS = (*CLAIMS, "done", "ruling", "action", "desk")
"""What a Director's act is: a call taken or closed, a table opened, a ruling or an action sent to a
table, an entry of the scoring desk."""

Message = tuple[str, str, int, str, str, float]
"""(table, session, seq, kind, payload, received) of one outbox message."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """A message the console refused: from which table, of which kind, why, when."""

    table: str | None
    kind: str
    session: str
    seq: int | None
    reason: str
    payload: bytes
    received: float

    def as_json(self) -> Json:
        return {"table": self.table, "kind": self.kind, "session": self.session, "seq": self.seq,
                "reason": self.reason, "received": self.received}


@dataclass(frozen=True, slots=True)
class Damage:
    """The console's file was found damaged at start: what was wrong, where it went, what was kept."""

    problem: str
    aside: str
    kept: int
    lost: str

    def as_json(self) -> Json:
        return {"problem": self.problem, "aside": self.aside, "kept": self.kept, "lost": self.lost,
                "what": f"The console's file was damaged ({self.problem}); {self.kept} record(s) kept, "
                        f"{self.lost} lost and asked again of the tables. The damaged file is kept as {self.aside}."}


def _open(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    conn.text_factory = _text  # a damaged byte spoils that value, never the whole read
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.executescript(SCHEMA)
    except (sqlite3.DatabaseError, ValueError):
        conn.close()
        raise
    return conn


def _text(value: bytes) -> str:
    return value.decode("utf-8", "replace")


class ConsoleStore:
    """The console's copy of every table's outbox, and the Director's marks, in SQLite (module doc)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.damaged: Damage | None = None
        if not path.exists():  # what the tables sent carries every deal: the owner's only
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        try:
            self._conn = _open(path)
            problem = damage(self._conn)
        except sqlite3.OperationalError:
            raise
        except (sqlite3.DatabaseError, ValueError) as exc:  # ValueError: an error whose text is damaged
            problem = str(exc) if isinstance(exc, sqlite3.DatabaseError) else "the file is not readable"
            if hasattr(self, "_conn"):
                with contextlib.suppress(sqlite3.Error):
                    self._conn.close()
        else:
            if problem is None:
                return
            self._conn.close()
        self.damaged = self._salvage(problem)
        self._conn = _open(path)

    # -- damage ---------------------------------------------------------------------------------------

    def _salvage(self, problem: str) -> Damage:
        """Copy every readable row of the damaged file into a new one; the damaged one goes aside."""
        kept, lost, unknown = _read(self.path)
        if not any(kept.values()):  # a damaged header hides every page: read them under a sound one
            with tempfile.TemporaryDirectory(prefix="console-") as tmp:
                copy = Path(tmp) / "console.sqlite"
                if _with_sound_header(self.path, copy):
                    again = _read(copy)
                    if any(again[0].values()):
                        kept, lost, unknown = again
        aside = _aside_name(self.path)
        _move(self.path, aside)
        os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        new = _open(self.path)
        count = 0
        try:
            for name, rows in kept.items():
                if not rows:
                    continue
                marks = ", ".join("?" * len(rows[0]))
                for row in rows:
                    with contextlib.suppress(sqlite3.Error):
                        new.execute(f"INSERT OR IGNORE INTO {name} ({', '.join(_COLUMNS[name])}) VALUES ({marks})",
                                    row)
                        count += 1
        finally:
            new.close()
        text = f"{lost}{' or more' if unknown or not lost else ''}"
        log.error("console: its file %s is damaged (%s): %d record(s) kept, %s lost; the damaged file is kept as "
                  "%s; the tables are asked for what the console lacks", self.path, problem, count, text, aside)
        return Damage(problem[:300], aside.name, count, text)

    # -- writing ----------------------------------------------------------------------------------------

    def add(self, messages: list[Message], states: dict[str, str], refused: list[Refusal] = ()) -> None:  # type: ignore[assignment]
        """Keep new outbox messages (a held one is ignored), each table's latest state and the refused
        messages, in one transaction: all or nothing, rolled back on any error (then raised)."""
        if not messages and not states and not refused:
            return
        self._conn.execute("BEGIN")
        try:
            self._conn.executemany("INSERT OR IGNORE INTO message VALUES (?, ?, ?, ?, ?, ?)", messages)
            self._conn.executemany("INSERT OR REPLACE INTO state VALUES (?, ?)", list(states.items()))
            if refused:
                self._conn.executemany(
                    "INSERT INTO refused (table_id, kind, session, seq, reason, payload, received) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(r.table, r.kind, r.session, r.seq, r.reason,
                      r.payload[:_REFUSED_BYTES].decode("utf-8", "replace"), r.received) for r in refused])
                self._conn.execute("DELETE FROM refused WHERE id <= (SELECT max(id) FROM refused) - ?",
                                   (REFUSED_KEPT,))
            self._conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")
            raise

    def forget(self, rows: list[tuple[str, str, int]]) -> None:
        """Drop outbox messages found unreadable at start (the tables send them again)."""
        with contextlib.suppress(sqlite3.Error):
            self._conn.executemany("DELETE FROM message WHERE table_id = ? AND session = ? AND seq = ?", rows)

    def mark(self, key: str, state: str, at: float) -> None:
        self._conn.execute("INSERT OR REPLACE INTO mark VALUES (?, ?, ?)", (key, state, at))

    def act(self, at: float, by: str, kind: str, table: str | None, ref: str | None, body: Json,
            outcome: str = "") -> None:
        """Keep one act of a Director (``ACTS``): who, what, at which table, the command's ref, its body
        and how it ended (the table accepted the ruling, refused it and why, did not answer)."""
        try:
            self._conn.execute("INSERT INTO act (at, by, kind, table_id, ref, body, outcome) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?)", (at, by, kind, table, ref, json.dumps(body), outcome))
        except sqlite3.Error:  # a record of what was done: its loss never undoes or stops the act
            log.exception("console: %s's %s at table %s could not be kept", by, kind, table)

    def acts(self, limit: int = 200, tables: frozenset[str] | None = None) -> list[Json]:
        """The latest ``limit`` acts, newest first (of ``tables`` only, when given)."""
        out = []
        for at, by, kind, table, ref, body, outcome in self._conn.execute(
                "SELECT at, by, kind, table_id, ref, body, outcome FROM act ORDER BY id DESC"):
            if tables is not None and table not in tables:
                continue
            try:
                decoded = json.loads(body)
            except (ValueError, TypeError, RecursionError):
                decoded = None
            out.append({"at": at, "by": by, "kind": kind, "table": table, "ref": ref, "body": decoded,
                        "outcome": outcome})
            if len(out) >= limit:
                break
        return out

    def set(self, key: str, value: object) -> None:
        """Keep one of the Director's settings (JSON)."""
        self._conn.execute("INSERT OR REPLACE INTO setting VALUES (?, ?)", (key, json.dumps(value)))

    # -- reading ----------------------------------------------------------------------------------------

    def events(self, table: str, session: str, since: int, upto: int | None) -> list[Json]:
        """``{"seq", "action", "source"}`` of every action ``table`` took in ``session`` from
        ``since`` (to ``upto``) that it published on ``event`` (those it refused left out), in order."""
        out: list[Json] = []
        for seq, payload in self._conn.execute(
                "SELECT seq, payload FROM message WHERE table_id = ? AND session = ? AND kind = 'event' "
                "AND seq >= ? AND seq <= ? ORDER BY seq", (table, session, since, 1 << 62 if upto is None else upto)):
            with contextlib.suppress(ValueError, TypeError, RecursionError):
                msg = json.loads(payload)
                if isinstance(msg, dict) and msg.get("rejected") is None and isinstance(msg.get("action"), dict):
                    out.append({"seq": int(seq), "action": msg["action"], "source": msg.get("source")})
        return out

    def settings(self) -> dict[str, Any]:
        """The Director's settings kept (a value that cannot be read is left out)."""
        out: dict[str, Any] = {}
        for key, value in self._conn.execute("SELECT key, value FROM setting"):
            with contextlib.suppress(ValueError, TypeError, RecursionError):
                out[str(key)] = json.loads(value)
        return out

    def load(self) -> tuple[list[tuple[str, str, int, str, str]], list[tuple[str, str]], list[tuple[str, str, float]]]:
        """Everything kept: (table, session, seq, kind, payload) in order of arrival, the states, the marks.
        A value that is not what its column holds (a damaged byte) comes back as ``""`` or ``-1``: the
        console finds such a message unreadable and asks the table for it again."""
        def text(value: object) -> str:
            return value if isinstance(value, str) and "\ufffd" not in value else ""

        def number(value: object) -> int:
            return value if isinstance(value, int) else -1

        messages = [(text(t), text(s), number(q), text(k), text(p)) for t, s, q, k, p in self._conn.execute(
            "SELECT table_id, session, seq, kind, payload FROM message ORDER BY received, rowid")]
        states = [(text(t), text(p)) for t, p in self._conn.execute("SELECT table_id, payload FROM state")]
        marks = [(text(k), text(s), float(a)) for k, s, a in self._conn.execute("SELECT key, state, at FROM mark")
                 if isinstance(a, int | float)]
        return messages, states, marks

    def refused(self, limit: int = 30) -> tuple[int, list[Json]]:
        """How many refused messages are kept, and the latest ``limit`` of them (newest first)."""
        count = int(self._conn.execute("SELECT count(*) FROM refused").fetchone()[0])
        rows = self._conn.execute("SELECT table_id, kind, session, seq, reason, received FROM refused "
                                  "ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return count, [{"table": t, "kind": k, "session": s, "seq": q, "reason": r, "received": at}
                       for t, k, s, q, r, at in rows]

    def latest(self) -> float | None:
        """When the console received the newest message kept (None: none)."""
        row = self._conn.execute("SELECT max(received) FROM message").fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()


def _read(path: Path) -> tuple[dict[str, list[tuple[Any, ...]]], int, bool]:
    """Every row SQLite can read of each table of the file at ``path``; how many it cannot (at least),
    and whether there may be more."""
    kept: dict[str, list[tuple[Any, ...]]] = {name: [] for name in _COLUMNS}
    lost, unknown = 0, False
    try:
        conn = sqlite3.connect(str(path), isolation_level=None)
    except sqlite3.Error:
        return kept, 1, True
    conn.text_factory = bytes
    try:
        for name, columns in _COLUMNS.items():
            for item in _rows(conn, name, columns):
                if isinstance(item, Lost):
                    unknown = unknown or item.last is None
                    lost += 1 if item.last is None else item.last - item.first + 1
                else:
                    kept[name].append(item)
    finally:
        conn.close()
    return kept, lost, unknown


def _with_sound_header(path: Path, copy: Path) -> bool:
    """``path`` copied to ``copy`` with the 100-byte header of a new console file of as many pages
    (the header is all that says where the pages are); False when it cannot be done."""
    try:
        data = bytearray(path.read_bytes())
    except OSError:
        return False
    if len(data) < 2 * _PAGE:
        return False
    fresh = copy.with_name("fresh.sqlite")
    conn = _open(fresh)
    conn.close()
    header = bytearray(fresh.read_bytes()[:100])
    header[28:32] = (len(data) // _PAGE).to_bytes(4, "big")  # the pages the file holds
    header[32:40] = bytes(8)  # no free pages
    data[:100] = header
    copy.write_bytes(bytes(data[: len(data) // _PAGE * _PAGE]))
    return True


_PAGE = 4096
"""SQLite's page size, the console's file's."""


def _rows(conn: sqlite3.Connection, name: str, columns: tuple[str, ...]) -> Iterator[tuple[Any, ...] | Lost]:
    """The readable rows of table ``name`` of a damaged file (``tablectl.salvage.scan`` by rowid),
    text decoded (a row whose text is not UTF-8 is damaged: left out)."""
    try:
        for item in scan(conn, name, "rowid", columns, 0):
            if isinstance(item, Lost):
                yield item
                continue
            try:
                yield tuple(v.decode("utf-8") if isinstance(v, bytes) else v for v in item[1:])
            except UnicodeDecodeError:
                yield Lost(int(item[0]), int(item[0]), "not UTF-8", int(item[0]))
    except sqlite3.OperationalError:
        raise
    except (sqlite3.DatabaseError, ValueError) as exc:  # not even the table's first page, or its schema
        yield Lost(1, None, str(exc) if isinstance(exc, sqlite3.DatabaseError) else "the schema is damaged", 0)


def restore(store: ConsoleStore, room: Room, club: str, now: float) -> int:
    """Fold what ``store`` keeps into ``room`` (a console starting again): each message read and checked
    again (``tablectl.room.intake``); one that cannot be read (a damaged byte the file's own checks
    missed) is forgotten, so that its table sends it again. Returns how many were forgotten."""
    messages, states, marks = store.load()
    unreadable: list[tuple[str, str, int]] = []
    for table, session, seq, kind, payload in messages:
        taken = read_message(club, _topic(club, table, kind, payload), payload.encode(), None) \
            if table and kind and payload else None
        if not isinstance(taken, Taken) or taken.session != session or taken.seq != seq:
            unreadable.append((table, session, seq))
            continue
        with contextlib.suppress(Exception):
            room.receive(kind, table, taken.msg, now)
    if unreadable:
        log.error("console: %d message(s) of %s could not be read: the tables send them again", len(unreadable),
                  store.path)
        store.forget(unreadable)
    for table, payload in states:
        state = read_message(club, f"bridge/{club}/table/{table}/state", payload.encode(), None)
        if isinstance(state, Taken):
            with contextlib.suppress(Exception):
                room.receive("state", table, state.msg, now)
                room.tile(table).online = False  # until the table says so again
    for key, mark, at in marks:
        with contextlib.suppress(KeyError, ValueError):
            room.mark(key, mark, at)
    for act in reversed(store.acts(10_000)):  # who was on the way to each call, who closed it
        call = room.calls.get(str((act["body"] or {}).get("key"))) if isinstance(act["body"], dict) else None
        if call is None:
            continue
        if act["kind"] == "on_my_way" or (act["kind"] in CLAIMS and call.by is None):
            call.by = act["by"]
        elif act["kind"] == "done":
            call.resolved_by = act["by"]
    if messages:
        log.info("console: %d messages of %d tables restored from %s", len(messages), len(room.tiles), store.path)
    return len(unreadable)


def _topic(club: str, table: str, kind: str, payload: str) -> str:
    """The topic a kept message came on (a result's names its board)."""
    if kind != "result":
        return f"bridge/{club}/table/{table}/{kind}"
    number: object = None
    with contextlib.suppress(ValueError, TypeError, RecursionError, AttributeError):
        msg = json.loads(payload)
        number = msg.get("body", msg).get("number")
    return f"bridge/{club}/table/{table}/result/{'unnumbered' if number is None else number}"
