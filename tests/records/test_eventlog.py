"""The event log's codec: inputs and outputs to rows and back; stored rows checked; the rebuild's view of them."""

from __future__ import annotations

import pytest

from controller import actions as a
from controller.cards import Card
from controller.engine import Engine, rebuild, session_start
from controller.records.eventlog import (
    KINDS,
    BadRow,
    Input,
    Row,
    decode_input,
    decode_row,
    encode_body,
    input_row,
    notice_of,
    notice_to_json,
    row_crc,
)
from controller.seats import Seat
from controller.sensing.deck import DeckRegistry
from controller.sensing.events import DeviceHealth, TagSeen
from controller.sensing.translate import Notice, NoticeKind


@pytest.mark.parametrize("given", [
    Input(TagSeen("N.play", "04A1B2C3D4E5F6", 1.5), 1.5),
    Input(DeviceHealth("N.unit", False, "unplugged", 2.0), 2.0),
    Input(None, 3.0),
    Input(a.PlayCard(Seat.W, Card.parse("SK"), 4.0, "deemed"), 4.0, "arbiter"),
    Input(a.BoardStart(7, t=5.0), 5.0, "board"),
])
def test_an_input_comes_back_from_its_row(given: Input) -> None:
    row = input_row(given.item, given.t, given.source)
    assert row.is_input
    assert decode_input(row) == given


def test_a_notice_comes_back_from_its_body() -> None:
    notice = Notice(NoticeKind.BOARD, Seat.S, "board", "0B000000000001", "board tag", 9.0)
    assert notice_of(notice_to_json(notice), 9.0) == notice


def test_a_stored_row_is_checked_and_decoded_once() -> None:
    body = encode_body({"button": "director", "seat": "N"})
    assert decode_row(4, 4, "raw", 1.25, body, row_crc("raw", 1.25, body)) == \
        Row("raw", 1.25, {"button": "director", "seat": "N"}, 4, 4)
    damaged = decode_row(5, 4, "raw", 1.5, body, row_crc("raw", 1.25, body))
    assert isinstance(damaged, BadRow) and "row 5" in damaged.error and "checksum" in damaged.error
    unknown = decode_row(6, 6, "bogus", 1.0, body, 0)
    assert isinstance(unknown, BadRow) and "unknown kind" in unknown.error
    text = "[1, 2]"
    listed = decode_row(7, 7, "tick", 1.0, text, row_crc("tick", 1.0, text))
    assert isinstance(listed, BadRow) and "not a JSON object" in listed.error


@pytest.mark.parametrize(("body", "why"), [
    ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ('{"a": ' + "9" * 5000 + "}", "4300 digits"),
    (b'{"button": "director", "seat": "\xff"}', "not UTF-8"),
], ids=["deep", "long-integer", "not-utf8"])
def test_a_stored_body_that_the_json_module_chokes_on_is_a_bad_row(body: str | bytes, why: str) -> None:
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    row = decode_row(8, 8, "raw", 1.0, body, row_crc("raw", 1.0, text))
    assert isinstance(row, BadRow) and row.error.startswith("row 8 (raw): ") and why in row.error


def test_the_club_rooms_rows_are_kinds_of_the_log_that_the_rebuild_ignores() -> None:
    assert {"alert", "result"} <= KINDS
    start = session_start({"code": "duplicate"})
    engine = Engine.new(DeckRegistry())
    outcome = engine.act(start, "session")
    head, derived = outcome.rows(input_row(start, 0.0, "session"))
    rows = [Row(head.kind, head.t, head.body, 1, 1)]
    rows += [Row(r.kind, r.t, r.body, 2 + i, 1) for i, r in enumerate(derived)]
    seq = len(rows) + 1
    rows += [Row("alert", 0.0, {"alert": "arbiter_called", "seat": "N"}, seq, 1),
             Row("result", 99.0, {"board": 1}, seq + 1, 1),
             Row("run", 0.0, {"pid": 1}, seq + 2, 0)]
    rebuilt = rebuild(rows, engine)
    assert rebuilt.mismatches == [] and rebuilt.bad == []
    assert rebuilt.inputs == 1 and rebuilt.actions == [start]
    assert rebuilt.last_t == 0.0  # a published row's time is not table time
    assert rebuilt.engine.table == outcome.engine.table
    # a derived row that differs is still a mismatch
    changed = [*rows[:-3], Row("derived", 0.0, {"action": {"t": 0, "session": {"code": "rubber"}},
                                                 "source": "session"}, seq + 3, 1)]
    assert rebuild(changed, engine).mismatches
