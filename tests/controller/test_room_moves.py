"""The movement changed during the session (controller.room.moves): each board stays with the pairs who
played it, before and after the change, as a scorer changes the movement in EBUScore or ScoreBridge.
Two pairs at each other's tables, a table's pairs the wrong way round (North-South scores as East-West),
a table added after a round sharing another table's boards, a table removed (the pairs sent there sit
out: nobody is at fault, no adjusted score, Law 12C2 not engaged), a change taken back, a bad change
refused with nothing changed."""

from __future__ import annotations

import pytest

from controller.fieldscore import loads_session
from controller.room.console import Room
from controller.room.moves import MoveEntry, MoveError, Moves, refollowed
from controller.room.players import session_complete
from tests.controller.test_room_results import Tables

SESSION = loads_session('[session]\nname = "Club Pairs"\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\n')
"""Round 1: 1v4 boards 1-2, 2v5 3-4, 3v6 5-6; round 2: 1v6 3-4, 2v4 5-6, 3v5 1-2; round 3: 1v5 5-6,
2v6 1-2, 3v4 3-4."""
SCORES = {1: 420, 2: -100, 3: 450, 4: 140, 5: -620, 6: 50}


def _played(rounds: tuple[int, ...] = (1, 2, 3), tables: tuple[int, ...] = (1, 2, 3), room: Room | None = None,
            t: Tables | None = None) -> Room:
    room = room or Room("club", session=SESSION)
    t = t or Tables(room)
    movement = SESSION.movement()
    for rnd in rounds:
        for table in tables:
            s = next(x for x in movement.sittings if x.table == table and x.round == rnd)
            for board in movement.boards(s.board_set):
                t.result(str(table), board, SCORES[board] + 10 * table)
    return room


def _pairs(room: Room) -> dict[tuple[str, str], tuple[str, str]]:
    return {(tr["board"], r["table"]): (r["pairs"]["NS"], r["pairs"]["EW"])
            for tr in room.results.travellers() for r in tr["results"]}


def _change(moves: Moves, entry: MoveEntry) -> Moves:
    return moves.add(SESSION, entry)[0]


def _swap(a: str, b: str, first: int, last: int | None = None) -> MoveEntry:
    return MoveEntry(0, "swap", "", first, "Ann", 0.0, "they sat in each other's places", last, a=a, b=b)


def test_two_pairs_at_each_others_tables_from_round_2_the_travellers_name_who_played_before_and_after() -> None:
    room = _played()
    moves = _change(Moves(), _swap("4", "5", 2))
    room.results = refollowed(room.results, moves.session(SESSION))
    pairs = _pairs(room)
    assert pairs[("1", "1")] == ("1", "4")  # round 1: as planned
    assert pairs[("3", "2")] == ("2", "5")
    assert pairs[("5", "2")] == ("2", "5")  # round 2: pair 5 at table 2, pair 4 at table 3
    assert pairs[("1", "3")] == ("3", "4")
    assert pairs[("5", "1")] == ("1", "4")  # round 3: pair 4 went on to table 1, pair 5 to table 3
    assert pairs[("3", "3")] == ("3", "5")
    card = room.results.scorecard("4")
    assert [(r["round"], r["table"], r["opponents"]) for r in card["boards"]][::2] == [(1, "1", "1"), (2, "3", "3"),
                                                                                       (3, "1", "1")]


def test_a_table_sat_the_wrong_way_round_for_one_round_its_north_south_pair_is_scored_east_west() -> None:
    room = _played()
    before = {r["pair"]: r["total"] for r in room.results.ranking()}
    moves = _change(Moves(), _swap("2", "5", 1, 1))  # round 1, table 2: pair 5 sat North-South
    room.results = refollowed(room.results, moves.session(SESSION))
    assert _pairs(room)[("3", "2")] == ("5", "2") and _pairs(room)[("5", "2")] == ("2", "4")
    after = {r["pair"]: r["total"] for r in room.results.ranking()}
    assert sum(after.values()) == pytest.approx(sum(before.values()))
    first = room.results.scorecard("5")["boards"][0]
    assert (first["board"], first["direction"], first["opponents"]) == ("3", "NS", "2")
    assert first["points"] == room.results.scores()["boards"]["3"]["2"]["points_ns"]


def test_a_table_added_after_round_1_shares_a_tables_boards_and_its_results_are_its_new_pairs() -> None:
    room = _played()
    t = Tables(room, now=5000.0)
    for board in (3, 4, 5, 6):  # table 4 played before the Director entered it: rounds 2 and 3
        t.result("4", board, 400)
    moves = _change(Moves(), MoveEntry(0, "table_added", "", 2, "Ann", 0.0, "two latecomers", table=4, ns="7",
                                       ew="8", shares=1))
    room.results = refollowed(room.results, moves.session(SESSION))
    pairs = _pairs(room)
    assert pairs[("3", "4")] == ("7", "8") and pairs[("5", "4")] == ("7", "8")
    assert pairs[("3", "1")] == ("1", "6")  # the shared table's own pairs unchanged
    ranked = {r["pair"]: r for r in room.results.ranking()}
    assert ranked["7"]["boards"] == 4  # rounds 2 and 3: the boards table 1 played (3-4, 5-6)
    assert room.results.scores()["boards"]["5"]["4"]["round"] == 3
    assert room.results.scores()["boards"]["3"]["4"]["law15"] is False


