"""The Director's corrections of a finished board's result, as the table's own record keeps them (Law 79C).

A result recorded wrongly (the wrong contract, declarer, number of tricks or opening lead) is
corrected by the Director at the console's scoring desk. The table takes the correction as an
action of its own (``CorrectResult``; taking it back: ``UndoCorrection``), so its log keeps the
board as it was played *and* each correction, with who made it, when and why: nothing of the
original is changed, and a replay of the log gives the same corrected result.

``TableState.corrections`` lists the entries in the order they were taken. What stands for a
board is its latest correction not taken back (``standing``); ``corrected_fields`` gives the
fields of a board's result entry (``tablectl replay --json``, the table's pages) as they then
stand, with ``original`` (the board as played) and ``corrections`` (every entry about it).

An entry is known by the console's entry number and the time it was made (``made``): the same
entry offered twice is refused the second time (the room's message may come again), so it is
one entry in the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller import actions as a
from controller.cards import Card
from controller.contract import Contract
from controller.scoring import duplicate_score
from controller.table._common import _reject
from controller.table.state import BoardOutcome, Event, Step, TableState
from controller.values import evolve

__all__ = ["CorrectionEntry", "correct", "corrected_fields", "standing", "undo_correction"]


@dataclass(frozen=True, slots=True)
class CorrectionEntry:
    """A correction (``kind`` ``correction``) or its taking back (``undo``) as the table took it:
    the board's ``index`` at this table and its ``number``; for a correction the result as it
    should stand and its score (Law 77, the board's vulnerability)."""

    kind: str
    entry: int
    made: str
    index: int
    number: int | None
    by: str
    reason: str
    t: float
    contract: Contract | None = None
    tricks: int = 0
    lead: Card | None = None
    score_ns: int = 0
    undoes: int | None = None

    def as_json(self, undone: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"entry": self.entry, "kind": self.kind, "law": "79C", "by": self.by,
                               "made": self.made, "reason": self.reason, "t": self.t}
        if self.kind == "correction":
            out |= _result_fields(self.contract, self.tricks, self.lead) | {"score_ns": self.score_ns,
                                                                            "undone": undone}
        else:
            out["undoes"] = self.undoes
        return out

    def words(self) -> str:
        if self.kind == "undo":
            return f"correction {self.undoes} of board {self.number} taken back by {self.by}: {self.reason}"
        played = _played_words(self.contract, self.tricks)
        return f"board {self.number} corrected to {played} by {self.by}: {self.reason}"


def _played_words(contract: Contract | None, tricks: int) -> str:
    if contract is None:
        return "passed out"
    return f"{contract.text}{contract.result(tricks)} by {contract.declarer}"


def _result_fields(contract: Contract | None, tricks: int, lead: Card | None) -> dict[str, Any]:
    return {"contract": "Pass" if contract is None else contract.text,
            "declarer": None if contract is None else str(contract.declarer),
            "tricks": None if contract is None else tricks,
            "result": None if contract is None else contract.result(tricks),
            "lead": None if lead is None else str(lead)}


def _taken(state: TableState, entry: int, made: str) -> bool:
    return any(e.entry == entry and e.made == made for e in state.corrections)


def _undone(state: TableState) -> set[int]:
    return {e.undoes for e in state.corrections if e.kind == "undo" and e.undoes is not None}


def correct(state: TableState, act: a.CorrectResult) -> Step:
    """A finished board's result corrected (module doc); refused, the table unchanged, for a board
    this table has not finished, at a table not scoring duplicate boards, or an entry taken already."""
    if not state.code.rules.duplicated_boards:
        return _reject(state, "a correction of a board's result is for duplicate boards (this table scores "
                       f"{state.code.name})", act)
    if _taken(state, act.entry, act.made):
        return _reject(state, f"correction {act.entry} is in the log already", act)
    outcome = next((o for o in reversed(state.boards) if o.board.number == act.board and o.status != "redeal"), None)
    if outcome is None:
        return _reject(state, f"board {act.board} has not been finished at this table: there is no result to correct",
                       act)
    score = duplicate_score(act.contract, act.tricks, outcome.board.vulnerability)
    entry = CorrectionEntry("correction", act.entry, act.made, outcome.board.index, act.board, act.by, act.reason,
                            act.t, act.contract, act.tricks, act.lead, score)
    return Step(evolve(state, corrections=(*state.corrections, entry)),
                (Event("result_corrected", entry.words(), None, act.t),))


def undo_correction(state: TableState, act: a.UndoCorrection) -> Step:
    """A correction taken back: the board's result stands as before it; refused for a correction this
    table does not have, one taken back already, or an entry taken already."""
    if _taken(state, act.entry, act.made):
        return _reject(state, f"entry {act.entry} is in the log already", act)
    target = next((e for e in reversed(state.corrections) if e.kind == "correction" and e.entry == act.undoes), None)
    if target is None:
        return _reject(state, f"this table has no correction {act.undoes} to take back", act)
    if target.entry in _undone(state):
        return _reject(state, f"correction {act.undoes} was taken back already", act)
    entry = CorrectionEntry("undo", act.entry, act.made, target.index, target.number, act.by, act.reason, act.t,
                            undoes=act.undoes)
    return Step(evolve(state, corrections=(*state.corrections, entry)),
                (Event("correction_undone", entry.words(), None, act.t),))


def standing(state: TableState, index: int) -> CorrectionEntry | None:
    """The correction that stands for the board of ``index``: its latest not taken back."""
    undone = _undone(state)
    found = None
    for e in state.corrections:
        if e.index == index and e.kind == "correction" and e.entry not in undone:
            found = e
    return found


def corrected_fields(outcome: BoardOutcome, state: TableState, played: dict[str, Any]) -> dict[str, Any]:
    """``played`` (a board's result fields as played: contract, declarer, tricks, result, score_ns,
    status...) as it stands after the Director's corrections: nothing changes for a board without
    any; otherwise ``corrections`` lists them, and while one stands the fields are its own, with
    ``status: corrected`` and ``original``: the fields as played."""
    index = outcome.board.index
    mine = [e for e in state.corrections if e.index == index]
    if not mine:
        return played
    undone = _undone(state)
    out = dict(played)
    out["corrections"] = [e.as_json(e.entry in undone) for e in mine]
    now = standing(state, index)
    if now is not None:
        fields = _result_fields(now.contract, now.tricks, now.lead) | {"score_ns": now.score_ns}
        out["original"] = {k: played.get(k) for k in (*fields, "status") if k in played}
        out.update({k: v for k, v in fields.items() if k in played or k == "lead"}, status="corrected")
        out["corrected_by"] = {"entry": now.entry, "by": now.by, "made": now.made, "reason": now.reason}
    return out
