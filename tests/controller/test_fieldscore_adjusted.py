"""Adjusted scores in the field: artificial (Law 12C2), assigned and weighted (Law 12C1), and
procedural penalties (Law 90), scored from hand-worked boards."""

from __future__ import annotations

import pytest

from controller.fieldscore import (
    Conventions,
    Event,
    FieldScoreError,
    MovementError,
    Result,
    Scoring,
    loads_session,
    score_event,
)
from controller.fieldscore.imps import butler_board, cross_imp_board, imps, weighted_cross_imps
from controller.fieldscore.matchpoints import matchpoints, score_board, weighted_matchpoints
from controller.fieldscore.model import Artificial, Award, CrossImps


def _points(results: list[Result], scoring: Scoring = Scoring.MP, conventions: Conventions | None = None
            ) -> dict[str, tuple[float, float]]:
    score = score_event(Event("t", scoring, tuple(results), conventions or Conventions()))
    return {s.result.ns: (round(s.points_ns, 4), round(s.points_ew, 4)) for b in score.boards for s in b.results}


def test_weighted_score_is_each_of_its_scores_matchpointed_against_the_field_then_weighted_law_12c1c() -> None:
    # 4 tables: 420, 400, -50 and at table 4 the Director's 4S= 30 %, 4S-1 70 % (420 / -50).
    # Table 4: 420 beats 400 and -50, ties 420 -> 2+2+1 = 5; -50 ties -50, loses to both -> 1.
    # 0.3 * 5 + 0.7 * 1 = 2.2 of a top of 6.
    results = [Result("1", "1", "a", score=420), Result("1", "2", "b", score=400), Result("1", "3", "c", score=-50),
               Result("1", "4", "d", weighted=((420, 30.0), (-50, 70.0)))]
    points = _points(results)
    assert points["4"] == (2.2, 3.8)
    # the other tables count table 4 as 0.3 of a 420 and 0.7 of a -50:
    # 420 beats 400 and -50 (4), against table 4: 0.3 tie (0.3) + 0.7 beaten (1.4) -> 5.7
    assert points["1"] == (5.7, 0.3)
    # 400: beats -50 (2), loses to 420; against table 4 beats the 0.7 of -50 (1.4) -> 3.4
    assert points["2"] == (3.4, 2.6)
    # -50: against table 4, 0.7 tie (0.7) -> 0.7
    assert points["3"] == (0.7, 5.3)
    # every comparison gives out one top: the board's matchpoints still add up to n * top / 2
    assert sum(ns for ns, _ in points.values()) == pytest.approx(4 * 6 / 2)


def test_weighted_matchpoints_of_whole_results_are_ordinary_matchpoints() -> None:
    scores = [420, 400, -50, 420, 100]
    assert weighted_matchpoints([((s, 1.0),) for s in scores]) == matchpoints(scores)


def test_weighted_score_counts_as_one_table_for_neuberg_law_12c1c() -> None:
    # the board should have had 4 results; one is artificial (A=), so 3 are compared and scaled.
    results = [Result("1", "1", "a", score=420), Result("1", "2", "b", weighted=((420, 50.0), (-50, 50.0))),
               Result("1", "3", "c", score=-50), Result("1", "4", "d", artificial=Artificial.parse("A="))]
    board = score_board("1", None, results, 4, Conventions())
    ns = [round(s.points_ns, 4) for s in board.results]
    # table 2 against 2 others: 0.5*(tie 420 + beat -50 = 3) + 0.5*(tie -50 = 1) = 2 of a top of 4;
    # Neuberg to a top of 6: (2 + 1) * 4 / 3 - 1 = 3
    assert ns[1] == 3.0
    assert ns[3] == 3.0  # average: 50 % of the top of 6 (Law 12C2)


def test_a_weighted_score_needs_two_scores_whose_weights_add_up_to_100() -> None:
    with pytest.raises(FieldScoreError, match="add up to 100"):
        Result("1", "1", "a", weighted=((420, 30.0), (-50, 60.0)))
    with pytest.raises(FieldScoreError, match="add up to 100"):
        Result("1", "1", "a", weighted=((420, 100.0),))
    with pytest.raises(FieldScoreError, match="one of them"):
        Result("1", "1", "a", score=420, weighted=((420, 50.0), (-50, 50.0)))


def test_artificial_scores_to_each_side_separately_60_50_40_of_the_top_law_12c2() -> None:
    results = [Result("1", str(i), f"e{i}", score=s) for i, s in enumerate((420, 400, -50), 1)]
    results.append(Result("1", "4", "e4", artificial=Artificial(Award.PLUS, Award.MINUS)))
    assert _points(results)["4"] == (3.6, 2.4)  # top 6: 60 % and 40 %


