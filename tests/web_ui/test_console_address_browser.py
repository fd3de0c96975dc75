"""The console's address names the table shown (``#table-3``), in a real headless Chromium: an
address typed or followed to a table opens that table, a reload stays on it, and the back button
returns to the room."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.web_ui.console_fake import PIN, FakeConsole, console_settings
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from tests.web_ui.test_console_browser import PHONE, a_room
from web_ui.console import create_console_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")


@pytest.fixture
def console() -> Iterator[str]:
    fake = FakeConsole(boards_per_round=2)
    a_room(fake)
    with serving(create_console_app(fake, console_settings())) as url:
        yield url


def test_the_address_of_a_table_opens_it_typed_reloaded_and_after_the_log_in(console: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_context(**PHONE).new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(console + "/#table-3")  # the address of a table, before the log-in
            page.fill("#pin", PIN)
            page.click("#login-button")
            expect(page.locator("#table-view")).to_be_visible()
            expect(page.locator("#t-title")).to_have_text("Table 3")

            page.goto(console + "/#table-1")  # typed in the address bar: the same page, another table
            expect(page.locator("#t-title")).to_have_text("Table 1")
            expect(page.locator("#table-view")).to_be_visible()
            expect(page.locator("#room-view")).to_be_hidden()

            page.reload()
            expect(page.locator("#status")).to_have_text("live")
            expect(page.locator("#t-title")).to_have_text("Table 1")
            expect(page.locator("#table-view")).to_be_visible()
            expect(page.locator("#room-view")).to_be_hidden()

            page.go_back()  # to table 3's address, then to the room's
            expect(page.locator("#t-title")).to_have_text("Table 3")
            page.goto(console + "/")
            expect(page.locator("#room-view")).to_be_visible()
            expect(page.locator("#table-view")).to_be_hidden()
            assert errors == []
        finally:
            browser.close()
