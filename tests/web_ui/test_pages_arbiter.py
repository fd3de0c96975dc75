"""The arbiter's page in a real headless Chromium, on a phone (the arbiter walks the room): each
option is the catalogue's plain sentence, cards are written with suit symbols, every input has a
label, a ruling leaves a clear "Ruled: ..." and no buttons, and the timeline makes the one
irregularity to rule on stand out from the notes (a long think noted, Laws 16, 73)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web_ui.conftest import PENALTY_BOARD, SESSION, make_app, played
from tests.web_ui.test_browser import CHROMIUM, serving
from tests.web_ui.test_pages_widths import WIDTHS, arbiter_login
from web_ui.local import LocalTable

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
CARD_CODE = re.compile(r"(?<![A-Za-z0-9])[SHDC][AKQJT2-9](?![A-Za-z0-9])")

# every visible input and select of the page, and whether a label with words names it
LABELS = """() => Array.from(document.querySelectorAll("#app input, #app select"))
  .filter((e) => e.checkVisibility())
  .map((e) => [e.id || e.name, Array.from(e.labels || []).some((l) => l.innerText.trim().length > 0)])"""


def _arbiter_on(browser: Any, lines: list[dict[str, Any]]) -> Iterator[tuple[Any, LocalTable]]:
    table = played(LocalTable(), lines)
    app, _ = make_app(table)
    with serving(app) as url:
        context = browser.new_context(**WIDTHS["phone"])
        try:
            page = context.new_page()
            arbiter_login(page, url)
            yield page, table
        finally:
            context.close()


@pytest.fixture
def penalty_card(browser: Any) -> Iterator[tuple[Any, LocalTable]]:
    """Board 4: East on lead while West has a major penalty card; declarer chooses (Laws 50, 51)."""
    yield from _arbiter_on(browser, [*SESSION, *PENALTY_BOARD])


@pytest.fixture
def long_think_then_lead_out_of_turn(browser: Any) -> Iterator[tuple[Any, LocalTable]]:
    """tests/scenarios/16_tempo_hesitation_against_own_pace.json: South thinks 40 s over 3NT (a
    note, Laws 16, 73); then East, declarer's right-hand opponent, leads out of turn (Law 54)."""
    spec = json.loads((SCENARIOS / "16_tempo_hesitation_against_own_pace.json").read_text(encoding="utf-8"))
    auction = [line for line in spec["log"] if "call" in line or "board" in line]
    yield from _arbiter_on(browser, [{"t": 0, "session": {"code": "duplicate", **spec["settings"]}}, *auction,
                                     {"t": 150, "seat": "E", "play": "HJ"}])


def test_options_are_sentences_cards_are_symbols_and_every_input_is_labelled_laws_50_51(
        penalty_card: tuple[Any, LocalTable]) -> None:
    from playwright.sync_api import expect

    page, _ = penalty_card
    card = page.locator("#pending .irr-card[data-irr='2']")
    expect(card.locator("form.option")).to_have_count(3)
    expect(card.locator("form.option[data-option='forbid_suit'] .option-sentence")).to_contain_text(
        "North forbids East to lead \u2665 for as long as he keeps the lead")
    expect(page.locator("#alert")).to_contain_text("major penalty card(s) \u26653")
    expect(page.locator("#alert")).to_contain_text("chooses: N (North)")
    expect(card.locator("select[name='suit'] option").first).to_have_text("\u2665 hearts")
    expect(page.locator("#turn .legal [data-card='CJ']")).to_have_text("\u2663J")
    text = page.inner_text("#app")
    shown = "\n".join(page.locator("#app section.panel:not(#entry-panel)").all_inner_texts())  # the entry's
    # labels say how a card is typed (SK)
    assert not CARD_CODE.findall(shown), f"cards written as codes: {sorted(set(CARD_CODE.findall(shown)))}"
    assert "_" not in text, "an option or status written as a code"
    unlabelled = [name for name, labelled in page.evaluate(LABELS) if not labelled]
    assert unlabelled == [], f"inputs without a label: {unlabelled}"


def test_a_ruling_leaves_ruled_and_its_sentence_and_no_buttons_laws_50_51(
        penalty_card: tuple[Any, LocalTable]) -> None:
    from playwright.sync_api import expect

    page, table = penalty_card
    forbid = page.locator("#pending .irr-card[data-irr='2'] form.option[data-option='forbid_suit']")
    forbid.get_by_label("suit forbidden").select_option("H")
    forbid.locator("button").click()
    card = page.locator("#pending .irr-card[data-irr='2']")
    expect(card.locator(".ruling")).to_have_text(re.compile(r"^Ruled: North forbids East to lead \u2665"))
    expect(card.locator("button, form.option")).to_have_count(0)
    irr = table.snapshot().state.irregularity(2)
    assert irr is not None and irr.status == "ruled"


def test_the_timeline_sets_the_irregularity_apart_from_the_notes_laws_16_54(
        long_think_then_lead_out_of_turn: tuple[Any, LocalTable]) -> None:
    from playwright.sync_api import expect

    page, _ = long_think_then_lead_out_of_turn
    timeline = page.locator("#timeline")
    real = timeline.locator("tr.irr-row")
    expect(real).to_have_count(1)
    expect(real).to_contain_text("Irregularity 2: Opening lead out of turn (Law 54) \u00b7 awaiting ruling")
    note = timeline.locator("tr.noted-think")
    expect(note).to_have_count(1)
    expect(note).to_contain_text("note: S thought 40 s over a call")
    expect(timeline.locator("tr.hesitation")).to_have_count(0)
    looks = page.evaluate("""() => {
      const style = (sel) => getComputedStyle(document.querySelector(sel));
      const real = style("#timeline tr.irr-row td:first-child"), note = style("#timeline tr.noted-think .note");
      const plain = style("#timeline tr.act-row td");
      return { realBorder: parseFloat(real.borderLeftWidth), realBg: real.backgroundColor,
               plainBg: plain.backgroundColor, realWeight: Number(style("#timeline tr.irr-row b").fontWeight),
               noteSize: parseFloat(note.fontSize), plainSize: parseFloat(plain.fontSize) };
    }""")
    assert looks["realBorder"] >= 4 and looks["realBg"] != looks["plainBg"] and looks["realWeight"] >= 700
    assert looks["noteSize"] < looks["plainSize"]
