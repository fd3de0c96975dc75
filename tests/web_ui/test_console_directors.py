"""A team of Directors at the console (web_ui/console.py, tablectl/room/directors.py): each signs in
under their own name and PIN, a call shows who is on the way, every ruling and desk entry who made
it, and a room Director on the head console sees, and acts at, their rooms' tables only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from drivers.config import hash_pin
from tablectl.room.directors import Director, Directors
from tablectl.room.serve import director_finder
from tests.web_ui.console_fake import CLUB, FakeConsole
from tests.web_ui.test_app import DEAL, LOG
from web_ui.console import ConsoleSettings, create_console_app

ORIGIN = {"Origin": "http://testserver"}
RULING = {"id": 1, "option": "forbid_suit", "suit": "S"}
PINS = {"Max": "9001", "Anna": "1111", "Bob": "2222", "Carl": "3333"}
TEAM = Directors(
    (Director("Max", hash_pin(PINS["Max"], iterations=1000), "head"),
     Director("Anna", hash_pin(PINS["Anna"], iterations=1000), "room", ("A",)),
     Director("Bob", hash_pin(PINS["Bob"], iterations=1000), "room", ("A",)),
     Director("Carl", hash_pin(PINS["Carl"], iterations=1000), "room", ("B",))),
    tables={"A": ("A1", "A2"), "B": ("B1", "B2")})
"""The head console's team: Max over every room, Anna and Bob in room A, Carl in room B."""


def team_settings(team: Directors = TEAM) -> ConsoleSettings:
    return ConsoleSettings(check_pin=lambda pin: False, club=CLUB, hosts=("testserver",),
                           find_director=director_finder(team))


@pytest.fixture
def fake() -> FakeConsole:
    fake = FakeConsole()
    fake.play("A1", *LOG)  # W leads out of turn at A1 and at B1: a call for the Director in each room
    fake.play("B1", *LOG)
    return fake


@pytest.fixture
def app(fake: FakeConsole) -> Iterator[Any]:
    yield create_console_app(fake, team_settings())


def signed_in(app: Any, name: str, pin: str | None = None, live: bool = False) -> tuple[TestClient, dict[str, str]]:
    """A device of Director ``name`` signed in (its client and CSRF header); ``live``: the one whose
    page follows the room on the WebSocket (the app's pushes run on its event loop)."""
    c = TestClient(app, base_url="http://testserver")
    if live:
        c.__enter__()
    r = c.post("/api/login", json={"name": name, "pin": pin or PINS[name]})
    assert r.status_code == 200, r.text
    return c, {"X-CSRF-Token": r.json()["csrf"]}


def test_each_director_signs_in_under_their_own_name_and_the_session_says_who(app: Any) -> None:
    c, _ = signed_in(app, " anna ", PINS["Anna"])  # the name as typed: letter case and spaces do not matter
    who = c.get("/api/session").json()
    assert (who["director"], who["role"], who["rooms"], who["team"]) == ("Anna", "room", ["A"], True)
    assert c.get("/api/sign-in").json() == {"team": True}


@pytest.mark.parametrize(("name", "pin"), [("Anna", "2222"), ("Zoe", "1111"), (None, "1111")])
def test_a_wrong_pin_or_a_name_not_in_the_team_is_one_answer_and_opens_no_session(app: Any, name: str | None,
                                                                                   pin: str) -> None:
    with TestClient(app, base_url="http://testserver") as c:
        r = c.post("/api/login", json={"pin": pin} if name is None else {"name": name, "pin": pin})
        assert r.status_code == 401 and r.json()["detail"].startswith("wrong name or PIN")
        assert c.get("/api/room").status_code == 401


def test_wrong_names_and_pins_count_against_the_device_as_wrong_pins_do(app: Any) -> None:
    with TestClient(app, base_url="http://testserver") as c:
        answers = [c.post("/api/login", json={"name": f"Guess{i}", "pin": "0000"}).status_code for i in range(6)]
        assert answers[:5] == [401] * 5 and answers[5] == 429
        assert c.post("/api/login", json={"name": "Anna", "pin": PINS["Anna"]}).status_code == 429


def test_the_club_nights_one_pin_still_signs_in_the_director_who_sees_everything(fake: FakeConsole) -> None:
    settings = ConsoleSettings(check_pin=lambda pin: pin == "4321", club=CLUB, hosts=("testserver",))
    with TestClient(create_console_app(fake, settings), base_url="http://testserver") as c:
        assert c.get("/api/sign-in").json() == {"team": False}
        r = c.post("/api/login", json={"pin": "4321"})
        assert r.json()["director"] == "Director" and r.json()["team"] is False
        assert {t["table"] for t in c.get("/api/room").json()["tiles"]} == {"A1", "B1"}


def test_a_room_director_on_the_head_console_sees_only_their_rooms_tables_calls_and_alerts(app: Any) -> None:
    anna, _ = signed_in(app, "Anna")
    room = anna.get("/api/room").json()
    assert [t["table"] for t in room["tiles"]] == ["A1"]
    assert {c["table"] for c in room["calls"]} == {"A1"}
    assert {a["table"] for a in room["alerts"]} == {"A1"}
    max_, _ = signed_in(app, "Max")
    assert {t["table"] for t in max_.get("/api/room").json()["tiles"]} == {"A1", "B1"}


