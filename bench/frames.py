"""Seat-unit link benchmark: codec throughput, and raw frame -> raw sensor event latency over a pty.

Run with ``.venv/bin/python bench/frames.py [--codec-frames N] [--latency-frames N]``. Prints
the figures and asserts nothing (DESIGN.md "Targets": the whole serial frame -> WebSocket
path must stay under 20 ms at p99; this measures its first leg).

- codec: typical STATE frames (39 bidding cards in, one tag on each reader) encoded with
  ``messages.encode_bytes`` and decoded with ``FrameDecoder.feed`` + ``messages.decode``;
- latency: a real pty; the seat-unit backend (``drivers.seatunit``, real pyserial, its
  reader thread) reads the slave; this script writes one STATE frame at a time to the
  master, each toggling one bidding-box contact, and times the write to the
  ``ContactChanged`` handed to ``emit``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import threading
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.sensing.events import ContactChanged, RawEvent
from drivers.seatunit import SeatUnit
from firmware_bridge.codec import Frame, FrameDecoder
from firmware_bridge.messages import SLOTS, Capability, Hello, LedMode, State, decode, encode_bytes

PLAY = bytes.fromhex("04A1B2C3D4E5F6")
SPREAD = bytes.fromhex("04A1B2C3D4E5F7")


def sample_state(i: int) -> State:
    """A typical snapshot: one bidding card out (which one varies), one tag per reader."""
    out = SLOTS[i % len(SLOTS)]
    return State(1000 + i, tuple(s for s in SLOTS if s != out), (PLAY,), (SPREAD,), False, 3, LedMode.OFF)


def codec_throughput(n: int) -> None:
    states = [sample_state(i) for i in range(64)]
    t0 = time.perf_counter()
    chunks = [encode_bytes(states[i % 64], i & 0xFFFF) for i in range(n)]
    t1 = time.perf_counter()
    stream = b"".join(chunks)
    decoder = FrameDecoder()
    decoded = 0
    for start in range(0, len(stream), 4096):
        for item in decoder.feed(stream[start:start + 4096]):
            if isinstance(item, Frame):
                decode(item)
                decoded += 1
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--codec-frames", type=int, default=20000)
    parser.add_argument("--latency-frames", type=int, default=2000)
    args = parser.parse_args()
    codec_throughput(args.codec_frames)
    pty_latency(args.latency_frames)


if __name__ == "__main__":
    main()
