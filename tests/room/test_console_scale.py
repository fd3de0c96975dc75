"""The console made for hundreds of tables: what one table's traffic may not do to the
Director's alarms, on the real Mosquitto.

* an alert (an irregularity, a call for the Director) is taken before the bulk (state messages,
  events, results) that waits in the console's queue: its alarm is never held behind them.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablectl.room.console import Console
from tests.room.conftest import CLUB, Broker, Peer
from tests.room.test_link import wait

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
    made = Console(anon_broker.address(), tmp_path / "console")
    made.start()
    wait(lambda: made.connected, what="the console linked")
    try:
        yield made
    finally:
        made.stop()


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
            for table in bulk:
                peer.publish(f"bridge/{CLUB}/table/{table}/state", _state(table, 1))
            peer.publish(f"bridge/{CLUB}/table/1/alert", _revoke("1"))
            wait(lambda: {"1", *bulk} <= set(console._pending), what="the states and the alert queued")
        assert alarmed.wait(15), "no alarm for table 1's revoke"
        wait(lambda: all(console.room.tiles.get(t) is not None and console.room.tiles[t].state for t in bulk),
             what="every state taken")
    finally:
        peer.client.loop_stop()
        peer.client.disconnect()
    assert not seen_at_alarm[0] & set(bulk), "the alarm waited for the states queued before it"
