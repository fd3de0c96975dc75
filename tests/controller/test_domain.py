"""Cards, calls, seats, deals and board rotation (Laws 1, 2, 17, 18)."""

from __future__ import annotations

import pytest

from controller.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call, Denomination
from controller.cards import DECK, Card, Rank, Suit
from controller.contract import Contract
from controller.deal import Deal
from controller.errors import NotationError
from controller.seats import Seat, Side, Vulnerability, board_dealer, board_vulnerability


def test_card_text_round_trips_in_pbn_form() -> None:
    for card in DECK:
        assert Card.parse(str(card)) is card
        assert eval(repr(card)) is card  # repr rebuilds the value
    assert Card.parse("h10") is Card(Suit.H, Rank.TEN) or Card.parse("h10") == Card.parse("HT")


def test_suits_rank_clubs_lowest_spades_highest_law_1() -> None:
    assert Suit.C < Suit.D < Suit.H < Suit.S
    assert Card.parse("SA") > Card.parse("HA") > Card.parse("H2")


@pytest.mark.parametrize("text", ["", "S", "X5", "S1", "SAA", "Z"])
def test_invalid_card_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match="invalid card"):
        Card.parse(text)


def test_bids_rank_by_level_then_denomination_law_18() -> None:
    assert [str(b) for b in ALL_BIDS[:6]] == ["1C", "1D", "1H", "1S", "1NT", "2C"]
    assert all(ALL_BIDS[i].rank < ALL_BIDS[i + 1].rank for i in range(34))
    assert Denomination.NT > Denomination.S > Denomination.H > Denomination.D > Denomination.C


def test_call_tokens_accept_pbn_and_lin_spellings() -> None:
    assert Call.parse("Pass") is PASS and Call.parse("p") is PASS
    assert Call.parse("X") is DOUBLE and Call.parse("d") is DOUBLE
    assert Call.parse("XX") is REDOUBLE and Call.parse("r") is REDOUBLE
    assert Call.parse("3N") is Call.parse("3NT")
    assert str(Call.parse("7nt")) == "7NT"
    with pytest.raises(NotationError):
        Call.parse("8S")


def test_seat_neighbours_and_sides() -> None:
    assert Seat.N.lho is Seat.E and Seat.N.rho is Seat.W and Seat.N.partner is Seat.S
    assert Seat.E.side is Side.EW and Seat.S.side is Side.NS


@pytest.mark.parametrize(("number", "dealer", "vul"), [
    (1, "N", "None"), (2, "E", "NS"), (3, "S", "EW"), (4, "W", "Both"),
    (5, "N", "NS"), (8, "W", "None"), (13, "N", "Both"), (16, "W", "EW"), (17, "N", "None"),
    (32, "W", "EW"),
])
def test_board_number_gives_dealer_and_vulnerability_law_2(number: int, dealer: str,
                                                           vul: str) -> None:
    assert board_dealer(number) is Seat.parse(dealer)
    assert board_vulnerability(number) is Vulnerability.parse(vul)


def test_deal_round_trips_pbn_notation_from_any_first_seat() -> None:
    text = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    deal = Deal.parse(text)
    assert deal.pbn() == text
    assert Deal.parse(deal.pbn(Seat.E)) == deal
    assert deal.holder(Card.parse("SA")) is Seat.N and deal.is_complete


def test_deal_with_a_card_in_two_hands_is_refused() -> None:
    with pytest.raises(NotationError, match="two hands"):
        Deal.parse("N:A... A... - -")


def test_three_known_hands_complete_the_fourth() -> None:
    deal = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 -")
    assert deal.completed().pbn().endswith("432.AKQJ.T98.765")


def test_contract_text_and_result() -> None:
    c = Contract.parse("4HX", Seat.S)
    assert c.text == "4HX" and c.declarer is Seat.S and c.opening_leader is Seat.W
    assert c.result(10) == "=" and c.result(8) == "-2" and c.result(11) == "+1"
