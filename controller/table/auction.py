"""The auction (Laws 17-22) and its irregularities (Laws 25-39); their rulings are in ``auction_rulings``.

A call is checked against the obligations the rulings left (Laws 26-32, 36, 37) and the
catalogue of irregular calls: a change of call (25), an insufficient bid (27), a call out
of rotation (28-32; 29A acceptance, 28B waiver), simultaneous calls (33), a pass that
skipped a player (34; D 17E), an inadmissible double or redouble (36), a call by a player
required to pass (37), a call after the auction closed (39). An irregular call is held
aside until its ruling or its acceptance by the next player. Also: the compulsory pass
(28A), the Stop card and the skip-bid wait (Law 73; R App. 2), the Alert, and the start
of the play (exposed cards of defenders become penalty cards, Law 24; the Law 26 lead
options kept for the defenders).
"""

from __future__ import annotations

from controller import actions as a
from controller import rulings as r
from controller.auction import Auction
from controller.calls import PASS, Call, CallKind
from controller.contract import Contract
from controller.irregularities import (
    Irregularity,
    detect_call_after_auction_closed,
    detect_inadmissible_double,
    detect_insufficient_bid,
)
from controller.play import Play
from controller.rulings import Held, Obligation, PenaltyCard
from controller.seats import Seat
from controller.table._common import _drop, _hold, _oblige, _raise, _reject, _settle, _unhold
from controller.table.closing import _close
from controller.table.comparable import (
    _hold_replacement,
    _lowest_without_judgement,
    _waiting_replacement,
)
from controller.table.penalties import _designation_due, _lead_options_due
from controller.table.record import _departs, _without_calls
from controller.table.state import BoardState, Event, Phase, Step, TableState
from controller.table.timing import _since_last_act, _timed
from controller.tempo import ActKind, is_skip_bid, skip_bid_wait
from controller.values import evolve

_ACCEPTABLE_BY_LHO = ("insufficient_bid", "call_out_of_rotation")


def _call(state: TableState, act: a.MakeCall) -> Step:
    board = state.board
    if board is None:
        return _reject(state, f"call {act.call} by {act.seat} before any board", act)
    if board.phase is Phase.DECLARATION:
        return _reject(state, "the 1905 game has no auction: declare trumps instead", act)
    if board.phase is Phase.DONE:
        return _reject(state, f"call {act.call} by {act.seat}: the board is over", act)
    auction = board.auction
    if detect_call_after_auction_closed(auction):
        detail = f"{act.seat} {act.call} after the auction closed"
        state, board, irr = _raise(state, board, "call_after_auction_closed", act.seat, detail, act.t)
        board = _hold(board, Held(irr.id, act.seat, call=act.call, t=act.t))
        return Step(evolve(state, board=board), (Event("irregularity", irr.situation, act.seat, act.t),),
                    (irr,))
    for held in board.held:
        if held.call is not None:
            return _call_while_held(state, board, held, act)
    return _call_in_order(state, board, act)


def _call_in_order(state: TableState, board: BoardState, act: a.MakeCall) -> Step:
    """A call with nothing held: compulsory passes, then detection, then the call itself."""
    events: list[Event] = []
    if board.standing and act.seat is not board.auction.turn:
        reverted = _reverted(state, board, act)
        if reverted is not None:
            state, board, first = reverted
            events.append(first)
    auction = board.auction
    turn = auction.turn
    if board.obligations and act.seat is not turn and act.seat is turn.lho and any(
            o.kind in (r.PASS_ONCE, r.PASS_ALL) and o.seat is turn for o in board.obligations):
        # Law 28A: a player may call without waiting for the compulsory pass of his RHO
        state, board, auto = _apply_call(state, board, turn, PASS, act.t, timed=False)
        events.append(Event("compulsory_pass", "recorded for the barred player (Law 28A)", turn, act.t))
        events.extend(auto)
        if board.phase is not Phase.AUCTION:
            return Step(state, tuple(events))
        auction = board.auction
    situation = _call_situation(board, act.seat, act.call)
    if situation is not None:
        detail = f"{act.seat} {act.call}" + (
            f" while {auction.turn} was to call" if act.seat is not auction.turn else "")
        conditions = (r.call_out_of_rotation_conditions(auction, act.seat) if act.seat is not auction.turn
                      else frozenset())
        state, board, irr = _raise(state, board, situation, act.seat, detail, act.t, conditions=conditions)
        board = _hold(board, Held(irr.id, act.seat, call=act.call, t=act.t))
        events.append(Event("irregularity", irr.situation, act.seat, act.t))
        return Step(evolve(state, board=board), tuple(events), (irr,))
    waiting = _waiting_replacement(state, board, act.seat) if act.seat is auction.turn else None
    if waiting is not None and _lowest_without_judgement(board, waiting, act.call):
        board = evolve(board, obligations=tuple(o for o in board.obligations if o is not waiting))
        events.append(Event("rectification", f"{act.call} is the lowest sufficient bid in the denomination of "
                            f"{waiting.call}: no rectification (Law 27B1(a))", act.seat, act.t))
        waiting = None
    if waiting is not None:
        # 2017 Law 23: the call replacing a cancelled one waits for the arbiter's judgement
        held = _hold_replacement(state, board, waiting, act)
        return Step(held.state, (*events, *held.events), held.irregularities)
    count = state.irregularity_count
    state, board, more = _apply_call(state, board, act.seat, act.call, act.t)
    events.extend(more)
    raised = state.irregularity_count - count
    return Step(state, tuple(events), state.irregularities[-raised:] if raised else ())


