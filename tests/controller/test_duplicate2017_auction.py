"""The auction under the 2017 Laws (``duplicate2017``) beside the 2008 code (``duplicate``).

Each test plays the same calls under both codes and checks the 2008 rectification (Duplicate
Decisions) against the 2017 one. What was read of the 2017 text (paraphrased; the
pages are in the ``search`` tool's stored pages):

- Law 23 (pzbs.pl /sedziowie/mpb/2017/en/l23.html): a replacement call is
  comparable when it has the same or a similar meaning, shows a subset of the withdrawn call's
  meanings, or has the same purpose; after a comparable call the Director may adjust at the end of
  play (23C).
- Law 31 (pzbs.pl 2017/en/l31.html, read here): at RHO's turn, RHO passes -> repeat; RHO acts ->
  the offender calls freely, comparable -> nothing more (26B does not apply), not comparable ->
  partner passes at his next turn (16C, 26B, 72C may apply). At partner's turn, or LHO's before the
  offender has called: partner may call freely (16C2), the offender calls freely and the Director
  rules as at RHO's turn.
- Law 30 (not read verbatim on a 2017 law page): a club forum
  answer (mrbridge.co.uk) quotes 30B1(b)(i) "offender may make any legal call at his correct turn;
  comparable -> no further rectification"; EBU TD forum threads state 30A (pass at RHO's turn: the
  offender passes at his next turn) and that 30B1 covers LHO's turn only when LHO is dealer. The
  non-comparable branch (partner passes once) is inferred from 31 and 32, which have the same
  structure: chosen here, the arbiter may override it (undo the ruling, or rule Law 37 later).
- Law 26B as amended by the WBF Laws Committee in 2017 (section 4 item 2): quoted on the NZ Bridge
  forum (preview.nzbridge.co.nz, "Law 26", Nov 2020) and a BBO thread: declarer may only prohibit
  one suit the offender did not specify in the legal auction, as long as partner keeps the lead; no
  "require". Implemented prohibit-only; the ACBL edition's own 26B was not seen.
- Law 37 (pzbs.pl 2017/pl/p37.html, Polish [Tr]): LHO calls first -> the calls stand, an offender
  barred for the rest stays barred, no 26B; otherwise a pass is substituted and both members of the
  offending side pass for the rest of the auction.
- Card exposed before the auction: the WBF Laws Committee minute of 15 August 2017, item 7, quoted
  on the EBU TD forum ([S]): returned to the hand, information under Law 16 (no Law 24 bar).
"""

from __future__ import annotations

from typing import Any

from controller.records.tablelog import action_of
from controller.rulings import LEAD_OPT_26, PASS_ALL, PASS_ONCE
from controller.table import Step, TableState, step

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
CODES = ("duplicate", "duplicate2017")


def _play(code: str, lines: list[dict[str, Any]]) -> tuple[TableState, list[Step]]:
    state = step(TableState.new(), action_of({"t": 0, "session": {"code": code}})).state
    state = step(state, action_of({"t": 0, "board": {"number": 1, "dealer": "N", "vul": "None", "deal": DEAL}})).state
    steps = []
    for i, line in enumerate(lines, start=1):
        result = step(state, action_of({"t": i, **line}))
        steps.append(result)
        state = result.state
    return state, steps


def _calls(text: str, first: str = "N") -> list[dict[str, Any]]:
    seats = "NESW"
    at = seats.index(first)
    return [{"seat": seats[(at + i) % 4], "call": c} for i, c in enumerate(text.split())]


def _obligations(state: TableState) -> set[tuple[str, str]]:
    board = state.board
    assert board is not None
    return {(o.kind, str(o.seat)) for o in board.obligations}


def _latest(state: TableState) -> Any:
    return state.irregularities[-1]


def _rejected(result: Step) -> bool:
    return any(e.kind == "rejected" for e in result.events)


# --- Law 27: insufficient bid -------------------------------------------------------------------

INSUFFICIENT = [{"seat": "N", "call": "1H"}, {"seat": "E", "call": "1D"},
                {"ruling": {"id": 1, "option": "correct"}}]


