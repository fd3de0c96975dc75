"""The console's catch-up (a part of ``tablectl.room.console.Console``): what it acknowledges, and what it
gives back or asks for again when a table or a room holds more than it does.

* ``_publish_ack``: the console's acknowledgement of a table's outbox (retained, per table), with who took
  each of the table's open calls here, so that the other consoles of an event show who is on the way.
* ``_send_restore``: a table whose log was damaged (its ``log_damaged`` alert) gets its own events back from
  this console's copy, in ``restore`` commands each under the table's command limit.
* ``_keep``: a batch kept, and the acknowledgements it makes, among them a gap's (a table asked to send again
  what follows what the console holds); ``_early_gap`` and ``_overdue_gaps``: with the alert lane, a message
  that came before the one it follows is a gap only once it has waited ``_LANE_GRACE``.
* ``_room_holds_more`` and ``_still_behind``: the head console of bridged rooms notices a room console that
  holds more of a table than it does (what a broker lost in a crash) and, after ``_BEHIND_WAIT`` seconds,
  asks that table to send again.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

import paho.mqtt.client as mqtt

from controller.room.console import Room
from tablectl.room.address import valid_name
from tablectl.room.alert_lane import AlertLane
from tablectl.room.console_store import ConsoleStore, Message, Refusal
from tablectl.room.link import COMMAND_LIMIT, iso

__all__ = ["ConsoleCatchUp"]

log = logging.getLogger("tablectl.room.console")
"""The console's log (``tablectl.room.console``)."""

_RESTORE_BYTES = COMMAND_LIMIT - 2048
"""Bytes of events in one ``restore`` command (the rest of it fits in what is left of the table's limit)."""
_PENDING_BYTES = 8 << 20
"""Bytes of one table's messages waiting for the console thread: past it that table's next
messages are dropped and, once its backlog is taken, it is asked to send them again (so that
no table's flood holds the console's memory or delays the others)."""
_BEHIND_WAIT = 3.0
"""Seconds the head console waits for what a room's console holds before it asks the table again."""
_LANE_GRACE = 3.0
"""Seconds a table's message that came before the one it follows waits for it before that is a gap
(the table asked to send again), when the alerts have a lane of their own: an alert overtakes the
event before it, still on its way on the main connection, by a few milliseconds, a second or two
when the whole room raises at once. On one connection a message cannot overtake: a gap at once."""

Json = dict[str, Any]