def _call_situation(board: BoardState, seat: Seat, call: Call) -> str | None:
    """The catalogue row of an irregular call, or None for a legal one (Laws 25-39)."""
    auction = board.auction
    if seat is not auction.turn:
        return r.call_out_of_rotation_situation(auction, seat, call)
    broken = r.forbidden_call(board.obligations, seat, call, auction) if board.obligations else None
    if broken is not None:
        if broken.kind in (r.PASS_ONCE, r.PASS_ALL):
            return "call_by_player_required_to_pass"
        if broken.kind == r.REPEAT:
            return "call_not_repeated"
        return "double_when_barred"
    return detect_insufficient_bid(auction, call) or detect_inadmissible_double(auction, call, seat)


def _call_while_held(state: TableState, board: BoardState, held: Held, act: a.MakeCall) -> Step:
    """A call while an irregular call awaits its ruling: acceptance, waiver, condonation or wait."""
    irr = state.irregularity(held.source)
    assert irr is not None and held.call is not None
    offender = held.seat
    auction = board.auction
    if irr.situation == "comparable_call":
        return _table_goes_on(state, board, irr, held, act)
    if irr.kind in _ACCEPTABLE_BY_LHO and act.seat is offender.lho:
        # Laws 27A, 29A: LHO calling over it accepts it (at LHO's turn in the first round,
        # where 28B would cancel it instead, acceptance is chosen: the arbiter may undo)
        state = _settle(state, irr.id, "accepted", option="accept", by=str(act.seat))
        board = _unhold(board, irr.id)
        state, board, events = _apply_call(state, board, offender, held.call, held.t,
                                           timed=False, irregular=True)
        first = Event("accepted", f"{irr.id} {irr.situation} accepted by {act.seat} calling",
                      act.seat, act.t)
        if board.phase is not Phase.AUCTION:
            return Step(state, (first, *events))
        rest = _call_in_order(state, board, act)
        return Step(rest.state, (first, *events, *rest.events), rest.irregularities)
    if (irr.kind == "call_out_of_rotation" and act.seat is auction.turn and irr.status == "awaiting_ruling"
            and abs(act.t - held.t) <= state.policy.simultaneous_window):
        # Law 33: calls made at the same time; the call of the player in turn counts first and
        # the other is deemed made after it, judged afresh against the new turn
        state = _settle(state, irr.id, "superseded", option="cancel", by=str(act.seat),
                        deemed=f"made after {act.seat}'s call (Law 33)")
        board = _unhold(board, irr.id)
        first = Event("simultaneous", f"{irr.id}: {offender} {held.call} and {act.seat} {act.call} made at the "
                      f"same time: {act.seat}'s call counts first (Law 33)", act.seat, act.t)
        rest = _call_in_order(evolve(state, board=board), board, act)
        then = _call(rest.state, a.MakeCall(offender, held.call, act.t))
        return Step(then.state, (first, *rest.events, *then.events), (*rest.irregularities, *then.irregularities))
    if (irr.kind == "call_out_of_rotation" and act.seat is auction.turn
            and act.seat.side is not offender.side):
        # Law 28B: the player in turn calling waives the penalty; the call is cancelled
        state = _settle(state, irr.id, "waived", option="cancel", by=str(act.seat))
        board = _unhold(board, irr.id)
        first = Event("waived", f"{irr.id} cancelled: {act.seat} called in turn (Law 28B)",
                      act.seat, act.t)
        rest = _call_in_order(state, board, act)
        return Step(rest.state, (first, *rest.events), rest.irregularities)
    if irr.situation in ("inadmissible_double", "double_oor_inadmissible") and act.seat is offender.lho:
        # nobody drew attention: the table goes on with the call as made. The record follows it and
        # the irregularity waits for the arbiter, who may still cancel it and every later call (D 36A,
        # R 35A, 2017 36A); the players reverting at the table do it themselves (``_reverted``)
        return _inadmissible_stands(state, board, irr, held, act)
    if irr.situation == "call_by_player_required_to_pass" and act.seat is offender.lho:
        # D 37A / R 35B: condoned; the calls stand, no lead restriction
        state = _settle(state, irr.id, "accepted", option="accept", by=str(act.seat))
        board = _unhold(board, irr.id)
        board = _drop(board, (r.PASS_ONCE,), offender)
        if state.code.rules.condoned_barred_call_bars_partner:
            board = _oblige(board, Obligation(r.PASS_ALL, offender, irr.id))
        state, board, events = _apply_call(state, board, offender, held.call, held.t,
                                           timed=False, irregular=True)
        rest = _call_in_order(state, board, act)
        return Step(rest.state, (*events, *rest.events), rest.irregularities)
    return _table_goes_on(state, board, irr, held, act)


