"""Ctrl-C on ``tablectl room demo`` (``make run``) stops the room quietly and in order: the tables,
then the console, then the broker they all use. Nobody says "lost the room's broker" about a
shutdown that was asked for, and no broker is left running."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.free_ports import free_base_port
from tests.room.conftest import require_mosquitto

WAIT = 90.0
"""Seconds the room may take to come up on a loaded machine (a condition waited on, not a figure)."""


def _free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def _processes_naming(text: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_ctrl_c_on_the_room_demo_stops_every_table_quietly_before_the_broker(tmp_path: Path, corpus: Path) -> None:
    require_mosquitto(passwd=True)
    tables = 2
    port = free_base_port(tables + 1)
    data = tmp_path / "room"
    env = {**os.environ, "BRIDGE_CORPUS": str(corpus), "BRIDGE_ARBITER_PIN": "2468"}
    room = subprocess.Popen([sys.executable, "-m", "tablectl", "room", "demo", "--tables", str(tables), "--port",
                             str(port), "--data-dir", str(data)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)  # its own terminal's process group
    try:
        outs = [data / f"table-{i}" / "demo.out" for i in range(1, tables + 1)]
        deadline = time.monotonic() + WAIT
        while not (all(out.is_file() and "linked to the room" in out.read_text(errors="replace") for out in outs)
                   and not any(_free(port + i) for i in range(tables + 1))):  # linked, and every page up
            assert room.poll() is None, room.communicate()[0].decode(errors="replace")
            assert time.monotonic() < deadline, "the tables did not link to the room"
            time.sleep(0.2)
        os.killpg(room.pid, signal.SIGINT)  # Ctrl-C at the terminal: the whole foreground group
        printed = room.communicate(timeout=WAIT)[0].decode(errors="replace")
    finally:
        if room.poll() is None:
            os.killpg(room.pid, signal.SIGKILL)
            room.wait()
    assert room.returncode == 0, printed
    assert "signal 2: stopping" in printed
    assert "lost the room's broker" not in printed, printed
    assert "stopped (exit" not in printed, printed  # no table reported as if it had failed
    for out in outs:
        text = out.read_text(errors="replace")
        assert "lost the room's broker" not in text, text
    assert _processes_naming(str(data / "broker")) == []
