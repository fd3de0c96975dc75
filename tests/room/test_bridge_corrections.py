"""A correction made at a room's console reaches the event's head console through the table's own log
(Law 79C; docs/event-topology.md, "Corrections in an event").

Real everything, as in ``tests/room/test_bridge.py``: a centre and room A on real Mosquitto, the bridge
through a relay the test cuts and mends, real tables, both consoles. Room A's Director corrects a
board at the room's console while the link is cut; the table takes the correction into its log, its
``event`` message waits in the room's broker and crosses when the link is back, and the head console
scores the board as corrected, its desk saying the entry is room A's. Taking it back at the room takes
it back at the head. Nothing is lost or taken twice: not when the bridge brings a message again, not
when the head console starts again, not when it starts on a store whose desk lacks them. The head
Director's own correction of the table is refused with where to make it.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from controller import actions as a
from controller.room.adjustments import DeskEntry, DeskError, Played
from tablectl.room.console import Console
from tests.room.test_bridge import CATCH_UP, Event, exactly, holds, play, running_event
from tests.room.test_link import TAG, Table, wait

Json = dict[str, Any]


@pytest.fixture
def event(tmp_path: Path) -> Iterator[Event]:
    with running_event(tmp_path) as ev:
        ev.head.rooms = {name: files.tables for name, files in ev.files.rooms.items()}
        yield ev


def _finish(t: Table, tricks: int) -> None:
    """Board 1 at ``t``: 1NT by North, passed out behind, the Director gives declarer ``tricks``."""
    t.director_calls = 0  # type: ignore[attr-defined]
    t.sim.present(TAG, "board")
    assert t.rt.sync(5)
    play(t, (("1NT", "N"), ("Pass", "E"), ("Pass", "S"), ("Pass", "W")))
    t.rt.submit(a.Adjust(tricks))
    assert t.rt.sync(5)


def _score(console: Console, table: str) -> Any:
    """North-South's score of ``table`` on board 1 as ``console`` scores it (after the desk's entries)."""
    with console._lock:
        return console.room.results.entries().get("1", {}).get(table, {}).get("score_ns")


def _points(console: Console) -> dict[str, Any]:
    """Each table's North-South matchpoints on board 1 at ``console``."""
    with console._lock:
        board = console.room.results.scores()["boards"].get("1", {})
    return {table: row["points_ns"] for table, row in board.items()}


def _desk(console: Console) -> list[Json]:
    return list(console.desk()["entries"])


def _taken_by_table(t: Table) -> list[str]:
    return [c.kind for c in t.rt.snapshot().state.corrections]


def _correct(console: Console, tricks: int) -> Json:
    return console.adjust(DeskEntry(0, "correction", "1", "1", "Anna", 0.0, "declarer took 7 tricks, not 9",
                                    played=Played.parse("1NT", "N", tricks)))


def _restart_head(ev: Event) -> Console:
    """The head console stopped and started again on its own files (a restart of its machine)."""
    ev.head.stop()
    ev.head = Console(replace(ev.files.centre.address_of("console"), port=ev.head_relay.port),
                      ev.path / "head-console", head=True)
    ev.head.rooms = {name: files.tables for name, files in ev.files.rooms.items()}
    ev.head.start()
    wait(lambda: ev.head.connected, what="the head console to connect again")
    return ev.head


