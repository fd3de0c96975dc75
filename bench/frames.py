"""Seat-unit link benchmark: codec throughput, raw frame -> raw event, raw frame -> table action.

Run with ``.venv/bin/python bench/frames.py [--codec-frames N] [--latency-frames N]
[--boards N]``. Prints the figures and asserts nothing (docs/targets.md: raw sensor
event -> controller state under 50 us median and 500 us p99; the whole serial frame ->
WebSocket path under 20 ms at p99 with four seats sending at once).

- codec: typical STATE frames (39 bidding cards in, one tag on each reader) encoded with
  ``messages.encode_bytes`` and decoded with ``FrameDecoder.feed`` + ``messages.decode``;
- latency: a real pty; the seat-unit backend (``drivers.seatunit``, real pyserial, its
  reader thread) reads the slave; this script writes one STATE frame at a time to the
  master, each toggling one bidding-box contact, and times the write to the
  ``ContactChanged`` handed to ``emit``;
- table: four ptys, one per seat, each read by a seat-unit backend; their raw events go
  through a queue (reader threads only read and queue) to one consumer thread that runs
  ``controller.engine.Engine`` (the sensing layer and ``controller.table.step``, as the
  runtime does). This script writes STATE frames whose play zone gains one card (the
  quitted cards stay on it), as the emulator side would, and times each write to the
  ``PlayCard`` applied by the table: one frame in flight at a time, then each trick's four
  frames written to the four seats at once. ``engine`` is the controller's own share: raw
  event in -> table state out.

Four frames written at once reach the consumer in whatever order the four reader threads
are scheduled, as four unsynchronised seat units' reports of cards put down within one read
cycle would: the engine deems the card in turn first (Law 58A, ``Settings.read_cycle``), so
no card reaches the table out of turn. (Fed straight to ``Sensing`` and ``step`` in arrival
order, about a fifth of them did.)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import queue
import statistics
import sys
import threading
import time
import tty
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller import actions as act
from controller.calls import Call
from controller.deal import Deal
from controller.engine import Engine
from controller.seats import Seat
from controller.sensing.deck import DeckRegistry
from controller.sensing.events import ContactChanged, RawEvent
from controller.sensing.translate import Sensing
from controller.table import TableState
from drivers.seatunit import SeatUnit
from drivers.sim import default_deck
from firmware_bridge.codec import Frame, FrameDecoder
from firmware_bridge.messages import SLOTS, Capability, Hello, LedMode, State, decode, encode_bytes

PLAY = bytes.fromhex("04A1B2C3D4E5F6")
SPREAD = bytes.fromhex("04A1B2C3D4E5F7")


def sample_state(i: int) -> State:
    """A typical snapshot: one bidding card out (which one varies), one tag per reader."""
    out = SLOTS[i % len(SLOTS)]
    return State(1000 + i, tuple(s for s in SLOTS if s != out), (PLAY,), (SPREAD,), False, 3, LedMode.OFF)


def decode_stream(stream: bytes) -> int:
    """Frames of ``stream`` decoded, fed 4 KiB at a time as a serial port delivers them; how many."""
    decoder = FrameDecoder()
    decoded = 0
    for start in range(0, len(stream), 4096):
        for item in decoder.feed(stream[start:start + 4096]):
            if isinstance(item, Frame):
                decode(item)
                decoded += 1
    return decoded


def codec_throughput(n: int) -> None:
    states = [sample_state(i) for i in range(64)]
    t0 = time.perf_counter()
    chunks = [encode_bytes(states[i % 64], i & 0xFFFF) for i in range(n)]
    t1 = time.perf_counter()
    stream = b"".join(chunks)
    decoded = decode_stream(stream)
    t2 = time.perf_counter()
    assert decoded == n
    mb = len(stream) / 1e6
    enc, dec = t1 - t0, t2 - t1
    print(f"codec: {n} STATE frames of {len(chunks[0])} bytes on the wire ({mb:.2f} MB)")
    print(f"  encode          {n / enc:10.0f} frames/s  {mb / enc:7.2f} MB/s")
    print(f"  decode          {n / dec:10.0f} frames/s  {mb / dec:7.2f} MB/s")
    print(f"  encode+decode   {n / (enc + dec):10.0f} frames/s  {mb / (enc + dec):7.2f} MB/s")


def pty_latency(n: int) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    arrived = threading.Event()
    stamps: list[int] = []

    def emit(event: RawEvent) -> None:
        if isinstance(event, ContactChanged):
            stamps.append(time.perf_counter_ns())
            arrived.set()

    stop = threading.Event()
    connected = threading.Event()

    def drain() -> None:  # the backend's requests must not fill the pty; the first says it opened it
        while not stop.is_set():
            with contextlib.suppress(OSError):
                if os.read(master, 4096):
                    connected.set()

    os.set_blocking(master, True)
    drainer = threading.Thread(target=drain, daemon=True)
    drainer.start()
    unit = SeatUnit(path, "N")
    unit.start(emit)
    if not connected.wait(5):  # opening the port flushes its input: write only once it is open
        raise SystemExit("the seat-unit backend did not open the pty")
    os.write(master, encode_bytes(Hello("N", bytes(8), (1, 0, 0), Capability(0x3F)), 0))
    os.write(master, encode_bytes(State(1), 1))
    latencies: list[float] = []
    lost = 0
    mask_out: tuple[str, ...] = ()
    for i in range(n):
        mask_out = () if mask_out else ("1C",)
        frame = encode_bytes(State(2 + i, tuple(s for s in SLOTS if s not in mask_out)), (2 + i) & 0xFFFF)
        arrived.clear()
        t0 = time.perf_counter_ns()
        os.write(master, frame)
        if not arrived.wait(1.0):
            lost += 1
            continue
        latencies.append((stamps[-1] - t0) / 1000)
    unit.stop()
    stop.set()
    os.close(slave)
    os.close(master)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
    print(f"pty latency: {len(latencies)} frames (raw STATE frame written -> ContactChanged emitted)"
          + (f", {lost} timed out" if lost else ""))
    median = statistics.median(latencies)
    print(f"  median {median:8.1f} us   p99 {p99:8.1f} us   max {latencies[-1]:8.1f} us")
    stats = unit.link.stats()
    print(f"  link: {stats.frames} frames, {stats.bad_frames} bad, {stats.gaps} gaps")


# -- raw frame -> table action ------------------------------------------------------------------

SEATS = "NESW"
# Each seat holds one suit: E leads hearts and wins every trick while the others discard,
# so any number of boards is played legally with one card per seat per trick.
DEAL = Deal.parse("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
SUIT_OF = {"N": "S", "E": "H", "S": "D", "W": "C"}
RANKS = "AKQJT98765432"
TRICK_ORDER = "ESWN"   # 1NT by N: E leads


class SeatPty:
    """The seat unit's side of one pty (the master); a seat-unit backend opens the slave ``path``.

    It writes what the firmware would (HELLO, STATE frames whose play zone keeps ``tags``) and
    drains the host's requests so they never fill the pty; the first one says the port is open.
    """

    def __init__(self, seat: str) -> None:
        self.seat = seat
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.seq = 0
        self.uptime = 1000
        self.tags: list[bytes] = []
        self.opened = threading.Event()
        self._stop = threading.Event()
        os.set_blocking(self.master, True)
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(OSError):
                if os.read(self.master, 4096):
                    self.opened.set()

    def next_seq(self) -> int:
        seq, self.seq = self.seq, (self.seq + 1) & 0xFFFF
        return seq

    def hello(self) -> None:
        self.write(encode_bytes(Hello(self.seat, bytes(8), (1, 0, 0), Capability(0x3F)), self.next_seq()))

    def state_frame(self) -> bytes:
        self.uptime += 10
        return encode_bytes(State(self.uptime, SLOTS, tuple(self.tags)), self.next_seq())

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        self._stop.set()
        os.close(self.slave)
        os.close(self.master)


class _Pty(SeatPty):
    """A seat's pty read in this process by a seat-unit backend that queues its raw events."""

    def __init__(self, seat: str, events: queue.SimpleQueue[RawEvent | int]) -> None:
        super().__init__(seat)
        self.unit = SeatUnit(self.path, seat)
        self.unit.start(events.put)
        if not self.opened.wait(5):  # opening the port flushes its input: write only once it is open
            raise SystemExit(f"the seat-unit backend of {seat} did not open its pty")
        self.hello()

    def close(self) -> None:
        self.unit.stop()
        super().close()


