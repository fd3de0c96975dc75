"""The table's event log rows: inputs and outputs to rows and back (pure: no SQLite, no I/O).

The event log of a running table (``tablectl.store`` keeps it in SQLite) is event-sourced.
Its *inputs* are what came into the table from outside, in the order the engine took them:

* ``raw``: a raw sensor event (``raw_to_json`` / ``raw_of``);
* ``tick``: a deadline of the sensing layer that changed something (empty body);
* ``action``: an action from outside the sensors, ``{"action": <table-log object>,
  "source": ...}`` (the session line, the arbiter's rulings and manual entries, a board
  started from the board reader's tag).

``input_row`` makes the row of an input, ``decode_input`` gives it back (once per row: the
rebuild and the engine use the same decoded value). Each input row is followed, with its
``input`` number, by what the engine derived from it: the table actions with whether the
table took them (``derived``, ``Derived.to_json``) and the sensing layer's notices
(``notice``, ``notice_to_json`` / ``notice_of``). The rebuild (``controller.engine.rebuild``)
runs the inputs again and checks that it derives exactly those rows.

Other rows are outputs only, and the rebuild ignores them: ``run`` marks each start-up of
the table (``input`` 0); ``alert`` and ``result`` are the rows the club-room link publishes
(an irregularity raised or ruled, the arbiter called; a board finished), written after an
input in its group like the derived rows, but never compared or used to rebuild the table.

A stored row is ``seq, input, kind, t, body, crc``: ``body`` is the JSON text of the row's
object (``encode_body``: sorted keys, no spaces) and ``crc`` the CRC-32 of kind, time and
body (``row_crc``), so that a damaged row is recognised (``check_row``) and skipped as a
``BadRow`` (``decode_row``) while the rows around it are kept.

The log's ``meta`` holds the session's fixed settings: ``format`` (``FORMAT``), ``session``
(the session line: code and table settings), ``decks``, ``deck``, ``sensing``, ``table``,
``created``; and ``session_id``, a text id made once when the log is created, which names
the session (what the club room keys a table's rows by, with ``seq``).
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from controller import actions as a
from controller.records.tablelog import action_of, action_to_json
from controller.seats import Seat
from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth, RawEvent, TagGone, TagSeen
from controller.sensing.translate import Notice, NoticeKind

__all__ = [
    "FORMAT", "INPUT_KINDS", "KINDS", "OUTPUT_KINDS", "PUBLISHED_KINDS", "RAW_TYPES", "BadRow", "Derived",
    "Input", "Row", "check_row", "decode_input", "decode_row", "encode_body", "input_row", "notice_of",
    "notice_to_json", "output_rows", "raw_of", "raw_to_json", "row_crc",
]

FORMAT = "bridgetable-log/1"
"""The ``format`` meta value of a log whose rows are those of this module."""
INPUT_KINDS = frozenset({"raw", "tick", "action"})
"""The kinds of input rows: what the rebuild runs again."""
OUTPUT_KINDS = frozenset({"derived", "notice"})
"""The kinds of the rows an input produced that the rebuild derives again and checks."""
PUBLISHED_KINDS = frozenset({"alert", "result"})
"""The kinds of the rows the club-room link publishes (outputs only: the rebuild ignores them)."""
KINDS = INPUT_KINDS | OUTPUT_KINDS | PUBLISHED_KINDS | {"run"}
"""Every row kind (``run``, ``alert`` and ``result`` are ignored by the rebuild: module doc)."""

RAW_TYPES = (TagSeen, TagGone, ContactChanged, ButtonPressed, DeviceHealth)
"""The raw sensor event classes (``RawEvent`` as a tuple, for ``isinstance``)."""


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


# -- stored rows ----------------------------------------------------------------------------------

def encode_body(body: Mapping[str, Any]) -> str:
    """The stored JSON text of a row's body (sorted keys, no spaces: one text per body)."""
    return json.dumps(body, separators=(",", ":"), sort_keys=True)


def row_crc(kind: str, t: float, body_text: str) -> int:
    """The CRC-32 stored with a row: of its kind, its time and its body text."""
    return zlib.crc32(f"{kind}\x1f{t!r}\x1f{body_text}".encode())


def check_row(kind: object, t: object, body_text: object, crc: object) -> str | None:
    """Why a stored row cannot be used (unknown kind, bad time, damaged), or None if it checks out."""
    if not isinstance(kind, str) or kind not in KINDS:
        return f"unknown kind {kind!r}"
    if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t):
        return f"time {t!r} is not a number of seconds"
    if not isinstance(body_text, str):
        return "body is not text"
    if crc != row_crc(kind, float(t), body_text):
        return "checksum does not match (damaged row)"
    return None