@pytest.mark.parametrize(("method", "path", "body"), [
    ("get", "/api/tables/B1", None),
    ("post", "/api/tables/B1/open", {}),
    ("post", "/api/tables/B1/rulings", RULING),
    ("post", "/api/calls/mark", {"key": "B1/s-1/irr/1", "state": "acknowledged"}),
    ("post", "/api/desk/artificial", {"board": "1", "table": "B1", "ns": "A+", "ew": "A-", "reason": "slow play"}),
])
def test_a_room_director_cannot_see_or_act_at_another_rooms_table(app: Any, fake: FakeConsole, method: str,
                                                                 path: str, body: dict[str, Any] | None) -> None:
    anna, csrf = signed_in(app, "Anna")
    r = anna.get(path) if method == "get" else anna.post(path, json=body, headers=csrf)
    assert r.status_code == 403 and "not in the rooms you cover" in r.json()["detail"]
    assert fake.sent == [] and fake.opened_tables == [] and fake.room.results.desk.entries == ()
    assert [c.state for c in fake.open_calls("B1")] == ["called"]


def test_on_my_way_makes_the_call_the_directors_and_every_other_director_sees_who(app: Any) -> None:
    anna, anna_csrf = signed_in(app, "Anna")
    bob, bob_csrf = signed_in(app, "Bob")
    key = "A1/s-1/irr/1"
    r = anna.post("/api/calls/mark", json={"key": key, "state": "acknowledged"}, headers=anna_csrf)
    assert r.json() == {"key": key, "state": "acknowledged", "by": "Anna"}
    [seen] = bob.get("/api/room").json()["calls"]
    assert (seen["state"], seen["by"]) == ("acknowledged", "Anna")
    # Bob taps "On my way" too late: Anna is going, and nothing changes
    r = bob.post("/api/calls/mark", json={"key": key, "state": "acknowledged"}, headers=bob_csrf)
    assert r.status_code == 409 and r.json()["detail"] == "Anna is on the way to table A1 already"
    # Anna is held up: Bob goes instead
    r = bob.post("/api/calls/mark", json={"key": key, "state": "acknowledged", "take_over": True}, headers=bob_csrf)
    assert r.json()["by"] == "Bob"
    assert anna.get("/api/room").json()["calls"][0]["by"] == "Bob"


def _calls_in(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The calls a push carries: all of them (the room, or a push that does not follow), or those that changed."""
    return list(message.get("calls", [])) + list(message.get("calls_changed", []))


def test_every_other_directors_page_is_pushed_who_is_on_the_way(app: Any) -> None:
    anna, anna_csrf = signed_in(app, "Anna")
    max_, _ = signed_in(app, "Max", live=True)
    with max_.websocket_connect("/ws", headers=ORIGIN) as ws:
        assert ws.receive_json()["kind"] == "room"
        anna.post("/api/calls/mark", json={"key": "A1/s-1/irr/1", "state": "acknowledged"}, headers=anna_csrf)
        message = ws.receive_json()
        for _ in range(20):  # the alarms, the room or its changes, until the call shows who took it
            if message["kind"] != "alarm" and any(c["by"] for c in _calls_in(message)):
                break
            message = ws.receive_json()
        assert [(c["table"], c["by"]) for c in _calls_in(message) if c["by"]] == [("A1", "Anna")]


def test_a_room_directors_page_gets_no_other_rooms_tiles_calls_or_alarms(app: Any, fake: FakeConsole) -> None:
    carl, _ = signed_in(app, "Carl", live=True)
    with carl.websocket_connect("/ws", headers=ORIGIN) as ws:
        first = ws.receive_json()
        assert [t["table"] for t in first["tiles"]] == ["B1"]
        fake.play("A2", *LOG)  # a new call in room A: Carl's page hears nothing of it ...
        fake.play("B2", *LOG)  # ... and of room B's, the alarm and the tile
        seen: list[dict[str, Any]] = []
        for _ in range(20):  # until both of room B's news came: its alarm, and its tile pushed
            if any(m["kind"] == "alarm" and m["table"] == "B2" for m in seen) and \
                    any(m["kind"] != "alarm" and any(t["table"] == "B2" for t in m["tiles"]) for m in seen):
                break
            seen.append(ws.receive_json())
    pushes = [m for m in seen if m["kind"] != "alarm"]  # the room, or its changes
    assert not any(m["table"] == "A2" for m in seen if m["kind"] == "alarm")
    assert not any(t["table"].startswith("A") for m in pushes for t in m["tiles"])
    assert not any(c["table"].startswith("A") for m in pushes for c in _calls_in(m) + m.get("calls_gone", []))


def test_a_ruling_is_sent_with_the_directors_name(app: Any, fake: FakeConsole) -> None:
    anna, csrf = signed_in(app, "Anna")
    r = anna.post("/api/tables/A1/rulings", json=RULING, headers=csrf)
    assert r.status_code == 200 and r.json()["by"] == "Anna"
    assert [(s.table, s.kind, s.by) for s in fake.sent] == [("A1", "ruling", "Anna")]


def test_a_desk_entry_is_the_signed_in_directors_whatever_the_body_says(app: Any, fake: FakeConsole) -> None:
    fake._receive("result", "A1", fake._envelope("A1", {"number": 1, "deal": DEAL, "contract": "3NT", "declarer": "N",
                                                       "tricks": 9, "result": "=", "score_ns": 400,
                                                       "status": "played"}))
    anna, csrf = signed_in(app, "Anna")
    r = anna.post("/api/desk/artificial", json={"board": "1", "table": "A1", "ns": "A+", "ew": "A-",
                                                "reason": "slow play", "by": "Max"}, headers=csrf)
    assert r.status_code == 200, r.text
    assert r.json()["by"] == "Anna"
