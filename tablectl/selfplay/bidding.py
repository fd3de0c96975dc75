"""A simple natural bidding policy: what the demo's players call on the boards it deals.

Point count (4-3-2-1) and suit lengths, nothing artificial:

* opening: 1NT with 15-17 balanced, 2NT with 20-21; 1 of a five-card major (spades
  first) or of the longer minor with 12 points or more (11 with a five-card suit for a
  light-opening table); a weak two in diamonds, hearts or spades with six cards and 6-10;
* overcall: a five-card suit at the 1 level with 8 points, the 2 level with 11; 1NT with
  15-18 balanced;
* after that, each player adds what partner has shown (``_read``: points and lengths
  each call promises) to his own hand: with an eight-card fit, or a balanced partner, he
  bids the contract their points deserve (``_TARGETS``: game at 25, a slam at 33, ...),
  directly; without, he shows a new four-card suit, or bids notrump, or rebids a six-card
  suit, or passes. Over the opponents he competes up to the level of his side's trumps
  (eight trumps, the 2 level; nine, the 3 level) and doubles them with the balance of
  points and length in their suit.

Every bid names more than the last one, so the auction ends; ``choose_call`` answers only
calls the auction allows (``Auction.is_legal``, Laws 18 and 19), a pass otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.auction import Auction
from controller.calls import DOUBLE, PASS, Call, Denomination
from tablectl.selfplay.dealer import balanced, hcp, lengths

__all__ = ["NEUTRAL", "Style", "choose_call"]

NT = 4

_TARGETS: dict[str, tuple[tuple[int, int], ...]] = {
    "notrump": ((37, 7), (33, 6), (25, 3), (23, 2), (18, 1)),
    "major": ((37, 7), (33, 6), (25, 4), (22, 3), (18, 2)),
    "minor": ((37, 7), (33, 6), (28, 5), (22, 3), (18, 2)),
}
"""(combined points, level): the highest contract a partnership with those points bids."""


@dataclass(frozen=True, slots=True)
class Style:
    """How one table bids: ``aggression`` points added to the partnership's count when it
    chooses a contract (-1 cautious, +1 bold); ``light_openings``: open 11 points with a
    five-card suit. Tables of a room differ by style, so their auctions differ."""

    aggression: int = 0
    light_openings: bool = False


NEUTRAL = Style()


@dataclass(slots=True)
class _Shown:
    """What a player's calls have promised so far (local working state of ``_read``)."""

    points: int = 0
    lengths: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    balanced: bool = False
    has_bid: bool = False
    first: int = -1
    """The first suit he bid (-1: none yet)."""


def _kind(denomination: int) -> str:
    return "notrump" if denomination == NT else "major" if denomination >= 2 else "minor"


def _target(points: int, denomination: int) -> int:
    """The level a partnership with ``points`` bids to in ``denomination`` (0: none)."""
    return next((level for need, level in _TARGETS[_kind(denomination)] if points >= need), 0)


def _need(level: int, denomination: int) -> int:
    """The fewest combined points for which a partnership bids ``level`` in ``denomination``."""
    fitting = [need for need, lv in _TARGETS[_kind(denomination)] if lv >= level]
    return min(fitting) if fitting else 40


def _read(auction: Auction) -> list[_Shown]:
    """What each seat (0 North .. 3 West) has shown by its calls, read as this policy bids."""
    shown = [_Shown() for _ in range(4)]
    opened = False
    for call, seat in zip(auction.calls, auction.seats, strict=True):
        if not call.is_bid or call.denomination is None:
            continue
        me, partner = shown[seat], shown[seat ^ 2]
        level, d = call.level, int(call.denomination)
        if not opened:
            _read_opening(me, level, d)
        elif not me.has_bid and not partner.has_bid:
            _read_overcall(me, level, d)
        else:
            _read_continuation(me, partner, level, d)
        if me.first < 0 and d != NT:
            me.first = d
        me.has_bid = opened = True
    return shown


