"""The sensing layer over a spread zone read pad by pad, with the chosen hardware's cycle and
misses (hardware/spread-zone.md, ``drivers.spread``): cards seen late or missed for a cycle
are never a false pick-up, a second faced hand or any other table action."""

from __future__ import annotations

from controller.actions import FaceCards, PlayCard
from controller.cards import Card
from controller.deal import Deal
from controller.seats import Seat
from controller.sensing import DeckRegistry, Output, RawEvent, Sensing
from drivers.sim import SimTable, default_deck
from drivers.spread import PadArray

DECK = default_deck()
_HAND = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765").hands[Seat.N]
assert _HAND is not None
DUMMY: frozenset[Card] = _HAND


class _Run:
    """A simulated table whose spread zones are read pad by pad, feeding a sensing layer; table
    time moves in 50 ms steps, and the sensing layer is ticked at each, as the runtime does."""

    def __init__(self, pads: PadArray, seed: int) -> None:
        self.t = 0.0
        self.table = SimTable(DECK, lambda: self.t, spread=pads, seed=seed, report_state_on_start=False)
        self.sensing = Sensing.start(DeckRegistry.from_mapping({"deck1": DECK}), deck="deck1")
        self.outputs: list[Output] = []
        self.raw: list[RawEvent] = []
        self.table.start(self._feed)
        self.outputs.clear()   # (the simulator saying it is up)

    def _feed(self, event: RawEvent) -> None:
        self.raw.append(event)
        self.sensing, out = self.sensing.feed(event)
        self.outputs += out

    def wait(self, seconds: float) -> None:
        end = self.t + seconds
        while self.t < end - 1e-9:
            self.t = round(self.t + 0.05, 6)
            self.table.advance()
            self.sensing, out = self.sensing.tick(self.t)
            self.outputs += out


def _cards(hand: frozenset[Card]) -> list[str]:
    return [str(c) for c in sorted(hand, reverse=True)]


def test_dummys_hand_read_pad_by_pad_with_misses_is_one_faced_hand_never_picked_up() -> None:
    """Law 41D: dummy spreads his hand face up. Laid out a card every quarter second and left
    for a minute on a zone whose reads miss a tag one time in ten (five times the design's
    figure), it is one ``FaceCards`` of all 13 cards; the drop-outs the misses cause are never
    a pick-up."""
    run = _Run(PadArray(miss=0.1), seed=2)
    for card in _cards(DUMMY):
        run.table.present(card, "N.spread")
        run.wait(0.25)
    run.wait(60.0)
    faced = [o for o in run.outputs if isinstance(o, FaceCards)]
    assert len(faced) == 1 and sorted(map(str, faced[0].cards)) == sorted(_cards(DUMMY))
    assert [o for o in run.outputs if not isinstance(o, FaceCards)] == []
    assert any(e.__class__.__name__ == "TagGone" for e in run.raw)   # the misses did drop tags


def test_a_card_read_late_within_the_settling_time_joins_the_faced_hand() -> None:
    """Law 41D: dummy's hand, put down at once on a zone whose reads miss a tag three times in
    ten: some cards are first read cycles after the others, and all are still the one faced
    hand, because the zone has not been quiet for ``face_settle`` (ten cycles) in between."""
    run = _Run(PadArray(miss=0.3), seed=4)
    run.table.present_many(_cards(DUMMY), "N.spread")
    run.wait(10.0)
    firsts = sorted(e.t for e in run.raw if e.__class__.__name__ == "TagSeen")
    assert firsts[-1] - firsts[0] > PadArray().cycle_s   # some cards were read at least a cycle late
    faced = [o for o in run.outputs if isinstance(o, FaceCards)]
    assert len(faced) == 1 and len(faced[0].cards) == 13
    assert [o for o in run.outputs if not isinstance(o, FaceCards)] == []


def test_dummys_card_taken_from_the_spread_zone_and_played_is_a_play_not_a_pick_up() -> None:
    """Law 45B: declarer names dummy's card and dummy puts it on his play zone. The spread zone
    reports it gone two cycles later; the card is played, never picked up."""
    run = _Run(PadArray(), seed=6)
    run.table.present_many(_cards(DUMMY), "N.spread")
    run.wait(3.0)
    run.table.present("C2", "N.play")
    run.wait(5.0)
    after = [o for o in run.outputs if not isinstance(o, FaceCards)]
    assert len(after) == 1 and isinstance(after[0], PlayCard) and after[0].seat is Seat.N
