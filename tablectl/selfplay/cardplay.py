"""A simple card-play policy: what the demo's players play on the boards it deals.

A player sees his own hand, dummy once it is faced and the cards played (declarer plays
dummy's cards, seeing both hands). Following suit is a must (Law 44C) and the only one:

* on lead: declarer draws the opponents' trumps while they may hold some, then cashes his
  winners (cards no unseen card beats); a defender cashes winners, returns his partner's
  suit, else leads his longest suit. The opening lead and a new suit go from the top of a
  sequence (AK, KQ, QJ, JT), else the fourth best of four or more (never away from an ace
  against a trump contract), else the top of a short suit;
* second hand plays low; third and fourth hand win as cheaply as they can unless partner
  already wins the trick safely; a player who cannot follow ruffs as cheaply as he can
  win, else discards his lowest card of a side suit.

``choose_card`` answers a card of the player's hand that the Laws allow now, always.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.legality import SUIT_MASK, trick_winner_index

__all__ = ["choose_card", "legal_mask"]


def legal_mask(hand: int, trick: Sequence[int]) -> int:
    """The cards of ``hand`` that may be played to ``trick``: the suit led when the hand holds
    it, else any card (Law 44C/44D)."""
    if not trick:
        return hand
    follow = hand & SUIT_MASK[trick[0] // 13]
    return follow or hand


def _cards(mask: int) -> list[int]:
    """The cards of a mask, lowest index first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _highest(mask: int) -> int:
    return mask.bit_length() - 1


def _is_master(card: int, seen: int) -> bool:
    """No card outside ``seen`` (played, or in the hands the player sees) beats ``card`` in its suit."""
    suit = card // 13
    higher = SUIT_MASK[suit] & ~((2 << card) - 1)
    return higher & ~seen == 0


def choose_card(seat: int, hands: Sequence[int], played: int, trick: Sequence[int], trump: int,
                declarer: int, leads: Sequence[tuple[int, int]] = ()) -> int:
    """The card ``seat`` (0 North .. 3 West; dummy's cards are chosen by declarer) plays.

    ``hands``: what each seat still holds (masks); ``played``: every card played so far
    (the current trick's too); ``trick``: the current trick's cards from its leader;
    ``trump``: 0..3, -1 at notrump; ``leads``: (leader, card) of each finished trick."""
    dummy = declarer ^ 2
    hand = hands[seat]
    if not hand:
        raise ValueError(f"seat {seat} holds no card")
    declaring = seat & 1 == declarer & 1
    seen = played | hand
    if declaring:
        seen |= hands[declarer] | hands[dummy]
    elif played:  # dummy is faced once the opening lead is made
        seen |= hands[dummy]
    if not trick:
        card = _lead(seat, hand, hands, seen, played, trump, declarer, leads)
    else:
        card = _follow(seat, hand, trick, seen, trump)
    assert legal_mask(hand, trick) >> card & 1, "the policy chose a card the Laws do not allow"
    return card


def _lead(seat: int, hand: int, hands: Sequence[int], seen: int, played: int, trump: int,
          declarer: int, leads: Sequence[tuple[int, int]]) -> int:
    declaring = seat & 1 == declarer & 1
    side_suits = [s for s in range(4) if s != trump and hand & SUIT_MASK[s]]
    if declaring and trump >= 0:
        ours = hands[declarer] | hands[declarer ^ 2]
        theirs = SUIT_MASK[trump] & ~ours & ~played
        mine = hand & SUIT_MASK[trump]
        if theirs and mine:
            top = _highest(mine)
            return top if _is_master(top, seen) else _lowest(mine)
    if played:
        for suit in side_suits:
            top = _highest(hand & SUIT_MASK[suit])
            if _is_master(top, seen):
                return top
        if not declaring:
            partner = seat ^ 2
            for leader, card in leads:
                suit = card // 13
                holding = hand & SUIT_MASK[suit]
                if leader == partner and suit != trump and holding:
                    return _highest(holding) if holding.bit_count() <= 2 else _lowest(holding)
    suits = side_suits or [s for s in range(4) if hand & SUIT_MASK[s]]
    suit = max(suits, key=lambda s: ((hand & SUIT_MASK[s]).bit_count(), s))
    return _from_suit(hand & SUIT_MASK[suit], suit, against_trumps=trump >= 0, declaring=declaring)


def _from_suit(holding: int, suit: int, against_trumps: bool, declaring: bool) -> int:
    """The card led from ``holding``: top of a sequence, else fourth best, else top of a short suit."""
    cards = _cards(holding)[::-1]  # highest first
    ranks = [c - 13 * suit for c in cards]
    if len(cards) >= 2 and ranks[0] >= 9 and ranks[1] == ranks[0] - 1:
        return cards[0]  # AK, KQ, QJ, JT: the top of the sequence
    if declaring:
        return cards[-1]
    if against_trumps and ranks[0] == 12:
        return cards[0]  # never away from an ace against a trump contract
    if len(cards) >= 4:
        return cards[3]
    if len(cards) == 3 and ranks[0] >= 9:
        return cards[-1]  # low from an honour and two
    return cards[0]


def _follow(seat: int, hand: int, trick: Sequence[int], seen: int, trump: int) -> int:
    led = trick[0] // 13
    position = len(trick)  # 1: second hand, 2: third, 3: fourth
    leader = (seat - position) & 3
    win = trick_winner_index(trick, trump)
    best = trick[win]
    partner_wins = (leader + win) & 3 == seat ^ 2
    safe = partner_wins and (position == 3 or _is_master(best, seen | sum(1 << c for c in trick)))
    follow = hand & SUIT_MASK[led]
    if follow:
        if safe or position == 1:
            return _lowest(follow)
        beaters = [c for c in _cards(follow) if best // 13 == led and c > best]
        return beaters[0] if beaters else _lowest(follow)
    if trump >= 0 and not safe:
        trumps = hand & SUIT_MASK[trump]
        ruffs = [c for c in _cards(trumps) if best // 13 != trump or c > best]
        if ruffs:
            return ruffs[0]
    return _discard(hand, trump)


def _discard(hand: int, trump: int) -> int:
    """The lowest card of a side suit (of the longest such suit on a tie); a trump only when
    nothing else is left."""
    side = [c for c in _cards(hand) if c // 13 != trump]
    if not side:
        return _lowest(hand)
    return min(side, key=lambda c: (c % 13, -(hand & SUIT_MASK[c // 13]).bit_count()))
