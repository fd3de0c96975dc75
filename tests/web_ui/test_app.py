"""The HTTP and WebSocket contract: sessions, PIN attempt limits, cross-site refusals, rulings and
manual entries, bad requests that change nothing, records, spectator delay."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from controller.records.tablelog import action_of
from tests.web_ui.conftest import PIN, FakeClock, login, make_app, settings
from web_ui.app import create_app
from web_ui.hub import DelayBuffer
from web_ui.jsonbody import validation_error_response
from web_ui.local import LocalTable

DEAL = "N:AKQJ.AKQ.AKQ.432 T98.JT9.JT9.AKQJ 765.876.8765.T98 432.5432.432.765"
LOG: list[dict[str, Any]] = [
    {"board": {"number": 1, "dealer": "N", "vul": "None", "deal": DEAL}},
    {"seat": "N", "call": "1NT"}, {"seat": "E", "call": "Pass"}, {"seat": "S", "call": "3NT"},
    {"seat": "W", "call": "Pass"}, {"seat": "N", "call": "Pass"}, {"seat": "E", "call": "Pass"},
    {"seat": "W", "play": "S2"},  # W leads out of turn: E was to lead (Law 54)
]


def _table() -> LocalTable:
    table = LocalTable()
    for obj in LOG:
        table.feed(action_of(obj))
    return table


ARBITER_GETS = ["/api/arbiter/state", "/api/arbiter/session", "/api/arbiter/claimhelp", "/api/arbiter/records.pbn",
                "/api/arbiter/records.jsonl"]


@pytest.mark.parametrize("path", ARBITER_GETS)
def test_arbiter_reads_need_a_session(client: tuple[TestClient, LocalTable], path: str) -> None:
    c, _ = client
    r = c.get(path)
    assert r.status_code == 401 and "log in" in r.json()["detail"]


@pytest.mark.parametrize("path", ["/api/arbiter/rulings", "/api/arbiter/actions", "/api/arbiter/logout"])
def test_arbiter_changes_need_a_session(client: tuple[TestClient, LocalTable], path: str) -> None:
    c, table = client
    before = table.snapshot()
    r = c.post(path, json={"id": 1, "option": "accept"} if "rulings" in path else {"undo_ruling": 1})
    assert r.status_code == 401
    assert table.snapshot().seq == before.seq


def test_login_sets_a_strict_httponly_cookie_and_returns_a_csrf_token(client: tuple[TestClient, LocalTable]) -> None:
    c, _ = client
    r = c.post("/api/arbiter/login", json={"pin": PIN})
    assert r.status_code == 200
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "max-age=" in cookie
    assert len(r.json()["csrf"]) >= 24
    assert c.get("/api/arbiter/state").json()["kind"] == "arbiter"
    assert c.get("/api/arbiter/session").json()["csrf"] == r.json()["csrf"]


def test_five_wrong_pins_then_429_with_backoff_then_a_success_clears_it() -> None:
    clock = FakeClock()
    app, _ = make_app(clock=clock)
    with TestClient(app) as c:
        for _ in range(5):
            assert c.post("/api/arbiter/login", json={"pin": "0000"}).status_code == 401
        r = c.post("/api/arbiter/login", json={"pin": PIN})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 30
        assert "too many" in r.json()["detail"]
        clock.advance(31)
        assert c.post("/api/arbiter/login", json={"pin": "1111"}).status_code == 401
        first_wait = int(c.post("/api/arbiter/login", json={"pin": PIN}).headers["retry-after"])
        assert first_wait >= 60  # the lock-out doubles
        clock.advance(61)
        assert c.post("/api/arbiter/login", json={"pin": PIN}).status_code == 200
        assert c.post("/api/arbiter/login", json={"pin": "2222"}).status_code == 401  # count cleared


def test_sessions_expire_when_idle_and_logout_ends_them() -> None:
    clock = FakeClock()
    app, _ = make_app(clock=clock)
    with TestClient(app) as c:
        csrf = login(c)
        clock.advance(3 * 3600)
        assert c.get("/api/arbiter/state").status_code == 401
        csrf = login(c)
        assert c.post("/api/arbiter/logout").status_code == 403  # no CSRF token: refused
        assert c.post("/api/arbiter/logout", headers={"X-CSRF-Token": csrf}).status_code == 204
        assert c.get("/api/arbiter/state").status_code == 401


def test_a_ruling_without_the_csrf_token_or_from_another_origin_is_refused_and_changes_nothing() -> None:
    table = _table()
    app, _ = make_app(table)
    with TestClient(app) as c:
        csrf = login(c)
        before = table.snapshot()
        body = {"id": 1, "option": "forbid_suit", "suit": "S"}
        r = c.post("/api/arbiter/rulings", json=body)
        assert r.status_code == 403 and "x-csrf-token" in r.json()["detail"]
        r = c.post("/api/arbiter/rulings", json=body, headers={"X-CSRF-Token": "forged"})
        assert r.status_code == 403
        r = c.post("/api/arbiter/rulings", json=body,
                   headers={"X-CSRF-Token": csrf, "Origin": "http://evil.example"})
        assert r.status_code == 403 and "Origin" in r.json()["detail"]
        r = c.post("/api/arbiter/login", json={"pin": PIN}, headers={"Origin": "http://evil.example"})
        assert r.status_code == 403
        after = table.snapshot()
        assert after.seq == before.seq and after.state is before.state


def test_the_arbiter_rules_on_a_lead_out_of_turn_and_the_table_shows_the_ruling_law_54() -> None:
    table = _table()
    app, _ = make_app(table)
    with TestClient(app) as c:
        csrf = login(c)
        state = c.get("/api/arbiter/state").json()
        irr = state["irregularities"][0]
        assert (irr["kind"], irr["law"], irr["chooser"]) == ("opening_lead_out_of_turn", "54", "N")
        r = c.post("/api/arbiter/rulings", json={"id": 1, "option": "forbid_suit", "suit": "S"},
                   headers={"X-CSRF-Token": csrf, "Origin": "http://testserver"})
        assert r.status_code == 200, r.text
        assert any(e["kind"] == "ruling" for e in r.json()["events"])
        public = c.get("/api/table").json()
        assert public["irregularities"][0]["ruling"] == {"option": "forbid_suit", "suit": "S"}
        # Law 54D with 50D2: E may not lead a spade; W's S2 goes back to his hand
        assert public["board"]["penalty_cards"] == []
        assert public["board"]["held_cards"] == []
        assert [(r["kind"], r["seat"], r["suits"]) for r in public["board"]["restrictions"]] == [
            ("lead_ban", "E", ["S"])]


@pytest.mark.parametrize(("path", "body", "status"), [
    ("/api/arbiter/rulings", {"id": 1, "option": "award", "tricks": 9}, 409),      # not an option of a lead
    ("/api/arbiter/rulings", {"id": 99, "option": "accept"}, 409),                 # no such irregularity
    ("/api/arbiter/rulings", {"id": 1, "option": "forbid_suit", "suit": "X"}, 422),
    ("/api/arbiter/rulings", {"id": 1, "option": "forbid_suit", "colour": "S"}, 422),
    ("/api/arbiter/rulings", {"id": 1, "option": "require_suit", "suit": "H"}, 409),  # only the suit led
    ("/api/arbiter/rulings", "not json", 422),
    ("/api/arbiter/actions", {"seat": "S", "play": "S1"}, 422),
    ("/api/arbiter/actions", {"seat": "S"}, 422),
    ("/api/arbiter/actions", {"play": "SK"}, 422),
    ("/api/arbiter/actions", {"seat": "S", "play": "SK", "call": "1NT"}, 422),
    ("/api/arbiter/actions", {"board": {"deal": "N:AAA.AAA.AAA.AAAA - - -"}}, 422),
    ("/api/arbiter/actions", {"seat": "E", "stop": True}, 409),                     # the auction is over
    ("/api/arbiter/actions", {"adjust": {"tricks": 14}}, 422),
    ("/api/arbiter/actions", {"undo_ruling": 5}, 409),
])
def test_bad_requests_get_a_clear_4xx_and_change_nothing(path: str, body: Any, status: int) -> None:
    table = _table()
    app, _ = make_app(table)
    with TestClient(app) as c:
        csrf = login(c)
        before = table.snapshot()
        kwargs: dict[str, Any] = {"content": body} if isinstance(body, str) else {"json": body}
        r = c.post(path, headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"}, **kwargs)
        assert r.status_code == status, r.text
        assert r.json()["detail"]
        after = table.snapshot()
        assert after.seq == before.seq and after.state is before.state


NOT_JSON = {
    "lone-surrogate": (b'"\\ud800"', "a lone surrogate \\ud800 is not text"),
    "lone-surrogate-key": (b'{"\\udc00": 1}', "a lone surrogate \\udc00 is not text"),
    "nan": (b"NaN", "NaN is not a JSON number"),
    "infinity": (b"Infinity", "Infinity is not a JSON number"),
    "minus-infinity": (b"-Infinity", "-Infinity is not a JSON number"),
    "out-of-range": (b"1e999", "the number 1e999 is out of range"),
    "not-utf8": (b'"\xff"', "byte 0xff is not UTF-8"),
    "deep": (b"[" * 5_000 + b"]" * 5_000, "nested too deeply"),  # within the 16 KB bodies may have
    "long-integer": (b"9" * 5000, "an integer of 5,000 digits, more than 4,300"),
}
BODIES = {
    "/api/arbiter/login": b'{"pin": %s}',
    "/api/arbiter/rulings": b'{"id": 1, "option": "accept", "suit": %s}',
    "/api/arbiter/actions": b'{"seat": "S", "play": %s}',
}


@pytest.mark.parametrize("path", list(BODIES))
@pytest.mark.parametrize("case", list(NOT_JSON))
def test_a_body_that_is_not_exactly_json_is_a_clear_422_and_changes_nothing(path: str, case: str) -> None:
    value, message = NOT_JSON[case]
    table = _table()
    app, _ = make_app(table)
    with TestClient(app) as c:  # a 500 would raise here
        headers = {"Content-Type": "application/json"}
        if path != "/api/arbiter/login":  # the login is refused without a session too
            headers["X-CSRF-Token"] = login(c)
        before = table.snapshot()
        for content in (BODIES[path] % value, value):
            r = c.post(path, content=content, headers=headers)
            assert r.status_code == 422, r.text
            assert r.json()["detail"][0]["msg"].startswith(f"the body is not JSON: {message}")
            assert r.headers["x-content-type-options"] == "nosniff"
        after = table.snapshot()
        assert after.seq == before.seq and after.state is before.state


@pytest.mark.parametrize("body", [
    b'{"pin": ["\\ud83d\\ude00", 1.5e308]}', b'{"pin": "1", "\\ud83d\\ude00": 0}', b'{"pin": {"a": -0.0}}'])
def test_a_refused_value_is_a_422_that_does_not_echo_it(body: bytes) -> None:
    app, _ = make_app()
    with TestClient(app) as c:
        r = c.post("/api/arbiter/login", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 422, r.text
        assert r.json()["detail"] and all(set(d) == {"type", "loc", "msg"} for d in r.json()["detail"])
        assert b"1.5e308" not in r.content and b"-0.0" not in r.content


def test_validation_errors_are_rendered_whatever_the_value_they_refused() -> None:
    r = validation_error_response([{"type": "string_type", "loc": ("body", "\ud800", 0), "msg": "bad \udfff",
                                    "input": float("nan"), "ctx": {"x": float("inf")}}])
    assert r.status_code == 422
    assert json.loads(bytes(r.body)) == {"detail": [{"type": "string_type", "loc": ["body", "\\ud800", 0],
                                              "msg": "bad \\udfff"}]}


def test_manual_entries_go_to_the_table_stamped_with_its_clock() -> None:
    table = _table()
    app, _ = make_app(table)
    with TestClient(app) as c:
        csrf = login(c)
        h = {"X-CSRF-Token": csrf}
        r = c.post("/api/arbiter/rulings", json={"id": 1, "option": "accept_see_dummy"}, headers=h)
        assert r.status_code == 200
        r = c.post("/api/arbiter/actions", json={"seat": "N", "play": "SA", "deemed": True, "t": 12345}, headers=h)
        assert r.status_code == 200, r.text
        assert table.log[-1].t != 12345
        assert c.get("/api/table").json()["board"]["current_trick"]["cards"] == [
            {"seat": "W", "card": "S2"}, {"seat": "N", "card": "SA"}]
        jsonl = c.get("/api/arbiter/records.jsonl").text
        assert '"play": "SA", "deemed": true' in jsonl


def test_claim_help_gives_the_double_dummy_tricks_to_the_arbiter() -> None:
    table = _table()
    app, _ = make_app(table)
    with TestClient(app) as c:
        login(c)
        assert c.get("/api/arbiter/claimhelp").status_code == 200  # the play has begun (a card is held)
        help_ = c.get("/api/arbiter/claimhelp", params={"seat": "N"}).json()
        assert help_["claimer"] == "N" and help_["remaining_tricks"] == 13
        assert help_["dd_tricks"] == 9  # East on lead: the clubs hold 3NT to nine tricks
        assert c.get("/api/arbiter/claimhelp", params={"seat": "Q"}).status_code == 422


def test_claim_help_before_the_play_is_a_409(client: tuple[TestClient, LocalTable]) -> None:
    c, _ = client
    login(c)
    r = c.get("/api/arbiter/claimhelp")
    assert r.status_code == 409 and "no play" in r.json()["detail"]


def test_public_records_hold_finished_boards_only_the_arbiters_hold_all() -> None:
    table = _table()
    app = create_app(table, replace(settings(), public_records="finished_boards"))
    with TestClient(app) as c:
        r = c.get("/api/records.pbn")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        assert "AKQJ" not in r.text and "[Deal" not in r.text
        assert "AKQJ" not in c.get("/api/records.lin").text
        login(c)
        table.feed(action_of({"seat": "N", "claim": 13}))  # held lead: the claim is not agreed yet
        table.feed(action_of({"board": {"number": 2}}))  # board 1 ends without a result
        assert "[Board \"1\"]" in c.get("/api/records.pbn").text


def _refused(c: TestClient, headers: dict[str, str]) -> None:
    with pytest.raises(WebSocketDisconnect), c.websocket_connect("/ws/arbiter", headers=headers) as ws:
        ws.receive_json()


def test_websockets_push_full_views_with_seq_and_the_arbiters_needs_session_and_origin() -> None:
    table = LocalTable()
    app, _ = make_app(table)
    with TestClient(app) as c:
        with c.websocket_connect("/ws/table") as ws:
            assert ws.receive_json()["seq"] == 0
            table.feed(action_of(LOG[0]))
            view = ws.receive_json()
            assert view["seq"] == 1 and view["board"]["number"] == 1 and "deal" not in view["board"]
        _refused(c, {"Origin": "http://testserver"})  # no session
        login(c)
        _refused(c, {"Origin": "http://evil.example"})  # a foreign page riding on the arbiter's cookie
        _refused(c, {})  # no Origin: not a page of ours
        with c.websocket_connect("/ws/arbiter", headers={"Origin": "http://testserver"}) as ws:
            view = ws.receive_json()
            assert view["kind"] == "arbiter" and view["board"]["deal"] == DEAL
            table.feed(action_of(LOG[1]))
            while view["seq"] < 2:
                view = ws.receive_json()
            assert view["board"]["auction"][0]["call"] == "1NT"


def test_pages_are_served_with_a_strict_content_security_policy(client: tuple[TestClient, LocalTable]) -> None:
    c, _ = client
    for path in ("/", "/arbiter", "/spectator", "/static/common.js", "/static/style.css"):
        r = c.get(path)
        assert r.status_code == 200, path
        assert "default-src 'self'" in r.headers["content-security-policy"]
    assert "http" not in c.get("/").text.replace("http-equiv", "")  # nothing from the internet


def test_the_spectator_buffer_releases_payloads_after_the_delay_in_order() -> None:
    buffer = DelayBuffer(30.0)
    buffer.push("a", 100.0)
    buffer.push("b", 110.0)
    assert buffer.due(129.9) == []
    assert buffer.due(130.0) == ["a"]
    assert buffer.next_release() == 140.0
    assert buffer.due(200.0) == ["b"]


def test_a_delayed_spectator_view_shows_nothing_of_the_present() -> None:
    table = _table()
    app, _ = make_app(table, delay=3600)
    with TestClient(app) as c:
        view = c.get("/api/spectator").json()
        assert view["waiting"] is True and view["board"] is None and view["delay"] == 3600
