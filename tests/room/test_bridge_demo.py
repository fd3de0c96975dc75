"""``tablectl room demo --rooms N --tables T``: an event on this machine, each room on its own broker
bridged to a centre, each with its console, and the head console seeing every table
(docs/event-topology.md). Ctrl-C stops it all, brokers last, and leaves no broker running."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tests.free_ports import free_base_port
from tests.room.conftest import require_mosquitto
from tests.room.test_room_demo_stop import WAIT, _free, _processes_naming


def _tables_held(path: Path) -> set[str]:
    """The tables a console's file holds messages of."""
    if not path.is_file():
        return set()
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {t for (t,) in conn.execute("SELECT DISTINCT table_id FROM message")}
    except sqlite3.Error:
        return set()
    finally:
        conn.close()


def test_the_event_demo_runs_rooms_bridged_to_the_head_console(tmp_path: Path) -> None:
    require_mosquitto(passwd=True)
    rooms, tables = 2, 2
    count = 1 + rooms + rooms * tables
    port = free_base_port(count)
    data = tmp_path / "event"
    env = {**os.environ, "BRIDGE_ARBITER_PIN": "2468"}
    event = subprocess.Popen([sys.executable, "-m", "tablectl", "room", "demo", "--rooms", str(rooms), "--tables",
                              str(tables), "--port", str(port), "--data-dir", str(data), "--deal", "--speed", "20",
                              "--first-irregularity", "none"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, start_new_session=True)
    every = {"A1", "A2", "B1", "B2"}
    try:
        deadline = time.monotonic() + WAIT
        while not (_tables_held(data / "head-console" / "console.sqlite") == every
                   and _tables_held(data / "console-A" / "console.sqlite") == {"A1", "A2"}
                   and _tables_held(data / "console-B" / "console.sqlite") == {"B1", "B2"}
                   and not any(_free(port + i) for i in range(count))):  # every page up, every console fed
            assert event.poll() is None, event.communicate()[0].decode(errors="replace")
            assert time.monotonic() < deadline, "the head console does not hold every table of the event"
            time.sleep(0.5)
        os.killpg(event.pid, signal.SIGINT)
        printed = event.communicate(timeout=WAIT)[0].decode(errors="replace")
    finally:
        if event.poll() is None:
            os.killpg(event.pid, signal.SIGKILL)
            event.wait()
    assert event.returncode == 0, printed
    assert "head console" in printed and "room B console" in printed
    assert "stopped (exit" not in printed, printed
    assert _processes_naming(str(data / "event")) == []
