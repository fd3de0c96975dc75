"""The Director's description of a session, from a TOML file: its movement, sections and scoring.

A session file has one ``[session]`` table::

    [session]
    name = "Tuesday Pairs"
    movement = "mitchell"        # mitchell | howell | teams | round_robin | swiss
    tables = 8                   # mitchell, howell
    rounds = 7                   # default: as many as the movement allows
    boards_per_round = 3
    arrow_switch = [7]           # mitchell: rounds played the other way ("last": the last)
    sections = ["A", "B"]        # mitchell, howell: each section the same movement (or a count)
    pairs = 15                   # mitchell, howell: 2 x tables, or one fewer (a half table)
    first_board = 1
    scoring = "MP"               # pairs: MP, Butler, CrossIMP; teams: Teams
    matchpoints = "ebu"          # ebu (2 per pair beaten) or acbl (1)
    round_minutes = 22.5         # the time of a round, the move included (default 7.5 a board)
    awards = [60, 50, 40]        # average plus, average, average minus in % of a top (Law 12C2)
    award_imps = [3, 0, -3]      # the same in IMPs (Butler, cross-IMPs, teams)
    official = "field"           # sections playing the same boards: "field" (compared across the
                                 # field) or "section" ranks the event; both rankings are shown

Team movements name their teams: ``teams = 6`` (teams 1 to 6) or ``teams = ["Reds", "Blues"]``
(``teams`` for a two-room match: exactly two, by default "1" and "2"). A Swiss lists its
planned ``rounds``; its first round is paired by the teams' order, and each later one by
``Session.next_swiss_round`` from the scores so far.

Every mistake is a ``MovementError`` naming the file, the key and what is wrong with it:
an unknown key (with the known ones), a value of the wrong type, a count out of range.
"""

from __future__ import annotations

import datetime
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from controller.fieldscore.field import Official
from controller.fieldscore.model import Conventions, MatchpointScale, Scoring
from controller.fieldscore.movement import (
    Movement,
    MovementError,
    MovementKind,
    howell,
    mitchell,
    round_robin,
    swiss,
    swiss_next,
    team_match,
)

__all__ = ["Session", "load_session", "loads_session"]

_KEYS = {
    MovementKind.MITCHELL: {"tables", "rounds", "boards_per_round", "arrow_switch", "sections", "pairs"},
    MovementKind.HOWELL: {"tables", "rounds", "boards_per_round", "sections", "pairs"},
    MovementKind.TEAM_MATCH: {"teams", "rounds", "boards_per_round"},
    MovementKind.ROUND_ROBIN: {"teams", "rounds", "boards_per_round"},
    MovementKind.SWISS: {"teams", "rounds", "boards_per_round"},
}
_COMMON = {"name", "movement", "first_board", "scoring", "matchpoints", "date", "round_minutes", "awards",
           "award_imps", "official"}
MINUTES_PER_BOARD = 7.5
"""A round's time by default: this many minutes per board, the move included."""


@dataclass(frozen=True, slots=True)
class Session:
    """A session as the Director describes it: a movement per section (one section: ``""``)."""

    name: str
    kind: MovementKind
    scoring: Scoring
    sections: tuple[tuple[str, Movement], ...]
    rounds: int
    conventions: Conventions = field(default=Conventions())
    date: str | None = None
    round_minutes: float | None = None
    """The time of a round, the move included, as the session file says (None: not said)."""
    official: Official = Official.FIELD
    """Sections playing the same boards: the ranking that decides the event, across the field or
    in each section (``controller.fieldscore.field``); both are shown."""

    @property
    def minutes_per_round(self) -> float:
        """The time of a round in minutes: ``round_minutes``, else 7.5 a board."""
        if self.round_minutes is not None:
            return self.round_minutes
        return MINUTES_PER_BOARD * self.sections[0][1].boards_per_round

    @property
    def is_teams(self) -> bool:
        return self.kind.is_teams

    def movement(self, section: str | None = None) -> Movement:
        """The movement of ``section`` (of the only section when None)."""
        if section is None:
            if len(self.sections) > 1:
                raise MovementError(f"{self.name}: name a section ({', '.join(s for s, _ in self.sections)})")
            return self.sections[0][1]
        for name, movement in self.sections:
            if name == section:
                return movement
        raise MovementError(f"{self.name}: no section {section!r}")

    def who_played(self, board: int, section: str | None = None) -> list[tuple[int, int, str, str]]:
        """Where ``board`` is played in ``section``: (round, table, North-South, East-West)."""
        return self.movement(section).who_played(board)

    def next_swiss_round(self, scores: Mapping[str, float]) -> Session:
        """This Swiss with its next round paired from ``scores`` (the teams' VPs so far)."""
        movement = self.movement()
        if movement.rounds >= self.rounds:
            raise MovementError(f"{self.name}: all {self.rounds} rounds are paired")
        return replace(self, sections=((self.sections[0][0], swiss_next(movement, scores)),))


