"""The scoring desk in a real headless Chromium (/usr/bin/chromium) at phone width: the Director taps
"Correct / adjust" on a traveller's row, gives an artificial score to each side (Law 12C2) and a
split score (Law 12C1(c)), sees a result that cannot be refused with its reason, and takes an
entry back; the history shows every entry with who and why, and the scores follow; a correction says when
the table's own log has taken it (Law 79C)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.controller.test_room_results import Tables
from tests.web_ui.console_fake import FakeConsole, console_settings, director_signed_in
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from web_ui.console import create_console_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")


def test_the_director_adjusts_a_board_splits_a_score_and_takes_an_entry_back_on_a_phone(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    fake = FakeConsole()
    tables = Tables(fake.room, now=fake.wall - 60)
    for table, score in (("1", 400), ("2", 400), ("3", -50)):
        tables.result(table, 1, score, pairs={"NS": table, "EW": table + "0"})
    with serving(create_console_app(fake, console_settings())) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone, errors = director_signed_in(browser, url)
            row = "table.traveller[data-board='1'] tr[data-table='{}'] .desk-open"

            phone.click(row.format("2"))
            expect(phone.locator("#desk-where")).to_have_text("Board 1, table 2")
            phone.select_option("#desk-kind", "artificial")
            phone.select_option("#desk-ns", "A+")
            phone.select_option("#desk-ew", "A-")
            phone.fill("#desk-reason", "the board was fouled at this table")
            phone.fill("#desk-by", "Ann")
            phone.click("#desk-record")
            first = phone.locator("#desk-history li[data-entry='1']")
            expect(first).to_contain_text("average plus to North-South, average minus to East-West")
            expect(first).to_contain_text("the board was fouled at this table (Ann")

            phone.click(row.format("3"))
            phone.select_option("#desk-kind", "correction")
            phone.fill("#desk-contract", "9S")
            phone.fill("#desk-tricks", "9")
            phone.fill("#desk-reason", "wrong contract")
            phone.click("#desk-record")
            expect(phone.locator("#desk-error")).to_contain_text("invalid contract")
            assert len(fake.room.results.desk.entries) == 1

            phone.select_option("#desk-kind", "assigned")
            phone.fill("#desk-1-contract", "4S")
            phone.fill("#desk-1-tricks", "10")
            phone.fill("#desk-1-weight", "30")
            phone.fill("#desk-2-contract", "4S")
            phone.fill("#desk-2-tricks", "9")
            phone.fill("#desk-2-weight", "70")
            phone.fill("#desk-reason", "misinformation: 4S likely")
            phone.click("#desk-record")
            expect(phone.locator("#desk-history li[data-entry='2']")).to_contain_text("4S= by N 30%, 4S-1 by N 70%")

            phone.click("#desk-history li[data-entry='1'] .desk-undo")
            expect(first).to_contain_text("(taken back)")
            expect(phone.locator("#desk-history li[data-entry='3']")).to_contain_text("entry 1 taken back")
            scores = fake.room.results.scores()["boards"]["1"]
            # table 3's split: 0.3 x (420 beats both 400s: 4) + 0.7 x (-50 below both: 0) of a top of 4
            assert scores["3"]["points_ns"] == 1.2 and scores["2"]["points_ns"] == 2.4

            # a correction goes to the table's own log (Law 79C): the history says when the table has taken it
            phone.click(row.format("1"))
            phone.select_option("#desk-kind", "correction")
            phone.fill("#desk-contract", "4S")
            phone.select_option("#desk-declarer", "N")
            phone.fill("#desk-tricks", "9")
            phone.fill("#desk-reason", "the table entered 10 tricks")
            phone.click("#desk-record")
            correction = phone.locator("#desk-history li[data-entry='4']")
            expect(correction).to_contain_text("not in the table's log yet")
            with fake._lock:
                fake._receive("alert", "1", fake._envelope("1", {
                    "alert": "desk", "entry": 4, "board": 1, "kind": "correction", "accepted": True,
                    "what": "the Director's correction 4 of board 1 is in the table's log"}))
            expect(correction).to_contain_text("in the table's log")
            expect(correction).not_to_contain_text("not in the table's log yet")

            fake.play("4")  # a table's message: the room is pushed again, with the desk's travellers
            marks = "table.traveller[data-board='1'] tr.desk-mark-row[data-for='{}']"
            expect(phone.locator(marks.format("3"))).to_have_text("adjusted 420 30%, -50 70%")
            expect(phone.locator(marks.format("2"))).to_have_count(0)  # its A+/A- was taken back
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the desk scrolls sideways on a phone ({width}px)"
            phone.locator("#desk-panel").screenshot(path=str(tmp_path / "console-desk-phone.png"))
            phone.locator("#results-panel").screenshot(path=str(tmp_path / "console-travellers-phone.png"))
            assert errors == []
        finally:
            browser.close()
