"""Opening sources by URL, every device of a table config, and ``import drivers`` away from a Pi."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest
from pytest_mock import MockerFixture

import drivers
from controller.sensing.events import ButtonPressed, RawEvent
from drivers import config, registry
from drivers.config import ConfigError
from drivers.gpio import GpioSource
from drivers.lgpio_sim import SimChip
from drivers.nfc_reader import NfcReader
from drivers.sim import SimTable
from tests.drivers.conftest import TickClock


def test_open_source_dispatches_on_the_scheme(chip: SimChip, clock: TickClock) -> None:
    assert isinstance(drivers.open_source("sim://", clock), SimTable)
    reader = drivers.open_source("nfc:tty:AMA1:pn532", clock, name="S.play")
    assert isinstance(reader, NfcReader) and reader.name == "S.play"
    assert isinstance(drivers.open_source("gpio:rpigpio?button.N=5", clock), GpioSource)
    with pytest.raises(ConfigError, match="unknown device URL scheme 'bluetooth'"):
        drivers.open_source("bluetooth://N", clock)


def test_the_clock_given_is_the_clock_used(clock: TickClock) -> None:
    source = drivers.open_source("sim://?quiet=1", clock)
    events: list[RawEvent] = []
    source.start(events.append)
    assert isinstance(source, SimTable)
    source.press("N")
    assert events[-1] == ButtonPressed("N", "director", events[-1].t) and events[-1].t == int(events[-1].t)


def test_serial_urls_go_to_the_seat_unit_driver(mocker: MockerFixture, clock: TickClock) -> None:
    # drivers.seatunit is another engineer's module: a stand-in shows only what is called
    seatunit = types.ModuleType("drivers.seatunit")
    seatunit.open_seatunit = mocker.Mock(return_value="a seat unit")  # type: ignore[attr-defined]
    mocker.patch.dict(sys.modules, {"drivers.seatunit": seatunit})
    opened: object = drivers.open_source("serial:///dev/ttyACM0", clock)
    assert opened == "a seat unit"
    seatunit.open_seatunit.assert_called_once_with("serial:///dev/ttyACM0", clock)


def test_a_missing_backend_library_says_what_to_install(mocker: MockerFixture) -> None:
    mocker.patch.dict(sys.modules, {"drivers.seatunit": None})
    with pytest.raises(ImportError, match=r"needs pyserial, .*pip install -e \."):
        drivers.open_source("serial:///dev/ttyACM0")


def test_every_install_hint_names_an_extra_that_pyproject_has() -> None:
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    extras = set(pyproject["project"]["optional-dependencies"])
    base = " ".join(pyproject["project"]["dependencies"])
    for scheme, (_module, needs) in registry._LIBRARIES.items():
        named = re.findall(r"pip install -e '\.\[(\w+)\]'", needs)
        assert set(named) <= extras, (scheme, needs)
        if "pip install -e . " in needs:   # a base dependency: the library is named first
            assert needs.split(",")[0].lower() in base.lower(), (scheme, needs)


class FakeUnit:
    """A seat unit as ``open_table`` sees one: a source that lights its own seat's LED."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.name = url
        self.lit: list[tuple[str, bool]] = []

    def start(self, emit: object) -> None: ...

    def stop(self) -> None: ...

    def set_led(self, seat: str, on: bool) -> None:
        self.lit.append((seat, on))

    def buzz(self, seat: str, milliseconds: int) -> None: ...


def test_open_table_opens_every_device_and_routes_each_seats_led(chip: SimChip, tmp_path: Path,
                                                                 clock: TickClock) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[table]\nname = "T"\nboard_reader = "nfc:usb:072f:2200"\n'
                    '[seats.N]\nunit = "serial:///dev/ttyACM0"\n'
                    '[seats.S]\nunit = "serial:///dev/ttyACM1?seat=S&baudrate=9600"\n'
                    '[seats.E]\nplay = "nfc:tty:AMA1:pn532"\n'
                    '[gpio]\nbuttons = { E = 5 }\nleds = { E = 12, S = 16 }\n')
    units: dict[str, FakeUnit] = {}

    def opener(url: str, clock: TickClock, **options: object) -> object:
        if url.startswith("serial:"):
            units[url] = FakeUnit(url)
            return units[url]
        return drivers.open_source(url, clock, **options)  # type: ignore[arg-type]

    devices = drivers.open_table(config.load(path), clock, opener=opener)  # type: ignore[arg-type]
    assert [source.name for source in devices.sources] == [
        "serial:///dev/ttyACM0?seat=N", "E.play", "serial:///dev/ttyACM1?seat=S&baudrate=9600",
        "board", "gpio"]
    events: list[RawEvent] = []
    devices.start(events.append)
    try:
        for seat in "NESW":
            devices.indicator.set_led(seat, True)
        assert units["serial:///dev/ttyACM0?seat=N"].lit == [("N", True)]
        assert units["serial:///dev/ttyACM1?seat=S&baudrate=9600"].lit == [], "S has a GPIO LED"
        assert (chip.level(12), chip.level(16)) == (1, 1)
        with pytest.raises(ValueError, match="seat"):
            devices.indicator.set_led("NE", True)
    finally:
        devices.stop()
    assert isinstance(devices.sources[4], GpioSource)


def test_import_drivers_needs_no_hardware_library() -> None:
    code = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {'nfc', 'ndef', 'RPi', 'lgpio', 'serial', 'usb1'}:
            raise ImportError('no ' + name + ' on this laptop')
sys.meta_path.insert(0, Block())
import drivers
source = drivers.open_source('sim://?quiet=1')
try:
    drivers.open_source('gpio:rpigpio')
except ImportError as exc:
    assert 'rpi-lgpio' in str(exc), exc
try:
    drivers.open_source('nfc:tty:AMA1:pn532?reader=N.play')
except ImportError as exc:
    assert 'nfcpy' in str(exc), exc
print('ok', type(source).__name__)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["ok", "SimTable"]
