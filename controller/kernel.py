"""The replay's fast path: a regular board replayed on small ints, in one pure call.

Most recorded boards are regular: every call legal and in turn, every card that follows
suit when it can, and the play either complete, or ended by a claim that the record's result
can stand for, or stopped with no result stated. Such a board needs none of the table's
machinery for irregularities, so ``replay_regular`` replays it on cards as ints 0..51 and
hands as 52-bit masks, asking ``controller.legality`` (the same rules the table's ``Auction``
and ``Play`` ask) at every call and card, and scores it with the code's own ``score_deal``.
A record whose play gives a card the hand in turn does not hold is faulty itself, not
irregular: its play stops there and its stated result stands, as on the full path.

At the first thing that is not regular (an illegal call, a revoke, an unfinished or
passed-out auction, cards after the end, a claim the result cannot stand for, a record the
reader could not use, an ``R`` mark), it returns None and the board is replayed by the full
table (``controller.replay``); nothing is half done, so the full replay starts from the same
state. A differential test over the whole corpus checks that both paths report every board
identically.
"""

from __future__ import annotations

from typing import NamedTuple

from controller.calls import ALL_BIDS, Call, CallKind
from controller.codes import Code, Sheet
from controller.contract import Contract
from controller.deal import Hand
from controller.legality import (
    bid_is_sufficient,
    double_is_legal,
    fails_to_follow,
    redouble_is_legal,
    trick_winner_index,
)
from controller.records.model import BoardRecord
from controller.scoring import DealResult
from controller.seats import SEATS, Seat, Vulnerability, board_dealer

__all__ = ["RegularBoard", "replay_regular"]

_PASS, _DOUBLE, _REDOUBLE, _BID = CallKind.PASS, CallKind.DOUBLE, CallKind.REDOUBLE, CallKind.BID


class RegularBoard(NamedTuple):
    """A regular board replayed: what its report entry needs, and the sheet after it (a named
    tuple: built once per board on the hot path, where a frozen dataclass costs more)."""

    number: int
    dealer: Seat
    vulnerability: Vulnerability
    contract: Contract
    tricks: int | None
    status: str  # "played" (13 tricks), "claimed" (the record's result, agreed), "adjusted"
    # (the record's result, its play contradicting its deal) or "incomplete" (no result)
    score_ns: int | None
    sheet: Sheet
    replayed: int  # the cards of the record replayed (fewer when its play contradicts its deal)
    trick: int  # the trick in which the play stopped
    turn: Seat  # the seat in turn when it stopped
    hands: tuple[int, ...]  # the hands as dealt, North first, as card masks


def replay_regular(rec: BoardRecord, code: Code, sheet: Sheet) -> RegularBoard | None:
    """The board of ``rec`` if it is regular (module docstring), else None."""
    deal = rec.deal
    calls = rec.calls
    if (rec.error or deal is None or not calls or rec.number is None
            or any(letter == "R" for _, letter in rec.marks)):
        return None
    # the dealer as the full replay's set-up gives it (``replay.record_actions``)
    dealer = rec.dealer if rec.dealer is not None else board_dealer(rec.number)
    dealer, vul = code.deal_setup(sheet, rec.number, dealer, rec.vulnerability)
    contract = _auction(calls, dealer)
    if contract is None:
        return None
    deal = deal.completed()
    hands = _hand_masks(deal.hands)
    if hands is None:
        return None
    dealt = tuple(hands)
    won = _play([c.index for c in rec.play], hands, contract)
    if won is None:
        return None
    declarer_tricks, tricks_played, replayed, turn = won
    claim = rec.claim
    tricks: int | None
    if tricks_played < 13 and claim is None:
        # the play stops early (or at a card the deal contradicts) and no result is stated:
        # the board stays without a result, as the full table leaves an abandoned board
        return RegularBoard(rec.number, dealer, vul, contract, None, "incomplete", None, sheet,
                            replayed, tricks_played + 1, SEATS[turn], dealt)
    if replayed < len(rec.play):
        # the record's play contradicts its deal: its stated result stands, as assigned
        tricks, status = claim, "adjusted"
    elif tricks_played == 13:
        tricks, status = declarer_tricks, "played"
    else:
        if claim is None or not 0 <= claim - declarer_tricks <= 13 - tricks_played:
            return None
        tricks, status = claim, "claimed"
    assert tricks is not None
    result = DealResult(contract, tricks, vul, dealer, deal, (0, 0), rec.number)
    new_sheet, entries = code.score_deal(sheet, result)
    score = sum(e.points if e.side == 0 else -e.points for e in entries)
    return RegularBoard(rec.number, dealer, vul, contract, tricks, status, score, new_sheet,
                        replayed, tricks_played + 1, SEATS[turn], dealt)


