"""The club room end to end: sensor event at a table -> alarm on the Director's console WebSocket.

Run with ``.venv/bin/python bench/room.py [--tables 30] [--rounds 10] [--workers 2] [--idle 20]``.
Prints the figures and asserts nothing (the club room's targets: 30 tables through one
Mosquitto to one console on a 2-core machine, sensor event -> console alarm p99 under
100 ms; console and broker resident memory under 150 MB together; the link's CPU near zero
when the room is idle).

What runs, all on loopback:

- a private Mosquitto with the club configuration of ``tablectl room init`` (tables 1..N,
  passwords and ACL) on a free port;
- the real console, ``tablectl console`` in a process of its own (its room address in
  ``$BRIDGE_CLUB_URL`` and the PIN in ``$BRIDGE_ARBITER_PIN``, so no password is on a command
  line), started through tablectl's own ``main`` with one addition: SIGUSR1 makes it write
  its ``Console.received`` and ``Console.duplicates`` to a file, read at the end;
- this script logs in (``POST /api/login``) and is a client of the console's ``/ws``;
- the N tables in ``--workers`` processes (each a share of the tables, as 30 table
  processes would swamp 2 cores): each table is a ``TableRuntime`` (its own SQLite log,
  engine thread, fsync'd commits), a ``SimTable`` and a ``TableLink`` (its own paho client,
  its table's credentials), as in tests/room/test_link.py.

Each round, a table starts a board from its board tag, plays its auction through the
simulated bidding boxes (1NT by N, three passes; the sensing clock is a per-table fake
clock moved by hand, as in the tests, so no real ``call_confirm`` waits are spent), then W
puts a card on W's play zone while E is on lead: an opening lead out of turn (Law 54). A
card arriving on a play zone is a ``PlayCard`` at once (no debounce applies to it), so the
latency runs from the moment the worker hands the tag read to the table (``time.time()``
just before ``SimTable.present``) to the moment this script's WebSocket client receives
``{"kind": "alarm"}`` naming that table (``time.time()``: one machine, one wall clock).
Then the table takes a ruling (``accept_see_dummy``, submitted at the table), the arbiter
assigns the tricks (the board ends: a result for the travellers), the cards are gathered.

- staggered: every table plays ``--rounds`` rounds on its own thread, pausing at random
  between its acts, so leads out of turn come at random moments among the other tables'
  board starts, calls, rulings and results;
- burst: ``--rounds`` times, every table is brought to the opening lead, the room is left
  quiet for a moment, then all N tables commit their lead out of turn at once.

The latency is split with the times the messages carry and a bare MQTT subscriber in this
process (as the console user, to the tables' ``alert`` topics): ``table`` = sensor event ->
the table's log committed (engine thread, sensing, table step, SQLite fsync); ``link+broker``
= -> the bare subscriber has the alert (link publisher thread, paho, QoS 1 through
Mosquitto); ``console`` = -> this client has the alarm, itself split at the time the
console's paho thread took the message (the alarm's ``received``): ``mqtt in`` (the
console's paho thread later than the bare subscriber: the console process busy; within a
millisecond or two either way, the two subscribers being served one after the other) and
``thread+ws`` (the console thread's batch the alert belongs to, its SQLite commit and
acknowledgements; the web server's loop; the WebSocket). Then the resident memory of the
console and the broker, the CPU of each process during each phase (and of the other programs
on the machine: the figures share its cores with them), and over ``--idle`` seconds of an
idle room (every table linked, nothing happening, one WebSocket client), the tables' share
split by thread (the links' paho, publisher and command threads; the engines).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CLUB = "benchclub"
PIN = "2468"
LEAD = ("S2", "W.play")  # W's card on W's play zone while E is on lead (1NT by N): Law 54
AUCTION = (("1NT", "N"), ("Pass", "E"), ("Pass", "S"), ("Pass", "W"))
BOARD_COUNT = 32
WAIT = 15.0
"""Seconds to wait for anything that must happen (a worker's answer, the alarms of a burst)."""

Json = dict[str, Any]


def board_tag(number: int) -> str:
    return f"0B0000000000{number:02X}"


# -- the worker process: several tables, each a runtime, a simulated table and its link ------------

class _Clock:
    """A table's hand-moved monotonic clock (the sensing layer's timing, as in the tests)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class _Table:
    """One table of the room: TableRuntime + SimTable + TableLink (tests/room/test_link.py)."""

    def __init__(self, data: Path, url: str, table_id: str) -> None:
        from controller import actions as a
        from controller.deal import Deal
        from controller.seats import Seat
        from controller.sensing.deck import DeckRegistry
        from drivers.sim import SimTable, default_deck
        from tablectl.room.address import ClubAddress
        from tablectl.room.link import TableLink
        from tablectl.runtime import TableRuntime, TableSetup

        deal = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
        self.id = table_id
        self.clock = _Clock()
        setup = TableSetup(name=f"Table {table_id}", decks=DeckRegistry.from_mapping({"deck1": default_deck()}),
                           deck="deck1", boards={board_tag(n): n for n in range(1, BOARD_COUNT + 1)},
                           hand_record={n: a.BoardStart(n, Seat.N, None, deal) for n in range(1, BOARD_COUNT + 1)})
        self.rt = TableRuntime(data / f"table-{table_id}.sqlite", setup, monotonic=self.clock)
        self.sim = SimTable(default_deck(), self.rt.clock)
        self.rt.start([self.sim])
        self.link = TableLink(self.rt, ClubAddress.parse(url), table_id)
        self.link.start()
        self._armed = False
        self.committed = threading.Event()
        self.commit_time = 0.0
        self.rt.subscribe(self._on_commit)  # after the link's: the link is told first
        self.board = 0
        self.pending = False  # a lead out of turn not yet ruled
        self.problems: list[str] = []

    def _on_commit(self, seq: int) -> None:
        if self._armed:
            self._armed = False
            self.commit_time = time.time()
            self.committed.set()

    def _sync(self, dt: float) -> None:
        self.clock.now += dt
        if not self.rt.sync(WAIT):
            raise RuntimeError(f"table {self.id}: the engine did not answer")

    def prepare(self, pause: Callable[[], None] = lambda: None) -> None:
        """A new board from its tag, then the auction to the opening lead."""
        from controller.table import Phase

        self.board = self.board % BOARD_COUNT + 1
        number = self.board
        self.sim.present(board_tag(number), "board")
        self._sync(0.5)
        if not self.rt.wait_until(lambda s: s.state.board is not None and s.state.board.number == number
                                  and s.state.board.phase is not Phase.DONE, WAIT):
            raise RuntimeError(f"table {self.id}: board {number} did not start from its tag")
        for slot, seat in AUCTION:
            pause()
            self.sim.pull(slot, seat)
            self._sync(2.0)
            if slot == "Pass":
                self.sim.put_back(slot, seat)
                self._sync(0.1)
        board = self.rt.snapshot().state.board
        if board is None or board.phase is not Phase.PLAY:
            raise RuntimeError(f"table {self.id}: board {number} is not at the opening lead "
                               f"({None if board is None else board.phase})")

    def lead(self) -> float:
        """W leads out of turn; returns the wall time of the sensor event (just before it is handed over)."""
        self.committed.clear()
        self._armed = True
        self.clock.now += 1.0
        emitted = time.time()
        self.sim.present(*LEAD)
        self.pending = True
        return emitted

    def finish(self) -> None:
        """The ruling, the tricks assigned (the board ends), the cards gathered."""
        from controller import actions as a

        if not self.pending:
            return
        self.pending = False
        for action in (a.Ruling("accept_see_dummy"), a.Adjust(7)):
            self.clock.now += 1.0
            answer = self.rt.submit(action)
            if answer.rejected:
                self.problems.append(f"table {self.id}: {type(action).__name__} refused: {answer.rejected}")
        self.clock.now += 1.0
        for reader in self.sim.readers:
            self.sim.clear(reader)
        self.sim.put_back("1NT", "N")
        self._sync(3.0)  # past every sensing deadline (dropout, pick-up): none is left pending on the fake clock

    def next_board(self) -> None:
        self.finish()
        self.prepare()

    def stop(self) -> None:
        self.link.stop()
        self.rt.stop()


class _Worker:
    """Commands on stdin, one JSON object a line; answers and samples on stdout, likewise."""

    def __init__(self) -> None:
        self.tables: list[_Table] = []
        self._out = threading.Lock()
        self.rng = random.Random(1)

    def say(self, message: Json) -> None:
        with self._out:
            sys.stdout.write(json.dumps(message) + "\n")
            sys.stdout.flush()

    def run(self) -> None:
        for line in sys.stdin:
            cmd = json.loads(line)
            what = cmd["cmd"]
            try:
                if what == "init":
                    self.init(Path(cmd["data"]), cmd["tables"], cmd["seed"])
                elif what == "staggered":
                    self.staggered(cmd["rounds"], cmd["pause"], cmd["wait"])
                elif what == "prepare":
                    self.each(_Table.next_board)
                elif what == "fire":
                    self.fire()
                elif what == "finish":
                    self.each(lambda t: t.finish())
                elif what == "threads":
                    self.say({"ok": what, "threads": {str(th.native_id): th.name for th in threading.enumerate()},
                              "wakeups": sum(t.rt.wakeups for t in self.tables),
                              "deadlines": sum(1 for t in self.tables if t.rt.engine.next_deadline is not None)})
                    continue
                elif what == "stats":
                    self.say({"ok": what, "published": sum(t.link.published for t in self.tables),
                              "problems": [p for t in self.tables for p in t.problems]})
                    continue
                elif what == "stop":
                    for t in self.tables:
                        t.stop()
                    self.say({"ok": what})
                    return
                self.say({"ok": what})
            except Exception as exc:  # the main process reports it and stops everything
                import traceback

                traceback.print_exc()
                self.say({"error": f"{what}: {type(exc).__name__}: {exc}"})

    def init(self, data: Path, tables: list[list[str]], seed: int) -> None:
        self.rng = random.Random(seed)
        self.tables = [_Table(data, url, table_id) for table_id, url in tables]
        deadline = time.monotonic() + WAIT
        while not all(t.link.connected for t in self.tables):
            if time.monotonic() > deadline:
                raise RuntimeError("the tables' links did not connect to the broker")
            time.sleep(0.05)

    def each(self, job: Callable[[_Table], object]) -> None:
        """``job`` on every table at once (a thread each); the first failure is raised."""
        errors: list[BaseException] = []

        def run(t: _Table) -> None:
            try:
                job(t)
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=run, args=(t,)) for t in self.tables]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        if errors:
            raise errors[0]

    def _report(self, t: _Table, emitted: float, phase: str) -> None:
        committed = t.commit_time if t.committed.wait(WAIT) else None
        self.say({"lead": t.id, "phase": phase, "emit": emitted, "committed": committed})

    def staggered(self, rounds: int, pause: list[float], wait: list[float]) -> None:
        seeds = {t.id: self.rng.random() for t in self.tables}

        def play(t: _Table) -> None:
            rng = random.Random(seeds[t.id])
            time.sleep(rng.uniform(0, wait[1]))  # the tables do not start together
            for _ in range(rounds):
                t.prepare(lambda: time.sleep(rng.uniform(*pause)))
                time.sleep(rng.uniform(*wait))
                emitted = t.lead()
                self._report(t, emitted, "staggered")
                time.sleep(rng.uniform(*pause))
                t.finish()

        self.each(play)

    def fire(self) -> None:
        emitted = [(t, t.lead()) for t in self.tables]
        for t, e in emitted:
            self._report(t, e, "burst")


def worker_main() -> None:
    import logging

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    _Worker().run()


# -- the console process ---------------------------------------------------------------------------

# tablectl's own main (as ``python -m tablectl``), plus a SIGUSR1 handler that writes the console's
# counters to $BENCH_CONSOLE_STATS (they live in that process only).
_CONSOLE_BOOT = r"""
import json, os, signal, sys
import tablectl.room.console as room_console
made = []
_init = room_console.Console.__init__
def _record(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    made.append(self)
room_console.Console.__init__ = _record
def _dump(signum, frame):
    c = made[0] if made else None
    out = {} if c is None else {"received": c.received, "duplicates": c.duplicates, "version": c.version,
                                "backlog": c._queue.qsize()}
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


def thread_cpu(workers: list[WorkerProc], names: dict[int, dict[str, str]]) -> dict[str, float]:
    """CPU seconds of the workers' threads so far, by ``thread_group`` (/proc/PID/task/TID/stat)."""
    out = {"engine": 0.0, "link": 0.0, "other": 0.0}
    for w in workers:
        pid = w.proc.pid
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
    return (f"p50 {statistics.median(values):6.1f}  p90 {pct(values, 0.90):6.1f}  p99 {pct(values, 0.99):6.1f}  "
            f"max {max(values):6.1f} ms")


# -- the main process --------------------------------------------------------------------------------

class AlarmClient:
    """The console's ``/ws``: notes when each alarm arrives; counts the room pushes and their size."""

    def __init__(self, url: str, origin: str, cookie: str) -> None:
        from websockets.sync.client import connect
        from websockets.typing import Origin

        self.ws = connect(url, origin=Origin(origin), additional_headers={"Cookie": cookie}, open_timeout=10,
                          max_size=1 << 26)
        self.alarms: dict[str, list[tuple[float, Json]]] = {}
        self.other_alarms: list[Json] = []
        self.rooms = 0
        self.room_bytes = 0
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):
            for text in self.ws:
                now = time.time()
                if isinstance(text, bytes):
                    continue
                if text.startswith('{"kind":"alarm"'):
                    msg = json.loads(text)
                    with self.changed:
                        if "out of turn" in str(msg.get("text")):
                            self.alarms.setdefault(str(msg.get("table")), []).append((now, msg))
                        else:
                            self.other_alarms.append(msg)
                        self.changed.notify_all()
                else:
                    with self.changed:
                        self.rooms += 1
                        self.room_bytes += len(text)

    def count(self) -> int:
        with self.changed:
            return sum(len(v) for v in self.alarms.values())

    def wait_count(self, n: int, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: sum(len(v) for v in self.alarms.values()) >= n, timeout)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


class AlertTap:
    """A bare MQTT subscriber (as the console user) to the tables' alerts: when each alarm left the broker."""

    def __init__(self, address: Any) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.raised: dict[str, list[float]] = {}
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
        if body.get("alert") == "irregularity" and body.get("event") == "raised" and body.get("alarm"):
            with self.lock:
                if key not in self._seen:
                    self._seen.add(key)
                    self.raised.setdefault(key[0], []).append(now)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.disconnect()
            self.client.loop_stop()


class WorkerProc:
    """A worker process: JSON lines both ways; its samples go to a shared list."""

    def __init__(self, log: Path, leads: list[Json], lock: threading.Lock) -> None:
        self.log = log
        self._log: IO[bytes] = log.open("wb")
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker"], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                                     start_new_session=True, text=True, bufsize=1)
        self.answers: queue.SimpleQueue[Json] = queue.SimpleQueue()
        self.leads = leads
        self.lock = lock
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue  # not ours
            if "lead" in msg:
                with self.lock:
                    self.leads.append(msg)
            else:
                self.answers.put(msg)
        self.answers.put({"error": f"the worker exited (status {self.proc.wait()}); its log: {self.log}"})

    def send(self, cmd: Json) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()

    def answer(self, timeout: float) -> Json:
        try:
            msg = self.answers.get(timeout=timeout)
        except queue.Empty:
            raise SystemExit(f"a worker did not answer within {timeout:.0f} s; its log: {self.log}") from None
        if "error" in msg:
            raise SystemExit(f"worker: {msg['error']}\n{tail(self.log)}")
        return msg

    def kill(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)
        self._log.close()


def tail(path: Path, lines: int = 15) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    return "(no log)"


def ask_all(workers: list[WorkerProc], cmd: Json, timeout: float) -> list[Json]:
    for w in workers:
        w.send(cmd)
    return [w.answer(timeout) for w in workers]


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
    "console": "-> the WebSocket client has the alarm (console process, web server, WebSocket)",
    "  mqtt in": "of which: the console's paho thread later than the bare subscriber",
    "  thread+ws": "of which: the console thread's batch, the web server's loop, the WebSocket",
}


