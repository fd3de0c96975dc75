"""The whole room in a real Chromium: a table on the club's Mosquitto (passwords and ACL), the
Director's console process side (``Console``) and its page; the Director is on a phone.

A sensor event at table 3 (West's card on his play zone while East is on lead) reaches the
console page as an alarm naming the table and the situation; the Director opens the table,
rules from the console, the table applies the ruling (Law 54), and its answer and the new
state come back to the page.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from drivers.config import hash_pin, verify_pin
from tablectl.room.console import Console
from tests.room.conftest import Broker
from tests.room.test_link import Table, _auction_to_lead, wait
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from web_ui.console import ConsoleSettings, create_console_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")

PIN = "2468"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def room_page(club_broker: Broker, tmp_path: Path) -> Iterator[tuple[str, Table, Console]]:
    console = Console(club_broker.address("console"), tmp_path / "console")
    console.start()
    table = Table(tmp_path / "table-3.sqlite", club_broker.address("3"), "3")
    pin_hash = hash_pin(PIN)
    settings = ConsoleSettings(check_pin=lambda pin: verify_pin(pin, pin_hash), club=club_broker.club)
    try:
        with serving(create_console_app(console, settings)) as url:
            yield url, table, console
    finally:
        table.stop()
        console.stop()


def test_alert_from_table_3_appears_on_the_console_page_and_the_ruling_is_applied_law_54(
        room_page: tuple[str, Table, Console]) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, t3, console = room_page
    wait(lambda: console.room.tiles.get("3") is not None and console.room.tiles["3"].online, what="table 3 online")
    _auction_to_lead(t3)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_context(**PHONE).new_page()
            page.goto(url + "/")
            page.fill("#pin", PIN)
            page.click("#login-button")
            expect(page.locator("#status")).to_have_text("live")
            expect(page.locator("#tiles .tile[data-table='3'] .state-word")).to_have_text("PLAYING")

            sent = time.monotonic()
            t3.sim.present("S2", "W.play")  # East is on lead: an opening lead out of turn
            t3.clock.now += 1.0
            assert t3.rt.sync(5)
            banner = page.locator("#alarms")
            expect(banner).to_contain_text("Table 3: Opening lead out of turn by W")
            print(f"sensor event -> banner on the page: {1000 * (time.monotonic() - sent):.0f} ms")
            expect(page.locator("#tiles .tile[data-table='3'] .state-word")).to_have_text("IRREGULARITY")

            banner.locator(".alarm-open").click()
            pending = page.locator("#t-pending")
            expect(pending).to_contain_text("opening lead out of turn (Law 54)")
            pending.locator("form.option[data-option='accept_see_dummy'] button").click()
            expect(page.locator("#t-action-info")).to_contain_text("accepted by table 3")
            irr = t3.rt.snapshot().state.irregularity(1)
            assert irr is not None and irr.status == "ruled"
            assert dict(irr.ruling or ())["option"] == "accept_see_dummy"
            expect(pending).to_contain_text("Ruled: North accepts the lead of \u26602")
            page.get_by_role("button", name="Back to the room").click()
            expect(page.locator("#resolved li[data-table='3']")).to_contain_text("ruled: accept see dummy")
            expect(page.locator("#tiles .tile[data-table='3'] .state-word")).to_have_text("PLAYING")
        finally:
            browser.close()
