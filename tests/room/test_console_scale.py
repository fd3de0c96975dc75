"""The console made for hundreds of tables: what one table's traffic may not do to the
Director's alarms, on the real Mosquitto.

* an alert (an irregularity, a call for the Director) is taken before the bulk (state messages,
  events, results) that waits in the console's queue: its alarm is never held behind them;
* the Director's page is sent the whole room once, then only what changed: one table's new state
  is that table's tile, a push of a few hundred bytes whatever the size of the room; one more
  result is that board's traveller and points (and the ranking), not every board's;
* a table's state message is its tile (a few hundred bytes), its arbiter view sent only once the
  Director opens the table (the console's ``view`` command), as an old table's full state is
  still read.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tablectl.room.console import Console
from tests.room.conftest import CLUB, Broker, Peer, running_console
from tests.room.test_link import Table, _auction_to_lead, wait
from web_ui.console import ConsoleSettings, create_console_app

BULK = 40
"""State messages of other tables waiting when the alert comes."""


def _state(table: str, seq: int) -> str:
    return json.dumps({"v": 1, "club": CLUB, "table": table, "session": f"s{table}", "seq": seq, "online": True,
                       "time": "2026-11-27T20:00:00.000Z", "at": 1.0, "board": 1, "phase": "play",
                       "boards_played": 0})


def _revoke(table: str) -> str:
    return json.dumps({"v": 1, "club": CLUB, "table": table, "session": f"s{table}", "seq": 1, "prev": 0,
                       "time": "2026-11-27T20:00:00.000Z", "at": 1.0, "alert": "irregularity", "event": "raised",
                       "id": 1, "kind": "revoke", "law": "61", "board": 1, "offender": "E", "alarm": True,
                       "what": "a revoke"})


@pytest.fixture
def console(anon_broker: Broker, tmp_path: Path) -> Iterator[Console]:
    yield from running_console(anon_broker.address(), tmp_path / "console")


def test_an_alert_is_taken_before_the_state_messages_waiting_ahead_of_it(anon_broker: Broker,
                                                                         console: Console) -> None:
    seen_at_alarm: list[set[str]] = []
    alarmed = threading.Event()

    def on_change(message: dict[str, object]) -> None:
        if message.get("kind") == "alarm" and message.get("table") == "1":
            seen_at_alarm.append({t for t, tile in console.room.tiles.items() if tile.state is not None})
            alarmed.set()

    console.subscribe(on_change)
    peer = Peer(anon_broker.url()).connected()
    try:
        peer.publish(f"bridge/{CLUB}/table/99/state", _state("99", 1))
        wait(lambda: "99" in console.room.tiles and not console._pending, what="the console subscribed and idle")
        with console._lock:  # the console thread is busy: what arrives now waits in its queue
            bulk = [str(n) for n in range(2, 2 + BULK)]
            peer.publish(f"bridge/{CLUB}/table/2/state", _state("2", 1))
            # the console thread takes table 2's state into its hands, blocked there (or blocked before it)
            with contextlib.suppress(AssertionError):
                wait(lambda: console._queue.qsize() == 0, timeout=2, what="table 2's state in the thread's hands")
            for table in bulk[1:]:
                peer.publish(f"bridge/{CLUB}/table/{table}/state", _state(table, 1))
            peer.publish(f"bridge/{CLUB}/table/1/alert", _revoke("1"))
            wait(lambda: {"1", *bulk} <= set(console._pending), what="the states and the alert queued")
        assert alarmed.wait(15), "no alarm for table 1's revoke"
        wait(lambda: all(console.room.tiles.get(t) is not None and console.room.tiles[t].state for t in bulk),
             what="every state taken")
    finally:
        peer.client.loop_stop()
        peer.client.disconnect()
    assert not seen_at_alarm[0] & set(bulk[1:]), "the alarm waited for the states queued before it"


ROOM = 60
"""Tables in the room of the push test."""


def test_after_the_whole_room_the_page_is_sent_only_the_tile_that_changed(anon_broker: Broker,
                                                                          console: Console) -> None:
    peer = Peer(anon_broker.url()).connected()
    try:
        for n in range(1, ROOM + 1):
            peer.publish(f"bridge/{CLUB}/table/{n}/state", _state(str(n), 1))
        wait(lambda: len(console.room.tiles) == ROOM and not console._pending, what="every table's state taken")
        settings = ConsoleSettings(check_pin=lambda pin: pin == "2468", club=CLUB, push_interval=0.05,
                                   hosts=("testserver",))
        with TestClient(create_console_app(console, settings), base_url="http://testserver") as c:
            assert c.post("/api/login", json={"pin": "2468"}).status_code == 200
            with c.websocket_connect("/ws", headers={"Origin": "http://testserver"}) as ws:
                whole = ws.receive_json()
                assert whole["kind"] == "room" and len(whole["tiles"]) == ROOM
                peer.publish(f"bridge/{CLUB}/table/7/state", _state("7", 2).replace('"play"', '"auction"'))
                text = ws.receive_text()
                while '"table":"7"' not in text:  # a push of something else first (none expected)
                    text = ws.receive_text()
    finally:
        peer.client.loop_stop()
        peer.client.disconnect()
    delta = json.loads(text)
    assert delta["kind"] == "delta" and delta["base"] <= whole["version"] < delta["version"]
    assert [t["table"] for t in delta["tiles"]] == ["7"] and delta["tiles"][0]["state"]["phase"] == "auction"
    assert "travellers" not in delta and "ranking" not in delta
    assert len(text) < 2048, f"a push of {len(text)} bytes for one table's change"


TILE_BYTES = 2048
"""A table's state message without its arbiter view is well under this."""


