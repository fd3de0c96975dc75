"""Fault injection over the event log: what a table does with every damage of its files.

A real ``tablectl demo --no-web --ack-log`` plays its boards and is killed with SIGKILL in the
middle of its second board (after the first board's end checkpointed the WAL into the
database, so both files hold acknowledged rows). Then, on a fresh copy each time, one of its
files (the database, the WAL, the shm, and the high-water mark) is flipped (a byte inverted),
truncated or deleted, at offsets drawn from the seed among those that matter (headers, page
and frame boundaries, the live frames, anywhere), and a ``TableRuntime`` is started on it.

For every case: the table starts and runs; every acknowledged input (the demo's ``ack``
lines) that is still in the log is the very row that was written; every one missing is
reported, counted exactly against the high-water mark, with the first missing ``seq``, on the
arbiter's page and in a ``log_damaged`` alert row; and nothing is reported when nothing is
missing. ``pytest -s`` prints the table of cases and outcomes.
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.records.eventlog import Row
from tablectl.highwater import Loss, read_mark
from tablectl.runtime import TableRuntime, TableSetup
from tablectl.store import open_reader

SEED = 20261125
ARGS = ["--no-web", "--speed", "400", "--boards", "2", "--seed", "5", "--irregularity-rate", "0.5",
        "--auto-rule-after", "0", "--no-tempo", "--ack-log"]
ACKS_INTO_BOARD_2 = 30
"""The demo is killed after this many acknowledgements into its second board."""
PAGE, WAL_HEADER, FRAME_HEADER = 4096, 32, 24
NAMES = {"db": "table.sqlite", "wal": "table.sqlite-wal", "shm": "table.sqlite-shm", "hwm": "table.sqlite.hwm"}


@dataclasses.dataclass(frozen=True)
class Crash:
    """The files a killed demo left, and what it had acknowledged."""

    files: Path
    acknowledged: int
    """The last input ``seq`` the demo acknowledged (its last ``ack`` line)."""
    rows: dict[int, Row]
    """Every row of the log before any damage, by ``seq``."""
    committed: int
    """The last ``seq`` the table knew committed: its high-water mark's (else the last ``ack``)."""


