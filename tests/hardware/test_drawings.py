"""The drawings are those their sources give, and they show the pad board as the firmware drives it."""

from __future__ import annotations

import make_diagrams

from firmware_bridge.firmware.seatfw import board


def test_the_committed_drawings_are_up_to_date() -> None:
    assert make_diagrams.main(["--check"]) == 0


def test_the_seat_unit_drawing_shows_the_pad_latch() -> None:
    svg = make_diagrams.HERE.joinpath("seat-unit.svg").read_text(encoding="utf-8")
    assert f"GP{board.PAD_LATCH_PIN} pad latch" in svg


def test_the_spread_zone_drawing_selects_pads_by_shift_registers() -> None:
    svg = make_diagrams.HERE.joinpath("spread-zone.svg").read_text(encoding="utf-8")
    assert "4 GPIO" not in svg
    assert f"latched by GP{board.PAD_LATCH_PIN}" in svg


def test_the_cloth_artwork_is_at_real_size() -> None:
    import cloth
    text = cloth.svg(1000)
    assert 'width="1000mm" height="1000mm"' in text and 'viewBox="-500 -500 1000 1000"' in text


def test_the_cloths_zones_keep_their_antennas_10_cm_apart_on_a_1_m_table() -> None:
    """readers.md: antennas at least 10 cm apart, play from spread and seat from seat."""
    import cloth
    assert cloth.check(1000) == []
    zones = cloth.zones(1000)
    assert len(zones) == 8
    assert min(a.gap(b) for i, a in enumerate(zones) for b in zones[i + 1:]) >= cloth.MIN_GAP_MM


def test_a_table_too_small_for_the_zones_is_refused() -> None:
    import cloth
    assert any("apart" in p for p in cloth.check(900))
    assert cloth.main(["--table", "900", "--out", "/nonexistent/never-written.svg"]) == 1
