"""The room's results, pure: each result put to its pairs (by the movement when the console has
the session), the live ranking and scorecards, a fouled board (Law 87) and a board played out
of its round (Law 15) found across the tables, from hand-made table messages."""

from __future__ import annotations

from typing import Any

from controller.deal import Deal
from controller.fieldscore import Scoring, loads_session, score_event
from controller.fieldscore.model import Event, Result
from controller.room.console import Received, Room

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
OTHER = "N:T98.765.432.AKQJ AKQJ.T98.765.432 765.432.AKQJ.T98 432.AKQJ.T98.765"  # N and E swapped
MITCHELL_5 = loads_session('[session]\nname = "Tuesday Pairs"\nmovement = "mitchell"\ntables = 5\n'
                           'boards_per_round = 3\n')

Json = dict[str, Any]


class Tables:
    """The tables of a room as the console hears them: each message with its envelope."""

    def __init__(self, room: Room, now: float = 1000.0) -> None:
        self.room = room
        self.seq: dict[str, int] = {}
        self.now = now

    def _envelope(self, table: str, body: Json) -> Json:
        seq = self.seq.get(table, 0) + 1
        self.seq[table] = seq
        self.now += 1.0
        return {**body, "v": 1, "club": "c", "table": table, "session": f"s{table}", "seq": seq, "prev": seq - 1,
                "at": self.now}

    def result(self, table: str, board: int, score: int, *, deal: str | None = DEAL, pairs: Json | None = None,
               status: str = "played") -> Received:
        body: Json = {"number": board, "deal": deal, "contract": "3NT", "declarer": "N", "tricks": 9,
                      "result": "=", "score_ns": score, "status": status}
        if pairs is not None:
            body["pairs"] = pairs
        return self.room.receive("result", table, self._envelope(table, body), self.now)

    def start(self, table: str, board: int, played: int, deal: str | None = DEAL) -> Received:
        """The table's state as a board begins: its arbiter view holds the deal."""
        body = {"online": True, "board": board, "phase": "auction", "boards_played": played,
                "view": {"board": {"number": board, "deal": deal}}}
        self.now += 1.0
        return self.room.receive("state", table, {**body, "v": 1, "club": "c", "table": table,
                                                  "session": f"s{table}", "seq": self.seq.get(table, 0),
                                                  "at": self.now}, self.now)


def test_live_ranking_matchpoints_each_board_from_the_tables_own_results_and_pairs() -> None:
    room = Room("c")
    tables = Tables(room)
    for table, ns, ew, first, second in (("1", "1", "4", 400, -100), ("2", "2", "5", 430, 50),
                                         ("3", "3", "6", 430, 50)):
        tables.result(table, 1, first, pairs={"NS": ns, "EW": ew})
        tables.result(table, 2, second, pairs={"NS": ns, "EW": ew})
    snap = room.snapshot(2000.0)
    board_1 = snap["scores"]["boards"]["1"]
    assert [(board_1[t]["points_ns"], board_1[t]["points_ew"], board_1[t]["top"]) for t in "123"] == [
        (0.0, 4.0, 4.0), (3.0, 1.0, 4.0), (3.0, 1.0, 4.0)]
    assert snap["scores"]["scoring"] == "MP" and snap["scores"]["by_direction"] is True
    ranking = [(r["pair"], r["direction"], r["total"], r["percent"], r["place"]) for r in snap["ranking"]]
    assert ranking == [("2", "NS", 6.0, 75.0, "1="), ("3", "NS", 6.0, 75.0, "1="), ("1", "NS", 0.0, 0.0, "3"),
                       ("4", "EW", 8.0, 100.0, "1"), ("5", "EW", 2.0, 25.0, "2="), ("6", "EW", 2.0, 25.0, "2=")]
    # the same as controller.fieldscore scores the same results
    results = tuple(Result(str(b), ns, ew, score=s) for ns, ew, scores in (("1", "4", (400, -100)),
                                                                           ("2", "5", (430, 50)),
                                                                           ("3", "6", (430, 50)))
                    for b, s in zip((1, 2), scores, strict=True))
    expected = score_event(Event("c", Scoring.MP, results))
    assert [(st.pair, st.rank, round(st.percent or 0, 2)) for st in expected.standings] == \
        [(r["pair"], r["rank"], r["percent"]) for r in snap["ranking"]]
    card = room.scorecard("5")
    assert card["standing"]["place"] == "2=" and card["standing"]["percent"] == 25.0
    assert [(b["board"], b["direction"], b["opponents"], b["score"], b["points"]) for b in card["boards"]] == [
        ("1", "EW", "2", -430, 1.0), ("2", "EW", "2", -50, 1.0)]


