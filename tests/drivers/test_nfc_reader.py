"""nfcpy's own PN532 driver against the simulated chip: tags seen and gone, NDEF, a silent chip."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from controller.sensing.events import DeviceHealth, TagGone, TagSeen
from drivers.config import ConfigError
from drivers.nfc_reader import NfcError, NfcReader, parse_url
from drivers.pn532_sim import Ntag213, Pn532Simulator
from tests.drivers.conftest import EventLog, Match, TickClock

A, B, C = "04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "0422334455667A"


@pytest.fixture
def reader(pn532: Pn532Simulator, clock: TickClock) -> Iterator[NfcReader]:
    reader = NfcReader(pn532.nfcpy_path, "N.play", clock, interval=0.02, retry=0.05)
    yield reader
    reader.stop()


def seen(uid: str, reader: str = "N.play") -> Match:
    return lambda e: isinstance(e, TagSeen) and (e.reader, e.uid) == (reader, uid)


def gone(uid: str, reader: str = "N.play") -> Match:
    return lambda e: isinstance(e, TagGone) and (e.reader, e.uid) == (reader, uid)


def test_reader_reports_a_tag_put_on_it_and_taken_off(pn532: Pn532Simulator, reader: NfcReader,
                                                      log: EventLog) -> None:
    reader.start(log)
    up = log.health(up=True)
    assert up.device == "N.play" and "PN532v1.6" in up.detail
    pn532.present(A.lower())
    log.wait_for(seen(A))   # upper-case hex whatever the tag
    pn532.remove(A)
    log.wait_for(gone(A))
    assert [type(e) for e in log.events] == [DeviceHealth, TagSeen, TagGone]


def test_two_tags_in_one_field_are_told_apart(pn532: Pn532Simulator, reader: NfcReader,
                                              log: EventLog) -> None:
    reader.start(log)
    log.health(up=True)
    pn532.present(B)
    pn532.present(A)   # A wins the anticollision; B is found after A is halted
    log.wait_for(lambda e: {x.uid for x in log.events if isinstance(x, TagSeen)} == {A, B})
    pn532.remove(A)
    log.wait_for(gone(A))
    pn532.present(C)
    log.wait_for(seen(C))
    assert not any(isinstance(e, TagGone) and e.uid == B for e in log.events), "B never left"


def test_a_tag_is_gone_only_after_missing_gone_after_polls_in_a_row(clock: TickClock, log: EventLog) -> None:
    reader = NfcReader("tty:/dev/null:pn532", "board", clock, gone_after=2)
    reader._emit = log   # the bookkeeping of one poll after another, without a reader thread
    for polled in ([A], [], [A], [], []):
        reader._update(polled)
    assert [(type(e), e.uid) for e in log.drain() if isinstance(e, TagSeen | TagGone)] == [
        (TagSeen, A), (TagGone, A)]


def test_ndef_text_written_on_a_blank_ntag213_reads_back(pn532: Pn532Simulator, reader: NfcReader,
                                                         log: EventLog) -> None:
    tag = pn532.present(Ntag213(A))
    assert tag.text() is None and tag.ndef_message() == b""
    reader.start(log)
    log.wait_for(seen(A))
    assert reader.write_ndef_text("deck1:SA") == A
    assert tag.text() == "deck1:SA"   # the bytes in the tag's memory, decoded apart from nfcpy
    assert reader.read_ndef_text() == "deck1:SA"
    assert reader.health().up


def test_ndef_text_of_one_tag_among_two_by_uid(pn532: Pn532Simulator, reader: NfcReader) -> None:
    pn532.present(Ntag213(A, text="deck1:SA"))
    pn532.present(Ntag213(B, text="deck1:HK"))
    # the reader is not started: the helpers open it for the moment
    assert reader.read_ndef_text(uid=B) == "deck1:HK"
    assert reader.read_ndef_text(uid=A) == "deck1:SA"
    assert reader.write_ndef_text("deck2:C2", uid=B) == B
    assert [t.text() for t in pn532.tags] == ["deck1:SA", "deck2:C2"]


def test_ndef_helpers_say_what_is_wrong(pn532: Pn532Simulator, reader: NfcReader) -> None:
    with pytest.raises(NfcError, match=r"no tag on reader N\.play"):
        reader.read_ndef_text()
    pn532.present(Ntag213(A, blank=True))
    assert reader.read_ndef_text() is None
    with pytest.raises(NfcError, match="not NDEF formatted"):
        reader.write_ndef_text("SA")
    with pytest.raises(NfcError, match=rf"tag {B} on reader N\.play is not there"):
        reader.read_ndef_text(uid=B)
    with pytest.raises(NfcError, match="does not fit"):
        pn532.present(Ntag213(C))
        reader.write_ndef_text("x" * 200, uid=C)


def test_a_silent_chip_is_reported_down_then_back_with_what_changed_meanwhile(
        pn532: Pn532Simulator, reader: NfcReader, log: EventLog) -> None:
    reader.start(log)
    log.health(up=True)
    pn532.present(A)
    log.wait_for(seen(A))
    pn532.go_silent()
    down = log.health(up=False)
    assert down.device == "N.play" and "pn532" in down.detail
    assert not reader.health().up
    with pytest.raises(NfcError, match="is down"):
        reader.read_ndef_text()
    pn532.remove(A)
    pn532.present(C)
    pn532.wake()
    log.health(up=True)
    log.wait_for(seen(C))
    log.wait_for(gone(A))
    assert reader.health().up


def test_nfcpys_own_path_search_finds_the_chip_through_a_dev_name(pn532: Pn532Simulator, clock: TickClock,
                                                                  log: EventLog) -> None:
    name = f"bridgetable-pn532-{os.getpid()}"
    link = f"/dev/{name}"
    try:
        os.symlink(pn532.port, link)
    except OSError as exc:
        pytest.skip(f"cannot make {link}: {exc.strerror}")
    reader = NfcReader.from_url(f"nfc:tty:{name}:pn532?reader=board&interval=0.02", clock)
    try:
        reader.start(log)
        up = log.health(up=True)
        assert link in up.detail
        pn532.present(A)
        log.wait_for(seen(A, "board"))
    finally:
        reader.stop()
        os.unlink(link)


def test_a_usb_reader_that_is_not_plugged_in_is_reported_down(clock: TickClock, log: EventLog) -> None:
    reader = NfcReader.from_url("nfc:usb:072f:2200?reader=board&retry=0.05", clock)
    reader.start(log)
    try:
        down = log.health(up=False)
        assert down.device == "board" and "usb:072f:2200" in down.detail
    finally:
        reader.stop()


def test_reader_urls() -> None:
    assert parse_url("nfc:tty:AMA1:pn532?reader=N.play") == ("tty:AMA1:pn532", {"reader": "N.play"})
    reader = NfcReader.from_url("nfc:tty:/dev/pts/9:pn532?reader=E.spread&interval=0.2&max_tags=4")
    assert (reader.name, reader.path) == ("E.spread", "tty:/dev/pts/9:pn532")
    assert NfcReader.from_url("nfc:usb:072f:2200", name="board").name == "board"
    with pytest.raises(ConfigError, match="does not say which reader"):
        NfcReader.from_url("nfc:tty:AMA1:pn532")
    with pytest.raises(ConfigError, match="unknown option"):
        NfcReader.from_url("nfc:tty:AMA1:pn532?reader=N.play&speed=9")
    with pytest.raises(ConfigError, match="interval must be a number"):
        NfcReader.from_url("nfc:tty:AMA1:pn532?reader=N.play&interval=soon")
    with pytest.raises(ConfigError, match="driver must be one of"):
        NfcReader.from_url("nfc:tty:/dev/pts/9:rcs380?reader=N.play")
    with pytest.raises(ConfigError, match="names no reader"):
        parse_url("nfc:")
