"""Every page (table, spectator, arbiter, the Director's console) in a real headless Chromium at
phone (390x844), tablet (820x1180) and desktop (1366x900) widths: nothing scrolls sideways and
no two pieces of text overlap (measured in the page with getBoundingClientRect and the text's
own boxes).

The README's pictures come from here, on purpose only: ``make screenshots`` (that is
``BRIDGE_SCREENSHOTS=1``) writes ``docs/<page>-<width>.png``; an ordinary test run writes
nothing in the tree."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web_ui.conftest import PENALTY_BOARD, PIN, SESSION, make_app, played
from tests.web_ui.test_browser import CHROMIUM, serving
from web_ui.local import LocalTable

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")

WIDTHS: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "tablet": {"viewport": {"width": 820, "height": 1180}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1366, "height": 900}},
}
DOCS = Path(__file__).resolve().parents[2] / "docs"
SCREENSHOTS = os.environ.get("BRIDGE_SCREENSHOTS") == "1"

# The text boxes of the page (each text node's line boxes cut to the font's em box, clipped by
# the scrolling or hidden overflow of its ancestors), and every pair of them that overlaps by more than 2 px each way,
# and every box past the right edge of the window.
LAYOUT_PROBLEMS = """() => {
  const boxes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const clipOf = (node) => {
    let clip = { left: -1e9, top: -1e9, right: 1e9, bottom: 1e9 };
    for (let e = node.parentElement; e && e !== document.body; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.overflowX !== "visible" || style.overflowY !== "visible") {
        const r = e.getBoundingClientRect();
        clip = { left: Math.max(clip.left, r.left), top: Math.max(clip.top, r.top),
                 right: Math.min(clip.right, r.right), bottom: Math.min(clip.bottom, r.bottom) };
      }
    }
    return clip;
  };
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const parent = node.parentElement;
    if (!node.textContent.trim() || !parent || !parent.checkVisibility({ visibilityProperty: true })) continue;
    if (parent.closest("select, option, script, style")) continue;
    const clip = clipOf(node);
    const em = parseFloat(getComputedStyle(parent).fontSize);
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      // the glyphs' em box: a font's ascent and descent reach past it, into the next line's
      const inset = Math.max(0, (r.height - em) / 2);
      const box = { left: Math.max(r.left, clip.left), top: Math.max(r.top + inset, clip.top),
                    right: Math.min(r.right, clip.right), bottom: Math.min(r.bottom - inset, clip.bottom) };
      if (box.right - box.left < 1 || box.bottom - box.top < 1) continue;
      boxes.push({ box, node, text: node.textContent.trim().slice(0, 40) });
    }
  }
  const problems = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) {
    problems.push("the page scrolls sideways: " + document.documentElement.scrollWidth + "px in " + width + "px");
  }
  for (const b of boxes) {
    if (b.box.right > width + 1) {
      problems.push("past the right edge: '" + b.text + "' at " + Math.round(b.box.right) + "px");
    }
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i].box, b = boxes[j].box;
      const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (dx > 2 && dy > 2 && boxes[i].node !== boxes[j].node) {
        problems.push("'" + boxes[i].text + "' overlaps '" + boxes[j].text + "'");
      }
    }
  }
  return problems;
}"""


def layout_problems(page: Any) -> list[str]:
    """Text that overlaps other text or leaves the window, and sideways scrolling (empty: none)."""
    found: list[str] = page.evaluate(LAYOUT_PROBLEMS)
    return found


def arbiter_login(page: Any, url: str) -> None:
    from playwright.sync_api import expect

    page.goto(url + "/arbiter")
    page.fill("#pin", PIN)
    page.click("#login-button")
    expect(page.locator("#status")).to_have_text("live")


@pytest.fixture(scope="module")
def table_url() -> Iterator[str]:
    """A table with two boards finished and board 4 in play: a defender's major penalty card, his
    partner on lead, declarer to choose (Laws 50, 51): the arbiter's page shows the options."""
    table = played(LocalTable(), [*SESSION, *PENALTY_BOARD])
    app, _ = make_app(table)
    with serving(app) as url:
        yield url


@pytest.fixture(scope="module")
def console_url() -> Iterator[str]:
    from tests.web_ui.console_fake import FakeConsole, console_settings
    from tests.web_ui.test_console_browser import a_room
    from web_ui.console import create_console_app

    fake = FakeConsole(boards_per_round=2)
    a_room(fake)
    with serving(create_console_app(fake, console_settings())) as url:
        yield url


