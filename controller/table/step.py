"""``step(state, action) -> Step``: every table action to its handler.

Here too: the session (its code of laws and settings), the start of a board (dealer and
vulnerability as the code sets them up), a call of the Director, a card picked up.
"""

from __future__ import annotations

from typing import Any

from controller import actions as a
from controller.auction import Auction
from controller.table._common import _reject
from controller.table.apply import _ruling, _undo
from controller.table.auction import _alert, _call, _stop
from controller.table.bridge1905 import _declaration
from controller.table.claims import _agree, _claim, _dispute
from controller.table.closing import _adjust, _close
from controller.table.corrections import correct, undo_correction
from controller.table.penalties import _expose
from controller.table.play import _card, _face
from controller.table.state import BoardState, Event, Phase, Step, TableState
from controller.table.timing import _end_wait, _start_wait
from controller.values import evolve

__all__ = ["step"]


def _session(state: TableState, act: a.SessionStart) -> Step:
    if state.boards or state.board is not None:
        return _reject(state, "the session has already started: its code cannot change", act)
    try:
        fresh = TableState.new(act.code, dict(act.settings))
    except ValueError as exc:
        return _reject(state, str(exc), act)
    return Step(fresh, (Event("session", fresh.code.name, None, act.t),))


def _board(state: TableState, act: a.BoardStart) -> Step:
    events: list[Event] = []
    if state.board is not None and state.board.phase is not Phase.DONE:
        state = _close(state, state.board, "incomplete", None)
        events.append(Event("board_abandoned", "the previous board ended without a result",
                            None, act.t))
    dealer, vul = state.code.deal_setup(state.sheet, act.number, act.dealer, act.vulnerability)
    declaration = state.code.declaration(dealer)
    board = BoardState(
        index=len(state.boards) + 1, number=act.number, dealer=dealer, vulnerability=vul,
        deal=act.deal, phase=Phase.DECLARATION if declaration else Phase.AUCTION,
        auction=Auction(dealer), declaration=declaration, start_t=act.t)
    events.append(Event("board", f"board {act.number} dealer {dealer} vul {vul}", None, act.t))
    return Step(evolve(state, board=board, director_called=None, before_ruling=()), tuple(events))


def _director(state: TableState, act: a.CallDirector) -> Step:
    """A call of the arbiter; while a claim or concession is pending it disputes it (D 68D: a
    claim questioned by any player brings the Director, and play stops)."""
    called = Step(evolve(state, director_called=act.seat), (Event("director_called", "", act.seat, act.t),))
    board = state.board
    if board is not None and board.phase is Phase.PLAY and board.claim is not None and board.claim.disputed is None:
        disputed = _dispute(called.state, act)
        return Step(disputed.state, (*called.events, *disputed.events), disputed.irregularities)
    return called


def _pickup(state: TableState, act: a.PickUp) -> Step:
    return Step(state, (Event("pickup", str(act.card), act.seat, act.t),))


_HANDLERS: dict[type, Any] = {
    a.SessionStart: _session, a.BoardStart: _board, a.MakeCall: _call, a.StopCard: _stop,
    a.AlertCard: _alert, a.PlayCard: _card, a.FaceCards: _face, a.PickUp: _pickup,
    a.CallDirector: _director, a.Claim: _claim, a.Concede: _claim, a.Agree: _agree,
    a.Dispute: _dispute, a.ExposeCard: _expose, a.UndoRuling: _undo,
    a.Ruling: _ruling, a.Adjust: _adjust, a.Declare: _declaration,
    a.DoubleDeclaration: _declaration, a.Satisfied: _declaration,
    a.CorrectResult: correct, a.UndoCorrection: undo_correction,
}


def step(state: TableState, action: a.Action) -> Step:
    """The table after ``action``: new state, events and any irregularities raised."""
    if state.finished and not isinstance(action, a.CorrectResult | a.UndoCorrection):  # Law 79C: after the end too
        return _reject(state, "the session has ended", action)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        return _reject(state, f"unknown action {action!r}", action)
    t = action.t
    # no think time runs while the table waits for a ruling or for the arbiter (timing._end_wait)
    waited = _end_wait(state, t) if state.board is not None and state.board.waiting_since is not None else state
    result: Step = handler(waited, action)
    if result.state is waited and waited is not state:
        return Step(state, result.events, result.irregularities)  # refused: the table as it was
    after = _start_wait(result.state, t, isinstance(action, a.CallDirector))
    return result if after is result.state else Step(after, result.events, result.irregularities)
