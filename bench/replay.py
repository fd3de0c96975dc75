"""Replay benchmark: ``tablectl replay`` against endplay on the same PBN file, then in-process figures.

Run with ``make bench`` (or ``.venv/bin/python bench/replay.py [--quick] [--runs N] [CORPUS_DIR]``).
Prints the figures and the targets; asserts nothing. The targets (docs/targets.md):

- replay of the real-record corpus, every legality check made, at least twice as fast as endplay
  reading and scoring the same PBN file (endplay checks nothing), measured in the same run;
- the same boards/s at 1x, 4x and 16x the input (within 15 % of each other), and a flat peak
  memory, under 150 MB at 16x with streaming output.

Part 1 runs each side as its own process on one file made of every corpus PBN file that endplay
can read (4x and 16x: the same boards repeated), so that the wall time and the peak resident
memory (the child's ``ru_maxrss``) of each run are its own. Each measurement runs ``--runs``
times (3), the sides of one size taking turns, and the best is kept; the time by CPU is shown
beside the time by the clock, for a machine busy with other work. ``--quick`` stops at 4x.

Part 2 is in-process: parse records/s, replay boards/s and the time of each ``step`` over the
whole corpus (PBN and LIN).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from _endplay_side import parse_and_score

from controller import actions as a
from controller.records import lin, pbn
from controller.records.model import BoardRecord
from controller.replay import record_actions, replay_records
from controller.table import Phase, TableState, step
from tablectl.corpus import corpus_dir

BIN = Path(sys.executable).parent
ENDPLAY_SIDE = Path(__file__).with_name("_endplay_side.py")
TARGET_RATIO = 2.0
TARGET_SPREAD = 0.15
TARGET_RSS_MB = 150


def say(text: str) -> None:
    print(text, flush=True)


def corpus_files(root: Path) -> list[Path]:
    # results/ holds sessions' travellers and rankings (field scoring), not records of play
    return sorted(p for p in root.rglob("*") if p.suffix.lower() in (".pbn", ".lin")
                  and "results" not in p.relative_to(root).parts[:1])


# --- part 1: the input both sides can read -----------------------------------------------


@dataclass(frozen=True, slots=True)
class Input:
    text: str                               # the kept files, one after another (UTF-8 when written)
    files: int
    boards: int                             # as endplay counts them
    latin1: tuple[str, ...]                 # kept files endplay reads only as latin-1
    left_out: tuple[tuple[str, str], ...]   # (file, why)


def endplay_input(root: Path) -> Input:
    """Every PBN file of the corpus that endplay reads and scores without an exception."""
    texts: list[str] = []
    boards = 0
    latin1: list[str] = []
    left_out: list[tuple[str, str]] = []
    for path in corpus_files(root):
        if path.suffix.lower() != ".pbn":
            continue
        name = str(path.relative_to(root))
        why = ""
        for encoding in ("utf-8", "latin-1"):
            try:
                text = path.read_text(encoding=encoding)
                n, _ = parse_and_score(io.StringIO(text))
            except Exception as exc:  # endplay raises whatever it meets: that is what we record
                why = f"{type(exc).__name__}: {str(exc)[:70]}"
                continue
            texts.append(text if text.endswith("\n") else text + "\n")
            boards += n
            if encoding == "latin-1":
                latin1.append(name)
            break
        else:
            left_out.append((name, why))
    return Input("".join(texts), len(texts), boards, tuple(latin1), tuple(left_out))


def print_input(inp: Input, records: int) -> None:
    say(f"  kept {inp.files} PBN files, {inp.boards:,} boards for endplay, {records:,} records for us"
        + ("" if records == inp.boards else "  (the counts differ: boards/s below use our count)"))
    if inp.latin1:
        say(f"  read as latin-1 (endplay fails on them as UTF-8): {', '.join(Path(n).name for n in inp.latin1)}")
    whys: dict[str, list[str]] = {}
    for name, why in inp.left_out:
        whys.setdefault(why, []).append(Path(name).name)
    say(f"  left out {len(inp.left_out)} files endplay cannot read:")
    for why, names in sorted(whys.items(), key=lambda kv: -len(kv[1])):
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        say(f"    {len(names):3} x {why}  ({shown})")


# --- part 1: one process, timed ----------------------------------------------------------


# The process that starts each measured one, waits for it and prints its figures. A process's
# peak memory (ru_maxrss) counts the memory of the process it was started from (Linux carries the
# old peak across exec, even after vfork), so a fresh, small Python starts it, not this script.
_LAUNCHER = """
import os, sys, time
out, err, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
write = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
           (os.POSIX_SPAWN_OPEN, 1, out, write, 0o600), (os.POSIX_SPAWN_OPEN, 2, err, write, 0o600)]
