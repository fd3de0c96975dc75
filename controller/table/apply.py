"""The arbiter's rulings: checked (the option is offered, its arguments are those the
catalogue gives it there, the irregularity is not settled), applied by the rule function of
their concept, and undone (Law 82).

The think timer stops while the arbiter rules (Laws 16, 73). Applied here: the 1905
declaration's irregularities, a failure to play a penalty card (Law 52), a fifth card
(Law 45E) and the deck problems (Laws 7, 13-14; R 10-12). Elsewhere: the auction's in
``auction``, leads and early plays and the lead options in ``play``, revokes in
``revokes``, claims in ``claims``.
"""

from __future__ import annotations

from controller import actions as a
from controller import catalogue
from controller.irregularities import Irregularity
from controller.rulings import Held
from controller.table._common import _declarer, _held_of, _Refused, _reject, _settle, _tricks_arg, _unhold
from controller.table.auction_rulings import _rule_call, _rule_call_after_close, _rule_standing_inadmissible
from controller.table.bridge1905 import _declaration_done, _rule_w_opening_lead
from controller.table.claims import _rule_claim
from controller.table.closing import _close
from controller.table.comparable import _rule_comparable_in_record
from controller.table.penalties import _add_penalty_card, _rule_exposed
from controller.table.play_rulings import (
    _rule_designation,
    _rule_lead,
    _rule_lead_option,
    _rule_premature,
    _rule_two_cards,
)
from controller.table.record import _rule_departure
from controller.table.revokes import _rule_after_play, _rule_revoke
from controller.table.state import BoardState, Event, Phase, Step, TableState
from controller.table.timing import _pause_timers
from controller.table.tricks import _play
from controller.values import evolve


def _ruling(state: TableState, act: a.Ruling) -> Step:
    target: Irregularity | None = None
    if act.id is not None:
        target = state.irregularity(act.id)
        if target is None:
            return _reject(state, f"no irregularity {act.id}", act)
    else:
        waiting = [i for i in state.irregularities if i.status == "awaiting_ruling"]
        if not waiting:
            return _reject(state, "no irregularity awaits a ruling", act)
        target = waiting[-1]
    if act.option not in target.options:
        return _reject(state, f"option {act.option!r} is not offered for irregularity "
                       f"{target.id} ({target.kind}, Law {target.law}): "
                       f"options are {', '.join(target.options)}", act)
    if target.status not in ("awaiting_ruling", "noted") and not (
            target.kind == "revoke" and target.status == "ruled"):
        return _reject(state, f"irregularity {target.id} is already settled ({target.status})", act)
    before = state
    args = dict(act.args)
    problem = catalogue.ruling_problem(target.situation, act.option, args, state.code.name)
    if problem is not None:
        return _reject(state, f"ruling {act.option!r} on irregularity {target.id} ({target.situation}, "
                       f"Law {target.law}): {problem}", act)
    try:
        # the arbiter's time is nobody's think, nor is a card or call the ruling puts in
        paused = _pause_timers(state, target, act.t)
        state, events = _apply_ruling(paused, target, act.option, args, act.t)
    except _Refused as exc:
        return _reject(before, f"ruling {act.option!r} on irregularity {target.id} ({target.situation}, "
                       f"Law {target.law}): {exc}", act)
    board = state.board
    if board is not None and paused.board is not None and board.last_t != paused.board.last_t:
        # a card or call the ruling put in is made now: the next player thinks from the ruling on
        state = evolve(state, board=evolve(board, last_t=act.t))
    state = _settle(state, target.id, "ruled", option=act.option, **args)
    state = evolve(state, before_ruling=(*before.before_ruling[-19:], (target.id, before)))
    return Step(state, (Event("ruling", f"{target.id} {act.option}", None, act.t), *events))