def load_session(path: str | os.PathLike[str]) -> Session:
    """The session described by the TOML file at ``path``."""
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise MovementError(f"{p.name}: not UTF-8 text") from None
    return loads_session(text, source=p.name)


def loads_session(text: str, source: str = "<session>") -> Session:
    """The session described by TOML ``text``; MovementError naming ``source`` and the key."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MovementError(f"{source}: not valid TOML ({exc})") from None
    table = document.get("session")
    if not isinstance(table, dict):
        raise MovementError(f"{source}: no [session] table")
    others = sorted(k for k in document if k != "session")
    if others:
        raise MovementError(f"{source}: unknown table or key {others[0]!r} (a session file has only [session])")
    return _Reader(source, table).session()


class _KeyError(MovementError):
    """A key of the file that is wrong (its message already names the file)."""


@dataclass(slots=True)
class _Reader:
    source: str
    table: dict[str, Any]

    def fail(self, key: str, reason: str) -> MovementError:
        if key in self.table:
            return _KeyError(f"{self.source}: [session] {key} = {_toml(self.table[key])}: {reason}")
        return _KeyError(f"{self.source}: [session] {key}: {reason}")

    def text(self, key: str, default: str | None = None) -> str | None:
        value = self.table.get(key, default)
        if isinstance(value, datetime.date):
            return value.isoformat()
        if value is not None and not isinstance(value, str):
            raise self.fail(key, "a string is expected")
        return value

    def integer(self, key: str, default: int | None = None, *, required: bool = False) -> int | None:
        if key not in self.table:
            if required:
                raise self.fail(key, "missing")
            return default
        value = self.table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, "a whole number is expected")
        return value

    def session(self) -> Session:
        movement_text = self.text("movement")
        if movement_text is None:
            raise self.fail("movement", "missing (one of " + ", ".join(k.value for k in MovementKind) + ")")
        try:
            kind = MovementKind(movement_text.strip().lower())
        except ValueError:
            raise self.fail("movement", "unknown movement (one of "
                            + ", ".join(k.value for k in MovementKind) + ")") from None
        known = _COMMON | _KEYS[kind]
        for key in self.table:
            if key not in known:
                raise self.fail(key, f"unknown key for a {kind.value} movement (known: {', '.join(sorted(known))})")
        scoring = self.scoring(kind)
        conventions = Conventions()
        scale = self.text("matchpoints")
        if scale is not None:
            try:
                conventions = Conventions(matchpoints=MatchpointScale(scale.strip().lower()))
            except ValueError:
                raise self.fail("matchpoints", "ebu or acbl expected") from None
        awards = self.awards("awards", 0.0, 100.0)
        if awards is not None:
            conventions = replace(conventions, award_percent=awards)
        award_imps = self.awards("award_imps", -24.0, 24.0)
        if award_imps is not None:
            conventions = replace(conventions, award_imps=award_imps)
        boards = self.integer("boards_per_round", required=True)
        first = self.integer("first_board", 1)
        assert boards is not None and first is not None
        if first < 1:
            raise self.fail("first_board", "must be at least 1")
        rounds = self.integer("rounds")
        try:
            sections, planned = self.movements(kind, boards, rounds, first)
        except _KeyError:
            raise
        except MovementError as exc:  # from the movement itself: its message names the value
            raise MovementError(f"{self.source}: {exc}") from None
        return Session(self.text("name", "Session") or "Session", kind, scoring, sections, planned, conventions,
                       self.text("date"), self.minutes(), self.official())

    def official(self) -> Official:
        text = self.text("official")
        if text is None:
            return Official.FIELD
        try:
            return Official.parse(text)
        except ValueError:
            raise self.fail("official", "field (every section's results compared together) or section "
                            "(each section's results compared within it) expected") from None

    def awards(self, key: str, low: float, high: float) -> tuple[float, float, float] | None:
        """Average plus, average and average minus (Law 12C2), each from ``low`` to ``high``, in that order."""
        value = self.table.get(key)
        if value is None:
            return None
        if (not isinstance(value, list) or len(value) != 3
                or any(isinstance(v, bool) or not isinstance(v, int | float) for v in value)):
            raise self.fail(key, "three numbers are expected: average plus, average, average minus")
        plus, average, minus = (float(v) for v in value)
        if not (high >= plus >= average >= minus >= low):
            raise self.fail(key, f"from {low:g} to {high:g}, average plus first and average minus last")
        return plus, average, minus

    def minutes(self) -> float | None:
        value = self.table.get("round_minutes")
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail("round_minutes", "a number of minutes is expected")
        if not 1 <= value <= 240:
            raise self.fail("round_minutes", "1 to 240 minutes")
        return float(value)

    def scoring(self, kind: MovementKind) -> Scoring:
        text = self.text("scoring")
        if text is None:
            return Scoring.TEAMS if kind.is_teams else Scoring.MP
        by_name = {s.value.lower(): s for s in Scoring} | {"matchpoints": Scoring.MP, "imp": Scoring.BUTLER,
                                                            "cross": Scoring.CROSS_IMP}
        scoring = by_name.get(text.strip().lower())
        if scoring is None:
            raise self.fail("scoring", "one of MP, Butler, CrossIMP, Teams expected")
        if (scoring is Scoring.TEAMS) != kind.is_teams:
            raise self.fail("scoring", f"a {kind.value} movement is scored "
                            + ("Teams" if kind.is_teams else "MP, Butler or CrossIMP"))
        return scoring

    def movements(self, kind: MovementKind, boards: int, rounds: int | None, first: int
                  ) -> tuple[tuple[tuple[str, Movement], ...], int]:
        if kind.is_teams:
            teams = self.teams(kind)
            if kind is MovementKind.TEAM_MATCH:
                movement = team_match(boards, rounds or 1, (teams[0], teams[1]), first_board=first)
            elif kind is MovementKind.ROUND_ROBIN:
                movement = round_robin(teams, boards, rounds, first_board=first)
            else:
                if rounds is None:
                    raise self.fail("rounds", "missing (how many rounds the Swiss plays)")
                if not 1 <= rounds <= len(teams) - 1 + len(teams) % 2:
                    raise self.fail("rounds", f"{len(teams)} teams play 1 to {len(teams) - 1 + len(teams) % 2} "
                                    "Swiss rounds without a repeat")
                movement = swiss(teams, boards, first_board=first)
                return (("", movement),), rounds
            return (("", movement),), movement.rounds
        tables = self.integer("tables", required=True)
        assert tables is not None
        pairs = self.integer("pairs")
        if kind is MovementKind.MITCHELL:
            switch = self.arrow_switch(rounds, tables)
            movement = mitchell(tables, boards, rounds, arrow_switch=switch, pairs=pairs, first_board=first)
        else:
            movement = howell(tables, boards, rounds, pairs=pairs, first_board=first)
        return tuple((name, movement) for name in self.sections()), movement.rounds

    def arrow_switch(self, rounds: int | None, tables: int) -> tuple[int, ...]:
        value = self.table.get("arrow_switch", [])
        if value == "last":
            return (rounds if rounds is not None else (tables if tables % 2 else tables - 1),)
        if not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
            raise self.fail("arrow_switch", 'a list of round numbers (or "last") is expected')
        return tuple(value)

    def sections(self) -> tuple[str, ...]:
        value = self.table.get("sections", 1)
        if isinstance(value, int) and not isinstance(value, bool):
            if not 1 <= value <= 26:
                raise self.fail("sections", "1 to 26 sections")
            return ("",) if value == 1 else tuple(chr(ord("A") + i) for i in range(value))
        if not isinstance(value, list) or not value or any(not isinstance(v, str) or not v.strip() for v in value):
            raise self.fail("sections", "a count or a list of section names is expected")
        names = tuple(v.strip() for v in value)
        if len(set(names)) != len(names):
            raise self.fail("sections", "a section is named twice")
        return names

    def teams(self, kind: MovementKind) -> list[str]:
        default: Any = 2 if kind is MovementKind.TEAM_MATCH else None
        value = self.table.get("teams", default)
        if value is None:
            raise self.fail("teams", "missing (a count or a list of team names)")
        if isinstance(value, int) and not isinstance(value, bool):
            names = [str(i) for i in range(1, value + 1)]
        elif isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value):
            names = [v.strip() for v in value]
        else:
            raise self.fail("teams", "a count or a list of team names is expected")
        if kind is MovementKind.TEAM_MATCH and len(names) != 2:
            raise self.fail("teams", "a two-room match is between two teams")
        if len(names) < 2:
            raise self.fail("teams", "at least two teams")
        if len(set(names)) != len(names):
            raise self.fail("teams", "a team is named twice")
        return names


def _toml(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)
