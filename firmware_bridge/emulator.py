"""A seat unit emulated behind a pseudo-terminal: the real firmware on a simulated seat.

The same firmware logic as on the RP2040 (``firmware/seatfw``, built by ``board.build``
on ``sim_machine``) runs in a thread and talks over a pty, so the Pi side opens the pty's
path with real pyserial (a pseudo-terminal stands in for the serial port). The path is a
stable symbolic link to the current pty, like ``/dev/serial/by-id/...`` for a real unit:
``unplug`` removes it and closes the pty, ``replug`` makes a new pty, points the link at
it and boots the firmware afresh (a USB-powered unit reboots when replugged).

``spread_pads=16`` fits the spread zone's pad board (``sim_pads.SimPadBoard``): the
firmware then walks its pads, and ``put(uid, "spread")`` lays the card on a pad (the next
pad with room for two cards, or the one named by ``pad=``). Without it the spread reader
has one antenna and reads every card put on it.

Verbs for physical acts: ``put(uid, zone)``, ``remove(uid, zone)``,
``pull(slot)``, ``put_back(slot)``, ``press()``, ``fail(zone)``, ``recover(zone)``,
``unplug()``, ``replug()``, ``inject_garbage(bytes)``. The bidding box starts tidy: every
card in its slot.

The clock is injected. With a clock that moves only when a test moves it, ``sync()``
waits until the firmware has run at the clock's present time, so a test steps the unit
through time deterministically (every scan, debounce and reader cycle happens at a known
instant), and ``last_seq`` tells which frame the unit wrote last, for the host side to
wait on (``SeatLink.wait_handled``).

Run ``python -m firmware_bridge.emulator --seat N``: it prints the path to open, then
reads verbs from standard input (``help`` lists them) until ``quit`` or the input's end.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import queue
import select
import shutil
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from types import TracebackType

from firmware_bridge import messages
from firmware_bridge.codec import Frame, FrameDecoder
from firmware_bridge.firmware.seatfw import board as pins
from firmware_bridge.firmware.seatfw.app import Config, SeatFirmware
from firmware_bridge.firmware.seatfw.ticks import Ticks
from firmware_bridge.messages import SEATS, SLOT_INDEX, ZONES, HostCommand, LedMode
from firmware_bridge.sim_machine import SimBoard, SimButton, SimContactMatrix, SimMachine, SimMFRC522
from firmware_bridge.sim_pads import SimPadBoard

__all__ = ["SeatEmulator", "main", "sync_all"]


def _uid_bytes(uid: str | bytes) -> bytes:
    if isinstance(uid, bytes):
        return uid
    try:
        return bytes.fromhex(uid)
    except ValueError:
        raise ValueError(f"tag UID {uid!r} is not hexadecimal") from None


class _PtyPort:
    """The firmware's link port on the pty master: ``read`` gives what the loop received."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.inbox = bytearray()
        self.dropped = 0

    def read(self) -> bytes:
        data = bytes(self.inbox)
        self.inbox.clear()
        return data

    def write(self, data: bytes) -> None:
        try:
            written = os.write(self.fd, data)
        except OSError:  # no room (host not reading) or pty gone: a USB CDC device drops too
            written = 0
        self.dropped += len(data) - written


