"""What the page lacks since a version (``tablectl.room.console_push``): the tiles changed since,
every tile after a change of every table, the whole room when the version is too old; the
results of a push only where they differ from the push before it, and the calls only where one changed."""

from __future__ import annotations

from typing import Any

from controller.room.board_output import BoardOutput, ResultsView
from tablectl.room.console_push import (
    JOURNAL,
    RANKING_ROWS,
    RESULTS_EVERY,
    CallsStream,
    Journal,
    ResultsStream,
    Since,
)


def _journal(*changes: tuple[str, ...] | None) -> Journal:
    journal = Journal()
    journal.add(1, (), 0, 0)
    for version, tables in enumerate(changes, start=2):
        journal.add(version, tables, version // 3, version)
    return journal


def test_the_changes_since_a_version_are_the_tiles_changed_after_it() -> None:
    journal = _journal(("3",), ("4", "3"), ("7",))
    assert journal.since(2, 1, 4) == Since(frozenset({"3", "4", "7"}), True, 2)
    assert journal.since(4, 1, 4) == Since(frozenset(), False, 0)


def test_a_change_of_every_table_sends_every_tile() -> None:
    assert _journal(("3",), None, ("7",)).since(1, 0, 0) == Since(None, False, 0)


def test_a_version_further_back_than_the_journal_is_sent_the_whole_room() -> None:
    journal = _journal(*[("1",)] * (JOURNAL + 5))
    assert journal.since(3, 0, 0) is None
    assert journal.since(JOURNAL + 20, 0, 0) is None  # a version not reached yet
    assert journal.since(JOURNAL + 6, 0, 0) == Since(frozenset(), True, -(JOURNAL + 6))


_EPOCH = object()


def _push(boards: dict[str, tuple[int, int]], total: int = 0) -> dict[str, Any]:
    """A push's results: board -> (its score, its version), and one pair's total."""
    view = ResultsView({"name": "x"}, tuple(BoardOutput(b, {"board": b, "results": [s]}, {"1": {"points_ns": s}}, v, v)
                                            for b, (s, v) in boards.items()),
                       ({"pair": "1NS", "section": None, "total": total},), None, None, _EPOCH)
    return {"results_view": view}


def test_a_push_that_follows_the_last_carries_only_the_boards_whose_version_moved() -> None:
    stream = ResultsStream()
    first = _push({"1": (10, 1), "2": (20, 2)})
    stream.narrow(first, 0, 5)
    assert "travellers" in first and "boards" in first["scores"] and "results_view" not in first  # whole
    second = _push({"1": (10, 1), "2": (25, 4), "3": (5, 5)}, total=3)
    stream.narrow(second, 5, 6)
    assert second["travellers_changed"] == {"2": {"board": "2", "results": [25]}, "3": {"board": "3", "results": [5]}}
    assert second["scores"] == {"name": "x", "boards_changed": {"2": {"1": {"points_ns": 25}},
                                                                "3": {"1": {"points_ns": 5}}}}
    assert "travellers" not in second and "ranking" not in second
    assert second["ranking_changed"] == [{"at": 0, "row": {"pair": "1NS", "section": None, "total": 3}}]
    third = _push({"1": (10, 1), "2": (25, 4), "3": (5, 5)})
    stream.narrow(third, 3, 7)  # not from the last push's version: whole again
    assert "travellers" in third and "travellers_changed" not in third and "ranking" in third


def test_a_full_push_and_another_epochs_versions_carry_the_results_whole() -> None:
    stream = ResultsStream()
    stream.narrow(_push({"1": (10, 1)}), 0, 1)
    full = {**_push({"1": (10, 1)}), "full": True}
    stream.narrow(full, 1, 2)
    assert "travellers" in full and "ranking" in full
    quiet: dict[str, Any] = {}  # a push without results, then one that follows it: only what changed
    stream.narrow(quiet, 2, 3)
    gone = _push({})
    stream.narrow(gone, 3, 4)
    assert gone["travellers_changed"] == {"1": None} and gone["scores"]["boards_changed"] == {"1": None}
    assert "ranking_changed" not in gone and "ranking" not in gone  # the same ranking
    other = _push({"1": (10, 1)})
    other["results_view"] = ResultsView({"name": "x"}, other["results_view"].boards, None, None, None, object())
    stream.narrow(other, 4, 5)  # a movement changed: the results made again, their versions numbered anew
    assert "travellers" in other and other["ranking"] == []


def test_results_go_at_most_every_few_seconds_on_the_pages_stream_and_none_is_forgotten() -> None:
    stream = ResultsStream()
    stream.narrow({}, 0, 1)
    assert stream.due(True, 1, 100.0)  # the first: at once
    stream.narrow({}, 1, 2)
    assert not stream.due(True, 2, 100.5) and stream.deferred  # another within RESULTS_EVERY: later
    stream.narrow({}, 2, 3)
    assert not stream.due(False, 3, 101.0)  # nothing new since, still waiting
    assert stream.due(False, 3, 100.0 + RESULTS_EVERY) and not stream.deferred  # its turn: sent
    assert stream.due(True, 99, 100.0 + RESULTS_EVERY)  # not the pages' stream (a page behind): at once


def _calls(*calls: tuple[str, str, float]) -> dict[str, Any]:
    return {"calls": [{"key": key, "table": key.split("/")[0], "state": state, "since": 100.0, "waited": waited}
                      for key, state, waited in calls]}


def test_a_push_that_follows_the_last_carries_only_the_calls_that_changed() -> None:
    stream = CallsStream()
    first = _calls(("A1/1", "open", 3.0), ("B2/1", "open", 2.0))
    stream.narrow(first, 0, 5)
    assert len(first["calls"]) == 2  # nothing before it: every call
    same = _calls(("A1/1", "open", 9.0), ("B2/1", "open", 8.0))  # only their waiting time went on: the page counts it
    stream.narrow(same, 5, 6)
    assert "calls" not in same and "calls_changed" not in same and "calls_gone" not in same
    taken = _calls(("A1/1", "acknowledged", 12.0), ("B2/1", "open", 11.0))
    stream.narrow(taken, 6, 7)
    assert [(c["key"], c["state"]) for c in taken["calls_changed"]] == [("A1/1", "acknowledged")]
    gone = _calls(("A1/1", "acknowledged", 13.0))
    stream.narrow(gone, 7, 8)
    assert gone["calls_gone"] == [{"key": "B2/1", "table": "B2"}] and "calls_changed" not in gone
    behind = _calls(("A1/1", "acknowledged", 15.0))
    stream.narrow(behind, 3, 9)  # not from the last push's version: every call again
    assert [c["key"] for c in behind["calls"]] == ["A1/1"]
    full = {**_calls(("A1/1", "acknowledged", 15.0)), "full": True}
    stream.narrow(full, 9, 10)
    assert "calls" in full


def test_a_long_ranking_goes_row_by_row_unless_most_of_it_moved() -> None:
    def push(totals: list[int]) -> dict[str, Any]:
        ranking = tuple({"pair": str(p), "section": "A", "total": t} for p, t in enumerate(totals))
        return {"results_view": ResultsView({"name": "x"}, (), ranking, None, None, _EPOCH)}
    stream = ResultsStream()
    totals = list(range(RANKING_ROWS))
    stream.narrow(push(totals), 0, 1)
    few = push([t + (p < 2) for p, t in enumerate(totals)])  # two pairs scored more
    stream.narrow(few, 1, 2)
    assert [m["row"]["pair"] for m in few["ranking_changed"]] == ["0", "1"] and "ranking" not in few
    most = push([t + 1 for t in totals])  # every pair: the ranking whole is smaller
    stream.narrow(most, 2, 3)
    assert len(most["ranking"]) == RANKING_ROWS and "ranking_changed" not in most
