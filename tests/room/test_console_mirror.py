"""The head console takes a table's correction (Law 79C) once it holds the result it corrects, and once
only: a correction that crosses before the table's result waits for it, and the same entry sent again
in another message (the table restoring its log from the room's copy) is one entry. A room's console
takes none of them: it made them. Real Mosquitto and SQLite; a peer publishes as the table would."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablectl.room.console import Console
from tests.room.conftest import CLUB, Broker, Peer, running_console
from tests.room.test_link import _stored, wait

Json = dict[str, Any]

CORRECTION = {"t": 900.0, "correction": {"entry": 4, "board": 1, "contract": "3NT", "declarer": "N", "tricks": 8,
                                         "by": "Anna", "reason": "declarer took 8 tricks",
                                         "made": "2026-11-27T21:40:02.512Z"}}


def _message(seq: int, body: Json) -> str:
    return json.dumps({"v": 1, "club": CLUB, "table": "1", "session": "s1", "seq": seq, "prev": seq - 1,
                       "time": "2026-11-27T21:40:03.000Z", "at": 1_795_815_603.0, **body})


def _result(seq: int) -> str:
    return _message(seq, {"number": 1, "contract": "3NT", "declarer": "N", "tricks": 9, "result": "=",
                          "score_ns": 400, "status": "played", "pairs": {"NS": "1N", "EW": "1E"}})


def _event(seq: int, source: str = "console") -> str:
    return _message(seq, {"action": CORRECTION, "source": source})


@pytest.fixture
def head(anon_broker: Broker, tmp_path: Path) -> Iterator[Console]:
    yield from running_console(anon_broker.address(), tmp_path / "head", head=True)


@pytest.fixture
def room_console(anon_broker: Broker, tmp_path: Path) -> Iterator[Console]:
    yield from running_console(anon_broker.address(), tmp_path / "room")


def _score(console: Console) -> Any:
    with console._lock:
        return console.room.results.entries().get("1", {}).get("1", {}).get("score_ns")


def test_a_correction_that_crosses_before_its_result_waits_for_it_and_is_taken_once(
        anon_broker: Broker, head: Console) -> None:
    table = Peer(anon_broker.url()).connected()
    try:
        table.publish(f"bridge/{CLUB}/table/1/event", _event(2))
        wait(lambda: _stored(head, "1") == [2], what="the head console to keep the correction's message")
        assert head.desk()["entries"] == []  # no result to correct yet: it waits
        table.publish(f"bridge/{CLUB}/table/1/result/1", _result(1))
        wait(lambda: _score(head) == -50, what="the correction taken once the result is there")  # 3NT-1
        table.publish(f"bridge/{CLUB}/table/1/event", _event(3, source="room"))  # the same entry again
        wait(lambda: _stored(head, "1") == [1, 2, 3], what="the head console to keep the message again")
    finally:
        table.client.loop_stop()
        table.client.disconnect()
    [entry] = head.desk()["entries"]
    assert (entry["kind"], entry["by"], entry["from_room"]["entry"]) == ("correction", "Anna", 4)
    assert entry["from_room"]["room"] == ""  # the head console was not told the rooms' tables
    assert _score(head) == -50


def test_a_rooms_console_takes_none_of_its_tables_corrections_it_made_them(
        anon_broker: Broker, room_console: Console) -> None:
    table = Peer(anon_broker.url()).connected()
    try:
        table.publish(f"bridge/{CLUB}/table/1/result/1", _result(1))
        table.publish(f"bridge/{CLUB}/table/1/event", _event(2))
        wait(lambda: _stored(room_console, "1") == [1, 2], what="the room's console to keep them")
    finally:
        table.client.loop_stop()
        table.client.disconnect()
    assert room_console.desk()["entries"] == [] and _score(room_console) == 400
