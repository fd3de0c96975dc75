"""The Director's console in a real headless Chromium (Playwright, Debian's /usr/bin/chromium),
served by uvicorn over a fake console whose tables play real boards through the real table:
the Director logs in on a phone, sees a tile per table, gets the alarm the moment a table
raises an irregularity, taps it, sees the law and the options, rules, and reads the table's
answer. Screenshots of the console (phone and desktop) go to docs/."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web_ui.console_fake import PIN, FakeConsole, Sent, console_settings
from tests.web_ui.test_app import LOG
from tests.web_ui.test_browser import ARGS, CHROMIUM, DOCS, serving
from web_ui.console import create_console_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
AUCTION: list[dict[str, Any]] = LOG[:7]  # board 1: N 1NT, S 3NT; East is on lead
BOARD_2: dict[str, Any] = {"board": {"number": 2, "dealer": "E", "vul": "NS", "deal": LOG[0]["board"]["deal"]}}
CLAIM_ALL: list[dict[str, Any]] = [{"seat": "E", "play": "HJ"}, {"seat": "N", "claim": 13},
                                   {"seat": "E", "agree": True}, {"seat": "W", "agree": True}]


def a_room(fake: FakeConsole) -> None:
    """Eight tables at every stage: playing, bidding, waiting for the lead, the Director called
    (a while ago), gone offline during play, a round finished, between boards, not started."""
    fake.play("1", *AUCTION, {"seat": "E", "play": "HJ"})
    fake.play("2", BOARD_2, {"seat": "E", "call": "1S"})
    fake.play("3", *AUCTION)
    fake.play("5", *AUCTION)
    fake.play("6", *AUCTION, *CLAIM_ALL, {**BOARD_2, "board": {**BOARD_2["board"], "number": 4}},
              {"seat": "E", "call": "Pass"}, {"seat": "S", "call": "Pass"}, {"seat": "W", "call": "Pass"},
              {"seat": "N", "call": "Pass"})
    fake.play("7", *AUCTION, {"seat": "E", "play": "HJ"}, {"seat": "N", "claim": 12}, {"seat": "E", "agree": True},
              {"seat": "W", "agree": True})
    fake.play("8")
    fake.advance(40)
    fake.play("4", AUCTION[0], {"seat": "N", "call": "1NT"}, {"seat": "E", "director": True})
    fake.advance(55)
    fake.play("1", {"seat": "S", "play": "H6"}, {"seat": "W", "play": "H2"}, {"seat": "N", "play": "HA"})
    fake.offline("5")
    fake.advance(20)


@pytest.fixture
def console() -> Iterator[tuple[str, FakeConsole]]:
    fake = FakeConsole(boards_per_round=2)
    a_room(fake)
    with serving(create_console_app(fake, console_settings())) as url:
        yield url, fake


def test_the_director_finds_the_table_that_needs_him_and_rules_from_a_phone(console: tuple[str, FakeConsole]) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, fake = console
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone = browser.new_context(**PHONE).new_page()
            errors: list[str] = []
            phone.on("pageerror", lambda exc: errors.append(str(exc)))
            phone.clock.install()
            phone.goto(url + "/")
            phone.fill("#pin", "0000")
            phone.click("#login-button")
            expect(phone.locator("#login-error")).to_contain_text("wrong PIN")
            phone.fill("#pin", PIN)
            phone.click("#login-button")
            expect(phone.locator("#status")).to_have_text("live")

            # a tile per table, each with its state in words as well as in colour
            tiles = phone.locator("#tiles .tile")
            expect(tiles).to_have_count(8)
            words = {"1": "PLAYING", "2": "PLAYING", "3": "PLAYING", "4": "CALLED", "5": "OFFLINE IN PLAY",
                     "6": "ROUND OVER", "7": "BETWEEN BOARDS", "8": "BETWEEN BOARDS"}
            for table, word in words.items():
                expect(phone.locator(f"#tiles .tile[data-table='{table}'] .state-word")).to_have_text(word)
            expect(phone.locator("#tiles .tile[data-table='1']")).to_contain_text("3NT by North")
            expect(phone.locator("#tiles .tile[data-table='1']")).to_contain_text("Tricks NS 1 \u00b7 EW 0")
            expect(phone.locator("#legend")).to_contain_text("IRREGULARITY a ruling is awaited")

            # the call queue: the Director called at table 4, waiting, and the wait goes on ticking
            call_4 = phone.locator("#calls li[data-table='4']")
            expect(call_4).to_contain_text("E called the Director")
            expect(call_4.locator(".call-word")).to_have_text("WAITING")
            expect(call_4.locator(".waited")).to_have_text("1:15")
            phone.clock.run_for(61_000)
            expect(call_4.locator(".waited")).to_have_text("2:16")

            # West leads out of turn at table 3: the banner at once, naming the table and the situation
            fake.play("3", LOG[-1])
            banner = phone.locator("#alarms")
            expect(banner).to_be_visible()
            expect(banner).to_contain_text("Table 3: Opening lead out of turn by W")
            # the tables needing the Director come first, oldest call first (the room follows the alarm)
            expect(phone.locator("#tiles .tile").nth(0)).to_have_attribute("data-table", "4")
            expect(phone.locator("#tiles .tile").nth(1)).to_have_attribute("data-table", "3")
            expect(phone.locator("#tiles .tile[data-table='3'] .state-word")).to_have_text("IRREGULARITY")
            expect(phone.locator("#tiles .tile[data-table='3']")).to_contain_text("Opening lead out of turn by W")
            call_3 = phone.locator("#calls li[data-table='3']")
            expect(call_3).to_contain_text("board 1 \u00b7 Law 54")
            expect(call_3.locator(".call-word")).to_have_text("WAITING")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the console scrolls sideways on a phone ({width}px)"
            DOCS.mkdir(exist_ok=True)
            phone.screenshot(path=str(DOCS / "console-phone.png"))

            # "On my way": the call is acknowledged
            call_3.get_by_role("button", name="On my way").click()
            expect(call_3.locator(".call-word")).to_have_text("ON MY WAY")
            assert [c.state for c in fake.open_calls("3")] == ["acknowledged"]

            # tapping the banner opens the table: the irregularity, its law, who chooses, the options
            banner.locator(".alarm-open").click()
            expect(phone.locator("#table-view")).to_be_visible()
            expect(phone.locator("#t-title")).to_have_text("Table 3")
            expect(banner).to_be_hidden()
            pending = phone.locator("#t-pending")
            expect(pending).to_contain_text("opening lead out of turn (Law 54)")
            expect(pending).to_contain_text("chooses N")
            options = pending.locator("form.option button")
            expect(options).to_have_text(["accept see dummy", "accept become dummy", "require suit", "forbid suit",
                                          "leave penalty card"])
            expect(phone.locator("#t-deal .deal-N")).to_contain_text("North (declarer)")
            assert fake.opened_tables == ["3"]
            expect(phone.locator("#t-calls li[data-table='3'] .call-word")).to_have_text("BEING RULED")

            # the table refuses: the Director reads why
            fake.answer = lambda sent: {"accepted": False, "reason": "North has already chosen"}
            forbid = pending.locator("form.option[data-option='forbid_suit']")
            forbid.locator("select[name='suit']").select_option("S")
            forbid.locator("button").click()
            expect(phone.locator("#t-action-error")).to_contain_text(
                "refused: table 3 refused it: North has already chosen")
            assert fake.sent == [Sent("3", "ruling", {"id": 1, "option": "forbid_suit", "suit": "S"}, "c-1")]

            # the table takes the ruling: accepted, and the view shows it once the table publishes it
            def the_table_applies_it(sent: Sent) -> dict[str, Any]:
                fake.play(sent.table, {"ruling": sent.body})
                return {"accepted": True}
            fake.answer = the_table_applies_it
            pending.locator("form.option[data-option='accept_see_dummy'] button").click()
            expect(phone.locator("#t-action-info")).to_contain_text("Ruling accept see dummy on 1: accepted by table 3")
            assert fake.sent[-1].body == {"id": 1, "option": "accept_see_dummy"}
            expect(pending).to_contain_text("Ruled: North accepts the lead of \u26602: dummy is faced and North plays "
                                            "second to the trick (Law 54).")
            expect(pending.locator(".irr-card[data-irr='1'] form.option")).to_have_count(0)
            expect(phone.locator("#t-calls li")).to_have_count(0)
            expect(phone.locator("#t-state")).to_have_text("PLAYING")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"a table's view scrolls sideways on a phone ({width}px)"

            # back to the room: table 3's call is dealt with, table 4's still waits
            phone.get_by_role("button", name="Back to the room").click()
            expect(phone.locator("#room-view")).to_be_visible()
            expect(phone.locator("#calls li")).to_have_count(1)
            expect(phone.locator("#resolved li[data-table='3']")).to_contain_text("ruled: accept see dummy")
            call_4.get_by_role("button", name="Done").click()
            expect(phone.locator("#calls")).to_contain_text("No call waiting")

            # the results: a traveller per board, every table's contract, tricks, result and NS score
            expect(phone.locator(".traveller[data-board='1'] tr[data-table='6']")).to_contain_text("3NT")
            expect(phone.locator(".traveller[data-board='1'] tr[data-table='6']")).to_contain_text("+4 (claimed)")
            expect(phone.locator(".traveller[data-board='1'] tr[data-table='6'] .score")).to_have_text("520")
            expect(phone.locator(".traveller[data-board='1'] tr[data-table='7'] .score")).to_have_text("490")
            expect(phone.locator(".traveller[data-board='4'] tr[data-table='6']")).to_contain_text("passed out")
            assert errors == []

            # the same room on a desktop: South calls the Director at table 1, then an insufficient bid at table 2
            desktop = browser.new_context(**DESKTOP).new_page()
            desktop.goto(url + "/")
            desktop.fill("#pin", PIN)
            desktop.click("#login-button")
            expect(desktop.locator("#status")).to_have_text("live")
            fake.play("1", {"seat": "S", "director": True})
            fake.advance(30)
            fake.play("2", {"seat": "S", "call": "1H"})
            expect(desktop.locator("#alarms")).to_contain_text("Table 2: Insufficient bid by S")
            expect(desktop.locator("#tiles .tile[data-table='2'] .state-word")).to_have_text("IRREGULARITY")
            desktop.screenshot(path=str(DOCS / "console.png"))
        finally:
            browser.close()
