"""``tablectl doctor`` (checking a table's devices) and the device commands' parsers.

``doctor`` opens every device of a table config (``drivers.open_table``), prints one line
per device (``OK``, or ``DOWN`` with the reason), what the table sees now, then what it
sees live for a few seconds (tags with their cards, bid cards pulled and put back, button
presses, devices going down and up); it exits 0 when every device is up, 1 otherwise. An
older TOML deck file is shown with its deprecation warning. ``tablectl enrol`` lives in
``tablectl.enrol``; both commands are declared here.

The devices are taken by URL (``drivers.open_source``), with an injected clock for the
events' times; the command reads the events off a queue and only waits on it with timeouts.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import queue
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from controller.errors import NotationError
from controller.sensing.deck import DEFAULT_DECK, DeckRegistry
from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth, RawEvent, TagGone, TagSeen
from drivers.base import Clock, Emit, EventSource, monotonic
from drivers.config import BIDDING_BOX_SLOTS, SEATS, ConfigError, TableConfig, load_deck, older_deck_form
from drivers.config import load as load_config
from drivers.registry import open_source, open_table

__all__ = [
    "DEFAULT_READER",
    "EXIT_DOWN",
    "EXIT_OK",
    "EXIT_USAGE",
    "NdefTags",
    "Opener",
    "add_commands",
    "announcing",
    "doctor",
    "enrol",
    "parse_cards",
    "write_deck",
]

from tablectl.enrol import (
    DEFAULT_READER,
    EXIT_DOWN,
    EXIT_OK,
    EXIT_USAGE,
    POLL,
    VOLUNTEER_PACE,
    NdefTags,
    Opener,
    Unopened,
    enrol,
    parse_cards,
    write_deck,
)


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
                source = Unopened(label, f"cannot open: {exc}", clock)
            self.devices.append(_Device(label, listed, source, settled=isinstance(source, Unopened)))
            return source

        open_table(self.config, self.clock, opener=open_one)
        for index, device in enumerate(self.devices):
            try:
                device.source.start(self._emitter(index))
            except Exception as exc:   # a backend should not raise here; if it does, it is down
                device.source = Unopened(device.label, f"cannot start: {exc}", self.clock)
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
                index, event = self.events.get(timeout=min(POLL, remaining))
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
                    index, event = self.events.get(timeout=min(POLL, remaining))
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
                        f"nfc:tty:USB0:pn532; sim://, the simulated table, where a simulated volunteer lays "
                        f"the cards)")
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
                 write_ndef=args.write_ndef, timeout=args.timeout, volunteer=VOLUNTEER_PACE)


def _cmd_doctor(args: argparse.Namespace) -> int:
    _quiet_driver_logs()
    return doctor(Path(args.config), seconds=args.seconds, wait=args.wait)
