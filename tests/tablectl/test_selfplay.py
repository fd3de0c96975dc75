"""The demo's own boards (``tablectl.selfplay``): the seeded dealer, the bidding and card-play
policy, and the record the demo's players follow, checked over many seeded boards against the
table's own rules (``controller``: ``Auction``, ``controller.legality``, the replay)."""

from __future__ import annotations

from functools import cache

import pytest

from controller.auction import Auction
from controller.cards import DECK
from controller.deal import hand_mask
from controller.legality import fails_to_follow, trick_winner_index
from controller.records.model import BoardRecord
from controller.replay import replay_records
from controller.seats import SEATS, Seat, board_dealer, board_vulnerability
from tablectl.demo import board_tag, deal_boards
from tablectl.selfplay import bidding
from tablectl.selfplay.bidding import NEUTRAL, Style, choose_call
from tablectl.selfplay.board import bid, dealt_hands, play, self_dealt_record, style_of
from tablectl.selfplay.cardplay import choose_card
from tablectl.selfplay.dealer import deal_masks, hcp, mask_deal

SEEDS = range(1, 11)
NUMBERS = range(1, 41)
STYLES = (NEUTRAL, Style(-1, False), Style(1, True), Style(2, True))


@cache
def _records(styled: bool) -> tuple[BoardRecord, ...]:
    """400 boards: deal seeds 1-10, boards 1-40, bid plainly or each in a table's style."""
    return tuple(self_dealt_record(n, seed, seed * 100 + n if styled else None) for seed in SEEDS for n in NUMBERS)


def _points(rec: BoardRecord, seat: Seat) -> int:
    assert rec.deal is not None
    hand = rec.deal.hand(seat)
    assert hand is not None
    return hcp(hand_mask(hand))


def test_the_same_seed_deals_the_same_cards_and_another_seed_others() -> None:
    assert deal_masks("demo deal 1:1:0") == deal_masks("demo deal 1:1:0")
    assert deal_masks("demo deal 1:1:0") != deal_masks("demo deal 2:1:0")
    assert self_dealt_record(5, 3, 8) == self_dealt_record(5, 3, 8)


def test_every_deal_gives_each_seat_13_cards_and_every_card_once_law_6() -> None:
    for seed in range(200):
        hands = deal_masks(f"seed {seed}")
        assert [h.bit_count() for h in hands] == [13, 13, 13, 13]
        assert hands[0] | hands[1] | hands[2] | hands[3] == (1 << 52) - 1
        assert mask_deal(hands).is_complete


def test_a_board_keeps_its_cards_whatever_the_tables_style_so_travellers_compare() -> None:
    for n in range(1, 13):
        deals = {self_dealt_record(n, 1, seed).deal for seed in range(1, 9)}
        assert len(deals) == 1


def test_tables_of_different_styles_reach_different_contracts_now_and_then() -> None:
    differing = 0
    for n in range(1, 13):
        contracts = {bid(dealt_hands(n, 1), board_dealer(n), style_of(seed)).contract() for seed in range(1, 9)}
        differing += len(contracts) > 1
    assert differing >= 2


def test_a_self_dealt_board_has_the_dealer_and_vulnerability_of_its_number_law_2() -> None:
    for n in NUMBERS:
        rec = self_dealt_record(n, 7)
        assert (rec.number, rec.dealer, rec.vulnerability) == (n, board_dealer(n), board_vulnerability(n))
        assert rec.deal is not None and rec.deal.is_complete


def test_every_call_the_policy_proposes_is_legal_in_turn_and_every_auction_ends_laws_18_19() -> None:
    for seed in SEEDS:
        for n in NUMBERS:
            hands = deal_masks(f"any {seed}:{n}")
            for style in STYLES:
                auction = Auction(board_dealer(n))
                for _ in range(4 + 35 * 4):  # every bid outranks the last: 35 bids and their passes at most
                    if auction.is_complete:
                        break
                    seat = auction.turn
                    proposed = bidding._decide(hands[seat], seat, auction, bidding._read(auction), style)
                    assert auction.is_legal(proposed, seat), (str(proposed), [str(c) for c in auction.calls])
                    assert choose_call(hands[seat], auction, style) == proposed
                    auction = auction.with_call(proposed)
                assert auction.is_complete


def test_nobody_passes_out_a_deal_where_a_hand_holds_an_opening_bid() -> None:
    for seed in SEEDS:
        for n in NUMBERS:
            hands = deal_masks(f"any {seed}:{n}")
            if max(hcp(h) for h in hands) >= 12:
                for style in STYLES:
                    assert bid(hands, board_dealer(n), style).contract() is not None


