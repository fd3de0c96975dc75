"""``tablectl enrol`` and ``tablectl doctor``: enrolling a deck's tags, and checking a table's devices.

``enrol`` registers a deck card by card (``hardware/cards.md``): it asks for each card in
turn (``present SA``), waits for a tag on the reader, and records tag UID -> card in the
deck file, which it saves after every card, so that an interrupted enrolment (Ctrl-C, a
power cut) goes on where it stopped when the same command is run again. It refuses a tag
that is already enrolled and a card its deck already has, says why, and asks again. With
``--write-ndef`` it also writes ``deck1:SA`` as NDEF text on blank tags; with
``--from-ndef`` it takes each card from the text already on its tag, in any order.

``doctor`` opens every device of a table config (``drivers.open_table``), prints one line
per device (``OK``, or ``DOWN`` with the reason), what the table sees now, then what it
sees live for a few seconds (tags with their cards, bid cards pulled and put back, button
presses, devices going down and up); it exits 0 when every device is up, 1 otherwise.

Deck files: one format, the JSON that ``controller.sensing.deck.dumps`` writes, which the
table config's ``table.deck``, ``sim://?deck=`` (``drivers.config.load_deck``) and
``tablectl run`` read (hardware/decks.md, "The deck file"); ``load_deck`` still reads a deck
file of the older TOML form with a deprecation warning, ``doctor`` says so, and ``enrol``
saves such a file as JSON at once.

Both commands take their reader or devices by URL (``drivers.open_source``), an injected
clock for the events' times, and read the events off a queue; they only wait on that
queue, with timeouts.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import queue
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TextIO, runtime_checkable

from controller.cards import Card
from controller.errors import BridgeTableError, NotationError
from controller.sensing import deck as deck_json
from controller.sensing.deck import DEFAULT_DECK, DeckError, DeckRegistry, format_tag_text, parse_tag_text
from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth, RawEvent, TagGone, TagSeen
from drivers.base import Clock, Emit, EventSource, monotonic
from drivers.config import BIDDING_BOX_SLOTS, SEATS, ConfigError, TableConfig, load_deck, older_deck_form
from drivers.config import load as load_config
from drivers.registry import open_source, open_table

__all__ = [
    "DEFAULT_READER",
    "NdefTags",
    "Opener",
    "add_commands",
    "announcing",
    "doctor",
    "enrol",
    "parse_cards",
    "write_deck",
]

DEFAULT_READER = "nfc:usb"
"""The enrolment reader when none is named: the first USB reader nfcpy finds (an ACR122U, say)."""

EXIT_OK = 0
EXIT_DOWN = 1   # doctor: a device is down; enrol: no card came within --timeout
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130   # Ctrl-C, as a shell reports SIGINT

_POLL = 0.1   # seconds: the longest wait on the event queue before looking at the clock again

Opener = Callable[..., EventSource]
"""What opens a device URL: ``drivers.open_source`` or a stand-in with its signature."""


@runtime_checkable
class NdefTags(Protocol):
    """A reader that reads and writes the NDEF text of the tag on it (``drivers.nfc_reader.NfcReader``)."""

    def read_ndef_text(self, uid: str | None = None) -> str | None: ...

    def write_ndef_text(self, text: str, uid: str | None = None) -> str: ...


# -- deck files -------------------------------------------------------------------------------

def write_deck(path: Path, registry: DeckRegistry) -> None:
    """Save the registry to ``path`` as JSON (``deck.dumps``), at once or not at all."""
    text = deck_json.dumps(registry)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def parse_cards(text: str) -> tuple[Card, ...]:
    """The cards of ``"SA SK HQ"`` (spaces or commas between them); ``NotationError`` for a bad or repeated one."""
    cards: list[Card] = []
    for word in text.replace(",", " ").split():
        card = Card.parse(word)
        if card in cards:
            raise NotationError(f"card {card} is listed twice in {text!r}")
        cards.append(card)
    if not cards:
        raise NotationError(f"no card in {text!r}")
    return tuple(cards)


# -- enrol ----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _EnrolOptions:
    path: Path
    deck_id: str
    cards: tuple[Card, ...]
    from_ndef: bool
    write_ndef: bool
    timeout: float | None


class _Refused(BridgeTableError, ValueError):
    """A tag that cannot be enrolled as asked; the message says why, for the person at the reader."""


class _Enrolment:
    """One enrolment session over one reader: prompts, refusals, progress and the deck file."""

    def __init__(self, options: _EnrolOptions, registry: DeckRegistry, source: EventSource, out: TextIO) -> None:
        self.options = options
        self.registry = registry
        self.source = source
        self.out = out
        self.events: queue.Queue[RawEvent] = queue.Queue()
        self._reader_up: bool | None = None

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    @property
    def done(self) -> int:
        return sum(1 for card in self.options.cards if self.registry.find(self.options.deck_id, card) is not None)

    def todo(self) -> list[Card]:
        return [card for card in self.options.cards if self.registry.find(self.options.deck_id, card) is None]

    def progress(self) -> str:
        return f"{self.done}/{len(self.options.cards)}"

    def saved(self) -> str:
        if not self.options.path.exists():
            return ": nothing enrolled yet"
        return f", saved in {self.options.path}; run the same command again to go on"

    def run(self) -> int:
        o = self.options
        if not self.todo():
            self.say(f"{o.deck_id} is complete in {o.path}: {self.progress()} cards enrolled")
            return EXIT_OK
        self.source.start(self.events.put)
        try:
            while todo := self.todo():
                card = None if o.from_ndef else todo[0]
                if card is None:
                    self.say(f"present a card of {o.deck_id}, any one not yet enrolled   [{self.progress()} enrolled]")
                else:
                    self.say(f"present {card}   [{self.progress()} enrolled]")
                uid = self.next_tag()
                if uid is None:
                    self.say(f"no card came within {o.timeout:g} s: stopped at {self.progress()}{self.saved()}")
                    return EXIT_DOWN
                try:
                    enrolled = self.take(uid, card)
                except _Refused as exc:
                    self.say(f"  refused: {exc}")
                    continue
                self.registry = self.registry.enrol(uid, enrolled, o.deck_id)
                write_deck(o.path, self.registry)
                self.say(f"  ok {enrolled} = tag {uid}   {self.progress()}")
        except KeyboardInterrupt:
            self.say(f"\nstopped at {self.progress()}{self.saved()}")
            return EXIT_INTERRUPTED
        finally:
            with contextlib.suppress(Exception):
                self.source.stop()
        self.say(f"{o.deck_id} complete: {self.progress()} cards enrolled in {o.path}")
        return EXIT_OK

    def next_tag(self) -> str | None:
        """The UID of the next tag the reader sees; None after ``timeout`` seconds without one."""
        waited = 0.0
        timeout = self.options.timeout
        while timeout is None or waited < timeout:
            slice_ = _POLL if timeout is None else min(_POLL, timeout - waited)
            try:
                event = self.events.get(timeout=slice_)
            except queue.Empty:
                waited += slice_
                continue
            if isinstance(event, TagSeen):
                return event.uid
            if isinstance(event, DeviceHealth) and event.up != self._reader_up:
                self._reader_up = event.up
                if event.up:
                    self.say(f"  reader {event.device} is up: {event.detail}")
                else:
                    self.say(f"  reader {event.device} is down: {event.detail} (waiting for it to come back)")
        return None

    def take(self, uid: str, asked: Card | None) -> Card:
        """The card tag ``uid`` is to be enrolled as (``asked``, or the card its text names); ``_Refused``."""
        o = self.options
        known = self.registry.get(uid)
        if known is not None:
            raise _Refused(f"tag {uid} is already enrolled as {known}" +
                           (f"; present {asked}" if asked is not None else "; present another card"))
        if asked is None:
            card = self.card_from_text(uid)
            holder = self.registry.find(o.deck_id, card)
            if holder is not None:
                raise _Refused(f"{o.deck_id} already has {card} (tag {holder.uid}); tag {uid} says it is "
                               f"{card} too: set it aside for the arbiter")
            return card
        if o.write_ndef:
            self.write_text(uid, asked)
        return asked

    def card_from_text(self, uid: str) -> Card:
        o = self.options
        text = self.read_text(uid)
        if text is None:
            raise _Refused(f"tag {uid} has no card written on it (enrol it with --write-ndef instead)")
        try:
            named, card = parse_tag_text(text)
        except DeckError as exc:
            raise _Refused(f"tag {uid}: {exc}") from None
        deck = named if named is not None else o.deck_id
        if deck != o.deck_id:
            raise _Refused(f"tag {uid} says {text!r}: a card of {deck}, not of {o.deck_id}")
        if card not in o.cards:
            raise _Refused(f"tag {uid} says {text!r}: {card} is not among the cards to enrol")
        return card

    def write_text(self, uid: str, card: Card) -> None:
        """Write ``deck1:SA`` on the tag if it is blank; refuse a tag that already names another card."""
        o = self.options
        wanted = format_tag_text(card, o.deck_id)
        text = self.read_text(uid)
        if text is not None:
            try:
                named, written = parse_tag_text(text)
            except DeckError:
                raise _Refused(f"tag {uid} already holds the text {text!r}, which is not a card; "
                               f"use a blank tag for {card}") from None
            if (named if named is not None else o.deck_id, written) != (o.deck_id, card):
                raise _Refused(f"tag {uid} already says {text!r}, not {wanted}; use a blank tag for {card}")
            self.say(f"  tag {uid} already says {text!r}")
            return
        reader = self.ndef()
        try:
            reader.write_ndef_text(wanted, uid)
        except Exception as exc:   # nfcpy and the reader raise several kinds; all mean "not written"
            raise _Refused(f"cannot write {wanted!r} on tag {uid}: {exc}; present {card} again") from None
        self.say(f"  wrote {wanted!r} on tag {uid}")

    def read_text(self, uid: str) -> str | None:
        try:
            return self.ndef().read_ndef_text(uid)
        except Exception as exc:   # as above: the tag left, or it is not a readable NTAG
            raise _Refused(f"cannot read tag {uid}: {exc}; present it again") from None

    def ndef(self) -> NdefTags:
        source = self.source
        assert isinstance(source, NdefTags)   # checked before the session starts
        return source


def enrol(deck: Path, reader: str = DEFAULT_READER, *, deck_id: str = DEFAULT_DECK,
          cards: Sequence[Card] | None = None, from_ndef: bool = False, write_ndef: bool = False,
          timeout: float | None = None, clock: Clock = monotonic, opener: Opener = open_source,
          out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Enrol the cards of ``deck_id`` (all 52 in PBN order, or ``cards``) from the tags shown to ``reader``.

    Keeps what ``deck`` already holds and asks only for the rest; saves after each card.
    Returns 0 when every card is enrolled, 1 when no tag came within ``timeout`` seconds,
    2 when the deck file, the options or the reader cannot be used, 130 on Ctrl-C.
    """
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr

    def fail(message: str) -> int:
        err.write(f"tablectl enrol: {message}\n")
        return EXIT_USAGE

    if from_ndef and write_ndef:
        return fail("--from-ndef takes the cards from their tags and --write-ndef writes them: use one")
    try:
        format_tag_text(Card.parse("SA"), deck_id)
    except DeckError as exc:
        return fail(str(exc))
    wanted = tuple(cards) if cards is not None else DeckRegistry().missing(deck_id)
    if len(set(wanted)) != len(wanted) or not wanted:
        return fail("the cards to enrol must be given once each")
    try:
        registry = load_deck(deck) if deck.exists() else DeckRegistry()
        older = older_deck_form(deck) if deck.exists() else None
        if older is not None:
            write_deck(deck, registry)
    except (ConfigError, OSError) as exc:
        return fail(f"cannot use the deck file: {exc}")
    options = _EnrolOptions(deck, deck_id, wanted, from_ndef, write_ndef, timeout)
    session = _Enrolment(options, registry, _Unopened("enrol", "not opened", clock), out)
    if older is not None:
        session.say(f"{deck} was a deck file in the older TOML form: now saved as JSON under the same name "
                    f"(renaming it to .json, and [table] deck with it, keeps one name everywhere)")
    for card in wanted:
        holder = registry.find(deck_id, card)
        if holder is not None and cards is not None:
            session.say(f"{card} is already enrolled in {deck_id} (tag {holder.uid}): skipped")
    if session.done:
        session.say(f"resuming {deck_id} in {deck}: {session.progress()} already enrolled")
    else:
        session.say(f"enrolling {deck_id} in {deck}: {len(wanted)} cards")
    if not session.todo():
        return session.run()
    try:
        session.source = opener(reader, clock, name="enrol")
    except Exception as exc:   # ConfigError, a missing library (ImportError), a board that is not a Pi
        return fail(f"cannot open the reader {reader!r}: {exc}")
    if (from_ndef or write_ndef) and not isinstance(session.source, NdefTags):
        flag = "--from-ndef" if from_ndef else "--write-ndef"
        return fail(f"{flag} needs an NFC reader that reads and writes NDEF text (nfc:...), not {reader!r}")
    try:
        return session.run()
    except (OSError, BridgeTableError) as exc:
        return fail(f"stopped at {session.progress()}: {exc}")


