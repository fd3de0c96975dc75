"""The spread zone read as the chosen hardware reads it: pad by pad, in a cycle, with misses
(``drivers.spread``, hardware/spread-zone.md)."""

from __future__ import annotations

import random

import pytest

from controller.sensing.events import RawEvent, TagGone, TagSeen
from drivers.config import ConfigError
from drivers.sim import SimTable, default_deck
from drivers.spread import PadArray, SpreadScanner

DECK = default_deck()


class ManualClock:
    """Table time that moves only when the test moves it."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def scanner(pads: PadArray, seed: int = 1) -> SpreadScanner:
    return SpreadScanner("N.spread", pads, random.Random(seed), 0.0)


def test_the_pads_are_read_one_after_another_in_a_200_ms_cycle() -> None:
    """Each card is reported when its own pad is read: two cards a pad up a suit's column,
    pads read column by column, 12.5 ms each, 16 pads in 0.2 s."""
    zone = scanner(PadArray(miss=0))
    pads = {card: zone.place(DECK[card], card) for card in ("SA", "SK", "SQ", "HA", "CA")}
    assert pads == {"SA": 0, "SK": 0, "SQ": 1, "HA": 4, "CA": 12}
    seen = {e.uid: e.t for e in zone.advance(0.2) if isinstance(e, TagSeen)}
    by_card = {card: seen[DECK[card]] for card in pads}
    assert by_card == pytest.approx({"SA": 0.0125, "SK": 0.0125, "SQ": 0.025, "HA": 0.0625, "CA": 0.1625})
    assert zone.pads.cycle_s == pytest.approx(0.2)


def test_a_card_lifted_is_reported_gone_after_two_cycles_without_a_read() -> None:
    """As the seat unit does (``miss_cycles``): the cycle that still read it, then two cycles
    without it, and the tag is gone at the end of the second."""
    zone = scanner(PadArray(miss=0))
    zone.place(DECK["SA"], "SA")
    zone.advance(0.3)
    zone.lift(DECK["SA"])
    events = zone.advance(1.0)
    assert [(type(e), round(e.t, 4)) for e in events] == [(TagGone, 0.8)]


def test_a_tag_missed_in_one_cycle_is_not_reported_gone() -> None:
    """One cycle without a read of a tag still on its pad is a drop-out the zone absorbs."""
    rolls = iter([0.5, 0.0, 0.5, 0.5])   # read, missed (0.0 < miss), read, read

    class Script(random.Random):
        def random(self) -> float:
            return next(rolls)

    zone = SpreadScanner("N.spread", PadArray(miss=0.1), Script(), 0.0)
    zone.place(DECK["SA"], "SA")
    events = zone.advance(0.8)
    assert [type(e) for e in events] == [TagSeen]
    assert zone.reported == {DECK["SA"]}


def test_a_crowded_pad_misses_its_tags_far_more_often_than_a_pad_of_two() -> None:
    """A suit of ten cards: the column's last pad holds four tags, more than one MFRC522
    inventory reads reliably; its tags are missed about half the time, the others rarely."""
    zone = scanner(PadArray(), seed=5)
    spades = [f"S{rank}" for rank in "AKQJT98765"]
    for card in spades:
        zone.place(DECK[card], card)
    crowded = {DECK[c] for c in spades if zone.pad_under(DECK[c]) == 3}
    assert len(crowded) == 4
    reads = {DECK[c]: 0 for c in spades}
    for cycle in range(400):
        zone.forget()   # count the reads of each cycle: report every tag read again
        for event in zone.advance((cycle + 1) * 0.2):
            if isinstance(event, TagSeen):
                reads[event.uid] += 1
    crowded_misses = sum(400 - reads[u] for u in crowded) / len(crowded)
    clear_misses = sum(400 - n for u, n in reads.items() if u not in crowded) / (len(spades) - 4)
    assert crowded_misses > 10 * clear_misses


def test_a_seeded_zone_reports_the_same_events_however_often_it_is_advanced() -> None:
    """The reads happen at their moments of the cycle, whenever they are asked for: one call
    or a hundred give the same events at the same times, run after run."""
    def run(steps: int) -> list[RawEvent]:
        zone = scanner(PadArray(miss=0.3), seed=11)
        for card in ("SA", "SK", "SQ", "SJ", "HA", "D2", "C3"):
            zone.place(DECK[card], card)
        out: list[RawEvent] = []
        for i in range(1, steps + 1):
            out += zone.advance(10.0 * i / steps)
        return out

    assert run(1) == run(100) == run(7)
    assert any(isinstance(e, TagGone) for e in run(1))   # at 30 % misses some tags drop out


def test_the_simulator_reports_a_spread_hand_only_as_its_pads_are_read() -> None:
    """``sim://?spread=pads``: dummy's cards put down are reported by the pad reads as the clock
    moves, not at once; a card moved to the play zone is seen there at once and gone from the
    spread zone two cycles later."""
    clock = ManualClock()
    table = SimTable.from_url("sim://?spread=pads&miss=0&seed=3", clock)
    events: list[TagSeen | TagGone] = []
    table.start(lambda e: events.append(e) if isinstance(e, TagSeen | TagGone) else None)
    events.clear()
    table.present_many(("SA", "SK", "HA"), "N.spread")
    assert events == []
    clock.t = 0.25
    table.advance()
    assert {(e.reader, e.uid) for e in events} == {("N.spread", DECK[c]) for c in ("SA", "SK", "HA")}
    events.clear()
    table.present("SA", "N.play")
    assert [(type(e), e.reader) for e in events] == [(TagSeen, "N.play")]
    clock.t = 1.0
    table.advance()
    assert [(type(e), e.reader, e.uid) for e in events[1:]] == [(TagGone, "N.spread", DECK["SA"])]
    assert table.pad_under("SK") == 0 and table.pad_under("SA") is None


def test_the_simulator_url_refuses_unknown_spread_options() -> None:
    for url in ("sim://?spread=columns", "sim://?spread=pads&miss=1.5", "sim://?miss=0.1",
                "sim://?spread=pads&seed=x"):
        with pytest.raises(ConfigError):
            SimTable.from_url(url)
