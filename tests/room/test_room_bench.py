"""``bench/room.py`` measures what it says: run at 2 tables for one board each, every irregularity its tables
commit (the revoke in turn, Law 61, and the opening lead out of turn, Law 54, held one read cycle by Law 58A)
reaches the console's WebSocket as an alarm, and none is lost.

The bench once measured nothing for months: its hand-moved table clock never passed the read-cycle hold, so no
lead out of turn was ever stepped, every alarm waited out a timeout, and the run printed "no samples". This
checks counts only, never a latency (figures go in bench/, not in tests).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.room.conftest import require_mosquitto

ROOT = Path(__file__).resolve().parents[2]
RUN_WITHIN = 600.0
"""Generous: a shared, loaded machine is only slower (the run takes ~20 s at speed)."""


def test_room_bench_times_every_alarm_of_the_revoke_and_the_lead_out_of_turn(tmp_path: Path) -> None:
    require_mosquitto(passwd=True)
    out = tmp_path / "room.json"
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "room.py"), "--tables", "2", "--rounds", "1",
                          "--idle", "0", "--grace", "120", "--json", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=RUN_WITHIN)
    assert run.returncode == 0, f"{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    figures = json.loads(out.read_text())
    assert figures["problems"] == []
    for phase in ("steady", "all_at_once"):
        for event in ("revoke", "lead"):
            got = figures[phase][event]
            assert got["lost"] == 0, (phase, event, got, run.stdout[-3000:])
            assert got["n"] == 2, (phase, event, got, run.stdout[-3000:])  # one a table: every alarm paired
            assert got["parts"]["table"]["n"] == 2, (phase, event, got)  # each one's commit seen at its table
