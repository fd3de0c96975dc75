"""The instruments of ``bench/event.py``: the consoles' processes (``bench/roomprobe.py``'s boot, with the head
console's own timing), a client of the head console's WebSocket noting each push, logging in, waiting for the
tables, and lowering what would run on other machines in a real event."""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from roomprobe import CONSOLE_BOOT, AlarmClient, console_stats
from roomsim import tail

ROOT = Path(__file__).resolve().parent.parent
CLUB = "benchevent"
PIN = "2468"

Json = dict[str, Any]

TIMING = r"""
import time as _time
emit_delays, changes_seconds = [], []
_emit_untimed = room_console.Console._emit
def _emit_timed(self, message):
    if message.get("kind") == "alarm" and isinstance(message.get("received"), float):
        emit_delays.append(_time.time() - message["received"])
    _emit_untimed(self, message)
room_console.Console._emit = _emit_timed
_changes_untimed = room_console.Console.changes
_profile = None
if os.environ.get("BENCH_PROFILE_CHANGES"):
    import cProfile
    _profile = cProfile.Profile()
def _changes_timed(self, since):
    t0 = _time.perf_counter()
    if _profile is not None:
        _profile.enable()
    try:
        return _changes_untimed(self, since)
    finally:
        if _profile is not None:
            _profile.disable()
        changes_seconds.append(_time.perf_counter() - t0)
room_console.Console.changes = _changes_timed
def _dump_timed(signum, frame):
    c = made[0] if made else None
    out = {} if c is None else {"received": c.received, "duplicates": c.duplicates, "version": c.version,
                                "backlog": c._queue.qsize(), "alarms": emitted[0], "emit_delays": emit_delays[:],
                                "changes_seconds": changes_seconds[:]}
    path = os.environ["BENCH_CONSOLE_STATS"]
    if _profile is not None:
        import io, pstats
        text = io.StringIO()
        pstats.Stats(_profile, stream=text).sort_stats("tottime").print_stats(12)
        out["profile"] = text.getvalue()
    with open(path + ".tmp", "w") as f:
        json.dump(out, f)
    os.replace(path + ".tmp", path)
signal.signal(signal.SIGUSR1, _dump_timed)
"""
"""Added to ``CONSOLE_BOOT`` after its counters: when the console thread emits each alarm (after the paho thread
took its alert: ``received``), and how long each ``changes()`` takes (what a push to the page is made of; the
console thread waits for its lock meanwhile), written with the counters on SIGUSR1."""
_BOOT_END = "signal.signal(signal.SIGUSR1, _dump)\n"


def console_boot(switch: float) -> str:
    """``CONSOLE_BOOT`` with ``TIMING``, and the switch interval of the experiment."""
    if _BOOT_END not in CONSOLE_BOOT:
        raise SystemExit("bench/roomprobe.py's CONSOLE_BOOT changed: bench/event.py's TIMING no longer fits")
    boot = CONSOLE_BOOT.replace(_BOOT_END, _BOOT_END + TIMING)
    return boot if not switch else f"import sys\nsys.setswitchinterval({switch!r})\n{boot}"


class PushClient(AlarmClient):
    """The head console's ``/ws``, as ``AlarmClient``, noting each delta push: its size and the tiles in it."""

    def __init__(self, url: str, origin: str, cookie: str) -> None:
        self.deltas: list[tuple[int, int, int, int]] = []
        """Each delta pushed: bytes, tiles in it, calls in it, bytes of its calls."""
        super().__init__(url, origin, cookie)

    def _room(self, text: str) -> None:
        super()._room(text)
        if text.startswith('{"kind":"delta"'):
            msg = json.loads(text)
            calls = msg.get("calls", []) + msg.get("calls_changed", []) + msg.get("calls_gone", [])
            self.deltas.append((len(text.encode()), len(msg.get("tiles", [])), len(calls),
                                len(json.dumps(calls, separators=(",", ":")))))


def lower(pid: int, nice: int) -> None:
    """Process ``pid`` (a session of its own) at ``nice``: its threads to come, and its session's autogroup, by
    which Linux shares the cores among sessions first (the niceness of a thread counts only within its group)."""
    if not nice:
        return
    os.setpriority(os.PRIO_PROCESS, pid, nice)
    with contextlib.suppress(OSError):
        Path(f"/proc/{pid}/autogroup").write_text(str(nice))


