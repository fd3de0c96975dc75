"""The pad board's matching network (hardware/electronics/antenna.py, after NXP AN1445)."""

from __future__ import annotations

import math
from dataclasses import replace

import antenna
import pytest


def test_the_solved_network_shows_the_target_impedance_to_the_reader() -> None:
    design = antenna.Design()
    m = antenna.solve(design)
    assert m.z_tx.real == pytest.approx(design.r_match, rel=1e-6)
    assert abs(m.z_tx.imag) < 1e-6 * design.r_match


def test_the_preferred_values_keep_the_match_within_10_db_return_loss() -> None:
    """E12 capacitors: the board works before any trimming; bring-up trims the rest."""
    m = antenna.rounded()
    assert antenna.mismatch_db(m.z_tx, antenna.Design().r_match) > 10


def test_the_emc_filter_passes_the_carrier_and_its_subcarrier() -> None:
    m = antenna.rounded()
    resonance = 1 / (2 * math.pi * math.sqrt(antenna.Design().l0 * m.c0))
    assert antenna.CARRIER_HZ + antenna.SUBCARRIER_HZ < resonance < 15e6


def test_the_bandwidth_passes_the_subcarrier() -> None:
    """Q low enough that f/Q spans the 848 kHz subcarrier (106 kbit/s, ISO/IEC 14443)."""
    m = antenna.rounded()
    assert antenna.CARRIER_HZ / m.q >= antenna.SUBCARRIER_HZ


def test_a_switched_off_pad_carries_almost_no_current() -> None:
    assert antenna.off_current_ratio(antenna.Design()) < 0.05


def test_the_array_tolerates_the_chosen_switch_with_margin() -> None:
    design = antenna.Design()
    assert antenna.max_c_off(design) > 2 * design.c_off


def test_switches_that_stay_too_capacitive_when_off_cannot_be_matched() -> None:
    design = antenna.Design()
    with pytest.raises(ValueError, match=r"off-capacitance|cannot be matched"):
        antenna.solve(replace(design, c_off=3 * antenna.max_c_off(design)))


def test_a_pad_too_small_for_its_turns_is_refused() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        antenna.Loop(side=0.005, turns=5).inductance()


def test_the_loop_inductance_follows_the_wheeler_formula() -> None:
    """Mohan et al.: 40 mm, 3 turns, 0.5/0.5 mm: d_avg 37.5 mm, fill 0.0667 -> about 0.84 uH."""
    assert antenna.Loop().inductance() == pytest.approx(
        2.34 * antenna.MU0 * 9 * 0.0375 / (1 + 2.75 * 5 / 75), rel=1e-9)


def test_preferred_values_are_the_nearest_on_a_log_scale() -> None:
    assert antenna.nearest(31.6e-12) == pytest.approx(33e-12)
    assert antenna.nearest(211e-12) == pytest.approx(220e-12)
    with pytest.raises(ValueError):
        antenna.nearest(0)