def test_lowest_sufficient_bid_in_the_same_denomination_is_free_at_once_in_2008_and_2017_law_27b1a() -> None:
    """D 27B1(a) (Duplicate Decisions): the lowest sufficient bid in the same denomination, no rectification, at
    once. 2017 27B1(a) (south-waikato transcription, [T]): the same result for "the same
    denomination(s)": Law 23 plays no part, so nothing waits for a comparable-call judgement (issue
    23, B9). Only when the arbiter, correcting it, found a bid artificial (the denominations it
    specifies are then his to judge) is the replacement held for him."""
    old, _ = _play("duplicate", [*INSUFFICIENT, {"seat": "E", "call": "2D"}])
    assert old.board is not None and [str(c) for c in old.board.auction.calls] == ["1H", "2D"]
    assert _obligations(old) == set()
    new, _ = _play("duplicate2017", [*INSUFFICIENT, {"seat": "E", "call": "2D"}])
    assert [(i.situation, i.law) for i in new.irregularities] == [("insufficient_bid", "27")]
    assert new.board is not None and [str(c) for c in new.board.auction.calls] == ["1H", "2D"]
    assert _obligations(new) == set()
    artificial = [{"seat": "N", "call": "1H"}, {"seat": "E", "call": "1D"},
                  {"ruling": {"id": 1, "option": "correct", "artificial": True}}, {"seat": "E", "call": "2D"}]
    held, _ = _play("duplicate2017", artificial)
    irr = _latest(held)
    assert (irr.situation, irr.law, irr.chooser) == ("comparable_call", "23", "arbiter")
    assert irr.options == ("lowest_same_denomination", "comparable", "not_comparable")
    assert held.board is not None and [str(c) for c in held.board.auction.calls] == ["1H"]  # held
    ruled, _ = _play("duplicate2017", [*artificial, {"ruling": {"id": 2, "option": "lowest_same_denomination"}}])
    assert ruled.board is not None and [str(c) for c in ruled.board.auction.calls] == ["1H", "2D"]
    assert _obligations(ruled) == set()


def test_another_bid_bars_partner_in_2008_but_a_comparable_call_costs_nothing_in_2017_law_27b1b_23a() -> None:
    """D 27B2: any other replacement bars partner for the rest of the auction, with Law 26 lead options.
    2017 27B1(b): a comparable call (23A) has no rectification and no lead restriction; 27B2 (not
    comparable): partner passes for the rest of the auction and 26B may apply."""
    lines = [*INSUFFICIENT, {"seat": "E", "call": "2C"}]
    old, _ = _play("duplicate", lines)
    assert _obligations(old) == {(PASS_ALL, "W"), (LEAD_OPT_26, "W")}
    same, _ = _play("duplicate2017", [*lines, {"ruling": {"id": 2, "option": "comparable"}}])
    assert _obligations(same) == set()
    other, _ = _play("duplicate2017", [*lines, {"ruling": {"id": 2, "option": "not_comparable"}}])
    assert _obligations(other) == {(PASS_ALL, "W"), (LEAD_OPT_26, "W")}


def test_a_double_replacing_an_insufficient_bid_may_stand_in_2017_when_comparable_law_27b3() -> None:
    """D 27B (Duplicate Decisions): a double replacing an insufficient bid is cancelled, the offender calls again.
    2017 27B3: an attempt to double is cancelled "except as B1(b) allows", i.e. a comparable double
    stands; a double not comparable is cancelled, partner passes for the rest of the auction."""
    lines = [*INSUFFICIENT, {"seat": "E", "call": "X"}]
    old, _ = _play("duplicate", lines)
    assert old.board is not None and [str(c) for c in old.board.auction.calls] == ["1H"]
    assert (PASS_ALL, "W") in _obligations(old)
    stands, _ = _play("duplicate2017", [*lines, {"ruling": {"id": 2, "option": "comparable"}}])
    assert stands.board is not None and [str(c) for c in stands.board.auction.calls] == ["1H", "X"]
    cancelled, _ = _play("duplicate2017", [*lines, {"ruling": {"id": 2, "option": "not_comparable"}}])
    assert cancelled.board is not None and [str(c) for c in cancelled.board.auction.calls] == ["1H"]
    assert (PASS_ALL, "W") in _obligations(cancelled) and cancelled.turn is not None and str(cancelled.turn) == "E"


