"""The Director's desk, pure: corrections (Law 79C), artificial (Law 12C2) and assigned (Law 12C1)
adjusted scores, procedural penalties (Law 90), each an entry with who, when and why, taken back
by an entry of its own; the room's scores, travellers and ranking follow at once."""

from __future__ import annotations

import pytest

from controller.fieldscore.model import Artificial
from controller.room.adjustments import Desk, DeskEntry, DeskError, Played
from controller.room.console import Room
from tests.controller.test_room_results import MITCHELL_5, Tables


def _entry(kind: str, board: str = "1", table: str = "2", **kw: object) -> DeskEntry:
    return DeskEntry(0, kind, board, table, str(kw.pop("by", "Ann (TD)")), 5000.0, str(kw.pop("reason", "why")),
                     **kw)  # type: ignore[arg-type]


def _room() -> tuple[Room, Tables]:
    """Three tables on board 1 (3NT= by N: 400, vulnerable none) with their own pairs."""
    room = Room("c")
    tables = Tables(room)
    for table, score in (("1", 400), ("2", 400), ("3", -50)):
        tables.result(table, 1, score, pairs={"NS": f"{table}", "EW": f"{table}0"})
    return room, tables


def _points(room: Room) -> dict[str, float | None]:
    return {t: row["points_ns"] for t, row in room.results.scores()["boards"]["1"].items()}


def test_correction_rescores_the_board_and_keeps_the_tables_own_result_law_79c() -> None:
    room, _ = _room()
    assert _points(room) == {"1": 3.0, "2": 3.0, "3": 0.0}
    entry = room.results.adjust(_entry("correction", played=Played.parse("4S", "N", 11, "HK")))
    assert entry.id == 1 and entry.law == "79C"
    assert _points(room) == {"1": 2.0, "2": 4.0, "3": 0.0}  # 450 now beats both
    row = next(r for r in room.results.travellers()[0]["results"] if r["table"] == "2")
    assert (row["contract"], row["declarer"], row["result"], row["score_ns"], row["lead"]) == ("4S", "N", "+1", 450,
                                                                                               "HK")
    assert row["original"]["contract"] == "3NT" and row["original"]["score_ns"] == 400
    assert room.results.results["1"]["2"]["score_ns"] == 400  # the table's record is untouched
    assert room.results.ranking()[0]["pair"] == "2"


def test_undo_is_an_entry_of_its_own_and_brings_back_what_stood_before() -> None:
    room, _ = _room()
    room.results.adjust(_entry("correction", played=Played.parse("4S", "N", 11)))
    room.results.adjust(_entry("correction", played=Played.parse("3NT", "N", 8)))
    assert _points(room)["2"] == 1.0  # 3NT-1: -50 ties table 3
    room.results.adjust(_entry("undo", board="", table="", undoes=2, reason="wrong table"))
    assert _points(room)["2"] == 4.0  # the first correction stands again
    history = room.results.desk.as_json()
    assert [(e["id"], e["kind"], e["undone"]) for e in history] == [(1, "correction", False),
                                                                    (2, "correction", True), (3, "undo", False)]
    assert history[2]["board"] == "1" and history[2]["table"] == "2" and history[2]["by"] == "Ann (TD)"
    with pytest.raises(DeskError, match="already taken back"):
        room.results.adjust(_entry("undo", undoes=2))
    with pytest.raises(DeskError, match="no entry 9"):
        room.results.adjust(_entry("undo", undoes=9))
    assert len(room.results.desk.entries) == 3


def test_artificial_adjusted_score_to_each_side_separately_law_12c2() -> None:
    room, _ = _room()
    room.results.adjust(_entry("artificial", table="3", award=Artificial.parse("A+/A-")))
    # table 3 takes no part in the others' matchpoints: 1 and 2 tie, Neuberg to a top of 4
    points = room.results.scores()["boards"]["1"]
    assert (points["3"]["points_ns"], points["3"]["points_ew"]) == (2.4, 1.6)  # 60 % / 40 % of 4
    assert points["1"]["points_ns"] == 2.0
    row = next(r for r in room.results.travellers()[0]["results"] if r["table"] == "3")
    assert row["artificial"] == "A+/A-" and row["score_ns"] is None and row["status"] == "adjusted"


def test_split_score_is_matchpointed_against_the_field_law_12c1c() -> None:
    room, _ = _room()
    assigned = ((Played.parse("4S", "N", 10), 30.0), (Played.parse("4S", "N", 9), 70.0))  # 420 / -50
    room.results.adjust(_entry("assigned", table="3", assigned=assigned))
    # table 3: 0.3 * (beats 400 twice: 4) + 0.7 * (loses to both: 0) = 1.2 of 4; tables 1 and 2:
    # the tie (1) + 0.3 * (loses to 420: 0) + 0.7 * (beats -50: 2) = 2.4
    assert _points(room) == {"1": 2.4, "2": 2.4, "3": 1.2}
    row = next(r for r in room.results.travellers()[0]["results"] if r["table"] == "3")
    assert row["weighted"] == [[420, 30.0], [-50, 70.0]]


