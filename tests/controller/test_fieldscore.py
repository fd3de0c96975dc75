"""Field scoring conventions, each from its source: EBU/WBF and ACBL matchpoints, Neuberg,
Law 12C2 artificial scores, Law 90 penalties, Law 78B IMPs, Butler, cross-IMPs, VP scales."""

from __future__ import annotations

import itertools

import pytest

from controller.fieldscore import (
    WBF_VP_20,
    Artificial,
    Award,
    Conventions,
    CrossImps,
    Datum,
    Event,
    FieldScoreError,
    Match,
    MatchpointScale,
    Printed,
    Result,
    Scoring,
    VpScale,
    check,
    cross_imps,
    datum,
    imps,
    matchpoints,
    neuberg,
    rank,
    score_event,
    score_match,
    top,
    wbf_vps,
)
from controller.fieldscore.event import round_half_away

EBU, ACBL = MatchpointScale.EBU, MatchpointScale.ACBL


def board(scores: list[int | str], number: str = "1") -> list[Result]:
    """One board's results, pairs ns1/ew1, ns2/ew2 ...; a str is an artificial score."""
    out = []
    for i, s in enumerate(scores, start=1):
        if isinstance(s, str):
            out.append(Result(number, f"ns{i}", f"ew{i}", artificial=Artificial.parse(s)))
        else:
            out.append(Result(number, f"ns{i}", f"ew{i}", score=s))
    return out


def mp_points(results: list[Result], conv: Conventions | None = None) -> list[tuple[float, float]]:
    scored = score_event(Event("t", Scoring.MP, tuple(results)), conv)
    return [(s.points_ns, s.points_ew) for b in scored.boards for s in b.results]


# --- matchpoints ---------------------------------------------------------------------


def test_matchpoints_two_per_score_beaten_one_per_tie_top_2n_minus_2_ebu_wbf() -> None:
    assert matchpoints([420, 450, 420, -50, 100], EBU) == [5.0, 8.0, 5.0, 0.0, 2.0]
    assert top(5, EBU) == 8.0


def test_matchpoints_acbl_one_per_score_beaten_half_per_tie_top_n_minus_1() -> None:
    assert matchpoints([420, 450, 420, -50, 100], ACBL) == [2.5, 4.0, 2.5, 0.0, 1.0]
    assert top(5, ACBL) == 4.0


def test_percentage_is_the_same_on_the_ebu_and_acbl_scales() -> None:
    results = board([420, 450, 420, -50, 100])
    ebu = score_event(Event("t", Scoring.MP, tuple(results)))
    acbl = score_event(Event("t", Scoring.MP, tuple(results)), Conventions(matchpoints=ACBL))
    assert [s.percent_ns for s in ebu.boards[0].results] == [s.percent_ns for s in acbl.boards[0].results]


def test_east_west_score_the_top_minus_north_south() -> None:
    assert mp_points(board([100, 200, 300])) == [(0.0, 4.0), (2.0, 2.0), (4.0, 0.0)]


def test_neuberg_scales_a_board_played_fewer_times_ebu_u_is_1() -> None:
    # played 4 times in a field of 6: top 6 becomes 10; (MP + 1) * 6 / 4 - 1
    assert neuberg(6.0, 4, 6, EBU) == 9.5
    assert neuberg(0.0, 4, 6, EBU) == 0.5
    assert neuberg(3.0, 4, 6, EBU) == 5.0  # an average stays an average


def test_neuberg_acbl_u_is_one_half() -> None:
    assert neuberg(3.0, 4, 6, ACBL) == pytest.approx((3.0 + 0.5) * 6 / 4 - 0.5)


def test_board_with_fewer_results_is_neuberg_scaled_to_the_others_in_an_event() -> None:
    full = board([10, 20, 30, 40, 50, 60], "1")
    short = board([10, 20, 30, 40], "2")
    scored = score_event(Event("t", Scoring.MP, tuple(full + short)))
    two = scored.boards[1]
    assert two.top == 10.0
    assert [s.points_ns for s in two.results] == [0.5, 3.5, 6.5, 9.5]
    assert [s.points_ew for s in two.results] == [9.5, 6.5, 3.5, 0.5]


