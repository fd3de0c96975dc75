"""The rubber, Chicago and 1905 codes: sheets, dealers, worked examples and the 1905 declaration."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.calls import Denomination
from controller.cards import Suit
from controller.codes import Code, Sheet, SheetEntry, code_named
from controller.codes.bridge1905 import (
    FIVE_HONOURS_DIVIDED_PRINTED,
    W_ADVERSARY_NAMES_OR_PASSES_TRUMP,
    W_DECLARATION_PASSED_BACK_TO_DEALER,
    W_DOUBLE_BEFORE_MAY_I_LEAD,
    W_REDOUBLE_OUT_OF_TURN,
    W_TRUMP_NAMED_BY_PARTNER_UNINVITED,
    W_UNEXPECTED_ACT,
    Bridge1905,
    Declaration1905,
    DeclarationError,
    Sheet1905,
)
from controller.codes.chicago import Chicago, ChicagoSheet, chicago_vulnerability
from controller.codes.rubber import Rubber, RubberSheet
from controller.contract import Contract
from controller.deal import Deal
from controller.scoring import DealResult
from controller.seats import SEATS, Seat, Side, Vulnerability
from tests.controller.test_scoring_tables import honours_deal

C, D, H, S, NT = (Denomination.C, Denomination.D, Denomination.H, Denomination.S,
                  Denomination.NT)
N, E, SOUTH, W = Seat.N, Seat.E, Seat.S, Seat.W


def play(code: Code, deals: Iterable[tuple[str | None, Seat, int]], *, first: Seat = N,
         sheet: Sheet | None = None, deal: Deal | None = None,
         ) -> tuple[Sheet, list[tuple[SheetEntry, ...]]]:
    """Score deals given as (contract text or None, declarer, tricks), dealers in rotation."""
    sheet = sheet if sheet is not None else code.new_sheet()
    added = []
    for i, (text, declarer, tricks) in enumerate(deals):
        dealer, vul = code.deal_setup(sheet, None, first if i == 0 else None, None)
        contract = Contract.parse(text, declarer) if text else None
        sheet, entries = code.score_deal(sheet, DealResult(contract, tricks, vul, dealer, deal))
        added.append(entries)
    return sheet, added


def side_totals(sheet: Sheet, side: Side) -> tuple[int, int]:
    """A side's points below and above the line."""
    below = sum(e.points for e in sheet.entries if e.side is side and e.below)
    above = sum(e.points for e in sheet.entries if e.side is side and not e.below)
    return below, above


def labels(entries: tuple[SheetEntry, ...]) -> list[tuple[Side, int, str]]:
    return [(e.side, e.points, e.label) for e in entries]


# --------------------------------------------------------------------------------------------
# code_named and the protocol


@pytest.mark.parametrize(("name", "cls"), (("rubber", Rubber), ("chicago", Chicago),
                                           ("bridge1905", Bridge1905)))
def test_code_named_builds_each_code_with_its_name(name: str, cls: type) -> None:
    code = code_named(name)
    assert isinstance(code, cls)
    assert code.name == name
    assert code.declares_trumps is (name == "bridge1905")
    assert code.new_sheet().total_ns == 0


def test_rubber_club_laws_setting_cites_the_club_law_beside_the_law_part_viii() -> None:
    plain, club = code_named("rubber"), code_named("rubber", {"club_laws": True})
    assert isinstance(club, Rubber) and club.club_laws
    assert plain.law("revoke") == "62"
    assert plain.law("revoke_transfer_nos_won") == "64C"
    assert club.law("revoke_transfer_nos_won") == "64C, Club 64"
    assert club.law("claim") == "68-71, Club 69, 70"
    assert plain.law("passed_out_deal") == club.law("passed_out_deal") == "22A"
    assert plain.law("rubber_not_finished") == "80"
    assert plain.law("no_such_situation") == ""


def test_law_references_differ_by_code_for_the_same_situation() -> None:
    assert Chicago().law("passed_out_deal") == "22A, App4-B"
    assert Chicago().law("chicago_vulnerability_diagram_error") == "App4-E"
    assert Bridge1905().law("revoke") == "85"
    assert Bridge1905().law("revoke_transfer_w87") == "87"
    assert Bridge1905().law(W_REDOUBLE_OUT_OF_TURN) == "55"
    assert Bridge1905().law(W_TRUMP_NAMED_BY_PARTNER_UNINVITED) == "46"


# --------------------------------------------------------------------------------------------
# Rubber bridge (R 9, 22A, 72-81)


