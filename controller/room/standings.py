"""The room's scores as the console reads them: each table's row with its points, and the ranking
with each pair's place in its section and across the field (pure).

``ScoredRows`` is the (board, table) -> (attribution, label, points) mapping of
``controller.room.results``, made board by board when it is read: after one more result only that
board's rows are new, and a board's points are looked up in its scorer only when asked
(``controller.fieldscore.boardwise``). ``ranking_rows`` writes the ranking of an event whose
sections play the same boards with both places (``controller.fieldscore.field``); ``team_matches``
pairs a team movement's two rooms.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from controller.fieldscore.field import SectionsScore
from controller.fieldscore.model import Match, Result, ScoredResult, Standing
from controller.room.attribution import Attribution, table_order

__all__ = ["Row", "ScoredRows", "place_text", "ranking_rows", "standing_json", "team_matches"]

Json = dict[str, Any]
Row = tuple[Attribution, str, ScoredResult | None]
"""A table's result on a board: whom it belongs to, the board as scored (a fouled board's group), its points."""
Made = tuple[dict[str, Json], list[tuple[str, Attribution, str, Result | None]]]
"""A board's result entries and each table's (table, attribution, label, result), as ``RoomResults`` makes them."""


class ScoredRows(Mapping[tuple[str, str], Row]):
    """(board, table) -> its row, over ``boards`` as made, each board's points from ``points_of``
    (the board's scored results, in the order of its rows' results)."""

    def __init__(self, boards: Sequence[str], made: Mapping[str, Made],
                 points_of: Callable[[str], Sequence[ScoredResult]] | None) -> None:
        self._order = tuple(boards)
        self._made = made
        self._points_of = points_of
        self._boards: dict[str, dict[str, Row]] = {}

    def board(self, board: str) -> dict[str, Row]:
        """``board``'s rows by table (none: a board without results)."""
        rows = self._boards.get(board)
        if rows is None:
            made = self._made.get(board)
            rows = {}
            if made is not None:
                points = iter(self._points_of(board) if self._points_of is not None else ())
                for table, who, label, result in made[1]:
                    rows[table] = (who, label, None if result is None else next(points, None))
            self._boards[board] = rows
        return rows

    def __getitem__(self, key: tuple[str, str]) -> Row:
        board, table = key
        if board not in self._made:
            raise KeyError(key)
        return self.board(board)[table]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        for board in self._order:
            for table in self.board(board):
                yield board, table

    def __len__(self) -> int:
        return sum(len(self.board(b)) for b in self._order)


def _round2(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def place_text(st: Standing) -> str | None:
    """A place as printed: ``3``, or ``3=`` when shared."""
    return None if st.rank is None else f"{st.rank}=" if st.tied > 1 else str(st.rank)


def standing_json(st: Standing) -> Json:
    """A pair's standing for the console: place, total, percentage, boards played."""
    return {"pair": st.pair, "section": st.section, "direction": st.direction, "boards": st.boards,
            "total": round(st.total, 2), "percent": _round2(st.percent), "average": _round2(st.average),
            "rank": st.rank, "tied": st.tied, "place": place_text(st)}


def ranking_rows(sections: SectionsScore) -> list[Json]:
    """The ranking of an event of sections in the official ranking's order: each pair's standing in
    it, and its place in its section (``section_place``, ``section_percent``) and across the field
    (``field_place``, ``field_percent``)."""
    out = []
    for f in sections.standings:
        st = f.official(sections.official) or f.across or f.in_section
        if st is None:
            continue
        row = standing_json(st)
        for name, other in (("section", f.in_section), ("field", f.across)):
            row[f"{name}_rank"] = None if other is None else other.rank
            row[f"{name}_place"] = None if other is None else place_text(other)
            row[f"{name}_percent"] = None if other is None else _round2(other.percent)
            row[f"{name}_total"] = None if other is None else round(other.total, 2)
        row["official"] = sections.official.value
        out.append(row)
    return out


def team_matches(results: list[Result], made: dict[int, tuple[str, str]],
             rows: Mapping[tuple[str, str], Row]) -> tuple[Match, ...]:
    """A team movement's matches: per round, the two rooms of each board (the home team sits
    North-South at the odd table)."""
    rooms: dict[tuple[int, str, str], dict[str, list[Result | None]]] = {}
    for r in results:
        who = rows[made[id(r)]][0]
        if who.round is None or who.sitting_table is None:
            continue
        home_ns = who.sitting_table % 2 == 1
        home, away = (who.ns, who.ew) if home_ns else (who.ew, who.ns)
        pair = rooms.setdefault((who.round, home, away), {}).setdefault(r.board, [None, None])
        pair[0 if home_ns else 1] = r
    out = []
    for (rnd, home, away), boards in sorted(rooms.items()):
        both = tuple((h, a) for _, (h, a) in sorted(boards.items(), key=lambda kv: table_order(kv[0]))
                     if h is not None and a is not None)
        if both:
            out.append(Match(home, away, both, str(rnd)))
    return tuple(out)