t0 = time.perf_counter()
pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - t0
print(wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


@dataclass(frozen=True, slots=True)
class Run:
    wall: float      # seconds, start of the process to its end
    cpu: float       # seconds of user + system time of the process
    rss_kb: int      # its peak resident memory (ru_maxrss, KB on Linux)
    output: str      # its standard output, when kept


def run(argv: list[str], keep_output: bool = False) -> Run:
    """Run ``argv`` (its program by absolute path) as a process of its own; its standard output
    goes to /dev/null unless kept."""
    with tempfile.TemporaryDirectory(prefix="bench-run-") as tmp:
        out = Path(tmp) / "stdout" if keep_output else Path(os.devnull)
        err = Path(tmp) / "stderr"
        figures = subprocess.run([sys.executable, "-c", _LAUNCHER, str(out), str(err), *argv],
                                 capture_output=True, text=True, check=True).stdout.split()
        wall, cpu, rss_kb, code = float(figures[0]), float(figures[1]), int(figures[2]), int(figures[3])
        if code != 0:
            tail = err.read_text(errors="replace").strip().splitlines()[-5:]
            sys.exit(f"{' '.join(argv)} failed (exit {code}):\n" + "\n".join(tail))
        output = out.read_text() if keep_output else ""
    return Run(wall, cpu, rss_kb, output)


@dataclass(frozen=True, slots=True)
class Best:
    wall: float
    cpu: float
    rss_mb: float    # the highest peak of the runs

    def rate(self, boards: int) -> float:
        return boards / self.wall

    def cpu_rate(self, boards: int) -> float:
        return boards / self.cpu


@dataclass(frozen=True, slots=True)
class Job:
    label: str
    argv: tuple[str, ...]
    boards: int


def best_of(jobs: list[Job], runs: int) -> dict[str, Best]:
    """Each job ``runs`` times, taking turns (the first run of each, then the second...) so that
    a passing load on the machine falls on every side alike; the best run of each."""
    done: dict[str, list[Run]] = {job.label: [] for job in jobs}
    for i in range(runs):
        for job in jobs:
            r = run(list(job.argv))
            done[job.label].append(r)
            say(f"  {job.label:<22} run {i + 1}/{runs}: {r.wall:6.2f} s  {job.boards / r.wall:8,.0f} boards/s  "
                f"{r.rss_kb / 1024:6.1f} MB")
    return {label: Best(min(r.wall for r in rs), min(r.cpu for r in rs), max(r.rss_kb for r in rs) / 1024)
            for label, rs in done.items()}


def replay_modes() -> list[tuple[str, list[str]]]:
    """The output modes of ``tablectl replay`` to time: (label, options before the file)."""
    modes = [("--json", ["--json"]), ("--json --compact", ["--json", "--compact"])]
    help_text = subprocess.run([str(BIN / "tablectl"), "replay", "--help"],
                               capture_output=True, text=True, check=True).stdout
    if "--jsonl" in help_text:
        modes.append(("--jsonl", ["--jsonl"]))
    return modes


def check_our_count(path: Path, records: int) -> str:
    """One untimed run of ``tablectl replay --json --compact``: how many boards it reports."""
    out = run([str(BIN / "tablectl"), "replay", "--json", "--compact", str(path)], keep_output=True)
    boards = json.loads(out.output)["boards"]
    failed = sum(1 for b in boards if "error" in b)
    note = "" if len(boards) == records else f"  (NOT the {records:,} records of the file)"
    return f"{len(boards):,} boards reported, {len(boards) - failed:,} replayed, {failed:,} not replayable{note}"


def describe_machine() -> None:
    """The code measured and how busy the machine is: timings by the clock mean little when
    other processes want the cores."""
    repo = Path(__file__).resolve().parent.parent
    git = subprocess.run(["git", "-C", str(repo), "log", "-1", "--format=%h %cs"],
                         capture_output=True, text=True, check=False)
    dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--", "controller", "tablectl"],
                           capture_output=True, text=True, check=False)
    if git.returncode == 0:
        changed = len(dirty.stdout.splitlines())
        say(f"code: commit {git.stdout.strip()}"
            + (f", with {changed} uncommitted changes in controller/ and tablectl/" if changed else ""))
    describe_load()


