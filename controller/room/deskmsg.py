"""The Director's corrections sent to each table's own log: the ``desk`` message (pure functions).

A correction of a finished board's result made at the console's scoring desk (Law 79C,
``controller.room.adjustments``), and its taking back, go to the table whose result it corrects,
so that the table's own record keeps it as an entry of its own (``controller.table.corrections``)
and its players see the result as it now stands.

The console publishes, retained on ``bridge/<club>/table/<id>/desk`` (only the console may write
it, only that table read it: the broker's ACL), every correction entry of that table, oldest
first (``desk_messages``). Retained, it reaches a table that was off when it was made as soon as
the table comes back; whole, it is the same message however often it is sent. Each entry names
the table's log ``session`` of the result it corrects (as the table sent it): a table takes the
entries of its own session only (``desk_actions``), each once (an entry is known by its number and
the time it was made), and answers each on its ``alert`` topic (``{"alert": "desk", "entry",
"accepted", "reason"}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from controller import actions as a
from controller.cards import Card
from controller.contract import Contract
from controller.errors import BridgeTableError
from controller.room.adjustments import Desk, DeskEntry
from controller.seats import Seat

__all__ = ["DESK_LIMIT", "desk_actions", "desk_messages", "made_text", "with_answers"]

Json = dict[str, Any]

DESK_LIMIT = 256 * 1024
"""Bytes: a longer ``desk`` message is dropped unread by the table (a night's corrections are far less)."""


def made_text(at: float) -> str:
    """The time an entry was made (wall-clock seconds) as the log keeps it: ISO 8601 UTC."""
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _entry_json(e: DeskEntry, session: str) -> Json | None:
    if not e.board.isdigit():
        return None
    out: Json = {"entry": e.id, "kind": e.kind, "board": int(e.board), "session": session, "by": e.by,
                 "reason": e.reason, "made": made_text(e.at)}
    if e.kind == "undo":
        return out | {"undoes": e.undoes}
    assert e.played is not None
    return out | {k: v for k, v in e.played.fields().items() if k in ("contract", "declarer", "tricks", "lead")}


def desk_messages(desk: Desk, results: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> dict[str, Json]:
    """Each table's ``desk`` message body (module doc): its corrections and their undoing, oldest first.

    ``results`` are the tables' result messages as the console holds them (board -> table -> message,
    with the table's ``session``); a correction of a result the console does not hold goes nowhere.
    """
    corrections = {e.id for e in desk.entries if e.kind == "correction"}
    out: dict[str, list[Json]] = {}
    for e in desk.entries:
        if e.kind != "correction" and not (e.kind == "undo" and e.undoes in corrections):
            continue
        session = results.get(e.board, {}).get(e.table, {}).get("session")
        body = _entry_json(e, str(session)) if session else None
        if body is not None:
            out.setdefault(e.table, []).append(body)
    return {table: {"kind": "desk", "table": table, "entries": entries} for table, entries in out.items()}


def with_answers(entries: list[Json], answers: Mapping[tuple[str, int], Json]) -> list[Json]:
    """The desk's entries (``Desk.as_json``), each correction and each taking back of one with ``table_answer``:
    the table's answer once its log took the entry or refused it (``accepted``, the table's ``reason``, ``at``;
    ``Room.desk_answers``), None while none has come. An entry that came from a room's console is known to
    the table by that console's number (``from_room``)."""
    corrections = {e["id"] for e in entries if e["kind"] == "correction"}
    for e in entries:
        if e["kind"] == "correction" or (e["kind"] == "undo" and e.get("undoes") in corrections):
            number = e["from_room"]["entry"] if e.get("from_room") else e["id"]
            e["table_answer"] = answers.get((e["table"], number))
    return entries


def _text(entry: Mapping[str, Any], key: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{key!r} must be a non-empty text")
    return value


def _whole(entry: Mapping[str, Any], key: str) -> int:
    value = entry.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key!r} must be a whole number")
    return value


def _action(entry: Mapping[str, Any]) -> a.CorrectResult | a.UndoCorrection:
    number, by, reason, made = _whole(entry, "entry"), _text(entry, "by"), _text(entry, "reason"), _text(entry, "made")
    if entry.get("kind") == "undo":
        return a.UndoCorrection(number, _whole(entry, "undoes"), by, reason, made)
    if entry.get("kind") != "correction":
        raise ValueError(f"unknown kind {entry.get('kind')!r}")
    text = _text(entry, "contract")
    contract: Contract | None = None
    tricks = 0
    lead = None
    if text.strip().upper() != "PASS":
        contract = Contract.parse(text, Seat.parse(_text(entry, "declarer")))
        tricks = _whole(entry, "tricks")
        if not 0 <= tricks <= 13:
            raise ValueError(f"tricks are 0 to 13, not {tricks}")
        lead = None if entry.get("lead") is None else Card.parse(str(entry["lead"]))
    return a.CorrectResult(number, _whole(entry, "board"), contract, tricks, lead, by, reason, made)


def desk_actions(body: Any, table: str, session: str) -> tuple[list[a.CorrectResult | a.UndoCorrection], list[str]]:
    """The table actions of a ``desk`` message for ``table`` in its log's ``session``, oldest first,
    and why each entry that cannot be read was left out (an entry of another session is no error:
    it is another night's). ValueError when the message is not a desk message for this table."""
    if not isinstance(body, dict) or body.get("kind") != "desk" or str(body.get("table")) != table \
            or not isinstance(body.get("entries"), list):
        raise ValueError("not a desk message for this table")
    actions: list[a.CorrectResult | a.UndoCorrection] = []
    errors: list[str] = []
    for entry in body["entries"]:
        if not isinstance(entry, dict) or entry.get("session") != session:
            continue
        try:
            actions.append(_action(entry))
        except (ValueError, BridgeTableError) as exc:
            errors.append(f"desk entry {entry.get('entry')!r}: {exc}")
    return actions, errors
