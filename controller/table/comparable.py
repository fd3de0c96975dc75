"""The comparable call of the 2017 Laws (Law 23) and the calls out of rotation it rectifies (27, 30-32).

Under a code whose rules have ``comparable_call`` (``duplicate2017``), a cancelled insufficient
bid or call out of rotation is no longer rectified by its position and denomination alone (D
2008: 30B1(b), 31A2, 31B, 32A, 32B2 bar the partner for the rest of the auction). Instead:

- the cancellation leaves a waiting state on the offender (``OOR_REPLACEMENT``, or
  ``REPLACE_CALL`` with mode ``comparable`` after an insufficient bid); at RHO's turn a pass
  still makes him pass once (30A), a bid or double still waits for what RHO does (31A, 32A);
- the offender's call at his turn is held (situation ``comparable_call``) until the arbiter
  judges it: the lowest sufficient bid in the same denomination (27B1(a)) or a comparable call
  (23A: same or similar meaning, a subset of its meanings, the same purpose) stands without
  rectification and no lead restriction (26A), with the arbiter's review after the play (23C,
  27D); a call not comparable bars the partner once after a call out of rotation (30B1(b)(ii),
  31A2(b), 32A2(b)) and for the rest of the auction after an insufficient bid (27B2), a double
  or redouble then being cancelled (27B3), and gives declarer the Law 26B prohibition.

What was read of the 2017 text for each of these is in the docstrings of
``tests/controller/test_duplicate2017_auction.py``.
"""

from __future__ import annotations

from controller import actions as a
from controller import rulings as r
from controller.calls import Call, CallKind
from controller.irregularities import Irregularity
from controller.rulings import Held, Obligation
from controller.seats import Seat
from controller.table._common import _hold, _oblige, _raise, _Refused, _unhold
from controller.table.state import BoardState, Event, Step, TableState
from controller.values import evolve


def _waiting_replacement(state: TableState, board: BoardState, seat: Seat) -> Obligation | None:
    """The 2017 waiting state whose call ``seat`` now makes (Laws 23, 27B1(b), 30B1, 31A2, 31B, 32)."""
    if not state.code.rules.comparable_call:
        return None
    waiting = [ob for ob in board.obligations if ob.seat is seat and (
        ob.kind == r.OOR_REPLACEMENT or (ob.kind == r.REPLACE_CALL and ob.mode.startswith("comparable")))]
    # an insufficient bid made in replacing a call out of rotation: Law 27 decides (the stricter bar)
    return next((ob for ob in waiting if ob.kind == r.REPLACE_CALL), waiting[0] if waiting else None)


def _lowest_without_judgement(board: BoardState, ob: Obligation, call: Call) -> bool:
    """2017 Law 27B1(a): the insufficient bid replaced by the lowest sufficient bid in its denomination,
    neither artificial (the arbiter said nothing else when he had it corrected): it stands without
    rectification at once; Law 23 plays no part, nothing waits for the arbiter."""
    return (ob.kind == r.REPLACE_CALL and ob.mode == "comparable" and ob.call is not None
            and r.is_lowest_sufficient_same_denomination(call, ob.call, board.auction))


def _hold_replacement(state: TableState, board: BoardState, ob: Obligation, act: a.MakeCall) -> Step:
    """The offender's call replacing a cancelled one, held for the arbiter's judgement (Law 23)."""
    withdrawn = ob.call
    assert withdrawn is not None
    source = state.irregularity(ob.source)
    kind = source.kind if source is not None and source.kind == "insufficient_bid" else "call_out_of_rotation"
    lowest = ob.kind == r.REPLACE_CALL and r.is_lowest_sufficient_same_denomination(act.call, withdrawn,
                                                                                     board.auction)
    detail = (f"{act.seat} {act.call} replaces the cancelled {withdrawn}: the arbiter judges whether it is "
              f"comparable (Law {state.code.law('comparable_call')})")
    state, board, irr = _raise(state, board, "comparable_call", act.seat, detail, act.t, kind=kind,
                               conditions=frozenset(("lowest_same_denomination",)) if lowest else frozenset())
    board = _hold(board, Held(irr.id, act.seat, call=act.call, t=act.t))
    return Step(evolve(state, board=board), (Event("irregularity", irr.situation, act.seat, act.t),), (irr,))


