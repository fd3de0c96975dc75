"""The record kept with the cards on the table: what the players went on over stays as it was made.

The controller never applies a rectification the players have not made at the table. When they go
on past an irregularity that awaits its ruling, the call or card held for it is put in the record as
the table has it and the arbiter is told once (``_departs``: ``table_departs_from_record``, Laws 81C,
82A), with the choice of confirming the table or ruling himself (``_rule_departure``).

An inadmissible double or redouble nobody drew attention to (Law 36) stays in the auction record
as the players made it; once the opening lead is faced, the 2017 code plays and scores the contract
as if it had not been made (2017 Law 36C).
"""

from __future__ import annotations

from controller.auction import Auction
from controller.contract import Contract
from controller.irregularities import Irregularity
from controller.seats import Seat
from controller.table._common import _raise, _reoffer, _settle
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
    state = _reoffer(evolve(state, board=board), id_, frozenset(("opening_lead_faced",)))
    state = _settle(state, id_, "ruled", option="as_if_not_made")
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


def _departs(state: TableState, board: BoardState, bypassed: Irregularity, seat: Seat, what: str,
             t: float) -> tuple[TableState, BoardState, list[Event], list[Irregularity]]:
    """``seat`` went on (``what``) while ``bypassed`` awaited its ruling: the caller has put the held call
    or card in the record as the table has it; here the board remembers what was gone past and the
    arbiter is told once (``table_departs_from_record``, Laws 81C, 82A) while that alert is open."""
    board = evolve(board, bypassed=(*board.bypassed, bypassed.id))
    events = [Event("record_follows_table", f"{seat} {what} while {bypassed.id} ({bypassed.situation}) awaited "
                    "its ruling: the record follows the table", seat, t)]
    law = state.code.law("table_departs_from_record")
    open_alert = any(i is not None and i.situation == "table_departs_from_record" and i.status == "awaiting_ruling"
                     for i in map(state.irregularity, board.irregularity_ids))
    if not law or open_alert:
        return evolve(state, board=board), board, events, []
    trick = board.play.trick_number if board.play is not None else None
    state, board, irr = _raise(state, board, "table_departs_from_record", None,
                               f"{seat} {what} while irregularity {bypassed.id} ({bypassed.situation}) awaited its "
                               "ruling: the record follows the table", t, trick)
    return state, board, events, [irr]


def _rule_departure(state: TableState, board: BoardState, option: str, t: float) -> tuple[TableState, list[Event]]:
    """The arbiter's answer: ``resync`` settles what the players went past as the table shows it;
    ``rule`` leaves those irregularities to his own rulings."""
    if option == "rule":
        return state, [Event("record_follows_table", "the arbiter rules on the irregularities gone past", None, t)]
    for id_ in board.bypassed:
        irr = state.irregularity(id_)
        if irr is not None and irr.status == "awaiting_ruling":
            state = _settle(state, id_, "accepted", by="table")
    board = evolve(board, bypassed=())
    return evolve(state, board=board), [Event("record_follows_table", "the arbiter confirms the table as it is",
                                              None, t)]