def _auction(calls: tuple[Call, ...], dealer: Seat) -> Contract | None:
    """The contract of an auction in which every call is legal and made in turn (Laws 17-22)
    and which ends with three passes after a bid; None for anything else."""
    last_rank, doubled, bidder, passes = -1, 0, -1, 0
    namers = [-1] * 10
    seat = int(dealer)
    n = len(calls)
    for i in range(n):
        call = calls[i]
        kind = call.kind
        side = seat & 1
        if kind is _PASS:
            passes += 1
            if passes == 3 and last_rank >= 0:
                if i != n - 1:
                    return None  # calls after the end of the auction
                break
        elif kind is _BID:
            rank = call.rank
            if not bid_is_sufficient(rank, last_rank):
                return None
            key = side * 5 + rank % 5
            if namers[key] < 0:
                namers[key] = seat
            last_rank, doubled, bidder, passes = rank, 0, seat, 0
        elif kind is _DOUBLE:
            if not double_is_legal(doubled, bidder & 1 if bidder >= 0 else -1, side):
                return None
            doubled, passes = 1, 0
        else:
            if not redouble_is_legal(doubled, bidder & 1 if bidder >= 0 else -1, side):
                return None
            doubled, passes = 2, 0
        seat = (seat + 1) & 3
    else:
        return None  # the auction did not end (or was passed out)
    bid = ALL_BIDS[last_rank]
    assert bid.denomination is not None
    return Contract(bid.level, bid.denomination, doubled, SEATS[namers[(bidder & 1) * 5 + last_rank % 5]])


def _hand_masks(hands: tuple[Hand | None, ...]) -> list[int] | None:
    masks = []
    for hand in hands:
        if hand is None or len(hand) != 13:
            return None
        m = 0
        for c in hand:
            m |= 1 << c.index
        masks.append(m)
    return masks


def _play(cards: list[int], hands: list[int], contract: Contract) -> tuple[int, int, int, int] | None:
    """Declarer's tricks, the tricks completed, the number of cards replayed and the seat in
    turn after them, for a play in which every card follows suit when it can (Laws 44, 61);
    None for anything else.

    The play stops at a card the player in turn does not hold (the record contradicts its
    deal): fewer cards are replayed than the record gives."""
    denomination = int(contract.denomination)
    trump = -1 if denomination == 4 else denomination
    declarer_side = contract.declarer & 1
    leader = (contract.declarer + 1) & 3
    won = 0
    done = 0
    trick: list[int] = []
    led = 0
    for k, card in enumerate(cards):
        if done == 13:
            return None  # cards after the play ended
        seat = (leader + len(trick)) & 3
        hand = hands[seat]
        bit = 1 << card
        if not hand & bit:
            return won, done, k, seat  # not in the hand in turn: the record is faulty
        if trick:
            if fails_to_follow(hand, led, card):
                return None  # a revoke: the full table rules on it
        else:
            led = card // 13
        hands[seat] = hand ^ bit
        trick.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner_index(trick, trump)) & 3
            if leader & 1 == declarer_side:
                won += 1
            done += 1
            trick = []
    return won, done, len(cards), (leader + len(trick)) & 3
