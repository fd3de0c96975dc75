"""The auction as an immutable value: whose turn, which calls are legal, when it ends (Laws 17-22)."""

from __future__ import annotations

from dataclasses import dataclass

from controller.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call, CallKind
from controller.contract import Contract
from controller.legality import bid_is_sufficient, double_is_legal, redouble_is_legal
from controller.seats import Seat

__all__ = ["Auction"]

_NO_NAMERS: tuple[Seat | None, ...] = (None,) * 10


@dataclass(frozen=True, slots=True)
class Auction:
    """The calls made so far from ``dealer``, with what the Laws need derived as they come.

    ``last_bid`` is the bid that sufficiency and doubling are judged against (Law 18: the
    previous bid, including an insufficient bid accepted under Law 27A). ``doubled`` is 0, 1
    or 2 for that bid. ``namers`` holds, per side and denomination, the first player of the
    side to name it, who becomes declarer if it is the final denomination (Law 22).
    """

    dealer: Seat
    calls: tuple[Call, ...] = ()
    last_bid: Call | None = None
    last_bidder: Seat | None = None
    doubled: int = 0
    passes: int = 0
    namers: tuple[Seat | None, ...] = _NO_NAMERS
    seats: tuple[Seat, ...] = ()
    next_seat: Seat | None = None

    @property
    def turn(self) -> Seat:
        """The seat whose turn it is to call: clockwise from the dealer (Law 17), or the LHO of
        the last caller once a call out of rotation has been accepted (Law 29A)."""
        return self.dealer if self.next_seat is None else self.next_seat

    @property
    def is_complete(self) -> bool:
        """True after four passes, or three passes in rotation after a call (Law 17E / 22)."""
        if self.last_bid is None:
            return self.passes >= 4
        return self.passes >= 3

    @property
    def is_passed_out(self) -> bool:
        return self.is_complete and self.last_bid is None

    def is_legal(self, call: Call, seat: Seat | None = None) -> bool:
        """Whether ``call`` by ``seat`` (default: the seat in turn) is legal now (Laws 18, 19)."""
        if self.is_complete:
            return False
        seat = self.turn if seat is None else seat
        if call.kind is CallKind.PASS:
            return True
        if call.kind is CallKind.BID:
            return bid_is_sufficient(call.rank, -1 if self.last_bid is None else self.last_bid.rank)
        bidder_side = -1 if self.last_bidder is None else self.last_bidder & 1
        if call.kind is CallKind.DOUBLE:
            return double_is_legal(self.doubled, bidder_side, seat & 1)
        return redouble_is_legal(self.doubled, bidder_side, seat & 1)

    def is_sufficient(self, call: Call) -> bool:
        """False only for a bid not higher than the last bid (Law 27)."""
        return not call.is_bid or bid_is_sufficient(call.rank, -1 if self.last_bid is None
                                                    else self.last_bid.rank)

    def legal_calls(self) -> tuple[Call, ...]:
        """Every call the seat in turn may make, passes and doubles first, then bids upward."""
        if self.is_complete:
            return ()
        start = 0 if self.last_bid is None else self.last_bid.rank + 1
        others = tuple(c for c in (PASS, DOUBLE, REDOUBLE) if self.is_legal(c))
        return others + ALL_BIDS[start:]

    def with_call(self, call: Call, seat: Seat | None = None) -> Auction:
        """The auction after ``seat`` (default: the seat in turn) makes ``call``, taken as made.

        A call by another seat is a call out of rotation accepted into the auction (Law 29A):
        the turn passes to that seat's LHO and the seats passed over lose their turn.
        """
        seat = self.turn if seat is None else seat
        calls = (*self.calls, call)
        seats = (*self.seats, seat)
        nxt = seat.lho
        if call.kind is CallKind.PASS:
            return Auction(self.dealer, calls, self.last_bid, self.last_bidder, self.doubled,
                           self.passes + 1, self.namers, seats, nxt)
        if call.kind is CallKind.BID:
            assert call.denomination is not None
            namers = self.namers
            key = seat.side * 5 + call.denomination
            if namers[key] is None:
                namers = (*namers[:key], seat, *namers[key + 1:])
            return Auction(self.dealer, calls, call, seat, 0, 0, namers, seats, nxt)
        doubled = 1 if call.kind is CallKind.DOUBLE else 2
        return Auction(self.dealer, calls, self.last_bid, self.last_bidder, doubled, 0,
                       self.namers, seats, nxt)

    @property
    def in_rotation(self) -> bool:
        """True when every call so far was made in turn from the dealer (no accepted call out
        of rotation), so PBN's plain rotation notation can carry the auction."""
        return all(s is self.dealer.offset(i) for i, s in enumerate(self.seats))

    def contract(self) -> Contract | None:
        """The final contract once the auction is complete; None while open or passed out."""
        if not self.is_complete or self.last_bid is None or self.last_bidder is None:
            return None
        denom = self.last_bid.denomination
        assert denom is not None
        declarer = self.namers[self.last_bidder.side * 5 + denom]
        assert declarer is not None
        return Contract(self.last_bid.level, denom, self.doubled, declarer)

    def seat_of(self, index: int) -> Seat:
        """The seat that made the call at ``index``."""
        return self.seats[index]

    def calls_of(self, seat: Seat) -> tuple[Call, ...]:
        """The calls ``seat`` has made, in order."""
        return tuple(c for c, s in zip(self.calls, self.seats, strict=True) if s is seat)

    @classmethod
    def of(cls, dealer: Seat, calls: str | list[str] | tuple[str, ...]) -> Auction:
        """The auction of calls in PBN tokens, e.g. ``Auction.of(Seat.N, "1NT Pass 3NT AP")``."""
        tokens = calls.split() if isinstance(calls, str) else list(calls)
        auction = cls(dealer)
        for token in tokens:
            if token.upper() == "AP":
                while not auction.is_complete:
                    auction = auction.with_call(PASS)
            else:
                auction = auction.with_call(Call.parse(token))
        return auction
