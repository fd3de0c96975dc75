"""``tablectl enrol`` and ``tablectl doctor`` against the simulated table and nfcpy on a simulated PN532.

An operator thread plays the person at the reader: it reads the command's output line by
line (off a queue, with timeouts) and puts tags on the readers when asked. Time comes from
injected clocks; nothing sleeps.
"""

from __future__ import annotations

import _thread
import io
import json
import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from controller.cards import Card
from controller.sensing import deck as deck_json
from controller.sensing.deck import DeckRegistry
from controller.sensing.events import DeviceHealth
from drivers import config
from drivers.base import Clock, EventSource
from drivers.config import load_deck
from drivers.pn532_sim import Ntag213, Pn532Simulator
from drivers.registry import open_source
from drivers.sim import SimTable, default_deck
from firmware_bridge.firmware.seatfw import board
from firmware_bridge.messages import SLOTS
from tablectl import cli, hardware

WAIT = 5.0   # seconds: the longest any step waits for a line before the test fails
PBN_ORDER = tuple(DeckRegistry().missing("deck1"))
NEW_DECK = default_deck(2)   # card -> UID of the tags being enrolled


class Console(io.StringIO):
    """A stdout whose complete lines also go to a queue that the operator reads."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: queue.Queue[str] = queue.Queue()
        self._partial = ""
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            super().write(text)
            *done, self._partial = (self._partial + text).split("\n")
        for line in done:
            self.lines.put(line)
        return len(text)

    def expect(self, pattern: str, timeout: float = WAIT) -> re.Match[str]:
        """The match of the next line that matches ``pattern`` (lines before it are passed over)."""
        seen: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no line matching {pattern!r} within {timeout} s; got {seen}") from None
            seen.append(line)
            match = re.search(pattern, line)
            if match is not None:
                return match


class ManualClock:
    """A clock that stands still until the test moves it."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Counter:
    """A clock that moves on by a millisecond at each reading (events get distinct times)."""

    def __init__(self) -> None:
        self._now = 0.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            self._now += 0.001
            return self._now


class Opened:
    """An opener that keeps what it opened, so that the test can act on the simulated table."""

    def __init__(self) -> None:
        self.sources: list[EventSource] = []

    def __call__(self, url: str, clock: Clock, **kwargs: Any) -> EventSource:
        source = open_source(url, clock, **kwargs)
        self.sources.append(source)
        return source

    @property
    def sim(self) -> SimTable:
        table = self.sources[0]
        assert isinstance(table, SimTable)
        return table


@contextmanager
def operator(act: Callable[[], None]) -> Iterator[None]:
    """Run ``act`` in a thread while the block runs; its failure is the test's."""
    failures: list[BaseException] = []

    def run() -> None:
        try:
            act()
        except BaseException as exc:
            failures.append(exc)

    thread = threading.Thread(target=run, name="operator", daemon=True)
    thread.start()
    yield
    thread.join(timeout=WAIT * 2)
    assert not thread.is_alive(), "the operator is still waiting"
    if failures:
        raise failures[0]


def run_in_thread(call: Callable[[], int]) -> tuple[threading.Thread, list[int]]:
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(call()), name="command", daemon=True)
    thread.start()
    return thread, result


def present_as_asked(console: Console, table: Callable[[], SimTable], count: int, zone: str = "N.play") -> None:
    """Answer ``count`` prompts ``present XX`` with the new deck's tag for XX."""
    for _ in range(count):
        card = console.expect(r"^present (\w\w) ")[1]
        table().present(NEW_DECK[card], zone)


# -- enrol ---------------------------------------------------------------------------------------