def describe_load() -> None:
    cores = os.cpu_count() or 1
    load = os.getloadavg()[0]
    say(f"machine: {cores} cores, load average {load:.1f} (1 min)"
        + ("  - busier than its cores: the figures by the clock are unreliable, those by CPU time less so"
           if load > cores else ""))


def versus_endplay(root: Path, sizes: tuple[int, ...], runs: int) -> None:
    say(f"\n== Part 1: tablectl replay vs endplay, same file, separate processes, best of {runs} ==")
    say("[1] choosing the corpus PBN files endplay can read (each tried as UTF-8, then latin-1)")
    inp = endplay_input(root)
    if not inp.files:
        sys.exit(f"endplay reads none of the PBN files of {root}")
    with tempfile.TemporaryDirectory(prefix="bench-replay-") as tmp:
        files: dict[int, Path] = {}
        for k in sizes:
            files[k] = Path(tmp) / f"corpus-{k}x.pbn"
            with files[k].open("w", encoding="utf-8", newline="") as f:
                for _ in range(k):
                    f.write(inp.text)
        records = len(pbn.load(files[1]))
        print_input(inp, records)
        say("  files: " + ", ".join(f"{k}x {files[k].stat().st_size / 1e6:.1f} MB, {k * records:,} records"
                                    for k in sizes))

        floor = run([sys.executable, "-c", "pass"]).rss_kb / 1024
        say(f"  (peak memory of a Python process that does nothing: {floor:.1f} MB)")
        say("[2] endplay: pbn.load, then contract.score(vul) of every board with a contract")
        endplay_argv = (sys.executable, str(ENDPLAY_SIDE), str(files[1]), "utf-8")
        read, scored = map(int, run(list(endplay_argv), keep_output=True).output.split())
        say(f"  check: endplay reads {read:,} boards and scores {scored:,}")
        modes = replay_modes()
        say(f"[3] tablectl replay (stdout to /dev/null), modes: {', '.join(m for m, _ in modes)}")
        say(f"  check: {check_our_count(files[1], records)}")
        ours: dict[tuple[str, int], Best] = {}
        for phase, k in enumerate(sizes, start=4):
            say(f"[{phase}] {k}x: " + ("endplay and tablectl, taking turns" if k == 1 else "tablectl"))
            jobs = [Job("endplay 1x", endplay_argv, records)] if k == 1 else []
            for label, options in modes:
                if k > 1 and label == "--json --compact":
                    continue  # the same work as --json with less output: 1x only, to keep the run short
                jobs.append(Job(f"{label} {k}x", (str(BIN / "tablectl"), "replay", *options, str(files[k])),
                                k * records))
            best = best_of(jobs, runs)
            if k == 1:
                endplay = best.pop("endplay 1x")
            ours.update({(label, k): best[f"{label} {k}x"] for label, _ in modes if f"{label} {k}x" in best})

    describe_load()
    print_results(endplay, ours, [m for m, _ in modes], sizes, records, runs)


