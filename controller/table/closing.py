"""Closing a board: the revoke transfers (Law 64; W 87), the score on the sheet, the
outcome; a disputed claim played out settled by that play (R 69, 70); the arbiter's
adjustment and the rescore of the board just finished (Laws 12, 64C, 79, 82); a board
abandoned and the end of the session.
"""

from __future__ import annotations

from controller import actions as a
from controller import rulings as r
from controller.codes import SheetEntry
from controller.scoring import DealResult
from controller.seats import Side
from controller.table._common import _reject, _settle
from controller.table.state import BoardOutcome, BoardState, Event, Phase, Step, TableState
from controller.values import evolve


def _close(state: TableState, board: BoardState, status: str, tricks: int | None,
           claimed: dict[Side, int] | None = None, transfers: bool = True) -> TableState:
    """Finish ``board``: revoke transfers (Law 64), the score on the sheet, the outcome.

    A disputed claim that was played out (R 69, 70: play goes on) is settled by that play:
    its irregularity is recorded as awarded the tricks declarer won (``"by": "play"``); the
    arbiter may still adjust the score.
    """
    claim = board.claim
    if claim is not None and claim.disputed is not None and status == "played" and tricks is not None:
        state = _settle(state, claim.disputed, "ruled", option="award", tricks=tricks, by="play")
    board = evolve(board, phase=Phase.DONE, claim=None)
    entries: tuple[SheetEntry, ...] = ()
    sheet = state.sheet
    lost = (0, 0)
    notes: tuple[str, ...] = ()
    before = tricks
    if (transfers and tricks is not None and board.revokes and board.play is not None
            and board.contract is not None):
        rules = state.code.rules
        plain = tuple(rv for rv in board.revokes if not rv.exempt.startswith("adjusted:"))
        lost, notes, decided = r.revoke_outcomes(board.play, plain, rules.revoke_penalty,
                                                 rules.both_sides_revoked_no_transfer, claimed)
        state = _cite_revokes(state, board, decided)
        fixed = [0, 0]
        for rv in board.revokes:
            if rv.exempt.startswith("adjusted:"):
                fixed[rv.seat.side] += int(rv.exempt.split(":")[1])
        lost = (lost[0] + fixed[0], lost[1] + fixed[1])
        side = board.contract.declarer.side
        tricks = max(0, min(13, tricks - lost[side] + lost[side.other]))
        if any(lost):
            law = "W 87" if rules.revoke_penalty == "w87" else "Law 64"
            notes = (*notes, f"revoke transfer: NS give up {lost[0]}, EW give up {lost[1]} ({law})")
    if status not in ("incomplete", "redeal"):
        notes = (*notes, *_reviews_after_play(state, board))
        result = DealResult(board.contract, tricks or 0, board.vulnerability, board.dealer,
                            board.deal, lost, board.number)
        sheet, entries = state.code.score_deal(sheet, result)
    outcome = BoardOutcome(board, status, tricks, entries, lost, notes, state.sheet, before)
    return evolve(state, board=board, sheet=sheet, boards=(*state.boards, outcome))


def _cite_revokes(state: TableState, board: BoardState,
                  decided: tuple[tuple[int, str], ...] = ()) -> TableState:
    """The state with each revoke of ``board`` citing the exact law of what became of it so far
    (Laws 61-64): corrected (D/R 62), the twelfth trick (D 62D), adjusted by the arbiter
    (D 64C), the transfer or exemption decided at the end of the play (``decided``:
    ``rulings.REVOKE_OUTCOMES``, e.g. D 64A1, R 64C, D 64B2), else established (Law 63); a
    revoke still correctable keeps Law 62. A reference the code has not leaves the law as it is."""
    if not board.revokes:
        return state
    outcome = dict(decided)
    laws: dict[int, str] = {}
    for rv in board.revokes:
        if rv.exempt == "corrected":
            key = "revoke_corrected"
        elif rv.exempt == "twelfth_trick":
            key = "revoke_twelfth_trick"
        elif rv.exempt.startswith("adjusted:"):
            key = "revoke_adjusted"
        elif rv.source in outcome:
            key = outcome[rv.source]
        elif rv.exempt == "faced_card":
            key = "revoke_faced_card"
        elif rv.established:
            key = "revoke_established"
        else:
            continue
        law = state.code.law(key)
        if law:
            laws[rv.source] = law
    if not any(i.id in laws and i.law != laws[i.id] for i in state.irregularities):
        return state
    return evolve(state, irregularities=tuple(evolve(i, law=laws[i.id]) if i.id in laws else i
                                              for i in state.irregularities))


