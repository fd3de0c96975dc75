"""Manual entry on the arbiter's page, in a real headless Chromium: no seat is chosen in advance,
a wrong entry is told in words (never a raw validation error), and nothing is recorded until the
arbiter has read what will be recorded and confirmed it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from controller.cards import Card
from tests.web_ui.conftest import make_app, played
from tests.web_ui.test_app import LOG
from tests.web_ui.test_browser import CHROMIUM, serving
from tests.web_ui.test_pages_widths import WIDTHS, arbiter_login
from web_ui.local import LocalTable

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")


@pytest.fixture
def entry(browser: Any) -> Iterator[tuple[Any, LocalTable]]:
    """The arbiter's page on a phone; board 1's auction is over (3NT by North), East is on lead."""
    table = played(LocalTable(), [{k: v for k, v in line.items() if k != "t"} for line in LOG[:-1]])
    app, _ = make_app(table)
    with serving(app) as url:
        context = browser.new_context(**WIDTHS["phone"])
        try:
            page = context.new_page()
            arbiter_login(page, url)
            yield page, table
        finally:
            context.close()


def test_no_seat_is_chosen_in_advance_and_every_field_is_labelled(entry: tuple[Any, LocalTable]) -> None:
    from playwright.sync_api import expect

    page, _ = entry
    expect(page.locator("#entry-seat")).to_have_value("")
    expect(page.get_by_label("What happened")).to_have_value("play")
    expect(page.get_by_label("Seat")).to_be_visible()
    expect(page.get_by_label("Card (e.g. SK or H10)")).to_be_visible()
    page.get_by_label("What happened").select_option("adjust")
    expect(page.get_by_label("Seat")).to_be_hidden()  # an adjustment is nobody's act
    expect(page.get_by_label("Tricks (0 to 13)")).to_be_visible()


def test_a_wrong_entry_is_told_in_words_and_nothing_is_recorded(entry: tuple[Any, LocalTable]) -> None:
    from playwright.sync_api import expect

    page, table = entry
    before = table.snapshot().seq
    page.get_by_label("Card (e.g. SK or H10)").fill("HJ")
    page.click("#entry-check")
    expect(page.locator("#entry-error")).to_have_text("Choose the seat: North, East, South or West.")
    page.get_by_label("Seat").select_option("E")
    page.get_by_label("Card (e.g. SK or H10)").fill("ZZ")
    page.click("#entry-check")
    expect(page.locator("#entry-error")).to_have_text(
        "\u201cZZ\u201d is not a card: write the suit letter (S, H, D or C) then the rank, e.g. SK for \u2660K or "
        "H10 for \u266510.")
    expect(page.locator("#entry-confirm")).to_be_hidden()
    page.get_by_label("What happened").select_option("call")
    page.get_by_label("Call (e.g. 1NT, Pass, X)").fill("8S")
    page.click("#entry-check")
    expect(page.locator("#entry-error")).to_contain_text("\u201c8S\u201d is not a call")
    assert table.snapshot().seq == before


def test_an_entry_is_recorded_only_once_the_arbiter_confirms_what_will_be_recorded_law_45(
        entry: tuple[Any, LocalTable]) -> None:
    """East's opening lead, entered by hand as a card deemed played (Law 45)."""
    from playwright.sync_api import expect

    page, table = entry
    before = table.snapshot().seq
    page.get_by_label("Seat").select_option("E")
    page.get_by_label("Card (e.g. SK or H10)").fill("hj")
    page.click("#entry-check")
    confirm = page.locator("#entry-confirm")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text("This will be recorded:")
    expect(page.locator("#entry-confirm-text")).to_have_text("East plays \u2665J (a card deemed played, Law 45).")
    page.get_by_role("button", name="Change").click()
    expect(confirm).to_be_hidden()
    assert table.snapshot().seq == before
    page.click("#entry-check")
    page.get_by_role("button", name="Record it").click()
    expect(page.locator("#action-info")).to_contain_text("done")
    expect(confirm).to_be_hidden()
    board = table.snapshot().state.board
    assert board is not None and board.play is not None
    assert board.play.current.card_of(board.play.declarer.lho) == Card.parse("HJ")
