"""Nobody can lock the arbiter out: wrong PINs are limited per real peer address (a forwarded
header counts only from a configured proxy), other clients' failures slow the PIN down but never
refuse it, and the Director's console opens a table's arbiter page with a signed, short-lived,
one-time link that no guesser can block. Both apps: the table's and the Director's console."""

from __future__ import annotations

import json
import socket
from collections.abc import Awaitable, Callable
from dataclasses import replace
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.web_ui.conftest import PIN, FakeClock, settings
from tests.web_ui.console_fake import PIN as CONSOLE_PIN
from tests.web_ui.console_fake import FakeConsole, console_settings
from tests.web_ui.live import live_server
from web_ui.app import create_app
from web_ui.arbiter_link import signed_link, table_key
from web_ui.console import create_console_app
from web_ui.local import LocalTable
from web_ui.security import AttemptLimiter

LOGIN = {"table": "/api/arbiter/login", "console": "/api/login"}
PINS = {"table": PIN, "console": CONSOLE_PIN}
KEY = b"0123456789abcdef0123456789abcdef"
WALL = 1_764_086_400.0


class Sleeps:
    """The app's sleep, recorded instead of slept."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    def __call__(self, seconds: float) -> Awaitable[None]:
        self.asked.append(seconds)

        async def done() -> None:
            return None
        return done()


def _app(kind: str, clock: Callable[[], float], sleep: Sleeps) -> FastAPI:
    if kind == "table":
        return create_app(LocalTable(), settings(), clock=clock, sleep=sleep)
    return create_console_app(FakeConsole(), console_settings(), clock=clock, sleep=sleep)


def test_failures_from_every_client_never_lock_out_a_client_that_has_none() -> None:
    limiter = AttemptLimiter(FakeClock())
    for i in range(200):
        limiter.failed(f"10.0.{i // 250}.{i % 250}")
    assert limiter.retry_after("192.168.1.20") == 0  # the arbiter's phone: never refused for others
    assert limiter.slowdown() > 0  # but every attempt is slowed down now
    assert limiter.retry_after("10.0.0.1") == 0  # one failure each: nobody is locked yet


@pytest.mark.parametrize("kind", ["table", "console"])
def test_wrong_pins_from_many_clients_hold_back_new_devices_but_never_the_directors_own(kind: str) -> None:
    clock, sleeps = FakeClock(), Sleeps()
    app = _app(kind, clock, sleeps)
    director = TestClient(app, client=("192.168.1.20", 40000))
    assert director.post(LOGIN[kind], json={"pin": PINS[kind]}).status_code == 200  # earlier in the evening
    statuses = []
    for i in range(60):  # each guesser its own address
        guesser = TestClient(app, client=(f"10.0.0.{i + 1}", 40000))
        statuses.append(guesser.post(LOGIN[kind], json={"pin": "000000"}).status_code)
    assert statuses[:51] == [401] * 51 and set(statuses[51:]) == {429}  # past 50: one check per 20 s
    sleeps.asked.clear()
    r = director.post(LOGIN[kind], json={"pin": PINS[kind]})  # the remembered device: in at once
    assert r.status_code == 200, r.text
    assert sleeps.asked == []
    phone = TestClient(app, client=("192.168.1.21", 40000))  # a device new tonight waits its turn
    r = phone.post(LOGIN[kind], json={"pin": PINS[kind]})
    assert r.status_code == 429 and 0 < int(r.headers["retry-after"]) <= 21
    clock.advance(int(r.headers["retry-after"]))
    assert phone.post(LOGIN[kind], json={"pin": PINS[kind]}).status_code == 200


@pytest.mark.parametrize("kind", ["table", "console"])
def test_guessers_from_fresh_addresses_test_at_most_one_pin_in_20_seconds_past_the_first_50(kind: str) -> None:
    """16 guessers, each request from a new address, 16 requests every 5 s for half an hour: the PINs
    checked (in a 4-hour session, 50 + 720 = 770: a 0.08 % chance at a 6-digit PIN)."""
    clock, sleeps = FakeClock(), Sleeps()
    app = _app(kind, clock, sleeps)
    checked = n = 0
    while clock.now < 1000.0 + 1800:
        for _ in range(16):
            n += 1
            guesser = TestClient(app, client=(f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}", 40000))
            checked += guesser.post(LOGIN[kind], json={"pin": "000000"}).status_code == 401
        clock.advance(5.0)
    assert 50 < checked <= 50 + 1800 // 20 + 1


def _wrong_pins_with_forwarded_headers(port: int, path: str) -> list[int]:
    """Statuses of 7 wrong PINs from 127.0.0.1, each claiming another address in X-Forwarded-For."""
    statuses = []
    for i in range(7):
        body = json.dumps({"pin": "000000"}).encode()
        with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
            s.sendall((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                       f"X-Forwarded-For: 10.9.8.{i + 1}\r\nX-Real-IP: 10.9.8.{i + 1}\r\n"
                       f"Forwarded: for=10.9.8.{i + 1}\r\nContent-Length: {len(body)}\r\n"
                       f"Connection: close\r\n\r\n").encode() + body)
            statuses.append(int(s.recv(100).split(b" ")[1]))
    return statuses


@pytest.mark.parametrize("kind", ["table", "console"])
def test_a_forwarded_for_header_does_not_escape_the_limit_unless_it_comes_from_a_configured_proxy(kind: str) -> None:
    with live_server(kind) as live:
        assert _wrong_pins_with_forwarded_headers(live.port, LOGIN[kind]) == [401] * 5 + [429] * 2
    with live_server(kind, "--proxy", "127.0.0.1") as live:  # a configured proxy speaks for its clients
        assert _wrong_pins_with_forwarded_headers(live.port, LOGIN[kind]) == [401] * 7


def test_the_server_trusts_no_forwarded_header_unless_proxies_are_configured() -> None:
    from tablectl.serve import ServerOptions, uvicorn_config

    plain = uvicorn_config(object(), ServerOptions())
    assert plain.proxy_headers is False
    proxied = uvicorn_config(object(), ServerOptions(proxies=("10.0.0.2",)))
    assert proxied.proxy_headers is True and proxied.forwarded_allow_ips == ["10.0.0.2"]


def _link_apps(wall: FakeClock) -> tuple[FastAPI, FastAPI]:
    table = create_app(LocalTable(), replace(settings(), link_key=table_key(KEY, "3"), table_id="3"), wall=wall)
    console = create_console_app(FakeConsole(), console_settings().model_copy(update={
        "link_key": KEY, "table_urls": {"3": "http://testserver"}}), wall=wall)
    return table, console


def test_the_directors_console_opens_a_tables_arbiter_page_with_a_link_that_a_guesser_cannot_block() -> None:
    wall = FakeClock()
    wall.now = WALL
    table_app, console_app = _link_apps(wall)
    with TestClient(table_app) as table, TestClient(console_app) as console:
        for _ in range(8):  # the arbiter's own address locked out by guesses made from it
            table.post("/api/arbiter/login", json={"pin": "000000"})
        assert table.post("/api/arbiter/login", json={"pin": PIN}).status_code == 429
        assert console.get("/tables/3/arbiter", follow_redirects=False).status_code == 401  # the Director only
        assert console.post("/api/login", json={"pin": CONSOLE_PIN}).status_code == 200
        r = console.get("/tables/3/arbiter", follow_redirects=False)
        assert r.status_code == 303
        link = r.headers["location"]
        assert link.startswith("http://testserver/arbiter/enter?")
        assert console.get("/tables/9/arbiter", follow_redirects=False).status_code == 404  # no URL for it
        r = table.get(link, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/arbiter"
        assert "httponly" in r.headers["set-cookie"].lower()
        assert table.get("/api/arbiter/state").json()["kind"] == "arbiter"
        table.cookies.clear()
        assert table.get(link, follow_redirects=False).status_code == 403  # one time only
        assert table.get("/api/arbiter/state").status_code == 401


@pytest.mark.parametrize("case", ["expired", "forged", "other-table", "other-key", "far-future", "table-4s-key"])
def test_a_link_that_is_expired_forged_or_for_another_table_opens_nothing(case: str) -> None:
    wall = FakeClock()
    wall.now = WALL
    table_app, _ = _link_apps(wall)
    link = {
        "expired": signed_link(KEY, "3", "http://testserver", WALL - 61),
        "forged": signed_link(KEY, "3", "http://testserver", WALL).replace("sig=", "sig=0"),
        "other-table": signed_link(KEY, "4", "http://testserver", WALL),
        "other-key": signed_link(b"k" * 32, "3", "http://testserver", WALL),
        "far-future": signed_link(KEY, "3", "http://testserver", WALL + 3600),
        # a device holding table 4's key (read off its Pi) signs with it as if it were the master
        "table-4s-key": signed_link(table_key(KEY, "4"), "3", "http://testserver", WALL),
    }[case]
    assert parse_qs(urlsplit(link).query)["table"]
    with TestClient(table_app) as table:
        r = table.get(link, follow_redirects=False)
        assert r.status_code == 403 and r.json()["detail"]
        assert "set-cookie" not in r.headers
        assert table.get("/api/arbiter/state").status_code == 401


def test_a_table_without_a_link_key_opens_no_link() -> None:
    with TestClient(create_app(LocalTable(), settings())) as table:
        r = table.get(signed_link(KEY, "3", "http://testserver", 0.0), follow_redirects=False)
        assert r.status_code == 404
