"""What the parts of the table share: an action refused, an irregularity raised (its law
for the code in force, who chooses: docs/irregularities.md) or settled, a call or card held aside
for its ruling, obligations added or dropped, and a ruling refused with its arguments read.
"""

from __future__ import annotations

from typing import Any

from controller import catalogue
from controller.cards import Card, Suit
from controller.irregularities import Irregularity
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
           kind: str | None = None, conditions: frozenset[str] = frozenset(),
           status: str | None = None) -> tuple[TableState, BoardState, Irregularity]:
    """Record a new irregularity against ``board``; ids run from 1 in order of detection.

    The catalogue (``controller.catalogue``) gives its kind, its options (those whose
    condition is among ``conditions``), who chooses and whether it is only noted; ``kind``
    names another of the situation's kinds (a Law 26 lead option takes the kind of the call
    withdrawn); ``chooser`` gives the seat where the role needs more than the board (1905).
    """
    entry = catalogue.situation_named(situation)
    if kind is not None and kind not in entry.kinds:
        raise catalogue.UnknownSituationError(f"situation {situation!r} is not reported as {kind!r}")
    kind = kind or entry.kind
    law = state.code.law(situation) or state.code.law(kind)
    irr = Irregularity(
        id=state.irregularity_count + 1, kind=kind, situation=situation, law=law,
        offender=offender, chooser=chooser or _chooser(entry.chooser, offender, board),
        options=entry.offered(conditions, state.code.name), detail=detail, t=t, board=board.number, trick=trick,
        status=status or ("noted" if entry.noted else "awaiting_ruling"),
        notify=state.policy.notify_of(kind))
    board = evolve(board, irregularity_ids=(*board.irregularity_ids, irr.id))
    state = evolve(state, irregularities=(*state.irregularities, irr), board=board,
                   irregularity_count=irr.id)
    return state, board, irr


def _relabel(state: TableState, board: BoardState, id_: int, situation: str, detail: str) -> TableState:
    """Irregularity ``id_`` seen again as ``situation`` once the next card showed what it was (the same
    alarm, not a second one): its kind, law, options and chooser are the new situation's."""
    entry = catalogue.situation_named(situation)
    irrs = tuple(evolve(i, kind=entry.kind, situation=situation, law=state.code.law(situation) or state.code.law(
        entry.kind), options=entry.offered(frozenset(), state.code.name), detail=detail,
        chooser=_chooser(entry.chooser, i.offender, board), status="noted" if entry.noted else i.status)
                 if i.id == id_ else i for i in state.irregularities)
    return evolve(state, irregularities=irrs)


def _reoffer(state: TableState, id_: int, conditions: frozenset[str]) -> TableState:
    """Irregularity ``id_`` offering what its situation allows under ``conditions`` now (the table
    moved on while it waited: e.g. dummy's cards were faced, Law 54)."""
    irrs = tuple(evolve(i, options=catalogue.situation_named(i.situation).offered(conditions, state.code.name))
                 if i.id == id_ else i for i in state.irregularities)
    return evolve(state, irregularities=irrs)


def _settle(state: TableState, id_: int, status: str, **ruling: object) -> TableState:
    """The state with irregularity ``id_`` given ``status`` and its ruling (or its acceptance)."""
    irrs = tuple(evolve(i, status=status, ruling=tuple(ruling.items()) or i.ruling)
                 if i.id == id_ else i for i in state.irregularities)
    return evolve(state, irregularities=irrs)


def _chooser(role: str, offender: Seat | None, board: BoardState) -> str:
    """The seat or side that picks among the options, for a catalogue role (docs/irregularities.md);
    the arbiter where the role needs a seat the table does not know yet."""
    if role in ("arbiter", "none"):
        return role
    if offender is None:
        return "arbiter"
    if role == "lho":
        return str(offender.lho)
    if role == "offender":
        return str(offender)
    contract = board.contract
    if contract is None:
        return "arbiter"
    declarer = contract.declarer
    if role == "declarer":
        return str(declarer)
    if role == "defenders" or (role == "declarer_or_defenders" and offender.side is declarer.side):
        return str(declarer.lho.side)
    if role == "declarer_or_defenders":
        return str(declarer)
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
