"""The room's results through the real Mosquitto: tables (runtime, simulated sensors, link)
publish their boards, and the Director's console (``Console``) puts them to their pairs, ranks
the field live, and checks the boards across the room: the same board with different deals at
two tables is a fouled board (Law 87), a board the movement does not give the table in its
round is a wrong board (Law 15). Each is an alarm at the console and a call on its queue.
Waits are bounded polls on a condition, never bare sleeps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from controller import actions as a
from controller.deal import Deal
from controller.fieldscore import Session, loads_session
from controller.room.boards import turned
from controller.sensing.deck import DeckRegistry
from drivers.sim import SimTable, default_deck
from tablectl.room.address import ClubAddress
from tablectl.room.console import Console
from tablectl.room.link import TableLink
from tablectl.runtime import TableRuntime, TableSetup
from tests.room.conftest import Broker
from tests.room.test_link import Clock, wait

DEAL = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
OTHER = Deal.parse("N:T98.765.432.AKQJ AKQJ.T98.765.432 765.432.AKQJ.T98 432.AKQJ.T98.765")
MITCHELL_3 = loads_session('[session]\nname = "Club Pairs"\nmovement = "mitchell"\ntables = 3\n'
                           'boards_per_round = 2\n')


def tag(board: int) -> str:
    return f"0B0000000000{board:02X}"


class Table:
    """Table ``id`` of the room with its own hand record (board number -> deal): runtime,
    simulated sensors, hand-moved clock, link."""

    def __init__(self, path: Path, address: ClubAddress, table_id: str, deals: Mapping[int, Deal]) -> None:
        self.clock = Clock()
        setup = TableSetup(name=f"Table {table_id}", decks=DeckRegistry.from_mapping({"deck1": default_deck()}),
                           deck="deck1", boards={tag(n): n for n in deals},
                           hand_record={n: a.BoardStart(n, deal=d) for n, d in deals.items()})
        self.rt = TableRuntime(path, setup, monotonic=self.clock)
        self.sim = SimTable(default_deck(), self.rt.clock)
        self.rt.start([self.sim])
        self.link = TableLink(self.rt, address, table_id, keepalive=2)
        self.link.start()

    def start(self, board: int) -> None:
        """The board goes on the table: its tag read, the hand record gives the deal."""
        self.sim.present(tag(board), "board")
        self.clock.now += 1.0
        assert self.rt.sync(5)

    def finish(self, tricks: int) -> None:
        """North opens 1NT, all pass, and the Director gives declarer ``tricks`` (board 1: N deals)."""
        for slot, seat in (("1NT", "N"), ("Pass", "E"), ("Pass", "S"), ("Pass", "W")):
            self.sim.pull(slot, seat)
            self.clock.now += 2.0
            assert self.rt.sync(5)
            if slot == "Pass":
                self.sim.put_back(slot, seat)
                self.clock.now += 0.1
                assert self.rt.sync(5)
        self.rt.submit(a.Adjust(tricks))
        assert self.rt.sync(5)

    def stop(self) -> None:
        self.link.stop()
        self.rt.stop()


Room = tuple[Console, Callable[..., Table], list[dict[str, Any]]]


def _room(broker: Broker, tmp_path: Path, session: Session | None) -> Iterator[Room]:
    console = Console(broker.address(), tmp_path / "console", session=session)
    alarms: list[dict[str, Any]] = []
    console.subscribe(lambda m: alarms.append(m) if m.get("kind") == "alarm" else None)
    console.start()
    tables: list[Table] = []

    def table(table_id: str, deals: Mapping[int, Deal]) -> Table:
        t = Table(tmp_path / f"table-{table_id}.sqlite", broker.address(), table_id, deals)
        tables.append(t)
        return t

    wait(lambda: console.connected, what="the console to connect")
    try:
        yield console, table, alarms
    finally:
        for t in tables:
            t.stop()
        console.stop()


@pytest.fixture
def room(anon_broker: Broker, tmp_path: Path) -> Iterator[Room]:
    """A console without a session: each table's own pairs."""
    yield from _room(anon_broker, tmp_path, None)


@pytest.fixture
def session_room(anon_broker: Broker, tmp_path: Path) -> Iterator[Room]:
    """A console with the Director's session: a 3-table Mitchell, 2 boards a round."""
    yield from _room(anon_broker, tmp_path, MITCHELL_3)


def _deal_seen(console: Console, table: str, board: int) -> bool:
    return table in console.room.results.deals.get(str(board), {})