def _table_goes_on(state: TableState, board: BoardState, irr: Irregularity, held: Held, act: a.MakeCall) -> Step:
    """A call while an irregular call awaits its ruling, the law giving it no meaning of its own: the
    players went on over it. The held call stands in the record as made (the arbiter may still rule
    on it), the call is taken in order, and the arbiter is told once (``record._departs``)."""
    assert held.call is not None
    board = _unhold(board, irr.id)
    if irr.situation == "comparable_call":
        # its judgement stays the arbiter's (Law 23): no bar is assumed meanwhile
        board = evolve(board, obligations=tuple(o for o in board.obligations if not (
            o.seat is held.seat and (o.kind == r.OOR_REPLACEMENT or (
                o.kind == r.REPLACE_CALL and o.mode.startswith("comparable"))))))
    state, board, more = _apply_call(evolve(state, board=board), board, held.seat, held.call, held.t,
                                     timed=False, irregular=True)
    state, board, told, raised = _departs(state, board, irr, act.seat, f"called {act.call}", act.t)
    state = evolve(state, board=board)
    if board.phase is not Phase.AUCTION:
        return Step(state, (*told, *more), tuple(raised))
    rest = _call_in_order(state, board, act)
    return Step(rest.state, (*told, *more, *rest.events), (*raised, *rest.irregularities))


def _inadmissible_stands(state: TableState, board: BoardState, irr: Irregularity, held: Held,
                         act: a.MakeCall) -> Step:
    """LHO called over an inadmissible double or redouble before any ruling: the call stands in the
    record as the table made it, the irregularity still awaits the arbiter (Laws 36A, 36C)."""
    assert held.call is not None
    board = _unhold(board, irr.id)
    board = evolve(board, standing=(*board.standing, (irr.id, len(board.auction.calls))))
    state, board, events = _apply_call(evolve(state, board=board), board, held.seat, held.call, held.t,
                                       timed=False, irregular=True)
    first = Event("call_stands", f"{irr.id}: {act.seat} called over {held.seat}'s {held.call}: the table goes on "
                  "with it; the arbiter may still cancel it", act.seat, act.t)
    if board.phase is not Phase.AUCTION:
        return Step(state, (first, *events))
    rest = _call_in_order(state, board, act)
    return Step(rest.state, (first, *events, *rest.events), rest.irregularities)


