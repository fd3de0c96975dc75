"""The club's roster and the session's pairs at the console: ``People`` (the Director's desk).

* The **roster** (``controller.room.roster``) is the club's, not a session's: it is kept in its
  own file beside the console's, ``roster.sqlite`` (table ``member``), and outlives every new
  session. An import replaces it in one transaction: all of it or nothing.
* The **seating** (who played for each pair, substitutes included) is the session's: kept in the
  console's file, ``console.sqlite`` (table ``seat``, one row per naming or substitution, in
  order), so it goes to the sessions kept with the rest of the session when a new one starts.

``People`` is the console's ``controller.records.people.Roll``: ``console.people.players(section,
pair, round_)`` gives the names the exports and pages write.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
from pathlib import Path
from typing import Any

from controller.fieldscore.session import Session
from controller.records.people import PairPlayers, Player
from controller.room.roster import Member, Roster, RosterError, Seat, Seating, Which, read_roster, section_key

__all__ = ["ROSTER_FILE", "People", "read_seating", "session_pairs"]

log = logging.getLogger(__name__)

Json = dict[str, Any]

ROSTER_FILE = "roster.sqlite"
_ROSTER_SCHEMA = ("CREATE TABLE IF NOT EXISTS member (key TEXT PRIMARY KEY, name TEXT NOT NULL, "
                  "federation_id TEXT NOT NULL, email TEXT NOT NULL, club TEXT NOT NULL)")
_SEAT_SCHEMA = "CREATE TABLE IF NOT EXISTS seat (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)"


def session_pairs(session: Session | None) -> list[Json]:
    """The pairs the Director's session expects: ``[{"section", "pair"}]`` (the phantom left out)."""
    if session is None:
        return []
    out = []
    for name, movement in session.sections:
        out += [{"section": section_key(name), "pair": p} for p in movement.participants]
    return out


