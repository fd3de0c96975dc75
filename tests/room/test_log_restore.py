"""A table whose log lost acknowledged inputs gets its actions back from the room's copy.

The console holds every event the table published; on the table's ``log_damaged`` alert it
sends them back (``restore`` commands on the table's ``command`` topic, through the real
Mosquitto), and the table takes again, as inputs from ``room``, the actions it lost.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablectl.room.console import Console
from tests.room.conftest import Broker
from tests.room.test_link import TAG, Table, _held, wait
from tests.tablectl.test_log_damage import AUCTION, DAMAGES


def _alerts(console: Console, kind: str) -> list[dict[str, object]]:
    with console._lock:
        return [dict(x) for x in console.room.alerts if x.get("alert") == kind]


@pytest.fixture
def console(anon_broker: Broker, tmp_path: Path) -> Iterator[Console]:
    console = Console(anon_broker.address(), tmp_path / "console")
    console.start()
    wait(lambda: console.connected, what="the console to connect")
    yield console
    console.stop()


def test_a_table_that_lost_its_wal_gets_its_auction_back_from_the_console(
        anon_broker: Broker, console: Console, tmp_path: Path) -> None:
    broker = anon_broker
    live = tmp_path / "live" / "table.sqlite"
    live.parent.mkdir()
    t = Table(live, broker.address(), "1")
    try:
        t.sim.present(TAG, "board")
        assert t.rt.sync(5)
        for slot, seat in AUCTION:
            t.call(slot, seat)
        board = t.rt.snapshot().state.board
        assert board is not None and len(board.auction.calls) == len(AUCTION)
        before = (board.number, board.auction.calls, board.phase)
        wait(lambda: _held(console, t), what="the console to hold every event of the table")
        crash = tmp_path / "crash"  # the files as a power cut leaves them: the auction in the WAL
        crash.mkdir()
        for suffix in ("", "-wal", ".hwm"):
            if Path(f"{live}{suffix}").exists():
                shutil.copy(f"{live}{suffix}", crash / f"table.sqlite{suffix}")
    finally:
        t.stop()
    db = crash / "table.sqlite"
    DAMAGES["the WAL deleted"](db)

    again = Table(db, broker.address(), "1")
    try:
        assert again.rt.loss is not None and again.rt.snapshot().state.board is None
        wait(lambda: _alerts(console, "log_restored"), what="the table's log_restored alert")
        restored = _alerts(console, "log_restored")
        assert len(restored) == 1 and restored[0]["alarm"] is False
        assert "restored from the room's copy (seq " in str(restored[0]["what"])
        board = again.rt.snapshot().state.board
        assert board is not None and (board.number, board.auction.calls, board.phase) == before
        # the restored actions are inputs from the room, in the log: a restart keeps them
        rows = [r for r in again.rt.store.read() if getattr(r, "kind", None) == "derived"]
        assert {r.body["source"] for r in rows if r.body["action"].get("call")} == {"room"}
        # the same restore again is refused, and changes nothing
        loss = again.rt.loss
        console._send_restore("1", loss.mark.session, loss.since, loss.mark.seq)
        wait(lambda: _alerts(console, "command"), what="the table's answer to a second restore")
        refused = _alerts(console, "command")[0]
        assert refused["accepted"] is False and refused["reason"] == "these actions were restored already"
        assert again.rt.snapshot().state.board.auction.calls == before[1]
    finally:
        again.stop()
