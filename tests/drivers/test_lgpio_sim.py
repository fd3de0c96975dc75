"""The simulated lgpio behaves as lgpio does where rpi-lgpio relies on it."""

from __future__ import annotations

import queue

import pytest

from drivers import lgpio_sim
from drivers.lgpio_sim import SimChip


def test_handles_carry_the_chip_number_and_errors_raise_lgpio_error(chip: SimChip) -> None:
    handle = lgpio_sim.gpiochip_open(0)
    assert handle >> 16 == 0
    assert lgpio_sim.gpio_get_chip_info(handle)[0:3] == [0, 54, "gpiochip0"]
    with pytest.raises(lgpio_sim.error, match="GPIO not allocated"):
        lgpio_sim.gpio_read(handle, 4)
    with pytest.raises(lgpio_sim.error, match="not a gpiochip"):
        lgpio_sim.gpiochip_open(7)
    chip.unavailable = True
    with pytest.raises(lgpio_sim.error, match="can not open gpiochip"):
        lgpio_sim.gpiochip_open(0)
    assert lgpio_sim.gpiochip_close(handle) == 0


def test_modes_report_the_bits_rpi_lgpio_reads(chip: SimChip) -> None:
    handle = lgpio_sim.gpiochip_open(0)
    lgpio_sim.gpio_claim_alert(handle, 4, lgpio_sim.FALLING_EDGE, lgpio_sim.SET_PULL_UP)
    mode = lgpio_sim.gpio_get_mode(handle, 4)
    assert mode & 0x400 and mode & lgpio_sim.SET_PULL_UP and (mode >> 17) & 3 == lgpio_sim.FALLING_EDGE
    lgpio_sim.gpio_claim_output(handle, 17, 1)
    assert lgpio_sim.gpio_get_mode(handle, 17) & 0x202 == 0x202
    assert lgpio_sim.gpio_read(handle, 17) == 1 and lgpio_sim.gpio_read(handle, 4) == 1


def test_debounced_alerts_come_once_stable_and_are_timestamped_after_the_wait(chip: SimChip) -> None:
    handle = lgpio_sim.gpiochip_open(0)
    lgpio_sim.gpio_claim_alert(handle, 4, lgpio_sim.BOTH_EDGES, lgpio_sim.SET_PULL_UP)
    lgpio_sim.gpio_set_debounce_micros(handle, 4, 1000)
    alerts: queue.Queue[tuple[int, int, int, int]] = queue.Queue()
    cb = lgpio_sim.callback(handle, 4, lgpio_sim.BOTH_EDGES, lambda *a: alerts.put(a))
    start = chip.now_ns
    chip.drive(4, 0)
    chip.drive(4, 1, after_us=500)   # back before 1 ms: no alert
    chip.drive(4, 0, after_us=500)
    chip.advance(2000)
    assert alerts.get(timeout=5) == (0, 4, 0, start + 1_000_000 + 1_000_000)
    chip.drive(4, 1)
    chip.settle()
    assert alerts.get(timeout=5)[2] == 1
    assert cb.tally() == 2
    cb.cancel()


def test_edges_not_asked_for_raise_no_alert(chip: SimChip) -> None:
    handle = lgpio_sim.gpiochip_open(0)
    lgpio_sim.gpio_claim_alert(handle, 4, lgpio_sim.RISING_EDGE, lgpio_sim.SET_PULL_DOWN)
    alerts: queue.Queue[tuple[int, int, int, int]] = queue.Queue()
    lgpio_sim.callback(handle, 4, func=lambda *a: alerts.put(a))
    chip.drive(4, 1)
    chip.drive(4, 0)
    chip.drive(4, 1)
    assert [alerts.get(timeout=5)[2], alerts.get(timeout=5)[2]] == [1, 1]
    assert alerts.empty()
