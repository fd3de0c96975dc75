"""The head console of an event whose sections play the same boards: its results carry each pair's
place in its section and across the field, the session's official ranking first, the same as
``controller.fieldscore.score_sections`` gives; one more result re-scores only its board."""

from __future__ import annotations

from controller.fieldscore import Event, Official, Result, Scoring, loads_session, score_sections
from controller.room.adjustments import DeskEntry, Played
from controller.room.console import Room
from tests.controller.test_room_results import Tables

SESSION = ('[session]\nname = "Congress Pairs"\nmovement = "mitchell"\ntables = 3\nboards_per_round = 1\n'
           'sections = ["A", "B"]\n')
SCORES = {("A", 1): (420, 450, 400), ("B", 1): (450, 420, -50), ("A", 2): (100, 100, 100), ("B", 2): (110, 100, 90),
          ("A", 3): (-200, -100, -100), ("B", 3): (-100, -200, 50)}
"""North-South's score of each board in each section, by the table that plays it in round 1, 2, 3."""


def play(official: str | None = None) -> tuple[Room, list[Result]]:
    """Every table of both sections plays its three rounds; the results as the field scores them."""
    session = loads_session(SESSION + (f'official = "{official}"\n' if official else ""))
    room = Room("c", session=session)
    tables = Tables(room)
    results = []
    for rnd in (1, 2, 3):
        for section in "AB":
            movement = session.movement(section)
            for s in movement.sittings:
                if s.round != rnd:
                    continue
                (board,) = movement.boards(s.board_set)
                score = SCORES[(section, board)][rnd - 1]
                tables.start(f"{section}{s.table}", board, rnd - 1)
                tables.result(f"{section}{s.table}", board, score)
                results.append(Result(str(board), s.ns, s.ew, score=score, section=section))
    return room, results


def test_the_ranking_of_sections_gives_each_pair_its_section_place_and_its_field_place() -> None:
    room, results = play()
    ranking = room.results.ranking()
    expected = score_sections(Event("Congress Pairs", Scoring.MP, tuple(results)))
    by_key = {(r["section"], r["pair"]): r for r in ranking}
    assert len(by_key) == 12  # pair 1 of section A and pair 1 of section B are two pairs
    for f in expected.standings:
        row = by_key[(f.section, f.pair)]
        assert f.in_section is not None and f.across is not None
        assert (row["section_rank"], row["section_percent"]) == (f.in_section.rank, round(f.in_section.percent or 0, 2))
        assert (row["field_rank"], row["field_percent"]) == (f.across.rank, round(f.across.percent or 0, 2))
        assert row["direction"] == f.direction
    # each section has its own winners; across the field one North-South and one East-West winner
    assert {(r["section"], r["direction"]) for r in ranking if r["section_rank"] == 1} == {
        ("A", "NS"), ("A", "EW"), ("B", "NS"), ("B", "EW")}
    assert len({r["direction"] for r in ranking if r["field_rank"] == 1}) == 2
    report = room.results.report()
    assert report["official"] == "field" and all(r["official"] == "field" for r in ranking)


def test_the_official_ranking_is_the_sessions_setting_and_the_travellers_points_are_its() -> None:
    field_room, _ = play()
    section_room, _ = play("section")
    assert section_room.results.report()["official"] == "section"
    field_rows = field_room.results.ranking()
    section_rows = section_room.results.ranking()
    # field: ranked by the field's places; section: section A's North-South first, by section places
    assert [r["field_rank"] for r in field_rows if r["direction"] == "NS"] == sorted(
        r["field_rank"] for r in field_rows if r["direction"] == "NS")
    assert [(r["section"], r["direction"]) for r in section_rows[:3]] == [("A", "NS")] * 3
    assert [r["rank"] for r in section_rows] == [r["section_rank"] for r in section_rows]
    # board 1 at table A1 (420 of 420 450 400 in A; of -50 400 420 420 450 450 across): 2 of 4, 5 of 10
    assert section_room.results.scores()["boards"]["1"]["A1"]["points_ns"] == 2.0
    assert field_room.results.scores()["boards"]["1"]["A1"]["points_ns"] == 5.0
    assert section_room.results.scorecard("1", "A")["standing"]["field_place"] is not None
    assert Official.parse(section_room.results.report()["official"]) is Official.SECTION


def test_one_more_result_re_scored_board_by_board_is_what_the_whole_room_scored_again_gives() -> None:
    room, _ = play()
    before = room.results.scores()
    tables = Tables(room, now=5000.0)
    tables.seq = {f"{s}{t}": 3 for s in "AB" for t in (1, 2, 3)}
    tables.result("B3", 2, 620)  # table B3 sends its board 2 again, corrected
    after = room.results.scores()
    assert after["boards"]["2"]["B3"] != before["boards"]["2"]["B3"]
    assert after["boards"]["1"] == before["boards"]["1"]
    live = room.results.ranking()
    room.results.scored_again()  # every board made and scored again from nothing
    assert room.results.scores() == after
    assert room.results.ranking() == live


def test_a_desk_entry_re_scores_its_board_alone_and_gives_what_the_whole_room_scored_again_gives() -> None:
    room, _ = play()
    before = room.results.scores()
    made = room.results.adjust(DeskEntry(0, "correction", "1", "A1", "c", 0.0, "Director",
                                         played=Played.parse("6S", "N", 12)))  # Law 79C: 420 -> 980
    after = room.results.scores()
    assert after["boards"]["1"]["A1"]["points_ns"] == 10.0  # the best of the field's board 1 now
    assert after["boards"]["2"] == before["boards"]["2"]
    live = room.results.ranking()
    room.results.scored_again()
    assert room.results.scores() == after and room.results.ranking() == live
    room.results.adjust(DeskEntry(0, "undo", "1", "A1", "c", 0.0, "Director", undoes=made.id))
    assert room.results.scores() == before
