"""Which boards the players may see anything of: released boards, pure.

In a duplicate room the same boards travel from table to table: a board's cards, auction, play
and result must reach nothing a player can open (a table's spectator page, its results page,
any public feed) while some table has still to play it (Law 16C: a player who learns of a board
he has yet to play, by seeing results or cards from another table, must tell the Director, who may
have to change the seating, or cancel the board and give adjusted scores).

A board is **released** when every table the session's movement gives it to has finished it
(its result is at the console), when the Director releases it himself, or once the session is
over. Without the Director's session the console knows no movement: a board is then released
only by the Director or at the end of the session. The console sends each table the boards
released (``controller.room.players.for_table``, the ``released`` field); a table shows a
board's play, result or traveller only when it is among them (``web_ui.privacy``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from controller.room.results import RoomResults, table_order

__all__ = ["Released", "due_tables", "released"]


@dataclass(frozen=True, slots=True)
class Released:
    """The boards released now: ``every`` (the session is over) or those in ``boards``."""

    every: bool
    boards: frozenset[str]

    def shows(self, board: object) -> bool:
        return self.every or str(board) in self.boards

    def as_json(self) -> dict[str, object]:
        return {"all": self.every, "boards": sorted(self.boards, key=table_order)}


def due_tables(results: RoomResults) -> dict[str, set[tuple[str | None, int]]]:
    """Per board number, the tables (section, table number) the movement gives it to (sit-outs
    left out); empty without a session."""
    session = results.session
    out: dict[str, set[tuple[str | None, int]]] = {}
    if session is None:
        return out
    for name, movement in session.sections:
        for sitting in movement.sittings:
            if sitting.sit_out:
                continue
            for board in movement.boards(sitting.board_set):
                out.setdefault(str(board), set()).add((name or None, sitting.table))
    return out


def _finished(results: RoomResults, board: str) -> set[tuple[str | None, int]]:
    out: set[tuple[str | None, int]] = set()
    for table in results.results.get(board, {}):
        where = results.place(table)
        if where is None:
            continue
        section, _, sittings = where
        out.add((section or None, sittings[0].table))
    return out


def released(results: RoomResults, *, over: bool, by_director: Iterable[str] = ()) -> Released:
    """The boards released now (module doc): ``over`` is the session's end; ``by_director`` the
    boards the Director released himself."""
    if over:
        return Released(True, frozenset())
    boards = {str(b) for b in by_director}
    for board, due in due_tables(results).items():
        if due and due <= _finished(results, board):
            boards.add(board)
    return Released(False, frozenset(boards))
