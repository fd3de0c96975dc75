"""What the arbiter needs on a disputed claim: the position and its double-dummy value (Laws 68-70).

When a claim or concession is disputed (Law 68D), the arbiter has the remaining cards put
face up (Law 70B3) and rules on the claimer's statement, doubtful points going against the
claimer (Law 70A), with care about outstanding trumps (Law 70C). ``claim_help`` gathers
that position: the cards each seat still holds, the trick in progress, the tricks won, the
remaining tricks, the trumps the claimer's opponents still hold, and the number of the
remaining tricks the claimer's side takes with best play by all four hands (double dummy).

The double-dummy number is a reference for the arbiter, never the award: Law 70 rules on
the line the claimer stated, including careless or inferior play, not on perfect play.
It comes from Bo Haglund's DDS solver through the ``endplay`` package.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.cards import DECK, Card, Suit
from controller.deal import Hand, format_hand
from controller.play import Play
from controller.seats import SEATS, Seat, Side

__all__ = ["ClaimHelp", "claim_help", "dd_tricks"]


@dataclass(frozen=True, slots=True)
class ClaimHelp:
    """The position the arbiter looks at on a disputed claim (Laws 68-70).

    ``hands`` are the cards each seat (N, E, S, W) still holds, from the spades down, or
    None where a hand is unknown. ``current_trick`` is the trick in progress as (seat, card)
    from its leader; it counts among the ``remaining_tricks`` (Law 68). ``won`` are the
    tricks won so far by side (NS, EW). ``outstanding_trumps`` are the trumps the claimer's
    opponents still hold (Law 70C); where an opponent's hand is unknown, it also holds the
    unplayed trumps no known hand holds. ``dd_tricks`` is the number of the remaining tricks
    the claimer's side takes double dummy, None when a hand is unknown or the hands do not
    make a position.
    """

    claimer: Seat
    remaining_tricks: int
    won: tuple[int, int]
    hands: tuple[tuple[Card, ...] | None, ...]
    current_trick: tuple[tuple[Seat, Card], ...]
    trump: Suit | None
    outstanding_trumps: tuple[Card, ...]
    dd_tricks: int | None

    def as_dict(self) -> dict[str, object]:
        """The JSON form: cards as ``"SA"``, seats as ``"N"``, ``trump`` null at notrump."""
        return {
            "claimer": str(self.claimer),
            "remaining_tricks": self.remaining_tricks,
            "won": {"NS": self.won[Side.NS], "EW": self.won[Side.EW]},
            "hands": {str(seat): None if hand is None else [str(c) for c in hand]
                      for seat, hand in zip(SEATS, self.hands, strict=True)},
            "current_trick": [{"seat": str(seat), "card": str(card)}
                              for seat, card in self.current_trick],
            "trump": None if self.trump is None else str(self.trump),
            "outstanding_trumps": [str(c) for c in self.outstanding_trumps],
            "dd_tricks": self.dd_tricks,
        }


def claim_help(play: Play, claimer: Seat) -> ClaimHelp:
    """The position on a claim by ``claimer``'s side, with its double-dummy value (Laws 68-70)."""
    current = play.current
    return ClaimHelp(
        claimer=claimer,
        remaining_tricks=_remaining_tricks(play),
        won=play.won,
        hands=tuple(None if h is None else _high_to_low(h) for h in play.hands),
        current_trick=tuple((current.seat_of(i), c) for i, c in enumerate(current.cards)),
        trump=play.trump,
        outstanding_trumps=_outstanding_trumps(play, claimer),
        dd_tricks=dd_tricks(play, claimer.side),
    )


def dd_tricks(play: Play, side: Side) -> int | None:
    """The number of the remaining tricks ``side`` takes double dummy (Law 70 reference).

    The trick in progress counts as remaining; the seat in turn (``play.turn``) plays next
    to it. None when a hand is unknown, or when the hands and the trick in progress do not
    make a position (a card held twice, or hand sizes that the trick does not explain).
    """
    hands = _position(play)
    if hands is None:
        return None
    remaining = len(hands[play.turn])
    if remaining == 0:
        return 0
    to_move = _solve(hands, play.current.leader, play.current.cards, play.trump)
    return to_move if play.turn.side is side else remaining - to_move


def _high_to_low(hand: Hand) -> tuple[Card, ...]:
    return tuple(sorted(hand, reverse=True))  # cards order by suit, then rank


def _played_to_current(play: Play, seat: Seat) -> int:
    return 1 if play.current.card_of(seat) is not None else 0


def _remaining_tricks(play: Play) -> int:
    """Tricks not yet completed: from the cards still held where known, else from those won."""
    counts = {len(h) + _played_to_current(play, seat)
              for seat, h in zip(SEATS, play.hands, strict=True) if h is not None}
    if len(counts) == 1:
        return counts.pop()
    return 13 - sum(play.won)


def _outstanding_trumps(play: Play, claimer: Seat) -> tuple[Card, ...]:
    """Trumps the claimer's opponents hold, or may hold where a hand is unknown (Law 70C)."""
    trump = play.trump
    if trump is None:
        return ()
    opponents = (claimer.lho, claimer.rho)
    held: set[Card] = set()
    for seat in opponents:
        hand = play.hands[seat]
        if hand is not None:
            held.update(c for c in hand if c.suit is trump)
    if any(play.hands[seat] is None for seat in opponents):
        seen = set(play.played_cards())
        for hand in play.hands:
            if hand is not None:
                seen.update(hand)
        held.update(c for c in DECK if c.suit is trump and c not in seen)
    return tuple(sorted(held, reverse=True))


def _position(play: Play) -> tuple[Hand, Hand, Hand, Hand] | None:
    """The four hands if they are known and, with the trick in progress, make a position."""
    n, e, s, w = play.hands
    if n is None or e is None or s is None or w is None:
        return None
    hands = (n, e, s, w)
    remaining = len(hands[play.turn])
    if remaining > 13:
        return None
    for seat in SEATS:
        if len(hands[seat]) + _played_to_current(play, seat) != remaining:
            return None
    cards = [*n, *e, *s, *w, *play.current.cards]
    if len(set(cards)) != len(cards):
        return None
    return hands


def _solve(hands: tuple[Hand, Hand, Hand, Hand], leader: Seat, trick: tuple[Card, ...],
           trump: Suit | None) -> int:
    """The remaining tricks the side in turn takes double dummy, by DDS's SolveBoard."""
    # Imported here, not at the top: endplay's DDS binding loads ctypes.util, hence
    # subprocess and threading, and the package's __init__ also loads its dealer (numpy,
    # tqdm, matplotlib; socket through importlib.metadata). The pure core must import none
    # of these (tests/controller/test_purity.py); the first call pays about 0.5 s for it.
    from endplay.dds.solve import SolveMode, solve_board
    from endplay.types import Deal, Denom, Player

    pbn = "N:" + " ".join(format_hand(h) for h in hands)
    denom = Denom.nt if trump is None else Denom(3 - trump)  # DDS: spades 0 .. clubs 3
    deal = Deal(pbn, first=Player(leader), trump=denom)
    for card in trick:
        deal.play(str(card), from_hand=False)  # already gone from the hands
    # DDS scores each card for the side in turn, counting the trick in progress.
    return max(score for _, score in solve_board(deal, SolveMode.OptimalOne))