def test_a_table_removed_from_round_3_plays_no_more_and_the_pairs_sent_there_sit_out() -> None:
    room = Room("club", session=SESSION)
    t = Tables(room)
    _played((1, 2), room=room, t=t)
    moves = _change(Moves(), MoveEntry(0, "table_removed", "", 3, "Ann", 0.0, "pairs 3 and 4 went home", table=3))
    room.results = refollowed(room.results, moves.session(SESSION))
    assert room.results.due_by_round("3") == {1: 2, 2: 4}  # nothing due in round 3
    assert not session_complete(room.results)
    _played((3,), (1, 2), room=room, t=t)
    assert session_complete(room.results)  # every table still in play has played every board due


def test_a_change_taken_back_brings_the_planned_movement_back() -> None:
    room = _played()
    planned = _pairs(room)
    moves = _change(Moves(), _swap("4", "5", 2))
    moves = _change(moves, MoveEntry(0, "undo", "", 1, "Ann", 0.0, "wrong pairs", undoes=1))
    room.results = refollowed(room.results, moves.session(SESSION))
    assert _pairs(room) == planned
    assert [e["undone"] for e in moves.as_json()] == [True, False]
    assert moves.as_json()[1]["what"] == "change 1 taken back"


def test_a_bad_change_is_refused_with_why_and_nothing_changes() -> None:
    moves = _change(Moves(), _swap("4", "5", 2))
    for entry, why in (
            (_swap("4", "9", 1), "no pair 9"),
            (_swap("4", "4", 1), "cannot swap places with itself"),
            (_swap("4", "5", 4), r"round 4: the session has rounds 1-3"),
            (_swap("4", "5", 3, 2), r"round 3-2"),
            (MoveEntry(0, "table_added", "", 2, "Ann", 0.0, "late", table=2, ns="7", ew="8", shares=1),
             "table 2 is already in play"),
            (MoveEntry(0, "table_added", "", 2, "Ann", 0.0, "late", table=4, ns="1", ew="8", shares=1),
             "pair 1 already plays"),
            (MoveEntry(0, "table_removed", "", 2, "Ann", 0.0, "gone", table=7), "table 7 has no round"),
            (MoveEntry(0, "undo", "", 1, "Ann", 0.0, "oops", undoes=5), "no change 5"),
            (MoveEntry(0, "swap", "B", 1, "Ann", 0.0, "x", a="4", b="5"), "no section 'B'"),
            (MoveEntry(0, "swap", "", 1, "Ann", 0.0, " ", a="4", b="5"), "say why")):
        with pytest.raises(MoveError, match=why):
            moves.add(SESSION, entry)
    assert len(moves.entries) == 1
    undone = _change(moves, MoveEntry(0, "undo", "", 1, "Ann", 0.0, "oops", undoes=1))
    with pytest.raises(MoveError, match="already taken back"):
        undone.add(SESSION, MoveEntry(0, "undo", "", 1, "Ann", 0.0, "again", undoes=1))


def test_a_change_kept_as_json_reads_back_the_same() -> None:
    _, made = Moves().add(SESSION, MoveEntry(0, "table_added", "", 2, "Ann", 12.5, "two latecomers", 3, table=4,
                                             ns="7", ew="8", shares=1))
    assert MoveEntry.from_json(made.as_json()) == made
    with pytest.raises(MoveError, match="unreadable"):
        MoveEntry.from_json({"kind": "swap"})


def test_a_pair_moved_to_the_sit_out_table_of_a_half_table_takes_the_sit_out_with_it() -> None:
    half = loads_session('[session]\nname = "Club Pairs"\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\n'
                         'pairs = 5\n')  # pair 6 is the phantom: table 3 sits out in round 1
    moves, _ = Moves().add(half, MoveEntry(0, "swap", "", 1, "Ann", 0.0, "pair 4 sat at table 3", 1, a="4", b="6"))
    room = Room("club", session=half)
    room.results = refollowed(room.results, moves.session(half))
    assert room.results.due_by_round("1") == {1: 0, 2: 0, 3: 2}  # table 1 meets the phantom in rounds 1 and 2
    assert room.results.due_by_round("3") == {1: 2, 2: 4, 3: 6}
    t = Tables(room)
    t.result("3", 5, 420)
    assert _pairs(room)[("5", "3")] == ("3", "4")


def test_a_table_added_is_due_its_boards_from_the_round_it_joins() -> None:
    moves, _ = Moves().add(SESSION, MoveEntry(0, "table_added", "", 2, "Ann", 0.0, "latecomers", table=4, ns="7",
                                              ew="8", shares=2))
    room = Room("club", session=SESSION)
    room.results = refollowed(room.results, moves.session(SESSION))
    assert room.results.due_by_round("4") == {1: 0, 2: 2, 3: 4}
    assert {"section": "", "pair": "8"} in [{"section": "", "pair": p} for p in
                                            moves.session(SESSION).movement().participants]


def test_a_change_in_one_section_leaves_the_other_section_as_planned() -> None:
    two = loads_session('[session]\nname = "Club Pairs"\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\n'
                        'sections = ["A", "B"]\n')
    moves, made = Moves().add(two, MoveEntry(0, "swap", "b", 1, "Ann", 0.0, "wrong way round", 1, a="1", b="4"))
    assert made.section == "B" and made.what() == "pairs 1 and 4 of section B swapped places in round 1"
    room = Room("club", session=two)
    t = Tables(room)
    t.result("A1", 1, 420)
    t.result("B1", 1, 420)
    room.results = refollowed(room.results, moves.session(two))
    assert _pairs(room)[("1", "A1")] == ("1", "4") and _pairs(room)[("1", "B1")] == ("4", "1")
