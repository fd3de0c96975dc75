"""The Director's session and desk at the console: ``ConsoleSession``, the half of
``tablectl.room.console.Console`` that is not its link to the room.

``Console`` (``tablectl.room.console``) links to the room's broker and takes in the tables'
messages (its intake); it inherits this class, which holds what the Director does with them and
what the pages read: ``snapshot``, ``changes``, ``view``, ``subscribe``, the results, the
settings, a new session, the desk, the calls and the commands to the tables.

With the Director's session (``tablectl console --session FILE``, a TOML session file:
``controller.fieldscore.session``) each result is put to the pairs the movement seats at that
table for that board, and the movement is checked (a board out of its round, Law 15); without
one, each table's own ``pairs`` stand. ``results`` is the session scored so far (the exports of
``web_ui.console_results``), ``scorecard`` a pair's.

The Director's settings (``settings``: what the players see of the results, the session ended,
the round clock) are kept in ``console.sqlite`` too. After every change, and every few seconds
for the round clock, each table is sent what its players may see (``controller.room.players``)
on its ``results`` topic, retained (only when it changed): the table's results page shows it.
The same message says which boards the players may see anything of (``released``:
``controller.room.release``) and carries the Director's answer to the table's call (``director``).

A Director's call taken on one console of an event (on my way, the table opened) goes to the other
in this console's acknowledgement of that table (``directors``: call -> who, ``Console._publish_ack``),
which crosses the bridge both ways (``_claimed_there``): the head Director sees "Anna is on the way"
to a call of room A, and room A's Directors see the head Director's.

A new session starts clean, the old one kept (``tablectl.room.sessions``): ``new_session``, or
at start when the session file changed or the store is last session's.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import paho.mqtt.client as mqtt

from controller.deal import Deal
from controller.fieldscore.model import EventScore
from controller.fieldscore.session import Session
from controller.room.adjustments import DeskEntry
from controller.room.clock import RoundClock
from controller.room.console import OPEN_CALLS_PER_TABLE, Call, Room, Stream
from controller.room.players import PlayerSettings
from tablectl.room.address import valid_name
from tablectl.room.alert_lane import LANE_LATE, AlertLane
from tablectl.room.commands import command
from tablectl.room.console_desk import DeskStore, absent_kept, adjust_kept, desk_json
from tablectl.room.console_people import People
from tablectl.room.console_push import RESULTS_EVERY, CallsStream, Journal, ResultsStream
from tablectl.room.console_store import ConsoleStore
from tablectl.room.deskpush import publish_to_tables
from tablectl.room.directors import CLUB_DIRECTOR
from tablectl.room.link import VIEW_SECONDS, iso
from tablectl.room.sessions import archive, archive_path, archives, read_archive, session_key

__all__ = ["ConsoleSession"]

log = logging.getLogger("tablectl.room.console")
"""The console's log: one for its link and its session (``tablectl.room.console``)."""

_VIEW_ASK_AGAIN = 5.0
"""Seconds before a table that has not sent its arbiter view yet is asked for it again."""

Json = dict[str, Any]


