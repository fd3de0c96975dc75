"""The play under the 2017 Laws (``duplicate2017``) beside the 2008 code (``duplicate``).

Each test plays the same actions under both codes. What was read of the 2017 text (paraphrased):

- Law 53 (thesmolens.com LawsDupBridge/law53.html): a lead out of turn may be
  accepted only before the thirteenth trick; 53B is now the proper leader's own lead (2008 53C).
- Law 54C (2017 text quoted on BBO, 2021 [T]): once declarer could have seen any of dummy's cards he
  must accept the opening lead out of turn and the presumed declarer stays declarer.
- Law 57A (pzbs.pl 2017/en/l57.html [T]): a fourth option, partner plays a card of another suit
  named by declarer.
- Law 68D (not read on a law page): the EBU TD forum thread
  "Doubted Claim - Law 68 D 2 (b)" paraphrases 68D2(b): when a claim is doubted, the Director is
  called, or play goes on at the non-claiming side's request if all four players agree; the claim
  is then void and not adjudicated; bridgevid.com (2017) transcribes 68A-68D1 ("play is
  suspended"). Implemented as the arbiter's option ``play_on``: he enters it once all four agreed.
"""

from __future__ import annotations

from typing import Any

from controller.records.tablelog import action_of
from controller.table import Step, TableState, step

DEAL = "N:AKQJ.AKQ.AKQ.432 T98.JT9.JT9.AKQJ 765.876.8765.T98 432.5432.432.765"
AUCTION = [{"seat": s, "call": c} for s, c in zip(
    "NESWNESW", ["1NT", "Pass", "2NT", "Pass", "3NT", "Pass", "Pass", "Pass"], strict=True)]
SOUTH = ["S7", "S6", "S5", "H8", "H7", "H6", "D8", "D7", "D6", "D5", "CT", "C9", "C8"]


def _play(code: str, lines: list[dict[str, Any]]) -> tuple[TableState, list[Step]]:
    state = step(TableState.new(), action_of({"t": 0, "session": {"code": code}})).state
    state = step(state, action_of({"t": 0, "board": {"number": 1, "dealer": "N", "vul": "None", "deal": DEAL}})).state
    steps = []
    for i, line in enumerate([*AUCTION, *lines], start=1):
        result = step(state, action_of({"t": 10 * i, **line}))
        steps.append(result)
        state = result.state
    return state, steps


def _rejected(result: Step) -> str:
    return " ".join(e.detail for e in result.events if e.kind == "rejected")


def test_declarer_who_saw_dummy_may_become_dummy_in_2008_not_in_2017_law_54c() -> None:
    """D 54 (Duplicate Decisions, DD 54: declarer may accept and spread his hand) against 2017 54C: once he could
    have seen dummy's cards he must accept the lead and stays declarer."""
    lines = [{"seat": "W", "play": "S2"}, {"seat": "S", "face": SOUTH},
             {"ruling": {"id": 1, "option": "accept_become_dummy"}}]
    old, steps = _play("duplicate", lines)
    assert not _rejected(steps[-1]) and old.board is not None and old.board.contract is not None
    assert str(old.board.contract.declarer) == "S"
    new, steps = _play("duplicate2017", lines)
    # once dummy is faced the option is no longer offered (issue 23, B10): the ruling is refused
    assert new.irregularities[0].options == ("accept_see_dummy",)
    assert "'accept_become_dummy' is not offered" in _rejected(steps[-1])
    assert new.board is not None and new.board.contract is not None and str(new.board.contract.declarer) == "N"


FOUR_SPADES = [{"seat": seat, "play": card} for seat, card in zip(
    "ESWN" + "NESW" * 3,
    ["HJ", "H8", "H5", "HA", "SA", "ST", "S7", "S4", "SK", "S9", "S6", "S3", "SQ", "S8", "S5", "S2"], strict=True)]
# West out of spades plays before East at N's lead of SJ (premature play, Law 57)
PREMATURE = [*FOUR_SPADES, {"seat": "N", "play": "SJ"}, {"seat": "W", "play": "D2"}]


