"""An event's head console takes on its desk the corrections the tables took from their rooms' consoles
(Law 79C): read from the table's ``event`` message, made by the room's Director, taken once, taken back
when the room takes it back, waiting for the result it corrects; its own Director's corrections of a
room's table are refused with where to make them."""

from __future__ import annotations

from typing import Any

import pytest

from controller import actions as a
from controller.fieldscore.model import Artificial, Award
from controller.records.tablelog import action_to_json
from controller.room.adjustments import Desk, DeskEntry, FromRoom, Played
from controller.room.deskmsg import desk_actions, desk_messages, made_text
from controller.room.room_corrections import (
    TableCorrection,
    head_entry,
    made_at,
    read_correction,
    refused_at_head,
)

Json = dict[str, Any]

MADE = 1_800_000_000.5
RESULTS = {"5": {"A3": {"number": 5, "session": "s-A3", "score_ns": 420, "vul": "NS"}}}


def _room_desk() -> Desk:
    """Room A's console: board 5 of table A3 corrected to 4S-1, then taken back."""
    desk = Desk().add(DeskEntry(0, "correction", "5", "A3", "Anna", MADE, "declarer took 9 tricks",
                                played=Played.parse("4S", "N", 9, "HK")))
    return desk.add(DeskEntry(0, "undo", "", "", "Anna", MADE + 60, "it was board 6", undoes=1))


def _events(desk: Desk, rejected: str | None = None) -> list[Json]:
    """The ``event`` messages table A3 publishes after taking its ``desk`` message (``tablectl.room.link``)."""
    actions, errors = desk_actions(desk_messages(desk, RESULTS)["A3"], "A3", "s-A3")
    assert not errors
    out = []
    for seq, action in enumerate(actions, start=40):
        body: Json = {"action": action_to_json(action), "source": "console"}
        if rejected is not None:
            body["rejected"] = rejected
        out.append({**body, "v": 1, "club": "congress", "table": "A3", "session": "s-A3", "seq": seq,
                    "prev": seq - 1, "at": MADE + 90})
    return out


def _take(desk: Desk, msg: Json, room: str = "A") -> Desk:
    found = read_correction("A3", msg)
    assert found is not None
    taking = head_entry(found, desk, RESULTS, room)
    assert taking.entry is not None, taking
    return desk.add(taking.entry)


def test_a_correction_the_table_took_is_an_entry_of_the_heads_desk_made_by_the_rooms_director_law_79c() -> None:
    correction, _ = _events(_room_desk())
    head = Desk().add(DeskEntry(0, "artificial", "2", "B1", "Hugo", 1.0, "fouled board",
                                award=_award()))  # the head's own entry first: numbers differ from the room's
    head = _take(head, correction)
    entry = head.entries[-1]
    assert (entry.id, entry.kind, entry.board, entry.table) == (2, "correction", "5", "A3")
    assert (entry.by, entry.reason) == ("Anna", "declarer took 9 tricks")
    assert entry.at == pytest.approx(MADE, abs=0.001)  # when Anna made it, not when the head took it
    assert entry.from_room == FromRoom("A", "s-A3", 1, made_text(MADE))
    assert head.standing("5", "A3").played == Played.parse("4S", "N", 9, "HK")
    body = head.entry("5", "A3", RESULTS["5"]["A3"])
    assert body is not None and body["score_ns"] == -100 and body["original"]["score_ns"] == 420  # 4S-1 vulnerable


def _award() -> Artificial:
    return Artificial(Award.PLUS, Award.MINUS)


def test_the_same_entry_taken_twice_is_one() -> None:
    correction, _ = _events(_room_desk())
    head = _take(Desk(), correction)
    found = read_correction("A3", correction)
    assert found is not None
    again = head_entry(found, head, RESULTS, "A")
    assert again.entry is None and not again.wait and "already" in again.why


