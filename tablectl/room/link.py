"""The table's link to the club room: its event log published over MQTT (paho-mqtt 2).

``TableLink(runtime, address, table_id)`` runs on two threads of its own, so the table's
engine never waits on the network: paho's network thread, and the link's publisher thread.
The engine thread only sets a flag after each commit (``TableRuntime.subscribe``).

* **Outbox** (docs/room-protocol.md): the log itself. The publisher reads the rows after
  its cursor with its own read-only SQLite connection and publishes each ``derived`` row on
  ``event``, each ``alert`` row on ``alert`` and each ``result`` row on ``result/<board>``
  (retained), QoS 1, in order. Every message carries the envelope ``v, club, table,
  session, seq, time`` (``seq`` is the row's), plus ``prev`` (the seq of the outbox row
  before it, 0 for the first: the console can tell it holds everything up to a seq), ``at``
  (the same time in epoch seconds), beside the body's own fields (an event's are ``action``,
  ``source`` and ``rejected``: a table action has a ``session`` of its own).
* **Acknowledgement**: the console publishes, retained, the session and the highest seq it
  holds with nothing missing (``console/ack/<id>``). After every (re)connection the cursor
  goes back to that seq (everything, when no console has acknowledged this session, or a
  console restarted with less), so a broker that lost messages, a link that dropped, a table
  that restarted: each gets the console everything it lacks. The console drops duplicates.
* **The head console** (rooms bridged to a centre, docs/room-protocol.md): its retained
  acknowledgement comes over the bridge on ``console/head/<id>``. The cursor still follows the
  room's console; a (re)connection goes back to the lower of the two acknowledgements, and a
  new head console id (the head console lacks something) sends again once what follows the
  head's seq. The room's console drops what it holds already.
* **State**: retained on ``state`` after every change: the tile (``controller.room.messages.
  table_state``, with the board's ``deal`` as far as the table knows it and ``view_on_demand``),
  a few hundred bytes; the table's arbiter view (``view``, with claim help while a claim is
  pending: tens of kB) only while the Director has the table open: the console's ``view``
  command asks for it for ``VIEW_SECONDS`` (``{"command": "view", "seconds": N}``; 0 stops),
  and the state is sent again at once with it. The last will is ``{"online": false}``, published
  retained by the broker when the table vanishes, and by the link itself on a clean stop.
* **Commands** from the console (``command``) are checked exactly as the arbiter page
  checks the same decision (``web_ui.models``), then submitted to the table as an input
  whose source is ``console``; the table's answer (taken, or refused and why) comes back on
  ``alert`` as ``{"alert": "command", "ref": ..., "accepted": ..., "reason": ...}``, a durable
  row like any other. A command that cannot be read is refused the same way and changes
  nothing. Commands run on a worker thread (``submit`` waits for the engine). A ``restore``
  (the console's copy of what the table's log lost) goes to ``TableRuntime.restore``.
* **The Director's corrections** (``desk``, retained, from the console only): every correction of
  this table's results made at the console's scoring desk, and their undoing
  (``controller.room.deskmsg``). Each entry of this session the log lacks is taken as an input from
  ``console`` (``controller.table.corrections``: the table's own record keeps it, Law 79C) and
  answered on ``alert`` (``{"alert": "desk", "entry", "accepted", "reason"}``); an entry the log
  holds already is skipped, so a message that comes again (every reconnection) changes nothing.
* **The club's roster** (``bridge/<club>/roster``, retained, from the console only): the names and
  federation numbers the players pick from when they name themselves at the table page
  (``web_ui.table_players``); the table keeps nothing else of it.
* **Results for the players** (``results``, retained, from the console only: the broker's ACL):
  what this table's players may see of the room's results (``controller.room.players``), handed
  to ``TableRuntime.take_room_results`` for the results page (``web_ui.player_results``). A
  message for another table, or one that cannot be read, is dropped.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import ssl
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.records.eventlog import BadRow, Row
from controller.room.deskmsg import DESK_LIMIT, desk_actions
from controller.room.messages import SCHEMA, table_state
from tablectl.room.address import ClubAddress, Topics
from tablectl.store import open_reader

__all__ = ["COMMAND_LIMIT", "RESULTS_LIMIT", "TableLink", "envelope", "iso", "room_client"]

log = logging.getLogger(__name__)

COMMAND_LIMIT = 16_384
"""Bytes: a longer command is refused unread."""
RESULTS_LIMIT = 1 << 20
"""Bytes: longer results for the players are dropped unread (30 tables' travellers are far less)."""
_BATCH = 200
VIEW_SECONDS = 600.0
"""Seconds a ``view`` command makes the state carry the arbiter view (the console asks again
while the Director keeps the table open)."""
_ACK_WAIT = 1.0
"""Seconds the link waits, after connecting, for the console's retained acknowledgement."""
_GOODBYE_WAIT = 10.0
"""Seconds a stopping link waits for the broker to take its last rows and its goodbye."""

Json = dict[str, Any]


def iso(epoch: float) -> str:
    """``epoch`` as ISO 8601 UTC with milliseconds."""
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def room_client(address: ClubAddress, client_id: str, *, clean_session: bool) -> mqtt.Client:
    """A paho-mqtt 2 client for ``address``: its credentials, TLS checked against the broker's
    certificate (``?ca=`` for a self-signed one), reconnecting by itself within 1 to 5 s."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean_session)
    if address.username:
        client.username_pw_set(address.username, address.password)
    if address.tls:
        client.tls_set(cert_reqs=ssl.CERT_REQUIRED, ca_certs=address.ca_file)
    client.reconnect_delay_set(min_delay=1, max_delay=5)
    return client


def envelope(club: str, table: str, session: str, seq: int, at: float, body: Json, prev: int | None = None) -> Json:
    """A room message: ``body``'s fields with the envelope of docs/room-protocol.md (the envelope's win)."""
    out: Json = {**body, "v": SCHEMA, "club": club, "table": table, "session": session, "seq": seq,
                 "time": iso(at), "at": round(at, 3)}
    if prev is not None:
        out["prev"] = prev
    return out


class TableLink:
    """One table's link to the room (module doc). ``start()`` once the runtime runs; ``stop()``."""

    def __init__(self, runtime: Any, address: ClubAddress, table_id: str, *, keepalive: int = 5,
                 boards_per_round: int | None = None, pairs: Json | None = None,
                 wall: Callable[[], float] = time.time) -> None:
        self.runtime = runtime
        self.address = address
        self.table = table_id
        self.topics = Topics(address.club, table_id)
        self.keepalive = keepalive
        self.boards_per_round = boards_per_round
        self.pairs = pairs or {"NS": table_id, "EW": table_id}
        self._wall = wall
        self.session: str = runtime.store.session_id
        self._reader = open_reader(runtime.store.path)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._connected = False
        self._cursor = 0
        self._prev = 0
        self._acked: int | None = None
        self._ack_console: str | None = None
        self._head_acked: int | None = None
        """What the head console holds of this session (None: no head console; rooms bridged to a centre)."""
        self._head_console: str | None = None
        self._ack_seen = threading.Event()
        self._rewind: set[str] = set()
        """Why the cursor goes back before the next row: ``connect``ed again, the room's ``console`` or the
        ``head`` console asks again."""
        self._state_seq = -1
        self._view_until = 0.0
        """Wall time until which the state carries the arbiter view (the console's ``view`` command)."""
        self._commands: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._desk_refused: set[tuple[int, str]] = set()
        """The Director's entries this table refused since the link started (not offered again)."""
        self.published = 0
        """Outbox messages handed to the broker so far (every resend counts)."""
        self._client = self._make_client()
        runtime.join_room()  # the table's public pages now show only what the room has released
        self._threads: list[threading.Thread] = []
        self._unsubscribe: Callable[[], None] | None = None

    # -- the MQTT client ----------------------------------------------------------------------------

    def _make_client(self) -> mqtt.Client:
        client = room_client(self.address, f"bridge-{self.address.club}-table-{self.table}", clean_session=True)
        will = envelope(self.address.club, self.table, self.session, 0, self._wall(),
                        {"online": False, "reason": "the table's link was lost"})
        del will["at"]  # the broker sends it later: no time would be true
        client.will_set(self.topics.state, json.dumps({**will, "online": False}), qos=1, retain=True)
        client.max_queued_messages_set(0)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        return client

    def start(self) -> None:
        """Connect (in the background: a room that is down does not stop the table) and publish."""
        self._unsubscribe = self.runtime.subscribe(lambda seq: self._wake.set())
        self._client.connect_async(self.address.host, self.address.port, keepalive=self.keepalive)
        self._client.loop_start()
        for name, target in (("room link", self._publisher), ("room commands", self._command_worker)):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        """Send what the log holds and the console lacks, say ``online: false`` (retained),
        disconnect, and stop the threads (idempotent).

        A table that ends its session right after its last card (the demo, a Pi shut down
        after the last round) must not keep its last rows until it is started again: the
        console would miss the result for the night. So a connected link drains its outbox
        before it goes; the broker delivers in order, so once the goodbye is acknowledged
        every row before it is too. Not connected, nothing is lost: the next start sends it.
        """
        if self._stop.is_set():
            return
        self._stop.set()
        self._wake.set()
        self._commands.put(None)
        if self._unsubscribe is not None:
            self._unsubscribe()
        for thread in self._threads:
            thread.join(timeout=10)
        if self._connected:
            try:
                self._publish_pending(drain=True)
            except Exception:  # the link must never stop the table from stopping
                log.exception("table %s: the last rows could not be sent; the next start sends them", self.table)
            body = {"online": False, "reason": "the table was stopped"}
            info = self._client.publish(self.topics.state, json.dumps(
                envelope(self.address.club, self.table, self.session, self._cursor, self._wall(), body)
                | {"online": False}), qos=1, retain=True)
            with contextlib.suppress(Exception):
                info.wait_for_publish(timeout=_GOODBYE_WAIT)
        self._client.disconnect()
        self._client.loop_stop()
        self._reader.close()

    @property
    def connected(self) -> bool:
        return self._connected

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                    properties: object) -> None:
        if reason.is_failure:
            log.error("the room's broker %s refused table %s: %s", self.address.url(), self.table, reason)
            return
        log.info("table %s linked to the room %s", self.table, self.address.url())
        client.subscribe([(topic, 1) for topic in self.topics.subscriptions])
        with self._lock:
            self._connected = True
            self._rewind.add("connect")
            self._state_seq = -1
        self._wake.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                       properties: object) -> None:
        with self._lock:
            self._connected = False
        if not self._stop.is_set():
            log.warning("table %s lost the room's broker (%s): reconnecting; nothing is lost, the log is "
                        "the outbox", self.table, reason)

    def _on_message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        if message.topic == self.topics.ack:
            self._take_ack(bytes(message.payload))
        elif message.topic == self.topics.head_ack:
            self._take_ack(bytes(message.payload), head=True)
        elif message.topic == self.topics.command:
            if not self._take_view(bytes(message.payload)):
                self._commands.put(bytes(message.payload))
        elif message.topic == self.topics.player_results:
            self._take_results(bytes(message.payload))
        elif message.topic == self.topics.roster:
            self._take_roster(bytes(message.payload))
        elif message.topic == self.topics.desk and 0 < len(message.payload) <= DESK_LIMIT:
            self._commands.put(b"desk:" + bytes(message.payload))

    def _take_view(self, payload: bytes) -> bool:
        """The console's ``view`` command (the Director opened this table): the state carries the
        arbiter view for the seconds asked (at most ``VIEW_SECONDS``), sent again now. False: not
        a ``view`` command (``_command`` reads it)."""
        if len(payload) > COMMAND_LIMIT or b'"view"' not in payload:
            return False
        try:
            message = json.loads(payload)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return False
        if not isinstance(message, dict) or message.get("command") != "view":
            return False
        if str(message.get("table")) != self.table or message.get("club") != self.address.club:
            log.warning("table %s: a view command for another table ignored", self.table)
            return True
        seconds = message.get("seconds", VIEW_SECONDS)
        if not isinstance(seconds, int | float) or isinstance(seconds, bool) or not seconds >= 0:
            seconds = VIEW_SECONDS
        with self._lock:
            self._view_until = self._wall() + min(float(seconds), VIEW_SECONDS)
            self._state_seq = -1
        self._wake.set()
        return True

    def _take_results(self, payload: bytes) -> None:
        take = getattr(self.runtime, "take_room_results", None)
        if take is None or not payload or len(payload) > RESULTS_LIMIT:
            return
        try:
            body = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            body = None
        if not isinstance(body, dict) or body.get("kind") != "results" or str(body.get("table")) != self.table:
            log.warning("table %s: unreadable results from the console ignored", self.table)
            return
        take(body)

    def _take_roster(self, payload: bytes) -> None:
        """The club's roster (``roster``, retained, from the console): names and federation numbers are
        all the table keeps, whatever else a message carries (the players' page lists them)."""
        take = getattr(self.runtime, "take_roster", None)
        if take is None or not payload or len(payload) > RESULTS_LIMIT:
            return
        try:
            body = json.loads(payload)
        except (ValueError, UnicodeDecodeError, RecursionError):
            body = None
        members = body.get("members") if isinstance(body, dict) and body.get("kind") == "roster" else None
        if not isinstance(members, list):
            log.warning("table %s: an unreadable roster from the console ignored", self.table)
            return
        take([{"name": m["name"], "federation_id": m.get("federation_id") or ""} for m in members
              if isinstance(m, dict) and isinstance(m.get("name"), str) and m["name"].strip()
              and isinstance(m.get("federation_id") or "", str)])

    def _take_ack(self, payload: bytes, *, head: bool = False) -> None:
        try:
            ack = json.loads(payload)
            session, seq, console = ack["session"], int(ack["seq"]), str(ack.get("console", ""))
        except (ValueError, KeyError, TypeError):
            log.warning("table %s: unreadable acknowledgement from the %s console ignored", self.table,
                        "head" if head else "room's")
            return
        with self._lock:
            held = seq if session == self.session else 0
            if head:  # the head console asks again; the cursor stays the room console's (module doc)
                if console != self._head_console:
                    self._head_console = console
                    self._rewind.add("head")
                self._head_acked = held
                self._wake.set()
                return
            if console != self._ack_console:  # a console (re)started: it may hold less than we sent
                self._ack_console = console
                self._rewind.add("console")
            self._acked = held
        self._ack_seen.set()
        self._wake.set()

    # -- publishing ---------------------------------------------------------------------------------

    def _publisher(self) -> None:
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            if self._stop.is_set():
                break
            try:
                self._publish_pending()
            except Exception:  # the link must never take the table down
                log.exception("table %s: publishing to the room failed; retrying", self.table)
                self._stop.wait(1.0)
                self._wake.set()

    def _publish_pending(self, *, drain: bool = False) -> None:
        """Publish the rows after the cursor; ``drain``: also while stopping (``stop`` only)."""
        with self._lock:
            if not self._connected:
                return
            rewind = bool(self._rewind)
        if rewind:
            self._ack_seen.wait(_ACK_WAIT)  # the retained acknowledgement comes right after subscribing
            with self._lock:
                self._cursor = _rewound(self._rewind, self._cursor, self._acked, self._head_acked)
                self._rewind = set()
                self._prev = self._cursor
        while drain or not self._stop.is_set():
            rows = self._reader.rows_after(self._cursor, _BATCH)
            for row in rows:
                if not self._connected:
                    return
                self._publish_row(row)
            if len(rows) < _BATCH:  # the log's end: a row committed meanwhile wakes the publisher again
                break
        self._publish_state()

    def _publish_row(self, row: Row | BadRow) -> None:
        self._cursor = row.seq
        if isinstance(row, BadRow):
            return
        topic: str | None = None
        body = dict(row.body)
        if row.kind == "derived":
            topic = self.topics.event
        elif row.kind == "alert":
            topic = self.topics.alert
        elif row.kind == "result":
            body["pairs"] = self.pairs
            topic = self.topics.result(body.get("number") or "unnumbered")
        if topic is None:
            return
        at = body.pop("at", None)
        message = envelope(self.address.club, self.table, self.session, row.seq,
                           float(at) if isinstance(at, int | float) else self._wall(), body, self._prev)
        self._client.publish(topic, json.dumps(message, separators=(",", ":")), qos=1,
                             retain=row.kind == "result")
        self._prev = row.seq
        self.published += 1

    def _publish_state(self) -> None:
        snap = self.runtime.snapshot()
        if snap.seq == self._state_seq:
            return
        self._state_seq = snap.seq
        name = getattr(self.runtime.setup, "name", f"Table {self.table}")
        body = table_state(snap.state, now=snap.now, table_name=name, boards_per_round=self.boards_per_round)
        board = snap.state.board
        body["deal"] = None if board is None or board.deal is None else board.deal.pbn()
        body["view_on_demand"] = True
        if self._wall() < self._view_until:  # the Director has the table open
            body["view"] = _arbiter_view(snap, name)
        message = envelope(self.address.club, self.table, self.session, self._cursor, self._wall(), body)
        message["online"] = True
        self._client.publish(self.topics.state, json.dumps(message, separators=(",", ":")), qos=1, retain=True)

    # -- commands -----------------------------------------------------------------------------------

    def _command_worker(self) -> None:
        while True:
            payload = self._commands.get()
            if payload is None or self._stop.is_set():
                return
            try:
                if payload.startswith(b"desk:"):
                    self._desk(payload[5:])
                else:
                    self._command(payload)
            except Exception:
                log.exception("table %s: a command from the console failed", self.table)

    def _desk(self, payload: bytes) -> None:
        """The Director's corrections of this table's results (``controller.room.deskmsg``): each entry
        of this session the log does not hold yet goes in as an input from ``console`` and is answered
        on ``alert``; one the table refused is offered again only when the message comes again after
        a restart of the link (the board may be finished by then)."""
        try:
            actions, errors = desk_actions(json.loads(payload), self.table, self.session)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            log.warning("table %s: unreadable corrections from the console ignored (%s)", self.table, exc)
            return
        for error in errors:
            log.warning("table %s: %s", self.table, error)
        taken = {(e.entry, e.made) for e in self.runtime.snapshot().state.corrections}
        for action in actions:
            key = (action.entry, action.made)
            if key in taken or key in self._desk_refused:
                continue  # in the log already: a correction sent twice is one entry
            board = getattr(action, "board", None)
            what = (f"the Director's correction {action.entry} of board {board} is in the table's log" if board
                    else f"the Director's entry {action.entry} (correction {getattr(action, 'undoes', '')} taken "
                    "back) is in the table's log")
            done = self.runtime.command(action, {"alert": "desk", "entry": action.entry, "board": board,
                                                 "kind": "correction" if board is not None else "undo",
                                                 "what": what})
            if done.rejected is not None:
                self._desk_refused.add(key)

    def _command(self, payload: bytes) -> None:
        from tablectl.room.commands import CommandError, Restore, read_command

        try:
            ref, action = read_command(payload, club=self.address.club, table=self.table, limit=COMMAND_LIMIT)
        except CommandError as exc:
            log.warning("table %s: command from the console refused: %s", self.table, exc)
            self.runtime.report({"alert": "command", "ref": exc.ref, "accepted": False, "reason": str(exc),
                                 "what": f"command refused: {exc}", "alarm": False})
            return
        if isinstance(action, Restore):
            self.runtime.restore(ref, action.session, action.events)
            return
        self.runtime.command(action, {"alert": "command", "ref": ref})


def _rewound(why: set[str], cursor: int, acked: int | None, head: int | None) -> int:
    """Where the cursor goes back to, and ``why``. Without a head console: what the room's console
    holds. With one: connected again, the lower of what the two consoles hold (a broker may have
    lost anything after it); asked again by one of them, what that one holds, never past a row
    still to be sent again for the other."""
    if head is None:
        return acked or 0
    if "connect" in why:
        return min(acked or 0, head)
    if "console" in why:
        cursor = min(cursor, acked or 0)
    if "head" in why:
        cursor = min(cursor, head)
    return cursor


def _arbiter_view(snap: Any, name: str) -> Json:
    from controller.views import arbiter_view, claim_help_view

    view = arbiter_view(snap.state, seq=snap.seq, now=snap.now, table_name=name, health=snap.health,
                        notices=snap.notices)
    board = snap.state.board
    if board is not None and board.claim is not None:
        try:
            view["claim_help"] = claim_help_view(snap.state)
        except Exception as exc:  # claim help is a help: never stop the link for it
            view["claim_help"] = {"error": str(exc)}
    return view