def _read_opening(me: _Shown, level: int, d: int) -> None:
    if d == NT:
        _read_notrump(me, 15 if level == 1 else 20)
    elif level == 1:
        me.points, me.lengths[d] = 12, 5 if d >= 2 else 3
    else:
        me.points, me.lengths[d] = 6, 6


def _read_overcall(me: _Shown, level: int, d: int) -> None:
    if d == NT:
        _read_notrump(me, 15)
    else:
        me.points, me.lengths[d] = (8 if level == 1 else 11), 5


def _read_notrump(me: _Shown, points: int) -> None:
    me.points, me.balanced = max(me.points, points), True
    me.lengths = [max(n, 2) for n in me.lengths]


def _read_continuation(me: _Shown, partner: _Shown, level: int, d: int) -> None:
    implied = _need(level, d) - partner.points if partner.has_bid else 0
    if d == NT:
        _read_notrump(me, max(6, implied))
    elif partner.lengths[d] > 0 and not partner.balanced:  # a raise: the fit found
        me.lengths[d] = max(me.lengths[d], 8 - partner.lengths[d])
        me.points = max(me.points, 6, implied)
    elif me.lengths[d] > 0:  # his own suit again: a longer one
        me.lengths[d] = max(me.lengths[d] + 1, 6)
        me.points = max(me.points, implied if level >= 3 else 0)
    else:  # a new suit: at the 3 level, or above his first suit at the 2 level (a reverse), extra points
        reverse = level == 2 and 0 <= me.first < d
        me.lengths[d] = max(me.lengths[d], 4)
        me.points = max(me.points, 6 if level == 1 else 10, 16 if reverse else 0, implied if level >= 3 else 0)


def _cheapest(auction: Auction, denomination: int) -> Call | None:
    """The lowest sufficient bid in ``denomination`` (None above seven)."""
    last = auction.last_bid
    level = 1 if last is None else last.level + (1 if denomination <= int(last.denomination or 0) else 0)
    return Call.bid(level, Denomination(denomination)) if level <= 7 else None


def choose_call(hand: int, auction: Auction, style: Style = NEUTRAL) -> Call:
    """The call of the seat in turn, holding ``hand`` (a card mask), in ``auction``: always
    one the auction allows now."""
    seat = auction.turn
    call = _decide(hand, seat, auction, _read(auction), style)
    return call if auction.is_legal(call, seat) else PASS


def _decide(hand: int, seat: int, auction: Auction, shown: list[_Shown], style: Style) -> Call:
    me, partner = shown[seat], shown[seat ^ 2]
    if auction.last_bid is None:
        return _open(hand, style)
    if auction.doubled and auction.last_bidder is not None and auction.last_bidder & 1 != seat & 1:
        return PASS  # our side has doubled them: defend
    if not me.has_bid and not partner.has_bid:
        return _overcall(hand, auction, shown)
    return _continue(hand, seat, auction, shown, style)


def _open(hand: int, style: Style) -> Call:
    points, lens = hcp(hand), lengths(hand)
    if balanced(hand) and 15 <= points <= 17:
        return Call.bid(1, Denomination.NT)
    if balanced(hand) and 20 <= points <= 21:
        return Call.bid(2, Denomination.NT)
    if points >= (11 if style.light_openings and max(lens) >= 5 else 12):
        if lens[3] >= 5 and lens[3] >= lens[2]:
            return Call.bid(1, Denomination.S)
        if lens[2] >= 5:
            return Call.bid(1, Denomination.H)
        return Call.bid(1, Denomination.D if lens[1] > lens[0] or lens[1] == lens[0] >= 4 else Denomination.C)
    if 6 <= points <= 10:
        for suit in (3, 2, 1):
            if lens[suit] == 6:
                return Call.bid(2, Denomination(suit))
    return PASS


