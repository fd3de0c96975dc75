"""Scoring tables, checked against expectations typed in from the scoring laws of each code.

The expected values are computed here from the tables as data (trick values, D 77 and R 81; the
cumulative undertrick table; the premiums of D 77 and R 72-74, 81; the W 4 and W 6 rows of the
1905 laws), never from the functions under test.
"""

from __future__ import annotations

import itertools

import pytest

from controller.calls import Denomination
from controller.cards import Card, Rank, Suit
from controller.codes import SheetEntry
from controller.codes.bridge1905 import (
    FIVE_HONOURS_DIVIDED_PRINTED,
    Bridge1905,
    chicane_value,
    honours_1905,
    trick_score_1905,
)
from controller.codes.rubber import Rubber, RubberSheet, rubber_honours
from controller.contract import Contract
from controller.deal import Deal
from controller.scoring import DealResult, duplicate_score, undertrick_penalty
from controller.seats import SEATS, Seat, Side, Vulnerability

C, D, H, S, NT = (Denomination.C, Denomination.D, Denomination.H, Denomination.S,
                  Denomination.NT)

# --- D 77, R 81: trick points per odd trick bid and made (undoubled, doubled, redoubled)
FIRST_TRICK = {C: (20, 40, 80), D: (20, 40, 80), H: (30, 60, 120), S: (30, 60, 120),
               NT: (40, 80, 160)}
LATER_TRICK = {C: (20, 40, 80), D: (20, 40, 80), H: (30, 60, 120), S: (30, 60, 120),
               NT: (30, 60, 120)}

# --- D 77, R 81: cumulative undertrick penalties; columns NV, NV X, NV XX, V, V X, V XX
UNDERTRICKS = (
    (50, 100, 200, 100, 200, 400),
    (100, 300, 600, 200, 500, 1000),
    (150, 500, 1000, 300, 800, 1600),
    (200, 800, 1600, 400, 1100, 2200),
    (250, 1100, 2200, 500, 1400, 2800),
    (300, 1400, 2800, 600, 1700, 3400),
    (350, 1700, 3400, 700, 2000, 4000),
    (400, 2000, 4000, 800, 2300, 4600),
    (450, 2300, 4600, 900, 2600, 5200),
    (500, 2600, 5200, 1000, 2900, 5800),
    (550, 2900, 5800, 1100, 3200, 6400),
    (600, 3200, 6400, 1200, 3500, 7000),
    (650, 3500, 7000, 1300, 3800, 7600),
)

# --- D 77 / R 81 premiums
OVERTRICK_DOUBLED = {(1, False): 100, (1, True): 200, (2, False): 200, (2, True): 400}
INSULT = (0, 50, 100)
SMALL_SLAM = {False: 500, True: 750}
GRAND_SLAM = {False: 1000, True: 1500}
DUPLICATE_GAME = {False: 300, True: 500}
DUPLICATE_PARTSCORE = 50

LEVELS = range(1, 8)
DENOMINATIONS = (C, D, H, S, NT)
DOUBLINGS = (0, 1, 2)


def expected_trick_points(level: int, denomination: Denomination, doubled: int) -> int:
    return FIRST_TRICK[denomination][doubled] + LATER_TRICK[denomination][doubled] * (level - 1)


def expected_undertricks(down: int, doubled: int, vulnerable: bool) -> int:
    return UNDERTRICKS[down - 1][doubled + (3 if vulnerable else 0)]


def expected_premiums(level: int, denomination: Denomination, doubled: int, vulnerable: bool,
                      over: int) -> int:
    """Overtricks, insult and slam: the premiums common to duplicate and rubber (R 81)."""
    if doubled:
        overtricks = OVERTRICK_DOUBLED[(doubled, vulnerable)] * over
    else:
        overtricks = LATER_TRICK[denomination][0] * over
    slam = {6: SMALL_SLAM[vulnerable], 7: GRAND_SLAM[vulnerable]}.get(level, 0)
    return overtricks + INSULT[doubled] + slam


# --------------------------------------------------------------------------------------------
# Duplicate (D 77)


def expected_duplicate(level: int, denomination: Denomination, doubled: int, vulnerable: bool,
                       tricks: int) -> int:
    diff = tricks - 6 - level
    if diff < 0:
        return -expected_undertricks(-diff, doubled, vulnerable)
    points = expected_trick_points(level, denomination, doubled)
    game = DUPLICATE_GAME[vulnerable] if points >= 100 else DUPLICATE_PARTSCORE
    return points + game + expected_premiums(level, denomination, doubled, vulnerable, diff)


