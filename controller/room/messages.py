"""What a table tells the club room: its outbox rows and its state, as pure functions.

The table's outbox is its event log (``tablectl.store``). Each input row is followed, in
the same transaction, by what the engine derived from it; among those rows the room reads:

* ``derived`` rows: every table action (published on ``event``);
* ``alert`` rows, made here by ``room_rows(before, after)`` from two table states: an
  irregularity raised, ruled or closed, the arbiter called at the table; and the table's
  answer to a command from the console;
* ``result`` rows, likewise: a board finished, with its replay entry (``tablectl replay
  --json``), published retained on ``result/<board>``.

So every message the room gets is one durable row with its own ``seq``: after a broker
outage or a restart the link publishes the rows after the console's acknowledgement again,
and the console drops the ``(table, session, seq)`` it holds. ``state`` is not an outbox
row: it is the table now (retained; only the latest matters), made by ``table_state``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from controller.irregularities import Irregularity, plain_kind
from controller.replay import outcome_json
from controller.seats import Side
from controller.table import Phase, TableState

__all__ = ["SCHEMA", "alert_of_irregularity", "room_rows", "table_state"]

SCHEMA = 1
"""The ``v`` of every message of the room (docs/room-protocol.md)."""

Json = dict[str, Any]

_CLOSED = ("accepted", "waived", "cancelled", "superseded", "noted", "undone")


def alert_of_irregularity(irr: Irregularity, event: str) -> Json:
    """The ``alert`` body of an irregularity ``raised``, ``ruled`` or ``closed``.

    ``what`` is the situation in plain words; ``notify`` says whether the Director is to be
    told at once (``arbiter``, ``table``) or only on the timeline (``log``); tempo notes are
    never an alarm at the console.
    """
    out: Json = {"alert": "irregularity", "event": event, **irr.as_dict()}
    out["what"] = plain_kind(irr.kind, irr.situation)
    out["alarm"] = event == "raised" and irr.status == "awaiting_ruling" and irr.notify != "log" \
        and irr.kind != "tempo"
    return out


def _irregularity_alerts(before: TableState, after: TableState) -> Iterator[Json]:
    if before.irregularities is after.irregularities:
        return
    old = {i.id: i for i in before.irregularities}
    for irr in after.irregularities:
        prev = old.get(irr.id)
        if prev is None:
            yield alert_of_irregularity(irr, "raised")
            if irr.status != "awaiting_ruling":  # accepted or noted at once: closed too
                yield alert_of_irregularity(irr, "ruled" if irr.status == "ruled" else "closed")
        elif prev != irr and (prev.status != irr.status or prev.ruling != irr.ruling):
            event = "ruled" if irr.status == "ruled" else "closed" if irr.status in _CLOSED else "updated"
            yield alert_of_irregularity(irr, event)


def room_rows(before: TableState, after: TableState) -> list[tuple[str, Json]]:
    """The ``alert`` and ``result`` rows (kind, body) for the room between two table states."""
    if before is after:
        return []
    rows: list[tuple[str, Json]] = [("alert", body) for body in _irregularity_alerts(before, after)]
    if after.director_called != before.director_called:
        board = after.board
        if after.director_called is not None:
            rows.append(("alert", {"alert": "arbiter_called", "seat": str(after.director_called),
                                   "board": None if board is None else board.number,
                                   "what": f"{after.director_called} called the Director",
                                   "alarm": True}))
        else:
            rows.append(("alert", {"alert": "arbiter_call_cleared",
                                   "board": None if board is None else board.number,
                                   "what": "the Director's call is over (a new board started)",
                                   "alarm": False}))
    for outcome in after.boards[len(before.boards):]:
        rows.append(("result", outcome_json(outcome, after)))
    return rows


def table_state(state: TableState, *, now: float, table_name: str, boards_per_round: int | None = None) -> Json:
    """The ``state`` message body: where the table is, for the console's tile.

    ``board_elapsed`` is table seconds since the board started; ``round`` is counted from the
    boards finished when the room says how many boards a round has.
    """
    board = state.board
    played = sum(1 for o in state.boards if o.status != "redeal")
    out: Json = {
        "online": True, "table_name": table_name, "code": state.code.name,
        "board": None if board is None else board.number,
        "phase": "idle" if board is None else board.phase.value,
        "boards_played": played,
        "turn": None if state.turn is None else str(state.turn),
        "contract": None, "declarer": None, "tricks": None, "board_elapsed": None,
        "arbiter_called": None if state.director_called is None else str(state.director_called),
        "awaiting": [{"id": i.id, "kind": i.kind, "situation": i.situation, "law": i.law,
                      "what": plain_kind(i.kind, i.situation),
                      "offender": None if i.offender is None else str(i.offender),
                      "chooser": i.chooser, "alarm": i.notify != "log" and i.kind != "tempo"}
                     for i in state.awaiting()],
        "total_ns": state.total_ns,
    }
    if boards_per_round:
        in_progress = board is not None and board.phase is not Phase.DONE
        out["round"] = played // boards_per_round + (1 if in_progress or played % boards_per_round else 0) \
            if played or in_progress else 1
        out["round_finished"] = not in_progress and played > 0 and played % boards_per_round == 0
    if board is not None:
        out["contract"] = board.contract_text
        out["declarer"] = None if board.contract is None else str(board.contract.declarer)
        if board.play is not None:
            out["tricks"] = {"NS": board.play.won[Side.NS], "EW": board.play.won[Side.EW]}
        if board.phase is not Phase.DONE:
            out["board_elapsed"] = round(max(0.0, now - board.start_t), 1)
        else:
            last = state.outcome()
            if last is not None and last.board.index == board.index:
                out["result"] = {"contract": board.contract_text, "tricks": last.tricks, "result": last.result,
                                 "score_ns": last.score_ns, "status": last.status}
    return out
