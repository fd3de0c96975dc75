"""A pair late or gone for some rounds, and the phantom of a half table (controller.room.adjustments.absent):
on each board the pair should have played and did not, average minus to it and average plus to its
opponents, who were not at fault (Law 12C2); a round where it meets the phantom gives nothing (nobody
plays there, the movement's sit-out); a board with a result is left alone; the table whose boards were
adjusted is not late for them; a bad request changes nothing."""

from __future__ import annotations

import pytest

from controller.fieldscore import loads_session
from controller.room.adjustments import DeskError, absent
from controller.room.console import Room
from tests.controller.test_room_results import Tables

HALF = loads_session('[session]\nname = "Club Pairs"\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\n'
                     'pairs = 5\nround_minutes = 15\n')
"""Pair 6 is the phantom: round 1 table 3, round 2 table 1, round 3 table 2 sit out."""
T0 = 1_000_000.0


def test_a_late_pair_gets_average_minus_and_its_opponents_average_plus_on_the_boards_it_missed_law_12c2() -> None:
    room = Room("club", session=HALF)
    tables = Tables(room)
    tables.start("2", 3, 0)
    tables.result("2", 3, 420)  # table 2 played board 3 of round 1 before pair 5 left: it stands
    made = absent(room.results, None, "5", range(1, 3), "Ann", "pair 5 left after one board", T0)
    # round 1: table 2 (2 v 5), board 4 only; round 2: table 3 (3 v 5), boards 1-2
    assert [(e.board, e.table, str(e.award)) for e in made] == [("4", "2", "A+/A-"), ("1", "3", "A+/A-"),
                                                                ("2", "3", "A+/A-")]
    assert all(e.by == "Ann" and e.at == T0 and e.reason == "pair 5 left after one board" for e in made)
    boards = room.results.scores()["boards"]
    assert (boards["4"]["2"]["ns"], boards["4"]["2"]["ew"]) == ("2", "5")
    assert room.results.entries()["4"]["2"]["artificial"] == "A+/A-"
    assert boards["3"]["2"]["law15"] is False and "artificial" not in room.results.entries()["3"]["2"]


def test_a_pair_meeting_the_phantom_has_nothing_to_adjust_there_and_the_sit_out_table_is_never_late() -> None:
    room = Room("club", session=HALF)
    with pytest.raises(DeskError, match="pair 1 has no board left to adjust in rounds 2-2"):
        absent(room.results, None, "1", range(2, 3), "Ann", "late", T0)  # round 2: pair 1 meets the phantom
    made = absent(room.results, None, "4", range(1, 2), "Ann", "pair 4 came late", T0)
    assert [(e.board, e.table, str(e.award)) for e in made] == [("1", "1", "A+/A-"), ("2", "1", "A+/A-")]
    room.start_round(T0, 1)
    # round 1's time is up: table 1's boards were adjusted (done), table 3 sat out (nothing due)
    late = {x["table"] for x in room.snapshot(T0 + 16 * 60)["late"]}
    assert late == {"2"}


def test_an_absent_pair_the_movement_lacks_is_refused_and_the_desk_is_unchanged() -> None:
    room = Room("club", session=HALF)
    for pair, rounds, why in (("6", range(1, 2), "no pair 6"), ("9", range(1, 2), "no pair 9"),
                              ("1", range(3, 5), "rounds 3-4: the movement has rounds 1-3")):
        with pytest.raises(DeskError, match=why):
            absent(room.results, None, pair, rounds, "Ann", "late", T0)
    with pytest.raises(DeskError, match="no section 'B'"):
        absent(room.results, "B", "1", range(1, 2), "Ann", "late", T0)
    with pytest.raises(DeskError, match="needs the Director's session"):
        absent(Room("club").results, None, "1", range(1, 2), "Ann", "late", T0)
    assert room.results.desk.entries == ()
