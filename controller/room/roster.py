"""The club's roster and who sat in each pair, pure: ``read_roster``, ``Roster``, ``Seating``.

* The **roster** is the club's list of members: each a name, the national federation's number
  (EBU, ACBL, NBB...: empty when unknown), an e-mail and a home club (both optional). The scorer
  imports it from a CSV file (``read_roster``): one member a line, ``name, federation number,
  email, club``, with or without a header line naming the columns. A file with a bad line is
  refused whole, every bad line named with why (``RosterError.problems``): nothing is half
  imported. Imported again, a member with the same federation number (or, without one, the
  same name) is updated, not doubled.
* The **seating** is who played for each pair of the session: the Director names a pair's two
  players at the start (from the roster, or a visitor typed in), and seats a substitute from a
  given round on. A substitute is a change of player, not of pair: the pair keeps its number and
  its score (the scores know pairs by number only). ``Seating`` answers the exports' and pages'
  question (``controller.records.people.Roll``): who were this pair's players in that round.

Every value is immutable: a change gives a new ``Roster`` or ``Seating``; bad input raises
``RosterError`` (a ``ValueError``) and changes nothing.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, replace
from typing import Any, Literal

from controller.records.people import PairPlayers, Player

__all__ = ["MAX_MEMBERS", "Member", "Roster", "RosterError", "Seat", "Seating", "Which", "player", "read_roster",
           "section_key"]

Json = dict[str, Any]

MAX_MEMBERS = 5000
"""The largest roster a CSV file may hold (a big club has a few hundred members)."""
_MAX_NAME = 60
_FEDERATION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9./-]{0,19}$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_HEADERS = {
    "name": ("name", "player", "full name", "member"),
    "federation_id": ("federation", "federation number", "federation id", "federation_id", "number", "ebu",
                      "ebu number", "acbl", "acbl number", "nbb", "member number", "id"),
    "email": ("email", "e-mail", "mail"),
    "club": ("club", "home club"),
}
"""The header words of each column (compared without case); without a header the order is
name, federation number, email, club."""


class RosterError(ValueError):
    """A roster or seating change refused: why, and for a CSV file every bad line."""

    def __init__(self, what: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(what if not problems else f"{what}: {'; '.join(problems)}")
        self.problems = problems


def _name(text: str, what: str = "the name") -> str:
    name = " ".join(text.split())
    if not name:
        raise RosterError(f"{what} is empty")
    if len(name) > _MAX_NAME:
        raise RosterError(f"{what} is longer than {_MAX_NAME} characters")
    if any(ord(c) < 32 for c in name):
        raise RosterError(f"{what} holds a control character")
    return name


def _federation(text: str) -> str:
    number = text.strip()
    if number and not _FEDERATION.match(number):
        raise RosterError(f"the federation number {number!r} is not a number the federations give "
                          "(letters, digits, '.', '/' or '-', at most 20)")
    return number


def player(name: str, federation_id: str = "") -> Player:
    """A player as typed (the name's spaces tidied); RosterError for an empty or odd one."""
    return Player(_name(name), _federation(federation_id))


@dataclass(frozen=True, slots=True)
class Member:
    """A member of the club's roster."""

    player: Player
    email: str = ""
    club: str = ""

    @property
    def key(self) -> str:
        """What tells two members apart: the federation number, or the name without one."""
        return self.player.federation_id.upper() if self.player.federation_id else "name:" + self.player.name.casefold()

    def as_json(self) -> Json:
        return {"name": self.player.name, "federation_id": self.player.federation_id, "email": self.email,
                "club": self.club}


def _member(cells: dict[str, str]) -> Member:
    email = cells.get("email", "").strip()
    if email and not _EMAIL.match(email):
        raise RosterError(f"{email!r} is not an e-mail address")
    club = " ".join(cells.get("club", "").split())
    if len(club) > _MAX_NAME:
        raise RosterError(f"the club is longer than {_MAX_NAME} characters")
    return Member(player(cells.get("name", ""), cells.get("federation_id", "")), email, club)


def _header(row: list[str]) -> list[str] | None:
    """The columns a header line names, a column it does not know left out (None: the line is a
    member, not a header: it names no ``name`` column)."""
    words = [" ".join(cell.strip().casefold().replace("_", " ").split()) for cell in row]
    columns = [next((col for col, names in _HEADERS.items() if word in names), "") for word in words]
    return columns if "name" in columns else None


def read_roster(text: str) -> tuple[Member, ...]:
    """The members of a roster CSV file (module doc); RosterError naming every bad line."""
    if "\x00" in text:
        raise RosterError("this is not a CSV text file")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    columns = ["name", "federation_id", "email", "club"]
    start = 0
    first = next((i for i, row in enumerate(rows) if any(c.strip() for c in row)), None)
    if first is not None and (named := _header(rows[first])) is not None:
        columns, start = named, first + 1
    members: list[Member] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows[start:], start=start + 1):
        if not any(c.strip() for c in row):
            continue
        if len(row) > len(columns) and any(c.strip() for c in row[len(columns):]):
            problems.append(f"line {number}: {len(row)} columns, at most {len(columns)} expected "
                            "(name, federation number, email, club)")
            continue
        try:
            member = _member({col: cell for col, cell in zip(columns, row, strict=False) if col})
        except RosterError as exc:
            problems.append(f"line {number}: {exc}")
            continue
        if member.key in seen:
            problems.append(f"line {number}: {member.player.name} is already on line {seen[member.key]}"
                            + (f" (federation number {member.player.federation_id})"
                               if member.player.federation_id else ""))
            continue
        seen[member.key] = number
        members.append(member)
    if problems:
        raise RosterError(f"nothing imported, {len(problems)} line(s) to fix", tuple(problems))
    if not members:
        raise RosterError("nothing imported: the file names no member")
    if len(members) > MAX_MEMBERS:
        raise RosterError(f"nothing imported: {len(members)} members, at most {MAX_MEMBERS}")
    return tuple(members)


