"""An event of several rooms bridged to a centre, end to end: sensor event at a table -> alarm on the head console.

Run with ``.venv/bin/python bench/event.py [--tables 500] [--rooms 4] [--rounds R] [--workers W]``.
Prints the figures and asserts nothing. The event's targets (issue 25): in-turn irregularity, sensor
event -> head console alarm p99 under 100 ms at 30 tables and under 250 ms at 500 tables all at once,
0 alarms lost at every size; consoles + brokers resident memory under 300 MB at 500 tables; a page push
under 2 KB per change. ``--json PATH`` writes the figures for a program too.

What runs, all on loopback (``docs/event-topology.md``):

- the event's files of ``tablectl room init --room A=... --room B=...`` (``init_event``): ``--rooms``
  rooms (sections A, B, ...) sharing the tables, each with its own Mosquitto bridged to a central one;
- each room's console and the head console (``console --head``, on the centre), each a ``tablectl
  console`` process of its own (``bench/roomprobe.py``'s boot: SIGUSR1 writes its counters);
- this script logs in to the head console and is a client of its ``/ws``; a bare MQTT subscriber to
  the tables' alerts on the centre (a user of the bench's own) splits the latency;
- the tables, each a real table (``bench/roomsim.py``: ``TableRuntime``, ``SimTable``, its own
  ``TableLink`` to its room's broker), in worker processes of ``PER_WORKER`` tables (at most
  ``MAX_PER_WORKER``): a worker's paho clients wait in ``select()``, which cannot take a file descriptor
  above 1024, and each table holds about nine.

The tables play as in ``bench/room.py``: steady (boards at random moments) then all at once (every
table of every room revokes together). The headline is the revoke, an irregularity in turn (Law 61):
stepped at once, no hold. The opening lead out of turn (Law 54) is held one read cycle (Law 58A) by
design: its figures include that hold. In steady play each table acts every ``--pace`` seconds or so
(a real table plays a card every 5 to 10 s: 500 tables at the default pace act a little faster than
a real room of 500 tables would).

The tables' logs go to ``--table-dir`` (default: a directory in /dev/shm when there is one): a real
table fsyncs on its own card, and 500 tables fsyncing on this machine's one disk would measure the
disk. Their engines still share this machine's two cores with everything else: the ``table`` part
of the latency is the simulation's, the rest is the room's (links, brokers, bridge, head console). What
would run on other machines in a real event (the tables on their own Pis, each room's console in its room)
runs at ``--nice`` 10, so that it takes the cores the head console and the brokers leave; ``--nice 0``
runs all alike.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
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
from eventprobe import CLUB, Consoles, PushClient, fds, login, lower, pushes, wait_online  # noqa: E402
from room import Phase, all_at_once, load, print_tables_bound, staggered  # noqa: E402
from roomprobe import (  # noqa: E402
    PARTS,
    AlertTap,
    CpuMeter,
    link_trouble,
    rate,
    status_mb,
    summary,
    tap_user,
)
from roomsim import WorkerProc, ask_all, tail  # noqa: E402

PER_WORKER = 80
"""Tables a worker process runs by default; ``MAX_PER_WORKER`` at most: each table holds about 9 file
descriptors (its log and its WAL, the link's socket and paho's wake-up pair...) and paho's select() cannot
take one above 1024."""
MAX_PER_WORKER = 100
PUSH_TARGET = 2048
MEMORY_TARGET = 300.0

Json = dict[str, Any]



def sections(rooms: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(rooms)]


def share(n: int, rooms: int) -> dict[str, list[str]]:
    """The event's tables, ``n`` of them, shared among the rooms: A1.., B1.., as evenly as can be."""
    out: dict[str, list[str]] = {}
    for i, r in enumerate(sections(rooms)):
        count = n // rooms + (1 if i < n % rooms else 0)
        out[r] = [f"{r}{k}" for k in range(1, count + 1)]
    return out


def default_table_dir() -> Path | None:
    shm = Path("/dev/shm")
    return shm if shm.is_dir() and os.access(shm, os.W_OK) else None


