"""The round clock and the tables that are late, pure, with explicit times (never a wait): the
session's round time, the round the clock is in, and a table late when a round's time is up and
it has not finished the boards the movement gives it by then (Law 8: the round ends when the
Director calls the move)."""

from __future__ import annotations

import pytest

from controller.fieldscore import loads_session
from controller.fieldscore.movement import MovementError
from controller.room.clock import RoundClock, late_tables
from controller.room.console import Room
from tests.controller.test_room_results import Tables

MITCHELL_3 = loads_session('[session]\nname = "Club Pairs"\nmovement = "mitchell"\ntables = 3\n'
                           'boards_per_round = 2\nround_minutes = 15\n')
T0 = 1_000_000.0


def test_the_round_time_comes_from_the_session_file_else_seven_and_a_half_minutes_a_board() -> None:
    assert MITCHELL_3.minutes_per_round == 15.0
    plain = loads_session('[session]\nmovement = "howell"\ntables = 3\nboards_per_round = 3\n')
    assert plain.round_minutes is None and plain.minutes_per_round == 22.5
    with pytest.raises(MovementError, match=r"round_minutes = 0: 1 to 240 minutes"):
        loads_session('[session]\nmovement = "howell"\ntables = 3\nboards_per_round = 3\nround_minutes = 0\n')
    with pytest.raises(MovementError, match=r'round_minutes = "soon": a number of minutes'):
        loads_session('[session]\nmovement = "howell"\ntables = 3\nboards_per_round = 3\nround_minutes = "soon"\n')


def test_the_clock_runs_round_after_round_from_the_round_the_director_called() -> None:
    clock = RoundClock(15.0, 3)
    assert clock.round_at(T0) is None and clock.due(T0) == 0 and not clock.running
    clock = clock.start(T0, 1)
    assert clock.round_at(T0) == 1 and clock.due(T0) == 0
    assert clock.as_json(T0 + 60)["left"] == 840.0
    assert clock.round_at(T0 + 15 * 60) == 2 and clock.due(T0 + 15 * 60) == 1
    assert clock.round_at(T0 + 50 * 60) == 3 and clock.due(T0 + 50 * 60) == 3 and clock.over(T0 + 50 * 60)
    late_call = clock.start(T0 + 17 * 60, 2)  # the Director called round 2 two minutes late
    assert late_call.due(T0 + 31 * 60) == 1 and late_call.ends(2) == T0 + 32 * 60
    assert late_call.as_json(T0 + 33 * 60)["round"] == 3
    with pytest.raises(ValueError, match="round 4 is not one of the session's rounds 1-3"):
        clock.start(T0, 4)


def test_a_table_is_late_when_the_rounds_time_is_up_and_its_boards_are_not_all_played() -> None:
    clock = RoundClock(15.0, 3).start(T0, 1)
    due = {"1": {1: 2, 2: 4, 3: 6}, "2": {1: 2, 2: 4, 3: 6}, "3": {1: 0, 2: 2, 3: 4}}  # table 3 sits out round 1
    played = {"1": 2, "2": 1, "3": 0}
    assert late_tables(clock, T0 + 14 * 60, played, due) == []  # time not yet up: nobody is late
    [late] = late_tables(clock, T0 + 16 * 60, played, due)
    assert (late.table, late.round, late.played, late.due, late.seconds) == ("2", 1, 1, 2, 60.0)
    assert [x.table for x in late_tables(clock, T0 + 31 * 60, {"1": 4, "2": 4, "3": 1}, due)] == ["3"]


def test_the_console_shows_the_round_clock_and_colours_a_late_table() -> None:
    room = Room("club", session=MITCHELL_3)
    tables = Tables(room)
    movement = MITCHELL_3.movement()
    first = {s.table: movement.boards(s.board_set) for s in movement.sittings if s.round == 1}
    for table in (1, 2, 3):
        tables.start(str(table), first[table][0], 0)
    for table in (1, 3):
        for board in first[table]:
            tables.result(str(table), board, 100)
    tables.result("2", first[2][0], 100)  # table 2 has one board of round 1 to play
    room.start_round(T0, 1)
    snap = room.snapshot(T0 + 10 * 60)
    assert snap["clock"]["round"] == 1 and snap["clock"]["left"] == 300.0 and snap["late"] == []
    snap = room.snapshot(T0 + 15 * 60 + 30)
    assert snap["clock"]["round"] == 2
    assert snap["late"] == [{"table": "2", "round": 1, "played": 1, "due": 2, "late_by": 30.0}]
    colours = {t["table"]: t["colour"] for t in snap["tiles"]}
    assert colours["2"] == "late" and colours["1"] != "late"
    with pytest.raises(ValueError, match="needs the Director's session"):
        Room("club").start_round(T0, 1)


def test_calling_the_next_round_early_makes_the_tables_still_playing_late_law_8() -> None:
    """Law 8: the round ends when the Director calls the move; a table still on the round's boards
    when he calls the next one early is late from that moment, not only when its time would be up."""
    clock = RoundClock(15.0, 3).start(T0, 1)
    due = {"1": {1: 2, 2: 4, 3: 6}, "2": {1: 2, 2: 4, 3: 6}}
    played = {"1": 2, "2": 1}
    assert late_tables(clock, T0 + 10 * 60, played, due) == []  # round 1's time is not up yet
    early = clock.start(T0 + 10 * 60, 2)  # five minutes early
    [late] = late_tables(early, T0 + 11 * 60, played, due)
    assert (late.table, late.round, late.played, late.due, late.seconds) == ("2", 1, 1, 2, 60.0)
    assert late_tables(early, T0 + 11 * 60, {"1": 2, "2": 2}, due) == []  # it has finished since
    room = Room("club", session=MITCHELL_3)
    movement = MITCHELL_3.movement()
    first = {s.table: movement.boards(s.board_set) for s in movement.sittings if s.round == 1}
    tables = Tables(room)
    for table in (1, 2, 3):
        tables.start(str(table), first[table][0], 0)
        tables.result(str(table), first[table][0], 100)
    tables.result("1", first[1][1], 100)
    room.start_round(T0, 1)
    room.start_round(T0 + 5 * 60, 2)  # called ten minutes early
    snap = room.snapshot(T0 + 5 * 60 + 20)
    assert [(x["table"], x["round"], x["late_by"]) for x in snap["late"]] == [("2", 1, 20.0), ("3", 1, 20.0)]
    assert {t["table"]: t["colour"] for t in snap["tiles"]}["2"] == "late"
