"""One fixed piece of the table's own work, timed: the same run natively and on the Pi's OS under emulation.

Run with ``python bench/emulation.py [--boards N] [--frames N] [--repeat N]``. Prints one JSON
line: the best of ``--repeat`` runs, in seconds, of

- ``codec``: ``--frames`` typical STATE frames encoded and decoded (the seat-unit link's work);
- ``table``: ``--boards`` boards played through ``controller.engine.Engine`` (board start,
  1NT Pass Pass Pass, 52 cards), the table's step as the runtime does it, with no I/O.

``make pi-check`` (hardware/pi/README.md) runs it with the host's Python and with the
arm64 root's Python under qemu-user: the ratio of the two is the emulation factor of this
machine, which turns the latencies measured under emulation into an upper bound for a Pi.
It asserts nothing; no test reads its figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.frames import DEAL, RANKS, SUIT_OF, TRICK_ORDER, decode_stream, sample_state
from controller import actions as act
from controller.calls import Call
from controller.cards import Card
from controller.engine import Engine
from controller.seats import Seat
from controller.sensing.deck import DeckRegistry
from controller.sensing.translate import Sensing
from controller.table import TableState
from drivers.sim import default_deck
from firmware_bridge.messages import encode_bytes


def codec_work(frames: int) -> float:
    """Seconds to encode ``frames`` STATE frames and decode them again."""
    states = [sample_state(i) for i in range(64)]
    t0 = time.perf_counter()
    stream = b"".join(encode_bytes(states[i % 64], i & 0xFFFF) for i in range(frames))
    decoded = decode_stream(stream)
    if decoded != frames:
        raise SystemExit(f"codec: {decoded} frames decoded of {frames}")
    return time.perf_counter() - t0


def table_work(boards: int) -> float:
    """Seconds to play ``boards`` boards through the engine (the same boards as bench/frames.py)."""
    deck = default_deck(1)
    engine = Engine(TableState.new("duplicate", {"timing": False}),
                    Sensing.start(DeckRegistry.from_mapping({"deck1": deck}), deck="deck1"))
    t0 = time.perf_counter()
    for board in range(boards):
        t = float(board)
        engine = engine.act(act.BoardStart(board % 32 + 1, Seat.N, None, DEAL, t)).engine
        for seat, call in zip((Seat.N, Seat.E, Seat.S, Seat.W), ("1NT", "Pass", "Pass", "Pass"), strict=True):
            engine = engine.act(act.MakeCall(seat, Call.parse(call), t)).engine
        for trick in range(13):
            for seat in TRICK_ORDER:
                card = Card.parse(f"{SUIT_OF[seat]}{RANKS[trick]}")
                engine = engine.act(act.PlayCard(Seat[seat], card, t)).engine
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--frames", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    codec = min(codec_work(args.frames) for _ in range(args.repeat))
    table = min(table_work(args.boards) for _ in range(args.repeat))
    print(json.dumps({"machine": platform.machine(), "python": platform.python_version(),
                      "codec_s": round(codec, 4), "table_s": round(table, 4),
                      "frames": args.frames, "boards": args.boards}))


if __name__ == "__main__":
    main()