@pytest.mark.parametrize("vulnerable", (False, True))
@pytest.mark.parametrize("doubled", DOUBLINGS)
@pytest.mark.parametrize("denomination", DENOMINATIONS)
@pytest.mark.parametrize("level", LEVELS)
def test_duplicate_score_matches_the_law_77_table_for_every_result_law_77_81(
        level: int, denomination: Denomination, doubled: int, vulnerable: bool) -> None:
    for declarer, sign in ((Seat.S, 1), (Seat.W, -1)):
        vul = Vulnerability.of(vulnerable and declarer.side is Side.NS,
                               vulnerable and declarer.side is Side.EW)
        contract = Contract(level, denomination, doubled, declarer)
        for tricks in range(14):
            want = sign * expected_duplicate(level, denomination, doubled, vulnerable, tricks)
            got = duplicate_score(contract, tricks, vul)
            assert got == want, f"{contract} {tricks} tricks vul={vulnerable}"


def test_duplicate_passed_out_board_scores_zero_law_22() -> None:
    assert duplicate_score(None, 0, Vulnerability.BOTH) == 0


@pytest.mark.parametrize("down", range(1, 14))
@pytest.mark.parametrize("doubled", DOUBLINGS)
@pytest.mark.parametrize("vulnerable", (False, True))
def test_undertrick_penalty_matches_the_cumulative_table_law_81(
        down: int, doubled: int, vulnerable: bool) -> None:
    assert undertrick_penalty(down, doubled, vulnerable) == expected_undertricks(
        down, doubled, vulnerable)


# D 77 test vectors: contract, declarer vulnerable, tricks, declarer's score.
DUPLICATE_VECTORS = (
    ("1NT", False, 7, 90), ("2S", False, 8, 110), ("2D", False, 10, 130),
    ("3NT", False, 9, 400), ("3NT", True, 9, 600), ("3NT", False, 10, 430),
    ("4H", False, 10, 420), ("4H", True, 10, 620), ("5C", False, 11, 400),
    ("5C", True, 11, 600), ("6S", False, 12, 980), ("6S", True, 12, 1430),
    ("6NT", False, 13, 1020), ("7NT", False, 13, 1520), ("7NT", True, 13, 2220),
    ("1CX", False, 7, 140), ("1CX", True, 7, 140), ("1CXX", False, 7, 230),
    ("1NTXX", False, 7, 560), ("1NTXX", True, 7, 760), ("2SX", False, 8, 470),
    ("2SX", True, 8, 670), ("2SX", True, 9, 870), ("4SX", False, 11, 690),
    ("4SXX", True, 11, 1480), ("7NTXX", True, 13, 2980), ("3NTX", False, 6, -500),
    ("4SX", True, 7, -800),
)


@pytest.mark.parametrize(("text", "vulnerable", "tricks", "score"), DUPLICATE_VECTORS)
def test_duplicate_laws_md_test_vectors_law_77(text: str, vulnerable: bool, tricks: int,
                                                score: int) -> None:
    vul = Vulnerability.NS if vulnerable else Vulnerability.EW
    assert duplicate_score(Contract.parse(text, Seat.N), tricks, vul) == score
    assert duplicate_score(Contract.parse(text, Seat.E), tricks,
                           Vulnerability.EW if vulnerable else Vulnerability.NS) == -score


# --------------------------------------------------------------------------------------------
# Rubber, per deal (R 72-74, 81)


def _summary(entries: tuple[SheetEntry, ...]) -> list[tuple[Side, int, bool, str]]:
    return sorted((e.side, e.points, e.below, e.label) for e in entries)


@pytest.mark.parametrize("vulnerable", (False, True))
@pytest.mark.parametrize("doubled", DOUBLINGS)
@pytest.mark.parametrize("denomination", DENOMINATIONS)
@pytest.mark.parametrize("level", LEVELS)
def test_rubber_deal_entries_match_the_law_81_table_for_every_result_law_81(
        level: int, denomination: Denomination, doubled: int, vulnerable: bool) -> None:
    code = Rubber()
    # North-South vulnerable after winning a game; the log's vulnerability is a wrong hint.
    sheet = RubberSheet(games=(1, 0) if vulnerable else (0, 0))
    contract = Contract(level, denomination, doubled, Seat.N)
    for tricks in range(14):
        result = DealResult(contract, tricks, Vulnerability.EW, Seat.N)
        new, entries = code.score_deal(sheet, result)
        diff = tricks - 6 - level
        want: list[tuple[Side, int, bool, str]] = []
        if diff < 0:
            want.append((Side.EW, expected_undertricks(-diff, doubled, vulnerable), False,
                         "undertricks"))
        else:
            points = expected_trick_points(level, denomination, doubled)
            want.append((Side.NS, points, True, "trick points"))
            over = (LATER_TRICK[denomination][0] * diff if not doubled
                    else OVERTRICK_DOUBLED[(doubled, vulnerable)] * diff)
            slam = {6: SMALL_SLAM[vulnerable], 7: GRAND_SLAM[vulnerable]}.get(level, 0)
            for value, label in ((over, "overtricks"), (INSULT[doubled], "insult"),
                                 (slam, "slam")):
                if value:
                    want.append((Side.NS, value, False, label))
            if points >= 100 and vulnerable:
                want.append((Side.NS, 700, False, "rubber"))
        assert _summary(entries) == sorted(want), f"{contract} {tricks} tricks"
        assert new.total_ns == sum(p if s is Side.NS else -p for s, p, _, _ in want)
        assert isinstance(new, RubberSheet)
        made_game = diff >= 0 and expected_trick_points(level, denomination, doubled) >= 100
        if made_game and vulnerable:
            assert (new.games, new.rubbers, new.rubber_ended) == ((0, 0), 1, True)
        elif made_game:
            assert (new.games, new.below) == ((1, 0), (0, 0))
        elif diff >= 0:
            assert new.below == (expected_trick_points(level, denomination, doubled), 0)
        else:
            assert new.below == (0, 0)


