"""The simulated table: each physical act is the raw events a real table would report."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest

from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth, RawEvent, TagGone, TagSeen
from drivers.config import BIDDING_BOX_SLOTS, ConfigError
from drivers.sim import SimTable, default_deck
from tests.drivers.conftest import EventLog, TickClock


def untimed(events: list[RawEvent]) -> list[RawEvent]:
    return [dataclasses.replace(event, t=0) for event in events]


def quiet_table(clock: TickClock) -> tuple[SimTable, list[RawEvent]]:
    events: list[RawEvent] = []
    table = SimTable(clock=clock, report_state_on_start=False)
    table.start(events.append)
    events.clear()
    return table, events


def test_the_default_deck_has_52_cards_with_distinct_seven_byte_uids() -> None:
    deck = default_deck()
    assert len(deck) == 52 and len(set(deck.values())) == 52
    assert all(len(uid) == 14 and uid == uid.upper() for uid in deck.values())
    assert set(default_deck(2).values()).isdisjoint(deck.values())


def test_a_card_played_then_picked_up(clock: TickClock) -> None:
    table, events = quiet_table(clock)
    uid = table.deck["SA"]
    table.present("SA", zone="N.play")
    table.present("SA", zone="N.play")   # it is there already: nothing new
    table.remove("SA")
    assert untimed(events) == [TagSeen("N.play", uid, 0), TagGone("N.play", uid, 0)]
    assert events[0].t < events[1].t


def test_a_card_moved_to_another_zone_leaves_the_first(clock: TickClock) -> None:
    table, events = quiet_table(clock)
    table.present("HK", zone="N.play")
    table.present("HK", zone="N.spread")
    assert [(type(e).__name__, e.reader) for e in events if isinstance(e, TagSeen | TagGone)] == [
        ("TagSeen", "N.play"), ("TagGone", "N.play"), ("TagSeen", "N.spread")]
    assert table.on("N.spread") == ("HK",) and table.on("N.play") == ()


def test_dummy_spread_dropout_and_clear(clock: TickClock) -> None:
    table, events = quiet_table(clock)
    table.present_many(["SA", "S7", "HQ"], zone="W.spread")
    table.dropout("W.spread")
    table.clear("W.spread")
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["TagSeen"] * 3 + ["TagGone"] * 3 + ["TagSeen"] * 3 + ["TagGone"] * 3


def test_bidding_box_pull_put_back_and_bounce(clock: TickClock) -> None:
    table, events = quiet_table(clock)
    table.pull("3H", seat="E")
    table.pull("3H", seat="E")   # out already
    assert table.is_out("3H", "E")
    table.put_back("3H", seat="E", bounces=1)
    assert [(e.seat, e.slot, e.present) for e in events if isinstance(e, ContactChanged)] == [
        ("E", "3H", False), ("E", "3H", True), ("E", "3H", False), ("E", "3H", True)]
    with pytest.raises(ValueError, match="not a bidding-box slot"):
        table.pull("8NT", seat="E")


def test_button_and_unknown_tags(clock: TickClock) -> None:
    table, events = quiet_table(clock)
    table.press("S")
    table.present("04deadbeef0001", zone="board")
    assert untimed(events) == [ButtonPressed("S", "director", 0), TagSeen("board", "04DEADBEEF0001", 0)]
    with pytest.raises(ValueError, match="neither a card"):
        table.present("ZZ", zone="board")
    with pytest.raises(ValueError, match="not a reader"):
        table.present("SA", zone="N.pocket")


def test_a_failed_device_loses_events_and_reports_what_it_sees_on_recovery(clock: TickClock) -> None:
    table, events = quiet_table(clock)
    table.fail("N.play", "cable cut")
    assert not table.health().up and "N.play" in table.health().detail
    table.present("SA", zone="N.play")
    table.pull("Pass", seat="N")
    table.fail("N.box")
    table.put_back("Pass", seat="N")
    table.recover("N.play")
    assert table.health().up is False
    table.recover("N.box")
    assert table.health().up
    downs = [e for e in events if isinstance(e, DeviceHealth) and not e.up]
    assert [e.device for e in downs] == ["N.play", "N.box"] and downs[0].detail == "cable cut"
    tags = [e for e in events if isinstance(e, TagSeen)]
    assert len(tags) == 1 and tags[0].reader == "N.play"
    contacts = [e for e in events if isinstance(e, ContactChanged)]
    assert len(contacts) == 1 + len(BIDDING_BOX_SLOTS)   # the pull, then the whole box once back
    assert all(e.present for e in contacts[1:])


def test_start_reports_the_state_of_the_table(clock: TickClock) -> None:
    table = SimTable(clock=clock)
    table.present("CA", zone="board")
    table.pull("1C", seat="W")
    events: list[RawEvent] = []
    table.start(events.append)
    assert events[0] == DeviceHealth("sim", True, "simulated table", events[0].t)
    assert TagSeen("board", table.deck["CA"], events[1].t) in events
    contacts = [e for e in events if isinstance(e, ContactChanged)]
    assert len(contacts) == 4 * 40 and [(e.seat, e.slot) for e in contacts if not e.present] == [("W", "1C")]


def test_thread_mode_delivers_from_another_thread_in_order(clock: TickClock, log: EventLog) -> None:
    table = SimTable(clock=clock, mode="thread", report_state_on_start=False)
    table.start(log)
    table.present("SA", zone="E.play")
    table.remove("SA")
    log.wait_for(lambda e: isinstance(e, TagGone))
    table.stop()
    assert [type(e) for e in log.events] == [DeviceHealth, TagSeen, TagGone]
    assert len(set(log.threads)) == 1 and log.threads[0] != threading.get_ident()


def test_sim_urls_and_a_deck_file(tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    deck.write_text('{"format": "bridgetable-decks", "version": 1, "decks": {"red": '
                    '{"SA": "04a1b2c3d4e5f6", "SK": "04A1B2C3D4E5F7"}, "blue": {"SA": "04B1B2C3D4E5F6"}}}')
    table = SimTable.from_url(f"sim://?deck={deck}&deck_id=blue&mode=thread&quiet=1")
    assert table.deck == {"SA": "04B1B2C3D4E5F6"}
    assert SimTable.from_url(f"sim://?deck={deck}&deck_id=red").uid("SK") == "04A1B2C3D4E5F7"
    assert SimTable.from_url(f"sim://?deck={deck}").deck == {"SA": "04B1B2C3D4E5F6"}   # the first deck id
    with pytest.raises(ConfigError, match="unknown option"):
        SimTable.from_url("sim://?speed=2")
    with pytest.raises(ConfigError, match="no deck 'green'"):
        SimTable.from_url(f"sim://?deck={deck}&deck_id=green")
    with pytest.raises(ConfigError, match="sync or thread"):
        SimTable.from_url("sim://?mode=async")
