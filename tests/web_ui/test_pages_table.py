"""The players' table page in a real headless Chromium: whose turn it is in words that fit the
phase, the irregularities in their own panel, a defender's penalty card beside his seat (never
in dummy's panel), the lead restrictions in force, and the session's results board by board;
and never a card of a concealed hand (the cards the page names are those the play has shown)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web_ui.conftest import FORBID_HEARTS, PENALTY_BOARD, SESSION, Revealed, make_app, played
from tests.web_ui.test_browser import CHROMIUM, serving
from tests.web_ui.test_pages_widths import WIDTHS
from web_ui.local import LocalTable

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")


class Served:
    """A table served on a free port, its page in Chromium, and what the play has shown."""

    def __init__(self, table: LocalTable, url: str, page: Any) -> None:
        self.table, self.url, self.page = table, url, page
        self.revealed = Revealed()

    def play(self, *lines: dict[str, Any]) -> None:
        played(self.table, list(lines), self.revealed)

    def named_cards(self) -> set[str]:
        """Every card the page names (``data-card`` of its card and rank elements)."""
        cards: list[str] = self.page.eval_on_selector_all("[data-card]", "nodes => nodes.map(n => n.dataset.card)")
        return set(cards)

    def assert_nothing_concealed(self) -> None:
        seen = {str(c) for c in self.revealed.seen}
        hidden = self.named_cards() - seen
        assert not hidden, f"the table page names concealed cards {sorted(hidden)}"


@pytest.fixture
def served(browser: Any) -> Iterator[Served]:
    from playwright.sync_api import expect

    table = LocalTable()
    app, _ = make_app(table)
    with serving(app) as url:
        context = browser.new_context(**WIDTHS["tablet"])
        try:
            page = context.new_page()
            page.goto(url + "/")
            expect(page.locator("#status")).to_have_text("live")
            yield Served(table, url, page)
        finally:
            context.close()


def test_the_page_asks_for_a_call_in_the_auction_and_a_card_in_the_play_laws_17_44(served: Served) -> None:
    """During the auction the seat to act is to call (Law 17), in the play to play (Law 44)."""
    from playwright.sync_api import expect

    page = served.page
    served.play(*PENALTY_BOARD[:2])  # board 4, North opens 1NT
    expect(page.locator("#turn")).to_have_text("To call: East")
    expect(page.locator("#play-panel")).not_to_contain_text("To play")
    served.play(*PENALTY_BOARD[2:10])  # the auction ends, East leads, dummy (South) is to play
    expect(page.locator("#turn")).to_have_text("To play: South (dummy)")
    served.assert_nothing_concealed()


def test_a_defenders_penalty_card_is_shown_beside_his_seat_not_in_dummys_panel_law_50(served: Served) -> None:
    """West's major penalty card (Laws 49, 50) lies face up in front of West: the page shows it at
    West's place, the irregularities in their own panel, and neither in dummy's or the score's."""
    from playwright.sync_api import expect

    page = served.page
    served.play(*PENALTY_BOARD)
    west = page.locator("#trick .spot-W")
    expect(west.locator(".seat-card.penalty [data-card='H3']")).to_be_visible()
    expect(west.locator(".seat-card.penalty")).to_contain_text("major penalty card")
    expect(page.locator("#dummy-panel")).not_to_contain_text("penalty")
    expect(page.locator("#dummy-panel [data-card='H3']")).to_have_count(0)
    irregularities = page.locator("#irregularities-panel")
    expect(irregularities).to_contain_text(
        "Card exposed by a defender (West: \u26653) \u2014 Recorded: \u26653 is a penalty card")
    expect(page.locator("#results-panel")).not_to_contain_text("Penalty card")
    served.assert_nothing_concealed()


def test_the_lead_restriction_in_force_is_shown_to_the_players_laws_50_51(served: Served) -> None:
    """Declarer forbids East to lead hearts while he keeps the lead (Law 50D2): the players see
    the restriction, and West's heart penalty card goes back to his hand (it is no longer shown)."""
    from playwright.sync_api import expect

    page = served.page
    served.play(*PENALTY_BOARD)
    expect(page.locator("#restrictions")).to_have_count(1)
    expect(page.locator("#restrictions li")).to_have_count(0)
    served.play(FORBID_HEARTS)
    expect(page.locator("#restrictions li.lead")).to_have_text(
        "East may not lead a heart (\u2665) for as long as he keeps the lead (Laws 50, 51)")
    expect(page.locator("#trick .spot-W .seat-card")).to_have_count(0)
    expect(page.locator("#irregularities-panel")).to_contain_text("North forbids East to lead \u2665")
    served.assert_nothing_concealed()


def test_the_sessions_results_are_listed_board_by_board(served: Served) -> None:
    """Each board finished at this table: number, contract, declarer, result and score (board 2
    passed out, Law 22; board 3 3NT by North with three overtricks, +490)."""
    from playwright.sync_api import expect

    page = served.page
    expect(page.locator("#results")).to_contain_text("No board finished yet")
    served.play(*SESSION, PENALTY_BOARD[0])
    rows = page.locator("#results tr[data-board]")
    expect(rows).to_have_count(2)
    expect(page.locator("#results tr[data-board='2'] td")).to_have_text(["2", "Passed out", "\u2014", "", "0"])
    expect(page.locator("#results tr[data-board='3'] td")).to_have_text(["3", "3NT", "North", "+3", "490"])
    expect(page.locator("#results-panel")).to_contain_text("Total NS 490")
    served.assert_nothing_concealed()


def test_the_table_page_leads_the_players_to_the_rooms_results(served: Served) -> None:
    """The players find the room's results (the travellers of the boards they have played, the
    ranking when the Director publishes it) from their own table's page."""
    from playwright.sync_api import expect

    link = served.page.locator("#results-link")
    expect(link).to_be_visible()
    link.click()
    expect(served.page).to_have_url(served.url + "/results")
    assert served.page.locator("body").inner_text().strip()
