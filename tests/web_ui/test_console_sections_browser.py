"""The head console's ranking of two sections playing the same boards, in a real headless Chromium
on a phone: the official ranking's fields (each section apart when the session ranks by section),
and each pair's place in the other ranking beside its boards."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from controller.room.console import Room
from tests.controller.test_room_sections import play
from tests.web_ui.console_fake import FakeConsole, console_settings, director_signed_in
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from web_ui.console import create_console_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")


@pytest.fixture(params=["section", "field"])
def console(request: pytest.FixtureRequest) -> Iterator[tuple[str, Room]]:
    fake = FakeConsole()
    fake.room, _ = play(request.param)
    with serving(create_console_app(fake, console_settings())) as url:
        yield url, fake.room


def test_the_head_director_reads_each_pairs_section_and_field_places_on_a_phone(
        console: tuple[str, Room]) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, room = console
    ranking = room.results.ranking()
    official = room.results.report()["official"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone, errors = director_signed_in(browser, url)
            how = "ranked in each section" if official == "section" else "ranked across the field"
            expect(phone.locator("#ranking-how")).to_contain_text(how)
            names = (["Section A \u00b7 North-South", "Section A \u00b7 East-West", "Section B \u00b7 North-South",
                      "Section B \u00b7 East-West"] if official == "section" else ["North-South", "East-West"])
            expect(phone.locator("#ranking .field-name")).to_have_text(names)
            rows = phone.locator("#ranking li")
            expect(rows).to_have_count(12)
            for i, r in enumerate(ranking[:4]):
                other = f"field {r['field_place']}" if official == "section" else f"section {r['section_place']}"
                expect(rows.nth(i).locator(".rank-place")).to_have_text(r["place"])
                expect(rows.nth(i).locator(".rank-pair")).to_have_text(f"Pair {r['section']} {r['pair']}")
                expect(rows.nth(i).locator(".rank-boards")).to_have_text(f"{r['boards']} boards \u00b7 {other}")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the ranking scrolls sideways on a phone ({width}px)"
            assert errors == []
        finally:
            browser.close()
