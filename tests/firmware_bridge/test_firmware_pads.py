"""The seat firmware reading the spread zone through its pad array (hardware/spread-zone.md).

The firmware runs under CPython on the simulated board with a simulated pad board: two
shift registers on the SPI lines latched by GP28, 16 pads switched onto the spread
MFRC522. Times are the fake millisecond clock's, set by the firmware's ``Config``: the
unit boots at 1000 ms and the spread zone's first cycle starts half a reader period later.
"""

from __future__ import annotations

from firmware_bridge.firmware.seatfw import board as pins
from firmware_bridge.firmware.seatfw.app import Config
from firmware_bridge.firmware.seatfw.pads import PadScanner
from firmware_bridge.firmware.seatfw.readers import ZoneScanner
from firmware_bridge.messages import Capability, Hello, State

from .rig import Rig

CARD = bytes.fromhex("04A1B2C3D4E5F6")
OTHER = bytes.fromhex("04A1B2C3D4E5F7")
BOOT_MS = 1000
FIRST_CYCLE_MS = BOOT_MS + Config().reader_period_ms // 2


def _slot_ms(cycle: int, pad: int) -> int:
    """When pad ``pad`` of cycle ``cycle`` is latched, from the configured slot time."""
    slot_us = Config().pad_slot_us
    return FIRST_CYCLE_MS + cycle * 16 * slot_us // 1000 + pad * slot_us // 1000


def _read_ms(cycle: int, pad: int) -> int:
    """When that pad's inventory runs: after the switch time and the settle time."""
    cfg = Config()
    return _slot_ms(cycle, pad) + cfg.pad_switch_ms + cfg.field_settle_ms


def _rig() -> Rig:
    rig = Rig(spread_pads=16)
    rig.firmware.boot()
    rig.sent()
    return rig


def _spread(rig: Rig) -> list[bytes]:
    return rig.firmware.zones[1].uids()


def _run_until(rig: Rig, ms: int) -> list[tuple[int, tuple[bytes, ...]]]:
    """Poll every millisecond up to ``ms``; the spread tags of every STATE sent, with its time."""
    states: list[tuple[int, tuple[bytes, ...]]] = []
    while rig.ms.ms < ms:
        rig.firmware.poll()
        states.extend((rig.ms.ms, m.spread) for m in rig.sent() if isinstance(m, State))
        rig.ms.ms += 1
    return states


def _first_seen(rig: Rig, uid: bytes, until: int) -> tuple[int, tuple[int, ...]]:
    """The time ``uid`` is first among the spread tags, and the pads switched on then."""
    while rig.ms.ms < until:
        rig.firmware.poll()
        if uid in _spread(rig):
            assert rig.pads is not None
            return rig.ms.ms, rig.pads.selected
        rig.ms.ms += 1
    raise AssertionError(f"{uid.hex()} not read by {until} ms")


def test_unit_with_a_pad_board_reads_its_spread_zone_pad_by_pad() -> None:
    rig = _rig()
    assert isinstance(rig.firmware.zones[1], PadScanner)
    assert isinstance(rig.firmware.zones[0], ZoneScanner)


def test_pads_are_selected_one_at_a_time_in_order_every_cycle() -> None:
    rig = _rig()
    assert rig.pads is not None and rig.pads.latched == [0]  # every pad off from power-up
    _run_until(rig, _slot_ms(2, 0) + 1)
    words = rig.pads.latched[1:]
    assert words == [1 << pad for pad in range(16)] * 2 + [1]


def test_a_tag_on_pad_k_is_read_while_pad_k_is_selected() -> None:
    rig = _rig()
    assert rig.pads is not None
    rig.pads.put(CARD, 9)
    assert _first_seen(rig, CARD, 2000) == (_read_ms(0, 9), (9,))
    states = _run_until(rig, _read_ms(0, 9) + 2)
    assert states and states[0][1] == (CARD,)  # reported in the next STATE frame


def test_a_tag_read_on_no_pad_is_not_reported() -> None:
    rig = _rig()
    assert rig.pads is not None
    rig.chips["spread"].put(CARD)  # in the reader's field but on no pad: never powered by a pad
    _run_until(rig, _slot_ms(0, 0) + 1)
    assert CARD not in [tag.uid for tag in rig.chips["spread"].tags]
    _run_until(rig, _slot_ms(2, 0))
    assert _spread(rig) == []