def _reviews_after_play(state: TableState, board: BoardState) -> tuple[str, ...]:
    """The arbiter's reviews due at the end of the play: a call judged comparable, or the lowest
    sufficient bid in the same denomination, stood without rectification; he adjusts the score if,
    without the help of the infraction, the result could well have been different (2017 Laws 23C,
    27D). A call judged not comparable barred the partner: Law 72C (the 2008 Law 23)."""
    out = []
    for id_ in board.irregularity_ids:
        irr = state.irregularity(id_)
        option = dict(irr.ruling or ()).get("option") if irr is not None else None
        if irr is not None and irr.situation == "comparable_call" and option in ("comparable",
                                                                                  "lowest_same_denomination"):
            law = "27D" if option == "lowest_same_denomination" or irr.kind == "insufficient_bid" else "23C"
            out.append(f"review irregularity {irr.id}: {irr.offender}'s replacement call stood without "
                       f"rectification; adjust the score if the infraction helped (Law {law})")
        elif irr is not None and irr.situation == "comparable_call" and option == "not_comparable":
            out.append(f"review irregularity {irr.id}: {irr.offender}'s partner was barred; adjust the score if "
                       f"{irr.offender} could have known that this could well damage his opponents (Law 72C)")
    return tuple(out)


def abandon_board(state: TableState) -> TableState:
    """The state with the board in progress closed without a result (``incomplete``)."""
    if state.board is None or state.board.phase is Phase.DONE:
        return state
    return _close(state, state.board, "incomplete", None)


def finish_session(state: TableState) -> TableState:
    """The state at the end of the session: an unfinished board closed, end-of-session scores."""
    if state.finished:
        return state
    if state.board is not None and state.board.phase is not Phase.DONE:
        state = _close(state, state.board, "incomplete", None)
    sheet, _ = state.code.finish(state.sheet)
    return evolve(state, sheet=sheet, finished=True)


def _adjust(state: TableState, act: a.Adjust) -> Step:
    board = state.board
    if board is None or board.contract is None:
        return _reject(state, "an adjustment of tricks needs a board with a contract", act)
    if not 0 <= act.tricks <= 13:
        return _reject(state, f"invalid trick count {act.tricks}", act)
    if board.phase is Phase.DONE:
        return _rescore(state, act.tricks, "adjusted", act.t)
    state = _close(state, board, "adjusted", act.tricks, transfers=False)
    return Step(state, (Event("adjusted", f"declarer {act.tricks} tricks", None, act.t),))


def _rescore(state: TableState, tricks: int, status: str, t: float) -> Step:
    """Rescore the last finished board with declarer's ``tricks`` (Laws 12, 64C, 79, 82)."""
    if not state.boards or state.boards[-1].board is not state.board:
        return _reject(state, "only the board just finished can be rescored", None)
    last = state.boards[-1]
    if last.sheet_before is None or last.board.contract is None:
        return _reject(state, "that board has no contract to rescore", None)
    result = DealResult(last.board.contract, tricks, last.board.vulnerability, last.board.dealer,
                        last.board.deal, last.transfer, last.board.number)
    sheet, entries = state.code.score_deal(last.sheet_before, result)
    outcome = evolve(last, status=status, tricks=tricks, entries=entries)
    return Step(evolve(state, sheet=sheet, boards=(*state.boards[:-1], outcome)),
                (Event("adjusted", f"declarer {tricks} tricks", None, t),))
