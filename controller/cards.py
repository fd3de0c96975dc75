"""Suits, ranks and cards, in the PBN text form (``"SA"``, ``"H7"``, ``"CT"``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from controller.errors import NotationError

__all__ = ["DECK", "RANKS", "SUITS", "Card", "Rank", "Suit"]


class Suit(IntEnum):
    """A suit, ordered by bridge rank: clubs < diamonds < hearts < spades (Law 1)."""

    C = 0
    D = 1
    H = 2
    S = 3

    @classmethod
    def parse(cls, text: str) -> Suit:
        """The suit of a letter ``S H D C`` (either case)."""
        try:
            return _SUIT_BY_LETTER[text.upper()]
        except KeyError:
            raise NotationError(f"invalid suit {text!r}") from None

    def __str__(self) -> str:
        return self.name

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self.value]


class Rank(IntEnum):
    """A rank, two lowest and ace highest (Law 1)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @classmethod
    def parse(cls, text: str) -> Rank:
        """The rank of a PBN rank character ``AKQJT98765432`` (``10`` is accepted for ten)."""
        try:
            return _RANK_BY_CHAR[text.upper()]
        except KeyError:
            raise NotationError(f"invalid rank {text!r}") from None

    def __str__(self) -> str:
        return _RANK_CHARS[self.value]

    @property
    def is_honour(self) -> bool:
        """Ace, king, queen, jack and ten are the honours (Law 81, honours)."""
        return self >= Rank.TEN


_RANK_CHARS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
               10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_BY_CHAR = {c: Rank(v) for v, c in _RANK_CHARS.items()} | {"10": Rank.TEN}
_SUIT_BY_LETTER = {s.name: s for s in Suit}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card; ``Card.parse("SA")``, ``str(card) == "SA"``; ordered by suit then rank."""

    suit: Suit
    rank: Rank
    index: int = field(init=False, compare=False)
    """A number 0..51, clubs two first, spades ace last (the card as ``controller.legality``
    counts it; kept in the card, since the hot paths ask it for every card played)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", self.suit * 13 + self.rank - 2)

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card of a suit letter followed by a rank (``"SA"``, ``"h7"``, ``"D10"``)."""
        card = _CARD_BY_TEXT.get(text)
        if card is None:
            card = _CARD_BY_TEXT.get(text.upper().replace("10", "T"))
            if card is None:
                raise NotationError(f"invalid card {text!r}")
        return card

    def __hash__(self) -> int:
        return self.suit * 13 + self.rank

    def __str__(self) -> str:
        return _CARD_TEXT[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"



SUITS: tuple[Suit, ...] = (Suit.S, Suit.H, Suit.D, Suit.C)
"""Suits in the order PBN writes a hand: spades, hearts, diamonds, clubs."""

RANKS: tuple[Rank, ...] = tuple(sorted(Rank, reverse=True))
"""Ranks from the ace down, the order in which a hand is written."""

DECK: tuple[Card, ...] = tuple(Card(s, r) for s in Suit for r in Rank)
"""The 52 cards, clubs two first (so ``DECK[card.index] is card``)."""

_CARD_TEXT: tuple[str, ...] = tuple(s.name + _RANK_CHARS[r.value] for s in Suit for r in Rank)
_CARD_BY_TEXT: dict[str, Card] = {str(c): c for c in DECK}
