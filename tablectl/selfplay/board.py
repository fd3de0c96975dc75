"""A self-dealt board, bid and played by the policy, as the record the demo's players follow.

The deal of a board depends on its number and the deal seed only, so every table of a room
given the same deal seed holds the same cards on board 5 (their results compare on the
travellers); the auction and the play depend on the table's style too (``style_of`` its
own seed), so tables reach different contracts now and then, as at a club.
"""

from __future__ import annotations

import random

from controller.auction import Auction
from controller.cards import DECK
from controller.contract import Contract
from controller.legality import trick_winner_index
from controller.records.model import BoardRecord
from controller.seats import Seat, board_dealer, board_vulnerability
from tablectl.selfplay.bidding import NEUTRAL, Style, choose_call
from tablectl.selfplay.cardplay import choose_card
from tablectl.selfplay.dealer import deal_masks, mask_deal

__all__ = ["bid", "dealt_hands", "play", "self_dealt_record", "style_of"]

Hands = tuple[int, int, int, int]
_ATTEMPTS = 64


def bid(hands: Hands, dealer: Seat, style: Style = NEUTRAL) -> Auction:
    """The whole auction of ``hands`` from ``dealer``, every call the policy's."""
    auction = Auction(dealer)
    while not auction.is_complete:
        auction = auction.with_call(choose_call(hands[auction.turn], auction, style))
    return auction


def play(hands: Hands, contract: Contract) -> tuple[int, ...]:
    """The 52 cards of the play of ``contract``, in the order played (Laws 41, 44)."""
    held = list(hands)
    trump = -1 if contract.denomination.trump is None else int(contract.denomination.trump)
    declarer = int(contract.declarer)
    leader = int(contract.opening_leader)
    played, out = 0, []
    leads: list[tuple[int, int]] = []
    for _ in range(13):
        trick: list[int] = []
        for i in range(4):
            seat = (leader + i) & 3
            card = choose_card(seat, held, played, trick, trump, declarer, leads)
            held[seat] &= ~(1 << card)
            played |= 1 << card
            trick.append(card)
        out.extend(trick)
        leads.append((leader, trick[0]))
        leader = (leader + trick_winner_index(trick, trump)) & 3
    return tuple(out)


def dealt_hands(number: int, seed: int) -> Hands:
    """Board ``number``'s four hands for deal ``seed``: the first shuffle whose auction, bid
    plainly (``NEUTRAL``), is not passed out and names a bid above 1C (so that the demo can
    always commit an insufficient bid on it)."""
    dealer = board_dealer(number)
    hands = deal_masks(f"demo deal {seed}:{number}:0")
    for attempt in range(1, _ATTEMPTS + 1):
        auction = bid(hands, dealer)
        if auction.contract() is not None and any(c.rank >= 1 for c in auction.calls):
            break
        hands = deal_masks(f"demo deal {seed}:{number}:{attempt}")
    return hands


def style_of(seed: int) -> Style:
    """A table's way of bidding, drawn from its seed."""
    rng = random.Random(f"demo style {seed}")
    return Style(aggression=rng.choice((-1, 0, 0, 1, 2)), light_openings=rng.random() < 0.5)


def self_dealt_record(number: int, deal_seed: int, style_seed: int | None = None) -> BoardRecord:
    """Board ``number`` dealt from ``deal_seed``, bid and played in the style of ``style_seed``
    (default: plainly), as a record with its deal, auction and 52 cards of play."""
    hands = dealt_hands(number, deal_seed)
    dealer = board_dealer(number)
    style = NEUTRAL if style_seed is None else style_of(style_seed)
    auction = bid(hands, dealer, style)
    contract = auction.contract()
    cards = () if contract is None else play(hands, contract)
    return BoardRecord(source=f"dealt by the demo (deal seed {deal_seed})", number=number, dealer=dealer,
                       vulnerability=board_vulnerability(number), deal=mask_deal(hands), calls=auction.calls,
                       play=tuple(DECK[c] for c in cards))
