"""Whom a table's result belongs to: the movement followed table by table (pure).

``MovementWays`` is the part of ``controller.room.results.RoomResults`` that follows each table
through the Director's session:

* the **attribution** of each result to its pairs. With the Director's session
  (``controller.fieldscore.Session``) the movement says who sat where: the board number and
  the table give the round (the table's sitting whose board set holds the board) and so the
  North-South and East-West pairs, whatever the table says. Without a session the table's own
  ``pairs`` stand (a table naming one pair for both sides, as an unconfigured table does, is
  two pairs, ``<id>NS`` and ``<id>EW``);
* **Law 15, a board played in the wrong round:** each table's way through the movement is
  followed: it starts in its first round and moves on once it has played a round's boards.
  A board the movement does not give the table in the round it is in is reported ("Table 3
  played board 9 in round 2; the movement gives it boards 4-6 (Law 15)"). The result is put to
  the pairs of the board's own round until the table's next board says which it was: back to
  the boards of its round (the pairs who played it were that round's, Law 15A) or on in the
  board's round (the table moved on early, a late board left unplayed).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.fieldscore.movement import Movement, Sitting
from controller.fieldscore.session import Session

__all__ = ["Attribution", "MovementWays", "RoomAlert", "table_order"]

Json = dict[str, Any]

_TABLE_ID = re.compile(r"^(?P<section>[A-Za-z]+)?[-. _]?(?P<number>\d+)$")


def table_order(table: str) -> tuple[int, str]:
    """Sort key of a table (or board) name: numbers in number order, then the rest."""
    return (int(table), "") if table.isdigit() else (1 << 30, table)


@dataclass(frozen=True, slots=True)
class RoomAlert:
    """A finding about the room's boards for the Director: its call's ``key`` (the same finding,
    found again on a restart, has the same key), the table whose message showed it, the board,
    the law, and the situation in plain words."""

    key: str
    table: str
    board: int
    law: str
    what: str


@dataclass(frozen=True, slots=True)
class Attribution:
    """Whom a table's result on a board belongs to: section, pairs, the round (None: no session)
    and whether it was played out of its round (Law 15)."""

    section: str | None
    ns: str
    ew: str
    round: int | None = None
    sitting_table: int | None = None
    law15: bool = False


@dataclass(slots=True)
class _Way:
    """A table's way through the movement: the boards it began (with the round each is put to),
    the round it is in (an index into its rounds), the boards it played there, and a board
    played out of its round whose round the next board will say."""

    seen: dict[int, int] = field(default_factory=dict)
    current: int | None = None
    count: int = 0
    pending: tuple[int, int] | None = None
    """(board, index of the board's own round) until the table's next board."""
    out_of_round: set[int] = field(default_factory=set)


def _boards_text(boards: tuple[int, ...]) -> str:
    if len(boards) == 1:
        return f"board {boards[0]}"
    return f"boards {boards[0]}-{boards[-1]}"


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _set_boards(movement: Movement, sitting: Sitting) -> tuple[int, ...]:
    return movement.boards(sitting.board_set)




class MovementWays:
    """Each table's way through the session's movement (module doc); the results it reads are
    ``RoomResults``'s."""

    session: Session | None
    results: dict[str, dict[str, Json]]
    _ways: dict[str, _Way]
    _rows: dict[str, Any]
    _way_changes: dict[str, int]
    """table -> how many times its way through the movement moved on (a row made before is made again)."""


    def place(self, table: str) -> tuple[str, Movement, tuple[Sitting, ...]] | None:
        """Where ``table`` is in the session: its section, the section's movement and the table's
        sittings by round (sit-outs left out); None without a session or for a table it lacks.
        A table is named by its number (``3``), with its section's name before it when the session
        has sections (``A3``, ``A-3``)."""
        if self.session is None:
            return None
        m = _TABLE_ID.match(table.strip())
        if m is None:
            return None
        number = int(m.group("number"))
        names = [name for name, _ in self.session.sections]
        wanted = (m.group("section") or "").upper()
        if len(names) == 1 and not wanted:
            section = names[0]
        else:
            match = [n for n in names if n.upper() == wanted]
            if not match:
                return None
            section = match[0]
        movement = self.session.movement(section)
        sittings = tuple(sorted((s for s in movement.sittings if s.table == number and not s.sit_out),
                                key=lambda s: s.round))
        if not sittings:
            return None
        return section, movement, sittings

    def _began(self, table: str, board: int, verb: str) -> list[RoomAlert]:
        """Follow ``table`` into ``board`` (once a board); a board out of its round is reported."""
        where = self.place(table)
        if where is None:
            return []
        way = self._ways.setdefault(table, _Way())
        if board in way.seen:
            return []
        for number, tables in self.results.items():  # its way decides whom its results belong to
            if table in tables:
                self._rows.pop(number, None)
        self._way_changes[table] = self._way_changes.get(table, 0) + 1
        _, movement, sittings = where
        holding = [i for i, s in enumerate(sittings) if board in _set_boards(movement, s)]
        if way.current is None:
            expected: int | None = 0
        elif way.count < movement.boards_per_round:
            expected = way.current
        else:
            expected = way.current + 1
        if expected is not None and expected >= len(sittings):
            expected = None
        if expected is not None and expected in holding:
            if way.pending is not None:  # the board before was out of this round: played in it (Law 15A)
                way.seen[way.pending[0]] = expected
                way.pending = None
            if way.current != expected:
                way.current, way.count = expected, 0
            way.count += 1
            way.seen[board] = expected
            return []
        if way.pending is not None and way.pending[1] in holding:  # the table had moved on to that round
            way.current, way.count = way.pending[1], 2
            way.out_of_round.discard(way.pending[0])
            way.pending = None
            way.seen[board] = way.current
            return []
        later = [i for i in holding if expected is None or i > expected]
        if expected is None:  # more boards than the movement gives it: nothing to say
            way.seen[board] = holding[-1] if holding else len(sittings) - 1
            return []
        way.seen[board] = later[0] if later else expected
        way.pending = (board, later[0]) if later else None
        way.out_of_round.add(board)
        sitting = sittings[expected]
        what = (f"Table {table} {verb} board {board} in round {sitting.round}; the movement gives it "
                f"{_boards_text(_set_boards(movement, sitting))} (Law 15)")
        return [RoomAlert(f"room/15/{table}/{board}", table, board, "15", what)]

    def current(self, table: str) -> Attribution | None:
        """Who sits at ``table`` now as the movement has it: the round of the board it began last
        (None: no session, a table the session lacks, or no board begun yet)."""
        where = self.place(table)
        way = self._ways.get(table)
        if where is None or way is None or way.current is None:
            return None
        section, _, sittings = where
        s = sittings[way.current]
        return Attribution(section or None, s.ns, s.ew, s.round, s.table)

    def boards_per_round(self, table: str) -> int:
        """The boards of a round at ``table`` (0: no session, or a table the session lacks)."""
        where = self.place(table)
        return 0 if where is None else where[1].boards_per_round

    def due_by_round(self, table: str) -> dict[int, int]:
        """The boards ``table`` must have finished by the end of each round (its sit-outs give none)."""
        where = self.place(table)
        if where is None:
            return {}
        _, movement, sittings = where
        out: dict[int, int] = {}
        total = 0
        for r in range(1, max(s.round for s in sittings) + 1):
            total += movement.boards_per_round * sum(1 for s in sittings if s.round == r)
            out[r] = total
        return out

    def attribution(self, table: str, board: str, body: Mapping[str, Any]) -> Attribution:
        """Whom ``table``'s result on ``board`` belongs to (module doc)."""
        where = self.place(table)
        way = self._ways.get(table)
        number = _int(body.get("number"))
        if where is not None and way is not None and number is not None and number in way.seen:
            section, _, sittings = where
            s = sittings[way.seen[number]]
            return Attribution(section or None, s.ns, s.ew, s.round, s.table, number in way.out_of_round)
        if where is not None and number is not None and table not in self.results.get(board, {}):
            section, movement, sittings = where  # a board not played, adjusted: the movement's pairs
            for s in sittings:
                if number in _set_boards(movement, s):
                    return Attribution(section or None, s.ns, s.ew, s.round, s.table)
        pairs = body.get("pairs")
        ns = ew = table
        if isinstance(pairs, dict):
            ns = str(pairs.get("NS", table))
            ew = str(pairs.get("EW", table))
        if ns == ew:
            ns, ew = f"{ns}NS", f"{ew}EW"
        return Attribution(None, ns, ew)
