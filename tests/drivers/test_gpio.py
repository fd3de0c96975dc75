"""rpi-lgpio's real ``RPi.GPIO`` on the simulated lgpio chip, driving our GPIO source."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth
from drivers.config import ConfigError, GpioPins
from drivers.gpio import GpioSource
from drivers.lgpio_sim import SimChip
from tests.drivers.conftest import EventLog, Match, TickClock

PINS = GpioPins(buttons=(("N", 5), ("E", 6)), leds=(("N", 12), ("E", 16)), buzzers=(("N", 18),),
                contacts=(("E", "Pass", 22), ("E", "1NT", 23)), bouncetime_ms=10)


@pytest.fixture
def source(chip: SimChip, clock: TickClock) -> Iterator[GpioSource]:
    source = GpioSource(PINS, clock, retry=0.05)
    yield source
    source.stop()


def pressed(seat: str) -> Match:
    return lambda e: isinstance(e, ButtonPressed) and e.seat == seat


def contact(slot: str, present: bool) -> Match:
    return lambda e: isinstance(e, ContactChanged) and (e.slot, e.present) == (slot, present)


def test_pins_are_claimed_as_the_map_says_and_the_box_is_reported_on_start(
        source: GpioSource, chip: SimChip, log: EventLog) -> None:
    chip.drive(22, 0)   # the Pass card is in its slot; the 1NT card is out
    source.start(log)
    log.health(up=True)
    log.wait_for(contact("1NT", False))
    changes = [e for e in log.events if isinstance(e, ContactChanged)]
    assert changes == [ContactChanged("E", "Pass", True, log.events[1].t),
                       ContactChanged("E", "1NT", False, log.events[2].t)]
    assert {pin: chip.mode(pin) for pin in (5, 6, 12, 16, 18, 22, 23)} == {
        5: "alert", 6: "alert", 12: "output", 16: "output", 18: "output", 22: "alert", 23: "alert"}
    assert chip.level(5) == 1, "buttons are pulled up"


def test_a_press_arrives_from_lgpios_thread_as_button_pressed(
        source: GpioSource, chip: SimChip, log: EventLog) -> None:
    source.start(log)
    log.health(up=True)
    chip.drive(6, 0)
    chip.settle()
    event = log.wait_for(pressed("E"))
    assert event == ButtonPressed("E", "director", event.t)
    assert log.threads[-1] != threading.get_ident(), "edge callbacks come from the library's thread"
    assert log.threads[-1] != log.threads[0]


def test_a_bouncing_button_is_one_press_and_its_release_none(
        source: GpioSource, chip: SimChip, log: EventLog) -> None:
    source.start(log)
    log.health(up=True)
    for level in (0, 1, 0, 1, 0):   # 200 us apart: far inside the 10 ms bounce time
        chip.drive(5, level, after_us=200)
    chip.advance(20_000)
    log.wait_for(pressed("N"))
    for level in (1, 0, 1, 0, 1):   # the release bounces too
        chip.drive(5, level, after_us=200)
    chip.advance(20_000)
    chip.drive(6, 0)   # a press at the other seat shows that everything before it has been delivered
    chip.settle()
    log.wait_for(pressed("E"))
    assert [e.seat for e in log.events if isinstance(e, ButtonPressed)] == ["N", "E"]


def test_a_press_shorter_than_the_bounce_time_is_no_press(
        source: GpioSource, chip: SimChip, log: EventLog) -> None:
    source.start(log)
    log.health(up=True)
    chip.drive(5, 0)
    chip.drive(5, 1, after_us=3000)
    chip.advance(20_000)
    chip.drive(6, 0)
    chip.settle()
    log.wait_for(pressed("E"))
    assert not any(isinstance(e, ButtonPressed) and e.seat == "N" for e in log.events)


def test_contacts_report_both_ways_once_the_bounce_settles(
        source: GpioSource, chip: SimChip, log: EventLog) -> None:
    chip.drive(22, 0)
    source.start(log)
    log.wait_for(contact("1NT", False))
    for level in (1, 0, 1):   # the Pass card is pulled, the contact bouncing
        chip.drive(22, level, after_us=300)
    chip.settle()
    log.wait_for(contact("Pass", False))
    chip.drive(22, 0)   # and put back
    chip.settle()
    log.wait_for(contact("Pass", True))
    changes = [(e.slot, e.present) for e in log.events if isinstance(e, ContactChanged)]
    assert changes == [("Pass", True), ("1NT", False), ("Pass", False), ("Pass", True)]


def test_leds_and_the_buzzer_are_seen_on_the_chip(
        source: GpioSource, chip: SimChip, log: EventLog) -> None:
    source.set_led("E", True)   # remembered before the pins are set up
    source.start(log)
    log.health(up=True)
    assert chip.level(16) == 1 and chip.level(12) == 0
    source.set_led("N", True)
    source.set_led("E", False)
    assert (chip.level(12), chip.level(16)) == (1, 0)
    source.buzz("N", 20)
    assert chip.level(18) == 1
    assert chip.wait_for_level(18, 0, timeout=5)
    source.buzz("E", 20)   # no buzzer at E: nothing to do
    with pytest.raises(ValueError, match="seat"):
        source.set_led("X", True)
    source.stop()
    assert chip.mode(12) is None and chip.writes[-1][1] == 0, "LEDs out and pins freed on stop"


def test_busy_pins_are_reported_down_then_claimed_when_free(
        source: GpioSource, chip: SimChip, log: EventLog) -> None:
    chip.busy.add(23)   # another program holds the 1NT contact's pin
    source.start(log)
    down = log.health(up=False)
    assert "GPIO busy" in down.detail
    assert chip.mode(5) is None, "a half-done set-up is undone"
    chip.busy.clear()
    log.health(up=True)
    assert chip.mode(23) == "alert"


def test_a_pin_map_in_the_url_and_from_the_config(chip: SimChip, clock: TickClock) -> None:
    source = GpioSource.from_url("gpio:rpigpio?numbering=BOARD&bouncetime=5&button.N=29&led.N=31"
                                 "&contact.S.7NT=33&active_low=0&retry=0.5", clock)
    assert source.pins == GpioPins(numbering="BOARD", buttons=(("N", 29),), leds=(("N", 31),),
                                   contacts=(("S", "7NT", 33),), bouncetime_ms=5, contacts_active_low=False)
    assert GpioSource.from_url("gpio:rpigpio", pins=PINS).pins is PINS
    with pytest.raises(ConfigError, match="comes from the config"):
        GpioSource.from_url("gpio:rpigpio?button.N=5", pins=PINS)
    with pytest.raises(ConfigError, match="gpio:rpigpio"):
        GpioSource.from_url("gpio:pigpio")
    with pytest.raises(ConfigError, match="not a bidding-box slot"):
        GpioSource.from_url("gpio:rpigpio?contact.N.8NT=5")


def test_board_numbering_reaches_the_right_gpio(chip: SimChip, clock: TickClock, log: EventLog) -> None:
    source = GpioSource(GpioPins(numbering="BOARD", buttons=(("W", 29),), bouncetime_ms=0), clock)
    try:
        source.start(log)
        log.health(up=True)
        chip.drive(5, 0)   # header pin 29 is GPIO 5
        log.wait_for(pressed("W"))
    finally:
        source.stop()
    assert isinstance(log.events[0], DeviceHealth)
