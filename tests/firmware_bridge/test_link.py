"""The link supervisor: up on HELLO, gaps and bad frames heal by snapshot, unplug/replug, backoff.

A scripted port and an injected clock and wait: nothing here sleeps (PROTOCOL.md 5-6).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator

import pytest
import serial  # type: ignore[import-untyped, unused-ignore]

from firmware_bridge.codec import Frame, FrameDecoder, encode_frame
from firmware_bridge.link import LinkStatus, SeatLink, SerialPort
from firmware_bridge.messages import (
    Ack,
    AckStatus,
    Capability,
    DeviceMessage,
    Heartbeat,
    Hello,
    Led,
    LedMode,
    SnapshotRequest,
    State,
    decode,
    encode_bytes,
)

from .conftest import FakeClock, FakePort

HELLO = Hello("E", bytes.fromhex("E6614103E7452D2F"), (1, 0, 0), Capability(0x3F))
TIMEOUT = 3.0


class Harness:
    """A link on scripted ports, with queues of what it reported."""

    def __init__(self, clock: FakeClock, ports: list[SerialPort | Exception] | None = None) -> None:
        self.clock = clock
        self.ports: list[SerialPort | Exception] = ports if ports is not None else [FakePort()]
        self.opened: list[SerialPort] = []
        self.messages: queue.Queue[tuple[DeviceMessage, float]] = queue.Queue()
        self.statuses: queue.Queue[LinkStatus] = queue.Queue()
        self.waits: list[float] = []
        self.link = SeatLink("fake://seat", on_message=lambda m, t: self.messages.put((m, t)),
                             on_status=self.statuses.put, clock=clock, wait=self._wait, open_port=self._open)

    def _open(self, url: str) -> SerialPort:
        item = self.ports.pop(0) if len(self.ports) > 1 else self.ports[0]
        if isinstance(item, Exception):
            raise item
        self.opened.append(item)
        return item

    def _wait(self, stop: threading.Event, seconds: float) -> bool:
        self.waits.append(seconds)
        return stop.is_set()

    @property
    def port(self) -> FakePort:
        port = self.opened[-1]
        assert isinstance(port, FakePort)
        return port

    def status(self) -> LinkStatus:
        return self.statuses.get(timeout=TIMEOUT)

    def message(self) -> DeviceMessage:
        return self.messages.get(timeout=TIMEOUT)[0]

    def commands(self, port: FakePort | None = None, count: int = 1) -> list[object]:
        """The next ``count`` host commands written to ``port``."""
        decoder = FrameDecoder()
        out: list[object] = []
        source = port or self.port
        while len(out) < count:
            for item in decoder.feed(source.written.get(timeout=TIMEOUT)):
                assert isinstance(item, Frame)
                out.append(decode(item))
        return out

    def up(self) -> None:
        """Connect and exchange the HELLO."""
        self.link.start()
        assert self.commands() == [SnapshotRequest(hello=True)]
        self.port.feed(encode_bytes(HELLO, 0))
        status = self.status()
        assert status.up


@pytest.fixture
def harness(clock: FakeClock) -> Iterator[Harness]:
    h = Harness(clock)
    yield h
    h.link.stop()


def test_link_asks_for_hello_and_goes_up_when_it_comes(harness: Harness) -> None:
    harness.link.start()
    assert harness.port.written.get(timeout=TIMEOUT) == b"\x00"
    assert harness.commands() == [SnapshotRequest(hello=True)]
    harness.port.feed(encode_bytes(HELLO, 0) + encode_bytes(State(10), 1))
    status = harness.status()
    assert status.up and status.hello == HELLO
    assert status.detail == "seat E unit E6614103E7452D2F firmware 1.0.0 on fake://seat"
    assert harness.message() == HELLO
    assert harness.messages.get(timeout=TIMEOUT) == (State(10), harness.clock())


def test_a_sequence_gap_is_counted_and_asks_for_a_snapshot(harness: Harness) -> None:
    harness.up()
    harness.clock.advance(1)
    harness.port.feed(encode_bytes(State(1), 1) + encode_bytes(State(2), 4))
    assert harness.commands() == [SnapshotRequest(hello=False)]
    assert harness.message() == HELLO
    harness.message()
    assert harness.message() == State(2)  # a frame after a gap is still used
    stats = harness.link.stats()
    assert (stats.gaps, stats.lost_frames) == (1, 2)


def test_a_bad_frame_is_counted_and_asks_for_a_snapshot(harness: Harness) -> None:
    harness.up()
    harness.clock.advance(1)
    harness.port.feed(b"\x00\x05garbage\x00" + encode_bytes(Heartbeat(5), 1))
    assert harness.commands() == [SnapshotRequest(hello=False)]
    harness.message()
    assert harness.message() == Heartbeat(5)
    assert harness.link.stats().bad_frames == 1


def test_snapshot_requests_are_rate_limited_then_sent(harness: Harness) -> None:
    harness.up()
    harness.port.feed(b"\x00\x05bad\x00" + encode_bytes(Heartbeat(1), 1))  # within 50 ms of the last request
    assert harness.message() == HELLO
    assert harness.message() == Heartbeat(1)
    assert harness.port.written.empty()  # held back
    harness.clock.advance(0.1)
    assert harness.commands() == [SnapshotRequest(hello=False)]


def test_silence_takes_the_link_down_and_the_next_frame_brings_it_up(harness: Harness) -> None:
    harness.up()
    harness.clock.advance(10)
    status = harness.status()
    assert not status.up and status.detail == "no frame from fake://seat for 10.0 s"
    assert harness.commands() == [SnapshotRequest(hello=True)]
    harness.port.feed(encode_bytes(Heartbeat(1), 1))
    status = harness.status()
    assert status.up and "answers again" in status.detail


def test_a_port_error_takes_the_link_down_and_it_reconnects(clock: FakeClock) -> None:
    first, second = FakePort(), FakePort()
    h = Harness(clock, [first, second])
    try:
        h.up()
        first.fail(serial.SerialException("device reports readiness to read but returned no data"))
        status = h.status()
        assert not status.up and status.detail.startswith("lost fake://seat: device reports readiness")
        assert first.closed
        assert h.commands(second) == [SnapshotRequest(hello=True)]
        second.feed(encode_bytes(HELLO, 0))
        assert h.status().up
        assert h.link.stats().connects == 2
    finally:
        h.link.stop()


def test_failures_to_open_back_off_exponentially_and_report_down_once(clock: FakeClock) -> None:
    error = serial.SerialException("could not open port /dev/ttyACM0: [Errno 2] No such file or directory")
    port = FakePort()
    h = Harness(clock, [error, error, error, error, error, error, port])
    try:
        h.link.start()
        status = h.status()
        assert not status.up and status.detail.startswith("cannot open fake://seat: could not open port")
        assert h.commands(port) == [SnapshotRequest(hello=True)]
        assert h.waits == [0.1, 0.2, 0.4, 0.8, 1.6, 2.0]
        assert h.statuses.empty()
        port.feed(encode_bytes(HELLO, 0))
        assert h.status().up
    finally:
        h.link.stop()


def test_refused_commands_are_counted(harness: Harness) -> None:
    harness.up()
    harness.port.feed(encode_bytes(Ack(3, 0x81, AckStatus.BAD_PAYLOAD), 1) + encode_bytes(Heartbeat(1, 4), 2))
    harness.message()
    harness.message()
    assert harness.message() == Heartbeat(1, 4)
    stats = harness.link.stats()
    assert stats.naks == 1 and stats.unit_rx_bad == 4


def test_a_counter_going_backwards_asks_for_hello_again(harness: Harness) -> None:
    harness.up()
    harness.clock.advance(1)
    harness.port.feed(encode_bytes(State(1), 500) + encode_bytes(State(2), 3))
    assert harness.commands() == [SnapshotRequest(hello=False)]
    assert harness.commands() == [SnapshotRequest(hello=True)]
    assert harness.link.hello is None


def test_a_failing_consumer_does_not_kill_the_link(clock: FakeClock) -> None:
    port = FakePort()
    seen: queue.Queue[DeviceMessage] = queue.Queue()

    def consumer(message: DeviceMessage, t: float) -> None:
        seen.put(message)
        raise RuntimeError("consumer bug")

    link = SeatLink("fake://seat", on_message=consumer, clock=clock, open_port=lambda url: port)
    try:
        link.start()
        port.feed(encode_bytes(HELLO, 0) + encode_bytes(Heartbeat(1), 1))
        assert seen.get(timeout=TIMEOUT) == HELLO
        assert seen.get(timeout=TIMEOUT) == Heartbeat(1)
    finally:
        link.stop()


def test_send_needs_an_open_port_and_stop_may_be_called_twice(harness: Harness) -> None:
    assert not harness.link.send(Led(LedMode.ON))
    harness.up()
    assert harness.link.send(Led(LedMode.ON))
    assert harness.commands() == [Led(LedMode.ON)]
    harness.link.stop()
    harness.link.stop()
    assert harness.port.closed
    assert harness.link.status().detail == "stopped"


def test_link_over_pyserial_loop_url(clock: FakeClock) -> None:
    port = serial.serial_for_url("loop://", timeout=0.05)
    statuses: queue.Queue[LinkStatus] = queue.Queue()
    link = SeatLink("loop://", on_message=lambda m, t: None, on_status=statuses.put, clock=clock,
                    open_port=lambda url: port)
    try:
        link.start()
        port.write(encode_frame(Frame(0x7E, 0, b"")))  # the unit's answer to an unknown type: a bad message
        port.write(encode_bytes(HELLO, 1))
        status = statuses.get(timeout=TIMEOUT)
        assert status.up
        assert link.stats().bad_messages == 1
    finally:
        link.stop()
