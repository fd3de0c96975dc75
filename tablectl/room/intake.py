"""What the console takes from a table: each message read and checked on its own, before it
touches the room or the console's store.

``read_message(club, topic, payload, boards)`` returns a ``Taken`` (kind, table, the decoded
message) or a ``Refused`` saying why in plain words. A table's link never sends what is refused
here; a device holding one table's password might, and then only that message is lost, kept
with its reason for the Director (``tablectl.room.console``), while every other message of every
table goes on. The checks:

* the topic is one of a table's (``state``, ``event``, ``alert``, ``result/<board>``) and the
  payload is at most ``LIMITS[kind]`` bytes of UTF-8 JSON, an object, nested at most
  ``MAX_DEPTH`` deep, naming the topic's table;
* an outbox message (event, alert, result) has ``seq`` an integer from 1 to ``MAX_SEQ`` (SQLite
  keeps 64-bit integers; the table's log is far from it), ``prev`` an integer from 0 to below
  ``seq``, a ``session`` of text, an ``at`` that is a finite number when there is one;
* each field the console reads is what it must be (``_FIELDS``): objects where objects belong
  (``body``, ``view``, ``action``, ``pairs``), text where text belongs (``what``, ``alert``),
  whole numbers in range where numbers belong (an alert's ``id`` and ``since``, a result's
  ``score_ns`` and ``tricks``); text at most ``MAX_TEXT`` characters, a state without its
  arbiter view at most ``TILE_LIMIT`` bytes (it goes to the Director's page on every change);
* a result is for a board of the Director's session (``boards``, when the console has it), else
  a board number from 1 to ``MAX_BOARD``, and its topic names the same board.

Two of what must be one: ``Claims`` finds two tables configured with one table id (their
sessions alternate), ``foreign_console`` another console's acknowledgement.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

__all__ = ["KINDS", "LIMITS", "MAX_BOARD", "MAX_DEPTH", "MAX_SEQ", "Claims", "Refused", "Taken", "foreign_console",
           "prev_of", "read_message"]

Json = dict[str, Any]

KINDS = ("state", "event", "alert", "result")
LIMITS = {"state": 1 << 20, "event": 64 << 10, "alert": 64 << 10, "result": 256 << 10}
"""Bytes of the longest message of each kind (a table's are a few kB; a state with the arbiter's
view and claim help some tens of kB)."""
MAX_DEPTH = 32
"""Nesting of objects and arrays (a table's messages are 6 deep at most)."""
MAX_SEQ = (1 << 62) - 1
"""The largest ``seq`` (a 64-bit SQLite integer, with room to add one)."""
MAX_BOARD = 999
"""The largest board number taken without the Director's session."""
MAX_TEXT = 2000
"""Characters of a text field the console reads (a table's are a line or two)."""
TILE_LIMIT = 16 << 10
"""Bytes of a state without its arbiter view: what goes to the console page on every change."""

_OBJECT, _TEXT, _COUNT, _BOARD, _SCORE, _TRICKS = "an object", "text", "count", "board", "score", "tricks"
_FIELDS: dict[str, dict[str, str]] = {
    "state": {"view": _OBJECT, "tricks": _OBJECT, "result": _OBJECT, "phase": _TEXT, "table_name": _TEXT, "deal": _TEXT,
              "board": _BOARD, "boards_played": _COUNT, "round": _COUNT},
    "event": {"action": _OBJECT},
    "alert": {"alert": _TEXT, "what": _TEXT, "event": _TEXT, "offender": _TEXT, "seat": _TEXT, "ref": _TEXT,
              "reason": _TEXT, "id": _COUNT, "board": _BOARD, "since": _COUNT, "acknowledged": _COUNT},
    "result": {"pairs": _OBJECT, "deal": _TEXT, "contract": _TEXT, "declarer": _TEXT, "status": _TEXT,
               "score_ns": _SCORE, "tricks": _TRICKS, "number": _BOARD},
}
"""Per kind, the fields the console reads and what each must be when present and not null."""


def _wrong(kind: str, value: object) -> bool:
    if kind == _OBJECT:
        return not isinstance(value, dict)
    if kind == _TEXT:
        return not isinstance(value, str) or len(value) > MAX_TEXT
    if not _int(value):
        return True
    assert isinstance(value, int)
    if kind == _SCORE:
        return abs(value) > 100_000
    if kind == _TRICKS:
        return not 0 <= value <= 13
    return not 0 <= value <= MAX_SEQ


@dataclass(frozen=True, slots=True)
class Taken:
    """A message the console may take: its kind, its table, the decoded message."""

    kind: str
    table: str
    msg: Json
    session: str = ""
    seq: int = 0


@dataclass(frozen=True, slots=True)
class Refused:
    """A message the console refuses: its table (None: not a table's topic), kind, and why."""

    table: str | None
    kind: str
    reason: str
    session: str = ""
    seq: int | None = None
    """The message's seq when it and ``prev`` can be read (then it is held in its stream, refused)."""
    prev: int | None = None


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _depth(value: object) -> int:
    """How deep objects and arrays nest in ``value`` (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Collection[object] = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _nesting(payload: bytes) -> int:
    """The deepest nesting of brackets in raw JSON, strings skipped: a quick look before parsing
    (a deeply nested array makes Python's parser recurse until it fails)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in payload:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    return deepest
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _fields(kind: str, msg: Json) -> str | None:
    """What is wrong with the fields of a message and its ``body`` (None: nothing)."""
    if "body" in msg and not isinstance(msg["body"], dict):
        return "'body' is not an object"
    for where in (msg, msg.get("body")):
        if not isinstance(where, dict):
            continue
        for name, what in _FIELDS[kind].items():
            if where.get(name) is not None and _wrong(what, where[name]):
                return f"its '{name}' is not {'a whole number in range' if what not in (_OBJECT, _TEXT) else what}"
        at = where.get("at")
        if at is not None and not (isinstance(at, int | float) and not isinstance(at, bool) and math.isfinite(at)):
            return "its 'at' is not a time"
    return None


def _board(value: object, boards: Collection[int] | None) -> str | None:
    """What is wrong with a board number (None: nothing)."""
    if value is None:
        return None
    if not _int(value):
        return "its board number is not a whole number"
    assert isinstance(value, int)
    if boards is not None:
        return None if value in boards else f"board {value} is not a board of the Director's session"
    return None if 1 <= value <= MAX_BOARD else f"board {value} is not a board number (1 to {MAX_BOARD})"


def read_message(club: str, topic: str, payload: bytes,
                 boards: Collection[int] | None = None) -> Taken | Refused | None:
    """The message of a table on ``topic`` (module doc): taken, refused with why, or None for a
    topic the console does not read (another club's, a table's ``command``, ``results``...)."""
    parts = topic.split("/")
    if len(parts) < 5 or parts[0] != "bridge" or parts[1] != club or parts[2] != "table":
        return None
    table, kind = parts[3], parts[4]
    if kind not in KINDS:
        return None
    if (kind == "result") != (len(parts) == 6) or len(parts) > 6:
        return Refused(table, kind, f"not a topic of a table: {topic}")
    if len(payload) > LIMITS[kind]:
        return Refused(table, kind, f"{len(payload):,} bytes: more than a table ever sends ({LIMITS[kind]:,})")
    if not payload:
        return Taken(kind, table, {}) if kind in ("state", "result") else Refused(table, kind, "empty")
    # Nested no deeper than its brackets are many: most messages need no look at their bytes (a look in
    # Python costs the console thread more than the parsing, at hundreds of tables: bench/event.py).
    shallow = payload.count(b"[") + payload.count(b"{") <= MAX_DEPTH
    if not shallow and _nesting(payload) > MAX_DEPTH:
        return Refused(table, kind, f"nested more than {MAX_DEPTH} deep")
    try:
        msg = json.loads(payload)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return Refused(table, kind, "not JSON")
    if not isinstance(msg, dict):
        return Refused(table, kind, "not a JSON object")
    if not shallow and _depth(msg) > MAX_DEPTH:
        return Refused(table, kind, f"nested more than {MAX_DEPTH} deep")
    if str(msg.get("table", table)) != table:
        return Refused(table, kind, f"it names table {str(msg.get('table'))[:40]!r} on table {table}'s topic")
    session = msg.get("session", "")
    if not isinstance(session, str) or len(session) > 100:
        return Refused(table, kind, "its session is not a session id")
    raw_seq, raw_prev = msg.get("seq"), msg.get("prev", 0)
    seq = raw_seq if isinstance(raw_seq, int) and not isinstance(raw_seq, bool) else -1
    prev = raw_prev if isinstance(raw_prev, int) and not isinstance(raw_prev, bool) else -1
    if kind != "state":
        if not 1 <= seq <= MAX_SEQ:
            return Refused(table, kind, f"its seq {str(raw_seq)[:30]} is not a whole number from 1 to 2^62-1",
                           session)
        if not 0 <= prev < seq:
            return Refused(table, kind, f"its prev {str(raw_prev)[:30]} is not a whole number below its seq",
                           session)
    elif raw_seq is not None and not 0 <= seq <= MAX_SEQ:
        return Refused(table, kind, "its seq is not a whole number in range", session)
    wrong = _fields(kind, msg)
    if wrong is None and kind == "state" and len(payload) > TILE_LIMIT:
        rest = {k: v for k, v in msg.get("body", msg).items() if k != "view"}
        if len(json.dumps(rest)) > TILE_LIMIT:
            wrong = f"its tile is more than {TILE_LIMIT:,} bytes"
    if wrong is None and kind == "result":
        number = msg.get("body", msg).get("number")
        wrong = None if number is None and parts[5] == "unnumbered" else _board(number, boards)
        if wrong is None and str(number if number is not None else "unnumbered") != parts[5]:
            wrong = f"its board {number} is not the board of its topic ({parts[5][:20]})"
    if wrong is not None:
        return Refused(table, kind, wrong, session, *((seq, prev) if kind != "state" else (None, None)))
    return Taken(kind, table, msg, session, seq if kind != "state" else 0)


def prev_of(msg: Json) -> int | None:
    """A message's ``prev``, when it is a whole number."""
    prev = msg.get("prev", 0)
    return prev if _int(prev) else None


class Claims:
    """Which table session speaks for each table id, to find two tables configured with one id:
    their sessions alternate on its topics (a table that starts a new session never goes back).
    Only live messages count (not retained copies), and a state only when it says the table is online."""

    def __init__(self) -> None:
        self._seen: dict[str, list[str]] = {}
        self.conflicts: dict[str, Json] = {}
        """table -> the two sessions, since when, the session whose results are refused, what to do."""

    def check(self, taken: Taken, retained: bool, now: float) -> tuple[Taken | Refused, Json | None]:
        """``taken`` as it stands (a result of the later session of a conflict: refused), and the conflict
        just found (None: nothing new)."""
        table, found = taken.table, None
        if not taken.session or retained or (taken.kind == "state" and taken.msg.get("online") is not True):
            return taken, None
        seen = self._seen.setdefault(table, [])
        if not seen or seen[-1] != taken.session:
            if taken.session in seen and table not in self.conflicts:
                other = seen[-1]
                what = (f"Two tables use table id {table}: their messages alternate (sessions {taken.session} and "
                        f"{other}). Give each table its own id (and broker password); table {table}'s results "
                        f"from session {other} are refused meanwhile.")
                found = self.conflicts[table] = {"table": table, "sessions": [taken.session, other], "since": now,
                                                 "refused_session": other, "what": what}
            seen.append(taken.session)
            del seen[:-8]
        conflict = self.conflicts.get(table)
        if conflict is not None and taken.kind == "result" and taken.session == conflict["refused_session"]:
            return Refused(table, taken.kind, f"two tables use table id {table}: this result's table is not the "
                                              "first one", taken.session, taken.seq, prev_of(taken.msg)), found
        return taken, found


def foreign_console(payload: bytes, instances: Collection[str], started: float) -> str | None:
    """The instance id of another console in an acknowledgement made since ``started`` (None: one of
    this console's ``instances``, an older one, or one that cannot be read)."""
    try:
        ack = json.loads(payload)
        console, at = str(ack["console"]), float(ack["at"])
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
    if console.split(".")[0] in instances or at < started:
        return None
    return console[:20]
