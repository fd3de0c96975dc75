"""``tablectl replay --json`` / ``--jsonl`` stream the report: each board is written as it is
replayed, and the reader holds one record at a time, whatever the size of the file."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.records import pbn
from controller.replay import replay_records
from tablectl.cli import main
from tablectl.replaycmd import UsageError, stream_report


def _sample(corpus: Path) -> Path:
    return corpus / "bridgebots_tests" / "sample.pbn"


def test_streamed_json_is_the_whole_report(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _sample(corpus)
    assert main(["replay", "--json", str(path)]) == 0
    streamed = json.loads(capsys.readouterr().out)
    whole = json.loads(json.dumps(replay_records(pbn.load(path)).report))
    assert streamed == whole


def test_json_lines_give_one_board_per_line_then_the_session(corpus: Path) -> None:
    path = corpus / "endplay_tests" / "example2.pbn"
    out = io.StringIO()
    n = stream_report(path, out, lines=True)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    whole = json.loads(json.dumps(replay_records(pbn.load(path)).report))
    assert n == len(whole["boards"]) == len(rows) - 1
    assert rows[:-1] == whole["boards"]
    assert rows[-1] == {"session": whole["session"]}


def test_compact_json_is_one_line(corpus: Path) -> None:
    out = io.StringIO()
    stream_report(_sample(corpus), out, compact=True)
    assert out.getvalue().count("\n") == 1
    assert len(json.loads(out.getvalue())["boards"]) == 3


def test_a_file_without_records_writes_nothing_and_says_why(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pbn"
    empty.write_text("% nothing here\n")
    out = io.StringIO()
    with pytest.raises(UsageError, match="no board record"):
        stream_report(empty, out)
    assert out.getvalue() == ""


def test_the_reader_gives_each_record_before_reading_the_next(corpus: Path) -> None:
    """Memory bounded by one board: the first record comes out while most lines are unread."""
    lines = _sample(corpus).read_text().split("\n")
    read = 0

    def counting() -> Iterator[str]:
        nonlocal read
        for line in lines:
            read += 1
            yield line

    numbers = [r.number for r in pbn.load(_sample(corpus))]
    records = pbn._records(counting(), "sample.pbn")
    first = next(records)
    assert first.number == numbers[0]
    assert read < len(lines) / 2
    assert [r.number for r in records] == numbers[1:]


def test_iter_load_reads_the_same_records_as_load(corpus: Path) -> None:
    for path in sorted(p for p in corpus.rglob("*") if p.suffix.lower() == ".pbn"):
        assert list(pbn.iter_load(path)) == pbn.load(path), path


def test_one_record_is_replayed_on_its_own(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--record N`` of a records file: that board alone, and a session of that one board."""
    path = _sample(corpus)
    assert main(["replay", "--json", "--record", "2", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    (board,) = report["boards"]
    assert board["source"].startswith("sample.pbn record 2 ")
    assert report["session"]["total_ns"] == board["score_ns"]
    assert main(["replay", "--record", "9", str(path)]) == 2
    assert "has 3 records, not 9" in capsys.readouterr().err


def test_a_reader_that_goes_away_stops_the_replay_quietly(corpus: Path) -> None:
    """``tablectl replay big.pbn | head``: no traceback, no error, whatever the output mode."""
    import subprocess
    import sys

    path = corpus / "endplay_tests" / "example3.pbn"
    for mode in ([], ["--json"], ["--jsonl"]):
        run = subprocess.run(
            f"{sys.executable} -m tablectl replay {' '.join(mode)} {path} | head -c 200",
            shell=True, capture_output=True, text=True, timeout=300, check=False)
        assert len(run.stdout.encode()) == 200, mode  # head -c counts bytes
        assert "Traceback" not in run.stderr and "Broken pipe" not in run.stderr, run.stderr[-500:]
