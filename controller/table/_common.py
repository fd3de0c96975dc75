"""What the parts of the table share: an action refused, an irregularity raised (its law
for the code in force, who chooses: LAWS.md Part 1) or settled, a call or card held aside
for its ruling, obligations added or dropped, and a ruling refused with its arguments read.
"""

from __future__ import annotations

from typing import Any

from controller.cards import Card, Suit
from controller.irregularities import KIND_OF_SITUATION, OPTIONS, SITUATION_OPTIONS, Irregularity
from controller.rulings import Held, Obligation
from controller.seats import Seat
from controller.table.state import BoardState, Event, Step, TableState
from controller.values import evolve

_SUIT_NAMES = {Suit.C: "clubs", Suit.D: "diamonds", Suit.H: "hearts", Suit.S: "spades"}


def _reject(state: TableState, why: str, action: Any) -> Step:
    seat = getattr(action, "seat", None)
    return Step(state, (Event("rejected", why, seat, getattr(action, "t", 0.0)),))


def _raise(state: TableState, board: BoardState, situation: str, offender: Seat | None,
           detail: str, t: float, trick: int | None = None, chooser: str | None = None,
           options: tuple[str, ...] | None = None, kind: str | None = None,
           status: str = "awaiting_ruling") -> tuple[TableState, BoardState, Irregularity]:
    """Record a new irregularity against ``board``; ids run from 1 in order of detection."""
    kind = kind or KIND_OF_SITUATION.get(situation, situation)
    law = state.code.law(situation) or state.code.law(kind)
    if options is None:
        options = SITUATION_OPTIONS.get(situation, OPTIONS.get(kind, ()))
    irr = Irregularity(
        id=state.irregularity_count + 1, kind=kind, situation=situation, law=law,
        offender=offender, chooser=chooser or _default_chooser(kind, offender, board),
        options=options, detail=detail, t=t, board=board.number, trick=trick, status=status,
        notify=state.policy.notify_of(kind))
    board = evolve(board, irregularity_ids=(*board.irregularity_ids, irr.id))
    state = evolve(state, irregularities=(*state.irregularities, irr), board=board,
                   irregularity_count=irr.id)
    return state, board, irr


def _settle(state: TableState, id_: int, status: str, **ruling: object) -> TableState:
    """The state with irregularity ``id_`` given ``status`` and its ruling (or its acceptance)."""
    irrs = tuple(evolve(i, status=status, ruling=tuple(ruling.items()) or i.ruling)
                 if i.id == id_ else i for i in state.irregularities)
    return evolve(state, irregularities=irrs)


def _default_chooser(kind: str, offender: Seat | None, board: BoardState) -> str:
    """Who picks among the options, per LAWS.md Part 1 (the arbiter where the law says so)."""
    if offender is None:
        return "arbiter"
    if kind in ("insufficient_bid", "call_out_of_rotation"):
        return str(offender.lho)
    if kind in ("opening_lead_out_of_turn", "premature_play", "penalty_card",
                "failure_to_play_penalty_card") and board.contract is not None:
        return str(board.contract.declarer)
    if kind == "lead_out_of_turn" and board.contract is not None:
        if offender.side is board.contract.declarer.side:
            return str(board.contract.declarer.lho.side)
        return str(board.contract.declarer)
    if kind == "simultaneous_play":
        return str(offender)
    if kind == "card_exposed_in_auction":
        return "none"
    return "arbiter"


def _declarer(board: BoardState) -> Seat:
    assert board.contract is not None
    return board.contract.declarer


def _hold(board: BoardState, held: Held) -> BoardState:
    return evolve(board, held=(*board.held, held))


def _unhold(board: BoardState, source: int) -> BoardState:
    return evolve(board, held=tuple(h for h in board.held if h.source != source))


def _held_of(board: BoardState, source: int) -> Held | None:
    for h in board.held:
        if h.source == source:
            return h
    return None


def _oblige(board: BoardState, *obs: Obligation) -> BoardState:
    return evolve(board, obligations=(*board.obligations, *obs))


def _drop(board: BoardState, kinds: tuple[str, ...], seat: Seat | None = None) -> BoardState:
    kept = tuple(o for o in board.obligations
                 if not (o.kind in kinds and (seat is None or o.seat is seat)))
    return evolve(board, obligations=kept)


class _Refused(Exception):
    """A ruling the law does not allow here; the message says why (caught in ``apply``; never leaves the package)."""


def _suit_arg(args: dict[str, object]) -> Suit:
    value = args.get("suit")
    try:
        return Suit.parse(str(value)) if isinstance(value, str) else Suit(-1)
    except ValueError as exc:
        raise _Refused(f"a suit is needed (\"suit\": \"S\", \"H\", \"D\" or \"C\"), not {value!r}") from exc


def _card_arg(args: dict[str, object]) -> Card:
    value = args.get("card")
    try:
        return Card.parse(str(value))
    except ValueError as exc:
        raise _Refused(f"a card is needed (\"card\": \"SK\"), not {value!r}") from exc


def _tricks_arg(args: dict[str, object]) -> int:
    value = args.get("tricks")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 13:
        raise _Refused(f"a number of tricks 0-13 is needed (\"tricks\": 9), not {value!r}")
    return value
