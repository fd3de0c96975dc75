"""Pull the plug: ``tablectl demo`` killed with SIGKILL at random points, restarted on the same log.

After each kill the log must rebuild without damage or mismatch, hold every input the
process acknowledged, and give the state that replaying its own table actions gives; the
next start must resume exactly there; and the boards the interrupted demo finishes must
be the corpus's boards.

The kill points are counted in acknowledgements, not in seconds: each process is killed
right after its k-th ``ack`` line (k drawn from the seed), so a loaded machine, which only
makes the demo slower, kills it at the same point of its play (never before it has even
opened the log, never after it has finished).
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from controller.engine import Engine, Rebuilt, rebuild
from controller.sensing.deck import DeckRegistry
from controller.sensing.translate import Settings
from controller.table import Phase, TableState, step
from tablectl.demo import DEFAULT_CORPUS_FILE, describe, pick_boards
from tablectl.store import EventStore
from web_ui.service import Snapshot

SEED = 5
BOARDS = 2
ARGS = ["--no-web", "--speed", "400", "--boards", str(BOARDS), "--seed", str(SEED),
        "--irregularity-rate", "0.5", "--auto-rule-after", "0", "--no-tempo", "--ack-log"]


WATCHDOG = 300.0
"""Real seconds after which a demo that is still running is killed (the test then fails)."""


def _start(data: Path, corpus: Path, stderr: IO[str]) -> subprocess.Popen[str]:
    env = dict(os.environ, BRIDGE_CORPUS=str(corpus), PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "tablectl", "demo", *ARGS, "--data-dir", str(data)],
                            stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)


def run_until_ack(data: Path, corpus: Path, stderr: IO[str], kill_after: int | None) -> tuple[str, bool, int]:
    """Run the demo on ``data`` and SIGKILL it right after its ``kill_after``-th ``ack`` line
    (None: let it finish). Returns its output, whether it was killed, and its exit status."""
    proc = _start(data, corpus, stderr)
    watchdog = threading.Timer(WATCHDOG, proc.kill)
    watchdog.start()
    try:
        assert proc.stdout is not None
        lines: list[str] = []
        acks = 0
        while kill_after is None or acks < kill_after:
            line = proc.stdout.readline()
            if not line:
                break  # it finished (or the watchdog killed it)
            lines.append(line)
            acks += len(re.findall(r"ack \d+\n", line))
        killed = kill_after is not None and acks >= kill_after
        if killed:
            proc.send_signal(signal.SIGKILL)
        rest, _ = proc.communicate(timeout=60)
        return "".join(lines) + (rest or ""), killed, proc.returncode
    finally:
        watchdog.cancel()


def _rebuild(db: Path) -> Rebuilt:
    store = EventStore.open(db)
    try:
        meta: dict[str, Any] = store.meta()
        engine = Engine.new(DeckRegistry.from_mapping(meta["decks"]), Settings(**meta["sensing"]), meta["deck"])
        return rebuild(store.read(), engine)
    finally:
        store.close()


def _replay(rebuilt: Rebuilt) -> TableState:
    state = TableState.new()
    for action in rebuilt.actions:
        state = step(state, action).state
    return state


def test_killed_demo_resumes_exactly_where_it_was_and_finishes_the_corpus_boards(
        tmp_path: Path, corpus: Path) -> None:
    rng = random.Random(20240611)
    data = tmp_path / "data"
    db = data / "table.sqlite"
    kills = 0
    resumed_lines: list[str] = []
    expected: list[str] = []
    errors = tmp_path / "stderr.txt"
    with errors.open("w") as err:
        for _ in range(3):
            out, killed, status = run_until_ack(data, corpus, err, rng.randint(3, 40))
            finished = not killed  # finished before the kill: nothing more to interrupt
            if killed:
                kills += 1
            else:
                assert status == 0, errors.read_text()[-2000:]
            acks = [int(n) for n in re.findall(r"ack (\d+)\n", out)]  # each written whole (another line may precede it)
            resumed_lines += [line for line in out.splitlines() if line.startswith("resumed at input")]
            rebuilt = _rebuild(db)
            assert rebuilt.bad == [] and rebuilt.mismatches == []
            if acks:  # nothing acknowledged is lost
                assert rebuilt.last_input >= acks[-1]
            assert rebuilt.engine.table == _replay(rebuilt)
            expected.append(f"resumed at input {rebuilt.last_input}: "
                            f"{describe(Snapshot(0, rebuilt.engine.table, 0.0))}")
            if finished:
                break
        assert kills >= 1

        out, killed, status = run_until_ack(data, corpus, err, None)
    assert not killed and status == 0, errors.read_text()[-2000:]
    resumed_lines += [line for line in out.splitlines() if line.startswith("resumed at input")]
    # each start resumed exactly where the log left the table
    assert resumed_lines[1:] == expected
    assert "every board played" in out

    final = _rebuild(db)
    assert final.bad == [] and final.mismatches == []
    state = final.engine.table
    assert state.board is not None and state.board.phase is Phase.DONE
    picked = {b.number: b.record for b in pick_boards(corpus / DEFAULT_CORPUS_FILE, BOARDS, SEED)}
    assert sorted(o.board.number for o in state.boards if o.board.number is not None) == sorted(picked)
    clean = 0
    for outcome in state.boards:
        b = outcome.board
        assert outcome.tricks is not None, f"board {b.number} has no result"
        irregular = [i for i in map(state.irregularity, b.irregularity_ids) if i is not None and i.kind != "tempo"]
        if irregular:
            continue
        rec = picked[b.number]  # type: ignore[index]
        clean += 1
        assert b.auction.calls == rec.calls
        assert b.play is not None and b.play.played_cards() == rec.play[:len(b.play.played_cards())]
        if rec.claim is not None:
            assert outcome.tricks == rec.claim
    assert clean >= 1, "the seed is chosen so that a board is played without irregularity"