def test_taking_a_correction_back_at_the_room_takes_back_the_heads_entry_of_it() -> None:
    correction, undo = _events(_room_desk())
    head = _take(_take(Desk(), correction), undo)
    last = head.entries[-1]
    assert (last.kind, last.undoes, last.board, last.table, last.by) == ("undo", 1, "5", "A3", "Anna")
    assert head.standing("5", "A3").played is None  # the result stands as the table played it
    assert head.entry("5", "A3", RESULTS["5"]["A3"])["score_ns"] == 420  # type: ignore[index]
    found = read_correction("A3", undo)
    assert found is not None and head_entry(found, head, RESULTS, "A").entry is None  # taken once


def test_a_correction_of_a_result_the_head_lacks_and_an_undo_before_its_correction_wait() -> None:
    correction, undo = _events(_room_desk())
    found, back = read_correction("A3", correction), read_correction("A3", undo)
    assert found is not None and back is not None
    assert head_entry(found, Desk(), {}, "A").wait  # the table's result has not crossed yet
    assert head_entry(back, Desk(), RESULTS, "A").wait  # nor the correction it takes back


def test_a_correction_the_table_refused_or_another_action_is_no_correction() -> None:
    correction, _ = _events(_room_desk(), rejected="board 5 has not been finished at this table")
    assert read_correction("A3", correction) is None
    call = {"action": {"t": 1.0, "seat": "N", "call": "1NT"}, "source": "sensing", "session": "s", "seq": 3}
    assert read_correction("A3", call) is None
    broken = {"action": {"t": 1.0, "correction": {"entry": 1, "board": 5, "contract": "4S"}}, "session": "s"}
    assert read_correction("A3", broken) is None  # no declarer, no who, no why: not taken


def test_the_heads_own_correction_of_a_rooms_table_is_refused_saying_where_to_make_it() -> None:
    rooms = {"A3": "A"}
    mine = DeskEntry(0, "correction", "5", "A3", "Hugo", 1.0, "wrong tricks", played=Played.parse("4S", "N", 10))
    why = refused_at_head(mine, Desk(), lambda t: rooms.get(t, ""))
    assert why is not None and "at room A's console" in why and "table's own log" in why
    unknown = refused_at_head(mine, Desk(), lambda t: "")
    assert unknown is not None and "the table's room's console" in unknown
    correction, _ = _events(_room_desk())
    head = _take(Desk(), correction)
    undo = DeskEntry(0, "undo", "", "", "Hugo", 2.0, "no", undoes=1)
    why = refused_at_head(undo, head, lambda t: "")
    assert why is not None and "Entry 1 was made at room A's console by Anna" in why
    artificial = DeskEntry(0, "artificial", "5", "A3", "Hugo", 1.0, "fouled board", award=_award())
    assert refused_at_head(artificial, head, lambda t: "A") is None  # an adjusted score is the head's to give
    head = head.add(artificial)
    assert refused_at_head(DeskEntry(0, "undo", "", "", "Hugo", 3.0, "no", undoes=2), head, lambda t: "A") is None


def test_when_an_entry_was_made_is_read_from_the_log_and_otherwise_when_the_table_sent_it() -> None:
    assert made_at(made_text(MADE), 0.0) == pytest.approx(MADE, abs=0.001)
    assert made_at("not a time", 12.5) == 12.5
    assert made_at("2026-11-27T21:40:02", 12.5) == 12.5  # no time zone: not a time the desk wrote


def test_an_entry_from_a_room_is_kept_and_read_back_with_where_it_was_made() -> None:
    correction, _ = _events(_room_desk())
    entry = _take(Desk(), correction).entries[0]
    assert DeskEntry.from_json(entry.as_json()) == entry
    assert entry.as_json()["from_room"] == {"room": "A", "session": "s-A3", "entry": 1, "made": made_text(MADE)}
    assert DeskEntry.from_json(DeskEntry(1, "penalty", "5", "A3", "H", 1.0, "slow", side="NS",
                                         amount=0.5).as_json()).from_room is None


def test_the_key_of_a_table_correction_is_its_table_session_entry_and_when_made() -> None:
    action = a.UndoCorrection(3, 1, "Anna", "why", "2026-11-27T21:40:02.512Z")
    assert TableCorrection("A3", "s", action).key == ("A3", "s", 3, "2026-11-27T21:40:02.512Z")