def decode_row(seq: int, input: object, kind: object, t: object, body_text: object, crc: object) -> Row | BadRow:
    """The row of stored values, checked and its body decoded; a ``BadRow`` saying why if it cannot be used.

    Text may come as bytes (the store reads text columns as BLOBs, so that a row whose text
    is not UTF-8, a bad sector, is one ``BadRow`` instead of an error of the whole read).
    """
    error: str | None = None
    if isinstance(kind, bytes):
        kind, error = _utf8(kind, "kind")
    if isinstance(body_text, bytes) and error is None:
        body_text, error = _utf8(body_text, "body")
    if error is None:
        error = check_row(kind, t, body_text, crc)
    if error is None and (isinstance(input, bool) or not isinstance(input, int)):
        error = f"input number {input!r} is not a row number"
    if error is None:
        assert isinstance(body_text, str)
        try:
            decoded = json.loads(body_text)
        except ValueError as exc:  # an integer of too many digits too
            error = f"body is not JSON ({exc})"
        except RecursionError:
            error = "body is not JSON (nested too deeply)"
        else:
            if not isinstance(decoded, dict):
                error = "body is not a JSON object"
    if error is not None:
        what = f" ({kind})" if isinstance(kind, str) and kind in KINDS else ""
        return BadRow(int(seq), f"row {seq}{what}: {error}; row skipped")
    assert isinstance(t, int | float) and isinstance(input, int)
    return Row(str(kind), float(t), decoded, int(seq), input)


def _utf8(data: bytes, column: str) -> tuple[str, str | None]:
    """``data`` as text, or why it is not UTF-8 (the error names the first bad byte and where)."""
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return "", f"{column} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start} of {len(data)})"


# -- inputs ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Input:
    """An input: a raw sensor event, an action from ``source``, or a tick (``item`` None) at ``t``."""

    item: RawEvent | a.Action | None
    t: float
    source: str = "sensing"


def input_row(item: RawEvent | a.Action | None, t: float, source: str = "sensing") -> Row:
    """The input row of a raw event, a tick (None) or an action from ``source``."""
    if item is None:
        return Row("tick", t, {})
    if isinstance(item, RAW_TYPES):
        return Row("raw", t, raw_to_json(item))
    return Row("action", t, {"action": action_to_json(item), "source": source})


def decode_input(row: Row) -> Input:
    """The input of an input row; ValueError (or RecordError) if it cannot be read."""
    if row.kind == "raw":
        return Input(raw_of(row.body, row.t), row.t)
    if row.kind == "tick":
        return Input(None, row.t)
    if row.kind != "action":
        raise ValueError(f"a {row.kind!r} row is not an input")
    obj = row.body.get("action")
    if not isinstance(obj, dict):
        raise ValueError("an action row has no 'action' object")
    return Input(action_of(obj), row.t, str(row.body.get("source", "arbiter")))


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


# -- outputs --------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Derived:
    """A table action the engine stepped: where it came from, and what the table did with it.

    ``source`` is ``sensing``, ``arbiter``, ``board`` (started from the board's tag) or
    ``session``; ``rejected`` is the table's reason for refusing it (None: taken);
    ``irregularities`` the ids of those it raised.
    """

    action: a.Action
    source: str
    rejected: str | None = None
    irregularities: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The body of its ``derived`` row."""
        out: dict[str, Any] = {"action": action_to_json(self.action), "source": self.source}
        if self.rejected is not None:
            out["rejected"] = self.rejected
        if self.irregularities:
            out["irregularities"] = list(self.irregularities)
        return out


def output_rows(derived: Iterable[Derived], notices: Iterable[Notice]) -> list[Row]:
    """The rows of what one input produced: a ``derived`` row per action stepped, then a ``notice`` row each."""
    rows = [Row("derived", d.action.t, d.to_json()) for d in derived]
    rows += [Row("notice", n.t, notice_to_json(n)) for n in notices]
    return rows


def notice_to_json(notice: Notice) -> dict[str, Any]:
    """The JSON body of a notice (``t`` is kept in the row)."""
    out: dict[str, Any] = {"kind": str(notice.kind), "detail": notice.detail}
    if notice.seat is not None:
        out["seat"] = str(notice.seat)
    if notice.reader is not None:
        out["reader"] = notice.reader
    if notice.uid is not None:
        out["uid"] = notice.uid
    return out


def notice_of(body: Mapping[str, Any], t: float) -> Notice:
    """The notice of a JSON body (ValueError if it is not one)."""
    seat = body.get("seat")
    return Notice(NoticeKind(str(body.get("kind"))), None if seat is None else Seat.parse(str(seat)),
                  body.get("reader"), body.get("uid"), str(body.get("detail", "")), t)