def test_declarer_may_require_partner_to_play_a_named_suit_only_in_2017_law_57a() -> None:
    """D 57 (Duplicate Decisions): require highest, lowest, or forbid another suit. 2017 57A adds: require a card
    of another suit named by declarer (here East, void in spades, must play a club)."""
    old, _ = _play("duplicate", PREMATURE)
    irr = old.irregularities[-1]
    assert irr.situation == "premature_play_by_defender"
    assert irr.options == ("require_highest", "require_lowest", "forbid_suit")
    new, _ = _play("duplicate2017", PREMATURE)
    irr = new.irregularities[-1]
    assert (irr.situation, irr.law) == ("premature_play_by_defender", "57A")
    assert irr.options == ("require_highest", "require_lowest", "forbid_suit", "require_suit")
    ruled, _ = _play("duplicate2017", [*PREMATURE, {"ruling": {"id": irr.id, "option": "require_suit", "suit": "C"}}])
    assert {str(c) for c in ruled.legal_cards(ruled.turn)} == {"CA", "CK", "CQ", "CJ"}  # type: ignore[arg-type]
    refused = step(new, action_of({"t": 999, "ruling": {"id": irr.id, "option": "require_suit", "suit": "S"}}))
    assert "other than the suit led" in _rejected(refused)


CLAIM: list[dict[str, Any]] = [{"seat": "E", "play": "HJ"}, {"seat": "S", "play": "H8"}, {"seat": "W", "play": "H5"},
         {"seat": "N", "play": "HA"}, {"seat": "N", "claim": 12}, {"seat": "E", "agree": False}]


def test_a_doubted_claim_stops_play_in_2008_and_may_be_played_on_in_2017_law_68d() -> None:
    """D 68D (Duplicate Decisions): after a claim play ceases; a doubt brings the Director (70). 2017 68D2(b):
    play may go on if the non-claiming side asks and all four agree; the claim is then void."""
    old, _ = _play("duplicate", CLAIM)
    irr = old.irregularities[-1]
    assert irr.situation == "claim_by_declarer" and irr.options == ("agree", "award")
    assert any("Law 70" in e.detail for e in _play("duplicate", CLAIM)[1][-1].events)
    refused = step(old, action_of({"t": 999, "ruling": {"id": irr.id, "option": "play_on"}}))
    assert _rejected(refused)
    new, steps = _play("duplicate2017", CLAIM)
    irr = new.irregularities[-1]
    assert irr.options == ("agree", "award", "play_on")
    assert any("Law 68D" in e.detail for e in steps[-1].events)
    on, steps = _play("duplicate2017", [*CLAIM, {"ruling": {"id": irr.id, "option": "play_on"}},
                                        {"seat": "N", "play": "SA"}])
    assert not _rejected(steps[-1]) and on.board is not None and on.board.claim is None
    assert on.board.play is not None and len(on.board.play.current.cards) == 1


def test_a_lead_out_of_turn_to_the_last_trick_may_be_accepted_in_2008_not_in_2017_law_53a() -> None:
    """DD 53 (Duplicate Decisions): any lead out of turn may be accepted, the last trick too. 2017
    53A: acceptance only before the thirteenth trick."""
    for code, situation, options in (("duplicate", "lead_out_of_turn_by_defender", ("accept", "reject")),
                                     ("duplicate2017", "lead_out_of_turn_last_trick", ("reject",))):
        state, _ = _play(code, [])
        while state.board is not None and state.board.play is not None and len(state.board.play.tricks) < 12:
            seat = state.turn
            assert seat is not None
            card = state.legal_cards(seat)[-1]
            state = step(state, action_of({"t": 1000, "seat": str(seat), "play": str(card)})).state
        play = state.board.play if state.board is not None else None
        assert play is not None
        leader = play.turn
        declarer = play.declarer
        wrong = declarer.lho if leader.side is declarer.side else leader.partner
        hand = play.hands[wrong]
        assert hand is not None and len(hand) == 1
        card = next(iter(hand))
        state = step(state, action_of({"t": 2000, "seat": str(wrong), "play": str(card)})).state
        irr = state.irregularities[-1]
        assert (irr.situation, irr.options) == (situation, options), code
        assert code == "duplicate" or irr.law == "53A"


def test_the_proper_leader_leading_in_his_own_right_cites_53c_in_2008_and_53b_in_2017() -> None:
    """The letters of Law 53 swapped in 2017 (thesmolens.com law53 [T]): the proper leader's own lead
    is 53B (2008: 53C)."""
    lines = [*FOUR_SPADES[:4], {"seat": "E", "play": "ST"}, {"seat": "N", "play": "SA"}]
    for code, law in (("duplicate", "Law 53C"), ("duplicate2017", "Law 53B")):
        _, steps = _play(code, lines)
        assert any(e.kind == "superseded" and law in e.detail for e in steps[-1].events), (code, steps[-1].events)


