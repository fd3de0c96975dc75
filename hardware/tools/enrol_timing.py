"""Time ``tablectl enrol`` for whole decks against the simulated PN532 (hardware/decks.md).

The real command (``tablectl enrol``, as a separate process, with its default reader
settings) talks through nfcpy's own PN532 driver to ``drivers.pn532_sim``, a simulated
PN532 on a pseudo-terminal with simulated NTAG213 tags. A simulated operator reads the
command's prompts: at each ``present XX`` it waits ``--handling`` seconds (the time a
person takes to pick up the next card and lay it on the reader), puts a new tag in the
field, waits for the command's ``ok XX`` line and takes the tag off again.

What it measures is the table software's share of enrolling a deck: from the moment a tag
is in the field to the ``ok`` line (the reader's poll interval, nfcpy's reads and, with
``--write-ndef``, the NDEF write), and the whole run for 52 cards, start-up included.
The human share is the ``--handling`` you give it. The simulated chip answers at once, so
a real PN532 or ACR122U adds its own radio and USB/UART time (a few ms per command).

Run from the repository's root, with the project installed in ``.venv``::

    .venv/bin/python hardware/tools/enrol_timing.py --decks 3 --write-ndef
    .venv/bin/python hardware/tools/enrol_timing.py --decks 1 --handling 2.0

Only the standard library and the project's own packages are used.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from drivers.pn532_sim import Ntag213, Pn532Simulator  # noqa: E402

PROMPT = re.compile(r"^present (\w\w)\s")
OK = re.compile(r"^  ok (\w\w) = tag")


def tablectl() -> str:
    """The ``tablectl`` next to the running interpreter (the venv's), else the one on PATH."""
    candidate = Path(sys.executable).with_name("tablectl")
    return str(candidate) if candidate.exists() else "tablectl"


@dataclass(frozen=True)
class Run:
    """One deck's enrolment: its id, the whole run's time, start-up, and each card's software latency."""

    deck: str
    total_s: float
    startup_s: float
    latencies: list[float]


def enrol_one_deck(sim: Pn532Simulator, deck_file: Path, deck_id: str, deck_number: int, handling: float,
                   write_ndef: bool) -> Run:
    """Run ``tablectl enrol`` for one deck of 52 new tags; the timings of the run."""
    command = [tablectl(), "enrol", "--deck", str(deck_file), "--deck-id", deck_id,
               "--reader", f"nfc:{sim.nfcpy_path}", "--timeout", "30"]
    if write_ndef:
        command.append("--write-ndef")
    started = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
                             cwd=ROOT)
    errors: list[str] = []
    reader = threading.Thread(target=lambda: errors.extend(child.stderr or []), daemon=True)
    reader.start()
    latencies: list[float] = []
    first_prompt: float | None = None
    presented_at = 0.0
    serial = 0
    assert child.stdout is not None
    for line in child.stdout:
        now = time.monotonic()
        if PROMPT.match(line) is not None:
            if first_prompt is None:
                first_prompt = now - started
            time.sleep(handling)
            serial += 1
            uid = f"04{deck_number:02X}{serial:02X}00{deck_number:02X}{serial:02X}80"
            sim.remove()
            presented_at = time.monotonic()
            sim.present(Ntag213(uid))
        elif OK.match(line) is not None:
            latencies.append(now - presented_at)
            sim.remove()
    code = child.wait()
    reader.join(timeout=5)
    total = time.monotonic() - started
    if code != 0:
        raise SystemExit(f"tablectl enrol exited {code}: {''.join(errors)}")
    return Run(deck_id, total, first_prompt or 0.0, latencies)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decks", type=int, default=3, help="how many decks of 52 new tags to enrol (3)")
    parser.add_argument("--handling", type=float, default=0.0,
                        help="seconds the simulated person takes per card before the tag reaches the reader (0)")
    parser.add_argument("--write-ndef", action="store_true", help="enrol with --write-ndef (writes deckN:SA)")
    args = parser.parse_args(argv)
    runs = []
    with tempfile.TemporaryDirectory() as tmp, Pn532Simulator() as sim:
        deck_file = Path(tmp) / "decks.json"
        for n in range(1, args.decks + 1):
            run = enrol_one_deck(sim, deck_file, f"board{n}", n, args.handling, args.write_ndef)
            runs.append(run)
            lat = sorted(run.latencies)
            print(f"{run.deck}: {len(lat)} cards in {run.total_s:.1f} s "
                  f"(start-up to the first prompt {run.startup_s:.2f} s); tag in the field to 'ok': "
                  f"median {statistics.median(lat) * 1000:.0f} ms, max {lat[-1] * 1000:.0f} ms")
    everything = [x for run in runs for x in run.latencies]
    totals = [run.total_s for run in runs]
    print(f"\n{len(runs)} decks, {len(everything)} cards, handling {args.handling:g} s per card, "
          f"{'with' if args.write_ndef else 'without'} --write-ndef, on {os.cpu_count()} CPUs:")
    print(f"  software per card (tag in the field to 'ok'): median {statistics.median(everything) * 1000:.0f} ms, "
          f"90th percentile {statistics.quantiles(everything, n=10)[-1] * 1000:.0f} ms, "
          f"max {max(everything) * 1000:.0f} ms")
    print(f"  per deck, start to 'complete': median {statistics.median(totals):.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
