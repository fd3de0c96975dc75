"""One table's password harms nothing but that table: the room on the real Mosquitto with the
club configuration (``tablectl room init``), real tables (``TableRuntime`` and ``TableLink``)
and the console, against a device that holds table 2's broker password.

Each test fails on the room as it was before: a client id taken over, a batch of messages
lost to one that the console could not read, a queue buried by one table's calls, two
tables with one id merged without a word.
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tablectl.room.console import Console
from tests.room.conftest import Broker
from tests.room.test_link import TAG, Table, _stored, wait

CLUB = "testclub"


@pytest.fixture
def club_room(club_broker: Broker, tmp_path: Path) -> Iterator[tuple[Broker, Console, Callable[[str], Table]]]:
    console = Console(club_broker.address("console"), tmp_path / "console")
    console.start()
    tables: list[Table] = []

    def table(table_id: str, name: str | None = None) -> Table:
        t = Table(tmp_path / f"table-{name or table_id}.sqlite", club_broker.address(table_id), table_id)
        tables.append(t)
        return t

    wait(lambda: console.connected, what="the console to connect")
    yield club_broker, console, table
    for t in tables:
        t.stop()
    console.stop()


def _holds_outbox(console: Console, t: Table) -> bool:
    outbox = t.outbox()
    return bool(outbox) and console.room.acknowledged(t.link.table) == (t.link.session, outbox[-1]) \
        and _stored(console, t.link.table) == outbox


def _play(t: Table, calls: list[tuple[str, str]]) -> None:
    for slot, seat in calls:
        t.call(slot, seat)


def _message(table: str, seq: int, prev: int, body: dict[str, Any], session: str = "s-fake") -> dict[str, Any]:
    return {**body, "v": 1, "club": CLUB, "table": table, "session": session, "seq": seq, "prev": prev,
            "time": "2026-11-27T20:00:00.000Z", "at": 1_800_000_000.0}


# -- A1: a client id taken over ------------------------------------------------------------------------

def test_table_2s_password_with_the_consoles_client_id_drops_no_console_session_and_loses_nothing(
        club_room, peers) -> None:  # type: ignore[no-untyped-def]
    broker, console, table = club_room
    t1, t3 = table("1"), table("3")
    for t in (t1, t3):
        t.sim.present(TAG, "board")
        assert t.rt.sync(5)
    wait(lambda: _holds_outbox(console, t1) and _holds_outbox(console, t3), what="the console to hold both")
    drops: list[object] = []
    original = console._client.on_disconnect
    console._client.on_disconnect = lambda *args: (drops.append(args[3]), original(*args))  # type: ignore[misc]
    auction = [("1NT", "N"), ("Pass", "E"), ("Pass", "S"), ("Pass", "W")]
    for n, (slot, seat) in enumerate(auction):  # four takeovers, each while the tables play on
        thief = peers(broker.url("2"), client_id=f"bridge-{CLUB}-console")
        assert not thief.connect().is_failure  # table 2's own password: the broker lets it in as table 2
        t1.call(slot, seat)
        t3.call(slot, seat)
        thief.close()
        assert n < 4
    wait(lambda: _holds_outbox(console, t1) and _holds_outbox(console, t3), timeout=30,
         what="the console to hold both tables' outboxes")
    assert drops == []  # the console's session was never taken over
    assert _stored(console, "1") == t1.outbox() and _stored(console, "3") == t3.outbox()  # 0 missing


def test_a_broker_that_lost_the_consoles_session_gets_every_table_to_send_again(club_room) -> None:  # type: ignore[no-untyped-def]
    broker, console, table = club_room
    t1 = table("1")
    t1.sim.present(TAG, "board")
    assert t1.rt.sync(5)
    wait(lambda: _holds_outbox(console, t1), what="the console to hold table 1")
    first = console.instance
    console._client.loop_stop()  # the console's link stands still while the broker loses everything
    broker.kill()
    assert broker.room is not None
    shutil.rmtree(broker.room.persistence)
    broker.room.persistence.mkdir()
    broker.start()
    wait(lambda: t1.link.connected, timeout=20, what="table 1 back on the new broker")
    _play(t1, [("1NT", "N"), ("Pass", "E")])  # published while the broker has no console session: lost
    console._client.reconnect()
    console._client.loop_start()
    wait(lambda: _holds_outbox(console, t1), timeout=30, what="table 1 to send again what the console lacks")
    assert console.instance != first


# -- A2: a message the console cannot read costs that message alone --------------------------------------

POISON = {  # name: (the message from its seq and prev, whether its seq can be read: then it is held, refused)
    "seq 2^63": (lambda seq, prev: _message("2", 2 ** 63, prev, {"alert": "arbiter_called", "what": "x"}), False),
    "deep array": (lambda seq, prev: _message("2", seq, prev, {"alert": "x", "what": "DEEP"}), False),
    "body text": (lambda seq, prev: _message("2", seq, prev, {"body": "x"}), True),
    "prev text": (lambda seq, prev: {**_message("2", seq, prev, {"alert": "x"}), "prev": "x"}, False),
    "score overflow": (lambda seq, prev: _message("2", seq, prev, {"number": 1, "score_ns": 10 ** 400}), True),
}


def test_one_poisoned_message_among_good_ones_of_every_table_costs_that_message_alone(
        club_room, peers) -> None:  # type: ignore[no-untyped-def]
    broker, console, _table = club_room
    senders = {t: peers(broker.url(t)).connected() for t in ("1", "2", "3")}
    sent: dict[str, list[int]] = {t: [] for t in senders}
    seq = {t: 0 for t in senders}

    def good(t: str) -> None:
        seq[t] += 1
        body = {"alert": "arbiter_called", "seat": "N", "what": "N called the Director", "alarm": True} \
            if seq[t] == 3 else {"action": {"kind": "noop"}, "source": "test"}
        topic = f"bridge/{CLUB}/table/{t}/{'alert' if 'alert' in body else 'event'}"
        senders[t].publish(topic, json.dumps(_message(t, seq[t], seq[t] - 1, body, f"s-{t}")))
        sent[t].append(seq[t])

    for name, (poison, held) in POISON.items():
        for t in senders:
            good(t)
        message = poison(seq["2"] + 1, seq["2"])
        seq["2"] += held  # a seq the console can read is held (refused); another leaves no gap
        message["session"] = "s-2"
        kind = "result/1" if name == "score overflow" else "alert"
        text = json.dumps(message).replace('"DEEP"', "[" * 5000 + "]" * 5000)  # under the size limit
        senders["2"].publish(f"bridge/{CLUB}/table/2/{kind}", text)
        for t in senders:
            good(t)
    wait(lambda: all(console.room.acknowledged(t) == (f"s-{t}", seq[t]) for t in senders), timeout=30,
         what="every table acknowledged to its last message")
    # the room holds a batch a moment before its transaction commits: wait for the file to show it
    wait(lambda: all(_stored(console, t) == sent[t] for t in senders), timeout=10,
         what="every good message stored, the poisoner's own table's too")
    refused = console.snapshot()["refused"]
    assert refused["count"] == len(POISON)
    reasons = " | ".join(r["reason"] for r in refused["recent"])
    for words in ("seq", "nested", "'body' is not an object", "prev", "score_ns"):
        assert words in reasons
    assert {c.table for c in console.room.calls.values()} == {"1", "2", "3"}  # every table's call heard


# -- A3: flooding -----------------------------------------------------------------------------------

def test_one_table_pressing_the_call_button_a_thousand_times_is_one_call(club_room, peers) -> None:  # type: ignore[no-untyped-def]
    broker, console, _table = club_room
    flood = peers(broker.url("2")).connected()
    for n in range(1, 301):
        body = {"alert": "arbiter_called", "seat": "N", "what": "N called the Director", "alarm": True} \
            if n % 2 else {"alert": "irregularity", "event": "raised", "id": n, "alarm": True, "what": "lead"}
        flood.client.publish(f"bridge/{CLUB}/table/2/alert", json.dumps(_message("2", n, n - 1, body)), qos=1)
    wait(lambda: console.room.acknowledged("2") == ("s-fake", 300), timeout=30, what="the flood taken")
    open_calls = [c for c in console.room.calls.values() if c.table == "2" and c.state != "resolved"]
    assert 1 <= len(open_calls) <= 3
    assert console.snapshot()["folded"]["2"] >= 145  # the irregularities past the first ones: counted


def test_a_packet_over_the_brokers_limit_disconnects_its_sender_and_never_reaches_the_console(
        club_room, peers) -> None:  # type: ignore[no-untyped-def]
    broker, console, _table = club_room
    big = peers(broker.url("2")).connected()
    body = {"alert": "x", "what": "y" * (2 << 20)}
    big.client.publish(f"bridge/{CLUB}/table/2/alert", json.dumps(_message("2", 1, 0, body)), qos=1)
    wait(lambda: not big.client.is_connected(), what="the broker to disconnect the sender")
    small = peers(broker.url("2")).connected()
    small.publish(f"bridge/{CLUB}/table/2/alert", json.dumps(_message("2", 1, 0, {"alert": "x", "what": "y"})))
    wait(lambda: console.room.acknowledged("2") == ("s-fake", 1), what="the small one")
    assert console.received == 1 and console.refused == 0


def test_results_of_boards_outside_the_session_are_refused_and_their_retained_copies_cleared(
        club_broker: Broker, tmp_path: Path, peers) -> None:  # type: ignore[no-untyped-def]
    from controller.fieldscore.session import load_session

    path = tmp_path / "session.toml"
    path.write_text('[session]\nname = "Trust"\nmovement = "mitchell"\ntables = 3\nrounds = 3\nboards_per_round = 2\n',
                    encoding="utf-8")
    console = Console(club_broker.address("console"), tmp_path / "console", session=load_session(path))
    console.start()
    try:
        wait(lambda: console.connected, what="the console")
        faker = peers(club_broker.url("2")).connected()
        for n in range(1, 41):  # boards 1 to 40: the session has 1 to 6
            faker.publish(f"bridge/{CLUB}/table/2/result/{n}",
                          json.dumps(_message("2", n, n - 1, {"number": n, "score_ns": 100, "status": "played"})),
                          retain=True)
        wait(lambda: console.room.acknowledged("2") == ("s-fake", 40), timeout=30, what="every result taken")
        assert sorted(console.room.travellers, key=int) == [str(n) for n in range(1, 7)]
        assert console.snapshot()["refused"]["count"] == 34
    finally:
        console.stop()
    later = peers(club_broker.url("console")).connected()  # the console's user: once the console is gone
    later.subscribe(f"bridge/{CLUB}/table/2/result/+")
    wait(lambda: len(later.messages) >= 6, what="the retained results")
    later.quiet()
    assert sorted(int(m.topic.rsplit("/", 1)[1]) for m in later.messages if m.payload) == list(range(1, 7))


# -- A5: two of what must be one ------------------------------------------------------------------------

def test_two_tables_configured_with_one_table_id_are_an_alarm_not_a_merge(club_room) -> None:  # type: ignore[no-untyped-def]
    _broker, console, table = club_room
    alarms: list[dict[str, Any]] = []
    console.subscribe(lambda m: alarms.append(m) if m.get("kind") == "alarm" else None)
    first, second = table("2", "2a"), table("2", "2b")
    for t in (first, second):
        t.sim.present(TAG, "board")
        assert t.rt.sync(5)
    assert first.link.session != second.link.session
    wait(lambda: "2" in console.conflicts, timeout=60, what="the two tables found out")
    conflict = console.snapshot()["conflicts"][0]
    assert conflict["table"] == "2" and set(conflict["sessions"]) == {first.link.session, second.link.session}
    wait(lambda: any("Two tables use table id 2" in a["text"] for a in alarms), what="the alarm")


def test_a_second_console_of_the_room_is_an_alarm(club_room, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    broker, console, table = club_room
    t1 = table("1")
    t1.sim.present(TAG, "board")
    assert t1.rt.sync(5)
    wait(lambda: _holds_outbox(console, t1), what="the first console to hold table 1")
    other = Console(broker.address("console"), tmp_path / "other")
    other.start()
    try:
        wait(lambda: console.other_console is not None or other.other_console is not None, timeout=60,
             what="either console to find the other")
        found = console.other_console or other.other_console
        assert found is not None and "Another console" in found["what"]
    finally:
        other.stop()


def test_a_table_whose_backlog_overflows_the_console_sends_again_what_was_dropped(
        club_broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tablectl.room.console as console_module
    import tablectl.room.console_catchup as catchup_module

    monkeypatch.setattr(console_module, "_PENDING_BYTES", 1500)  # a few messages
    monkeypatch.setattr(catchup_module, "_PENDING_BYTES", 1500)
    console = Console(club_broker.address("console"), tmp_path / "console")
    busy = threading.Event()
    take = console._take

    def held_up(items: list[tuple[str, bytes, float, bool]], **kwargs: bool) -> None:  # the console thread busy a while
        busy.wait(30)
        take(items, **kwargs)

    console._take = held_up  # type: ignore[method-assign]
    console.start()
    wait(lambda: console.connected, what="the console")
    t1 = Table(tmp_path / "table-1.sqlite", club_broker.address("1"), "1")
    try:
        t1.sim.present(TAG, "board")
        assert t1.rt.sync(5)
        _play(t1, [("1NT", "N"), ("Pass", "E"), ("2C", "S"), ("Pass", "W"), ("2D", "N"), ("Pass", "E")])
        wait(lambda: console.dropped > 0, what="the table's backlog over its bound")
        busy.set()
        wait(lambda: _holds_outbox(console, t1), timeout=60, what="the console to hold table 1's outbox")
    finally:
        busy.set()
        t1.stop()
        console.stop()