def test_a_table_that_names_one_pair_for_both_sides_is_two_pairs() -> None:
    room = Room("c")
    tables = Tables(room)
    tables.result("1", 1, 420)
    tables.result("2", 1, 450, pairs={"NS": "2", "EW": "2"})
    pairs = {r["pair"] for r in room.snapshot(0.0)["ranking"]}
    assert pairs == {"1NS", "1EW", "2NS", "2EW"}
    assert room.snapshot(0.0)["travellers"][0]["results"][0]["pairs"] is None  # as the table sent it


def test_with_the_session_the_movement_puts_each_result_to_its_pairs_whatever_the_table_says() -> None:
    room = Room("c", session=MITCHELL_5)
    tables = Tables(room)
    movement = MITCHELL_5.movement()
    for table in range(1, 6):
        first = next(s for s in movement.sittings if s.table == table and s.round == 1)
        for i, board in enumerate(movement.boards(first.board_set)):
            got = tables.result(str(table), board, 100 * table + 10 * i, pairs={"NS": "99", "EW": "98"})
            assert got.alarm is None
    snap = room.snapshot(0.0)
    row = snap["scores"]["boards"]["7"]["3"]  # table 3 plays set 3 (boards 7-9) in round 1: pairs 3 and 8
    assert (row["ns"], row["ew"], row["round"], row["law15"]) == ("3", "8", 1, False)
    assert snap["travellers"][6]["results"][0]["pairs"] == {"NS": "3", "EW": "8"}
    assert {r["pair"] for r in snap["ranking"]} == {str(p) for p in range(1, 11)}
    assert snap["scores"]["session"] == {"name": "Tuesday Pairs", "movement": "mitchell", "rounds": 5,
                                         "boards_per_round": 3, "sections": [""]}
    assert room.scorecard("8")["boards"][0] == {
        "board": "7", "label": "7", "round": 1, "table": "3", "direction": "EW", "opponents": "3",
        "contract": "3NT", "declarer": "N", "result": "=", "status": "played", "score": -300, "points": 0.0,
        "percent": None, "top": 0.0, "law15": False}


def test_same_board_with_different_deals_at_two_tables_is_a_fouled_board_law_87() -> None:
    room = Room("c")
    tables = Tables(room)
    assert tables.start("1", 7, 0).alarm is None
    assert tables.start("3", 7, 0).alarm is None
    got = tables.start("5", 7, 0, deal=OTHER)
    assert got.alarm == "Board 7 is fouled: table 1 and table 5 have different deals (Law 87)"
    [call] = room.calls.values()
    assert (call.table, call.board, call.law, call.origin, call.state) == ("5", 7, "87", "room", "called")
    assert tables.start("5", 7, 0, deal=OTHER).alarm is None  # told once
    # the results: tables 1 and 3 against each other; table 5 alone, scaled to the full top (Law 87B)
    tables.result("1", 7, 400, pairs={"NS": "1", "EW": "11"})
    tables.result("3", 7, 430, pairs={"NS": "3", "EW": "13"})
    assert tables.result("5", 7, -100, deal=OTHER, pairs={"NS": "5", "EW": "15"}).alarm is None
    scores = room.snapshot(0.0)["scores"]
    assert scores["fouled"] == {"7": [["1", "3"], ["5"]]}
    board = scores["boards"]["7"]
    assert [(board[t]["label"], board[t]["points_ns"], board[t]["top"]) for t in "135"] == [
        ("7", 0.0, 2.0), ("7", 2.0, 2.0), ("7b", 1.0, 2.0)]
    assert room.results.export_deals()["7b"] == Deal.parse(OTHER)
    # a third deal is news again
    assert tables.result("2", 7, 50, deal="N:" + " ".join(reversed(DEAL[2:].split())),
                         pairs={"NS": "2", "EW": "12"}).alarm == \
        "Board 7 is fouled: table 1, table 2 and table 5 have different deals (Law 87)"


def test_partial_deals_that_agree_on_every_card_both_know_are_the_same_deal() -> None:
    room = Room("c")
    tables = Tables(room)
    tables.start("1", 3, 0, deal=DEAL)
    assert tables.start("2", 3, 0, deal="N:AKQJ.T98.765.432 - - -").alarm is None
    assert tables.start("4", 3, 0, deal="N:- - - -").alarm is None
    assert room.results.fouled() == {}


