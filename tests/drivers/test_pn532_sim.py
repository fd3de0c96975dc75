"""The simulated PN532's host protocol and NTAG213, byte for byte (PN532 user manual, NTAG213 datasheet)."""

from __future__ import annotations

import pytest

from drivers.pn532_sim import ACK, ERROR_FRAME, Ntag213, Pn532Chip, crc_a

UID = bytes.fromhex("04A1B2C3D4E5F6")


def command(code: int, params: bytes = b"") -> bytes:
    """A host information frame (TFI 0xD4), normal or extended, with a long preamble."""
    data = bytes((0xD4, code)) + params
    dcs = (-sum(data)) & 0xFF
    if len(data) < 255:
        return bytes(10) + b"\x00\xff" + bytes((len(data), (-len(data)) & 0xFF)) + data + bytes((dcs, 0))
    high, low = len(data) >> 8, len(data) & 0xFF
    return b"\x00\x00\xff\xff\xff" + bytes((high, low, (-(high + low)) & 0xFF)) + data + bytes((dcs, 0))


def answer(chip: Pn532Chip, code: int, params: bytes = b"") -> bytes:
    """The payload of the chip's answer (after ACK, TFI 0xD5 and the answer code)."""
    out = chip.feed(command(code, params))
    assert out.startswith(ACK)
    frame = out[len(ACK):]
    assert frame == Pn532Chip.frame(bytes((code + 1,)) + frame_payload(frame)[1:])
    payload = frame_payload(frame)
    assert payload[0] == code + 1
    return payload[1:]


def frame_payload(frame: bytes) -> bytes:
    if frame[3:5] == b"\xff\xff":
        length = frame[5] << 8 | frame[6]
        return frame[9:8 + length]
    return frame[6:5 + frame[3]]


def test_get_firmware_version_is_acked_then_answered_as_nfcpy_expects() -> None:
    # nfcpy's pn532.init sends exactly this and checks the answer starts with 0000ff06fad50332
    out = Pn532Chip().feed(bytes(10) + bytes.fromhex("0000ff02fed4022a00"))
    dcs = (-(0xD5 + 0x03 + 0x32 + 0x01 + 0x06 + 0x07)) & 0xFF
    assert out == ACK + bytes.fromhex("0000ff06fad50332010607") + bytes((dcs, 0))


def test_sam_configuration_answer_is_the_one_nfcpy_compares_with() -> None:
    out = Pn532Chip().feed(bytes.fromhex("0000ff05fbd4140100001700"))
    assert out == ACK + bytes.fromhex("0000ff02fed5151600")


def test_a_frame_in_pieces_is_answered_once_complete() -> None:
    chip = Pn532Chip()
    frame = command(0x02)
    assert chip.feed(frame[:7]) == b""
    assert chip.feed(frame[7:]).startswith(ACK)


def test_frames_with_bad_checksums_and_host_acks_are_ignored() -> None:
    chip = Pn532Chip()
    bad_lcs = bytes.fromhex("0000ff02ffd4022a00")
    bad_dcs = bytes.fromhex("0000ff02fed4022b00")
    assert chip.feed(bad_lcs + bad_dcs + ACK) == b""
    assert chip.frame_errors == 2
    assert chip.feed(command(0x02)).startswith(ACK)


def test_unknown_command_gets_the_syntax_error_frame() -> None:
    assert Pn532Chip().feed(command(0x8C, bytes(37))) == ACK + ERROR_FRAME


def test_communication_line_test_echoes_an_extended_frame() -> None:
    data = b"\x00" + bytes(x & 0xFF for x in range(262))   # what nfcpy's diagnose('line') sends
    chip = Pn532Chip()
    out = chip.feed(command(0x00, data))
    assert out[len(ACK):len(ACK) + 5] == b"\x00\x00\xff\xff\xff"
    assert answer(Pn532Chip(), 0x00, data) == data


def test_registers_are_written_and_read_back() -> None:
    chip = Pn532Chip()
    assert answer(chip, 0x06, bytes.fromhex("63026303")) == b"\x80\x80"
    assert answer(chip, 0x08, bytes.fromhex("630300")) == b""
    assert answer(chip, 0x06, bytes.fromhex("6303")) == b"\x00"


def test_in_list_passive_target_with_no_tag_leaves_reqa_in_the_fifo() -> None:
    chip = Pn532Chip()
    assert answer(chip, 0x4A, b"\x01\x00") == b"\x00"
    assert answer(chip, 0x06, bytes.fromhex("6339")) == b"\x26"


def test_in_list_passive_target_reports_sens_res_sel_res_and_the_uid() -> None:
    chip = Pn532Chip()
    chip.present(Ntag213(UID))
    assert answer(chip, 0x4A, b"\x01\x00") == b"\x01\x01\x00\x44\x00\x07" + UID