def test_the_held_replacement_is_not_accepted_by_lho_and_the_table_going_on_is_told_once_laws_23_81c() -> None:
    """2017 Law 23: the Director judges the replacement. The next player calling before he does is not
    LHO accepting an insufficient bid (Law 27A), nor a call to refuse: the players went on, so the
    record follows the table (the replacement stands as made, the pass is taken) and the arbiter is told
    once (table_departs_from_record, Laws 81C, 82A); the judgement still awaits him, and a call not
    comparable then bars the partner from now on (27B2)."""
    lines = [*INSUFFICIENT, {"seat": "E", "call": "2C"}, {"seat": "S", "call": "Pass"}]
    new, steps = _play("duplicate2017", lines)
    assert not _rejected(steps[-1])
    assert new.board is not None and [str(c) for c in new.board.auction.calls] == ["1H", "2C", "Pass"]
    assert [(i.situation, i.status) for i in new.irregularities] == [
        ("insufficient_bid", "ruled"), ("comparable_call", "awaiting_ruling"),
        ("table_departs_from_record", "awaiting_ruling")]
    assert new.irregularities[-1].law == "81C, 82A" and new.irregularities[-1].options == ("resync", "rule")
    more, steps = _play("duplicate2017", [*lines, {"seat": "W", "call": "Pass"}, {"seat": "N", "call": "2H"}])
    assert len(more.irregularities) == 3  # going on is not a new irregularity
    ruled, _ = _play("duplicate2017", [*lines, {"ruling": {"id": 2, "option": "not_comparable"}}])
    assert _obligations(ruled) == {(PASS_ALL, "W"), (LEAD_OPT_26, "W")}
    synced, _ = _play("duplicate2017", [*lines, {"ruling": {"id": 3, "option": "resync"}}])
    assert [(i.situation, i.status) for i in synced.irregularities][1:] == [
        ("comparable_call", "accepted"), ("table_departs_from_record", "ruled")]


# --- Law 30: pass out of rotation ---------------------------------------------------------------

PASS_AT_PARTNERS_TURN = [{"seat": "N", "call": "1H"}, {"seat": "W", "call": "Pass"},
                         {"ruling": {"id": 1, "option": "cancel"}}]


def test_pass_at_partners_turn_bars_the_offender_in_2008_only_partner_once_if_not_comparable_in_2017_law_30b(
) -> None:
    """D 30B1(b) (Duplicate Decisions): the offender passes for the rest of the auction, his partner may not
    double or redouble at his next turn. 2017 30B1(b): the offender calls freely at his turn;
    comparable -> nothing more; not comparable -> partner passes once (see the module docstring)."""
    old, _ = _play("duplicate", PASS_AT_PARTNERS_TURN)
    assert _obligations(old) == {(PASS_ALL, "W"), ("no_double_now", "E")}
    old, steps = _play("duplicate", [*PASS_AT_PARTNERS_TURN, {"seat": "E", "call": "X"}])
    assert _latest(old).situation == "double_when_barred"
    lines = [*PASS_AT_PARTNERS_TURN, {"seat": "E", "call": "X"}, {"seat": "S", "call": "Pass"},
             {"seat": "W", "call": "1S"}]
    new, steps = _play("duplicate2017", lines)
    assert not any(_rejected(s) for s in steps)
    assert new.board is not None and [str(c) for c in new.board.auction.calls] == ["1H", "X", "Pass"]
    assert _latest(new).situation == "comparable_call" and _latest(new).law == "23"
    free, _ = _play("duplicate2017", [*lines, {"ruling": {"id": 2, "option": "comparable"}}])
    assert _obligations(free) == set()
    barred, _ = _play("duplicate2017", [*lines, {"ruling": {"id": 2, "option": "not_comparable"}}])
    assert _obligations(barred) == {(PASS_ONCE, "E"), (LEAD_OPT_26, "E")}


def test_pass_at_rhos_turn_makes_the_offender_pass_once_in_both_codes_law_30a() -> None:
    """D 30A / 30B1(a) and 2017 30A: a pass at RHO's turn, cancelled: the offender passes at his next
    turn, nothing more. The 2017 label for a pass before any bid depends on the turn (30A, 30B1)."""
    lines = [{"seat": "E", "call": "Pass"}, {"ruling": {"id": 1, "option": "cancel"}}]
    for code, law in (("duplicate", "30A"), ("duplicate2017", "30A, 30B1")):
        state, _ = _play(code, lines)
        assert _obligations(state) == {(PASS_ONCE, "E")}
        assert state.irregularities[0].law == law


# --- Law 31: bid out of rotation ------------------------------------------------------------------

BID_AT_PARTNERS_TURN = [{"seat": "S", "call": "1S"}, {"ruling": {"id": 1, "option": "cancel"}}]