# --------------------------------------------------------------------------------------------
# Honours (R 81; W 5, 6, 9), on deals built to order


def deal_with(fixed: dict[Seat, str], voids: dict[Seat, Suit] | None = None) -> Deal:
    """A complete deal in which each seat holds the cards given and no card of its void suit."""
    voids = voids or {}
    hands: dict[Seat, set[Card]] = {s: {Card.parse(t) for t in fixed.get(s, "").split()}
                                    for s in SEATS}
    taken = set().union(*hands.values())
    rest = [c for c in sorted(taken.symmetric_difference(
        Card(su, r) for su in Suit for r in Rank))]
    rest.sort(key=lambda c: c.suit not in voids.values())
    for card in rest:
        seat = min((s for s in SEATS if len(hands[s]) < 13 and voids.get(s) is not card.suit),
                   key=lambda s: len(hands[s]))
        hands[seat].add(card)
    return Deal.of(hands)


HONOURS = "AKQJT"


def honours_deal(suit: Suit, holders: str, voids: str = "") -> Deal:
    """The deal in which ``holders[i]`` holds the i-th honour (A K Q J 10) of ``suit``."""
    fixed: dict[Seat, str] = {}
    for rank, holder in zip(HONOURS, holders, strict=True):
        seat = Seat.parse(holder)
        fixed[seat] = f"{fixed.get(seat, '')} {suit.name}{rank}"
    return deal_with(fixed, {Seat.parse(v): suit for v in voids})


def aces_deal(holders: str) -> Deal:
    """The deal in which ``holders[i]`` holds the ace of the i-th suit (spades first)."""
    fixed: dict[Seat, str] = {}
    for suit, holder in zip("SHDC", holders, strict=True):
        seat = Seat.parse(holder)
        fixed[seat] = f"{fixed.get(seat, '')} {suit}A"
    return deal_with(fixed)


@pytest.mark.parametrize(("holders", "want"), (
    ("NNNNE", (Side.NS, 100)), ("NNNNN", (Side.NS, 150)), ("EWWWW", (Side.EW, 100)),
    ("NSNSE", None), ("NNNES", None),
))
@pytest.mark.parametrize("denomination", (C, D, H, S))
def test_rubber_honours_four_or_five_in_one_hand_law_81(
        holders: str, want: tuple[Side, int] | None, denomination: Denomination) -> None:
    suit = denomination.trump
    assert suit is not None
    assert rubber_honours(honours_deal(suit, holders), denomination) == want


@pytest.mark.parametrize(("holders", "want"), (
    ("NNNN", (Side.NS, 150)), ("WWWW", (Side.EW, 150)), ("NNNS", None), ("EEWW", None),
))
def test_rubber_four_aces_in_one_hand_at_no_trumps_score_150_law_81(
        holders: str, want: tuple[Side, int] | None) -> None:
    assert rubber_honours(aces_deal(holders), NT) == want


def test_rubber_honours_need_the_whole_deal_law_76() -> None:
    deal = honours_deal(Suit.H, "NNNNN")
    partial = Deal((deal.hands[0], None, None, deal.hands[3]))
    assert rubber_honours(partial, H) is None
    assert rubber_honours(None, H) is None
    # A single unknown hand follows from the other three.
    assert rubber_honours(Deal((deal.hands[0], deal.hands[1], None, deal.hands[3])),
                          H) == (Side.NS, 150)