def _reverted(state: TableState, board: BoardState,
              act: a.MakeCall) -> tuple[TableState, BoardState, Event] | None:
    """The player in turn when a standing inadmissible double or redouble was made calling again,
    out of turn for the record, within the round that followed it: the table has cancelled it and
    every later call itself (D 36A, R 35A); the record does the same. None for any other call."""
    for id_, index in reversed(board.standing):
        irr = state.irregularity(id_)
        auction = board.auction
        if irr is None or irr.status != "awaiting_ruling" or not index < len(auction.calls) <= index + 4:
            continue
        before = _without_calls(auction, index)
        if act.seat is not before.turn:
            continue
        later = auction.calls[index:]
        board = evolve(board, auction=before, call_times=board.call_times[:index],
                       standing=tuple(x for x in board.standing if x[1] < index))
        by = auction.seats[index + 1] if index + 1 < len(auction.seats) else act.seat
        state = _settle(evolve(state, board=board), id_, "cancelled", option="cancel", by=str(by))
        return state, board, Event("cancelled", f"{id_}: {' '.join(str(c) for c in later)} cancelled at the "
                                   f"table; {act.seat} calls again (Law {irr.law})", act.seat, act.t)
    return None


def _apply_call(state: TableState, board: BoardState, seat: Seat, call: Call, t: float,
                timed: bool = True, irregular: bool = False) -> tuple[TableState, BoardState, list[Event]]:
    """Put ``call`` by ``seat`` into the auction, settling the obligations it meets."""
    events: list[Event] = []
    board, call, replaced = _resolve_obligations(state, board, seat, call, events)
    if replaced:
        # (the obligations it settled stay: D 27B, partner barred while the offender calls again)
        return evolve(state, board=board), board, events
    auction = board.auction
    think = _since_last_act(board, t)
    timed = timed and state.policy.timing
    if timed and auction.calls and auction.calls[-1].is_bid and auction.seats[-1] is seat.rho \
            and _was_skip(board, state):
        # Law 73 (ACBL), R App. 2: after a skip bid the next player waits about 10 s
        stop = any(s is seat.rho and (board.call_times[-1] - 15) <= st <= board.call_times[-1]
                   for s, st in board.stops)
        # judged when the Stop card was shown, or always with the setting "skip_bid_always"
        always = dict(state.settings).get("skip_bid_always") is True
        why = skip_bid_wait(stop, think, state.tempo, seat=seat) if stop or always else None
        if why is not None:
            state, board, _ = _raise(state, board, "skip_bid_wait", seat, why, t)
        if think >= state.tempo.min_call_s:
            state, board, _ = _timed(state, board, seat, ActKind.CALL, t, True)
    elif timed and think >= state.tempo.min_call_s:
        state, board, _ = _timed(state, board, seat, ActKind.CALL, t, False)
    auction = board.auction.with_call(call, seat)
    board = evolve(board, auction=auction, call_times=(*board.call_times, t), last_t=t if timed else board.last_t)
    events.append(Event("call", str(call) + (" (irregular, accepted)" if irregular else ""), seat, t))
    if auction.is_complete and (cut := r.skipped_turn(auction)) is not None:
        board = _reopen_auction(board, cut)
        auction = board.auction
        events.append(Event("auction_reopened", f"a pass out of rotation skipped {auction.turn}: the passes "
                            f"from it on are cancelled and {auction.turn} calls "
                            f"({state.code.law('cite:auction_reopened')})", auction.turn, t))
    if auction.is_complete:
        contract = auction.contract()
        if contract is None:
            state = _close(evolve(state, board=board), board, "passed_out", 0)
            events.append(Event("passed_out", "", None, t))
            return state, state.board or board, events
        board = _start_play(board, contract, state.code.rules.lead_options_drop_suits_bid_legally,
                            state.code.rules.lead_restriction_prohibit_only)
        events.append(Event("contract", str(contract), contract.declarer, t))
        state, board, more = _lead_options_due(evolve(state, board=board), board, t)
        events.extend(more)
        if board.penalty_cards:
            # the opening leader himself with two or more penalty cards: declarer designates (Law 51)
            state, board, more, _ = _designation_due(state, board, t)
            events.extend(more)
    return evolve(state, board=board), board, events


def _was_skip(board: BoardState, state: TableState) -> bool:
    """Whether the last call was a skip bid (a jump; R App. 2 also 2-level openings)."""
    calls = board.auction.calls
    if not calls or not calls[-1].is_bid:
        return False
    previous = next((c.rank for c in reversed(calls[:-1]) if c.is_bid), None)
    return is_skip_bid(previous, calls[-1], state.tempo.rubber_app2)