def print_results(endplay: Best, ours: dict[tuple[str, int], Best], modes: list[str],
                  sizes: tuple[int, ...], records: int, runs: int) -> None:
    say(f"\nResults (best of {runs} runs each). boards/s = records in the file / time of the whole process,")
    say("start-up included: 'wall' by the clock (what the targets mean), 'CPU' by its user + system time,")
    say("which a busy machine disturbs less. Peak = the highest ru_maxrss of the runs.")
    say(f"  {'side':<30} {'wall s':>7} {'CPU s':>7} {'boards/s':>9} {'(CPU)':>7} {'peak MB':>8} "
        f"{'x endplay':>9} {'(CPU)':>6}")
    rows = [("endplay", 1, endplay)] + [("tablectl " + label, k, b) for (label, k), b in ours.items()]
    for name, k, b in rows:
        n = k * records
        ratios = (f"{b.rate(n) / endplay.rate(records):9.2f} {b.cpu_rate(n) / endplay.cpu_rate(records):6.2f}"
                  if k == 1 else "")
        say(f"  {name + f' {k}x':<30} {b.wall:7.2f} {b.cpu:7.2f} {b.rate(n):9,.0f} {b.cpu_rate(n):7,.0f} "
            f"{b.rss_mb:8.1f} {ratios}")
    say(f"\nTarget: ours / endplay >= {TARGET_RATIO:.1f} at 1x (every legality check vs none), by the clock.")
    for label in modes:
        b = ours[(label, 1)]
        say(f"  {label:<18} ours / endplay = {b.rate(records) / endplay.rate(records):.2f}"
            f"  (by CPU time {b.cpu_rate(records) / endplay.cpu_rate(records):.2f})")
    say(f"Target: boards/s within {TARGET_SPREAD:.0%} of each other across {', '.join(f'{k}x' for k in sizes)} "
        f"(spread = max/min - 1); peak memory flat, under {TARGET_RSS_MB} MB at 16x with streaming.")
    for label in modes:
        kept = [(k, ours[(label, k)]) for k in sizes if (label, k) in ours]
        if len(kept) < 2:
            continue
        wall = [b.rate(k * records) for k, b in kept]
        cpu = [b.cpu_rate(k * records) for k, b in kept]
        peaks = " / ".join(f"{b.rss_mb:.0f}" for _, b in kept)
        say(f"  {label:<18} spread {max(wall) / min(wall) - 1:6.1%}  (by CPU time {max(cpu) / min(cpu) - 1:6.1%});"
            f"  peak MB {peaks}")


# --- part 2: in-process figures ----------------------------------------------------------


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


def in_process(root: Path) -> None:
    say("\n== Part 2: in-process, the whole corpus (PBN and LIN) ==")
    files = corpus_files(root)
    say(f"[1] parse and replay {len(files)} files")
    t0 = time.perf_counter()
    records = load_all(files)
    t1 = time.perf_counter()
    report = replay_records(records).report
    t2 = time.perf_counter()
    n = len(records)
    played = sum(1 for b in report["boards"] if "error" not in b)
    say(f"corpus: {len(files)} files, {n} records ({played} replayable)")
    say(f"parse:  {t1 - t0:6.2f} s  {n / (t1 - t0):8,.0f} records/s")
    say(f"replay: {t2 - t1:6.2f} s  {n / (t2 - t1):8,.0f} boards/s")
    say(f"total:  {t2 - t0:6.2f} s  {n / (t2 - t0):8,.0f} boards/s (parse + replay + report)")
    say("[2] time of each step (every call and card of every record)")
    times = sorted(step_times(records))
    p50 = statistics.median(times) / 1000
    p99 = times[int(len(times) * 0.99)] / 1000
    say(f"step:   {len(times):,} actions  median {p50:.1f} us  p99 {p99:.1f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("corpus", nargs="?", default=str(corpus_dir()))
    parser.add_argument("--quick", action="store_true", help="1x and 4x only (for development)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each measurement, the best kept (3)")
    args = parser.parse_args()
    root = Path(args.corpus)
    if not corpus_files(root):
        sys.exit(f"no corpus at {root} (set BRIDGE_CORPUS or pass the directory)")
    started = time.perf_counter()
    describe_machine()
    versus_endplay(root, (1, 4) if args.quick else (1, 4, 16), max(args.runs, 1))
    in_process(root)
    say(f"\n(bench/replay.py took {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
