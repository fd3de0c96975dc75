"""``FakeConsole``: the Director's console in memory (``web_ui.console.ConsoleService``) for the
console page's tests.

Its room is the real ``controller.room.console.Room``, fed with the messages tables would
publish: ``play(table, *log_objects)`` runs table-log actions through the real table
(``controller.table.step``) and publishes what the table's link would, the alerts and results
of ``room_rows`` and then the state with its arbiter view, each with the envelope beside its
fields (``tablectl.room.link.envelope``). ``send`` records each command and
``answer(sent)``, set by the test, decides the table's reply: ``{"accepted": True}``,
``{"accepted": False, "reason": ...}``, or None for no answer (``reply`` never waits).
The wall clock moves only when the test says so (``advance``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.fieldscore.session import Session
from controller.records.tablelog import action_of
from controller.room.console import Call, Room
from controller.room.messages import SCHEMA, room_rows, table_state
from controller.room.players import PlayerSettings
from controller.table import TableState, step
from controller.views import arbiter_view, claim_help_view
from tablectl.room.console_people import People
from web_ui.console import ConsoleSettings

__all__ = ["CLUB", "PIN", "FakeConsole", "Sent", "console_settings"]

CLUB = "Riverside"
PIN = "4321"
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
"""A phone's browser context (Playwright's ``new_context`` arguments) for the console's browser tests."""
SESSION = "s-1"

Json = dict[str, Any]


def console_settings() -> ConsoleSettings:
    return ConsoleSettings(check_pin=lambda pin: pin == PIN, club=CLUB, answer_timeout=8.0, hosts=("testserver",))


@dataclass(frozen=True, slots=True)
class Sent:
    """A command the console sent to a table: its kind (``ruling`` or ``action``) and body, as given."""

    table: str
    kind: str
    body: Json
    ref: str
    by: str = "Director"
    """The Director who sent it."""


