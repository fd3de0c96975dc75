"""The Director's console: every table of the room in one place (``tablectl console``).

``Console`` subscribes to every table of the club (its ``state``, ``event`` and ``result/+``
topics, QoS 1, a persistent session so that the broker keeps what arrives while the console is
away; the tables' ``alert`` topics on a connection of their own, ``tablectl.room.alert_lane``, so
that no alert waits in a socket behind the bulk), folds
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

What one table sends harms no other (docs/room-safety.md): each message is checked on its own
(``tablectl.room.intake``) and one refused is kept with why (``snapshot()["refused"]``); a batch
is kept in one transaction, rolled back on any error, and acknowledged only once kept; a table
whose messages the console lacks (a gap, a backlog over ``_PENDING_BYTES`` dropped, a broker
that holds no session of the console: a new instance id) is asked to send again everything after
what the console holds, by a new id in its acknowledgement; two tables with one id and a second
console are alarms (``conflicts``, ``other_console``); a damaged ``console.sqlite`` is salvaged
(``tablectl.room.console_store``, ``snapshot()["store"]``).

The head console of an event whose rooms are bridged to a centre (``head=True``; docs/room-protocol.md,
"Rooms bridged to a centre") is the same console on the central broker, with three differences:
it acknowledges on ``console/head/<id>`` (the tables keep their cursor from their room's console
and only send again what the head lacks), another head console's acknowledgement is the alarm,
and the room consoles' acknowledgements (``console/ack/<id>``, over the bridge) tell it when a
room holds more of a table than it does (what a broker lost in a crash): it asks that table again.
The corrections the tables took from their rooms' consoles it takes on its own desk, and it
refuses its own Director's corrections of a table's result (``ConsoleMirror``, ``tablectl.room.console_mirror``).

What it acknowledges and gives back or asks again (``ConsoleCatchUp``, ``tablectl.room.console_catchup``).
The Director's session and desk (``ConsoleSession``, ``tablectl.room.console_session``, which
``Console`` inherits): the session's movement and results, the Director's settings and the
players' results sent to the tables, a new session and the sessions kept, the desk, and what
the pages read.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller.fieldscore.session import Session
from controller.room.console import Room
from tablectl.room.address import ClubAddress, ClubTopics
from tablectl.room.alert_lane import AlertLane
from tablectl.room.console_catchup import _LANE_GRACE, _PENDING_BYTES, ConsoleCatchUp
from tablectl.room.console_desk import DeskStore, restore_desk
from tablectl.room.console_mirror import ConsoleMirror
from tablectl.room.console_moves import apply_moves, load_moves
from tablectl.room.console_people import People
from tablectl.room.console_push import CallsStream, Journal, ResultsStream
from tablectl.room.console_session import ConsoleSession
from tablectl.room.console_store import ConsoleStore, Message, Refusal, restore
from tablectl.room.intake import Claims, Refused, Taken, foreign_console, prev_of, read_message
from tablectl.room.link import room_client
from tablectl.room.sessions import session_key, stale
from tablectl.room.table_names import take_players_named_in

__all__ = ["Console", "ConsoleStore"]

log = logging.getLogger(__name__)

_BATCH = 500
"""Messages taken in one transaction."""
_BATCH_BYTES = 256 << 10
"""Bytes of the bulk messages (states, events, results) taken in one transaction (an alert that
arrives meanwhile cuts the batch short: ``_take``)."""
_BUSY = _BATCH // 2
"""Messages waiting past which the console is ``busy``: its pages are pushed less often
(``web_ui.console.push_delay``)."""
_RESULTS_EVERY = 1.0
"""Seconds between two computations of the players' results while messages keep coming and what
they are made of changed (at once when the queue is empty): every table's page is computed each time."""
_RESULTS_QUIET = 5.0
"""Seconds between two computations of the players' results when nothing they are made of changed
(no result, setting or Director's answer): what the clock alone changes (the round, the boards
released, the minute to undo the session's end) reaches the tables within this."""
_TICK = 5.0
"""Seconds between two looks at the round clock when nothing arrives (the players' results follow it)."""


Json = dict[str, Any]


