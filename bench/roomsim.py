"""The club room's simulated tables for ``bench/room.py``: worker processes, each running a share of the tables.

Each table is a ``TableRuntime`` (its own SQLite log, engine thread, fsync'd commits), a ``SimTable`` and a
``TableLink`` (its own paho client, its table's credentials), as in tests/room/test_link.py. The sensing clock
of each table is a fake clock moved by hand, as in the tests, so that no ``call_confirm`` waits are spent on
the auction; where the table must wait in earnest (the read cycle a card out of turn is held for, Law 58A) the
worker waits that long in real time, then moves the clock past it.

A board, each round:

1. its board tag, then the auction 1NT by N and three passes (simulated bidding boxes);
2. **the lead out of turn**: W puts a card on W's play zone while E is on lead (Law 54). A card of a seat not
   in turn is held for one read cycle (``Settings.read_cycle``, 0.12 s: the card in turn may have been put
   down first, Law 58A), so its alarm can come no sooner than that: its latency includes the hold;
3. the table accepts the lead (``accept_see_dummy``, submitted at the table), N plays to it;
4. **the revoke** (the headline, an irregularity in turn): E, in turn and holding spades, plays a heart
   (Law 61). A card of the seat in turn is stepped at once: no hold, no debounce;
5. the table confirms the revoke, the arbiter assigns the tricks (the board ends: a result for the
   travellers), the cards are gathered and the 1NT card put back.

The main process sends commands on a worker's stdin, one JSON object a line; the worker answers on its
stdout likewise, and reports each irregularity it commits as ``{"event": "lead"|"revoke", "table", "phase",
"emit", "committed"}``: ``emit`` the wall time just before the sensor event is handed to the table,
``committed`` when its table's log committed the irregularity. Run as ``python bench/roomsim.py`` (what
``WorkerProc`` starts).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

LEAD = ("S2", "W.play")  # W's card on W's play zone while E is on lead (1NT by N): Law 54
DECLARER_PLAY = ("SA", "N.play")  # N, declarer, plays to the lead once it is accepted
REVOKE = ("H7", "E.play")  # E holds spades and plays a heart, in turn: Law 61
AUCTION = (("1NT", "N"), ("Pass", "E"), ("Pass", "S"), ("Pass", "W"))
DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
BOARD_COUNT = 32
WAIT = 15.0
"""Seconds to wait for anything that must happen at a table (its engine's answer, a commit)."""

Json = dict[str, Any]


def board_tag(number: int) -> str:
    return f"0B0000000000{number:02X}"


def read_cycle() -> float:
    """The seconds a card out of turn is held (the sensing layer's default ``read_cycle``, Law 58A)."""
    from controller.sensing.translate import Settings

    return Settings().read_cycle


class _Clock:
    """A table's hand-moved monotonic clock (the sensing layer's timing, as in the tests)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class SimulatedTable:
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

        deal = Deal.parse(DEAL)
        self.id = table_id
        self.clock = _Clock()
        self.hold = read_cycle()
        setup = TableSetup(name=f"Table {table_id}", decks=DeckRegistry.from_mapping({"deck1": default_deck()}),
                           deck="deck1", boards={board_tag(n): n for n in range(1, BOARD_COUNT + 1)},
                           hand_record={n: a.BoardStart(n, Seat.N, None, deal) for n in range(1, BOARD_COUNT + 1)})
        self.rt = TableRuntime(data / f"table-{table_id}.sqlite", setup, monotonic=self.clock)
        self.sim = SimTable(default_deck(), self.rt.clock)
        self.rt.start([self.sim])
        self.link = TableLink(self.rt, ClubAddress.parse(url), table_id)
        self.published_at: float | None = None
        """When the link handed the armed irregularity's alert to paho (wall time; None: not yet)."""
        self._watching = False
        self._publish_row = self.link._publish_row
        self.link._publish_row = self._timed_publish_row  # type: ignore[method-assign]
        self.link.start()
        self._armed = False
        self.committed = threading.Event()
        self.commit_time = 0.0
        self.rt.subscribe(self._on_commit)  # after the link's: the link is told first
        self.board = 0
        self.pending = False  # a board with an irregularity not yet ruled
        self.problems: list[str] = []

    def _on_commit(self, seq: int) -> None:
        if self._armed:
            self._armed = False
            self.commit_time = time.time()
            self.committed.set()

    def _timed_publish_row(self, row: Any) -> None:
        """The link's own, and when it handed the armed irregularity's alert (``raised``) to paho."""
        self._publish_row(row)
        if self._watching and getattr(row, "kind", None) == "alert" and row.body.get("event") == "raised":
            self._watching = False
            self.published_at = time.time()

    def _arm(self) -> None:
        """The next commit is the irregularity's (the caller has let everything before it through)."""
        self.committed.clear()
        self.published_at = None
        self._watching = True
        self._armed = True

    def _sync(self, dt: float) -> None:
        self.clock.now += dt
        if not self.rt.sync(WAIT):
            raise RuntimeError(f"table {self.id}: the engine did not answer")

    def committed_at(self, timeout: float) -> float | None:
        """When the irregularity just sensed was committed (wall time), or None if not within ``timeout``."""
        return self.commit_time if self.committed.wait(timeout) else None

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

    def lead_out_of_turn(self) -> float:
        """W leads out of turn and the read cycle is waited out in real time; returns the wall time of the
        sensor event (just before it is handed over). The commit is armed once the hold is over."""
        self.pending = True
        self.clock.now += 1.0
        emitted = time.time()
        self.sim.present(*LEAD)
        if not self.rt.sync(WAIT):  # the card taken in and held: nothing of it is left to commit
            raise RuntimeError(f"table {self.id}: the engine did not answer")
        time.sleep(max(0.0, emitted + self.hold - time.time()))
        self._arm()
        self._sync(self.hold)  # the engine's read-cycle deadline passes: the held card is stepped
        return emitted

    def accept_lead(self) -> None:
        """The lead accepted at the table, declarer's card to it: E is in turn."""
        from controller import actions as a

        self.clock.now += 1.0
        answer = self.rt.submit(a.Ruling("accept_see_dummy"))
        if answer.rejected:
            self.problems.append(f"table {self.id}: the lead's ruling refused: {answer.rejected}")
        self.clock.now += 1.0
        self.sim.present(*DECLARER_PLAY)
        self._sync(0.0)

    def revoke(self) -> float:
        """E revokes, in turn; returns the wall time of the sensor event (just before it is handed over)."""
        self.pending = True
        self.clock.now += 1.0
        self._arm()
        emitted = time.time()
        self.sim.present(*REVOKE)
        return emitted

    def finish(self) -> None:
        """The revoke confirmed, the tricks assigned (the board ends), the cards gathered."""
        from controller import actions as a

        if not self.pending:
            return
        self.pending = False
        for action in (a.Ruling("confirm"), a.Adjust(7)):
            self.clock.now += 1.0
            answer = self.rt.submit(action)
            if answer.rejected:
                self.problems.append(f"table {self.id}: {type(action).__name__} refused: {answer.rejected}")
        self.clock.now += 1.0
        for reader in self.sim.readers:
            self.sim.clear(reader)
        self.sim.put_back("1NT", "N")
        self._sync(3.0)  # past every sensing deadline (dropout, pick-up): none is left pending on the fake clock

    def stop(self) -> None:
        self.link.stop()
        self.rt.stop()


class Worker:
    """Commands on stdin, one JSON object a line; answers and samples on stdout, likewise."""

    def __init__(self) -> None:
        self.tables: list[SimulatedTable] = []
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
                    self.each(lambda t: self.to_the_revoke(t, "burst"))
                elif what == "fire":
                    self.say({"ok": what, **self.fire()})
                    continue
                elif what == "finish":
                    self.each(SimulatedTable.finish)
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
        self.tables = [SimulatedTable(data, url, table_id) for table_id, url in tables]
        deadline = time.monotonic() + WAIT
        while not all(t.link.connected for t in self.tables):
            if time.monotonic() > deadline:
                raise RuntimeError("the tables' links did not connect to the broker")
            time.sleep(0.05)

    def each(self, job: Callable[[SimulatedTable], object]) -> None:
        """``job`` on every table at once (a thread each); the first failure is raised."""
        errors: list[BaseException] = []

        def run(t: SimulatedTable) -> None:
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

    def _report(self, t: SimulatedTable, event: str, emitted: float, phase: str, timeout: float = WAIT) -> None:
        committed = t.committed_at(timeout)
        deadline = time.monotonic() + (min(timeout, 5.0) if committed is not None else 0.0)
        while t.published_at is None and time.monotonic() < deadline:  # the link's publisher thread, next
            time.sleep(0.002)
        self.say({"event": event, "table": t.id, "phase": phase, "emit": emitted, "committed": committed,
                  "published": t.published_at})

    def to_the_revoke(self, t: SimulatedTable, phase: str, pause: Callable[[], None] = lambda: None) -> None:
        """The last board finished, a new one to the lead out of turn (timed), accepted, declarer's card."""
        t.finish()
        t.prepare(pause)
        pause()
        self._report(t, "lead", t.lead_out_of_turn(), phase)
        pause()
        t.accept_lead()

    def staggered(self, rounds: int, pause: list[float], wait: list[float]) -> None:
        seeds = {t.id: self.rng.random() for t in self.tables}

        def play(t: SimulatedTable) -> None:
            rng = random.Random(seeds[t.id])
            time.sleep(rng.uniform(0, wait[1]))  # the tables do not start together
            for _ in range(rounds):
                self.to_the_revoke(t, "staggered", lambda: time.sleep(rng.uniform(*pause)))
                time.sleep(rng.uniform(*wait))
                self._report(t, "revoke", t.revoke(), "staggered")
                time.sleep(rng.uniform(*pause))
                t.finish()

        self.each(play)

    def fire(self) -> Json:
        """Every table revokes at once; then each one's commit is reported (within one shared deadline).
        Returns this process's CPU seconds (``cpu``) and wall seconds (``wall``) from the first revoke until
        every table's link has published what its table committed: the tables' own work for the revoke."""
        cpu, wall = time.process_time(), time.monotonic()
        emitted = [(t, t.revoke()) for t in self.tables]
        deadline = time.monotonic() + WAIT
        for t, e in emitted:
            self._report(t, "revoke", e, "burst", max(0.0, deadline - time.monotonic()))
        while time.monotonic() < deadline and any(t.link._cursor < t.rt.store.last_seq for t in self.tables):
            time.sleep(0.005)
        return {"cpu": time.process_time() - cpu, "wall": time.monotonic() - wall}


def worker_main() -> None:
    import logging

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    Worker().run()


# -- the main process's side ---------------------------------------------------------------------------

class WorkerProc:
    """A worker process: JSON lines both ways; the irregularities it reports go to a shared list."""

    def __init__(self, log: Path, events: list[Json], lock: threading.Lock) -> None:
        self.log = log
        self._log: IO[bytes] = log.open("wb")
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve())], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                                     start_new_session=True, text=True, bufsize=1)
        self.answers: queue.SimpleQueue[Json] = queue.SimpleQueue()
        self.events = events
        self.lock = lock
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue  # not ours
            if "event" in msg:
                with self.lock:
                    self.events.append(msg)
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

    def close(self) -> None:
        """End of input ends the worker (after ``stop``, or on the way out of an error); killed if it lingers."""
        with contextlib.suppress(Exception):
            assert self.proc.stdin is not None
            self.proc.stdin.close()

    def kill(self) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(5)
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)
        self._log.close()


def ask_all(workers: list[WorkerProc], cmd: Json, timeout: float) -> list[Json]:
    for w in workers:
        w.send(cmd)
    return [w.answer(timeout) for w in workers]


def tail(path: Path, lines: int = 15) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    return "(no log)"


if __name__ == "__main__":
    worker_main()