def test_neuberg_can_be_switched_off() -> None:
    results = board([10, 20, 30, 40, 50, 60], "1") + board([10, 20, 30, 40], "2")
    scored = score_event(Event("t", Scoring.MP, tuple(results)), Conventions(neuberg=False))
    assert [s.points_ns for s in scored.boards[1].results] == [0.0, 2.0, 4.0, 6.0]


def test_artificial_average_plus_60_average_50_minus_40_percent_of_the_top_law_12c2() -> None:
    points = mp_points(board([100, 200, 300, 400, 500, "A+/A-"]) + board([1, 2, 3, 4, 5, 6], "2"))
    assert points[5] == pytest.approx((6.0, 4.0))  # top 10: 60 % and 40 %
    points = mp_points(board([100, 200, 300, 400, 500, "A"]))
    assert points[5] == (5.0, 5.0)


def test_split_artificial_score_gives_each_side_its_own_law_12c2() -> None:
    points = mp_points(board([100, 200, 300, 400, 500, "A-/A-"]))
    assert points[5] == pytest.approx((4.0, 4.0))


def test_artificial_score_takes_no_part_in_the_other_tables_matchpoints_law_12c2() -> None:
    with_a = mp_points(board([100, 200, 300, "A+/A-"]))
    # the three real scores are compared with each other only, then Neuberg-scaled from 3 to 4
    assert [p[0] for p in with_a[:3]] == [neuberg(x, 3, 4) for x in (0.0, 2.0, 4.0)]


def test_assigned_adjusted_score_law_12c1_is_matchpointed_as_an_ordinary_score() -> None:
    # the Director assigned 420 to the table that played 4S-1: it is a score like any other
    assert mp_points(board([420, 420, -50])) == mp_points(board([420, 420, -50]))
    assert mp_points(board([420, 420, -50]))[0] == (3.0, 1.0)


def test_procedural_penalty_is_taken_from_the_offender_only_law_90() -> None:
    results = board([100, 200, 300])
    results[1] = Result("1", "ns2", "ew2", score=200, penalty_ns=0.25)  # the EBU's quarter top
    points = mp_points(results)
    assert points[1] == (1.0, 2.0)  # 2 - 0.25 * 4 for North-South; East-West keep their 2
    assert points[0] == (0.0, 4.0) and points[2] == (4.0, 0.0)


def test_procedural_penalty_in_imps_is_taken_after_butler_scoring_law_90() -> None:
    results = board([100, 100, 100])
    results[0] = Result("1", "ns1", "ew1", score=100, penalty_ew=3.0)
    scored = score_event(Event("t", Scoring.BUTLER, tuple(results)))
    assert (scored.boards[0].results[0].points_ns, scored.boards[0].results[0].points_ew) == (0.0, -3.0)


# --- totals, percentages, ranks --------------------------------------------------------


def test_session_percentage_is_over_the_tops_of_the_boards_played_ebu_acbl() -> None:
    results = board([10, 20, 30], "1") + board([10, 20, 30], "2")
    results.append(Result("3", "ns1", "ew1", score=50))  # ns1 played a third board alone
    results.append(Result("3", "ns3", "ew3", score=40))
    st = {s.pair: s for s in score_event(Event("t", Scoring.MP, tuple(results))).standings}
    assert st["ns3"].boards == 3
    assert st["ns2"].boards == 2 and st["ns2"].percent == 50.0


def test_ranks_with_ties_share_the_best_place_ebu_2_equals() -> None:
    assert rank([50.0, 60.0, 50.0, 40.0]) == [(2, 2), (1, 1), (2, 2), (4, 1)]


def test_pair_that_played_no_board_ranks_after_every_pair_that_did_as_ruter_ranks_it() -> None:
    assert rank([None, -3.0, 2.0, None]) == [(3, 2), (2, 1), (1, 1), (3, 2)]


