"""The Director's settings at the console (web_ui/console.py): what the players see of the results
(travellers on or off; the ranking at the end, live or never), the session's end, the round clock.
Nothing without the PIN's session and the CSRF token; a round clock needs the session."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.controller.test_room_clock import MITCHELL_3
from tests.web_ui.console_fake import PIN, FakeConsole, console_settings
from web_ui.console import create_console_app

DEFAULT = {"travellers": True, "ranking": "end"}
CHANGES: list[tuple[str, dict[str, Any]]] = [
    ("/api/settings/players", {"travellers": False, "ranking": "live"}),
    ("/api/session/end", {"ended": True, "confirm": True}),
    ("/api/clock/start", {"round": 2}),
    ("/api/clock/stop", {}),
]


def _client(fake: FakeConsole) -> Iterator[TestClient]:
    with TestClient(create_console_app(fake, console_settings()), base_url="http://testserver") as c:
        yield c


@pytest.fixture
def fake() -> FakeConsole:
    return FakeConsole(session=MITCHELL_3)


@pytest.fixture
def client(fake: FakeConsole) -> Iterator[TestClient]:
    yield from _client(fake)


def _login(c: TestClient) -> dict[str, str]:
    r = c.post("/api/login", json={"pin": PIN})
    assert r.status_code == 200, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


@pytest.mark.parametrize(("path", "body"), CHANGES)
def test_no_setting_changes_without_the_directors_session_and_csrf_token(client: TestClient, fake: FakeConsole,
                                                                         path: str, body: dict[str, Any]) -> None:
    assert client.get("/api/settings").status_code == 401
    assert client.post(path, json=body).status_code == 401
    _login(client)
    assert client.post(path, json=body).status_code == 403  # no CSRF token
    settings = fake.settings()
    assert settings["players"] == DEFAULT and settings["ended"] is False and settings["clock"]["running"] is False


def test_the_director_sets_what_the_players_see_and_ends_the_session(client: TestClient, fake: FakeConsole) -> None:
    csrf = _login(client)
    assert client.get("/api/settings").json()["players"] == DEFAULT
    r = client.post("/api/settings/players", json={"travellers": False, "ranking": "live"}, headers=csrf)
    assert r.status_code == 200 and r.json()["players"] == {"travellers": False, "ranking": "live"}
    assert fake.room.players.ranking == "live" and fake.room.players.travellers is False
    assert client.post("/api/settings/players", json={"travellers": True, "ranking": "soon"},
                       headers=csrf).status_code == 422
    r = client.post("/api/session/end", json={"ended": True}, headers=csrf)
    assert r.status_code == 409 and "confirm" in r.json()["detail"] and fake.room.ended is False  # not asked
    r = client.post("/api/session/end", json={"ended": True, "confirm": True}, headers=csrf)
    assert r.json()["ended"] is True and r.json()["over"] is False  # a minute to take it back first
    room = client.get("/api/room").json()
    assert room["ended"] is True and room["undo_left"] == 60.0
    assert client.post("/api/session/end", json={"ended": False}, headers=csrf).json()["ended"] is False
    client.post("/api/session/end", json={"ended": True, "confirm": True}, headers=csrf)
    fake.advance(61)
    room = client.get("/api/room").json()
    assert room["over"] is True and room["undo_left"] is None


def test_the_director_releases_a_board_to_the_players_before_every_table_has_played_it(
        client: TestClient, fake: FakeConsole) -> None:
    csrf = _login(client)
    assert client.get("/api/room").json()["released"] == {"all": False, "boards": []}
    assert client.post("/api/boards/release", json={"board": "5"}, headers=csrf).status_code == 200
    assert client.get("/api/room").json()["released"] == {"all": False, "boards": ["5"]}
    assert client.post("/api/boards/release", json={"board": "five"}, headers=csrf).status_code == 422
    assert client.post("/api/boards/release", json={"board": "5"}).status_code == 403  # no CSRF token


def test_the_director_calls_a_round_and_its_clock_runs_from_the_sessions_round_time(
        client: TestClient, fake: FakeConsole) -> None:
    csrf = _login(client)
    r = client.post("/api/clock/start", json={"round": 2}, headers=csrf)
    clock = r.json()["clock"]
    assert (clock["running"], clock["round"], clock["minutes"], clock["left"]) == (True, 2, 15.0, 900.0)
    fake.advance(16 * 60)
    assert client.get("/api/room").json()["clock"]["round"] == 3
    assert client.post("/api/clock/start", json={"round": 9}, headers=csrf).status_code == 409
    assert client.post("/api/clock/stop", json={}, headers=csrf).json()["clock"]["running"] is False


def test_without_the_session_there_is_no_round_clock() -> None:
    for c in _client(FakeConsole()):
        r = c.post("/api/clock/start", json={"round": 1}, headers=_login(c))
        assert r.status_code == 409 and "needs the Director's session" in r.json()["detail"]
        assert c.get("/api/settings").json()["clock"] is None