def test_board_played_in_the_wrong_round_is_reported_and_scored_for_the_pairs_who_played_it_law_15() -> None:
    room = Room("c", session=MITCHELL_5)
    tables = Tables(room)
    for board in (7, 8, 9):  # round 1 at table 3: set 3, pairs 3 and 8
        assert tables.result("3", board, 100).alarm is None
    # round 2 gives table 3 boards 10-12 (pairs 3 and 7); it plays board 13, round 3's
    got = tables.start("3", 13, 3)
    assert got.alarm == "Table 3 is playing board 13 in round 2; the movement gives it boards 10-12 (Law 15)"
    [call] = room.calls.values()
    assert (call.key, call.table, call.board, call.law, call.origin) == ("room/15/3/13", "3", 13, "15", "room")
    assert tables.result("3", 13, 420).alarm is None  # the same finding: told once
    row = room.snapshot(0.0)["scores"]["boards"]["13"]["3"]
    assert (row["ns"], row["ew"], row["round"], row["law15"]) == ("3", "6", 3, True)  # the board's own round, so far
    # the table goes back to round 2's boards: board 13 was played by round 2's pairs (Law 15A)
    for board in (10, 11, 12):
        assert tables.result("3", board, 100).alarm is None
    row = room.snapshot(0.0)["scores"]["boards"]["13"]["3"]
    assert (row["ns"], row["ew"], row["round"], row["law15"]) == ("3", "7", 2, True)
    assert room.snapshot(0.0)["scores"]["boards"]["10"]["3"]["ew"] == "7"


def test_a_result_out_of_its_round_says_played_and_a_board_never_given_the_table_is_reported() -> None:
    room = Room("c", session=loads_session('[session]\nmovement = "mitchell"\ntables = 5\nboards_per_round = 3\n'
                                           'rounds = 2\n'))
    tables = Tables(room)
    assert tables.result("2", 4, 100).alarm is None  # round 1 at table 2: boards 4-6
    assert tables.result("2", 1, 100).alarm == \
        "Table 2 played board 1 in round 1; the movement gives it boards 4-6 (Law 15)"
    assert room.snapshot(0.0)["scores"]["boards"]["1"]["2"]["ew"] == "7"  # round 1's pairs: board 1 never comes here


def test_a_table_that_moves_on_early_is_told_once_then_followed_into_its_new_round() -> None:
    room = Room("c", session=MITCHELL_5)
    tables = Tables(room)
    tables.result("3", 7, 100)
    tables.result("3", 8, 100)  # board 9 is not played (late play): the table moves on to round 2
    assert tables.result("3", 10, 100).alarm == \
        "Table 3 played board 10 in round 1; the movement gives it boards 7-9 (Law 15)"
    for board in (11, 12, 13, 14):  # round 2's boards, then round 3's: nothing more to say
        assert tables.result("3", board, 100).alarm is None
    boards = room.snapshot(0.0)["scores"]["boards"]
    assert [(boards[b]["3"]["round"], boards[b]["3"]["ew"], boards[b]["3"]["law15"]) for b in ("10", "11", "13")] \
        == [(2, "7", False), (2, "7", False), (3, "6", False)]


def test_a_room_finding_stays_on_the_queue_when_the_tables_director_call_ends() -> None:
    room = Room("c", session=MITCHELL_5)
    tables = Tables(room)
    tables.start("3", 1, 0)
    cleared = {"alert": "arbiter_call_cleared", "board": 2, "what": "the Director's call is over", "alarm": False}
    room.receive("alert", "3", tables._envelope("3", cleared), 2000.0)
    assert [c.state for c in room.calls.values()] == ["called"]
    tile = room.snapshot(2001.0)["tiles"][0]
    assert tile["colour"] == "called" and tile["calls"] == ["room/15/3/1"]


def test_teams_session_ranks_the_teams_by_their_match_from_both_rooms() -> None:
    room = Room("c", session=loads_session('[session]\nmovement = "teams"\nteams = ["Reds", "Blues"]\n'
                                           'boards_per_round = 2\n'))
    tables = Tables(room)
    tables.result("1", 1, 420)    # Reds NS in the open room
    tables.result("2", 1, -50)    # Blues NS in the closed room: Reds +420 and +50
    tables.result("1", 2, -100)
    snap = room.snapshot(0.0)
    assert snap["scores"]["scoring"] == "Teams"
    assert [(r["pair"], r["place"]) for r in snap["ranking"]] == [("Reds", "1"), ("Blues", "2")]
    assert snap["scores"]["boards"]["1"]["1"]["points_ns"] == 10.0  # 470 is 10 IMPs
