"""A club's clone: the repository alone, with no corpus beside it, runs ``make run``'s room demo
(``tablectl room demo``), says the tables deal their own boards, and the irregularity table 1
commits on its first board reaches the Director's console as an alarm (Law 27, insufficient bid).

The copy holds the repository's files as they are now (tracked and new, uncommitted changes
included: ``git ls-files --cached --others --exclude-standard``) in a temporary folder with no
``shared`` folder beside it; the project's own Python runs the copy's code (its working
directory comes first on ``sys.path``, before the editable install), with ``BRIDGE_CORPUS``
unset.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.free_ports import free_base_port
from tests.room.conftest import require_mosquitto
from tests.room.test_room_demo_stop import _free

ROOT = Path(__file__).resolve().parents[2]
PIN = "4711"
TABLES = 2
STARTED_WITHIN = 120.0
ALARM_WITHIN = 240.0
"""Generous bounds: a loaded machine is only slower (the demo's first alarm comes ~30 s in at speed 1)."""


_NOT_THE_REPOSITORY = (".git", ".venv", "__pycache__", "*.egg-info", ".pytest_cache", ".mypy_cache", ".ruff_cache",
                       ".hypothesis", ".demo-data", ".room-demo", ".console-data")
"""What a checkout holds that is not the repository (``.gitignore``): for a tree without git."""


def _copy_repository(target: Path) -> Path:
    """The repository's files, as they are in the working tree, copied to ``target``."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                                check=True, capture_output=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):  # an unpacked archive: every file but the ignored ones
        shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(*_NOT_THE_REPOSITORY))
        return target
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():  # a file deleted in the working tree is not copied
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@contextlib.contextmanager
def _room_demo(clone: Path, data: Path, port: int) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("BRIDGE_CORPUS", "PYTHONPATH", "PYTHONSAFEPATH", "BRIDGE_CLUB_URL", "BRIDGE_TABLE_ID")}
    env.update(BRIDGE_ARBITER_PIN=PIN, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "tablectl", "room", "demo", "--tables", str(TABLES),
                             "--port", str(port), "--data-dir", str(data), "--speed", "4"],
                            cwd=clone, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    printed: list[str] = []

    def read() -> None:  # keep reading, so that the pipe never fills
        for line in proc.stdout or ():
            printed.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield proc, printed
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C, as a user stops it
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        reader.join(10)


def _wait(condition: Any, within: float, what: str, printed: list[str]) -> Any:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.5)  # polling a separate process for what it must show, not timing it
    raise AssertionError(f"no {what} within {within:g} s:\n" + "".join(printed))


def test_a_clone_alone_runs_the_room_demo_on_boards_it_deals_and_an_alarm_reaches_the_console(
        tmp_path: Path) -> None:
    require_mosquitto(passwd=True)
    clone = _copy_repository(tmp_path / "clone" / "bridgetable")
    assert not (clone.parent / "shared").exists() and not (clone.parent.parent / "shared").exists()
    which = subprocess.run([sys.executable, "-c", "import tablectl; print(tablectl.__file__)"], cwd=clone,
                           env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")},
                           capture_output=True, text=True, check=True).stdout.strip()
    assert Path(which).is_relative_to(clone), f"the copy's code must run, not {which}"
    port = free_base_port(TABLES + 1)
    with _room_demo(clone, tmp_path / "room", port) as (proc, printed):
        _wait(lambda: any("started in" in line for line in printed) or proc.poll() is not None,
              STARTED_WITHIN, "start", printed)
        assert proc.poll() is None, "".join(printed)
        _wait(lambda: not _free(port) or proc.poll() is not None, STARTED_WITHIN, "console listening", printed)
        assert proc.poll() is None, "".join(printed)
        said = [line for line in printed if line.startswith("no corpus found at ")]
        assert len(said) == 1 and said[0].rstrip().endswith("the tables deal their own boards (seeded)"), printed

        jar = http.cookiejar.CookieJar()
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        login = urllib.request.Request(f"http://127.0.0.1:{port}/api/login", data=json.dumps({"pin": PIN}).encode(),
                                       headers={"Content-Type": "application/json"})
        with browser.open(login, timeout=10) as answer:
            assert answer.status == 200

        def alarms() -> list[dict[str, Any]]:
            assert proc.poll() is None, "".join(printed)
            with browser.open(f"http://127.0.0.1:{port}/api/room", timeout=10) as answer:
                room = json.load(answer)
            return [a for a in room["alerts"] if a.get("alarm") and a.get("table") == "1"]

        found = _wait(alarms, ALARM_WITHIN, "alarm from table 1 on the console", printed)
        assert found[0]["kind"] == "insufficient_bid", found
        assert found[0]["board"] is not None
        for i in range(1, TABLES + 1):
            out = (tmp_path / "room" / f"table-{i}" / "demo.out").read_text(errors="replace")
            assert "dealt by the demo (deal seed 1)" in out, out