class SeatEmulator:
    """One emulated seat unit: simulated seat, real firmware logic, a pty at ``path``."""

    def __init__(self, seat: str = "N", *, link_dir: str | None = None,
                 clock: Callable[[], float] = time.monotonic, config: Config | None = None,
                 diodes: bool = True, unit_id: bytes | None = None, spread_pads: int = 0) -> None:
        if seat not in SEATS:
            raise ValueError(f"seat {seat!r} is not one of N, E, S, W")
        self.seat = seat
        self.config = config if config is not None else Config()
        self._clock = clock
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        if unit_id is None:
            unit_id = bytes([0xE6, 0x61, 0, 0, 0, 0, 0, SEATS.index(seat)])
        self.board = SimBoard(unit_id)
        self.machine = SimMachine(self.board)
        self.readers = {zone: SimMFRC522() for zone in ZONES}
        self.board.attach_spi(pins.SPI_ID, pins.PLAY_CS_PIN, self.readers["play"])
        self.board.attach_spi(pins.SPI_ID, pins.SPREAD_CS_PIN, self.readers["spread"])
        self.spread_pads = spread_pads
        self.pads = (SimPadBoard(self.board, pins.SPI_ID, pins.PAD_LATCH_PIN, self.readers["spread"], spread_pads)
                     if spread_pads > 0 else None)
        self.matrix = SimContactMatrix(self.board, pins.ROW_PINS, pins.COL_PINS, diodes)
        for index in range(len(messages.SLOTS)):
            self.matrix.set(index // 8, index % 8, True)
        self.button = SimButton(self.board, pins.BUTTON_PIN)
        seat_index = SEATS.index(seat)
        for bit, pin in enumerate(pins.SEAT_PINS):
            fitted = bool(seat_index >> bit & 1)
            self.board.attach_source(pin, (lambda: 0) if fitted else (lambda: None))
        self.received: queue.Queue[HostCommand] = queue.Queue()
        self._tap = FrameDecoder()
        self._own_dir = link_dir is None
        self._dir = link_dir if link_dir is not None else tempfile.mkdtemp(prefix="seatunit-")
        self.path = os.path.join(self._dir, f"seat{seat}")
        self.tty: str | None = None
        self.boots = 0
        self.firmware: SeatFirmware | None = None
        self._port: _PtyPort | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._release_at: float | None = None
        self._polled_at = float("-inf")
        self._wake_r, self._wake_w = os.pipe()
        self._running = False
        self._thread: threading.Thread | None = None

    # -- life cycle

    def start(self) -> SeatEmulator:
        """Plug the unit in and start its firmware thread."""
        with self._lock:
            if self._running:
                return self
            self._running = True
            self._plug()
        self._thread = threading.Thread(target=self._run, name=f"emulator-{self.seat}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the firmware thread and remove the pty (may be called twice)."""
        with self._lock:
            if not self._running:
                return
            self._running = False
            self._wake()
        if self._thread is not None:
            self._thread.join(timeout=5)
        with self._lock:
            self._unplug()
            for fd in (self._wake_r, self._wake_w):
                with contextlib.suppress(OSError):
                    os.close(fd)
        if self._own_dir:
            shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> SeatEmulator:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    # -- physical acts

    def put(self, uid: str | bytes, zone: str = "play", pad: int | None = None) -> None:
        """Put the card with tag ``uid`` (hex or bytes) on the ``zone`` reader (``play``/``spread``).

        With a pad board, a spread card goes on ``pad``, or on the next pad with room for two.
        """
        tag = _uid_bytes(uid)
        with self._lock:
            reader = self._reader(zone)
            if zone == "spread" and self.pads is not None:
                if pad is not None or all(t.uid != tag for p in self.pads.pads for t in p):
                    self.pads.put(tag, pad if pad is not None else self._free_pad())
            else:
                reader.put(tag)
        self._wake()

    def remove(self, uid: str | bytes, zone: str = "play") -> None:
        """Take the card with tag ``uid`` off the ``zone`` reader (off every pad of a pad board)."""
        with self._lock:
            reader = self._reader(zone)
            if zone == "spread" and self.pads is not None:
                self.pads.remove(_uid_bytes(uid))
            else:
                reader.remove(_uid_bytes(uid))
        self._wake()

    def _free_pad(self) -> int:
        assert self.pads is not None
        for k, tags in enumerate(self.pads.pads):
            if len(tags) < 2:
                return k
        return self.pads.count - 1

    def pull(self, slot: str) -> None:
        """Pull the bidding card of ``slot`` (``"1NT"``, ``"Pass"``, ``"Stop"``...) out of the box."""
        self._set_slot(slot, False)

    def put_back(self, slot: str) -> None:
        """Put the bidding card of ``slot`` back in its slot."""
        self._set_slot(slot, True)

    def press(self, hold: float = 0.08) -> None:
        """Press the call-the-arbiter button for ``hold`` seconds."""
        with self._lock:
            self.button.pressed = True
            self._release_at = self._clock() + hold
        self._wake()

    def fail(self, zone: str) -> None:
        """The ``zone`` reader stops answering (a loose SPI wire, a dead chip)."""
        with self._lock:
            self._reader(zone).dead = True
        self._wake()

    def recover(self, zone: str) -> None:
        """The ``zone`` reader answers again (the firmware re-initialises it on its next retry)."""
        with self._lock:
            self._reader(zone).dead = False
        self._wake()

    def unplug(self) -> None:
        """Pull the USB cable: the pty and its path disappear, the unit loses power."""
        with self._lock:
            self._unplug()
        self._wake()

    def replug(self) -> None:
        """Plug the USB cable back: a new pty at the same path, the firmware boots again."""
        with self._lock:
            if self._master is None and self._running:
                self._plug()
        self._wake()

    def inject_garbage(self, data: bytes) -> None:
        """Line noise: write ``data`` to the host between two frames."""
        with self._lock:
            if self._port is not None:
                self._port.write(bytes(data))

    # -- what can be observed

    @property
    def plugged(self) -> bool:
        with self._lock:
            return self._master is not None

    @property
    def led(self) -> bool:
        """The LED is lit now."""
        with self._lock:
            return bool(self.board.output(pins.LED_PIN))

    @property
    def led_mode(self) -> LedMode:
        """The LED mode last commanded by the host."""
        with self._lock:
            return LedMode(self.firmware.led_mode if self.firmware is not None else 0)

    @property
    def buzzing(self) -> bool:
        """The buzzer sounds now."""
        with self._lock:
            return bool(self.board.output(pins.BUZZER_PIN))

    @property
    def last_seq(self) -> int | None:
        """The sequence number of the last frame the firmware wrote since it booted, or None."""
        with self._lock:
            firmware = self.firmware
            if firmware is None or not self.boots:
                return None
            return (firmware.seq - 1) & 0xFFFF

    def sync(self, timeout: float = 2.0) -> bool:
        """Wait until the firmware has run at the clock's present time; False on timeout (or unplugged).

        Meant for an injected clock that a test moves: after moving it, ``sync`` makes sure
        every scan and reader cycle due by then has happened before the test goes on.
        """
        self._wake()
        return self._caught_up(self._clock(), timeout)

    def _caught_up(self, target: float, timeout: float) -> bool:
        with self._changed:
            ran = self._changed.wait_for(lambda: self._polled_at >= target or self.firmware is None, timeout)
            return ran and self.firmware is not None

    def wait_until(self, predicate: Callable[[SeatEmulator], bool], timeout: float = 2.0) -> bool:
        """Wait (on the firmware loop's passes, no polling) until ``predicate(self)``; False on timeout."""
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self), timeout)

    # -- inside

    def _reader(self, zone: str) -> SimMFRC522:
        if zone not in self.readers:
            raise ValueError(f"zone {zone!r} is not play or spread")
        return self.readers[zone]

    def _set_slot(self, slot: str, present: bool) -> None:
        index = SLOT_INDEX.get(slot)
        if index is None:
            raise ValueError(f"unknown bidding-box slot {slot!r}")
        with self._lock:
            self.matrix.set(index // 8, index % 8, present)
        self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"!")

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # before the host opens it: no echo, no newline translation
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.tty = os.ttyname(slave)
        tmp = f"{self.path}.{os.getpid()}.tmp"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(self.tty, tmp)
        os.replace(tmp, self.path)
        self._port = _PtyPort(master)
        self._tap.reset()
        hw = pins.build(self.machine, spread_pads=self.spread_pads)
        self.firmware = SeatFirmware(hw, self._port, Ticks(lambda: int(self._clock() * 1000)), self.config)
        self.firmware.boot()
        self.boots += 1
        self._changed.notify_all()

    def _unplug(self) -> None:
        if self._master is None:
            return
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None
        self._port = None
        self.firmware = None
        self.tty = None
        self._changed.notify_all()

    def _on_host_bytes(self, data: bytes) -> None:
        for item in self._tap.feed(data):
            if isinstance(item, Frame):
                with contextlib.suppress(messages.MessageError):
                    message = messages.decode(item)
                    if isinstance(message, messages.HOST_COMMANDS):
                        self.received.put(message)

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._running:
                    return
                master = self._master
                firmware = self.firmware
                timeout = 0.05
                if firmware is not None:
                    timeout = min(timeout, firmware.ms_until_due() / 1000)
                if self._release_at is not None:
                    timeout = min(timeout, max(0.0, self._release_at - self._clock()))
            fds = [self._wake_r] if master is None else [self._wake_r, master]
            try:
                ready, _, _ = select.select(fds, [], [], max(timeout, 0.0005))
            except (OSError, ValueError):
                ready = []
            if self._wake_r in ready:
                with contextlib.suppress(OSError):
                    os.read(self._wake_r, 4096)
            with self._lock:
                current = master is not None and master == self._master and self._port is not None
                if current and master in ready:
                    try:
                        data = os.read(master, 4096)
                    except OSError:
                        data = b""
                    if data:
                        assert self._port is not None
                        self._port.inbox += data
                        self._on_host_bytes(data)
                if self._release_at is not None and self._clock() >= self._release_at:
                    self.button.pressed = False
                    self._release_at = None
                if self.firmware is not None:
                    polled_at = self._clock()
                    self.firmware.poll()
                    self._polled_at = polled_at
                self._changed.notify_all()


