"""The room as the Director's console knows it: a fold over the tables' messages.

``Room.receive(topic_kind, table, body, now)`` takes one message of a table (its envelope
and body, already decoded) and returns what changed. It drops a ``(table, session, seq)`` it
holds (the link publishes again after every outage: docs/room-protocol.md, nothing doubled), keeps
for each table and session the highest ``seq`` it holds with nothing missing before it
(``acknowledged``: every outbox message names the one before it in ``prev``), and keeps:

* a **tile** per table: its latest ``state`` (board, phase, contract, tricks, open
  irregularities), whether it is online (its last will says when it is not), and a colour;
* the **calls**: every irregularity that needs the Director and every press of a table's
  call button, oldest first, each ``called``, ``acknowledged`` (the Director is on his way),
  ``being_ruled`` (he opened it, or sent a ruling) or ``resolved``;
* the **travellers**: per board, every table's result as it arrives, put to its pairs, and the
  field scored live: each board's points, the ranking, a pair's scorecard
  (``controller.room.results``, with the Director's session when the console has it);
* the boards checked across the room: the same board with different deals at two tables
  (Law 87, a fouled board) or a board played in a round the movement does not give it (Law
  15) is a call on the queue (``origin`` ``room``) and an alarm;
* the recent alerts, newest last;
* with the Director's session, the **round clock** (``controller.room.clock``: he starts it when
  he calls a round) and the tables **late** for a round whose time is up;
* what the **players** may see of the results (``controller.room.players``: the Director's
  two settings, whether the session is over, the boards **released**: ``controller.room.release``),
  one message per table (``for_players``), with the Director's **answer** to the table's call
  (on my way, done: the table's page shows it).

Nothing that needs the Director goes quiet by itself: a table whose state says it awaits a
ruling stays an ``irregularity`` tile until the table itself has applied one ("Done" is refused
meanwhile); a table gone with a board in play or a call open is ``lost`` and an alarm; the
session's end reaches the players only ``UNDO_SECONDS`` after the Director ends it.

The state is the console thread's own (plain mutable objects, never shared); its output,
``snapshot()``, is plain JSON for the page.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from controller.fieldscore.session import Session
from controller.room.clock import Late, RoundClock, late_tables
from controller.room.players import PlayerSettings, for_table, session_complete
from controller.room.release import Released, released
from controller.room.results import RoomAlert, RoomResults, table_order
from controller.room.tiles import (
    CALL_STATES,
    OPEN_CALLS_PER_TABLE,
    Call,
    Stream,
    Tile,
    awaits_ruling,
    in_play,
    open_by_table,
    tile_colour,
)

__all__ = ["OPEN_CALLS_PER_TABLE", "Call", "Received", "Room", "Stream", "tile_colour"]

Json = dict[str, Any]

_REPLIES_KEPT = 500
"""Answers to the console's commands kept (the oldest go first)."""
_RESOLVED_KEEP = 20
"""Resolved calls kept on the queue (the latest), so the Director sees what was just dealt with."""
UNDO_SECONDS = 60.0
"""The Director may take back "End the session" for this long: the tables see the end only after it."""
SESSIONS_KEPT = 16
"""Sessions of one table whose streams the console follows (a table has one a night)."""


@dataclass(frozen=True, slots=True)
class Received:
    """What one message did: ``new`` (False: a duplicate, dropped), whether the Director must be
    alarmed now (``alarm``: the plain-words banner), and the tables whose tile changed."""

    new: bool
    alarm: str | None = None
    tables: tuple[str, ...] = ()


_order = table_order