def test_mitchell_ranks_north_south_and_east_west_apart() -> None:
    results = board([10, 20, 30], "1") + board([10, 20, 30], "2")
    scored = score_event(Event("t", Scoring.MP, tuple(results)))
    assert scored.by_direction
    assert [(s.direction, s.pair, s.rank) for s in scored.standings] == [
        ("NS", "ns3", 1), ("NS", "ns2", 2), ("NS", "ns1", 3), ("EW", "ew1", 1), ("EW", "ew2", 2), ("EW", "ew3", 3)]


def test_howell_ranks_one_field() -> None:
    results = [*board([10, 20]), Result("2", "ew1", "ns2", score=10), Result("2", "ew2", "ns1", score=20)]
    standings = score_event(Event("t", Scoring.MP, tuple(results))).standings
    assert sorted(s.rank or 0 for s in standings) == [1, 2, 2, 4]
    assert all(s.direction is None for s in standings)


def test_participant_without_result_is_listed_and_ranked_last() -> None:
    event = Event("t", Scoring.BUTLER, tuple(board([10, 60])), pairs=((None, "99"),))
    last = score_event(event).standings[-1]
    assert (last.pair, last.boards, last.rank) == ("99", 0, 5)


# --- IMPs ----------------------------------------------------------------------------


@pytest.mark.parametrize(("points", "expected"), [
    (0, 0), (10, 0), (15, 0), (20, 1), (40, 1), (50, 2), (90, 3), (130, 4), (170, 5), (220, 6), (270, 7),
    (320, 8), (370, 9), (430, 10), (500, 11), (600, 12), (750, 13), (900, 14), (1100, 15), (1300, 16),
    (1500, 17), (1750, 18), (2000, 19), (2250, 20), (2500, 21), (3000, 22), (3500, 23), (3990, 23),
    (4000, 24), (7600, 24), (-20, -1), (-1000, -14)])
def test_imp_scale_law_78b(points: int, expected: int) -> None:
    assert imps(points) == expected


def test_butler_datum_is_the_mean_to_the_nearest_10_halves_away_from_zero_as_ruter_prints_it() -> None:
    assert datum([100, 120]) == 110.0
    assert datum([100, 130]) == 120.0          # 115 -> 120
    assert datum([-100, -130]) == -120.0       # -115 -> -120
    assert datum([100, 104], Datum(rounding=0)) == 102.0


def test_trimmed_datum_drops_the_highest_and_lowest_scores_ruter_butler_2() -> None:
    scores = [-1100, 100, 110, 140, 2000]
    assert datum(scores, Datum(trim=1)) == 120.0   # mean of 100, 110, 140 = 116.7
    assert datum(scores) == 250.0                   # untrimmed mean 250


def test_butler_imps_against_the_datum() -> None:
    scored = score_event(Event("t", Scoring.BUTLER, tuple(board([420, 420, 450, -50]))))
    b = scored.boards[0]
    assert b.datum == 310.0  # 1240 / 4
    assert [s.points_ns for s in b.results] == [3.0, 3.0, 4.0, -8.0]  # +110, +110, +140, -360
    assert [s.points_ew for s in b.results] == [-3.0, -3.0, -4.0, 8.0]


def test_butler_artificial_average_plus_is_3_imps_law_12c2() -> None:
    scored = score_event(Event("t", Scoring.BUTLER, tuple(board([420, 450, "A+/A-"]))))
    assert (scored.boards[0].results[2].points_ns, scored.boards[0].results[2].points_ew) == (3.0, -3.0)


def test_cross_imps_summed_over_the_other_results() -> None:
    # 420: -30 and +470 (-1, +10); 450: +30 and +500 (+1, +11); -50: -470 and -500
    assert cross_imps([420, 450, -50]) == [9.0, 12.0, -21.0]