def test_rubber_worked_example_nets_ns_1220_laws_md_3_3_law_81() -> None:
    sheet, added = play(Rubber(), [
        ("2H", N, 9),     # partscore 60 + overtrick 30
        ("1NT", E, 7),    # EW 40 below
        ("2D", SOUTH, 8),     # NS 40: 100 below, game
        ("4SX", W, 8),    # EW not vulnerable, down two doubled: 300 to NS
        ("3NT", N, 10),   # NS vulnerable, game and rubber 2-0
    ])
    assert side_totals(sheet, Side.NS) == (200, 1060)
    assert side_totals(sheet, Side.EW) == (40, 0)
    assert sheet.total_ns == 1220
    assert labels(added[3]) == [(Side.NS, 300, "undertricks")]
    assert labels(added[4]) == [(Side.NS, 100, "trick points"), (Side.NS, 30, "overtricks"),
                                (Side.NS, 700, "rubber")]
    assert isinstance(sheet, RubberSheet)
    assert (sheet.rubbers, sheet.rubber_ended, sheet.games, sheet.below) == (1, True, (0, 0),
                                                                            (0, 0))


def test_rubber_game_at_100_below_and_both_sides_restart_law_73() -> None:
    sheet, _ = play(Rubber(), [("2H", N, 8), ("2C", E, 8), ("2S", SOUTH, 8)])
    assert isinstance(sheet, RubberSheet)
    assert sheet.games == (1, 0)
    assert sheet.below == (0, 0)  # EW's 40 no longer counts toward game
    assert sheet.vulnerability is Vulnerability.NS


def test_rubber_won_two_games_to_none_scores_700_law_81() -> None:
    _, added = play(Rubber(), [("4S", N, 10), ("3NT", SOUTH, 9)])
    assert (Side.NS, 700, "rubber") in labels(added[1])


def test_rubber_won_two_games_to_one_scores_500_law_81() -> None:
    sheet, added = play(Rubber(), [("4S", N, 10), ("5D", E, 11), ("6C", W, 12)])
    assert (Side.EW, 500, "rubber") in labels(added[2])
    assert (Side.EW, 750, "slam") in labels(added[2])
    assert isinstance(sheet, RubberSheet) and sheet.rubbers == 1


def test_rubber_new_rubber_starts_after_one_ends_and_nobody_is_vulnerable_law_74() -> None:
    code = Rubber()
    sheet, _ = play(code, [("4S", N, 10), ("3NT", SOUTH, 9), ("1C", E, 7)])
    assert isinstance(sheet, RubberSheet)
    assert (sheet.games, sheet.below, sheet.rubbers, sheet.rubber_ended) == (
        (0, 0), (0, 20), 1, False)
    assert code.deal_setup(sheet, None, None, None)[1] is Vulnerability.NONE


def test_rubber_undertricks_follow_declarers_vulnerability_from_the_sheet_law_81() -> None:
    sheet = RubberSheet(games=(0, 1))
    # The log calls nobody vulnerable: the sheet says EW have a game.
    new, entries = Rubber().score_deal(sheet, DealResult(
        Contract.parse("4HX", E), 8, Vulnerability.NONE, E))
    assert labels(entries) == [(Side.NS, 500, "undertricks")]
    assert new.total_ns == 500


def test_rubber_transferred_tricks_score_as_won_law_77() -> None:
    # Footnote to Law 77: 3H with 8 tricks and two transferred = 90 below, 30 above.
    _, entries = Rubber().score_deal(RubberSheet(), DealResult(
        Contract.parse("3H", SOUTH), 10, Vulnerability.NONE, E, revoke_tricks=(0, 2)))
    assert labels(entries) == [(Side.NS, 90, "trick points"), (Side.NS, 30, "overtricks")]


def test_rubber_honours_go_to_the_defenders_even_when_the_contract_fails_law_81() -> None:
    deal = honours_deal(Suit.S, "EEEEN")
    _, entries = Rubber().score_deal(RubberSheet(), DealResult(
        Contract.parse("4SXX", N), 10, Vulnerability.NONE, N, deal))
    assert (Side.EW, 100, "honours") in labels(entries)  # not doubled
    _, entries = Rubber().score_deal(RubberSheet(), DealResult(
        Contract.parse("4S", N), 8, Vulnerability.NONE, N, deal))
    assert labels(entries) == [(Side.EW, 100, "undertricks"), (Side.EW, 100, "honours")]


def test_rubber_four_aces_at_no_trumps_score_150_law_81() -> None:
    deal = Deal.parse("N:A432.A32.A32.A32 KQJ5.KQJ.KQJ.KQJ T987.T98.T98.T98 6.7654.7654.7654")
    _, entries = Rubber().score_deal(RubberSheet(), DealResult(
        Contract.parse("3NT", E), 9, Vulnerability.NONE, N, deal))
    assert (Side.NS, 150, "honours") in labels(entries)


