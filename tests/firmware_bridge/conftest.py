"""Fakes shared by the firmware_bridge tests: a settable clock and a scripted serial port."""

from __future__ import annotations

import queue
import threading

import pytest


class FakeClock:
    """Monotonic seconds that move only when told to."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self.t

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.t += seconds


class FakeTicks:
    """Millisecond ticks for the firmware that move only when told to."""

    def __init__(self, ms: int = 0) -> None:
        self.ms = ms

    def __call__(self) -> int:
        return self.ms


class FakePort:
    """A serial port whose input the test scripts and whose output the test reads.

    ``read`` returns one fed chunk (or b"" after a short real wait, like a read timeout);
    ``fail`` makes the next read raise, as pyserial does when a USB device is unplugged.
    """

    def __init__(self) -> None:
        self._chunks: queue.Queue[bytes | BaseException] = queue.Queue()
        self.written: queue.Queue[bytes] = queue.Queue()
        self.closed = False

    @property
    def in_waiting(self) -> int:
        return 0

    def feed(self, data: bytes) -> None:
        self._chunks.put(data)

    def fail(self, exc: BaseException) -> None:
        self._chunks.put(exc)

    def read(self, size: int = 1) -> bytes:
        try:
            item = self._chunks.get(timeout=0.02)
        except queue.Empty:
            return b""
        if isinstance(item, BaseException):
            raise item
        return item

    def write(self, data: bytes) -> int:
        if self.closed:
            raise OSError("port closed")
        self.written.put(bytes(data))
        return len(data)

    def close(self) -> None:
        self.closed = True

    def cancel_read(self) -> None:
        self._chunks.put(b"")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
