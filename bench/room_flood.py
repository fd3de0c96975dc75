"""A 30-table room under the worst flood of one table: what the console and the broker hold.

Run with ``.venv/bin/python bench/room_flood.py [--tables 30] [--seconds 20] [--flood big-state]``.
Prints the figures and asserts nothing.

What runs, on loopback: a private Mosquitto with the club configuration of ``tablectl room
init`` (tables 1..N); the real console (``tablectl.room.console.Console``) in this process, whose
resident memory is sampled every 0.2 s; in a child process, N-1 well-behaved tables (each a
paho client with its own table's password, publishing a chained outbox event every 0.5 s, as a
busy table's link does) and one flooding table (table 2's password) that, for ``--seconds``:

- ``big-state``: publishes 1 MB retained states (the largest the console takes) as fast as the
  broker takes them;
- ``calls``: publishes 64 kB alerts, each a new irregularity needing the Director;
- ``garbage``: publishes 64 kB messages the console refuses (unreadable JSON, seq 2^63, deep arrays);
- ``oversize``: publishes 2 MB messages (over the broker's packet limit: each one disconnects it).

At the end: the messages each side sent, what the console received, refused and dropped, the
console's and the broker's peak resident memory, and whether every well-behaved table is
acknowledged to its last message (none missing).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tablectl.room.address import ClubAddress
from tablectl.room.broker import init_room
from tablectl.room.console import Console
from tablectl.room.process import MosquittoProcess, free_port

CLUB = "bench"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def client(url: str) -> mqtt.Client:
    address = ClubAddress.parse(url)
    c = mqtt.Client(CallbackAPIVersion.VERSION2)
    c.username_pw_set(address.username, address.password)
    c.max_inflight_messages_set(100)
    c.connect(address.host, address.port, keepalive=30)
    c.loop_start()
    return c


def message(table: str, seq: int, body: dict[str, object]) -> str:
    return json.dumps({**body, "v": 1, "club": CLUB, "table": table, "session": f"s-{table}", "seq": seq,
                       "prev": seq - 1, "time": "2026-11-27T20:00:00.000Z", "at": time.time()})


def tables_main(urls: dict[str, str], seconds: float, flood: str, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    stop = time.monotonic() + seconds
    sent: dict[str, int] = {}

    def normal(table: str) -> None:
        c = client(urls[table])
        seq = 0
        infos = []
        while time.monotonic() < stop:
            seq += 1
            infos.append(c.publish(f"bridge/{CLUB}/table/{table}/event", message(
                table, seq, {"action": {"kind": "call", "call": "Pass"}, "source": "bench"}), qos=1))
            time.sleep(0.5)
        sent[table] = seq
        for info in infos:  # every one handed to the broker (a real table's link sends again what is not)
            info.wait_for_publish(30)
        c.disconnect()

    def flooder() -> None:
        c = client(urls["2"])
        n = 0
        pad = "x" * 60_000
        big = "y" * (1_000_000 - 400)
        while time.monotonic() < stop:
            n += 1
            if flood == "big-state":
                info = c.publish(f"bridge/{CLUB}/table/2/state", json.dumps(
                    {"v": 1, "club": CLUB, "table": "2", "session": "s-2", "online": True, "table_name": big}),
                    qos=1, retain=True)
            elif flood == "calls":
                info = c.publish(f"bridge/{CLUB}/table/2/alert", message("2", n, {
                    "alert": "irregularity", "event": "raised", "id": n, "alarm": True, "what": "lead out of turn",
                    "detail": pad}), qos=1)
            elif flood == "garbage":
                payload = ["{" + pad, message("2", 2 ** 63, {"what": pad}), "[" * 30_000 + "]" * 30_000][n % 3]
                info = c.publish(f"bridge/{CLUB}/table/2/alert", payload, qos=1)
            else:
                if not c.is_connected():
                    try:
                        c.reconnect()
                    except Exception:  # refused or reset: try again
                        time.sleep(0.1)
                        continue
                info = c.publish(f"bridge/{CLUB}/table/2/alert", "z" * (2 << 20), qos=1)
            with_timeout = time.monotonic() + 5
            while not info.is_published() and time.monotonic() < with_timeout and c.is_connected():
                time.sleep(0.001)
        sent["2 (flood)"] = n
        c.disconnect()

    threads = [threading.Thread(target=normal, args=(t,)) for t in urls if t != "2"]
    threads.append(threading.Thread(target=flooder))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(sent)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--flood", choices=("big-state", "calls", "garbage", "oversize"), default="big-state")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="room-flood-") as tmp:
        tables = [str(n) for n in range(1, args.tables + 1)]
        room = init_room(Path(tmp) / "room", CLUB, tables, listen="127.0.0.1", port=free_port("127.0.0.1"))
        broker = MosquittoProcess(room.conf, room.port, host="127.0.0.1")
        broker.start()
        console = Console(room.address_of("console"), Path(tmp) / "console")
        console.start()
        peak = {"console": rss_mb(os.getpid()), "broker": 0.0}
        base = dict(peak)
        sampling = True

        def sample() -> None:
            while sampling:
                peak["console"] = max(peak["console"], rss_mb(os.getpid()))
                assert broker._proc is not None
                peak["broker"] = max(peak["broker"], rss_mb(broker._proc.pid))
                time.sleep(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        out: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
        child = multiprocessing.Process(target=tables_main, args=({t: room.url(t) for t in tables}, args.seconds,
                                                                    args.flood, out))
        started = time.monotonic()
        child.start()
        sent = out.get(timeout=args.seconds + 120)
        child.join()
        deadline = time.monotonic() + 60
        behind: list[str] = []
        while time.monotonic() < deadline:
            behind = [t for t in tables if t != "2" and console.room.acknowledged(t) != (f"s-{t}", sent.get(t, -1))]
            if not behind:
                break
            time.sleep(0.2)
        took = time.monotonic() - started
        sampling = False
        sampler.join()
        snap = console.snapshot()
        normal = sum(v for k, v in sent.items() if k != "2 (flood)")
        print(f"flood {args.flood!r} from table 2 for {args.seconds:g} s, {args.tables} tables ({took:.0f} s in all)")
        print(f"  sent: {normal} messages by the {args.tables - 1} other tables, {sent.get('2 (flood)', 0)} by table 2")
        print(f"  console: received {console.received}, refused {console.refused}, dropped (sent again later) "
              f"{console.dropped}, open calls of table 2 "
              f"{sum(1 for c in snap['calls'] if c['table'] == '2' and c['state'] != 'resolved')}, "
              f"folded {snap['folded'].get('2', 0)}, page JSON {len(json.dumps(snap)) / 1024:.0f} kB")
        print(f"  resident memory: console {base['console']:.0f} -> peak {peak['console']:.0f} MB, "
              f"broker peak {peak['broker']:.0f} MB")
        print(f"  other tables acknowledged to their last message: {args.tables - 1 - len(behind)} of "
              f"{args.tables - 1}" + (f" (behind: {', '.join(behind)})" if behind else " (0 missing)"))
        console.stop()
        broker.stop()


if __name__ == "__main__":
    main()
