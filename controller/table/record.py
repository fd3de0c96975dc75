"""The record kept with the cards on the table: a call the table went on over stays as it was made.

An inadmissible double or redouble nobody drew attention to (Law 36) stays in the auction record
as the players made it; once the opening lead is faced, the 2017 code plays and scores the contract
as if it had not been made (2017 Law 36C).
"""

from __future__ import annotations

from controller.auction import Auction
from controller.contract import Contract
from controller.table._common import _settle
from controller.table.state import BoardState, Event, TableState
from controller.values import evolve


def _without_calls(auction: Auction, start: int, end: int | None = None) -> Auction:
    """``auction`` without its calls from index ``start`` up to ``end`` (to the last call when None)."""
    rebuilt = Auction(auction.dealer)
    for i, (c, s) in enumerate(zip(auction.calls, auction.seats, strict=True)):
        if i >= start and (end is None or i < end):
            continue
        rebuilt = rebuilt.with_call(c, s)
    return rebuilt


def _as_if_not_made(state: TableState, board: BoardState, id_: int, index: int,
                    t: float) -> tuple[TableState, list[Event]]:
    """2017 Law 36C: the contract played and scored as if the inadmissible call at ``index`` had not
    been made; the auction record keeps the calls as the table made them."""
    contract = board.contract
    assert contract is not None
    without = _without_calls(board.auction, index, index + 1).contract()
    doubled = contract.doubled if without is None else without.doubled
    scored = Contract(contract.level, contract.denomination, doubled, contract.declarer)
    board = evolve(board, contract=scored, standing=tuple(x for x in board.standing if x[0] != id_))
    state = _settle(evolve(state, board=board), id_, "ruled", option="as_if_not_made")
    return state, [Event("contract", f"{scored}: scored as if the inadmissible call had not been made "
                         f"({state.code.law('cite:inadmissible_after_lead')})", contract.declarer, t)]


def _opening_lead_faced(state: TableState, board: BoardState, t: float) -> tuple[TableState, BoardState, list[Event]]:
    """At the opening lead, the inadmissible calls still standing unruled: scored as if not made
    where the code says so (2017 Law 36C); elsewhere they wait for the arbiter."""
    if not state.code.rules.inadmissible_call_void_after_lead:
        return state, board, []
    events: list[Event] = []
    for id_, index in board.standing:
        irr = state.irregularity(id_)
        if irr is not None and irr.status == "awaiting_ruling":
            state, more = _as_if_not_made(state, board, id_, index, t)
            board = state.board if state.board is not None else board
            events.extend(more)
    return state, board, events
