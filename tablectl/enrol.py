"""``tablectl enrol``: enrolling a deck's tags, card by card.

``enrol`` registers a deck card by card (``hardware/cards.md``): it asks for each card in
turn (``present SA``), waits for a tag on the reader, and records tag UID -> card in the
deck file, which it saves after every card, so that an interrupted enrolment (Ctrl-C, a
power cut) goes on where it stopped when the same command is run again. It refuses a tag
that is already enrolled and a card its deck already has, says why, and asks again. With
``--write-ndef`` it also writes ``deck1:SA`` as NDEF text on blank tags; with
``--from-ndef`` it takes each card from the text already on its tag, in any order.

Deck files: one format, the JSON that ``controller.sensing.deck.dumps`` writes, which the
table config's ``table.deck``, ``sim://?deck=`` (``drivers.config.load_deck``) and
``tablectl run`` read (hardware/decks.md, "The deck file"); ``load_deck`` still reads a deck
file of the older TOML form with a deprecation warning, and ``enrol`` saves such a file as
JSON at once.

The reader is taken by URL (``drivers.open_source``), with an injected clock for the
events' times; the command reads the events off a queue and only waits on it with timeouts.
With the simulated table as the reader (``sim://``) nobody can lay a card on it from outside
the process, so the command line brings a simulated volunteer (``SimVolunteer``) who lays a
new tag on it at each prompt: enrolment can be tried end to end without hardware.
The exit statuses and the queue's poll are shared with ``tablectl doctor``
(``tablectl.hardware``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import queue
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO, runtime_checkable

from controller.cards import Card
from controller.errors import BridgeTableError, NotationError
from controller.sensing import deck as deck_json
from controller.sensing.deck import DEFAULT_DECK, DeckError, DeckRegistry, format_tag_text, parse_tag_text
from controller.sensing.events import DeviceHealth, RawEvent, TagSeen
from drivers.base import Clock, Emit, EventSource, monotonic
from drivers.config import ConfigError, load_deck, older_deck_form
from drivers.registry import open_source
from drivers.sim import SimTable

__all__ = ["DEFAULT_READER", "EXIT_DOWN", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "POLL", "VOLUNTEER_PACE",
           "NdefTags", "Opener", "SimVolunteer", "Unopened", "enrol", "parse_cards", "write_deck"]

DEFAULT_READER = "nfc:usb"
"""The enrolment reader when none is named: the first USB reader nfcpy finds (an ACR122U, say)."""

EXIT_OK = 0
EXIT_DOWN = 1   # doctor: a device is down; enrol: no card came within --timeout
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130   # Ctrl-C, as a shell reports SIGINT

POLL = 0.1   # seconds: the longest wait on the event queue before looking at the clock again
VOLUNTEER_PACE = 0.2
READER_GRACE = 10.0
"""Seconds enrolment waits for a reader that has never been up before it says there is none
(exit 2); a reader that was up and goes down (a cable pulled) is waited for without end."""
"""Seconds the simulated volunteer takes to lay each card on the simulated reader (a deck in about 11 s)."""

Opener = Callable[..., EventSource]
"""What opens a device URL: ``drivers.open_source`` or a stand-in with its signature."""


class Unopened:
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


@runtime_checkable
class NdefTags(Protocol):
    """A reader that reads and writes the NDEF text of the tag on it (``drivers.nfc_reader.NfcReader``)."""

    def read_ndef_text(self, uid: str | None = None) -> str | None: ...

    def write_ndef_text(self, text: str, uid: str | None = None) -> str: ...


class SimVolunteer:
    """Somebody at the simulated table's reader: at each prompt, after ``pace`` seconds, lays a new tag on
    ``zone`` (its UID made from the deck id and the card, so not one of another card; a tag refused is
    followed by another) and lifts it once it is enrolled."""

    def __init__(self, table: SimTable, deck_id: str, pace: float = VOLUNTEER_PACE, zone: str = "N.play") -> None:
        self.table = table
        self.deck_id = deck_id
        self.pace = pace
        self.zone = zone
        self._laid: str | None = None
        self._tries: dict[Card, int] = {}

    def lay(self, card: Card) -> None:
        time.sleep(self.pace)
        self.lift()
        tries = self._tries[card] = self._tries.get(card, -1) + 1
        digest = hashlib.sha256(f"{self.deck_id}:{card}{f':{tries}' if tries else ''}".encode()).hexdigest()
        self._laid = ("04" + digest[:12]).upper()
        self.table.present(self._laid, self.zone)

    def lift(self) -> None:
        if self._laid is not None:
            with contextlib.suppress(ValueError):   # already off the reader
                self.table.remove(self._laid)
            self._laid = None


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


class _NoReader(Exception):
    """The reader was never up within ``READER_GRACE`` seconds of the start."""


class _Enrolment:
    """One enrolment session over one reader: prompts, refusals, progress and the deck file."""

    def __init__(self, options: _EnrolOptions, registry: DeckRegistry, source: EventSource, out: TextIO) -> None:
        self.options = options
        self.registry = registry
        self.source = source
        self.out = out
        self.events: queue.Queue[RawEvent] = queue.Queue()
        self._reader_up: bool | None = None
        self._reader_seen = False
        self._reader_down = ""
        self.volunteer: SimVolunteer | None = None
        self.grace = READER_GRACE
        self._began = time.monotonic()

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
                    if self.volunteer is not None:
                        self.volunteer.lay(card)
                try:
                    uid = self.next_tag()
                except _NoReader:
                    self.say(f"no reader answered within {self.grace:g} s ({self._reader_down}): plug in a USB NFC "
                             "reader (an ACR122U, a PN532 on USB serial) or name one with --reader URL; "
                             f"--reader sim:// tries it without one. Stopped at {self.progress()}{self.saved()}")
                    return EXIT_USAGE
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
                if self.volunteer is not None:
                    self.volunteer.lift()
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
            if self._reader_up is False and not self._reader_seen and time.monotonic() - self._began >= self.grace:
                raise _NoReader
            slice_ = POLL if timeout is None else min(POLL, timeout - waited)
            try:
                event = self.events.get(timeout=slice_)
            except queue.Empty:
                waited += slice_
                continue
            if isinstance(event, TagSeen):
                return event.uid
            if isinstance(event, DeviceHealth) and event.up != self._reader_up:
                self._reader_up = event.up
                self._reader_seen = self._reader_seen or event.up
                self._reader_down = "" if event.up else event.detail
                if event.up:
                    self.say(f"  reader {event.device} is up: {event.detail}")
                else:
                    self.say(f"  reader {event.device} is down: {event.detail} (waiting for it to come back)"
                             if self._reader_seen else
                             f"  reader {event.device} is down: {event.detail} (waiting {self.grace:g} s for it)")
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
          out: TextIO | None = None, err: TextIO | None = None, volunteer: float | None = None,
          reader_grace: float = READER_GRACE) -> int:
    """Enrol the cards of ``deck_id`` (all 52 in PBN order, or ``cards``) from the tags shown to ``reader``.

    Keeps what ``deck`` already holds and asks only for the rest; saves after each card. With
    ``volunteer`` (seconds per card) and the simulated table as the reader, a ``SimVolunteer``
    lays each card asked for on it (the command line's ``sim://``).
    Returns 0 when every card is enrolled, 1 when no tag came within ``timeout`` seconds,
    2 when the deck file, the options or the reader cannot be used (a reader never up within
    ``reader_grace`` seconds: none is plugged in), 130 on Ctrl-C.
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
    session = _Enrolment(options, registry, Unopened("enrol", "not opened", clock), out)
    session.grace = reader_grace
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
    if volunteer is not None and isinstance(session.source, SimTable):
        session.volunteer = SimVolunteer(session.source, deck_id, volunteer)
        session.say(f"the simulated table: a simulated volunteer lays each card on it ({volunteer:g} s a card)")
    try:
        return session.run()
    except (OSError, BridgeTableError) as exc:
        return fail(f"stopped at {session.progress()}: {exc}")


# -- device start-up ------------------------------------------------------------------------------

