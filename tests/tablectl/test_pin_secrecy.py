"""The PIN never leaks: a made-up PIN is printed only on an interactive terminal, else kept in a
file only its owner reads (0600) whose path is printed (so journald never holds it); a PIN is
taken from a file or the environment, and ``--arbiter-pin`` warns that the process list shows
it. ``run``, ``demo``, ``console`` and ``room demo`` alike."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import pty
import re
import select
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from drivers.config import verify_pin
from tablectl import serve
from tests.free_ports import free_base_port

ROOT = Path(__file__).resolve().parents[2]
PIN_LINE = re.compile(r"PIN[^:\n]*: (\d{6})\b")


@dataclass
class Started:
    proc: subprocess.Popen[bytes]
    port: int
    read: list[bytes]


def _drain(fd: int, into: list[bytes]) -> None:
    while select.select([fd], [], [], 0)[0]:
        try:
            data = os.read(fd, 65536)
        except OSError:  # a pty whose other end has closed
            return
        if not data:
            return
        into.append(data)


@contextlib.contextmanager
def _started(cmd: list[str], port: int, tty: bool, env: dict[str, str] | None = None) -> Iterator[Started]:
    """``cmd`` running with its stdout a pseudo-terminal (``tty``) or a pipe, once ``port`` listens;
    ``read`` holds everything it wrote to stdout and stderr, complete once the block ends."""
    master, slave = pty.openpty() if tty else os.pipe()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=slave, stderr=slave, stdin=subprocess.DEVNULL,
                            env={**os.environ, "BRIDGE_ARBITER_PIN": "", **(env or {})}, start_new_session=True)
    os.close(slave)
    read: list[bytes] = []
    try:
        for _ in range(400):
            _drain(master, read)
            assert proc.poll() is None, b"".join(read).decode(errors="replace")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)  # waiting for a subprocess to listen, not timing the code under test
        for _ in range(100):  # and for it to say how it started
            _drain(master, read)
            if b"started in" in b"".join(read) or b"console   http" in b"".join(read):
                break
            time.sleep(0.05)
        yield Started(proc, port, read)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        _drain(master, read)
        os.close(master)


def _login(port: int, path: str, pin: str) -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps({"pin": pin}).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code


def _command(kind: str, tmp_path: Path, port: int) -> tuple[list[str], Path, str]:
    """The command line, the data dir where a made-up PIN is kept, and the login path."""
    data = tmp_path / "data"
    if kind == "run":
        config = tmp_path / "table.toml"
        config.write_text('[table]\nname = "T"\n')
        return ([sys.executable, "-m", "tablectl", "run", "--config", str(config), "--data-dir", str(data),
                 "--port", str(port)], data, "/api/arbiter/login")
    if kind == "demo":
        return ([sys.executable, "-m", "tablectl", "demo", "--data-dir", str(data), "--port", str(port),
                 "--speed", "1", "--boards", "1"], data, "/api/arbiter/login")
    return ([sys.executable, "-m", "tablectl", "console", "--club", "mqtt://console:pw@127.0.0.1:1/club",
             "--data-dir", str(data), "--port", str(port)], data, "/api/login")


@pytest.mark.parametrize("kind", ["run", "demo", "console"])
def test_a_made_up_pin_is_kept_in_a_file_only_its_owner_reads_when_stdout_is_not_a_terminal(
        kind: str, tmp_path: Path, corpus: Path) -> None:
    port = free_base_port(1)
    cmd, data, login = _command(kind, tmp_path, port)
    with _started(cmd, port, tty=False, env={"BRIDGE_CORPUS": str(corpus)}) as started:
        kept = data / "arbiter-pin"
        assert kept.is_file(), b"".join(started.read).decode(errors="replace")
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
        pin = kept.read_text().strip()
        assert re.fullmatch(r"\d{6}", pin)
        assert _login(port, login, pin) == 200
    printed = b"".join(started.read).decode(errors="replace")
    assert not re.search(rf"\b{pin}\b", printed) and str(kept) in printed


@pytest.mark.parametrize("kind", ["run", "demo", "console"])
def test_a_made_up_pin_is_shown_on_an_interactive_terminal_and_kept_nowhere(
        kind: str, tmp_path: Path, corpus: Path) -> None:
    port = free_base_port(1)
    cmd, data, login = _command(kind, tmp_path, port)
    with _started(cmd, port, tty=True, env={"BRIDGE_CORPUS": str(corpus)}) as started:
        shown = PIN_LINE.search(b"".join(started.read).decode(errors="replace"))
        assert shown is not None, b"".join(started.read).decode(errors="replace")
        assert _login(port, login, shown[1]) == 200
    assert not (data / "arbiter-pin").exists()


def test_the_room_demo_keeps_its_made_up_pin_in_a_file_and_gives_it_to_its_tables(
        tmp_path: Path, corpus: Path) -> None:
    from tests.room.conftest import require_mosquitto

    require_mosquitto(passwd=True)
    port = free_base_port(1)
    cmd = [sys.executable, "-m", "tablectl", "room", "demo", "--tables", "1", "--port", str(port),
           "--data-dir", str(tmp_path / "room")]
    with _started(cmd, port, tty=False, env={"BRIDGE_CORPUS": str(corpus)}) as started:
        kept = tmp_path / "room" / "arbiter-pin"
        assert kept.is_file() and stat.S_IMODE(kept.stat().st_mode) == 0o600
        pin = kept.read_text().strip()
        assert _login(port, "/api/login", pin) == 200
        for _ in range(400):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port + 1)) == 0:
                    break
            time.sleep(0.05)  # waiting for the table's process to listen
        assert _login(port + 1, "/api/arbiter/login", pin) == 200
    printed = b"".join(started.read).decode(errors="replace")
    assert not re.search(rf"\b{pin}\b", printed) and str(kept) in printed
    assert pin not in (tmp_path / "room" / "table-1" / "demo.out").read_text()


def _args(**kw: object) -> argparse.Namespace:
    return argparse.Namespace(**({"arbiter_pin": None, "arbiter_pin_file": None} | kw))


def test_the_pin_is_read_from_a_file_and_the_command_line_option_warns_that_ps_shows_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.delenv("BRIDGE_ARBITER_PIN", raising=False)
    secret = tmp_path / "pin"
    secret.write_text("97531\n")
    with caplog.at_level(logging.WARNING, logger="tablectl"):
        h, made_up = serve._pin(_args(arbiter_pin_file=secret), None, generate=True)
        assert verify_pin("97531", h) and made_up is None
        assert not caplog.records
        h, made_up = serve._pin(_args(arbiter_pin="2468"), None, generate=True)
        assert verify_pin("2468", h) and made_up is None
    assert any("process list" in r.getMessage() for r in caplog.records)
    assert all("2468" not in r.getMessage() for r in caplog.records)
    with pytest.raises(ValueError, match="empty"):
        (tmp_path / "empty").write_text("\n")
        serve._pin(_args(arbiter_pin_file=tmp_path / "empty"), None, generate=True)