@dataclass(frozen=True, slots=True)
class Roster:
    """The club's members, in name order."""

    members: tuple[Member, ...] = ()

    def merged(self, new: tuple[Member, ...]) -> tuple[Roster, int, int]:
        """The roster with ``new`` imported: (roster, members added, members updated)."""
        by_key = {m.key: m for m in self.members}
        added = sum(1 for m in new if m.key not in by_key)
        updated = sum(1 for m in new if m.key in by_key and by_key[m.key] != m)
        by_key.update({m.key: m for m in new})
        if len(by_key) > MAX_MEMBERS:
            raise RosterError(f"nothing imported: the roster would hold {len(by_key)} members, at most {MAX_MEMBERS}")
        return Roster(tuple(sorted(by_key.values(), key=lambda m: (m.player.name.casefold(), m.key)))), added, updated

    def find(self, federation_id: str) -> Member | None:
        wanted = federation_id.strip().upper()
        return next((m for m in self.members if wanted and m.player.federation_id.upper() == wanted), None)

    def as_json(self) -> Json:
        return {"members": [m.as_json() for m in self.members]}


def section_key(section: str | None) -> str:
    """A section as the seating keeps it: the results' ``None`` and a one-section session's ``""`` alike."""
    return (section or "").strip().upper()


Which = Literal["first", "second"]


@dataclass(frozen=True, slots=True)
class Seat:
    """A pair's two players from round ``from_round`` on (1: named at the start)."""

    section: str
    pair: str
    from_round: int
    players: PairPlayers

    def as_json(self) -> Json:
        return {"section": self.section, "pair": self.pair, "from_round": self.from_round,
                "first": _player_json(self.players.first), "second": _player_json(self.players.second)}

    @staticmethod
    def from_json(data: Json) -> Seat:
        """A kept seat (ValueError, TypeError, KeyError: not one)."""
        first, second = data["first"], data["second"]
        return Seat(section_key(str(data["section"])), str(data["pair"]), int(data["from_round"]),
                    PairPlayers(Player(str(first["name"]), str(first.get("federation_id", ""))),
                                Player(str(second["name"]), str(second.get("federation_id", "")))))