def test_rubber_dealer_rotates_and_a_passed_out_deal_passes_the_deal_law_22a() -> None:
    code = Rubber()
    sheet: Sheet = code.new_sheet()
    assert code.deal_setup(sheet, None, None, None) == (N, Vulnerability.NONE)
    sheet, entries = code.score_deal(sheet, DealResult(None, 0, Vulnerability.NONE, N))
    assert entries == () and sheet.deals == 1
    assert code.deal_setup(sheet, None, None, None)[0] is E


def test_rubber_deal_out_of_turn_stands_and_rotation_continues_from_it_law_9() -> None:
    code = Rubber()
    sheet, _ = play(code, [("1C", N, 7)], first=N)
    assert code.deal_setup(sheet, 2, W, Vulnerability.BOTH) == (W, Vulnerability.NONE)
    sheet, _ = code.score_deal(sheet, DealResult(None, 0, Vulnerability.NONE, W))
    assert code.deal_setup(sheet, None, None, None)[0] is N


def test_rubber_unfinished_only_game_scores_300_law_80() -> None:
    code = Rubber()
    sheet, _ = play(code, [("4H", N, 10), ("2C", E, 8)])
    finished, entries = code.finish(sheet)
    assert labels(entries) == [(Side.NS, 300, "unfinished rubber"),
                               (Side.EW, 100, "unfinished rubber")]
    assert finished.total_ns == 120 + 300 - 40 - 100
    again, more = code.finish(finished)
    assert more == () and again.total_ns == finished.total_ns


def test_rubber_unfinished_at_one_game_all_scores_no_300_law_80() -> None:
    code = Rubber()
    sheet, _ = play(code, [("4H", N, 10), ("4S", E, 10), ("1NT", E, 7), ("2D", SOUTH, 8)])
    _, entries = code.finish(sheet)
    assert entries == ()  # one game each; both sides have a partscore


def test_rubber_unfinished_only_partscore_scores_100_law_80() -> None:
    code = Rubber()
    sheet, _ = play(code, [("2S", W, 8)])
    finished, entries = code.finish(sheet)
    assert labels(entries) == [(Side.EW, 100, "unfinished rubber")]
    assert finished.total_ns == -160


def test_rubber_finished_rubber_adds_nothing_at_the_end_law_80() -> None:
    code = Rubber()
    sheet, _ = play(code, [("4S", N, 10), ("3NT", SOUTH, 9)])
    assert code.finish(sheet)[1] == ()


def test_rubber_plain_sheet_is_read_as_an_empty_rubber_sheet() -> None:
    new, _ = Rubber().score_deal(Sheet(), DealResult(Contract.parse("4S", N), 10,
                                                     Vulnerability.NONE, N))
    assert isinstance(new, RubberSheet) and new.games == (1, 0)


# --------------------------------------------------------------------------------------------
# Chicago (R App4)


def test_chicago_worked_example_nets_ns_400_laws_md_3_4_app4() -> None:
    sheet, added = play(Chicago(), [("2S", N, 8), ("3C", E, 9), ("2H", SOUTH, 8),
                                    ("2D", W, 9)])
    assert labels(added[2]) == [(Side.NS, 60, "trick points"), (Side.NS, 500, "game")]
    assert labels(added[3]) == [(Side.EW, 40, "trick points"), (Side.EW, 20, "overtricks"),
                                (Side.EW, 100, "partscore deal 4")]
    assert sheet.total(Side.NS) == 620 and sheet.total(Side.EW) == 220
    assert sheet.total_ns == 400
    assert isinstance(sheet, ChicagoSheet)
    assert (sheet.played, sheet.series, sheet.below) == (0, 1, (0, 0))


@pytest.mark.parametrize("first", SEATS)
def test_chicago_vulnerability_by_deal_number_and_dealer_app4_c(first: Seat) -> None:
    code = Chicago()
    sheet: Sheet = code.new_sheet()
    seen = []
    for i in range(8):
        dealer, vul = code.deal_setup(sheet, 99, first if i == 0 else None, Vulnerability.NS)
        seen.append(vul)
        assert dealer is first.offset(i)
        sheet, _ = code.score_deal(sheet, DealResult(Contract.parse("1C", N), 6, vul, dealer))
    dealer_side = [first.offset(i).side for i in range(8)]
    for i in (0, 4):
        assert seen[i] is Vulnerability.NONE
        assert seen[i + 3] is Vulnerability.BOTH
        for j in (i + 1, i + 2):
            assert seen[j].is_vulnerable(dealer_side[j])
            assert not seen[j].is_vulnerable(dealer_side[j].other)


