"""What the console shows of each board, made once per change of the board (pure).

``controller.room.results.RoomResults`` scores the field board by board: one more result makes
that board's rows again (its result entries, whom each belongs to, the board as scored) and scores
that board alone, every board of its field only when Neuberg's count moves under it
(``controller.fieldscore.boardwise``). ``BoardOutputs`` follows suit for what the Director's page
is sent: each board's **traveller** (every table's contract, result, score and pairs) and its
**points** (each table's pairs, round, label and each side's points), kept with what they were
made from (the board's rows and its scored results, both made anew whenever they change, never
changed in place) and made again only for a board whose rows or points are new objects. Each has
a version, raised only when its JSON differs, so that a push compares versions and not JSON
text, and carries only the boards that moved (``tablectl.room.console_push.ResultsStream``).

The JSON made here is shared by every reader (the page's pushes, the players' results, the
exports): nobody changes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.fieldscore.field import SectionsScore
from controller.fieldscore.model import EventScore, ScoredResult
from controller.room.standings import Made, ranking_rows, standing_json

__all__ = ["BoardOutput", "BoardOutputs", "ResultsView", "points_json", "ranking_json", "traveller_json"]

Json = dict[str, Any]

DESK_FIELDS = ("lead", "artificial", "assigned", "weighted", "penalty_ns", "penalty_ew", "original", "desk")
"""What a traveller row shows of the Director's entries (``controller.room.adjustments``)."""


def _round2(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def traveller_json(board: str, made: Made) -> Json:
    """``board``'s traveller: every table's result (contract, result, North-South's score) and its pairs."""
    entries, rows = made
    out = []
    for table, who, _, _ in rows:
        r = entries[table]
        pairs = {"NS": who.ns, "EW": who.ew} if who.round is not None else r.get("pairs")
        out.append({"table": table, "contract": r.get("contract"), "declarer": r.get("declarer"),
                    "tricks": r.get("tricks"), "result": r.get("result"), "score_ns": r.get("score_ns"),
                    "status": r.get("status"), "pairs": pairs, **{k: r[k] for k in DESK_FIELDS if k in r}})
    return {"board": board, "results": out}


def points_json(made: Made, points: Sequence[ScoredResult | None]) -> dict[str, Json]:
    """Per table of a board: the pairs, the round, the board as scored (a fouled board's group) and
    each side's points; ``points`` the board's scored results, one per row with a result, in order."""
    scored = iter(points)
    out: dict[str, Json] = {}
    for table, who, label, result in made[1]:
        s = None if result is None else next(scored, None)
        out[table] = {
            "ns": who.ns, "ew": who.ew, "section": who.section, "round": who.round, "label": label,
            "law15": who.law15,
            "points_ns": None if s is None else _round2(s.points_ns),
            "points_ew": None if s is None else _round2(s.points_ew),
            "percent_ns": None if s is None else _round2(s.percent_ns),
            "percent_ew": None if s is None else _round2(s.percent_ew),
            "top": None if s is None else _round2(s.top)}
    return out


@dataclass(frozen=True, slots=True)
class BoardOutput:
    """A board as the console shows it: its traveller and its points, each with its version (raised
    when it changed)."""

    board: str
    traveller: Json
    points: dict[str, Json]
    traveller_version: int
    points_version: int


@dataclass(slots=True)
class _Kept:
    made: Made
    points_from: Sequence[ScoredResult | None]
    output: BoardOutput


class BoardOutputs:
    """Each board's ``BoardOutput``, made again only where what it is made from changed (module doc).
    ``travellers_made`` and ``points_made`` count the boards made (a test reads them)."""

    def __init__(self) -> None:
        self._kept: dict[str, _Kept] = {}
        self._clock = 0
        self.epoch = object()
        """Who numbered the versions: a push compares versions only with the same epoch's."""
        self.travellers_made = 0
        self.points_made = 0

    def outputs(self, made: Mapping[str, Made], boards: Sequence[str],
                points_of: Callable[[str], Sequence[ScoredResult | None]]) -> tuple[BoardOutput, ...]:
        """The ``boards`` (in order) that have a result entry, each as it stands: ``made`` its rows,
        ``points_of`` its scored results; the others are forgotten."""
        out = []
        kept: dict[str, _Kept] = {}
        for board in boards:
            rows = made.get(board)
            if rows is None or not rows[0]:
                continue
            points = points_of(board)
            before = self._kept.get(board)
            if before is not None and before.made is rows and before.points_from is points:
                kept[board] = before
                out.append(before.output)
                continue
            traveller, traveller_version = self._traveller(board, rows, before)
            board_points, points_version = self._points(rows, points, before)
            one = BoardOutput(board, traveller, board_points, traveller_version, points_version)
            kept[board] = _Kept(rows, points, one)
            out.append(one)
        self._kept = kept
        return tuple(out)

    def _traveller(self, board: str, rows: Made, before: _Kept | None) -> tuple[Json, int]:
        if before is not None and before.made is rows:
            return before.output.traveller, before.output.traveller_version
        self.travellers_made += 1
        traveller = traveller_json(board, rows)
        if before is not None and before.output.traveller == traveller:
            return before.output.traveller, before.output.traveller_version
        return traveller, self._tick()

    def _points(self, rows: Made, points: Sequence[ScoredResult | None], before: _Kept | None
                ) -> tuple[dict[str, Json], int]:
        self.points_made += 1
        board_points = points_json(rows, points)
        if before is not None and before.output.points == board_points:
            return before.output.points, before.output.points_version
        return board_points, self._tick()

    def _tick(self) -> int:
        self._clock += 1
        return self._clock


def ranking_json(score: EventScore | None, sections: SectionsScore | None) -> list[Json]:
    """Every pair (or team) of ``score`` ranked (with both places when ``sections`` play the same
    boards: ``controller.room.standings.ranking_rows``); none before a result."""
    if score is None:
        return []
    return ranking_rows(sections) if sections is not None else [standing_json(st) for st in score.standings]


@dataclass(frozen=True, slots=True)
class ResultsView:
    """The room's results at one moment, for the page: how the field is scored (``how``, with the
    fouled boards), each board with results (``boards``, in order) and what the ranking is made of
    (``ranked``, the rows when made already, else the scores: frozen values). Made under the
    console's lock from values nobody changes, so it is read, and the ranking written, outside it."""

    how: Json
    boards: tuple[BoardOutput, ...]
    ranked: tuple[Json, ...] | None
    score: EventScore | None
    sections: SectionsScore | None
    epoch: object

    def travellers(self) -> list[Json]:
        return [b.traveller for b in self.boards]

    def scores(self) -> Json:
        return {**self.how, "boards": {b.board: b.points for b in self.boards}}

    def ranking(self) -> list[Json]:
        """The ranking's rows (``RoomResults.ranking``): made here when the room had not made them yet."""
        return list(self.ranked) if self.ranked is not None else ranking_json(self.score, self.sections)

    def as_json(self, ranking: list[Json] | None = None) -> Json:
        """The page's fields, whole: ``travellers``, ``ranking`` (``ranking`` when made already), ``scores``."""
        return {"travellers": self.travellers(), "ranking": self.ranking() if ranking is None else ranking,
                "scores": self.scores()}