def pace_for(n: int) -> float:
    """Seconds between a table's acts in steady play by default: ``bench/room.py``'s 0.3 s up to 60
    tables, then slower so the event acts about as often as 60 such tables (a real room is slower still)."""
    return 0.3 * max(1.0, n / 60)


def rounds_for(n: int) -> int:
    return 10 if n <= 30 else 5 if n <= 100 else 3


def run(args: argparse.Namespace) -> Json:
    from tablectl.room.bridge import RoomPlan, init_event
    from tablectl.room.process import MosquittoProcess, free_port, runnable_config

    n = args.tables
    rooms = share(n, args.rooms)
    every = [t for ts in rooms.values() for t in ts]
    nworkers = args.workers or math.ceil(n / PER_WORKER)
    rounds = args.rounds or rounds_for(n)
    pace = args.pace or pace_for(n)
    started = time.monotonic()
    result: Json = {"tables": n, "rooms": args.rooms, "rounds": rounds, "workers": nworkers, "pace": pace,
                    "nice": args.nice, "switch_interval": args.switch_interval or sys.getswitchinterval(),
                    "cpus": os.cpu_count(), "load_before": load()}
    print(f"event: {n} tables in {args.rooms} rooms ({', '.join(f'{r}: {len(t)}' for r, t in rooms.items())}), "
          f"each room's Mosquitto bridged to a central one; {args.rooms} room consoles and the head console, each a "
          f"process; the tables in {nworkers} worker processes; {os.cpu_count()} CPUs, load average {load()} "
          f"(1, 5, 15 min: the machine is shared, the figures share its cores)")
    print("latency: sensor event at a table (time.time() just before SimTable.present of the card) -> this "
          "script's client of the head console's /ws has {\"kind\": \"alarm\"} for it; the parts:")
    parts = {**PARTS, "link+broker": "-> a bare MQTT subscriber on the centre has the alert (link, the room's "
                                     "Mosquitto, the bridge, the central Mosquitto)",
             "  brokers": "of which: -> the bare subscriber on the centre has it (paho's socket, the room's "
                          "Mosquitto, the bridge, the central Mosquitto)",
             "console": "-> the WebSocket client has the alarm (head console process, web server, WebSocket)"}
    for part in PARTS:
        print(f"  {part.strip():<11} {parts[part]}")
    print(f"the simulated tables and the room consoles (on other machines in a real event) run at nice {args.nice}; "
          f"the head console and the brokers at 0, its switch interval "
          f"{1000 * (args.switch_interval or sys.getswitchinterval()):g} ms")
    table_root = args.table_dir or default_table_dir()
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-event-")))
        data = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-event-tables-", dir=table_root)))
        print(f"the tables' logs in {data.parent} ({'tmpfs' if str(data).startswith('/dev/shm') else 'disk'})")
        files = init_event(tmp / "event", CLUB,
                           [RoomPlan(r, tuple(ts), "127.0.0.1", free_port("127.0.0.1")) for r, ts in rooms.items()],
                           listen="127.0.0.1", port=free_port("127.0.0.1"))
        tap_address = tap_user(files.centre)
        brokers = {"centre": MosquittoProcess(runnable_config(files.centre.conf), files.centre.port)}
        brokers.update({r: MosquittoProcess(runnable_config(f.conf), f.port) for r, f in files.rooms.items()})
        consoles = Consoles(tmp, args.profile)
        workers: list[WorkerProc] = []
        client: PushClient | None = None
        tap: AlertTap | None = None
        try:
            for b in brokers.values():
                b.start()
            head_port = free_port("127.0.0.1")
            consoles.start("head", files.centre.url("console"), head_port, head=True, switch=args.switch_interval)
            for r, f in files.rooms.items():
                consoles.start(r, f.url("console"), free_port("127.0.0.1"), head=False, nice=args.nice)
            http, cookie = login(head_port, consoles, 120)
            client = PushClient(f"ws://127.0.0.1:{head_port}/ws", f"http://127.0.0.1:{head_port}", cookie)
            tap = AlertTap(tap_address)

            events: list[Json] = []
            events_lock = threading.Lock()
            room_of = {t: r for r, ts in rooms.items() for t in ts}
            workers = [WorkerProc(tmp / f"worker-{i}.log", events, events_lock) for i in range(nworkers)]
            for w in workers:  # before the worker starts a thread: each inherits it
                lower(w.proc.pid, args.nice)
            for i, w in enumerate(workers):
                mine = every[i::nworkers]
                w.send({"cmd": "init", "data": str(data), "seed": args.seed + i,
                        "tables": [[t, files.rooms[room_of[t]].url(t)] for t in mine]})
            for w in workers:
                w.answer(300)
            wait_online(http, cookie, n, consoles, list(brokers.values()), 300)
            print(f"event up in {time.monotonic() - started:.1f} s ({len(brokers)} brokers, {len(consoles.procs)} "
                  f"consoles, {n} tables linked and online at the head console); file descriptors of the workers: "
                  f"at most {max(fds(w.proc.pid) for w in workers)} (select() takes up to 1024)")
            time.sleep(2.0)  # the links' first acknowledgements settle

            pids = {"tables": [w.proc.pid for w in workers], "head": [consoles.procs["head"].pid],
                    "rooms": [p.pid for k, p in consoles.procs.items() if k != "head"],
                    "brokers": [b.pid for b in brokers.values() if b.pid is not None]}
            meter = CpuMeter(pids)
            used: dict[tuple[str, str], int] = {}
            act_timeout = 300 + 60 * rounds
            s0 = consoles.stats("head")

            # steady
            steady = Phase("staggered")
            meter.start()
            staggered(workers, client, n, rounds, [pace / 3, pace * 5 / 3], [pace * 5 / 3, pace * 10], args.grace,
                      act_timeout)
            steady.span, steady.cpu = meter.stop()
            s1 = consoles.stats("head")
            with events_lock:
                steady.measure(events, client, tap, used)
            print()
            print(f"steady: each table {rounds} boards, each with a lead out of turn and a revoke at random moments "
                  f"among its other acts (one every {pace:.1f} s or so), over {steady.span:.0f} s; the head console "
                  f"took {rate(s0, s1, steady.span)} MQTT messages/s")
            print_phase(steady)
            inside(s0, s1)
            result["steady"] = steady.as_json()

            # all at once
            burst = Phase("burst")
            meter.start()
            spent = all_at_once(workers, client, n, rounds, args.quiet, args.grace, act_timeout)
            burst.span, burst.cpu = meter.stop()
            s2 = consoles.stats("head")
            with events_lock:
                burst.measure(events, client, tap, used)
            print()
            print(f"all at once: {rounds} times all {n} tables of the {args.rooms} rooms revoke together (each "
                  f"after its board, auction, lead out of turn and ruling, then {args.quiet:g} s of quiet); "
                  f"{burst.span:.0f} s in all, the head console took {rate(s1, s2, burst.span)} MQTT messages/s")
            print_phase(burst)
            bound = print_tables_bound(spent, n)
            inside(s1, s2)
            result["all_at_once"] = {**burst.as_json(), "tables_bound": bound}

            time.sleep(2.0)
            print()
            memory(consoles, brokers, workers, n, result)
            counters(consoles, workers, client, brokers, tmp, n, rounds, result)
            ask_all(workers, {"cmd": "stop"}, timeout=120)
        except BaseException:
            print_logs({f"console {name}": log for name, log in consoles.logs.items()},
                       {f"broker {name}": b for name, b in brokers.items()}, workers)
            raise
        finally:
            stop([client, tap], workers, consoles.procs.values(), reversed(list(brokers.values())))
            consoles.close()
            keep_logs(args.logs, [*consoles.logs.values(), *(b.log_path for b in brokers.values()),
                                  *(w.log for w in workers)])
            result["load_after"] = load()
            result["seconds"] = time.monotonic() - started
            print(f"\ndone in {time.monotonic() - started:.0f} s; load average {load()}")
    return result


