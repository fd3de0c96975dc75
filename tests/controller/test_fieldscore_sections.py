"""Sections playing the same boards: scored in each section and across the field, each hand-checked.

Two sections of a 3-table Mitchell (North-South pairs 1-3, East-West 4-6 in each) play boards 1
and 2. Board 1, North-South's scores: section A 420, 450, 400; section B 450, 420, -50. Board 2:
section A 100 at every table; section B 110, 100, and not played at table 3.
"""

from __future__ import annotations

from types import ModuleType

import pytest

from controller.fieldscore import (
    Conventions,
    Datum,
    Event,
    MovementError,
    Result,
    Scoring,
    check,
    loads_session,
    score_event,
)
from controller.fieldscore.field import Official, score_sections
from controller.fieldscore.model import EventScore
from controller.records import scoretable, usebio

BOARD_1 = {"A": (420, 450, 400), "B": (450, 420, -50)}
BOARD_2 = {"A": (100, 100, 100), "B": (110, 100)}


def two_sections(scoring: Scoring = Scoring.MP) -> Event:
    results = []
    for board, scores in (("1", BOARD_1), ("2", BOARD_2)):
        for section, row in scores.items():
            for t, score in enumerate(row, start=1):
                results.append(Result(board, str(t), str(t + 3), score=score, section=section))
    participants = tuple((s, str(p)) for s in "AB" for p in range(1, 7))
    return Event("Two sections", scoring, tuple(results), pairs=participants)


def points(score: EventScore, board: str, section: str, ns: str) -> tuple[float, float, float | None]:
    for b in score.boards:
        for s in b.results:
            r = s.result
            if r.board == board and r.section == section and r.ns == ns:
                return s.points_ns, s.points_ew, s.top
    raise AssertionError(f"no result {board} {section}{ns}")


def test_a_section_compares_its_own_results_top_2n_minus_2_of_its_tables() -> None:
    scored = score_sections(two_sections()).in_section
    # board 1 in section A: 450 beats two (4), 420 one (2), 400 none; top 4 = 2 x (3 - 1)
    assert points(scored, "1", "A", "2") == (4.0, 0.0, 4.0)
    assert points(scored, "1", "A", "1") == (2.0, 2.0, 4.0)
    assert points(scored, "1", "A", "3") == (0.0, 4.0, 4.0)
    assert points(scored, "1", "B", "1") == (4.0, 0.0, 4.0)


def test_across_the_field_every_result_of_the_board_is_compared_top_2n_minus_2_of_the_field() -> None:
    scored = score_sections(two_sections()).across
    # board 1, six results -50 400 420 420 450 450: 450 beats 4 and ties 1 (9 of 10); 420 beats 2,
    # ties 1 (5); 400 beats 1 (2); -50 none
    assert points(scored, "1", "A", "2") == (9.0, 1.0, 10.0)
    assert points(scored, "1", "B", "1") == (9.0, 1.0, 10.0)
    assert points(scored, "1", "A", "1") == (5.0, 5.0, 10.0)
    assert points(scored, "1", "A", "3") == (2.0, 8.0, 10.0)
    assert points(scored, "1", "B", "3") == (0.0, 10.0, 10.0)


def test_a_board_played_fewer_times_is_factored_by_neuberg_to_its_own_field() -> None:
    sections = score_sections(two_sections())
    # across the field board 2 has 5 results of the 6 the field plays: 110 beats 4 (8),
    # (8 + 1) x 6/5 - 1 = 9.8; 100 ties 3 (3), (3 + 1) x 6/5 - 1 = 3.8; top 10
    ns, ew, top = points(sections.across, "2", "B", "1")
    assert (ns, ew, top) == pytest.approx((9.8, 0.2, 10.0))
    ns, ew, _ = points(sections.across, "2", "A", "1")
    assert (ns, ew) == pytest.approx((3.8, 6.2))
    # in section B board 2 has 2 results of 3: 110 beats 1 (2), (2 + 1) x 3/2 - 1 = 3.5; top 4
    ns, ew, top = points(sections.in_section, "2", "B", "1")
    assert (ns, ew, top) == pytest.approx((3.5, 0.5, 4.0))
    # section A's board 2 is compared within section A alone: all tied, 2 of 4 each
    assert points(sections.in_section, "2", "A", "1") == (2.0, 2.0, 4.0)


def test_pairs_of_two_sections_with_the_same_number_are_two_pairs_each_with_both_places() -> None:
    sections = score_sections(two_sections())
    by_key = {(f.section, f.pair, f.direction): f for f in sections.standings}
    assert len(by_key) == 12
    a1, b1 = by_key[("A", "1", "NS")], by_key[("B", "1", "NS")]
    assert a1.in_section is not None and b1.in_section is not None
    assert a1.across is not None and b1.across is not None
    # A1: board 1 2/4 and board 2 2/4 in its section (50 %); across the field 5/10 and 3.8/10 (44 %)
    assert a1.in_section.percent == pytest.approx(50.0)
    assert a1.across.percent == pytest.approx(44.0)
    # B1: 4/4 and 3.5/4 in its section (93.75 %); across the field 9/10 and 9.8/10 (94 %)
    assert b1.in_section.percent == pytest.approx(93.75)
    assert b1.across.percent == pytest.approx(94.0)


