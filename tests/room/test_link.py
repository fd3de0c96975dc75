"""A table linked to the room through the real Mosquitto, and the Director's console.

Each test runs a real ``TableRuntime`` (SQLite log, engine thread, simulated sensors), its
``TableLink`` (paho-mqtt), a real Mosquitto, and the console's ``Console`` (paho-mqtt, its
own SQLite copy). Waits are bounded polls on a condition, never bare sleeps.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import actions as a
from controller.deal import Deal
from controller.seats import Seat
from controller.sensing.deck import DeckRegistry
from drivers.sim import SimTable, default_deck
from tablectl.room.address import ClubAddress
from tablectl.room.console import Console
from tablectl.room.link import TableLink
from tablectl.runtime import TableRuntime, TableSetup
from tablectl.store import open_reader
from tests.room.conftest import Broker, Peer

DEAL = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
TAG = "0B000000000001"
OUTBOX = ("derived", "alert", "result")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def wait(predicate: Callable[[], object], timeout: float = 15.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        time.sleep(0.02)


class Table:
    """Table ``id`` of the room: runtime, simulated sensors, hand-moved clock, link."""

    def __init__(self, path: Path, address: ClubAddress, table_id: str) -> None:
        self.clock = Clock()
        setup = TableSetup(name=f"Table {table_id}", decks=DeckRegistry.from_mapping({"deck1": default_deck()}),
                           deck="deck1", boards={TAG: 1}, hand_record={1: a.BoardStart(1, deal=DEAL)})
        self.rt = TableRuntime(path, setup, monotonic=self.clock)
        self.sim = SimTable(default_deck(), self.rt.clock)
        self.rt.start([self.sim])
        self.link = TableLink(self.rt, address, table_id, keepalive=2)
        self.link.start()

    def call(self, slot: str, seat: str) -> None:
        self.sim.pull(slot, seat)
        self.clock.now += 2.0
        assert self.rt.sync(5)
        if slot in ("Pass", "X", "XX"):
            self.sim.put_back(slot, seat)
            self.clock.now += 0.1
            assert self.rt.sync(5)

    def outbox(self) -> list[int]:
        reader = open_reader(self.rt.store.path)
        try:
            return [r.seq for r in reader.rows_after(0) if getattr(r, "kind", None) in OUTBOX]
        finally:
            reader.close()

    def stop(self) -> None:
        self.link.stop()
        self.rt.stop()


@pytest.fixture
def room(anon_broker: Broker, tmp_path: Path) -> Iterator[tuple[Broker, Console, Callable[[str], Table]]]:
    console = Console(anon_broker.address(), tmp_path / "console")
    console.start()
    tables: list[Table] = []

    def table(table_id: str) -> Table:
        t = Table(tmp_path / f"table-{table_id}.sqlite", anon_broker.address(), table_id)
        tables.append(t)
        return t

    wait(lambda: console.connected, what="the console to connect")
    yield anon_broker, console, table
    for t in tables:
        t.stop()
    console.stop()


def _auction_to_lead(t: Table) -> None:
    t.sim.present(TAG, "board")
    assert t.rt.sync(5)
    for slot, seat in (("1NT", "N"), ("Pass", "E"), ("Pass", "S"), ("Pass", "W")):
        t.call(slot, seat)


def _held(console: Console, table: Table) -> bool:
    ack = console.room.acknowledged(table.link.table)
    outbox = table.outbox()
    return ack is not None and bool(outbox) and ack[1] == outbox[-1]


def _stored(console: Console, table_id: str) -> list[int]:
    conn = sqlite3.connect(str(console.store.path))
    try:
        return [int(s) for (s,) in conn.execute("SELECT seq FROM message WHERE table_id = ? ORDER BY seq",
                                                  (table_id,))]
    finally:
        conn.close()


def _assert_stored(console: Console, table_id: str, outbox: list[int], timeout: float = 10.0) -> None:
    """The console's file holds exactly ``outbox``. The console counts a message as held (its
    acknowledgement) a moment before its batch is written: wait for the file, then compare."""
    deadline = time.monotonic() + timeout
    while _stored(console, table_id) != outbox and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _stored(console, table_id) == outbox


def test_alert_from_a_sensor_event_at_table_3_reaches_the_console_law_54(room) -> None:  # type: ignore[no-untyped-def]
    _broker, console, table = room
    t3 = table("3")
    _auction_to_lead(t3)
    alarms: list[dict[str, Any]] = []
    console.subscribe(lambda m: alarms.append(m) if m.get("kind") == "alarm" else None)
    t3.sim.present("S2", "W.play")  # E is on lead: W's card is an opening lead out of turn
    t3.clock.now += 1.0
    assert t3.rt.sync(5)
    wait(lambda: alarms, what="the alarm at the console")
    assert alarms[0]["table"] == "3" and "Opening lead out of turn by W" in alarms[0]["text"]
    [call] = [c for c in console.room.calls.values() if c.table == "3"]
    assert call.state == "called" and call.law == "54" and call.irregularity == 1

    def tile() -> dict[str, Any]:
        return next(t for t in console.snapshot()["tiles"] if t["table"] == "3")

    assert tile()["colour"] == "irregularity"  # even before its states (the alert lane may overtake them)
    wait(lambda: (tile()["state"] or {}).get("phase") == "play", what="table 3's state at the console")
    assert tile()["colour"] == "irregularity"
    console.opened("3")  # the Director opens the table: it sends its arbiter view
    wait(lambda: console.view("3") is not None, what="table 3's arbiter view")
    view = console.view("3")
    assert view is not None and view["irregularities"][0]["options"][0] == "accept_see_dummy"


def test_ruling_from_the_console_is_applied_at_the_table_and_reaches_the_console(room) -> None:  # type: ignore[no-untyped-def]
    _broker, console, table = room
    t3 = table("3")
    _auction_to_lead(t3)
    t3.sim.present("S2", "W.play")
    t3.clock.now += 1.0
    assert t3.rt.sync(5)
    wait(lambda: console.room.calls, what="the call")
    ref = console.send("3", "ruling", {"id": 1, "option": "accept_see_dummy"})
    answer = console.reply(ref, 10)
    assert answer is not None and answer["accepted"] is True
    irr = t3.rt.snapshot().state.irregularity(1)
    assert irr is not None and irr.status == "ruled" and dict(irr.ruling or ())["option"] == "accept_see_dummy"
    wait(lambda: all(c.state == "resolved" for c in console.room.calls.values()), what="the call resolved")
    assert [c.outcome for c in console.room.calls.values()] == ["ruled: accept see dummy"]


def test_a_command_the_table_refuses_changes_nothing_and_says_why(room) -> None:  # type: ignore[no-untyped-def]
    broker, console, table = room
    t3 = table("3")
    _auction_to_lead(t3)
    t3.sim.present("S2", "W.play")
    t3.clock.now += 1.0
    assert t3.rt.sync(5)
    wait(lambda: console.room.calls, what="the call")
    before = t3.rt.snapshot().state
    ref = console.send("3", "ruling", {"id": 1, "option": "redeal"})  # not an option of Law 54
    answer = console.reply(ref, 10)
    assert answer is not None and answer["accepted"] is False and "redeal" in answer["reason"]
    assert t3.rt.snapshot().state.irregularities == before.irregularities
    # forged or malformed: refused unread, with the reason; the table is unchanged
    peer = Peer(broker.url())
    peer.connect()
    topic = "bridge/testclub/table/3/command"
    peer.publish(topic, json.dumps({"v": 1, "club": "testclub", "table": "2", "ref": "forged-1",
                                    "command": "ruling", "ruling": {"id": 1, "option": "accept_see_dummy"}}))
    peer.publish(topic, b"\xff not json")
    peer.publish(topic, json.dumps({"v": 1, "club": "testclub", "table": "3", "ref": "bad-2",
                                    "command": "ruling", "ruling": {"id": 1, "option": "DROP TABLE"}}))
    wait(lambda: {"forged-1", "bad-2"} <= set(console.room.replies), what="the refusals")
    assert "not club 'testclub' table '3'" in console.room.replies["forged-1"]["reason"]
    assert console.room.replies["bad-2"]["accepted"] is False and "option" in console.room.replies["bad-2"]["reason"]
    wait(lambda: any(r.get("reason", "").startswith("a command must be a JSON object")
                     for r in (al for al in console.room.alerts if al.get("alert") == "command")), what="garbage")
    assert t3.rt.snapshot().state.irregularities == before.irregularities
    irr = t3.rt.snapshot().state.irregularity(1)
    assert irr is not None and irr.status == "awaiting_ruling"
    peer.close()


def test_broker_killed_mid_round_loses_and_doubles_nothing(room) -> None:  # type: ignore[no-untyped-def]
    broker, console, table = room
    t2 = table("2")
    t2.sim.present(TAG, "board")
    assert t2.rt.sync(5)
    t2.call("1NT", "N")
    wait(lambda: _held(console, t2), what="the console to hold table 2's first messages")
    broker.kill()
    t2.call("Pass", "E")
    t2.call("2C", "E")  # E called again: a change of call, an irregularity raised while the broker is down
    t2.rt.submit(a.CallDirector(Seat.S))
    assert t2.rt.sync(5)
    broker.start()
    wait(lambda: _held(console, t2), timeout=30, what="the console to catch up after the broker came back")
    _assert_stored(console, "2", t2.outbox())  # every outbox row once, none doubled, none lost
    kinds = [al.get("alert") for al in console.room.alerts if al["table"] == "2"]
    assert kinds.count("arbiter_called") == 1
    assert any(c.what == "S called the Director" for c in console.room.calls.values())


def test_console_restarted_holds_what_it_held_and_tables_fill_the_rest(room, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    broker, console, table = room
    t1 = table("1")
    t1.sim.present(TAG, "board")
    assert t1.rt.sync(5)
    wait(lambda: _held(console, t1), what="the console to hold table 1")
    console.stop()
    t1.call("1NT", "N")
    t1.rt.submit(a.CallDirector(Seat.W))
    again = Console(broker.address(), tmp_path / "console")
    again.start()
    try:
        wait(lambda: _held(again, t1), what="the restarted console to catch up")
        _assert_stored(again, "1", t1.outbox())
        assert any(c.seat == "W" for c in again.room.calls.values())
    finally:
        again.stop()


def test_last_will_marks_a_table_offline_and_a_clean_stop_says_so(room) -> None:  # type: ignore[no-untyped-def]
    _broker, console, table = room
    t1 = table("1")
    wait(lambda: console.room.tiles.get("1") is not None and console.room.tiles["1"].online, what="online")
    t1.link._client._sock_close()  # the network goes: no DISCONNECT, the broker sends the will
    wait(lambda: not console.room.tiles["1"].online, timeout=20, what="the last will")
    wait(lambda: console.room.tiles["1"].online, timeout=20, what="the table back online")
    t1.link.stop()
    wait(lambda: not console.room.tiles["1"].online, what="offline after a clean stop")


def test_table_process_killed_and_restarted_catches_the_console_up(room, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import os
    import signal
    import subprocess
    import sys

    broker, console, _table = room
    data = tmp_path / "t4"
    env = {**os.environ, "BRIDGE_CLUB_URL": broker.url(), "BRIDGE_TABLE_ID": "4"}
    cmd = [sys.executable, "-m", "tablectl", "demo", "--no-web", "--data-dir", str(data), "--speed", "40",
           "--boards", "1", "--seed", "3", "--auto-rule-after", "0.5", "--irregularity-rate", "1"]

    def started() -> subprocess.Popen[bytes]:
        return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    first = started()
    wait(lambda: len(_stored(console, "4")) >= 15, timeout=60, what="table 4 under way")
    first.send_signal(signal.SIGKILL)
    first.wait(10)
    wait(lambda: not console.room.tiles["4"].online, timeout=20, what="table 4's last will")
    second = started()
    try:
        assert second.wait(120) == 0
    finally:
        if second.poll() is None:
            second.kill()
    reader = open_reader(data / "table.sqlite")
    try:
        outbox = [r.seq for r in reader.rows_after(0) if getattr(r, "kind", None) in OUTBOX]
        session = reader.session_id
    finally:
        reader.close()
    wait(lambda: console.room.acknowledged("4") == (session, outbox[-1]), timeout=30, what="the console caught up")
    _assert_stored(console, "4", outbox)
    assert "1" in console.room.travellers and "4" in console.room.travellers["1"]
    assert not console.room.tiles["4"].online  # the clean stop at the end says so


def test_a_table_stopped_right_after_its_last_rows_sends_them_before_it_goes(room) -> None:  # type: ignore[no-untyped-def]
    """A clean stop drains the outbox: the console holds the night's last rows without a restart."""
    _broker, console, table = room
    t1 = table("1")
    t1.sim.present(TAG, "board")
    assert t1.rt.sync(5)
    wait(lambda: _held(console, t1), what="the console to hold table 1")
    assert t1.link._unsubscribe is not None
    t1.link._unsubscribe()  # the publisher is no longer woken: the rows below wait for the stop
    t1.link._unsubscribe = None
    for slot, seat in (("1NT", "N"), ("Pass", "E"), ("Pass", "S"), ("Pass", "W")):
        t1.call(slot, seat)
    assert not _held(console, t1)
    t1.link.stop()
    wait(lambda: _held(console, t1), what="the console to hold the rows written just before the stop")
    _assert_stored(console, "1", t1.outbox())
    wait(lambda: not console.room.tiles["1"].online, what="the goodbye after the rows")
