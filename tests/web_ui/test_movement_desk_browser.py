"""The movement changed at the Director's desk, in a real headless Chromium (/usr/bin/chromium) at phone
width over a real SQLite file: two East-West pairs went to each other's tables from round 2 of a
Mitchell; the scorer swaps them from round 2 on (as a Bridgemate scorer does in EBUScore), the change is
listed with who and why, the travellers name the pairs who played each board before and after the move,
and Undo brings the planned movement back."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from controller.fieldscore import loads_session
from tests.controller.test_room_results import Tables
from tests.web_ui.console_fake import FakeConsole, console_settings, director_signed_in
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from web_ui.console import create_console_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")

SESSION = loads_session('[session]\nname = "Club Pairs"\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\n')
"""Round 1: table 2 is 2 v 5 on boards 3-4; round 2: table 2 is 2 v 4 on boards 5-6, table 3 is 3 v 5
on boards 1-2."""
WAIT = 20_000  # ms: a loaded machine may take its time; every wait is on a condition


def test_two_pairs_at_each_others_tables_are_swapped_at_phone_width_and_the_travellers_follow(tmp_path: Path) -> None:
    """Scoring practice (EBUScore's pair swap): a board keeps the pairs who played it, before and after."""
    from playwright.sync_api import Page, expect, sync_playwright

    fake = FakeConsole(session=SESSION, data_dir=tmp_path / "console")
    tables = Tables(fake.room, now=fake.wall - 1200)
    movement = SESSION.movement()
    for rnd in (1, 2, 3):
        for table in (1, 2, 3):
            sitting = next(s for s in movement.sittings if s.table == table and s.round == rnd)
            for board in movement.boards(sitting.board_set):
                tables.result(str(table), board, 420 if (board + table) % 2 else 450)

    def pairs_at(page: Page, board: int, table: int, words: str) -> None:
        cell = page.locator(f"table.traveller[data-board='{board}'] tr[data-table='{table}'] small.pairs")
        expect(cell).to_have_text(words, timeout=WAIT)

    with serving(create_console_app(fake, console_settings())) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone, errors = director_signed_in(browser, url, timeout=WAIT)
            pairs_at(phone, 3, 2, "2 v 5")  # round 1
            pairs_at(phone, 5, 2, "2 v 4")  # round 2, as planned
            expect(phone.locator("#moves-history")).to_contain_text("Played as planned", timeout=WAIT)
            phone.select_option("#moves-kind", "swap")
            phone.fill("#moves-a", "4")
            phone.fill("#moves-b", "5")
            phone.fill("#moves-from", "2")
            phone.fill("#moves-reason", "pairs 4 and 5 went to each other's tables")
            phone.click("#moves-save")
            change = phone.locator("#moves-history li[data-move='1']")
            expect(change).to_contain_text("pairs 4 and 5 swapped places from round 2 on", timeout=WAIT)
            expect(change).to_contain_text("pairs 4 and 5 went to each other's tables (Director")
            pairs_at(phone, 3, 2, "2 v 5")  # round 1: before the move, unchanged
            pairs_at(phone, 5, 2, "2 v 5")  # round 2: after it
            pairs_at(phone, 1, 3, "3 v 4")
            phone.select_option("#moves-round", "2")  # who sits where in round 2, as the movement now stands
            expect(phone.locator("#moves-sittings li[data-table='2']")).to_have_text("Table 2: 2 v 5, boards 5-6")
            expect(phone.locator("#moves-sittings li[data-table='3']")).to_have_text("Table 3: 3 v 4, boards 1-2")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the console scrolls sideways on a phone ({width}px)"
            phone.locator("#people-panel").screenshot(path=str(tmp_path / "movement-phone.png"))

            phone.fill("#moves-from", "0")  # refused by the page's server: nothing changes
            phone.fill("#moves-reason", "a bad round")
            phone.click("#moves-save")
            expect(phone.locator("#moves-error")).not_to_have_text("", timeout=WAIT)
            expect(phone.locator("#moves-history li[data-move]")).to_have_count(1)

            change.locator(".moves-undo").click()
            expect(phone.locator("#moves-history li[data-move='2']")).to_contain_text("change 1 taken back",
                                                                                     timeout=WAIT)
            pairs_at(phone, 5, 2, "2 v 4")
            assert errors == []
        finally:
            browser.close()
