"""The players at a table name themselves on the table page before the first board, and the names
reach the Director's Players panel: real Mosquitto with the club's passwords and ACL, the real
console, real Chromium at a phone's 390 px. The roster the table page offers carries names and
federation numbers only; the Director's own entry wins over the players'."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.records.people import Player
from tablectl.room.console import Console
from tests.room.conftest import Broker
from tests.room.test_link import wait
from tests.room.test_room_results import DEAL, MITCHELL_3, Table
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from web_ui.app import create_app
from web_ui.service import WebSettings

Json = dict[str, Any]
ROSTER = ("Name,EBU number,Email,Club\nAnn Smith,123456,ann@example.org,Riverside\n"
          "Bob Jones,234567,bob@example.org,Hillside\n")


@pytest.fixture
def room(club_broker: Broker, tmp_path: Path) -> Iterator[tuple[Console, Table]]:
    console = Console(club_broker.address("console"), tmp_path / "console", session=MITCHELL_3)
    console.start()
    wait(lambda: console.connected, what="the console to connect")
    console.people.import_roster(ROSTER)
    console.people_changed()
    table = Table(tmp_path / "table-1.sqlite", club_broker.address("1"), "1", {1: DEAL})
    try:
        wait(lambda: len(table.rt.room_roster()) == 2, what="the roster at the table")
        yield console, table
    finally:
        table.stop()
        console.stop()


def _app(table: Table) -> Any:
    return create_app(table.rt, WebSettings(check_pin=lambda pin: False, table_name="Table 1",
                                            hosts=("testserver", "127.0.0.1")))


def _pair(console: Console, pair: str) -> list[str] | None:
    players = console.people.players(None, pair)
    return None if players is None else [players.first.name, players.second.name]


def test_the_roster_a_table_page_gets_carries_names_and_numbers_only(room: tuple[Console, Table]) -> None:
    _, table = room
    with TestClient(_app(table), base_url="http://testserver") as client:
        got = client.get("/api/table/roster").json()
    assert got == {"members": [{"name": "Ann Smith", "federation_id": "123456"},
                               {"name": "Bob Jones", "federation_id": "234567"}]}
    assert "@" not in json.dumps(table.rt.room_roster()) and "Riverside" not in json.dumps(table.rt.room_roster())


def test_players_name_themselves_on_a_phone_and_the_directors_players_panel_shows_them(
        room: tuple[Console, Table]) -> None:
    from playwright.sync_api import expect, sync_playwright

    console, table = room
    with serving(_app(table)) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                        has_touch=True).new_page()
            phone.goto(url + "/")
            expect(phone.locator("#players-panel")).to_be_visible()
            expect(phone.locator("#roster-list option")).to_have_count(2)
            assert "ann@example.org" not in phone.content()
            phone.fill("input[name=N]", "123456")  # picked by federation number
            phone.fill("input[name=S]", "Bob Jones (234567)")  # picked from the list
            phone.fill("input[name=E]", "Carl Wu")  # typed: a visitor needs no number
            phone.fill("input[name=W]", "Dee  Visitor ")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the table page scrolls sideways on a phone ({width}px)"
            phone.click("#players-send")
            expect(phone.locator("#players-info")).to_have_text(
                "Thank you, sent to the Director: North Ann Smith, South Bob Jones, East Carl Wu, West Dee Visitor")
            wait(lambda: _pair(console, "1") and _pair(console, "4"), what="the names in the Players panel")
            assert _pair(console, "1") == ["Ann Smith", "Bob Jones"]  # table 1, round 1: NS pair 1, EW pair 4
            assert _pair(console, "4") == ["Carl Wu", "Dee Visitor"]
            assert console.people.players(None, "1").first.federation_id == "123456"  # type: ignore[union-attr]
            table.start(1)  # the first board: the panel goes, the Director names them from now on
            expect(phone.locator("#players-panel")).to_be_hidden()
        finally:
            browser.close()


def test_the_directors_own_entry_wins_over_the_players(room: tuple[Console, Table]) -> None:
    console, table = room
    console.people.name_pair(None, "1", Player("Eve Adams"), Player("Fay Brown"))
    with TestClient(_app(table), base_url="http://testserver") as client:
        answer = client.post("/api/table/players", json={
            "N": {"name": "Ann Smith", "federation_id": "123456"}, "S": {"name": "Bob Jones"},
            "E": {"name": "Carl Wu"}, "W": {"name": "Dee Visitor"}})
    assert answer.status_code == 200
    wait(lambda: _pair(console, "4") is not None, what="the East-West names at the console")
    assert _pair(console, "1") == ["Eve Adams", "Fay Brown"]
    assert _pair(console, "4") == ["Carl Wu", "Dee Visitor"]


def test_once_the_first_board_has_begun_the_players_ask_the_director(room: tuple[Console, Table]) -> None:
    _, table = room
    table.start(1)
    with TestClient(_app(table), base_url="http://testserver") as client:
        assert client.get("/api/table/players").json()["open"] is False
        answer = client.post("/api/table/players", json={"N": {"name": "A"}, "S": {"name": "B"}})
        one_player = client.post("/api/table/players", json={"N": {"name": "A"}})
    assert answer.status_code == 409 and "ask the Director" in answer.json()["detail"]
    assert one_player.status_code == 409
    assert table.rt.players_named() == {}


def test_a_pair_half_named_or_a_request_from_another_site_changes_nothing(room: tuple[Console, Table]) -> None:
    _, table = room
    with TestClient(_app(table), base_url="http://testserver") as client:
        half = client.post("/api/table/players", json={"N": {"name": "Ann Smith"}, "E": {"name": "Carl Wu"}})
        foreign = client.post("/api/table/players", headers={"Origin": "https://evil.example"},
                              json={"N": {"name": "A"}, "S": {"name": "B"}})
        bad_number = client.post("/api/table/players", json={"N": {"name": "A", "federation_id": "12 34"},
                                                             "S": {"name": "B"}})
    assert half.status_code == 422 and "both players of a pair" in half.json()["detail"]
    assert foreign.status_code == 403 and bad_number.status_code == 422
    assert table.rt.players_named() == {}
