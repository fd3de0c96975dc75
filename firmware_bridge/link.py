"""Link supervisor: one seat unit's serial port, its reader thread, and the link's health.

``SeatLink`` owns a pyserial port opened with ``serial.serial_for_url`` (so ``/dev/ttyACM0``,
a pty path, ``loop://`` and ``socket://`` all work) and a reader thread that only reads,
frames and decodes (pyserial's ``serial.threaded`` is the model):

- it survives unplug and replug: a port error reports the link down, closes the port and
  retries opening it with exponential backoff, through an injected ``wait``;
- after garbage it resynchronises on the next delimiter (``codec.FrameDecoder``) and counts
  the bad frame;
- it asks for a snapshot (``SnapshotRequest``) on every (re)connection (with ``Hello``),
  after a sequence gap and after a bad frame, so a lost frame heals at once;
- the link is up once the unit's ``Hello`` has arrived, and down when the port fails or
  nothing has arrived for three heartbeat periods.

The clock is injected; all times reported are from it (docs/architecture.md, raw sensor events).
Callbacks run on the reader thread and must not block.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

import serial  # type: ignore[import-untyped, unused-ignore]

from firmware_bridge.codec import DecodeError, Frame, FrameDecoder
from firmware_bridge.messages import (
    DEVICE_MESSAGES,
    Ack,
    AckStatus,
    DeviceMessage,
    Heartbeat,
    Hello,
    HostCommand,
    MessageError,
    SnapshotRequest,
    decode,
    encode_bytes,
)

__all__ = ["LinkStats", "LinkStatus", "PortOpener", "SeatLink", "SerialPort", "Wait", "open_serial"]

log = logging.getLogger(__name__)


class SerialPort(Protocol):
    """What the link uses of a ``serial.Serial``."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


PortOpener = Callable[[str], SerialPort]
"""Opens the port at a URL; raises ``OSError`` (``serial.SerialException``) when it cannot."""

Wait = Callable[[threading.Event, float], bool]
"""Waits up to the given seconds or until the event is set; returns True if it is set."""


def open_serial(url: str, baudrate: int = 115200, timeout: float = 0.25) -> SerialPort:
    """``serial.serial_for_url`` with the link's settings (the baud rate is moot on USB CDC)."""
    port: SerialPort = serial.serial_for_url(url, baudrate=baudrate, timeout=timeout, write_timeout=1.0)
    return port


def _event_wait(event: threading.Event, seconds: float) -> bool:
    return event.wait(seconds)


@dataclass(frozen=True, slots=True)
class LinkStats:
    """Counters of one link since it was created."""

    frames: int = 0
    bad_frames: int = 0
    bad_messages: int = 0
    gaps: int = 0
    lost_frames: int = 0
    snapshot_requests: int = 0
    connects: int = 0
    naks: int = 0
    unit_rx_bad: int = 0


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """The link's health at ``t``: ``up`` once the unit said ``Hello``; ``detail`` says why."""

    up: bool
    detail: str
    t: float
    hello: Hello | None = None
    stats: LinkStats = field(default_factory=LinkStats)


