"""HTTPS beyond localhost and only the configured host names: a table or console listening on the
club LAN serves HTTPS with the club's certificate (one openssl command) and ``Secure`` cookies, and
answers only to its own names (a request naming any other host is a 400: no DNS rebinding)."""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from drivers.config import loads
from tablectl import serve
from tests.free_ports import free_base_port
from tests.room.test_tls import self_signed
from tests.web_ui.conftest import make_app
from tests.web_ui.console_fake import FakeConsole, console_settings
from web_ui.console import create_console_app

ROOT = Path(__file__).resolve().parents[2]
EVIL = {"Host": "attacker.example", "Origin": "http://attacker.example"}


def _args(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = {"host": None, "port": None, "trusted_proxy": None, "tls_cert": None, "tls_key": None,
                               "allowed_host": None, "plain_http": False}
    return argparse.Namespace(**(base | kw))


@pytest.mark.parametrize("kind", ["table", "console"])
def test_a_request_naming_another_host_is_refused_with_400_so_dns_rebinding_reaches_nothing(kind: str) -> None:
    app = make_app()[0] if kind == "table" else create_console_app(FakeConsole(), console_settings())
    login = "/api/arbiter/login" if kind == "table" else "/api/login"
    with TestClient(app, base_url="http://testserver") as c:
        for path in ("/", "/api/table" if kind == "table" else "/api/room"):
            r = c.get(path, headers=EVIL)
            assert r.status_code == 400 and "attacker.example" in r.json()["detail"]
        assert c.post(login, json={"pin": "1"}, headers=EVIL).status_code == 400
        ws = "/ws/table" if kind == "table" else "/ws"
        with pytest.raises(WebSocketDisconnect), c.websocket_connect(ws, headers=EVIL) as socket_:
            socket_.receive_text()
        assert c.get("/").status_code == 200  # its own name (the tests' "testserver")
        assert c.get("/", headers={"Host": "localhost:8000"}).status_code == 200
        assert c.get("/", headers={"Host": "127.0.0.1:8000"}).status_code == 200


def test_host_names_default_to_localhost_and_the_listen_address_or_are_those_configured() -> None:
    assert set(serve.server_options(_args(), None).hosts) == {"localhost", "127.0.0.1", "::1"}
    lan = loads('[table]\nname = "T"\n[listen]\nhost = "192.168.1.23"\nport = 8443\ntls_cert = "t.crt"\n'
                'tls_key = "t.key"\n', "/etc/bridgetable/table.toml")
    options = serve.server_options(_args(), lan)
    assert set(options.hosts) == {"localhost", "127.0.0.1", "::1", "192.168.1.23"}
    assert options.tls_cert == Path("/etc/bridgetable/t.crt") and options.tls_key == Path("/etc/bridgetable/t.key")
    named = loads('[table]\nname = "T"\n[listen]\nhost = "0.0.0.0"\nhosts = ["table-3.local", "192.168.1.23"]\n'
                  'tls_cert = "t.crt"\ntls_key = "t.key"\n')
    assert set(serve.server_options(_args(), named).hosts) == {"localhost", "127.0.0.1", "::1", "table-3.local",
                                                         "192.168.1.23"}
    assert "table-9.local" in serve.server_options(_args(allowed_host=["table-9.local"]), named).hosts


def test_listening_beyond_localhost_needs_https_unless_plain_http_is_said_outright(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="HTTPS"):
        serve.check_server(serve.server_options(_args(host="0.0.0.0"), None))
    serve.check_server(serve.server_options(_args(host="0.0.0.0", plain_http=True), None))
    serve.check_server(serve.server_options(_args(host="127.0.0.1"), None))
    cert, key = self_signed(tmp_path)
    serve.check_server(serve.server_options(_args(host="0.0.0.0", tls_cert=cert, tls_key=key), None))
    with pytest.raises(ValueError, match="tls"):
        serve.check_server(serve.server_options(_args(host="0.0.0.0", tls_cert=cert, tls_key=tmp_path / "none"), None))
    with pytest.raises(ValueError, match="both"):
        serve.server_options(_args(tls_cert=cert), None)


@contextlib.contextmanager
def _serving(cmd: list[str], port: int, corpus: Path) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
                            env={**os.environ, "BRIDGE_ARBITER_PIN": "8642", "BRIDGE_CORPUS": str(corpus)})
    try:
        for _ in range(400):
            assert proc.poll() is None, (proc.stdout.read() if proc.stdout else b"").decode(errors="replace")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)  # waiting for a subprocess to listen, not timing the code under test
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        proc.communicate(timeout=30)


def _https(port: int, cert: Path, method: str, path: str, body: bytes | None = None,
           host: str | None = None) -> http.client.HTTPResponse:
    connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=10,
                                             context=ssl.create_default_context(cafile=str(cert)))
    headers = {"Content-Type": "application/json"}
    if host is not None:
        headers["Host"] = host
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    return response


@pytest.mark.parametrize("kind", ["demo", "console"])
def test_the_pages_are_served_over_https_with_the_clubs_certificate_and_secure_cookies(
        kind: str, tmp_path: Path, corpus: Path) -> None:
    cert, key = self_signed(tmp_path)
    port = free_base_port(1)
    tls = ["--tls-cert", str(cert), "--tls-key", str(key), "--port", str(port), "--data-dir", str(tmp_path / "d")]
    if kind == "demo":
        cmd = [sys.executable, "-m", "tablectl", "demo", "--speed", "1", "--boards", "1", *tls]
        login = "/api/arbiter/login"
    else:
        cmd = [sys.executable, "-m", "tablectl", "console", "--club", "mqtt://console:pw@127.0.0.1:1/club", *tls]
        login = "/api/login"
    with _serving(cmd, port, corpus):
        assert _https(port, cert, "GET", "/").status == 200
        r = _https(port, cert, "POST", login, json.dumps({"pin": "8642"}).encode())
        assert r.status == 200
        cookie = r.getheader("set-cookie") or ""
        assert "secure" in cookie.lower() and "httponly" in cookie.lower()
        assert _https(port, cert, "GET", "/", host="attacker.example").status == 400
        plain = http.client.HTTPConnection("127.0.0.1", port, timeout=10)  # plain HTTP: no answer
        with pytest.raises((http.client.HTTPException, OSError)):
            plain.request("GET", "/")
            assert plain.getresponse().status != 200