class Room:
    """The room (module doc). ``now`` is wall-clock seconds (the console's clock, injected);
    ``session`` the Director's session (its movement puts each result to its pairs)."""

    def __init__(self, club: str, alerts_kept: int = 200, session: Session | None = None) -> None:
        self.club = club
        self.tiles: dict[str, Tile] = {}
        self.streams: dict[tuple[str, str], Stream] = {}
        self.calls: dict[str, Call] = {}
        self.results = RoomResults(session, session.name if session is not None else club)
        self.alerts: deque[Json] = deque(maxlen=alerts_kept)
        self.alerts_count = 0
        """Alerts received since the start (the page asks for those after the ones it has)."""
        self.replies: dict[str, Json] = {}
        self.clock = None if session is None else RoundClock(session.minutes_per_round, session.rounds)
        self.players = PlayerSettings()
        self.ended = False
        """The Director has ended the session (``end_session``)."""
        self.ended_at: float | None = None
        """When he ended it: the tables see the end ``UNDO_SECONDS`` later (he may take it back meanwhile)."""
        self.released_boards: set[str] = set()
        """The boards the Director released to the players himself (``controller.room.release``)."""
        self.answers: dict[str, Json] = {}
        """table -> the Director's latest answer to its call (``on_my_way`` or ``done``), for its page."""
        self.desk_answers: dict[tuple[str, int], Json] = {}
        """(table, entry) -> the table's answer to a correction sent to its log (``controller.room.deskmsg``):
        ``accepted``, the table's ``reason`` for a refusal, and when, for the desk."""
        self.folded: dict[str, int] = {}
        """table -> calls it made past ``OPEN_CALLS_PER_TABLE`` (counted, not queued)."""
        self._complete: tuple[RoomResults, int, bool] | None = None  # session_over's, at results.changes
        self._released: tuple[RoomResults, tuple[int, bool, frozenset[str]], Released] | None = None

    @property
    def travellers(self) -> dict[str, dict[str, Json]]:
        """board -> table -> the result entry, as received."""
        return self.results.results

    # -- receiving --------------------------------------------------------------------------------

    def tile(self, table: str) -> Tile:
        tile = self.tiles.get(table)
        if tile is None:
            tile = self.tiles[table] = Tile(table)
        return tile

    def receive(self, kind: str, table: str, msg: Json, now: float) -> Received:
        """Take one message of ``table`` (``kind``: state, event, alert, result); see the module doc."""
        tile = self.tile(table)
        tile.seen = now
        if kind == "state":
            return self._state(tile, msg, now)
        session = str(msg.get("session", ""))
        seq, prev = int(msg.get("seq", 0)), int(msg.get("prev", 0))
        stream = self.streams.get((table, session))
        if stream is None:
            stream = self._new_stream(table, session)
        if not stream.take(seq, prev):
            return Received(False)
        if kind == "alert":
            return self._alert(tile, msg, now)
        if kind == "result":
            return self._result(tile, msg, now)
        return Received(True, tables=(table,))

    def _new_stream(self, table: str, session: str) -> Stream:
        """A table session's stream; past ``SESSIONS_KEPT`` of one table the oldest other is forgotten."""
        mine = [k for k in self.streams if k[0] == table and k[1] != self.tile(table).session]
        if len(mine) >= SESSIONS_KEPT:
            del self.streams[mine[0]]
        stream = self.streams[(table, session)] = Stream()
        return stream

    def _state(self, tile: Tile, msg: Json, now: float) -> Received:
        body = msg.get("body", msg)
        body = body if isinstance(body, dict) else {}
        online = bool(msg.get("online", body.get("online", False)))
        was_online = tile.online
        tile.online = online
        alarm = None
        if was_online and not online and (in_play(tile) or awaits_ruling(tile) or self._open(tile.table)):
            board = (tile.state or {}).get("board")
            alarm = (f"Table {tile.table} went offline" + (f" during board {board}" if board is not None else "")
                     + ": a power cut or a pulled cable? Go and see")
        if online:
            tile.state = {**body, "online": True, "session": msg.get("session"), "seq": msg.get("seq")}
            tile.session = str(msg.get("session", tile.session or ""))
            tile.state_time = _time(msg)
            alarm = self._found(self.results.state(tile.table, body), _time(msg) or now)
        elif tile.state is not None:
            tile.state = {**tile.state, "online": False}
        return Received(True, alarm, tables=(tile.table,))

    def _alert(self, tile: Tile, msg: Json, now: float) -> Received:
        body = msg.get("body", msg)
        self.alerts.append({"table": tile.table, **body, "time": msg.get("time")})
        self.alerts_count += 1
        what = str(body.get("what", body.get("alert", "")))
        since = _time(msg) or now
        kind = body.get("alert")
        alarm: str | None = None
        session = str(msg.get("session", ""))
        full = len(self._open(tile.table)) >= OPEN_CALLS_PER_TABLE
        if kind == "irregularity":
            key = f"{tile.table}/{session}/irr/{body.get('id')}"
            call = self.calls.get(key)
            if body.get("event") == "raised" and body.get("alarm") and call is None and full:
                self._fold(tile.table)
            elif body.get("event") == "raised" and body.get("alarm") and call is None:
                self.calls[key] = Call(key, tile.table, body.get("board"), what, since, irregularity=body.get("id"),
                                       seat=body.get("offender"), law=body.get("law"))
                alarm = f"Table {tile.table}: {what}" + (f" by {body['offender']}" if body.get("offender") else "")
            elif call is not None and body.get("event") in ("ruled", "closed"):
                self._resolve(call, now, _ruling_words(body))
        elif kind == "arbiter_called":
            pressed = [c for c in self._open(tile.table) if c.origin == "table" and c.irregularity is None
                       and "/call/" in c.key]
            if not pressed and not full:  # pressed again while called: the same call
                key = f"{tile.table}/{session}/call/{msg.get('seq')}"
                self.calls[key] = Call(key, tile.table, body.get("board"), what, since, seat=body.get("seat"))
                alarm = f"Table {tile.table}: {what}"
            elif not pressed:
                self._fold(tile.table)
        elif kind == "log_damaged":  # the table lost acknowledged inputs: the Director must know at once
            key = f"{tile.table}/{session}/log/{msg.get('seq')}"
            if full:
                self._fold(tile.table)
            else:
                self.calls[key] = Call(key, tile.table, body.get("board"), what, since)
            alarm = f"Table {tile.table}: {what}"
        elif kind == "arbiter_call_cleared":
            for call in self._open(tile.table):
                if call.irregularity is None and call.origin == "table":
                    self._resolve(call, now, "new board")
        elif kind == "desk" and isinstance(body.get("entry"), int) and not isinstance(body.get("entry"), bool):
            self.desk_answers[(tile.table, body["entry"])] = {"accepted": body.get("accepted") is not False,
                                                              "reason": body.get("reason"), "at": since}
        elif kind == "command":
            ref = body.get("ref")
            if isinstance(ref, str):
                self.replies[ref] = body
                while len(self.replies) > _REPLIES_KEPT:
                    del self.replies[next(iter(self.replies))]
        return Received(True, alarm, (tile.table,))

    def _result(self, tile: Tile, msg: Json, now: float) -> Received:
        body = msg.get("body", msg)
        alarm = self._found(self.results.result(tile.table, body), _time(msg) or now)
        return Received(True, alarm, tables=(tile.table,))

    def _fold(self, table: str) -> None:
        self.folded[table] = self.folded.get(table, 0) + 1

    def _found(self, found: list[RoomAlert], since: float) -> str | None:
        """Queue a call for each new finding about the boards; the alarm's words (None: nothing new)."""
        words = []
        for alert in found:
            if alert.key in self.calls:
                continue
            if len(self._open(alert.table)) >= OPEN_CALLS_PER_TABLE:
                self._fold(alert.table)
                continue
            self.calls[alert.key] = Call(alert.key, alert.table, alert.board, alert.what, since, law=alert.law,
                                         origin="room")
            words.append(alert.what)
        return "; ".join(words) if words else None

    # -- the Director's acts -------------------------------------------------------------------------

    def _open(self, table: str) -> list[Call]:
        return [c for c in self.calls.values() if c.table == table and c.state != "resolved"]

    def _resolve(self, call: Call, now: float, outcome: str) -> None:
        call.state = "resolved"
        call.resolved_at = now
        call.outcome = outcome
        resolved = sorted((c for c in self.calls.values() if c.state == "resolved"),
                          key=lambda c: c.resolved_at or 0.0)
        for old in resolved[:-_RESOLVED_KEEP]:
            del self.calls[old.key]

    def mark(self, key: str, state: str, now: float, by: str | None = None, take_over: bool = False) -> Call:
        """Director ``by`` moves a call on: ``acknowledged`` (on my way: the call is theirs),
        ``being_ruled`` or ``resolved`` (KeyError for an unknown call, ValueError for an unknown
        state, or for a call another Director is on the way to, unless ``take_over``)."""
        if state not in CALL_STATES[1:]:
            raise ValueError(f"a call can be marked {', '.join(CALL_STATES[1:])}, not {state!r}")
        call = self.calls[key]
        if state == "resolved" and call.irregularity is not None and self._awaiting(call):
            raise ValueError(f"table {call.table} still waits for your ruling on {call.what}: open the table and "
                             "rule; the call closes when the table has applied it")
        if (state == "acknowledged" and not take_over and call.state != "resolved" and call.by is not None
                and by is not None and call.by != by):
            raise ValueError(f"{call.by} is on the way to table {call.table} already")
        if state == "resolved":
            if call.state != "resolved":
                call.resolved_by = by
            self._resolve(call, now, "resolved by the Director" if by is None else f"resolved by {by}")
        elif call.state != "resolved":
            if CALL_STATES.index(state) > CALL_STATES.index(call.state):
                call.state = state
            if by is not None and (state == "acknowledged" or call.by is None):
                call.by = by
        if call.origin == "table" and state in ("acknowledged", "resolved"):
            self.answers[call.table] = {"answer": "on_my_way" if state == "acknowledged" else "done",
                                        "seat": call.seat, "board": call.board, "irregularity": call.irregularity,
                                        "what": call.what, "at": now, "by": by}
        return call

    def _awaiting(self, call: Call) -> bool:
        """The table's latest state still lists ``call``'s irregularity as awaiting a ruling."""
        tile = self.tiles.get(call.table)
        awaiting = (tile.state or {}).get("awaiting") if tile is not None else None
        return isinstance(awaiting, list) and any(isinstance(i, dict) and i.get("id") == call.irregularity
                                                  for i in awaiting)

    def opened(self, table: str, now: float, by: str | None = None) -> None:
        """Director ``by`` opened a table: its acknowledged or new calls are being ruled (theirs when
        nobody was on the way)."""
        for call in self._open(table):
            call.state = "being_ruled"
            if call.by is None:
                call.by = by

    def start_round(self, now: float, round_: int) -> RoundClock:
        """The Director calls round ``round_``: the clock runs from ``now`` (ValueError without a
        session, or for a round the session lacks)."""
        if self.clock is None:
            raise ValueError("the round clock needs the Director's session (tablectl console --session FILE)")
        self.clock = self.clock.start(now, round_)
        return self.clock

    def stop_clock(self) -> None:
        if self.clock is not None:
            self.clock = self.clock.stop()

    def set_players(self, settings: PlayerSettings) -> None:
        """The Director's settings for what the players see (``controller.room.players``)."""
        self.players = settings

    def end_session(self, ended: bool = True, now: float | None = None) -> None:
        """The Director ends the session at ``now`` (the players see every board they played, and the
        ranking if he publishes it at the end, ``UNDO_SECONDS`` later), or takes that back."""
        self.ended = ended
        self.ended_at = now if ended else None

    def undo_left(self, now: float) -> float | None:
        """Seconds left to take back the end of the session (None: not ended, or too late)."""
        if not self.ended or self.ended_at is None:
            return None
        left = self.ended_at + UNDO_SECONDS - now
        return left if left > 0 else None

    def session_over(self, now: float | None = None) -> bool:
        """The Director ended the session (and his minute to take it back is over, when ``now`` is
        given), or every table has played all its boards."""
        if self.ended and (now is None or self.undo_left(now) is None):
            return True
        known = self._complete
        if known is None or known[0] is not self.results or known[1] != self.results.changes:
            known = self._complete = (self.results, self.results.changes, session_complete(self.results))
        return known[2]  # read by every push: made again only when the results changed

    def release(self, board: str, released_: bool = True) -> None:
        """The Director releases ``board`` to the players (or takes it back)."""
        if released_:
            self.released_boards.add(str(board))
        else:
            self.released_boards.discard(str(board))

    def released(self, now: float) -> Released:
        """The boards the players may see anything of now (``controller.room.release``): made again
        only when the results, the session's end or the Director's releases changed (every push reads it)."""
        key = (self.results.changes, self.session_over(now), frozenset(self.released_boards))
        known = self._released
        if known is None or known[0] is not self.results or known[1] != key:
            known = self._released = (self.results, key, released(self.results, over=key[1], by_director=key[2]))
        return known[2]

    def _tables(self) -> list[str]:
        """Every table the console knows: those heard from, those with results, the session's."""
        names = set(self.tiles)
        for board in self.results.results.values():
            names.update(board)
        session = self.results.session
        if session is not None:
            for name, movement in session.sections:
                names.update(f"{name}{n}" for n in range(1, movement.tables + 1))
        return sorted(names, key=_order)

    def late(self, now: float) -> list[Late]:
        """The tables late for a round whose time is up (``controller.room.clock``)."""
        if self.clock is None or not self.clock.running:
            return []
        played: dict[str, int] = {}
        for board in self.results.scored().entries.values():  # a board the Director adjusted unplayed is done
            for table in board:
                played[table] = played.get(table, 0) + 1
        for table, tile in self.tiles.items():
            seen = (tile.state or {}).get("boards_played")
            if isinstance(seen, int) and seen > played.get(table, 0):
                played[table] = seen
        due = {t: d for t in self._tables() if (d := self.results.due_by_round(t))}
        return late_tables(self.clock, now, played, due)

    def for_players(self, now: float) -> dict[str, Json]:
        """Per table, what its players may see now (``controller.room.players.for_table``)."""
        ended = self.session_over(now)
        clock_round = None if self.clock is None else self.clock.round_at(now)
        travellers, ranking = self.results.travellers(), self.results.ranking()
        release = self.released(now)
        out = {}
        for t in self._tables():
            body = for_table(self.results, t, self.players, ended=ended, clock_round=clock_round,
                             travellers_now=travellers, ranking_now=ranking, release=release)
            body["director"] = self.answers.get(t)
            out[t] = body
        return out

    # -- output -----------------------------------------------------------------------------------

    def acknowledged(self, table: str) -> tuple[str, int] | None:
        """The session and highest seq held with no gap, for the table's current session."""
        tile = self.tiles.get(table)
        if tile is None or tile.session is None:
            sessions = [(k[1], s) for k, s in self.streams.items() if k[0] == table]
            if not sessions:
                return None
            session, stream = max(sessions, key=lambda kv: kv[1].acked)
            return session, stream.acked
        held = self.streams.get((table, tile.session))
        return tile.session, 0 if held is None else held.acked

    def snapshot(self, now: float) -> Json:
        """The whole room for the console page (JSON)."""
        calls = self._sorted_calls()
        late = self.late(now)
        late_at = {x.table for x in late}
        open_calls = open_by_table(calls)
        tiles = [self._tile_json(table, open_calls.get(table, []), table in late_at)
                 for table in sorted(self.tiles, key=_order)]
        return {"kind": "room", "club": self.club, "tiles": tiles, "calls": [c.as_json(now) for c in calls],
                "alerts": self._alerts(30), **self._results_json(), **self._header(now, late)}

    def changes(self, now: float, tables: set[str] | None, results: bool, alerts: int) -> Json:
        """What the page needs after a change (``delta``: applied to its snapshot): the tiles of
        ``tables`` (None: every tile) and of the tables late now, the calls, the ``alerts`` last
        alerts, and the small fields; when ``results`` changed, the results as they stand
        (``results_view``: a ``ResultsView`` of values nobody changes, made into the page's travellers,
        points and ranking outside the console's lock: ``tablectl.room.console_push.ResultsStream``)."""
        calls = self._sorted_calls()
        late = self.late(now)
        late_at = {x.table for x in late}
        names = set(self.tiles) if tables is None else (set(tables) | late_at) & set(self.tiles)
        open_calls = open_by_table(calls)
        out: Json = {"tiles": [self._tile_json(t, open_calls.get(t, []), t in late_at)
                               for t in sorted(names, key=_order)],
                     "calls": [c.as_json(now) for c in calls], "alerts": self._alerts(min(alerts, 30)),
                     **self._header(now, late)}
        if results:
            out["results_view"] = self.results.view()
        return out

    def _sorted_calls(self) -> list[Call]:
        return sorted(self.calls.values(), key=lambda c: (c.state == "resolved", c.since))

    def _tile_json(self, table: str, open_calls: list[Call], late: bool) -> Json:
        """The tile of ``table`` for the page; ``open_calls``: the table's calls not resolved (``open_by_table``:
        the room's calls are gone through once for all the tiles of a push, not once for each)."""
        tile = self.tiles[table]
        state = dict(tile.state or {})
        has_view = isinstance(state.pop("view", None), dict)
        return {"table": table, "online": tile.online, "colour": tile_colour(tile, open_calls, late),
                "state": state, "seen": tile.seen, "state_time": tile.state_time, "view": has_view,
                "calls": [c.key for c in open_calls],
                "oldest_call": min((c.since for c in open_calls), default=None)}

    def _alerts(self, count: int) -> list[Json]:
        if count <= 0:
            return []
        return [{k: a.get(k) for k in _ALERT_FIELDS if k in a} for a in list(self.alerts)[-count:]]

    def _results_json(self) -> Json:
        return self.results.view().as_json()

    def _header(self, now: float, late: list[Late]) -> Json:
        return {"now": now, "clock": None if self.clock is None else self.clock.as_json(now),
                "late": [x.as_json() for x in late], "players": self.players.as_json(),
                "ended": self.ended, "undo_left": self.undo_left(now), "over": self.session_over(now),
                "released": self.released(now).as_json(), "released_by_director": sorted(self.released_boards,
                                                                                          key=_order),
                "folded": dict(self.folded), "alerts_count": self.alerts_count}

    def scorecard(self, pair: str, section: str | None = None) -> Json:
        """``pair``'s session so far (``controller.room.results.RoomResults.scorecard``)."""
        return self.results.scorecard(pair, section)

    def view(self, table: str) -> Json | None:
        """The table's arbiter view as it last published it (None: nothing yet)."""
        tile = self.tiles.get(table)
        if tile is None or tile.state is None:
            return None
        view = tile.state.get("view")
        return view if isinstance(view, dict) else None


_ALERT_FIELDS = ("table", "alert", "event", "what", "id", "kind", "law", "offender", "status", "board", "seat",
                 "ref", "accepted", "reason", "alarm", "time")
"""What the page is sent of each recent alert (the whole record stays in the console's store)."""


def _time(msg: Json) -> float:
    value = msg.get("at")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _ruling_words(body: Json) -> str:
    ruling = body.get("ruling")
    status = body.get("status", "")
    if isinstance(ruling, dict) and ruling.get("option"):
        return f"{status}: {ruling['option'].replace('_', ' ')}"
    return str(status)