# -- device start-up ------------------------------------------------------------------------------

def announcing(opener: Opener, config: TableConfig, err: TextIO) -> Opener:
    """``opener``, saying on ``err`` which device of ``config`` it opens (``opening device 2 of 5:
    E.play (nfc:tty:AMA1:pn532)``), since a reader may take seconds to answer; ``doctor`` and
    ``tablectl run`` start their devices through it."""
    names = list(config.device_urls())
    opened: list[str] = []

    def open_one(url: str, clock: Clock, **kwargs: Any) -> EventSource:
        index = len(opened)
        label = names[index][0] if index < len(names) else str(kwargs.get("name") or url)
        opened.append(label)
        err.write(f"opening device {index + 1} of {max(len(names), index + 1)}: {label} ({url})\n")
        err.flush()
        return opener(url, clock, **kwargs)
    return open_one


# -- doctor ---------------------------------------------------------------------------------------

class _Unopened:
    """Stands in for a device that could not be opened: never up, its health says why."""

    def __init__(self, name: str, reason: str, clock: Clock) -> None:
        self.name = name
        self._health = DeviceHealth(name, False, reason, clock())

    def start(self, emit: Emit) -> None:
        pass

    def stop(self) -> None:
        pass

    def health(self) -> DeviceHealth:
        return self._health


