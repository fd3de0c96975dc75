"""The players' results page of a table (web_ui/player_results.py): what the console published
for this table's players, and never a traveller of a board this table has not finished, whatever
the message says (it would tell the players the deal of a board they may still play)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from controller.records.tablelog import action_of
from tests.web_ui.conftest import make_app
from tests.web_ui.test_app import DEAL
from web_ui.local import LocalTable

Json = dict[str, Any]


class RoomTable(LocalTable):
    """A table in a club room: it holds what the console published for its players, as
    ``TableRuntime.take_room_results`` does."""

    def __init__(self) -> None:
        super().__init__()
        self.published: Json | None = None

    def room_results(self) -> Json | None:
        return self.published


def traveller(board: str) -> Json:
    return {"board": board, "results": [{"table": "7", "contract": "3NT", "declarer": "N", "result": "=",
                                         "score_ns": 400, "pairs": {"NS": "1", "EW": "4"}}]}


def board_1_passed_out_board_2_in_play(table: LocalTable) -> None:
    for obj in ({"board": {"number": 1, "dealer": "N", "vul": "None", "deal": DEAL}},
                {"seat": "N", "call": "Pass"}, {"seat": "E", "call": "Pass"}, {"seat": "S", "call": "Pass"},
                {"seat": "W", "call": "Pass"},
                {"board": {"number": 2, "dealer": "E", "vul": "NS", "deal": DEAL}}, {"seat": "E", "call": "1H"}):
        table.feed(action_of(obj))


def test_a_player_never_gets_the_traveller_of_a_board_his_table_has_not_finished() -> None:
    table = RoomTable()
    board_1_passed_out_board_2_in_play(table)
    card = {"pair": "1", "section": None, "standing": None, "boards": [
        {"board": "1", "score": 0}, {"board": "2", "score": 420}, {"board": "9", "score": -50}]}
    table.published = {"kind": "results", "table": "7", "name": "Club Pairs", "ended": False,
                        "settings": {"travellers": True, "ranking": "live"},
                        "travellers": [traveller("1"), traveller("2"), traveller("9")], "scorecards": [card],
                        "released": {"all": False, "boards": ["1", "2", "9"]},
                        "ranking": [{"pair": "1", "place": "1", "percent": 60.0}]}
    app, _ = make_app(table)
    with TestClient(app, base_url="http://testserver") as client:
        got = client.get("/api/results").json()
    assert got["available"] is True and got["table_name"] == "Table 7" and got["table"] == "7"
    assert [t["board"] for t in got["travellers"]] == ["1"] and got["boards"] == ["1"]
    assert [b["board"] for b in got["scorecards"][0]["boards"]] == ["1"]
    assert got["ranking"] == [{"pair": "1", "place": "1", "percent": 60.0}]
    # once the session is over a pair's scorecard is all its boards; the travellers stay this table's
    table.published = {**table.published, "ended": True}
    with TestClient(app, base_url="http://testserver") as client:
        got = client.get("/api/results").json()
    assert [t["board"] for t in got["travellers"]] == ["1"]
    assert [b["board"] for b in got["scorecards"][0]["boards"]] == ["1", "2", "9"]


def test_a_board_the_room_has_not_released_shows_nothing_of_it_whatever_the_message_law_16c() -> None:
    table = RoomTable()
    board_1_passed_out_board_2_in_play(table)
    card = {"pair": "1", "section": None, "standing": {"place": "1", "percent": 60.0}, "boards": [
        {"board": "1", "opponents": "4", "contract": "Pass", "score": 0, "points": 1.0}]}
    table.published = {"kind": "results", "table": "7", "name": "Club Pairs", "ended": False,
                       "settings": {"travellers": True, "ranking": "end"}, "travellers": [traveller("1")],
                       "scorecards": [card], "released": {"all": False, "boards": []}, "ranking": None}
    app, _ = make_app(table)
    with TestClient(app, base_url="http://testserver") as client:
        got = client.get("/api/results").json()
        table.published = {k: v for k, v in table.published.items() if k != "released"}  # a console that says none
        unsaid = client.get("/api/results").json()
    assert got["travellers"] == [] and unsaid["travellers"] == []
    [row] = got["scorecards"][0]["boards"]
    assert row["held"] is True and row["contract"] is None and row["score"] is None and row["opponents"] == "4"
    assert got["scorecards"][0]["standing"] is None  # no place while the ranking is not shown


def test_a_table_in_no_room_says_there_are_no_results_yet() -> None:
    app, table = make_app()
    board_1_passed_out_board_2_in_play(table)
    with TestClient(app, base_url="http://testserver") as client:
        got = client.get("/api/results").json()
        page = client.get("/results")
    assert got["available"] is False and got["travellers"] == [] and got["ranking"] is None
    assert page.status_code == 200 and "/static/results.js" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]


def test_a_message_that_is_not_results_shows_nothing() -> None:
    table = RoomTable()
    board_1_passed_out_board_2_in_play(table)
    table.published = {"kind": "results", "travellers": "board 1", "scorecards": [7], "ranking": "first"}
    app, _ = make_app(table)
    with TestClient(app, base_url="http://testserver") as client:
        got = client.get("/api/results").json()
    assert got["travellers"] == [] and got["scorecards"] == [] and got["ranking"] is None
