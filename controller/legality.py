"""The Laws' tests of a call and a card, on small ints: the one copy of these rules.

The table's values (``Auction``, ``Play``) and the replay's fast path (``controller.kernel``)
both ask these functions, so a regular board is judged by the same rules whichever path
replays it. Encodings, chosen to be cheap where the work is hot:

- a seat is 0..3 clockwise from North; its side is ``seat & 1`` (0 North-South, 1 East-West);
- a card is 0..51, clubs two first and spades ace last (``Card.index``): suit ``card // 13``,
  rank ``card % 13`` (0 for the two, 12 for the ace); a hand is a 52-bit mask of its cards;
- a bid's rank is 0 (1C) .. 34 (7NT) in the order of Law 18; a trump suit is 0..3 (clubs to
  spades), or -1 for notrump.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "SUIT_MASK", "bid_is_sufficient", "double_is_legal", "fails_to_follow", "redouble_is_legal",
    "trick_winner_index",
]

SUIT_MASK: tuple[int, int, int, int] = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)
"""The cards of each suit (clubs to spades) as a hand mask."""


def bid_is_sufficient(rank: int, last_rank: int) -> bool:
    """A bid must name more tricks, or the same number in a higher denomination, than the
    last bid (Law 18A/18D); ``last_rank`` is -1 before any bid."""
    return rank > last_rank


def double_is_legal(doubled: int, bidder_side: int, caller_side: int) -> bool:
    """A double is legal only of the last bid, made by an opponent, not yet doubled or
    redoubled (Law 19A1); ``bidder_side`` is -1 before any bid."""
    return doubled == 0 and bidder_side >= 0 and bidder_side != caller_side


def redouble_is_legal(doubled: int, bidder_side: int, caller_side: int) -> bool:
    """A redouble is legal only of the last bid, made by the caller's side and doubled by an
    opponent, not yet redoubled (Law 19B1)."""
    return doubled == 1 and bidder_side == caller_side


def fails_to_follow(hand: int, led_suit: int, card: int) -> bool:
    """True when ``card`` is not of the suit led while the hand it came from (``hand``, before
    the card left it) still held one: a revoke if it stands (Laws 44C, 61A)."""
    return card // 13 != led_suit and hand & SUIT_MASK[led_suit] != 0


def trick_winner_index(cards: Sequence[int], trump: int) -> int:
    """The index (0 = the lead) of the card that wins a trick: the highest trump if any was
    played, else the highest card of the suit led; a discard never wins (Law 44D/44E)."""
    best = 0
    best_card = cards[0]
    best_suit = best_card // 13
    for i in range(1, len(cards)):
        c = cards[i]
        suit = c // 13
        if suit == best_suit:
            if c > best_card:
                best, best_card = i, c
        elif suit == trump:
            best, best_card, best_suit = i, c, suit
    return best