@dataclass(slots=True)
class _Device:
    """One configured device: its name (``N.unit``, ``E.play``, ``board``, ``gpio``), URL and source."""

    label: str
    url: str
    source: EventSource
    settled: bool = False
    parts: dict[str, DeviceHealth] = field(default_factory=dict)   # readers inside a unit or simulator


class _Doctor:
    """Opens a table's devices, reports their health and shows what they see."""

    def __init__(self, config: TableConfig, registry: DeckRegistry | None, clock: Clock, opener: Opener,
                 out: TextIO) -> None:
        self.config = config
        self.registry = registry
        self.clock = clock
        self.opener = opener
        self.out = out
        self.devices: list[_Device] = []
        self.events: queue.Queue[tuple[int, RawEvent]] = queue.Queue()
        self.tags: dict[str, list[str]] = {}
        self.box: dict[tuple[str, str], bool] = {}
        self.t0 = clock()

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def open(self) -> None:
        names = list(self.config.device_urls())

        def open_one(url: str, clock: Clock, **kwargs: Any) -> EventSource:
            index = len(self.devices)
            label, listed = names[index] if index < len(names) else (str(kwargs.get("name") or url), url)
            try:
                source = self.opener(url, clock, **kwargs)
            except Exception as exc:   # anything that stops a device opening is its reason for being down
                source = _Unopened(label, f"cannot open: {exc}", clock)
            self.devices.append(_Device(label, listed, source, settled=isinstance(source, _Unopened)))
            return source

        open_table(self.config, self.clock, opener=open_one)
        for index, device in enumerate(self.devices):
            try:
                device.source.start(self._emitter(index))
            except Exception as exc:   # a backend should not raise here; if it does, it is down
                device.source = _Unopened(device.label, f"cannot start: {exc}", self.clock)
                device.settled = True

    def _emitter(self, index: int) -> Emit:
        def emit(event: RawEvent) -> None:
            self.events.put((index, event))
        return emit

    def up(self, device: _Device) -> bool:
        return device.source.health().up

    def settle(self, wait: float) -> None:
        """Take events until every device has said whether it is up, or ``wait`` seconds have passed."""
        deadline = self.clock() + wait
        while not all(d.settled or self.up(d) for d in self.devices):
            remaining = deadline - self.clock()
            if remaining <= 0:
                break
            try:
                index, event = self.events.get(timeout=min(_POLL, remaining))
            except queue.Empty:
                continue
            self.note(index, event, live=False)
        while True:   # what came with the last reports belongs to the picture of "now"
            try:
                index, event = self.events.get_nowait()
            except queue.Empty:
                break
            self.note(index, event, live=False)

    def watch(self, seconds: float) -> None:
        """Print what the devices see for ``seconds`` (of the injected clock), or until Ctrl-C."""
        self.say(f"\nwatching for {seconds:g} s (Ctrl-C stops): put cards on the readers, "
                 f"pull bid cards, press the buttons")
        end = self.clock() + seconds
        try:
            while (remaining := end - self.clock()) > 0:
                try:
                    index, event = self.events.get(timeout=min(_POLL, remaining))
                except queue.Empty:
                    continue
                self.note(index, event, live=True)
        except KeyboardInterrupt:
            self.say("stopped")

    def note(self, index: int, event: RawEvent, live: bool) -> None:
        """Keep what ``event`` tells, and print it when ``live`` (and when it is news)."""
        device = self.devices[index]
        line: str | None = None
        if isinstance(event, DeviceHealth):
            if event.device == device.source.name:
                device.settled = True
            else:
                device.parts[event.device] = event
            via = "" if event.device in (device.label, device.source.name) else f" (via {device.label})"
            line = f"{event.device}{via} {'UP' if event.up else 'DOWN'}: {event.detail}"
        elif isinstance(event, TagSeen):
            on = self.tags.setdefault(event.reader, [])
            if event.uid not in on:
                on.append(event.uid)
            line = f"{event.reader} + {self.describe(event.uid)}"
        elif isinstance(event, TagGone):
            with contextlib.suppress(KeyError, ValueError):
                self.tags[event.reader].remove(event.uid)
            line = f"{event.reader} - {self.describe(event.uid)}"
        elif isinstance(event, ContactChanged):
            key = (event.seat, event.slot)
            before = self.box.get(key)
            self.box[key] = event.present
            if (before is None and not event.present) or (before is not None and before != event.present):
                line = f"{event.seat} bidding box: {event.slot} {'back in' if event.present else 'out'}"
        elif isinstance(event, ButtonPressed):
            line = f"{event.seat} button {event.name} pressed"
        if live and line is not None:
            self.say(f"  {event.t - self.t0:8.2f} s  {line}")

    def describe(self, uid: str) -> str:
        tag = self.registry.get(uid) if self.registry is not None else None
        return f"{tag.card} ({tag.deck}, tag {uid})" if tag is not None else f"unknown tag {uid}"

    def report_devices(self) -> None:
        width = max(len(d.label) for d in self.devices)
        url_width = min(40, max(len(d.url) for d in self.devices))
        self.say("devices:")
        for device in self.devices:
            health = device.source.health()
            if health.up:
                state, detail = "OK", health.detail
            elif device.settled:
                state, detail = "DOWN", health.detail
            else:
                state, detail = "DOWN", f"no answer yet ({health.detail})"
            self.say(f"  {device.label:<{width}}  {device.url:<{url_width}}  {state:<4}  {detail}")
            for name, part in sorted(device.parts.items()):
                self.say(f"  {'':<{width}}    {name} {'OK' if part.up else 'DOWN'}: {part.detail}")

    def report_now(self) -> None:
        self.say("\nwhat the table sees now:")
        readers = [(reader, uids) for reader, uids in sorted(self.tags.items()) if uids]
        if not readers:
            self.say("  no tag on any reader")
        for reader, uids in readers:
            self.say(f"  {reader}: " + ", ".join(self.describe(uid) for uid in uids))
        for seat in SEATS:
            known = [slot for slot in BIDDING_BOX_SLOTS if (seat, slot) in self.box]
            if not known:
                continue
            out = [slot for slot in known if not self.box[(seat, slot)]]
            state = f"out: {' '.join(out)}" if out else "every card in"
            self.say(f"  {seat} bidding box: {state} ({len(known) - len(out)} of {len(known)} slots report in)")

    def down(self) -> list[str]:
        """The devices (and readers inside them) that are down now, with why."""
        down: list[str] = []
        for device in self.devices:
            health = device.source.health()
            if not health.up:
                down.append(f"{device.label} ({health.detail})")
            down += [f"{name} via {device.label} ({part.detail})" for name, part in sorted(device.parts.items())
                     if not part.up]
        return down

    def stop(self) -> None:
        for device in reversed(self.devices):
            with contextlib.suppress(Exception):
                device.source.stop()


