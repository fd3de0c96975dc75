"""``LocalTable``: an in-memory ``TableService`` for tests and demos (no drivers, no storage).

A lock around one ``TableState`` and ``controller.table.step``; every change (an action, a
notice, a device report) gets the next ``seq`` and calls the subscribers. The clock is
injected: ``submit`` stamps actions with it, as the running table stamps them with its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import replace

from controller.actions import Action
from controller.records import lin, pbn, tablelog
from controller.records.export import records_of
from controller.sensing.events import DeviceHealth
from controller.sensing.translate import Notice
from controller.table import Step, TableState, step
from web_ui.service import RecordFormat, Snapshot, Submitted

__all__ = ["LocalTable"]


class LocalTable:
    """A table in memory implementing ``web_ui.service.TableService``.

    ``clock()`` gives the table time in seconds (default: a counter that starts at 0 and
    moves on one second per reading, so tests need no real clock). ``feed`` applies an
    action keeping its own ``t`` (as a replayed log or a sensor event would); ``submit``
    stamps it with the clock first.
    """

    def __init__(self, state: TableState | None = None, clock: Callable[[], float] | None = None,
                 max_notices: int = 50) -> None:
        self._lock = threading.RLock()
        self._state = state or TableState.new()
        self._seq = 0
        self._log: list[Action] = []
        self._health: dict[str, DeviceHealth] = {}
        self._notices: list[Notice] = []
        self._max_notices = max_notices
        self._subscribers: list[Callable[[int], None]] = []
        ticks = iter(range(1 << 62))
        self._clock = clock or (lambda: float(next(ticks)))

    # --- TableService --------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        with self._lock:
            return Snapshot(self._seq, self._state, self._clock(), tuple(self._health.values()),
                            tuple(self._notices))

    def submit(self, action: Action) -> Submitted:
        return self.feed(replace(action, t=self._clock()))

    def subscribe(self, callback: Callable[[int], None]) -> Callable[[], None]:
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)
        return unsubscribe

    def records(self, fmt: RecordFormat) -> str:
        with self._lock:
            state, log = self._state, list(self._log)
        if fmt == "jsonl":
            return tablelog.dumps(log)
        records = records_of(state)
        return pbn.dumps(records) if fmt == "pbn" else lin.dumps(records)

    # --- what the sensors and the tests do ---------------------------------------------------

    def feed(self, action: Action) -> Submitted:
        """Apply ``action`` with its own time; a refused action is logged and changes nothing."""
        with self._lock:
            result: Step = step(self._state, action)
            self._log.append(action)
            if result.state is self._state:  # refused (or nothing to change): no new seq
                return Submitted(result, self._seq)
            self._state = result.state
            self._seq += 1
            seq = self._seq
            subscribers = list(self._subscribers)
        self._notify(subscribers, seq)
        return Submitted(result, seq)

    def feed_all(self, actions: Iterable[Action]) -> list[Submitted]:
        return [self.feed(a) for a in actions]

    def notice(self, notice: Notice) -> int:
        """Record a sensing notice (the last ``max_notices`` are kept); returns the new seq."""
        with self._lock:
            self._notices = [*self._notices, notice][-self._max_notices:]
            return self._bump()

    def health(self, report: DeviceHealth) -> int:
        """Record a device's health report (the latest per device); returns the new seq."""
        with self._lock:
            self._health[report.device] = report
            return self._bump()

    @property
    def log(self) -> tuple[Action, ...]:
        with self._lock:
            return tuple(self._log)

    def _bump(self) -> int:
        self._seq += 1
        seq = self._seq
        subscribers = list(self._subscribers)
        # called with the lock held; subscribers must only hand the seq to their loop
        self._notify(subscribers, seq)
        return seq

    @staticmethod
    def _notify(subscribers: list[Callable[[int], None]], seq: int) -> None:
        for callback in subscribers:
            callback(seq)