class SeatLink:
    """Supervises the serial link to one seat unit at ``url``.

    ``on_message(message, t)`` gets every device message (``Hello``, ``State``,
    ``Heartbeat``, ``Ack``); ``on_status(status)`` gets each change between up and down.
    ``send`` may be called from any thread.
    """

    def __init__(self, url: str, *, on_message: Callable[[DeviceMessage, float], None],
                 on_status: Callable[[LinkStatus], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, wait: Wait | None = None,
                 open_port: PortOpener | None = None, baudrate: int = 115200, read_timeout: float = 0.25,
                 backoff: tuple[float, float] = (0.1, 2.0), silence_timeout: float | None = None,
                 snapshot_interval: float = 0.05, hello_retry: float = 1.0) -> None:
        self.url = url
        self._on_message = on_message
        self._on_status = on_status
        self._clock = clock
        self._wait: Wait = wait if wait is not None else _event_wait
        self._open: PortOpener = open_port or (lambda u: open_serial(u, baudrate, read_timeout))
        self._backoff = backoff
        self._silence_fixed = silence_timeout
        self._snapshot_interval = snapshot_interval
        self._hello_retry = hello_retry
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._port: SerialPort | None = None
        self._fault: str | None = None
        self._decoder = FrameDecoder()
        self._stats = LinkStats()
        self._status = LinkStatus(False, "not started", clock())
        self._reported = False
        self._hello: Hello | None = None
        self._expected_seq: int | None = None
        self._tx_seq = 0
        self._last_rx = 0.0
        self._silent = False
        self._snapshot_wanted = False
        self._last_request = float("-inf")
        self._hello_asked = float("-inf")
        self._handled = threading.Condition()
        self._handled_seq: int | None = None

    # -- public

    def start(self) -> None:
        """Start the reader thread, which opens the port (and keeps reopening it)."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"seatlink {self.url}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the reader thread and close the port; may be called twice."""
        self._stop.set()
        port = self._port
        cancel = getattr(port, "cancel_read", None)
        if callable(cancel):
            try:
                cancel()
            except Exception:  # the port may be half closed; the thread ends anyway
                log.debug("cancel_read failed on %s", self.url, exc_info=True)
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        self._thread = None
        with self._lock:
            self._status = replace(self._status, up=False, detail="stopped", t=self._clock())

    def status(self) -> LinkStatus:
        """The latest health, with the counters as they are now."""
        with self._lock:
            return replace(self._status, stats=self._stats)

    def stats(self) -> LinkStats:
        with self._lock:
            return self._stats

    @property
    def hello(self) -> Hello | None:
        """The unit's ``Hello`` on the current connection, if any."""
        return self._hello

    @property
    def handled_seq(self) -> int | None:
        """The unit's sequence number of the last valid frame handled (its message handed on), or None."""
        with self._handled:
            return self._handled_seq

    def wait_handled(self, seq: int, timeout: float) -> bool:
        """Wait until the unit's frame ``seq`` (or a later one) has been handled; False on timeout.

        For a test or benchmark that steps an emulated unit through time: once the frame
        the unit wrote last is handled, every event it carried has been emitted.
        """
        with self._handled:
            return self._handled.wait_for(lambda: self._handled_seq is not None
                                          and (self._handled_seq - seq) & 0xFFFF < 0x8000, timeout)

    def send(self, command: HostCommand) -> bool:
        """Send a host command; False if the port is not open or the write failed (the link heals)."""
        with self._write_lock:
            port = self._port
            if port is None:
                return False
            seq = self._tx_seq
            self._tx_seq = (seq + 1) & 0xFFFF
            try:
                port.write(encode_bytes(command, seq))
            except Exception as exc:  # pyserial raises SerialException, OSError, ValueError
                self._fault = f"write failed: {exc}"
                return False
        if isinstance(command, SnapshotRequest):
            self._count(snapshot_requests=1)
        return True

    def request_snapshot(self, hello: bool = False) -> bool:
        """Ask the unit for a ``State`` now (and a ``Hello`` first if ``hello``)."""
        self._last_request = self._clock()
        self._snapshot_wanted = False
        return self.send(SnapshotRequest(hello))

    # -- the reader thread

    def _run(self) -> None:
        low, high = self._backoff
        delay = low
        while not self._stop.is_set():
            try:
                port = self._open(self.url)
            except Exception as exc:  # any failure to open is "down, retry"
                self._set_down(f"cannot open {self.url}: {exc}")
                if self._wait(self._stop, delay):
                    break
                delay = min(delay * 2, high)
                continue
            delay = low
            try:
                self._connected(port)
                self._pump(port)
            except Exception as exc:  # a dead port (unplugged) or a fault: reconnect
                if not self._stop.is_set():
                    self._set_down(f"lost {self.url}: {exc}")
            finally:
                self._disconnected(port)
            if self._stop.is_set() or self._wait(self._stop, delay):
                break

    def _connected(self, port: SerialPort) -> None:
        now = self._clock()
        self._decoder.reset()
        self._expected_seq = None
        self._hello = None
        self._fault = None
        self._silent = False
        self._last_rx = now
        with self._write_lock:
            self._port = port
            port.write(b"\x00")
        self._count(connects=1)
        self._hello_asked = now
        self.request_snapshot(hello=True)

    def _disconnected(self, port: SerialPort) -> None:
        with self._write_lock:
            self._port = None
        try:
            port.close()
        except Exception:  # closing a vanished device may fail; it is gone either way
            log.debug("closing %s failed", self.url, exc_info=True)

    def _pump(self, port: SerialPort) -> None:
        while not self._stop.is_set():
            waiting = port.in_waiting
            data = port.read(waiting if waiting > 0 else 1)
            now = self._clock()
            if data:
                self._on_bytes(data, now)
            if self._fault is not None:
                raise OSError(self._fault)
            self._housekeeping(now)

    def _housekeeping(self, now: float) -> None:
        if self._hello is None and now - self._hello_asked >= self._hello_retry:
            self._hello_asked = now
            self.request_snapshot(hello=True)
        elif self._snapshot_wanted and now - self._last_request >= self._snapshot_interval:
            self.request_snapshot()
        silence = self._silence_timeout()
        if not self._silent and now - self._last_rx > silence:
            self._silent = True
            self._set_down(f"no frame from {self.url} for {now - self._last_rx:.1f} s")
            self._hello_asked = now
            self.request_snapshot(hello=True)

    def _silence_timeout(self) -> float:
        if self._silence_fixed is not None:
            return self._silence_fixed
        if self._hello is not None and self._hello.heartbeat_period_ms:
            return max(0.5, 3 * self._hello.heartbeat_period_ms / 1000)
        return 3.0

    def _on_bytes(self, data: bytes, now: float) -> None:
        for item in self._decoder.feed(data):
            if isinstance(item, DecodeError):
                self._count(bad_frames=1)
                log.debug("%s: bad frame: %s", self.url, item)
                self._want_snapshot()
            else:
                self._on_frame(item, now)

    def _on_frame(self, frame: Frame, now: float) -> None:
        if frame.type & 0x80:
            return  # a host command coming back (loop:// echoes): not ours to read
        try:
            self._handle(frame, now)
        finally:
            with self._handled:
                self._handled_seq = frame.seq
                self._handled.notify_all()

    def _handle(self, frame: Frame, now: float) -> None:
        self._last_rx = now
        self._count(frames=1)
        try:
            message = decode(frame)
        except MessageError as exc:
            self._count(bad_messages=1)
            log.warning("%s: %s", self.url, exc)
            self._track_seq(frame.seq, False)
            self._want_snapshot()
            return
        self._track_seq(frame.seq, isinstance(message, Hello))
        if not isinstance(message, DEVICE_MESSAGES):
            return
        if isinstance(message, Hello):
            self._hello = message
            self._set_up(f"seat {message.seat} unit {message.unit_id.hex().upper()} "
                         f"firmware {message.firmware_version} on {self.url}", now)
        elif self._silent and self._hello is not None:
            self._set_up(f"seat {self._hello.seat} unit on {self.url} answers again", now)
        self._silent = False
        if isinstance(message, Ack) and message.status is not AckStatus.OK:
            self._count(naks=1)
            log.warning("%s: unit refused command seq %d type %#04x: %s", self.url, message.seq, message.type,
                        message.status.name)
        elif isinstance(message, Heartbeat):
            with self._lock:
                self._stats = replace(self._stats, unit_rx_bad=message.rx_bad)
        try:
            self._on_message(message, now)
        except Exception:  # a consumer's bug must not kill the link
            log.exception("%s: message handler failed on %r", self.url, message)

    def _track_seq(self, seq: int, is_hello: bool) -> None:
        expected = self._expected_seq
        self._expected_seq = (seq + 1) & 0xFFFF
        if expected is None or is_hello or seq == expected:
            return
        lost = (seq - expected) & 0xFFFF
        if lost >= 0x8000:
            lost = 0  # went backwards: the unit restarted without our seeing its Hello
            self._hello_asked = float("-inf")
            self._hello = None
        self._count(gaps=1, lost_frames=lost)
        self._want_snapshot()

    def _want_snapshot(self) -> None:
        self._snapshot_wanted = True
        if self._clock() - self._last_request >= self._snapshot_interval:
            self.request_snapshot()

    # -- health

    def _count(self, **increments: int) -> None:
        with self._lock:
            stats = self._stats
            self._stats = replace(stats, **{k: getattr(stats, k) + v for k, v in increments.items()})

    def _set_up(self, detail: str, now: float) -> None:
        self._report(True, detail, now)

    def _set_down(self, detail: str) -> None:
        self._report(False, detail, self._clock())

    def _report(self, up: bool, detail: str, now: float) -> None:
        with self._lock:
            changed = not self._reported or self._status.up != up
            self._status = LinkStatus(up, detail, now, self._hello, self._stats)
            self._reported = True
            status = self._status
        if changed:
            (log.info if up else log.warning)("%s: link %s: %s", self.url, "up" if up else "down", detail)
            if self._on_status is not None:
                try:
                    self._on_status(status)
                except Exception:  # a consumer's bug must not kill the link
                    log.exception("%s: status handler failed", self.url)