def read_seating(store: Path) -> Seating:
    """The pairs' names kept in a console's file (a kept session's: read only; none in a file
    older than the names)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True)) as conn:
            rows = list(conn.execute("SELECT payload FROM seat ORDER BY id"))
    except sqlite3.Error:
        return Seating()
    seats: dict[tuple[str, str, int], Seat] = {}
    for (payload,) in rows:
        with contextlib.suppress(ValueError, TypeError, KeyError, AttributeError):
            seat = Seat.from_json(json.loads(payload))
            seats[(seat.section, seat.pair, seat.from_round)] = seat
    return Seating(tuple(seats.values()))


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None, timeout=10.0)
    conn.execute("PRAGMA journal_mode=WAL")
    return conn


class People:
    """The roster and the seating of the console (module doc). ``data_dir`` None: kept in memory
    only (a console without a store); ``store`` the console's file the seating is kept in."""

    def __init__(self, data_dir: Path | None, store: Path | None, session: Session | None = None) -> None:
        self._lock = threading.RLock()
        self.session = session
        """The session as played: the session file's, changed by the Director's movement changes
        (``tablectl.room.console_moves``); a new session starts from ``planned`` again."""
        self.planned = session
        self._roster_path = None if data_dir is None else Path(data_dir) / ROSTER_FILE
        self.roster = Roster()
        if self._roster_path is not None:
            self._roster_path.parent.mkdir(parents=True, exist_ok=True)
            self.roster = self._load_roster()
        self._store: Path | None = None
        self.seating = Seating()
        self.reopen(store)

    # -- keeping --------------------------------------------------------------------------------------

    def _load_roster(self) -> Roster:
        assert self._roster_path is not None
        with contextlib.closing(_connect(self._roster_path)) as conn:
            conn.execute(_ROSTER_SCHEMA)
            rows = list(conn.execute("SELECT name, federation_id, email, club FROM member"))
        members = []
        for name, fed, email, club in rows:
            with contextlib.suppress(ValueError, TypeError):
                members.append(Member(Player(str(name), str(fed)), str(email), str(club)))
        return Roster().merged(tuple(members))[0]

    def reopen(self, store: Path | None) -> None:
        """The seating kept in the console's file ``store`` (a new session's: none yet)."""
        with self._lock:
            self._store = store
            self.session = self.planned
            seats: list[Seat] = []
            if store is not None:
                with contextlib.closing(_connect(store)) as conn:
                    conn.execute(_SEAT_SCHEMA)
                    rows = list(conn.execute("SELECT id, payload FROM seat ORDER BY id"))
                for id_, payload in rows:
                    try:
                        seats.append(Seat.from_json(json.loads(payload)))
                    except (ValueError, TypeError, KeyError, AttributeError) as exc:
                        log.warning("console: seat %s cannot be read (%s): left out", id_, exc)
            by_key = {(s.section, s.pair, s.from_round): s for s in seats}  # a later naming replaces an earlier
            self.seating = Seating(tuple(by_key.values()))

    @property
    def store(self) -> Path | None:
        """The console's file the seating is kept in (None: in memory only)."""
        return self._store

    def _keep_seat(self, seat: Seat) -> None:
        if self._store is None:
            return
        try:
            with contextlib.closing(_connect(self._store)) as conn:
                conn.execute(_SEAT_SCHEMA)
                conn.execute("INSERT INTO seat (payload) VALUES (?)", (json.dumps(seat.as_json()),))
        except sqlite3.Error as exc:
            raise RosterError(f"the pair could not be kept in the console's store ({exc}): nothing changed") from None

    # -- the roster -------------------------------------------------------------------------------------

    def import_roster(self, text: str) -> Json:
        """Import a roster CSV file (``controller.room.roster.read_roster``): all of it or, with a
        bad line, nothing (RosterError naming every bad line)."""
        new = read_roster(text)
        with self._lock:
            merged, added, updated = self.roster.merged(new)
            if self._roster_path is not None:
                try:
                    with contextlib.closing(_connect(self._roster_path)) as conn:
                        conn.execute(_ROSTER_SCHEMA)
                        conn.execute("BEGIN")
                        try:
                            conn.execute("DELETE FROM member")
                            conn.executemany("INSERT INTO member VALUES (?, ?, ?, ?, ?)", [
                                (m.key, m.player.name, m.player.federation_id, m.email, m.club)
                                for m in merged.members])
                            conn.execute("COMMIT")
                        except BaseException:
                            conn.execute("ROLLBACK")
                            raise
                except sqlite3.Error as exc:
                    raise RosterError(f"the roster could not be kept ({exc}): nothing imported") from None
            self.roster = merged
        return {"added": added, "updated": updated, "members": len(merged.members)}

    def roster_json(self) -> Json:
        with self._lock:
            return self.roster.as_json()

    # -- the session's pairs ---------------------------------------------------------------------------------

    def _check_pair(self, section: str | None, pair: str) -> None:
        expected = session_pairs(self.session)
        if expected and {"section": section_key(section), "pair": pair.strip()} not in expected:
            where = f" in section {section}" if section_key(section) and len(self.session.sections) > 1 else ""  # type: ignore[union-attr]
            raise RosterError(f"the session has no pair {pair}{where}")

    def _check_round(self, round_: int) -> None:
        if self.session is not None and not 1 <= round_ <= self.session.rounds:
            raise RosterError(f"round {round_} is not a round of the session (1-{self.session.rounds})")

    def name_pair(self, section: str | None, pair: str, first: Player, second: Player) -> Json:
        """The Director names a pair's two players (North then South, or East then West) from the start."""
        self._check_pair(section, pair)
        with self._lock:
            seating = self.seating.named(section, pair, PairPlayers(first, second))
            self._keep_seat(seating.seats[-1])
            self.seating = seating
            return seating.seats[-1].as_json()

    def substitute(self, section: str | None, pair: str, from_round: int, which: Which, sub: Player) -> Json:
        """A substitute plays for one of the pair's players from ``from_round`` on (the pair keeps its score)."""
        self._check_pair(section, pair)
        self._check_round(from_round)
        with self._lock:
            seating = self.seating.substituted(section, pair, from_round, which, sub)
            self._keep_seat(seating.seats[-1])
            self.seating = seating
            return seating.seats[-1].as_json()

    def players(self, section: str | None, pair: str, round_: int | None = None) -> PairPlayers | None:
        """``controller.records.people.Roll``: the pair's players in ``round_`` (None: now)."""
        with self._lock:
            return self.seating.players(section, pair, round_)

    def names(self) -> dict[str, list[Json]]:
        """For the room's pages: ``"<section>|<pair>"`` -> the pair's names from each round."""
        with self._lock:
            return self.seating.names()

    def pairs_json(self) -> Json:
        """The session's pairs, each with its seats (``controller.room.roster.Seating.as_json``), and
        the pairs the session expects."""
        with self._lock:
            return {**self.seating.as_json(), "expected": session_pairs(self.session),
                    "rounds": None if self.session is None else self.session.rounds}