def _rule_comparable(state: TableState, board: BoardState, irr: Irregularity, held: Held, option: str,
                     t: float) -> tuple[TableState, list[Event]]:
    """The arbiter's judgement of the held replacement call (Laws 23, 27B, 30B1(b), 31A2, 31B, 32A2, 32B)."""
    from controller.table.auction import _apply_call

    offender = irr.offender
    call = held.call
    assert offender is not None and call is not None
    waiting = [o for o in board.obligations if o.seat is offender and (
        o.kind == r.OOR_REPLACEMENT or (o.kind == r.REPLACE_CALL and o.mode.startswith("comparable")))]
    if not waiting:
        raise _Refused("no cancelled call of the offender waits for its replacement")
    # (a call out of rotation whose replacement was itself insufficient: the insufficient bid's law rules)
    ob = next((o for o in waiting if o.kind == r.REPLACE_CALL), waiting[0])
    partner = offender.partner
    insufficient = ob.kind == r.REPLACE_CALL
    withdrawn = ob.call
    assert withdrawn is not None
    if option == "lowest_same_denomination" and not (
            insufficient and r.is_lowest_sufficient_same_denomination(call, withdrawn, board.auction)):
        raise _Refused(f"{call} is not the lowest sufficient bid in the denomination of {withdrawn}")
    board = _unhold(board, irr.id)
    board = evolve(board, obligations=tuple(o for o in board.obligations if o not in waiting))
    events: list[Event] = []
    if option in ("lowest_same_denomination", "comparable"):
        law = "27B1(a), 27D" if option == "lowest_same_denomination" else (
            "27B1(b), 27D" if insufficient else "23B, 23C")
        events.append(Event("rectification", f"{call} stands without rectification and without lead restriction; "
                            f"the arbiter may adjust after the play if the infraction helped (Law {law})",
                            offender, t))
    elif insufficient:
        board = _oblige(board, Obligation(r.PASS_ALL, partner, ob.source),
                        Obligation(r.LEAD_OPT_26, partner, ob.source))
        if call.kind in (CallKind.DOUBLE, CallKind.REDOUBLE):
            # 27B3: a double or redouble that is not comparable is cancelled; the offender calls again
            board = _oblige(board, Obligation(r.REPLACE_CALL, offender, ob.source, withdrawn, mode="any"))
            events.append(Event("rectification", f"{call} is not comparable: cancelled, {offender} calls again; "
                                f"{partner} must pass for the rest of the auction (Law 27B3)", offender, t))
            return evolve(state, board=board), events
        events.append(Event("rectification", f"{call} is not comparable: {partner} must pass for the rest of the "
                            "auction; declarer may forbid one suit (Laws 27B2, 26B)", partner, t))
    else:
        board = _oblige(board, Obligation(r.PASS_ONCE, partner, ob.source),
                        Obligation(r.LEAD_OPT_26, partner, ob.source))
        law = _oor_law(state, ob, withdrawn)
        events.append(Event("rectification", f"{call} is not comparable: {partner} must pass at his next turn; "
                            f"declarer may forbid one suit (Laws {law}(b), 26B)", partner, t))
    state, board, more = _apply_call(evolve(state, board=board), board, offender, call, held.t, timed=False)
    return state, [*events, *more]


def _rule_comparable_in_record(state: TableState, board: BoardState, irr: Irregularity, option: str,
                               t: float) -> tuple[TableState, list[Event]]:
    """The arbiter's judgement of a replacement call the players went on over (it is in the record): a
    comparable call costs nothing; one not comparable bars the partner from now on (once after a
    call out of rotation, for the rest after an insufficient bid) and gives declarer the 26B choice."""
    offender = irr.offender
    if offender is None or board.phase.value != "auction":
        raise _Refused("the auction is over: the arbiter adjusts the score after the play if he must (Law 23C)")
    if option != "not_comparable":
        return state, [Event("rectification", "the call stands without rectification (Law 23)", offender, t)]
    partner = offender.partner
    bar = r.PASS_ALL if irr.kind == "insufficient_bid" else r.PASS_ONCE
    board = _oblige(board, Obligation(bar, partner, irr.id), Obligation(r.LEAD_OPT_26, partner, irr.id))
    return evolve(state, board=board), [Event("rectification", f"the call is not comparable: {partner} must pass "
                                              + ("for the rest of the auction" if bar == r.PASS_ALL else
                                                 "at his next turn") + "; declarer may forbid one suit", partner, t)]


def _oor_law(state: TableState, ob: Obligation, withdrawn: Call) -> str:
    """The paragraph of Laws 30-32 (2017) the waiting call out of rotation falls under."""
    source = state.irregularity(ob.source)
    situation = source.situation if source is not None else ""
    if withdrawn.kind is CallKind.PASS and not situation.startswith("bid_"):
        return "30B1"
    if withdrawn.kind is CallKind.BID or withdrawn.kind is CallKind.PASS:
        return "31A2" if situation == "bid_oor_rho_turn" else "31B2"
    return "32A2" if situation == "double_oor_rho_turn" else "32B2"


def _rule_oor_cancelled(state: TableState, board: BoardState, irr: Irregularity, call: Call, artificial: bool,
                        t: float) -> tuple[TableState, list[Event]]:
    """A call out of rotation not accepted, under the 2017 Laws 30-32: by where it was made."""
    offender = irr.offender
    assert offender is not None
    at_rho = board.auction.turn is offender.rho
    if call.kind is CallKind.PASS and not artificial and at_rho:
        board = _oblige(board, Obligation(r.PASS_ONCE, offender, irr.id))
        return evolve(state, board=board), [Event("rectification", f"{offender} must pass at his next turn "
                                                  "(Law 30A)", offender, t)]
    if at_rho:
        # an artificial pass is treated as a bid out of rotation (30C)
        bid = call.kind in (CallKind.BID, CallKind.PASS)
        waiting = r.OOR_BID_RHO if bid else r.OOR_DOUBLE_RHO
        law = "31A" if bid else "32A"
        board = _oblige(board, Obligation(waiting, offender, irr.id, call))
        return evolve(state, board=board), [Event(
            "rectification", f"if {offender.rho} passes, {offender} must repeat {call}; if {offender.rho} acts, "
            f"{offender} may call freely and the arbiter judges that call (Law {law})", offender, t)]
    # at partner's turn, or at LHO's before the offender has called (30B1, 31B, 32B; an artificial pass: 30C)
    board = _oblige(board, Obligation(r.OOR_REPLACEMENT, offender, irr.id, call))
    law = "30B1" if call.kind is CallKind.PASS and not artificial else (
        "31B" if call.kind in (CallKind.BID, CallKind.PASS) else "32B")
    return evolve(state, board=board), [Event(
        "rectification", f"{offender.partner} may call freely (his information from {call} is unauthorized); "
        f"{offender} may call freely at his turn and the arbiter judges that call (Law {law})", offender, t)]