def test_every_dealt_board_has_a_bid_above_1c_so_the_demo_can_commit_an_insufficient_bid_law_27() -> None:
    for n in NUMBERS:
        auction = bid(dealt_hands(n, 1), board_dealer(n))
        assert auction.contract() is not None and any(c.rank >= 1 for c in auction.calls)


@pytest.mark.parametrize("styled", [False, True], ids=["plain", "styled"])
def test_contracts_follow_the_points_of_the_declaring_side(styled: bool) -> None:
    """Over 400 boards: the declaring side mostly holds the balance of points, a game mostly 22
    or more, a side with 26 or more mostly bids game, a side with 19 or less stays low."""
    bound = 0.05 if styled else 0.0  # a bold or cautious table strays a little more
    played = games = games_ok = strong = strong_game = weak = weak_low = balance = 0
    for rec in _records(styled):
        assert rec.calls is not None and rec.dealer is not None
        contract = Auction.of(rec.dealer, [str(c) for c in rec.calls]).contract()
        assert contract is not None
        played += 1
        side = _points(rec, contract.declarer) + _points(rec, contract.declarer.partner)
        level, denomination = contract.level, int(contract.denomination)
        game = level >= 5 or (level >= 4 and denomination in (2, 3)) or (level >= 3 and denomination == 4)
        balance += side >= 20
        games += game
        games_ok += game and side >= 22
        strong += side >= 26
        strong_game += side >= 26 and game
        weak += side <= 19
        weak_low += side <= 19 and level <= 3
    assert balance / played >= 0.7 - bound
    assert games_ok / games >= 0.85 - bound
    assert strong_game / strong >= 0.75 - bound
    assert weak_low / weak >= 0.9 - bound


def test_every_card_follows_suit_when_it_can_and_the_play_makes_13_tricks_law_44() -> None:
    for rec in _records(True)[::4]:
        assert rec.deal is not None and rec.calls is not None and rec.dealer is not None
        held = [hand_mask(rec.deal.hand(s) or ()) for s in SEATS]
        contract = Auction.of(rec.dealer, [str(c) for c in rec.calls]).contract()
        assert contract is not None and len(rec.play) == 52
        trump = -1 if contract.denomination.trump is None else int(contract.denomination.trump)
        leader, tricks = int(contract.opening_leader), 0
        cards = [c.index for c in rec.play]
        for t in range(13):
            trick = cards[4 * t:4 * t + 4]
            for i, card in enumerate(trick):
                seat = (leader + i) & 3
                assert held[seat] >> card & 1, f"{DECK[card]} is not in {Seat(seat)}'s hand"
                assert not (i and fails_to_follow(held[seat], trick[0] // 13, card)), f"a revoke: {DECK[card]}"
                held[seat] &= ~(1 << card)
            leader = (leader + trick_winner_index(trick, trump)) & 3
            tricks += 1
        assert tricks == 13 and held == [0, 0, 0, 0]


def test_a_player_who_cannot_follow_ruffs_to_win_and_one_who_can_follows_law_44() -> None:
    ace_of_spades, two_of_hearts = 51, 26
    east = (1 << 27) | (1 << 13)  # the three of hearts and the two of diamonds: void in spades
    hands = [0, east, 0, 0]
    card = choose_card(1, hands, 1 << ace_of_spades, [ace_of_spades], trump=2, declarer=1)
    assert card == 27  # ruffs the ace with the three of hearts
    south = (1 << 40) | (1 << two_of_hearts)  # the three of spades and the two of hearts
    assert choose_card(2, [0, 0, south, 0], 1 << 50, [50], trump=-1, declarer=3) == 40  # follows to the king


def test_the_replay_of_a_self_dealt_board_is_played_cleanly_and_scores() -> None:
    records = _records(True)[:40]
    report = replay_records(list(records)).report
    for entry in report["boards"]:
        assert "error" not in entry and entry["irregularities"] == [] and entry["status"] == "played"
        assert isinstance(entry["score_ns"], int) and 0 <= entry["tricks"] <= 13


def test_the_demo_deals_the_boards_a_table_is_given_in_their_order_with_their_tags() -> None:
    boards = deal_boards([3, 4, 1, 2], 5, 6)
    assert [b.number for b in boards] == [3, 4, 1, 2]
    for b in boards:
        assert b.tag == board_tag(b.number)
        assert (b.start.number, b.start.dealer, b.start.deal) == (b.number, b.record.dealer, b.record.deal)
        assert b.record == self_dealt_record(b.number, 5, 6)


def test_the_play_of_a_contract_is_52_cards_all_different() -> None:
    hands = dealt_hands(1, 1)
    contract = bid(hands, board_dealer(1)).contract()
    assert contract is not None
    cards = play(hands, contract)
    assert len(cards) == 52 and set(cards) == set(range(52))
