"""A seat unit on a simulated board for the firmware tests: fake port, fake millisecond clock."""

from __future__ import annotations

from firmware_bridge.codec import Frame, FrameDecoder
from firmware_bridge.firmware.seatfw import board as pins
from firmware_bridge.firmware.seatfw.app import Config, SeatFirmware
from firmware_bridge.firmware.seatfw.ticks import Ticks
from firmware_bridge.messages import SLOTS, Message, decode, encode_bytes
from firmware_bridge.sim_machine import SimBoard, SimButton, SimContactMatrix, SimMachine, SimMFRC522
from firmware_bridge.sim_pads import SimPadBoard

from .conftest import FakeTicks


class CapturePort:
    """The firmware's link port: the test feeds host bytes and reads what the unit sent."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.outbox = bytearray()

    def read(self) -> bytes:
        data = bytes(self.inbox)
        self.inbox.clear()
        return data

    def write(self, data: bytes) -> None:
        self.outbox += data


class Rig:
    """A seat unit on a simulated board, with a fake port and a fake millisecond clock."""

    def __init__(self, seat_jumpers: tuple[bool, bool] = (False, True), config: Config | None = None,
                 spread_pads: int = 0) -> None:
        self.board = SimBoard(bytes.fromhex("E6614103E7452D2F"))
        self.machine = SimMachine(self.board)
        self.chips = {"play": SimMFRC522(), "spread": SimMFRC522()}
        self.board.attach_spi(0, pins.PLAY_CS_PIN, self.chips["play"])
        self.board.attach_spi(0, pins.SPREAD_CS_PIN, self.chips["spread"])
        self.matrix = SimContactMatrix(self.board, pins.ROW_PINS, pins.COL_PINS)
        for i in range(40):
            self.matrix.set(i // 8, i % 8, True)
        self.button = SimButton(self.board, pins.BUTTON_PIN)
        for pin, fitted in zip(pins.SEAT_PINS, seat_jumpers, strict=True):
            self.board.attach_source(pin, (lambda: 0) if fitted else (lambda: None))
        self.ms = FakeTicks(1000)
        self.port = CapturePort()
        self.pads = SimPadBoard(self.board, 0, pins.PAD_LATCH_PIN, self.chips["spread"]) if spread_pads else None
        hw = pins.build(self.machine, spread_pads=spread_pads)
        self.firmware = SeatFirmware(hw, self.port, Ticks(self.ms), config)
        self._decoder = FrameDecoder()

    def run(self, ms: int) -> None:
        for _ in range(ms):
            self.firmware.poll()
            self.ms.ms += 1

    def sent(self) -> list[Message]:
        items = self._decoder.feed(bytes(self.port.outbox))
        self.port.outbox.clear()
        assert all(isinstance(item, Frame) for item in items)
        return [decode(item) for item in items if isinstance(item, Frame)]

    def host(self, message: Message, seq: int = 0) -> None:
        self.port.inbox += encode_bytes(message, seq)

    def slot(self, name: str, present: bool) -> None:
        index = SLOTS.index(name)
        self.matrix.set(index // 8, index % 8, present)
