"""Claims and concessions (Laws 68-71) beyond the scenario files: who may object, and how."""

from __future__ import annotations

from typing import Any

from controller.records.tablelog import action_of
from controller.table import TableState, step

DEAL = "N:AKQJ.AKQ.AKQ.432 T98.JT9.JT9.AKQJ 765.876.8765.T98 432.5432.432.765"


def _table(lines: list[dict[str, Any]], code: str = "duplicate") -> TableState:
    state = step(TableState.new(), action_of({"t": 0, "session": {"code": code}})).state
    state = step(state, action_of({"t": 0, "board": {"number": 1, "dealer": "N", "vul": "None", "deal": DEAL}})).state
    for i, call in enumerate(["1NT", "Pass", "2NT", "Pass", "3NT", "Pass", "Pass", "Pass"]):
        state = step(state, action_of({"t": 1 + i, "seat": "NESW"[i % 4], "call": call})).state
    for line in lines:
        result = step(state, action_of(line))
        assert not any(e.kind == "rejected" for e in result.events), result.events
        state = result.state
    return state


def test_a_defenders_concession_his_partner_objects_to_is_no_concession_law_68() -> None:
    """DD 68 (Duplicate Decisions: 'when a defender concedes, and his partner immediately objects, no card
    exposed is a penalty card ... Play continues'): no dispute for the arbiter, play goes on."""
    state = _table([{"t": 10, "seat": "E", "play": "CA"}, {"t": 11, "seat": "S", "play": "C8"},
                    {"t": 12, "seat": "W", "play": "C5"}, {"t": 13, "seat": "N", "play": "C2"},
                    {"t": 14, "seat": "E", "concede": 12}, {"t": 15, "seat": "W", "agree": False},
                    {"t": 16, "seat": "E", "play": "CK"}])
    board = state.board
    assert board is not None and board.claim is None and state.irregularities == ()
    assert board.play is not None and [str(c) for c in board.play.current.cards] == ["CK"]


def test_a_director_call_while_a_claim_is_pending_disputes_it_law_68d() -> None:
    """D 68D, 70 (Duplicate Decisions): the arbiter is called while declarer's claim awaits the defenders'
    agreement: the claim is disputed and play stops until he rules."""
    state = _table([{"t": 10, "seat": "E", "play": "CA"}, {"t": 11, "seat": "S", "play": "C8"},
                    {"t": 12, "seat": "W", "play": "C5"}, {"t": 13, "seat": "N", "play": "C2"},
                    {"t": 14, "seat": "E", "play": "CK"}, {"t": 15, "seat": "S", "play": "C9"},
                    {"t": 16, "seat": "W", "play": "C6"}, {"t": 17, "seat": "N", "play": "C3"},
                    {"t": 18, "seat": "E", "claim": 1}, {"t": 19, "seat": "N", "director": True}])
    (irr,) = state.awaiting()
    assert (irr.situation, str(irr.offender), irr.chooser) == ("claim_by_defender", "E", "arbiter")
    board = state.board
    assert board is not None and board.claim is not None and board.claim.disputed == irr.id
    refused = step(state, action_of({"t": 20, "seat": "E", "play": "CQ"}))
    assert any(e.kind == "rejected" and "play has stopped" in e.detail for e in refused.events)
