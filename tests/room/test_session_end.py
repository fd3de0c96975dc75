"""A whole session through the real Mosquitto: three tables (runtime, simulated sensors, link) play
a 3-table Mitchell, two boards a round, every board of every round; the Director's console ends
the session with a ranking computed from the tables' own results, and both exports of it (PBN
score tables and USEBIO 1.2), read back and scored again, rank every pair as the console does.
Each table then holds the final ranking (published at the end of the session, by default).
Waits are bounded polls on a condition, never bare sleeps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from controller import actions as a
from controller.fieldscore import score_event
from controller.records import scoretable, usebio
from controller.seats import Seat
from tablectl.room.console import Console
from tests.room.conftest import Broker
from tests.room.test_link import wait
from tests.room.test_room_results import DEAL, MITCHELL_3, Table
from web_ui.console_results import results_router

MOVEMENT = MITCHELL_3.movement()
SEATS = "NESW"


def play(table: Table, board: int, tricks: int) -> None:
    """The board goes on the table; its dealer opens 1NT, three passes, the Director gives tricks."""
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
    table.rt.submit(a.Adjust(tricks))
    assert table.rt.sync(5)
    table.sim.put_back("1NT", str(dealer))  # the bidding cards go back into their boxes for the next board
    table.clock.now += 0.1
    assert table.rt.sync(5)


@pytest.fixture
def room(club_broker: Broker, tmp_path: Path) -> Iterator[tuple[Console, dict[str, Table]]]:
    console = Console(club_broker.address("console"), tmp_path / "console", session=MITCHELL_3)
    console.start()
    tables = {t: Table(tmp_path / f"table-{t}.sqlite", club_broker.address(t), t, dict.fromkeys(range(1, 7), DEAL))
              for t in ("1", "2", "3")}
    try:
        wait(lambda: console.connected, what="the console to connect")
        yield console, tables
    finally:
        for t in tables.values():
            t.stop()
        console.stop()


def _ranked(standings: Any) -> list[tuple[str, str | None, int | None, float | None]]:
    return [(st.pair, st.direction, st.rank, None if st.percent is None else round(st.percent, 2))
            for st in standings]


def test_the_session_ends_with_a_ranking_from_the_tables_results_that_both_exports_give_back(
        room: tuple[Console, dict[str, Table]]) -> None:
    console, tables = room
    for round_ in (1, 2, 3):
        for sitting in (s for s in MOVEMENT.sittings if s.round == round_):
            for i, board in enumerate(MOVEMENT.boards(sitting.board_set)):
                play(tables[str(sitting.table)], board, 6 + (sitting.table + round_ + i) % 4)
    wait(lambda: sum(len(r) for r in console.room.travellers.values()) == 18, what="the 18 results at the console")
    assert console.settings()["over"] is True and console.room.calls == {}  # nothing out of its round, no foul
    report = console.ranking()
    ours = [(r["pair"], r["direction"], r["rank"], r["percent"]) for r in report["ranking"]]
    assert len(ours) == 6 and all(r["boards"] == 6 for r in report["ranking"])

    app = FastAPI()
    app.include_router(results_router(console, lambda: "the Director"))
    with TestClient(app, base_url="http://testserver") as client:
        pbn = client.get("/api/results.pbn").text
        xml = client.get("/api/results.usebio").content
    [from_pbn] = scoretable.loads(pbn).events
    [from_usebio] = usebio.loads(xml).events
    assert _ranked(score_event(from_pbn).standings) == ours
    assert _ranked(score_event(from_usebio).standings) == ours

    for table in tables.values():  # the ranking is published to the players at the end of the session
        wait(lambda t=table: (t.rt.room_results() or {}).get("ranking"), what="the final ranking at each table")
        held = table.rt.room_results() or {}
        assert held["ended"] is True
        assert [(r["pair"], r["rank"]) for r in held["ranking"]] == [(p, rank) for p, _, rank, _ in ours]


