"""The movement as played and a kept session reopened, at the real console over real SQLite files
(web_ui.desk_moves, tablectl.room.console_moves, tablectl.room.console_reopen): a change is kept
with who, when and why before it counts, a restarted console puts every result to the pairs who
played it, a change is taken back; the Director reopens last week's session (or the one he closed
by mistake) as the live one, corrects it (Law 79C) and reads it back; a bad request changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.records.people import Player
from tablectl.room.console import Console
from tablectl.room.console_reopen import ReopenError, reopen_session
from tests.web_ui.console_fake import console_settings
from tests.web_ui.test_console_desk import ADDRESS, _played
from tests.web_ui.test_console_people import _login
from tests.web_ui.test_console_results import SESSION
from web_ui.console import create_console_app


@pytest.fixture
def console(tmp_path: Path) -> Iterator[Console]:
    made = Console(ADDRESS, tmp_path / "console", session=SESSION)
    _played(made)  # board 1, round 1 at table 1: pair 1 v pair 6
    try:
        yield made
    finally:
        made.store.close()


def _client(console: Console) -> TestClient:
    return TestClient(create_console_app(console, console_settings()), base_url="http://testserver")


def _board1_table1(console: Console) -> dict[str, str]:
    row = next(r for t in console.room.results.travellers() if t["board"] == "1" for r in t["results"]
               if r["table"] == "1")
    return dict(row["pairs"])


def test_two_pairs_swapped_are_kept_with_who_when_why_and_a_restarted_console_scores_them_as_played(
        console: Console, tmp_path: Path) -> None:
    assert _board1_table1(console) == {"NS": "1", "EW": "6"}
    swap = {"a": "6", "b": "7", "from_round": 1, "to_round": 1, "by": "Ann", "reason": "pair 7 sat at table 1"}
    with _client(console) as c:
        assert c.post("/api/desk/moves/swap", json=swap).status_code == 401
        csrf = _login(c)
        assert c.post("/api/desk/moves/swap", json=swap).status_code == 403  # no CSRF token
        r = c.post("/api/desk/moves/swap", json=swap, headers=csrf)
        assert r.status_code == 200, r.text
        assert r.json()["what"] == "pairs 6 and 7 swapped places in round 1" and r.json()["by"] == "Ann"
        assert _board1_table1(console) == {"NS": "1", "EW": "7"}
        r = c.post("/api/desk/moves/swap", json={**swap, "b": "99"}, headers=csrf)
        assert r.status_code == 409 and r.json()["detail"] == "the movement has no pair 99"
        assert c.post("/api/desk/moves/swap", json={**swap, "from_round": 0}, headers=csrf).status_code == 422
        moves = c.get("/api/desk/moves").json()
        assert [e["id"] for e in moves["entries"]] == [1]
        assert {"round": 1, "table": 1, "ns": "1", "ew": "7"}.items() <= moves["sittings"][0].items()
    again = Console(ADDRESS, tmp_path / "console", session=SESSION)  # restarted: the change stands
    try:
        assert _board1_table1(again) == {"NS": "1", "EW": "7"}
        again.people.name_pair(None, "7", Player("Ann Smith"), Player("Bob Jones"))
        with _client(again) as c:
            csrf = _login(c)
            r = c.post("/api/desk/moves/undo", json={"entry": 1, "by": "Ann", "reason": "it was pair 6"},
                       headers=csrf)
            assert r.status_code == 200 and r.json()["what"] == "change 1 taken back"
            assert _board1_table1(again) == {"NS": "1", "EW": "6"}
            assert c.post("/api/desk/moves/undo", json={"entry": 1, "reason": "again"},
                          headers=csrf).status_code == 409
    finally:
        again.store.close()


def test_a_table_added_needs_new_pair_numbers_and_its_pairs_can_be_named(console: Console) -> None:
    add = {"table": 6, "ns": "11", "ew": "12", "shares": 1, "from_round": 2, "reason": "two latecomers"}
    with _client(console) as c:
        csrf = _login(c)
        r = c.post("/api/desk/moves/add-table", json={**add, "ns": "3"}, headers=csrf)
        assert r.status_code == 409 and "pair 3 already plays" in r.json()["detail"]
        assert c.get("/api/desk/moves").json()["entries"] == []
        r = c.post("/api/desk/moves/add-table", json=add, headers=csrf)
        assert r.status_code == 200, r.text
        r = c.post("/api/desk/pairs", json={"pair": "11", "first": {"name": "Cy"}, "second": {"name": "Di"}},
                   headers=csrf)
        assert r.status_code == 200, r.text
        r = c.post("/api/desk/moves/remove-table", json={"table": 6, "from_round": 4, "reason": "they left"},
                   headers=csrf)
        assert r.status_code == 200 and r.json()["what"] == "table 6 removed from round 4 on"


def test_a_kept_session_is_reopened_as_the_live_one_corrected_and_read_back_law_79c(console: Console) -> None:
    console.people.name_pair(None, "1", Player("Ann Smith", "123456"), Player("Bob Jones", "234567"))
    console.end_session()
    console.new_session()  # by mistake
    kept = console.archives()[0]["name"]
    assert console.room.results.travellers() == []
    with _client(console) as c:
        csrf = _login(c)
        r = c.post("/api/desk/sessions/reopen", json={"name": "console-20200101-000000"}, headers=csrf)
        assert r.status_code == 409 and r.json()["detail"] == "there is no kept session 'console-20200101-000000'"
        r = c.post("/api/desk/sessions/reopen", json={"name": kept}, headers=csrf)
        assert r.status_code == 200, r.text
        assert r.json() == {"reopened": kept, "kept": None}  # the session started by mistake held nothing
        assert console.archives() == []
        assert _board1_table1(console) == {"NS": "1", "EW": "6"}
        assert console.room.ended is False and console.people.names()["|1"][0]["names"] == ["Ann Smith", "Bob Jones"]
        fix = {"board": "1", "table": "3", "contract": "3NT", "declarer": "N", "tricks": 9,
               "reason": "the table entered one trick too few"}
        assert c.post("/api/desk/corrections", json=fix, headers=csrf).status_code == 200
        scores = [r["score_ns"] for t in console.room.results.travellers() for r in t["results"]]
        assert scores == [400, 400, 400]
        console.new_session()  # kept again, with the correction
        again = c.get("/api/archive/" + console.archives()[0]["name"]).json()
        assert [r["score_ns"] for t in again["travellers"] for r in t["results"]] == [400, 400, 400]


def test_a_session_reopened_the_next_day_is_kept_live_over_a_restart_and_not_taken_for_last_weeks(
        tmp_path: Path) -> None:
    import time

    first = Console(ADDRESS, tmp_path / "console", session=SESSION)
    _played(first)  # received now
    first.new_session()
    kept = first.archives()[0]["name"]
    first.store.close()
    now = time.time()

    def at(hours: float) -> Console:
        return Console(ADDRESS, tmp_path / "console", session=SESSION, wall=lambda: now + hours * 3600)

    day_after = at(20)
    try:
        assert reopen_session(day_after, kept) == {"reopened": kept, "kept": None}
        assert _board1_table1(day_after) == {"NS": "1", "EW": "6"}
    finally:
        day_after.store.close()
    restarted = at(21)  # its results are 21 hours old, but it was reopened an hour ago: still live
    try:
        assert _board1_table1(restarted) == {"NS": "1", "EW": "6"} and restarted.archives() == []
    finally:
        restarted.store.close()
    next_week = at(24 * 7)  # a week later the console starts a new session, the reopened one kept again
    try:
        assert next_week.room.results.travellers() == [] and len(next_week.archives()) == 1
    finally:
        next_week.store.close()


def test_a_kept_session_of_another_session_file_is_not_reopened_and_nothing_changes(console: Console,
                                                                                    tmp_path: Path) -> None:
    from controller.fieldscore import loads_session

    console.new_session()
    kept = console.archives()[0]["name"]
    console.store.close()
    other = Console(ADDRESS, tmp_path / "console", session=loads_session(
        '[session]\nname = "Thursday"\nmovement = "howell"\ntables = 3\nboards_per_round = 2\n'))
    try:
        before = other.archives()
        with pytest.raises(ReopenError, match="played with another session file"):
            reopen_session(other, kept)
        assert other.archives() == before and other.room.results.travellers() == []
        assert kept in [k["name"] for k in before]
    finally:
        other.store.close()
