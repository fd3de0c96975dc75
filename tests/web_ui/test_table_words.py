"""The words the players read on the table page (issue 23 D): every line names the seat, the call or
card, and what follows in plain words, from the view model (``controller.tablewords``, the
catalogue's sentences), never a bare option code; a call held aside for a ruling is named with its
seat, not drawn in the column of the player whose turn it is. The view model over the scenario
logs, and the page itself at phone width (390 px) in a real Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from controller import actions as a
from controller import catalogue
from controller.records.tablelog import action_of
from controller.table import TableState, step
from controller.views import table_view
from tests.web_ui.conftest import FORBID_HEARTS, PAGE_DEAL, PENALTY_BOARD, Revealed, make_app, played, scenario_logs
from tests.web_ui.test_browser import CHROMIUM, serving
from tests.web_ui.test_pages_widths import WIDTHS
from web_ui.local import LocalTable

SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}
BOARD: dict[str, Any] = {"board": {"number": 1, "dealer": "N", "vul": "None", "deal": PAGE_DEAL}}
SOUTH_PASSES_AT_EASTS_TURN: list[dict[str, Any]] = [BOARD, {"seat": "N", "call": "1H"}, {"seat": "S", "call": "Pass"}]


def _table(code: str, lines: list[dict[str, Any]]) -> dict[str, Any]:
    state = step(TableState.new(), action_of({"t": 0, "session": {"code": code}})).state
    for t, line in enumerate(lines, start=1):
        state = step(state, action_of({"t": t, **line})).state
    return table_view(state)


@pytest.mark.parametrize("code", ["duplicate", "duplicate2017"])
def test_a_pass_out_of_rotation_held_for_a_ruling_is_named_with_its_seat_laws_29_30(code: str) -> None:
    """South passes at East's turn (Law 30): the pass waits for West's choice (Law 29). The page reads
    South's pass, not a "Pass?" in East's column: the view says whose call it is, in words."""
    view = _table(code, SOUTH_PASSES_AT_EASTS_TURN)
    board = view["board"]
    assert [c["call"] for c in board["auction"]] == ["1H"]
    assert board["held_calls"] == [{"seat": "S", "call": "Pass", "text": "South's pass is held aside until the "
                                    "ruling (Pass out of rotation at East's turn)"}]
    law = catalogue.law_words(catalogue.situation_named("pass_oor_rho_turn_after_bid").law(code))
    assert [i["text"] for i in view["irregularities"]] == [
        f"Pass out of rotation at East's turn (South: pass) \u2014 Waiting for West to choose ({law})."]


def test_the_call_replacing_an_insufficient_bid_is_named_for_what_it_is_2017_law_23() -> None:
    """Under 2017 Law 23 the arbiter judges whether East's pass, replacing his cancelled insufficient
    1♠, is comparable: the pass is not labelled "Insufficient bid (Law 23)"."""
    view = _table("duplicate2017", [BOARD, {"seat": "N", "call": "1NT"}, {"seat": "E", "call": "1S"},
                                    {"ruling": {"id": 1, "option": "correct"}}, {"seat": "E", "call": "Pass"}])
    first, replacement = (i["text"] for i in view["irregularities"])
    assert first.startswith("Insufficient bid (East: 1\u2660) \u2014 South does not accept: East's next call "
                            "replaces 1\u2660")
    assert replacement == ("Comparable call? (the call replacing a cancelled one; East: pass) \u2014 Waiting for "
                           "the arbiter to rule (Law 23).")
    assert view["board"]["held_calls"][0]["text"].startswith("East's pass is held aside until the ruling")


def test_a_lead_restriction_names_the_seat_the_suit_and_the_consequence_2017_law_26B() -> None:
    """East's inadmissible double is cancelled, West's call when barred too (Laws 36, 37); declarer
    forbids spades (2017 Law 26B): the players read who may not lead what, not "insufficient bid"."""
    view = _table("duplicate2017", [
        BOARD, {"seat": "N", "call": "Pass"}, {"seat": "E", "call": "X"}, {"ruling": {"id": 1, "option": "cancel"}},
        {"seat": "E", "call": "Pass"}, {"seat": "S", "call": "1NT"}, {"seat": "W", "call": "2C"},
        {"ruling": {"id": 2, "option": "cancel"}}, {"seat": "N", "call": "3NT"}, {"seat": "E", "call": "Pass"},
        {"seat": "S", "call": "Pass"}, {"seat": "W", "call": "Pass"}, {"seat": "W", "play": "C7"},
        {"ruling": {"id": 3, "option": "forbid_suit", "suit": "S"}}])
    assert view["irregularities"][2]["text"] == (
        "Lead option after a withdrawn call (East) \u2014 South forbids West to lead \u2660, a suit East did not "
        "specify in the legal auction, for as long as he keeps the lead (Law 26B).")
    restrictions = [r["text"] for r in view["board"]["restrictions"]]
    assert "West may not lead a spade (\u2660) for as long as he keeps the lead (Law 26B)" in restrictions


def _walk(actions: list[a.Action]) -> Iterator[dict[str, Any]]:
    state = TableState.new()
    for action in actions:
        state = step(state, action).state
        yield table_view(state)


@pytest.mark.parametrize("actions", scenario_logs())
def test_every_line_the_players_read_names_the_seat_and_the_law_in_words(actions: list[a.Action]) -> None:
    """Over every scenario, step by step: each irregularity line names its offender's seat and the law,
    each held call and restriction its seat; no line is a bare option code ("cancel", "forbid_suit")."""
    for view in _walk(actions):
        for irr in view["irregularities"]:
            text = irr["text"]
            assert "_" not in text and text.endswith("."), text
            if irr["offender"]:
                assert SEAT_WORDS[irr["offender"]] in text, text
            if irr["law"]:
                assert catalogue.law_words(irr["law"]) in text, text
            if irr["ruling"] and irr["ruling"].get("suit"):
                assert catalogue.card_words(irr["ruling"]["suit"] + "2")[0] in text, text
        board = view["board"] or {}
        for held in board.get("held_calls", []):
            assert held["text"].startswith(SEAT_WORDS[held["seat"]] + "'s "), held
        for rule in board.get("restrictions", []):
            assert SEAT_WORDS[rule["seat"]] in rule["text"] and "_" not in rule["text"], rule


# --- the page at phone width ------------------------------------------------------------------------

def _after_one(line: dict[str, Any]) -> dict[str, Any]:
    """A table-log line with its ruling's irregularity number one higher."""
    if "ruling" not in line:
        return line
    return {**line, "ruling": {**line["ruling"], "id": line["ruling"]["id"] + 1}}


@pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                    reason="no /usr/bin/chromium (make installs it)")
def test_the_table_page_at_phone_width_names_the_seat_the_call_and_the_consequence(browser: Any) -> None:
    """At 390 px: South's pass at East's turn is named as South's, not drawn as "Pass?" in East's
    column; then, on another board, declarer's ruling on West's penalty card says which suit East
    may not lead, in words (Laws 29, 30, 50, 51)."""
    from playwright.sync_api import expect

    table = LocalTable()
    app, _ = make_app(table)
    with serving(app) as url:
        context = browser.new_context(**WIDTHS["phone"])
        try:
            page = context.new_page()
            page.goto(url + "/")
            expect(page.locator("#status")).to_have_text("live")
            revealed = Revealed()
            played(table, SOUTH_PASSES_AT_EASTS_TURN, revealed)
            expect(page.locator("#auction .held-call[data-seat='S']")).to_have_text(
                "South's pass is held aside until the ruling (Pass out of rotation at East's turn)")
            expect(page.locator("#auction table.auction td")).to_have_count(2)  # West's empty cell and 1♥
            expect(page.locator("#auction")).not_to_contain_text("?")
            expect(page.locator("#irregularities li")).to_have_text(
                "Pass out of rotation at East's turn (South: pass) \u2014 Waiting for West to choose (Law 30B1(a)).")

            # board 4 of the page tests, its irregularities numbered after this board's
            next_board = [_after_one(line) for line in [*PENALTY_BOARD, FORBID_HEARTS]]
            played(table, [{"ruling": {"id": 1, "option": "cancel"}}, *next_board], revealed)
            expect(page.locator("#restrictions li.lead")).to_have_text(
                "East may not lead a heart (\u2665) for as long as he keeps the lead (Laws 50, 51)")
            expect(page.locator("#irregularities li[data-irr='3']")).to_have_text(
                "Partner of a major penalty card's owner on lead (West) \u2014 North forbids East to lead \u2665 "
                "for as long as he keeps the lead; West's penalty cards of that suit go back to his hand (also "
                "forbidden: no other suit) (Laws 50, 51).")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        finally:
            context.close()
