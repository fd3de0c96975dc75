"""Commands from the console are read and checked exactly as the arbiter page's bodies."""

from __future__ import annotations

import json

import pytest

from controller import actions as a
from controller.cards import Card
from controller.seats import Seat
from tablectl.room.commands import CommandError, read_command


def cmd(**fields: object) -> bytes:
    base: dict[str, object] = {"v": 1, "club": "c", "table": "3", "ref": "r-1", "time": "2026-11-25T10:00:00Z"}
    return json.dumps({**base, **fields}).encode()


def read(payload: bytes) -> tuple[str, a.Action]:
    return read_command(payload, club="c", table="3", limit=2048)


def test_a_ruling_command_is_the_table_logs_ruling() -> None:
    ref, action = read(cmd(command="ruling", ruling={"id": 2, "option": "forbid_suit", "suit": "S"}))
    assert ref == "r-1" and action == a.Ruling("forbid_suit", 2, (("suit", "S"),), 0.0)


def test_an_action_command_is_the_arbiter_pages_manual_entry() -> None:
    _, action = read(cmd(command="action", action={"seat": "W", "play": "SK", "deemed": True}))
    assert isinstance(action, a.PlayCard) and action.seat is Seat.W and action.card == Card.parse("SK")


@pytest.mark.parametrize(("payload", "reason"), [
    (b"x" * 3000, "over the limit"),
    (b"\xff\xfe", "JSON object"),
    (b"[1, 2]", "JSON object"),
    (json.dumps({"command": "ruling"}).encode(), "needs a 'ref'"),
    (cmd(v=2, command="ruling", ruling={"option": "accept"}), "schema 2"),
    (cmd(table="2", command="ruling", ruling={"option": "accept"}), "not club 'c' table '3'"),
    (cmd(club="other", command="ruling", ruling={"option": "accept"}), "not club 'c' table '3'"),
    (cmd(command="shutdown"), "unknown command 'shutdown'"),
    (cmd(command="ruling", ruling={"option": "DROP TABLE"}), "ruling is not valid: option"),
    (cmd(command="ruling", ruling={"option": "accept", "evil": 1}), "ruling is not valid: evil"),
    (cmd(command="action", action={"seat": "N", "play": "SK", "call": "1NT"}), "exactly one action"),
    (cmd(command="action", action={"seat": "N", "play": "Z9"}), "action is not valid: play"),
])
def test_a_malformed_or_forged_command_is_refused_with_its_reason(payload: bytes, reason: str) -> None:
    with pytest.raises(CommandError, match=reason):
        read(payload)


def test_a_refused_command_keeps_its_ref_so_the_console_hears_why() -> None:
    with pytest.raises(CommandError) as err:
        read(cmd(table="9", command="ruling", ruling={"option": "accept"}))
    assert err.value.ref == "r-1"