class ConsoleSession:
    """The console's session and desk (module doc): a part of ``tablectl.room.console.Console``,
    which sets every attribute below (``Console.__init__``) and links it to the room."""

    club: str
    session: Session | None
    room: Room
    store: ConsoleStore
    desk_store: DeskStore
    people: People
    version: int
    dropped: int
    unreadable: int
    store_error: str | None
    other_console: Json | None
    _wall: Callable[[], float]
    _lock: threading.Lock
    _changed: threading.Condition
    _queue: queue.SimpleQueue[tuple[str, bytes, float, bool] | None]
    _client: mqtt.Client
    _connected: bool
    _lost_since: float | None
    _lost_reason: str
    _lane: AlertLane
    _subscribers: tuple[Callable[[Json], None], ...]
    _journal: Journal
    _stream: ResultsStream
    _calls_stream: CallsStream
    _view_asked: dict[str, float]
    _published: dict[str, str]

    if TYPE_CHECKING:
        @property
        def conflicts(self) -> dict[str, Json]: ...  # the intake's (``Console``)

        def _publish_ack(self, table: str, session: str, seq: int) -> None: ...  # the intake's

    # -- the session: begun anew, the one before kept, its settings restored -------------------------

    def _seed_archived_streams(self) -> None:
        """The streams of the session before a new one, as far as they were acknowledged: their
        messages are not taken in again (``new_session``)."""
        seeded = self.store.settings().get("archived_streams")
        for item in seeded if isinstance(seeded, list) else []:
            with contextlib.suppress(ValueError, TypeError):
                table, session, acked = item
                self.room.streams[(str(table), str(session))] = Stream(int(acked))

    def new_session(self) -> Json:
        """The Director starts a new session: the old one kept (``tablectl.room.sessions``), the
        console empty, every table sent empty results."""
        self._begin_new("the Director started a new session")
        self._queue.put(("", b"", self._wall(), False))
        self._notify()
        return self.settings()

    def archives(self) -> list[Json]:
        """The sessions kept (``tablectl.room.sessions.archives``)."""
        return archives(self.store.path.parent)

    def archived(self, name: str) -> Json | None:
        """A kept session's ranking and travellers (None: no such session)."""
        path = archive_path(self.store.path.parent, name)
        return None if path is None else read_archive(path, self.club, self.session)

    def _begin_new(self, why: str) -> None:
        with self._lock:
            old = self.room
            streams = [[t, s, st.acked] for (t, s), st in old.streams.items()]
            path = self.store.path
            self.store.close()
            kept = archive(path, self._wall())
            self.store = ConsoleStore(path)
            self.desk_store = DeskStore(path)  # the new session's desk: empty (the old one is in the archive)
            self.people.reopen(path)  # the new session's pairs: none named yet (the roster stays)
            self.store.set("session_key", session_key(self.session))
            self.store.set("archived_streams", streams)
            self.store.set("players", old.players.as_json())
            self.room = Room(self.club, session=self.session)
            self.room.set_players(old.players)
            for (t, s), st in old.streams.items():
                self.room.streams[(t, s)] = Stream(st.acked)
            for table, tile in old.tiles.items():  # the tables as they are now (their tiles), nothing of the session
                self.room.tiles[table] = tile
            self._published.clear()
            self._journal.clear()
            self._bump(None)
        log.warning("console: a new session starts (%s); the previous one is kept in %s", why, kept)

    def _restore_settings(self) -> None:
        kept = self.store.settings()
        with contextlib.suppress(ValueError, TypeError, KeyError):
            players = kept.get("players")
            if isinstance(players, dict):
                self.room.set_players(PlayerSettings(bool(players["travellers"]), str(players["ranking"])))
        ended_at = kept.get("ended_at")
        self.room.end_session(kept.get("ended") is True,
                              float(ended_at) if isinstance(ended_at, int | float) else None)
        released = kept.get("released")
        if isinstance(released, list):
            self.room.released_boards = {str(b) for b in released}
        clock = kept.get("clock")
        if isinstance(clock, dict) and self.room.clock is not None:
            with contextlib.suppress(ValueError, TypeError, KeyError):
                self.room.start_round(float(clock["started"]), int(clock["first"]))

    # -- the players' results ----------------------------------------------------------------------

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
        publish_to_tables(self)  # the Director's corrections and the roster, to the tables (tablectl.room.deskpush)
        if changed:  # e.g. the Director's minute to undo the session's end is over: the page shows it
            self._notify()

    # -- what the pages use ---------------------------------------------------------------------------

    def snapshot(self) -> Json:
        """The room for the page, with what the console itself must tell the Director: messages it
        refused (``refused``), its file found damaged at start or failing (``store``), two tables with
        one id (``conflicts``), another console (``other_console``)."""
        with self._lock:
            out = self.room.snapshot(self._wall())
            out["version"] = self.version
            out.update(self._console_fields())
            out["names"] = self.people.names()
        out["connected"] = self._connected
        out["broker"] = self.broker()
        return out

    def _bump(self, tables: Iterable[str] | None) -> None:
        """A new version (under the lock): ``tables``' tiles changed (None: any might have)."""
        self.version += 1
        self._journal.add(self.version, tables, self.room.results.changes, self.room.alerts_count)

    def changes(self, since: int) -> Json | None:
        """What changed since version ``since``, for the page (``{"kind": "delta", "base", "version",
        ...}``: ``tablectl.room.console_push``, ``controller.room.console.Room.changes``); None when
        the console no longer knows (the page is sent the whole room: ``snapshot``)."""
        with self._lock:
            found = self._journal.since(since, self.room.results.changes, self.room.alerts_count)
            if found is None:
                return None
            tables = None if found.tables is None else set(found.tables)
            was_deferred = self._stream.deferred
            results = self._stream.due(found.results, since, time.monotonic())
            if self._stream.deferred and not was_deferred:  # they go with the next push, or on their own
                timer = threading.Timer(RESULTS_EVERY, self._notify)
                timer.daemon = True
                timer.start()
            out = self.room.changes(self._wall(), tables, results, found.alerts)
            out.update(self._console_fields())
            out["full"] = tables is None
            if tables is None:  # a pair named, a substitute seated (``people_changed``) is a full push
                out["names"] = self.people.names()
            version = self.version  # what this push brings the page to: the console thread may bump it next
        # Outside the lock, which the console thread takes to raise an alarm: the results as they stood
        # (``results_view``: values nobody changes, each board's made only when it changed) written as
        # the boards and ranking rows that moved since the last push (the pushes are one after the other:
        # ``web_ui.console``; ``out`` is made of new containers).
        self._stream.narrow(out, since, version)
        self._calls_stream.narrow(out, since, version)
        out["connected"] = self._connected
        out["broker"] = self.broker()
        return {"kind": "delta", "base": since, "version": version, **out}

    def _console_fields(self) -> Json:
        count, recent = self.store.refused(10)
        return {"refused": {"count": count, "recent": recent, "dropped": self.dropped},
                "store": {"damaged": None if self.store.damaged is None else self.store.damaged.as_json(),
                          "unreadable": self.unreadable, "error": self.store_error},
                "conflicts": list(self.conflicts.values()), "other_console": self.other_console}

    def broker(self) -> Json:
        """Whether the console has the room's broker: ``{"connected", "since", "text"}``, ``text``
        naming the cause and since when (the tables' tiles say nothing while it is lost)."""
        since = self._lost_since
        if self._connected or since is None:
            return {"connected": True, "since": None, "text": None, "alerts": self._alerts_late()}
        at = time.strftime("%H:%M", time.localtime(since))
        return {"connected": False, "since": since, "reason": self._lost_reason,
                "text": f"The room's broker is unreachable since {at} ({self._lost_reason}): no table can reach you, "
                        "and nothing you send reaches a table. Check the room machine and its network."}

    def _alerts_late(self) -> Json | None:
        """The alert lane away for ``LANE_LATE`` seconds or more while the main connection is up:
        ``{"since", "text"}`` (None: the alerts come as they should)."""
        since = self._lane.lost_since
        if since is None or self._wall() - since < LANE_LATE:
            return None
        at = time.strftime("%H:%M", time.localtime(since))
        return {"since": since,
                "text": f"The tables' alerts are held up since {at}: the console's line for them is reconnecting. "
                        "Irregularities and calls for you wait at the room's broker and arrive when it is back; "
                        "the tables' tiles keep coming. Walk the room meanwhile."}

    def view(self, table: str) -> Json | None:
        """The table's arbiter view as it last sent it (None: none yet). A table that sends it on
        demand is asked for it (again, when the Director has had it open for half its time)."""
        with self._lock:
            view = self.room.view(table)
        self._ask_view(table, again=view is not None)
        return view

    def _ask_view(self, table: str, *, again: bool = False) -> None:
        """Ask ``table`` for its arbiter view (``tablectl.room.link``'s ``view`` command) when it
        sends it on demand: once per ``VIEW_SECONDS / 2`` while the Director has it open, or
        now when ``again`` is False and the last ask is a few seconds old."""
        with self._lock:
            tile = self.room.tiles.get(table)
            if tile is None or not (tile.state or {}).get("view_on_demand") or not tile.online:
                return
            now = self._wall()
            asked = self._view_asked.get(table, 0.0)
            if now - asked < (VIEW_SECONDS / 2 if again else _VIEW_ASK_AGAIN):
                return
            self._view_asked[table] = now
        message = {"v": 1, "club": self.club, "table": table, "time": iso(now), "command": "view",
                   "seconds": VIEW_SECONDS}
        self._client.publish(f"bridge/{self.club}/table/{table}/command", json.dumps(message), qos=1)

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
            now = self._wall()
            return {"players": self.room.players.as_json(), "ended": self.room.ended,
                    "undo_left": self.room.undo_left(now), "over": self.room.session_over(now),
                    "released": sorted(self.room.released_boards),
                    "clock": None if clock is None else clock.as_json(self._wall())}

    def set_players(self, travellers: bool, ranking: str) -> Json:
        """The Director's two settings for the players' results page (ValueError for a bad one)."""
        settings = PlayerSettings(travellers, ranking)
        with self._lock:
            self.room.set_players(settings)
            self.store.set("players", settings.as_json())
        return self._changed_settings()

    def end_session(self, ended: bool = True) -> Json:
        """The Director ends the session (or takes it back): the tables see it a minute later
        (``controller.room.console.UNDO_SECONDS``), unless he takes it back meanwhile."""
        with self._lock:
            now = self._wall()
            self.room.end_session(ended, now)
            self.store.set("ended", ended)
            self.store.set("ended_at", now if ended else None)
        return self._changed_settings()

    def release(self, board: str, released: bool = True) -> Json:
        """The Director releases ``board`` to the players (or takes it back) before every table has played it."""
        with self._lock:
            self.room.release(board, released)
            self.store.set("released", sorted(self.room.released_boards))
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
            self._bump(None)
        self._queue.put(("", b"", self._wall(), False))  # the console thread sends the players' results
        self._notify()
        return self.settings()

    # -- the Director's desk (tablectl.room.console_desk) -------------------------------------------------

    def desk(self) -> Json:
        """The Director's corrections and adjusted scores, oldest first."""
        with self._lock:
            return desk_json(self.room.results, self.room.desk_answers)

    def adjust(self, entry: DeskEntry) -> Json:
        """Make and keep the Director's ``entry`` (``by``: who), made now; the scores follow, the players
        are told (DeskError: refused, nothing changed)."""
        with self._lock:
            made = adjust_kept(self.room.results, self.desk_store, entry, self._wall())
            self.store.act(made.at, made.by, "desk", made.table or None, None,
                           {"entry": made.id, "entry_kind": made.kind, "board": made.board, "reason": made.reason})
            self._bump(())
        self._queue.put(("", b"", self._wall(), False))  # the console thread sends the players' results
        self._notify()
        return made.as_json()

    def absent(self, section: str | None, pair: str, rounds: range, by: str, reason: str) -> Json:
        """A pair late or gone for ``rounds`` (``tablectl.room.console_desk.absent_kept``; DeskError:
        nothing changed)."""
        with self._lock:
            made = absent_kept(self.room.results, self.desk_store, section, pair, rounds, by, reason, self._wall())
        self.people_changed()
        return {"entries": [e.as_json() for e in made]}

    def people_changed(self) -> None:
        """A pair named or a substitute seated: the pages show the names."""
        self._changed_settings()

    def opened(self, table: str, by: str = CLUB_DIRECTOR) -> None:
        """Director ``by`` opened ``table``: its calls are being ruled (theirs, when nobody was on
        the way), its arbiter view is asked for."""
        with self._lock:
            self._view_asked.pop(table, None)
            now = self._wall()
            taken = [c.key for c in self.room.calls.values() if c.table == table and c.state != "resolved"
                     and c.by is None]
            self.room.opened(table, now, by)
            for call in self.room.calls.values():
                if call.table == table and call.state == "being_ruled":
                    self.store.mark(call.key, call.state, now)
            for key in taken:
                self.store.act(now, by, "opened", table, None, {"key": key})
            self._bump((table,))
        self._ask_view(table)
        if taken:
            self._tell_other_console(table)
        self._notify()

    def mark(self, key: str, state: str, by: str = CLUB_DIRECTOR, take_over: bool = False) -> Call:
        """Director ``by`` moves a call on (KeyError, ValueError: ``Room.mark``: another Director is on
        the way, unless ``take_over``); the answer goes to the table with its players' results
        (``director``: its page shows it), every Director's page shows who is on the way."""
        with self._lock:
            now = self._wall()
            call = self.room.mark(key, state, now, by, take_over)
            self.store.mark(key, state, now)
            if state in ("acknowledged", "resolved"):
                self.store.act(now, by, "on_my_way" if state == "acknowledged" else "done", call.table, None,
                               {"key": key, "what": call.what, "board": call.board})
            self._bump((call.table,))
        self._queue.put(("", b"", self._wall(), False))  # the console thread sends the answer to the table
        self._tell_other_console(call.table)
        self._notify()
        return call

    def _tell_other_console(self, table: str) -> None:
        """Acknowledge ``table`` again, now with who took its calls (``Console._publish_ack``): the other
        console of an event (the head's, a room's) shows it."""
        with self._lock:
            ack = self.room.acknowledged(table)
        if ack is not None and self._connected:
            self._publish_ack(table, *ack)

    def _claimed_there(self, topic: str, payload: bytes) -> str | None:
        """The calls of a table that a Director took on the other console (its acknowledgement's
        ``directors``: call -> who, ``_publish_ack``): taken here too, so that both consoles show
        who is on the way. The table, when something changed (under the lock)."""
        table = topic.rsplit("/", 1)[-1]
        try:
            directors = json.loads(payload).get("directors")
        except (ValueError, AttributeError, TypeError, RecursionError):
            return None
        if not isinstance(directors, dict):
            return None
        changed = False
        for key, who in list(directors.items())[:OPEN_CALLS_PER_TABLE]:
            call = self.room.calls.get(key) if isinstance(key, str) else None
            if call is None or call.table != table or call.state == "resolved" or not isinstance(who, str):
                continue
            if call.by != who[:40]:
                call.by = who[:40]
                call.state = "acknowledged" if call.state == "called" else call.state
                changed = True
        return table if changed else None

    def send(self, table: str, kind: str, body: Json, by: str = CLUB_DIRECTOR) -> str:
        """Publish a command of Director ``by`` to ``table``; returns its ref (the table's answer names
        it). The command names the Director (``director``, beside the ruling: the table reads only its
        ruling); ``ruled`` keeps the act with its answer."""
        ref = f"c-{secrets.token_hex(6)}"
        message = {**command(self.club, table, ref, kind, body, iso(self._wall())), "director": by}
        info = self._client.publish(f"bridge/{self.club}/table/{table}/command", json.dumps(message), qos=1)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            raise ConnectionError("the room's broker cannot be reached: the command was not sent")
        with self._lock:
            for call in self.room.calls.values():
                if call.table == table and call.state in ("called", "acknowledged"):
                    call.state = "being_ruled"
                    if call.by is None:
                        call.by = by
        return ref

    def ruled(self, by: str, kind: str, table: str, ref: str | None, body: Json, outcome: str) -> None:
        """Keep Director ``by``'s ruling or action at ``table`` (``kind``), with how it ended."""
        with self._lock:
            self.store.act(self._wall(), by, kind, table, ref, body, outcome)
            self._bump((table,))
        self._notify()

    def acts(self, tables: frozenset[str] | None = None, limit: int = 200) -> list[Json]:
        """Who did what (``ConsoleStore.acts``), newest first: of ``tables`` only, when given."""
        with self._lock:
            return self.store.acts(limit, tables)

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
            self._subscribers = (*self._subscribers, callback)

        def unsubscribe() -> None:
            with self._lock:
                self._subscribers = tuple(c for c in self._subscribers if c is not callback)
        return unsubscribe

    def _notify(self) -> None:
        self._emit({"kind": "changed", "version": self.version})

    def _emit(self, message: Json) -> None:
        # a tuple replaced whole (``subscribe``): read without the console's lock, which a page's push may
        # hold while it takes the room's changes; an alarm never waits for it
        for callback in self._subscribers:
            try:
                callback(message)
            except Exception:
                log.exception("a console subscriber failed")
