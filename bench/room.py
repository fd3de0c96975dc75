"""The club room end to end: sensor event at a table -> alarm on the Director's console WebSocket.

Run with ``.venv/bin/python bench/room.py [--tables 30] [--rounds 10] [--workers 2] [--idle 20]``.
Prints the figures and asserts nothing (the club room's targets: 30 tables through one
Mosquitto to one console on a 2-core machine, sensor event -> console alarm p99 under
100 ms and no alarm lost; console and broker resident memory under 150 MB together; the link's
CPU near zero when the room is idle). ``--json PATH`` writes the figures for a program too.

What runs, all on loopback:

- a private Mosquitto with the club configuration of ``tablectl room init`` (tables 1..N,
  passwords and ACL) on a free port;
- the real console, ``tablectl console`` in a process of its own (``bench/roomprobe.py``: its room
  address and PIN in its environment, and SIGUSR1 makes it write its counters to a file);
- this script logs in (``POST /api/login``) and is a client of the console's ``/ws``;
- the N tables in ``--workers`` processes (``bench/roomsim.py``: each a share of the tables, as 30
  table processes would swamp 2 cores).

Each round, each table plays a board to two irregularities (``bench/roomsim.py`` says how):

- **the revoke** (the headline): an irregularity in turn (Law 61), a card of the seat in turn, stepped
  at once: its latency is the room's own, from the sensor event to the Director's alarm;
- **the opening lead out of turn** (Law 54): a card of a seat not in turn is held for one read cycle
  (0.12 s, Law 58A: the card in turn may have been put down first), waited in real time: its latency
  includes that hold, by design.

The latency runs from the moment the worker hands the tag read to the table (``time.time()`` just
before ``SimTable.present``) to the moment this script's WebSocket client receives ``{"kind":
"alarm"}`` naming that table and irregularity (one machine, one wall clock).

- steady: every table plays ``--rounds`` rounds on its own thread, pausing at random between its
  acts, so the irregularities come at random moments among the other tables' board starts, calls,
  rulings and results;
- all at once: ``--rounds`` times, every table is brought to the revoke (its board, auction, lead
  out of turn and the ruling on it: near-simultaneous leads, timed too), the room is left quiet for a
  moment, then all N tables revoke at once.

An alarm is lost when it has not reached the WebSocket ``--grace`` seconds after its phase.
The latency is split with the times the messages carry and a bare MQTT subscriber in this process
(as the console user, to the tables' ``alert`` topics): ``table`` = sensor event -> the table's log
committed (engine thread, sensing, table step, SQLite fsync; the hold for the lead);
``link+broker`` = -> the bare subscriber has the alert (link publisher thread, paho, QoS 1 through
Mosquitto); ``console`` = -> this client has the alarm, itself split at the time the console's paho
thread took the message (the alarm's ``received``). Then the resident memory of the console and the
broker, the CPU of each process during each phase (and of the other programs on the machine, with
the load average: the figures share its cores with them), and over ``--idle`` seconds of an idle room,
the tables' share split by thread.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _procs import keep_logs, print_logs, stop  # noqa: E402  (bench/ is not a package: its scripts run from their own folder)
from roomprobe import (  # noqa: E402
    CONSOLE_BOOT,
    PARTS,
    AlarmClient,
    AlertTap,
    CpuMeter,
    console_stats,
    figures,
    latencies,
    link_trouble,
    rate,
    state_sizes,
    status_mb,
    summary,
    tap_user,
    thread_cpu,
)
from roomsim import WorkerProc, ask_all, read_cycle, tail  # noqa: E402

CLUB = "benchclub"
PIN = "2468"

Json = dict[str, Any]
EVENTS = {"revoke": "revoke in turn (Law 61), the headline",
          "lead": "opening lead out of turn (Law 54), its {hold:.0f} ms hold (Law 58A) included"}


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


class Phase:
    """One phase's figures: each irregularity's latencies and losses, and the CPU."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lat: dict[str, dict[str, list[float]]] = {}
        self.lost: dict[str, int] = {}
        self.cpu: dict[str, float] = {}
        self.span = 0.0

    def measure(self, events: list[Json], client: AlarmClient, tap: AlertTap,
                used: dict[tuple[str, str], int]) -> None:
        for event in EVENTS:
            samples = [m for m in events if m["event"] == event and m["phase"] == self.name]
            self.lat[event], self.lost[event] = latencies(event, samples, client, tap, used)

    def print(self) -> None:
        self.print_latencies("console")
        print(f"  CPU (% of one core): tables {self.cpu['tables']:.0f}, console {self.cpu['console']:.0f}, "
              f"mosquitto {self.cpu['broker']:.1f}, this script {self.cpu['bench']:.0f}; other programs on the "
              f"machine {max(0.0, self.cpu['others']):.0f}; load average now {load()}")

    def print_latencies(self, console: str) -> None:
        """Each irregularity's latencies, sensor event -> the alarm on ``console``'s page, and their parts."""
        hold = 1000 * read_cycle()
        for event, what in EVENTS.items():
            lat, lost = self.lat[event], self.lost[event]
            print(f"  {what.format(hold=hold)}:")
            print(f"    event -> {console} alarm  {summary(lat['total'])}; alarms lost: {lost}")
            for part in PARTS:
                print(f"      {part:<14} {summary(lat[part])}")

    def as_json(self) -> Json:
        out: Json = {"seconds": self.span, "cpu": self.cpu}
        for event in EVENTS:
            out[event] = {**figures(self.lat[event]["total"]), "lost": self.lost[event],
                          "parts": {part.strip(): figures(self.lat[event][part]) for part in PARTS}}
        return out


