"""Replay benchmark: boards per second over the whole corpus, and per-action step time.

Run with ``make bench`` (or ``.venv/bin/python bench/replay.py [CORPUS_DIR]``). Prints the
figures; asserts nothing (targets live in DESIGN.md: at least 1,000 boards per second).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

from controller import actions as a
from controller.records import lin, pbn
from controller.records.model import BoardRecord
from controller.replay import record_actions, replay_records
from controller.table import Phase, TableState, step


def corpus_files(root: Path) -> list[Path]:
    # results/ holds sessions' travellers and rankings (field scoring), not records of play
    return sorted(p for p in root.rglob("*") if p.suffix.lower() in (".pbn", ".lin")
                  and "results" not in p.relative_to(root).parts[:1])


def load_all(files: list[Path]) -> list[BoardRecord]:
    out: list[BoardRecord] = []
    for f in files:
        out.extend(pbn.load(f) if f.suffix.lower() == ".pbn" else lin.load(f))
    return out


def step_times(records: list[BoardRecord]) -> list[int]:
    """Nanoseconds of each ``step`` call while replaying every record's auction and play."""
    times: list[int] = []
    clock = time.perf_counter_ns
    state = TableState.new()
    for rec in records:
        try:
            acts = record_actions(rec)
        except ValueError:
            continue
        for act in acts:
            t0 = clock()
            state = step(state, act).state
            times.append(clock() - t0)
        for card in rec.play:
            b = state.board
            if b is None or b.phase is not Phase.PLAY or b.play is None:
                break
            act2 = a.PlayCard(b.play.turn, card)
            t0 = clock()
            state = step(state, act2).state
            times.append(clock() - t0)
    return times


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else
                os.environ.get("BRIDGE_CORPUS", "../shared/corpus"))
    files = corpus_files(root)
    if not files:
        sys.exit(f"no corpus at {root}")
    t0 = time.perf_counter()
    records = load_all(files)
    t1 = time.perf_counter()
    report = replay_records(records).report
    t2 = time.perf_counter()
    n = len(records)
    played = sum(1 for b in report["boards"] if "error" not in b)
    print(f"corpus: {len(files)} files, {n} records ({played} replayable)")
    print(f"parse:  {t1 - t0:6.2f} s  {n / (t1 - t0):8,.0f} records/s")
    print(f"replay: {t2 - t1:6.2f} s  {n / (t2 - t1):8,.0f} boards/s")
    print(f"total:  {t2 - t0:6.2f} s  {n / (t2 - t0):8,.0f} boards/s (parse + replay + report)")
    times = sorted(step_times(records))
    p50 = statistics.median(times) / 1000
    p99 = times[int(len(times) * 0.99)] / 1000
    print(f"step:   {len(times):,} actions  median {p50:.1f} us  p99 {p99:.1f} us")


if __name__ == "__main__":
    main()
