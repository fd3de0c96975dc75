"""The Director's alarms in a real Chromium on a phone (390 px), with table 3 on the club's Mosquitto:
the page says whether the alarm can sound (off until a first tap) and whether the screen stays on;
a table waiting for a ruling stays on "needs you" when "Done" is tapped; "On my way" shows on the
table's own page, and its spectator page shows nothing of the board in play; "End the session"
asks first and can be undone; a table gone during play is an alarm; the alerts' own connection
away for long says the alerts are held up; the broker lost is one alarm naming the cause and since when."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from drivers.config import hash_pin, verify_pin
from tablectl.room.console import Console
from tests.room.conftest import Broker
from tests.room.test_link import Table, _auction_to_lead, wait
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from web_ui.app import create_app
from web_ui.console import ConsoleSettings, create_console_app
from web_ui.service import WebSettings

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")

PIN = "2468"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def room_pages(club_broker: Broker, tmp_path: Path) -> Iterator[tuple[str, str, Table, Console]]:
    console = Console(club_broker.address("console"), tmp_path / "console")
    console.start()
    table = Table(tmp_path / "table-3.sqlite", club_broker.address("3"), "3")
    pin_hash = hash_pin(PIN)
    settings = ConsoleSettings(check_pin=lambda pin: verify_pin(pin, pin_hash), club=club_broker.club)
    try:
        with serving(create_console_app(console, settings)) as url, \
                serving(create_app(table.rt, WebSettings(check_pin=lambda pin: False, table_name="Table 3"))) as t_url:
            yield url, t_url, table, console
    finally:
        table.stop()
        console.stop()


def test_the_directors_alarms_at_phone_width(club_broker: Broker, room_pages: tuple[str, str, Table, Console],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from playwright.sync_api import expect, sync_playwright

    from tablectl.room import alert_lane, console_session

    url, table_url, t3, console = room_pages
    wait(lambda: console.room.tiles.get("3") is not None and console.room.tiles["3"].online, what="table 3 online")
    _auction_to_lead(t3)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = browser.new_context(**PHONE)
            page = context.new_page()
            page.on("dialog", lambda dialog: dialog.accept())
            page.goto(url + "/")
            page.fill("#pin", PIN)
            page.click("#login-button")
            expect(page.locator("#status")).to_have_text("live")
            # C5: a reloaded page has had no tap: the alarm cannot sound, and the page says so
            page.reload()
            expect(page.locator("#status")).to_have_text("live")
            sound = page.locator("#sound")
            expect(sound).to_have_text("Sound off: tap to turn the alarm sound on")
            expect(page.locator("#wake")).to_contain_text("Screen")
            sound.click()
            expect(sound).to_have_text("Sound on")

            # C1: West leads out of turn; "Done" does not make the waiting table quiet (Law 54)
            t3.sim.present("S2", "W.play")
            t3.clock.now += 1.0
            assert t3.rt.sync(5)
            tile = page.locator("#tiles .tile[data-table='3']")
            expect(tile.locator(".state-word")).to_have_text("IRREGULARITY")
            # C4: "On my way" reaches the table's own page
            page.locator("#calls li[data-table='3'] button.ack").click()
            table_page = context.new_page()
            table_page.goto(table_url + "/")
            expect(table_page.locator("#banner")).to_have_text("The Director is on the way")
            # B: the spectators of table 3 see nothing of the board in play (not released: Law 16C)
            spectator = context.new_page()
            spectator.goto(table_url + "/spectator")
            expect(spectator.locator("#board-info")).to_contain_text("Board 1 is still to be played at other tables")
            expect(spectator.locator("#auction")).to_be_empty()
            assert spectator.evaluate("document.documentElement.scrollWidth") <= 390
            page.locator("#calls li[data-table='3'] button.done").click()
            expect(page.locator("#calls-error")).to_contain_text("still waits for your ruling")
            expect(tile.locator(".state-word")).to_have_text("IRREGULARITY")
            expect(page.locator("#summary")).to_contain_text("1 table needs you")

            # C6: "End the session" asks (the dialog is accepted), then can be undone
            page.locator("#session-end").click()
            expect(page.locator("#session-undo")).to_be_visible()
            assert console.settings()["ended"] is True
            page.locator("#session-undo").click()
            expect(page.locator("#session-end")).to_have_text("End the session")
            assert console.settings()["ended"] is False

            # C3: the table goes during play: an alarm, under "Needs you"
            t3.link.stop()
            expect(tile.locator(".state-word")).to_have_text("OFFLINE IN PLAY")
            expect(page.locator("#tiles h3.needing")).to_have_text("Needs you")
            expect(page.locator("#alarms")).to_contain_text("Table 3 went offline during board 1")

            # C2a: the alerts' own connection away past its grace: the alerts held up, the room's link not lost
            monkeypatch.setattr(alert_lane, "LANE_LATE", 0.5)
            monkeypatch.setattr(console_session, "LANE_LATE", 0.5)
            lane = console._lane
            lane._client.disconnect()
            broker = page.locator("#broker-alarm")
            expect(broker).to_be_visible()
            expect(broker).to_contain_text("The tables' alerts are held up since")
            expect(page.locator("#summary")).not_to_contain_text("Room link lost")
            lane._client.loop_stop()
            lane._client.reconnect()
            lane._client.loop_start()
            expect(broker).to_be_hidden()

            # C2: the broker goes: one alarm naming it and since when, not "4 offline"
            club_broker.stop()
            broker = page.locator("#broker-alarm")
            expect(broker).to_be_visible()
            expect(broker).to_contain_text("The room's broker is unreachable since")
            expect(page.locator("#summary")).to_contain_text("Room link lost")
            wide = page.evaluate("""[...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > 392)
                .map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 12)""")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide
        finally:
            browser.close()
            if not club_broker.alive:
                club_broker.start()
