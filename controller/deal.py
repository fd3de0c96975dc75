"""A deal: the four hands, in PBN deal notation (``"N:AK3.QJ2.T98.7654 ..."``).

A hand may be unknown (``-`` in PBN, or a LIN record giving three hands): a table whose
cards are shuffled and dealt at the table learns the hands as the cards appear.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from controller.cards import DECK, Card
from controller.errors import NotationError
from controller.seats import SEATS, Seat

__all__ = ["Deal", "Hand", "format_hand", "format_mask", "hand_mask", "parse_hand"]

_CARD_OF = {str(c): c for c in DECK}

Hand = frozenset[Card]


def parse_hand(text: str) -> Hand:
    """The cards of a hand written ``spades.hearts.diamonds.clubs`` (``AK3.QJ2.T98.7654``)."""
    parts = text.split(".")
    if len(parts) != 4:
        raise NotationError(f"invalid hand {text!r}: four suits separated by '.' expected")
    cards: list[Card] = []
    for letter, holding in zip("SHDC", parts, strict=True):
        for ch in holding.replace("10", "T"):
            card = _CARD_OF.get(letter + ch.upper())
            if card is None:
                raise NotationError(f"invalid hand {text!r}: invalid rank {ch!r}")
            cards.append(card)
    hand = frozenset(cards)
    if len(hand) != len(cards):
        raise NotationError(f"invalid hand {text!r}: a card is repeated")
    return hand


def hand_mask(hand: Iterable[Card]) -> int:
    """A hand as the 52-bit mask of its cards' indexes (``controller.legality``)."""
    mask = 0
    for c in hand:
        mask |= 1 << c.index
    return mask


def format_hand(hand: Iterable[Card]) -> str:
    """The PBN text of a hand, suits spades first, ranks from the ace down."""
    return format_mask(hand_mask(hand))


_HOLDINGS: dict[int, str] = {}


def _holding(bits: int) -> str:
    """The ranks of a 13-bit suit holding (bit 0 the two), from the ace down."""
    text = _HOLDINGS.get(bits)
    if text is None:
        text = _HOLDINGS[bits] = "".join("AKQJT98765432"[12 - r] for r in range(12, -1, -1)
                                         if bits >> r & 1)
    return text


def format_mask(mask: int) -> str:
    """The PBN text of a hand given as a card mask (``hand_mask``)."""
    return (f"{_holding(mask >> 39 & 0x1FFF)}.{_holding(mask >> 26 & 0x1FFF)}."
            f"{_holding(mask >> 13 & 0x1FFF)}.{_holding(mask & 0x1FFF)}")


@dataclass(frozen=True, slots=True)
class Deal:
    """The hands of the four seats, indexed by seat; None where a hand is not known."""

    hands: tuple[Hand | None, Hand | None, Hand | None, Hand | None]

    @classmethod
    def parse(cls, text: str) -> Deal:
        """The deal of PBN notation: first seat, ``:``, four hands clockwise, ``-`` for unknown."""
        text = text.strip()
        if len(text) < 2 or text[1] != ":":
            raise NotationError(f"invalid deal {text!r}: it must start with a seat and ':'")
        first = Seat.parse(text[0])
        fields = text[2:].split()
        if len(fields) != 4:
            raise NotationError(f"invalid deal {text!r}: four hands expected")
        hands: list[Hand | None] = [None] * 4
        for i, field in enumerate(fields):
            if field != "-":
                hands[first.offset(i)] = parse_hand(field)
        deal = cls((hands[0], hands[1], hands[2], hands[3]))
        deal.check()
        return deal

    @classmethod
    def of(cls, hands: Mapping[Seat, Iterable[Card]]) -> Deal:
        """The deal in which each seat named holds the cards given; other hands unknown."""
        h: list[Hand | None] = [None] * 4
        for seat, cards in hands.items():
            h[seat] = frozenset(cards)
        deal = cls((h[0], h[1], h[2], h[3]))
        deal.check()
        return deal

    def check(self) -> None:
        """Raise NotationError unless no card is in two hands and no hand holds over 13 cards."""
        seen: set[Card] = set()
        for seat, hand in zip(SEATS, self.hands, strict=True):
            if hand is None:
                continue
            if len(hand) > 13:
                raise NotationError(f"invalid deal: {seat} holds {len(hand)} cards")
            if seen & hand:
                dup = sorted(seen & hand)[0]
                raise NotationError(f"invalid deal: {dup} is in two hands")
            seen |= hand

    def hand(self, seat: Seat) -> Hand | None:
        return self.hands[seat]

    @property
    def is_complete(self) -> bool:
        """True when all four hands are known and hold 13 cards each."""
        return all(h is not None and len(h) == 13 for h in self.hands)

    def completed(self) -> Deal:
        """This deal with a single unknown hand filled in from the cards nobody else holds."""
        missing = [s for s in SEATS if self.hands[s] is None]
        if len(missing) != 1:
            return self
        known = [h for h in self.hands if h is not None]
        if any(len(h) != 13 for h in known):
            return self
        rest = frozenset(DECK).difference(*known)
        hands = list(self.hands)
        hands[missing[0]] = rest
        return Deal((hands[0], hands[1], hands[2], hands[3]))

    def holder(self, card: Card) -> Seat | None:
        """The seat whose hand holds ``card``, or None if no known hand does."""
        for seat in SEATS:
            hand = self.hands[seat]
            if hand is not None and card in hand:
                return seat
        return None

    def pbn(self, first: Seat = Seat.N) -> str:
        """The PBN text, hands from ``first`` clockwise."""
        fields = []
        for i in range(4):
            hand = self.hands[first.offset(i)]
            fields.append("-" if hand is None else format_hand(hand))
        return f"{first}:" + " ".join(fields)

    def __str__(self) -> str:
        return self.pbn()

    def __repr__(self) -> str:
        return f"Deal.parse({self.pbn()!r})"
