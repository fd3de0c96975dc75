"""The demo's room on one machine, in a real headless Chromium: the Director's console and two
tables' pages all on 127.0.0.1 (ports differ, and a browser's cookies do not tell ports apart).
The Director logs into the console, opens table 3's and then table 4's arbiter page by the
console's signed links, and comes back: every session is still live, because each application
keeps its session in a cookie of its own name."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import replace

import pytest

from tests.web_ui.conftest import settings
from tests.web_ui.console_fake import PIN, FakeConsole, console_settings
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from web_ui.app import create_app
from web_ui.arbiter_link import table_key
from web_ui.console import create_console_app
from web_ui.local import LocalTable

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")

KEY = b"k" * 32
"""The console's master key: each table holds only its own, derived from it (``table_key``)."""
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def room() -> Iterator[tuple[str, dict[str, str]]]:
    """The console's URL and each table's, every one on 127.0.0.1."""
    with ExitStack() as stack:
        tables = {t: stack.enter_context(serving(create_app(
            LocalTable(), replace(settings(), link_key=table_key(KEY, t), table_id=t))))
                  for t in ("3", "4")}
        console = create_console_app(FakeConsole(), console_settings().model_copy(update={
            "link_key": KEY, "table_urls": tables}))
        yield stack.enter_context(serving(console)), tables


def test_the_console_and_every_tables_arbiter_page_stay_logged_in_side_by_side(
        room: tuple[str, dict[str, str]]) -> None:
    from playwright.sync_api import expect, sync_playwright

    console_url, tables = room
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = browser.new_context(**PHONE)  # one browser: one cookie jar for every port
            console = context.new_page()
            console.goto(console_url + "/")
            console.fill("#pin", PIN)
            console.click("#login-button")
            expect(console.locator("#status")).to_have_text("live")

            arbiter = {}
            for table, url in tables.items():
                page = context.new_page()
                page.goto(f"{console_url}/tables/{table}/arbiter")  # the console's signed link
                page.wait_for_url(url + "/arbiter")
                expect(page.locator("#logout")).to_be_visible()
                arbiter[table] = page

            console.reload()
            expect(console.locator("#status")).to_have_text("live")
            expect(console.locator("#login")).to_be_hidden()
            for page in arbiter.values():
                page.reload()
                expect(page.locator("#logout")).to_be_visible()
                expect(page.locator("#login")).to_be_hidden()
            names = [c["name"] for c in context.cookies()]
            sessions = [n for n in names if not n.endswith("_device")]  # each app also remembers the device
            assert len(names) == len(set(names)) and len(sessions) == 3, names

            arbiter["3"].click("#logout")  # one application's log-out ends its own session only
            expect(arbiter["3"].locator("#login")).to_be_visible()
            for page in (console, arbiter["4"]):
                page.reload()
                expect(page.locator("#logout")).to_be_visible()
        finally:
            browser.close()