def _player_json(p: Player) -> Json:
    return {"name": p.name, "federation_id": p.federation_id}


@dataclass(frozen=True, slots=True)
class Seating:
    """Who played for each pair, round by round (module doc); a ``Roll``."""

    seats: tuple[Seat, ...] = ()

    def _of(self, section: str | None, pair: str) -> list[Seat]:
        key = section_key(section)
        return sorted((s for s in self.seats if s.section == key and s.pair == pair), key=lambda s: s.from_round)

    def players(self, section: str | None, pair: str, round_: int | None = None) -> PairPlayers | None:
        """The pair's players in ``round_`` (None: as the pair stands now); None when unnamed."""
        seats = [s for s in self._of(section, pair) if round_ is None or s.from_round <= round_]
        return seats[-1].players if seats else None

    def named(self, section: str | None, pair: str, players: PairPlayers) -> Seating:
        """The pair named (or named again) from the start; its substitutes stay."""
        pair = _pair(pair)
        if players.first == players.second:
            raise RosterError(f"{players.first.name} cannot sit twice in pair {pair}")
        key = section_key(section)
        kept = tuple(s for s in self.seats if not (s.section == key and s.pair == pair and s.from_round == 1))
        return Seating((*kept, Seat(key, pair, 1, players)))

    def substituted(self, section: str | None, pair: str, from_round: int, which: Which, sub: Player) -> Seating:
        """``sub`` plays for the pair's ``which`` player (``first``: North or East) from ``from_round``
        on; the pair keeps its number and its score. The pair must be named already."""
        pair = _pair(pair)
        if from_round < 1:
            raise RosterError(f"round {from_round} is not a round of the session")
        standing = self.players(section, pair, from_round)
        if standing is None:
            raise RosterError(f"pair {pair} has no players named yet: name the pair first")
        other = standing.second if which == "first" else standing.first
        if sub == other:
            raise RosterError(f"{sub.name} already plays in pair {pair}")
        players = replace(standing, first=sub) if which == "first" else replace(standing, second=sub)
        key = section_key(section)
        kept = tuple(s for s in self.seats if not (s.section == key and s.pair == pair and s.from_round == from_round))
        return Seating((*kept, Seat(key, pair, from_round, players)))

    def as_json(self) -> Json:
        """Every named pair with its seats in round order: ``{"pairs": [{"section", "pair", "seats"}]}``."""
        pairs: dict[tuple[str, str], list[Json]] = {}
        for s in sorted(self.seats, key=lambda s: (s.section, _pair_order(s.pair), s.from_round)):
            pairs.setdefault((s.section, s.pair), []).append(s.as_json())
        return {"pairs": [{"section": sec, "pair": pair, "seats": seats} for (sec, pair), seats in pairs.items()]}

    def names(self) -> dict[str, list[Json]]:
        """``"<section>|<pair>"`` -> ``[{"from": round, "names": [first, second], "ids": [their federation
        numbers]}]`` for the pages."""
        out: dict[str, list[Json]] = {}
        for s in sorted(self.seats, key=lambda s: s.from_round):
            out.setdefault(f"{s.section}|{s.pair}", []).append({
                "from": s.from_round, "names": list(s.players.names),
                "ids": [s.players.first.federation_id, s.players.second.federation_id]})
        return out


def _pair(pair: str) -> str:
    text = pair.strip()
    if not re.match(r"^[A-Za-z0-9]{1,8}$", text):
        raise RosterError(f"{pair!r} is not a pair number")
    return text


def _pair_order(pair: str) -> tuple[int, str]:
    return (int(pair), "") if pair.isdigit() else (1 << 30, pair)
