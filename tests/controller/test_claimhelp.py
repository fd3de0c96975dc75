"""Claim help: the position on a disputed claim and its double-dummy value (Laws 68-70)."""

from __future__ import annotations

import json
import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import DECK, Card, Suit
from controller.claimhelp import ClaimHelp, claim_help, dd_tricks
from controller.deal import Deal, Hand, parse_hand
from controller.play import Play, Trick
from controller.seats import SEATS, Seat, Side

Hands = tuple[Hand, Hand, Hand, Hand]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def ending(hands: str, leader: Seat, trick: str = "", trump: Suit | None = None,
           declarer: Seat = Seat.S) -> Play:
    """A position from the remaining cards (PBN hands, N first) and the trick in progress."""
    n, e, s, w = (parse_hand(h) for h in hands.split())
    played = cards(trick)
    remaining = max(len(n), len(e), len(s), len(w))
    won_ns = (13 - remaining) // 2
    return Play(trump, declarer, Trick(leader, played), (),
                (won_ns, 13 - remaining - won_ns), (n, e, s, w))


# --- a brute-force minimax, independent of the controller's play rules and of DDS ---

def _winner(leader: Seat, trick: tuple[Card, ...], trump: Suit | None) -> Seat:
    def power(card: Card) -> int:
        if card.suit is trump:
            return 200 + card.rank
        return 100 + card.rank if card.suit is trick[0].suit else 0
    best = max(range(4), key=lambda i: power(trick[i]))
    return leader.offset(best)


@cache
def _ns_tricks(hands: Hands, leader: Seat, trick: tuple[Card, ...], trump: Suit | None) -> int:
    """The remaining tricks North-South take with best play by all four, by full search."""
    seat = leader.offset(len(trick))
    hand = hands[seat]
    if not hand:
        return 0
    follow = [c for c in hand if trick and c.suit is trick[0].suit]
    scores: list[int] = []
    for card in follow or list(hand):
        after = list(hands)
        after[seat] = hand - {card}
        rest = (after[0], after[1], after[2], after[3])
        played = (*trick, card)
        if len(played) == 4:
            winner = _winner(leader, played, trump)
            scores.append((winner.side is Side.NS) + _ns_tricks(rest, winner, (), trump))
        else:
            scores.append(_ns_tricks(rest, leader, played, trump))
    return max(scores) if seat.side is Side.NS else min(scores)


def brute_force(play: Play, side: Side) -> int:
    n, e, s, w = play.hands
    assert n is not None and e is not None and s is not None and w is not None
    ns = _ns_tricks((n, e, s, w), play.current.leader, play.current.cards, play.trump)
    remaining = max(len(n), len(e), len(s), len(w))
    return ns if side is Side.NS else remaining - ns


@st.composite
def small_endings(draw: st.DrawFn) -> Play:
    """2 to 4 cards a hand from one to four suits, any trump, 0 to 3 cards of a trick played."""
    size = draw(st.integers(2, 4))
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=2 if size == 4 else 1,
                          max_size=4, unique=True))
    pool = draw(st.permutations([c for c in DECK if c.suit in suits]))
    hands = [frozenset(pool[i * size:(i + 1) * size]) for i in range(4)]
    trump = draw(st.none() | st.sampled_from(suits) | st.sampled_from(list(Suit)))
    leader = draw(st.sampled_from(SEATS))
    trick: list[Card] = []
    for i in range(draw(st.integers(0, 3))):
        seat = leader.offset(i)
        follow = sorted(c for c in hands[seat] if trick and c.suit is trick[0].suit)
        card = draw(st.sampled_from(follow or sorted(hands[seat])))
        trick.append(card)
        hands[seat] = hands[seat] - {card}
    won_ns = draw(st.integers(0, 13 - size))
    declarer = draw(st.sampled_from(SEATS))
    return Play(trump, declarer, Trick(leader, tuple(trick)), (), (won_ns, 13 - size - won_ns),
                (hands[0], hands[1], hands[2], hands[3]))


@settings(max_examples=300, deadline=None)
@given(small_endings())
def test_dd_tricks_equal_a_full_search_of_small_endings_law_70(play: Play) -> None:
    ns, ew = dd_tricks(play, Side.NS), dd_tricks(play, Side.EW)
    assert ns == brute_force(play, Side.NS)
    assert ew == brute_force(play, Side.EW)
    help_ = claim_help(play, play.turn)
    assert help_.dd_tricks == dd_tricks(play, play.turn.side)
    assert ns is not None and ew is not None and ns + ew == help_.remaining_tricks


