"""The seat-unit backend: snapshots diffed into raw sensor events, health, the indicator, the URL.

docs/architecture.md, raw sensor events; drivers/seatunit.py. Diffs are checked directly; the link
parts run on a scripted port with an injected clock.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest

from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth, RawEvent, TagGone, TagSeen
from drivers.base import EventSource, Indicator
from drivers.seatunit import SeatUnit, open_seatunit, parse_seatunit_url
from firmware_bridge.codec import Frame, FrameDecoder
from firmware_bridge.messages import (
    SLOTS,
    Capability,
    Hello,
    Led,
    LedMode,
    SnapshotRequest,
    State,
    decode,
    encode_bytes,
)

from .conftest import FakeClock, FakePort

T = 5.0
UID_A = bytes.fromhex("04A1B2C3D4E5F6")
UID_B = bytes.fromhex("DEADBEEF")


def without(*slots: str) -> tuple[str, ...]:
    return tuple(s for s in SLOTS if s not in slots)


@pytest.fixture
def unit(clock: FakeClock) -> SeatUnit:
    return SeatUnit("fake://seat", "N", clock)


@pytest.mark.parametrize(("url", "expected"), [
    ("serial:///dev/ttyACM0?seat=N", ("/dev/ttyACM0", "N", 115200)),
    ("serial:///dev/serial/by-id/usb-MicroPython_E661-if00?seat=w",
     ("/dev/serial/by-id/usb-MicroPython_E661-if00", "W", 115200)),
    ("serial://loop://?seat=E&baudrate=9600&logging=debug", ("loop://?logging=debug", "E", 9600)),
])
def test_seatunit_urls_name_the_port_and_the_seat(url: str, expected: tuple[str, str, int]) -> None:
    assert parse_seatunit_url(url) == expected


@pytest.mark.parametrize(("url", "error"), [
    ("nfc:tty:AMA1:pn532", "does not start with serial://"),
    ("serial:///dev/ttyACM0", "has no seat"),
    ("serial:///dev/ttyACM0?seat=X", "seat 'X'"),
    ("serial:///dev/ttyACM0?seat=N&baudrate=fast", "baudrate 'fast'"),
    ("serial://?seat=N", "names no port"),
])
def test_bad_seatunit_urls_say_what_is_wrong(url: str, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        parse_seatunit_url(url)


def test_open_seatunit_makes_a_stopped_unit(clock: FakeClock) -> None:
    unit = open_seatunit("serial:///dev/ttyACM0?seat=S", clock)
    source: EventSource = unit  # mypy checks that the backend has both interfaces
    indicator: Indicator = unit
    assert source.name == "S.unit" and callable(indicator.buzz)
    assert (unit.name, unit.seat, unit.port) == ("S.unit", "S", "/dev/ttyACM0")
    assert unit.health() == DeviceHealth("S.unit", False, "not started", clock())
    unit.stop()


def test_first_snapshot_reports_what_differs_from_a_tidy_table(unit: SeatUnit) -> None:
    events = unit.diff(State(100, without("1NT", "Pass"), (UID_A,), (), presses=7), T)
    assert events == [
        TagSeen("N.play", "04A1B2C3D4E5F6", T),
        ContactChanged("N", "1NT", False, T),
        ContactChanged("N", "Pass", False, T),
    ]  # presses before the first snapshot are history, not events


def test_successive_snapshots_become_raw_events(unit: SeatUnit) -> None:
    unit.diff(State(100, without("1NT"), (UID_A,), (), presses=7), T)
    events = unit.diff(State(300, without("2H"), (UID_B,), (UID_A,), presses=9), T + 0.2)
    t = T + 0.2
    assert events == [
        TagGone("N.play", "04A1B2C3D4E5F6", t),
        TagSeen("N.play", "DEADBEEF", t),
        TagSeen("N.spread", "04A1B2C3D4E5F6", t),
        ContactChanged("N", "1NT", True, t),
        ContactChanged("N", "2H", False, t),
        ButtonPressed("N", "director", t),
        ButtonPressed("N", "director", t),
    ]
    assert unit.diff(State(400, without("2H"), (UID_B,), (UID_A,), presses=9), t + 0.1) == []


def test_a_lost_snapshot_heals_with_the_next(unit: SeatUnit) -> None:
    unit.diff(State(100), T)
    # State(200, without("3C"), presses=1) was lost on the line
    events = unit.diff(State(300, without("3C", "4D"), presses=2), T + 0.2)
    assert events == [ContactChanged("N", "3C", False, T + 0.2), ContactChanged("N", "4D", False, T + 0.2),
                      ButtonPressed("N", "director", T + 0.2), ButtonPressed("N", "director", T + 0.2)]


def test_press_count_wraps_at_256(unit: SeatUnit) -> None:
    unit.diff(State(100, presses=255), T)
    assert unit.diff(State(200, presses=1), T + 0.1) == [ButtonPressed("N", "director", T + 0.1)] * 2


def test_after_a_unit_restart_presses_count_from_zero(unit: SeatUnit) -> None:
    unit.diff(State(60_000, presses=5), T)
    events = unit.diff(State(2_000, presses=1), T + 10)  # uptime grew less than our clock: it rebooted
    assert events == [ButtonPressed("N", "director", T + 10)]


def test_a_silent_reader_keeps_its_tags_and_reports_its_health(unit: SeatUnit) -> None:
    unit.diff(State(100, SLOTS, (UID_A,)), T)
    events = unit.diff(State(200, SLOTS, (), play_ok=False), T + 1)
    assert events == [DeviceHealth("N.play", False, "reader does not answer", T + 1)]
    events = unit.diff(State(300, SLOTS, (UID_B,)), T + 2)
    assert events == [DeviceHealth("N.play", True, "reader answers", T + 2),
                      TagGone("N.play", "04A1B2C3D4E5F6", T + 2), TagSeen("N.play", "DEADBEEF", T + 2)]


def test_indicators_of_another_seat_are_refused(unit: SeatUnit) -> None:
    with pytest.raises(ValueError, match="the seat unit of N cannot drive the indicators of seat 'E'"):
        unit.set_led("E", True)
    unit.set_led("N", True)  # the link is not up: nothing sent, remembered for later
    unit.buzz("N", 100)


class Rig:
    """A started seat unit on a scripted port, with its events in a queue."""

    def __init__(self, clock: FakeClock, seat: str = "N") -> None:
        self.clock = clock
        self.port = FakePort()
        self.events: queue.Queue[RawEvent] = queue.Queue()
        self.unit = SeatUnit("fake://seat", seat, clock, open_port=lambda url: self.port)
        self.unit.start(self.events.put)
        self._decoder = FrameDecoder()

    def event(self) -> RawEvent:
        return self.events.get(timeout=3)

    def command(self) -> object:
        while True:
            for item in self._decoder.feed(self.port.written.get(timeout=3)):
                assert isinstance(item, Frame)
                return decode(item)


@pytest.fixture
def rig(clock: FakeClock) -> Iterator[Rig]:
    r = Rig(clock)
    yield r
    r.unit.stop()


def test_unit_health_follows_the_link(rig: Rig) -> None:
    assert rig.command() == SnapshotRequest(hello=True)
    rig.port.feed(encode_bytes(Hello("N", bytes(8), (1, 2, 3), Capability(0x3F)), 0))
    health = rig.event()
    assert isinstance(health, DeviceHealth) and health.up and health.device == "N.unit"
    assert "firmware 1.2.3" in health.detail and rig.unit.health() == health
    rig.port.fail(OSError("device reports readiness to read but returned no data"))
    health = rig.event()
    assert isinstance(health, DeviceHealth) and not health.up and "device reports readiness" in health.detail


def test_a_unit_set_for_another_seat_is_down_and_ignored(rig: Rig) -> None:
    rig.port.feed(encode_bytes(Hello("E", bytes(8), (1, 0, 0), Capability(0x3F)), 0)
                  + encode_bytes(State(5, without("1C")), 1))
    health = rig.event()
    assert health == DeviceHealth("N.unit", False, "the unit on fake://seat is set for seat E, "
                                                   "the table config says N", rig.clock())
    rig.unit.stop()  # joins the reader thread, which has handled the whole chunk
    assert rig.events.empty()


def test_an_led_command_lost_on_the_way_is_sent_again(rig: Rig) -> None:
    assert rig.command() == SnapshotRequest(hello=True)
    rig.port.feed(encode_bytes(Hello("N", bytes(8), (1, 0, 0), Capability(0x3F)), 0))
    rig.event()
    rig.unit.set_led("N", True)
    assert rig.command() == Led(LedMode.ON)
    rig.clock.advance(1)
    rig.port.feed(encode_bytes(State(500, led=LedMode.OFF), 1))  # the unit never got it
    assert rig.command() == Led(LedMode.ON)
    rig.port.feed(encode_bytes(State(510, led=LedMode.OFF), 2))  # within 0.5 s: not again yet
    rig.port.feed(encode_bytes(State(520, led=LedMode.ON), 3))
    rig.unit.blink("N", 300)
    assert rig.command() == Led(LedMode.BLINK, 300)
