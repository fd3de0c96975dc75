"""Who plays, at the console (web_ui/console_desk.py over the real console and its SQLite files):
the club's roster imported from a CSV file (all of it, or nothing with every bad line named),
pairs named by the Director, a substitute from a given round on; the names on the room's
pages, kept across a restart, the seating gone with its session and the roster kept; an old
console file without the seating's table still opens."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.records.people import PairPlayers, Player
from tablectl.room.console import Console
from tests.controller.test_room_results import DEAL
from tests.web_ui.console_fake import PIN, console_settings
from tests.web_ui.test_console_desk import ADDRESS, _played
from tests.web_ui.test_console_results import SESSION
from web_ui.console import create_console_app

ROSTER = "Name,EBU number,Email\nAnn Smith,123456,ann@example.org\nBob Jones,234567,\nCarl Wu,345678,\n"


@pytest.fixture
def console(tmp_path: Path) -> Iterator[Console]:
    made = Console(ADDRESS, tmp_path / "console", session=SESSION)
    _played(made)
    try:
        yield made
    finally:
        made.store.close()


def _client(console: Console) -> TestClient:
    return TestClient(create_console_app(console, console_settings()), base_url="http://testserver")


def _login(c: TestClient) -> dict[str, str]:
    r = c.post("/api/login", json={"pin": PIN})
    assert r.status_code == 200, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


def test_the_roster_is_imported_whole_or_not_at_all_and_kept_beside_the_console(console: Console,
                                                                                tmp_path: Path) -> None:
    with _client(console) as c:
        assert c.post("/api/desk/roster/import", json={"csv": ROSTER}).status_code == 401
        csrf = _login(c)
        assert c.post("/api/desk/roster/import", json={"csv": ROSTER}).status_code == 403  # no CSRF token
        r = c.post("/api/desk/roster/import", json={"csv": ROSTER}, headers=csrf)
        assert r.status_code == 200 and r.json() == {"added": 3, "updated": 0, "members": 3}
        bad = "Dee Patel,456789\n,111\nEve Adams,12 34\n"
        r = c.post("/api/desk/roster/import", json={"csv": bad}, headers=csrf)
        assert r.status_code == 422
        assert r.json()["detail"] == ("nothing imported, 2 line(s) to fix: line 2: the name is empty; line 3: the "
                                      "federation number '12 34' is not a number the federations give (letters, "
                                      "digits, '.', '/' or '-', at most 20)")
        members = c.get("/api/desk/roster").json()["members"]
        assert [m["name"] for m in members] == ["Ann Smith", "Bob Jones", "Carl Wu"]  # Dee was not imported
    with sqlite3.connect(tmp_path / "console" / "roster.sqlite") as db:
        assert db.execute("SELECT name, federation_id, email FROM member ORDER BY name").fetchall()[0] == (
            "Ann Smith", "123456", "ann@example.org")


def test_pairs_named_and_a_substitute_from_round_three_show_on_the_room_and_answer_the_roll(
        console: Console, tmp_path: Path) -> None:
    with _client(console) as c:
        csrf = _login(c)
        r = c.post("/api/desk/pairs", headers=csrf, json={
            "pair": "1", "first": {"name": "Ann Smith", "federation_id": "123456"},
            "second": {"name": "Bob Jones", "federation_id": "234567"}})
        assert r.status_code == 200, r.text
        r = c.post("/api/desk/substitutes", headers=csrf, json={
            "pair": "1", "from_round": 3, "seat": "second", "player": {"name": "Visitor Vic"}})
        assert r.status_code == 200, r.text
        names = c.get("/api/room").json()["names"]
        assert names == {"|1": [{"from": 1, "names": ["Ann Smith", "Bob Jones"], "ids": ["123456", "234567"]},
                                {"from": 3, "names": ["Ann Smith", "Visitor Vic"], "ids": ["123456", ""]}]}
        pairs = c.get("/api/desk/pairs").json()
        assert pairs["rounds"] == SESSION.rounds and {"section": "", "pair": "10"} in pairs["expected"]
        # the movement has no pair 11, nor a round 9; a substitute needs the pair named first
        for path, body, why in (
                ("/api/desk/pairs", {"pair": "11", "first": {"name": "A"}, "second": {"name": "B"}},
                 "the session has no pair 11"),
                ("/api/desk/substitutes", {"pair": "1", "from_round": 9, "seat": "first", "player": {"name": "C"}},
                 "round 9 is not a round of the session (1-5)"),
                ("/api/desk/substitutes", {"pair": "2", "from_round": 2, "seat": "first", "player": {"name": "C"}},
                 "pair 2 has no players named yet")):
            r = c.post(path, headers=csrf, json=body)
            assert r.status_code == 422 and why in r.json()["detail"], r.text
    ann, bob, vic = Player("Ann Smith", "123456"), Player("Bob Jones", "234567"), Player("Visitor Vic")
    assert console.people.players(None, "1", 2) == PairPlayers(ann, bob)
    assert console.people.players(None, "1", 3) == PairPlayers(ann, vic)
    console.store.close()
    again = Console(ADDRESS, tmp_path / "console", session=SESSION)  # a restarted console: the names stand
    try:
        assert again.people.players(None, "1", 1) == PairPlayers(ann, bob)
        assert again.people.players("", "1", 4) == PairPlayers(ann, vic)
    finally:
        again.store.close()


def test_a_new_session_starts_with_no_pair_named_and_the_roster_kept(console: Console) -> None:
    console.people.import_roster(ROSTER)
    console.people.name_pair(None, "1", Player("Ann Smith", "123456"), Player("Bob Jones", "234567"))
    console.new_session()
    assert console.people.players(None, "1", 1) is None
    assert len(console.people.roster.members) == 3
    assert console.snapshot()["names"] == {}


def test_a_console_file_kept_before_the_seating_existed_still_opens(tmp_path: Path) -> None:
    folder = tmp_path / "console"
    folder.mkdir()
    with sqlite3.connect(folder / "console.sqlite") as db:  # an older console's file: no seat table
        db.executescript("CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                         "CREATE TABLE desk_entry (id INTEGER PRIMARY KEY, payload TEXT NOT NULL);")
    made = Console(ADDRESS, folder, session=SESSION)
    try:
        made.people.name_pair(None, "2", Player("Carl Wu"), Player("Dee Patel"))
        assert made.snapshot()["names"]["|2"][0]["names"] == ["Carl Wu", "Dee Patel"]
    finally:
        made.store.close()


def test_a_late_pair_is_given_average_minus_its_opponents_average_plus_every_entry_kept_law_12c2(
        console: Console, tmp_path: Path) -> None:
    with _client(console) as c:
        csrf = _login(c)
        body = {"pair": "7", "from_round": 1, "to_round": 1, "by": "Ann", "reason": "pair 7 came late"}
        assert c.post("/api/desk/absent", json=body).status_code == 403  # no CSRF token
        r = c.post("/api/desk/absent", headers=csrf, json=body)
        assert r.status_code == 200, r.text
        # round 1: pair 7 (East-West) meets pair 2 at table 2 on boards 4-6, not played there
        made = [(e["board"], e["table"], e["what"]) for e in r.json()["entries"]]
        words = "artificial adjusted score average plus to North-South, average minus to East-West"
        assert made == [(str(b), "2", words) for b in (4, 5, 6)]
        for bad, why in (({**body, "pair": "11"}, "the movement has no pair 11"),
                         ({**body, "from_round": 3, "to_round": 2}, "the last round comes before the first")):
            r = c.post("/api/desk/absent", headers=csrf, json=bad)
            assert r.status_code in (409, 422) and why in r.json()["detail"], r.text
        assert len(console.desk()["entries"]) == 3
    console.store.close()
    again = Console(ADDRESS, tmp_path / "console", session=SESSION)
    try:
        assert [e["reason"] for e in again.desk()["entries"]] == ["pair 7 came late"] * 3
    finally:
        again.store.close()


def _played_again(console: Console) -> None:
    """Board 1 at tables 1 to 3 in another club night (the tables' new sessions)."""
    items = []
    for table, score in (("1", -50), ("2", 400), ("3", 400)):
        head = {"v": 1, "club": "club", "table": table, "session": f"thursday{table}", "at": 2000.0}
        result = {**head, "seq": 1, "prev": 0, "number": 1, "deal": DEAL, "contract": "3NT", "declarer": "N",
                  "tricks": 9 if score > 0 else 8, "result": "=" if score > 0 else "-1", "score_ns": score,
                  "status": "played"}
        items.append((f"bridge/club/table/{table}/result/1", json.dumps(result).encode(), time.time(), True))
    console._take(items)


def test_an_event_of_two_sessions_carries_each_partnership_over_whatever_its_pair_number(console: Console) -> None:
    ann, bob = Player("Ann Smith", "123456"), Player("Bob Jones", "234567")
    console.people.name_pair(None, "1", ann, bob)  # Monday: pair 1 (3NT= at table 1)
    console.new_session()
    monday = console.archives()[0]["name"]
    _played_again(console)
    console.people.name_pair(None, "2", bob, ann)  # Thursday: pair 2, the other way round
    with _client(console) as c:
        _login(c)
        r = c.get("/api/desk/event", params={"session": [monday], "now": "true"})
        assert r.status_code == 200, r.text
        event = r.json()
        assert event["sessions"] == [monday, "now"]
        both = next(x for x in event["ranking"] if x["players"] == ["Ann Smith", "Bob Jones"])
        assert both["played"] == 2 and {k: v["pair"] for k, v in both["sessions"].items()} == {monday: "1", "now": "2"}
        assert c.get("/api/archive/" + monday).json()["names"]["|1"][0]["names"] == ["Ann Smith", "Bob Jones"]
        assert c.get("/api/desk/event", params={"session": ["console-20200101-000000"]}).status_code == 404
        assert c.get("/api/desk/event", params={"now": "false"}).status_code == 422
