"""The play: turn, following suit, trick winners, tricks won (Laws 41, 44, 61)."""

from __future__ import annotations

from controller.cards import Card, Suit
from controller.deal import Deal
from controller.play import Play, chronological, trick_winner
from controller.seats import Seat

DEAL = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def test_highest_card_of_suit_led_wins_without_trumps_law_44() -> None:
    assert trick_winner(Seat.W, cards("S2 SA S3 SK"), None) is Seat.N
    assert trick_winner(Seat.W, cards("S2 HA S3 DK"), None) is Seat.E
    assert trick_winner(Seat.W, cards("S9 HA S3 DK"), None) is Seat.W


def test_highest_trump_wins_law_44() -> None:
    assert trick_winner(Seat.N, cards("SA H2 S3 H3"), Suit.H) is Seat.W
    assert trick_winner(Seat.N, cards("SA H2 S3 D3"), Suit.H) is Seat.E


def test_opening_leader_is_declarers_lho_law_41() -> None:
    play = Play.start(Seat.S, Suit.H, DEAL)
    assert play.turn is Seat.W


def test_must_follow_suit_when_able_law_44() -> None:
    play = Play.start(Seat.S, None, DEAL).with_card(Card.parse("HA"))  # W leads
    assert play.turn is Seat.N
    assert {str(c) for c in play.legal_cards()} == {"HT", "H9", "H8"}
    assert play.is_revoke(Seat.N, Card.parse("SA")) is True
    assert play.is_revoke(Seat.N, Card.parse("H8")) is False


def test_trick_winner_leads_next_and_tricks_are_counted() -> None:
    play = Play.start(Seat.S, None, DEAL)
    for c in cards("HA HT H5 H4"):
        play = play.with_card(c)
    assert play.current.leader is Seat.W and play.won == (0, 1) and play.trick_number == 2


def test_revoke_unknown_without_the_hands() -> None:
    play = Play.start(Seat.S, None).with_card(Card.parse("HA"))
    assert play.is_revoke(Seat.N, Card.parse("SA")) is None


def test_pbn_play_rows_are_put_in_played_order_by_trick_winners() -> None:
    # columns from the opening leader W: W N E S; trick 2 is led by N (winner of trick 1)
    rows = [cards("H4 HA H2 H3"), cards("C2 S2 SA S3")]
    order = chronological(Seat.W, rows, None)
    assert [str(c) for c in order] == ["H4", "HA", "H2", "H3", "S2", "SA", "S3", "C2"]


def test_pbn_play_stops_at_the_first_unplayed_card() -> None:
    rows = [[Card.parse("H4"), Card.parse("HA"), None, None]]
    assert [str(c) for c in chronological(Seat.W, rows, None)] == ["H4", "HA"]
