"""The Director's console: every table of the room in one place (``tablectl console``).

``Console`` subscribes to every table of the club (``bridge/<club>/table/+/#``, QoS 1, a
persistent session so that the broker keeps what arrives while the console is away), folds
each message into ``controller.room.console.Room`` on one thread of its own, keeps every
outbox message it has not seen in ``console.sqlite`` (so a restarted console holds what it
held), and acknowledges, per table, the highest seq it holds with nothing missing (retained
``bridge/<club>/console/ack/<id>``, with this console's instance id: a console that starts
again with less makes the tables send again). Rulings and manual entries go to a table's
``command`` topic and the table's answer comes back on its ``alert`` topic
(``tablectl.room.commands``). A table's ``log_damaged`` alert is answered at once with
``restore`` commands: the table's own events from the lost ``since`` that this console holds.
The pages (``web_ui.console``) read ``snapshot`` and ``view``, and are told of every change
through ``subscribe``.

With the Director's session (``tablectl console --session FILE``, a TOML session file:
``controller.fieldscore.session``) each result is put to the pairs the movement seats at that
table for that board, and the movement is checked (a board out of its round, Law 15); without
one, each table's own ``pairs`` stand. ``results`` is the session scored so far (the exports of
``web_ui.console_results``), ``scorecard`` a pair's.

The Director's settings (``settings``: what the players see of the results, the session ended,
the round clock) are kept in ``console.sqlite`` too. After every change, and every few seconds
for the round clock, each table is sent what its players may see (``controller.room.players``)
on its ``results`` topic, retained (only when it changed): the table's results page shows it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller.deal import Deal
from controller.fieldscore.model import EventScore
from controller.fieldscore.session import Session
from controller.room.adjustments import DeskEntry
from controller.room.clock import RoundClock
from controller.room.console import Call, Room
from controller.room.players import PlayerSettings
from tablectl.room.address import ClubAddress, valid_name
from tablectl.room.commands import command
from tablectl.room.console_desk import DeskStore, adjust_kept, desk_json, restore_desk
from tablectl.room.link import COMMAND_LIMIT, iso, room_client

__all__ = ["Console", "ConsoleStore"]

log = logging.getLogger(__name__)

_KINDS = ("state", "event", "alert", "result")
_RESTORE_BYTES = COMMAND_LIMIT - 2048
"""Bytes of events in one ``restore`` command (the rest of it fits in what is left of the table's limit)."""
_LIMIT = 1 << 20
"""Bytes: a longer message from a table is dropped (a table never sends one)."""
_TICK = 5.0
"""Seconds between two looks at the round clock when nothing arrives (the players' results follow it)."""

Json = dict[str, Any]


class ConsoleStore:
    """The console's copy of every table's outbox, and the Director's marks, in SQLite."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        if not path.exists():  # what the tables sent carries every deal: the owner's only
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        self._conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.executescript("""
            CREATE TABLE IF NOT EXISTS message (table_id TEXT NOT NULL, session TEXT NOT NULL, seq INTEGER NOT NULL,
                kind TEXT NOT NULL, payload TEXT NOT NULL, received REAL NOT NULL,
                PRIMARY KEY (table_id, session, seq));
            CREATE TABLE IF NOT EXISTS state (table_id TEXT PRIMARY KEY, payload TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS mark (key TEXT PRIMARY KEY, state TEXT NOT NULL, at REAL NOT NULL);
            CREATE TABLE IF NOT EXISTS setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """)

    def add(self, messages: list[tuple[str, str, int, str, str, float]], states: dict[str, str]) -> None:
        """Keep new outbox messages (a held one is ignored) and each table's latest state, in one transaction."""
        if not messages and not states:
            return
        self._conn.execute("BEGIN")
        try:
            self._conn.executemany("INSERT OR IGNORE INTO message VALUES (?, ?, ?, ?, ?, ?)", messages)
            self._conn.executemany("INSERT OR REPLACE INTO state VALUES (?, ?)", list(states.items()))
            self._conn.execute("COMMIT")
        except sqlite3.Error:
            self._conn.execute("ROLLBACK")
            raise

    def events(self, table: str, session: str, since: int, upto: int | None) -> list[Json]:
        """``{"seq", "action", "source"}`` of every action ``table`` took in ``session`` from
        ``since`` (to ``upto``) that it published on ``event`` (those it refused left out), in order."""
        out: list[Json] = []
        for seq, payload in self._conn.execute(
                "SELECT seq, payload FROM message WHERE table_id = ? AND session = ? AND kind = 'event' "
                "AND seq >= ? AND seq <= ? ORDER BY seq", (table, session, since, 1 << 62 if upto is None else upto)):
            with contextlib.suppress(ValueError, TypeError):
                msg = json.loads(payload)
                if isinstance(msg, dict) and msg.get("rejected") is None and isinstance(msg.get("action"), dict):
                    out.append({"seq": int(seq), "action": msg["action"], "source": msg.get("source")})
        return out

    def mark(self, key: str, state: str, at: float) -> None:
        self._conn.execute("INSERT OR REPLACE INTO mark VALUES (?, ?, ?)", (key, state, at))

    def set(self, key: str, value: object) -> None:
        """Keep one of the Director's settings (JSON)."""
        self._conn.execute("INSERT OR REPLACE INTO setting VALUES (?, ?)", (key, json.dumps(value)))

    def settings(self) -> dict[str, Any]:
        """The Director's settings kept (a value that cannot be read is left out)."""
        out: dict[str, Any] = {}
        for key, value in self._conn.execute("SELECT key, value FROM setting"):
            with contextlib.suppress(ValueError):
                out[str(key)] = json.loads(value)
        return out

    def load(self) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]], list[tuple[str, str, float]]]:
        """Everything kept: (table, kind, payload) in order of arrival, the states, the marks."""
        messages = [(str(t), str(k), str(p)) for t, k, p in self._conn.execute(
            "SELECT table_id, kind, payload FROM message ORDER BY received, rowid")]
        states = [(str(t), str(p)) for t, p in self._conn.execute("SELECT table_id, payload FROM state")]
        marks = [(str(k), str(s), float(a)) for k, s, a in self._conn.execute("SELECT key, state, at FROM mark")]
        return messages, states, marks

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()