class _Table:
    """The consumer: raw events off the queue -> Engine (sensing + table), timing each PlayCard applied."""

    def __init__(self, deck: dict[str, str]) -> None:
        self.events: queue.SimpleQueue[RawEvent | int] = queue.SimpleQueue()  # int: a new board
        self.engine = Engine(TableState.new("duplicate", {"timing": False}),
                             Sensing.start(DeckRegistry.from_mapping({"deck1": deck}), deck="deck1"))
        self.uid_of = {card: uid.upper() for card, uid in deck.items()}
        self.applied: dict[str, int] = {}     # UID -> perf_counter_ns when its PlayCard was applied
        self.own: list[float] = []            # engine time per raw event that played cards, us
        self.plays = self.irregular = self.reordered = 0
        self.done = threading.Semaphore(0)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        clock = time.perf_counter_ns
        while True:
            event = self.events.get()
            if isinstance(event, int):
                self._new_board(event)
                self.done.release()
                continue
            t0 = clock()
            outcome = self.engine.feed(event)
            self.engine = outcome.engine
            deadline = self.engine.next_deadline  # as the runtime: tick what is due (a card held too long)
            if deadline is not None and deadline <= event.t:
                tick = self.engine.tick(event.t)
                self.engine = tick.engine
                outcome = replace(outcome, derived=outcome.derived + tick.derived)
            t1 = clock()
            played = [d for d in outcome.derived if isinstance(d.action, act.PlayCard)]
            if played:
                self.own.append((t1 - t0) / 1000)
                self.reordered += len(played) - 1   # cards held until the card in turn came
            for d in played:
                assert isinstance(d.action, act.PlayCard)
                self.irregular += len(d.irregularities)
                self.applied[self.uid_of[str(d.action.card)]] = t1
                self.plays += 1
                self.done.release()

    def new_board(self, number: int) -> None:
        """Untimed: a fresh board on the consumer thread (after the events queued so far)."""
        self.events.put(number)
        self.done.acquire()

    def _new_board(self, number: int) -> None:
        """A fresh board with the auction 1NT by N, Pass x3, given to the table as outside actions."""
        t = time.monotonic()
        self.engine = self.engine.act(act.BoardStart(number, Seat.N, None, DEAL, t)).engine
        for seat, call in zip((Seat.N, Seat.E, Seat.S, Seat.W), ("1NT", "Pass", "Pass", "Pass"), strict=True):
            self.engine = self.engine.act(act.MakeCall(seat, Call.parse(call), t)).engine


def percentiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], ordered[-1]


def table_latency(boards: int) -> None:
    deck = default_deck(1)
    table = _Table(deck)
    events = table.events
    ptys = {seat: _Pty(seat, events) for seat in SEATS}
    for pty in ptys.values():
        pty.write(pty.state_frame())
    for together in (False, True):
        written: dict[str, int] = {}
        table.applied.clear()
        table.own.clear()
        table.irregular = table.reordered = 0
        lost = 0
        for board in range(boards):
            for pty in ptys.values():  # the cards are gathered and dealt again: untimed
                pty.tags.clear()
                pty.write(pty.state_frame())
            time.sleep(0.01)  # let the empty snapshots through before the board starts
            table.new_board(board % 32 + 1)
            for trick in range(13):
                frames = []
                for seat in TRICK_ORDER:
                    uid = deck[f"{SUIT_OF[seat]}{RANKS[trick]}"]
                    ptys[seat].tags.append(bytes.fromhex(uid))
                    frames.append((seat, uid, ptys[seat].state_frame()))
                if together:
                    for seat, uid, frame in frames:
                        written[uid + str(board)] = time.perf_counter_ns()
                        ptys[seat].write(frame)
                    for _ in frames:
                        if not table.done.acquire(timeout=1.0):
                            lost += 1
                else:
                    for seat, uid, frame in frames:
                        written[uid + str(board)] = time.perf_counter_ns()
                        ptys[seat].write(frame)
                        if not table.done.acquire(timeout=1.0):
                            lost += 1
                for _seat, uid, _frame in frames:
                    if uid in table.applied:
                        table.applied[uid + str(board)] = table.applied.pop(uid)
        latencies = [(table.applied[key] - t0) / 1000 for key, t0 in written.items() if key in table.applied]
        median, p99, worst = percentiles(latencies)
        how = "four seats at once (each trick's 4 frames written together)" if together else "one frame at a time"
        print(f"table latency, {how}: {len(latencies)} frames, raw STATE frame written -> PlayCard applied "
              f"by the engine" + (f", {lost} timed out" if lost else ""))
        print(f"  {table.reordered} cards arrived before the card in turn and were deemed played after it "
              f"(Law 58A); {table.irregular} reached the table out of turn")
        print(f"  end to end     median {median:8.1f} us   p99 {p99:8.1f} us   max {worst:8.1f} us")
        median, p99, worst = percentiles(table.own)
        print(f"  engine         median {median:8.1f} us   p99 {p99:8.1f} us   max {worst:8.1f} us")
    for pty in ptys.values():
        pty.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--codec-frames", type=int, default=20000)
    parser.add_argument("--latency-frames", type=int, default=2000)
    parser.add_argument("--boards", type=int, default=60, help="boards of 52 cards for the table latency")
    args = parser.parse_args()
    codec_throughput(args.codec_frames)
    pty_latency(args.latency_frames)
    table_latency(args.boards)


if __name__ == "__main__":
    main()
