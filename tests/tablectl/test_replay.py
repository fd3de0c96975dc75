"""``tablectl replay table.sqlite``: a table's own event log, read-only, gives the boards the table saw."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from controller import actions as a
from controller.cards import Card
from controller.deal import Deal
from controller.records import pbn, tablelog
from controller.replay import replay_log
from controller.seats import Seat
from drivers.sim import SimTable, default_deck
from tablectl import cli
from tablectl.runtime import TableRuntime
from tests.tablectl.test_runtime import DEAL, TAG, Clock, _call, _setup

DEAL2 = Deal.parse("E:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


def _play(rt: TableRuntime, sim: SimTable, clock: Clock) -> None:
    """A refused entry, board 1 passed out, board 2 started by the arbiter with a call out of rotation."""
    assert rt.submit(a.PlayCard(Seat.N, Card.parse("SA"))).rejected is not None
    sim.present(TAG, "board")
    for slot, seat in (("Pass", "N"), ("Pass", "E"), ("Pass", "S"), ("Pass", "W")):
        _call(rt, sim, clock, slot, seat)
    clock.now += 3
    assert rt.submit(a.BoardStart(2, deal=DEAL2)).rejected is None
    _call(rt, sim, clock, "1NT", "E")
    _call(rt, sim, clock, "Pass", "N")  # S's turn: out of rotation


def _close(mine: object, theirs: object, where: str = "") -> None:
    """Equal, but for times, which the table log keeps to the millisecond."""
    if isinstance(mine, float) or isinstance(theirs, float):
        assert mine == pytest.approx(theirs, abs=0.002), where
    elif isinstance(mine, dict) and isinstance(theirs, dict):
        assert mine.keys() == theirs.keys(), where
        for key in mine:
            _close(mine[key], theirs[key], f"{where}.{key}")
    elif isinstance(mine, list) and isinstance(theirs, list):
        assert len(mine) == len(theirs), where
        for i, (x, y) in enumerate(zip(mine, theirs, strict=True)):
            _close(x, y, f"{where}[{i}]")
    else:
        assert mine == theirs, where


def _replay_json(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert cli.main(["replay", str(path), "--json"]) == 0
    report: dict[str, object] = json.loads(capsys.readouterr().out)
    return report


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in directory.iterdir()}


def test_replay_of_a_tables_sqlite_gives_the_boards_of_its_table_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    clock = Clock()
    rt = TableRuntime(data / "table.sqlite", _setup(), monotonic=clock)
    sim = SimTable(default_deck(), rt.clock)
    rt.start([sim])
    try:
        _play(rt, sim, clock)
        log_text = rt.records("jsonl")
        live_pbn = rt.records("pbn")
        state = rt.snapshot().state
    finally:
        rt.stop()
    assert len(state.boards) == 1 and state.board is not None and state.board.deal == DEAL2
    assert state.boards[0].board.deal == DEAL and state.awaiting()
    before = _files(data)

    report = _replay_json(data / "table.sqlite", capsys)
    expected = replay_log(tablelog.loads(log_text)).report
    _close(report["session"], expected["session"], "session")
    _close(report["boards"], expected["boards"], "boards")
    assert [b["status"] for b in report["boards"]] == ["passed_out", "incomplete"]  # type: ignore[index]
    assert report["boards"][1]["irregularities"]  # type: ignore[index]
    assert "errors" not in report and "mismatches" not in report
    assert len(report["rejected"]) == 1 and "board" in report["rejected"][0]  # type: ignore[arg-type,index]

    out, theirs = tmp_path / "out.pbn", tmp_path / "log.pbn"
    assert cli.main(["replay", str(data / "table.sqlite"), "--pbn", str(out)]) == 0
    (tmp_path / "log.jsonl").write_text(log_text, encoding="utf-8")
    assert cli.main(["replay", str(tmp_path / "log.jsonl"), "--pbn", str(theirs)]) == 0
    assert out.read_text(encoding="utf-8") == theirs.read_text(encoding="utf-8")
    assert [r.number for r in pbn.load(out)] == [1, 2]
    assert out.read_text(encoding="utf-8").startswith(live_pbn)  # board 1 as the table exports it
    assert _files(data) == before  # read-only: nothing changed, nothing created


def test_replay_reads_the_wal_a_table_left_behind(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    rt = TableRuntime(tmp_path / "live" / "table.sqlite", _setup(), monotonic=clock)
    sim = SimTable(default_deck(), rt.clock)
    rt.start([sim])
    copy = tmp_path / "copy"
    copy.mkdir()
    try:
        _play(rt, sim, clock)
        log_text = rt.records("jsonl")
        for suffix in ("", "-wal"):  # the files as a power cut leaves them: the commits in the -wal
            shutil.copy(str(rt.store.path) + suffix, copy / ("table.sqlite" + suffix))
    finally:
        rt.stop()
    before = _files(copy)
    report = _replay_json(copy / "table.sqlite", capsys)
    _close(report["boards"], replay_log(tablelog.loads(log_text)).report["boards"], "boards")
    assert _files(copy) == before


def test_replay_of_a_damaged_sqlite_reports_its_bad_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    path = tmp_path / "table.sqlite"
    TableRuntime(path, _setup()).stop()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO log VALUES (100, 100, 'raw', 1.0, '{\"tag\": \"seen\"}', 1)")
    conn.commit()
    conn.close()
    renamed = tmp_path / "session-log"  # an SQLite file by its header, whatever its name
    path.rename(renamed)
    report = _replay_json(renamed, capsys)
    assert report["boards"] == [] and report["session"] == {"code": "duplicate", "total_ns": 0}
    assert len(report["errors"]) == 1 and "row 100" in report["errors"][0]  # type: ignore[arg-type,index]
    (tmp_path / "empty.sqlite").write_bytes(b"")
    assert cli.main(["replay", str(tmp_path / "empty.sqlite")]) == 2
    assert "not a table log" in capsys.readouterr().err
