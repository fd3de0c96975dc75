"""The rulings of the auction (Laws 25, 27, 29-32, 36, 37, 39): what the arbiter's option does to the
call held for it, and to an inadmissible double or redouble the table called over (Law 36A; 2017
36C). Detection and the calls themselves are in ``auction``.
"""

from __future__ import annotations

from controller import rulings as r
from controller.auction import Auction
from controller.calls import PASS, CallKind
from controller.irregularities import Irregularity
from controller.rulings import Held, Obligation
from controller.table._common import _drop, _oblige, _Refused, _unhold
from controller.table.auction import _apply_call
from controller.table.comparable import _rule_comparable, _rule_oor_cancelled
from controller.table.penalties import _lead_options_due
from controller.table.record import _as_if_not_made, _without_calls
from controller.table.state import BoardState, Event, Phase, TableState
from controller.values import evolve


def _rule_standing_inadmissible(state: TableState, board: BoardState, irr: Irregularity, option: str,
                                t: float) -> tuple[TableState, list[Event]]:
    """The arbiter's ruling on an inadmissible double or redouble the table called over: during the
    auction it and every later call are cancelled (Law 36A); once the opening lead is faced the
    contract is scored as if it had not been made (2017 Law 36C)."""
    index = dict(board.standing)[irr.id]
    if option == "as_if_not_made":
        if board.play is None or not (board.play.tricks or board.play.current.cards):
            raise _Refused("the opening lead has not been faced: the call can still be cancelled (Law 36A)")
        return _as_if_not_made(state, board, irr.id, index, t)
    if board.phase is not Phase.AUCTION:
        raise _Refused("the auction is over: the calls can no longer be cancelled")
    rebuilt = _without_calls(board.auction, index)
    board = evolve(board, auction=rebuilt, call_times=board.call_times[:index],
                   standing=tuple(x for x in board.standing if x[1] < index))
    return evolve(state, board=board), [Event("cancelled", f"{irr.id}: the call and every later call are "
                                              f"cancelled; {rebuilt.turn} calls (Law {irr.law})", rebuilt.turn, t)]


def _rule_call_after_close(state: TableState, board: BoardState, irr: Irregularity,
                           held: Held | None) -> tuple[TableState, list[Event]]:
    """Law 39: the call is cancelled; a defender's bid, double or redouble gives a Law 26 lead option."""
    board = _unhold(board, irr.id)
    events = [Event("cancelled", "the call after the auction closed is cancelled (Law 39)", irr.offender, irr.t)]
    offender = irr.offender
    if (held is not None and held.call is not None and offender is not None and board.contract is not None
            and held.call.kind is not CallKind.PASS and offender.side is not board.contract.declarer.side):
        suits = (r.lead_ban_suits(board.auction, offender) if state.code.rules.lead_restriction_prohibit_only
                 else r.lead_suits_of(held.call))
        board = _oblige(board, Obligation(r.LEAD_OPT_26, offender.partner, irr.id, suits=suits))
        if board.play is not None and not board.play.current.cards:
            board = evolve(board, lead_options_for=0)
            state, board, more = _lead_options_due(evolve(state, board=board), board, irr.t)
            events.extend(more)
    return evolve(state, board=board), events


