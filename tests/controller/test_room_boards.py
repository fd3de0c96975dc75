"""One board seen at several tables, pure: the same hands turned by some seats is a rotated board
(Law 7, Duplicate Decisions: turned round it is scored with the others; turned a quarter it is
scored as played, in its own comparison group), other cards in other hands a fouled board (Law 87)."""

from __future__ import annotations

from controller.deal import Deal
from controller.room.boards import rotation, turned
from controller.room.console import Room
from tests.controller.test_room_results import DEAL, OTHER, Tables


def _turned(text: str, seats: int) -> str:
    return turned(Deal.parse(text), seats).pbn()


def test_rotation_says_by_how_many_seats_the_hands_moved_and_nothing_for_another_deal_law_7() -> None:
    board = Deal.parse(DEAL)
    for k in (1, 2, 3):
        assert rotation(turned(board, k), board) == k
    assert rotation(board, board) is None
    assert rotation(Deal.parse(OTHER), board) is None  # North and East swapped: not a rotation
    hands = DEAL[2:].split()
    # East's cards at West: a rotation, or two hands swapped (Law 87)? Too little to tell
    assert rotation(Deal.parse(f"N:- - - {hands[1]}"), board) is None
    assert rotation(Deal.parse(f"N:{hands[2]} - {hands[0]} -"), board) is None
    # three hands seen, each two seats on: the fourth can only be where they say
    assert rotation(Deal.parse(f"N:{hands[2]} {hands[3]} {hands[0]} -"), board) == 2


def test_board_turned_round_at_one_table_alarms_naming_the_tables_and_is_scored_with_the_others_law_7() -> None:
    room = Room("club")
    tables = Tables(room)
    tables.result("1", 1, 120, deal=DEAL)
    tables.result("3", 1, 90, deal=DEAL)
    got = tables.result("2", 1, 150, deal=_turned(DEAL, 2))
    assert got.alarm == ("Board 1 was played rotated at table 2: table 2 had the hands of table 1 turned round "
                         "(North held the South cards); scored with the others (Law 7)")
    [call] = room.calls.values()
    assert (call.key, call.table, call.board, call.law, call.origin) == ("room/7/1/2", "2", 1, "7", "room")
    assert room.results.fouled() == {}
    board = room.snapshot(0.0)["scores"]["boards"]["1"]
    assert [(board[t]["label"], board[t]["points_ns"]) for t in "123"] == [("1", 2.0), ("1", 4.0), ("1", 0.0)]


def test_board_turned_one_seat_is_scored_as_played_in_its_own_group_and_told_as_rotated_not_fouled_law_7() -> None:
    room = Room("club")
    tables = Tables(room)
    tables.result("1", 1, 120, deal=DEAL)
    tables.result("2", 1, 90, deal=DEAL)
    got = tables.result("3", 1, -50, deal=_turned(DEAL, 1))
    assert got.alarm is not None and got.alarm.startswith("Board 1 was played rotated at table 3: ")
    assert "North held the West cards" in got.alarm and "scored as played" in got.alarm
    assert [c.law for c in room.calls.values()] == ["7"]
    assert room.results.fouled() == {"1": [["1", "2"], ["3"]]}
    board = room.snapshot(0.0)["scores"]["boards"]["1"]
    assert board["3"]["label"] == "1b"


def test_with_one_table_on_each_side_the_alarm_cannot_tell_which_was_rotated_and_names_both_law_7() -> None:
    room = Room("club")
    tables = Tables(room)
    tables.result("1", 4, 120, deal=DEAL)
    got = tables.result("2", 4, 90, deal=_turned(DEAL, 3))
    assert got.alarm is not None
    assert got.alarm.startswith("Board 4 was played rotated at table 2 or table 1: table 2 had the hands of table 1 "
                                "turned one seat back (North held the East cards)")


def test_cards_in_the_wrong_pockets_that_are_no_rotation_are_still_a_fouled_board_law_87() -> None:
    room = Room("club")
    tables = Tables(room)
    tables.result("1", 2, 120, deal=DEAL)
    got = tables.result("2", 2, 90, deal=OTHER)
    assert got.alarm == "Board 2 is fouled: table 1 and table 2 have different deals (Law 87)"
