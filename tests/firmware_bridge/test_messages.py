"""Byte fixtures for each link message, and the errors of ``messages.decode`` (PROTOCOL.md 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.codec import Frame, FrameDecoder, encode_frame
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
    Message,
    MessageError,
    MessageType,
    SnapshotRequest,
    State,
    decode,
    encode,
    encode_bytes,
    slot_mask,
    slots_from_mask,
)

PROTOCOL = Path(__file__).resolve().parents[2] / "firmware_bridge" / "PROTOCOL.md"
UNIT_ID = bytes.fromhex("E6614103E7452D2F")
TAG = bytes.fromhex("04A1B2C3D4E5F6")

# (message, seq, frame before COBS as "header | payload | crc", wire bytes): PROTOCOL.md section 10
FIXTURES: list[tuple[Message, int, str, str]] = [
    (Hello("N", UNIT_ID, (1, 0, 0), Capability(0x3F), 4, 2000, 500), 0,
     "01 01 00 00 00 14 | 4E 00 E6 61 41 03 E7 45 2D 2F 01 00 00 00 3F 04 07 D0 01 F4 | 82 CC",
     "00 03 01 01 01 01 03 14 4E 0A E6 61 41 03 E7 45 2D 2F 01 01 01 09 3F 04 07 D0 01 F4 82 CC 00"),
    (State(83000, tuple(s for s in SLOTS if s != "1NT"), (TAG,), (), False, 1, LedMode.OFF), 1,
     "01 02 00 01 00 17 | 00 01 44 38 EF FF FF FF FF 00 01 00 03 01 07 04 A1 B2 C3 D4 E5 F6 00 | 30 EB",
     "00 03 01 02 02 01 02 17 09 01 44 38 EF FF FF FF FF 02 01 0B 03 01 07 04 A1 B2 C3 D4 E5 F6 03 30 EB 00"),
    (Heartbeat(83500, 0, 1480), 2,
     "01 03 00 02 00 08 | 00 01 46 2C 00 00 05 C8 | EF 5C",
     "00 03 01 03 02 02 02 08 04 01 46 2C 01 05 05 C8 EF 5C 00"),
    (Ack(7, MessageType.LED, AckStatus.OK), 3,
     "01 04 00 03 00 04 | 00 07 81 00 | EE 2E",
     "00 03 01 04 02 03 02 04 03 07 81 03 EE 2E 00"),
    (Led(LedMode.ON, 500), 7,
     "01 81 00 07 00 03 | 01 01 F4 | B1 04",
     "00 03 01 81 02 07 07 03 01 01 F4 B1 04 00"),
    (Led(LedMode.BLINK, 400), 8,
     "01 81 00 08 00 03 | 02 01 90 | 01 75",
     "00 03 01 81 02 08 07 03 02 01 90 01 75 00"),
    (Buzzer(250), 9,
     "01 82 00 09 00 02 | 00 FA | 35 BE",
     "00 03 01 82 02 09 02 02 04 FA 35 BE 00"),
    (SnapshotRequest(True), 10,
     "01 83 00 0A 00 01 | 01 | 18 D4",
     "00 03 01 83 02 0A 05 01 01 18 D4 00"),
]
IDS = [type(m).__name__ + str(seq) for m, seq, _, _ in FIXTURES]


@pytest.mark.parametrize(("message", "seq", "frame", "wire"), FIXTURES, ids=IDS)
def test_each_message_encodes_to_its_fixture(message: Message, seq: int, frame: str, wire: str) -> None:
    header, payload, crc = (bytes.fromhex(part) for part in frame.split("|"))
    assert encode(message, seq) == Frame(header[1], seq, payload)
    assert encode_bytes(message, seq) == bytes.fromhex(wire)
    assert len(header) == 6 and header[4:] == len(payload).to_bytes(2, "big")
    assert encode_frame(Frame(header[1], seq, payload))[-3:-1] == crc


@pytest.mark.parametrize(("message", "seq", "frame", "wire"), FIXTURES, ids=IDS)
def test_each_fixture_decodes_to_its_message(message: Message, seq: int, frame: str, wire: str) -> None:
    [decoded] = FrameDecoder().feed(bytes.fromhex(wire))
    assert isinstance(decoded, Frame)
    assert decoded.seq == seq
    assert decode(decoded) == message


@pytest.mark.parametrize(("message", "seq", "frame", "wire"), FIXTURES, ids=IDS)
def test_protocol_md_shows_each_fixture(message: Message, seq: int, frame: str, wire: str) -> None:
    text = PROTOCOL.read_text(encoding="utf-8")
    assert f"frame: {frame}\nwire:  {wire}\n" in text


def test_slot_order_is_1c_to_7nt_then_pass_x_xx_stop_alert() -> None:
    assert len(SLOTS) == 40
    assert SLOTS[:6] == ("1C", "1D", "1H", "1S", "1NT", "2C")
    assert SLOTS[34] == "7NT"
    assert SLOTS[35:] == ("Pass", "X", "XX", "Stop", "Alert")
    assert slots_from_mask(slot_mask({"Alert", "1C"})) == ("1C", "Alert")
    assert slot_mask(SLOTS) == (1 << 40) - 1


def test_state_keeps_slots_in_wire_order_and_repr_rebuilds_it() -> None:
    state = State(5, ("Pass", "1C"), led=LedMode.BLINK)
    assert state.slots == ("1C", "Pass")
    assert eval(repr(state), {"State": State, "LedMode": LedMode}) == state


def test_state_with_a_ten_byte_uid_round_trips() -> None:
    uid = bytes(range(1, 11))
    state = State(1, (), (TAG, uid), (bytes.fromhex("DEADBEEF"),), True, 255, LedMode.ON, False, True)
    assert decode(encode(state, 3)) == state


def test_trailing_payload_bytes_of_a_later_minor_version_are_ignored() -> None:
    frame = encode(Heartbeat(1, 2, 3), 0)
    assert decode(Frame(frame.type, 0, frame.payload + b"\x99\x98")) == Heartbeat(1, 2, 3)


@pytest.mark.parametrize(("frame", "message"), [
    (Frame(0x42, 9, b""), "unknown message type 0x42 in frame seq 9"),
    (Frame(0x02, 4, bytes(11)),
     r"STATE frame seq 4: payload of 11 bytes ends inside STATE fixed fields \(bytes 0..12\)"),
    (Frame(0x02, 4, bytes(13) + b"\x01\x05" + bytes(5) + b"\x00"),
     "STATE frame seq 4: play UID 0 length 5 at byte 14 is not 4, 7 or 10"),
    (Frame(0x02, 4, bytes(13) + b"\x01\x04\x01\x02"), r"ends inside play UID 0 \(bytes 15..18\)"),
    (Frame(0x02, 4, bytes(11) + b"\x07" + bytes(3)), "LED mode 7 is not 0"),
    (Frame(0x01, 0, b"Q" + bytes(19)), "HELLO frame seq 0: seat byte 51 is not one of N, E, S, W"),
    (Frame(0x04, 1, b"\x00\x01\x81\x09"), "ACK status 9"),
    (Frame(0x83, 1, b""),
     "SNAPSHOT_REQUEST frame seq 1: payload of 0 bytes ends inside SNAPSHOT_REQUEST flags"),
])
def test_decode_says_what_is_wrong_and_where(frame: Frame, message: str) -> None:
    with pytest.raises(MessageError, match=message):
        decode(frame)


def test_invalid_message_values_are_refused() -> None:
    with pytest.raises(MessageError, match="seat 'Q'"):
        Hello("Q", UNIT_ID, (1, 0, 0), Capability(0))
    with pytest.raises(MessageError, match="unit id 0102 has 2 bytes"):
        Hello("N", b"\x01\x02", (1, 0, 0), Capability(0))
    with pytest.raises(MessageError, match="unknown bidding-box slot '8NT'"):
        State(0, ("8NT",))
    with pytest.raises(MessageError, match="play UID 010203 has 3 bytes"):
        State(0, (), (b"\x01\x02\x03",))
    with pytest.raises(MessageError, match="buzz duration"):
        Buzzer(70000)


def test_message_types_say_their_direction() -> None:
    assert not MessageType.STATE.from_host
    assert MessageType.LED.from_host
