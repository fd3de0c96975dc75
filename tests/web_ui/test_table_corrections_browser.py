"""The players' table page on a phone (real Chromium, 390 px wide) shows a board's result as the
Director corrected it (Law 79C), with what the table had recorded, who corrected it and why; taking
the correction back shows the result as played again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from controller.records.tablelog import action_of
from tests.web_ui.conftest import make_app
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from web_ui.local import LocalTable

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (make installs it)")

DEAL = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
PLAYED = [{"board": {"number": 1, "deal": DEAL}}, {"seat": "N", "call": "7NT"}, {"seat": "E", "call": "Pass"},
          {"seat": "S", "call": "Pass"}, {"seat": "W", "call": "Pass"}, {"seat": "E", "play": "ST"},
          {"seat": "N", "claim": 13}, {"seat": "E", "agree": True}, {"seat": "W", "agree": True}]
CORRECTION = {"correction": {"entry": 1, "board": 1, "contract": "6NT", "declarer": "N", "tricks": 12, "lead": "ST",
                             "by": "Ann Smith", "reason": "6NT was bid", "made": "2026-11-27T21:00:00.000Z"}}
UNDO = {"undo_correction": {"entry": 2, "undoes": 1, "by": "Ann Smith", "reason": "wrong table",
                            "made": "2026-11-27T21:01:00.000Z"}}


@pytest.fixture
def served() -> Iterator[tuple[str, LocalTable]]:
    table = LocalTable()
    app, _ = make_app(table)
    with serving(app) as url:
        yield url, table


def test_the_players_see_the_directors_correction_of_their_result_on_a_phone_law_79c(
        served: tuple[str, LocalTable]) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, table = served
    for obj in PLAYED:
        table.submit(action_of(obj))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                        has_touch=True).new_page()
            phone.goto(url + "/")
            expect(phone.locator("#status")).to_have_text("live")
            row = phone.locator("#results tr[data-board='1']")
            expect(row.locator(".score-ns")).to_have_text("1520")
            table.submit(action_of(CORRECTION))
            expect(row.locator(".score-ns")).to_have_text("990")
            expect(row).to_contain_text("6NT")
            note = phone.locator("#results tr.correction-note")
            expect(note).to_have_text("Corrected by the Director (Ann Smith): the table had 7NT= by North, 1520. "
                                      "6NT was bid")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the table page scrolls sideways on a phone ({width}px)"
            table.submit(action_of(UNDO))
            expect(row.locator(".score-ns")).to_have_text("1520")
            expect(note).to_have_count(0)
        finally:
            browser.close()