def test_bid_at_partners_turn_bars_partner_for_the_rest_in_2008_partner_calls_freely_in_2017_law_31b() -> None:
    """D 31B (Duplicate Decisions): partner must pass for the rest of the auction; Law 26 lead options. 2017 31B1:
    partner may make any legal call (16C2 applies); 31B2: the offender calls at his turn and the
    Director rules as in 31A2: not comparable -> partner passes once, 26B."""
    old, _ = _play("duplicate", BID_AT_PARTNERS_TURN)
    assert old.legal_calls() == old.legal_calls()[:1] and str(old.legal_calls()[0]) == "Pass"
    assert (PASS_ALL, "N") in _obligations(old)
    lines = [*BID_AT_PARTNERS_TURN, *_calls("1H Pass 1S")]
    new, steps = _play("duplicate2017", lines)
    assert not any(_rejected(s) for s in steps)
    assert new.irregularities[0].law == "31B" and _latest(new).situation == "comparable_call"
    barred, _ = _play("duplicate2017", [*lines, {"ruling": {"id": 2, "option": "not_comparable"}}])
    assert _obligations(barred) == {(PASS_ONCE, "N"), (LEAD_OPT_26, "N")}


# --- Law 32: double out of rotation ---------------------------------------------------------------

DOUBLE_AT_RHOS_TURN = [*_calls("1H Pass"), {"seat": "W", "call": "X"}, {"ruling": {"id": 1, "option": "cancel"}},
                       {"seat": "S", "call": "1S"}]


def test_double_at_rhos_turn_then_rho_bids_bars_partner_for_the_rest_in_2008_once_if_not_comparable_in_2017_law_32a(
) -> None:
    """D 32B2 (DD): RHO bids after the cancelled double -> partner passes for the rest of the
    auction. 2017 32A2 (French code [Tr]; 32B quoted in English on BBO): the offender calls freely;
    not comparable -> partner passes at his next turn. The letters swapped: 2008 32B is 2017 32A."""
    old, _ = _play("duplicate", DOUBLE_AT_RHOS_TURN)
    assert old.irregularities[0].law == "32B" and (PASS_ALL, "E") in _obligations(old)
    lines = [*DOUBLE_AT_RHOS_TURN, {"seat": "W", "call": "2D"}]
    new, _ = _play("duplicate2017", [*lines, {"ruling": {"id": 2, "option": "not_comparable"}}])
    assert new.irregularities[0].law == "32A"
    assert _obligations(new) == {(PASS_ONCE, "E"), (LEAD_OPT_26, "E")}


# --- Law 26: lead restrictions --------------------------------------------------------------------

LEAD_AFTER_OOR = [*BID_AT_PARTNERS_TURN, *_calls("Pass Pass Pass 1H Pass 4H Pass Pass Pass")]


def test_declarer_may_require_the_withdrawn_suit_in_2008_but_only_forbid_a_suit_not_shown_in_2017_law_26() -> None:
    """D 26A2 (2007 text, pzbs.pl 2007/ang/law26.htm): a suit named in the withdrawn call and not in
    the legal auction may be required or prohibited. 2017 26B as amended (module docstring): only a
    prohibition, of any one suit the offender did not specify in the legal auction."""
    old, _ = _play("duplicate", LEAD_AFTER_OOR)
    irr = _latest(old)
    assert (irr.situation, irr.law) == ("lead_restriction_from_withdrawn_call", "26")
    assert irr.options == ("require_suit", "forbid_suit", "no_restriction")
    new, _ = _play("duplicate2017", [*LEAD_AFTER_OOR[:5], {"ruling": {"id": 2, "option": "not_comparable"}},
                                     *LEAD_AFTER_OOR[5:]])
    irr = _latest(new)
    assert (irr.situation, irr.law) == ("lead_restriction_from_withdrawn_call", "26B")
    assert irr.options == ("forbid_suit", "no_restriction") and "Law 26B" in irr.detail
    board = new.board
    assert board is not None and str(board.contract).startswith("4H") and str(new.turn) == "N"
    ob = next(o for o in board.obligations if o.kind == LEAD_OPT_26)
    assert len(ob.suits) == 4  # South specified no suit in the legal auction
    refused = step(new, action_of({"t": 99, "ruling": {"id": irr.id, "option": "require_suit", "suit": "S"}}))
    assert _rejected(refused)
    forbid = step(new, action_of({"t": 99, "ruling": {"id": irr.id, "option": "forbid_suit", "suit": "D"}}))
    assert not _rejected(forbid) and ("lead_ban", "N") in _obligations(forbid.state)