def test_artificial_awards_are_the_clubs_own_when_it_sets_them_law_12c2() -> None:
    results = [Result("1", "1", "a", score=420), Result("1", "2", "b", score=400),
               Result("1", "3", "c", artificial=Artificial(Award.PLUS, Award.MINUS))]
    club = Conventions(award_percent=(65.0, 50.0, 35.0), award_imps=(2.0, 0.0, -2.0))
    assert _points(results, conventions=club)["3"] == (2.6, 1.4)
    assert _points(results, Scoring.BUTLER, club)["3"] == (2.0, -2.0)
    assert _points(results, Scoring.BUTLER)["3"] == (3.0, -3.0)  # +3/-3 IMPs by default


def test_procedural_penalty_is_taken_from_the_offenders_only_after_the_board_is_scored_law_90() -> None:
    results = [Result("1", "1", "a", score=420), Result("1", "2", "b", score=400, penalty_ew=0.25)]
    points = _points(results)
    assert points["2"] == (0.0, 2.0 - 0.5)  # a quarter of a top of 2
    assert points["1"] == (2.0, 0.0)
    butler = _points([*results, Result("1", "3", "c", score=-50, penalty_ns=3.0)], Scoring.BUTLER)
    assert butler["3"][0] == float(imps(-50 - 260)) - 3.0  # datum (420+400-50)/3 = 256.7 -> 260


def test_butler_weighted_score_is_each_score_imped_against_the_datum_of_the_others_law_12c1c() -> None:
    results = [Result("1", "1", "a", score=420), Result("1", "2", "b", score=400),
               Result("1", "3", "c", weighted=((420, 30.0), (-50, 70.0)))]
    board = butler_board("1", None, results, Conventions())
    assert board.datum == 410.0
    assert board.results[2].points_ns == pytest.approx(0.3 * imps(10) + 0.7 * imps(-460))


def test_cross_imps_of_a_weighted_score_weigh_each_comparison_law_12c1c() -> None:
    tables = [((420, 1.0),), ((-50, 1.0),), ((420, 0.5), (-50, 0.5))]
    got = weighted_cross_imps(tables)
    assert got[0] == pytest.approx(imps(470) + 0.5 * imps(470))
    assert got[2] == pytest.approx(0.5 * imps(-470) + 0.5 * imps(470))
    results = [Result("1", "1", "a", score=420), Result("1", "2", "b", score=-50),
               Result("1", "3", "c", weighted=((420, 50.0), (-50, 50.0)))]
    board = cross_imp_board("1", None, results, Conventions(cross_imps=CrossImps.AVERAGE))
    assert board.results[0].points_ns == pytest.approx(got[0] / 2)


def test_the_club_sets_its_artificial_awards_in_the_session_file_law_12c2() -> None:
    session = loads_session('[session]\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\n'
                            'awards = [65, 50, 35]\naward_imps = [2, 0, -2]\n')
    assert session.conventions.award_percent == (65.0, 50.0, 35.0)
    assert session.conventions.award_imps == (2.0, 0.0, -2.0)
    plain = loads_session('[session]\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\n')
    assert plain.conventions.award_percent == (60.0, 50.0, 40.0)  # Law 12C2's own
    for bad in ("awards = [40, 50, 60]", "awards = [60, 50]", "award_imps = [30, 0, -3]", 'awards = "60"'):
        with pytest.raises(MovementError, match=r"awards|award_imps"):
            loads_session('[session]\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\n' + bad + "\n")


def test_a_weighted_score_in_a_team_match_is_each_outcome_imped_against_the_other_room_then_weighted_law_12c1c(
        ) -> None:
    from controller.fieldscore.imps import score_match
    from controller.fieldscore.model import Match

    # board 1: the home team's room 4S= 30 %, 4S-1 70 % (420 / -50), the other room 420: 0.3 x 0 + 0.7 x -10
    b1 = (Result("1", "H", "A", weighted=((420, 30.0), (-50, 70.0))), Result("1", "A", "H", score=420))
    # board 2: both rooms weighted: every pair of outcomes, weighted by the product of their shares:
    # 0.2 x imps(0) + 0.3 x imps(720) + 0.2 x imps(-450) + 0.3 x imps(270) = 0 + 3.6 - 2 + 2.1
    b2 = (Result("2", "H", "A", weighted=((620, 50.0), (170, 50.0))),
          Result("2", "A", "H", weighted=((620, 40.0), (-100, 60.0))))
    # board 3: an ordinary board stays whole IMPs
    b3 = (Result("3", "H", "A", score=100), Result("3", "A", "H", score=140))
    ms = score_match(Match("H", "A", (b1, b2, b3)), Conventions(vp=None))
    assert ms.imps == (("1", -7.0), ("2", 3.7), ("3", -1))
    assert (ms.home_imps, ms.away_imps) == (3.7, 8.0)