def staggered(workers: list[WorkerProc], client: AlarmClient, n: int, rounds: int, pause: list[float],
              wait: list[float], grace: float, timeout: float) -> None:
    """Steady play (``roomsim``'s ``staggered``): each of the ``n`` tables plays ``rounds`` boards on its own
    thread, ``pause`` seconds (at random, between the two) between its acts and ``wait`` before its revoke;
    then every alarm of each irregularity is awaited, ``grace`` seconds from the start at most."""
    t0 = time.monotonic()
    ask_all(workers, {"cmd": "staggered", "rounds": rounds, "pause": pause, "wait": wait}, timeout=timeout)
    for event in EVENTS:
        client.wait_count(event, n * rounds, max(0.0, grace - (time.monotonic() - t0)))


def all_at_once(workers: list[WorkerProc], client: AlarmClient, n: int, rounds: int, quiet: float, grace: float,
                timeout: float) -> list[float]:
    """``rounds`` times, every table brought to the revoke, ``quiet`` seconds of quiet, then all ``n`` revoke
    together; each time their alarms awaited (``grace`` seconds at most), and the leads' at the end. Returns,
    for each time, the CPU seconds the tables' processes spent on the revoke (``Worker.fire``: from the first
    revoke until every link has published it)."""
    spent = []
    for _ in range(rounds):
        before = client.count("revoke")
        ask_all(workers, {"cmd": "prepare"}, timeout=timeout)
        time.sleep(quiet)  # the room quiet: the last auction's messages are through
        spent.append(sum(float(a.get("cpu", 0.0)) for a in ask_all(workers, {"cmd": "fire"}, timeout=timeout)))
        client.wait_count("revoke", before + n, grace)
    ask_all(workers, {"cmd": "finish"}, timeout=timeout)
    client.wait_count("lead", 2 * n * rounds, grace)
    return spent


