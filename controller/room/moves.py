"""The movement changed during the session: pairs swapped, a table added or removed (pure).

Clubs do not always play the movement they planned. A pair goes to the wrong table, two pairs
play a round in each other's places, a pair sits the wrong way round, two latecomers make up a
new table after round 2, or a table goes home early. The scorer changes the movement to what
was played, and the results follow: each board is put to the pairs who really played it, before
and after the change (the travellers, the scorecards, the ranking, the exports). Each change is
a ``MoveEntry`` with who made it, when and why; taking one back is an entry too (``undo``), as
on the Director's desk (``controller.room.adjustments``). The session file is never changed:
the changed movement is the planned one with the entries applied in order (``changed_session``).

* ``swap``: pairs ``a`` and ``b`` exchange their places (table and direction) in rounds
  ``from_round`` to ``to_round``: a pair that went to the wrong table (and the pair whose place it
  took went to its one), or one table's two pairs for one round: they sat the wrong way round.
  Swapping with the phantom of a half table moves the sit-out to the other pair.
* ``table_added``: a new table ``table`` from ``from_round`` on, its North-South and East-West
  pairs staying there, playing each round the boards that table ``shares`` plays (the two tables
  pass the boards between them). Later swaps move its pairs round the room if the Director wants
  them to meet others.
* ``table_removed``: table ``table`` plays no more from ``from_round`` (to ``to_round``): its pairs
  went home, or the table was merged into another; the pairs the movement sends there in those
  rounds sit out (nobody is at fault: no adjusted score is due, Law 12C2 is not engaged).

Who played a board at a table is the changed movement's sitting of that table in the round the
board was played (``controller.room.results``), so a change from round 4 on leaves the boards of
rounds 1-3 with the pairs who played them. ``refollowed`` makes a room's results follow the
changed movement again from the tables' own results, in the order the tables sent them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from controller.errors import BridgeTableError
from controller.fieldscore.movement import Movement, Sitting
from controller.fieldscore.session import Session
from controller.room.results import RoomResults

__all__ = ["MOVE_KINDS", "MoveEntry", "MoveError", "Moves", "changed_movement", "changed_session", "refollowed"]

Json = dict[str, Any]

MOVE_KINDS = ("swap", "table_added", "table_removed", "undo")


class MoveError(BridgeTableError, ValueError):
    """A change the movement cannot take (why, in plain words); nothing changed."""


@dataclass(frozen=True, slots=True)
class MoveEntry:
    """One change of the movement (module doc): ``id`` its place in the list (from 1), the section
    (``""``: the session's only one), the rounds, who made it, when (wall-clock seconds) and why."""

    id: int
    kind: str
    section: str
    from_round: int
    by: str
    at: float
    reason: str
    to_round: int | None = None
    """The last round it holds for (None: to the end of the session)."""
    a: str = ""
    b: str = ""
    """swap: the two pairs."""
    table: int = 0
    """table_added, table_removed: the table."""
    ns: str = ""
    ew: str = ""
    shares: int = 0
    """table_added: its pairs, and the table whose boards it plays."""
    undoes: int | None = None

    def rounds(self, last: int) -> range:
        return range(self.from_round, (self.to_round or last) + 1)

    def what(self) -> str:
        """The change in plain words."""
        until = f" to round {self.to_round}" if self.to_round is not None else " on"
        rounds = (f"in round {self.from_round}" if self.to_round == self.from_round
                  else f"from round {self.from_round}{until}")
        where = f" of section {self.section}" if self.section else ""
        if self.kind == "swap":
            return f"pairs {self.a} and {self.b}{where} swapped places {rounds}"
        if self.kind == "table_added":
            return (f"table {self.table}{where} added {rounds}: pair {self.ns} North-South, pair {self.ew} "
                    f"East-West, sharing the boards of table {self.shares}")
        if self.kind == "table_removed":
            return f"table {self.table}{where} removed {rounds}"
        return f"change {self.undoes} taken back"

    def as_json(self) -> Json:
        out: Json = {"id": self.id, "kind": self.kind, "section": self.section, "from_round": self.from_round,
                     "to_round": self.to_round, "by": self.by, "at": self.at, "reason": self.reason,
                     "what": self.what()}
        if self.kind == "swap":
            out.update(a=self.a, b=self.b)
        if self.kind in ("table_added", "table_removed"):
            out["table"] = self.table
        if self.kind == "table_added":
            out.update(ns=self.ns, ew=self.ew, shares=self.shares)
        if self.undoes is not None:
            out["undoes"] = self.undoes
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MoveEntry:
        """The entry of ``as_json`` (as kept); MoveError when unreadable."""
        try:
            to = data.get("to_round")
            undoes = data.get("undoes")
            entry = cls(int(data["id"]), str(data["kind"]), str(data.get("section") or ""), int(data["from_round"]),
                        str(data["by"]), float(data["at"]), str(data["reason"]),
                        None if to is None else int(to), str(data.get("a") or ""), str(data.get("b") or ""),
                        int(data.get("table") or 0), str(data.get("ns") or ""), str(data.get("ew") or ""),
                        int(data.get("shares") or 0), None if undoes is None else int(undoes))
        except (KeyError, TypeError, ValueError) as exc:
            raise MoveError(f"unreadable movement change {dict(data)!r}: {exc}") from None
        if entry.kind not in MOVE_KINDS:
            raise MoveError(f"unknown kind of movement change {entry.kind!r}")
        return entry


# -- applying the changes -----------------------------------------------------------------------------


def _swapped(s: Sitting, a: str, b: str, phantom: str | None) -> Sitting:
    other = {a: b, b: a}
    ns, ew = other.get(s.ns, s.ns), other.get(s.ew, s.ew)
    return replace(s, ns=ns, ew=ew, sit_out=phantom is not None and phantom in (ns, ew))


def _apply(movement: Movement, e: MoveEntry) -> Movement:
    rounds = e.rounds(movement.rounds)
    sittings = list(movement.sittings)
    participants = movement.participants
    tables = movement.tables
    if e.kind == "swap":
        sittings = [_swapped(s, e.a, e.b, movement.phantom) if s.round in rounds else s for s in sittings]
    elif e.kind == "table_removed":
        sittings = [s for s in sittings if not (s.table == e.table and s.round in rounds)]
    elif e.kind == "table_added":
        shared = {s.round: s.board_set for s in sittings if s.table == e.shares}
        sittings += [Sitting(r, e.table, e.ns, e.ew, shared[r]) for r in rounds if r in shared]
        participants = (*participants, *(p for p in (e.ns, e.ew) if p not in participants))
        tables = max(tables, e.table)
    sittings.sort(key=lambda s: (s.round, s.table))
    return replace(movement, sittings=tuple(sittings), participants=participants, tables=tables)


def _standing(entries: Iterable[MoveEntry]) -> list[MoveEntry]:
    """The changes not taken back, in order."""
    listed = list(entries)
    undone = {e.undoes for e in listed if e.kind == "undo"}
    return [e for e in listed if e.kind != "undo" and e.id not in undone]


def changed_movement(movement: Movement, entries: Iterable[MoveEntry]) -> Movement:
    """``movement`` with ``entries`` (all of one section) applied in order, those taken back left out."""
    for e in _standing(entries):
        movement = _apply(movement, e)
    return movement


def changed_session(session: Session, entries: Iterable[MoveEntry]) -> Session:
    """``session`` with each section's movement changed by its entries (module doc)."""
    listed = list(entries)
    sections = tuple((name, changed_movement(m, [e for e in listed if e.section == name.upper()]))
                     for name, m in session.sections)
    return replace(session, sections=sections)


# -- checking a change ---------------------------------------------------------------------------------


def _section(session: Session, section: str) -> str:
    names = [name for name, _ in session.sections]
    wanted = section.strip().upper()
    found = [n for n in names if n.upper() == wanted] or (names if len(names) == 1 and not wanted else [])
    if not found:
        raise MoveError(f"the session has no section {section!r}")
    return found[0]


def _seated(movement: Movement, pair: str, rounds: range) -> bool:
    return any(pair in (s.ns, s.ew) for s in movement.sittings if s.round in rounds)


def _check(movement: Movement, e: MoveEntry) -> None:
    """``e`` makes sense on ``movement`` as changed so far (MoveError otherwise)."""
    if not e.reason.strip():
        raise MoveError("say why (the reason is kept with the change)")
    if not e.by.strip():
        raise MoveError("say who makes the change")
    last = movement.rounds
    if not 1 <= e.from_round <= last or (e.to_round is not None and not e.from_round <= e.to_round <= last):
        span = e.from_round if e.to_round is None else f"{e.from_round}-{e.to_round}"
        raise MoveError(f"round {span}: the session has rounds 1-{last}")
    rounds = e.rounds(last)
    if e.kind == "swap":
        known = (*movement.participants, *((movement.phantom,) if movement.phantom else ()))
        for pair in (e.a, e.b):
            if pair not in known:
                raise MoveError(f"the movement has no pair {pair}")
        if e.a == e.b:
            raise MoveError(f"pair {e.a} cannot swap places with itself")
        if not (_seated(movement, e.a, rounds) or _seated(movement, e.b, rounds)):
            raise MoveError(f"neither pair {e.a} nor pair {e.b} plays in rounds {rounds.start}-{rounds.stop - 1}")
    elif e.kind == "table_removed":
        if not any(s.table == e.table and s.round in rounds for s in movement.sittings):
            raise MoveError(f"table {e.table} has no round to remove in rounds {rounds.start}-{rounds.stop - 1}")
    elif e.kind == "table_added":
        if e.table < 1 or any(s.table == e.table and s.round in rounds for s in movement.sittings):
            raise MoveError(f"table {e.table} is already in play in those rounds: add a table with a new number")
        for pair in (e.ns, e.ew):
            if not pair or not pair.isalnum() or len(pair) > 8:
                raise MoveError(f"{pair!r} is not a pair number")
            if pair == movement.phantom or _seated(movement, pair, rounds):
                raise MoveError(f"pair {pair} already plays in those rounds: give the new table's pairs "
                                "new numbers, or swap pairs after adding it")
        if e.ns == e.ew:
            raise MoveError(f"pair {e.ns} cannot play itself")
        if not any(s.table == e.shares and s.round in rounds and not s.sit_out for s in movement.sittings):
            raise MoveError(f"table {e.shares} does not play in those rounds: the new table shares the boards "
                            "of a table in play")
    elif e.kind != "undo":
        raise MoveError(f"unknown kind of movement change {e.kind!r} (one of {', '.join(MOVE_KINDS)})")


@dataclass(frozen=True, slots=True)
class Moves:
    """The session's movement changes (module doc), oldest first."""

    entries: tuple[MoveEntry, ...] = ()

    def add(self, session: Session, entry: MoveEntry) -> tuple[Moves, MoveEntry]:
        """These changes with ``entry`` (its id set, its section as the session names it); MoveError,
        nothing changed, when it makes no sense on the movement as changed so far."""
        entry = replace(entry, id=len(self.entries) + 1)
        if entry.kind == "undo":
            target = next((e for e in self.entries if e.id == entry.undoes), None)
            if target is None:
                raise MoveError(f"there is no change {entry.undoes} to take back")
            if target.kind == "undo":
                raise MoveError(f"change {target.id} takes back a change: make that change again instead")
            if any(e.undoes == target.id for e in self.entries):
                raise MoveError(f"change {target.id} was already taken back")
            if not entry.reason.strip() or not entry.by.strip():
                raise MoveError("say who takes the change back, and why")
            entry = replace(entry, section=target.section, from_round=target.from_round)
        else:
            name = _section(session, entry.section)
            entry = replace(entry, section=name.upper() if len(session.sections) > 1 else "")
            mine = [e for e in self.entries if e.section == entry.section]
            _check(changed_movement(session.movement(name), mine), entry)
        return Moves((*self.entries, entry)), entry

    def session(self, session: Session) -> Session:
        return changed_session(session, self.entries) if self.entries else session

    def as_json(self) -> list[Json]:
        undone = {e.undoes for e in self.entries if e.kind == "undo"}
        return [{**e.as_json(), "undone": e.id in undone} for e in self.entries]


def _order(body: Mapping[str, Any]) -> tuple[float, str, int]:
    at, seq = body.get("at"), body.get("seq")
    return (float(at) if isinstance(at, int | float) and not isinstance(at, bool) else 0.0,
            str(body.get("session") or ""), seq if isinstance(seq, int) and not isinstance(seq, bool) else 0)


def refollowed(results: RoomResults, session: Session | None) -> RoomResults:
    """``results`` put to the pairs of ``session`` (a changed movement): each table followed again
    through it from its own results, in the order it sent them (its clock, then its message number),
    the deals checked again, the Director's desk kept as it is."""
    out = RoomResults(session, results.name)
    sent = sorted(((table, body) for tables in results.results.values() for table, body in tables.items()),
                  key=lambda tb: _order(tb[1]))
    for table, body in sent:
        out.result(table, body)
    for board, tables in results.deals.items():  # deals seen in a state only (a board still in play)
        for table, deal in tables.items():
            if table not in out.deals.get(board, {}):
                out.deals.setdefault(board, {})[table] = deal
    out.desk = results.desk
    out.changes = results.changes + 1
    out.scored_again()
    return out