def test_the_section_ranking_ranks_each_section_alone_and_the_field_ranking_every_pair_together() -> None:
    sections = score_sections(two_sections())
    by_key = {(f.section, f.pair, f.direction): f for f in sections.standings}

    def places(which: str, direction: str) -> dict[str, tuple[int | None, int]]:
        out = {}
        for (section, pair, d), f in by_key.items():
            st = f.in_section if which == "section" else f.across
            if d == direction and st is not None:
                out[f"{section}{pair}"] = (st.rank, st.tied)
        return out

    # in section A, A2 6/8, A1 4/8, A3 2/8; in section B, B1 7.5/8, B2 2.5/8, B3 0/4: each its own first
    ns_section = places("section", "NS")
    assert ns_section["A2"] == (1, 1) and ns_section["B1"] == (1, 1)
    assert ns_section["A1"] == (2, 1) and ns_section["B2"] == (2, 1)
    assert ns_section["A3"] == (3, 1) and ns_section["B3"] == (3, 1)
    # across the field: B1 9 + 9.8, A2 9 + 3.8, A1 and B2 5 + 3.8, A3 2 + 3.8, B3 0: one field
    ns_field = places("field", "NS")
    assert ns_field["B1"] == (1, 1)
    assert ns_field["A2"] == (2, 1)
    assert ns_field["A1"] == (3, 2) and ns_field["B2"] == (3, 2)
    assert ns_field["A3"] == (5, 1)
    assert ns_field["B3"] == (6, 1)


def test_the_official_ranking_is_the_directors_choice_and_orders_the_standings() -> None:
    field = score_sections(two_sections(), Official.FIELD)
    section = score_sections(two_sections(), Official.SECTION)
    assert field.official_score is field.across and section.official_score is section.in_section
    first = field.standings[0]
    assert (first.section, first.pair) == ("B", "1")
    # section order: section A's North-South field first, its winner A2
    first = section.standings[0]
    assert (first.section, first.pair) == ("A", "2")
    assert Official.parse("Across the field") is Official.FIELD and Official.parse("sections") is Official.SECTION
    with pytest.raises(ValueError, match="field or section"):
        Official.parse("overall")


def test_across_the_field_is_what_score_event_gives_with_every_section_compared_together() -> None:
    event = two_sections()
    assert score_sections(event).across.standings == score_event(event).standings


def test_butler_across_the_field_takes_one_datum_of_every_section_and_in_a_section_its_own() -> None:
    sections = score_sections(two_sections(Scoring.BUTLER), conventions=Conventions(datum=Datum(trim=0)))
    # board 1 across: mean of 420 450 400 450 420 -50 = 348.3, datum 350; in A: 423.3 -> 420
    across = {b.section: b.datum for b in sections.across.boards if b.board == "1"}
    in_section = {b.section: b.datum for b in sections.in_section.boards if b.board == "1"}
    assert across == {None: 350.0}
    assert in_section == {"A": 420.0, "B": 270.0}
    # A2's 450: +100 against the field (3 IMPs), +30 in its section (1 IMP)
    assert points(sections.across, "1", "A", "2")[0] == 3.0
    assert points(sections.in_section, "1", "A", "2")[0] == 1.0


SESSION = '[session]\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\nsections = ["A", "B"]\n'


def test_the_session_file_names_the_official_ranking_across_the_field_unless_it_says_section() -> None:
    assert loads_session(SESSION).official is Official.FIELD
    assert loads_session(SESSION + 'official = "section"\n').official is Official.SECTION
    with pytest.raises(MovementError, match=r'official = "overall": field .* or section'):
        loads_session(SESSION + 'official = "overall"\n')


@pytest.mark.parametrize("module", [scoretable, usebio], ids=["PBN", "USEBIO"])
@pytest.mark.parametrize("official", list(Official))
def test_the_official_ranking_exported_reads_back_with_its_sections_and_places_and_checks(
        module: ModuleType, official: Official) -> None:
    sections = score_sections(two_sections(), official)
    text = module.dumps([sections.official_score])
    (event,) = module.loads(text).events
    again = score_event(event)
    assert {(st.section, st.pair): (st.rank, st.tied) for st in again.standings} == \
        {(st.section, st.pair): (st.rank, st.tied) for st in sections.official_score.standings}
    assert check(again).differences == ()
    # North-South winners: one in each section (A2, B1), or one across the field (B1)
    winners = {(st.section, st.pair) for st in again.standings if st.rank == 1 and st.direction == "NS"}
    assert winners == ({("A", "2"), ("B", "1")} if official is Official.SECTION else {("B", "1")})
