"""Two Directors of a team on their phones (390 px, real Chromium): each signs in under their own name,
one takes a call ("On my way") and the other's page shows at once who is on the way."""

from __future__ import annotations

import os

import pytest

from tests.web_ui.console_fake import PHONE, FakeConsole
from tests.web_ui.test_app import LOG
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from tests.web_ui.test_console_directors import PINS, team_settings
from web_ui.console import create_console_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")


def _signed_in(browser: object, url: str, name: str) -> tuple[object, list[str]]:
    from playwright.sync_api import expect

    page = browser.new_context(**PHONE).new_page()  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "/")
    expect(page.locator("#login-name")).to_be_visible()  # a team: the page asks who signs in
    page.fill("#login-name", name)
    page.fill("#pin", PINS[name])
    page.click("#login-button")
    expect(page.locator("#status")).to_have_text("live")
    expect(page.locator("#who")).to_contain_text(name)
    return page, errors


def test_one_director_takes_a_call_and_the_other_sees_who_is_on_the_way_on_a_phone() -> None:
    from playwright.sync_api import expect, sync_playwright

    fake = FakeConsole()
    fake.play("A1", *LOG)  # W leads out of turn at table A1: a call for the Director
    with serving(create_console_app(fake, team_settings())) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            anna, anna_errors = _signed_in(browser, url, "Anna")
            bob, bob_errors = _signed_in(browser, url, "Bob")
            call = "#calls li[data-table='A1']"
            expect(bob.locator(call + " .ack")).to_be_visible()
            anna.click(call + " .ack")
            expect(anna.locator(call + " .call-by")).to_have_text("You are on the way")
            expect(bob.locator(call + " .call-by")).to_have_text("Anna is on the way")
            expect(bob.locator(call + " .ack")).to_have_count(0)  # nobody else sets off: Bob may only go instead
            expect(bob.locator(call + " .instead")).to_be_visible()
            for page in (anna, bob):
                assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing off the phone's screen
            assert [(c.by, c.state) for c in fake.open_calls("A1")] == [("Anna", "acknowledged")]
            assert anna_errors == [] and bob_errors == []
        finally:
            browser.close()