# W 6, columns spades, clubs, diamonds, hearts, no trumps (None: no such holding at no trumps)
W6_ROWS = {
    "3 honours": (4, 8, 12, 16, 30),
    "4 honours": (8, 16, 24, 32, 40),
    "4 in one hand": (16, 32, 48, 64, 100),
    "5 honours divided": (10, 20, 30, 40, None),  # W 6 repeats another row here: 5x the trick
    "5, 4 in one hand": (18, 36, 54, 72, None),
    "5 in one hand": (20, 40, 60, 80, None),
    "chicane": (4, 8, 12, 16, None),
}
W6_COLUMNS = (S, C, D, H, NT)
W6_HOLDINGS = {  # holders of A K Q J 10, and the side credited
    "3 honours": ("NSNEW", Side.NS),
    "4 honours": ("ENWWE", Side.EW),
    "4 in one hand": ("SSSSE", Side.NS),
    "5 honours divided": ("NSNSN", Side.NS),
    "5, 4 in one hand": ("WWEWW", Side.EW),
    "5 in one hand": ("EEEEE", Side.EW),
}


@pytest.mark.parametrize("row", tuple(W6_HOLDINGS))
@pytest.mark.parametrize("column", range(4))
def test_1905_honours_in_a_suit_follow_the_w6_table_w5_w6(row: str, column: int) -> None:
    denomination = W6_COLUMNS[column]
    suit = denomination.trump
    assert suit is not None
    holders, side = W6_HOLDINGS[row]
    assert honours_1905(honours_deal(suit, holders), denomination) == (side, W6_ROWS[row][column])


@pytest.mark.parametrize(("holders", "want"), (
    ("NSNE", (Side.NS, W6_ROWS["3 honours"][4])),
    ("EWEW", (Side.EW, W6_ROWS["4 honours"][4])),
    ("SSSS", (Side.NS, W6_ROWS["4 in one hand"][4])),
    ("NSEW", None),
))
def test_1905_aces_at_no_trumps_follow_the_w6_table_w5_w6(
        holders: str, want: tuple[Side, int] | None) -> None:
    assert honours_1905(aces_deal(holders), NT) == want


@pytest.mark.parametrize("column", range(4))
def test_1905_five_honours_divided_row_is_configurable_w6(column: int) -> None:
    denomination = W6_COLUMNS[column]
    suit = denomination.trump
    assert suit is not None
    deal = honours_deal(suit, "NSNSN")
    printed = (16, 32, 48, 64)[column]
    assert honours_1905(deal, denomination, FIVE_HONOURS_DIVIDED_PRINTED) == (Side.NS, printed)


@pytest.mark.parametrize("column", range(4))
def test_1905_chicane_is_worth_three_honours_double_chicane_four_w9(column: int) -> None:
    denomination = W6_COLUMNS[column]
    suit = denomination.trump
    assert suit is not None
    single = honours_deal(suit, "NNEEE", voids="S")
    assert chicane_value(single, denomination, Side.NS) == W6_ROWS["chicane"][column]
    assert chicane_value(single, denomination, Side.EW) == 0
    double = honours_deal(suit, "EEWWE", voids="NS")
    assert chicane_value(double, denomination, Side.NS) == W6_ROWS["4 honours"][column]
    assert chicane_value(double, NT, Side.NS) == 0


# W 4: each trick above six; W 50: each doubling doubles it again
W4_VALUES = {S: 2, C: 4, D: 6, H: 8, NT: 12}


@pytest.mark.parametrize(("denomination", "doublings"),
                         tuple(itertools.product(DENOMINATIONS, range(5))))
def test_1905_trick_score_is_odd_tricks_times_w4_value_doubled_w4_w50(
        denomination: Denomination, doublings: int) -> None:
    for tricks in range(14):
        want = max(tricks - 6, 0) * W4_VALUES[denomination] * 2 ** doublings
        assert trick_score_1905(denomination, doublings, tricks) == want


@pytest.mark.parametrize(("denomination", "doublings"),
                         tuple(itertools.product(DENOMINATIONS, range(4))))
def test_1905_the_side_taking_more_than_six_tricks_scores_them_below_w2_w4(
        denomination: Denomination, doublings: int) -> None:
    code = Bridge1905()
    for tricks in range(14):
        contract = Contract(1, denomination, doublings, Seat.S)
        new, entries = code.score_deal(code.new_sheet(), DealResult(
            contract, tricks, Vulnerability.NONE, Seat.S))
        below = [e for e in entries if e.below]
        winner, odd = (Side.NS, tricks - 6) if tricks > 6 else (Side.EW, 7 - tricks)
        points = odd * W4_VALUES[denomination] * 2 ** doublings
        assert [(e.side, e.points) for e in below] == [(winner, points)]
        slam = {13: 40, 12: 20}.get(max(tricks, 13 - tricks), 0)
        assert sum(e.points for e in entries if e.label == "slam") == slam
        assert isinstance(new, type(code.new_sheet()))
        assert new.games[winner] == (1 if points >= 30 else 0)
