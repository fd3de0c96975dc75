"""Opening event sources from device URLs, and every device of a table from its config.

``open_source`` dispatches on the URL scheme and imports the backend only then, so that
``import drivers`` works on a laptop without nfcpy, RPi.GPIO or the seat-unit driver:

- ``nfc:<nfcpy path>?reader=N.play`` -> ``drivers.nfc_reader.NfcReader`` (nfcpy);
- ``gpio:rpigpio[?pin map]`` -> ``drivers.gpio.GpioSource`` (RPi.GPIO or rpi-lgpio);
- ``sim://[?options]`` -> ``drivers.sim.SimTable`` (the simulated table);
- ``serial:///dev/ttyACM0?seat=N`` -> ``drivers.seatunit.open_seatunit(url, clock)`` (a seat unit).
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drivers.base import Clock, Emit, EventSource, Indicator, monotonic
from drivers.config import SEATS, ConfigError, GpioPins, TableConfig

__all__ = ["TableDevices", "TableIndicator", "open_source", "open_table"]

_LIBRARIES = {
    "nfc": ("drivers.nfc_reader", "nfcpy, a dependency of the table software: pip install -e . "
                                  "(in the table's virtual environment) installs it"),
    "gpio": ("drivers.gpio", "RPi.GPIO: pip install -e '.[pi4]' on a Raspberry Pi 4, "
                             "or rpi-lgpio: pip install -e '.[pi5]' on a Raspberry Pi 5"),
    "sim": ("drivers.sim", "nothing more"),
    "serial": ("drivers.seatunit", "pyserial, a dependency of the table software: pip install -e . "
                                   "(in the table's virtual environment) installs it"),
}


def _backend(scheme: str, url: str) -> Any:
    module_name, needs = _LIBRARIES[scheme]
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        raise ImportError(f"cannot open {url!r}: it needs {needs} ({exc})") from exc


def open_source(url: str, clock: Clock = monotonic, *, name: str | None = None,
                pins: GpioPins | None = None) -> EventSource:
    """The event source for device ``url``, its events timed by ``clock``.

    ``name`` names a reader whose URL does not (``?reader=``); ``pins`` is the pin map of a
    ``gpio:`` source. ``ConfigError`` for a URL that names no known backend; ``ImportError``
    (saying what to install) when the backend's library is missing.
    """
    scheme, sep, _ = url.partition(":")
    if not sep or scheme not in _LIBRARIES:
        raise ConfigError(f"{url!r}: unknown device URL scheme {scheme!r} (nfc:, gpio:, sim:, serial:)")
    module = _backend(scheme, url)
    if scheme == "nfc":
        source: EventSource = module.NfcReader.from_url(url, clock, name=name)
    elif scheme == "gpio":
        source = module.GpioSource.from_url(url, clock, pins=pins)
    elif scheme == "sim":
        source = module.SimTable.from_url(url, clock, name=name)
    else:
        source = module.open_seatunit(url, clock)
    return source


class TableIndicator:
    """The seats' LEDs and buzzers, each driven by whichever source has it (``Indicator``).

    A seat's LED or buzzer on the Pi's GPIO pins wins over its seat unit's; a seat with
    neither has nothing to light and the call does nothing.
    """

    def __init__(self, leds: dict[str, Indicator], buzzers: dict[str, Indicator]) -> None:
        self.leds = leds
        self.buzzers = buzzers

    def set_led(self, seat: str, on: bool) -> None:
        _check_seat(seat)
        if seat in self.leds:
            self.leds[seat].set_led(seat, on)

    def buzz(self, seat: str, milliseconds: int) -> None:
        _check_seat(seat)
        if seat in self.buzzers:
            self.buzzers[seat].buzz(seat, milliseconds)


@dataclass(frozen=True, slots=True)
class TableDevices:
    """Every event source of one table, and what lights its seats' LEDs and sounds their buzzers."""

    sources: tuple[EventSource, ...]
    indicator: TableIndicator

    def start(self, emit: Emit) -> None:
        """Start every source (each reports its own health through ``emit``)."""
        for source in self.sources:
            source.start(emit)

    def stop(self) -> None:
        """Stop every source, the last started first; a source that fails to stop does not stop the others."""
        for source in reversed(self.sources):
            with contextlib.suppress(Exception):
                source.stop()


def open_table(config: TableConfig, clock: Clock = monotonic,
               opener: Callable[..., EventSource] = open_source) -> TableDevices:
    """Open the event sources of every device ``config`` names (not started yet).

    A seat unit's URL gets ``seat=<its seat>`` when it does not say it; readers are named
    after their zone (``E.play``) unless their URL names them.
    """
    sources: list[EventSource] = []
    leds: dict[str, Indicator] = {}
    buzzers: dict[str, Indicator] = {}
    for devices in config.seats:
        seat = devices.seat
        if devices.unit is not None:
            url = devices.unit
            if url.startswith("serial:") and "seat=" not in url.partition("?")[2]:
                url += ("&" if "?" in url else "?") + f"seat={seat}"
            unit = opener(url, clock)
            sources.append(unit)
            if _is_indicator(unit):
                leds[seat] = buzzers[seat] = unit  # type: ignore[assignment]
        for zone, reader in (("play", devices.play), ("spread", devices.spread)):
            if reader is not None:
                sources.append(opener(reader, clock, name=f"{seat}.{zone}"))
    if config.board_reader:
        sources.append(opener(config.board_reader, clock, name="board"))
    if config.gpio_url:
        gpio = opener(config.gpio_url, clock, pins=config.gpio)
        sources.append(gpio)
        if config.gpio is not None and _is_indicator(gpio):
            leds.update({seat: gpio for seat, _ in config.gpio.leds})  # type: ignore[misc]
            buzzers.update({seat: gpio for seat, _ in config.gpio.buzzers})  # type: ignore[misc]
    return TableDevices(tuple(sources), TableIndicator(leds, buzzers))


def _is_indicator(source: object) -> bool:
    return callable(getattr(source, "set_led", None)) and callable(getattr(source, "buzz", None))


def _check_seat(seat: str) -> None:
    if seat not in SEATS:
        raise ValueError(f"seat must be one of N E S W, not {seat!r}")
