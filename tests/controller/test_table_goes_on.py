"""The players going on past an irregularity that awaits its ruling (issue 23, part A1).

The controller never applies a rectification the players have not made: when they go on, the call
or card held for the ruling is put in the record as the table has it, the new action is taken as
any other, and the arbiter is told once per board (``table_departs_from_record``: the Director's
powers, Law 81C, and his rectification of the record, Law 82A), with the choice of confirming the
table or ruling himself. Nothing the players do next is refused for it.
"""

from __future__ import annotations

from typing import Any

from controller.records.tablelog import action_of
from controller.table import Step, TableState, step

DEAL = "N:AKQJ.AKQ.AKQ.432 T98.JT9.JT9.AKQJ 765.876.8765.T98 432.5432.432.765"
AUCTION: list[dict[str, Any]] = [{"seat": s, "call": c} for s, c in zip(
    "NESWNESW", ["1NT", "Pass", "2NT", "Pass", "3NT", "Pass", "Pass", "Pass"], strict=True)]


def _play(code: str, lines: list[dict[str, Any]], **settings: object) -> tuple[TableState, list[Step]]:
    state = step(TableState.new(), action_of({"t": 0, "session": {"code": code, **settings}})).state
    state = step(state, action_of({"t": 0, "board": {"number": 1, "dealer": "N", "vul": "None", "deal": DEAL}})).state
    steps = []
    for i, line in enumerate(lines, start=1):
        result = step(state, action_of({"t": i, **line}))
        steps.append(result)
        state = result.state
    return state, steps


def _plays(lines: list[tuple[str, str]]) -> list[dict[str, Any]]:
    return [{"seat": s, "play": c} for s, c in lines]


def _situations(state: TableState) -> list[tuple[str, str]]:
    return [(i.situation, i.status) for i in state.irregularities]


def _refused(steps: list[Step]) -> list[str]:
    return [e.detail for s in steps for e in s.events if e.kind == "rejected"]


def test_a_face_down_lead_out_of_turn_the_proper_leader_leads_over_is_followed_laws_41a_81c() -> None:
    """D 41A: a face-down opening lead out of turn goes back without rectification when the Director
    says so. Here East, the proper leader, leads before anyone calls him: the table has taken West's
    card back, so the trick is East's and the arbiter is told once; no later card is refused."""
    for code in ("duplicate", "duplicate2017"):
        lines = [*AUCTION, *_plays([("W", "S2"), ("E", "HJ"), ("S", "H8"), ("W", "H5"), ("N", "HA")])]
        state, steps = _play(code, lines, face_down_opening_lead=True)
        assert not _refused(steps), code
        assert state.board is not None and state.board.play is not None
        assert [str(c) for t in state.board.play.tricks for c in t.cards] == ["HJ", "H8", "H5", "HA"]
        assert _situations(state) == [("opening_lead_face_down_out_of_turn", "awaiting_ruling"),
                                      ("table_departs_from_record", "awaiting_ruling")], code
        assert state.irregularities[-1].law == "81C, 82A"


def test_the_lead_made_before_declarers_lead_option_stands_when_dummy_plays_on_laws_50d_81c() -> None:
    """Law 50D: West has major penalty cards and East is on lead, so declarer may restrict East's
    lead. East leads before declarer speaks and dummy plays to it: the lead stands as the table has
    it (declarer in effect asked for nothing); the arbiter is told once and may still rule."""
    lines: list[dict[str, Any]] = [*AUCTION[:3], {"seat": "W", "face": ["S2", "S3"]}, *AUCTION[3:],
             *_plays([("E", "HJ"), ("S", "H8"), ("W", "H5"), ("N", "HA")])]
    state, steps = _play("duplicate2017", lines)
    assert not _refused(steps)
    assert state.board is not None and state.board.play is not None
    assert [str(c) for t in state.board.play.tricks for c in t.cards] == ["HJ", "H8", "H5", "HA"]
    assert _situations(state) == [("card_exposed_in_auction_honour_or_several", "awaiting_ruling"),
                                  ("major_pc_partner_on_lead", "awaiting_ruling"),
                                  ("table_departs_from_record", "awaiting_ruling")]
    synced, _ = _play("duplicate2017", [*lines, {"ruling": {"id": 3, "option": "resync"}}])
    assert _situations(synced)[1:] == [("major_pc_partner_on_lead", "accepted"), ("table_departs_from_record", "ruled")]


def test_the_alert_is_not_raised_where_the_code_names_no_director_rubber() -> None:
    """Rubber bridge has no Director at the table (R: the players settle it; the Club Laws' Arbiter
    aside): the record still follows the table, and nothing is raised for it."""
    lines = [*AUCTION, *_plays([("W", "S2"), ("E", "HJ"), ("S", "H8")])]
    state, steps = _play("rubber", lines, face_down_opening_lead=True)
    assert not _refused(steps)
    assert [s for s, _ in _situations(state)] == ["opening_lead_face_down_out_of_turn"]
