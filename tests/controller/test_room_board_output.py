"""What the console's page is sent of the results (``controller.room.board_output``,
``tablectl.room.console_push.ResultsStream``): one more result makes that board's traveller and
points again and no other's; every path that changes a board (a result, a correction at the desk
and its undoing (Law 79C), the movement changed, Neuberg's count moved, a fouled board (Law 87),
the desk put back) reaches the page; and the ranking's rows that moved, merged into what the page
had, give the ranking whole."""

from __future__ import annotations

import random
from typing import Any

from controller.fieldscore import loads_session
from controller.room.adjustments import DeskEntry, Played
from controller.room.board_output import BoardOutputs
from controller.room.console import Room
from controller.room.moves import MoveEntry, Moves, refollowed
from tablectl.room.console_push import ResultsStream, merged_ranking
from tests.controller.test_room_results import OTHER, Tables

Json = dict[str, Any]

SESSION = loads_session('[session]\nname = "Club Pairs"\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\n')
SECTIONS = loads_session('[session]\nname = "Congress Pairs"\nmovement = "mitchell"\ntables = 3\n'
                         'boards_per_round = 1\nsections = ["A", "B"]\n')


class Page:
    """The Director's page as ``web_ui/static/console.js`` keeps it: the whole results of its first
    push, then each push's changes merged in."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.stream = ResultsStream()
        self.version = 0
        self.travellers: dict[str, Json] = {}
        self.points: dict[str, Json] = {}
        self.ranking: list[Json] = []
        self.last: Json = {}

    def push(self) -> Json:
        """One push with the results (``ConsoleSession.changes``), applied; what it carried."""
        since, self.version = self.version, self.version + 1
        out = self.room.changes(0.0, set(), True, 0)
        self.stream.narrow(out, since, self.version)
        if "travellers" in out:
            self.travellers = {t["board"]: t for t in out["travellers"]}
            self.points = dict(out["scores"]["boards"])
        else:
            for board, traveller in out["travellers_changed"].items():
                if traveller is None:
                    self.travellers.pop(board, None)
                else:
                    self.travellers[board] = traveller
            for board, rows in out["scores"]["boards_changed"].items():
                if rows is None:
                    self.points.pop(board, None)
                else:
                    self.points[board] = rows
        if "ranking" in out:
            self.ranking = out["ranking"]
        elif "ranking_changed" in out:
            self.ranking = merged_ranking(self.ranking, out["ranking_changed"], out["ranking_gone"])
            assert len(self.ranking) == out["ranking_count"]
        self.last = out
        return out

    def is_the_rooms(self) -> bool:
        """The page shows what a page loaded afresh would (every board made anew, not from the cache)."""
        scored = self.room.results.scored()
        fresh = BoardOutputs().outputs(scored.made, tuple(scored.made), scored.points)
        return (self.travellers == {b.board: b.traveller for b in fresh}
                and self.points == {b.board: b.points for b in fresh}
                and self.ranking == self.room.results.ranking())


def _pairs_room() -> tuple[Room, Tables]:
    """Four tables, each with its own pairs, each plays boards 1 to 4."""
    room = Room("c")
    tables = Tables(room)
    for board in range(1, 5):
        for table in range(1, 5):
            tables.result(str(table), board, (420, 450, -50, 100)[(board + table) % 4],
                          pairs={"NS": f"{table}N", "EW": f"{table}E"})
    return room, tables


def _mitchell(rounds: tuple[int, ...] = (1, 2, 3)) -> tuple[Room, Tables]:
    """Round 1: 1v4 boards 1-2, 2v5 3-4, 3v6 5-6; round 2: 1v6 3-4, 2v4 5-6, 3v5 1-2; round 3: 1v5 5-6,
    2v6 1-2, 3v4 3-4."""
    room = Room("club", session=SESSION)
    tables = Tables(room)
    movement = SESSION.movement()
    for rnd in rounds:
        for table in (1, 2, 3):
            s = next(x for x in movement.sittings if x.table == table and x.round == rnd)
            for board in movement.boards(s.board_set):
                tables.result(str(table), board, (420, -100, 450, 140, -620, 50)[board - 1] + 10 * table)
    return room, tables


def _made(room: Room) -> tuple[int, int]:
    outputs = room.results._outputs
    return outputs.travellers_made, outputs.points_made


def test_one_more_result_makes_that_boards_traveller_and_points_again_and_no_others() -> None:
    room, tables = _pairs_room()
    page = Page(room)
    page.push()
    assert _made(room) == (4, 4)
    tables.result("2", 3, -200, pairs={"NS": "2N", "EW": "2E"})  # table 2 sends board 3 again: corrected
    out = page.push()
    assert _made(room) == (5, 5)  # board 3's traveller and points made again, nothing else
    assert list(out["travellers_changed"]) == ["3"] and list(out["scores"]["boards_changed"]) == ["3"]
    assert page.is_the_rooms()
    page.push()  # nothing new: nothing made, nothing sent
    assert _made(room) == (5, 5) and page.last["travellers_changed"] == {} and "ranking_changed" not in page.last


def test_a_correction_at_the_desk_and_its_undoing_reach_the_pushed_traveller_law_79c() -> None:
    room, _ = _pairs_room()
    page = Page(room)
    page.push()
    made = room.results.adjust(DeskEntry(0, "correction", "2", "1", "Ann", 0.0, "wrong tricks",
                                         played=Played.parse("4S", "N", 10)))
    out = page.push()
    assert list(out["travellers_changed"]) == ["2"]
    row = next(r for r in page.travellers["2"]["results"] if r["table"] == "1")
    assert (row["contract"], row["score_ns"]) == ("4S", 620) and row["desk"]  # board 2: North-South vulnerable
    assert page.is_the_rooms()
    room.results.adjust(DeskEntry(0, "undo", "2", "1", "Ann", 0.0, "taken back", undoes=made.id))
    out = page.push()
    assert list(out["travellers_changed"]) == ["2"]
    row = next(r for r in page.travellers["2"]["results"] if r["table"] == "1")
    assert (row["contract"], row["score_ns"]) == ("3NT", 100)  # as played
    assert page.is_the_rooms()


def test_the_desk_put_back_makes_every_board_again_and_sends_none_that_did_not_change() -> None:
    room, _ = _pairs_room()
    page = Page(room)
    page.push()
    room.results.scored_again()  # as restore_desk does when the console starts
    out = page.push()
    assert _made(room) == (8, 8) and out["travellers_changed"] == {} and out["scores"]["boards_changed"] == {}
    assert page.is_the_rooms()


def test_neubergs_count_moved_every_boards_points_are_sent_and_only_the_new_boards_traveller() -> None:
    room, tables = _pairs_room()
    page = Page(room)
    page.push()
    tables.result("5", 1, 430, pairs={"NS": "5N", "EW": "5E"})  # board 1 has 5 results: the others are factored
    out = page.push()
    assert list(out["travellers_changed"]) == ["1"]
    assert sorted(out["scores"]["boards_changed"]) == ["1", "2", "3", "4"]
    assert page.is_the_rooms()


def test_a_fouled_board_reaches_the_pushed_points_with_its_groups_law_87() -> None:
    room, tables = _pairs_room()
    page = Page(room)
    page.push()
    tables.result("3", 2, 100, deal=OTHER, pairs={"NS": "3N", "EW": "3E"})  # table 3 played another deal
    out = page.push()
    assert "2" in out["scores"]["boards_changed"]
    assert page.points["2"]["3"]["label"] == "2b" and page.points["2"]["1"]["label"] == "2"
    assert out["scores"]["fouled"] == {"2": [["1", "2", "4"], ["3"]]}
    assert page.is_the_rooms()


def test_a_movement_changed_sends_the_results_whole_with_the_pairs_who_played() -> None:
    room, _ = _mitchell()
    page = Page(room)
    page.push()
    moves = Moves().add(SESSION, MoveEntry(0, "swap", "", 2, "Ann", 0.0, "they swapped", None, a="4", b="5"))[0]
    room.results = refollowed(room.results, moves.session(SESSION))
    out = page.push()
    assert "travellers" in out and "ranking" in out  # versions numbered anew: the page is sent them whole
    assert {r["table"]: r["pairs"]["EW"] for r in page.travellers["5"]["results"]}["2"] == "5"
    assert page.is_the_rooms()


def test_a_table_beginning_its_next_board_makes_its_boards_again_but_sends_none() -> None:
    room, tables = _mitchell(rounds=(1, 2))
    page = Page(room)
    page.push()
    before = _made(room)
    tables.start("1", 5, 4)  # round 3: its way through the movement moves on
    tables.result("2", 3, 300)  # and a result somewhere, so the room is scored again
    out = page.push()
    assert _made(room)[0] == before[0] + 5  # table 1's 4 boards and board 5 (its deal seen) made again...
    assert list(out["travellers_changed"]) == ["3"]  # ...and only the board that changed sent
    assert page.is_the_rooms()


def _random_results(room: Room, tables: Tables, rng: random.Random, count: int, names: list[str],
                    boards: int) -> None:
    for _ in range(count):
        table = rng.choice(names)
        tables.result(table, rng.randint(1, boards), rng.choice((420, 450, -50, 100, 620, -100, 170)),
                      pairs={"NS": f"{table}N", "EW": f"{table}E"})


def test_the_ranking_rows_that_moved_merged_into_the_page_give_the_ranking_whole() -> None:
    for seed in range(8):
        rng = random.Random(seed)
        room = Room("c")
        tables = Tables(room)
        names = [str(t) for t in range(1, 9)]
        page = Page(room)
        page.push()
        moved = 0
        for _ in range(12):
            _random_results(room, tables, rng, rng.randint(1, 4), names, 6)
            out = page.push()
            assert "ranking" not in out  # never whole once the page has it
            moved += len(out.get("ranking_changed", []))
            assert page.ranking == room.results.ranking() and page.is_the_rooms()
        assert moved > 0


def test_the_ranking_of_two_sections_merged_row_by_row_is_the_official_one() -> None:
    room = Room("c", session=SECTIONS)
    tables = Tables(room)
    page = Page(room)
    page.push()
    for rnd in (1, 2, 3):
        for section in "AB":
            movement = SECTIONS.movement(section)
            for s in (x for x in movement.sittings if x.round == rnd):
                (board,) = movement.boards(s.board_set)
                tables.start(f"{section}{s.table}", board, rnd - 1)
                tables.result(f"{section}{s.table}", board, (420, 450, -50, 100)[(board + s.table + rnd) % 4])
            page.push()
            assert page.ranking == room.results.ranking() and page.is_the_rooms()
    assert {r["section"] for r in page.ranking} == {"A", "B"} and len(page.ranking) == 12


def test_the_sessions_end_and_the_boards_released_in_each_push_follow_the_results_law_16c() -> None:
    room, tables = _mitchell(rounds=(1, 2))
    header = room.changes(0.0, set(), False, 0)
    assert header["over"] is False and header["released"]["boards"] == []  # every board has a table to come
    room.release("1")
    assert room.changes(0.0, set(), False, 0)["released"]["boards"] == ["1"]  # the Director released it
    room.release("1", False)
    movement = SESSION.movement()
    for table in (1, 2, 3):  # round 3: each board's last table plays it
        s = next(x for x in movement.sittings if x.table == table and x.round == 3)
        for board in movement.boards(s.board_set):
            tables.result(str(table), board, 100)
        released = room.changes(0.0, set(), False, 0)["released"]
        assert released["all"] or {str(b) for b in movement.boards(s.board_set)} <= set(released["boards"])
    header = room.changes(0.0, set(), False, 0)
    assert header["over"] is True and header["released"]["all"] is True  # every table has played all its boards