def _reopen_auction(board: BoardState, cut: int) -> BoardState:
    """The board with the calls from index ``cut`` on cancelled (Law 34; D 17E): the auction
    is rebuilt from the calls before it, so the turn is the skipped player's."""
    auction = board.auction
    rebuilt = Auction(auction.dealer)
    for c, s in zip(auction.calls[:cut], auction.seats[:cut], strict=True):
        rebuilt = rebuilt.with_call(c, s)
    return evolve(board, auction=rebuilt, call_times=board.call_times[:cut])


def _resolve_obligations(state: TableState, board: BoardState, seat: Seat, call: Call,
                         events: list[Event]) -> tuple[BoardState, Call, bool]:
    """Settle the obligations a legal call by ``seat`` meets (Laws 27B, 30-32, 36)."""
    if not board.obligations:
        return board, call, False
    rules = state.code.rules
    partner = seat.partner
    new: list[Obligation] = []
    kept: list[Obligation] = []
    replaced = False
    for ob in board.obligations:
        if ob.kind == r.REPLACE_CALL and ob.seat is seat:
            original = ob.call
            assert original is not None
            if ob.mode in ("insufficient", "artificial"):
                # D 27B1(a) / R 27A: only when neither bid is artificial (the arbiter's finding)
                lowest = (ob.mode == "insufficient" and call.is_bid and call.denomination is original.denomination
                          and board.auction.last_bid is not None
                          and call.rank <= board.auction.last_bid.rank + 5)
                if lowest:
                    events.append(Event("rectification", "lowest sufficient bid in the same "
                                        "denomination: no rectification (Law 27B1(a))", seat))
                elif call.kind in (CallKind.DOUBLE, CallKind.REDOUBLE):
                    new.append(Obligation(r.PASS_ALL, partner, ob.source))
                    new.append(Obligation(r.LEAD_OPT_26, partner, ob.source,
                                          suits=r.lead_suits_of(original)))
                    if rules.insufficient_double_forces_pass:
                        call = PASS
                        events.append(Event("rectification", "a double replacing an insufficient "
                                            "bid is cancelled: the offender passes (R 27D)", seat))
                    else:
                        kept.append(evolve(ob, mode="any"))
                        events.append(Event("rectification", "a double replacing an insufficient bid "
                                            "is cancelled: call again; partner passes for the rest "
                                            "(D 27B)", seat))
                        replaced = True
                        continue
                else:
                    new.append(Obligation(r.PASS_ALL, partner, ob.source))
                    if rules.lead_options_after_repeated_denomination or not (
                            call.is_bid and call.denomination is original.denomination):
                        # R 26A, 26B1: a replacement repeating the denomination leaves no lead option;
                        # D 26: a suit bid in the legal auction is dropped when the play starts, and
                        # a withdrawn notrump bid still lets declarer prohibit one suit
                        new.append(Obligation(r.LEAD_OPT_26, partner, ob.source,
                                              suits=r.lead_suits_of(original)))
                    events.append(Event("rectification", "partner must pass for the rest of the "
                                        "auction (Law 27B2)", partner))
            continue
        if ob.kind in (r.OOR_BID_RHO, r.OOR_DOUBLE_RHO) and ob.seat.rho is seat:
            offender = ob.seat
            if call.kind is CallKind.PASS and ob.call == PASS:
                # an artificial pass dealt with as a bid (D 30C): repeating it is an obligation to pass, whose
                # breach is Law 37's (LHO calling over it condones it)
                new.append(Obligation(r.PASS_ONCE, offender, ob.source))
                events.append(Event("rectification", f"{offender} must pass, repeating his pass "
                                    f"({state.code.law('cite:repeat')})", offender))
            elif call.kind is CallKind.PASS:
                new.append(Obligation(r.REPEAT, offender, ob.source, ob.call))
                events.append(Event("rectification", f"{offender} must repeat {ob.call} "
                                    f"({state.code.law('cite:repeat')})", offender))
            elif ob.kind == r.OOR_BID_RHO or rules.comparable_call:
                # (2017 Law 32A2: after a double or redouble too, the arbiter judges the offender's call)
                new.append(Obligation(r.OOR_REPLACEMENT, offender, ob.source, ob.call))
            else:
                bar = r.PASS_ALL if rules.double_oor_bars_partner_for_rest else r.PASS_ONCE
                new.append(Obligation(bar, offender.partner, ob.source))
                new.append(Obligation(r.LEAD_OPT_26, offender.partner, ob.source))
                events.append(Event("rectification", f"{offender.partner} must pass "
                                    f"{'for the rest of the auction' if bar == r.PASS_ALL else 'once'}"
                                    " (Law 32B2)", offender.partner))
            continue
        if ob.kind == r.OOR_REPLACEMENT and ob.seat is seat:
            cancelled = ob.call
            assert cancelled is not None
            if call.is_bid and call.denomination is cancelled.denomination:
                new.append(Obligation(r.PASS_ONCE, partner, ob.source))
                events.append(Event("rectification", "same denomination: partner passes once (Law 31A2)",
                                    partner))
            else:
                new.append(Obligation(r.PASS_ALL, partner, ob.source))
                new.append(Obligation(r.LEAD_OPT_26, partner, ob.source, suits=r.lead_suits_of(cancelled)))
                events.append(Event("rectification", "partner must pass for the rest of the auction "
                                    "(Law 31A2)", partner))
            continue
        if ob.seat is seat and ob.kind in (r.PASS_ONCE, r.NO_X_NOW, r.REPEAT):
            continue
        if ob.kind == r.NO_X_SAME and call.is_bid:
            continue
        kept.append(ob)
    return evolve(board, obligations=(*kept, *new)), call, replaced