def test_no_lead_restriction_after_a_comparable_call_law_26a() -> None:
    """2017 26A (and 23B, 31A2(a)): a withdrawn call replaced by a comparable call gives no lead
    restriction."""
    new, _ = _play("duplicate2017", [*LEAD_AFTER_OOR[:5], {"ruling": {"id": 2, "option": "comparable"}},
                                     *LEAD_AFTER_OOR[5:]])
    assert new.board is not None and new.board.contract is not None
    assert not any(i.situation == "lead_restriction_from_withdrawn_call" for i in new.irregularities)


# --- Law 37 and Law 24 ---------------------------------------------------------------------------

BARRED_CALL = [{"seat": "N", "call": "1H"}, {"seat": "E", "expose": "SK"}, *_calls("Pass Pass 2H", "E"),
               {"ruling": {"id": 2, "option": "cancel"}}]


def test_a_call_by_a_player_required_to_pass_bars_partner_in_2008_and_both_in_2017_law_37b() -> None:
    """D 37 (Duplicate Decisions, DD: "partner of the offender is barred for the remainder of the auction"; so
    the 2008 code keeps the partner only, although the 2007 text in Norwegian and Italian says both:
    as the 2017 text was read). 2017 37B2 (Polish text [Tr]): both members of the offending side pass."""
    old, _ = _play("duplicate", BARRED_CALL)
    assert _latest(old).situation == "call_by_player_required_to_pass"
    assert {ob for ob in _obligations(old) if ob[0] == PASS_ALL} == {(PASS_ALL, "E")}
    new, _ = _play("duplicate2017", BARRED_CALL)
    assert _latest(new).law == "37B"
    assert {ob for ob in _obligations(new) if ob[0] == PASS_ALL} == {(PASS_ALL, "E"), (PASS_ALL, "W")}


def test_a_card_exposed_before_the_first_call_bars_partner_in_2008_goes_back_in_2017_law_24_16d() -> None:
    """D 24 (Duplicate Decisions): an honour exposed in the auction period: partner passes once. 2017: Law 24
    applies "during the auction" (BBO thread quoting the new wording, 2017); the WBF Laws Committee
    (15 Aug 2017) had such a card returned to the hand, Law 16 for the information."""
    old, _ = _play("duplicate", [{"seat": "E", "expose": "SK"}])
    assert _latest(old).situation == "card_exposed_in_auction_honour_or_several"
    assert _obligations(old) == {(PASS_ONCE, "W")}
    new, _ = _play("duplicate2017", [{"seat": "E", "expose": "SK"}])
    assert (_latest(new).situation, _latest(new).law, _latest(new).status) == (
        "card_exposed_before_auction", "16D", "noted")
    assert _obligations(new) == set() and new.board is not None and new.board.exposed == ()


# --- Laws 25B and 39: lead restrictions where "Law 26 may apply" ------------------------------------

PURPOSEFUL = [{"seat": "N", "call": "Pass"}, {"seat": "E", "call": "1C"}, {"seat": "E", "call": "1NT"},
              {"ruling": {"id": 1, "option": "purposeful", "accepted": True}},
              *_calls("2S Pass Pass Pass", "S")]


def test_a_purposeful_change_gives_no_lead_restriction_in_2008_and_a_26b_prohibition_in_2017_law_25b() -> None:
    """DD 25 (Duplicate Decisions): LHO may accept the substitute; nothing about lead restrictions. 2017 25B
    (pzbs.pl 2017/en/l25.html): accepted or not, "Law 26 may apply"; here as
    declarer's 26B prohibition when the offender's partner is first on lead."""
    old, _ = _play("duplicate", PURPOSEFUL)
    assert old.board is not None and old.board.contract is not None and str(old.turn) == "W"
    assert not any(i.situation == "lead_restriction_from_withdrawn_call" for i in old.irregularities)
    new, _ = _play("duplicate2017", PURPOSEFUL)
    irr = _latest(new)
    assert (irr.situation, irr.law, irr.options) == ("lead_restriction_from_withdrawn_call", "26B",
                                                    ("forbid_suit", "no_restriction"))
    board = new.board
    assert board is not None
    ob = next(o for o in board.obligations if o.kind == LEAD_OPT_26)
    assert [str(s) for s in ob.suits] == ["C", "D", "H", "S"]  # East bid no suit in the legal auction (1NT)


