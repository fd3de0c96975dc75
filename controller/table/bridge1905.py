"""The 1905 declaration (code ``bridge1905``): the dealer names the trump or passes that
choice to partner (W 45-48), the doubling dialogue (W 50-57), the start of the play (W 57,
61); the opening lead by the dealer's right-hand opponent (W 60, 76, 80).
"""

from __future__ import annotations

from typing import Any

from controller import actions as a
from controller import catalogue
from controller import rulings as r
from controller.codes.bridge1905 import W_UNEXPECTED_ACT, Declaration1905
from controller.irregularities import Irregularity
from controller.play import Play
from controller.rulings import Held, Obligation
from controller.table._common import _SUIT_NAMES, _oblige, _raise, _reject, _suit_arg, _unhold
from controller.table.penalties import _add_penalty_card
from controller.table.state import BoardState, Event, Phase, Step, TableState
from controller.values import evolve


def _declaration(state: TableState, act: a.Declare | a.DoubleDeclaration | a.Satisfied) -> Step:
    board = state.board
    if board is None or board.declaration is None:
        return _reject(state, "trump declarations and doubling belong to the 1905 game", act)
    if board.phase is not Phase.DECLARATION:
        return _reject(state, "the declaration and doubling are over", act)
    if isinstance(act, a.Declare):
        move: tuple[Any, ...] = (("declare", act.denomination) if act.denomination is not None
                                 else ("pass_to_partner",))
    elif isinstance(act, a.DoubleDeclaration):
        move = ("double",)
    else:
        move = ("satisfied",)
    before = board.declaration
    result = before.apply(act.seat, move)
    if result.situation == W_UNEXPECTED_ACT:
        return _reject(state, f"{act.seat} {move[0]}: not an act the 1905 laws allow now", act)
    board = evolve(board, declaration=result.declaration)
    events = [Event("declaration", " ".join(str(m) for m in move), act.seat, act.t)]
    irrs: tuple[Irregularity, ...] = ()
    if result.situation is not None:
        state, board, irr = _raise(state, board, result.situation, act.seat,
                                   f"{act.seat} {move[0]}", act.t,
                                   chooser=_chooser_1905(result.situation, before))
        irrs = (irr,)
    board, started = _declaration_done(board, act.t)
    events.extend(started)
    return Step(evolve(state, board=board), tuple(events), irrs)


def _chooser_1905(situation: str, before: Declaration1905) -> str:
    """Who decides a 1905 irregularity: the catalogue's role on this deal (W 46-48, 54, 55, 60)."""
    role = catalogue.situation_named(situation).chooser
    if role == "eldest":
        return str(before.eldest)
    if role == "dealer":
        return str(before.dealer)
    if role == "maker":
        return str(before.maker or before.dealer)
    if role == "last_doubler":
        return str(before.last_doublers[before.adversaries] or before.eldest)
    return "arbiter"


def _declaration_done(board: BoardState, t: float) -> tuple[BoardState, list[Event]]:
    """Start the play once the declaration and doubling are over (W 57, 61)."""
    declaration = board.declaration
    if declaration is None or not declaration.is_complete or board.phase is not Phase.DECLARATION:
        return board, []
    contract = declaration.contract()
    play = Play.start(contract.declarer, contract.denomination.trump, board.deal)
    board = evolve(board, phase=Phase.PLAY, contract=contract, play=play)
    return board, [Event("contract", str(contract), contract.declarer, t)]


def _rule_w_opening_lead(state: TableState, board: BoardState, irr: Irregularity, held: Held, option: str,
                         args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """1905 opening lead by the dealer's RHO (W 60, 76): name a suit, or leave the card exposed.

    W 60 lets the maker of the trump name any suit the eldest hand must lead; W 76 lets the
    dealer call the card led instead. The two are read as alternatives (W 76 says "or"):
    with ``require_suit`` the card goes back to the hand; with ``leave_penalty_card`` it
    stays exposed and may be called (W 80). Nobody becomes dummy: the dealer always plays
    dummy's hand (W 61), so the Law 54 options do not exist here.
    """
    offender = irr.offender
    play = board.play
    assert offender is not None and held.card is not None and play is not None
    eldest = offender.partner
    board = evolve(_unhold(board, irr.id), lead_options_for=play.trick_number)
    if option == "require_suit":
        suit = _suit_arg(args)
        board = _oblige(board, Obligation(r.LEAD_REQ, eldest, irr.id, suits=(suit,)))
        return evolve(state, board=board), [Event(
            "restriction", f"{eldest} must lead {_SUIT_NAMES[suit]}; {held.card} goes back to the hand (W 60)",
            eldest, t)]
    board = _add_penalty_card(board, offender, held.card, True, irr.id)
    return evolve(state, board=board), [Event(
        "penalty_card", f"{held.card} is an exposed card and may be called (W 76, 80)", offender, t)]