def _start_play(board: BoardState, contract: Contract, specified_in_auction: bool = False,
                prohibit_only: bool = False) -> BoardState:
    """The play begins: auction obligations end; exposed cards of defenders become penalty cards.

    Law 26 lead options stay only for the defending side; in duplicate a suit the offender
    bid in the legal auction is dropped from them (D 26: no rectification for that suit).
    Under the 2017 Law 26B (``prohibit_only``) the option is a prohibition of any one suit the
    offender did not specify in the legal auction, whatever the withdrawn call was.
    """
    play = Play.start(contract.declarer, contract.denomination.trump, board.deal)
    defenders = (contract.declarer.lho, contract.declarer.rho)
    obligations: list[Obligation] = []
    for o in board.obligations:
        if o.kind != r.LEAD_OPT_26 or o.seat not in defenders:
            continue
        if prohibit_only:
            allowed = r.lead_ban_suits(board.auction, o.seat.partner)
            if allowed:
                obligations.append(evolve(o, suits=allowed))
            continue
        if specified_in_auction and o.suits:
            named = {c.denomination.trump for c in board.auction.calls_of(o.seat.partner)
                     if c.is_bid and c.denomination is not None}
            kept = tuple(s for s in o.suits if s not in named)
            if not kept:
                continue
            o = evolve(o, suits=kept)
        obligations.append(o)
    pcs = list(board.penalty_cards)
    mine: dict[Seat, int] = {}
    for seat, _, _, _ in board.exposed:
        mine[seat] = mine.get(seat, 0) + 1
    for seat, card, major, source in board.exposed:
        if seat in defenders:
            pcs.append(PenaltyCard(seat, card, r.is_major(card, major, mine[seat] - 1), source))
    return evolve(board, phase=Phase.PLAY, contract=contract, play=play, obligations=tuple(obligations),
                  penalty_cards=tuple(pcs), exposed=())


def _stop(state: TableState, act: a.StopCard) -> Step:
    board = state.board
    if board is None or board.phase is not Phase.AUCTION:
        return _reject(state, "a Stop card is shown only during the auction", act)
    return Step(evolve(state, board=evolve(board, stops=(*board.stops, (act.seat, act.t)))),
                (Event("stop", "", act.seat, act.t),))


def _alert(state: TableState, act: a.AlertCard) -> Step:
    board = state.board
    if board is None or not board.auction.calls:
        return _reject(state, "an Alert needs a call to alert", act)
    index = len(board.auction.calls) - 1
    return Step(evolve(state, board=evolve(board, alerts=(*board.alerts, index))),
                (Event("alert", str(board.auction.calls[index]), act.seat, act.t),))
