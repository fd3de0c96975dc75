"""Revokes (Laws 61-64): established by a claim or concession (Law 63A), corrected,
confirmed or adjusted by the arbiter (Laws 62, 64C), also once the play has ended (D 62D,
R 62: the twelfth trick), and a failure to comply confirmed as one.

A revoke is detected, and established by play (Law 63A1), in ``tricks``; its transfer is
computed when the board closes (Law 64, in ``closing``).
"""

from __future__ import annotations

from controller import rulings as r
from controller.cards import Suit
from controller.irregularities import Irregularity
from controller.play import Play
from controller.rulings import RevokeRecord
from controller.seats import Side
from controller.table._common import _card_arg, _declarer, _Refused, _tricks_arg
from controller.table.closing import _cite_revokes, _close
from controller.table.penalties import _add_penalty_card
from controller.table.state import BoardState, Event, Phase, TableState
from controller.table.tricks import _play
from controller.values import evolve


def _establish_by_claim(board: BoardState, side: Side) -> BoardState:
    """Law 63A: making or agreeing to a claim or concession establishes that side's revoke."""
    if not board.revokes:
        return board
    return evolve(board, revokes=tuple(evolve(rv, established=True) if rv.seat.side is side else rv
                                       for rv in board.revokes))


def _rule_revoke(state: TableState, board: BoardState, irr: Irregularity, option: str,
                 args: dict[str, object], t: float, after_play: bool = False) -> tuple[TableState, list[Event]]:
    """Laws 62-64: correct a revoke not yet established; confirm one (transfer at the end); adjust.
    The revoke then cites the law of what became of it (``closing._cite_revokes``); ``after_play``:
    the play had ended before the ruling (a twelfth-trick revoke, D 62D)."""
    state, events = _rule_revoke_record(state, board, irr, option, args, t, after_play)
    return (state if state.board is None else _cite_revokes(state, state.board)), events


def _rule_revoke_record(state: TableState, board: BoardState, irr: Irregularity, option: str,
                        args: dict[str, object], t: float, after_play: bool) -> tuple[TableState, list[Event]]:
    record = next((rv for rv in board.revokes if rv.source == irr.id), None)
    if irr.kind == "failure_to_comply":
        if option == "confirm" and irr.offender is not None and irr.trick is not None and board.play is not None:
            led = _suit_of_trick(board.play, irr.trick)
            board = evolve(board, revokes=(*board.revokes, RevokeRecord(
                irr.id, irr.offender, irr.trick, led or Suit.C, board.play.trick_number > irr.trick)))
        return evolve(state, board=board), []
    if record is None:
        raise _Refused("no revoke record")
    if option == "confirm":
        return state, [Event("revoke", f"revoke at trick {record.trick} confirmed: the transfer is "
                             "computed when the play ends (Law 64)", record.seat, t)]
    if option == "adjust":
        tricks = _tricks_arg(args)
        board = evolve(board, revokes=tuple(evolve(rv, exempt=f"adjusted:{tricks}") if rv is record else rv
                                            for rv in board.revokes))
        return evolve(state, board=board), [Event("revoke", f"the arbiter sets the transfer to {tricks} "
                                                  "(Law 64C)", record.seat, t)]
    # correct
    if record.established and record.trick != 12:
        raise _Refused("the revoke is established (Law 63): it can no longer be corrected; confirm or adjust")
    play = board.play
    assert play is not None and board.contract is not None
    so_far = (*play.tricks, play.current)
    card = so_far[record.trick - 1].card_of(record.seat) if record.trick <= len(so_far) else None
    if card is None:
        raise _Refused("the revoke card is not in its trick")
    new_play, removed = r.take_back(play, r.cards_from(play, card))
    revoke_card = removed[0][1]
    replacement = args.get("card")
    # a card the revoker played later (e.g. his lead to trick 13) that now corrects the revoke
    # is played once, to the revoke trick, and is not replayed in its old place (Law 62)
    substitute = _card_arg(args) if isinstance(replacement, str) else None
    later = tuple(sc for sc in removed[1:] if not (sc[0] is record.seat and sc[1] == substitute))
    if after_play and record.trick == 12 and len(later) < len(removed) - 1:
        # found after the last trick, the card that corrects a twelfth-trick revoke was the revoker's
        # card to trick 13: the revoke card, his last, is his card to trick 13 in its place (D 62D,
        # 64B6); the tricks are quitted, nobody plays them again
        later = (*later, (record.seat, card))
    board = evolve(board, play=new_play, played=board.played & ~(1 << revoke_card.index),
                   revokes=tuple(evolve(rv, exempt="corrected") if rv is record else rv for rv in board.revokes),
                   deferred=(*board.deferred, *later))
    events = [Event("revoke", f"{revoke_card} taken back (Law 62)", record.seat, t)]
    if record.seat.side is not _declarer(board).side and record.trick != 12:
        board = _add_penalty_card(board, record.seat, revoke_card, True, irr.id)
        events.append(Event("penalty_card", f"{revoke_card} is a major penalty card (Law 62B)", record.seat, t))
    state = evolve(state, board=board)
    if isinstance(replacement, str):
        state, board, more, _ = _play(state, board, record.seat, _card_arg(args), t, "")
        events.extend(more)
    return state, events


def _suit_of_trick(play: Play, trick: int) -> Suit | None:
    tricks = (*play.tricks, play.current)
    return tricks[trick - 1].suit_led if trick <= len(tricks) else None


def _rule_after_play(state: TableState, irr: Irregularity, option: str, args: dict[str, object],
                     t: float) -> tuple[TableState, list[Event]]:
    """Rulings once the play has ended: revokes, restrictions and claims rescore the board."""
    last = state.boards[-1]
    board = last.board
    if irr.kind == "claim":
        raise _Refused("the board is over: adjust the score instead")
    record = next((rv for rv in board.revokes if rv.source == irr.id), None)
    if option == "correct":
        if record is None or record.trick != 12 or state.board is not board:
            raise _Refused("the play is over: a revoke can no longer be corrected (Law 62)")
        # D 62D / R 62: a revoke on the twelfth trick is corrected even after the last trick,
        # until the hands go back in the board (here: until the next board starts); the board
        # reopens, tricks 12-13 are played again with the cards now due and it is scored again
        board = evolve(board, phase=Phase.PLAY, last_t=max(t, board.last_t or t))
        state = evolve(state, board=board, boards=state.boards[:-1], sheet=last.sheet_before or state.sheet)
        return _rule_revoke(state, board, irr, option, args, t, after_play=True)
    if irr.kind == "failure_to_comply" and option == "confirm" and irr.offender is not None and irr.trick:
        play = board.play
        assert play is not None
        led = _suit_of_trick(play, irr.trick) or Suit.C
        board = evolve(board, revokes=(*board.revokes, RevokeRecord(irr.id, irr.offender, irr.trick, led, True)))
    elif option == "adjust" and record is not None:
        board = evolve(board, revokes=tuple(evolve(rv, exempt=f"adjusted:{_tricks_arg(args)}")
                                            if rv is record else rv for rv in board.revokes))
    else:
        return state, []
    before = last.tricks_before_transfer if last.tricks_before_transfer is not None else last.tricks
    state = evolve(state, board=board, boards=state.boards[:-1], sheet=last.sheet_before or state.sheet)
    state = _close(state, board, last.status, before)
    return state, [Event("rescored", f"declarer {state.boards[-1].tricks} tricks", None, t)]
