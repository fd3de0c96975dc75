"""``bench/event.py`` measures what it says: an event of 4 rooms bridged to a centre, 4 tables in 2 worker
processes, one board each: every irregularity its tables commit (the revoke in turn, Law 61, and the opening lead
out of turn, Law 54, held one read cycle by Law 58A) reaches the head console's WebSocket as an alarm through
its room's broker and the bridge, none is lost, and each room's console raised its own tables' alarms too.

Counts only, never a latency (figures go in bench/, not in tests).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.room.conftest import require_mosquitto

ROOT = Path(__file__).resolve().parents[2]
RUN_WITHIN = 600.0
"""Generous: a shared, loaded machine is only slower (the run takes ~25 s at speed)."""


def test_event_bench_times_every_alarm_at_the_head_console_across_the_bridges(tmp_path: Path) -> None:
    require_mosquitto(passwd=True)
    out = tmp_path / "event.json"
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "event.py"), "--tables", "4", "--rooms", "4",
                          "--workers", "2", "--rounds", "1", "--quiet", "0.5", "--grace", "120",
                          "--table-dir", str(tmp_path), "--json", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=RUN_WITHIN)
    assert run.returncode == 0, f"{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    figures = json.loads(out.read_text())
    assert figures["problems"] == [] and figures["workers"] == 2
    for phase in ("steady", "all_at_once"):
        for event in ("revoke", "lead"):
            got = figures[phase][event]
            assert got["lost"] == 0, (phase, event, got, run.stdout[-3000:])
            assert got["n"] == 4, (phase, event, got, run.stdout[-3000:])  # one a table: every alarm paired
            assert got["parts"]["table"]["n"] == 4, (phase, event, got)  # each one's commit seen at its table
    # a lead and a revoke per table and phase: 16 in all at the head console, 4 in each room's own
    assert figures["alarms_on_head_ws"] == 16
    assert figures["alarms_raised"] == {"head": 16, "A": 4, "B": 4, "C": 4, "D": 4}
    assert figures["pushes"]["n"] > 0  # the head console's page got changes, not only the whole room