def test_chicago_vulnerability_switch_by_agreement_app4_c() -> None:
    assert chicago_vulnerability(2, E) is Vulnerability.EW
    assert chicago_vulnerability(2, E, non_dealer_vulnerable=True) is Vulnerability.NS
    assert Chicago(non_dealer_vulnerable=True).deal_setup(
        ChicagoSheet(played=2, next_dealer=SOUTH), None, None, None)[1] is Vulnerability.EW


def test_chicago_passed_out_deal_is_redealt_by_the_same_dealer_and_not_counted_app4_b() -> None:
    code = Chicago()
    sheet, _ = play(code, [("1NT", N, 7)])
    dealer, vul = code.deal_setup(sheet, None, None, None)
    assert (dealer, vul) == (E, Vulnerability.EW)
    sheet, entries = code.score_deal(sheet, DealResult(None, 0, vul, dealer))
    assert entries == ()
    assert isinstance(sheet, ChicagoSheet) and sheet.played == 1 and sheet.deals == 2
    assert code.deal_setup(sheet, None, None, None) == (E, Vulnerability.EW)


def test_chicago_deal_out_of_turn_changes_neither_vulnerability_nor_rotation_app4_g() -> None:
    code = Chicago()
    sheet, _ = play(code, [("1NT", N, 7)])
    dealer, vul = code.deal_setup(sheet, None, W, None)  # W deals instead of E
    assert (dealer, vul) == (W, Vulnerability.EW)
    sheet, _ = code.score_deal(sheet, DealResult(Contract.parse("1C", N), 7, vul, W))
    assert code.deal_setup(sheet, None, None, None) == (SOUTH, Vulnerability.NS)


def test_chicago_game_premium_follows_completing_sides_vulnerability_app4_d() -> None:
    _, added = play(Chicago(), [("4H", N, 10), ("4H", E, 10), ("3NT", E, 9), ("3NT", N, 9)])
    assert (Side.NS, 300, "game") in labels(added[0])   # deal 1: nobody vulnerable
    assert (Side.EW, 500, "game") in labels(added[1])   # deal 2: E deals, EW vulnerable
    assert (Side.EW, 300, "game") in labels(added[2])   # deal 3: S deals, EW not vulnerable
    assert (Side.NS, 500, "game") in labels(added[3])   # deal 4: both vulnerable
    assert all(e.label != "partscore deal 4" for e in added[3])


def test_chicago_game_cancels_every_earlier_partscore_toward_game_app4_f() -> None:
    _, added = play(Chicago(), [("2S", N, 8), ("2H", E, 8), ("4S", E, 10), ("2H", N, 8)])
    assert all(e.label != "game" for e in added[3])  # NS's 60 from deal 1 no longer counts
    assert (Side.NS, 100, "partscore deal 4") in labels(added[3])


def test_chicago_partscores_add_up_to_a_game_app4_f() -> None:
    _, added = play(Chicago(), [("2S", N, 8), ("2C", E, 8), ("1NT", SOUTH, 7)])
    assert (Side.NS, 500, "game") in labels(added[2])


def test_chicago_deal_4_partscore_completing_a_game_gets_the_game_premium_only_app4_f() -> None:
    _, added = play(Chicago(), [("1C", N, 6), ("1C", N, 6), ("2S", N, 8), ("2S", N, 8)])
    assert labels(added[3]) == [(Side.NS, 60, "trick points"), (Side.NS, 500, "game")]


def test_chicago_new_series_starts_without_partscores_after_four_deals_app4_b() -> None:
    code = Chicago()
    sheet, added = play(code, [("1C", N, 6)] * 3 + [("2S", N, 8), ("2S", N, 8)])
    assert (Side.NS, 100, "partscore deal 4") in labels(added[3])
    assert all(e.label != "game" for e in added[4])  # the 60 of deal 4 did not carry over
    assert isinstance(sheet, ChicagoSheet)
    assert (sheet.series, sheet.played, sheet.below) == (1, 1, (60, 0))


def test_chicago_doubled_major_vulnerable_with_overtrick_totals_870_app4_h4() -> None:
    sheet = ChicagoSheet(played=3, next_dealer=N)
    new, entries = Chicago().score_deal(sheet, DealResult(
        Contract.parse("2SX", SOUTH), 9, Vulnerability.NONE, N))
    assert sum(e.points for e in entries) == 870
    assert new.total_ns == 870


