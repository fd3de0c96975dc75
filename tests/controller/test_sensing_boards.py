"""A deck per board (hardware/decks.md): a card of another board's deck seen at a table is
reported to the arbiter naming that deck, and is never played (Law 17D)."""

from __future__ import annotations

from controller import actions as a
from controller.calls import Call
from controller.deal import Deal
from controller.engine import Engine, Outcome, board_deck, session_start
from controller.seats import Seat
from controller.sensing import DeckRegistry, Notice, NoticeKind, TagSeen
from drivers.sim import default_deck

BOARD3, BOARD7 = default_deck(3), default_deck(7)
DECKS = DeckRegistry.from_mapping({"board3": BOARD3, "board7": BOARD7})
# 1NT by N: E leads; E holds the clubs AKQJ
DEAL = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


class _Table:
    def __init__(self, decks: DeckRegistry, board: int) -> None:
        self.engine = Engine.new(decks)
        self.notices: list[Notice] = []
        self.plays: list[str] = []
        self.take(self.engine.act(session_start({"code": "duplicate"})))
        self.take(self.engine.act(a.BoardStart(board, None, None, DEAL, 1.0)))
        for i, (seat, call) in enumerate(zip("NESW", ("1NT", "Pass", "Pass", "Pass"), strict=True)):
            self.take(self.engine.act(a.MakeCall(Seat.parse(seat), Call.parse(call), 2.0 + i)))

    def take(self, outcome: Outcome) -> None:
        self.engine = outcome.engine
        self.notices += outcome.notices
        self.plays += [str(d.action.card) for d in outcome.derived if isinstance(d.action, a.PlayCard)]

    def seen(self, zone: str, uid: str, t: float) -> None:
        self.take(self.engine.feed(TagSeen(zone, uid, t)))
        deadline = self.engine.next_deadline
        if deadline is not None and deadline < t + 0.5:
            self.take(self.engine.tick(deadline))


def test_a_card_of_another_boards_deck_is_reported_naming_that_board_and_not_played_law_17d() -> None:
    """Law 17D: cards from another board. Board 3 is in play; E leads its own CA, then a card of
    board 7's deck lands on S's play zone: an alert naming board7, and no play."""
    table = _Table(DECKS, 3)
    table.seen("E.play", BOARD3["CA"], 10.0)
    table.seen("S.play", BOARD7["C8"], 11.0)
    assert table.plays == ["CA"]
    (notice,) = [n for n in table.notices if n.kind is NoticeKind.FOREIGN_TAG]
    assert notice.seat is Seat.S and notice.uid == BOARD7["C8"]
    assert "board7" in notice.detail and "board3" in notice.detail and "Law 17D" in notice.detail


def test_the_board_started_sets_its_deck_so_a_stray_first_card_is_not_taken_for_it_law_17d() -> None:
    """Law 17D: with a deck enrolled per board, the board's own deck is in play from its start:
    even the very first card seen, if it is another board's, is reported, not learned as the
    deck in play (which would make every card of the right deck foreign)."""
    table = _Table(DECKS, 3)
    assert table.engine.sensing.deck == "board3"
    table.seen("E.play", BOARD7["CA"], 10.0)
    table.seen("E.play", BOARD3["CA"], 11.0)
    assert table.plays == ["CA"] and table.engine.sensing.deck == "board3"
    assert [n.uid for n in table.notices if n.kind is NoticeKind.FOREIGN_TAG] == [BOARD7["CA"]]


def test_without_a_deck_named_after_the_board_the_first_card_seen_decides() -> None:
    """Decks not named per board (one deck per table, say): the first card of an enrolled deck
    seen at a board sets the deck in play, as before."""
    decks = DeckRegistry.from_mapping({"red": BOARD3, "blue": BOARD7})
    assert board_deck(decks, 3) is None
    table = _Table(decks, 3)
    table.seen("E.play", BOARD7["CA"], 10.0)
    assert table.engine.sensing.deck == "blue" and table.plays == ["CA"]