def test_cross_imps_averaged_over_the_other_results_ebu_teamsscorer() -> None:
    assert cross_imps([420, 450, -50], CrossImps.AVERAGE) == [4.5, 6.0, -10.5]


def test_pair_total_adds_the_board_values_rounded_as_printed_teamsscorer() -> None:
    # 420 against 450, -50 and 100: -1 + 10 + 8 = 17 IMPs over 3 comparisons, 5.666... a board
    results = board([420, 450, -50, 100], "1") + board([420, 450, -50, 100], "2")
    exact = score_event(Event("t", Scoring.CROSS_IMP, tuple(results), Conventions(cross_imps=CrossImps.AVERAGE)))
    printed = score_event(Event("t", Scoring.CROSS_IMP, tuple(results),
                                Conventions(cross_imps=CrossImps.AVERAGE, board_decimals=2)))
    assert printed.boards[0].results[0].points_ns == 5.67
    assert next(s.total for s in exact.standings if s.pair == "ns1") == pytest.approx(34 / 3)   # 11.33
    assert next(s.total for s in printed.standings if s.pair == "ns1") == pytest.approx(11.34)  # 5.67 + 5.67


def test_cross_imp_event_east_west_score_the_opposite() -> None:
    scored = score_event(Event("t", Scoring.CROSS_IMP, tuple(board([420, -50]))))
    assert [(s.points_ns, s.points_ew) for s in scored.boards[0].results] == [(10.0, -10.0), (-10.0, 10.0)]


def test_team_match_compares_the_two_rooms_law_78b() -> None:
    # board 1: home +620 in one room, away +170 in the other -> home 620 - 170 = 450: 10 IMPs
    b1 = (Result("1", "H", "A", score=620), Result("1", "A", "H", score=170))
    # board 2: home 100 at NS, away 140 at NS -> -40: home loses 1 IMP
    b2 = (Result("2", "H", "A", score=100), Result("2", "A", "H", score=140))
    ms = score_match(Match("H", "A", (b1, b2)), Conventions(vp=None))
    assert ms.imps == (("1", 10), ("2", -1))
    assert (ms.home_imps, ms.away_imps) == (10, 1)
    assert ms.home_vps is None


def test_wbf_continuous_vp_scale_draw_blitz_and_concavity() -> None:
    assert wbf_vps(0, 16) == 10.0
    assert [wbf_vps(m, 16) for m in (1, 2, 5, 10)] == [10.31, 10.61, 11.48, 12.8]
    assert wbf_vps(60, 16) == 20.0 and wbf_vps(75, 16) == 20.0     # blitz at 15 sqrt(16) = 60
    values = [wbf_vps(m, 16) for m in range(61)]
    steps = [b - a for a, b in itertools.pairwise(values)]
    assert all(s >= 0 for s in steps)
    # no later IMP worth more than the one before, but for the 0.01 of rounding (see wbf_vps)
    assert all(b <= a + 0.011 for a, b in itertools.pairwise(steps))
    assert all(round(v, 2) == v for v in values)
    assert WBF_VP_20.vps(-7, 16) == (20.0 - wbf_vps(7, 16), wbf_vps(7, 16))


def test_discrete_vp_scale_thresholds_as_teamsscorer_prints_them() -> None:
    scale = VpScale("short", (1, 2, 3, 5, 7, 9, 11, 14, 17, 20))
    assert [scale.vps(m, 3)[0] for m in (0, 1, 2, 3, 4, 5, 13, 14, 19, 20, 40)] == \
        [10, 11, 12, 13, 13, 14, 17, 18, 19, 20, 20]
    assert scale.vps(-8, 3) == (5.0, 15.0)


def test_teams_event_totals_vps_and_wins() -> None:
    b1 = (Result("1", "H", "A", score=620), Result("1", "A", "H", score=170))
    event = Event("t", Scoring.TEAMS, b1, Conventions(vp=VpScale("s", (1, 2, 3, 5, 7, 9, 11, 14, 17, 20))),
                  matches=(Match("H", "A", (b1,)),))
    st = {s.pair: s for s in score_event(event).standings}
    assert (st["H"].total, st["H"].wins, st["H"].rank) == (16.0, 1, 1)
    assert (st["A"].total, st["A"].wins, st["A"].rank) == (4.0, 0, 2)