def test_chicago_honours_scored_as_in_rubber_app4_a() -> None:
    deal = honours_deal(Suit.H, "WWWWW")
    _, entries = Chicago().score_deal(ChicagoSheet(), DealResult(
        Contract.parse("2H", N), 8, Vulnerability.NONE, N, deal))
    assert (Side.EW, 150, "honours") in labels(entries)


def test_chicago_finish_adds_nothing_app4_b() -> None:
    code = Chicago()
    sheet, _ = play(code, [("2S", N, 8)])
    assert code.finish(sheet) == (sheet, ())


# --------------------------------------------------------------------------------------------
# 1905 scoring (W 1-13, 85-89)


def score_1905(denomination: Denomination, doublings: int, tricks: int, *,
               dealer: Seat = SOUTH, sheet: Sheet | None = None, deal: Deal | None = None,
               revoke: tuple[int, int] = (0, 0), code: Bridge1905 | None = None,
               ) -> tuple[Sheet1905, tuple[SheetEntry, ...]]:
    code = code or Bridge1905()
    sheet = sheet if sheet is not None else code.new_sheet()
    new, entries = code.score_deal(sheet, DealResult(
        Contract(1, denomination, doublings, dealer), tricks, Vulnerability.NONE, dealer,
        deal, revoke))
    assert isinstance(new, Sheet1905)
    return new, entries


def test_1905_hearts_doubled_nine_tricks_score_48_and_game_laws_md_3_5_w4_w50() -> None:
    sheet, entries = score_1905(H, 1, 9)
    assert labels(entries) == [(Side.NS, 48, "trick points")]
    assert sheet.games == (1, 0) and sheet.below == (0, 0)
    assert sheet.total_ns == 48  # the 18 beyond 30 still count (W 3)


def test_1905_spades_are_the_lowest_declaration_w4() -> None:
    _, entries = score_1905(S, 0, 13)
    assert labels(entries) == [(Side.NS, 14, "trick points"), (Side.NS, 40, "slam")]


def test_1905_adversaries_taking_the_odd_tricks_score_them_laws_md_3_5() -> None:
    sheet, entries = score_1905(NT, 0, 4)
    assert labels(entries) == [(Side.EW, 36, "trick points")]
    assert sheet.games == (0, 1)


def test_1905_rubber_of_two_games_scores_100_w1_w11() -> None:
    sheet, _ = score_1905(NT, 0, 10)
    sheet, entries = score_1905(D, 0, 12, dealer=W, sheet=sheet)
    assert labels(entries) == [(Side.EW, 36, "trick points"), (Side.EW, 20, "slam")]
    assert sheet.games == (1, 1)
    sheet, entries = score_1905(C, 1, 11, dealer=N, sheet=sheet)
    assert labels(entries) == [(Side.NS, 40, "trick points"), (Side.NS, 100, "rubber")]
    assert (sheet.games, sheet.rubbers, sheet.rubber_ended) == ((0, 0), 1, True)
    assert sheet.total_ns == 48 - 56 + 140


def test_1905_partscores_add_up_to_game_w2() -> None:
    sheet, _ = score_1905(D, 0, 9)        # 18
    sheet, _ = score_1905(S, 0, 9, sheet=sheet)  # 6 more: 24
    assert sheet.below == (24, 0) and sheet.games == (0, 0)
    sheet, _ = score_1905(C, 0, 8, sheet=sheet)  # 8 more: 32, game
    assert sheet.below == (0, 0) and sheet.games == (1, 0)


def test_1905_honours_and_chicane_are_not_doubled_w10() -> None:
    deal = honours_deal(Suit.H, "NNNNS")
    _, plain = score_1905(H, 0, 7, deal=deal)
    _, doubled = score_1905(H, 3, 7, deal=deal)
    honours = [e for e in plain if e.label == "honours"]
    assert honours == [e for e in doubled if e.label == "honours"]
    assert labels(tuple(honours)) == [(Side.NS, 72, "honours")]


def test_1905_honours_credited_to_the_original_holders_whoever_wins_w6() -> None:
    deal = honours_deal(Suit.D, "EWEWN")
    _, entries = score_1905(D, 0, 10, deal=deal)
    assert (Side.EW, 24, "honours") in labels(entries)


def test_1905_chicane_adds_three_honours_to_the_holders_side_w9() -> None:
    deal = honours_deal(Suit.C, "NNNEW", voids="S")  # S void, NS hold three honours
    _, entries = score_1905(C, 0, 7, deal=deal)
    assert labels(entries)[1:] == [(Side.NS, 8, "honours"), (Side.NS, 8, "chicane")]


