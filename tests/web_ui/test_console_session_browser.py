"""The console's session panel and a table's players' results page in a real headless Chromium
(Debian's /usr/bin/chromium), on a phone: the Director calls round 1 and its clock runs down from
the session's round time; once it is up, the table that has not played its boards is shown late
(Law 8: the round ends when the Director calls the move); he sets what the players see (the ranking
live) and ends the session. At a table, the players read the travellers of the boards they have
played, their scorecards and the ranking, and never a board the table has not finished."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.controller.test_room_clock import MITCHELL_3
from tests.controller.test_room_results import Tables
from tests.web_ui.conftest import make_app
from tests.web_ui.console_fake import PHONE, FakeConsole, console_settings, director_signed_in
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from tests.web_ui.test_player_results import RoomTable, board_1_passed_out_board_2_in_play, traveller
from web_ui.console import create_console_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")


@pytest.fixture
def console() -> Iterator[tuple[str, FakeConsole]]:
    fake = FakeConsole(session=MITCHELL_3)
    tables = Tables(fake.room, now=fake.wall - 60)
    movement = MITCHELL_3.movement()
    for table in (1, 2, 3):
        boards = next(movement.boards(s.board_set) for s in movement.sittings if s.table == table and s.round == 1)
        tables.start(str(table), boards[0], 0)
        for board in boards if table != 2 else boards[:1]:  # table 2 has a board of round 1 to play
            tables.result(str(table), board, 100 * table)
    with serving(create_console_app(fake, console_settings())) as url:
        yield url, fake


def test_the_director_runs_the_round_clock_sees_the_late_table_and_publishes_the_ranking(
        console: tuple[str, FakeConsole], tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, fake = console
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone, errors = director_signed_in(browser, url)
            expect(phone.locator("#session")).to_contain_text("Rounds of 15 minutes, 3 rounds.")
            phone.click("#clock-start")
            expect(phone.locator("#session .session-clock")).to_contain_text("Round 1 of 3")
            expect(phone.locator("#session .countdown")).to_contain_text("1")  # 15:00 running down
            assert fake.room.clock is not None and fake.room.clock.running
            expect(phone.locator("#late-tables")).to_have_count(0)

            fake.advance(15 * 60 + 30)  # round 1's time is up: table 2 has one board to play
            fake.play("3")  # a table's message: the room is pushed again
            late = phone.locator("#late-tables li")
            expect(late).to_have_count(1)
            expect(late).to_contain_text("Table 2 is late for round 1: 1 of 2 boards played")
            tile = phone.locator("#tiles .tile[data-table='2']")
            expect(tile).to_have_attribute("data-colour", "late")
            expect(tile).to_contain_text("Late for round 1")
            expect(phone.locator("#session .session-clock")).to_contain_text("Round 2 of 3")

            with phone.expect_response("**/api/settings/players") as answer:
                phone.select_option("#players-ranking", "live")
            assert answer.value.ok and fake.room.players.ranking == "live"
            phone.once("dialog", lambda dialog: dialog.accept())  # "End the session?" asked first
            phone.click("#session-end")
            expect(phone.locator("#session-undo")).to_be_visible()  # a minute to take it back
            assert fake.room.ended and fake.room.players.ranking == "live"
            fake.advance(61)
            fake.play("3")  # a table's message: the room is pushed again
            expect(phone.locator("#session-end")).to_have_text("Session ended: reopen it")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the session panel scrolls sideways on a phone ({width}px)"
            phone.locator("#session-panel").screenshot(path=str(tmp_path / "console-session-phone.png"))
            assert errors == []
        finally:
            browser.close()


def test_the_players_read_the_boards_they_played_and_the_ranking_on_a_phone(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    table = RoomTable()
    board_1_passed_out_board_2_in_play(table)
    table.published = {
        "kind": "results", "table": "7", "name": "Club Pairs", "ended": False,
        "settings": {"travellers": True, "ranking": "live"},
        "travellers": [traveller("1"), traveller("2")],  # board 2 is still in play here: never shown
        "released": {"all": False, "boards": ["1", "2"]},
        "scorecards": [{"pair": "1", "section": None, "standing": {"place": "1", "percent": 62.5},
                        "boards": [{"board": "1", "opponents": "4", "contract": "3NT", "declarer": "N",
                                    "result": "=", "score": 400, "points": 3.0}]}],
        "ranking": [{"pair": "1", "direction": "NS", "place": "1", "percent": 62.5, "total": 3.0},
                    {"pair": "2", "direction": "NS", "place": "2", "percent": 37.5, "total": 1.0}]}
    app, _ = make_app(table)
    with serving(app) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone = browser.new_context(**PHONE).new_page()
            errors: list[str] = []
            phone.on("pageerror", lambda exc: errors.append(str(exc)))
            phone.goto(url + "/results")
            expect(phone.locator("#status")).to_have_text("up to date")
            expect(phone.locator("#title")).to_have_text("Results \u00b7 Table 7")
            expect(phone.locator("#travellers .traveller")).to_have_count(1)
            expect(phone.locator(".traveller[data-board='1'] tr.ours")).to_contain_text("1 v 4")
            expect(phone.locator(".traveller[data-board='2']")).to_have_count(0)
            expect(phone.locator("#scorecards caption")).to_have_text("Pair 1 \u00b7 place 1 \u00b7 62.5%")
            expect(phone.locator("#ranking li[data-pair]")).to_have_count(2)
            expect(phone.locator("#ranking li.ours")).to_contain_text("Pair 1")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the results page scrolls sideways on a phone ({width}px)"
            phone.screenshot(path=str(tmp_path / "player-results-phone.png"), full_page=True)
            assert errors == []
        finally:
            browser.close()
