"""The event log's cost per commit, with and without its high-water mark, and a checkpoint's.

Run with ``.venv/bin/python bench/log.py [--commits N] [--dir DIR]`` (``--dir`` on the disk to
measure: the SD card of a Pi, not a tmpfs). Each commit is what the engine thread does for
one input: one ``EventStore.append`` of an input row and a derived row (SQLite, WAL,
``synchronous=FULL``: an fsync of the WAL), then, with the mark, the ``.hwm`` slot written
in place and ``fdatasync``-ed. The two kinds of commit alternate, so that the disk's
mood does not favour one. Then the ``PASSIVE`` checkpoint the runtime makes at a board's end,
after a board's worth of commits. Prints the figures; asserts nothing (docs/targets.md:
frame to page p99 under 20 ms).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.records.eventlog import Row  # noqa: E402
from tablectl.store import EventStore  # noqa: E402

_GROUP = (Row("raw", 0.0, {"tag": "seen", "reader": "N.play", "uid": "0401020304050680"}),
          [Row("derived", 0.0, {"action": {"type": "card", "seat": "N", "card": "SA", "t": 0.0},
                                "source": "sensing"})])


def _ms(ns: list[int]) -> str:
    xs = sorted(ns)
    return (f"median {statistics.median(xs) / 1e6:.3f} ms, p99 {xs[int(len(xs) * 0.99)] / 1e6:.3f} ms, "
            f"max {xs[-1] / 1e6:.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=2000, help="commits of each kind (2000)")
    parser.add_argument("--dir", type=Path, help="where the log is made (default: a temporary directory)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-log-", dir=args.dir) as tmp:
        store = EventStore.open(Path(tmp) / "table.sqlite")
        marks = store._marks
        with_mark: list[int] = []
        without: list[int] = []
        clock = time.perf_counter_ns
        for i in range(2 * args.commits):
            store._marks = marks if i % 2 else None
            start = clock()
            store.append([_GROUP])
            (with_mark if i % 2 else without).append(clock() - start)
        store._marks = marks
        print(f"commit without the mark: {_ms(without)}")
        print(f"commit with the mark:    {_ms(with_mark)}")
        extra = statistics.median(with_mark) - statistics.median(without)
        print(f"the mark costs {extra / 1e6:.3f} ms per commit (median), "
              f"{(sorted(with_mark)[int(len(with_mark) * 0.99)] - sorted(without)[int(len(without) * 0.99)]) / 1e6:.3f}"
              " ms at p99")
        checkpoints: list[int] = []
        for _ in range(20):
            for _ in range(150):  # about the inputs of a board
                store.append([_GROUP])
            start = clock()
            store.checkpoint()
            checkpoints.append(clock() - start)
        print(f"checkpoint at a board's end (150 commits in the WAL): {_ms(checkpoints)}")
        store.close()


if __name__ == "__main__":
    main()
