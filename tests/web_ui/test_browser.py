"""The pages in a real headless Chromium (Playwright, Debian's /usr/bin/chromium): a board is
played through the table service as the sensors would, a lead out of turn is raised, the arbiter
logs in on his page, rules with a button, and the table page shows the ruling.

``DOCS`` is where the browser tests put the screenshots they take along the way: a scratch
directory, so that a test run never changes the tree. The README's pictures are made on purpose
by ``make screenshots`` (``BRIDGE_SCREENSHOTS=1``, tests/web_ui/test_pages_widths.py)."""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn
from fastapi import FastAPI

from controller.records.tablelog import action_of
from tests.free_ports import free_base_port
from tests.web_ui.conftest import PIN, make_app
from tests.web_ui.test_app import LOG
from web_ui.local import LocalTable

CHROMIUM = Path("/usr/bin/chromium")
DOCS = Path(tempfile.gettempdir()) / "bridge-table-test-screenshots"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free port of 127.0.0.1; yields its base URL."""
    port = free_base_port(1)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(500):  # the server's own readiness flag, not a timed assertion
        if server.started:
            break
        time.sleep(0.01)
    assert server.started
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


FORBID_SPADES = ("North refuses the lead and forbids East to lead \u2660 while he keeps the lead; \u26602 goes back "
                 "to West's hand (Law 54).")


@pytest.fixture
def served() -> Iterator[tuple[str, LocalTable]]:
    table = LocalTable()
    app, _ = make_app(table)
    with serving(app) as url:
        yield url, table


def test_the_arbiter_rules_on_a_lead_out_of_turn_and_the_table_page_shows_it(served: tuple[str, LocalTable]) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, table = served
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            tablet = browser.new_context(viewport={"width": 1024, "height": 768})
            page = tablet.new_page()
            page.goto(url + "/")
            expect(page.locator("#status")).to_have_text("live")
            for obj in LOG[:-1]:  # the board and its auction, as the bidding boxes report them
                table.submit(action_of(obj))
            expect(page.locator("#contract")).to_contain_text("3NT")
            expect(page.locator("#contract")).to_contain_text("North")
            table.submit(action_of(LOG[-1]))  # W leads out of turn
            expect(page.locator("#banner")).to_have_text("Waiting for the arbiter's ruling")
            expect(page.locator(".spot-W [data-card='S2']")).to_be_visible()
            expect(page.locator("#dummy")).to_contain_text("once the opening lead is faced")
            assert "AKQJ" not in page.content()

            arbiter_ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
            arbiter = arbiter_ctx.new_page()
            arbiter.goto(url + "/arbiter")
            arbiter.fill("#pin", "0000")
            arbiter.click("#login-button")
            expect(arbiter.locator("#login-error")).to_contain_text("wrong PIN")
            arbiter.fill("#pin", PIN)
            arbiter.click("#login-button")
            expect(arbiter.locator("#alert")).to_contain_text("opening lead out of turn (Law 54)")
            expect(arbiter.locator("#deal .deal-N")).to_contain_text("North (declarer)")
            expect(arbiter.locator("#pending")).to_contain_text("chooses N")
            DOCS.mkdir(exist_ok=True)
            arbiter.screenshot(path=str(DOCS / "arbiter.png"), full_page=True)

            # each option is the catalogue's plain sentence for this lead, with its inputs labelled
            expect(arbiter.locator("form.option[data-option='accept_see_dummy'] .option-sentence")).to_have_text(
                "North accepts the lead of \u26602: dummy is faced and North plays second to the trick (Law 54).")
            forbid = arbiter.locator("form.option[data-option='forbid_suit']").first
            expect(forbid.locator(".option-sentence")).to_have_text(FORBID_SPADES)
            forbid.get_by_label("suit forbidden").select_option("S")
            forbid.locator("button").click()
            expect(arbiter.locator("#action-info")).to_contain_text("done")
            # once ruled: the ruling as a sentence, and no buttons
            expect(arbiter.locator("#pending")).to_contain_text("Ruled: " + FORBID_SPADES)
            expect(arbiter.locator("#pending .irr-card[data-irr='1'] form.option")).to_have_count(0)

            expect(page.locator("#banner")).to_be_hidden()
            expect(page.locator("#irregularities")).to_contain_text(FORBID_SPADES)
            expect(page.locator("#restrictions")).to_contain_text("East may not lead a spade (\u2660)")
            table.submit(action_of({"seat": "E", "play": "HJ"}))  # E leads, dummy goes down
            expect(page.locator("#dummy")).to_contain_text("South (dummy)")
            expect(page.locator(".spot-E [data-card='HJ']")).to_be_visible()
            page.screenshot(path=str(DOCS / "table.png"), full_page=True)

            phone_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            phone = phone_ctx.new_page()
            phone.goto(url + "/arbiter")
            phone.fill("#pin", PIN)
            phone.click("#login-button")
            expect(phone.locator("#pending")).to_contain_text("Ruled: " + FORBID_SPADES)
            expect(phone.locator("#status")).to_have_text("live")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the arbiter page scrolls sideways on a phone ({width}px)"
            phone.screenshot(path=str(DOCS / "arbiter-phone.png"), full_page=False)

            spectator = tablet.new_page()
            spectator.goto(url + "/spectator")
            expect(spectator.locator("#contract")).to_contain_text("3NT")
            assert "AKQJ" not in spectator.content()
        finally:
            browser.close()