def test_enrol_registers_a_whole_deck_from_the_simulator_in_pbn_order(tmp_path: Path) -> None:
    path = tmp_path / "club.json"
    opened, console = Opened(), Console()
    with operator(lambda: present_as_asked(console, lambda: opened.sim, 52)):
        code = hardware.enrol(path, "sim://?quiet=1", timeout=WAIT, clock=Counter(), opener=opened, out=console)
    assert code == 0
    registry = load_deck(path)
    assert registry.to_mapping() == {"deck1": NEW_DECK}
    prompts = re.findall(r"^present (\w\w) ", console.getvalue(), re.MULTILINE)
    assert prompts == [str(card) for card in PBN_ORDER]
    assert "  ok C2 = tag " + NEW_DECK["C2"] + "   52/52" in console.getvalue()
    assert "deck1 complete: 52/52" in console.getvalue()


def test_enrol_refuses_a_tag_already_enrolled_and_asks_again(tmp_path: Path) -> None:
    path = tmp_path / "club.json"
    opened, console = Opened(), Console()

    def act() -> None:
        console.expect(r"^present SA ")
        opened.sim.present(NEW_DECK["SA"], "N.play")
        console.expect(r"^present SK ")
        opened.sim.present(NEW_DECK["SA"], "N.spread")   # the ace again, on another reader
        console.expect(rf"refused: tag {NEW_DECK['SA']} is already enrolled as deck1:SA; present SK")
        console.expect(r"^present SK ")
        opened.sim.present(NEW_DECK["SK"], "N.play")

    with operator(act):
        code = hardware.enrol(path, "sim://", cards=(Card.parse("SA"), Card.parse("SK")), timeout=WAIT,
                              clock=Counter(), opener=opened, out=console)
    assert code == 0
    assert load_deck(path).to_mapping() == {"deck1": {"SA": NEW_DECK["SA"], "SK": NEW_DECK["SK"]}}


def test_enrol_resumes_after_ctrl_c_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "club.json"   # the deck file of the table config, which sim:// reads too
    opened, console = Opened(), Console()

    def act_then_interrupt() -> None:
        present_as_asked(console, lambda: opened.sim, 5)
        console.expect(r"^present S9 ")
        _thread.interrupt_main()   # Ctrl-C while it waits for the sixth card

    with operator(act_then_interrupt):
        code = hardware.enrol(path, "sim://", timeout=WAIT, clock=Counter(), opener=opened, out=console)
    assert code == 130
    assert "stopped at 5/52, saved in" in console.getvalue()
    assert load_deck(path).to_mapping()["deck1"] == {c: NEW_DECK[c] for c in ("SA", "SK", "SQ", "SJ", "ST")}

    opened, console = Opened(), Console()
    with operator(lambda: present_as_asked(console, lambda: opened.sim, 47)):
        code = hardware.enrol(path, "sim://", timeout=WAIT, clock=Counter(), opener=opened, out=console)
    assert code == 0
    text = console.getvalue()
    assert text.startswith("resuming deck1 in ") and "5/52 already enrolled" in text
    assert re.findall(r"^present (\w\w) ", text, re.MULTILINE)[0] == "S9"
    assert load_deck(path).to_mapping()["deck1"] == NEW_DECK
    SimTable.from_url(f"sim://?deck={path}")   # the simulator reads what enrol wrote


