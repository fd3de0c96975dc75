"""The club room, pure: the alert and result rows a table makes, and the console's fold."""

from __future__ import annotations

from typing import Any

from controller import actions as a
from controller.calls import Call
from controller.cards import Card
from controller.deal import Deal
from controller.room.console import Room, Stream
from controller.room.messages import room_rows, table_state
from controller.seats import Seat
from controller.table import TableState, step

DEAL = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


def play_through(state: TableState, *acts: a.Action) -> tuple[TableState, list[tuple[str, dict[str, Any]]]]:
    rows: list[tuple[str, dict[str, Any]]] = []
    for act in acts:
        after = step(state, act).state
        rows += room_rows(state, after)
        state = after
    return state, rows


def calls(dealer: Seat, text: str, t: float = 1.0) -> list[a.Action]:
    out: list[a.Action] = []
    seat = dealer
    for token in text.split():
        out.append(a.MakeCall(seat, Call.parse(token), t))
        seat = seat.lho
        t += 1
    return out


def test_lead_out_of_turn_raises_an_alarm_then_its_ruling_closes_it_law_54() -> None:
    state = TableState.new()
    state, rows = play_through(state, a.BoardStart(1, None, None, DEAL), *calls(Seat.N, "1NT Pass Pass Pass"))
    assert rows == []
    state, rows = play_through(state, a.PlayCard(Seat.W, Card.parse("S4"), 10.0))  # E is on lead
    assert [r[0] for r in rows] == ["alert"]
    alert = rows[0][1]
    assert alert["event"] == "raised" and alert["alarm"] is True
    assert alert["kind"] == "opening_lead_out_of_turn" and alert["offender"] == "W"
    assert alert["what"] == "Opening lead out of turn" and alert["law"]
    state, rows = play_through(state, a.Ruling("accept_see_dummy", alert["id"], (), 12.0))
    assert [(k, b["event"], b["status"]) for k, b in rows] == [("alert", "ruled", "ruled")]


def test_arbiter_call_button_is_an_alarm_for_the_room() -> None:
    state = TableState.new()
    state, _ = play_through(state, a.BoardStart(1, None, None, DEAL))
    _, rows = play_through(state, a.CallDirector(Seat.E, 2.0))
    assert rows == [("alert", {"alert": "arbiter_called", "seat": "E", "board": 1,
                               "what": "E called the Director", "alarm": True})]


def test_finished_board_gives_its_replay_entry_as_a_result_row() -> None:
    state = TableState.new()
    _, rows = play_through(state, a.BoardStart(3, None, None, DEAL), *calls(Seat.S, "Pass Pass Pass Pass"))
    assert [k for k, _ in rows] == ["result"]
    result = rows[0][1]
    assert result["number"] == 3 and result["contract"] == "Pass" and result["score_ns"] == 0


def test_table_state_names_board_phase_contract_tricks_and_round() -> None:
    state = TableState.new()
    state, _ = play_through(state, a.BoardStart(1, None, None, DEAL), *calls(Seat.N, "1NT Pass Pass Pass"),
                            a.PlayCard(Seat.E, Card.parse("CA"), 10.0))
    body = table_state(state, now=40.0, table_name="Table 3", boards_per_round=3)
    assert body["board"] == 1 and body["phase"] == "play" and body["contract"] == "1NT"
    assert body["declarer"] == "N" and body["tricks"] == {"NS": 0, "EW": 0} and body["turn"] == "S"
    assert body["round"] == 1 and body["round_finished"] is False and body["online"] is True
    assert body["board_elapsed"] == 40.0


def test_stream_holds_seq_with_no_gap_and_drops_duplicates() -> None:
    s = Stream()
    assert s.take(3, 0) and s.acked == 3
    assert not s.take(3, 0)
    assert s.take(9, 7) and s.acked == 3  # 7 is missing
    assert s.take(7, 3) and s.acked == 9
    assert not s.take(7, 3) and not s.take(9, 7)


