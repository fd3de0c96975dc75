"""The console's print and export buttons (web_ui/static/console.print.js) in a real headless Chromium
on a phone: before any result each button says so in words; once the tables have played, the PBN
download is the file the console serves and the results page goes to the print dialog."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.controller.test_room_clock import MITCHELL_3
from tests.controller.test_room_results import Tables
from tests.web_ui.console_fake import PHONE, FakeConsole, console_settings, director_signed_in
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from web_ui.console import create_console_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")

DOWNLOADING_PHONE = {**PHONE, "accept_downloads": True}


def test_the_director_prints_and_downloads_the_results_from_his_phone(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    fake = FakeConsole(session=MITCHELL_3)
    with serving(create_console_app(fake, console_settings())) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone, errors = director_signed_in(browser, url, DOWNLOADING_PHONE)
            expect(phone.locator("#print-actions button")).to_have_count(7)
            phone.click("#pbn-results")
            expect(phone.locator("#print-note")).to_have_text("Results PBN: no board has a result yet")

            tables = Tables(fake.room, now=fake.wall - 60)
            movement = MITCHELL_3.movement()
            with fake._lock:
                for table in (1, 2, 3):
                    boards = next(movement.boards(s.board_set) for s in movement.sittings
                                  if s.table == table and s.round == 1)
                    for board in boards:
                        tables.result(str(table), board, 100 * table)
            with phone.expect_download() as got:
                phone.click("#pbn-results")
            path = tmp_path / got.value.suggested_filename
            got.value.save_as(path)
            assert path.suffix == ".pbn" and "[TotalScoreTable" in path.read_text(encoding="utf-8")
            expect(phone.locator("#print-note")).to_contain_text("Results PBN: saved as")

            phone.evaluate("window.print = () => { window.__printed = true; }")  # no dialog in a headless run
            phone.click("#print-results")
            frame = phone.frame_locator("iframe.print-frame")
            expect(frame.locator("table.ranking")).to_be_attached()
            expect(phone.locator("#print-note")).to_contain_text("sent to the print dialog")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the console scrolls sideways on a phone ({width}px)"
            phone.locator("#print-panel").screenshot(path=str(tmp_path / "console-print-phone.png"))
            page = phone.context.new_page()  # the printable page itself, read on the phone
            page.goto(url + "/api/results.html")
            expect(page.locator("table.traveller")).to_have_count(6)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the printable results scroll sideways on a phone ({width}px)"
            page.screenshot(path=str(tmp_path / "results-page-phone.png"), full_page=True)
            assert errors == []
        finally:
            browser.close()
