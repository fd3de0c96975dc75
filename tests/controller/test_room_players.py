"""What the players at a table may see of the room's results, pure (controller/room/players.py):
a board's traveller only once the players seated there have played it themselves, never before
(it would tell them the deal), gone when they move on, and its results only once every table due to
play it has finished it (Law 16C) or the Director released it; the ranking, and a scorecard's place,
as the Director publishes it (live, at the end of the session, never); travellers on or off."""

from __future__ import annotations

import pytest

from controller.room.console import Room
from controller.room.players import PlayerSettings
from tests.controller.test_room_clock import MITCHELL_3, T0
from tests.controller.test_room_results import Tables

MOVEMENT = MITCHELL_3.movement()


def boards_of(table: int, round_: int) -> tuple[int, ...]:
    sitting = next(s for s in MOVEMENT.sittings if s.table == table and s.round == round_)
    return MOVEMENT.boards(sitting.board_set)


def shown(room: Room, table: str, now: float = T0) -> list[str]:
    """The boards whose results the pairs seated at ``table`` may see (once released)."""
    return list(room.for_players(now)[table]["boards"])


def test_a_table_sees_the_traveller_of_a_board_only_once_it_has_played_it_itself() -> None:
    room = Room("club", session=MITCHELL_3)
    tables = Tables(room)
    b1, b2 = boards_of(1, 1)
    tables.start("1", b1, 0)
    tables.start("2", boards_of(2, 1)[0], 0)
    tables.result("2", boards_of(2, 1)[0], 420)  # table 2 finished a board table 1 will play later
    assert shown(room, "1") == []
    tables.result("1", b1, 400)
    published = room.for_players(T0)["1"]
    assert published["boards"] == [str(b1)]
    # tables 2 and 3 have still to play it: its traveller and its score are kept back (Law 16C)
    assert published["travellers"] == [] and published["released"] == {"all": False, "boards": []}
    [ns, ew] = published["scorecards"]
    assert [(b["board"], b["held"], b["score"]) for b in ew["boards"]] == [(str(b1), True, None)]
    room.release(str(b1))  # the Director shows it now
    published = room.for_players(T0)["1"]
    assert [r["table"] for r in published["travellers"][0]["results"]] == ["1"]
    [ns, ew] = published["scorecards"]
    assert (ns["pair"], ew["pair"]) == ("1", "4") and [b["score"] for b in ew["boards"]] == [-400]
    assert str(boards_of(2, 1)[0]) not in shown(room, "1")
    assert shown(room, "2") == [str(boards_of(2, 1)[0])]
    tables.result("1", b2, 90)
    assert shown(room, "1") == [str(b1), str(b2)]


def test_the_rounds_travellers_leave_the_table_when_the_players_move_on() -> None:
    room = Room("club", session=MITCHELL_3)
    tables = Tables(room)
    for board in boards_of(1, 1):
        tables.start("1", board, 0 if board == boards_of(1, 1)[0] else 1)
        tables.result("1", board, 100)
    room.start_round(T0, 1)
    assert len(shown(room, "1", T0 + 60)) == 2  # the round is finished, its time not up: they are still there
    assert shown(room, "1", T0 + 15 * 60 + 1) == []  # round 2 called by the clock: the next pair comes
    room.stop_clock()
    assert len(shown(room, "1")) == 2
    tables.start("1", boards_of(1, 2)[0], 2)  # without the clock: the next round's first board
    assert shown(room, "1") == []


def test_once_the_session_is_over_every_board_the_table_played_is_shown_and_no_other() -> None:
    room = Room("club", session=MITCHELL_3)
    tables = Tables(room)
    for round_ in (1, 2):
        for i, board in enumerate(boards_of(1, round_)):
            tables.start("1", board, 2 * (round_ - 1) + i)
            tables.result("1", board, 100 + i)
    other = boards_of(1, 3)[0]  # table 1 has not played it yet; table 2 has
    tables.result("2", other, 50)
    assert shown(room, "1") == [str(b) for b in boards_of(1, 2)]
    room.end_session()
    played = sorted(str(b) for r in (1, 2) for b in boards_of(1, r))
    assert sorted(shown(room, "1")) == played and str(other) not in room.for_players(T0)["1"]["boards"]


def test_without_a_session_the_tables_pairs_stay_and_see_every_board_they_finished() -> None:
    room = Room("club")
    tables = Tables(room)
    tables.result("1", 1, 100, pairs={"NS": "1", "EW": "2"})
    tables.result("1", 2, 100, pairs={"NS": "1", "EW": "2"})
    tables.result("2", 3, 100, pairs={"NS": "3", "EW": "4"})
    assert shown(room, "1") == ["1", "2"] and shown(room, "2") == ["3"]


@pytest.mark.parametrize(("when", "during", "after"), [("live", True, True), ("end", False, True),
                                                        ("never", False, False)])
def test_the_ranking_reaches_the_players_as_the_director_publishes_it(when: str, during: bool, after: bool) -> None:
    room = Room("club")
    tables = Tables(room)
    tables.result("1", 1, 100)
    room.set_players(PlayerSettings(ranking=when))
    assert (room.for_players(T0)["1"]["ranking"] is not None) is during
    cards = room.for_players(T0)["1"]["scorecards"]
    assert all((c["standing"] is not None) is during for c in cards)  # no place on a scorecard while hidden
    room.end_session()
    assert (room.for_players(T0)["1"]["ranking"] is not None) is after


def test_a_board_is_released_once_every_table_the_movement_gives_it_to_has_finished_it_law_16c() -> None:
    room = Room("club", session=MITCHELL_3)
    tables = Tables(room)
    board = boards_of(1, 1)[0]
    due = sorted((s.table, s.round) for s in MOVEMENT.sittings if board in MOVEMENT.boards(s.board_set))
    for i, (table, round_) in enumerate(due):
        assert str(board) not in room.released(T0).boards
        for r in range(1, round_):  # the table plays its earlier rounds first
            for b in boards_of(table, r):
                tables.start(str(table), b, 0)
                tables.result(str(table), b, 0)
        tables.start(str(table), board, i)
        tables.result(str(table), board, 100)
    assert str(board) in room.released(T0).boards
    assert [t["board"] for t in room.for_players(T0)[str(due[-1][0])]["travellers"]] == [str(board)]


def test_travellers_off_shows_no_board_and_no_scorecard() -> None:
    room = Room("club")
    tables = Tables(room)
    tables.result("1", 1, 100)
    room.set_players(PlayerSettings(travellers=False, ranking="live"))
    published = room.for_players(T0)["1"]
    assert published["travellers"] == [] and published["scorecards"] == [] and published["ranking"]
    with pytest.raises(ValueError, match="not 'sometimes'"):
        PlayerSettings(ranking="sometimes")