def test_a_card_across_two_pads_is_one_tag() -> None:
    rig = _rig()
    assert rig.pads is not None
    rig.pads.put(CARD, 4, 5)
    rig.pads.put(OTHER, 5)
    _run_until(rig, _slot_ms(1, 0))
    assert _spread(rig) == [CARD, OTHER]


def test_a_tag_missed_one_cycle_is_not_reported_gone() -> None:
    rig = _rig()
    assert rig.pads is not None
    rig.pads.put(CARD, 9)
    _run_until(rig, _read_ms(0, 9) + 1)
    rig.pads.remove(CARD)  # off its pad for the whole of cycle 1
    states = _run_until(rig, _read_ms(1, 9) + 1)
    rig.pads.put(CARD, 9)  # back before pad 9 of cycle 2
    states += _run_until(rig, _slot_ms(4, 0))
    assert _spread(rig) == [CARD]
    assert all(spread == (CARD,) for _, spread in states)


def test_a_tag_missed_two_cycles_is_reported_gone_at_the_end_of_the_second() -> None:
    rig = _rig()
    assert rig.pads is not None
    rig.pads.put(CARD, 9)
    _run_until(rig, _read_ms(0, 9) + 1)
    rig.pads.remove(CARD)
    states = _run_until(rig, _slot_ms(4, 0))
    gone = [at for at, spread in states if spread == ()]
    assert gone and gone[0] == _read_ms(2, 15)  # cycles 1 and 2 without a read
    assert all(spread == (CARD,) for at, spread in states if at < gone[0])


def test_the_cycle_is_sixteen_slots_of_the_configured_slot_time() -> None:
    rig = _rig()
    assert rig.pads is not None
    latched_at: list[tuple[int, int]] = []
    rig.board.on_edge(pins.PAD_LATCH_PIN, lambda level: latched_at.append((rig.ms.ms, rig.pads.outputs))
                      if level and rig.pads is not None else None)
    _run_until(rig, _slot_ms(3, 0) + 1)
    scanner = rig.firmware.zones[1]
    assert isinstance(scanner, PadScanner) and scanner.cycle_ms == 200
    assert [at for at, word in latched_at if word == 1] == [_slot_ms(c, 0) for c in range(4)]
    assert [at for at, _ in latched_at[:16]] == [_slot_ms(0, pad) for pad in range(16)]
    assert _slot_ms(1, 0) - _slot_ms(0, 0) == 200


def test_a_slower_slot_time_stretches_the_cycle() -> None:
    rig = Rig(spread_pads=16, config=Config(pad_slot_us=20000))
    rig.firmware.boot()
    scanner = rig.firmware.zones[1]
    assert isinstance(scanner, PadScanner) and scanner.cycle_ms == 320


def test_hello_announces_the_pad_array_beside_the_spread_reader() -> None:
    rig = Rig(spread_pads=16)
    rig.firmware.boot()
    hellos = [m for m in rig.sent() if isinstance(m, Hello)]
    assert hellos and Capability.SPREAD_PADS in hellos[0].capabilities
    assert Capability.SPREAD_READER in hellos[0].capabilities  # an older host still sees a spread reader


def test_unit_without_a_pad_board_keeps_its_one_antenna_and_never_drives_the_latch() -> None:
    rig = Rig(spread_pads=0)
    levels: list[int] = []
    rig.board.on_edge(pins.PAD_LATCH_PIN, levels.append)
    rig.firmware.boot()
    hello = next(m for m in rig.sent() if isinstance(m, Hello))
    assert Capability.SPREAD_PADS not in hello.capabilities
    assert isinstance(rig.firmware.zones[1], ZoneScanner)
    rig.chips["spread"].put(CARD)
    _run_until(rig, BOOT_MS + 200)
    assert _spread(rig) == [CARD] and levels == []


def test_a_dead_pad_board_reader_is_reported_and_switches_every_pad_off() -> None:
    rig = _rig()
    assert rig.pads is not None
    rig.pads.put(CARD, 0)
    _run_until(rig, _slot_ms(1, 0))
    rig.chips["spread"].dead = True
    states = _run_until(rig, _slot_ms(2, 0))
    assert states[-1][1] == () and not rig.firmware.zones[1].ok
    assert rig.pads.selected == ()
    rig.chips["spread"].dead = False
    _run_until(rig, _slot_ms(10, 0))
    assert rig.firmware.zones[1].ok and _spread(rig) == [CARD]
