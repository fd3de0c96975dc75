"""A club's decks enrolled on the simulated table: the software's time per card and per deck.

Run with ``.venv/bin/python bench/enrol.py [--decks N] [--handling SECONDS] [--dir DIR]``.
Prints the figures and asserts nothing (hardware/decks.md: a volunteer enrols a club's 24-36
decks, one per board, in an evening).

What runs: ``tablectl.enrol.enrol`` itself, in this process, once per deck (``board1``,
``board2``...), all into one deck file as a club keeps it, with the simulated table
(``drivers.sim.SimTable``, ``mode=thread``: its events reach ``enrol`` through a delivery
thread, as a reader's do) as the reader. A simulated volunteer reads the prompts: at each
``present XX`` it waits ``--handling`` seconds, lays that card of the deck (each deck has its
own tag UIDs) on the reader and, at the ``ok`` line, takes it off. Measured: from the prompt
to the ``ok`` line, less the handling (the software's share: the event, the checks, the
registry and the deck file written after every card, which grows with the club's decks);
and each deck from the command's start to its ``complete`` line.

What it does not measure: the reader's own time. A USB reader polled by nfcpy adds up to
its poll interval (0.1 s) per card, and ``--write-ndef`` a few ms per page written;
``hardware/tools/enrol_timing.py`` measures those through nfcpy and the simulated PN532.
"""

from __future__ import annotations

import argparse
import io
import queue
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from drivers.base import Clock
from drivers.sim import SimTable, default_deck
from tablectl.enrol import enrol

ZONE = "N.play"


class _Prompts(io.StringIO):
    """The command's output, line by line, stamped, onto a queue the volunteer reads."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: queue.SimpleQueue[tuple[float, str]] = queue.SimpleQueue()
        self._part = ""

    def write(self, text: str) -> int:
        now = time.perf_counter()
        self._part += text
        while "\n" in self._part:
            line, self._part = self._part.split("\n", 1)
            self.lines.put((now, line))
        return len(text)


class _Volunteer(threading.Thread):
    """Lays each card asked for on the reader after ``handling`` seconds, lifts it at the ``ok``."""

    def __init__(self, prompts: _Prompts, handling: float) -> None:
        super().__init__(name="volunteer", daemon=True)
        self.prompts = prompts
        self.handling = handling
        self.table: SimTable | None = None
        self.asked: dict[str, float] = {}     # card -> when the prompt came
        self.software: list[float] = []       # prompt -> ok, less the handling, seconds
        self.finished = threading.Event()

    def run(self) -> None:
        while True:
            stamp, line = self.prompts.lines.get()
            words = line.split()
            if not words:
                continue
            if words[0] == "present" and len(words) > 1:
                card = words[1]
                self.asked[card] = stamp
                if self.handling:
                    time.sleep(self.handling)
                assert self.table is not None
                self.table.present(card, zone=ZONE)
            elif words[0] == "ok" and len(words) > 1:
                card = words[1]
                self.software.append(stamp - self.asked.pop(card) - self.handling)
                assert self.table is not None
                self.table.remove(card)
            elif "complete" in line or "stopped" in line:
                self.finished.set()


def run(decks: int, handling: float, folder: Path) -> None:
    path = folder / "decks" / "club.json"
    prompts = _Prompts()
    volunteer = _Volunteer(prompts, handling)
    volunteer.start()
    per_deck: list[float] = []
    per_card: list[list[float]] = []   # each deck's software times
    for number in range(1, decks + 1):
        table = SimTable(default_deck(number), mode="thread", report_state_on_start=False)
        volunteer.table = table

        def opener(url: str, clock: Clock, table: SimTable = table, **_: Any) -> SimTable:
            return table

        volunteer.finished.clear()
        before = len(volunteer.software)
        start = time.perf_counter()
        code = enrol(path, "sim://", deck_id=f"board{number}", opener=opener, out=prompts,
                     err=sys.stderr, timeout=10.0)
        volunteer.finished.wait(10.0)
        per_deck.append(time.perf_counter() - start)
        if code != 0:
            raise SystemExit(f"enrolment of board{number} stopped with exit code {code}")
        per_card.append(volunteer.software[before:])
    size = path.stat().st_size
    soft = sorted(volunteer.software)
    p90 = soft[int(0.9 * (len(soft) - 1))]
    print(f"enrolment on the simulated table: {decks} decks x 52 cards into one deck file "
          f"({size / 1000:.0f} kB at the end), handling {handling:g} s a card")
    print(f"  software per card (prompt -> ok, less handling): median {statistics.median(soft) * 1000:6.1f} ms"
          f"   90th percentile {p90 * 1000:6.1f} ms   max {soft[-1] * 1000:6.1f} ms")
    first, last = statistics.median(per_card[0]), statistics.median(per_card[-1])
    print(f"  software per card, median: first deck {first * 1000:5.1f} ms, last deck {last * 1000:5.1f} ms "
          f"(the deck file grows)")
    print(f"  one deck, start to complete, handling included: median {statistics.median(per_deck):6.2f} s, "
          f"max {max(per_deck):6.2f} s")
    club = sum(per_deck)
    print(f"  all {decks} decks: {club / 60:5.1f} min of which software "
          f"{sum(soft) / 60:5.2f} min")
    for pace in (2.0, 3.0):
        card = pace + statistics.median(soft)
        print(f"  at {pace:g} s a card: a deck {52 * card / 60:4.1f} min, {decks} decks "
              f"{decks * 52 * card / 3600:4.2f} h (software {decks * 52 * statistics.median(soft) / 60:4.1f} min)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decks", type=int, default=36, help="decks (boards) to enrol, one deck file")
    parser.add_argument("--handling", type=float, default=0.0,
                        help="seconds the volunteer takes per card before laying it on the reader")
    parser.add_argument("--dir", type=Path, default=None, help="where to write the deck file (a temporary folder)")
    args = parser.parse_args()
    if args.dir is not None:
        run(args.decks, args.handling, args.dir)
        return
    with tempfile.TemporaryDirectory() as folder:
        run(args.decks, args.handling, Path(folder))


if __name__ == "__main__":
    main()
