"""The instruments of ``bench/room.py``: the console process with its counters, a client of its WebSocket,
a bare MQTT subscriber to the tables' alerts, the pairing of sensor events with alarms, CPU and memory.

An alarm is told apart by its kind: the opening lead out of turn (``lead``, Law 54) and the revoke
(``revoke``, Law 61), the two irregularities ``bench/roomsim.py``'s tables commit.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import statistics
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

Json = dict[str, Any]

KINDS = {"opening_lead_out_of_turn": "lead", "revoke": "revoke"}
"""The irregularities timed (their catalogue kind) -> the bench's name for them."""


def alarm_event(text: str) -> str | None:
    """Which timed irregularity a console alarm's text names (``Table 3: Revoke by E``), if either."""
    words = text.lower()
    if "out of turn" in words:
        return "lead"
    if "revoke" in words:
        return "revoke"
    return None


# -- the console process ---------------------------------------------------------------------------

# tablectl's own main (as ``python -m tablectl``), plus a SIGUSR1 handler that writes the console's
# counters to $BENCH_CONSOLE_STATS (they live in that process only), among them the alarms it handed to its
# subscribers (the web server's WebSocket clients): so that an alarm lost is placed before or after that.
CONSOLE_BOOT = r"""
import json, os, signal, sys
import tablectl.room.console as room_console
made = []
_init = room_console.Console.__init__
def _record(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    made.append(self)
room_console.Console.__init__ = _record
emitted = [0]
_emit = room_console.Console._emit
def _count(self, message):
    if message.get("kind") == "alarm":
        emitted[0] += 1
    _emit(self, message)
room_console.Console._emit = _count
def _dump(signum, frame):
    c = made[0] if made else None
    out = {} if c is None else {"received": c.received, "duplicates": c.duplicates, "version": c.version,
                                "backlog": c._queue.qsize(), "alarms": emitted[0]}
    path = os.environ["BENCH_CONSOLE_STATS"]
    with open(path + ".tmp", "w") as f:
        json.dump(out, f)
    os.replace(path + ".tmp", path)
signal.signal(signal.SIGUSR1, _dump)
from tablectl.cli import main
sys.exit(main(sys.argv[1:]))
"""


# -- measuring ---------------------------------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def status_mb(pid: int, key: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def thread_group(name: str) -> str:
    """Which part of a table a worker's thread is: its engine, or its link (publisher, commands, paho)."""
    if name == "table engine":
        return "engine"
    if name in ("room link", "room commands") or name.startswith("paho-mqtt-client-"):
        return "link"
    return "other"


def thread_cpu(names: dict[int, dict[str, str]]) -> dict[str, float]:
    """CPU seconds of the workers' threads so far (``names``: each worker's pid -> its threads' names), by
    ``thread_group`` (/proc/PID/task/TID/stat)."""
    out = {"engine": 0.0, "link": 0.0, "other": 0.0}
    for pid in names:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
                out[thread_group(names[pid].get(task.name, ""))] += seconds
    return out


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine has spent busy (/proc/stat: all but idle and iowait)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


class CpuMeter:
    """CPU seconds of named processes between ``start()`` and ``stop()``, as % of one core; ``others``:
    the rest of the machine (whatever else runs on it: what this benchmark's figures share the cores with)."""

    def __init__(self, pids: dict[str, list[int]]) -> None:
        self.pids = {**pids, "bench": [os.getpid()]}
        self.t0 = 0.0
        self.c0: dict[str, float] = {}

    def _now(self) -> dict[str, float]:
        out = {name: sum(cpu_seconds(p) for p in pids) for name, pids in self.pids.items()}
        out["others"] = machine_busy_seconds() - sum(out.values())
        return out

    def start(self) -> None:
        self.c0, self.t0 = self._now(), time.monotonic()

    def stop(self) -> tuple[float, dict[str, float]]:
        c1, t1 = self._now(), time.monotonic()
        span = t1 - self.t0
        return span, {name: 100 * (c1[name] - self.c0[name]) / span for name in c1}


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def summary(values: list[float]) -> str:
    if not values:
        return "no samples"
    return (f"p50 {statistics.median(values):6.1f}  p95 {pct(values, 0.95):6.1f}  p99 {pct(values, 0.99):6.1f}  "
            f"max {max(values):6.1f} ms  (n={len(values)})")


def figures(values: list[float]) -> Json:
    """The same, for ``--json``."""
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50": statistics.median(values), "p95": pct(values, 0.95),
            "p99": pct(values, 0.99), "max": max(values)}


# -- the main process --------------------------------------------------------------------------------