def doctor(config_path: Path, *, seconds: float = 10.0, wait: float = 5.0, clock: Clock = monotonic,
           opener: Opener = open_source, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Check every device of the table config at ``config_path`` and show what they see for ``seconds``.

    Waits up to ``wait`` seconds for each device to say whether it is up. Returns 0 when
    every device is up at the end, 1 when one is down, 2 when the config cannot be read.
    """
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    try:
        config = load_config(config_path)
    except ConfigError as exc:
        err.write(f"tablectl doctor: {exc}\n")
        return EXIT_USAGE
    out.write(f"table {config.name!r} ({config_path}), code {config.code}\n")
    registry: DeckRegistry | None = None
    if config.deck is None:
        out.write("deck: none in the config (table.deck): tags are shown by UID only\n")
    else:
        try:
            registry = load_deck(config.deck)
        except ConfigError as exc:
            out.write(f"deck: {exc}; tags are shown by UID only\n")
        else:
            counts = ", ".join(f"{d} {len(registry.cards(d))} cards" for d in registry.decks()) or "no card"
            out.write(f"deck: {config.deck}: {counts}\n")
            if (older := older_deck_form(config.deck)) is not None:
                out.write(f"  {older}\n")
    if not config.device_urls():
        out.write("the config names no device ([seats.N] unit/play/spread, table.board_reader, [gpio])\n")
        return EXIT_DOWN
    check = _Doctor(config, registry, clock, announcing(opener, config, err), out)
    try:
        check.open()
        err.write(f"waiting up to {wait:g} s for the {len(check.devices)} devices to say whether they are up\n")
        err.flush()
        check.settle(wait)
        check.report_devices()
        check.report_now()
        if seconds > 0:
            check.watch(seconds)
        down = check.down()
    finally:
        check.stop()
    total = len(check.devices)
    if down:
        check.say(f"\nDOWN ({len(down)}; {total} devices configured):")
        for line in down:
            check.say(f"  {line}")
        return EXIT_DOWN
    check.say(f"\nall {total} devices up")
    return EXIT_OK


# -- the command line ------------------------------------------------------------------------------

def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``enrol`` and ``doctor`` to ``tablectl``'s sub-commands."""
    e = sub.add_parser("enrol", help="enrol a deck: record which tag is which card",
                       description="Enrol a deck card by card (hardware/cards.md). Saves after every card: "
                                   "Ctrl-C stops, and the same command goes on where it stopped.")
    e.add_argument("--deck", required=True, metavar="FILE",
                   help="the deck file (JSON, e.g. decks/club.json; an older TOML deck file is read and saved as JSON)")
    e.add_argument("--deck-id", default=DEFAULT_DECK, help=f"the deck's id (default {DEFAULT_DECK})")
    e.add_argument("--reader", default=DEFAULT_READER, metavar="URL",
                   help=f"the reader's device URL (default {DEFAULT_READER}: the first USB reader; "
                        f"nfc:tty:USB0:pn532, sim:// ...)")
    ndef = e.add_mutually_exclusive_group()
    ndef.add_argument("--from-ndef", action="store_true",
                      help="take each card from the NDEF text on its tag (deck1:SA), in any order")
    ndef.add_argument("--write-ndef", action="store_true",
                      help="also write the card (deck1:SA) as NDEF text on each blank tag")
    e.add_argument("--cards", metavar='"SA SK ..."', help="enrol only these cards, in this order")
    e.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="stop when no card comes for this long (default: wait for ever)")
    e.set_defaults(func=_cmd_enrol)
    d = sub.add_parser("doctor", help="check a table's devices and show what they see",
                       description="Open every device of a table config, say which are up, then show live "
                                   "what they see. Exit code 0 when every device is up, 1 otherwise.")
    d.add_argument("--config", required=True, metavar="FILE", help="the table config (TOML)")
    d.add_argument("--seconds", type=float, default=10.0, help="how long to show what the devices see (10)")
    d.add_argument("--wait", type=float, default=5.0, help="how long to wait for the devices to come up (5)")
    d.set_defaults(func=_cmd_doctor)


def _quiet_driver_logs() -> None:
    # the drivers log each device going down; these commands say it themselves
    logging.basicConfig(level=logging.ERROR, format="tablectl: %(name)s: %(message)s")


def _cmd_enrol(args: argparse.Namespace) -> int:
    _quiet_driver_logs()
    try:
        cards = parse_cards(args.cards) if args.cards is not None else None
    except NotationError as exc:
        print(f"tablectl enrol: --cards: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return enrol(Path(args.deck), args.reader, deck_id=args.deck_id, cards=cards, from_ndef=args.from_ndef,
                 write_ndef=args.write_ndef, timeout=args.timeout)


def _cmd_doctor(args: argparse.Namespace) -> int:
    _quiet_driver_logs()
    return doctor(Path(args.config), seconds=args.seconds, wait=args.wait)
