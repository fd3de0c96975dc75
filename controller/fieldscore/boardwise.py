"""An event scored board by board: a board's new results re-score that board alone (pure values out).

``score_event`` scores a whole event at once. A console scores the field live, one result at a
time; at hundreds of tables scoring every board again after each result costs the whole field.
``BoardwiseScore`` keeps each board's scores and each pair's running totals: ``put`` replaces one
board's results and scores only that board (its groups: a fouled board's, or each section's when
sections are scored apart), taking its old points off the pairs' totals and adding the new ones;
``event_score`` ranks the totals. The values are ``score_event``'s (the tests compare the two).

A board is scored again only when its own results change, or when Neuberg's count changes under
it: the most results any board has in its field (a section, or the whole field) grew or shrank,
and every board of that field is factored to the new count (``matchpoints``). Team events (their
matches pair two rooms) and a pair's own percentage for its awards (Ruter's Law 12C2, which reads
every board of the pair) are scored whole: ``supports`` says which events can be scored so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain

from controller.fieldscore.event import _FIELD_ORDER, UNRANKED, _natural, _rounded
from controller.fieldscore.imps import butler_board, cross_imp_board
from controller.fieldscore.matchpoints import score_board
from controller.fieldscore.model import (
    BoardScore,
    Conventions,
    Event,
    EventScore,
    FieldScoreError,
    Result,
    ScoredResult,
    Scoring,
    Standing,
)

__all__ = ["BoardwiseScore"]

_Field = str | None
"""The results compared with each other: a section's (its name), or the whole field's (None)."""
_Pair = tuple[str | None, str]
_Share = tuple[_Pair, str, float, float]
"""What one result gives one pair: (section, pair), its direction, its points, the board's top."""


@dataclass(slots=True)
class _Total:
    boards: int = 0
    total: float = 0.0
    maximum: float = 0.0
    directions: dict[str, int] = field(default_factory=dict)