class AlarmClient:
    """The console's ``/ws``: notes when each alarm arrives; counts the room pushes and their size."""

    def __init__(self, url: str, origin: str, cookie: str) -> None:
        from websockets.sync.client import connect
        from websockets.typing import Origin

        self.ws = connect(url, origin=Origin(origin), additional_headers={"Cookie": cookie}, open_timeout=10,
                          max_size=1 << 26)
        self.alarms: dict[tuple[str, str], list[tuple[float, Json]]] = {}
        """(event, table) -> each alarm of that kind for that table: when it arrived, the message."""
        self.other_alarms: list[Json] = []
        self.rooms = 0
        self.room_bytes = 0
        self.room_max = 0
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):
            for text in self.ws:
                now = time.time()
                if isinstance(text, bytes):
                    continue
                if text.startswith('{"kind":"alarm"'):
                    self._alarm(json.loads(text), now)
                else:
                    self._room(text)

    def _alarm(self, msg: Json, now: float) -> None:
        event = alarm_event(str(msg.get("text", "")))
        with self.changed:
            if event is not None:
                self.alarms.setdefault((event, str(msg.get("table"))), []).append((now, msg))
            else:
                self.other_alarms.append(msg)
            self.changed.notify_all()

    def _room(self, text: str) -> None:
        """A push of the room (the whole room, or its changes): counted, and its size."""
        with self.changed:
            self.rooms += 1
            self.room_bytes += len(text)
            self.room_max = max(self.room_max, len(text))

    def _count(self, event: str) -> int:
        return sum(len(v) for (e, _), v in self.alarms.items() if e == event)

    def count(self, event: str) -> int:
        """The alarms of ``event`` (``lead`` or ``revoke``) received so far."""
        with self.changed:
            return self._count(event)

    def wait_count(self, event: str, n: int, timeout: float, quiet: float = 10.0) -> bool:
        """Wait until ``n`` alarms of ``event`` have come, at most ``timeout`` seconds, and no longer than
        ``quiet`` seconds without a new one of any kind (the rest are not coming: lost)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while self._count(event) < n:
                seen = sum(len(v) for v in self.alarms.values())
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(min(left, quiet))
                if sum(len(v) for v in self.alarms.values()) == seen:
                    return self._count(event) >= n
            return True

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


class AlertTap:
    """A bare MQTT subscriber (as the console user) to the tables' alerts: when each alarm left the broker."""

    def __init__(self, address: Any) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.raised: dict[tuple[str, str], list[tuple[float, object]]] = {}
        """(event, table) -> each alert raising an alarm, in the order the table sent them: when it left the
        broker, and the envelope's ``at`` (which the console's alarm repeats: how the two are matched)."""
        self._seen: set[tuple[str, int]] = set()
        self.lock = threading.Lock()
        self.ready = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-alert-tap")
        self.client.username_pw_set(address.username, address.password)
        topic = f"bridge/{address.club}/table/+/alert"
        self.client.on_connect = lambda client, *_: client.subscribe(topic, qos=1)
        self.client.on_subscribe = lambda *_: self.ready.set()
        self.client.on_message = self._on_message
        self.client.connect(address.host, address.port, keepalive=30)
        self.client.loop_start()
        if not self.ready.wait(10):
            raise SystemExit("the alert tap could not subscribe")

    def _on_message(self, client: object, userdata: object, message: Any) -> None:
        now = time.time()
        try:
            msg = json.loads(message.payload)
            body = msg.get("body", msg)  # the body's fields beside the envelope's (or under "body")
            key = (str(msg["table"]), int(msg["seq"]))
        except (ValueError, KeyError, TypeError):
            return
        event = KINDS.get(str(body.get("kind")))
        if body.get("alert") == "irregularity" and body.get("event") == "raised" and body.get("alarm") and event:
            with self.lock:
                if key not in self._seen:
                    self._seen.add(key)
                    self.raised.setdefault((event, key[0]), []).append((now, msg.get("at")))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.disconnect()
            self.client.loop_stop()


def tap_user(room: Any) -> Any:
    """A user of the bench's own on ``room``'s broker (``RoomFiles``) that may only read the tables' alerts, for
    ``AlertTap``: the broker binds client ids to users, so the bench logging in as ``console`` would take the
    console's own session over. Before the broker starts (it reads its passwords then)."""
    import dataclasses
    import secrets

    from tablectl.room.process import find_mosquitto_passwd

    console = room.address_of("console")
    password = secrets.token_hex(16)
    subprocess.run([find_mosquitto_passwd(), "-b", str(room.passwd), "bench-tap", password],
                   check=True, capture_output=True)
    with room.acl.open("a", encoding="utf-8") as acl:
        acl.write(f"\nuser bench-tap\ntopic read bridge/{console.club}/table/+/alert\n")
    return dataclasses.replace(console, username="bench-tap", password=password)


def stop_group(proc: subprocess.Popen[Any], timeout: float = 10) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