def test_1905_chicane_is_deducted_from_the_adversaries_honours_w9() -> None:
    deal = honours_deal(Suit.H, "EEEEN", voids="S")  # EW four in one hand 64, S void
    _, entries = score_1905(H, 0, 7, deal=deal)
    assert labels(entries)[1:] == [(Side.EW, 64 - 16, "honours")]


def test_1905_double_chicane_deducts_four_honours_w9() -> None:
    deal = honours_deal(Suit.S, "EEEEE", voids="NS")  # all five in one hand 20, less 8
    _, entries = score_1905(S, 0, 7, deal=deal)
    assert labels(entries)[1:] == [(Side.EW, 20 - 8, "honours")]


def test_1905_no_trumps_has_no_chicane_w6() -> None:
    deal = honours_deal(Suit.S, "EEEEE", voids="NS")  # N and S void in spades, no aces
    _, entries = score_1905(NT, 0, 7, deal=deal)
    assert deal.pbn() == ("N:.J73.Q84.AQT8642 AKQJT97.Q84.K95. .K95.AT62.KJ9753 "
                          "865432.AT62.J73.")  # aces two and two: no honours either
    assert [e.label for e in entries] == ["trick points"]
    _, entries = score_1905(S, 0, 7, deal=deal)
    assert labels(entries)[1:] == [(Side.EW, 20 - 8, "honours")]


def test_1905_configured_printed_five_honours_row_is_used_w6() -> None:
    deal = honours_deal(Suit.H, "NSNSN")
    code = Bridge1905(five_honours_divided=FIVE_HONOURS_DIVIDED_PRINTED)
    _, entries = score_1905(H, 0, 7, deal=deal, code=code)
    assert (Side.NS, 64, "honours") in labels(entries)
    _, entries = score_1905(H, 0, 7, deal=deal)
    assert (Side.NS, 40, "honours") in labels(entries)


def test_1905_little_slam_by_the_adversaries_scores_20_w8() -> None:
    _, entries = score_1905(NT, 0, 1)
    assert (Side.EW, 20, "slam") in labels(entries)


def test_1905_slam_does_not_count_tricks_gained_by_revoke_w7() -> None:
    # NS took 10 tricks in play and three more from an EW revoke.
    _, entries = score_1905(C, 0, 13, revoke=(0, 3))
    assert all(e.label != "slam" for e in entries)
    assert (Side.NS, 28, "trick points") in labels(entries)


def test_1905_revoking_side_cannot_score_game_and_stops_at_28_w89() -> None:
    sheet = Sheet1905(below=(20, 0))
    new, entries = score_1905(H, 1, 9, sheet=sheet, revoke=(3, 0))
    assert labels(entries) == [(Side.NS, 8, "trick points")]
    assert new.below == (28, 0) and new.games == (0, 0)
    new, entries = score_1905(NT, 0, 13, sheet=new, revoke=(3, 0))
    assert labels(entries) == [(Side.NS, 40, "slam")]  # nothing more toward game
    assert new.below == (28, 0)


def test_1905_revoke_penalty_can_give_the_adversaries_the_game_w85_w87() -> None:
    # The dealer's side revoked: 7 tricks in play, 4 after the transfer; EW score 3 odd.
    sheet, entries = score_1905(NT, 0, 4, revoke=(3, 0))
    assert labels(entries) == [(Side.EW, 36, "trick points")]
    assert sheet.games == (0, 1)


def test_1905_no_vulnerability_and_the_deal_goes_to_the_left_w32() -> None:
    code = Bridge1905()
    sheet = code.new_sheet()
    assert code.deal_setup(sheet, None, None, Vulnerability.BOTH) == (N, Vulnerability.NONE)
    sheet, _ = score_1905(S, 0, 7, dealer=N, sheet=sheet)
    assert code.deal_setup(sheet, None, None, None) == (E, Vulnerability.NONE)
    assert code.deal_setup(sheet, None, W, None) == (W, Vulnerability.NONE)


def test_1905_finish_adds_nothing_for_an_unfinished_rubber_w11() -> None:
    code = Bridge1905()
    sheet, _ = score_1905(NT, 0, 10)
    assert code.finish(sheet) == (sheet, ())


# --------------------------------------------------------------------------------------------
# The 1905 declaration and doubling (W 45-60)


def run(decl: Declaration1905, *acts: tuple[Seat, tuple[object, ...]]) -> Declaration1905:
    """Apply regular acts, checking that none raises a situation."""
    for seat, act in acts:
        step = decl.apply(seat, act)
        assert step.situation is None, (seat, act, step.situation)
        decl = step.declaration
    return decl


DOUBLE = ("double",)
SATISFIED = ("satisfied",)


