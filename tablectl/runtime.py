"""The running table: drivers -> sensing -> table -> SQLite log, behind ``TableService``.

``TableRuntime`` owns one engine thread, which alone changes the table. Driver threads
only ``emit`` raw sensor events onto a queue; the arbiter's ``submit`` puts its action on
the same queue and waits for the answer. The engine thread blocks on the queue with a
timeout equal to the sensing layer's next deadline (none pending: it blocks until an event
comes, so an idle table costs no CPU), takes every input that has queued up meanwhile,
runs each through ``controller.engine.Engine`` (pure), appends the inputs and what they gave
to the log in one durable transaction (group commit, ``tablectl.store``), and only then
publishes the new ``Snapshot``, answers ``submit`` and calls the subscribers.

Table time. The table clock is ``t0 + speed * (monotonic() - m0)``: ``t0`` is the latest
time in the log (0 for a new one), so table time goes on from where it stopped after a
restart (the time the table was off does not count, so no think time is inflated by a
power cut), and ``speed`` (1 at a real table; more in the demo) makes a simulated table
run faster with every setting still in table seconds. Drivers are given ``clock`` as
their clock. An event stamped before the latest input is taken at the latest input's time
(events from two reader threads may cross on the queue); one stamped in the future is
taken now.

Boards. The board reader's tag (a ``board`` notice) is looked up in ``TableSetup.boards``
(tag UID -> board number); the deal, dealer and vulnerability come from the hand record
(``TableSetup.hand_record``, from a PBN or LIN file), else hands are learned as cards
appear (``tablectl.boardsetup`` decides and reads both files). The resulting
``BoardStart`` is logged as an input of its own (source ``board``), so that the rebuild never
depends on the config of the day. A tag of the board in play is
ignored, and so is the tag of a board already finished at this table (with a notice: a board
is played once at a table); an unknown tag is left to the arbiter, who can also submit a
``BoardStart`` (its deal is filled in from the hand record when it names none).

Indicators. The LED of each seat concerned (the offender of an irregularity awaiting the
arbiter, the seat that called him) is lit while that lasts, and the seat's buzzer sounds
when the irregularity is raised (``Indicator``, when the table has any; ``tablectl.indicators``).
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import logging
import math
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller import actions as a
from controller.engine import RAW_TYPES, Engine, Outcome
from controller.records import lin, pbn, tablelog
from controller.records.eventlog import Row, input_row
from controller.records.export import records_of
from controller.room.messages import room_rows
from controller.seats import Seat
from controller.sensing.deck import DeckRegistry
from controller.sensing.events import DeviceHealth, RawEvent
from controller.sensing.translate import Notice, NoticeKind, Sensing, Settings
from controller.table import Step
from drivers.base import EventSource, Indicator
from tablectl.boardsetup import board_of_tag, with_hand_record
from tablectl.highwater import Loss
from tablectl.indicators import indicate, set_lights
from tablectl.poweron import power_on
from tablectl.runtime_restore import TableRestore
from tablectl.runtime_room import TableRoomSide
from tablectl.store import EventStore, StoreError
from web_ui.service import RecordFormat, Snapshot, Submitted

__all__ = ["TableRuntime", "TableSetup"]

log = logging.getLogger(__name__)

_BATCH = 512
"""The most inputs taken in one group commit."""
_FUTURE = 1.0
"""Seconds: an event stamped further than this ahead of the table clock is taken now."""


@dataclass(frozen=True, slots=True)
class TableSetup:
    """What the composition root tells the runtime about its table.

    ``code`` and ``settings`` make the session line of a new log; ``decks`` and ``deck``
    are the enrolled decks and the deck in play (None: learned from the first card);
    ``sensing`` the sensing layer's timing; ``boards`` maps board tag UIDs to board numbers
    and ``hand_record`` board numbers to their ``BoardStart`` (deal, dealer, vulnerability);
    ``speed`` is table seconds per real second (1 at a real table). The session values of
    an existing log win over these (the log is what was played).
    """

    name: str = "Table 1"
    code: str = "duplicate"
    settings: Mapping[str, object] = field(default_factory=dict)
    decks: DeckRegistry = field(default_factory=DeckRegistry)
    deck: str | None = None
    sensing: Settings = field(default_factory=Settings)
    boards: Mapping[str, int] = field(default_factory=dict)
    hand_record: Mapping[int, a.BoardStart] = field(default_factory=dict)
    speed: float = 1.0
    notices_kept: int = 100


class _Submit:
    __slots__ = ("action", "done", "error", "reply", "result", "source")

    def __init__(self, action: a.Action, source: str, reply: Mapping[str, Any] | None = None) -> None:
        self.action = action
        self.source = source
        self.reply = reply
        self.done = threading.Event()
        self.result: Submitted | None = None
        self.error: BaseException | None = None


class _Report:
    __slots__ = ("body",)

    def __init__(self, body: Mapping[str, Any]) -> None:
        self.body = body


class _Sync:
    __slots__ = ("done",)

    def __init__(self) -> None:
        self.done = threading.Event()


_STOP = object()
_Item = RawEvent | _Submit | _Sync | _Report | object


class TableRuntime(TableRoomSide, TableRestore):
    """The running table (``web_ui.service.TableService``); see the module doc. What it holds of its room is
    ``tablectl.runtime_room``'s, its restore from the room's copy ``tablectl.runtime_restore``'s.

    Build it (the log is opened and the table rebuilt from it), give ``clock`` to the
    drivers, then ``start(sources)``; ``stop()`` on the way out.
    """

    def __init__(self, store: EventStore | str | Path, setup: TableSetup | None = None, *,
                 indicator: Indicator | None = None,
                 monotonic: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.setup = setup or TableSetup()
        if not (math.isfinite(self.setup.speed) and self.setup.speed > 0):
            raise ValueError(f"speed must be a positive number, not {self.setup.speed!r}")
        self.store = store if isinstance(store, EventStore) else EventStore.open(store)
        self.indicator = indicator
        self._mono = monotonic
        self._wall = wall
        self._speed = float(self.setup.speed)
        self._queue: queue.SimpleQueue[_Item] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._sources: tuple[EventSource, ...] = ()
        self._subscribers: list[Callable[[int], None]] = []
        self._lock = threading.Lock()
        self._changed = threading.Condition()
        self._blocked = threading.Event()
        self.last_wait: float | None = None
        """The timeout (real seconds, None: none) of the engine thread's latest wait on its queue."""
        self.wakeups = 0
        """How many times the engine thread has woken up (events, deadlines, stop)."""
        self.last_input = 0
        """The log sequence number of the latest input committed."""
        self.loss: Loss | None = None
        """What the log had lost of what the table acknowledged, found at start (None: nothing)."""
        self._notices: collections.deque[Notice] = collections.deque(maxlen=self.setup.notices_kept)
        self._pinned: list[Notice] = []
        """Notices shown for as long as the table runs (the log's damage), newest of all."""
        self._health: dict[str, DeviceHealth] = {}
        self._lit: frozenset[Seat] = frozenset()
        self._actions: list[a.Action] = []
        self._restored_upto = 0
        """The highest seq restored from the room's copy (``restore``)."""
        self._room_results: dict[str, Any] | None = None
        self._roster: tuple[dict[str, str], ...] = ()
        """The club's roster as the console sends it to the tables: names and federation numbers only."""
        self._named: dict[str, dict[str, str]] = {}
        """The players who named themselves at the table page (seat -> name, federation number)."""
        """What the room's console last published for this table's players (kept in memory: the
        broker keeps it retained, and gives it again when the link reconnects)."""
        self._in_room = False
        """A room's link is attached: the public pages show only the boards the room released."""
        self.room_version = 0
        """Counts the room's messages taken (the pages rebuild theirs when it changes)."""
        opened = power_on(self.store, self.setup)
        self.rebuilt, self.loss = opened.rebuilt, opened.loss
        self._pinned.extend(opened.pinned)
        self._engine = self.rebuilt.engine
        self._health.update(self.rebuilt.health)
        self._notices.extend(self.rebuilt.notices)
        self._actions = list(self.rebuilt.actions)
        self._last_t = self.rebuilt.last_t
        self.last_input = self.rebuilt.last_input
        self._t0 = self.rebuilt.last_t
        self._m0 = self._mono()
        self._seq = 0
        self._snapshot = Snapshot(0, self._engine.table, self._t0, self._health_tuple(), self._notice_tuple())
        self.store.note(Row("run", self._t0, {
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "pid": os.getpid(), "resumed_at": self._t0,
            "inputs": self.rebuilt.inputs, "bad_rows": len(self.rebuilt.bad),
            "mismatches": len(self.rebuilt.mismatches)}))

    # -- the clock -----------------------------------------------------------------------------

    def clock(self) -> float:
        """The table clock (seconds, the table log's ``t``): give it to the drivers."""
        return self._t0 + (self._mono() - self._m0) * self._speed

    # -- running -------------------------------------------------------------------------------

    def start(self, sources: Sequence[EventSource] = ()) -> None:
        """Start the engine thread, then every source (their events come through ``emit``)."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="table engine", daemon=True)
        self._thread.start()
        self._sources = tuple(sources)
        for source in self._sources:
            source.start(self.emit)

    def stop(self) -> None:
        """Stop the sources, let the engine take what is queued, and close the log (idempotent)."""
        for source in reversed(self._sources):
            try:
                source.stop()
            except Exception:
                log.exception("stopping %s failed", getattr(source, "name", source))
        self._sources = ()
        thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(_STOP)
            thread.join(timeout=30)
        if self.indicator is not None:
            self._lit = set_lights(self.indicator, frozenset(), self._lit)
        with contextlib.suppress(Exception):
            self.store.close()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def engine(self) -> Engine:
        """The engine as last published (sensing layer and table)."""
        return self._engine

    @property
    def sensing(self) -> Sensing:
        return self._engine.sensing

    def emit(self, event: RawEvent) -> None:
        """Hand a raw sensor event to the engine (any thread; what drivers call)."""
        if not isinstance(event, RAW_TYPES):
            log.error("not a raw sensor event, dropped: %r", event)
            self._note(Notice(NoticeKind.UNKNOWN_READER, None, None, None,
                              f"a device reported something that is not a sensor event: {event!r}",
                              self._last_t))
            return
        self._queue.put(event)

    def sync(self, timeout: float | None = None) -> bool:
        """Wait until everything emitted or submitted before this call is processed and logged."""
        marker = _Sync()
        self._queue.put(marker)
        return marker.done.wait(timeout)

    def wait_blocked(self, timeout: float | None = None) -> bool:
        """Wait until the engine thread is blocked on its queue (for tests: ``last_wait`` is then current)."""
        return self._blocked.wait(timeout)

    def wait_until(self, predicate: Callable[[Snapshot], bool], timeout: float | None = None) -> bool:
        """Wait (at most ``timeout`` real seconds) until ``predicate(snapshot)`` holds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            while not predicate(self._snapshot):
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._changed.wait(left)
            return True

    # -- TableService --------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        snap = self._snapshot
        return dataclasses.replace(snap, now=max(snap.now, self.clock()))

    def submit(self, action: a.Action) -> Submitted:
        """Stamp ``action`` with the table clock, log it durably, then apply it (TableService)."""
        return self._submit(action, "arbiter")

    def command(self, action: a.Action, reply: Mapping[str, Any]) -> Submitted:
        """Like ``submit``, for a decision that came from the room's console: logged with source
        ``console``, and answered in the log by an ``alert`` row, ``reply`` plus ``accepted`` and
        the table's ``reason`` for a refusal (``tablectl.room.link`` publishes it)."""
        return self._submit(action, "console", reply)

    def report(self, body: Mapping[str, Any]) -> None:
        """Log an ``alert`` row of the runtime's own (a refused, unreadable command), for the room."""
        self._queue.put(_Report(body))

    def _take_all(self, actions: Sequence[a.Action], source: str) -> int:
        """Submit ``actions`` (of ``source``) together, in order, and wait for all: how many the table took."""
        pending = [_Submit(action, source) for action in actions]
        for item in pending:
            self._queue.put(item)
        taken = 0
        for item in pending:
            item.done.wait()
            taken += item.error is None and item.result is not None and item.result.rejected is None
        return taken

    def _submit(self, action: a.Action, source: str, reply: Mapping[str, Any] | None = None) -> Submitted:
        if not dataclasses.is_dataclass(action) or not hasattr(action, "t") or isinstance(action, RAW_TYPES):
            raise TypeError(f"not a table action: {action!r}")
        if threading.current_thread() is self._thread:
            raise RuntimeError("submit() from the engine thread (a subscriber callback) would wait for "
                               "itself: hand it to another thread")
        if not self.running:
            raise RuntimeError("the table is not running")
        pending = _Submit(action, source, reply)
        self._queue.put(pending)
        pending.done.wait()
        if pending.error is not None:
            raise pending.error
        assert pending.result is not None
        return pending.result

    def subscribe(self, callback: Callable[[int], None]) -> Callable[[], None]:
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock, contextlib.suppress(ValueError):
                self._subscribers.remove(callback)
        return unsubscribe

    def records(self, fmt: RecordFormat) -> str:
        """The boards finished so far as PBN or LIN; ``jsonl``: the table log of every action taken."""
        if fmt == "jsonl":
            with self._lock:
                actions = list(self._actions)
            return tablelog.dumps(actions)
        state = self._engine.table
        if fmt == "pbn":
            return pbn.dumps(records_of(state))
        if fmt == "lin":
            return lin.dumps(records_of(state))
        raise ValueError(f"unknown record format {fmt!r} (pbn, lin, jsonl)")

    # -- the engine thread ---------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            deadline = self._engine.next_deadline
            timeout = None if deadline is None else max(0.0, (deadline - self.clock()) / self._speed)
            self.last_wait = timeout
            self._blocked.set()
            try:
                item: _Item | None = self._queue.get(timeout=timeout)
            except queue.Empty:
                item = None
            self._blocked.clear()
            self.wakeups += 1
            items: list[_Item] = [] if item is None else [item]
            while len(items) < _BATCH:
                try:
                    items.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                if self._batch(items):
                    return
            except Exception:  # a bug must not stop the table: say so and go on
                log.exception("the table engine failed on a batch of %d inputs", len(items))
                for it in items:
                    if isinstance(it, _Submit | _Sync):
                        if isinstance(it, _Submit) and it.error is None and it.result is None:
                            it.error = RuntimeError("the table engine failed; see the log")
                        it.done.set()

    def _stamp(self, t: float) -> float:
        """``t`` made no earlier than the latest input, as a table-log time (whole milliseconds)."""
        return math.ceil(max(t, self._last_t) * 1000 - 1e-6) / 1000

    def _batch(self, items: list[_Item]) -> bool:
        engine = self._engine
        groups: list[tuple[Row, list[Row]]] = []
        outcomes: list[Outcome] = []
        answers: list[tuple[_Submit, Step]] = []
        syncs: list[_Sync] = []
        reports: list[_Report] = []
        health: list[DeviceHealth] = []
        last_t = self._last_t
        stop = False

        def take(head: Row, outcome: Outcome, reply: Mapping[str, Any] | None = None) -> None:
            nonlocal engine, last_t
            room = room_rows(engine.table, outcome.engine.table)
            engine = outcome.engine
            last_t = max(last_t, head.t)
            self._last_t = last_t
            head, derived = outcome.rows(head)
            if room or reply is not None:
                wall = round(self._wall(), 3)
                derived += [Row(kind, head.t, {**body, "at": wall}) for kind, body in room]
                if reply is not None:
                    derived.append(Row("alert", head.t, {**_answer(reply, outcome), "at": wall}))
            groups.append((head, derived))
            outcomes.append(outcome)

        def tick_to(t: float) -> None:
            deadline = engine.next_deadline
            if deadline is not None and deadline <= t:
                outcome = engine.tick(t)
                if outcome.engine is not engine:
                    take(input_row(None, t), outcome)
                    self._boards(outcome, take)

        saved_last = self._last_t
        for item in items:
            if item is _STOP:
                stop = True
                continue
            if isinstance(item, _Sync):
                syncs.append(item)
                continue
            if isinstance(item, _Report):
                reports.append(item)
                continue
            now = self.clock()
            try:
                if isinstance(item, _Submit):
                    t = self._stamp(now)
                    tick_to(t)
                    action = self._complete(dataclasses.replace(item.action, t=t))
                    outcome = engine.act(action, item.source)
                    take(input_row(action, t, item.source), outcome, item.reply)
                    assert outcome.step is not None
                    answers.append((item, outcome.step))
                    self._boards(outcome, take)
                else:
                    event = self._clamp(item, now)  # type: ignore[arg-type]
                    if isinstance(event, DeviceHealth):
                        health.append(event)
                    outcome = engine.feed(event)
                    if outcome.engine is engine and not outcome.derived and not outcome.notices:
                        continue  # a repeated read: changes nothing, not logged
                    take(input_row(event, event.t), outcome)
                    self._boards(outcome, take)
            except Exception as exc:
                log.exception("input %r could not be processed; the table is unchanged", item)
                if isinstance(item, _Submit):
                    item.error = exc
                    item.done.set()
        if not stop:
            tick_to(self.clock())
        try:
            rows = self.store.append(groups)
            for report in reports:
                rows.append(self.store.note(Row("alert", self._last_t, {**report.body, "at": round(self._wall(), 3)})))
        except StoreError as exc:
            log.error("%s: the inputs of this moment are lost and the table is unchanged", exc)
            self._last_t = saved_last
            for pending, _step in answers:
                pending.error = exc
                pending.done.set()
            for marker in syncs:
                marker.done.set()
            return stop
        changes = (sum(1 for o in outcomes if o.changed) + len(health) + len(reports)
                   + sum(1 for pending, _step in answers if pending.reply is not None))
        with self._lock:
            for o in outcomes:
                self._actions.extend(d.action for d in o.derived if d.rejected is None)
        self._engine = engine
        for o in outcomes:
            self._notices.extend(o.notices)
        for h in health:
            self._health[h.device] = h
        if changes:
            self._seq += changes
            self._publish()
        self.last_input = max((r.seq for r in rows if r.is_input), default=self.last_input)
        for pending, result in answers:
            pending.result = Submitted(result, self._seq)
            pending.done.set()
        for marker in syncs:
            marker.done.set()
        if changes:
            self._indicate(outcomes)
            self._notify()
        if any(r.kind == "result" for r in rows):  # a board's end: a safe point, after the answers
            self.store.checkpoint()
        return stop

    def _clamp(self, event: RawEvent, now: float) -> RawEvent:
        t = event.t
        if not (isinstance(t, int | float) and math.isfinite(t)) or t > now + _FUTURE:
            log.warning("event %r stamped %r, table time is %.3f: taken now", event, t, now)
            t = now
        if t < self._last_t:
            t = self._last_t
        return event if t == event.t else dataclasses.replace(event, t=t)

    def _complete(self, action: a.Action) -> a.Action:
        """A submitted board start without a deal gets the hand record's."""
        return with_hand_record(action, self.setup.hand_record)

    def _boards(self, outcome: Outcome, take: Callable[[Row, Outcome], None]) -> None:
        """Board tags among the notices: the board they name starts (an input of its own), or
        the runtime says why not (``tablectl.boardsetup.board_of_tag``)."""
        for notice in outcome.notices:
            if notice.kind is not NoticeKind.BOARD or notice.uid is None:
                continue
            engine = outcome.engine
            t = self._stamp(notice.t)
            found = board_of_tag(notice.uid, self.setup.boards, self.setup.hand_record, engine.table, t)
            if isinstance(found, str):
                self._note(Notice(NoticeKind.BOARD, None, notice.reader, notice.uid, found, notice.t))
            elif found is not None:
                result = engine.act(found, "board")
                take(input_row(found, t, "board"), result)
                outcome = result

    def _indicate(self, outcomes: Sequence[Outcome]) -> None:
        if self.indicator is not None:
            self._lit = indicate(self.indicator, self._engine.table, outcomes, self._lit)

    def _note(self, notice: Notice) -> None:
        """A notice of the runtime's own (not from the sensors, so not in the log)."""
        log.warning("%s", notice.detail)
        self._notices.append(notice)

    def _publish(self) -> None:
        snap = Snapshot(self._seq, self._engine.table, self._last_t, self._health_tuple(), self._notice_tuple())
        with self._changed:
            self._snapshot = snap
            self._changed.notify_all()

    def _notice_tuple(self) -> tuple[Notice, ...]:
        return (*self._notices, *self._pinned)

    def _health_tuple(self) -> tuple[DeviceHealth, ...]:
        return tuple(self._health[k] for k in sorted(self._health))

    def _notify(self) -> None:
        with self._lock:
            callbacks = list(self._subscribers)
        for callback in callbacks:
            try:
                callback(self._seq)
            except Exception:
                log.exception("a subscriber failed on seq %d", self._seq)


def _answer(reply: Mapping[str, Any], outcome: Outcome) -> dict[str, Any]:
    """The ``alert`` body answering a console's command: taken, or refused and why."""
    step = outcome.step
    reason = None if step is None else next((ev.detail or "refused" for ev in step.events if ev.kind == "rejected"),
                                            None)
    out: dict[str, Any] = {**reply, "accepted": reason is None, "reason": reason, "alarm": False}
    out["what"] = ((str(reply.get("what") or "") or "the console's command was applied") if reason is None
                   else f"the console's command was refused: {reason}")
    if step is not None and step.irregularities:
        out["irregularities"] = [i.id for i in step.irregularities]
    return out
