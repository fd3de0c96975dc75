"""Penalty cards (Laws 49-52) as the table sees them, beyond the scenario files: a defender's card
faced on the table during the play, and what is not an exposure."""

from __future__ import annotations

from typing import Any

from controller.records.tablelog import action_of
from controller.table import Step, TableState, step

DEAL = "N:AKQJ2.AQ2.AK2.32 43.K.QJT3.AKQJT4 765.76543.765.65 T98.JT98.984.987"


def _table(lines: list[dict[str, Any]], code: str = "duplicate") -> tuple[TableState, list[Step]]:
    state = step(TableState.new(), action_of({"t": 0, "session": {"code": code}})).state
    state = step(state, action_of({"t": 0, "board": {"number": 1, "dealer": "N", "vul": "None", "deal": DEAL}})).state
    for i, call in enumerate(["1S", "Pass", "2S", "Pass", "4S", "Pass", "Pass", "Pass"]):
        state = step(state, action_of({"t": 1 + i, "seat": "NESW"[i % 4], "call": call})).state
    steps = []
    for line in lines:
        result = step(state, action_of(line))
        assert not any(e.kind == "rejected" for e in result.events), result.events
        steps.append(result)
        state = result.state
    return state, steps


def _penalty_cards(state: TableState) -> list[tuple[str, str, bool]]:
    board = state.board
    assert board is not None
    return [(str(pc.seat), str(pc.card), pc.major) for pc in board.penalty_cards]


def test_an_honour_faced_by_the_opening_leaders_partner_is_major_and_declarer_chooses_first_law_50() -> None:
    """D 49, 50 (Duplicate Decisions: DD 50 major penalty card item 4: partner may not lead until declarer
    has chosen); R 50 (Laws of Rubber Bridge 2014). W faces HJ before E's opening lead."""
    state, steps = _table([{"t": 10, "seat": "W", "face": ["HJ"]}])
    assert [i.situation for i in steps[0].irregularities] == ["card_exposed_by_defender", "major_pc_partner_on_lead"]
    assert _penalty_cards(state) == [("W", "HJ", True)]
    assert [i.situation for i in state.awaiting()] == ["card_exposed_by_defender", "major_pc_partner_on_lead"]


def test_a_penalty_card_put_face_up_in_front_of_its_owner_is_not_exposed_again_law_50() -> None:
    """D 50 (DD 50 major penalty card item 1: left face up in front of its owner): the owner
    putting his penalty card on his spread zone exposes nothing new."""
    state, steps = _table([{"t": 10, "seat": "E", "play": "DQ"}, {"t": 11, "seat": "S", "play": "D5"},
                           {"t": 12, "seat": "W", "play": "D4"}, {"t": 13, "seat": "N", "play": "DA"},
                           {"t": 14, "seat": "E", "face": ["D3"]}, {"t": 15, "seat": "E", "face": ["D3"]}])
    assert [i.situation for i in steps[4].irregularities] == ["card_exposed_by_defender"]
    assert steps[5].irregularities == ()
    assert _penalty_cards(state) == [("E", "D3", False)]


def test_cards_faced_for_a_claim_or_a_whole_hand_faced_are_not_penalty_cards_law_68() -> None:
    """D 68 (Duplicate Decisions: a player who intentionally faces his hand makes a claim; DD 68 item 3, cards
    exposed by a defender whose partner objects to his concession are no penalty cards); R 49
    footnote 20 (Laws of Rubber Bridge 2014: a defender's exposure in claiming is governed by Law 70). Choice:
    cards a defender faces while a claim is pending, or all the cards he still holds, are not
    penalty cards; the arbiter enters the claim or treats them as information."""
    lead = [{"t": 10, "seat": "E", "play": "DQ"}, {"t": 11, "seat": "S", "play": "D5"},
            {"t": 12, "seat": "W", "play": "D4"}, {"t": 13, "seat": "N", "play": "DA"}]
    state, _ = _table([*lead, {"t": 14, "seat": "N", "claim": 12},
                       {"t": 15, "seat": "W", "face": ["ST", "HJ"]}])
    assert _penalty_cards(state) == [] and state.irregularities == ()
    whole = ["ST", "S9", "S8", "HJ", "HT", "H9", "H8", "D9", "D8", "C9", "C8", "C7"]
    state, _ = _table([*lead, {"t": 14, "seat": "W", "face": whole}])
    assert _penalty_cards(state) == [] and state.irregularities == ()


def test_the_arbiter_finds_an_exposed_card_not_a_penalty_card_dd_49() -> None:
    """DD 49 note (Duplicate Decisions): when an external influence caused the exposure the Director
    designates the card not a penalty card (option ``no_penalty``)."""
    state, _ = _table([{"t": 10, "seat": "E", "play": "DQ"}, {"t": 11, "seat": "S", "play": "D5"},
                       {"t": 12, "seat": "W", "play": "D4"}, {"t": 13, "seat": "N", "play": "DA"},
                       {"t": 14, "seat": "W", "face": ["HJ"]},
                       {"t": 15, "ruling": {"id": 1, "option": "no_penalty"}}])
    assert _penalty_cards(state) == []
    irr = state.irregularity(1)
    assert irr is not None and irr.status == "ruled"