def _open(page: Any, which: str, table_url: str, console_url: str) -> None:
    from playwright.sync_api import expect

    from tests.web_ui.console_fake import PIN as CONSOLE_PIN

    if which == "table":
        page.goto(table_url + "/")
        expect(page.locator("#results tr[data-board='3']")).to_contain_text("490")
    elif which == "spectator":
        page.goto(table_url + "/spectator")
        expect(page.locator("#results tr[data-board='3']")).to_contain_text("490")
    elif which == "arbiter":
        arbiter_login(page, table_url)
        expect(page.locator("#pending form.option")).to_have_count(3)
    else:
        page.goto(console_url + "/")
        page.fill("#pin", CONSOLE_PIN)
        page.click("#login-button")
        expect(page.locator("#tiles .tile")).to_have_count(8)
    expect(page.locator("#status")).to_have_text("live")


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("which", ["table", "spectator", "arbiter", "console"])
def test_every_page_fits_the_width_without_overlapping_text(browser: Any, table_url: str, console_url: str,
                                                            which: str, width: str) -> None:
    context = browser.new_context(**WIDTHS[width])
    try:
        page = context.new_page()
        _open(page, which, table_url, console_url)
        assert layout_problems(page) == [], f"the {which} page at {width} width"
        if SCREENSHOTS:
            DOCS.mkdir(exist_ok=True)
            page.screenshot(path=str(DOCS / f"{which}-{width}.png"), full_page=width != "phone")
    finally:
        context.close()


def test_the_overlap_check_sees_text_laid_over_text(browser: Any, table_url: str) -> None:
    """The check itself: two labels pushed onto each other are found."""
    context = browser.new_context(**WIDTHS["tablet"])
    try:
        page = context.new_page()
        _open(page, "table", table_url, "")
        assert layout_problems(page) == []
        page.evaluate("""() => { const t = document.querySelector('#turn');
          t.style.position = 'relative'; t.style.top = '-2.2rem'; }""")
        assert any("overlaps" in p for p in layout_problems(page))
    finally:
        context.close()


LONG_SUITS_DEAL = "N:AKQJT9876.A.A.32 5432.KQJ.KQJ.AKQ .T98765432.T9.JT ..8765432.987654"
"""North nine spades, South nine hearts, West seven diamonds and six clubs, and voids."""

# Each suit line of the deals shown: its first card beside the suit's symbol (not alone on a line
# of its own), and no card under the symbol, nor past the hand's right edge, when a long suit wraps.
SUIT_LINE_PROBLEMS = """() => {
  const problems = [];
  for (const line of document.querySelectorAll(".deal .suit-line")) {
    if (!line.checkVisibility()) continue;
    const symbol = line.querySelector(".suit").getBoundingClientRect();
    const cards = [...line.children].filter((c) => !c.classList.contains("suit")).map((c) => c.getBoundingClientRect());
    const right = line.getBoundingClientRect().right;
    const text = line.textContent;
    if (cards.length && Math.abs(cards[0].top - symbol.top) > 2) problems.push("the symbol alone on its line: " + text);
    if (cards.some((c) => c.left < symbol.right - 1)) problems.push("a card under the suit's symbol: " + text);
    if (cards.some((c) => c.right > right + 1)) problems.push("a card past its hand: " + text);
  }
  return problems;
}"""


@pytest.fixture(scope="module")
def long_suits_url() -> Iterator[str]:
    """Board 5 of ``LONG_SUITS_DEAL``: 4♠ by North, East has led: the arbiter's page shows the whole deal."""
    board: list[dict[str, Any]] = [
        {"board": {"number": 5, "dealer": "N", "vul": "None", "deal": LONG_SUITS_DEAL}},
        {"seat": "N", "call": "4S"}, {"seat": "E", "call": "Pass"}, {"seat": "S", "call": "Pass"},
        {"seat": "W", "call": "Pass"}, {"seat": "E", "play": "CA"}]
    app, _ = make_app(played(LocalTable(), board))
    with serving(app) as url:
        yield url


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_long_suit_wraps_under_its_first_card_on_the_arbiter_page(browser: Any, long_suits_url: str,
                                                                    width: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(**WIDTHS[width])
    try:
        page = context.new_page()
        arbiter_login(page, long_suits_url)
        expect(page.locator("#deal .suit-line")).to_have_count(16)
        assert page.evaluate(SUIT_LINE_PROBLEMS) == [], f"the arbiter's deal at {width} width"
        assert layout_problems(page) == [], f"the arbiter page at {width} width"
    finally:
        context.close()