def _msg(seq: int, prev: int, body: dict[str, Any], session: str = "s1") -> dict[str, Any]:
    return {**body, "v": 1, "club": "c", "table": "3", "session": session, "seq": seq, "prev": prev,
            "time": "2026-11-25T10:00:00Z", "at": 1000.0 + seq}


def test_room_queues_a_call_per_irregularity_and_resolves_it_when_ruled() -> None:
    room = Room("c")
    raised = {"alert": "irregularity", "event": "raised", "id": 1, "kind": "lead_out_of_turn", "law": "53",
              "offender": "W", "board": 4, "what": "Lead out of turn", "alarm": True, "status": "awaiting_ruling"}
    got = room.receive("alert", "3", _msg(5, 0, raised), 2000.0)
    assert got.new and got.alarm == "Table 3: Lead out of turn by W"
    assert not room.receive("alert", "3", _msg(5, 0, raised), 2001.0).new  # sent again after an outage
    [call] = room.calls.values()
    assert call.state == "called" and call.since == 1005.0
    room.mark(call.key, "acknowledged", 2002.0)
    room.opened("3", 2003.0)
    assert call.state == "being_ruled"
    ruled = {**raised, "event": "ruled", "status": "ruled", "ruling": {"option": "accept"}}
    room.receive("alert", "3", _msg(6, 5, ruled), 2010.0)
    assert call.state == "resolved" and call.outcome == "ruled: accept"
    assert room.acknowledged("3") == ("s1", 6)


def test_room_tile_goes_offline_on_the_last_will_and_travellers_fill_in() -> None:
    """A table gone during play is ``lost`` (it needs the Director); one gone between boards, ``offline``."""
    room = Room("c")
    room.receive("state", "3", {**_msg(0, 0, {}), "online": True, "board": 2, "phase": "play"}, 1.0)
    room.receive("result", "3", _msg(4, 0, {"number": 2, "contract": "4S", "declarer": "N", "tricks": 10,
                                            "result": "=", "score_ns": 420, "status": "played"}), 2.0)
    room.receive("state", "3", {"v": 1, "club": "c", "table": "3", "online": False}, 3.0)
    snap = room.snapshot(4.0)
    assert snap["tiles"][0]["colour"] == "lost"  # gone with a board in play: an alarm, not a grey tile
    assert snap["travellers"] == [{"board": "2", "results": [
        {"table": "3", "contract": "4S", "declarer": "N", "tricks": 10, "result": "=", "score_ns": 420,
         "status": "played", "pairs": None}]}]


def test_a_table_that_lost_acknowledged_inputs_alarms_the_director() -> None:
    room = Room("c")
    lost = {"alert": "log_damaged", "what": "171 acknowledged input(s) lost since seq 1", "alarm": True}
    got = room.receive("alert", "3", _msg(400, 0, lost), 10.0)
    assert got.alarm == "Table 3: 171 acknowledged input(s) lost since seq 1"
    assert [c.state for c in room.calls.values()] == ["called"]


def test_a_tables_call_before_any_state_of_it_is_a_call_not_a_lost_table() -> None:
    """The alerts have a connection of their own (``tablectl.room.alert_lane``) and may overtake the
    table's states: a table that sent a call was online to send it, so its tile is the call's colour,
    never ``lost`` (the alarm for a table gone during play); its first state then sets it."""
    room = Room("c")
    raised = {"alert": "irregularity", "event": "raised", "id": 1, "alarm": True, "what": "lead out of turn"}
    room.receive("alert", "3", _msg(2, 1, raised), 1.0)
    assert room.snapshot(2.0)["tiles"][0]["colour"] == "irregularity"
    room.receive("state", "3", {**_msg(0, 0, {}), "online": True, "board": 2, "phase": "play"}, 3.0)
    assert room.snapshot(4.0)["tiles"][0]["colour"] == "irregularity"
    room.receive("state", "3", {"v": 1, "club": "c", "table": "3", "online": False}, 5.0)
    assert room.snapshot(6.0)["tiles"][0]["colour"] == "lost"  # gone with its call open: now it is
