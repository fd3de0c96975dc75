"""``tablectl demo`` without a corpus: the table deals its own boards (one line says so), plays
them to the end, and commits the irregularity it is asked to on its first board exactly as on
a real board (the table raises it, the demo's arbiter rules, the board is finished and scored)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tablectl.demo import IRREGULARITIES


def _demo(tmp_path: Path, *args: str, corpus: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BRIDGE_CORPUS": corpus, "PYTHONUNBUFFERED": "1"}
    env.pop("BRIDGE_CLUB_URL", None)
    return subprocess.run([sys.executable, "-m", "tablectl", "demo", "--no-web", "--no-tempo", "--data-dir",
                           str(tmp_path / "data"), "--speed", "100", "--auto-rule-after", "0.2", *args],
                          env=env, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("kind", IRREGULARITIES)
def test_without_a_corpus_the_table_deals_its_boards_and_commits_the_first_irregularity(
        kind: str, tmp_path: Path) -> None:
    nowhere = tmp_path / "no-corpus"
    done = _demo(tmp_path, "--boards", "1", "--irregularity-rate", "0", "--first-irregularity", kind,
                 corpus=str(nowhere))
    out = done.stdout
    assert done.returncode == 0, out + done.stderr[-3000:]
    assert out.splitlines()[0] == f"no corpus found at {nowhere}: the table deals its own boards (seeded)"
    assert "board 1: dealt by the demo (deal seed 1)" in out
    assert "irregularity on board 1:" in out and "arbiter: irregularity" in out, out
    summary = [line for line in out.splitlines() if line.startswith("board 1: ") and "[" in line]
    assert len(summary) == 1 and "[played]" in summary[0] and "irregularities 0" not in summary[0], out


def test_with_the_corpus_deal_forces_self_dealt_boards_without_saying_the_corpus_is_missing(
        tmp_path: Path, corpus: Path) -> None:
    done = _demo(tmp_path, "--boards", "2", "--irregularity-rate", "0", "--deal", "--seed", "5",
                 corpus=str(corpus))
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "no corpus found" not in done.stdout
    assert done.stdout.count("dealt by the demo (deal seed 5)") == 3  # the start line and each board's
    assert "demo: every board played" in done.stdout