PARTS = {
    "table": "sensor event -> the table's log committed (engine, sensing, step, fsync)",
    "link+broker": "-> a bare MQTT subscriber has the alert (link publisher, paho, Mosquitto)",
    "  link": "of which: the table's link handed the alert to paho (its publisher thread, in the table's process)",
    "  brokers": "of which: -> the bare subscriber has it (paho's socket, the broker(s))",
    "console": "-> the WebSocket client has the alarm (console process, web server, WebSocket)",
    "  mqtt in": "of which: the console's paho thread later than the bare subscriber",
    "  thread+ws": "of which: the console thread's batch, the web server's loop, the WebSocket",
}


def latencies(event: str, samples: list[Json], client: AlarmClient, tap: AlertTap,
              used: dict[tuple[str, str], int]) -> tuple[dict[str, list[float]], int]:
    """Pair each of ``samples`` (of ``event``) with its table's alert and alarm: the latencies (ms), and how
    many got no alarm on the WebSocket.

    A table's samples and the alerts the bare subscriber saw come in the same order (one link, QoS 1, in
    order); ``used`` counts those paired so far, across phases. The console's alarm is the one repeating the
    alert's ``at``: an alarm that never came is lost and shifts no other pairing."""
    out: dict[str, list[float]] = {"total": [], **{part: [] for part in PARTS}}
    lost = 0
    with client.changed:
        alarms = {k: {msg.get("at"): (t, msg) for t, msg in v} for k, v in client.alarms.items()}
    with tap.lock:
        tapped = {k: list(v) for k, v in tap.raised.items()}
    for sample in sorted(samples, key=lambda m: m["emit"]):
        key = (event, sample["table"])
        k = used.get(key, 0)
        alerts = tapped.get(key, [])
        if k >= len(alerts):  # the alert itself never left the broker (so no alarm either)
            lost += 1
            continue
        used[key] = k + 1
        at_tap, at = alerts[k]
        got = alarms.get(key, {}).get(at)
        if got is None:
            lost += 1
            continue
        at_ws, msg = got
        out["total"].append(1000 * (at_ws - sample["emit"]))
        received = msg.get("received")
        if sample.get("committed") is not None and isinstance(received, float):
            out["table"].append(1000 * (sample["committed"] - sample["emit"]))
            out["link+broker"].append(1000 * (at_tap - sample["committed"]))
            if sample.get("published") is not None:
                out["  link"].append(1000 * (sample["published"] - sample["committed"]))
                out["  brokers"].append(1000 * (at_tap - sample["published"]))
            out["console"].append(1000 * (at_ws - at_tap))
            out["  mqtt in"].append(1000 * (received - at_tap))
            out["  thread+ws"].append(1000 * (at_ws - received))
    return out, lost


def console_stats(console: subprocess.Popen[bytes], path: Path) -> Json:
    """The console's counters (it writes them on SIGUSR1)."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    console.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 15  # a room's console runs niced (--nice): on a loaded machine it answers late
    while time.monotonic() < deadline:
        with contextlib.suppress(FileNotFoundError, ValueError):
            out: Json = json.loads(path.read_text())
            return out
        time.sleep(0.02)
    return {}


def rate(a: Json, b: Json, span: float) -> str:
    if not a or not b:
        return "?"
    return f"{(b['received'] - a['received']) / span:.0f}"


def state_sizes(path: Path) -> tuple[float, int] | None:
    with contextlib.suppress(sqlite3.Error):
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            sizes = [int(s) for (s,) in conn.execute("SELECT length(payload) FROM state")]
        finally:
            conn.close()
        if sizes:
            return statistics.mean(sizes), max(sizes)
    return None


def link_trouble(broker_log: Path, console_log: Path, worker_logs: list[Path]) -> Json:
    """What the logs say went wrong on the way (an alarm late by a reconnection, or lost): the broker's
    disconnections and drops by client (console, tables, other), and the warnings the console and the tables'
    links wrote when they lost the broker."""

    def lines(path: Path) -> list[str]:
        with contextlib.suppress(OSError):
            return path.read_text(errors="replace").splitlines()
        return []

    out: Json = {"broker": {}, "console_lost_broker": 0, "tables_lost_broker": 0}
    for line in lines(broker_log):
        low = line.lower()
        if not any(w in low for w in ("disconnect", "timeout", "dropp", "closing", "exceeded")):
            continue
        who = "console" if "-console" in line else "tables" if "-table-" in line else "other"
        what = ("timeout" if "timeout" in low or "exceeded" in low else "dropped" if "dropp" in low
                else "disconnected")
        key = f"{who} {what}"
        out["broker"][key] = out["broker"].get(key, 0) + 1
    out["console_lost_broker"] = sum("lost the room's broker" in line for line in lines(console_log))
    out["tables_lost_broker"] = sum("lost the room's broker" in line for p in worker_logs for line in lines(p))
    return out