def test_a_halted_tag_stays_quiet_until_the_field_goes_off() -> None:
    chip = Pn532Chip()
    other = bytes.fromhex("04FFFFFFFFFF01")
    chip.present(Ntag213(other))
    chip.present(Ntag213(UID))
    assert answer(chip, 0x4A, b"\x01\x00").endswith(UID)   # the lower UID wins
    assert answer(chip, 0x42, b"\x50\x00") == b"\x01"        # HLTA: never answered
    assert answer(chip, 0x4A, b"\x01\x00").endswith(other)
    assert answer(chip, 0x42, b"\x50\x00") == b"\x01"
    assert answer(chip, 0x4A, b"\x01\x00") == b"\x00"
    assert answer(chip, 0x32, b"\x01\x02") == b""             # field off: everyone wakes up idle
    assert answer(chip, 0x4A, b"\x01\x00").endswith(UID)


def test_two_targets_listed_at_once_and_one_chosen_by_uid() -> None:
    chip = Pn532Chip()
    other = bytes.fromhex("04FFFFFFFFFF01")
    chip.present(Ntag213(UID))
    chip.present(Ntag213(other))
    both = answer(chip, 0x4A, b"\x02\x00")
    assert both == b"\x02" + b"\x01\x00\x44\x00\x07" + UID + b"\x02\x00\x44\x00\x07" + other
    assert answer(chip, 0x4A, b"\x01\x00\x88" + other).endswith(other)


def test_in_communicate_thru_appends_crc_a_when_the_receive_crc_is_off() -> None:
    chip = Pn532Chip()
    chip.present(Ntag213(UID))
    answer(chip, 0x4A, b"\x01\x00")
    version = bytes.fromhex("0004040201000F03")
    assert answer(chip, 0x42, b"\x60") == b"\x00" + version
    answer(chip, 0x08, bytes.fromhex("630300"))   # what nfcpy does for a Type 2 Tag
    assert answer(chip, 0x42, b"\x60") == b"\x00" + version + crc_a(version)
    assert answer(chip, 0x42, b"\xa2\x04\x01\x02\x03\x04") == b"\x00\x0a"   # 4-bit ACK, no CRC
    assert answer(chip, 0x40, b"\x01\x30\x04")[1:5] == b"\x01\x02\x03\x04"


def test_an_unknown_tag_command_mutes_the_tag_until_it_is_selected_again() -> None:
    chip = Pn532Chip()
    chip.present(Ntag213(UID))
    answer(chip, 0x4A, b"\x01\x00")
    assert answer(chip, 0x42, b"\x1a\x00") == b"\x01"   # AUTHENTICATE (Ultralight C only)
    assert answer(chip, 0x42, b"\x60") == b"\x01"
    answer(chip, 0x4A, b"\x01\x00\x88" + UID)
    assert answer(chip, 0x42, b"\x60")[0] == 0


def test_a_tag_taken_away_stops_answering() -> None:
    chip = Pn532Chip()
    chip.present(Ntag213(UID))
    answer(chip, 0x4A, b"\x01\x00")
    chip.remove(UID.hex())
    assert answer(chip, 0x42, b"\x30\x00") == b"\x01"
    assert chip.tags == ()


def test_crc_a_of_the_iso_14443_example() -> None:
    assert crc_a(b"\x00\x00") == bytes.fromhex("A01E")   # ISO/IEC 14443-3 Annex B
    assert crc_a(b"\x12\x34") == bytes.fromhex("26CF")


def test_ntag213_factory_memory_uid_bytes_and_capability_container() -> None:
    tag = Ntag213(UID)
    pages = data(tag, b"\x30\x00")
    assert pages[0:3] == UID[0:3] and pages[3] == 0x88 ^ UID[0] ^ UID[1] ^ UID[2]
    assert pages[4:8] == UID[3:7] and pages[8] == UID[3] ^ UID[4] ^ UID[5] ^ UID[6]
    assert pages[12:16] == b"\xe1\x10\x12\x00"
    assert tag.ndef_message() == b""


def data(tag: Ntag213, command: bytes) -> bytes:
    answer, _ = tag.command(command)
    assert answer is not None and not answer.short
    return answer.data


def test_ntag213_reads_roll_over_writes_nak_outside_and_cc_only_sets_bits() -> None:
    tag = Ntag213(UID)
    assert data(tag, b"\x30\x2b")[8:16] == data(tag, b"\x30\x00")[0:8]
    assert tag.command(b"\x30\x2d") == (Ntag213.NAK, False)
    assert tag.command(b"\xa2\x01\x00\x00\x00\x00") == (Ntag213.NAK, False)
    assert tag.command(b"\xa2\x03\x00\x00\x00\x0f") == (Ntag213.ACK, True)
    assert tag.memory[12:16] == b"\xe1\x10\x12\x0f"
    assert data(tag, b"\x3a\x04\x05") == b"\x01\x03\xa0\x0c\x34\x03\x00\xfe"


def test_ntag213_holds_a_text_record() -> None:
    assert Ntag213(UID, text="deck1:SA").text() == "deck1:SA"
    with pytest.raises(ValueError, match="7 bytes"):
        Ntag213("04A1B2C3")
    with pytest.raises(ValueError, match="142 bytes"):
        Ntag213(UID, text="x" * 200)
