"""``tablectl replay``: the contract of docs/replay-report.md, exit codes, progress and summaries."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

LOG = "\n".join([
    '{"t": 0, "session": {"code": "duplicate"}}',
    '{"t": 0, "board": {"number": 1, "deal": '
    '"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"}}',
    '{"t": 1, "seat": "N", "call": "1NT"}',
    '{"t": 2, "seat": "E", "call": "Pass"}',
    '{"t": 3, "seat": "S", "call": "3NT"}',
    '{"t": 4, "seat": "W", "call": "Pass"}',
    '{"t": 5, "seat": "N", "call": "Pass"}',
    '{"t": 6, "seat": "E", "call": "Pass"}',
    '{"t": 7, "seat": "E", "play": "CA"}',
    'this line is garbage',
    '{"t": 8, "seat": "N", "claim": 9}',
    '{"t": 9, "seat": "E", "agree": true}',
    '{"t": 9, "seat": "W", "agree": true}',
]) + "\n"


def tablectl(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", *args], capture_output=True,
                          text=True, timeout=120)


def test_replay_json_follows_the_design_contract(tmp_path: Path) -> None:
    path = tmp_path / "table.jsonl"
    path.write_text(LOG)
    out = tablectl("replay", str(path), "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["session"] == {"code": "duplicate", "total_ns": 400}
    (board,) = report["boards"]
    for key in ("number", "dealer", "vul", "deal", "auction", "contract", "declarer", "play",
                "tricks", "result", "score_ns", "irregularities"):
        assert key in board
    assert board["contract"] == "3NT" and board["declarer"] == "N" and board["result"] == "="
    assert board["auction"] == ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"]
    assert report["errors"] == ["line 10: not JSON (Expecting value)"]


def test_replay_summary_is_readable(tmp_path: Path) -> None:
    path = tmp_path / "table.jsonl"
    path.write_text(LOG)
    out = tablectl("replay", str(path))
    assert out.returncode == 0
    assert "Board 1: 3NT by North, made (9 tricks), NS +400, claimed" in out.stdout
    assert "North-South total: +400 (duplicate scoring)" in out.stdout and "None" not in out.stdout


@pytest.mark.parametrize("line", [
    b'{"t": 8, "seat": "N", "call": "Pa\xffss"}', b"[" * 100_000 + b"]" * 100_000,
    b'{"t": 8, "undo_ruling": ' + b"9" * 5000 + b"}",
], ids=["not-utf8", "deep", "long-integer"])
def test_replay_of_a_table_log_with_a_line_that_is_not_json_names_the_line(tmp_path: Path, line: bytes) -> None:
    path = tmp_path / "table.jsonl"
    lines = LOG.encode().splitlines()
    path.write_bytes(b"\n".join([*lines[:9], line, *lines[10:]]) + b"\n")
    out = tablectl("replay", str(path))
    assert out.returncode == 0 and "Traceback" not in out.stderr
    assert "3NT by North, made" in out.stdout and "Unreadable lines skipped (1):\n    line 10: " in out.stdout
    report = json.loads(tablectl("replay", str(path), "--json").stdout)
    assert report["errors"][0].startswith("line 10: ")


@pytest.mark.parametrize(("name", "content", "message"), [
    ("missing.pbn", None, "no such file"),
    ("table.txt", "hello", "unknown record format"),
    ("table.jsonl", "garbage\nmore garbage\n", "no line of this table log could be read"),
    ("empty.pbn", "% nothing here\n", "no board record"),
])
def test_unusable_input_exits_2_with_a_clear_message(tmp_path: Path, name: str,
                                                     content: str | None, message: str) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    out = tablectl("replay", str(path))
    assert out.returncode == 2 and message in out.stderr


def test_irregularities_do_not_make_the_exit_status_fail(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"t": 0, "board": {"number": 1}}\n{"t": 1, "seat": "S", "call": "1C"}\n')
    out = tablectl("replay", str(path), "--json")
    assert out.returncode == 0
    (board,) = json.loads(out.stdout)["boards"]
    assert board["irregularities"][0]["kind"] == "call_out_of_rotation"
    assert board["status"] == "incomplete"


def test_a_large_files_progress_goes_to_stderr_never_into_the_json_on_stdout(corpus: Path) -> None:
    """Replaying the 7,632 records of example3 (long enough for progress lines): stdout holds the
    JSON report alone, whatever progress is said goes to stderr."""
    out = tablectl("replay", str(corpus / "endplay_tests" / "example3.pbn"), "--json", "--compact")
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout)   # nothing but the report on stdout
    assert len(report["boards"]) == 7632
    assert all("boards" in line for line in out.stderr.splitlines())   # progress lines only
    assert "Traceback" not in out.stderr


def test_a_scenario_file_replays_its_log_under_the_first_code_it_names(tmp_path: Path) -> None:
    """A scenario (one JSON document with a ``log``) is not read line by line as garbage."""
    lines = [json.loads(line) for line in LOG.splitlines() if line.startswith("{")][1:]
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"row": "a scenario", "codes": ["rubber", "duplicate"], "log": lines}, indent=2))
    out = tablectl("replay", str(path), "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert "errors" not in report
    assert report["session"]["code"] == "rubber"
    assert report["boards"][0]["contract"] == "3NT"
    assert "a scenario: its log replayed under the rubber code (it also names duplicate)" in out.stderr