def test_same_board_with_different_deals_at_two_tables_alarms_the_console_and_is_scored_in_groups_law_87(
        room: Room) -> None:
    console, table, alarms = room
    t1, t2, t3 = table("1", {1: DEAL}), table("2", {1: OTHER}), table("3", {1: DEAL})
    t1.start(1)
    wait(lambda: _deal_seen(console, "1", 1), what="table 1's deal at the console")
    t3.start(1)
    wait(lambda: _deal_seen(console, "3", 1), what="table 3's deal at the console")
    assert alarms == []
    t2.start(1)  # table 2's board 1 was dealt otherwise
    wait(lambda: alarms, what="the fouled board's alarm")
    assert [(m["table"], m["text"]) for m in alarms] == [
        ("2", "Board 1 is fouled: table 1 and table 2 have different deals (Law 87)")]
    [call] = console.room.calls.values()
    assert (call.table, call.board, call.law, call.state) == ("2", 1, "87", "called")
    tile = next(t for t in console.snapshot()["tiles"] if t["table"] == "2")
    assert tile["colour"] == "called"

    for t, tricks in ((t1, 8), (t3, 7), (t2, 9)):  # 1NT+1 (120), 1NT= (90); table 2 alone: 1NT+2
        t.finish(tricks)
    wait(lambda: len(console.room.travellers.get("1", {})) == 3, what="the three results")
    snap = console.snapshot()
    assert [(r["pair"], r["direction"], r["percent"], r["place"]) for r in snap["ranking"]] == [
        ("1NS", "NS", 100.0, "1"), ("2NS", "NS", 50.0, "2"), ("3NS", "NS", 0.0, "3"),
        ("3EW", "EW", 100.0, "1"), ("2EW", "EW", 50.0, "2"), ("1EW", "EW", 0.0, "3")]
    board = snap["scores"]["boards"]["1"]
    assert [(board[t]["label"], board[t]["points_ns"]) for t in "123"] == [("1", 2.0), ("1b", 1.0), ("1", 0.0)]
    assert snap["scores"]["fouled"] == {"1": [["1", "3"], ["2"]]}
    assert len(alarms) == 1  # the results say nothing new


def test_a_board_the_movement_does_not_give_the_table_in_its_round_alarms_the_console_law_15(
        session_room: Room) -> None:
    console, table, alarms = session_room
    t1, t2 = table("1", {1: DEAL}), table("2", {1: DEAL})
    t1.start(1)  # round 1 at table 1: boards 1-2
    wait(lambda: _deal_seen(console, "1", 1), what="table 1's board at the console")
    t2.start(1)  # round 1 at table 2: boards 3-4
    wait(lambda: alarms, what="the wrong board's alarm")
    assert [(m["table"], m["text"]) for m in alarms] == [
        ("2", "Table 2 is playing board 1 in round 1; the movement gives it boards 3-4 (Law 15)")]
    [call] = console.room.calls.values()
    assert (call.key, call.table, call.board, call.law) == ("room/15/2/1", "2", 1, "15")

    t1.finish(8)
    t2.finish(9)
    wait(lambda: len(console.room.travellers.get("1", {})) == 2, what="both results")
    snap = console.snapshot()
    rows = {r["table"]: r["pairs"] for r in snap["travellers"][0]["results"]}
    assert rows == {"1": {"NS": "1", "EW": "4"}, "2": {"NS": "2", "EW": "6"}}  # the movement's pairs, not the table's
    ranked = {r["pair"]: (r["direction"], r["percent"]) for r in snap["ranking"]}
    assert ranked["2"] == ("NS", 100.0) and ranked["1"] == ("NS", 0.0) and ranked["6"] == ("EW", 0.0)
    assert set(ranked) == {str(p) for p in range(1, 7)}  # every pair of the movement, played or not
    assert len(alarms) == 1


def test_the_same_hands_turned_round_at_another_table_alarm_the_console_as_a_rotated_board_law_7(
        room: Room) -> None:
    console, table, alarms = room
    t1, t2 = table("1", {1: DEAL}), table("2", {1: turned(DEAL, 2)})
    t1.start(1)
    wait(lambda: _deal_seen(console, "1", 1), what="table 1's deal at the console")
    t2.start(1)  # the board was put on table 2 the wrong way round
    wait(lambda: alarms, what="the rotated board's alarm")
    assert [(m["table"], m["text"]) for m in alarms] == [
        ("2", "Board 1 was played rotated at table 2 or table 1: table 2 had the hands of table 1 turned round "
              "(North held the South cards); scored with the others (Law 7)")]
    [call] = console.room.calls.values()
    assert (call.table, call.board, call.law) == ("2", 1, "7")
    t1.finish(8)
    t2.finish(9)
    wait(lambda: len(console.room.travellers.get("1", {})) == 2, what="both results")
    assert console.snapshot()["scores"]["fouled"] == {}  # turned round: one board, scored together
