"""The Director's correction of a finished board's result reaches the table's own log (Law 79C), through
the real Mosquitto with the club's passwords and ACL: the console publishes, retained, each table's
corrections on its ``desk`` topic; the table takes each as an entry of its own (the original lines of
its log untouched), answers on ``alert``, takes an entry once however often it comes, gets the entries
made while it was off when it comes back, and a restart (a power cut) replays them. ``tablectl replay
--json`` reports the corrected score with the original beside it. Waits are bounded polls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.records.eventlog import Row
from controller.room.adjustments import DeskEntry, Played
from tablectl import cli
from tablectl.room.console import Console
from tablectl.store import open_reader
from tests.room.conftest import Broker
from tests.room.test_link import wait
from tests.room.test_room_results import DEAL, Table

Json = dict[str, Any]


def _table(broker: Broker, tmp_path: Path) -> Table:
    return Table(tmp_path / "table-1.sqlite", broker.address("1"), "1", {1: DEAL})


def _correct(console: Console, tricks: int, reason: str = "the table entered 9 tricks, declarer took 7") -> Json:
    return console.adjust(DeskEntry(0, "correction", "1", "1", "Ann Smith", 0.0, reason,
                                    played=Played.parse("1NT", "N", tricks, "SA")))


def _corrections(table: Table) -> list[Any]:
    return list(table.rt.snapshot().state.corrections)


def _desk_answers(console: Console) -> list[Json]:
    return [x for x in list(console.room.alerts) if x.get("alert") == "desk"]


def _log_actions(path: Path) -> list[Json]:
    """The actions of the log's input rows, in order."""
    reader = open_reader(path)
    try:
        return [dict(r.body["action"]) for r in reader.rows_after(0, 100_000)
                if isinstance(r, Row) and r.kind == "action"]
    finally:
        reader.close()


def _played_board_1(table: Table, console: Console) -> None:
    table.start(1)
    table.finish(9)  # 1NT by North, 9 tricks: +150
    wait(lambda: "1" in console.room.results.results, what="table 1's result at the console")