def test_assigned_score_of_one_result_is_scored_as_a_result_law_12c1() -> None:
    room, _ = _room()
    room.results.adjust(_entry("assigned", table="3", assigned=((Played.parse("3NT", "N", 9), 100.0),)))
    assert _points(room) == {"1": 2.0, "2": 2.0, "3": 2.0}


def test_procedural_penalty_adds_up_and_is_taken_back_law_90() -> None:
    room, _ = _room()
    room.results.adjust(_entry("penalty", table="1", side="NS", amount=0.25))
    room.results.adjust(_entry("penalty", table="1", side="NS", amount=0.25))
    assert _points(room)["1"] == 1.0  # 3 - 2 x a quarter of 4
    assert room.results.scores()["boards"]["1"]["1"]["points_ew"] == 1.0  # East-West keep theirs
    room.results.adjust(_entry("undo", undoes=1))
    assert _points(room)["1"] == 2.0


def test_adjusted_score_for_a_board_the_movement_gives_but_was_not_played_law_12c2() -> None:
    room = Room("c", session=MITCHELL_5)
    tables = Tables(room)
    tables.start("1", 1, 0)
    tables.result("1", 1, 400)
    tables.start("2", 4, 0)
    tables.result("2", 4, 400)
    room.results.adjust(_entry("artificial", board="4", table="1", award=Artificial.parse("A")))
    row = room.results.scores()["boards"]["4"]["1"]
    who = next(s for s in MITCHELL_5.movement().sittings if s.table == 1 and 4 in MITCHELL_5.movement().boards(
        s.board_set))
    assert (row["ns"], row["ew"], row["round"], row["percent_ns"]) == (who.ns, who.ew, who.round, 50.0)
    with pytest.raises(DeskError, match="does not give it that board"):
        room.results.adjust(_entry("artificial", board="1", table="9", award=Artificial.parse("A")))
    with pytest.raises(DeskError, match="no result on board 4 to correct"):
        room.results.adjust(_entry("correction", board="4", table="1", played=Played.parse("3NT", "N", 9)))


@pytest.mark.parametrize(("entry", "words"), [
    (_entry("correction", reason=" ", played=Played(None)), "say why"),
    (_entry("assigned", assigned=((Played(None), 30.0), (Played(None), 60.0))), "add up to 100"),
    (_entry("penalty", side="N", amount=0.25), "North-South .NS. or East-West"),
    (_entry("penalty", side="NS", amount=0), "above 0"),
    (_entry("artificial"), "each side's award"),
    (_entry("bogus"), "unknown kind"),
])
def test_an_entry_that_makes_no_sense_is_refused_and_the_desk_is_unchanged(entry: DeskEntry, words: str) -> None:
    room, _ = _room()
    before = room.results.scores()
    with pytest.raises(DeskError, match=words):
        room.results.adjust(entry)
    assert room.results.desk == Desk() and room.results.scores() == before


@pytest.mark.parametrize(("contract", "declarer", "tricks", "lead", "words"), [
    ("4S", None, 10, None, "who declared"), ("8S", "N", 10, None, "invalid contract"),
    ("4S", "N", 14, None, "0 to 13"), ("4S", "N", 10, "ZZ", "invalid card"), ("Pass", None, None, "SA", "no opening"),
])
def test_a_result_that_cannot_be_is_refused(contract: str, declarer: str | None, tricks: int | None,
                                            lead: str | None, words: str) -> None:
    with pytest.raises(DeskError, match=words):
        Played.parse(contract, declarer, tricks, lead)


def test_every_entry_reads_back_from_its_json_as_kept() -> None:
    room, _ = _room()
    room.results.adjust(_entry("correction", played=Played.parse("4S", "N", 11, "HK")))
    room.results.adjust(_entry("artificial", table="3", award=Artificial.parse("A+/A-")))
    room.results.adjust(_entry("assigned", table="1", assigned=((Played.parse("4S", "N", 10), 30.0),
                                                                (Played.parse("Pass", None, None), 70.0))))
    room.results.adjust(_entry("penalty", table="1", side="EW", amount=3))
    room.results.adjust(_entry("undo", undoes=2))
    for e in room.results.desk.entries:
        assert DeskEntry.from_json(e.as_json()) == e


def test_a_weighted_score_in_a_team_match_is_scored_not_refused_law_12c1c() -> None:
    from controller.fieldscore import loads_session

    room = Room("c", session=loads_session('[session]\nmovement = "teams"\nteams = ["Reds", "Blues"]\n'
                                           'boards_per_round = 2\n'))
    tables = Tables(room)
    tables.result("1", 1, 420)    # Reds NS in the open room
    tables.result("2", 1, 420)    # Blues NS in the closed room: a push
    assigned = ((Played.parse("4S", "N", 10), 30.0), (Played.parse("4S", "N", 9), 70.0))
    room.results.adjust(_entry("assigned", table="1", assigned=assigned))   # 420 30 %, -50 70 % for Reds
    assert room.snapshot(0.0)["scores"]["boards"]["1"]["1"]["points_ns"] == -7.0   # 0.7 x imps(-470)