class Console(ConsoleCatchUp, ConsoleMirror, ConsoleSession):
    """The console's link to the room (module doc). ``start()``, then ``stop()``."""

    def __init__(self, address: ClubAddress, data_dir: Path, *, keepalive: int = 5,
                 wall: Callable[[], float] = time.time, session: Session | None = None,
                 head: bool = False) -> None:
        self.address = address
        self.head = head
        """The head console of rooms bridged to a centre (module doc)."""
        self._ack_area = "head" if head else "ack"
        """The topic level of this console's acknowledgements: ``console/<area>/<id>``."""
        self.club = address.club
        self.session = session
        self.room = Room(address.club, session=session)
        self.instance = secrets.token_hex(6)
        self._instances = {self.instance}
        """Every instance id this console has had (a new one after a broker that forgot its session)."""
        self._tokens: dict[str, str] = {}
        """table -> the instance id its acknowledgements carry (another one asks it to send again)."""
        self._behind: dict[str, tuple[str, int, float]] = {}
        """The head console's: table -> (session, seq its room holds, since when) while it holds less."""
        self._rewound: dict[str, int] = {}
        """table -> the seq held when it was last asked to send again (once per gap)."""
        self._boards = None if session is None else frozenset(
            n for _, movement in session.sections for n in movement.board_numbers)
        self.store = ConsoleStore(Path(data_dir) / "console.sqlite")
        self.people = People(Path(data_dir), self.store.path, session)  # the roster and the pairs' names: the Roll
        self._wall = wall
        self._started = wall()
        self._queue: queue.SimpleQueue[tuple[str, bytes, float, bool] | None] = queue.SimpleQueue()
        """The bulk lane (states, events, results, acknowledgements), and what wakes the console thread."""
        self._urgent: queue.SimpleQueue[tuple[str, bytes, float, bool]] = queue.SimpleQueue()
        """The priority lane: the tables' alerts (irregularities, calls for the Director, answers),
        taken before any bulk message waiting (``_run``)."""
        self._backlog: deque[tuple[str, bytes, float, bool]] = deque()
        """Bulk messages taken off the queue but not yet in the room (an alert came first)."""
        self._results_at = 0.0
        self._results_made_of: object = None
        self._freed = False
        self._pending: dict[str, int] = {}
        self._overflowed: set[str] = set()
        self._pending_lock = threading.Lock()
        self.dropped = 0
        """Messages dropped because their table's backlog was full (each sent again later)."""
        self.refused = 0
        """Messages refused since the start (kept in the store with why: ``refusals``)."""
        self.store_error: str | None = None
        """Why the console's file could not be written (None: it can): no table is acknowledged meanwhile."""
        self._claims = Claims()
        self.other_console: Json | None = None
        """Another console acknowledging this room's tables (its instance id, since when)."""
        self.unreadable = 0
        """Messages of the console's file that could not be read at start (asked again of the tables)."""
        self._refusals: dict[str | None, int] = {}
        self._sent: deque[mqtt.MQTTMessageInfo] = deque(maxlen=1000)
        """The latest acknowledgements and clearings published (``stop`` sees them sent)."""
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._subscribers: tuple[Callable[[Json], None], ...] = ()
        self._acks: dict[str, tuple[str, int]] = {}
        self._connected = False
        self._lost_since: float | None = wall()
        """Since when the console has not had the room's broker (None: linked)."""
        self._lost_reason = "not reached yet since the console started"
        self._stopping = False
        self.version = 0
        self._journal = Journal()
        """Per version: what changed (``changes``: what the page lacks since a version)."""
        self.received = 0
        self._stream = ResultsStream()
        self._calls_stream = CallsStream()
        """What the latest ``changes`` brought the pages to (the next carries only what differs)."""
        self._view_asked: dict[str, float] = {}
        """table -> when the console last asked it for its arbiter view."""
        self.duplicates = 0
        self._thread: threading.Thread | None = None
        self._published: dict[str, str] = {}
        """table -> the results last sent to its players."""
        self._seed_archived_streams()
        self.unreadable = restore(self.store, self.room, self.club, self._wall())
        self._restore_settings()
        latest = self.store.latest()
        kept = self.store.settings().get("session_key")
        if kept not in (None, session_key(session)):
            self._begin_new("the session file changed")
        elif stale(latest, self.store.settings(), wall()):
            self._begin_new("the kept session is last session's")
        elif kept is None:
            self.store.set("session_key", session_key(session))
        self._acks = {t: a for t in self._known() if (a := self.room.acknowledged(t)) is not None}
        self.desk_store = DeskStore(self.store.path)
        restore_desk(self.room.results, self.desk_store.load())
        apply_moves(self.room, session, load_moves(self.store.path), self.people)  # the movement as played
        self._bump(None)
        self._client = room_client(address, f"bridge-{self.club}-console", clean_session=False)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._lane = AlertLane(address, f"bridge-{self.club}-console-alerts", self._on_message, self._lane_refused,
                               keepalive=keepalive, on_change=self._notify, clock=self._wall)
        self._early_since: dict[str, float] = {}
        """table -> since when a message of it waits for the one it follows (``_LANE_GRACE``)."""

    def _known(self) -> list[str]:
        """Every table the console holds something of."""
        return sorted({t for t, _ in self.room.streams} | set(self.room.tiles))

    # -- running -----------------------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="console", daemon=True)
        self._thread.start()
        self._lane.start()
        self._client.connect_async(self.address.host, self.address.port, keepalive=5)
        self._client.loop_start()

    def stop(self) -> None:
        """Stop: what the console thread has in hand is taken, what it published is sent (within a few
        seconds), then the link closes."""
        self._stopping = True  # the disconnection that follows is ours: nothing to warn about
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=10)
            self._thread = None
        deadline = time.monotonic() + 3.0
        for info in list(self._sent):
            with contextlib.suppress(Exception):
                info.wait_for_publish(max(0.0, deadline - time.monotonic()))
        self._lane.stop()
        self._client.disconnect()
        self._client.loop_stop()
        self.store.close()

    @property
    def busy(self) -> bool:
        """Whether the intake is behind: more than ``_BUSY`` messages wait (the pages are pushed less often)."""
        return self._queue.qsize() + len(self._backlog) > _BUSY

    @property
    def connected(self) -> bool:
        """Linked to the broker on the main connection, and the alerts on their lane (or refused it)."""
        return self._connected and self._lane.ready

    @property
    def conflicts(self) -> dict[str, Json]:
        """table -> two tables configured with that table id (their sessions, since when, what to do)."""
        return self._claims.conflicts

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: Any, reason: Any,
                    properties: object) -> None:
        if reason.is_failure:
            log.error("the room's broker %s refused the console: %s", self.address.url(), reason)
            self._lost_reason = f"it refused the console: {reason}"
            self._notify()
            return
        self._connected = True
        self._lost_since = None
        log.info("console linked to the room %s", self.address.url())
        topics = [*self._table_topics(), f"bridge/{self.club}/console/{self._ack_area}/+"]
        if self.head:  # the rooms' consoles' acknowledgements: what each room holds (module doc)
            topics.append(f"bridge/{self.club}/console/ack/+")
        else:  # the head console's, over the bridge: which of this room's calls a head Director took
            topics.append(f"bridge/{self.club}/console/head/+")
        client.unsubscribe(ClubTopics(self.club).tables)  # a session kept from before the lane read them all here
        client.subscribe([(topic, 1) for topic in topics])
        with self._lock:
            if not getattr(flags, "session_present", False):
                self._restart()
            acks = dict(self._acks)
            self._published.clear()  # sent again: a broker that lost its retained messages gets them back
        self._publish_acks(acks)
        self._queue.put(("", b"", self._wall(), False))  # the console thread sends the players' results
        self._notify()

    def _table_topics(self) -> list[str]:
        """The tables' topics read on the main connection: all but the alerts while they have their lane."""
        c = ClubTopics(self.club)
        return [c.states, c.events, c.results, *([c.alerts] if self._lane.refused is not None else [])]

    def _lane_refused(self, reason: str) -> None:
        """The broker has no user for the alert lane: the alerts come on the main connection."""
        if self._connected:
            self._client.subscribe(ClubTopics(self.club).alerts, 1)

    def _restart(self) -> None:
        """The broker holds no session of this console (a new broker, one that lost its file, a session
        taken over): whatever was published meanwhile is lost to it. A new instance id in every
        acknowledgement makes every table send again all that follows what the console holds."""
        self.instance = secrets.token_hex(6)
        self._instances.add(self.instance)
        self._tokens.clear()
        self._rewound.clear()
        self._acks = {t: a for t in self._known() if (a := self.room.acknowledged(t)) is not None}
        log.warning("console: the broker holds no session of it; every table is asked for what it lacks")

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                       properties: object) -> None:
        was = self._connected
        self._connected = False
        if self._stopping:  # our own stop: nothing to warn about
            self._notify()
            return
        if was or self._lost_since is None:
            self._lost_since = self._wall()
        self._lost_reason = f"the connection dropped: {reason}"
        log.warning("console lost the room's broker (%s): reconnecting", reason)
        if was:
            self._emit({"kind": "alarm", "table": "room", "text": self.broker()["text"], "received": self._wall(),
                        "broker": True})
        self._notify()

    def _on_message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        payload = bytes(message.payload)
        parts = message.topic.split("/", 4)
        table = parts[3] if len(parts) > 3 else ""
        with self._pending_lock:  # one table's flood waits in the queue up to a bound, no further
            held = self._pending.get(table, 0)
            if held + len(payload) > _PENDING_BYTES:
                self.dropped += 1
                self._overflowed.add(table)
                return
            self._pending[table] = held + len(payload)
        item = (message.topic, payload, self._wall(), bool(message.retain))
        if len(parts) > 4 and parts[4] == "alert":  # the priority lane, and a nudge for a sleeping thread
            self._urgent.put(item)
            self._queue.put(("", b"", item[2], False))
        else:
            self._queue.put(item)

    def _run(self) -> None:
        """The console thread: alerts first (``_urgent``), then the bulk in batches of at most
        ``_BATCH`` messages and ``_BATCH_BYTES``, cut short when an alert arrives (the rest waits
        in ``_backlog``); the players' results when the queue is empty or every ``_RESULTS_EVERY``."""
        stopping = False
        while not stopping or self._backlog:
            self._overdue_gaps()
            if not self._backlog:
                try:
                    item = self._queue.get(timeout=_LANE_GRACE / 3 if self._early_since else _TICK)
                except queue.Empty:
                    self._results(force=True)
                    if self._behind:  # the head console's: a room that holds more, looked at again
                        self._backlog.append(("", b"", self._wall(), False))
                    continue
                if item is None:
                    stopping = True
                else:
                    self._backlog.append(item)
            self._take_urgent()
            size = 0
            while not stopping and len(self._backlog) < _BATCH and size < _BATCH_BYTES and self._urgent.empty():
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stopping = True
                    break
                self._backlog.append(nxt)
                size += len(nxt[1])
            self._take_bulk()
            if not stopping:
                self._results(force=self._queue.empty() and self._urgent.empty() and not self._backlog)
        self._take_urgent()

    def _take_urgent(self) -> None:
        """Take every alert waiting (the priority lane)."""
        items: list[tuple[str, bytes, float, bool]] = []
        while True:
            try:
                items.append(self._urgent.get_nowait())
            except queue.Empty:
                break
        if items:
            self._guarded(items)

    def _take_bulk(self) -> None:
        """Take the backlog, up to ``_BATCH`` messages and ``_BATCH_BYTES``."""
        items: list[tuple[str, bytes, float, bool]] = []
        size = 0
        while self._backlog and len(items) < _BATCH and size < _BATCH_BYTES:
            items.append(self._backlog.popleft())
            size += len(items[-1][1])
        if items:
            self._guarded(items, cut=True)

    def _guarded(self, items: list[tuple[str, bytes, float, bool]], *, cut: bool = False) -> None:
        self._freed = False
        try:
            self._take(items, cut=cut)
        except Exception:
            log.exception("console: %d messages could not be taken", len(items))
        finally:
            if not self._freed:
                self._taken(items)

    def _results(self, *, force: bool) -> None:
        """The players' results, when what they are made of changed (``_results_inputs``): now when
        ``force`` or ``_RESULTS_EVERY`` has passed; else every ``_RESULTS_QUIET`` (the clock's part).

        Never on the head console: no table reads the centre (the bridge brings the tables nothing
        but commands and acknowledgements), each room's console sends its own tables theirs. Every
        table's page is a computation of the room's scorecards, on the thread that takes the alarms:
        before, it ran after each message when the queue was empty, at 30 tables some 100 times a
        second, three quarters of the head console's work at an event."""
        if self.head:
            return
        now = time.monotonic()
        inputs = self._results_inputs()
        if inputs == self._results_made_of:
            if now - self._results_at < _RESULTS_QUIET:
                return
        elif not force and now - self._results_at < _RESULTS_EVERY:
            return
        self._results_at = now
        self._results_made_of = inputs
        try:
            self._publish_results()
        except Exception:  # the console thread must go on
            log.exception("console: the players' results could not be sent")

    def _results_inputs(self) -> object:
        """What the players' results, the corrections and the roster sent to the tables are made of,
        but the clock: the results (each change counted, the Director's corrections and movement
        changes among them), the Director's settings and boards released, the answers to the tables'
        calls, the session's end, the roster and the names (objects replaced when they change: kept
        here, compared by identity first), and the broker (everything goes again once it is back)."""
        with self._lock:
            room = self.room
            answers = tuple(sorted((t, str(a.get("answer")), a.get("at")) for t, a in room.answers.items()
                                   if isinstance(a, dict)))
            return (room, room.results.changes, room.players, frozenset(room.released_boards), answers, room.ended,
                    self.people.roster, self.people.seating, self._connected, len(self._published))

    def _taken(self, items: list[tuple[str, bytes, float, bool]]) -> None:
        """The queue's bound for each table, freed of ``items``."""
        with self._pending_lock:
            for topic, payload, _, _ in items:
                parts = topic.split("/", 4)
                table = parts[3] if len(parts) > 3 else ""
                left = self._pending.get(table, 0) - len(payload)
                if left > 0:
                    self._pending[table] = left
                else:
                    self._pending.pop(table, None)

    def _take(self, items: list[tuple[str, bytes, float, bool]], *, cut: bool = False) -> None:
        """Take a batch of messages: each checked and taken on its own (a refused one is kept with
        why), then all kept in one transaction, then acknowledged (never past what is not kept).
        ``cut`` (a batch of the bulk): an alert arriving meanwhile cuts it short, the rest of it put
        back at the head of the backlog (``items`` keeps what was taken), so that an alert waits for
        one bulk message, not for a whole batch of them."""
        kept: list[Message] = []
        states: dict[str, str] = {}
        refused: list[Refusal] = []
        alarms: list[Json] = []
        damaged: list[tuple[str, str, int, int | None]] = []
        touched: set[str] = set()
        clear: list[str] = []
        with self._lock:
            for n, (topic, payload, now, retained) in enumerate(items):
                if cut and n and not self._urgent.empty():
                    self._backlog.extendleft(reversed(items[n:]))
                    del items[n:]
                    break
                if topic.startswith(f"bridge/{self.club}/console/{self._ack_area}/"):
                    self._other_console(payload, now)
                    continue
                if topic.startswith(f"bridge/{self.club}/console/"):  # the other console's acknowledgement
                    if self.head:  # a room's console's: what it holds
                        self._room_holds_more(topic, payload, now)
                    claimed = self._claimed_there(topic, payload)
                    if claimed is not None:
                        touched.add(claimed)
                    continue
                found = read_message(self.club, topic, payload, self._boards)
                if found is None or (isinstance(found, Taken) and not payload and found.kind == "result"):
                    continue
                if isinstance(found, Taken) and found.kind == "state" and not payload:
                    continue
                if isinstance(found, Taken):
                    found = self._conflict(found, retained, now)
                if isinstance(found, Refused):
                    refused.append(self._refuse(found, topic, payload, now))
                    if found.table is not None:
                        touched.add(found.table)
                        if found.kind == "result":
                            clear.append(topic)  # a result refused is no traveller: the broker forgets it
                    continue
                kind, table, msg = found.kind, found.table, found.msg
                try:
                    got = self.room.receive(kind, table, msg, now)
                except Exception as exc:  # a message the room cannot take costs that message alone
                    log.exception("console: a message of table %s could not be taken", table)
                    refused.append(self._refuse(Refused(table, kind, f"the console could not take it "
                                                        f"({type(exc).__name__})", found.session, found.seq,
                                                        prev_of(msg)), topic, payload, now))
                    touched.add(table)
                    continue
                self.received += 1
                if not got.new:
                    self.duplicates += 1
                    continue
                touched.add(table)
                text = payload.decode("utf-8")
                if kind == "state":
                    states[table] = text
                else:
                    kept.append((table, found.session, found.seq, kind, text, now))
                if kind == "alert" and msg.get("alert") == "log_damaged" and isinstance(msg.get("since"), int):
                    damaged.append((table, str(msg.get("lost_session") or msg.get("session", "")), msg["since"],
                                    msg.get("acknowledged") if isinstance(msg.get("acknowledged"), int) else None))
                if got.alarm is not None:
                    alarms.append({"table": table, "text": got.alarm, "at": msg.get("at"),
                                   "received": now})
            rooms: dict[str, str] = self._still_behind(self._wall())
            touched |= set(rooms)
            if touched or refused:  # a nudge alone (``_on_message``, the settings) changes nothing of the room
                self._bump(touched)
            self._changed.notify_all()
        for alarm in alarms:  # the Director first; what is kept and acknowledged next
            self._emit({"kind": "alarm", **alarm})
        self._taken(items)  # what still waits of each table is what follows this batch (``_keep``'s gaps)
        self._freed = True
        self._publish_acks(self._keep(kept, states, refused, touched, rooms))
        for topic in clear:
            self._sent.append(self._client.publish(topic, b"", qos=1, retain=True))
        for table, session, since, upto in damaged:
            self._send_restore(table, session, since, upto)
        take_players_named_in(self, kept)  # the players named themselves at a table page (tablectl.room.table_names)
        if touched or refused:
            self._notify()
        self._take_room_corrections(kept)  # the head console's: the rooms' corrections (tablectl.room.console_mirror)

    def _refuse(self, refused: Refused, topic: str, payload: bytes, now: float) -> Refusal:
        """A message refused (``tablectl.room.intake``): logged, counted, held in its stream when its
        seq can be (so that it costs that message alone), and kept with why."""
        self.refused += 1
        self._refusals[refused.table] = n = self._refusals.get(refused.table, 0) + 1
        if n <= 10 or n % 1000 == 0:  # a flood of them is not a flood of the log
            log.warning("console: a message on %s refused (%d from this table so far): %s", topic, n, refused.reason)
        if refused.table is not None and refused.seq is not None and refused.prev is not None:
            stream = self.room.streams.get((refused.table, refused.session))
            if stream is None:
                stream = self.room._new_stream(refused.table, refused.session)
            stream.take(refused.seq, refused.prev)
        return Refusal(refused.table, refused.kind, refused.session, refused.seq, refused.reason, payload, now)

    # -- two of what must be one --------------------------------------------------------------------------

    def _conflict(self, taken: Taken, retained: bool, now: float) -> Taken | Refused:
        """Two tables configured with one table id (``Claims``): an alarm once, their later one's results refused."""
        checked, found = self._claims.check(taken, retained, now)
        if found is not None:
            log.error("console: %s", found["what"])
            self._emit_later({"kind": "alarm", "table": taken.table, "text": found["what"], "at": None,
                              "received": now})
        return checked

    def _other_console(self, payload: bytes, now: float) -> None:
        """An acknowledgement of another console (``foreign_console``): an alarm once."""
        other = foreign_console(payload, self._instances, self._started)
        if other is None or self.other_console is not None:
            return
        what = (f"Another console acknowledges this room's tables (instance {other}): two consoles of one "
                "room take the tables' messages from each other. Stop the other one.")
        self.other_console = {"instance": other, "since": now, "what": what}
        log.error("console: %s", what)
        self._emit_later({"kind": "alarm", "table": None, "text": what, "at": None, "received": now})

    def _emit_later(self, message: Json) -> None:
        threading.Thread(target=self._emit, args=(message,), name="console alarm", daemon=True).start()
