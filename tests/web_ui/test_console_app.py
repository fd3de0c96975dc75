"""The Director's console contract (web_ui/console.py) over a fake console: nothing without the
PIN's session, nothing changed without the CSRF token, commands reach the table exactly as
given, and the table's answer (accepted, refused and why, silent) is the HTTP status."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web_ui.console_fake import PIN, FakeConsole, Sent, console_settings
from tests.web_ui.test_app import LOG
from web_ui.console import create_console_app

Console = tuple[TestClient, FakeConsole]
ORIGIN = {"Origin": "http://testserver"}
RULING = {"id": 1, "option": "forbid_suit", "suit": "S"}


@pytest.fixture
def console() -> Iterator[Console]:
    fake = FakeConsole()
    fake.play("3", *LOG)  # W leads out of turn at table 3: a call for the Director
    with TestClient(create_console_app(fake, console_settings()), base_url="http://testserver") as c:
        yield c, fake


def _login(c: TestClient) -> dict[str, str]:
    r = c.post("/api/login", json={"pin": PIN})
    assert r.status_code == 200, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


CHANGES: list[tuple[str, dict[str, Any]]] = [
    ("/api/tables/3/open", {}),
    ("/api/tables/3/rulings", RULING),
    ("/api/tables/3/actions", {"seat": "W", "play": "S2", "deemed": True}),
    ("/api/calls/mark", {"key": "3/s-1/irr/1", "state": "acknowledged"}),
    ("/api/logout", {}),
]


@pytest.mark.parametrize("path", ["/api/room", "/api/session", "/api/tables/3"])
def test_every_read_needs_a_director_session(console: Console, path: str) -> None:
    c, _ = console
    r = c.get(path)
    assert r.status_code == 401 and "log in with the PIN" in r.json()["detail"]


@pytest.mark.parametrize(("path", "body"), CHANGES)
def test_every_change_needs_a_director_session_and_changes_nothing(console: Console,
                                                                    path: str, body: dict[str, Any]) -> None:
    c, fake = console
    assert c.post(path, json=body).status_code == 401
    assert fake.sent == [] and fake.opened_tables == []
    assert [call.state for call in fake.open_calls()] == ["called"]


def test_the_websocket_is_refused_without_a_session_or_from_another_origin(console: Console) -> None:
    c, _ = console
    with pytest.raises(WebSocketDisconnect) as refused, c.websocket_connect("/ws", headers=ORIGIN) as ws:
        ws.receive_json()
    assert refused.value.code == 1008
    _login(c)
    foreign = {"Origin": "http://evil.example"}
    with pytest.raises(WebSocketDisconnect), c.websocket_connect("/ws", headers=foreign) as ws:
        ws.receive_json()


def test_a_wrong_pin_is_refused_with_401_and_opens_no_session(console: Console) -> None:
    c, _ = console
    r = c.post("/api/login", json={"pin": "0000"})
    assert r.status_code == 401 and r.json()["detail"].startswith("wrong PIN")
    assert "set-cookie" not in r.headers
    assert c.get("/api/room").status_code == 401


@pytest.mark.parametrize(("path", "body"), CHANGES)
def test_a_change_without_the_csrf_token_is_refused_with_403(console: Console,
                                                             path: str, body: dict[str, Any]) -> None:
    c, fake = console
    _login(c)
    r = c.post(path, json=body)
    assert r.status_code == 403 and "csrf" in r.json()["detail"].lower()
    r = c.post(path, json=body, headers={"X-CSRF-Token": "not-the-token"})
    assert r.status_code == 403
    assert fake.sent == [] and fake.opened_tables == []
    assert c.get("/api/session").status_code == 200  # the session is still open


def test_a_change_from_another_origin_is_refused_with_403(console: Console) -> None:
    c, fake = console
    csrf = _login(c)
    r = c.post("/api/tables/3/rulings", json=RULING, headers={**csrf, "Origin": "http://evil.example"})
    assert r.status_code == 403 and "Origin" in r.json()["detail"]
    assert fake.sent == []


def test_a_ruling_is_sent_to_the_table_with_exactly_the_body_given(console: Console) -> None:
    c, fake = console
    csrf = _login(c)
    r = c.post("/api/tables/3/rulings", json=RULING, headers={**csrf, **ORIGIN})
    assert r.status_code == 200, r.text
    assert r.json()["accepted"] is True and r.json()["table"] == "3" and r.json()["ref"] == "c-1"
    assert fake.sent == [Sent("3", "ruling", RULING, "c-1")]


def test_an_action_is_sent_as_its_table_log_object_without_the_pages_time(console: Console) -> None:
    c, fake = console
    csrf = _login(c)
    r = c.post("/api/tables/3/actions", json={"t": 99.0, "seat": "W", "play": "SK", "deemed": True}, headers=csrf)
    assert r.status_code == 200, r.text
    assert [(s.table, s.kind, s.body) for s in fake.sent] == [("3", "action", {"seat": "W", "play": "SK",
                                                                              "deemed": True})]


def test_a_table_refusal_becomes_409_with_the_tables_reason(console: Console) -> None:
    c, fake = console
    fake.answer = lambda sent: {"accepted": False, "reason": "irregularity 1 is not awaiting a ruling"}
    csrf = _login(c)
    r = c.post("/api/tables/3/rulings", json=RULING, headers=csrf)
    assert r.status_code == 409
    assert r.json()["detail"] == "table 3 refused it: irregularity 1 is not awaiting a ruling"
    assert len(fake.sent) == 1


def test_no_answer_from_the_table_becomes_504_saying_nothing_was_applied(console: Console) -> None:
    c, fake = console
    fake.answer = lambda sent: None
    csrf = _login(c)
    r = c.post("/api/tables/3/rulings", json=RULING, headers=csrf)
    assert r.status_code == 504
    assert "did not answer" in r.json()["detail"] and "nothing was applied" in r.json()["detail"]


def test_a_broker_that_cannot_be_reached_becomes_503(console: Console) -> None:
    c, fake = console

    def unreachable(sent: Sent) -> dict[str, Any] | None:
        raise ConnectionError("the room's broker cannot be reached: the command was not sent")
    fake.answer = unreachable
    csrf = _login(c)
    r = c.post("/api/tables/3/rulings", json=RULING, headers=csrf)
    assert r.status_code == 503 and "broker" in r.json()["detail"]


@pytest.mark.parametrize("table", ["3.1", "table%20three", "a" * 17, "%2e%2e"])
def test_a_malformed_table_id_is_404_and_nothing_is_sent(console: Console, table: str) -> None:
    c, fake = console
    csrf = _login(c)
    assert c.get(f"/api/tables/{table}").status_code == 404
    assert c.post(f"/api/tables/{table}/rulings", json=RULING, headers=csrf).status_code == 404
    assert c.post(f"/api/tables/{table}/open", headers=csrf).status_code == 404
    assert fake.sent == [] and fake.opened_tables == []


def test_a_table_that_has_not_published_its_state_is_404(console: Console) -> None:
    c, _ = console
    _login(c)
    r = c.get("/api/tables/9")
    assert r.status_code == 404 and "not published" in r.json()["detail"]
    assert c.get("/api/tables/3").json()["irregularities"][0]["kind"] == "opening_lead_out_of_turn"


MALFORMED: list[tuple[str, Any]] = [
    ("/api/tables/3/rulings", {"id": 1}),                                       # no option
    ("/api/tables/3/rulings", {"id": 1, "option": "Forbid Suit"}),              # not an option code
    ("/api/tables/3/rulings", {"id": 1, "option": "forbid_suit", "suit": "X"}),  # not a suit
    ("/api/tables/3/rulings", {"id": 1, "option": "accept", "by": "W"}),        # a field the ruling has not
    ("/api/tables/3/actions", {"seat": "W", "play": "S2", "call": "Pass"}),     # two actions
    ("/api/tables/3/actions", {"play": "S2"}),                                  # no seat
    ("/api/calls/mark", {"key": "3/s-1/irr/1", "state": "called"}),            # a call is never marked back
    ("/api/calls/mark", {"key": "", "state": "resolved"}),
    ("/api/tables/3/rulings", "forbid spades"),                                 # not an object
]


@pytest.mark.parametrize(("path", "body"), MALFORMED)
def test_a_malformed_body_is_422_and_nothing_is_sent(console: Console, path: str, body: Any) -> None:
    c, fake = console
    csrf = _login(c)
    assert c.post(path, json=body, headers=csrf).status_code == 422
    assert fake.sent == []
    assert [call.state for call in fake.open_calls()] == ["called"]


def test_a_body_that_is_not_json_is_422(console: Console) -> None:
    c, fake = console
    csrf = _login(c)
    r = c.post("/api/tables/3/rulings", content=b"{id: 1", headers={**csrf, "Content-Type": "application/json"})
    assert r.status_code == 422 and fake.sent == []


def test_on_my_way_then_done_move_a_call_along_the_queue(console: Console) -> None:
    c, fake = console
    csrf = _login(c)
    key = fake.open_calls()[0].key
    r = c.post("/api/calls/mark", json={"key": key, "state": "acknowledged"}, headers=csrf)
    assert r.json() == {"key": key, "state": "acknowledged", "by": "Director"}
    assert c.get("/api/room").json()["calls"][0]["state"] == "acknowledged"
    # the table still waits for the ruling on the lead out of turn: "Done" cannot close it (Law 54)
    r = c.post("/api/calls/mark", json={"key": key, "state": "resolved"}, headers=csrf)
    assert r.status_code == 409 and "still waits for your ruling" in r.json()["detail"]
    assert [call.state for call in fake.open_calls()] == ["acknowledged"]
    fake.play("4", LOG[0], {"seat": "E", "director": True})
    [called] = fake.open_calls("4")
    assert c.post("/api/calls/mark", json={"key": called.key, "state": "resolved"}, headers=csrf).json()["state"] \
        == "resolved"
    assert fake.open_calls("4") == []
    assert c.post("/api/calls/mark", json={"key": "3/s-1/irr/9", "state": "resolved"}, headers=csrf).status_code == 404


def test_opening_a_table_puts_its_calls_being_ruled(console: Console) -> None:
    c, fake = console
    csrf = _login(c)
    assert c.post("/api/tables/3/open", headers=csrf).status_code == 204
    assert fake.opened_tables == ["3"] and [call.state for call in fake.open_calls()] == ["being_ruled"]


def test_the_websocket_sends_the_room_then_an_alarm_the_moment_a_table_calls(console: Console) -> None:
    c, fake = console
    _login(c)
    with c.websocket_connect("/ws", headers=ORIGIN) as ws:
        room = ws.receive_json()
        assert room["kind"] == "room" and [t["colour"] for t in room["tiles"]] == ["irregularity"]
        fake.play("4", LOG[0], {"seat": "E", "director": True})
        message = ws.receive_json()
        while message["kind"] != "alarm":
            message = ws.receive_json()
        assert message["table"] == "4" and message["text"] == "Table 4: E called the Director"
        while not (message["kind"] == "room" and len(message["tiles"]) == 2):
            message = ws.receive_json()
        assert {t["table"]: t["colour"] for t in message["tiles"]} == {"3": "irregularity", "4": "called"}


def test_the_console_page_is_served_with_a_strict_content_security_policy(console: Console) -> None:
    c, _ = console
    for path in ("/", "/static/console.js", "/static/console.css", "/static/arbiterview.js"):
        r = c.get(path)
        assert r.status_code == 200, path
        assert "script-src 'self'" in r.headers["content-security-policy"]
    page = c.get("/").text
    assert "<script>" not in page and "style=" not in page and "<style" not in page  # the CSP forbids them


def test_a_body_that_is_not_exactly_json_is_a_clear_422_at_the_console_too() -> None:
    from fastapi.testclient import TestClient

    from tests.web_ui.console_fake import FakeConsole, console_settings
    from web_ui.console import create_console_app

    with TestClient(create_console_app(FakeConsole(), console_settings())) as client:
        for body in (b'{"pin": NaN}', b'{"pin": "\\ud800"}', b"\xff\xfe"):
            answer = client.post("/api/login", content=body, headers={"Content-Type": "application/json"})
            assert answer.status_code == 422, (body, answer.status_code, answer.text)
