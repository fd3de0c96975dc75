"""The players' results through the real Mosquitto with the club's passwords and ACL: the console
sends each table (``results``, retained) what its players may see, the table's link keeps it, and
the table's results page serves it. A player never gets the traveller of a board his table has not
finished (it would tell him the deal of a board he may still play); the Director's settings (the
ranking live, at the end, never; travellers off) reach the tables and outlive a console restart.
Waits are bounded polls on a condition, never bare sleeps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.room.console import UNDO_SECONDS
from tablectl.room.console import Console
from tests.room.conftest import Broker, WallClock
from tests.room.test_link import wait
from tests.room.test_room_results import DEAL, MITCHELL_3, Table
from web_ui.app import create_app
from web_ui.service import WebSettings

Json = dict[str, Any]


@pytest.fixture
def tables(club_broker: Broker, tmp_path: Path) -> Iterator[dict[str, Table]]:
    # the 3-table Mitchell's round 1: table 1 plays boards 1-2, table 3 boards 5-6 (N deals 1 and 5)
    made = {t: Table(tmp_path / f"table-{t}.sqlite", club_broker.address(t), t, {b: DEAL})
            for t, b in (("1", 1), ("3", 5))}
    try:
        yield made
    finally:
        for t in made.values():
            t.stop()


def held(table: Table) -> Json:
    return table.rt.room_results() or {}


def page(table: Table) -> Json:
    app = create_app(table.rt, WebSettings(check_pin=lambda pin: False, table_name=f"Table {table.link.table}",
                                           hosts=("testserver",)))
    with TestClient(app, base_url="http://testserver") as client:
        got: Json = client.get("/api/results").json()
    return got


def test_each_table_gets_the_travellers_of_the_boards_it_finished_and_never_another_tables(
        console: Console, tables: dict[str, Table]) -> None:
    t1, t3 = tables["1"], tables["3"]
    t1.start(1)
    t3.start(5)
    t3.finish(9)  # table 3 has finished board 5, which table 1 will play in a later round
    wait(lambda: "5" in console.room.travellers, what="table 3's result at the console")
    wait(lambda: held(t3).get("boards") == ["5"], what="table 3's traveller at table 3")
    assert held(t1).get("boards") == [] and page(t1)["travellers"] == []
    t1.finish(8)
    wait(lambda: held(t1).get("boards") == ["1"], what="table 1's board 1 at table 1")
    got = page(t1)
    # tables 2 and 3 have still to play board 1: nothing of it yet, not even to the pairs who played it (Law 16C)
    assert got["available"] is True and got["travellers"] == []
    assert [(c["pair"], [(b["board"], b["held"], b["contract"]) for b in c["boards"]]) for c in got["scorecards"]] \
        == [("1", [("1", True, None)]), ("4", [("1", True, None)])]
    assert got["ranking"] is None and all(c["standing"] is None for c in got["scorecards"])  # the ranking: at the end
    console.release("1")  # the Director shows it before the other tables have played it
    wait(lambda: [t["board"] for t in page(t1)["travellers"]] == ["1"], what="board 1 released at table 1")
    assert [b.get("held") for c in page(t1)["scorecards"] for b in c["boards"]] == [None, None]
    assert all(t["board"] != "5" for t in held(t1)["travellers"])


def test_the_directors_settings_reach_the_tables_and_outlive_a_console_restart(
        club_broker: Broker, tmp_path: Path, tables: dict[str, Table]) -> None:
    t1 = tables["1"]
    first = Console(club_broker.address("console"), tmp_path / "console", session=MITCHELL_3)
    first.start()
    try:
        wait(lambda: first.connected, what="the console to connect")
        t1.start(1)
        t1.finish(8)
        wait(lambda: held(t1).get("boards") == ["1"], what="table 1's traveller")
        first.set_players(True, "live")
        wait(lambda: held(t1).get("ranking"), what="the live ranking at table 1")
        first.set_players(False, "never")
        wait(lambda: held(t1).get("settings") == {"travellers": False, "ranking": "never"}, what="travellers off")
        assert held(t1)["travellers"] == [] and held(t1)["ranking"] is None
    finally:
        first.stop()
    wall = WallClock()
    again = Console(club_broker.address("console"), tmp_path / "console", session=MITCHELL_3, wall=wall)
    try:
        assert again.settings()["players"] == {"travellers": False, "ranking": "never"}
        again.start()
        wait(lambda: again.connected, what="the console to connect again")
        again.end_session()
        wall.now += UNDO_SECONDS  # the Director's minute to take it back is over
        wait(lambda: held(t1).get("ended") is True, what="the session's end at table 1")
        assert held(t1)["ranking"] is None and held(t1)["travellers"] == []
    finally:
        again.stop()
