"""Frames of the Pi <-> seat-unit link: COBS, CRC-16/CCITT-FALSE and a resynchronising decoder.

Pure and byte-oriented (docs/architecture.md: ``firmware_bridge`` holds frames and codec;
a wire protocol is a pure bytes-in/bytes-out class). The layout is specified in
``firmware_bridge/PROTOCOL.md``: a frame is ``version type seq(2) length(2) payload crc(2)``,
big-endian, COBS-encoded and sent as ``00 <block> 00``. The seat firmware carries its own
copy of this codec (``firmware/seatfw/wire.py``), since it may import none of our packages;
the tests hold both to the same byte fixtures.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass

from controller.errors import BridgeTableError

__all__ = [
    "DELIMITER",
    "HEADER_SIZE",
    "MAX_ENCODED_SIZE",
    "MAX_PAYLOAD",
    "PROTOCOL_VERSION",
    "DecodeError",
    "Frame",
    "FrameDecoder",
    "FrameError",
    "cobs_decode",
    "cobs_encode",
    "crc16_ccitt_false",
    "decode_frame",
    "encode_frame",
]

PROTOCOL_VERSION = 1
"""Major protocol version carried by every frame; a receiver drops frames of another one."""

DELIMITER = 0x00
HEADER = struct.Struct(">BBHH")
HEADER_SIZE = HEADER.size
CRC_SIZE = 2
MAX_PAYLOAD = 1024
MAX_RAW_SIZE = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE
MAX_ENCODED_SIZE = MAX_RAW_SIZE + MAX_RAW_SIZE // 254 + 1
"""Longest COBS block a valid frame can produce; longer runs without a delimiter are garbage."""


class FrameError(BridgeTableError, ValueError):
    """Bytes that are not a valid frame (bad COBS, bad CRC, wrong version or length)."""


def crc16_ccitt_false(data: bytes | bytearray | memoryview, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data``: polynomial 0x1021, initial 0xFFFF, no reflection, no final xor.

    ``crc16_ccitt_false(b"123456789") == 0x29B1``. Run over a frame followed by its CRC
    sent most significant byte first, the result is 0 (PROTOCOL.md "Checksum").
    """
    return binascii.crc_hqx(data, crc)


def cobs_encode(data: bytes | bytearray) -> bytes:
    """Consistent Overhead Byte Stuffing of ``data``: the result holds no 0x00 byte.

    Each block of up to 254 non-zero bytes is preceded by its length plus one; a full
    block (code 0xFF) implies no zero after it. Overhead: one byte per 254, at least one.
    The encoding is the minimal one of Cheshire and Baker's paper.
    """
    out = bytearray()
    blocks = bytes(data).split(b"\x00")
    last = len(blocks) - 1
    for k, block in enumerate(blocks):
        full = len(block) >= 254
        while len(block) >= 254:
            out.append(0xFF)
            out += block[:254]
            block = block[254:]
        if k == last and full and not block:
            break  # data ends with a full block: no zero is implied, no code needed
        out.append(len(block) + 1)
        out += block
    return bytes(out)


def cobs_decode(data: bytes | bytearray | memoryview) -> bytes:
    """Undo ``cobs_encode``; raises ``FrameError`` on a zero byte or a code running past the end."""
    data = bytes(data)
    zero = data.find(b"\x00")
    if zero >= 0:
        raise FrameError(f"zero byte inside a COBS block at offset {zero}")
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if end > n:
            raise FrameError(f"COBS code {code:#04x} at offset {i} runs {end - n} byte(s) past the end")
        out += data[i + 1:end]
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame: message ``type``, sender's sequence number ``seq`` (0..65535) and ``payload``."""

    type: int
    seq: int
    payload: bytes = b""
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        if not 0 <= self.type <= 0xFF:
            raise FrameError(f"frame type {self.type} is not a byte")
        if not 0 <= self.seq <= 0xFFFF:
            raise FrameError(f"sequence number {self.seq} is outside 0..65535")
        if not 0 <= self.version <= 0xFF:
            raise FrameError(f"protocol version {self.version} is not a byte")
        if len(self.payload) > MAX_PAYLOAD:
            raise FrameError(f"payload of {len(self.payload)} bytes exceeds {MAX_PAYLOAD}")


