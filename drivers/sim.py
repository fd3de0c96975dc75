"""A whole simulated table as one EventSource, with verbs for the physical acts at a table.

Opened from ``sim://`` (``sim://?deck=decks/club.json&deck_id=deck1&mode=thread``, and
``&spread=pads&miss=0.02&seed=7`` for spread zones read as the hardware reads them). The
table has, for each seat, a play and a spread reader (``N.play``, ``N.spread``), a bidding
box with the 40 contacts of ``BIDDING_BOX_SLOTS`` (all cards in at the start) and a
call-the-arbiter button, and a board reader (``board``). The verbs::

    table.present("SA", zone="N.play")   # a card (by the deck map) or a tag UID on a reader
    table.remove("SA")                   # taken off whatever reader it is on
    table.dropout("N.play")              # the reader loses its tags for a moment and sees them again
    table.pull("3H", seat="E")           # a bid card out of its slot (bounces=n: the contact bounces)
    table.put_back("3H", seat="E")
    table.press("E")                     # call-the-arbiter button
    table.fail("N.play"); table.recover("N.play")   # a device goes down and comes back
    table.advance()                      # (spread=pads) the pad readers run up to the clock's now

A card is in one place at a time: presenting it on another reader first takes it off the
one it was on. While a device is down its events are lost (the physical act still happens);
when it comes back it reports what it sees, as a real reader does. Each event's ``t`` comes
from the injected clock. In ``sync`` mode events reach ``emit`` inside the verb; in
``thread`` mode they go through a queue to a delivery thread, as a reader thread would.

Spread zones: by default a card on a spread zone is reported at once, as on a play zone. With
``spread=PadArray(...)`` (``sim://?spread=pads``) each seat's spread zone is read as the chosen
hardware reads it (``drivers.spread``, hardware/spread-zone.md): pad by pad in a 0.2 s cycle,
each card reported when its pad is read, a tag missed in a pass with the probability
``miss`` (seeded by ``seed``: the same events on every run), and a card taken off reported
gone only after two cycles without a read of it. Those reads happen as the clock moves:
every verb first runs the pads up to the clock's now, ``advance()`` does it on its own, and
in ``thread`` mode a scan thread does it every pad slot.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import parse_qsl

from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth, RawEvent, TagGone, TagSeen
from drivers.base import Clock, Emit, monotonic
from drivers.config import BIDDING_BOX_SLOTS, SEATS, ConfigError, load_deck
from drivers.spread import PadArray, SpreadScanner

__all__ = ["SimTable", "default_deck"]

log = logging.getLogger(__name__)

ZONES = ("play", "spread")
_SUITS = "SHDC"
_RANKS = "AKQJT98765432"


def default_deck(deck_number: int = 1) -> dict[str, str]:
    """Card -> tag UID of a made-up enrolled deck (NXP-style 7-byte UIDs, unique per deck number)."""
    if not 1 <= deck_number <= 255:
        raise ValueError(f"deck number must be 1..255, not {deck_number}")
    deck = {}
    for s, suit in enumerate(_SUITS):
        for r, rank in enumerate(_RANKS):
            check = (deck_number * 52 + s * 13 + r) % 256
            deck[f"{suit}{rank}"] = f"04{deck_number:02X}{s:02X}{r:02X}5A{check:02X}80"
    return deck


class SimTable:
    """A simulated table: every reader, bidding box and button of one table (see the module doc)."""

    def __init__(self, deck: Mapping[str, str] | None = None, clock: Clock = monotonic, *,
                 name: str = "sim", mode: str = "sync", report_state_on_start: bool = True,
                 spread: PadArray | None = None, seed: int = 0) -> None:
        if mode not in ("sync", "thread"):
            raise ConfigError(f"simulator mode must be sync or thread, not {mode!r}")
        self.name = name
        self.deck = dict(deck if deck is not None else default_deck())
        self._uid_to_card = {uid.upper(): card for card, uid in self.deck.items()}
        self._clock = clock
        self._mode = mode
        self._report_state = report_state_on_start
        self.readers = (*(f"{seat}.{zone}" for seat in SEATS for zone in ZONES), "board")
        self.devices = (*self.readers, *(f"{seat}.box" for seat in SEATS),
                        *(f"{seat}.button" for seat in SEATS))
        self._lock = threading.RLock()
        self._where: dict[str, str] = {}   # tag UID -> reader it lies on
        self._out: set[tuple[str, str]] = set()   # (seat, slot) of bid cards out of the box
        self._failed: dict[str, str] = {}   # device -> what went wrong
        self._emit: Emit | None = None
        self._queue: queue.SimpleQueue[RawEvent | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._health = DeviceHealth(name, False, "not started", clock())
        self.pads = spread
        t0 = clock()
        self._scanners: dict[str, SpreadScanner] = {} if spread is None else {
            f"{seat}.spread": SpreadScanner(f"{seat}.spread", spread, random.Random(f"{seed}:{seat}.spread"), t0)
            for seat in SEATS}
        self._stopping = threading.Event()
        self._scan_thread: threading.Thread | None = None

    @classmethod
    def from_url(cls, url: str, clock: Clock = monotonic, *, name: str | None = None) -> SimTable:
        """Open ``sim://[?deck=FILE&deck_id=ID&mode=sync|thread&quiet=1&spread=pads&miss=P&seed=N]``."""
        scheme, _, rest = url.partition(":")
        if scheme != "sim" or not rest.startswith("//"):
            raise ConfigError(f"{url!r} is not a simulator URL (sim://)")
        _, _, query = rest.partition("?")
        options = dict(parse_qsl(query, keep_blank_values=True))
        deck: Mapping[str, str] | None = None
        if "deck" in options:
            enrolled = load_deck(Path(options.pop("deck")))
            deck_id = options.pop("deck_id", None) or (enrolled.decks() or ("",))[0]
            deck = enrolled.to_mapping().get(deck_id, {})
            if not deck:
                raise ConfigError(f"{url!r}: the deck file has no deck {deck_id!r}")
        mode = options.pop("mode", "sync")
        quiet = options.pop("quiet", "0").lower() in ("1", "true", "yes")
        pads = _pad_array(url, options)
        try:
            seed = int(options.pop("seed", "0"))
        except ValueError as exc:
            raise ConfigError(f"{url!r}: seed must be a whole number") from exc
        if options:
            raise ConfigError(f"{url!r}: unknown option(s) {', '.join(sorted(options))} "
                              f"(deck, deck_id, mode, quiet, spread, miss, seed)")
        return cls(deck, clock, name=name or "sim", mode=mode, report_state_on_start=not quiet,
                   spread=pads, seed=seed)

    def __repr__(self) -> str:
        pads = "" if self.pads is None else ", spread read pad by pad"
        return f"SimTable({len(self.deck)} cards, mode={self._mode!r}{pads})"

    # -- EventSource ----------------------------------------------------------------------

    def start(self, emit: Emit) -> None:
        with self._lock:
            if self._emit is not None:
                return
            self._emit = emit
            if self._mode == "thread":
                self._queue = queue.SimpleQueue()
                self._thread = threading.Thread(target=self._deliver, name=f"{self.name} events", daemon=True)
                self._thread.start()
                if self._scanners:
                    self._stopping.clear()
                    self._scan_thread = threading.Thread(target=self._scan, name=f"{self.name} pads",
                                                         daemon=True)
                    self._scan_thread.start()
            self._health = DeviceHealth(self.name, True, "simulated table", self._clock())
            self._send(self._health)
            for device, detail in self._failed.items():
                self._send(DeviceHealth(device, False, detail, self._clock()))
            if self._report_state:
                for device in self.devices:
                    if device not in self._failed:
                        self._report_device(device)
            self._update_health()

    def stop(self) -> None:
        with self._lock:
            if self._emit is None:
                return
            self._emit = None
            thread, self._thread = self._thread, None
            scan, self._scan_thread = self._scan_thread, None
            self._stopping.set()
            self._queue.put(None)
            self._health = DeviceHealth(self.name, False, "stopped", self._clock())
        for running in (scan, thread):
            if running is not None:
                running.join(timeout=10)

    def health(self) -> DeviceHealth:
        return self._health

    # -- verbs: cards and tags ------------------------------------------------------------

    def uid(self, card_or_uid: str) -> str:
        """The tag UID of a card of the deck map, or the UID itself (upper-case hex)."""
        if card_or_uid in self.deck:
            return self.deck[card_or_uid].upper()
        text = card_or_uid.upper()
        if len(text) in (8, 14, 20) and all(c in "0123456789ABCDEF" for c in text):
            return text
        raise ValueError(f"{card_or_uid!r} is neither a card of the deck nor a tag UID")

    def present(self, card_or_uid: str, zone: str) -> None:
        """Put a card (or any tag) on reader ``zone`` (``N.play``, ``E.spread``, ``board``)."""
        self._check_reader(zone)
        uid = self.uid(card_or_uid)
        with self._lock:
            self._run_pads()
            old = self._where.get(uid)
            if old == zone:
                return
            if old is not None:
                self._tag_gone(uid, old)
            self._where[uid] = zone
            scanner = self._scanners.get(zone)
            if scanner is not None:
                scanner.place(uid, self._uid_to_card.get(uid))   # reported when its pad is read
            elif zone not in self._failed:
                self._send(TagSeen(zone, uid, self._clock()))

    def present_many(self, cards: Iterable[str], zone: str) -> None:
        """Put several cards on ``zone`` (a hand faced on the spread zone)."""
        for card in cards:
            self.present(card, zone)

    def remove(self, card_or_uid: str, zone: str | None = None) -> None:
        """Take a card off the reader it lies on (``zone``, when given, must be that reader)."""
        uid = self.uid(card_or_uid)
        with self._lock:
            self._run_pads()
            where = self._where.get(uid)
            if where is None or (zone is not None and where != zone):
                raise ValueError(f"{card_or_uid} is not on {zone or 'any reader'}")
            self._tag_gone(uid, where)

    def clear(self, zone: str) -> None:
        """Take every card off reader ``zone``."""
        self._check_reader(zone)
        with self._lock:
            self._run_pads()
            for uid in [uid for uid, where in self._where.items() if where == zone]:
                self._tag_gone(uid, zone)

    def dropout(self, zone: str) -> None:
        """The reader misses its tags for one poll and sees them again (what real readers do)."""
        self._check_reader(zone)
        with self._lock:
            self._run_pads()
            if zone in self._failed or zone in self._scanners:
                return   # (a zone read pad by pad has drop-outs of its own: ``miss``)
            uids = [uid for uid, where in self._where.items() if where == zone]
            for uid in uids:
                self._send(TagGone(zone, uid, self._clock()))
            for uid in uids:
                self._send(TagSeen(zone, uid, self._clock()))

    def advance(self, t: float | None = None) -> None:
        """Run the spread zones' pad reads up to ``t`` (default: the clock's now); nothing to do
        unless spread zones are read pad by pad (``spread=``)."""
        with self._lock:
            self._run_pads(t)

    def pad_under(self, card_or_uid: str) -> int | None:
        """The pad (0-15) a card lies on, if it lies on a spread zone read pad by pad."""
        uid = self.uid(card_or_uid)
        with self._lock:
            scanner = self._scanners.get(self._where.get(uid, ""))
            return None if scanner is None else scanner.pad_under(uid)

    def on(self, zone: str) -> tuple[str, ...]:
        """The cards (or UIDs of unknown tags) lying on ``zone``."""
        with self._lock:
            return tuple(self._uid_to_card.get(uid, uid)
                         for uid, where in self._where.items() if where == zone)

    # -- verbs: bidding box and button -------------------------------------------------------

    def pull(self, slot: str, seat: str, *, bounces: int = 0) -> None:
        """Pull bid card ``slot`` (``3H``, ``Pass``, ``X``, ``Stop``) out of ``seat``'s box."""
        self._contact(seat, slot, present=False, bounces=bounces)

    def put_back(self, slot: str, seat: str, *, bounces: int = 0) -> None:
        """Put bid card ``slot`` back in its slot of ``seat``'s box."""
        self._contact(seat, slot, present=True, bounces=bounces)

    def is_out(self, slot: str, seat: str) -> bool:
        with self._lock:
            return (seat, slot) in self._out

    def press(self, seat: str, name: str = "director") -> None:
        """Press ``seat``'s call-the-arbiter button."""
        _check_seat(seat)
        with self._lock:
            if f"{seat}.button" not in self._failed:
                self._send(ButtonPressed(seat, name, self._clock()))

    # -- verbs: devices failing -----------------------------------------------------------

    def fail(self, device: str, detail: str = "simulated failure") -> None:
        """Device ``device`` (a reader, ``N.box``, ``N.button``) goes down."""
        self._check_device(device)
        with self._lock:
            self._run_pads()
            if device in self._failed:
                return
            self._failed[device] = detail
            self._send(DeviceHealth(device, False, detail, self._clock()))
            self._update_health()

    def recover(self, device: str) -> None:
        """Device ``device`` comes back and reports what it sees."""
        self._check_device(device)
        with self._lock:
            self._run_pads()   # the reads made while it was down are lost
            if self._failed.pop(device, None) is None:
                return
            self._send(DeviceHealth(device, True, "recovered", self._clock()))
            self._report_device(device)
            self._update_health()

    # -- insides --------------------------------------------------------------------------

    def _contact(self, seat: str, slot: str, *, present: bool, bounces: int) -> None:
        _check_seat(seat)
        if slot not in BIDDING_BOX_SLOTS:
            raise ValueError(f"{slot!r} is not a bidding-box slot (1C..7NT, Pass, X, XX, Stop, Alert)")
        with self._lock:
            if ((seat, slot) not in self._out) == present:
                return
            if present:
                self._out.discard((seat, slot))
            else:
                self._out.add((seat, slot))
            if f"{seat}.box" in self._failed:
                return
            for i in range(2 * bounces):
                self._send(ContactChanged(seat, slot, not present if i % 2 else present, self._clock()))
            self._send(ContactChanged(seat, slot, present, self._clock()))

    def _tag_gone(self, uid: str, zone: str) -> None:
        del self._where[uid]
        scanner = self._scanners.get(zone)
        if scanner is not None:
            scanner.lift(uid)   # reported gone once its pad has missed it for miss_cycles cycles
        elif zone not in self._failed:
            self._send(TagGone(zone, uid, self._clock()))

    def _run_pads(self, t: float | None = None) -> None:
        """The pad reads of every spread zone due by ``t`` (default now); a failed zone's are lost."""
        if not self._scanners:
            return
        now = self._clock() if t is None else t
        for zone, scanner in self._scanners.items():
            events = scanner.advance(now)
            if zone in self._failed:
                scanner.forget()   # the reader is down: what it reported is forgotten
                continue
            for event in events:
                self._send(event)

    def _scan(self) -> None:
        assert self.pads is not None
        while not self._stopping.wait(self.pads.pad_s):
            with self._lock:
                self._run_pads()

    def _report_device(self, device: str) -> None:
        scanner = self._scanners.get(device)
        if scanner is not None:
            scanner.forget()   # it reports every tag again as its pads read them
            return
        if device in self.readers:
            for uid, where in list(self._where.items()):
                if where == device:
                    self._send(TagSeen(device, uid, self._clock()))
        elif device.endswith(".box"):
            seat = device[0]
            for slot in BIDDING_BOX_SLOTS:
                self._send(ContactChanged(seat, slot, (seat, slot) not in self._out, self._clock()))

    def _update_health(self) -> None:
        if self._emit is None:
            return
        detail = ("down: " + ", ".join(sorted(self._failed))) if self._failed else "simulated table"
        self._health = DeviceHealth(self.name, not self._failed, detail, self._clock())

    def _send(self, event: RawEvent) -> None:
        emit = self._emit
        if emit is None:
            return
        if self._mode == "thread":
            self._queue.put(event)
        else:
            emit(event)

    def _deliver(self) -> None:
        emit = self._emit
        while True:
            event = self._queue.get()
            if event is None or emit is None:
                return
            try:
                emit(event)
            except Exception:   # as a reader thread would: log it and go on
                log.exception("%s: emit(%r) failed", self.name, event)

    def _check_reader(self, zone: str) -> None:
        if zone not in self.readers:
            raise ValueError(f"{zone!r} is not a reader of the table ({', '.join(self.readers)})")

    def _check_device(self, device: str) -> None:
        if device not in self.devices:
            raise ValueError(f"{device!r} is not a device of the table ({', '.join(self.devices)})")


def _pad_array(url: str, options: dict[str, str]) -> PadArray | None:
    """The ``spread=pads&miss=P`` options of a simulator URL (removed from ``options``)."""
    how = options.pop("spread", "ideal")
    miss = options.pop("miss", None)
    if how == "ideal":
        if miss is not None:
            raise ConfigError(f"{url!r}: miss needs spread=pads")
        return None
    if how != "pads":
        raise ConfigError(f"{url!r}: spread must be ideal or pads, not {how!r}")
    try:
        return PadArray() if miss is None else PadArray(miss=float(miss))
    except ValueError as exc:
        raise ConfigError(f"{url!r}: {exc}") from exc


def _check_seat(seat: str) -> None:
    if seat not in SEATS:
        raise ValueError(f"seat must be one of N E S W, not {seat!r}")