def _rule_call(state: TableState, board: BoardState, irr: Irregularity, held: Held, option: str,
               args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Rulings of the auction: Laws 25, 27, 29-32, 36, 37."""
    offender = irr.offender
    assert offender is not None and held.call is not None
    call = held.call
    partner = offender.partner
    situation = irr.situation
    rules = state.code.rules
    if situation == "comparable_call":
        return _rule_comparable(state, board, irr, held, option, t)
    board = _unhold(board, irr.id)
    events: list[Event] = []
    if option == "accept":
        state, board, events = _apply_call(evolve(state, board=board), board, offender, call, held.t,
                                           timed=False, irregular=True)
        return state, events
    if irr.kind == "insufficient_bid":
        # the arbiter's findings: a substitute of the same meaning (D 27B1(b); R 27B), or an
        # artificial bid, insufficient or substitute, so the lowest sufficient bid in the same
        # denomination is no longer free of rectification (D 27B1(a); R 27A)
        mode = (("comparable_artificial" if args.get("artificial") is True else "comparable")
                if rules.comparable_call  # 2017: the arbiter judges the replacement (23, 27B)
                else "no_rectification" if args.get("same_meaning") is True
                else "artificial" if args.get("artificial") is True else "insufficient")
        # D 31A1 / R 31B1: a bid out of rotation repeated as required but insufficient is then
        # corrected under Law 27; the repetition has been made, so REPEAT no longer binds
        board = _drop(board, (r.REPEAT,), offender)
        board = _oblige(board, Obligation(r.REPLACE_CALL, offender, irr.id, call, mode=mode))
        events.append(Event("rectification", f"{offender} replaces {call} (Law 27B)", offender, t))
        return evolve(state, board=board), events
    if irr.kind == "change_of_call" or option == "inadvertent":
        # (a call at partner's turn the arbiter finds a Law 25A change of the offender's call)
        return _rule_change_of_call(state, board, irr, held, option, args, t)
    if situation in ("inadmissible_double", "double_oor_inadmissible"):
        board = _oblige(board, Obligation(r.REPLACE_CALL, offender, irr.id, call, mode="any"),
                        Obligation(r.PASS_ALL, partner, irr.id),
                        Obligation(r.LEAD_OPT_26, partner, irr.id))
        events.append(Event("rectification", f"{offender} must substitute a legal call; {partner} "
                            "passes for the rest of the auction (Law 36B)", offender, t))
        return evolve(state, board=board), events
    if situation == "call_by_player_required_to_pass":
        state, board, more = _apply_call(evolve(state, board=board), board, offender, PASS, held.t, timed=False)
        bars = [Obligation(r.PASS_ALL, partner, irr.id)]
        if rules.barred_call_bars_both:
            bars.append(Obligation(r.PASS_ALL, offender, irr.id))
        board = _oblige(board, *bars, Obligation(r.LEAD_OPT_26, partner, irr.id, suits=r.lead_suits_of(call)))
        events.append(Event("rectification", "the call is cancelled and a pass substituted; "
                            + ("both members of the offending side pass for the rest of the auction"
                               if rules.barred_call_bars_both else
                               f"{partner} passes for the rest of the auction")
                            + f" ({state.code.law('cite:barred_call')})", offender, t))
        return evolve(state, board=board), [*more, *events]
    if situation in ("double_when_barred",):
        board = _oblige(board, Obligation(r.REPLACE_CALL, offender, irr.id, call, mode="any"))
        return evolve(state, board=board), [Event("rectification", f"{offender} must make another call",
                                                  offender, t)]
    if situation == "call_not_repeated":
        required = next((o.call for o in board.obligations if o.kind == r.REPEAT and o.seat is offender), None)
        if required is None:
            raise _Refused("no call was required of the offender")
        state, board, more = _apply_call(evolve(state, board=board), board, offender, required, held.t,
                                         timed=False)
        return state, more
    # call_out_of_rotation, cancelled (Law 29B); what follows depends on the position (30-32)
    artificial = args.get("artificial") is True
    if rules.comparable_call:
        return _rule_oor_cancelled(evolve(state, board=board), board, irr, call, artificial, t)
    if situation in ("pass_oor_before_any_bid", "pass_oor_rho_turn_after_bid") and not artificial:
        board = _oblige(board, Obligation(r.PASS_ONCE, offender, irr.id))
        events.append(Event("rectification", f"{offender} must pass at his next turn (Law 30A)", offender, t))
    elif situation == "pass_oor_partner_turn_after_bid" and not artificial:
        board = _oblige(board, Obligation(r.PASS_ALL, offender, irr.id), Obligation(r.NO_X_NOW, partner, irr.id))
        events.append(Event("rectification", f"{offender} passes for the rest of the auction; {partner} "
                            "may not double or redouble at this turn (Law 30B)", offender, t))
    elif situation == "bid_oor_rho_turn":
        board = _oblige(board, Obligation(r.OOR_BID_RHO, offender, irr.id, call))
        events.append(Event("rectification", f"if {offender.rho} passes, {offender} must repeat {call}; "
                            f"if {offender.rho} bids, doubles or redoubles, {offender} may call freely "
                            "(Law 31A)", offender, t))
    elif situation == "double_oor_rho_turn":
        board = _oblige(board, Obligation(r.OOR_DOUBLE_RHO, offender, irr.id, call))
        events.append(Event("rectification", f"if {offender.rho} passes, {offender} must repeat {call} "
                            "(Law 32B)", offender, t))
    elif situation == "double_oor_partner_turn":
        obs = [Obligation(r.PASS_ALL, partner, irr.id), Obligation(r.LEAD_OPT_26, partner, irr.id)]
        if board.auction.last_bid is not None:
            obs.append(Obligation(r.NO_X_SAME, offender, irr.id, board.auction.last_bid))
        board = _oblige(board, *obs)
        events.append(Event("rectification", f"{partner} passes for the rest of the auction (Law 32A)",
                            partner, t))
    else:
        # a bid at partner's turn or in the first round at LHO's turn; an artificial pass (D 30C)
        suits = r.lead_suits_of(call)
        board = _oblige(board, Obligation(r.PASS_ALL, partner, irr.id),
                        Obligation(r.LEAD_OPT_26, partner, irr.id, suits=suits))
        events.append(Event("rectification", f"{partner} passes for the rest of the auction (Law 31B)",
                            partner, t))
    return evolve(state, board=board), events


def _rule_change_of_call(state: TableState, board: BoardState, irr: Irregularity, held: Held, option: str,
                         args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Law 25: an inadvertent change replaces the call; a purposeful one is handled per code.

    The change may come after LHO has called over the first call (D 25A: until partner
    calls). LHO's call then stands over the substitute unless LHO withdraws it (ruling
    argument ``"lho_withdraws": true``, no rectification, DD 25) or it is no longer legal
    over the substitute (it is then withdrawn and LHO calls again).
    """
    offender = irr.offender
    assert offender is not None and held.call is not None
    auction = board.auction
    seats = auction.seats
    if seats and seats[-1] is offender:
        at = len(seats) - 1
    elif len(seats) >= 2 and seats[-2] is offender and seats[-1] is offender.lho:
        at = len(seats) - 2
    else:
        raise _Refused("the offender's call is no longer the last one: partner has called")
    original = auction.calls[at]
    substitute_stands = option == "inadvertent" or args.get("accepted") is True
    rubber_25b = state.code.rules.rubber_purposeful_change
    if option == "purposeful" and rubber_25b:
        substitute_stands = args.get("keep") is not True
    events: list[Event] = []
    if substitute_stands:
        later = tuple(zip(auction.calls[at + 1:], seats[at + 1:], board.call_times[at + 1:], strict=False))
        rebuilt = Auction(auction.dealer)
        for c, s in zip(auction.calls[:at], seats[:at], strict=True):
            rebuilt = rebuilt.with_call(c, s)
        board = evolve(board, auction=rebuilt, call_times=board.call_times[:at])
        state, board, events = _apply_call(evolve(state, board=board), board, offender, held.call, held.t,
                                           timed=False)
        for c, s, ct in later:
            if (args.get("lho_withdraws") is True or board.phase is not Phase.AUCTION
                    or s is not board.auction.turn or not board.auction.is_legal(c, s)):
                events.append(Event("withdrawn", f"{s} {c} is withdrawn without rectification; {s} calls "
                                    "again (Law 25A)", s, t))
                break
            state, board, more = _apply_call(evolve(state, board=board), board, s, c, ct, timed=False)
            events.extend(more)
    if option == "purposeful" and state.code.rules.purposeful_change_restricts_lead:
        # 2017 25B: "Law 26 may apply" whichever call stands; the 26B suits are set when the play starts
        board = _oblige(board, Obligation(r.LEAD_OPT_26, offender.partner, irr.id))
        events.append(Event("rectification", f"declarer may forbid {offender.partner} one suit if "
                            f"{offender.partner} defends (Laws 25B, 26B)", offender.partner, t))
    if option == "purposeful" and rubber_25b:
        partner = offender.partner
        # R 26: the lead option comes from the call given up, unless the call that stands
        # repeated its denomination (R 26A: "did not repeat that suit"; 26B1 for notrump)
        if substitute_stands:
            board = _oblige(board, Obligation(r.PASS_ALL, partner, irr.id))
            suits = r.change_lead_suits(original, held.call)
        else:
            board = _oblige(board, Obligation(r.PASS_ONCE, partner, irr.id))
            suits = r.change_lead_suits(held.call, original)
        if suits is not None:
            board = _oblige(board, Obligation(r.LEAD_OPT_26, partner, irr.id, suits=suits))
        events.append(Event("rectification", f"{partner} must pass "
                            + ("for the rest of the auction" if substitute_stands else "at his next turn")
                            + " (R 25B)", partner, t))
    return evolve(state, board=board), events
