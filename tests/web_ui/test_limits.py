"""Nobody can exhaust the server without logging in: bodies over 16 KB are refused (413) before they
are read, JSON nested over 32 deep is refused, and WebSocket clients are capped (1013, "try again
later"), the arbiter's and the Director's apart from the public's. Both apps: the table's and the
Director's console."""

from __future__ import annotations

import select
import socket
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web_ui.conftest import login, make_app
from tests.web_ui.console_fake import PIN as CONSOLE_PIN
from tests.web_ui.console_fake import FakeConsole, console_settings
from tests.web_ui.live import live_server, peak_rss
from web_ui.console import create_console_app

MB = 1024 * 1024
MAX_BODY = 16 * 1024
MAX_DEPTH = 32
LOGIN = {"table": "/api/arbiter/login", "console": "/api/login"}


def _app(kind: str) -> FastAPI:
    return make_app()[0] if kind == "table" else create_console_app(FakeConsole(), console_settings())


def _request_head(port: int, path: str, framing: str) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"{framing}\r\n\r\n").encode()


def _read_head(s: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        more = s.recv(65536)
        if not more:
            break
        data += more
    return data


def _chunks(total: int, size: int) -> Iterator[bytes]:
    """A JSON body of ``total`` bytes in chunks of ``size``, made as it is sent."""
    block = b"a" * size
    yield b'{"pin": "' + block[9:]
    for _ in range(total // size - 1):
        yield block


@pytest.mark.parametrize("kind", ["table", "console"])
def test_a_body_over_16_kb_is_refused_with_413_and_changes_nothing(kind: str) -> None:
    with TestClient(_app(kind)) as c:
        r = c.post(LOGIN[kind], content=b'{"pin": "' + b"1" * MAX_BODY + b'"}',
                   headers={"Content-Type": "application/json"})
        assert r.status_code == 413 and "16384" in r.json()["detail"]
        r = c.post(LOGIN[kind], content=b"x" * (MAX_BODY + 1), headers={"Content-Type": "text/plain"})
        assert r.status_code == 413
        assert c.get("/api/session" if kind == "console" else "/api/arbiter/session").status_code == 401


@pytest.mark.parametrize("kind", ["table", "console"])
def test_json_nested_deeper_than_32_is_refused_with_422(kind: str) -> None:
    with TestClient(_app(kind)) as c:
        deep = b'{"pin": ' + b"[" * MAX_DEPTH + b"]" * MAX_DEPTH + b"}"
        r = c.post(LOGIN[kind], content=deep, headers={"Content-Type": "application/json"})
        assert r.status_code == 422 and "nested" in r.text
        within = b'{"pin": ' + b"[" * (MAX_DEPTH - 1) + b"]" * (MAX_DEPTH - 1) + b"}"
        r = c.post(LOGIN[kind], content=within, headers={"Content-Type": "application/json"})
        assert r.status_code == 422 and "nested" not in r.text  # read, then refused by the model


@pytest.mark.parametrize("kind", ["table", "console"])
def test_a_declared_12_mb_body_is_refused_with_413_before_a_byte_of_it_is_sent(kind: str) -> None:
    with live_server(kind) as live, socket.create_connection(("127.0.0.1", live.port), timeout=20) as s:
        s.sendall(_request_head(live.port, LOGIN[kind], "Content-Length: 12000000"))
        head = _read_head(s)  # nothing of the body was sent: the answer comes from the header alone
        assert head.startswith(b"HTTP/1.1 413 "), head[:200]


@pytest.mark.parametrize("kind", ["table", "console"])
def test_a_200_mb_chunked_body_is_refused_with_413_and_the_server_grows_less_than_50_mb(kind: str) -> None:
    with live_server(kind) as live:
        with socket.create_connection(("127.0.0.1", live.port), timeout=20) as warm:  # load the code paths
            warm.sendall(_request_head(live.port, LOGIN[kind], "Content-Length: 13") + b'{"pin": "no"}')
            assert _read_head(warm).startswith(b"HTTP/1.1 401 ")
        before = peak_rss(live.pid)
        with socket.create_connection(("127.0.0.1", live.port), timeout=20) as s:
            s.sendall(_request_head(live.port, LOGIN[kind], "Transfer-Encoding: chunked"))
            sent = 0
            for chunk in _chunks(200 * MB, MB):
                if select.select([s], [], [], 0)[0]:
                    break  # the server has answered: stop sending
                try:
                    s.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    break
                sent += len(chunk)
            else:
                s.sendall(b"0\r\n\r\n")  # all sent, and no answer yet: the body ends
            head = _read_head(s)
        grown = peak_rss(live.pid) - before
        assert head.startswith(b"HTTP/1.1 413 ") and grown < 50 * MB, \
            f"{head[:32]!r}: the server grew by {grown / MB:.0f} MB while {sent / MB:.0f} MB were sent"
        with socket.create_connection(("127.0.0.1", live.port), timeout=20) as after:  # still answering
            after.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\n\r\n".encode())
            assert _read_head(after).startswith(b"HTTP/1.1 200 ")


def _refused_with_1013(c: TestClient, path: str) -> None:
    with c.websocket_connect(path) as ws, pytest.raises(WebSocketDisconnect) as refused:
        ws.receive_text()
    assert refused.value.code == 1013 and "try again later" in refused.value.reason


def test_public_websockets_beyond_200_are_refused_with_1013_and_the_arbiters_still_connects() -> None:
    app, _ = make_app()
    with TestClient(app, base_url="http://testserver") as c, ExitStack() as open_sockets:
        for i in range(200):
            ws = open_sockets.enter_context(c.websocket_connect("/ws/table" if i % 2 else "/ws/spectator"))
            ws.receive_text()
        _refused_with_1013(c, "/ws/table")
        _refused_with_1013(c, "/ws/spectator")
        login(c)
        with c.websocket_connect("/ws/arbiter", headers={"Origin": "http://testserver"}) as arbiter:
            assert '"kind":"arbiter"' in arbiter.receive_text()
        open_sockets.close()  # the public leave: room again
        with c.websocket_connect("/ws/table") as ws:
            assert '"kind":"table"' in ws.receive_text()


def test_the_consoles_websockets_are_capped_too_and_refused_with_1013() -> None:
    app = create_console_app(FakeConsole(), console_settings())
    with TestClient(app, base_url="http://testserver") as c, ExitStack() as open_sockets:
        assert c.post("/api/login", json={"pin": CONSOLE_PIN}).status_code == 200
        origin = {"Origin": "http://testserver"}
        for _ in range(50):
            open_sockets.enter_context(c.websocket_connect("/ws", headers=origin)).receive_text()
        with c.websocket_connect("/ws", headers=origin) as ws, pytest.raises(WebSocketDisconnect) as refused:
            ws.receive_text()
        assert refused.value.code == 1013