def test_dd_tricks_count_the_trick_in_progress_law_70() -> None:
    # West has led the spade ace; North to play. The spade trick is East-West's, the
    # heart ace then North-South's: one trick each of the two remaining.
    play = ending("K.A.. 2.2.. 3.K.. .3..", Seat.W, "SA")
    assert play.turn is Seat.N
    assert dd_tricks(play, Side.NS) == 1
    assert dd_tricks(play, Side.EW) == 1
    help_ = claim_help(play, Seat.S)
    assert help_.remaining_tricks == 2
    assert help_.current_trick == ((Seat.W, Card.parse("SA")),)
    # Three cards played, West last to the trick: the spade ace takes North's king.
    play = ending(".A.. .2.. .3.. A.4..", Seat.N, "SK S3 S4")
    assert play.turn is Seat.W
    assert dd_tricks(play, Side.NS) == 1
    assert dd_tricks(ending(".A.. .2.. .3.. 2.4..", Seat.N, "SK S3 S4"), Side.NS) == 2


# A deal from endplay's documentation; its double-dummy table by DDS's CalcDDtable, the
# tricks each seat takes as declarer in C, D, H, S, NT.
FULL_DEAL = "N:974.AJ3.63.AK963 K83.K9752.7.8752 AQJ5.T864.KJ94.4 T62.Q.AQT852.QJT"
FULL_TABLE = {Seat.N: (8, 8, 8, 9, 9), Seat.E: (4, 5, 4, 4, 4),
              Seat.S: (9, 8, 9, 9, 9), Seat.W: (3, 4, 3, 3, 3)}


def test_dd_tricks_of_a_full_deal_match_its_double_dummy_table_law_70() -> None:
    from endplay.dds import calc_dd_table
    from endplay.types import Deal as EndplayDeal
    from endplay.types import Denom, Player

    table = calc_dd_table(EndplayDeal(FULL_DEAL))
    deal = Deal.parse(FULL_DEAL)
    for declarer, row in FULL_TABLE.items():
        for trump, tricks in zip((Suit.C, Suit.D, Suit.H, Suit.S, None), row, strict=True):
            denom = Denom.nt if trump is None else Denom(3 - trump)
            assert table[denom, Player(declarer)] == tricks
            play = Play.start(declarer, trump, deal)
            assert dd_tricks(play, declarer.side) == tricks
            assert dd_tricks(play, declarer.side.other) == 13 - tricks


def test_dd_tricks_after_each_card_match_ddss_play_analysis_law_70() -> None:
    from endplay.dds import analyse_play
    from endplay.types import Deal as EndplayDeal
    from endplay.types import Denom, Player

    play = Play.start(Seat.N, Suit.S, Deal.parse(FULL_DEAL))
    rng = random.Random(7)
    played: list[Card] = []
    totals = [play.won[Side.NS] + (dd_tricks(play, Side.NS) or 0)]
    for _ in range(30):  # past trick seven, through tricks in progress of every length
        card = rng.choice(play.legal_cards())
        played.append(card)
        play = play.with_card(card)
        totals.append(play.won[Side.NS] + (dd_tricks(play, Side.NS) or 0))
    analysis = analyse_play(EndplayDeal(FULL_DEAL, first=Player.east, trump=Denom.spades),
                            [str(c) for c in played])
    assert totals == list(analysis)


# A positional simple squeeze at notrump: South leads the club ace; the spade queen and the
# heart two (with the ace) are North's threats. West, discarding before North, is squeezed;
# East, discarding after North, is not. With the guards split there is no squeeze.
SQUEEZE_WEST = "Q.A2.. ..543. .3.2.A K.KQ.."
SQUEEZE_EAST = "Q.A2.. K.KQ.. .3.2.A ..543."
GUARDS_SPLIT = "Q.A2.. .KQ.5. .3.2.A K..43."


def test_simple_squeeze_against_west_takes_every_trick_law_70() -> None:
    play = ending(SQUEEZE_WEST, Seat.S)
    assert dd_tricks(play, Side.NS) == 3
    squeezing = play.with_card(Card.parse("CA"))  # the squeeze card in progress
    assert squeezing.turn is Seat.W
    assert dd_tricks(squeezing, Side.NS) == 3
    assert claim_help(squeezing, Seat.S).dd_tricks == 3


def test_simple_squeeze_fails_against_east_and_with_split_guards_law_70() -> None:
    assert dd_tricks(ending(SQUEEZE_EAST, Seat.S), Side.NS) == 2
    assert dd_tricks(ending(GUARDS_SPLIT, Seat.S), Side.NS) == 2