def test_a_defender_playing_at_his_rhos_turn_a_card_he_may_not_play_gets_a_penalty_card_only_in_2017_law_57d(
) -> None:
    """D 57 (the card stands and waits for its turn: the choice of docs/irregularities.md) against 2017 57D
    (pzbs.pl 2017/en/l57.html): a card that may legally be played to the trick is
    played at his proper turn, any other becomes a major penalty card. West holds hearts and plays a
    diamond at dummy's turn to East's heart lead."""
    lines = [{"seat": "E", "play": "HJ"}, {"seat": "W", "play": "D2"}]
    old, steps = _play("duplicate", lines)
    assert any(e.kind == "deferred" for e in steps[-1].events)
    assert old.board is not None and old.board.penalty_cards == ()
    new, steps = _play("duplicate2017", lines)
    irr = new.irregularities[-1]
    assert (irr.situation, irr.law, irr.status) == ("play_at_rho_turn", "57D", "noted")
    assert new.board is not None and [(str(p.seat), str(p.card), p.major) for p in new.board.penalty_cards] == [
        ("W", "D2", True)]
    legal, steps = _play("duplicate2017", [{"seat": "E", "play": "HJ"}, {"seat": "W", "play": "H5"}])
    assert any(e.kind == "deferred" for e in steps[-1].events)
    # a legal card waits for its turn, not a penalty card; the arbiter is told (57D, Law 16 may apply)
    assert [(i.situation, i.law, i.status) for i in legal.irregularities] == [
        ("legal_card_at_rho_turn", "57D, 16", "noted")]
    assert legal.board is not None and legal.board.penalty_cards == ()


def test_both_sides_revoking_on_one_trick_leaves_both_revokes_to_correct_only_in_2017_law_62c3() -> None:
    """D 63 (Duplicate Decisions): a revoke is established once the revoker's side plays to the next trick. 2017
    62C3 (pzbs.pl 2017/en/l62.html): when both sides revoked on the same trick and
    only one side has played to the next, both revokes must be corrected (63B names 62C3 as an
    exception to establishment). West and North both discard on East's club lead; East leads again."""
    lines = [{"seat": "E", "play": "CA"}, {"seat": "S", "play": "C8"}, {"seat": "W", "play": "D2"},
             {"seat": "N", "play": "DA"}, {"seat": "E", "play": "CK"}]
    old, _ = _play("duplicate", lines)
    assert old.board is not None
    assert [(str(rv.seat), rv.established) for rv in old.board.revokes] == [("W", True), ("N", False)]
    new, steps = _play("duplicate2017", lines)
    assert new.board is not None
    assert [(str(rv.seat), rv.established) for rv in new.board.revokes] == [("W", False), ("N", False)]
    assert any(e.kind == "revoke_both_sides" and "62C3" in e.detail for e in steps[-1].events)
    west = next(i.id for i in new.irregularities if i.situation == "revoke" and str(i.offender) == "W")
    fixed, steps = _play("duplicate2017", [*lines, {"ruling": {"id": west, "option": "correct"}}])
    assert not _rejected(steps[-1]) and fixed.board is not None
    assert [(str(p.seat), str(p.card)) for p in fixed.board.penalty_cards] == [("W", "D2")]
    _, steps = _play("duplicate", [*lines, {"ruling": {"id": west, "option": "correct"}}])
    assert "established" in _rejected(steps[-1])


def test_one_defenders_agreement_to_declarers_claim_establishes_his_revoke_in_2008_not_yet_in_2017_law_63a4(
) -> None:
    """D 63A (Duplicate Decisions: a revoke is established when the offending side makes or acquiesces in a claim)
    against 2017 63A3/63A4 (pzbs.pl 2017/en/l63.html): the offending side's own
    claim establishes it at once, agreement to an opponent's claim only at the Law 69A agreement (here:
    when both defenders have agreed). West revokes, declarer claims, West agrees, East not yet."""
    lines = [{"seat": "E", "play": "CA"}, {"seat": "S", "play": "C8"}, {"seat": "W", "play": "D2"},
             {"seat": "N", "claim": 12}, {"seat": "W", "agree": True}]
    for code, established in (("duplicate", True), ("duplicate2017", False)):
        state, _ = _play(code, lines)
        assert state.board is not None
        assert [(str(rv.seat), rv.established) for rv in state.board.revokes] == [("W", established)], code
    done, _ = _play("duplicate2017", [*lines, {"seat": "E", "agree": True}])
    assert done.boards and [rv.established for rv in done.boards[-1].board.revokes] == [True]