def latencies(leads: list[Json], client: AlarmClient, tap: AlertTap,
              used: dict[str, int]) -> tuple[dict[str, list[float]], int]:
    """Pair each lead with the next unpaired alarm of its table: the latencies (ms) and the leads unanswered."""
    out: dict[str, list[float]] = {"total": [], **{part: [] for part in PARTS}}
    lost = 0
    with client.changed:
        alarms = {t: list(v) for t, v in client.alarms.items()}
    with tap.lock:
        tapped = {t: list(v) for t, v in tap.raised.items()}
    for lead in sorted(leads, key=lambda m: m["emit"]):
        table = lead["lead"]
        k = used.get(table, 0)
        got = alarms.get(table, [])
        if k >= len(got):
            lost += 1
            continue
        used[table] = k + 1
        at_ws, msg = got[k]
        out["total"].append(1000 * (at_ws - lead["emit"]))
        received = msg.get("received")
        at_tap = tapped.get(table, [])[k] if k < len(tapped.get(table, [])) else None
        if lead.get("committed") is not None and isinstance(received, float) and at_tap is not None:
            out["table"].append(1000 * (lead["committed"] - lead["emit"]))
            out["link+broker"].append(1000 * (at_tap - lead["committed"]))
            out["console"].append(1000 * (at_ws - at_tap))
            out["  mqtt in"].append(1000 * (received - at_tap))
            out["  thread+ws"].append(1000 * (at_ws - received))
    return out, lost