def _overcall(hand: int, auction: Auction, shown: list[_Shown]) -> Call:
    points, lens = hcp(hand), lengths(hand)
    seat = auction.turn
    theirs = {s for s in range(4) if shown[seat ^ 1].lengths[s] >= 3 or shown[seat ^ 3].lengths[s] >= 3}
    for suit in sorted(range(4), key=lambda s: (lens[s], s), reverse=True):
        if lens[suit] < 5:
            break
        bid = _cheapest(auction, suit)
        if suit in theirs or bid is None:
            continue
        if (bid.level == 1 and points >= 8) or (bid.level == 2 and points >= 11):
            return bid
    last = auction.last_bid
    if balanced(hand) and 15 <= points <= 18 and last is not None and last.level == 1:
        return Call.bid(1, Denomination.NT)
    return PASS


def _continue(hand: int, seat: int, auction: Auction, shown: list[_Shown], style: Style) -> Call:
    """Our side has bid: place the contract, describe the hand, compete or pass."""
    partner = shown[seat ^ 2]
    points, lens = hcp(hand), lengths(hand)
    combined = points + partner.points + style.aggression
    fits = [s for s in range(4) if lens[s] + max(partner.lengths[s], 2 if partner.has_bid else 0) >= 8]
    trump = max(fits, key=lambda s: (s >= 2, lens[s] + partner.lengths[s], s)) if fits else None
    if trump is not None:
        if lens[trump] >= 3 and partner.lengths[trump] >= 3:  # ruffing values count once a fit is found
            combined += sum(max(0, 3 - lens[s]) for s in range(4) if s != trump)
        denomination = trump
        if trump < 2 and 25 <= combined < 28 and (partner.balanced or balanced(hand)):
            denomination = NT
    elif partner.balanced:
        denomination = NT
    else:
        described = _describe(hand, seat, auction, shown, combined)
        if described is not None:
            return described
        if combined >= 18 and min(lens) >= 2 and partner.has_bid:
            denomination = NT
        else:
            return _rebid_long_suit(hand, auction, combined)
    return _place(auction, seat, combined, denomination, trump, lens, partner)


def _place(auction: Auction, seat: int, combined: int, denomination: int, trump: int | None,
           lens: tuple[int, int, int, int], partner: _Shown) -> Call:
    last = auction.last_bid
    assert last is not None
    level = _target(combined, denomination)
    ours = auction.last_bidder is not None and auction.last_bidder & 1 == seat & 1
    if level:
        target = Call.bid(level, Denomination(denomination))
        if target.rank > last.rank:
            return target
    if ours:
        return PASS
    if trump is not None:  # the opponents outbid us: compete to the level of our trumps
        bid = _cheapest(auction, trump)
        if bid is not None and bid.level <= min(lens[trump] + partner.lengths[trump] - 6, 4):
            return bid
    theirs = last.denomination
    if (combined >= 23 and last.level >= 2 and not auction.doubled
            and (theirs == Denomination.NT or (theirs is not None and lens[int(theirs)] >= 3))):
        return DOUBLE
    return PASS


def _describe(hand: int, seat: int, auction: Auction, shown: list[_Shown], combined: int) -> Call | None:
    """A new suit of four cards or more that our side has not named, when the points allow."""
    points, lens = hcp(hand), lengths(hand)
    named = {s for s in range(4) if shown[seat].lengths[s] or shown[seat ^ 2].lengths[s]}
    for suit in sorted(range(4), key=lambda s: (lens[s], s), reverse=True):
        if lens[suit] < 4 or suit in named:
            continue
        bid = _cheapest(auction, suit)
        if bid is None:
            continue
        if ((bid.level == 1 and points >= 6)
                or (bid.level == 2 and points >= 10 and (lens[suit] >= 5 or combined >= 20))
                or (bid.level == 3 and combined >= 25 and lens[suit] >= 5)):
            return bid
    return None


def _rebid_long_suit(hand: int, auction: Auction, combined: int) -> Call:
    lens = lengths(hand)
    suit = max(range(4), key=lambda s: (lens[s], s))
    bid = _cheapest(auction, suit)
    if lens[suit] >= 6 and bid is not None and (bid.level <= 2 or (bid.level == 3 and combined >= 22)):
        ours = auction.last_bidder is not None and auction.last_bidder & 1 == auction.turn & 1
        if not (ours and auction.last_bid is not None and auction.last_bid.denomination == Denomination(suit)):
            return bid
    return PASS
