"""The play as an immutable value: turn, follow suit, trick winners, tricks won (Laws 41-66)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.cards import Card, Suit
from controller.deal import Deal, Hand, hand_mask
from controller.legality import fails_to_follow, trick_winner_index
from controller.seats import Seat, Side

__all__ = ["Play", "Trick", "chronological", "trick_winner"]


def trick_winner(leader: Seat, cards: Sequence[Card], trump: Suit | None) -> Seat:
    """The seat winning a trick: the highest trump, else the highest card of the suit led (Law 44)."""
    return leader.offset(trick_winner_index([c.index for c in cards], -1 if trump is None else trump))


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick: its leader and the cards in the order they were played from the leader."""

    leader: Seat
    cards: tuple[Card, ...] = ()
    winner: Seat | None = None

    @property
    def is_complete(self) -> bool:
        return len(self.cards) == 4

    @property
    def suit_led(self) -> Suit | None:
        return self.cards[0].suit if self.cards else None

    def card_of(self, seat: Seat) -> Card | None:
        """The card ``seat`` contributed to this trick, if any."""
        i = (seat - self.leader) & 3
        return self.cards[i] if i < len(self.cards) else None

    def seat_of(self, index: int) -> Seat:
        return self.leader.offset(index)


@dataclass(frozen=True, slots=True)
class Play:
    """The play period: the tricks so far, the trick in progress, and the cards still held.

    ``hands`` are the cards each seat still holds where known (None where the hands were
    dealt at the table and not yet seen). ``won`` counts tricks by side (NS, EW).
    """

    trump: Suit | None
    declarer: Seat
    current: Trick
    tricks: tuple[Trick, ...] = ()
    won: tuple[int, int] = (0, 0)
    hands: tuple[Hand | None, Hand | None, Hand | None, Hand | None] = (None, None, None, None)

    @classmethod
    def start(cls, declarer: Seat, trump: Suit | None, deal: Deal | None = None,
              leader: Seat | None = None) -> Play:
        """The play before the opening lead; declarer's LHO leads unless ``leader`` says (Law 41)."""
        hands = deal.hands if deal is not None else (None, None, None, None)
        first = declarer.lho if leader is None else leader
        return cls(trump, declarer, Trick(first), (), (0, 0), hands)

    @property
    def dummy(self) -> Seat:
        return self.declarer.partner

    @property
    def turn(self) -> Seat:
        """The seat due to play next (the leader, then clockwise; Law 44)."""
        return self.current.leader.offset(len(self.current.cards))

    @property
    def trick_number(self) -> int:
        """The number (1..13) of the trick in progress or about to start."""
        return len(self.tricks) + 1

    @property
    def is_complete(self) -> bool:
        return len(self.tricks) == 13

    @property
    def declarer_tricks(self) -> int:
        return self.won[self.declarer.side]

    def tricks_of(self, side: Side) -> int:
        return self.won[side]

    def holds(self, seat: Seat, card: Card) -> bool | None:
        """Whether ``seat`` still holds ``card``; None when its hand is unknown."""
        hand = self.hands[seat]
        return None if hand is None else card in hand

    def legal_cards(self, seat: Seat | None = None) -> tuple[Card, ...]:
        """Cards ``seat`` (default: in turn) may play: the suit led if it has one (Law 44)."""
        seat = self.turn if seat is None else seat
        hand = self.hands[seat]
        if hand is None:
            return ()
        led = self.current.suit_led
        if led is not None and seat is self.turn:
            follow = tuple(sorted(c for c in hand if c.suit is led))
            if follow:
                return follow
        return tuple(sorted(hand))

    def is_revoke(self, seat: Seat, card: Card) -> bool | None:
        """Whether ``card`` by ``seat`` fails to follow suit while able to (Law 61); None if unknown."""
        led = self.current.suit_led
        if led is None or card.suit is led:
            return False
        hand = self.hands[seat]
        if hand is None:
            return None
        return fails_to_follow(hand_mask(hand), led, card.index)

    def with_card(self, card: Card) -> Play:
        """The play after the seat in turn plays ``card`` (taken as played, legal or not)."""
        current = self.current
        leader = current.leader
        cards = (*current.cards, card)
        seat = leader.offset(len(cards) - 1)  # the seat in turn, as ``turn`` computes it
        hands = self.hands
        hand = hands[seat]
        if hand is not None and card in hand:
            h = list(hands)
            h[seat] = hand - {card}
            hands = (h[0], h[1], h[2], h[3])
        if len(cards) < 4:
            return Play(self.trump, self.declarer, Trick(leader, cards), self.tricks, self.won, hands)
        winner = trick_winner(leader, cards, self.trump)
        won = (self.won[0] + 1, self.won[1]) if winner.side is Side.NS else (self.won[0], self.won[1] + 1)
        tricks = (*self.tricks, Trick(leader, cards, winner))
        return Play(self.trump, self.declarer, Trick(winner), tricks, won, hands)

    def played_cards(self) -> tuple[Card, ...]:
        """Every card played so far, in the order played."""
        out: list[Card] = []
        for t in self.tricks:
            out.extend(t.cards)
        out.extend(self.current.cards)
        return tuple(out)


def chronological(first_leader: Seat, rows: Sequence[Sequence[Card | None]],
                  trump: Suit | None, columns: Sequence[Seat] | None = None) -> tuple[Card, ...]:
    """The cards in played order from a PBN play section (one row per trick, one column per seat).

    ``columns`` are the seats of the columns (PBN: from the opening leader clockwise). Each
    trick is read from its leader, who won the previous trick. A missing card (``None``, PBN
    ``-``) ends the play: what follows was not played (a claim).
    """
    # the column of each seat (0..3), -1 for a seat with no column
    column = [-1, -1, -1, -1]
    for i, seat in enumerate(columns if columns is not None else
                             [first_leader.offset(i) for i in range(4)]):
        column[seat] = i
    trump_suit = -1 if trump is None else int(trump)
    out: list[Card] = []
    leader = int(first_leader)
    for row in rows:
        trick: list[Card] = []
        for i in range(4):
            col = column[(leader + i) & 3]
            card = row[col] if 0 <= col < len(row) else None
            if card is None:
                out.extend(trick)
                return tuple(out)
            trick.append(card)
        out.extend(trick)
        leader = (leader + trick_winner_index([c.index for c in trick], trump_suit)) & 3
    return tuple(out)
