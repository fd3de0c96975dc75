"""Cards of different seats reported within one read cycle are ordered as the law deems them
(Law 58A), not as the seat units' unsynchronised reports happened to reach the Pi
(``controller.engine``, ``Settings.read_cycle``)."""

from __future__ import annotations

from controller import actions as a
from controller.calls import Call
from controller.deal import Deal
from controller.engine import Engine, Outcome, session_start
from controller.seats import Seat
from controller.sensing.deck import DeckRegistry
from controller.sensing.events import TagSeen
from drivers.sim import default_deck

DECK = default_deck()
# 1NT by N: E leads; E holds the clubs AKQJ, S T98, W 765, N 432
DEAL = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


class _Table:
    """An engine at the opening lead of 1NT by N, keeping the irregularities raised."""

    def __init__(self) -> None:
        self.engine = Engine.new(DeckRegistry.from_mapping({"deck1": DECK}), deck="deck1")
        self.raised: list[str] = []
        self.take(self.engine.act(session_start({"code": "duplicate"})))
        self.take(self.engine.act(a.BoardStart(1, None, None, DEAL, 1.0)))
        for i, (seat, call) in enumerate(zip("NESW", ("1NT", "Pass", "Pass", "Pass"), strict=True)):
            self.take(self.engine.act(a.MakeCall(Seat.parse(seat), Call.parse(call), 2.0 + i)))

    def take(self, outcome: Outcome) -> None:
        self.engine = outcome.engine
        for d in outcome.derived:
            for id_ in d.irregularities:
                irr = outcome.engine.table.irregularity(id_)
                assert irr is not None
                self.raised.append(irr.situation)

    def seen(self, card: str, zone: str, t: float) -> None:
        self.take(self.engine.feed(TagSeen(zone, DECK[card], t)))

    def trick(self) -> list[str]:
        board = self.engine.table.board
        assert board is not None and board.play is not None
        cards = board.play.tricks[-1].cards if board.play.tricks and not board.play.current.cards \
            else board.play.current.cards
        return [str(c) for c in cards]


def test_a_trick_reported_backwards_within_one_read_cycle_is_played_in_rotation_law_58a() -> None:
    """Law 58A: a play made together with another player's legal play is deemed made after it.
    Four seat units report the four cards of a trick within 10 ms, last seat first: the table
    takes them in rotation from the leader, and nobody played out of turn."""
    table = _Table()
    for i, (card, zone) in enumerate((("C4", "N.play"), ("C7", "W.play"), ("C8", "S.play"),
                                      ("CA", "E.play"))):
        table.seen(card, zone, 10.0 + 0.003 * i)
    assert table.raised == []
    assert table.trick() == ["CA", "C8", "C7", "C4"]
    assert table.engine.held == ()


def test_a_card_out_of_turn_alone_in_its_read_cycle_is_still_a_lead_out_of_turn_law_54() -> None:
    """Law 54: W leads while E is on lead. No card of the seat in turn comes within the read
    cycle, so the card is taken as it came once the cycle is over: an opening lead out of turn,
    reported one read cycle late, not lost."""
    table = _Table()
    table.seen("C7", "W.play", 10.0)
    assert table.raised == [] and len(table.engine.held) == 1
    deadline = table.engine.next_deadline
    assert deadline is not None
    assert deadline == 10.0 + table.engine.sensing.settings.read_cycle
    table.take(table.engine.tick(deadline))
    assert table.raised == ["opening_lead_out_of_turn"]
    assert not table.engine.held


def test_a_card_out_of_turn_is_taken_before_the_next_event_after_its_read_cycle_law_54() -> None:
    """Law 54: the held card is stepped as it came when an event arrives after its read cycle
    (even if no tick came between), and that event is then taken after it."""
    table = _Table()
    table.seen("C7", "W.play", 10.0)
    table.seen("CA", "E.play", 11.0)   # E leads a second later: W's lead out of turn came first
    assert table.raised == ["opening_lead_out_of_turn"]


def test_both_defenders_leading_in_one_read_cycle_keeps_the_proper_lead_law_58a() -> None:
    """Law 58A: both defenders lead at once, the one not on lead reported first. The proper
    leader's card is the lead; his partner's is deemed played after it (a simultaneous lead,
    for the arbiter), not an opening lead out of turn."""
    table = _Table()
    table.seen("C7", "W.play", 10.0)
    table.seen("CA", "E.play", 10.05)
    deadline = table.engine.next_deadline
    assert deadline is not None
    table.take(table.engine.tick(deadline))
    assert table.raised == ["simultaneous_leads_by_defenders"]
    assert table.trick()[0] == "CA"