def sync_all(emulators: list[SeatEmulator] | tuple[SeatEmulator, ...], timeout: float = 2.0) -> bool:
    """``sync`` several units at once (each firmware runs in its own thread); False if one did not."""
    targets = [emulator._clock() for emulator in emulators]
    for emulator in emulators:
        emulator._wake()
    return all([emulator._caught_up(target, timeout) for emulator, target in zip(emulators, targets, strict=True)])


_HELP = """verbs:
  put UID [play|spread [PAD]]  a card's tag onto a reader (with --pads: onto pad PAD 0-15)
  remove UID [play|spread]   a card's tag off a reader
  pull SLOT                  a bidding card out of its slot (1C..7NT Pass X XX Stop Alert)
  back SLOT                  a bidding card back in its slot
  press                      the call-the-arbiter button
  fail ZONE | recover ZONE   a reader (play|spread) stops answering, answers again
  unplug | replug            the USB cable
  garbage HEX                line noise towards the host
  status                     LED, buzzer, link path
  quit"""


def _command(emulator: SeatEmulator, line: str) -> str | None:
    words = line.split()
    if not words:
        return ""
    verb, args = words[0].lower(), words[1:]
    try:
        if verb == "put" and args:
            emulator.put(args[0], args[1] if len(args) > 1 else "play", int(args[2]) if len(args) > 2 else None)
        elif verb == "remove" and args:
            emulator.remove(args[0], args[1] if len(args) > 1 else "play")
        elif verb == "pull" and args:
            emulator.pull(args[0])
        elif verb in ("back", "put_back") and args:
            emulator.put_back(args[0])
        elif verb == "press":
            emulator.press()
        elif verb in ("fail", "recover") and args:
            getattr(emulator, verb)(args[0])
        elif verb == "unplug":
            emulator.unplug()
        elif verb == "replug":
            emulator.replug()
        elif verb == "garbage" and args:
            emulator.inject_garbage(bytes.fromhex("".join(args)))
        elif verb == "status":
            return (f"path {emulator.path} -> {emulator.tty or 'unplugged'}; LED {emulator.led_mode.name} "
                    f"({'lit' if emulator.led else 'dark'}); buzzer {'on' if emulator.buzzing else 'off'}")
        elif verb in ("quit", "exit"):
            return None
        else:
            return _HELP
    except ValueError as exc:
        return f"error: {exc}"
    return "ok"


