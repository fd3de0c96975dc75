"""The players panel in a real headless Chromium (/usr/bin/chromium) at phone width, over real
SQLite files: the Director imports the club's roster (a bad file refused whole with its bad
lines named, then a good one), names pair 1 from the roster, seats a substitute from round 3
on; the ranking, the travellers and the scorecard show the names of each round, and the pair
keeps its number and its score."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from controller.fieldscore import loads_session
from controller.records.people import PairPlayers, Player
from tests.controller.test_room_results import Tables
from tests.web_ui.console_fake import FakeConsole, console_settings, director_signed_in
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from web_ui.console import create_console_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")

SESSION = loads_session('[session]\nname = "Club Pairs"\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\n')
GOOD = b"Name,EBU number,Email,Club\nAnn Smith,123456,ann@example.org,Riverside\nBob Jones,234567,,\n" \
       b"Carl Wu,345678,,\nDee Patel,456789,,\n"
BAD = b"Name,EBU number\nAnn Smith,123456\n,234567\nCarl Wu,34 56\n"


def test_the_director_imports_a_roster_names_a_pair_and_seats_a_substitute_on_a_phone(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    fake = FakeConsole(session=SESSION, data_dir=tmp_path / "console")
    tables = Tables(fake.room, now=fake.wall - 1200)
    movement = SESSION.movement()
    for rnd in (1, 2, 3):
        for table in (1, 2, 3):
            sitting = next(s for s in movement.sittings if s.table == table and s.round == rnd)
            for i, board in enumerate(movement.boards(sitting.board_set)):
                tables.result(str(table), board, [420, 450, -50, 100, 620, 400][(3 * table + rnd + i) % 6])
    before = next(r for r in fake.room.results.ranking() if r["pair"] == "1")
    with serving(create_console_app(fake, console_settings())) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone, errors = director_signed_in(browser, url)
            expect(phone.locator("#roster-count")).to_have_text("Club roster: 0 members")

            phone.set_input_files("#roster-file", files=[{"name": "club.csv", "mimeType": "text/csv", "buffer": BAD}])
            problems = phone.locator("#roster-problems li")
            expect(problems).to_have_count(2)
            expect(problems.nth(0)).to_have_text("line 3: the name is empty")
            expect(problems.nth(1)).to_contain_text("line 4: the federation number '34 56'")
            expect(phone.locator("#roster-count")).to_have_text("Club roster: 0 members")  # nothing half imported

            phone.set_input_files("#roster-file", files=[{"name": "club.csv", "mimeType": "text/csv", "buffer": GOOD}])
            expect(phone.locator("#people-info")).to_have_text("Roster imported: 4 added, 0 updated, 4 members.")
            expect(phone.locator("#roster-count")).to_have_text("Club roster: 4 members")

            pair = phone.locator("#people-pairs li[data-pair='1']")
            expect(pair).to_contain_text("not named")
            pair.locator(".people-name").click()
            phone.fill("#people-first", "Ann Smith (123456)")  # picked from the roster's list
            phone.fill("#people-second", "bob jones")  # typed: the member of that name
            phone.click("#people-save")
            expect(pair).to_contain_text("Ann Smith & Bob Jones")

            pair.locator(".people-sub").click()
            phone.fill("#people-round", "3")
            phone.select_option("#people-seat", "second")
            phone.fill("#people-sub", "Visitor Vic")  # a visitor, not on the roster
            phone.click("#people-save")
            expect(pair).to_contain_text("from round 3: Ann Smith & Visitor Vic")

            ann, bob = Player("Ann Smith", "123456"), Player("Bob Jones", "234567")
            assert fake.people.players(None, "1", 2) == PairPlayers(ann, bob)
            assert fake.people.players(None, "1", 3) == PairPlayers(ann, Player("Visitor Vic"))
            with sqlite3.connect(tmp_path / "console" / "console.sqlite") as db:
                assert db.execute("SELECT count(*) FROM seat").fetchone()[0] == 2

            row = phone.locator("#ranking li[data-pair='1']")
            expect(row.locator(".pair-names")).to_have_text("Ann Smith & Visitor Vic")
            after = next(r for r in fake.room.results.ranking() if r["pair"] == "1")
            assert (after["total"], after["boards"]) == (before["total"], before["boards"])  # same pair, same score
            row.locator(".rank-row").click()
            card = phone.locator("table.scorecard[data-pair='1']")
            expect(card.locator("caption .pair-names")).to_have_text("Ann Smith & Visitor Vic")
            # the travellers: pair 1 sits North-South at table 1 all session; its names are the round's
            at_one = {s.round: movement.boards(s.board_set)[0] for s in movement.sittings if s.table == 1}
            first_board, third_board = at_one[1], at_one[3]
            cell = "table.traveller[data-board='{}'] tr[data-table='1'] .pair-names"
            expect(phone.locator(cell.format(first_board)).first).to_have_text("Ann Smith & Bob Jones")
            expect(phone.locator(cell.format(third_board)).first).to_have_text("Ann Smith & Visitor Vic")

            # pair 4 played every board: a late pair with nothing missed is refused, the desk unchanged
            phone.locator("#people-pairs li[data-pair='4'] .people-absent").click()
            phone.fill("#people-to", "1")
            phone.click("#people-save")
            expect(phone.locator("#people-error")).to_contain_text("pair 4 has no board left to adjust in rounds 1-1")
            assert fake.room.results.desk.entries == ()

            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the players panel scrolls sideways on a phone ({width}px)"
            phone.locator("#people-panel").screenshot(path=str(tmp_path / "console-people-phone.png"))
            assert errors == []
        finally:
            browser.close()
