"""The Pi side against the emulated seat unit over a real pty and real pyserial.

The emulator runs the firmware in real time, so these tests wait on queues and on the
emulator's condition with timeouts; none sleeps.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest
import serial  # type: ignore[import-untyped, unused-ignore]

from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth, RawEvent, TagGone, TagSeen
from drivers.seatunit import SeatUnit
from firmware_bridge.codec import Frame, FrameDecoder
from firmware_bridge.emulator import SeatEmulator
from firmware_bridge.firmware.seatfw import VERSION
from firmware_bridge.firmware.seatfw.app import Config
from firmware_bridge.messages import Buzzer, Capability, Hello, Led, LedMode, SnapshotRequest, decode, encode_bytes

UID = "04A1B2C3D4E5F6"
TIMEOUT = 5.0


class Table:
    """An emulated seat unit and the seat-unit backend reading it through the pty."""

    def __init__(self, seat: str = "N", spread_pads: int = 0) -> None:
        self.emulator = SeatEmulator(seat, config=Config(reader_period_ms=40, heartbeat_period_ms=200,
                                                         state_period_ms=1000), spread_pads=spread_pads).start()
        self.events: queue.Queue[RawEvent] = queue.Queue()
        self.unit = SeatUnit(self.emulator.path, seat, backoff=(0.02, 0.1))
        self.unit.start(self.events.put)

    def next(self, match: Callable[[RawEvent], bool]) -> RawEvent:
        """The first event that ``match``es (others are skipped)."""
        while True:
            event = self.events.get(timeout=TIMEOUT)
            if match(event):
                return event

    def close(self) -> None:
        self.unit.stop()
        self.emulator.stop()


@pytest.fixture
def table() -> Iterator[Table]:
    t = Table()
    yield t
    t.close()


def unit_health(event: RawEvent) -> bool:
    return isinstance(event, DeviceHealth) and event.device == "N.unit"


def test_hello_brings_the_unit_up(table: Table) -> None:
    health = table.next(unit_health)
    assert isinstance(health, DeviceHealth) and health.up
    firmware = ".".join(map(str, VERSION))
    assert health.detail == f"seat N unit E661000000000000 firmware {firmware} on {table.emulator.path}"
    assert table.unit.link.hello is not None and table.unit.link.hello.max_tags == 16


def test_physical_acts_become_raw_events(table: Table) -> None:
    table.next(unit_health)
    table.emulator.pull("1NT")
    pulled = table.next(lambda e: isinstance(e, ContactChanged))
    assert isinstance(pulled, ContactChanged)
    assert (pulled.seat, pulled.slot, pulled.present) == ("N", "1NT", False)
    table.emulator.put(UID, "play")
    seen = table.next(lambda e: isinstance(e, TagSeen))
    assert isinstance(seen, TagSeen) and (seen.reader, seen.uid) == ("N.play", UID)
    table.emulator.press()
    assert isinstance(table.next(lambda e: not isinstance(e, DeviceHealth)), ButtonPressed)
    table.emulator.remove(UID, "play")
    gone = table.next(lambda e: isinstance(e, TagGone))
    assert isinstance(gone, TagGone) and gone.uid == UID
    table.emulator.put_back("1NT")
    back = table.next(lambda e: isinstance(e, ContactChanged))
    assert isinstance(back, ContactChanged) and back.slot == "1NT" and back.present


def test_two_tags_on_the_spread_reader_are_both_seen(table: Table) -> None:
    table.next(unit_health)
    table.emulator.put(UID, "spread")
    table.emulator.put("04A1B2C3D4E5F7", "spread")
    uids: set[str] = set()
    while len(uids) < 2:
        event = table.next(lambda e: isinstance(e, TagSeen))
        assert isinstance(event, TagSeen) and event.reader == "N.spread"
        uids.add(event.uid)
    assert uids == {UID, "04A1B2C3D4E5F7"}


def test_dummys_thirteen_cards_on_the_pad_board_reach_the_unchanged_host_as_spread_tags() -> None:
    """hardware/spread-zone.md: a unit with a pad board reads the spread zone pad by pad and
    reports the union; the host's seat-unit backend (drivers/seatunit.py) sees N.spread as
    from one reader, and a card lifted off its pad goes after two read cycles."""
    table = Table(spread_pads=16)
    try:
        table.next(unit_health)
        hello = table.unit.link.hello
        assert hello is not None and Capability.SPREAD_PADS in hello.capabilities
        cards = [f"04A1B2C3D4E5{k:02X}" for k in range(13)]
        for uid in cards:
            table.emulator.put(uid, "spread")
        seen: set[str] = set()
        while len(seen) < 13:
            event = table.next(lambda e: isinstance(e, TagSeen))
            assert isinstance(event, TagSeen) and event.reader == "N.spread"
            seen.add(event.uid)
        assert seen == set(cards)
        assert table.emulator.pads is not None and len(table.emulator.pads.pads[6]) == 1  # 2 a pad, in order
        table.emulator.remove(cards[4], "spread")
        gone = table.next(lambda e: isinstance(e, TagGone))
        assert isinstance(gone, TagGone) and gone.reader == "N.spread" and gone.uid == cards[4]
    finally:
        table.close()


def test_led_and_buzzer_commands_reach_the_unit(table: Table) -> None:
    table.next(unit_health)
    table.unit.set_led("N", True)
    assert table.emulator.wait_until(lambda e: e.led, TIMEOUT)
    table.unit.buzz("N", 150)
    assert table.emulator.wait_until(lambda e: e.buzzing, TIMEOUT)
    assert table.emulator.wait_until(lambda e: not e.buzzing, TIMEOUT)
    table.unit.blink("N", 100)
    assert table.emulator.wait_until(lambda e: e.led_mode is LedMode.BLINK and not e.led, TIMEOUT)
    received = []
    while not table.emulator.received.empty():
        received.append(table.emulator.received.get())
    assert [m for m in received if not isinstance(m, SnapshotRequest)] == [
        Led(LedMode.ON, 500), Buzzer(150), Led(LedMode.BLINK, 100)]


def test_unplug_and_replug_report_down_then_up_and_heal(table: Table) -> None:
    table.next(unit_health)
    table.unit.set_led("N", True)
    assert table.emulator.wait_until(lambda e: e.led, TIMEOUT)
    table.emulator.unplug()
    down = table.next(unit_health)
    assert isinstance(down, DeviceHealth) and not down.up and down.detail.startswith("lost ")
    table.emulator.pull("Stop")  # while the unit is unplugged
    table.emulator.replug()
    up = table.next(unit_health)
    assert isinstance(up, DeviceHealth) and up.up
    healed = table.next(lambda e: isinstance(e, ContactChanged))
    assert isinstance(healed, ContactChanged) and (healed.slot, healed.present) == ("Stop", False)
    assert table.emulator.wait_until(lambda e: e.led, TIMEOUT)  # the rebooted unit is told again
    assert table.emulator.boots == 2 and table.unit.link.stats().connects == 2


def test_garbage_on_the_line_is_recovered(table: Table) -> None:
    table.next(unit_health)
    table.emulator.inject_garbage(b"MPY: soft reboot\r\n" + bytes(range(1, 200)))
    table.emulator.pull("XX")
    changed = table.next(lambda e: isinstance(e, ContactChanged))
    assert isinstance(changed, ContactChanged) and changed.slot == "XX"
    assert table.unit.link.stats().bad_frames >= 1


def test_raw_pyserial_on_the_pty_gets_hello_and_snapshots() -> None:
    with SeatEmulator("W") as emulator:
        port = serial.serial_for_url(emulator.path, timeout=0.2)
        try:
            port.write(encode_bytes(SnapshotRequest(hello=True), 0))
            decoder = FrameDecoder()
            messages: list[object] = []
            while not any(isinstance(m, Hello) for m in messages):
                data = port.read(256)
                assert data, "the emulated unit did not answer"
                messages += [decode(f) for f in decoder.feed(data) if isinstance(f, Frame)]
            hello = next(m for m in messages if isinstance(m, Hello))
            assert hello.seat == "W"
        finally:
            port.close()


def test_command_line_prints_the_pty_path_and_takes_verbs() -> None:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    pipe = subprocess.PIPE
    process = subprocess.Popen([sys.executable, "-m", "firmware_bridge.emulator", "--seat", "E"], cwd=root,
                               stdin=pipe, stdout=pipe, stderr=pipe, text=True)
    try:
        assert process.stdout is not None and process.stdin is not None
        path = process.stdout.readline().strip()
        assert os.path.islink(path) and os.readlink(path).startswith("/dev/pts/")
        _, stderr = process.communicate("status\nquit\n", timeout=TIMEOUT)
        assert process.returncode == 0
        assert f"path {path} -> /dev/pts/" in stderr
        assert not os.path.exists(path)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_command_line_stops_cleanly_when_its_input_ends() -> None:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    pipe = subprocess.PIPE
    process = subprocess.Popen([sys.executable, "-m", "firmware_bridge.emulator", "--seat", "S"], cwd=root,
                               stdin=pipe, stdout=pipe, stderr=pipe, text=True)
    try:
        assert process.stdout is not None
        path = process.stdout.readline().strip()
        assert os.path.islink(path)
        _, stderr = process.communicate("press\n", timeout=TIMEOUT)  # no quit: the input just ends
        assert process.returncode == 0, stderr
        assert "Traceback" not in stderr
        assert not os.path.exists(path)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
