"""One driver contract, run against every backend (docs/architecture.md, raw sensor events; drivers/base.py).

A backend starts and stops any number of times, reports what happens with times read from the
injected clock, and reports its health: down while its device is broken, up once it is back.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass

import pytest

from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth, RawEvent, TagSeen
from drivers.base import EventSource
from drivers.config import GpioPins
from drivers.gpio import GpioSource
from drivers.nfc_reader import NfcReader
from drivers.pn532_sim import Pn532Simulator
from drivers.sim import SimTable
from tests.drivers.conftest import EventLog, TickClock, simulated_chip


@dataclass
class Rig:
    """A backend on simulated hardware: ``act(n)`` does the n-th physical act and says what event it makes."""

    source: EventSource
    act: Callable[[int], Callable[[RawEvent], bool]]
    break_device: Callable[[], None]
    repair_device: Callable[[], None]
    synchronous: bool = False   # events reach emit inside the act, on the caller's thread


def sim_rig(mode: str) -> Callable[[TickClock], Iterator[Rig]]:
    def make(clock: TickClock) -> Iterator[Rig]:
        table = SimTable(clock=clock, mode=mode)

        def act(n: int) -> Callable[[RawEvent], bool]:
            seat = "NESW"[n % 4]
            table.press(seat)
            return lambda e: isinstance(e, ButtonPressed) and e.seat == seat

        yield Rig(table, act, lambda: table.fail("N.play"), lambda: table.recover("N.play"),
                  synchronous=mode == "sync")
    return make


def nfc_rig(clock: TickClock) -> Iterator[Rig]:
    with Pn532Simulator() as chip:
        reader = NfcReader(chip.nfcpy_path, "N.play", clock, interval=0.02, retry=0.05)

        def act(n: int) -> Callable[[RawEvent], bool]:
            uid = f"04C0FFEE0000{n:02X}"
            chip.present(uid)
            return lambda e: isinstance(e, TagSeen) and e.uid == uid and e.reader == "N.play"

        yield Rig(reader, act, chip.go_silent, chip.wake)


def gpio_rig(clock: TickClock) -> Iterator[Rig]:
    chip = simulated_chip()
    pins = GpioPins(buttons=(("N", 5),), leds=(("N", 12),), contacts=(("E", "Pass", 22),), bouncetime_ms=5)
    source = GpioSource(pins, clock, retry=0.05)

    def act(n: int) -> Callable[[RawEvent], bool]:
        present = n % 2 == 0   # odd acts pull the Pass card, even ones put it back
        chip.drive(22, 0 if present else 1)
        chip.settle()
        return lambda e: isinstance(e, ContactChanged) and (e.slot, e.present) == ("Pass", present)

    try:
        yield Rig(source, act, lambda: chip.busy.add(22), chip.busy.clear)
    finally:
        source.stop()


BACKENDS = {"sim": sim_rig("sync"), "sim-thread": sim_rig("thread"), "nfc": nfc_rig, "gpio": gpio_rig}


@pytest.fixture(params=sorted(BACKENDS))
def rig(request: pytest.FixtureRequest, clock: TickClock) -> Iterator[Rig]:
    rigs: Generator[Rig, None, None] = BACKENDS[request.param](clock)  # type: ignore[assignment]
    rig = next(rigs)
    try:
        yield rig
    finally:
        rig.source.stop()
        rigs.close()


def test_a_backend_starts_and_stops_twice_and_reports_each_time(rig: Rig, log: EventLog) -> None:
    for run in (1, 2):
        rig.source.start(log)
        log.health(up=True)
        assert rig.source.health().up
        log.wait_for(rig.act(run))
        rig.source.stop()
        assert not rig.source.health().up
    rig.source.stop()   # a second stop is harmless


def test_starting_a_started_backend_changes_nothing(rig: Rig, log: EventLog) -> None:
    rig.source.start(log)
    rig.source.start(log)
    log.health(up=True)
    log.wait_for(rig.act(1))
    assert sum(isinstance(e, DeviceHealth) and e.up for e in log.events) == 1


def test_events_carry_increasing_times_read_from_the_injected_clock(rig: Rig, log: EventLog,
                                                                    clock: TickClock) -> None:
    rig.source.start(log)
    log.health(up=True)
    for n in range(1, 4):
        log.wait_for(rig.act(n))
    rig.source.stop()
    times = [e.t for e in log.events]
    assert times == sorted(set(times)), "each event later than the one before"
    assert all(t == int(t) and 1000 < t <= clock() for t in times), "every t is a tick of the injected clock"


def test_a_broken_device_reports_down_and_up_again_once_repaired(rig: Rig, log: EventLog) -> None:
    rig.break_device()
    rig.source.start(log)
    down = log.health(up=False)
    assert down.detail
    assert not rig.source.health().up
    rig.repair_device()
    log.health(up=True)
    assert rig.source.health().up
    log.wait_for(rig.act(1))


def test_an_emit_that_fails_does_not_stop_the_backend(rig: Rig, log: EventLog) -> None:
    if rig.synchronous:
        pytest.skip("a synchronous simulator lets the receiver's error reach the caller of the act")
    failed: list[RawEvent] = []

    def flaky(event: RawEvent) -> None:
        if not failed:
            failed.append(event)
            raise RuntimeError("the receiver broke")
        log(event)

    rig.source.start(flaky)
    log.wait_for(rig.act(1))
    assert failed
