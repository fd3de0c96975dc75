"""Revokes and their transfers (Laws 61-64) as the table sees them, beyond the scenario files."""

from __future__ import annotations

from typing import Any

from controller.records.tablelog import action_of
from controller.table import TableState, step


def _table(code: str, deal: str, lines: list[dict[str, Any]]) -> TableState:
    state = step(TableState.new(), action_of({"t": 0, "session": {"code": code}})).state
    state = step(state, action_of({"t": 0, "board": {"number": 1, "dealer": "N", "vul": "None", "deal": deal}})).state
    t = 0.5
    for seat, call in zip("NESWNESW", ["1S", "Pass", "2S", "Pass", "4S", "Pass", "Pass", "Pass"], strict=True):
        state = step(state, action_of({"t": t, "seat": seat, "call": call})).state
        t += 1
    for line in lines:
        result = step(state, action_of(line))
        assert not any(e.kind == "rejected" for e in result.events), result.events
        state = result.state
    return state


def test_failure_to_play_a_penalty_card_holding_another_card_of_the_suit_is_an_ordinary_revoke_law_64() -> None:
    """D 64B3 exempts a revoke that "involves ... any other faced card"; R 64D3 one "made in failing
    to play any card faced on ... the table" (Duplicate Decisions; Laws of Rubber Bridge 2014, Law 64).
    Choice: when the revoker
    also held a card of the suit led in his closed hand, he failed to follow suit from it too, and
    the revoke is an ordinary one (the arbiter may adjust either way, Law 64C)."""
    # E holds HK (exposed: a major penalty card) and H5; he ruffs the heart lead with S4
    deal = "N:AKQJ2.AQ2.AK2.32 43.K5.QJT3.AKQJ4 765.7643.765.T65 T98.JT98.984.987"
    lines = [{"t": 10, "seat": "E", "play": "DQ"}, {"t": 11, "seat": "S", "play": "D5"},
             {"t": 12, "seat": "W", "play": "D4"}, {"t": 13, "seat": "N", "play": "DA"},
             {"t": 13.5, "seat": "E", "expose": "HK"}, {"t": 14, "seat": "N", "play": "H2"},
             {"t": 15, "seat": "E", "play": "S4"}, {"t": 16, "seat": "S", "play": "H3"}]
    for code in ("duplicate", "rubber"):
        state = _table(code, deal, lines)
        revoke = state.irregularities[-1]
        assert (revoke.kind, revoke.situation, str(revoke.offender)) == ("revoke", "revoke", "E")
        board = state.board
        assert board is not None and [rv.exempt for rv in board.revokes] == [""]


def test_only_the_1905_laws_have_no_faced_card_exemption_w_85_87() -> None:
    """W 85 calls any failure to follow while holding the suit a revoke and W 87 exempts only dummy
    (W 65); the 1905 laws (the 1905 laws) have no faced-card exemption, D 64B3 and R 64D3 have one."""
    from controller.codes import code_named

    assert {name: code_named(name).rules.faced_card_revoke_exempt
            for name in ("duplicate", "rubber", "chicago", "bridge1905")} == {
        "duplicate": True, "rubber": True, "chicago": True, "bridge1905": False}


def test_a_revoke_cites_62_then_63_then_the_transfer_law_never_a_range_law_64() -> None:
    """D 62-64 (Duplicate Decisions: correction, establishment, the transfer of 64A1 when the revoker won the
    revoke trick); R 62-64 (Laws of Rubber Bridge 2014: 64A). The revoke's law follows what becomes of it."""
    import json
    from pathlib import Path

    spec = json.loads((Path(__file__).parents[1] / "scenarios" / "64A_revoke_revoker_won_the_trick_two_tricks.json")
                      .read_text(encoding="utf-8"))
    for code, final in (("duplicate", "64A1"), ("rubber", "64A")):
        state = step(TableState.new(), action_of({"t": 0, "session": {"code": code}})).state
        seen: list[str] = []
        for line in spec["log"]:
            state = step(state, action_of(line)).state
            revoke = next((i for i in state.irregularities if i.kind == "revoke"), None)
            if revoke is not None and (not seen or seen[-1] != revoke.law):
                seen.append(revoke.law)
        assert seen == ["62", "63", final]