def print_phase(phase: Phase) -> None:
    phase.print_latencies("head console")
    cpu = phase.cpu
    print(f"  CPU (% of one core): tables {cpu['tables']:.0f}, head console {cpu['head']:.0f}, room consoles "
          f"{cpu['rooms']:.0f}, brokers {cpu['brokers']:.0f}, this script {cpu['bench']:.0f}; other programs on the "
          f"machine {max(0.0, cpu['others']):.0f}; load average now {load()}")


def inside(before: Json, after: Json) -> None:
    """The head console's own timing during a phase (``TIMING``)."""
    if not before or not after:
        return
    emits = [1000 * x for x in after["emit_delays"][len(before["emit_delays"]):]]
    changes = [1000 * x for x in after["changes_seconds"][len(before["changes_seconds"]):]]
    print(f"  inside the head console: its paho thread took an alert -> its console thread raised the alarm "
          f"{summary(emits)}")
    if changes:
        print(f"    each push's changes(), made under the lock the console thread takes each batch with: "
              f"{summary(changes)}, {sum(changes) / 1000:.1f} s in all")


def memory(consoles: Consoles, brokers: dict[str, Any], workers: list[WorkerProc], n: int, result: Json) -> None:
    rss = {f"console {k}": (status_mb(p.pid), status_mb(p.pid, "VmHWM")) for k, p in consoles.procs.items()}
    rss.update({f"broker {k}": (status_mb(b.pid), status_mb(b.pid, "VmHWM")) for k, b in brokers.items()})
    total, peak = sum(v[0] for v in rss.values()), sum(v[1] for v in rss.values())
    machines = {"centre": ("console head", "broker centre"), **{r: (f"console {r}", f"broker {r}") for r in brokers
                                                                if r != "centre"}}
    per_machine = {m: (rss[c][0] + rss[b][0], rss[c][1] + rss[b][1]) for m, (c, b) in machines.items()}
    result["rss_mb"] = {k: v[0] for k, v in rss.items()}
    result["peak_mb"] = {k: v[1] for k, v in rss.items()}
    result.update(consoles_brokers_mb=total, consoles_brokers_peak_mb=peak,
                  centre_mb=per_machine["centre"][0], centre_peak_mb=per_machine["centre"][1],
                  room_peak_mb=max(v[1] for m, v in per_machine.items() if m != "centre"))
    print("resident memory (VmRSS, peak VmHWM), MB: " +
          ", ".join(f"{k} {v[0]:.0f} ({v[1]:.0f})" for k, v in rss.items()))
    print("  by machine of a real event (its console and its broker): " +
          ", ".join(f"{'the centre' if m == 'centre' else 'room ' + m} {v[0]:.0f} (peak {v[1]:.0f})"
                    for m, v in per_machine.items()) + f"; target < {MEMORY_TARGET:.0f}")
    print(f"  every console and broker together, as on this one machine: {total:.0f} MB (peak {peak:.0f}; each "
          f"console process is some 60 MB before its first table)")
    w_rss = sum(status_mb(w.proc.pid) for w in workers)
    print(f"  the table workers: {w_rss:.0f} MB for {n} tables ({w_rss / n:.1f} MB a table)")