def _apply_ruling(state: TableState, irr: Irregularity, option: str, args: dict[str, object],
                  t: float) -> tuple[TableState, list[Event]]:
    """Apply ``option`` to ``irr``: the state after it and what happened (raises _Refused)."""
    board = state.board
    if board is None:
        raise _Refused("no board is in progress")
    kind, situation = irr.kind, irr.situation
    if board.declaration is not None and board.declaration.pending == situation:
        declaration = board.declaration.rule(option == "stands")
        board, started = _declaration_done(evolve(board, declaration=declaration), t)
        return evolve(state, board=board), started
    if kind == "tempo":
        return state, []
    if irr.board != board.number or irr.id not in board.irregularity_ids:
        if kind in ("revoke", "failure_to_comply", "claim") and state.boards and (
                irr.id in state.boards[-1].board.irregularity_ids):
            return _rule_after_play(state, irr, option, args, t)
        raise _Refused("it belongs to a board that is over")
    if board.phase is Phase.DONE and kind in ("revoke", "failure_to_comply", "claim", "defective_trick"):
        return _rule_after_play(state, irr, option, args, t)
    held = _held_of(board, irr.id)
    offender = irr.offender
    if situation in ("lead_restriction_from_withdrawn_call", "major_pc_partner_on_lead"):
        return _rule_lead_option(state, board, irr, held, option, args, t)
    if situation == "penalty_cards_designation":
        return _rule_designation(state, board, irr, held, args, t)
    if situation == "call_after_auction_closed":
        return _rule_call_after_close(state, board, irr, held)
    if situation == "table_departs_from_record":
        return _rule_departure(state, board, option, t)
    if situation == "comparable_call" and held is None:
        return _rule_comparable_in_record(state, board, irr, option, t)
    if irr.id in dict(board.standing):
        return _rule_standing_inadmissible(state, board, irr, option, t)
    if option == "as_if_not_made":
        raise _Refused("the call has not been called over: it can still be cancelled (Law 36)")
    if kind in ("insufficient_bid", "call_out_of_rotation", "change_of_call", "inadmissible_call"):
        if held is None or held.call is None or offender is None:
            raise _Refused("the call is no longer waiting for a ruling")
        return _rule_call(state, board, irr, held, option, args, t)
    if kind == "card_exposed_in_auction":
        return state, []
    if kind in ("opening_lead_out_of_turn", "lead_out_of_turn"):
        if held is None or held.card is None or offender is None:
            raise _Refused("the lead is no longer waiting for a ruling")
        if situation == "w_opening_lead_by_dealers_rho":
            return _rule_w_opening_lead(state, board, irr, held, option, args, t)
        return _rule_lead(state, board, irr, held, option, args, t)
    if situation in ("play_at_rho_turn", "legal_card_at_rho_turn"):
        return state, []  # noted: the penalty card is on the table, or the card waits for its turn (2017 57D)
    if kind == "premature_play":
        return _rule_premature(state, board, irr, held, option, args)
    if kind == "failure_to_play_penalty_card":
        if held is None or held.card is None or offender is None:
            raise _Refused("the card is no longer waiting for a ruling")
        board = _unhold(board, irr.id)
        if option == "accept_play":
            state, board, events, _ = _play(evolve(state, board=board), board, offender, held.card, held.t, "")
            return state, events
        board = _add_penalty_card(board, offender, held.card, True, irr.id)
        return evolve(state, board=board), [Event("penalty_card", f"{held.card} becomes a major penalty "
                                                  "card; the penalty card must be played (Law 52)",
                                                  offender, t)]
    if situation == "simultaneous_leads_by_defenders":
        return state, []  # noted: the penalty card is already on the table (Law 58A)
    if kind == "simultaneous_play":
        return _rule_two_cards(state, board, irr, held, args, t)
    if situation == "fifth_card_on_trick":
        if held is None or held.card is None or offender is None or board.contract is None:
            raise _Refused("the card is no longer waiting for a ruling")
        board = _unhold(board, irr.id)
        if offender.side is not _declarer(board).side:
            board = _add_penalty_card(board, offender, held.card, False, irr.id)
            return evolve(state, board=board), [Event("penalty_card", f"{held.card} (Law 45E)", offender, t)]
        return evolve(state, board=board), [Event("returned", f"{held.card} back to declarer's hand", offender, t)]
    if kind in ("revoke", "failure_to_comply"):
        return _rule_revoke(state, board, irr, option, args, t)
    if kind == "claim":
        return _rule_claim(state, board, irr, option, args, t)
    if kind in ("deck_problem", "wrong_board"):
        return _rule_deck(state, board, irr, held, option, args, t)
    if situation == "card_exposed_by_defender":
        return _rule_exposed(state, board, irr, option)
    return state, []  # penalty_card and the like: the ruling is recorded, nothing to apply


def _rule_deck(state: TableState, board: BoardState, irr: Irregularity, held: Held | None, option: str,
               args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Laws 7, 13-14 (R 10-12): carry on with the cards as they are, redeal, or adjust."""
    board = _unhold(board, irr.id)
    if option == "redeal":
        state = _close(evolve(state, board=board), board, "redeal", None)
        return state, [Event("redeal", "the board is redealt (the next board line starts it)", None, t)]
    if option == "adjust":
        tricks = _tricks_arg(args)
        if board.contract is None:
            raise _Refused("no contract to adjust")
        state = _close(evolve(state, board=board), board, "adjusted", tricks, transfers=False)
        return state, [Event("adjusted", f"declarer {tricks} tricks", None, t)]
    events: list[Event] = []
    if irr.situation == "card_not_in_hand" and held is not None and held.card is not None \
            and board.play is not None and board.deal is not None:
        # carry on: the hand record is set aside for the two hands involved
        holder = board.deal.holder(held.card)
        hands = list(board.play.hands)
        hands[held.seat] = None
        if holder is not None:
            hands[holder] = None
        board = evolve(board, play=evolve(board.play, hands=(hands[0], hands[1], hands[2], hands[3])),
                       deal=None)
        state = evolve(state, board=board)
        if board.play is not None and board.play.turn is held.seat:
            state, board, events, _ = _play(state, board, held.seat, held.card, held.t, "")
        return state, events
    return evolve(state, board=board), events


def _undo(state: TableState, act: a.UndoRuling) -> Step:
    """The arbiter withdraws a ruling: the table as it was just before it (Law 82)."""
    for id_, before in reversed(state.before_ruling):
        if id_ == act.id:
            return Step(before, (Event("ruling_undone", f"{act.id}: the table is back where it was before "
                                       "the ruling; later actions must be entered again", None, act.t),))
    return _reject(state, f"ruling {act.id} cannot be undone: no ruling on it on this board", act)
