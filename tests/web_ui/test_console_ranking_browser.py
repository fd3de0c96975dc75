"""The console's ranking in a real headless Chromium (Debian's /usr/bin/chromium), on a phone:
the room's results ranked live, North-South and East-West apart in a Mitchell, a pair's
scorecard when its row is tapped, the travellers with each table's pairs and points, and a
fouled board (Law 87) on the queue, on its table's tile and on its traveller."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.fieldscore import loads_session
from controller.room.console import Room
from tests.controller.test_room_results import DEAL, OTHER, Tables
from tests.web_ui.console_fake import CLUB, PIN, FakeConsole, console_settings, director_signed_in
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from web_ui.console import create_console_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")

SESSION = loads_session('[session]\nname = "Club Pairs"\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\n')


@pytest.fixture
def console() -> Iterator[tuple[str, FakeConsole]]:
    fake = FakeConsole()
    fake.room = Room(CLUB, session=SESSION)
    tables = Tables(fake.room, now=fake.wall - 1200)
    movement = SESSION.movement()
    for rnd in (1, 2, 3):
        for table in (1, 2, 3):
            sitting = next(s for s in movement.sittings if s.table == table and s.round == rnd)
            for i, board in enumerate(movement.boards(sitting.board_set)):
                score = [420, 450, -50, 100, 620, 400][(3 * table + rnd + i) % 6]
                tables.result(str(table), board, score, deal=OTHER if (board, table) == (1, 2) else DEAL)
    with serving(create_console_app(fake, console_settings())) as url:
        yield url, fake


def test_the_director_reads_the_ranking_and_a_pairs_scorecard_on_a_phone(console: tuple[str, FakeConsole],
                                                                          tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, fake = console
    ranking = fake.room.results.ranking()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone, errors = director_signed_in(browser, url)

            # two fields, each pair with its place, percentage and boards
            expect(phone.locator("#ranking-how")).to_have_text("matchpoints \u00b7 Club Pairs (mitchell)")
            expect(phone.locator("#ranking .field-name")).to_have_text(["North-South", "East-West"])
            rows = phone.locator("#ranking li")
            expect(rows).to_have_count(6)
            first = ranking[0]
            expect(rows.nth(0).locator(".rank-pair")).to_have_text(f"Pair {first['pair']}")
            expect(rows.nth(0).locator(".rank-value")).to_have_text(f"{first['percent']:.2f}%")
            expect(rows.nth(0).locator(".rank-place")).to_have_text(first["place"])

            # tapping a pair shows its scorecard under its row; tapping again closes it
            pair_4 = phone.locator("#ranking li[data-pair='4']")
            pair_4.locator(".rank-row").click()
            card = pair_4.locator(".scorecard")
            expect(card).to_be_visible()
            expect(card.locator("tr[data-board]")).to_have_count(6)
            standing = next(r for r in ranking if r["pair"] == "4")
            expect(card.locator("caption")).to_contain_text(f"Pair 4 \u00b7 East-West \u00b7 {standing['place']}")
            expect(card.locator("tr.total .points")).to_have_text(str(round(standing["total"], 2)).removesuffix(".0"))
            expect(card.locator("tr[data-board='1']")).to_contain_text("3NT")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the ranking scrolls sideways on a phone ({width}px)"
            phone.screenshot(path=str(tmp_path / "ranking-phone.png"), full_page=True)
            pair_4.locator(".rank-row").click()
            expect(card).to_have_count(0)
            desktop = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            desktop.goto(url + "/")
            desktop.fill("#pin", PIN)
            desktop.click("#login-button")
            expect(desktop.locator("#status")).to_have_text("live")
            desktop.locator("#ranking li[data-pair='2'] .rank-row").click()
            expect(desktop.locator("#ranking .scorecard")).to_be_visible()
            desktop.screenshot(path=str(tmp_path / "ranking-desktop.png"), full_page=True)

            # board 1 was dealt otherwise at table 2: on the queue, on its tile, and scored apart
            expect(phone.locator("#calls")).to_contain_text(
                "Board 1 is fouled: table 1 and table 2 have different deals (Law 87)")
            expect(phone.locator("#tiles .tile[data-table='2']")).to_contain_text("Board 1 fouled (Law 87)")
            traveller = phone.locator(".traveller[data-board='1']")
            expect(traveller.locator("caption")).to_contain_text("fouled (Law 87)")
            expect(traveller.locator("tr[data-table='2']")).to_contain_text("deal 1b")
            expect(traveller.locator("tr[data-table='2']")).to_contain_text("2 v 6")
            expect(traveller.locator("tr[data-table='1'] .points")).not_to_be_empty()
            assert errors == []
        finally:
            browser.close()