def test_1905_dealer_names_trumps_and_may_i_lead_yes_starts_play_w45_w51_w57() -> None:
    decl = Declaration1905.start(SOUTH)
    assert decl.turn is SOUTH
    decl = run(decl, (SOUTH, ("declare", H)))
    assert (decl.denomination, decl.maker, decl.turn) == (H, SOUTH, W)
    decl = run(decl, (W, SATISFIED))   # "May I lead?"
    assert decl.turn is E and not decl.is_complete
    decl = run(decl, (E, SATISFIED))   # "Yes"
    assert decl.is_complete and decl.turn is None
    assert decl.contract() == Contract(1, H, 0, SOUTH)
    assert decl.contract().opening_leader is W


def test_1905_dealer_passes_and_partner_must_name_trumps_dealer_plays_w45_w61() -> None:
    decl = run(Declaration1905.start(N), (N, ("pass_to_partner",)))
    assert decl.turn is SOUTH
    decl = run(decl, (SOUTH, ("declare", NT)), (E, SATISFIED), (W, SATISFIED))
    assert decl.maker is SOUTH and decl.is_complete
    assert decl.contract().declarer is N


def test_1905_partner_of_eldest_may_double_after_may_i_lead_w51() -> None:
    decl = run(Declaration1905.start(N), (N, ("declare", S)), (E, SATISFIED), (W, DOUBLE))
    assert decl.doublings == 1 and decl.turn is N   # the maker has the first right (W 52)
    decl = run(decl, (N, SATISFIED))
    assert decl.turn is SOUTH                        # then his partner (W 52)
    decl = run(decl, (SOUTH, SATISFIED))
    assert decl.is_complete and decl.contract().doubled == 1


def test_1905_redoubling_first_right_belongs_to_who_last_doubled_w53_w55() -> None:
    decl = run(Declaration1905.start(N), (N, ("pass_to_partner",)), (SOUTH, ("declare", C)),
               (E, DOUBLE))
    assert decl.turn is SOUTH                      # the maker of trumps, not the dealer
    decl = run(decl, (SOUTH, SATISFIED), (N, DOUBLE))
    assert decl.turn is E                          # the original doubler (W 53)
    decl = run(decl, (E, SATISFIED), (W, DOUBLE))
    assert decl.turn is N                          # N redoubled last for his side (W 55)
    decl = run(decl, (N, DOUBLE))
    assert decl.turn is W                          # W doubled last for his side
    decl = run(decl, (W, SATISFIED), (E, SATISFIED))
    assert decl.is_complete
    assert decl.doublings == 4 and decl.odd_trick_value == 4 * 16


def test_1905_doubling_is_unlimited_without_a_club_cap_w55() -> None:
    decl = run(Declaration1905.start(E), (E, ("declare", NT)))
    seats = [SOUTH, E, SOUTH, E, SOUTH, E, SOUTH, E]
    decl = run(decl, *[(s, DOUBLE) for s in seats])
    assert decl.doublings == 8 and not decl.is_complete


def test_1905_club_cap_stops_doubling_above_the_odd_trick_limit_w55_footnote() -> None:
    code = Bridge1905(max_odd_trick_value=100)
    decl = run(code.declaration(N), (N, ("declare", NT)), (E, DOUBLE), (N, DOUBLE))
    assert decl.odd_trick_value == 48 and not decl.is_complete
    decl = run(decl, (E, DOUBLE))
    assert decl.odd_trick_value == 96 and decl.is_complete  # 192 would exceed 100
    step = decl.apply(N, DOUBLE)
    assert step.situation == W_UNEXPECTED_ACT and step.declaration == decl


def test_1905_cap_below_the_first_double_means_play_starts_at_once_w55_footnote() -> None:
    decl = run(Declaration1905.start(N, max_odd_trick_value=20), (N, ("declare", NT)))
    assert decl.is_complete and decl.doublings == 0


def test_1905_trump_named_by_partner_uninvited_w46() -> None:
    start = Declaration1905.start(N)
    step = start.apply(SOUTH, ("declare", D))
    assert step.situation == W_TRUMP_NAMED_BY_PARTNER_UNINVITED
    decl = step.declaration
    assert decl.pending == W_TRUMP_NAMED_BY_PARTNER_UNINVITED
    assert (decl.denomination, decl.maker, decl.turn) == (D, SOUTH, E)
    assert decl.rule(False) == start                # eldest hand claims a new deal
    assert decl.rule(True).pending is None          # eldest hand lets it stand
    # A doubling declaration by the eldest hand makes it stand (W 46).
    after = run(decl, (E, DOUBLE))
    assert after.pending is None and after.maker is SOUTH and after.turn is SOUTH


