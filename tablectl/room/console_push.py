"""What the Director's page is sent after a change: the changes since the version it has
(``tablectl.room.console.Console.changes``), never the whole room again.

``Journal`` remembers, per version of the console, the tables whose tile changed and the counts
of the results' changes and of the alerts then: from a version it says which tiles, whether the
results and how many alerts the page lacks (None: further back than it remembers, the page is
sent the whole room). ``ResultsStream`` keeps what the latest push brought the pages to, board
by board (each board's versions: ``controller.room.board_output``) and row by row of the ranking:
the next push carries only the travellers and the points of the boards that changed and the
ranking's rows that moved. ``CallsStream`` does the same for the calls: only when one changed.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from controller.room.board_output import ResultsView

__all__ = ["JOURNAL", "RESULTS_EVERY", "CallsStream", "Journal", "ResultsStream", "Since", "merged_ranking"]

Json = dict[str, Any]

JOURNAL = 10_000
"""Versions whose changes are remembered (a few hundred kB at most): a page further behind is
sent the whole room."""


@dataclass(frozen=True, slots=True)
class Since:
    """What changed since a version: the tables whose tile changed (None: any might have), whether
    the results changed, how many alerts came."""

    tables: frozenset[str] | None
    results: bool
    alerts: int


class Journal:
    """Per version: the tables whose tile changed, the results' and the alerts' counts then."""

    def __init__(self) -> None:
        self._entries: deque[tuple[int, frozenset[str] | None, int, int]] = deque(maxlen=JOURNAL)

    def clear(self) -> None:
        self._entries.clear()

    def add(self, version: int, tables: Iterable[str] | None, results: int, alerts: int) -> None:
        self._entries.append((version, None if tables is None else frozenset(tables), results, alerts))

    def since(self, version: int, results: int, alerts: int) -> Since | None:
        """What changed after ``version``, given the counts now (None: not remembered)."""
        if not self._entries or not self._entries[0][0] <= version <= self._entries[-1][0]:
            return None
        first = version - self._entries[0][0]  # the versions follow each other, one by one
        base = self._entries[first]
        if base[0] != version:  # never: every version has its entry
            return None
        tables: set[str] = set()
        for i in range(first + 1, len(self._entries)):
            _, touched, _, _ = self._entries[i]
            if touched is None:
                return Since(None, results != base[2], alerts - base[3])
            tables |= touched
        return Since(frozenset(tables), results != base[2], alerts - base[3])


RESULTS_EVERY = 2.0
"""Seconds between two pushes carrying results (the ranking moves with every result: at 100 tables
it is tens of kB); the tiles, calls and alerts go at once."""


RANKING_ROWS, RANKING_MOVED = 50, 0.75
"""A ranking of ``RANKING_ROWS`` rows or more goes whole when more than ``RANKING_MOVED`` of its rows
moved (each moved row carries its place: the whole is then smaller, as when every table has just
finished a board)."""


class ResultsStream:
    """What the latest push brought the pages to: its version, each board's traveller and points
    version and the ranking's rows with their places; whether results wait for their turn."""

    def __init__(self) -> None:
        self.deferred = False
        """Results changed that the pages have not been sent yet (``RESULTS_EVERY``)."""
        self._sent_at = float("-inf")
        self._version = -1
        self._known = False
        """The pages have the results as ``_travellers``, ``_points`` and ``_ranking`` say."""
        self._epoch: object = None
        self._travellers: dict[str, int] = {}
        self._points: dict[str, int] = {}
        self._ranking: dict[tuple[str, str], tuple[int, Json]] = {}

    def due(self, changed: bool, since: int, now: float) -> bool:
        """Whether a push from ``since`` carries the results (``changed``: since then): at most every
        ``RESULTS_EVERY`` seconds on the pages' stream (else ``deferred``), at once for another."""
        if not changed and not self.deferred:
            return False
        if since == self._version and now - self._sent_at < RESULTS_EVERY:
            self.deferred = True
            return False
        self.deferred = False
        self._sent_at = now
        return True

    def narrow(self, out: Json, since: int, version: int) -> None:
        """Write ``out``'s ``results_view`` (``controller.room.board_output.ResultsView``, a push from
        ``since`` to ``version``) as the page's fields: when the previous push was the one to ``since``,
        only what differs from it, found by the boards' versions (``travellers_changed``,
        ``scores.boards_changed``: board -> its new value, None when gone) and the ranking's rows that
        moved (``ranking_changed``: each row with its place ``at``; ``ranking_gone``: pair and section;
        ``ranking_count``: the rows in all; the ranking whole when most of a long one moved: ``RANKING_MOVED``);
        a full push, or one that does not follow, has them whole."""
        follows = since == self._version
        self._version = version
        view: ResultsView | None = out.pop("results_view", None)
        if not follows:
            self._known = False
        if view is None:
            return
        whole = not (follows and self._known and view.epoch is self._epoch) or bool(out.get("full"))
        travellers = {b.board: b.traveller_version for b in view.boards}
        points = {b.board: b.points_version for b in view.boards}
        rows = view.ranking()  # made here, outside the lock, unless the room had it already
        ranking = {_ranked(row): (i, row) for i, row in enumerate(rows)}
        old_travellers, old_points, old_ranking = self._travellers, self._points, self._ranking
        self._travellers, self._points, self._ranking = travellers, points, ranking
        self._epoch, self._known = view.epoch, True
        if whole:
            out.update(view.as_json(rows))
            return
        out["travellers_changed"] = {b.board: b.traveller for b in view.boards
                                     if old_travellers.get(b.board) != b.traveller_version} \
            | {b: None for b in old_travellers if b not in travellers}
        out["scores"] = {**view.how, "boards_changed": {b.board: b.points for b in view.boards
                                                        if old_points.get(b.board) != b.points_version}
                         | {b: None for b in old_points if b not in points}}
        if len(ranking) != len(rows):  # two rows of one pair: never; the ranking whole then
            out["ranking"] = rows
            return
        moved = [{"at": i, "row": row} for key, (i, row) in ranking.items()
                 if (old := old_ranking.get(key)) is None or old[0] != i or (old[1] is not row and old[1] != row)]
        gone = [{"pair": key[1], "section": key[0] or None} for key in old_ranking if key not in ranking]
        if len(rows) >= RANKING_ROWS and len(moved) > RANKING_MOVED * len(rows):  # the whole is smaller
            out["ranking"] = rows
        elif moved or gone:
            out["ranking_changed"], out["ranking_gone"], out["ranking_count"] = moved, gone, len(ranking)