@pytest.fixture(scope="module")
def crash(tmp_path_factory: pytest.TempPathFactory, corpus: Path) -> Crash:
    data = tmp_path_factory.mktemp("faults") / "data"
    env = dict(os.environ, BRIDGE_CORPUS=str(corpus), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "tablectl", "demo", *ARGS, "--data-dir", str(data)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    watchdog = threading.Timer(300, proc.kill)
    watchdog.start()
    acks: list[int] = []
    boards = 0
    into = 0
    assert proc.stdout is not None
    for line in proc.stdout:  # killed at a point of its play, whatever the machine's load
        boards += bool(re.match(r"board \d+: \S+\.pbn", line))
        found = [int(n) for n in re.findall(r"ack (\d+)\n", line)]
        acks += found
        into += len(found) if boards >= 2 else 0
        if into >= ACKS_INTO_BOARD_2:
            proc.send_signal(signal.SIGKILL)
            break
    proc.communicate(timeout=60)
    watchdog.cancel()
    assert into >= ACKS_INTO_BOARD_2, "the demo ended before its second board was well under way"
    pristine = data.parent / "pristine"
    shutil.copytree(data, pristine)
    with open_reader(pristine / NAMES["db"], snapshot=True) as reader:
        rows = {r.seq: r for r in reader.rows_after(0) if isinstance(r, Row)}
    mark, _problem = read_mark(pristine / NAMES["db"])
    assert acks[-1] in rows and (mark is None or mark.seq >= acks[-1])
    return Crash(pristine, acks[-1], rows, acks[-1] if mark is None else mark.seq)


@dataclasses.dataclass(frozen=True)
class Case:
    target: str
    fault: str
    offset: int | None
    why: str

    def apply(self, files: Path) -> None:
        path = files / NAMES[self.target]
        if self.fault == "delete":
            path.unlink()
        elif self.fault == "truncate":
            with path.open("r+b") as f:
                f.truncate(self.offset)
        else:
            assert self.offset is not None
            with path.open("r+b") as f:
                f.seek(self.offset)
                byte = f.read(1)
                f.seek(self.offset)
                f.write(bytes([byte[0] ^ 0xFF]))


def _live_frames(wal: bytes) -> int:
    """How many frames from the WAL's start carry its header's salt (the frames SQLite may read)."""
    salt = wal[16:24]
    n = 0
    while WAL_HEADER + (n + 1) * (FRAME_HEADER + PAGE) <= len(wal):
        if wal[WAL_HEADER + n * (FRAME_HEADER + PAGE) + 8:][:8] != salt:
            break
        n += 1
    return n


def _cases(crash: Crash) -> list[Case]:
    rng = random.Random(SEED)
    sizes = {t: (crash.files / n).stat().st_size for t, n in NAMES.items() if (crash.files / n).exists()}
    cases: list[Case] = []

    def add(target: str, fault: str, offset: int | None, why: str) -> None:
        if target not in sizes:
            return
        if offset is None or 0 <= offset < sizes[target] or (fault == "truncate" and offset == sizes[target]):
            cases.append(Case(target, fault, offset, why))

    pages = sizes["db"] // PAGE
    for offset, why in ((0, "header magic"), (18, "header: WAL mode byte"), (28, "header: size in pages"),
                        (56, "header: text encoding"), (100, "page 1: b-tree header")):
        add("db", "flip", offset, why)
    for page in sorted(rng.sample(range(1, pages), min(6, pages - 1))):
        add("db", "flip", page * PAGE + rng.randrange(PAGE), f"page {page + 1}")
    for offset in sorted(rng.sample(range(sizes["db"]), 16)):
        add("db", "flip", offset, "anywhere")
    for offset, why in ((0, "cut to nothing"), (PAGE, "page 1 only"), (sizes["db"] // 2, "half"),
                        (sizes["db"] - PAGE, "last page gone"), (sizes["db"] - 1, "last byte gone")):
        add("db", "truncate", offset, why)
    for offset in sorted(rng.sample(range(1, sizes["db"]), 4)):
        add("db", "truncate", offset, "anywhere")
    add("db", "delete", None, "")

    live = _live_frames((crash.files / NAMES["wal"]).read_bytes())
    frame = lambda n: WAL_HEADER + n * (FRAME_HEADER + PAGE)  # noqa: E731
    for offset, why in ((0, "header magic"), (12, "header: checkpoint sequence"), (16, "header: salt"),
                        (24, "header: checksum"), (frame(0), "frame 1 header: page number"),
                        (frame(0) + 4, "frame 1 header: commit size"), (frame(0) + FRAME_HEADER + 7, "frame 1 page")):
        add("wal", "flip", offset, why)
    for n in sorted(rng.sample(range(1, live), min(20, live - 1))):
        add("wal", "flip", frame(n) + rng.randrange(FRAME_HEADER + PAGE), f"live frame {n + 1} of {live}")
    if live > 0:
        add("wal", "flip", frame(live - 1) + FRAME_HEADER + rng.randrange(PAGE), f"last live frame ({live})")
    if frame(live) < sizes["wal"]:
        add("wal", "flip", rng.randrange(frame(live), sizes["wal"]), "past the live frames (stale)")
    for offset in sorted(rng.sample(range(sizes["wal"]), 8)):
        add("wal", "flip", offset, "anywhere")
    for offset, why in ((0, "cut to nothing"), (WAL_HEADER, "header only"), (frame(live // 2), "half the live frames"),
                        (frame(live) - 1, "last live frame torn"),
                        *((rng.randrange(WAL_HEADER, frame(live)), "anywhere") for _ in range(3))):
        add("wal", "truncate", offset, why)
    add("wal", "delete", None, "")

    for offset, why in ((0, "wal-index header"), (48, "wal-index header copy"), (96, "checkpoint info"),
                        *((rng.randrange(136, sizes["shm"]), "hash tables") for _ in range(4))):
        add("shm", "flip", offset, why)
    add("shm", "truncate", 0, "cut to nothing")
    add("shm", "delete", None, "")

    for offset, why in ((40, "a slot"), (40 + 512, "the other slot")) if "hwm" in sizes else ():
        add("hwm", "flip", offset, why)
    add("hwm", "truncate", 512, "one slot left")
    add("hwm", "truncate", 0, "cut to nothing")
    add("hwm", "delete", None, "")
    return cases


@dataclasses.dataclass
class Outcome:
    case: Case
    started: bool = False
    kept: int = 0
    lost: int = 0
    reported: int | None = None
    since: int | None = None
    expected: tuple[int, int | None] = (0, None)
    notes: list[str] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)


def _run(crash: Crash, case: Case, where: Path) -> Outcome:
    out = Outcome(case)
    shutil.copytree(crash.files, where)
    case.apply(where)
    db = where / NAMES["db"]
    try:
        rt = TableRuntime(db, TableSetup())
    except Exception as exc:  # the table must start whatever the damage
        out.errors.append(f"did not start: {exc!r}")
        return out
    try:
        held = {r.seq: r for r in rt.store.read() if isinstance(r, Row)}
        rt.start()
        out.started = rt.sync(10) and rt.running
        if not out.started:
            out.errors.append("the engine does not run")
        notices = [n.detail for n in rt.snapshot().notices if str(n.kind) == "log_damaged"]
        loss: Loss | None = getattr(rt, "loss", None)
    finally:
        rt.stop()
    same = lambda r: (h := held.get(r.seq)) is not None and (h.kind, h.t, h.body) == (r.kind, r.t, r.body)  # noqa: E731
    acked = [r for r in crash.rows.values() if r.is_input and r.seq <= crash.acknowledged]
    out.kept = sum(1 for r in acked if same(r))
    out.lost = len(acked) - out.kept
    changed = [s for s, r in crash.rows.items() if s in held and (held[s].kind, held[s].t, held[s].body)
               != (r.kind, r.t, r.body)]
    if changed:  # a row at a seq it never had: only a damaged row key can do this
        out.notes.append(f"rows moved to seq {changed[:3]}")
    missing = [s for s, r in sorted(crash.rows.items()) if s <= crash.committed and not same(r)]
    lost_inputs = sum(1 for s in missing if crash.rows[s].is_input)
    out.expected = (lost_inputs, missing[0] if missing else None)
    if loss is not None:
        out.reported, out.since = loss.lost_inputs, loss.since
        if loss.kept:
            out.notes.append("files copied aside")
    if any(p.name.startswith("table.sqlite.damaged-") and not p.name.endswith("-wal") for p in where.iterdir()):
        out.notes.append("damaged file kept")
    alerts = [r for r in held.values() if r.kind == "alert" and r.body.get("alert") == "log_damaged"]
    if case.target == "hwm" and case.fault != "flip":
        # the mark is gone or half there: nothing is lost from the log, the check may not be made
        if loss is not None:
            out.errors.append(f"reported a loss with the log untouched: {loss.what}")
        if notices and "cannot be told" not in notices[-1]:
            out.errors.append(f"says {notices[-1]!r}")
        out.notes.append("no mark: said so" if notices else "one slot left: used")
        if case.fault == "delete" and not notices:
            out.errors.append("the mark is gone and nothing says so")
        return out
    if missing:
        if loss is None or not notices or not alerts:
            out.errors.append(f"{lost_inputs} input(s) ({len(missing)} rows) lost since seq {missing[0]}, not reported")
        elif (loss.lost_inputs, loss.since) != out.expected:
            out.errors.append(f"reported {loss.lost_inputs} since {loss.since}, lost {out.expected}")
        elif f"{lost_inputs} acknowledged input(s) lost since seq {missing[0]}" not in notices[-1] and lost_inputs:
            out.errors.append(f"the arbiter is told {notices[-1]!r}")
    elif loss is not None or notices:
        out.errors.append(f"reported a loss when nothing is missing: {notices}")
    if out.lost and (loss is None or loss.lost_inputs < out.lost):
        out.errors.append(f"{out.lost} acknowledged input(s) lost, {0 if loss is None else loss.lost_inputs} reported")
    return out


def test_every_damage_of_the_log_starts_the_table_keeps_what_is_intact_and_reports_what_is_lost(
        crash: Crash, tmp_path: Path) -> None:
    cases = _cases(crash)
    outcomes = [_run(crash, case, tmp_path / f"case-{i}") for i, case in enumerate(cases)]
    acked = sum(1 for r in crash.rows.values() if r.is_input and r.seq <= crash.acknowledged)
    _print(crash, acked, outcomes)
    failed = [o for o in outcomes if o.errors]
    assert not failed, "\n".join(f"{o.case}: {'; '.join(o.errors)}" for o in failed)
    assert len(outcomes) >= 50
    assert (crash.files / NAMES["db"]).stat().st_size > PAGE, "the first board's end was checkpointed"


def _print(crash: Crash, acked: int, outcomes: list[Outcome]) -> None:
    line: Callable[..., str] = "{:<4} {:<9} {:>8}  {:<30} {:>7} {:>6} {:>5} {:>9} {:>7}  {}".format
    print(f"\n{len(outcomes)} cases; the killed demo had acknowledged {acked} inputs (up to seq "
          f"{crash.acknowledged}); its high-water mark: seq {crash.committed}; "
          f"{(crash.files / NAMES['db']).stat().st_size} bytes of database, "
          f"{(crash.files / NAMES['wal']).stat().st_size} of WAL")
    print(line("file", "fault", "offset", "where", "started", "kept", "lost", "reported", "since", "outcome"))
    for o in outcomes:
        c = o.case
        verdict = "FAIL: " + "; ".join(o.errors) if o.errors else "ok" + (f" ({', '.join(o.notes)})" if o.notes else "")
        print(line(c.target, c.fault, "" if c.offset is None else c.offset, c.why[:30], "yes" if o.started else "NO",
                   o.kept, o.lost, "-" if o.reported is None else o.reported, "-" if o.since is None else o.since,
                   verdict))
