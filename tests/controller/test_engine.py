"""The engine (sensing + table) fed raw sensor events: what the table refuses changes nothing,
and a card the table took back is read again only when it arrives again (``controller.engine``)."""

from __future__ import annotations

from controller import actions as a
from controller.deal import Deal
from controller.engine import Engine, Outcome, session_start
from controller.sensing.deck import DeckRegistry
from controller.sensing.events import ContactChanged, RawEvent, TagGone, TagSeen
from drivers.sim import default_deck

DECK = default_deck()
DEAL = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


class _Table:
    """An engine driven by raw events, keeping every irregularity raised and every refusal."""

    def __init__(self) -> None:
        self.engine = Engine.new(DeckRegistry.from_mapping({"deck1": DECK}), deck="deck1")
        self.t = 1.0
        self.raised: list[str] = []
        self.refused: list[str] = []
        self.act(session_start({"code": "duplicate"}))
        self.act(a.BoardStart(1, None, None, DEAL))

    def _take(self, outcome: Outcome) -> Outcome:
        self.engine = outcome.engine
        for d in outcome.derived:
            if d.rejected is not None:
                self.refused.append(d.rejected)
            for id_ in d.irregularities:
                irr = outcome.engine.table.irregularity(id_)
                assert irr is not None
                self.raised.append(irr.situation)
        return outcome

    def feed(self, event: RawEvent) -> None:
        self._take(self.engine.feed(event))

    def act(self, action: a.Action) -> Outcome:
        self.t += 0.5
        action = action.__class__(**{**{f: getattr(action, f) for f in action.__slots__}, "t": self.t})
        return self._take(self.engine.act(action))

    def call(self, seat: str, slot: str) -> None:
        self.t += 0.5
        self.feed(ContactChanged(seat, slot, False, self.t))
        self.t += 2.0
        self._take(self.engine.tick(self.t))
        self.t += 0.5
        self.feed(ContactChanged(seat, slot, True, self.t))  # the bid card back in the box later
        self._take(self.engine.tick(self.t + 0.1))

    def card(self, card: str, zone: str) -> None:
        self.t += 0.5
        self.feed(TagSeen(zone, DECK[card], self.t))
        # a card out of turn waits one read cycle for the card in turn (Law 58A): the runtime
        # ticks the engine at its next deadline
        deadline = self.engine.next_deadline
        if deadline is not None and deadline < self.t + 0.5:
            self._take(self.engine.tick(deadline))

    def dropout(self, card: str, zone: str) -> None:
        """The reader loses the tag for a moment and reads it again (or a seat unit restarts)."""
        self.t += 0.5
        self.feed(TagGone(zone, DECK[card], self.t))
        self.feed(TagSeen(zone, DECK[card], self.t + 0.1))
        self.t += 0.1


def test_a_refused_ruling_changes_nothing_and_no_later_read_is_a_new_irregularity_law_24() -> None:
    """Law 24 (Duplicate Decisions; Laws of Rubber Bridge 2014): a card exposed during the auction stays
    face up on the table
    until the auction ends; it is one irregularity, however often a reader reads it again. A
    ruling the table refuses (Law 27 gives no 'cancel', docs/irregularities.md) leaves the table and the
    sensing layer exactly as they were."""
    table = _Table()
    table.call("N", "1S")
    table.card("HA", "W.play")        # W drops HA on his play zone: led during the auction
    table.call("E", "Pass")           # W's partner passes, as Law 24 requires
    table.call("S", "1H")             # insufficient
    assert table.raised == ["card_led_during_auction", "insufficient_bid"]
    before = table.engine
    outcome = table.act(a.Ruling("cancel", 2))
    assert outcome.derived[0].rejected is not None and "not offered" in outcome.derived[0].rejected
    assert outcome.engine == before
    for _ in range(3):                # the reader drops the exposed card and reads it again
        table.dropout("HA", "W.play")
    table.act(a.Ruling("correct", 2))
    table.call("S", "2H")
    table.call("W", "Pass")
    table.call("N", "Pass")
    table.call("E", "Pass")
    table.dropout("HA", "W.play")
    assert table.raised == ["card_led_during_auction", "insufficient_bid"]


def test_a_penalty_card_left_on_the_play_zone_is_not_led_again_at_each_read_law_56() -> None:
    """Law 56 (DD 56; Laws of Rubber Bridge 2014, R 56): a lead out of turn refused becomes a major penalty card
    and stays face up; a reader reading it again is not a new lead. Once lifted and put down
    again on the play zone, it is played (here as the proper lead, after declarer's option)."""
    table = _Table()
    for seat, slot in (("N", "1NT"), ("E", "Pass"), ("S", "Pass"), ("W", "Pass")):
        table.call(seat, slot)
    table.card("C7", "W.play")        # E is on lead: W leads out of turn
    assert table.raised == ["opening_lead_out_of_turn"]
    refused = table.act(a.Ruling("accept", 1))
    assert refused.derived[0].rejected is not None
    table.act(a.Ruling("leave_penalty_card", 1))
    for _ in range(3):
        table.dropout("C7", "W.play")
    assert table.raised == ["opening_lead_out_of_turn"]
    table.card("CA", "E.play")        # E leads; W must play his penalty card C7: he lifts it and puts it down
    table.t += 0.5
    table.feed(TagGone("W.play", DECK["C7"], table.t))
    table.card("C8", "S.play")
    table.t += 1.0
    table.card("C7", "W.play")
    board = table.engine.table.board
    assert board is not None and board.play is not None
    assert [str(c) for c in board.play.current.cards] == ["CA", "C8", "C7"]
    assert table.raised == ["opening_lead_out_of_turn"]


def test_a_penalty_card_moved_at_once_to_its_owners_spread_zone_and_back_is_played_law_50() -> None:
    """Law 50 (Duplicate Decisions; Laws of Rubber Bridge 2014): a penalty card is left face up in front
    of its owner and played
    at its turn. Moved from the play zone to the spread zone (gone from one reader and read on the
    other at the same moment), it is not a new exposure; moved back to the play zone, it is played."""
    table = _Table()
    for seat, slot in (("N", "1NT"), ("E", "Pass"), ("S", "Pass"), ("W", "Pass")):
        table.call(seat, slot)
    table.card("C7", "W.play")        # E is on lead: W leads out of turn
    table.act(a.Ruling("leave_penalty_card", 1))
    table.t += 0.5
    table.feed(TagGone("W.play", DECK["C7"], table.t))
    table.feed(TagSeen("W.spread", DECK["C7"], table.t))
    table.t += 3.0
    table._take(table.engine.tick(table.t))   # the spread zone settles: C7 faced
    table.card("CA", "E.play")
    table.card("C8", "S.play")
    table.t += 0.5
    table.feed(TagGone("W.spread", DECK["C7"], table.t))
    table.feed(TagSeen("W.play", DECK["C7"], table.t))
    board = table.engine.table.board
    assert board is not None and board.play is not None
    assert [str(c) for c in board.play.current.cards] == ["CA", "C8", "C7"]
    assert table.raised == ["opening_lead_out_of_turn"] and table.refused == []