def test_a_tables_state_is_its_tile_and_its_arbiter_view_comes_when_the_director_opens_it(
        anon_broker: Broker, console: Console, tmp_path: Path) -> None:
    peer = Peer(anon_broker.url()).connected()
    t3 = Table(tmp_path / "table-3.sqlite", anon_broker.address(), "3")
    try:
        peer.subscribe(f"bridge/{CLUB}/table/3/state")
        _auction_to_lead(t3)  # 1NT by North, East on lead
        wait(lambda: (console.room.tiles.get("3") is not None
                      and (console.room.tiles["3"].state or {}).get("phase") == "play"), what="table 3 in play")
        states = [m.payload for m in peer.messages if m.topic.endswith("/state") and b'"online":true' in m.payload]
        assert states and max(len(p) for p in states) < TILE_BYTES
        assert console.view("3") is None  # nothing yet: the console asks the table for it
        console.opened("3")
        wait(lambda: console.view("3") is not None, what="table 3's arbiter view")
        view = console.view("3")
        assert view is not None and view["board"]["deal"] and view["board"]["contract"]
        assert json.loads(peer.messages[-1].payload)["view"] == view
    finally:
        t3.stop()
        peer.client.loop_stop()
        peer.client.disconnect()


def test_a_state_with_its_arbiter_view_as_older_tables_send_it_is_still_read(anon_broker: Broker,
                                                                            console: Console) -> None:
    peer = Peer(anon_broker.url()).connected()
    try:
        old = json.loads(_state("4", 3))
        old["view"] = {"board": {"number": 1, "deal": "N:AKQJ.T98.765.432 - - -"}, "table": "4"}
        peer.publish(f"bridge/{CLUB}/table/4/state", json.dumps(old))
        wait(lambda: console.view("4") is not None, what="table 4's view")
    finally:
        peer.client.loop_stop()
        peer.client.disconnect()
    assert console.view("4") == old["view"]
    assert console.room.results.deals["1"]["4"].pbn().startswith("N:AKQJ.T98.765.432")


def _result(table: str, seq: int, board: int, score_ns: int) -> str:
    return json.dumps({"v": 1, "club": CLUB, "table": table, "session": f"s{table}", "seq": seq, "prev": seq - 1,
                       "time": "2026-11-27T20:00:00.000Z", "at": 1.0, "number": board, "contract": "3NT",
                       "declarer": "N", "tricks": 9, "result": "=", "score_ns": score_ns, "status": "played",
                       "pairs": {"NS": f"{table}N", "EW": f"{table}E"}})


def test_one_more_result_is_pushed_as_that_boards_traveller_not_every_boards(anon_broker: Broker,
                                                                            console: Console) -> None:
    peer = Peer(anon_broker.url()).connected()
    played = {"1": [(1, 400), (2, 100)], "2": [(1, 430), (2, 110)], "3": [(1, 600), (2, 620)]}  # table: boards
    try:
        for table, boards in played.items():
            for seq, (board, score) in enumerate(boards, start=1):
                peer.publish(f"bridge/{CLUB}/table/{table}/result/{board}", _result(table, seq, board, score))
        wait(lambda: len(console.room.results.results.get("2", {})) == 3 and not console._pending,
             what="the results taken")
        peer.publish(f"bridge/{CLUB}/table/4/result/1", _result("4", 1, 1, 420))  # board 1: 5 results, as many
        peer.publish(f"bridge/{CLUB}/table/5/result/1", _result("5", 1, 1, 450))  # as board 2 will have
        wait(lambda: len(console.room.results.results.get("1", {})) == 5, what="the 5 results of board 1")
        settings = ConsoleSettings(check_pin=lambda pin: pin == "2468", club=CLUB, push_interval=0.05,
                                   hosts=("testserver",))
        with TestClient(create_console_app(console, settings), base_url="http://testserver") as c:
            assert c.post("/api/login", json={"pin": "2468"}).status_code == 200
            with c.websocket_connect("/ws", headers={"Origin": "http://testserver"}) as ws:
                whole = ws.receive_json()
                assert [t["board"] for t in whole["travellers"]] == ["1", "2"]
                peer.publish(f"bridge/{CLUB}/table/4/result/2", _result("4", 2, 2, 650))  # board 2: its 4th
                first = ws.receive_json()  # the first push after a page connected: the results whole
                while "travellers" not in first and "travellers_changed" not in first:
                    first = ws.receive_json()
                peer.publish(f"bridge/{CLUB}/table/5/result/2", _result("5", 2, 2, 660))  # board 2: its 5th
                delta = ws.receive_json()
                while "travellers_changed" not in delta and "travellers" not in delta:
                    delta = ws.receive_json()
    finally:
        peer.client.loop_stop()
        peer.client.disconnect()
    assert delta["kind"] == "delta" and "travellers" not in delta
    assert list(delta["travellers_changed"]) == ["2"] and len(delta["travellers_changed"]["2"]["results"]) == 5
    assert list(delta["scores"]["boards_changed"]) == ["2"] and "boards" not in delta["scores"]
    assert "ranking" not in delta and delta["ranking_changed"]  # the ranking's rows that moved, not the ranking
    assert {m["row"]["pair"] for m in delta["ranking_changed"]} >= {"5N", "5E"}