class ConsoleCatchUp:
    """Acknowledgements and catch-up (module doc): a part of ``tablectl.room.console.Console``, which sets
    every attribute below (``Console.__init__``)."""

    club: str
    instance: str
    room: Room
    store: ConsoleStore
    _ack_area: str
    _tokens: dict[str, str]
    _behind: dict[str, tuple[str, int, float]]
    _sent: deque[mqtt.MQTTMessageInfo]
    _client: mqtt.Client
    _lock: threading.Lock
    _wall: Callable[[], float]
    store_error: str | None
    _pending: dict[str, int]
    _pending_lock: threading.Lock
    _overflowed: set[str]
    _rewound: dict[str, int]
    _acks: dict[str, tuple[str, int]]
    _lane: AlertLane
    _early_since: dict[str, float]

    def _room_holds_more(self, topic: str, payload: bytes, now: float) -> None:
        """The head console's: a room console's acknowledgement on ``topic``. When it holds more of that
        table's session than this console does, the table goes in ``_behind`` (``_still_behind``)."""
        table = topic.rsplit("/", 1)[-1]
        try:
            ack = json.loads(payload)
            session, seq = ack["session"], ack["seq"]
        except (ValueError, KeyError, TypeError, RecursionError):
            return
        if not (valid_name(table) and isinstance(session, str) and valid_name(session) and type(seq) is int):
            return
        stream = self.room.streams.get((table, session))
        if seq > (0 if stream is None else stream.acked):
            earlier = self._behind.get(table)
            since = earlier[2] if earlier is not None and earlier[0] == session else now
            self._behind[table] = (session, max(seq, earlier[1] if earlier and earlier[0] == session else 0), since)

    def _still_behind(self, now: float) -> dict[str, str]:
        """The head console's: table -> session, for each table its room has held more of than this
        console for ``_BEHIND_WAIT`` seconds (what a broker lost: the table is asked again). Not at once:
        after a link's return the room's acknowledgements cross before what waited for the link."""
        asked: dict[str, str] = {}
        for table, (session, seq, since) in list(self._behind.items()):
            stream = self.room.streams.get((table, session))
            if seq <= (0 if stream is None else stream.acked):
                del self._behind[table]
            elif now - since >= _BEHIND_WAIT:
                del self._behind[table]
                asked[table] = session
        return asked

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
        """Acknowledge ``table``'s ``seq`` (``_publish_acks``). Never under the lock."""
        self._publish_acks({table: (session, seq)})

    def _publish_acks(self, acks: Mapping[str, tuple[str, int]]) -> None:
        """Acknowledge each table's ``(session, seq)`` of ``acks``; with who took each of its open calls
        here (``directors``: the other console of an event shows them too, ``_claimed_there``), the
        room's calls read once for all of them (500 tables acknowledged after a batch, 500 calls open).
        Never under the lock."""
        if not acks:
            return
        now = self._wall()
        directors: dict[str, dict[str, str]] = {table: {} for table in acks}
        with self._lock:
            for c in self.room.calls.values():
                if c.table in directors and c.state != "resolved" and c.by is not None:
                    directors[c.table][c.key] = c.by
        for table, (session, seq) in acks.items():
            body = {"v": 1, "club": self.club, "table": table, "session": session, "seq": seq,
                    "console": self._tokens.get(table, self.instance), "time": iso(now), "at": round(now, 3),
                    "directors": directors[table]}
            self._sent.append(self._client.publish(f"bridge/{self.club}/console/{self._ack_area}/{table}",
                                                   json.dumps(body), qos=1, retain=True))

    def _keep(self, kept: list[Message], states: dict[str, str], refused: list[Refusal],
              touched: set[str], rooms: dict[str, str] | None = None) -> dict[str, tuple[str, int]]:
        """Keep a batch in the store, and the acknowledgements to publish: none when it could not be
        kept (the tables send it all again after a restart), and for a table with a gap a new token
        that asks it to send again what follows what the console holds (``rooms``, the head console's:
        table -> the session its room's console holds more of)."""
        rooms = rooms or {}
        with self._lock:
            try:
                self.store.add(kept, states, refused)
            except Exception as exc:
                self.store_error = f"{type(exc).__name__}: {exc}"
                log.exception("console: %d message(s) could not be kept in %s; no table is acknowledged until "
                              "it can be", len(kept), self.store.path)
                return {}
            if self.store_error is not None:  # the file failed before: what it missed is not held
                return {}
            with self._pending_lock:
                drained = {t for t in self._overflowed if self._pending.get(t, 0) < _PENDING_BYTES // 2}
                self._overflowed -= drained
                waiting = set(self._pending)
            acks = {}
            for table in touched | drained:
                ack = self.room.acknowledged(table)
                if ack is None and table in rooms:  # the head console holds nothing of a table its room has
                    ack = (rooms[table], 0)
                if ack is None:
                    continue
                stream = self.room.streams.get((table, ack[0]))
                # an alert taken before the bulk it followed is no gap while that bulk still waits
                gap = (self._early_gap(table, stream is not None and bool(stream.early) and table not in waiting)
                       or table in drained or table in rooms)
                if gap and self._rewound.get(table) != ack[1]:
                    self._rewound[table] = ack[1]
                    self._tokens[table] = f"{self.instance}.{secrets.token_hex(3)}"
                    acks[table] = ack
                elif self._acks.get(table) != ack:
                    acks[table] = ack
                self._acks[table] = ack
            return acks

    def _early_gap(self, table: str, early: bool) -> bool:
        """Whether ``table``'s messages that came ``early`` (before the one they follow) are a gap: at once on
        one connection; with the alert lane, once they have waited ``_LANE_GRACE`` (``_overdue_gaps``)."""
        if not early:
            self._early_since.pop(table, None)
            return False
        if self._lane.refused is not None:
            return True
        since = self._early_since.setdefault(table, self._wall())
        return self._wall() - since >= _LANE_GRACE

    def _overdue_gaps(self) -> None:
        """The tables whose early messages have waited ``_LANE_GRACE``: asked to send again (``_keep``)."""
        if not self._early_since:
            return
        now = self._wall()
        overdue = {t for t, since in self._early_since.items() if now - since >= _LANE_GRACE}
        if overdue:
            self._publish_acks(self._keep([], {}, [], overdue))
            for table in overdue & set(self._early_since):  # still early: looked at again a grace later
                self._early_since[table] = now