class Console:
    """The console's link to the room (module doc). ``start()``, then ``stop()``."""

    def __init__(self, address: ClubAddress, data_dir: Path, *, keepalive: int = 5,
                 wall: Callable[[], float] = time.time, session: Session | None = None) -> None:
        self.address = address
        self.club = address.club
        self.session = session
        self.room = Room(address.club, session=session)
        self.instance = secrets.token_hex(6)
        self.store = ConsoleStore(Path(data_dir) / "console.sqlite")
        self._wall = wall
        self._queue: queue.SimpleQueue[tuple[str, bytes, float] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._subscribers: list[Callable[[Json], None]] = []
        self._acks: dict[str, tuple[str, int]] = {}
        self._connected = False
        self.version = 0
        self.received = 0
        self.duplicates = 0
        self._thread: threading.Thread | None = None
        self._published: dict[str, str] = {}
        """table -> the results last sent to its players."""
        self._restore()
        self._restore_settings()
        self.desk_store = DeskStore(self.store.path)
        restore_desk(self.room.results, self.desk_store.load())
        self._client = room_client(address, f"bridge-{self.club}-console", clean_session=False)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message

    def _restore(self) -> None:
        messages, states, marks = self.store.load()
        now = self._wall()
        for table, kind, payload in messages:
            with contextlib.suppress(ValueError, TypeError, KeyError):
                self.room.receive(kind, table, json.loads(payload), now)
        for table, payload in states:
            with contextlib.suppress(ValueError, TypeError, KeyError):
                msg = json.loads(payload)
                self.room.receive("state", table, msg, now)
                self.room.tile(table).online = False  # until the table says so again
        for key, state, at in marks:
            with contextlib.suppress(KeyError, ValueError):
                self.room.mark(key, state, at)
        if messages:
            log.info("console: %d messages of %d tables restored from %s", len(messages), len(self.room.tiles),
                     self.store.path)

    def _restore_settings(self) -> None:
        kept = self.store.settings()
        with contextlib.suppress(ValueError, TypeError, KeyError):
            players = kept.get("players")
            if isinstance(players, dict):
                self.room.set_players(PlayerSettings(bool(players["travellers"]), str(players["ranking"])))
        self.room.end_session(kept.get("ended") is True)
        clock = kept.get("clock")
        if isinstance(clock, dict) and self.room.clock is not None:
            with contextlib.suppress(ValueError, TypeError, KeyError):
                self.room.start_round(float(clock["started"]), int(clock["first"]))

    # -- running -----------------------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="console", daemon=True)
        self._thread.start()
        self._client.connect_async(self.address.host, self.address.port, keepalive=5)
        self._client.loop_start()

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=10)
            self._thread = None
        self.store.close()

    @property
    def connected(self) -> bool:
        return self._connected

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                    properties: object) -> None:
        if reason.is_failure:
            log.error("the room's broker %s refused the console: %s", self.address.url(), reason)
            return
        self._connected = True
        log.info("console linked to the room %s", self.address.url())
        client.subscribe(f"bridge/{self.club}/table/+/#", qos=1)
        with self._lock:
            acks = dict(self._acks)
            self._published.clear()  # sent again: a broker that lost its retained messages gets them back
        for table, (session, seq) in acks.items():
            self._publish_ack(table, session, seq)
        self._queue.put(("", b"", self._wall()))  # the console thread sends the players' results
        self._notify()

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                       properties: object) -> None:
        self._connected = False
        log.warning("console lost the room's broker (%s): reconnecting", reason)
        self._notify()

    def _on_message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        self._queue.put((message.topic, bytes(message.payload), self._wall()))

    def _run(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=_TICK)
            except queue.Empty:
                try:
                    self._publish_results()
                except Exception:  # the console thread must go on
                    log.exception("console: the players' results could not be sent")
                continue
            if item is None:
                return
            items = [item]
            while len(items) < 500:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._queue.put(None)
                    break
                items.append(nxt)
            try:
                self._take(items)
            except Exception:
                log.exception("console: %d messages could not be taken", len(items))

    def _take(self, items: list[tuple[str, bytes, float]]) -> None:
        kept: list[tuple[str, str, int, str, str, float]] = []
        states: dict[str, str] = {}
        alarms: list[Json] = []
        damaged: list[tuple[str, str, int, int | None]] = []
        touched: set[str] = set()
        with self._lock:
            for topic, payload, now in items:
                parsed = self._parse(topic, payload)
                if parsed is None:
                    continue
                kind, table, msg = parsed
                if kind == "state" and not payload:
                    continue
                got = self.room.receive(kind, table, msg, now)
                self.received += 1
                if not got.new:
                    self.duplicates += 1
                    continue
                touched.add(table)
                text = payload.decode("utf-8", "replace")
                if kind == "state":
                    states[table] = text
                else:
                    kept.append((table, str(msg.get("session", "")), int(msg.get("seq", 0)), kind, text, now))
                if kind == "alert" and msg.get("alert") == "log_damaged" and isinstance(msg.get("since"), int):
                    damaged.append((table, str(msg.get("lost_session") or msg.get("session", "")), msg["since"],
                                    msg.get("acknowledged") if isinstance(msg.get("acknowledged"), int) else None))
                if got.alarm is not None:
                    alarms.append({"table": table, "text": got.alarm, "at": msg.get("at"),
                                   "received": now})
            self.version += 1
            self._changed.notify_all()
        for alarm in alarms:  # the Director first; what is kept and acknowledged next
            self._emit({"kind": "alarm", **alarm})
        with self._lock:
            self.store.add(kept, states)
            acks = {}
            for table in touched:
                ack = self.room.acknowledged(table)
                if ack is not None and self._acks.get(table) != ack:
                    self._acks[table] = ack
                    acks[table] = ack
        for table, (session, seq) in acks.items():
            self._publish_ack(table, session, seq)
        for table, session, since, upto in damaged:
            self._send_restore(table, session, since, upto)
        self._publish_results()
        if touched:
            self._notify()

    def _parse(self, topic: str, payload: bytes) -> tuple[str, str, Json] | None:
        parts = topic.split("/")
        if len(parts) < 5 or parts[0] != "bridge" or parts[1] != self.club or parts[2] != "table":
            return None
        table, kind = parts[3], parts[4]
        if kind not in _KINDS or len(payload) > _LIMIT:
            return None
        if not payload:
            return (kind, table, {}) if kind == "state" else None
        try:
            msg = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            log.warning("console: unreadable message on %s dropped", topic)
            return None
        if not isinstance(msg, dict) or str(msg.get("table", table)) != table:
            log.warning("console: message on %s names another table: dropped", topic)
            return None
        if kind != "state" and not isinstance(msg.get("seq"), int):
            return None
        return kind, table, msg

    def _publish_results(self) -> None:
        """Send each table what its players may see now, where it changed (retained)."""
        if not self._connected:
            return
        with self._lock:
            every = self.room.for_players(self._wall())
            changed = {}
            for table, body in every.items():
                if not valid_name(table):  # a session's table that no table id can be
                    continue
                text = json.dumps({"v": 1, "club": self.club, **body}, separators=(",", ":"))
                if self._published.get(table) != text:
                    changed[table] = text
        for table, text in changed.items():
            info = self._client.publish(f"bridge/{self.club}/table/{table}/results", text, qos=1, retain=True)
            if info.rc == mqtt.MQTT_ERR_SUCCESS:
                with self._lock:
                    self._published[table] = text

    def _send_restore(self, table: str, session: str, since: int, upto: int | None) -> None:
        """Give ``table`` back what its log lost (its ``log_damaged`` alert) from this console's copy:
        ``restore`` commands, each under the table's command limit."""
        with self._lock:
            events = self.store.events(table, session, since, upto)
        if not events:
            log.warning("console: table %s lost its log from seq %d; the console holds none of it", table, since)
            return
        batch: list[Json] = []
        size = 0
        for event in events:
            n = len(json.dumps(event)) + 2
            if batch and size + n > _RESTORE_BYTES:
                self._publish_restore(table, session, batch)
                batch, size = [], 0
            batch.append(event)
            size += n
        self._publish_restore(table, session, batch)
        log.info("console: %d action(s) of table %s sent back from seq %d", len(events), table, since)

    def _publish_restore(self, table: str, session: str, events: list[Json]) -> None:
        message = {"v": 1, "club": self.club, "table": table, "ref": f"r-{secrets.token_hex(6)}",
                   "time": iso(self._wall()), "command": "restore", "session": session, "events": events}
        self._client.publish(f"bridge/{self.club}/table/{table}/command", json.dumps(message), qos=1)

    def _publish_ack(self, table: str, session: str, seq: int) -> None:
        body = {"v": 1, "club": self.club, "table": table, "session": session, "seq": seq,
                "console": self.instance, "time": iso(self._wall())}
        self._client.publish(f"bridge/{self.club}/console/ack/{table}", json.dumps(body), qos=1, retain=True)

    # -- what the pages use ---------------------------------------------------------------------------

    def snapshot(self) -> Json:
        with self._lock:
            out = self.room.snapshot(self._wall())
            out["version"] = self.version
        out["connected"] = self._connected
        return out

    def view(self, table: str) -> Json | None:
        with self._lock:
            return self.room.view(table)

    def results(self) -> tuple[EventScore | None, dict[str, Deal]]:
        """The session scored so far (None: no result yet) and each board's deal, for the exports."""
        with self._lock:
            return self.room.results.event_score(), self.room.results.export_deals()

    def ranking(self) -> Json:
        """The ranking so far, with how the session is scored (the room snapshot's ``scores``
        without its boards)."""
        with self._lock:
            return self.room.results.report()

    def scorecard(self, pair: str, section: str | None = None) -> Json:
        """``pair``'s session so far: its boards, points and place."""
        with self._lock:
            return self.room.scorecard(pair, section)

    # -- the Director's settings ------------------------------------------------------------------------

    def settings(self) -> Json:
        """What the players see of the results, whether the session is over, the round clock."""
        with self._lock:
            clock = self.room.clock
            return {"players": self.room.players.as_json(), "ended": self.room.ended,
                    "over": self.room.session_over(),
                    "clock": None if clock is None else clock.as_json(self._wall())}

    def set_players(self, travellers: bool, ranking: str) -> Json:
        """The Director's two settings for the players' results page (ValueError for a bad one)."""
        settings = PlayerSettings(travellers, ranking)
        with self._lock:
            self.room.set_players(settings)
            self.store.set("players", settings.as_json())
        return self._changed_settings()

    def end_session(self, ended: bool = True) -> Json:
        """The Director ends the session (or takes it back)."""
        with self._lock:
            self.room.end_session(ended)
            self.store.set("ended", ended)
        return self._changed_settings()

    def start_round(self, round_: int) -> Json:
        """The Director calls round ``round_``: its clock starts now (ValueError without a session
        or for a round it lacks)."""
        with self._lock:
            clock: RoundClock = self.room.start_round(self._wall(), round_)
            self.store.set("clock", {"started": clock.started, "first": clock.first})
        return self._changed_settings()

    def stop_clock(self) -> Json:
        with self._lock:
            self.room.stop_clock()
            self.store.set("clock", None)
        return self._changed_settings()

    def _changed_settings(self) -> Json:
        with self._lock:
            self.version += 1
        self._queue.put(("", b"", self._wall()))  # the console thread sends the players' results
        self._notify()
        return self.settings()

    # -- the Director's desk (tablectl.room.console_desk) -------------------------------------------------

    def desk(self) -> Json:
        """The Director's corrections and adjusted scores, oldest first."""
        with self._lock:
            return desk_json(self.room.results)

    def adjust(self, entry: DeskEntry) -> Json:
        """Make and keep the Director's ``entry``, made now; the scores follow, the players are told
        (DeskError: refused, nothing changed)."""
        with self._lock:
            made = adjust_kept(self.room.results, self.desk_store, entry, self._wall())
            self.version += 1
        self._queue.put(("", b"", self._wall()))  # the console thread sends the players' results
        self._notify()
        return made.as_json()

    def opened(self, table: str) -> None:
        with self._lock:
            self.room.opened(table, self._wall())
            for call in self.room.calls.values():
                if call.table == table and call.state == "being_ruled":
                    self.store.mark(call.key, call.state, self._wall())
            self.version += 1
        self._notify()

    def mark(self, key: str, state: str) -> Call:
        with self._lock:
            call = self.room.mark(key, state, self._wall())
            self.store.mark(key, state, self._wall())
            self.version += 1
        self._notify()
        return call

    def send(self, table: str, kind: str, body: Json) -> str:
        """Publish a command to ``table``; returns its ref (the table's answer names it)."""
        ref = f"c-{secrets.token_hex(6)}"
        message = command(self.club, table, ref, kind, body, iso(self._wall()))
        info = self._client.publish(f"bridge/{self.club}/table/{table}/command", json.dumps(message), qos=1)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            raise ConnectionError("the room's broker cannot be reached: the command was not sent")
        with self._lock:
            for call in self.room.calls.values():
                if call.table == table and call.state in ("called", "acknowledged"):
                    call.state = "being_ruled"
        return ref

    def reply(self, ref: str, timeout: float) -> Json | None:
        """The table's answer to command ``ref``, waiting at most ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while ref not in self.room.replies:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._changed.wait(left)
            return self.room.replies[ref]

    def subscribe(self, callback: Callable[[Json], None]) -> Callable[[], None]:
        """``callback(message)`` on every change (``{"kind": "changed"}``) and alarm; from the console thread."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock, contextlib.suppress(ValueError):
                self._subscribers.remove(callback)
        return unsubscribe

    def _notify(self) -> None:
        self._emit({"kind": "changed", "version": self.version})

    def _emit(self, message: Json) -> None:
        with self._lock:
            callbacks = list(self._subscribers)
        for callback in callbacks:
            try:
                callback(message)
            except Exception:
                log.exception("a console subscriber failed")