def run(args: argparse.Namespace) -> None:
    import httpx

    from tablectl.room.broker import init_room
    from tablectl.room.process import MosquittoProcess, free_port, runnable_config
    from web_ui.security import CONSOLE_COOKIE

    n = args.tables
    table_ids = [str(i) for i in range(1, n + 1)]
    nworkers = max(1, min(args.workers, n))
    started = time.monotonic()
    print(f"club room: {n} tables in {nworkers} worker process(es), one Mosquitto, one console process, "
          f"one WebSocket client; {os.cpu_count()} CPUs")
    print("latency: sensor event at a table (time.time() just before SimTable.present of W's card on W's play "
          "zone, E on lead: a PlayCard at once; the sensing clock of each table is moved by hand, as in the tests) "
          "-> this script's client of the console's /ws has {\"kind\": \"alarm\"} for that table; the parts:")
    for part, what in PARTS.items():
        print(f"  {part.strip():<11} {what}")
    with tempfile.TemporaryDirectory(prefix="bench-room-") as tmp_name:
        tmp = Path(tmp_name)
        data = tmp / "tables"
        data.mkdir()
        room = init_room(tmp / "broker", CLUB, table_ids, listen="127.0.0.1", port=free_port("127.0.0.1"))
        broker = MosquittoProcess(runnable_config(room.conf), room.port)
        console: subprocess.Popen[bytes] | None = None
        console_log = (tmp / "console.log").open("wb")
        workers: list[WorkerProc] = []
        client: AlarmClient | None = None
        tap: AlertTap | None = None
        try:
            broker.start()
            assert broker.pid is not None
            port = free_port("127.0.0.1")
            base = f"http://127.0.0.1:{port}"
            stats_file = tmp / "console-stats.json"
            env = {**os.environ, "BRIDGE_CLUB_URL": room.url("console"), "BRIDGE_ARBITER_PIN": PIN,
                   "BENCH_CONSOLE_STATS": str(stats_file)}
            console = subprocess.Popen([sys.executable, "-c", _CONSOLE_BOOT, "console", "--port", str(port),
                                        "--data-dir", str(tmp / "console")],
                                       cwd=ROOT, env=env, stdout=console_log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
            http = httpx.Client(base_url=base, timeout=10)
            deadline = time.monotonic() + 30
            while True:
                if console.poll() is not None:
                    raise SystemExit(f"the console stopped (exit {console.returncode}):\n{tail(tmp / 'console.log')}")
                with contextlib.suppress(httpx.HTTPError):
                    if http.get("/api/session").status_code == 401:
                        break
                if time.monotonic() > deadline:
                    raise SystemExit("the console did not answer within 30 s")
                time.sleep(0.1)
            login = http.post("/api/login", json={"pin": PIN}, headers={"Origin": base})
            login.raise_for_status()
            cookie = f"{CONSOLE_COOKIE}={http.cookies[CONSOLE_COOKIE]}"
            client = AlarmClient(f"ws://127.0.0.1:{port}/ws", base, cookie)
            tap = AlertTap(room.address_of("console"))

            leads: list[Json] = []
            leads_lock = threading.Lock()
            workers = [WorkerProc(tmp / f"worker-{i}.log", leads, leads_lock) for i in range(nworkers)]
            for i, w in enumerate(workers):
                mine = table_ids[i::nworkers]
                w.send({"cmd": "init", "data": str(data), "seed": args.seed + i,
                        "tables": [[t, room.url(t)] for t in mine]})
            for w in workers:
                w.answer(60)
            deadline = time.monotonic() + 30
            while True:
                if not broker.alive:  # another program on its port would have answered wait_ready
                    raise SystemExit(f"the broker stopped:\n{broker.log_tail()}")
                tiles = http.get("/api/room", headers={"Cookie": cookie}).json()["tiles"]
                if sum(1 for t in tiles if t["online"]) >= n:
                    break
                if time.monotonic() > deadline:
                    raise SystemExit(f"only {sum(1 for t in tiles if t['online'])} tables online at the console")
                time.sleep(0.2)
            print(f"room up in {time.monotonic() - started:.1f} s (room files with {n + 1} users, broker, console, "
                  f"{n} tables linked and online at the console)")
            time.sleep(1.5)  # the links' first acknowledgements settle

            pids = {"tables": [w.proc.pid for w in workers], "console": [console.pid], "broker": [broker.pid]}
            meter = CpuMeter(pids)
            used: dict[str, int] = {}
            received0 = console_stats(console, stats_file)

            # staggered
            meter.start()
            rooms0 = client.rooms
            t0 = time.monotonic()
            ask_all(workers, {"cmd": "staggered", "rounds": args.rounds, "pause": [0.1, 0.5], "wait": [0.5, 3.0]},
                    timeout=60 + 10 * args.rounds)
            client.wait_count(n * args.rounds, 10)
            span, cpu = meter.stop()
            received1 = console_stats(console, stats_file)
            with leads_lock:
                phase_leads = [m for m in leads if m["phase"] == "staggered"]
            lat, lost = latencies(phase_leads, client, tap, used)
            print()
            print(f"staggered: {len(phase_leads)} leads out of turn at random moments over {span:.0f} s among the "
                  f"tables' other acts; the console took {rate(received0, received1, span)} MQTT messages/s and "
                  f"pushed {(client.rooms - rooms0) / (time.monotonic() - t0):.0f} room updates/s to the WebSocket")
            report(lat, lost, cpu)

            # burst
            meter.start()
            rooms0 = client.rooms
            t0 = time.monotonic()
            quiet = 0.0
            for _ in range(args.rounds):
                before = client.count()
                ask_all(workers, {"cmd": "prepare"}, timeout=60)
                time.sleep(0.5)  # the room quiet: the last auction's messages are through
                quiet += 0.5
                ask_all(workers, {"cmd": "fire"}, timeout=60)
                client.wait_count(before + n, WAIT)
            ask_all(workers, {"cmd": "finish"}, timeout=60)
            span, cpu = meter.stop()
            received2 = console_stats(console, stats_file)
            with leads_lock:
                phase_leads = [m for m in leads if m["phase"] == "burst"]
            lat, lost = latencies(phase_leads, client, tap, used)
            print()
            print(f"burst: {args.rounds} times all {n} tables lead out of turn at once ({len(phase_leads)} leads; "
                  f"each after its own board start and auction, then 0.5 s of quiet); {span:.0f} s in all, "
                  f"the console took {rate(received1, received2, span)} MQTT messages/s")
            report(lat, lost, cpu)

            # memory, then idle
            time.sleep(2.0)
            print()
            c_rss, b_rss = status_mb(console.pid), status_mb(broker.pid)
            c_hwm, b_hwm = status_mb(console.pid, "VmHWM"), status_mb(broker.pid, "VmHWM")
            w_rss = sum(status_mb(w.proc.pid) for w in workers)
            print(f"resident memory (VmRSS, peak VmHWM): console {c_rss:.1f} MB (peak {c_hwm:.1f}), "
                  f"mosquitto {b_rss:.1f} MB (peak {b_hwm:.1f}); together {c_rss + b_rss:.1f} MB "
                  f"(peak {c_hwm + b_hwm:.1f}; target < 150)")
            print(f"  the table workers: {w_rss:.1f} MB for {n} tables ({w_rss / n:.1f} MB a table, "
                  f"the interpreter shared by {n // nworkers} or so)")
            at_start = ask_all(workers, {"cmd": "threads"}, 10)
            names = {w.proc.pid: a["threads"] for w, a in zip(workers, at_start, strict=True)}
            threads0 = thread_cpu(workers, names)
            meter.start()
            time.sleep(args.idle)
            span, cpu = meter.stop()
            threads1 = thread_cpu(workers, names)
            at_end = ask_all(workers, {"cmd": "threads"}, 10)
            wakeups = sum(a["wakeups"] for a in at_end) - sum(b["wakeups"] for b in at_start)
            used_ms = {k: 1000 * (threads1[k] - threads0[k]) for k in threads0}
            print(f"idle room over {span:.0f} s (every table linked, nothing happening, one WebSocket client), "
                  f"% of one core: tables {cpu['tables']:.2f} for {n} tables ({cpu['tables'] / n:.3f} a table), "
                  f"console {cpu['console']:.2f}, mosquitto {cpu['broker']:.2f}; other programs on the machine "
                  f"{max(0.0, cpu['others']):.0f}")
            print(f"  the tables' threads over those {span:.0f} s (in 10 ms clock ticks): links (paho, publisher, "
                  f"commands) {used_ms['link']:.0f} ms, engines {used_ms['engine']:.0f} ms, the rest "
                  f"{used_ms['other']:.0f} ms")
            print(f"  the {n} engine threads woke {wakeups} times in all "
                  f"({sum(a['deadlines'] for a in at_end)} with a sensing deadline pending)")

            # counters
            if not broker.alive:
                print(f"the broker stopped during the run:\n{broker.log_tail()}")
            stats = ask_all(workers, {"cmd": "stats"}, timeout=10)
            final = console_stats(console, stats_file)
            published = sum(s["published"] for s in stats)
            problems = [p for s in stats for p in s["problems"]]
            print()
            if final:
                print(f"console: {final['received']} MQTT messages received (states included), "
                      f"{final['duplicates']} duplicates dropped; the tables published {published} outbox messages "
                      f"(resends included)")
            sizes = state_sizes(tmp / "console" / "console.sqlite")
            if sizes:
                print(f"  a table's retained state message (tile + full arbiter view): {sizes[0] / 1024:.1f} KB on "
                      f"average, {sizes[1] / 1024:.1f} KB the largest; a room push to the WebSocket "
                      f"{client.room_bytes / max(1, client.rooms) / 1024:.1f} KB on average ({client.rooms} pushes)")
            if client.other_alarms:
                print(f"  other alarms: {len(client.other_alarms)}, e.g. {client.other_alarms[0].get('text')}")
            for p in problems[:5]:
                print(f"  problem: {p}")
            ask_all(workers, {"cmd": "stop"}, timeout=30)
        except BaseException:
            print(f"\n-- the console's log:\n{tail(tmp / 'console.log')}\n-- the broker's log:\n"
                  f"{broker.log_tail()}", file=sys.stderr)
            for w in workers:
                print(f"-- {w.log.name}:\n{tail(w.log)}", file=sys.stderr)
            raise
        finally:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends this at once
            if client is not None:
                client.close()
            if tap is not None:
                tap.close()
            for w in workers:  # after "stop", or on the way out of an error: end of input ends the worker
                with contextlib.suppress(Exception):
                    assert w.proc.stdin is not None
                    w.proc.stdin.close()
            for w in workers:
                with contextlib.suppress(Exception):
                    w.proc.wait(5)
                w.kill()
            if console is not None:
                stop_group(console)
            console_log.close()
            broker.stop()
            print(f"\ndone in {time.monotonic() - started:.0f} s")


def console_stats(console: subprocess.Popen[bytes], path: Path) -> Json:
    """The console's counters (it writes them on SIGUSR1)."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    console.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 3
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


def report(lat: dict[str, list[float]], lost: int, cpu: dict[str, float]) -> None:
    print(f"  event -> console WebSocket alarm {summary(lat['total'])}"
          + (f"   ({lost} leads got no alarm)" if lost else ""))
    for part in PARTS:
        print(f"    {part:<14} {summary(lat[part])}")
    print(f"  CPU (% of one core): tables {cpu['tables']:.0f}, console {cpu['console']:.0f}, "
          f"mosquitto {cpu['broker']:.0f}, this script {cpu['bench']:.0f}; other programs on the machine "
          f"{max(0.0, cpu['others']):.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--tables", type=int, default=30, help="simulated tables in the room")
    parser.add_argument("--rounds", type=int, default=10,
                        help="leads out of turn per table when staggered, and bursts of all tables")
    parser.add_argument("--workers", type=int, default=2, help="processes the tables are shared among")
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of idle-room CPU measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker_main()
        return
    if not 1 <= args.tables <= 255 or args.rounds < 1:
        parser.error("--tables 1..255 and --rounds >= 1")
    def terminate(signum: int, frame: object) -> None:
        raise SystemExit(f"signal {signum}: stopping what this benchmark started")

    signal.signal(signal.SIGTERM, terminate)
    run(args)


if __name__ == "__main__":
    main()