def test_1905_declaration_passed_back_to_dealer_w47() -> None:
    decl = run(Declaration1905.start(N), (N, ("pass_to_partner",)))
    step = decl.apply(SOUTH, ("pass_to_partner",))
    assert step.situation == W_DECLARATION_PASSED_BACK_TO_DEALER
    assert step.declaration.turn is SOUTH
    compelled = step.declaration.rule(True)
    assert compelled == decl                         # the offender must name the trump
    assert step.declaration.rule(False) == Declaration1905.start(N)  # new deal
    assert run(step.declaration, (SOUTH, ("declare", H))).maker is SOUTH


def test_1905_adversary_names_or_passes_trump_w48() -> None:
    start = Declaration1905.start(N)
    for seat, act in ((E, ("declare", S)), (W, ("pass_to_partner",))):
        step = start.apply(seat, act)
        assert step.situation == W_ADVERSARY_NAMES_OR_PASSES_TRUMP
        assert step.declaration.turn is N and step.declaration.denomination is None
        assert step.declaration.rule(True) == start   # as if nothing had been said
    decl = run(start.apply(E, ("declare", S)).declaration, (N, ("declare", H)))
    assert decl.denomination is H and decl.pending is None


def test_1905_double_by_dealers_rho_before_may_i_lead_w54_w59() -> None:
    decl = run(Declaration1905.start(N), (N, ("declare", H)))
    step = decl.apply(W, DOUBLE)                     # W is the dealer's RHO
    assert step.situation == W_DOUBLE_BEFORE_MAY_I_LEAD
    stands = step.declaration.rule(True)
    assert stands.doublings == 1 and stands.turn is N   # redoubling goes on (W 54)
    refused = step.declaration.rule(False)
    assert refused == decl and refused.turn is E       # the eldest hand keeps his right


def test_1905_rho_asking_may_i_lead_costs_the_eldest_hand_nothing_w59() -> None:
    decl = run(Declaration1905.start(N), (N, ("declare", H)))
    step = decl.apply(W, SATISFIED)
    assert step.situation is None and step.declaration == decl


def test_1905_redouble_out_of_turn_w55() -> None:
    decl = run(Declaration1905.start(N), (N, ("declare", H)), (E, DOUBLE))
    step = decl.apply(SOUTH, DOUBLE)                 # the maker N has the first right
    assert step.situation == W_REDOUBLE_OUT_OF_TURN
    assert step.declaration.rule(True).doublings == 2
    refused = step.declaration.rule(False)
    assert refused.doublings == 1 and refused.is_complete   # no further doubling (W 55)


def test_1905_double_out_of_turn_after_a_redouble_w55() -> None:
    decl = run(Declaration1905.start(N), (N, ("declare", H)), (E, DOUBLE), (N, DOUBLE))
    step = decl.apply(W, DOUBLE)                     # E, the original doubler, is first
    assert step.situation == W_REDOUBLE_OUT_OF_TURN
    assert step.declaration.doublings == 3


def test_1905_declaration_cannot_be_altered_w49() -> None:
    decl = run(Declaration1905.start(N), (N, ("declare", H)))
    step = decl.apply(N, ("declare", S))
    assert step.situation == W_UNEXPECTED_ACT and step.declaration == decl
    assert decl.apply(SOUTH, DOUBLE).situation == W_UNEXPECTED_ACT  # nothing to redouble


def test_1905_contract_before_the_trump_is_named_is_an_error() -> None:
    with pytest.raises(DeclarationError):
        Declaration1905.start(N).contract()


ACTS: list[tuple[object, ...]] = [
    ("declare", H), ("declare", NT), ("pass_to_partner",), DOUBLE, SATISFIED, ("nonsense",),
    (), ("declare", "hearts"),
]


@given(st.sampled_from(SEATS), st.lists(st.tuples(st.sampled_from(SEATS),
                                                  st.sampled_from(ACTS)), max_size=30),
       st.sampled_from([None, 100, 200]), st.lists(st.booleans(), max_size=30))
def test_1905_declaration_never_raises_and_stays_consistent(
        dealer: Seat, acts: list[tuple[Seat, tuple[object, ...]]], cap: int | None,
        rulings: list[bool]) -> None:
    decl = Declaration1905.start(dealer, cap)
    for i, (seat, act) in enumerate(acts):
        step = decl.apply(seat, act)
        decl = step.declaration
        if decl.pending is not None and i < len(rulings):
            decl = decl.rule(rulings[i])
        assert (decl.turn is None) == decl.closed
        if decl.closed:
            assert decl.contract().declarer is dealer
            if cap is not None:
                value = decl.odd_trick_value
                assert value is not None and (value <= cap or decl.doublings == 0)