def test_enrol_on_the_command_line_with_the_simulated_table_is_tried_end_to_end(tmp_path: Path) -> None:
    """``tablectl enrol --reader sim://``: a simulated volunteer lays each card asked for on the
    simulated reader, so the deck is enrolled without hardware, and the simulator reads the file."""
    path = tmp_path / "d.json"
    out = subprocess.run([sys.executable, "-m", "tablectl", "enrol", "--deck", str(path), "--reader", "sim://",
                          "--cards", "SA SK HQ", "--timeout", "30"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.findall(r"^  ok (\w\w) = tag ", out.stdout, re.MULTILINE) == ["SA", "SK", "HQ"]
    assert "deck1 complete: 3/3 cards enrolled" in out.stdout
    enrolled = load_deck(path).to_mapping()["deck1"]
    assert sorted(enrolled) == ["HQ", "SA", "SK"] and len(set(enrolled.values())) == 3
    assert SimTable.from_url(f"sim://?deck={path}").deck == enrolled


def test_enrol_skips_cards_already_enrolled_and_stops_after_the_timeout(tmp_path: Path) -> None:
    path = tmp_path / "club.json"
    hardware.write_deck(path, DeckRegistry().enrol(NEW_DECK["SA"], Card.parse("SA")))
    console = Console()
    code = hardware.enrol(path, "sim://", cards=hardware.parse_cards("SA, HK"), timeout=0.2, clock=Counter(),
                          out=console)
    assert code == 1
    text = console.getvalue()
    assert f"SA is already enrolled in deck1 (tag {NEW_DECK['SA']}): skipped" in text
    assert "present HK   [1/2 enrolled]" in text and "no card came within 0.2 s: stopped at 1/2" in text


class _Reader:
    """A reader that reports its health as told at start (``ups``: up, down...), then sees nothing."""

    name = "enrol"

    def __init__(self, *ups: bool) -> None:
        self.ups = ups

    def __call__(self, url: str, clock: Clock, name: str = "") -> EventSource:
        return self

    def _health(self, n: int, up: bool) -> DeviceHealth:
        return DeviceHealth("enrol", up, "reader ACR122U" if up else "usb: no reader found on usb", float(n))

    def start(self, emit: Callable[[Any], None]) -> None:
        for n, up in enumerate(self.ups):
            emit(self._health(n, up))

    def stop(self) -> None:
        pass

    def health(self) -> DeviceHealth:
        return self._health(len(self.ups), self.ups[-1])


def test_enrol_with_no_reader_plugged_in_says_so_and_exits_2(tmp_path: Path) -> None:
    console = Console()
    code = hardware.enrol(tmp_path / "club.json", "nfc:usb", timeout=WAIT, clock=Counter(), opener=_Reader(False),
                          out=console, reader_grace=0.3)
    assert code == 2
    text = console.getvalue()
    assert "no reader answered within 0.3 s (usb: no reader found on usb): plug in a USB NFC reader" in text
    assert "--reader sim://" in text and not (tmp_path / "club.json").exists()


def test_enrol_waits_for_a_reader_that_was_up_and_went_down(tmp_path: Path) -> None:
    console = Console()
    code = hardware.enrol(tmp_path / "club.json", "nfc:usb", timeout=0.6, clock=Counter(),
                          opener=_Reader(True, False), out=console, reader_grace=0.1)
    assert code == 1  # the --timeout ends it, not the grace: a pulled cable is waited for
    assert "(waiting for it to come back)" in console.getvalue()


OLD_DECK = '[deck1]\nSA = "04A1B2C3D4E5F6"\nSK = "04A1B2C3D4E5F7"\n'


def test_a_deck_file_of_the_older_toml_form_is_read_with_a_deprecation_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "club.toml"
    path.write_text(OLD_DECK)
    assert load_deck(path).to_mapping() == {"deck1": {"SA": "04A1B2C3D4E5F6", "SK": "04A1B2C3D4E5F7"}}
    assert [r.getMessage() for r in caplog.records] == [
        f"{path} is a deck file in the older TOML form: still read, but deprecated; "
        f"`tablectl enrol --deck {path}` saves it as JSON (hardware/decks.md)"]
    caplog.clear()
    hardware.write_deck(tmp_path / "club.json", load_deck(path))
    caplog.clear()
    load_deck(tmp_path / "club.json")
    assert not caplog.records   # the JSON deck file: no warning


def test_enrol_saves_an_older_toml_deck_file_as_json_at_once(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text(OLD_DECK)
    console = Console()
    assert hardware.enrol(path, "sim://", cards=hardware.parse_cards("SA SK"), out=console) == 0
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "bridgetable-decks"
    assert config.older_deck_form(path) is None
    assert load_deck(path).to_mapping() == {"deck1": {"SA": "04A1B2C3D4E5F6", "SK": "04A1B2C3D4E5F7"}}
    assert console.getvalue().startswith(f"{path} was a deck file in the older TOML form: now saved as JSON")


def test_doctor_says_the_deck_file_is_of_the_deprecated_form(tmp_path: Path) -> None:
    (tmp_path / "deck.toml").write_text(OLD_DECK)
    path = tmp_path / "table.toml"
    path.write_text('[table]\nname = "T"\ndeck = "deck.toml"\n\n[seats.N]\nunit = "sim://"\n')
    out = io.StringIO()
    assert hardware.doctor(path, seconds=0, out=out, err=io.StringIO()) == 0
    assert f"deck: {tmp_path / 'deck.toml'}: deck1 2 cards\n  {tmp_path / 'deck.toml'} is a deck file in the " \
           "older TOML form: still read, but deprecated" in out.getvalue()


def test_enrol_says_what_is_wrong_with_its_input(tmp_path: Path) -> None:
    err = io.StringIO()
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    assert hardware.enrol(bad, "sim://", out=io.StringIO(), err=err) == 2
    assert "cannot use the deck file" in err.getvalue()
    assert hardware.enrol(tmp_path / "d.json", "sim://", write_ndef=True, out=io.StringIO(), err=err) == 2
    assert "--write-ndef needs an NFC reader" in err.getvalue()
    assert hardware.enrol(tmp_path / "d.json", "bogus:thing", out=io.StringIO(), err=err) == 2
    assert "cannot open the reader 'bogus:thing'" in err.getvalue()
    assert hardware.enrol(tmp_path / "d.json", deck_id="no spaces", out=io.StringIO(), err=err) == 2
    assert "invalid deck id 'no spaces'" in err.getvalue()
    with pytest.raises(ValueError, match="listed twice"):
        hardware.parse_cards("SA SK SA")


@pytest.fixture
def pn532() -> Iterator[Pn532Simulator]:
    with Pn532Simulator() as sim:
        yield sim


def test_enrol_through_nfcpy_writes_ndef_then_enrols_from_it(tmp_path: Path, pn532: Pn532Simulator) -> None:
    url = pn532.url("enrol") + "&interval=0.02&retry=0.05"
    tags = {card: Ntag213(NEW_DECK[card]) for card in ("SA", "SK", "SQ")}
    console = Console()

    def write_as_asked() -> None:
        for _ in tags:
            card = console.expect(r"^present (\w\w) ")[1]
            pn532.remove()
            pn532.present(tags[card])

    with operator(write_as_asked):
        code = hardware.enrol(tmp_path / "a.json", url, cards=hardware.parse_cards("SA SK SQ"), write_ndef=True,
                              timeout=WAIT, clock=Counter(), out=console)
    assert code == 0, console.getvalue()
    assert "wrote 'deck1:SK' on tag" in console.getvalue()
    assert {card: tag.text() for card, tag in tags.items()} == {c: f"deck1:{c}" for c in tags}

    # the same tags on another Pi: the cards come from their text, in any order
    blank = Ntag213("04AA0000000002")
    shown = [tags["SQ"], blank, tags["SA"], tags["SK"]]
    console = Console()

    def show_in_any_order() -> None:
        for tag in shown:
            console.expect(r"^present a card of deck1")
            pn532.remove()
            pn532.present(tag)

    with operator(show_in_any_order):
        code = hardware.enrol(tmp_path / "b.json", url, cards=hardware.parse_cards("SA SK SQ"), from_ndef=True,
                              timeout=WAIT, clock=Counter(), out=console)
    assert code == 0, console.getvalue()
    text = console.getvalue()
    assert f"refused: tag {blank.uid_hex} has no card written on it" in text
    assert load_deck(tmp_path / "b.json") == load_deck(tmp_path / "a.json")


def test_enrol_from_ndef_refuses_a_second_tag_for_a_card(tmp_path: Path, pn532: Pn532Simulator) -> None:
    url = pn532.url("enrol") + "&interval=0.02&retry=0.05"
    ace, second_ace = Ntag213(NEW_DECK["SA"], text="SA"), Ntag213("04AA0000000001", text="deck1:SA")
    other_deck, king = Ntag213("04AA0000000003", text="deck2:SK"), Ntag213(NEW_DECK["SK"], text="deck1:SK")
    console = Console()

    def act() -> None:
        for tag in (ace, second_ace, other_deck, king):
            console.expect(r"^present a card of deck1")
            pn532.remove()
            pn532.present(tag)

    with operator(act):
        code = hardware.enrol(tmp_path / "b.json", url, cards=hardware.parse_cards("SA SK"), from_ndef=True,
                              timeout=WAIT, clock=Counter(), out=console)
    assert code == 0, console.getvalue()
    text = console.getvalue()
    assert f"refused: deck1 already has SA (tag {NEW_DECK['SA']}); tag 04AA0000000001 says it is SA too" in text
    assert "refused: tag 04AA0000000003 says 'deck2:SK': a card of deck2, not of deck1" in text


# -- doctor --------------------------------------------------------------------------------------

def write_config(tmp_path: Path, seats: str) -> Path:
    deck = tmp_path / "deck.json"
    hardware.write_deck(deck, DeckRegistry.from_mapping({"deck1": default_deck(1)}))
    path = tmp_path / "table.toml"
    path.write_text(f'[table]\nname = "Test table"\ndeck = "deck.json"\n\n{seats}')
    return path


def test_doctor_says_every_simulated_device_is_up_and_shows_what_it_sees(tmp_path: Path) -> None:
    config = write_config(tmp_path, '[seats.N]\nunit = "sim://?deck=deck.json"\n\n[seats.S]\nplay = "sim://?quiet=1"\n')
    opened, console, clock = Opened(), Console(), ManualClock()
    thread, result = run_in_thread(lambda: hardware.doctor(config, seconds=30, clock=clock, opener=opened,
                                                           out=console))
    console.expect(r"^watching for 30 s")
    table = opened.sim
    table.present("SA", "N.play")
    console.expect(r"N\.play \+ SA \(deck1, tag 04010000")
    table.pull("3H", seat="E", bounces=2)
    console.expect(r"E bidding box: 3H out")
    table.press("S")
    console.expect(r"S button director pressed")
    table.present("04FFFFFFFFFFFF", "board")
    console.expect(r"board \+ unknown tag 04FFFFFFFFFFFF")
    clock.now += 30
    thread.join(timeout=WAIT)
    assert result == [0]
    text = console.getvalue()
    assert re.search(r"^  N\.unit  sim://\?deck=\S+ +OK +simulated table$", text, re.MULTILINE)
    assert re.search(r"^  S\.play  sim://\?quiet=1 +OK +simulated table$", text, re.MULTILINE)
    assert "N bidding box: every card in (40 of 40 slots report in)" in text
    assert "deck: " + str(tmp_path / "deck.json") + ": deck1 52 cards" in text
    assert text.rstrip().endswith("all 2 devices up")


def test_doctor_names_each_device_that_cannot_open_and_exits_1(tmp_path: Path) -> None:
    config = write_config(tmp_path, '[seats.N]\nunit = "sim://"\n\n[seats.E]\nplay = "sim://?colour=red"\n'
                                    'spread = "nfc:tty:/dev/no-such-reader:pn532?retry=0.05"\n\n'
                                    '[seats.W]\nunit = "serial:///dev/no-such-unit"\n')
    console = Console()
    thread, result = run_in_thread(lambda: hardware.doctor(config, seconds=0, clock=ManualClock(), out=console))
    thread.join(timeout=WAIT)
    assert result == [1]
    text = console.getvalue()
    assert re.search(r"^  N\.unit +sim:// +OK ", text, re.MULTILINE)
    assert re.search(r"^  E\.play +sim://\?colour=red +DOWN +cannot open: 'sim://\?colour=red': unknown option\(s\) "
                     r"colour", text, re.MULTILINE)
    assert re.search(r"^  E\.spread +nfc:tty:/dev/no-such-reader:pn532\?retry=0\.05 +DOWN +tty:/dev/no-such-reader:"
                     r"pn532: .*No such file or directory", text, re.MULTILINE)
    assert re.search(r"^  W\.unit +serial:///dev/no-such-unit +DOWN +cannot open /dev/no-such-unit", text,
                     re.MULTILINE)
    assert "DOWN (3; 4 devices configured):\n  E.play (cannot open:" in text


def test_doctor_says_on_stderr_which_device_it_opens_and_how_long_it_waits(tmp_path: Path) -> None:
    config = write_config(tmp_path, '[seats.N]\nunit = "sim://"\n\n[seats.E]\nplay = "sim://?colour=red"\n')
    out, err = io.StringIO(), io.StringIO()
    assert hardware.doctor(config, seconds=0, wait=0.5, clock=ManualClock(), out=out, err=err) == 1
    assert err.getvalue().splitlines() == [
        "opening device 1 of 2: N.unit (sim://)",
        "opening device 2 of 2: E.play (sim://?colour=red)",
        "waiting up to 0.5 s for the 2 devices to say whether they are up",
    ]
    assert "opening" not in out.getvalue() and "waiting up to" not in out.getvalue()


def test_run_says_on_stderr_which_device_it_opens(tmp_path: Path) -> None:
    config = write_config(tmp_path, '[seats.N]\nunit = "sim://?deck=deck.json"\n\n[seats.S]\nplay = "sim://"\n')
    proc = subprocess.Popen([sys.executable, "-m", "tablectl", "run", "--config", str(config), "--no-web",
                             "--data-dir", str(tmp_path / "data")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("Test table: ")
        assert "started in" in proc.stdout.readline()
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert f"opening device 1 of 2: N.unit (sim://?deck={tmp_path / 'deck.json'})\n" in err
    assert "opening device 2 of 2: S.play (sim://)\n" in err
    assert "opening device" not in out


def test_doctor_reads_a_simulated_pn532_through_nfcpy(tmp_path: Path, pn532: Pn532Simulator) -> None:
    queen = default_deck(1)["HQ"]
    pn532.present(queen)
    config = write_config(tmp_path, f'[seats.N]\nplay = "{pn532.url("N.play")}&interval=0.02"\n')
    console, clock = Console(), ManualClock()
    thread, result = run_in_thread(lambda: hardware.doctor(config, seconds=5, clock=clock, out=console))
    console.expect(r"^watching for 5 s")
    if f"HQ (deck1, tag {queen})" not in console.getvalue():   # not seen before the watch: seen during it
        console.expect(rf"N\.play \+ HQ \(deck1, tag {queen}\)")
    pn532.remove()
    console.expect(r"N\.play - HQ \(deck1")
    clock.now += 5
    thread.join(timeout=WAIT)
    assert result == [0], console.getvalue()
    assert re.search(r"^  N\.play  nfc:tty:\S+ +OK +PN532v1\.6", console.getvalue(), re.MULTILINE)


def test_the_commands_are_on_tablectl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path, '[seats.N]\nunit = "sim://"\n')
    assert cli.main(["doctor", "--config", str(config), "--seconds", "0"]) == 0
    assert "all 1 devices up" in capsys.readouterr().out
    assert cli.main(["doctor", "--config", str(tmp_path / "missing.toml")]) == 2
    assert "cannot read table config" in capsys.readouterr().err
    deck = tmp_path / "d.json"
    assert cli.main(["enrol", "--deck", str(deck), "--reader", "sim://?mode=fast", "--cards", "SA"]) == 2
    assert "cannot open the reader 'sim://?mode=fast'" in capsys.readouterr().err
    assert cli.main(["enrol", "--deck", str(deck), "--cards", "SA ZZ"]) == 2
    assert "--cards: invalid" in capsys.readouterr().err


# -- the hardware docs ---------------------------------------------------------------------------

HARDWARE = Path(__file__).resolve().parents[1] / "hardware"


def toml_blocks(doc: str) -> list[str]:
    return re.findall(r"```toml\n(.*?)```", (HARDWARE / doc).read_text(encoding="utf-8"), re.DOTALL)


def test_the_full_example_of_config_md_is_a_valid_table_config(tmp_path: Path) -> None:
    full, bench = toml_blocks("config.md")
    table = config.loads(full, tmp_path / "table.toml")
    assert (table.name, table.code, table.deck, table.board_reader) == (
        "Table 3", "duplicate2017", tmp_path / "decks" / "club.json", "nfc:usb:072f:2200")
    assert [name for name, _ in table.device_urls()] == ["N.unit", "E.unit", "S.unit", "W.play", "W.spread",
                                                         "board", "gpio"]
    assert table.gpio is not None and table.gpio.contacts == (
        ("W", "Pass", 4), ("W", "X", 17), ("W", "XX", 27), ("W", "Stop", 22))
    assert table.arbiter_pin_hash is not None and config.verify_pin("1234", table.arbiter_pin_hash)
    path = tmp_path / "bench.toml"
    path.write_text(bench)
    out = io.StringIO()
    assert hardware.doctor(path, seconds=0, out=out) == 0
    assert re.search(r"^  N\.unit  sim:// +OK +simulated table$", out.getvalue(), re.MULTILINE)


def test_the_slot_table_of_wiring_md_is_the_firmware_matrix() -> None:
    text = (HARDWARE / "wiring.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| \*\*(\d) \(GP(\d)\)\*\* \| (.*) \|$", text, re.MULTILINE)
    assert [int(r) for r, _, _ in rows] == list(range(5))
    assert [int(gp) for _, gp, _ in rows] == list(board.ROW_PINS)
    assert tuple(slot.strip() for _, _, cells in rows for slot in cells.split("|")) == SLOTS
    header = re.search(r"^\| row \(GPIO\) \\ column \(GPIO\) \| (.*) \|$", text, re.MULTILINE)
    assert header is not None
    assert [int(gp) for gp in re.findall(r"\(GP(\d+)\)", header[1])] == list(board.COL_PINS)

def test_the_deck_file_examples_of_cards_md_are_deck_files(tmp_path: Path) -> None:
    text = (HARDWARE / "cards.md").read_text(encoding="utf-8")
    blocks = [("toml", b) for b in toml_blocks("cards.md")]
    blocks += [("json", b) for b in re.findall(r"```json\n(.*?)```", text, re.DOTALL)]
    assert [kind for kind, _ in blocks] == ["toml", "json"]
    for kind, block in blocks:
        path = tmp_path / f"deck.{kind}"
        path.write_text(re.sub(r"^ +", "", block, flags=re.MULTILINE))
        assert load_deck(path).to_mapping() == {"deck1": {"SA": "04A1B2C3D4E5F6", "SK": "04A1B2C3D4E5F7"}}


def test_the_deck_file_of_decks_md_is_the_one_format_enrol_writes(tmp_path: Path) -> None:
    text = (HARDWARE / "decks.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```json\n(.*?)```", text, re.DOTALL)
    registry = DeckRegistry.from_mapping({"board1": {"SA": "04A1B2C3D4E5F6", "SK": "04A1B2C3D4E5F7"}})
    assert json.loads(block) == json.loads(deck_json.dumps(registry))
    assert "decks/club.json" in text and "older TOML form: still read, but\ndeprecated" in text
