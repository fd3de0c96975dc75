"""What the Director's page is sent after a change: the changes since the version it has
(``tablectl.room.console.Console.changes``), never the whole room again.

``Journal`` remembers, per version of the console, the tables whose tile changed and the counts
of the results' changes and of the alerts then: from a version it says which tiles, whether the
results and how many alerts the page lacks (None: further back than it remembers, the page is
sent the whole room). ``ResultsStream`` keeps what the latest push brought the pages to, board
by board: the next push carries only the travellers and the points of the boards that differ,
and the ranking only when it moved. ``CallsStream`` does the same for the calls: only when one changed.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["JOURNAL", "RESULTS_EVERY", "CallsStream", "Journal", "ResultsStream", "Since"]

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


class ResultsStream:
    """What the latest push brought the pages to: its version, each board's traveller and points
    and the ranking (as JSON text, to compare); whether results wait for their turn."""

    def __init__(self) -> None:
        self.deferred = False
        """Results changed that the pages have not been sent yet (``RESULTS_EVERY``)."""
        self._sent_at = float("-inf")
        self._version = -1
        self._travellers: dict[str, str] = {}
        self._boards: dict[str, str] = {}
        self._ranking = ""

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
        """Of the travellers and points in ``out`` (a push from ``since`` to ``version``), keep only
        the boards that differ from the previous push (``travellers_changed``, ``scores.boards_changed``:
        board -> its new value, None when gone) and the ranking only when it moved, when that push was
        the one to ``since``; otherwise leave them whole (they become the reference)."""
        follows = since == self._version
        self._version = version
        if not follows:
            self._travellers, self._boards, self._ranking = {}, {}, ""
        if "travellers" not in out:
            return
        travellers = {str(t["board"]): json.dumps(t, sort_keys=True) for t in out["travellers"]}
        boards = {b: json.dumps(rows, sort_keys=True) for b, rows in out["scores"]["boards"].items()}
        ranking = json.dumps(out["ranking"], sort_keys=True)
        old_travellers, old_boards, old_ranking = self._travellers, self._boards, self._ranking
        self._travellers, self._boards, self._ranking = travellers, boards, ranking
        if not follows:
            return
        out["travellers_changed"] = {b: t for t in out.pop("travellers")
                                     if old_travellers.get(b := str(t["board"])) != travellers[b]} \
            | {b: None for b in old_travellers if b not in travellers}
        scores = out["scores"]
        every = scores.pop("boards")
        scores["boards_changed"] = {b: rows for b, rows in every.items() if old_boards.get(b) != boards[b]} \
            | {b: None for b in old_boards if b not in boards}
        if old_ranking == ranking:
            del out["ranking"]


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