def print_tables_bound(spent: list[float], n: int) -> Json:
    """The least time in which ``n`` tables that together spent ``spent`` CPU seconds on one act could all have
    done it on this machine's cores: below it, no alarm path can bring the last of them (the simulation's
    share of the machine, not the room's)."""
    cpus = os.cpu_count() or 1
    each = min(spent) if spent else 0.0
    print(f"  the tables' own work for the revoke (engine, log, fsync, link, publish; all {n} tables, the best of "
          f"{len(spent)}): {each:.2f} CPU-s, {1000 * each / n:.2f} ms a table; on {cpus} cores the last table's alert "
          f"cannot leave it sooner than {1000 * each / cpus:.0f} ms after the sensor event, whatever the room does")
    return {"cpu_seconds": spent, "ms_per_table": 1000 * each / n, "bound_ms": 1000 * each / cpus}


def run(args: argparse.Namespace) -> Json:
    import httpx

    from tablectl.room.broker import init_room
    from tablectl.room.process import MosquittoProcess, free_port, runnable_config
    from web_ui.security import CONSOLE_COOKIE

    n = args.tables
    table_ids = [str(i) for i in range(1, n + 1)]
    nworkers = max(1, min(args.workers, n))
    started = time.monotonic()
    result: Json = {"tables": n, "rounds": args.rounds, "workers": nworkers, "cpus": os.cpu_count(),
                    "hold_ms": 1000 * read_cycle(), "load_before": load()}
    print(f"club room: {n} tables in {nworkers} worker process(es), one Mosquitto, one console process, "
          f"one WebSocket client; {os.cpu_count()} CPUs, load average {load()} (1, 5, 15 min: the machine is "
          f"shared, the figures share its cores)")
    print("latency: sensor event at a table (time.time() just before SimTable.present of the card) -> this "
          "script's client of the console's /ws has {\"kind\": \"alarm\"} for that table and irregularity; "
          "the parts:")
    for part, what in PARTS.items():
        print(f"  {part.strip():<11} {what}")
    with tempfile.TemporaryDirectory(prefix="bench-room-") as tmp_name:
        tmp = Path(tmp_name)
        data = tmp / "tables"
        data.mkdir()
        room = init_room(tmp / "broker", CLUB, table_ids, listen="127.0.0.1", port=free_port("127.0.0.1"))
        tap_address = tap_user(room)
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
            console = subprocess.Popen([sys.executable, "-c", CONSOLE_BOOT, "console", "--port", str(port),
                                        "--data-dir", str(tmp / "console")],
                                       cwd=ROOT, env=env, stdout=console_log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
            http = httpx.Client(base_url=base, timeout=10)
            deadline = time.monotonic() + 60
            while True:
                if console.poll() is not None:
                    raise SystemExit(f"the console stopped (exit {console.returncode}):\n{tail(tmp / 'console.log')}")
                with contextlib.suppress(httpx.HTTPError):
                    if http.get("/api/session").status_code == 401:
                        break
                if time.monotonic() > deadline:
                    raise SystemExit("the console did not answer within 60 s")
                time.sleep(0.1)
            login = http.post("/api/login", json={"pin": PIN}, headers={"Origin": base})
            login.raise_for_status()
            cookie = f"{CONSOLE_COOKIE}={http.cookies[CONSOLE_COOKIE]}"
            client = AlarmClient(f"ws://127.0.0.1:{port}/ws", base, cookie)
            tap = AlertTap(tap_address)

            events: list[Json] = []
            events_lock = threading.Lock()
            workers = [WorkerProc(tmp / f"worker-{i}.log", events, events_lock) for i in range(nworkers)]
            for i, w in enumerate(workers):
                mine = table_ids[i::nworkers]
                w.send({"cmd": "init", "data": str(data), "seed": args.seed + i,
                        "tables": [[t, room.url(t)] for t in mine]})
            for w in workers:
                w.answer(120)
            deadline = time.monotonic() + 60
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
            used: dict[tuple[str, str], int] = {}
            received0 = console_stats(console, stats_file)
            act_timeout = 120 + 30 * args.rounds  # a loaded machine is only slower

            # steady
            steady = Phase("staggered")
            meter.start()
            rooms0 = client.rooms
            t0 = time.monotonic()
            staggered(workers, client, n, args.rounds, [0.1, 0.5], [0.5, 3.0], args.grace, act_timeout)
            steady.span, steady.cpu = meter.stop()
            received1 = console_stats(console, stats_file)
            with events_lock:
                steady.measure(events, client, tap, used)
            print()
            print(f"steady: each table {args.rounds} boards, each with a lead out of turn and a revoke at random "
                  f"moments among the tables' other acts, over {steady.span:.0f} s; the console took "
                  f"{rate(received0, received1, steady.span)} MQTT messages/s and pushed "
                  f"{(client.rooms - rooms0) / (time.monotonic() - t0):.0f} room updates/s to the WebSocket")
            steady.print()
            result["steady"] = steady.as_json()

            # all at once
            burst = Phase("burst")
            meter.start()
            spent = all_at_once(workers, client, n, args.rounds, 0.5, args.grace, act_timeout)
            burst.span, burst.cpu = meter.stop()
            received2 = console_stats(console, stats_file)
            with events_lock:
                burst.measure(events, client, tap, used)
            print()
            print(f"all at once: {args.rounds} times all {n} tables revoke at once (each after its own board start, "
                  f"auction, lead out of turn and ruling, all tables together, then 0.5 s of quiet); "
                  f"{burst.span:.0f} s in all, the console took {rate(received1, received2, burst.span)} "
                  f"MQTT messages/s")
            burst.print()
            result["all_at_once"] = {**burst.as_json(), "tables_bound": print_tables_bound(spent, n)}

            # memory, then idle
            time.sleep(2.0)
            print()
            c_rss, b_rss = status_mb(console.pid), status_mb(broker.pid)
            c_hwm, b_hwm = status_mb(console.pid, "VmHWM"), status_mb(broker.pid, "VmHWM")
            w_rss = sum(status_mb(w.proc.pid) for w in workers)
            result.update(console_rss_mb=c_rss, console_peak_mb=c_hwm, broker_rss_mb=b_rss, broker_peak_mb=b_hwm)
            print(f"resident memory (VmRSS, peak VmHWM): console {c_rss:.1f} MB (peak {c_hwm:.1f}), "
                  f"mosquitto {b_rss:.1f} MB (peak {b_hwm:.1f}); together {c_rss + b_rss:.1f} MB "
                  f"(peak {c_hwm + b_hwm:.1f}; target < 150)")
            print(f"  the table workers: {w_rss:.1f} MB for {n} tables ({w_rss / n:.1f} MB a table, "
                  f"the interpreter shared by {n // nworkers} or so)")
            if args.idle > 0:
                idle(args.idle, n, workers, meter, result)

            # counters
            if not broker.alive:
                print(f"the broker stopped during the run:\n{broker.log_tail()}")
            stats = ask_all(workers, {"cmd": "stats"}, timeout=30)
            final = console_stats(console, stats_file)
            published = sum(s["published"] for s in stats)
            problems = [p for s in stats for p in s["problems"]]
            result["problems"] = problems
            print()
            if final:
                print(f"console: {final['received']} MQTT messages received (states included), "
                      f"{final['duplicates']} duplicates dropped, {final['backlog']} still queued; the tables "
                      f"published {published} outbox messages (resends included)")
            sizes = state_sizes(tmp / "console" / "console.sqlite")
            if sizes:
                print("  a table's retained state message (its tile; its arbiter view only while the Director has it "
                      f"open): {sizes[0] / 1024:.1f} KB on "
                      f"average, {sizes[1] / 1024:.1f} KB the largest; a room push to the WebSocket "
                      f"{client.room_bytes / max(1, client.rooms) / 1024:.1f} KB on average, "
                      f"{client.room_max / 1024:.1f} KB the largest ({client.rooms} pushes: the whole room on "
                      "connecting, then the changes)")
            if final:
                with client.changed:
                    on_ws = sum(len(v) for v in client.alarms.values()) + len(client.other_alarms)
                result["alarms_raised_by_console"], result["alarms_on_websocket"] = final["alarms"], on_ws
                print(f"  alarms: the console raised {final['alarms']}, this script's WebSocket client received "
                      f"{on_ws} (any missing were lost between the console and its page)")
            if client.other_alarms:
                print(f"  other alarms: {len(client.other_alarms)}, e.g. {client.other_alarms[0].get('text')}")
            for p in problems[:5]:
                print(f"  problem: {p}")
            trouble = link_trouble(broker.log_path, tmp / "console.log", [w.log for w in workers])
            result["link_trouble"] = trouble
            print(f"  the links, from the logs: the console lost the broker {trouble['console_lost_broker']} times, "
                  f"the tables {trouble['tables_lost_broker']} times; the broker's disconnections and drops: "
                  f"{trouble['broker'] or 'none'}")
            ask_all(workers, {"cmd": "stop"}, timeout=60)
        except BaseException:
            print_logs({"the console": tmp / "console.log"}, {"the broker": broker}, workers)
            raise
        finally:
            stop([client, tap], workers, [] if console is None else [console], [broker])
            console_log.close()
            keep_logs(args.logs,  # the console's, the broker's and the workers' logs, for a closer look
                      [tmp / "console.log", broker.log_path, *(w.log for w in workers)])
            result["load_after"] = load()
            print(f"\ndone in {time.monotonic() - started:.0f} s; load average {load()}")
    return result


def idle(seconds: float, n: int, workers: list[WorkerProc], meter: CpuMeter, result: Json) -> None:
    """The idle room's CPU: every table linked, nothing happening, one WebSocket client."""
    at_start = ask_all(workers, {"cmd": "threads"}, 30)
    names = {w.proc.pid: a["threads"] for w, a in zip(workers, at_start, strict=True)}
    threads0 = thread_cpu(names)
    meter.start()
    time.sleep(seconds)
    span, cpu = meter.stop()
    threads1 = thread_cpu(names)
    at_end = ask_all(workers, {"cmd": "threads"}, 30)
    wakeups = sum(a["wakeups"] for a in at_end) - sum(b["wakeups"] for b in at_start)
    used_ms = {k: 1000 * (threads1[k] - threads0[k]) for k in threads0}
    result["idle_cpu"] = cpu
    print(f"idle room over {span:.0f} s (every table linked, nothing happening, one WebSocket client), "
          f"% of one core: tables {cpu['tables']:.2f} for {n} tables ({cpu['tables'] / n:.3f} a table), "
          f"console {cpu['console']:.2f}, mosquitto {cpu['broker']:.2f}; other programs on the machine "
          f"{max(0.0, cpu['others']):.0f}")
    print(f"  the tables' threads over those {span:.0f} s (in 10 ms clock ticks): links (paho, publisher, "
          f"commands) {used_ms['link']:.0f} ms, engines {used_ms['engine']:.0f} ms, the rest "
          f"{used_ms['other']:.0f} ms")
    print(f"  the {n} engine threads woke {wakeups} times in all "
          f"({sum(a['deadlines'] for a in at_end)} with a sensing deadline pending)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--tables", type=int, default=30, help="simulated tables in the room")
    parser.add_argument("--rounds", type=int, default=10,
                        help="boards per table when steady, and times all tables revoke at once")
    parser.add_argument("--workers", type=int, default=2, help="processes the tables are shared among")
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of idle-room CPU measurement (0: none)")
    parser.add_argument("--grace", type=float, default=30.0,
                        help="seconds an alarm may still come after its phase before it counts as lost")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this file, as JSON")
    parser.add_argument("--logs", type=Path, help="keep the console's, the broker's and the workers' logs here")
    args = parser.parse_args()
    if not 1 <= args.tables <= 255 or args.rounds < 1 or args.idle < 0 or args.grace < 0:
        parser.error("--tables 1..255, --rounds >= 1, --idle and --grace >= 0")

    def terminate(signum: int, frame: object) -> None:
        raise SystemExit(f"signal {signum}: stopping what this benchmark started")

    signal.signal(signal.SIGTERM, terminate)
    result = run(args)
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()

