"""The JSON Lines table log: every action round-trips; a malformed line is reported, not fatal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller import actions as a
from controller.calls import Call, Denomination
from controller.cards import Card
from controller.deal import Deal
from controller.records import tablelog
from controller.seats import Seat, Vulnerability

DEAL = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")

ALL_ACTIONS: list[a.Action] = [
    a.SessionStart("rubber", (("club_laws", True),), 0.0),
    a.BoardStart(7, Seat.S, Vulnerability.BOTH, DEAL, 0.0),
    a.MakeCall(Seat.S, Call.parse("1NT"), 3.1),
    a.StopCard(Seat.W, 4.0),
    a.AlertCard(Seat.N, 4.5),
    a.PlayCard(Seat.W, Card.parse("SK"), 40.2),
    a.FaceCards(Seat.N, (Card.parse("SA"), Card.parse("S7")), 41.0),
    a.PickUp(Seat.W, Card.parse("SK"), 45.5),
    a.CallDirector(Seat.E, 50.0),
    a.Claim(Seat.S, 4, 90.0),
    a.Concede(Seat.W, 2, 90.5),
    a.Agree(Seat.W, 91.0),
    a.Ruling("forbid_suit", 2, (("suit", "S"),), 60.0),
    a.Ruling("accept", None, (), 61.0),
    a.Adjust(9, 62.0),
    a.Declare(Seat.S, Denomination.H, 1.0),
    a.Declare(Seat.S, None, 1.5),
    a.DoubleDeclaration(Seat.W, 2.0),
    a.Satisfied(Seat.E, 2.5),
]


def test_every_action_round_trips_through_the_log() -> None:
    lines = tablelog.loads(tablelog.dumps(ALL_ACTIONS))
    assert [line.error for line in lines] == [None] * len(ALL_ACTIONS)
    assert [line.action for line in lines] == ALL_ACTIONS


def test_design_md_examples_parse() -> None:
    text = "\n".join([
        '{"t": 0.0,  "session": {"code": "duplicate"}}',
        '{"t": 0.0,  "board": {"number": 7, "dealer": "S", "vul": "Both", '
        '"deal": "N:AK3.QJ2.T98.7654 - - -"}}',
        '{"t": 3.1,  "seat": "S", "call": "1NT"}',
        '{"t": 4.0,  "seat": "W", "stop": true}',
        '{"t": 40.2, "seat": "W", "play": "SK"}',
        '{"t": 41.0, "seat": "N", "face": ["SA","S7"]}',
        '{"t": 45.5, "seat": "W", "pickup": "SK"}',
        '{"t": 50.0, "seat": "E", "director": true}',
        '{"t": 90.0, "seat": "S", "claim": 4}',
        '{"t": 91.0, "seat": "W", "agree": true}',
        '{"t": 60.0, "ruling": {"id": 2, "option": "forbid_suit", "suit": "S"}}',
    ])
    lines = tablelog.loads(text)
    assert all(line.error is None for line in lines)
    assert isinstance(lines[1].action, a.BoardStart) and lines[1].action.number == 7


@pytest.mark.parametrize(("line", "message"), [
    ("{not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"t": 1, "seat": "N", "call": "8S"}', "invalid call '8S'"),
    ('{"t": 1, "seat": "Q", "call": "1S"}', "invalid seat"),
    ('{"t": 1, "call": "1S"}', "missing 'seat'"),
    ('{"t": "soon", "seat": "N", "call": "1S"}', "'t' must be a number"),
    ('{"t": 1, "seat": "N", "play": "ZZ"}', "invalid card"),
    ('{"t": 1, "seat": "N", "claim": "all"}', "whole number"),
    ('{"t": 1, "seat": "N", "wave": true}', "no known action"),
    ('{"t": 1, "board": {"deal": "N:AAA"}}', "invalid"),
])
def test_malformed_line_is_reported_with_its_line_number(line: str, message: str) -> None:
    (parsed,) = tablelog.loads(line)
    assert parsed.action is None and parsed.error is not None
    assert parsed.error.startswith("line 1:") and message in parsed.error


@pytest.mark.parametrize(("line", "message"), [
    (b'{"t": 2, "seat": "E", "call": "Pa\xffss"}', "line 2: byte 0xff is not UTF-8 (column 34)"),
    (b"[" * 100_000 + b"]" * 100_000, "line 2: not JSON (nested too deeply)"),
    (b'{"t": 2, "undo_ruling": ' + b"9" * 5000 + b"}",
     "line 2: not JSON (an integer of 5,000 digits, more than 4,300)"),
    (b'{"t": NaN, "seat": "E", "call": "Pass"}', "line 2: not JSON (NaN is not a JSON number)"),
    (b'{"t": 1e999, "seat": "E", "call": "Pass"}', "line 2: not JSON (the number 1e999 is out of range)"),
    (b'{"t": 2, "seat": "E", "call": "\\ud800"}', "line 2: not JSON (a lone surrogate \\ud800 is not text)"),
    (b'{"t": 1' + b"0" * 400 + b', "seat": "E", "call": "Pass"}',
     "line 2: 't' must be a number of seconds, not a number of 401 digits"),
], ids=["not-utf8", "deep", "long-integer", "nan", "infinite", "lone-surrogate", "huge-time"])
def test_a_line_that_is_not_exactly_json_is_an_error_naming_the_line(tmp_path: Path, line: bytes,
                                                                      message: str) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"t": 0, "board": {"number": 1}}\n' + line + b'\n{"t": 1, "seat": "N", "call": "1C"}\n')
    first, bad, last = tablelog.load(path)
    assert bad.action is None and bad.error == message
    assert first.error is None and last.error is None


def test_good_lines_around_a_bad_one_are_kept() -> None:
    text = '{"t": 0, "board": {"number": 1}}\ngarbage\n{"t": 1, "seat": "N", "call": "1C"}\n'
    lines = tablelog.loads(text)
    assert [line.error is None for line in lines] == [True, False, True]
    assert lines[1].error is not None and lines[1].error.startswith("line 2:")


def test_dumps_writes_one_json_object_per_line() -> None:
    text = tablelog.dumps(ALL_ACTIONS[:3])
    assert [json.loads(x)["t"] for x in text.splitlines()] == [0, 0, 3.1]
