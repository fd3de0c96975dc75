"""The running table, end to end: raw serial frame into a pty -> WebSocket message at a client.

Run with ``.venv/bin/python bench/table.py [--boards N] [--idle SECONDS]``. Prints the
figures and asserts nothing (docs/targets.md: serial frame -> WebSocket message p99
under 20 ms with four seats sending at once; resident memory under 80 MB; idle CPU near
zero).

What runs: the real ``tablectl run`` in its own process, with a table config naming four
seat units (``serial://`` on four pseudo-terminals made here); this script plays the seat
units' side of each pty (HELLO, then STATE frames, as the firmware would) and is a
WebSocket client of ``/ws/table``. The arbiter enters each board start and auction through
the HTTP API (logged in with the PIN); then every card is a STATE frame whose play zone
gains that card (quitted cards stay on it), and the latency is the time from writing the
frame to the first ``/ws/table`` message showing the card. The path: pyserial reader thread
-> link supervisor -> raw event -> engine thread (sensing, table step, SQLite commit with
fsync) -> subscriber -> the web server's event loop -> WebSocket -> client.

Two runs: one seat sending at a time, and "four seats at once": with each card frame, the
three other seat units send their periodic STATE snapshot at the same moment. Then the
process's resident memory (VmRSS) and its CPU use over ``--idle`` seconds with nothing
happening (one WebSocket client connected).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.frames import DEAL, RANKS, SEATS, SUIT_OF, TRICK_ORDER, SeatPty, percentiles  # noqa: E402
from controller.sensing.deck import DeckRegistry, dumps  # noqa: E402
from drivers.sim import default_deck  # noqa: E402
from web_ui.security import CSRF_HEADER  # noqa: E402

PIN = "2468"


class Client:
    """A ``/ws/table`` client that notes when each card first shows in a message."""

    def __init__(self, url: str) -> None:
        self.ws = connect(url, open_timeout=10)
        self.shown: dict[str, int] = {}
        self.messages = 0
        self.seen = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):
            for text in self.ws:
                now = time.perf_counter_ns()
                payload = json.loads(text)
                cards = []
                board = payload.get("board") or {}
                for key in ("current_trick", "last_trick"):
                    trick = board.get(key) or {}
                    cards += [c["card"] for c in trick.get("cards", []) if c.get("card")]
                with self.seen:
                    self.messages += 1
                    for card in cards:
                        self.shown.setdefault(f"{board.get('number')}:{card}", now)
                    self.seen.notify_all()

    def wait_for(self, key: str, timeout: float = 5.0) -> bool:
        with self.seen:
            return self.seen.wait_for(lambda: key in self.shown, timeout)

    def close(self) -> None:
        self.ws.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _start_table(work: Path, ptys: dict[str, SeatPty], port: int) -> subprocess.Popen[bytes]:
    deck = DeckRegistry.from_mapping({"deck1": default_deck(1)})
    (work / "deck.json").write_text(dumps(deck), encoding="utf-8")
    seats = "".join(f'[seats.{seat}]\nunit = "serial://{pty.path}"\n' for seat, pty in ptys.items())
    (work / "table.toml").write_text(f'[table]\nname = "Bench table"\ndeck = "deck.json"\n{seats}',
                                     encoding="utf-8")
    env = dict(os.environ, BRIDGE_ARBITER_PIN=PIN)
    return subprocess.Popen(
        [sys.executable, "-m", "tablectl", "run", "--config", str(work / "table.toml"),
         "--data-dir", str(work / "data"), "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _wait_up(http: httpx.Client, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise SystemExit(f"tablectl run stopped (exit {proc.returncode}):\n{err}")
        with contextlib.suppress(httpx.HTTPError):
            if http.get("/api/table").status_code == 200:
                return
        time.sleep(0.1)
    raise SystemExit("tablectl run did not answer within 30 s")


def _arbiter(http: httpx.Client, base: str) -> dict[str, str]:
    answer = http.post("/api/arbiter/login", json={"pin": PIN}, headers={"Origin": base})
    answer.raise_for_status()
    return {CSRF_HEADER: answer.json()["csrf"], "Origin": base}


def _enter(http: httpx.Client, headers: dict[str, str], action: dict[str, object]) -> None:
    answer = http.post("/api/arbiter/actions", json=action, headers=headers)
    if answer.status_code != 200 or answer.json().get("rejected"):
        raise SystemExit(f"the table refused {action}: {answer.status_code} {answer.text}")


def play(boards: int, idle: float) -> None:
    ptys = {seat: SeatPty(seat) for seat in SEATS}
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="bench-table-", dir=ROOT) as tmp:
        started = time.monotonic()
        proc = _start_table(Path(tmp), ptys, port)
        http = httpx.Client(base_url=base, timeout=10)
        try:
            _wait_up(http, proc)
            print(f"tablectl run answered in {time.monotonic() - started:.2f} s "
                  f"(process start, config, SQLite, four serial ports, web server)")
            for pty in ptys.values():
                if not pty.opened.wait(10):
                    raise SystemExit(f"seat {pty.seat}'s port was not opened")
                pty.hello()
                pty.write(pty.state_frame())
            headers = _arbiter(http, base)
            client = Client(f"ws://127.0.0.1:{port}/ws/table")
            for together in (False, True):
                latencies, lost = _boards(http, headers, client, ptys, boards, together)
                median, p99, worst = percentiles(latencies)
                how = "four seats at once" if together else "one seat at a time"
                print(f"frame -> WebSocket, {how}: {len(latencies)} cards"
                      + (f" ({lost} never shown)" if lost else ""))
                print(f"  median {median / 1000:7.2f} ms   p99 {p99 / 1000:7.2f} ms   max {worst / 1000:7.2f} ms")
            print(f"resident memory (VmRSS) of the table process: {_rss_mb(proc.pid):.1f} MB")
            time.sleep(1.0)
            cpu0, t0 = _cpu_seconds(proc.pid), time.monotonic()
            time.sleep(idle)
            cpu1, t1 = _cpu_seconds(proc.pid), time.monotonic()
            print(f"idle CPU over {t1 - t0:.0f} s (four seat ports open, one WebSocket client): "
                  f"{100 * (cpu1 - cpu0) / (t1 - t0):.2f} % of one core")
            client.close()
        finally:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(10)
            if proc.poll() is None:
                proc.kill()
            for pty in ptys.values():
                pty.close()


_board_number = 0


def _boards(http: httpx.Client, headers: dict[str, str], client: Client, ptys: dict[str, SeatPty],
            boards: int, together: bool) -> tuple[list[float], int]:
    global _board_number
    latencies: list[float] = []
    lost = 0
    for _ in range(boards):
        _board_number += 1
        number = (_board_number - 1) % 32 + 1
        for pty in ptys.values():  # the cards go back in the board: empty zones
            pty.tags.clear()
            pty.write(pty.state_frame())
        time.sleep(0.05)
        _enter(http, headers, {"board": {"number": number, "dealer": "N", "vul": "None", "deal": DEAL.pbn()}})
        for seat, call in zip("NESW", ("1NT", "Pass", "Pass", "Pass"), strict=True):
            _enter(http, headers, {"seat": seat, "call": call})
        for trick in range(13):
            for seat in TRICK_ORDER:
                card = f"{SUIT_OF[seat]}{RANKS[trick]}"
                uid = default_deck(1)[card]
                ptys[seat].tags.append(bytes.fromhex(uid))
                frame = ptys[seat].state_frame()
                others = [(p, p.state_frame()) for s, p in ptys.items() if s != seat] if together else []
                t0 = time.perf_counter_ns()
                ptys[seat].write(frame)
                for other, snapshot in others:
                    other.write(snapshot)
                key = f"{number}:{card}"
                if client.wait_for(key):
                    latencies.append((client.shown[key] - t0) / 1000)
                else:
                    lost += 1
        # The board is over: the next BoardStart ends it.
    return latencies, lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=6, help="boards of 52 cards per run")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle CPU measurement")
    args = parser.parse_args()
    play(args.boards, args.idle)


if __name__ == "__main__":
    main()
