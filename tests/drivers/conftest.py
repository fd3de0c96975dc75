"""Fixtures of the driver tests: an injected clock, an event log to wait on, simulated chips."""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Iterator

import pytest

from controller.sensing.events import DeviceHealth, RawEvent
from drivers import lgpio_sim
from drivers.pn532_sim import Pn532Simulator

WAIT = 5.0   # seconds: the longest any test waits for an event before it fails

Match = Callable[[RawEvent], bool]

# rpi-lgpio's RPi.GPIO binds whichever lgpio is imported first, and the real one needs a GPIO
# chip: the simulated one is installed before any test module imports drivers.gpio, unless
# real pins are under test (tests/drivers/test_hardware.py).
REAL_GPIO = "BRIDGE_GPIO_URL" in os.environ
if not REAL_GPIO:
    lgpio_sim.install()


def simulated_chip() -> lgpio_sim.SimChip:
    """A fresh simulated gpiochip 0 behind lgpio and rpi-lgpio's RPi.GPIO (skips where it cannot be)."""
    if REAL_GPIO:
        pytest.skip("real GPIO pins are under test (BRIDGE_GPIO_URL)")
    chip = lgpio_sim.install(lgpio_sim.SimChip())
    import RPi.GPIO  # type: ignore[import-untyped]
    if getattr(RPi.GPIO, "lgpio", None) is not lgpio_sim:
        pytest.skip("the simulated chip needs rpi-lgpio's RPi.GPIO, not RPi.GPIO's C module")
    return chip


class TickClock:
    """A clock that ticks one whole second at each reading, whichever thread reads it."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            self._now += 1.0
            return self._now


class EventLog:
    """An ``emit`` that records each event and the thread it came from; tests wait on it."""

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[RawEvent, int]] = queue.Queue()
        self.events: list[RawEvent] = []
        self.threads: list[int] = []

    def __call__(self, event: RawEvent) -> None:
        self._queue.put((event, threading.get_ident()))

    def wait_for(self, match: Match, timeout: float = WAIT) -> RawEvent:
        """The next event that ``match``es (every event on the way is recorded in ``events``)."""
        try:
            while True:
                event, thread = self._queue.get(timeout=timeout)
                self.events.append(event)
                self.threads.append(thread)
                if match(event):
                    return event
        except queue.Empty:
            raise AssertionError(f"no matching event within {timeout} s; got {self.events}") from None

    def health(self, up: bool, timeout: float = WAIT) -> DeviceHealth:
        event = self.wait_for(lambda e: isinstance(e, DeviceHealth) and e.up == up, timeout)
        assert isinstance(event, DeviceHealth)
        return event

    def drain(self) -> list[RawEvent]:
        """Record and return the events already waiting (does not wait for more)."""
        got: list[RawEvent] = []
        while True:
            try:
                event, thread = self._queue.get_nowait()
            except queue.Empty:
                return got
            self.events.append(event)
            self.threads.append(thread)
            got.append(event)


@pytest.fixture
def clock() -> TickClock:
    return TickClock()


@pytest.fixture
def log() -> EventLog:
    return EventLog()


@pytest.fixture
def pn532() -> Iterator[Pn532Simulator]:
    with Pn532Simulator() as sim:
        yield sim


@pytest.fixture
def chip() -> lgpio_sim.SimChip:
    """A fresh simulated gpiochip 0 behind ``lgpio`` (and so behind rpi-lgpio's ``RPi.GPIO``)."""
    return simulated_chip()