def main(argv: list[str] | None = None) -> int:
    """``python -m firmware_bridge.emulator --seat N``: print the pty path, then take verbs on stdin."""
    parser = argparse.ArgumentParser(prog="python -m firmware_bridge.emulator",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--seat", default="N", choices=SEATS)
    parser.add_argument("--link-dir", help="directory for the stable link to the pty (default: a new one)")
    parser.add_argument("--no-diodes", action="store_true", help="a bidding-box matrix built without diodes")
    parser.add_argument("--pads", action="store_true",
                        help="a spread-zone pad board of 16 pads (hardware/spread-zone.md) instead of one antenna")
    args = parser.parse_args(argv)
    with SeatEmulator(args.seat, link_dir=args.link_dir, diodes=not args.no_diodes,
                      spread_pads=16 if args.pads else 0) as emulator:
        print(emulator.path, flush=True)
        print(f"seat {args.seat} unit on {emulator.tty}; open serial://{emulator.path}?seat={args.seat}; "
              "type 'help' for verbs", file=sys.stderr, flush=True)
        try:
            for line in sys.stdin:  # until quit, or the end of the input (Ctrl-D, a script's end)
                reply = _command(emulator, line)
                if reply is None:
                    break
                if reply:
                    print(reply, file=sys.stderr, flush=True)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