def test_a_call_after_the_auction_closed_gives_the_withdrawn_suit_in_2008_any_suit_not_shown_in_2017_law_39() -> None:
    """D 39 (Duplicate Decisions: Law 26 lead restrictions may apply); 2017 39 unchanged but "26" now means 26B
    (inferred from the 2017 26B): any one suit the offender did not show."""
    lines = [*_calls("1S Pass 2S Pass Pass Pass"), {"seat": "W", "call": "3H"},
             {"ruling": {"id": 1, "option": "cancel"}}]
    for code, suits in (("duplicate", ["H"]), ("duplicate2017", ["C", "D", "H", "S"])):
        state, _ = _play(code, lines)
        board = state.board
        assert board is not None
        ob = next(o for o in board.obligations if o.kind == LEAD_OPT_26)
        assert [str(s) for s in ob.suits] == suits, code


BID_AT_RHOS_TURN = [{"seat": "E", "call": "1S"}, {"ruling": {"id": 1, "option": "cancel"}},
                    {"seat": "N", "call": "1H"}]


def test_bid_at_rhos_turn_then_rho_bids_bars_partner_for_the_rest_in_2008_once_if_not_comparable_in_2017_law_31a2(
) -> None:
    """D 31A2 (Duplicate Decisions): RHO acts, the offender calls freely; another denomination bars partner for
    the rest of the auction. 2017 31A2 (pzbs.pl 2017/en/l31.html, read): comparable -> nothing more;
    not comparable -> partner passes at his next turn, 26B may apply."""
    old, _ = _play("duplicate", [*BID_AT_RHOS_TURN, {"seat": "E", "call": "2C"}])
    assert _obligations(old) == {(PASS_ALL, "W"), (LEAD_OPT_26, "W")}
    lines = [*BID_AT_RHOS_TURN, {"seat": "E", "call": "2C"}]
    new, _ = _play("duplicate2017", [*lines, {"ruling": {"id": 2, "option": "not_comparable"}}])
    assert _obligations(new) == {(PASS_ONCE, "W"), (LEAD_OPT_26, "W")}
    new, _ = _play("duplicate2017", [*lines, {"ruling": {"id": 2, "option": "comparable"}}])
    assert _obligations(new) == set()


def test_an_insufficient_replacement_of_a_call_out_of_rotation_is_judged_once_under_law_27_2017() -> None:
    """2017: the replacement after a call out of rotation was itself insufficient (27): the arbiter
    judges the call that replaces it once; Law 27B2 (partner passes for the rest) then settles both."""
    lines = [*BID_AT_RHOS_TURN, {"seat": "E", "call": "1D"}, {"ruling": {"id": 2, "option": "correct"}},
             {"seat": "E", "call": "2C"}]
    new, _ = _play("duplicate2017", lines)
    irr = _latest(new)
    assert (irr.situation, irr.kind) == ("comparable_call", "insufficient_bid")
    new, steps = _play("duplicate2017", [*lines, {"ruling": {"id": 3, "option": "not_comparable"}},
                                         *_calls("Pass Pass 2H", "S"), {"seat": "E", "call": "2S"}])
    assert not any(_rejected(s) for s in steps)
    assert (PASS_ALL, "W") in _obligations(new) and new.board is not None
    assert [str(c) for c in new.board.auction.calls][-1] == "2S" and _latest(new).id == 3


def test_a_comparable_call_leaves_the_arbiter_a_review_at_the_end_of_the_play_law_23c() -> None:
    """2017 23C (pzbs.pl 2017/en/l23.html): after a comparable call the Director
    adjusts at the end of play if, without the help of the infraction, the result could well have
    been different. The board's notes remind him; a 2008 board with the same calls has none."""
    lines = [*LEAD_AFTER_OOR[:5], {"ruling": {"id": 2, "option": "comparable"}}, *LEAD_AFTER_OOR[5:],
             {"seat": "W", "claim": 10}, {"seat": "N", "agree": True}, {"seat": "S", "agree": True}]
    new, _ = _play("duplicate2017", lines)
    assert new.boards and any("Law 23C" in note for note in new.boards[-1].notes)
    old, _ = _play("duplicate", [*LEAD_AFTER_OOR, {"ruling": {"id": 2, "option": "no_restriction"}},
                                 *lines[-3:]])
    assert old.boards and old.boards[-1].notes == ()
    barred = [*LEAD_AFTER_OOR[:5], {"ruling": {"id": 2, "option": "not_comparable"}}, *LEAD_AFTER_OOR[5:],
              {"ruling": {"id": 3, "option": "no_restriction"}}, *lines[-3:]]
    new, _ = _play("duplicate2017", barred)
    assert new.boards and any("Law 72C" in note for note in new.boards[-1].notes)
