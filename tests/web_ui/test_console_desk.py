"""The Director's scoring desk at the console (web_ui/console_desk.py over the real console and its
SQLite store): corrections (Law 79C), artificial (Law 12C2) and assigned (Law 12C1) adjusted
scores, procedural penalties (Law 90) and undo, behind the PIN's session and the CSRF token;
bad input refused with its reason and nothing changed; every entry still there after a restart."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.fieldscore import score_event
from controller.records import scoretable, usebio
from tablectl.room.address import ClubAddress
from tablectl.room.console import Console
from tests.controller.test_room_results import DEAL, Tables
from tests.web_ui.console_fake import PIN, FakeConsole, console_settings
from tests.web_ui.test_console_results import SESSION
from web_ui.console import create_console_app

ADDRESS = ClubAddress("mqtt", "127.0.0.1", 1883, "club")
CHANGES: list[tuple[str, dict[str, Any]]] = [
    ("/api/desk/corrections", {"board": "1", "table": "2", "contract": "4S", "declarer": "N", "tricks": 11,
                               "reason": "wrong contract entered"}),
    ("/api/desk/artificial", {"board": "1", "table": "2", "ns": "A+", "ew": "A-", "reason": "fouled"}),
    ("/api/desk/assigned", {"board": "1", "table": "2", "reason": "misinformation",
                            "results": [{"contract": "4S", "declarer": "N", "tricks": 10, "weight": 30},
                                        {"contract": "4S", "declarer": "N", "tricks": 9, "weight": 70}]}),
    ("/api/desk/penalties", {"board": "1", "table": "2", "side": "NS", "amount": 0.25, "reason": "slow play"}),
    ("/api/desk/undo", {"entry": 1, "reason": "mistake"}),
]


def _played(console: Console) -> None:
    """Board 1 at tables 1 to 3 (3NT= by N, 400, or 3NT-1, -50), as the console takes the tables'
    messages from the broker (so that its store keeps them)."""
    items = []
    for table, score in (("1", 400), ("2", 400), ("3", -50)):
        head = {"v": 1, "club": "club", "table": table, "session": f"s{table}", "at": 1000.0}
        state = {**head, "seq": 0, "online": True, "board": 1, "phase": "auction", "boards_played": 0,
                 "view": {"board": {"number": 1, "deal": DEAL}}}
        result = {**head, "seq": 1, "prev": 0, "number": 1, "deal": DEAL, "contract": "3NT", "declarer": "N",
                  "tricks": 9 if score > 0 else 8, "result": "=" if score > 0 else "-1", "score_ns": score,
                  "status": "played"}
        now = time.time()  # received now: a console restarted later keeps this session (not last night's)
        items += [(f"bridge/club/table/{table}/state", json.dumps(state).encode(), now, True),
                  (f"bridge/club/table/{table}/result/1", json.dumps(result).encode(), now, True)]
    console._take(items)


@pytest.fixture
def console(tmp_path: Path) -> Iterator[Console]:
    made = Console(ADDRESS, tmp_path / "console", session=SESSION)
    _played(made)
    try:
        yield made
    finally:
        made.store.close()


def _client(console: object) -> TestClient:
    return TestClient(create_console_app(console, console_settings()),  # type: ignore[arg-type]
                      base_url="http://testserver")


@pytest.fixture
def client(console: Console) -> Iterator[TestClient]:
    with _client(console) as c:
        yield c


def _login(c: TestClient) -> dict[str, str]:
    r = c.post("/api/login", json={"pin": PIN})
    assert r.status_code == 200, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


def _points(c: TestClient) -> dict[str, Any]:
    return {t: row["points_ns"] for t, row in c.get("/api/room").json()["scores"]["boards"]["1"].items()}


@pytest.mark.parametrize(("path", "body"), CHANGES)
def test_no_desk_entry_without_the_directors_session_and_csrf_token(client: TestClient, console: Console,
                                                                    path: str, body: dict[str, Any]) -> None:
    assert client.get("/api/desk").status_code == 401
    assert client.post(path, json=body).status_code == 401
    _login(client)
    assert client.post(path, json=body).status_code == 403  # no CSRF token
    assert client.post(path, json=body, headers={**_login(client), "Origin": "http://evil.example"}).status_code == 403
    assert console.desk() == {"entries": []}


def test_the_director_corrects_a_result_and_the_scores_and_ranking_follow_law_79c(client: TestClient,
                                                                                  console: Console) -> None:
    csrf = _login(client)
    before = _points(client)
    r = client.post("/api/desk/corrections", headers=csrf, json={
        "board": "1", "table": "2", "contract": "4S", "declarer": "N", "tricks": 11, "lead": "HK",
        "by": "Ann", "reason": "the table entered 3NT"})
    assert r.status_code == 200, r.text
    assert r.json()["id"] == 1 and r.json()["law"] == "79C" and r.json()["by"] == "Ann"
    after = _points(client)
    assert after["2"] > before["2"] and after["1"] < before["1"]
    row = next(x for x in client.get("/api/room").json()["travellers"][0]["results"] if x["table"] == "2")
    assert (row["contract"], row["result"], row["score_ns"], row["original"]["score_ns"]) == ("4S", "+1", 450, 400)
    ranking = client.get("/api/ranking").json()["ranking"]
    pair = client.get("/api/room").json()["scores"]["boards"]["1"]["2"]["ns"]
    assert ranking[0]["pair"] == pair


def test_split_score_a_plus_a_minus_penalty_and_undo_each_kept_with_who_when_why(client: TestClient,
                                                                                 console: Console) -> None:
    csrf = _login(client)
    for path, body in CHANGES[1:]:
        r = client.post(path, headers=csrf, json=body)
        assert r.status_code == 200, (path, r.text)
    entries = client.get("/api/desk").json()["entries"]
    assert [(e["id"], e["kind"], e["law"], e["undone"]) for e in entries] == [
        (1, "artificial", "12C2", True), (2, "assigned", "12C1", False), (3, "penalty", "90", False),
        (4, "undo", None, False)]
    assert all(e["by"] == "Director" and e["reason"] and e["at"] > 0 for e in entries)
    # the split score stands (the artificial one taken back), on the session's ACBL scale (1 a score
    # beaten, top 2): 0.3 x beats both 400s (2) + 0.7 x ties -50 (0.5); then a quarter of the top off
    assert _points(client)["2"] == pytest.approx(0.3 * 2 + 0.7 * 0.5 - 0.5)


@pytest.mark.parametrize(("path", "body", "status", "words"), [
    ("/api/desk/corrections", {"board": "1", "table": "2", "contract": "4S", "declarer": "N", "tricks": 14,
                               "reason": "x"}, 422, "tricks"),
    ("/api/desk/corrections", {"board": "1", "table": "2", "contract": "9S", "declarer": "N", "tricks": 9,
                               "reason": "x"}, 409, "invalid contract"),
    ("/api/desk/corrections", {"board": "1", "table": "2", "contract": "4S", "tricks": 9, "reason": "x"}, 409,
     "who declared"),
    ("/api/desk/corrections", {"board": "2", "table": "2", "contract": "4S", "declarer": "N", "tricks": 9,
                               "reason": "x"}, 409, "no result on board 2"),
    ("/api/desk/artificial", {"board": "1", "table": "2", "ns": "A++", "ew": "A", "reason": "x"}, 422, "ns"),
    ("/api/desk/artificial", {"board": "1", "table": "2", "ns": "A", "ew": "A", "reason": ""}, 422, "reason"),
    ("/api/desk/assigned", {"board": "1", "table": "2", "reason": "x", "results": [
        {"contract": "4S", "declarer": "N", "tricks": 10, "weight": 30},
        {"contract": "4S", "declarer": "N", "tricks": 9, "weight": 60}]}, 409, "add up to 100"),
    ("/api/desk/penalties", {"board": "1", "table": "2", "side": "N", "amount": 0.25, "reason": "x"}, 422, "side"),
    ("/api/desk/penalties", {"board": "1", "table": "2", "side": "NS", "amount": 0.25, "reason": "x",
                             "extra": 1}, 422, "extra"),
    ("/api/desk/undo", {"entry": 5, "reason": "x"}, 409, "no entry 5"),
    ("/api/desk/artificial", {"board": "1", "table": "../x", "ns": "A", "ew": "A", "reason": "x"}, 422, "table"),
])
def test_bad_input_is_refused_with_its_reason_and_nothing_changes(client: TestClient, console: Console, path: str,
                                                                  body: dict[str, Any], status: int,
                                                                  words: str) -> None:
    csrf = _login(client)
    before = client.get("/api/room").json()["scores"]
    r = client.post(path, headers=csrf, json=body)
    assert r.status_code == status, r.text
    assert words in r.text
    assert client.get("/api/room").json()["scores"] == before
    assert console.desk() == {"entries": []}


def test_every_entry_is_in_the_consoles_store_and_stands_after_a_restart(tmp_path: Path) -> None:
    console = Console(ADDRESS, tmp_path / "console", session=SESSION)
    _played(console)
    with _client(console) as c:
        csrf = _login(c)
        for path, body in CHANGES:
            assert c.post(path, headers=csrf, json=body).status_code == 200
        scores, desk = c.get("/api/room").json()["scores"], console.desk()
    console.store.close()
    again = Console(ADDRESS, tmp_path / "console", session=SESSION)
    try:
        assert again.desk() == desk
        assert again.room.results.scores() == scores
    finally:
        again.store.close()


def test_a_console_that_offers_only_its_room_has_a_desk_too() -> None:
    fake = FakeConsole(session=SESSION)
    _played_fake = Tables(fake.room)
    for table, score in (("1", 400), ("2", -50)):
        _played_fake.start(table, 1, 0)
        _played_fake.result(table, 1, score)
    with _client(fake) as c:
        r = c.post("/api/desk/artificial", headers=_login(c),
                   json={"board": "1", "table": "2", "ns": "A", "ew": "A", "reason": "x"})
        assert r.status_code == 200, r.text
        assert c.get("/api/desk").json()["entries"][0]["kind"] == "artificial"


def test_an_entry_the_store_cannot_keep_is_refused_and_the_scores_stay(client: TestClient, console: Console) -> None:
    with sqlite3.connect(console.store.path) as conn:  # the row the next entry would take is already there
        conn.execute("INSERT INTO desk_entry VALUES (1, '{}')")
    csrf = _login(client)
    before = client.get("/api/room").json()["scores"]
    r = client.post("/api/desk/artificial", headers=csrf,
                    json={"board": "1", "table": "2", "ns": "A", "ew": "A", "reason": "x"})
    assert r.status_code == 409 and "could not be kept" in r.json()["detail"]
    assert client.get("/api/room").json()["scores"] == before and console.desk() == {"entries": []}


def test_the_exports_follow_a_correction_and_an_artificial_score_read_back_as_the_console_ranks(
        client: TestClient, console: Console) -> None:
    csrf = _login(client)
    for path, body in CHANGES[:2]:  # table 2 corrected, then A+/A- there
        assert client.post(path, headers=csrf, json={**body, "table": "3" if "ns" in body else "2"}).status_code == 200
    ours = [(r["pair"], r["rank"], r["percent"]) for r in client.get("/api/ranking").json()["ranking"]]
    pbn = client.get("/api/results.pbn").text
    assert "^A+/A-" in pbn and " 450 " in pbn  # the corrected 4S+1 by N, not the table's 400
    for event in (scoretable.loads(pbn).events[0], usebio.loads(client.get("/api/results.usebio").content).events[0]):
        got = [(st.pair, st.rank, None if st.percent is None else round(st.percent, 2))
               for st in score_event(event).standings]
        assert got == ours