def fds(pid: int) -> int:
    with contextlib.suppress(OSError):
        return len(os.listdir(f"/proc/{pid}/fd"))
    return -1


class Consoles:
    """The room consoles and the head console, each a ``tablectl console`` process with counters."""

    def __init__(self, tmp: Path, profile: bool = False) -> None:
        self.tmp = tmp
        self.profile = profile
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: dict[str, Path] = {}
        self._files: list[Any] = []

    def start(self, name: str, url: str, port: int, head: bool, nice: int = 0, switch: float = 0.0) -> None:
        log = self.tmp / f"console-{name}.log"
        out = log.open("wb")
        self._files.append(out)
        env = {**os.environ, "BRIDGE_CLUB_URL": url, "BRIDGE_ARBITER_PIN": PIN,
               "BENCH_CONSOLE_STATS": str(self.stats_file(name))}
        if head and self.profile:
            env["BENCH_PROFILE_CHANGES"] = "1"
        boot = console_boot(switch)
        cmd = [sys.executable, "-c", boot, "console", "--port", str(port), "--data-dir",
               str(self.tmp / f"console-{name}")] + (["--head"] if head else [])
        self.procs[name] = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        lower(self.procs[name].pid, nice)  # before its threads start: it is still importing
        self.logs[name] = log

    def stats_file(self, name: str) -> Path:
        return self.tmp / f"console-{name}-stats.json"

    def stats(self, name: str) -> Json:
        return console_stats(self.procs[name], self.stats_file(name))

    def check(self) -> None:
        for name, proc in self.procs.items():
            if proc.poll() is not None:
                raise SystemExit(f"console {name} stopped (exit {proc.returncode}):\n{tail(self.logs[name])}")

    def close(self) -> None:
        """Close the logs' files, once the processes have stopped (``_procs.stop``)."""
        for f in self._files:
            f.close()


def wait_online(http: Any, cookie: str, n: int, consoles: Consoles, brokers: list[Any], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    online = 0
    while True:
        consoles.check()
        for b in brokers:
            if not b.alive:
                raise SystemExit(f"a broker stopped:\n{b.log_tail()}")
        tiles = http.get("/api/room", headers={"Cookie": cookie}).json()["tiles"]
        online = sum(1 for t in tiles if t["online"])
        if online >= n:
            return
        if time.monotonic() > deadline:
            raise SystemExit(f"only {online} of {n} tables online at the head console after {timeout:.0f} s")
        time.sleep(0.5)


def login(port: int, consoles: Consoles, timeout: float) -> tuple[Any, str]:
    import httpx

    from web_ui.security import CONSOLE_COOKIE

    base = f"http://127.0.0.1:{port}"
    http = httpx.Client(base_url=base, timeout=30)
    deadline = time.monotonic() + timeout
    while True:
        consoles.check()
        with contextlib.suppress(httpx.HTTPError):
            if http.get("/api/session").status_code == 401:
                break
        if time.monotonic() > deadline:
            raise SystemExit(f"the head console did not answer within {timeout:.0f} s")
        time.sleep(0.2)
    http.post("/api/login", json={"pin": PIN}, headers={"Origin": base}).raise_for_status()
    return http, f"{CONSOLE_COOKIE}={http.cookies[CONSOLE_COOKIE]}"


def pushes(deltas: list[tuple[int, int, int, int]]) -> Json:
    """The head console's delta pushes: their sizes, and bytes per tile they carry."""
    if not deltas:
        return {"n": 0}
    sizes = sorted(d[0] for d in deltas)
    per_tile = [d[0] / d[1] for d in deltas if d[1]]
    biggest = max(deltas)
    p99 = sizes[min(len(sizes) - 1, int(0.99 * len(sizes)))]
    return {"n": len(deltas), "p50": statistics.median(sizes), "p99": p99,
            "max": biggest[0], "max_tiles": biggest[1], "max_calls": biggest[2],
            "per_tile_median": statistics.median(per_tile) if per_tile else None,
            "one_tile": statistics.median([d[0] for d in deltas if d[1] == 1] or [0]),
            "one_tile_calls": statistics.median([d[3] for d in deltas if d[1] == 1] or [0])}


