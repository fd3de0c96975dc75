"""The ``desk`` message: each table gets the Director's corrections of its own results (Law 79C) and
their undoing, naming the table's log session; a table takes the entries of its own session only."""

from __future__ import annotations

import pytest

from controller import actions as a
from controller.room.adjustments import Desk, DeskEntry, Played
from controller.room.deskmsg import desk_actions, desk_messages

RESULTS = {"5": {"3": {"number": 5, "session": "s-3"}, "4": {"number": 5, "session": "s-4"}}}


def _desk() -> Desk:
    desk = Desk()
    desk = desk.add(DeskEntry(0, "correction", "5", "3", "Ann", 1_800_000_000.0, "9 tricks, not 10",
                              played=Played.parse("4S", "N", 9, "HK")))
    desk = desk.add(DeskEntry(0, "penalty", "5", "4", "Ann", 1_800_000_001.0, "slow play", side="NS", amount=0.25))
    return desk.add(DeskEntry(0, "undo", "", "", "Ann", 1_800_000_002.0, "wrong table", undoes=1))


def test_each_table_gets_its_corrections_and_their_undoing_and_nothing_else() -> None:
    messages = desk_messages(_desk(), RESULTS)
    assert list(messages) == ["3"]  # table 4's penalty is the console's alone (Law 90): no result changes
    entries = messages["3"]["entries"]
    assert [(e["kind"], e["entry"], e["session"]) for e in entries] == [("correction", 1, "s-3"), ("undo", 3, "s-3")]
    assert entries[0] | {"made": ""} == {"entry": 1, "kind": "correction", "board": 5, "session": "s-3", "by": "Ann",
                                         "reason": "9 tricks, not 10", "made": "", "contract": "4S",
                                         "declarer": "N", "tricks": 9, "lead": "HK"}


def test_a_correction_of_a_result_the_console_does_not_hold_goes_nowhere() -> None:
    assert desk_messages(_desk(), {}) == {}


def test_a_table_takes_the_entries_of_its_own_session_only() -> None:
    body = desk_messages(_desk(), RESULTS)["3"]
    actions, errors = desk_actions(body, "3", "s-3")
    assert [type(x) for x in actions] == [a.CorrectResult, a.UndoCorrection] and errors == []
    assert desk_actions(body, "3", "another-night") == ([], [])
    with pytest.raises(ValueError, match="not a desk message for this table"):
        desk_actions(body, "4", "s-3")


def test_an_unreadable_entry_is_left_out_with_why_and_the_others_taken() -> None:
    body = desk_messages(_desk(), RESULTS)["3"]
    body["entries"][0]["tricks"] = 14
    actions, errors = desk_actions(body, "3", "s-3")
    assert [type(x) for x in actions] == [a.UndoCorrection] and "0 to 13" in errors[0]