def test_a_correction_at_the_desk_is_an_entry_of_the_tables_own_log_and_its_replay_law_79c(
        club_broker: Broker, console: Console, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = _table(club_broker, tmp_path)
    try:
        _played_board_1(table, console)
        made = _correct(console, 7)
        wait(lambda: len(_corrections(table)) == 1, what="the correction in the table's state")
        wait(lambda: _desk_answers(console), what="the table's answer at the console")
        answer = _desk_answers(console)[0]
        assert answer["accepted"] is True and answer["entry"] == made["id"] and answer["board"] == 1
        desk = console.desk()["entries"][0]                          # the desk says the table's log took it
        assert desk["id"] == made["id"] and desk["table_answer"]["accepted"] is True
        board = table.rt.snapshot().state.boards[0]
        assert board.status == "adjusted" and board.tricks == 9  # the table's own result is not rewritten
    finally:
        table.stop()
    actions = _log_actions(tmp_path / "table-1.sqlite")
    assert {"t", "adjust"} <= set(actions[-2]) and actions[-2]["adjust"] == {"tricks": 9}  # the original line
    correction = actions[-1]["correction"]
    assert correction["contract"] == "1NT" and correction["tricks"] == 7 and correction["lead"] == "SA"
    assert correction["by"] == "Ann Smith" and correction["reason"].startswith("the table entered")
    assert correction["made"].endswith("Z")
    assert cli.main(["replay", str(tmp_path / "table-1.sqlite"), "--json"]) == 0
    entry = json.loads(capsys.readouterr().out)["boards"][0]
    assert (entry["status"], entry["tricks"], entry["result"], entry["score_ns"]) == ("corrected", 7, "=", 90)
    assert entry["original"]["tricks"] == 9 and entry["original"]["score_ns"] == 150
    assert [c["entry"] for c in entry["corrections"]] == [made["id"]]


def test_a_correction_sent_again_is_one_entry_in_the_log(
        club_broker: Broker, console: Console, tmp_path: Path) -> None:
    table = _table(club_broker, tmp_path)
    try:
        _played_board_1(table, console)
        _correct(console, 7)
        wait(lambda: len(_corrections(table)) == 1, what="the correction at the table")
        text = console._published["desk/1"]
        for _ in range(3):  # the retained message again, as every reconnection brings it
            console._client.publish("bridge/testclub/table/1/desk", text, qos=1, retain=True)
        # a command the table refuses, after them: its answer says the table has read everything before it
        console._client.publish("bridge/testclub/table/1/command", json.dumps(
            {"v": 1, "club": "testclub", "table": "1", "ref": "probe", "command": "nonsense"}), qos=1)
        wait(lambda: any(x.get("ref") == "probe" for x in list(console.room.alerts)), what="the table to read them")
        assert len(_corrections(table)) == 1
        assert len(_desk_answers(console)) == 1  # answered once
    finally:
        table.stop()
    assert sum(1 for x in _log_actions(tmp_path / "table-1.sqlite") if "correction" in x) == 1


def test_a_correction_made_while_the_table_is_off_reaches_it_when_it_comes_back_and_outlives_a_power_cut(
        club_broker: Broker, console: Console, tmp_path: Path) -> None:
    table = _table(club_broker, tmp_path)
    try:
        _played_board_1(table, console)
    finally:
        table.stop()
    _correct(console, 8, "declarer took 8 tricks")
    wait(lambda: "desk/1" in console._published, what="the console to publish the correction")
    table = _table(club_broker, tmp_path)  # the table comes back: the retained message is waiting for it
    try:
        wait(lambda: len(_corrections(table)) == 1, what="the correction made while the table was off")
        assert _corrections(table)[0].tricks == 8
    finally:
        table.stop()
    again = _table(club_broker, tmp_path)  # a restart: the log is replayed, the correction with it
    try:
        assert [(c.kind, c.tricks, c.score_ns) for c in _corrections(again)] == [("correction", 8, 120)]
        assert again.rt.sync(5)
        assert len(_corrections(again)) == 1  # the retained message again: nothing new
    finally:
        again.stop()


def test_taking_a_correction_back_is_an_entry_of_its_own_and_the_result_stands_as_played(
        club_broker: Broker, console: Console, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = _table(club_broker, tmp_path)
    try:
        _played_board_1(table, console)
        made = _correct(console, 7)
        wait(lambda: len(_corrections(table)) == 1, what="the correction")
        undo = console.adjust(DeskEntry(0, "undo", "", "", "Ann Smith", 0.0, "wrong board", undoes=made["id"]))
        wait(lambda: len(_corrections(table)) == 2, what="the undo at the table")
        wait(lambda: len(_desk_answers(console)) == 2, what="the table's answer to the undo")
        answers = {e["id"]: e["table_answer"] for e in console.desk()["entries"]}
        assert answers[made["id"]]["accepted"] is True and answers[undo["id"]]["accepted"] is True
        view = table.rt.snapshot().state
        assert [c.kind for c in view.corrections] == ["correction", "undo"]
    finally:
        table.stop()
    assert cli.main(["replay", str(tmp_path / "table-1.sqlite"), "--json"]) == 0
    entry = json.loads(capsys.readouterr().out)["boards"][0]
    assert entry["status"] == "adjusted" and entry["score_ns"] == 150 and "original" not in entry
    assert [(c["kind"], c.get("undone")) for c in entry["corrections"]] == [("correction", True), ("undo", None)]


def test_a_correction_of_a_board_the_table_has_not_finished_is_refused_and_changes_nothing(
        club_broker: Broker, console: Console, tmp_path: Path) -> None:
    table = _table(club_broker, tmp_path)
    try:
        _played_board_1(table, console)
        text = json.dumps({"v": 1, "club": "testclub", "kind": "desk", "table": "1", "entries": [
            {"entry": 9, "kind": "correction", "board": 2, "session": table.rt.store.session_id,
             "contract": "3NT", "declarer": "S", "tricks": 9, "by": "Ann", "reason": "r", "made": "x"}]})
        console._client.publish("bridge/testclub/table/1/desk", text, qos=1, retain=True)
        wait(lambda: _desk_answers(console), what="the table's answer")
        answer = _desk_answers(console)[0]
        assert answer["accepted"] is False and "board 2 has not been finished" in answer["reason"]
        assert _corrections(table) == []
    finally:
        table.stop()


def test_the_desk_says_whether_the_tables_log_took_a_correction_refused_it_or_has_not_answered() -> None:
    """The table's answer on its ``alert`` topic, as the desk shows it beside the entry (Law 79C): none yet,
    taken, or refused with the table's reason; an adjusted score goes to no table's log and says nothing."""
    from types import SimpleNamespace

    from controller.room.adjustments import Artificial, Award, Desk
    from controller.room.console import Room
    from tablectl.room.console_desk import desk_json

    room = Room("testclub")
    desk = Desk().add(DeskEntry(0, "correction", "1", "1", "Ann", 0.0, "r", played=Played.parse("1NT", "N", 7)))
    desk = desk.add(DeskEntry(0, "correction", "2", "2", "Ann", 0.0, "r", played=Played.parse("2S", "E", 8)))
    desk = desk.add(DeskEntry(0, "artificial", "3", "3", "Ann", 0.0, "r", award=Artificial(Award.PLUS, Award.MINUS)))
    results = SimpleNamespace(desk=desk)
    entries = desk_json(results, room.desk_answers)["entries"]  # type: ignore[arg-type]
    assert [e.get("table_answer", "none") for e in entries] == [None, None, "none"]
    for table, entry, accepted in (("1", 1, True), ("2", 2, False)):
        room.receive("alert", table, {
            "v": 1, "session": "s", "seq": 1, "prev": 0,
            "body": {"alert": "desk", "entry": entry, "board": int(table), "kind": "correction", "what": "w",
                     "accepted": accepted, **({} if accepted else {"reason": "board 2 has not been finished"})}},
            now=100.0)
    first, second, _ = desk_json(results, room.desk_answers)["entries"]  # type: ignore[arg-type]
    assert first["table_answer"] == {"accepted": True, "reason": None, "at": 100.0}
    assert second["table_answer"] == {"accepted": False, "reason": "board 2 has not been finished", "at": 100.0}