def counters(consoles: Consoles, workers: list[WorkerProc], client: PushClient, brokers: dict[str, Any],
             tmp: Path, n: int, rounds: int, result: Json) -> None:
    stats = ask_all(workers, {"cmd": "stats"}, timeout=60)
    problems = [p for s in stats for p in s["problems"]]
    result["problems"] = problems
    expected = 4 * n * rounds  # each table: a lead and a revoke a round, steady and all at once
    alarms = {name: consoles.stats(name).get("alarms") for name in consoles.procs}
    result["alarms_raised"] = alarms
    if "profile" in (head := consoles.stats("head")):
        print("the head console's changes(), profiled (the functions it spent the most time in, their own time):")
        print("\n".join(line for line in head["profile"].splitlines()[-20:] if line.strip()))
    with client.changed:
        on_ws = sum(len(v) for v in client.alarms.values())
    result["alarms_on_head_ws"] = on_ws
    print(f"alarms: {expected} irregularities committed; raised by the head console {alarms['head']}, received by "
          f"this script's WebSocket client {on_ws}; by the room consoles " +
          ", ".join(f"{k} {v}" for k, v in alarms.items() if k != "head"))
    if client.other_alarms:
        print(f"  other alarms: {len(client.other_alarms)}, e.g. {client.other_alarms[0].get('text')}")
    push = pushes(client.deltas)
    result["pushes"] = push
    if push["n"]:
        print(f"the head console's page pushes (deltas after the whole room on connecting, "
              f"{client.room_max / 1024:.0f} KB the largest of all): {push['n']}, p50 {push['p50'] / 1024:.1f} KB, "
              f"p99 {push['p99'] / 1024:.1f} KB, largest {push['max'] / 1024:.1f} KB ({push['max_tiles']} tiles, "
              f"{push['max_calls']} calls); a push of one changed tile {push['one_tile'] / 1024:.1f} KB "
              f"(median; target < {PUSH_TARGET / 1024:.0f} KB a change), of which calls (those that changed) "
              f"{push['one_tile_calls'] / 1024:.1f} KB; bytes per tile carried "
              f"{push['per_tile_median'] or 0:.0f} (median)")
    for p in problems[:5]:
        print(f"  problem: {p}")
    for name, proc in consoles.procs.items():
        if proc.poll() is not None:
            result.setdefault("stopped", []).append(name)
            print(f"  console {name} stopped during the run (exit {proc.returncode}); its log ends:\n"
                  f"{tail(consoles.logs[name])}")
    trouble = link_trouble(brokers["centre"].log_path, consoles.logs["head"], [w.log for w in workers])
    result["link_trouble"] = trouble
    print(f"  the links, from the logs: the head console lost the centre {trouble['console_lost_broker']} times, the "
          f"tables their room {trouble['tables_lost_broker']} times; the centre's disconnections and drops: "
          f"{trouble['broker'] or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--tables", type=int, default=500, help="simulated tables in the event (500)")
    parser.add_argument("--rooms", type=int, default=4, help="rooms, each on its own broker bridged to the centre (4)")
    parser.add_argument("--rounds", type=int, default=0,
                        help="boards per table when steady, and times all tables revoke at once "
                             "(default: 10 up to 30 tables, 5 up to 100, else 3)")
    parser.add_argument("--workers", type=int, default=0,
                        help=f"processes the tables are shared among (default: one per {PER_WORKER} tables)")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="seconds between a table's acts in steady play, about "
                             "(default: 0.3, slower past 60 tables)")
    parser.add_argument("--quiet", type=float, default=2.0, help="seconds of quiet before all tables revoke (2)")
    parser.add_argument("--grace", type=float, default=60.0,
                        help="seconds an alarm may still come after its phase before it counts as lost")
    parser.add_argument("--table-dir", type=Path,
                        help="where the tables' logs go (default: /dev/shm when there is one)")
    parser.add_argument("--nice", type=int, default=10,
                        help="niceness of what runs on other machines in a real event: the simulated tables (on "
                             "their own Pis) and the room consoles (in their rooms); 0: all alike (10)")
    parser.add_argument("--switch-interval", type=float, default=0.0, metavar="SECONDS",
                        help="an experiment: the head console's sys.setswitchinterval (default: Python's 0.005)")
    parser.add_argument("--profile", action="store_true",
                        help="profile the head console's changes() (what each push is made of) and print it")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this file, as JSON")
    parser.add_argument("--logs", type=Path, help="keep the consoles', brokers' and workers' logs here")
    args = parser.parse_args()
    if (args.tables < 1 or not 1 <= args.rooms <= 26 or args.rooms > args.tables or args.rounds < 0
            or args.workers < 0 or args.pace < 0 or args.grace < 0 or not 0 <= args.nice <= 19
            or args.switch_interval < 0):
        parser.error("--tables >= 1, --rooms 1..26 and at most --tables, --nice 0..19; --rounds, --workers, --pace, "
                     "--grace, --switch-interval >= 0")
    if args.workers and math.ceil(args.tables / args.workers) > MAX_PER_WORKER:
        parser.error(f"at most {MAX_PER_WORKER} tables a worker (file descriptors: select() takes up to 1024)")

    def terminate(signum: int, frame: object) -> None:
        raise SystemExit(f"signal {signum}: stopping what this benchmark started")

    signal.signal(signal.SIGTERM, terminate)
    result = run(args)
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