# --- values and the check ----------------------------------------------------------------


@pytest.mark.parametrize(("text", "ns", "ew"), [
    ("A+/A-", Award.PLUS, Award.MINUS), ("A60/A40", Award.PLUS, Award.MINUS), ("60/40", Award.PLUS, Award.MINUS),
    ("A+A-", Award.PLUS, Award.MINUS), ("A", Award.AVERAGE, Award.AVERAGE), ("A=", Award.AVERAGE, Award.AVERAGE),
    ("AVE-", Award.MINUS, Award.MINUS), ("a50", Award.AVERAGE, Award.AVERAGE), ("50%", Award.AVERAGE, Award.AVERAGE)])
def test_artificial_score_spellings(text: str, ns: Award, ew: Award) -> None:
    assert Artificial.parse(text) == Artificial(ns, ew)


@pytest.mark.parametrize("text", ["", "A70", "B+", "A+/A-/A"])
def test_unreadable_artificial_score_raises(text: str) -> None:
    with pytest.raises(FieldScoreError):
        Artificial.parse(text)


def test_result_is_a_score_or_an_artificial_score() -> None:
    with pytest.raises(FieldScoreError):
        Result("1", "1", "2")
    with pytest.raises(FieldScoreError):
        Result("1", "1", "2", score=100, artificial=Artificial.parse("A"))


def test_round_half_away_from_zero() -> None:
    assert (round_half_away(1.005, 2), round_half_away(-2.5, 0), round_half_away(2.5, 0)) == (1.01, -3.0, 3.0)


def _checked(printed: list[Printed]) -> list[str]:
    event = Event("t", Scoring.MP, tuple(board([100, 200, 300, 300])), printed=tuple(printed))
    return [str(d) for d in check(score_event(event)).differences]


def test_check_rounds_the_computed_value_half_up_to_the_printed_decimals() -> None:
    key = ("result", "", "1", "ns1", "ew1")
    assert _checked([Printed(key, "points_ew", "6", "MP_EW"), Printed(key, "percent_ew", "100", "P"),
                     Printed(("result", "", "1", "ns2", "ew2"), "percent_ns", "33", "P"),
                     Printed(("result", "", "1", "ns2", "ew2"), "percent_ns", "33.33", "P")]) == []


def test_check_lists_a_value_that_differs_and_one_the_scores_do_not_give() -> None:
    key = ("result", "", "1", "ns1", "ew1")
    assert _checked([Printed(key, "points_ns", "1", "MP_NS"), Printed(("pair", "", "zz"), "total", "3", "T")]) == [
        "board 1, ns1 v ew1: MP_NS printed 1, computed 0", "pair zz: T printed 3, computed (nothing)"]


def test_check_place_with_equals_sign_must_be_shared() -> None:
    assert _checked([Printed(("pair", "", "ns3"), "place", "1=", "PLACE"),
                     Printed(("pair", "", "ns4"), "place", "1=", "PLACE")]) == []
    assert _checked([Printed(("pair", "", "ns3"), "place", "1", "PLACE")]) == [
        "pair ns3: PLACE printed 1, computed 1="]


def test_check_minus_zero_is_zero() -> None:
    tie = Event("t", Scoring.MP, tuple(board([300, 300])),
                printed=(Printed(("result", "", "1", "ns1", "ew1"), "centred_ns", "-0", "MP_NS"),
                         Printed(("result", "", "1", "ns2", "ew2"), "centred_ew", "0", "MP_EW")))
    assert check(score_event(tie)).differences == ()
    assert _checked([Printed(("result", "", "1", "ns3", "ew3"), "centred_ns", "-0", "MP_NS")]) == [
        "board 1, ns3 v ew3: MP_NS printed -0, computed 2"]