class BoardwiseScore:
    """An event's boards scored one by one (module doc)."""

    def __init__(self, name: str, scoring: Scoring, conventions: Conventions,
                 pairs: Sequence[_Pair] = ()) -> None:
        if not self.supports(scoring, conventions):
            raise FieldScoreError(f"{name}: a {scoring.value} event with these conventions is scored whole "
                                  "(score_event)")
        self.name = name
        self.scoring = scoring
        self.conventions = conventions
        self.pairs = tuple(pairs)
        self._listed = frozenset(self.pairs)
        self._names: dict[_Pair, tuple[tuple[int, str], tuple[int, str]]] = {}
        self._results: dict[str, tuple[Result, ...]] = {}
        self._groups: dict[str, dict[tuple[_Field, str], list[int]]] = {}
        """board -> (field, board as scored) -> the indices of its results."""
        self._sizes: dict[_Field, dict[int, int]] = {}
        """field -> size of a group -> how many groups have that size (Neuberg's count is the largest)."""
        self._expected: dict[_Field, int] = {}
        self._boards: dict[str, list[BoardScore]] = {}
        self._aligned: dict[str, tuple[ScoredResult, ...]] = {}
        self._shares: dict[str, list[_Share]] = {}
        self._totals: dict[_Pair, _Total] = {key: _Total() for key in self.pairs}
        self._score: EventScore | None = None

    @staticmethod
    def supports(scoring: Scoring, conventions: Conventions) -> bool:
        """Whether an event so scored can be scored board by board (module doc)."""
        return scoring is not Scoring.TEAMS and not conventions.awards_own_percent

    # -- a board's results ---------------------------------------------------------------------------------

    def put(self, board: str, results: Sequence[Result]) -> None:
        """``board``'s results as they now stand (none: the board is gone), scored at once; nothing
        to do when they are the results it has."""
        had = self._results.get(board, ())
        if len(had) == len(results) and all(a is b or a == b for a, b in zip(had, results, strict=True)):
            return
        old = self._groups.pop(board, {})
        self._drop(board)
        fields = {key[0] for key in old}
        for key, at in old.items():
            self._resize(key[0], len(at), -1)
        self._results.pop(board, None)
        if results:
            self._results[board] = tuple(results)
            groups: dict[tuple[_Field, str], list[int]] = {}
            across = self.conventions.across_sections
            for i, r in enumerate(results):
                groups.setdefault((None if across else r.section, r.board), []).append(i)
            self._groups[board] = groups
            for key, at in groups.items():
                self._resize(key[0], len(at), +1)
                fields.add(key[0])
        again = {board} if results else set()
        for name in fields:
            expected = max(self._sizes.get(name, {}), default=0)
            if expected != self._expected.get(name, 0):
                self._expected[name] = expected
                if self.scoring is Scoring.MP:  # Neuberg's count changed: the field's every board
                    again |= {b for b, groups in self._groups.items() if any(k[0] == name for k in groups)}
        for b in again:
            if b != board:
                self._drop(b)
            self._score_board(b)
        self._score = None

    def scored(self, board: str) -> tuple[ScoredResult, ...]:
        """``board``'s results scored, in the order they were put."""
        return self._aligned.get(board, ())

    def _resize(self, name: _Field, size: int, step: int) -> None:
        sizes = self._sizes.setdefault(name, {})
        sizes[size] = sizes.get(size, 0) + step
        if not sizes[size]:
            del sizes[size]

    def _drop(self, board: str) -> None:
        """Take ``board``'s points off the pairs' totals."""
        for key, direction, points, top in self._shares.pop(board, ()):
            t = self._totals[key]
            t.boards -= 1
            t.total -= points
            t.maximum -= top
            t.directions[direction] -= 1
            if not t.directions[direction]:
                del t.directions[direction]
        self._boards.pop(board, None)
        self._aligned.pop(board, None)

    def _score_board(self, board: str) -> None:
        results = self._results[board]
        conv = self.conventions
        aligned: list[ScoredResult | None] = [None] * len(results)
        scores = []
        for (name, label), at in self._groups[board].items():
            group = [results[i] for i in at]
            if self.scoring is Scoring.MP:
                b = score_board(label, name, group, self._expected[name], conv)
            elif self.scoring is Scoring.BUTLER:
                b = butler_board(label, name, group, conv)
            else:
                b = cross_imp_board(label, name, group, conv)
            if conv.board_decimals is not None:
                b = _rounded(b, conv.board_decimals)
            scores.append(b)
            for i, one in zip(at, b.results, strict=True):
                aligned[i] = one
        done = tuple(s for s in aligned if s is not None)
        shares: list[_Share] = []
        for s in done:
            r = s.result
            for pair, points, direction in ((r.ns, s.points_ns, "NS"), (r.ew, s.points_ew, "EW")):
                if pair == UNRANKED:
                    continue
                key = (r.section, pair)
                t = self._totals.get(key)
                if t is None:
                    t = self._totals[key] = _Total()
                top = s.top or 0.0
                t.boards += 1
                t.total += points
                t.maximum += top
                t.directions[direction] = t.directions.get(direction, 0) + 1
                shares.append((key, direction, points, top))
        self._shares[board] = shares
        self._boards[board] = scores
        self._aligned[board] = done

    # -- the event -----------------------------------------------------------------------------------------

    def event_score(self) -> EventScore:
        """Every board scored so far, and the ranking of the totals (as ``score_event`` gives them)."""
        if self._score is not None:
            return self._score
        listed = self._listed
        rows = []
        for key, t in self._totals.items():
            if not t.boards and key not in listed:
                continue
            direction = next(iter(t.directions)) if len(t.directions) == 1 else None
            rows.append((key, direction, t.boards, round(t.total, 9), round(t.maximum, 9) or None))
        by_direction = self.conventions.rank_by_direction
        if by_direction is None:
            played = [row[1] for row in rows if row[2]]
            by_direction = (self.scoring is Scoring.MP and bool(played) and all(played)
                            and len(set(played)) == 2)
        order = sorted(self._results, key=_natural)
        results = tuple(chain.from_iterable(self._results[b] for b in order))
        boards = tuple(chain.from_iterable(self._boards[b] for b in order))
        event = Event(self.name, self.scoring, results, self.conventions, pairs=self.pairs)
        self._score = EventScore(event, boards, self._ranked(rows, by_direction), by_direction=by_direction)
        return self._score

    def _ranked(self, rows: list[tuple[_Pair, str | None, int, float, float | None]], by_direction: bool
                ) -> tuple[Standing, ...]:
        """``event.rank_standings`` of the totals, each standing made once with its place (the sort
        keys of the pairs' names kept from one ranking to the next)."""
        fields: dict[tuple[str | None, str | None], list[int]] = {}
        by_section = self.conventions.rank_by_section
        for i, (key, direction, _, _, _) in enumerate(rows):
            fields.setdefault((key[0] or None if by_section else None, direction if by_direction else None),
                              []).append(i)
        mp = self.scoring is Scoring.MP
        out: list[Standing] = []
        for name in sorted(fields, key=lambda k: (_natural(k[0]), _FIELD_ORDER.get(k[1], 2))):
            order = []
            for i in fields[name]:
                key, _, played, total, maximum = rows[i]
                value = (None if not played else (100.0 * total / maximum if maximum else None) if mp
                         else total / played)
                # competition ranking as event.rank: highest first, equal to 9 decimals tied, None last
                tie = (1, 0.0) if value is None else (0, -round(value, 9))
                order.append((tie, self._order_key(key), i))
            order.sort()
            start = 0
            while start < len(order):
                end = start + 1
                while end < len(order) and order[end][0] == order[start][0]:
                    end += 1
                for _, _, i in order[start:end]:
                    key, direction, played, total, maximum = rows[i]
                    out.append(Standing(key[1], key[0], direction, played, total, maximum, start + 1, end - start))
                start = end
        return tuple(out)

    def _order_key(self, key: _Pair) -> tuple[tuple[int, str], tuple[int, str]]:
        found = self._names.get(key)
        if found is None:
            found = self._names[key] = (_natural(key[0]), _natural(key[1]))
        return found
