"""The demo's arbiter (``tablectl demo --auto-rule-after``) rules as an arbiter would: it gives
only a ruling the table takes, so the table's log, and ``tablectl replay`` of it, show no refused
ruling that nobody at the table made (the demo's trials are not the arbiter's errors)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from controller.records.tablelog import action_of
from drivers.sim import SimTable
from tablectl.demo import DemoOptions, DemoPlayers
from tablectl.runtime import TableRuntime, TableSetup

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
UP_TO_THE_LEAD = 19
"""The scenario's first actions: West's major penalty card (Law 50), and East, his partner, wins the
trick; East is on lead, and declarer's options (Law 50D2) begin with require_suit, which needs a suit."""


def test_the_demo_arbiter_logs_no_refused_ruling_for_an_option_that_needs_a_suit_law_50(tmp_path: Path) -> None:
    spec = json.loads((SCENARIOS / "50_major_penalty_card_partner_on_lead_each_time.json").read_text())
    path = tmp_path / "table.sqlite"
    runtime = TableRuntime(path, TableSetup(code="duplicate2017"))
    runtime.start([])
    try:
        for obj in spec["log"][:UP_TO_THE_LEAD]:
            assert runtime.submit(action_of(obj)).rejected is None, obj
        state = runtime.snapshot().state
        (waiting,) = state.awaiting()
        assert waiting.situation == "major_pc_partner_on_lead" and waiting.options[0] == "require_suit"
        players = DemoPlayers(runtime, SimTable(), [], DemoOptions(auto_rule_after=0.0), say=lambda line: None)
        assert players._auto_rule(state)
        ruled = runtime.snapshot().state.irregularity(waiting.id)
        assert ruled is not None and ruled.status == "ruled"
    finally:
        runtime.stop()
    report = json.loads(subprocess.run([sys.executable, "-m", "tablectl", "replay", str(path), "--json"],
                                       capture_output=True, text=True, timeout=120, check=True).stdout)
    assert "rejected" not in report, report["rejected"]
    assert report["boards"][0]["irregularities"][1]["ruling"]["option"] == "require_suit"
