"""``tablectl run`` / ``demo``: PIN precedence, journald log lines, the server start and a clean SIGTERM."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from drivers.config import hash_pin, loads, verify_pin
from tablectl import serve
from tests.free_ports import free_base_port


def _args(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = {"arbiter_pin": None, "host": None, "port": None, "trusted_proxy": None,
                               "arbiter_link_key_file": None, "table_id": None, "tls_cert": None, "tls_key": None,
                               "allowed_host": None, "plain_http": False}
    return argparse.Namespace(**(base | kw))


def test_pin_comes_from_the_option_then_the_config_then_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    config = loads(f'[table]\nname = "T"\n[arbiter]\npin_hash = "{hash_pin("1111", iterations=1000)}"\n')
    monkeypatch.setenv("BRIDGE_ARBITER_PIN", "3333")
    h, shown = serve._pin(_args(arbiter_pin="2222"), config, generate=True)
    assert verify_pin("2222", h) and shown is None
    h, shown = serve._pin(_args(), config, generate=True)
    assert verify_pin("1111", h) and shown is None
    h, shown = serve._pin(_args(), None, generate=True)
    assert verify_pin("3333", h) and shown is None
    monkeypatch.delenv("BRIDGE_ARBITER_PIN")
    h, shown = serve._pin(_args(), None, generate=True)
    assert shown is not None and verify_pin(shown, h) and not verify_pin(shown + "0", h)


def test_listen_defaults_to_localhost_8000_unless_the_config_opens_it() -> None:
    def where(options: serve.ServerOptions) -> tuple[str, int]:
        return options.host, options.port

    assert where(serve.server_options(_args(), None)) == ("127.0.0.1", 8000)
    lan = loads('[table]\nname = "T"\n[listen]\nhost = "0.0.0.0"\nport = 8080\n')
    assert where(serve.server_options(_args(), lan)) == ("0.0.0.0", 8080)
    assert where(serve.server_options(_args(host="10.0.0.5", port=9000), lan)) == ("10.0.0.5", 9000)


def test_forwarded_headers_are_believed_only_from_the_proxies_configured() -> None:
    assert serve.server_options(_args(), None).proxies == ()
    proxied = loads('[table]\nname = "T"\n[listen]\nproxies = ["10.0.0.2"]\n')
    assert serve.server_options(_args(), proxied).proxies == ("10.0.0.2",)
    assert serve.server_options(_args(trusted_proxy=["10.0.0.3"]), proxied).proxies == ("10.0.0.3",)
    with pytest.raises(ValueError, match=r"listen\.proxies"):
        loads('[table]\nname = "T"\n[listen]\nproxies = "10.0.0.2"\n')


def test_the_arbiter_link_key_comes_from_the_option_then_the_config_then_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.key").write_text("a" * 64 + "\n")
    (tmp_path / "b.key").write_text("b" * 64 + "\n")
    config = loads('[table]\nname = "T"\n[arbiter]\nlink_key_file = "b.key"\n[club]\nurl = "mqtt://h/c"\n'
                   'table_id = 3\n', tmp_path / "table.toml")
    monkeypatch.setenv("BRIDGE_ARBITER_LINK_KEY", "c" * 64)
    monkeypatch.setenv("BRIDGE_TABLE_ID", "9")
    assert serve._link(_args(arbiter_link_key_file=tmp_path / "a.key"), config) == (b"a" * 64, "3")
    assert serve._link(_args(), config) == (b"b" * 64, "3")
    assert serve._link(_args(), None) == (b"c" * 64, "9")
    monkeypatch.setenv("BRIDGE_ARBITER_LINK_KEY", "short")
    with pytest.raises(ValueError, match="too short"):
        serve._link(_args(), None)


def test_log_lines_carry_journald_priorities_under_systemd(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("JOURNAL_STREAM", "8:12345")
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    try:
        serve.setup_logging()
        logging.getLogger("tablectl.test").warning("reader N.play down")
        logging.getLogger("tablectl.test").error("log cannot be written")
    finally:
        root.handlers[:], root.level = saved[0], saved[1]
    err = capsys.readouterr().err.splitlines()
    assert err == ["<4>tablectl.test: reader N.play down", "<3>tablectl.test: log cannot be written"]


def test_demo_serves_the_pages_and_stops_cleanly_on_sigterm(tmp_path: Path, corpus: Path) -> None:
    pytest.importorskip("web_ui.app")
    port = free_base_port(1)
    env = dict(os.environ, BRIDGE_CORPUS=str(corpus))
    proc = subprocess.Popen([sys.executable, "-m", "tablectl", "demo", "--port", str(port), "--speed", "20",
                             "--boards", "1", "--data-dir", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        status = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    status = response.status
                    break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.2)  # waiting for a subprocess to listen, not timing the code under test
        assert status == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err[-2000:]
    assert "arbiter PIN:" in out and f"http://127.0.0.1:{port}/arbiter" in out


def test_the_directors_public_records_setting_is_read_from_the_config_and_checked() -> None:
    assert loads('[table]\nname = "T"\n').public_records is None
    assert loads('[table]\nname = "T"\npublic_records = "never"\n').public_records == "never"
    with pytest.raises(ValueError, match="public_records"):
        loads('[table]\nname = "T"\npublic_records = "sometimes"\n')
    assert serve._public_records("after_session") == "after_session" and serve._public_records(None) is None


def test_sigterm_during_the_headless_wait_stops_it_and_the_handler_takes_no_lock() -> None:
    """The handler runs on the waiting thread itself: it must only set a flag (no Event.set, whose
    lock that thread may hold), and the wait must see it."""
    import threading

    with serve._Stopper() as stop:
        assert not stop.is_set()
        threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM)).start()
        stop.wait()
        assert stop.is_set()
    assert signal.getsignal(signal.SIGTERM) is not stop._handle  # the old handler is back