def test_claim_help_gives_remaining_hands_and_outstanding_trumps_law_70c() -> None:
    # Hearts are trumps; South claims. East holds the heart nine, West the heart four:
    # those are the outstanding trumps, North-South's own trumps are not.
    play = ending("A.K2.. 3.9.2. 4.AQ.. K.4.3.", Seat.S, trump=Suit.H)
    help_ = claim_help(play, Seat.S)
    assert isinstance(help_, ClaimHelp)
    assert help_.claimer is Seat.S
    assert help_.trump is Suit.H
    assert help_.outstanding_trumps == cards("H9 H4")
    assert help_.hands == (cards("SA HK H2"), cards("S3 H9 D2"), cards("S4 HA HQ"),
                           cards("SK H4 D3"))
    assert help_.remaining_tricks == 3
    assert help_.won == (5, 5)
    assert help_.current_trick == ()
    # A defender claiming: declarer's side's trumps are the outstanding ones.
    assert claim_help(play, Seat.E).outstanding_trumps == cards("HA HK HQ H2")
    # At notrump there is no trump outstanding.
    assert claim_help(ending("A.K2.. 3.9.2. 4.AQ.. K.4.3.", Seat.S), Seat.S) \
        .outstanding_trumps == ()


def test_claim_help_mid_trick_lists_the_trick_and_the_hands_that_played_law_68() -> None:
    deal = Deal.parse(FULL_DEAL)
    play = Play.start(Seat.N, Suit.S, deal)
    for text in ("D7", "D4", "DA", "D3", "HQ"):  # trick one, then West leads to trick two
        play = play.with_card(Card.parse(text))
    help_ = claim_help(play, Seat.N)
    assert help_.remaining_tricks == 12
    assert help_.won == (0, 1)
    assert help_.current_trick == ((Seat.W, Card.parse("HQ")),)
    assert [len(h or ()) for h in help_.hands] == [12, 12, 12, 11]
    assert help_.outstanding_trumps == cards("SK ST S8 S6 S3 S2")
    # West's diamond ace gave a trick away: 10 of the 12 remaining, not 9 (DDS's AnalysePlay
    # agrees, 9 9 9 10 10 10 after each card).
    assert help_.dd_tricks == 10


def test_unknown_hand_gives_no_dd_tricks_but_the_rest_law_70() -> None:
    deal = Deal.parse(FULL_DEAL)
    n, e, s, _ = deal.hands
    play = Play.start(Seat.N, Suit.S, Deal((n, e, s, None))).with_card(Card.parse("D7"))
    assert dd_tricks(play, Side.NS) is None
    help_ = claim_help(play, Seat.N)
    assert help_.dd_tricks is None
    assert help_.hands[Seat.W] is None
    assert help_.hands[Seat.N] == tuple(sorted(n or (), reverse=True))
    assert help_.remaining_tricks == 13
    assert help_.current_trick == ((Seat.E, Card.parse("D7")),)
    # West is unknown: the spades neither played nor in a known hand may be West's.
    assert help_.outstanding_trumps == cards("SK ST S8 S6 S3 S2")


def test_hands_that_make_no_position_give_no_dd_tricks_law_70() -> None:
    # North still holds the card it played to the trick in progress.
    play = ending("A.K.. 2.2.. 3.3.. 4.4..", Seat.N, "SA")
    assert dd_tricks(play, Side.NS) is None
    assert claim_help(play, Seat.N).dd_tricks is None
    # East holds the spade ace North played.
    assert dd_tricks(ending(".K.. A... .3.. .4..", Seat.N, "SA"), Side.NS) is None


def test_finished_play_leaves_no_tricks_law_68() -> None:
    play = ending("... ... ... ...", Seat.N)
    help_ = claim_help(play, Seat.N)
    assert help_.remaining_tricks == 0
    assert help_.dd_tricks == 0


def test_claim_help_as_dict_is_json_ready() -> None:
    play = ending("A.K2.. 3.9.2. 4.AQ.. K.4.3.", Seat.S, trump=Suit.H)
    play = play.with_card(Card.parse("HA"))
    d = claim_help(play, Seat.S).as_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["claimer"] == "S"
    assert d["trump"] == "H"
    assert d["won"] == {"NS": 5, "EW": 5}
    assert d["current_trick"] == [{"seat": "S", "card": "HA"}]
    assert d["hands"] == {"N": ["SA", "HK", "H2"], "E": ["S3", "H9", "D2"],
                          "S": ["S4", "HQ"], "W": ["SK", "H4", "D3"]}
    assert d["outstanding_trumps"] == ["H9", "H4"]
    assert d["remaining_tricks"] == 3
    assert d["dd_tricks"] == 3
    unknown = claim_help(Play.start(Seat.N, None), Seat.N).as_dict()
    assert unknown["hands"] == {"N": None, "E": None, "S": None, "W": None}
    assert unknown["dd_tricks"] is None and unknown["trump"] is None
