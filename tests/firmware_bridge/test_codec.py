"""Byte fixtures for the link's framing: COBS, CRC-16/CCITT-FALSE, frames, the decoder (PROTOCOL.md 3-4)."""

from __future__ import annotations

import pytest

from firmware_bridge.codec import (
    MAX_ENCODED_SIZE,
    DecodeError,
    Frame,
    FrameDecoder,
    FrameError,
    cobs_decode,
    cobs_encode,
    crc16_ccitt_false,
    decode_frame,
    encode_frame,
)

# The examples of Cheshire and Baker's COBS paper (as tabulated in most references).
COBS_FIXTURES = [
    ("", "01"),
    ("00", "01 01"),
    ("00 00", "01 01 01"),
    ("00 11 00", "01 02 11 01"),
    ("11 22 00 33", "03 11 22 02 33"),
    ("11 22 33 44", "05 11 22 33 44"),
    ("11 00 00 00", "02 11 01 01 01"),
    (bytes(range(1, 255)).hex(), "ff" + bytes(range(1, 255)).hex()),
    (bytes(range(0, 255)).hex(), "01 ff" + bytes(range(1, 255)).hex()),
    (bytes(range(1, 256)).hex(), "ff" + bytes(range(1, 255)).hex() + "02 ff"),
    (bytes(range(2, 256)).hex() + "00", "ff" + bytes(range(2, 256)).hex() + "01 01"),
    (bytes(range(3, 256)).hex() + "00 01", "fe" + bytes(range(3, 256)).hex() + "02 01"),
]


@pytest.mark.parametrize(("raw", "encoded"), COBS_FIXTURES)
def test_cobs_encodes_the_papers_examples(raw: str, encoded: str) -> None:
    assert cobs_encode(bytes.fromhex(raw)) == bytes.fromhex(encoded)
    assert cobs_decode(bytes.fromhex(encoded)) == bytes.fromhex(raw)


def test_cobs_decode_rejects_a_zero_byte_naming_its_offset() -> None:
    with pytest.raises(FrameError, match="zero byte inside a COBS block at offset 2"):
        cobs_decode(bytes.fromhex("03 11 00"))


def test_cobs_decode_rejects_a_code_running_past_the_end() -> None:
    with pytest.raises(FrameError, match=r"COBS code 0x05 at offset 0 runs 2 byte\(s\) past the end"):
        cobs_decode(bytes.fromhex("05 11 22"))


def test_crc16_ccitt_false_check_value() -> None:
    assert crc16_ccitt_false(b"123456789") == 0x29B1
    assert crc16_ccitt_false(b"") == 0xFFFF


def test_crc_over_a_frame_and_its_crc_msb_first_is_zero() -> None:
    body = bytes.fromhex("01 83 00 0A 00 01 01")
    crc = crc16_ccitt_false(body)
    assert crc == 0x18D4
    assert crc16_ccitt_false(body + crc.to_bytes(2, "big")) == 0


def test_encode_frame_sends_both_delimiters() -> None:
    wire = encode_frame(Frame(0x83, 10, b"\x01"))
    assert wire == bytes.fromhex("00 03 01 83 02 0A 05 01 01 18 D4 00")


def test_decode_frame_reads_back_an_encoded_frame() -> None:
    frame = Frame(0x02, 0xFFFF, bytes(range(256)) * 3)
    assert decode_frame(encode_frame(frame)[1:-1]) == frame


@pytest.mark.parametrize(("block", "reason"), [
    ("04 01 02 03", "shorter than the 8-byte minimum"),
    ("03 01 83 02 0A 05 01 01 18 D5", "CRC mismatch: frame says 0x18d5, its bytes give 0x18d4"),
    ("03 02 83 02 0A 05 01 01 C0 56", "unsupported protocol version 2"),
    ("03 01 83 02 0A 05 02 01 4D 87", "length field says 2 payload bytes but the frame carries 1"),
])
def test_decode_frame_says_what_is_wrong(block: str, reason: str) -> None:
    with pytest.raises(FrameError, match=reason):
        decode_frame(bytes.fromhex(block))


def test_frame_values_are_checked() -> None:
    with pytest.raises(FrameError, match="sequence number 65536"):
        Frame(1, 65536)
    with pytest.raises(FrameError, match="frame type 256"):
        Frame(256, 0)
    with pytest.raises(FrameError, match="exceeds 1024"):
        Frame(1, 0, bytes(1025))


def test_decoder_takes_a_frame_byte_by_byte() -> None:
    frame = Frame(0x02, 7, b"\x00\x01\x02\x00")
    decoder = FrameDecoder()
    out: list[Frame | DecodeError] = []
    for b in encode_frame(frame):
        out += decoder.feed(bytes((b,)))
    assert out == [frame]


def test_decoder_recovers_the_frame_after_garbage() -> None:
    frame = Frame(0x03, 1, b"hb")
    out = FrameDecoder().feed(b"MPY: soft reboot\r\n" + encode_frame(frame))
    assert len(out) == 2
    assert isinstance(out[0], DecodeError)
    assert out[1] == frame


def test_decoder_ignores_empty_blocks() -> None:
    frame = Frame(0x03, 1, b"")
    assert FrameDecoder().feed(b"\x00\x00\x00" + encode_frame(frame) + encode_frame(frame)) == [frame, frame]


def test_decoder_drops_a_run_without_delimiter_once_and_resynchronises() -> None:
    decoder = FrameDecoder()
    out = decoder.feed(b"\x01" * (MAX_ENCODED_SIZE + 1))
    assert len(out) == 1 and isinstance(out[0], DecodeError)
    assert "no delimiter within" in out[0].reason
    assert decoder.feed(b"\x01" * 5000) == []
    frame = Frame(0x01, 2, b"x")
    assert decoder.feed(encode_frame(frame)) == [frame]
    assert decoder.bad == 1 and decoder.frames == 1


def test_decode_error_shows_the_bytes() -> None:
    error = FrameDecoder().feed(b"\x05\x01\x00")[0]
    assert isinstance(error, DecodeError)
    assert str(error) == "COBS code 0x05 at offset 0 runs 3 byte(s) past the end (2 bytes: 05 01)"
