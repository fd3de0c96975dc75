"""Claims and concessions (Laws 68-71): a claim or concession, the opponents' agreement, a
dispute (D 70: play stops for the arbiter; R 69, 70: play goes on), and the arbiter's
ruling: the claim as stated, or the tricks he awards.
"""

from __future__ import annotations

from controller import actions as a
from controller.irregularities import Irregularity
from controller.table._common import _raise, _Refused, _reject, _tricks_arg
from controller.table.closing import _cite_revokes, _close
from controller.table.revokes import _establish_by_claim
from controller.table.state import BoardState, Event, PendingClaim, Phase, Step, TableState
from controller.values import evolve


def _claim(state: TableState, act: a.Claim | a.Concede) -> Step:
    board = state.board
    if board is None or board.phase is not Phase.PLAY or board.play is None:
        return _reject(state, "a claim or concession is made during the play", act)
    remaining = 13 - len(board.play.tricks)
    if not 0 <= act.tricks <= remaining:
        return _reject(state, f"{act.tricks} tricks claimed or conceded but {remaining} remain",
                       act)
    side = act.seat.side
    tricks = act.tricks if isinstance(act, a.Claim) else remaining - act.tricks
    declarer = board.play.declarer
    if side is declarer.side:
        needed = frozenset((declarer.lho, declarer.rho))
    else:
        needed = frozenset((declarer,))
    statement = act.statement if isinstance(act, a.Claim) else ""
    claim = PendingClaim(act.seat, side, tricks, needed, statement=statement, concession=isinstance(act, a.Concede))
    board = _establish_by_claim(board, side)
    state = _cite_revokes(state, board)
    what = "claim" if isinstance(act, a.Claim) else "concession"
    return Step(evolve(state, board=evolve(board, claim=claim)),
                (Event(what, f"{tricks} of {remaining} remaining tricks to {side}"
                       + (f": {statement}" if statement else ""), act.seat, act.t),))


def _agree(state: TableState, act: a.Agree) -> Step:
    board = state.board
    if board is None or board.claim is None or board.play is None:
        return _reject(state, "no claim or concession awaits agreement", act)
    claim = board.claim
    if act.seat not in claim.needed:
        return _reject(state, f"{act.seat} is not an opponent of the claimer who must agree", act)
    claim = evolve(claim, agreed=claim.agreed | {act.seat})
    board = evolve(board, claim=claim)
    if claim.agreed >= claim.needed or not state.code.rules.revoke_established_at_full_agreement:
        # 2017 Law 63A4: agreeing to an opponent's claim establishes a revoke at the Law 69A agreement,
        # i.e. once the agreement is complete; D 63A (2008): at once, on acquiescing
        board = _establish_by_claim(board, act.seat.side)
    state = _cite_revokes(state, board)
    events = [Event("agree", "", act.seat, act.t)]
    if claim.agreed >= claim.needed and claim.disputed is None:
        state = _close_claim(evolve(state, board=board), board, claim.tricks)
        events.append(Event("board_done", f"claim agreed: declarer {state.boards[-1].tricks} tricks",
                            None, act.t))
        return Step(state, tuple(events))
    return Step(evolve(state, board=board), tuple(events))


def _close_claim(state: TableState, board: BoardState, tricks_to_claimer: int) -> TableState:
    claim = board.claim
    play = board.play
    assert claim is not None and play is not None
    won = play.won[claim.side] + tricks_to_claimer
    tricks = won if claim.side is play.declarer.side else 13 - won
    claimed = {claim.side: tricks_to_claimer, claim.side.other: 13 - len(play.tricks) - tricks_to_claimer}
    return _close(state, board, "claimed", tricks, claimed)


def _dispute(state: TableState, act: a.Dispute | a.CallDirector) -> Step:
    """Any player objects to the claim, or calls the arbiter while it is pending: the claim is
    disputed and the arbiter rules (D 68D, 69, 70; R 69, 70: play may go on). A defender's
    concession his partner objects to at once is no concession: play goes on (DD 68 item 3)."""
    board = state.board
    if board is None or board.claim is None or board.play is None or board.contract is None:
        return _reject(state, "no claim or concession to dispute", act)
    claim = board.claim
    if claim.disputed is not None:
        return Step(state, (Event("dispute", "already disputed", act.seat, act.t),))
    defenders = claim.side is not board.contract.declarer.side
    if claim.concession and defenders and act.seat is claim.seat.partner and isinstance(act, a.Dispute):
        return Step(evolve(state, board=evolve(board, claim=None)),
                    (Event("concession_cancelled", f"{act.seat} objects to his partner's concession: there is "
                           f"none, play goes on ({state.code.law('cite:concession_objected')}); cards shown are not "
                           "penalty cards",
                           act.seat, act.t),))
    situation = "claim_by_defender" if defenders else "claim_by_declarer"
    remaining = 13 - len(board.play.tricks)
    how = "disputes" if isinstance(act, a.Dispute) else "calls the arbiter"
    state, board, irr = _raise(state, board, situation, claim.seat,
                               f"{claim.seat} claims {claim.tricks} of {remaining}"
                               + (f" ({claim.statement})" if claim.statement else "")
                               + f"; {act.seat} {how}", act.t, board.play.trick_number)
    board = evolve(board, claim=evolve(claim, disputed=irr.id))
    rules = state.code.rules
    stops = ("play is suspended: the arbiter rules, unless the side that did not claim asks to play on and "
             "all four agree" if rules.doubted_claim_may_play_on else "play stops: the arbiter rules")
    said = ("play goes on with the claimer's hand face up (R 69, 70)" if rules.disputed_claim_plays_on
            else f"{stops} ({state.code.law('cite:claim_disputed')})")
    return Step(evolve(state, board=board), (Event("dispute", said, act.seat, act.t),), (irr,))


def _rule_claim(state: TableState, board: BoardState, irr: Irregularity, option: str,
                args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Laws 69-71: the claim as stated, or the tricks the arbiter awards (declarer's total); under the
    2017 Law 68D2(b) also ``play_on``: all four agreed to play on, the claim is void and play resumes."""
    claim = board.claim
    if claim is None or board.play is None:
        raise _Refused("the claim is no longer pending")
    if option == "play_on":
        if board.phase is Phase.DONE:
            raise _Refused("the board is over: play can no longer go on")
        board = evolve(board, claim=None)
        return evolve(state, board=board), [Event("claim_void", "all four agreed to play on at the request of the "
                                                  "side that did not claim: the claim is void and the result of the "
                                                  f"play stands ({state.code.law('cite:claim_disputed')})",
                                                  claim.seat, t)]
    if option == "agree":
        state = _close_claim(state, board, claim.tricks)
    else:
        tricks = _tricks_arg(args)
        play = board.play
        assert play is not None
        decl_side = play.declarer.side
        to_declarer = tricks - play.won[decl_side]
        remaining = 13 - len(play.tricks)
        if not 0 <= to_declarer <= remaining:
            raise _Refused(f"declarer has {play.won[decl_side]} tricks with {remaining} to play: "
                           f"{tricks} is impossible")
        board = evolve(board, claim=evolve(claim, side=decl_side))
        state = _close_claim(evolve(state, board=board), board, to_declarer)
    return state, [Event("board_done", f"claim ruled: declarer {state.boards[-1].tricks} tricks", None, t)]
