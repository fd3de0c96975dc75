"""The auction: rotation, sufficiency, doubles, end of auction, declarer (Laws 17-22)."""

from __future__ import annotations

from controller.auction import Auction
from controller.calls import DOUBLE, PASS, REDOUBLE, Call
from controller.seats import Seat


def test_four_passes_pass_the_board_out_law_22() -> None:
    a = Auction.of(Seat.E, "Pass Pass Pass Pass")
    assert a.is_complete and a.is_passed_out and a.contract() is None


def test_three_passes_after_a_bid_end_the_auction_law_17e() -> None:
    a = Auction.of(Seat.N, "Pass Pass Pass 1C Pass Pass")
    assert not a.is_complete
    a = a.with_call(PASS)
    assert a.is_complete and str(a.contract()) == "1C W"


def test_declarer_is_first_of_side_to_name_the_denomination_law_22() -> None:
    a = Auction.of(Seat.N, "1H Pass 2C Pass 2H Pass 4H AP")
    c = a.contract()
    assert c is not None and c.declarer is Seat.N and c.text == "4H"
    a = Auction.of(Seat.N, "1C Pass 1H Pass 2NT Pass 3NT AP")
    c = a.contract()
    assert c is not None and c.declarer is Seat.N


def test_bid_must_be_higher_than_the_last_bid_law_18() -> None:
    a = Auction.of(Seat.N, "1S")
    assert not a.is_legal(Call.parse("1H")) and not a.is_legal(Call.parse("1S"))
    assert a.is_legal(Call.parse("1NT")) and a.is_legal(Call.parse("2C"))
    assert not a.is_sufficient(Call.parse("1D"))


def test_double_only_of_an_opponents_undoubled_bid_law_19a() -> None:
    a = Auction.of(Seat.N, "1S")
    assert a.is_legal(DOUBLE)  # East, an opponent
    assert not a.is_legal(REDOUBLE)
    a = a.with_call(PASS)  # South, partner of the bidder
    assert not a.is_legal(DOUBLE)


def test_redouble_only_of_a_double_of_own_side_law_19b() -> None:
    a = Auction.of(Seat.N, "1S X")
    assert a.is_legal(REDOUBLE)  # South
    assert not a.is_legal(DOUBLE)
    a = a.with_call(PASS)  # West
    assert not a.is_legal(REDOUBLE)


def test_double_after_passes_of_the_same_bid_is_still_legal_law_19a() -> None:
    a = Auction.of(Seat.N, "1S Pass Pass")
    assert a.is_legal(DOUBLE)  # West doubles in the pass-out seat


def test_a_new_bid_cancels_the_double() -> None:
    a = Auction.of(Seat.N, "1S X 2H AP")
    c = a.contract()
    assert c is not None and c.doubled == 0 and c.declarer is Seat.S


def test_legal_calls_lists_pass_doubles_and_higher_bids() -> None:
    a = Auction.of(Seat.N, "6NT")
    legal = [str(c) for c in a.legal_calls()]
    assert legal[:2] == ["Pass", "X"] and legal[2:] == ["7C", "7D", "7H", "7S", "7NT"]
    assert Auction.of(Seat.N, "1C AP").legal_calls() == ()