def test_a_correction_at_a_rooms_console_changes_the_heads_scoring_and_its_undo_takes_it_back_law_79c(
        event: Event) -> None:
    t1, t2 = event.table("1"), event.table("2")
    _finish(t1, 9)  # +150
    _finish(t2, 8)  # +120
    for console in (event.room_console, event.head):
        for table, score in (("1", 150), ("2", 120)):
            wait(lambda c=console, t=table, s=score: _score(c, t) == s, timeout=CATCH_UP,  # type: ignore[misc]
                 what=f"table {table}'s result at each console")
    before = _points(event.head)

    event.relay.cut()  # the correction is made while the room is cut off from the centre
    made = _correct(event.room_console, 7)  # +90: table 2's +120 now beats it
    wait(lambda: _taken_by_table(t1) == ["correction"], what="the correction in table 1's own log")
    wait(lambda: holds(event.room_console, t1), what="the room's console to hold the table's answer")
    assert _score(event.room_console, "1") == 90
    assert _score(event.head, "1") == 150 and _desk(event.head) == []  # the cut is real: the centre has none of it

    event.relay.mend()
    wait(lambda: _score(event.head, "1") == 90, timeout=CATCH_UP, what="the head console to score the correction")
    [entry] = _desk(event.head)
    assert (entry["kind"], entry["board"], entry["table"], entry["by"], entry["reason"]) == (
        "correction", "1", "1", "Anna", "declarer took 7 tricks, not 9")
    assert entry["from_room"]["room"] == "A" and entry["from_room"]["entry"] == made["id"]
    assert entry["at"] == pytest.approx(made["at"], abs=0.001)  # when Anna made it
    assert _points(event.head) != before and _points(event.head) == _points(event.room_console)

    with pytest.raises(DeskError, match="at room A's console"):  # the head's Director makes none of their own
        _correct(event.head, 8)
    with pytest.raises(DeskError, match="take it back there"):
        event.head.adjust(DeskEntry(0, "undo", "", "", "Max", 0.0, "no", undoes=entry["id"]))

    event.relay.cut()
    event.room_console.adjust(DeskEntry(0, "undo", "", "", "Anna", 0.0, "it was board 2", undoes=made["id"]))
    wait(lambda: _taken_by_table(t1) == ["correction", "undo"], what="the undo in table 1's own log")
    event.relay.mend()
    wait(lambda: _score(event.head, "1") == 150, timeout=CATCH_UP, what="the head console to take it back")
    exactly(event.head, [t1, t2])  # nothing lost, nothing doubled
    assert [(e["kind"], e["undone"]) for e in _desk(event.head)] == [("correction", True), ("undo", False)]
    assert _points(event.head) == before == _points(event.room_console)


def test_the_rooms_corrections_are_taken_once_across_a_head_restart_and_again_from_its_store(
        event: Event) -> None:
    """The head console started again holds its desk as it was: the corrections it holds are not taken
    twice. One started on a store whose desk lacks them (a crash between keeping the table's message and
    taking its correction, or a console that did not take corrections before) takes them from the store."""
    t1, t2 = event.table("1"), event.table("2")
    _finish(t1, 9)
    _finish(t2, 8)
    wait(lambda: _score(event.room_console, "1") == 150 and _score(event.room_console, "2") == 120,
         what="the tables' results in the room")
    made = _correct(event.room_console, 7)
    event.room_console.adjust(DeskEntry(0, "correction", "1", "2", "Anna", 0.0, "declarer took 10 tricks",
                                        played=Played.parse("1NT", "N", 10)))  # +180
    event.room_console.adjust(DeskEntry(0, "undo", "", "", "Anna", 0.0, "wrong table", undoes=made["id"]))
    wait(lambda: _score(event.head, "2") == 180 and len(_desk(event.head)) == 3, timeout=CATCH_UP,
         what="the head console to take the room's three entries")
    assert _score(event.head, "1") == 150
    kept = _desk(event.head)

    head = _restart_head(event)
    exactly(head, [t1, t2])
    assert _desk(head) == kept and _score(head, "2") == 180 and _score(head, "1") == 150

    head.stop()
    with contextlib.closing(sqlite3.connect(str(head.store.path))) as conn:
        conn.execute("DELETE FROM desk_entry")
        conn.commit()
    head = _restart_head(event)
    wait(lambda: len(_desk(head)) == 3, timeout=CATCH_UP, what="the corrections taken again from the store")
    assert [(e["kind"], e["table"], e["by"], e["from_room"]["entry"]) for e in _desk(head)] == [
        (e["kind"], e["table"], e["by"], e["from_room"]["entry"]) for e in kept]
    assert _score(head, "2") == 180 and _score(head, "1") == 150
