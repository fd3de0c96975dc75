"""The boards' netlists agree with the firmware's pin map and with the drawings (hardware/electronics)."""

from __future__ import annotations

from dataclasses import replace

import circuits
import make_diagrams
import pytest

from firmware_bridge.firmware.seatfw import board
from firmware_bridge.firmware.seatfw.pads import NO_PAD, PadSelect

# What each firmware pin must reach on the seat unit's board.
EXPECTED = {
    **{f"ROW_PINS[{k}]": ("J1", f"R{k}") for k in range(len(board.ROW_PINS))},
    **{f"COL_PINS[{k}]": ("J1", f"C{k}") for k in range(len(board.COL_PINS))},
    **{f"SEAT_PINS[{k}]": (f"JP{k + 1}", "1") for k in range(len(board.SEAT_PINS))},
    "BUZZER_PIN": ("R1", "1"), "BUTTON_PIN": ("J4", "SW"), "LED_PIN": ("R2", "1"),
    "MISO_PIN": ("J5", "MISO"), "SCK_PIN": ("J5", "SCK"), "MOSI_PIN": ("J5", "MOSI"),
    "PLAY_CS_PIN": ("J2", "SDA"), "PLAY_RST_PIN": ("J2", "RST"),
    "SPREAD_CS_PIN": ("J5", "CS"), "SPREAD_RST_PIN": ("J5", "RST"), "PAD_LATCH_PIN": ("J5", "LATCH"),
}


def _net_of(b: circuits.Board, ref: str, pin: str) -> str:
    num = b.part(ref).pin(pin).num
    found = [name for name, ends in b.nets.items() if any(r == ref and b.part(r).pin(p).num == num for r, p in ends)]
    assert len(found) == 1, f"{ref} pin {pin} is on {found}"
    return found[0]


def test_every_firmware_pin_reaches_its_part_on_the_seat_unit_board() -> None:
    unit = circuits.seat_unit()
    names = circuits.pico_pin_names()
    fw = circuits.firmware_pins()
    assert set(fw) == set(EXPECTED)
    for const, gpio in fw.items():
        physical = str(names.index(f"GP{gpio}") + 1)
        assert _net_of(unit, "U1", physical) == _net_of(unit, *EXPECTED[const]), const


def test_the_drawings_and_the_board_use_the_same_gpios() -> None:
    """make_diagrams.py draws the roles of board.py; the board wires exactly those GPIOs."""
    with make_diagrams.HERE.joinpath("diagrams.toml").open("rb") as f:
        import tomllib
        drawn = set(make_diagrams.pin_map(tomllib.load(f)).roles)
    assert drawn == set(circuits.firmware_pins().values())
    assert board.PAD_LATCH_PIN in drawn


def test_the_netlists_have_no_pin_left_off_or_on_two_nets() -> None:
    for b in circuits.boards():
        assert circuits.problems(b) == [], b.name


def test_a_pin_on_two_nets_is_reported() -> None:
    unit = circuits.seat_unit()
    nets = dict(unit.nets)
    nets["LED"] = (*nets["LED"], ("J2", "SDA"))    # J2's SDA is already on PLAY_CS
    found = circuits.problems(replace(unit, nets=nets))
    assert any("J2 pin SDA on nets" in p for p in found)


def test_a_pin_on_no_net_is_reported() -> None:
    unit = circuits.seat_unit()
    nets = {k: v for k, v in unit.nets.items() if k != "PAD_LATCH"}
    found = circuits.problems(replace(unit, nets=nets))
    assert any("J5 pin 10 (LATCH) is on no net" in p for p in found)


class _Spi:
    def __init__(self) -> None:
        self.bytes: list[int] = []

    def write(self, data: bytes) -> None:
        self.bytes.extend(data)


class _Latch:
    def __init__(self) -> None:
        self.level = 0
        self.rises = 0

    def value(self, v: int | None = None) -> int:
        if v is not None:
            self.rises += int(v == 1 and self.level == 0)
            self.level = v
        return self.level


def _chain_outputs(sent: list[int]) -> dict[tuple[int, str], int]:
    """Two 74HC595 in a chain, clocked MSB first: the level of each (chip, output) after the latch."""
    stages = [0] * 16                      # stages[0] = first chip's QA ... stages[15] = second chip's QH
    for byte in sent:
        for bit in range(7, -1, -1):
            stages = [(byte >> bit) & 1, *stages[:-1]]
    return {(k // 8, circuits.QOUT[k % 8]): level for k, level in enumerate(stages)}


@pytest.mark.parametrize("pad", range(16))
def test_the_pad_the_firmware_selects_is_the_pad_the_board_switches_on(pad: int) -> None:
    """PadSelect's bytes through a model of the 74HC595 chain turn on the output wired to that pad."""
    spi, latch = _Spi(), _Latch()
    select = PadSelect(spi, latch, 16)
    spi.bytes.clear()
    select.select(pad)
    outputs = _chain_outputs(spi.bytes)
    on = [out for out, level in outputs.items() if level]
    assert len(on) == 1
    chip, q = on[0]
    pads = circuits.pad_board()
    gate_net = _net_of(pads, f"U{2 + chip}", q)
    assert gate_net == _net_of(pads, f"Q{pad}A", "G1") == _net_of(pads, f"Q{pad}B", "G2")
    assert {_net_of(pads, f"Q{pad}A", "D2"), _net_of(pads, f"Q{pad}B", "D2")} == {
        _net_of(pads, f"ANT{pad}", "1"), _net_of(pads, f"ANT{pad}", "2")}


def test_no_pad_switches_every_pad_off() -> None:
    spi, latch = _Spi(), _Latch()
    PadSelect(spi, latch, 16).select(NO_PAD)
    assert not any(_chain_outputs(spi.bytes[-2:]).values())


def test_the_pad_board_takes_the_firmwares_pad_count() -> None:
    with pytest.raises(ValueError, match="16 pads"):
        circuits.pad_board(pads=8)
