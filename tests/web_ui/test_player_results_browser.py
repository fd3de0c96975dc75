"""The players' results page (web_ui/static/results.js) in a real headless Chromium on a phone: a
board with a single result says so rather than "0" (which reads as a bottom), and the pairs with no
result yet are listed under a heading of their own, not under the last direction's."""

from __future__ import annotations

import os

import pytest

from tests.web_ui.conftest import make_app
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from tests.web_ui.test_player_results import RoomTable, board_1_passed_out_board_2_in_play, traveller

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_a_single_result_and_the_pairs_without_one_read_plainly_on_a_phone() -> None:
    from playwright.sync_api import expect, sync_playwright

    table = RoomTable()
    board_1_passed_out_board_2_in_play(table)
    table.published = {
        "kind": "results", "table": "7", "name": "Club Pairs", "ended": False,
        "settings": {"travellers": True, "ranking": "live"},
        "travellers": [traveller("1")], "released": {"all": False, "boards": ["1"]},
        "scorecards": [{"pair": "1", "section": None, "standing": {"place": "1", "percent": 50.0},
                        "boards": [{"board": "1", "opponents": "4", "contract": "Pass", "declarer": None,
                                    "result": None, "status": "passed_out", "score": 0, "points": 0.0,
                                    "top": 0.0}]}],
        "ranking": [{"pair": "1", "direction": "NS", "place": "1", "percent": 50.0, "total": 0.0, "boards": 1},
                    {"pair": "4", "direction": "EW", "place": "1", "percent": 50.0, "total": 0.0, "boards": 1},
                    {"pair": "2", "direction": None, "place": None, "percent": None, "total": 0.0, "boards": 0},
                    {"pair": "5", "direction": "EW", "place": None, "percent": None, "total": 0.0, "boards": 0}]}
    app, _ = make_app(table)
    with serving(app) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone = browser.new_context(**PHONE).new_page()
            errors: list[str] = []
            phone.on("pageerror", lambda exc: errors.append(str(exc)))
            phone.goto(url + "/results")
            expect(phone.locator("#status")).to_have_text("up to date")
            row = phone.locator(".scorecard tr[data-board='1']")
            expect(row.locator("td").last).to_have_text("only result")
            heads = phone.locator("#ranking li.field-head")
            expect(heads).to_have_text(["North-South", "East-West", "No result yet"])
            # the two pairs without a result come after the "No result yet" heading, not under East-West
            items = phone.locator("#ranking li").all_inner_texts()
            waiting = items.index("No result yet")
            assert [t.split()[1] for t in items[waiting + 1:]] == ["2", "5"]
            assert "East-West" in items[-1]  # pair 5's direction, said beside it
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the results page scrolls sideways on a phone ({width}px)"
            assert errors == []
        finally:
            browser.close()