def _ranked(row: Json) -> tuple[str, str]:
    """A ranking row's pair (or team), with its section: what the page merges the rows by."""
    return str(row.get("section") or ""), str(row.get("pair"))


def merged_ranking(ranking: list[Json], changed: list[Json], gone: list[Json]) -> list[Json]:
    """A ranking as the page has it, with a push's ``ranking_changed`` and ``ranking_gone`` applied
    (what ``web_ui/static/console.js`` does: a test checks that it gives the ranking whole)."""
    rows = {_ranked(row): (i, row) for i, row in enumerate(ranking)}
    for row in gone:
        rows.pop(_ranked(row), None)
    for moved in changed:
        rows[_ranked(moved["row"])] = (moved["at"], moved["row"])
    return [row for _, row in sorted(rows.values(), key=lambda ir: ir[0])]


class CallsStream:
    """The calls the latest push brought the pages to, each as JSON text (its ``waited`` apart): a push
    that follows it carries only the calls that changed (``calls_changed``) and the keys of those gone
    (``calls_gone``, each with its table, so that a room Director's page is told of its own only), not
    every call of the room with who is on the way (5 kB of a 6 kB one-tile push at 30 tables). The page
    keeps the others and counts their waiting time on from the push's ``now``."""

    def __init__(self) -> None:
        self._version = -1
        self._calls: dict[str, tuple[str, Any]] = {}

    def narrow(self, out: Json, since: int, version: int) -> None:
        """Of ``out``'s ``calls`` (a push from ``since`` to ``version``), keep only those that changed when
        the previous push was the one to ``since``; a full push, or one that does not follow, has them all."""
        follows = since == self._version
        self._version = version
        calls: dict[str, tuple[str, Any]] = {
            str(c["key"]): (json.dumps({k: v for k, v in c.items() if k != "waited"}, sort_keys=True), c.get("table"))
            for c in out["calls"]}
        before, self._calls = self._calls, calls
        if not follows or out.get("full"):
            return
        changed = [c for c in out.pop("calls") if before.get(str(c["key"]), ("", None))[0] != calls[str(c["key"])][0]]
        gone = [{"key": key, "table": table} for key, (_, table) in before.items() if key not in calls]
        if changed:
            out["calls_changed"] = changed
        if gone:
            out["calls_gone"] = gone
