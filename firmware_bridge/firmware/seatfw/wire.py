"""The seat unit's side of the link: frames (COBS + CRC-16/CCITT-FALSE) and message payloads.

Byte-for-byte the layout of ``firmware_bridge/PROTOCOL.md``; a copy of the host codec in
MicroPython-friendly form (no exceptions on the hot path, no dataclasses), since the
firmware may import none of our packages. The tests check both sides against one another.
"""

import struct

TYPE_CHECKING = False  # type checkers take it as True; MicroPython has no typing module

if TYPE_CHECKING:
    from collections.abc import Sequence

PROTOCOL_VERSION = 1
PROTOCOL_MINOR = 1

T_HELLO = 0x01
T_STATE = 0x02
T_HEARTBEAT = 0x03
T_ACK = 0x04
T_LED = 0x81
T_BUZZER = 0x82
T_SNAPSHOT_REQUEST = 0x83

ACK_OK = 0
ACK_UNKNOWN_TYPE = 1
ACK_BAD_PAYLOAD = 2

CAP_PLAY_READER = 0x01
CAP_SPREAD_READER = 0x02
CAP_BIDDING_BOX = 0x04
CAP_DIRECTOR_BUTTON = 0x08
CAP_LED = 0x10
CAP_BUZZER = 0x20
CAP_SPREAD_PADS = 0x40

LED_OFF = 0
LED_ON = 1
LED_BLINK = 2

HEADER_SIZE = 6
MAX_RX_FRAME = 64
"""Host commands are a few bytes; a longer block is garbage and is dropped."""


def _crc_table() -> "list[int]":
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _crc_table()


def crc16(data: "bytes | bytearray | memoryview", crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, not reflected, no final xor)."""
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def cobs_encode(data: "bytes | bytearray") -> bytearray:
    """COBS-encode ``data`` (no zero byte in the result)."""
    out = bytearray(1)
    code_pos = 0
    code = 1
    full = False
    for b in data:
        if b == 0:
            out[code_pos] = code
            code_pos = len(out)
            out.append(0)
            code = 1
            full = False
        else:
            out.append(b)
            code += 1
            if code == 0xFF:
                out[code_pos] = code
                code_pos = len(out)
                out.append(0)
                code = 1
                full = True
    if full and code == 1:
        return out[:code_pos]  # ends with a full block: no zero implied, no code needed
    out[code_pos] = code
    return out


def cobs_decode(data: "bytes | bytearray") -> "bytearray | None":
    """Undo ``cobs_encode``; None if ``data`` is not a valid COBS block."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0 or i + code > n:
            return None
        out.extend(data[i + 1:i + code])
        i += code
        if code != 0xFF and i < n:
            out.append(0)
    return out


def encode_frame(type_: int, seq: int, payload: "bytes | bytearray") -> bytes:
    """Wire bytes of one frame: ``00``, COBS(version type seq length payload crc), ``00``."""
    raw = bytearray(struct.pack(">BBHH", PROTOCOL_VERSION, type_, seq & 0xFFFF, len(payload)))
    raw.extend(payload)
    crc = crc16(raw)
    raw.append(crc >> 8)
    raw.append(crc & 0xFF)
    return b"\x00" + bytes(cobs_encode(raw)) + b"\x00"


def decode_frame(block: "bytes | bytearray") -> "tuple[int, int, bytes] | None":
    """``(type, seq, payload)`` of one COBS block, or None if it is not a valid frame."""
    raw = cobs_decode(block)
    if raw is None or len(raw) < HEADER_SIZE + 2 or crc16(raw) != 0:
        return None
    version, type_, seq, length = struct.unpack(">BBHH", bytes(raw[:HEADER_SIZE]))
    if version != PROTOCOL_VERSION or length != len(raw) - HEADER_SIZE - 2:
        return None
    return type_, seq, bytes(raw[HEADER_SIZE:HEADER_SIZE + length])


class FrameReader:
    """Splits the byte stream from the host into frames; counts and drops bad ones."""

    def __init__(self, max_block: int = MAX_RX_FRAME) -> None:
        self._buf = bytearray()
        self._max = max_block
        self._discarding = False
        self.bad = 0

    def feed(self, data: "bytes | bytearray") -> "list[tuple[int, int, bytes]]":
        """Frames completed by ``data``."""
        frames = []
        for b in data:
            if b == 0:
                if self._discarding:
                    self._discarding = False
                elif self._buf:
                    frame = decode_frame(self._buf)
                    if frame is None:
                        self.bad += 1
                    else:
                        frames.append(frame)
                self._buf = bytearray()
            elif not self._discarding:
                self._buf.append(b)
                if len(self._buf) > self._max:
                    self.bad += 1
                    self._discarding = True
                    self._buf = bytearray()
        return frames


def hello_payload(seat: str, unit_id: bytes, firmware: "Sequence[int]", capabilities: int,
                  max_tags: int, state_period_ms: int, heartbeat_period_ms: int) -> bytes:
    """HELLO: seat, protocol minor, unit id (8), firmware (3), capabilities, max tags, periods."""
    uid8 = (bytes(unit_id) + bytes(8))[:8]
    return (struct.pack(">BB", ord(seat), PROTOCOL_MINOR) + uid8
            + struct.pack(">BBBHBHH", firmware[0], firmware[1], firmware[2], capabilities, max_tags,
                          state_period_ms, heartbeat_period_ms))


def _uid_list(out: bytearray, uids: "Sequence[bytes]") -> None:
    out.append(len(uids))
    for uid in uids:
        out.append(len(uid))
        out.extend(uid)


def state_payload(uptime_ms: int, rows: "Sequence[int]", button: bool, presses: int, led_mode: int,
                  play_ok: bool, spread_ok: bool, play: "Sequence[bytes]",
                  spread: "Sequence[bytes]") -> bytes:
    """STATE: uptime, slot bitmap (byte k = matrix row k), button, presses, LED, readers, tags."""
    out = bytearray(struct.pack(">I", uptime_ms & 0xFFFFFFFF))
    for k in range(5):
        out.append(rows[k] & 0xFF if k < len(rows) else 0)
    out.append(1 if button else 0)
    out.append(presses & 0xFF)
    out.append(led_mode)
    out.append((1 if play_ok else 0) | (2 if spread_ok else 0))
    _uid_list(out, play)
    _uid_list(out, spread)
    return bytes(out)


def heartbeat_payload(uptime_ms: int, rx_bad: int, loop_hz: int) -> bytes:
    """HEARTBEAT: uptime, bad frames received, main-loop passes per second."""
    return struct.pack(">IHH", uptime_ms & 0xFFFFFFFF, min(rx_bad, 0xFFFF), min(loop_hz, 0xFFFF))


def ack_payload(seq: int, type_: int, status: int) -> bytes:
    """ACK: the acknowledged command's sequence number and type, and the status."""
    return struct.pack(">HBB", seq & 0xFFFF, type_ & 0xFF, status)