class FakeConsole:
    """The console (module doc): a ``Room`` fed by hand, commands recorded, replies decided by the test."""

    def __init__(self, wall: float = 1_764_086_400.0, boards_per_round: int = 3,
                 session: Session | None = None, data_dir: Path | None = None) -> None:
        self.room = Room(CLUB, session=session)
        self.people = People(data_dir, None if data_dir is None else data_dir / "console.sqlite", session)
        """The roster (``data_dir``'s ``roster.sqlite``, or in memory) and the pairs' names."""
        self.wall = wall
        self.boards_per_round = boards_per_round
        self.tables: dict[str, TableState] = {}
        self.started: dict[str, float] = {}
        self.seq: dict[str, int] = {}
        self.sent: list[Sent] = []
        self.opened_tables: list[str] = []
        self.answer: Callable[[Sent], Json | None] = lambda sent: {"accepted": True}
        self._replies: dict[str, Json | None] = {}
        self._subscribers: list[Callable[[Json], None]] = []
        self._lock = threading.RLock()

    # -- what the tables do --------------------------------------------------------------------------

    def advance(self, seconds: float) -> None:
        self.wall += seconds

    def play(self, table: str, *objs: Json) -> None:
        """Table-log actions at ``table`` (``t``, when missing, is the table's time now), published as
        its link would."""
        start = self.started.setdefault(table, self.wall)
        with self._lock:
            state = self.tables.get(table) or TableState.new()
            for obj in objs:
                after = step(state, action_of({"t": round(self.wall - start, 3), **obj})).state
                for kind, body in room_rows(state, after):
                    self._receive(kind, table, self._envelope(table, body))
                state = after
            self.tables[table] = state
            now = self.wall - start
            body = table_state(state, now=now, table_name=f"Table {table}", boards_per_round=self.boards_per_round)
            view = arbiter_view(state, seq=self.seq.get(table, 0), now=now, table_name=f"Table {table}")
            if state.board is not None and state.board.claim is not None:
                view["claim_help"] = claim_help_view(state)
            self._receive("state", table, {**body, "view": view, "v": SCHEMA, "club": CLUB, "table": table,
                                           "session": SESSION, "seq": self.seq.get(table, 0), "at": self.wall})

    def offline(self, table: str) -> None:
        """The table's last will: it is gone from the room."""
        with self._lock:
            self._receive("state", table, {"v": SCHEMA, "club": CLUB, "table": table, "online": False})

    def _envelope(self, table: str, body: Json) -> Json:
        seq = self.seq.get(table, 0) + 1
        self.seq[table] = seq
        return {**body, "v": SCHEMA, "club": CLUB, "table": table, "session": SESSION, "seq": seq, "prev": seq - 1,
                "at": self.wall}

    def _receive(self, kind: str, table: str, msg: Json) -> None:
        got = self.room.receive(kind, table, msg, self.wall)
        if got.alarm is not None:
            self._emit({"kind": "alarm", "table": table, "text": got.alarm, "at": msg.get("at"), "received": self.wall})
        if got.new:
            self._emit({"kind": "changed"})

    # -- web_ui.console.ConsoleService ------------------------------------------------------------------

    def snapshot(self) -> Json:
        with self._lock:
            return {**self.room.snapshot(self.wall), "names": self.people.names()}

    def people_changed(self) -> None:
        self._emit({"kind": "changed"})

    def view(self, table: str) -> Json | None:
        with self._lock:
            return self.room.view(table)

    def opened(self, table: str, by: str = "Director") -> None:
        with self._lock:
            self.opened_tables.append(table)
            self.room.opened(table, self.wall, by)
        self._emit({"kind": "changed"})

    def mark(self, key: str, state: str, by: str = "Director", take_over: bool = False) -> Call:
        with self._lock:
            call = self.room.mark(key, state, self.wall, by, take_over)
        self._emit({"kind": "changed"})
        return call

    def send(self, table: str, kind: str, body: Json, by: str = "Director") -> str:
        with self._lock:
            sent = Sent(table, kind, body, f"c-{len(self.sent) + 1}", by)
            self.sent.append(sent)
        self._replies[sent.ref] = self.answer(sent)
        return sent.ref

    def reply(self, ref: str, timeout: float) -> Json | None:
        return self._replies.pop(ref, None)

    def subscribe(self, callback: Callable[[Json], None]) -> Callable[[], None]:
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)
        return unsubscribe

    def settings(self) -> Json:
        with self._lock:
            snap = self.room.snapshot(self.wall)
            return {"players": snap["players"], "ended": snap["ended"], "over": snap["over"], "clock": snap["clock"]}

    def set_players(self, travellers: bool, ranking: str) -> Json:
        with self._lock:
            self.room.set_players(PlayerSettings(travellers, ranking))
        return self._changed_settings()

    def end_session(self, ended: bool = True) -> Json:
        with self._lock:
            self.room.end_session(ended, self.wall)
        return self._changed_settings()

    def release(self, board: str, released: bool = True) -> Json:
        with self._lock:
            self.room.release(board, released)
        return self._changed_settings()

    def start_round(self, round_: int) -> Json:
        with self._lock:
            self.room.start_round(self.wall, round_)
        return self._changed_settings()

    def stop_clock(self) -> Json:
        with self._lock:
            self.room.stop_clock()
        return self._changed_settings()

    def _changed_settings(self) -> Json:
        self._emit({"kind": "changed"})
        return self.settings()

    def _emit(self, message: Json) -> None:
        with self._lock:
            callbacks = list(self._subscribers)
        for callback in callbacks:
            callback(message)

    # -- for the tests ------------------------------------------------------------------------------------

    def open_calls(self, table: str | None = None) -> list[Call]:
        with self._lock:
            return [c for c in self.room.calls.values()
                    if c.state != "resolved" and (table is None or c.table == table)]


def director_signed_in(browser: Any, url: str, context: dict[str, Any] | None = None,
                       timeout: float | None = None) -> tuple[Any, list[str]]:
    """A new page of the console at ``url`` (a phone, or ``context``) with the Director signed in
    with the PIN and the room live, and the list its page errors are collected in."""
    from playwright.sync_api import expect

    page = browser.new_context(**(PHONE if context is None else context)).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "/")
    page.fill("#pin", PIN)
    page.click("#login-button")
    live = expect(page.locator("#status"))
    if timeout is None:
        live.to_have_text("live")
    else:
        live.to_have_text("live", timeout=timeout)
    return page, errors
