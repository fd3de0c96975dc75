"""No board is seen before it is played: a 3-table Mitchell through the real Mosquitto (passwords
and ACL), every table with its pages. For every board and every table that has still to play it,
nothing of the board (its auction, play, result, traveller, a scorecard's contract) is on any
table's public page (spectator HTTP and WebSocket, table page, results page, public records)
before that table has finished it (Law 16C: information about a board a player has yet to play;
the table page shows the board in progress to the players seated there, nothing once it is over).
Once the last table due to play it has finished it, the board shows everywhere.
Waits are bounded polls on a condition, never bare sleeps."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller import actions as a
from controller.seats import Seat
from tablectl.room.console import Console
from tests.room.conftest import Broker
from tests.room.test_link import wait
from tests.room.test_room_results import DEAL, MITCHELL_3, Table
from web_ui.app import create_app
from web_ui.service import WebSettings

MOVEMENT = MITCHELL_3.movement()
SEATS = "NESW"
TABLES = ("1", "2", "3")
DUE = {b: {str(s.table) for s in MOVEMENT.sittings if b in MOVEMENT.boards(s.board_set)}
       for b in range(1, 7)}
"""board -> the tables the movement gives it to."""

Json = dict[str, Any]


@pytest.fixture
def room(club_broker: Broker, tmp_path: Path) -> Iterator[tuple[Console, dict[str, Table], dict[str, TestClient]]]:
    console = Console(club_broker.address("console"), tmp_path / "console", session=MITCHELL_3)
    console.start()
    tables = {t: Table(tmp_path / f"table-{t}.sqlite", club_broker.address(t), t, dict.fromkeys(range(1, 7), DEAL))
              for t in TABLES}
    try:
        with ExitStack() as stack:
            pages = {t: stack.enter_context(TestClient(create_app(
                table.rt, WebSettings(check_pin=lambda pin: False, table_name=f"Table {t}", hosts=("testserver",),
                                      public_records="finished_boards")), base_url="http://testserver"))
                for t, table in tables.items()}
            wait(lambda: console.connected, what="the console to connect")
            yield console, tables, pages
    finally:
        for t in tables.values():
            t.stop()
        console.stop()


def bid_and_play(table: Table, board: int, tricks: int, *, midway: Any = None) -> None:
    """The board on the table, its dealer opens 1NT, three passes; ``midway()``; the Director gives tricks."""
    table.start(board)
    dealer = Seat.parse(SEATS[(board - 1) % 4])
    seats = [dealer, dealer.lho, dealer.partner, dealer.rho]
    for slot, seat in zip(("1NT", "Pass", "Pass", "Pass"), seats, strict=True):
        table.sim.pull(slot, str(seat))
        table.clock.now += 2.0
        assert table.rt.sync(5)
        if slot == "Pass":
            table.sim.put_back(slot, str(seat))
            table.clock.now += 0.1
            assert table.rt.sync(5)
    if midway is not None:
        midway()
    table.rt.submit(a.Adjust(tricks))
    assert table.rt.sync(5)
    table.sim.put_back("1NT", str(dealer))
    table.clock.now += 0.1
    assert table.rt.sync(5)


def seen(pages: dict[str, TestClient]) -> dict[str, set[int]]:
    """Per table, the boards its public pages show anything of (board in view, result, traveller,
    a scorecard row with its contract, a record)."""
    out: dict[str, set[int]] = {}
    for t, client in pages.items():
        boards: set[int] = set()
        for path in ("/api/spectator", "/api/table"):
            view = client.get(path).json()
            # the table page shows the board its own players are playing, and nothing once it is over there
            if view.get("board") and (path == "/api/spectator" or view["board"]["phase"] == "done"):
                boards.add(view["board"]["number"])
            boards.update(b["number"] for b in (view.get("score") or {}).get("boards") or [])
        with client.websocket_connect("/ws/spectator") as ws:
            view = json.loads(ws.receive_text())
            if view.get("board"):
                boards.add(view["board"]["number"])
        results = client.get("/api/results").json()
        boards.update(int(x["board"]) for x in results["travellers"])
        boards.update(int(row["board"]) for card in results["scorecards"] for row in card["boards"]
                      if row.get("contract") is not None or row.get("score") is not None)
        records = client.get("/api/records.pbn")
        if records.status_code == 200:
            boards.update(int(line.split('"')[1]) for line in records.text.splitlines() if line.startswith("[Board "))
        out[t] = boards
    return out


def in_step(console: Console, tables: dict[str, Table]) -> None:
    """Every table holds what the console publishes now (its released boards)."""
    def same() -> bool:
        released = console.snapshot().get("released")
        return all((t.rt.room_results() or {}).get("released") == released for t in tables.values())
    wait(same, what="every table to hold the console's released boards")


def test_no_table_shows_a_board_before_every_table_due_to_play_it_has_finished_it_law_16c(
        room: tuple[Console, dict[str, Table], dict[str, TestClient]]) -> None:
    console, tables, pages = room
    finished: dict[int, set[str]] = {b: set() for b in DUE}
    exposed: list[tuple[int, str, str]] = []
    checks = 0

    def check(playing: tuple[str, int] | None = None) -> None:
        nonlocal checks
        in_step(console, tables)
        for table, boards in seen(pages).items():
            for board in boards:
                later = DUE[board] - finished[board]
                if later:  # a table has still to play it: no page may show it
                    exposed.append((board, table, ",".join(sorted(later))))
            checks += 1
        if playing is not None:  # the board in play shows on no spectator page, its own table's either
            table, board = playing
            view = pages[table].get("/api/spectator").json()
            assert view["board"] is None and view["held_back"]["board"] == board

    check()
    for round_ in (1, 2, 3):
        for sitting in (s for s in MOVEMENT.sittings if s.round == round_):
            t = str(sitting.table)
            for i, board in enumerate(MOVEMENT.boards(sitting.board_set)):
                bid_and_play(tables[t], board, 6 + (sitting.table + round_ + i) % 4,
                             midway=lambda t=t, board=board: check((t, board)))
                finished[board].add(t)
                wait(lambda t=t, board=board: t in console.room.travellers.get(str(board), {}),
                     what=f"table {t}'s board {board} at the console")
                check()
    assert exposed == [], f"boards seen before a later table played them (board, seen at, still due at): {exposed}"
    assert checks >= 18 * 3
    # every table has played everything: every board is released, and shows where it was played
    wait(lambda: all(len((t.rt.room_results() or {}).get("travellers") or []) == 6 for t in tables.values()),
         what="every traveller at every table")
    assert all(boards == set(range(1, 7)) for boards in seen(pages).values())


def test_a_table_in_the_room_shows_nothing_before_the_console_has_said_what_is_released(
        club_broker: Broker, tmp_path: Path) -> None:
    table = Table(tmp_path / "table-1.sqlite", club_broker.address("1"), "1", {1: DEAL})
    try:
        table.start(1)
        client = TestClient(create_app(table.rt, WebSettings(check_pin=lambda pin: False, hosts=("testserver",))),
                            base_url="http://testserver")
        with client:
            view = client.get("/api/spectator").json()
        assert view["board"] is None and view["held_back"]["text"].startswith("Board 1 is still to be played")
    finally:
        table.stop()
