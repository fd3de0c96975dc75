"""The bid rack's slot pitch and magnet lanes, derived from the reed's sensitivity and the magnet (magnetics.py).

Standard library only: these run in the project's own venv.
"""

from __future__ import annotations

import dataclasses
import itertools

import magnetics
import pytest


def test_the_drawings_pitch_is_the_derived_pitch() -> None:
    """diagrams.toml's gap + wall (the drawings, the printed rack) is what the reed and the magnet allow."""
    rack = magnetics.load()
    import tomllib
    with magnetics.TOML.open("rb") as f:
        src = tomllib.load(f)["bid_rack"]
    assert src["gap"] + src["wall"] == pytest.approx(magnetics.derive_pitch(rack).pitch)


def test_every_reed_closes_under_its_card_and_opens_when_it_is_pulled() -> None:
    rack = magnetics.load()
    f = magnetics.derive_pitch(rack)
    assert f.own_min_at >= magnetics.CLOSE_MARGIN * rack.pull_in_at[1]
    assert f.stray_max_at * magnetics.RELEASE_MARGIN <= rack.release_at_min


def test_lanes_in_the_denominations_order_would_hold_a_pulled_cards_reed_closed() -> None:
    """Why the lanes are interleaved: at the same pitch, next-lane neighbours leak too much field."""
    rack = magnetics.load()
    pitch = magnetics.derive_pitch(rack).pitch
    natural = dataclasses.replace(rack, lane_order=magnetics.NATURAL_ORDER)
    assert not magnetics.figures(natural, pitch).opens(natural)
    assert magnetics.derive_pitch(natural).pitch > pitch


def test_neighbouring_slots_are_never_in_neighbouring_lanes() -> None:
    rack = magnetics.load()
    lanes = [magnetics.lane_of(rack, i) for i in range(rack.slots)]
    assert all(abs(a - b) >= 2 for a, b in itertools.pairwise(lanes))
    assert all(lanes[i] == lanes[i + 5] for i in range(rack.slots - 5))


def test_a_weaker_magnet_needs_a_wider_pitch_and_a_much_weaker_one_is_refused() -> None:
    rack = magnetics.load()
    weaker = dataclasses.replace(rack, magnet_br_t=0.9 * rack.magnet_br_t)
    assert magnetics.derive_pitch(weaker).pitch > magnetics.derive_pitch(rack).pitch
    too_weak = dataclasses.replace(rack, magnet_br_t=0.7 * rack.magnet_br_t)
    with pytest.raises(ValueError, match="too weak"):
        magnetics.derive_pitch(too_weak)


def test_a_more_sensitive_reed_band_needs_a_wider_pitch() -> None:
    rack = magnetics.load()
    sensitive = dataclasses.replace(rack, pull_in_at=(5.0, 10.0), release_at_min=2.0)
    assert magnetics.derive_pitch(sensitive).pitch > magnetics.derive_pitch(rack).pitch


def test_the_mmf_falls_with_distance_and_flips_with_the_magnet() -> None:
    rack = magnetics.load()
    near = magnetics.reed_mmf(rack, (0.0, 0.0, -3.0), [(0.0, 0.0, 0.0)])
    far = magnetics.reed_mmf(rack, (0.0, 0.0, -6.0), [(0.0, 0.0, 0.0)])
    assert abs(near) > abs(far) > 0
    assert magnetics.reed_mmf(rack, (0.0, 0.0, 3.0), [(0.0, 0.0, 0.0)]) == pytest.approx(near)


def test_a_lane_order_that_is_not_the_five_denominations_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = magnetics.TOML.read_text(encoding="utf-8").replace('lane_order = ["C", "S", "D", "NT", "H"]',
                                                              'lane_order = ["C", "S", "D", "NT", "C"]')
    bad = tmp_path / "d.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="lane_order"):
        magnetics.load(bad)
