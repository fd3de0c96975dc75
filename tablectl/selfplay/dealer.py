"""The seeded dealer and what a player counts in a hand, on 52-bit hand masks.

A hand is a mask of card indexes (``Card.index``: clubs two is 0, spades ace 51); suit
``s`` (0 clubs .. 3 spades) is bits ``13*s`` to ``13*s+12``, the two lowest.
"""

from __future__ import annotations

import random

from controller.cards import DECK, Card
from controller.deal import Deal
from controller.legality import SUIT_MASK

__all__ = ["balanced", "deal_masks", "hcp", "holding", "lengths", "mask_deal"]

ALL_CARDS = (1 << 52) - 1
_POINTS = ((12, 4), (11, 3), (10, 2), (9, 1))
"""High-card points: ace 4, king 3, queen 2, jack 1 (rank bit 12 is the ace)."""


def deal_masks(seed: str) -> tuple[int, int, int, int]:
    """Four hands of 13 cards, North first, shuffled by ``seed`` (the same seed, the same deal)."""
    cards = list(range(52))
    random.Random(seed).shuffle(cards)
    hands = [0, 0, 0, 0]
    for i, card in enumerate(cards):
        hands[i // 13] |= 1 << card
    return hands[0], hands[1], hands[2], hands[3]


def mask_deal(hands: tuple[int, int, int, int]) -> Deal:
    """The ``Deal`` of four hand masks (North first)."""
    def cards(mask: int) -> frozenset[Card]:
        return frozenset(DECK[i] for i in range(52) if mask >> i & 1)

    deal = Deal((cards(hands[0]), cards(hands[1]), cards(hands[2]), cards(hands[3])))
    deal.check()
    return deal


def holding(hand: int, suit: int) -> int:
    """The 13-bit holding of ``suit`` in ``hand`` (bit 0 the two, bit 12 the ace)."""
    return hand >> (13 * suit) & 0x1FFF


def hcp(hand: int) -> int:
    """The hand's high-card points (4-3-2-1)."""
    total = 0
    for suit in range(4):
        bits = holding(hand, suit)
        for rank, points in _POINTS:
            if bits >> rank & 1:
                total += points
    return total


def lengths(hand: int) -> tuple[int, int, int, int]:
    """The number of cards in each suit, clubs first."""
    c, d, h, s = ((hand & SUIT_MASK[suit]).bit_count() for suit in range(4))
    return c, d, h, s


def balanced(hand: int) -> bool:
    """4-3-3-3, 4-4-3-2 or 5-3-3-2: no void, no singleton, at most one doubleton."""
    shape = sorted(lengths(hand))
    return shape[0] >= 2 and shape[1] >= 3 and shape[3] <= 5