def encode_frame(frame: Frame) -> bytes:
    """The wire bytes of ``frame``: ``00``, COBS(header + payload + CRC), ``00``.

    The leading delimiter ends whatever garbage the line carried before, so a frame sent
    after noise is never lost with it (PROTOCOL.md "Framing").
    """
    raw = bytearray(HEADER.pack(frame.version, frame.type, frame.seq, len(frame.payload)))
    raw += frame.payload
    raw += crc16_ccitt_false(raw).to_bytes(2, "big")
    return b"\x00" + cobs_encode(raw) + b"\x00"


def decode_frame(block: bytes | bytearray | memoryview) -> Frame:
    """The frame in one COBS ``block`` (delimiters removed); raises ``FrameError`` naming the fault.

    Checks, in order: COBS structure, minimum size, CRC, protocol version, length field.
    """
    raw = cobs_decode(block)
    if len(raw) < HEADER_SIZE + CRC_SIZE:
        minimum = HEADER_SIZE + CRC_SIZE
        raise FrameError(f"frame of {len(raw)} bytes is shorter than the {minimum}-byte minimum")
    if crc16_ccitt_false(raw) != 0:
        said, computed = raw[-2] << 8 | raw[-1], crc16_ccitt_false(raw[:-2])
        raise FrameError(f"CRC mismatch: frame says {said:#06x}, its bytes give {computed:#06x}")
    version, type_, seq, length = HEADER.unpack_from(raw)
    if version != PROTOCOL_VERSION:
        raise FrameError(f"unsupported protocol version {version} (this side speaks {PROTOCOL_VERSION})")
    carried = len(raw) - HEADER_SIZE - CRC_SIZE
    if length != carried:
        raise FrameError(f"length field says {length} payload bytes but the frame carries {carried}")
    return Frame(type_, seq, raw[HEADER_SIZE:-CRC_SIZE], version)


@dataclass(frozen=True, slots=True)
class DecodeError:
    """A run of bytes between delimiters that was not a valid frame, and why (a value, never raised)."""

    reason: str
    data: bytes

    def __str__(self) -> str:
        shown = self.data[:16].hex(" ")
        more = "..." if len(self.data) > 16 else ""
        return f"{self.reason} ({len(self.data)} bytes: {shown}{more})"


class FrameDecoder:
    """Incremental frame decoder: ``feed`` bytes as they arrive, get frames and errors back.

    Never raises on any input. Empty blocks (two delimiters in a row) are ignored. A block
    that is not a valid frame yields one ``DecodeError``; the decoder resynchronises on the
    next delimiter. A run longer than ``MAX_ENCODED_SIZE`` without a delimiter yields one
    ``DecodeError`` and is dropped up to the next delimiter, so memory stays bounded.
    """

    __slots__ = ("_buf", "_discarding", "bad", "frames")

    def __init__(self) -> None:
        self._buf = bytearray()
        self._discarding = False
        self.frames = 0
        self.bad = 0

    def reset(self) -> None:
        """Forget any partial frame (after reopening the port)."""
        self._buf.clear()
        self._discarding = False

    def feed(self, data: bytes | bytearray | memoryview) -> list[Frame | DecodeError]:
        """Frames and decode errors completed by ``data``, in arrival order."""
        out: list[Frame | DecodeError] = []
        buf = self._buf
        buf += data
        start = 0
        while True:
            end = buf.find(b"\x00", start)
            if end < 0:
                break
            if self._discarding:
                self._discarding = False
            elif end > start:
                block = bytes(buf[start:end])
                try:
                    out.append(decode_frame(block))
                    self.frames += 1
                except FrameError as exc:
                    out.append(DecodeError(str(exc), block))
                    self.bad += 1
            start = end + 1
        if start:
            del buf[:start]
        if len(buf) > MAX_ENCODED_SIZE:
            if not self._discarding:
                out.append(DecodeError(f"no delimiter within {MAX_ENCODED_SIZE} bytes", bytes(buf[:64])))
                self.bad += 1
                self._discarding = True
            buf.clear()
        return out
