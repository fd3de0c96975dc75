"""The Director's scoring desk: corrections and adjusted scores, each an entry with who, when and why (pure).

A ``Desk`` is the list of the Director's entries for a session, in the order they were made.
Nothing is ever changed or removed: taking an entry back is an entry too (``undo``), so the
history stays visible. Each entry is about one table's result on one board:

- ``correction``: the result as it should have been recorded (contract, declarer, tricks,
  lead); its score is that of the contract (Law 77) with the board's vulnerability. The
  table's own record keeps what it sent; the later correction replaces an earlier one.
- ``artificial``: an artificial adjusted score (Law 12C2), average plus, average or average
  minus to each side separately (``controller.fieldscore.Artificial``); what each is worth
  is the session's convention (60/50/40 % of a top, +3/0/-3 IMPs by default).
- ``assigned``: an assigned adjusted score (Law 12C1): one result, or several with weights
  adding up to 100 % (Law 12C1(c), a "split" score), each a contract, declarer and tricks.
- ``penalty``: a procedural penalty (Law 90) on one side: in matchpoints a fraction of a top,
  in IMP scoring IMPs; several add up.

A pair that is **absent** for some rounds (it came late, or left early) is a set of artificial
entries (``absent_entries``): on every board its table should have played with it in those
rounds, average minus to the absent pair and average plus to its opponents, who were not at
fault (Law 12C2; a club's usual ruling). A board the table has a result on is left alone (it was
played), and so is a round where the pair meets the phantom (nobody plays there).

An adjusted score (artificial or assigned) replaces the table's score; the later one wins, and
taking it back brings back the one before it (or the table's own). ``Desk.entry(board, table,
body)`` gives the result entry as it now stands, the scores follow from it
(``controller.room.results``), and ``result_of`` makes it the field's ``Result``.

An event's head console also holds the corrections made at its rooms' consoles, taken from the
tables' own logs: each marked ``from_room`` (``FromRoom``; ``controller.room.room_corrections``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from controller.cards import Card
from controller.contract import Contract
from controller.errors import BridgeTableError
from controller.fieldscore.model import Artificial, Award, Result
from controller.fieldscore.movement import Movement
from controller.scoring import duplicate_score
from controller.seats import Seat, Vulnerability, board_vulnerability

if TYPE_CHECKING:
    from controller.room.results import RoomResults

__all__ = ["KINDS", "Desk", "DeskEntry", "DeskError", "FromRoom", "Played", "absent", "absent_entries", "result_of"]

Json = dict[str, Any]

KINDS = ("correction", "artificial", "assigned", "penalty", "undo")
"""What an entry can be (module doc)."""

_LAW = {"correction": "79C", "artificial": "12C2", "assigned": "12C1", "penalty": "90", "undo": ""}
_PASSED = ("PASS", "P", "PASSED", "AP", "PASSED OUT")


class DeskError(BridgeTableError, ValueError):
    """An entry the desk cannot take (its message says why); the desk is unchanged."""


@dataclass(frozen=True, slots=True)
class Played:
    """A result as played or as assigned: the contract (None: passed out), declarer and the
    tricks declarer took, and the opening lead when known."""

    contract: Contract | None
    tricks: int = 0
    lead: Card | None = None

    @classmethod
    def parse(cls, contract: str, declarer: str | None, tricks: int | None, lead: str | None = None) -> Played:
        """``"4SX"``, ``"N"``, 9 (``"Pass"`` for a board passed out: no declarer, no tricks)."""
        text = contract.strip()
        if text.upper() in _PASSED:
            if lead:
                raise DeskError("a board passed out has no opening lead")
            return cls(None, 0)
        if declarer is None or not declarer.strip():
            raise DeskError(f"contract {text}: say who declared it (N, E, S or W)")
        try:
            played = Contract.parse(text, Seat.parse(declarer))
            card = Card.parse(lead) if lead else None
        except ValueError as exc:
            raise DeskError(str(exc)) from None
        if tricks is None or not 0 <= tricks <= 13:
            raise DeskError(f"contract {text}: declarer's tricks are 0 to 13, not {tricks}")
        return cls(played, tricks, card)

    def score(self, vulnerability: Vulnerability) -> int:
        """North-South's score (Law 77)."""
        return duplicate_score(self.contract, self.tricks, vulnerability)

    def fields(self) -> Json:
        """The fields of a result entry (``tablectl replay --json``) it sets."""
        c = self.contract
        return {"contract": "Pass" if c is None else c.text, "declarer": None if c is None else str(c.declarer),
                "tricks": None if c is None else self.tricks, "result": None if c is None else c.result(self.tricks),
                "lead": None if self.lead is None else str(self.lead)}

    def __str__(self) -> str:
        if self.contract is None:
            return "passed out"
        return f"{self.contract.text}{self.contract.result(self.tricks)} by {self.contract.declarer}"


@dataclass(frozen=True, slots=True)
class FromRoom:
    """Where an entry of an event's head console was made: at a room's console, the head console
    taking it from the table's own log (``controller.room.room_corrections``). ``room`` is the room's
    name ("" when the head console does not know it), ``session`` the table's log session, ``entry``
    the entry's number at the room's console and ``made`` when it was made there (ISO 8601 UTC):
    with the entry's table they name it, so the head takes it once."""

    room: str
    session: str
    entry: int
    made: str

    def as_json(self) -> Json:
        return {"room": self.room, "session": self.session, "entry": self.entry, "made": self.made}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FromRoom:
        """KeyError, TypeError, ValueError when unreadable."""
        return cls(str(data["room"]), str(data["session"]), int(data["entry"]), str(data["made"]))


@dataclass(frozen=True, slots=True)
class DeskEntry:
    """One of the Director's entries (module doc): ``id`` (its place in the desk, from 1),
    ``kind``, the board and table, who made it, when (wall-clock seconds) and why."""

    id: int
    kind: str
    board: str
    table: str
    by: str
    at: float
    reason: str
    played: Played | None = None
    """correction: the result as it should stand."""
    award: Artificial | None = None
    """artificial: each side's award."""
    assigned: tuple[tuple[Played, float], ...] = ()
    """assigned: each result with its weight in % (one result: 100)."""
    side: str | None = None
    """penalty: the side penalised, ``NS`` or ``EW``."""
    amount: float = 0.0
    """penalty: a fraction of a top (matchpoints) or IMPs."""
    undoes: int | None = None
    """undo: the entry taken back."""
    from_room: FromRoom | None = None
    """An event's head console: the entry was made at a room's console (None: at this one)."""

    @property
    def law(self) -> str:
        return _LAW[self.kind]

    def what(self) -> str:
        """The entry in plain words."""
        if self.kind == "correction" and self.played is not None:
            return f"result corrected to {self.played}"
        if self.kind == "artificial" and self.award is not None:
            return f"artificial adjusted score {_award_words(self.award)}"
        if self.kind == "assigned":
            return "assigned adjusted score " + ", ".join(f"{p} {w:g}%" if len(self.assigned) > 1 else str(p)
                                                          for p, w in self.assigned)
        if self.kind == "penalty":
            return f"procedural penalty of {self.amount:g} to {self.side}"
        return f"entry {self.undoes} taken back"

    def as_json(self) -> Json:
        out: Json = {"id": self.id, "kind": self.kind, "law": self.law or None, "board": self.board,
                     "table": self.table, "by": self.by, "at": self.at, "reason": self.reason, "what": self.what()}
        if self.played is not None:
            out["played"] = self.played.fields()
        if self.award is not None:
            out["award"] = {"NS": self.award.ns.value, "EW": self.award.ew.value}
        if self.assigned:
            out["assigned"] = [{**p.fields(), "weight": w} for p, w in self.assigned]
        if self.kind == "penalty":
            out["side"], out["amount"] = self.side, self.amount
        if self.undoes is not None:
            out["undoes"] = self.undoes
        if self.from_room is not None:
            out["from_room"] = self.from_room.as_json()
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DeskEntry:
        """The entry of ``as_json`` (as kept in the console's store); DeskError when unreadable."""
        try:
            played = data.get("played")
            award = data.get("award")
            room = data.get("from_room")
            entry = cls(int(data["id"]), str(data["kind"]), str(data["board"]), str(data["table"]),
                        str(data["by"]), float(data["at"]), str(data["reason"]),
                        played=None if played is None else _played(played),
                        award=None if award is None else Artificial(Award(award["NS"]), Award(award["EW"])),
                        assigned=tuple((_played(a), float(a["weight"])) for a in data.get("assigned") or ()),
                        side=data.get("side"), amount=float(data.get("amount") or 0.0),
                        undoes=None if data.get("undoes") is None else int(data["undoes"]),
                        from_room=None if room is None else FromRoom.from_json(room))
        except (KeyError, TypeError, ValueError) as exc:
            raise DeskError(f"unreadable desk entry {dict(data)!r}: {exc}") from None
        _check(entry)
        return entry


def _played(d: Mapping[str, Any]) -> Played:
    return Played.parse(str(d["contract"]), d.get("declarer"), d.get("tricks"), d.get("lead"))


def _award_words(a: Artificial) -> str:
    words = {Award.PLUS: "average plus", Award.AVERAGE: "average", Award.MINUS: "average minus"}
    return f"{words[a.ns]} to North-South, {words[a.ew]} to East-West"


def _check(e: DeskEntry) -> None:
    """The entry's own fields make sense (DeskError otherwise)."""
    if e.kind not in KINDS:
        raise DeskError(f"unknown kind of entry {e.kind!r} (one of {', '.join(KINDS)})")
    if not e.reason.strip():
        raise DeskError("say why (the reason is kept with the entry)")
    if not e.by.strip():
        raise DeskError("say who makes the entry")
    if e.kind == "correction" and e.played is None:
        raise DeskError("a correction gives the result as it should stand")
    if e.kind == "artificial" and e.award is None:
        raise DeskError("an artificial adjusted score gives each side's award (A+, A or A-)")
    if e.kind == "assigned":
        if not e.assigned:
            raise DeskError("an assigned adjusted score gives at least one result")
        if any(w <= 0 for _, w in e.assigned) or abs(sum(w for _, w in e.assigned) - 100.0) > 1e-6:
            raise DeskError("the weights of an assigned adjusted score are above 0 % and add up to 100 % "
                            f"(these add up to {sum(w for _, w in e.assigned):g} %)")
    if e.kind == "penalty":
        if e.side not in ("NS", "EW"):
            raise DeskError("a procedural penalty is on North-South (NS) or East-West (EW)")
        if not 0 < e.amount <= 100:
            raise DeskError(f"a procedural penalty is above 0 (a fraction of a top, or IMPs), not {e.amount:g}")
    if e.kind == "undo" and e.undoes is None:
        raise DeskError("say which entry is taken back")


@dataclass(frozen=True, slots=True)
class Standing:
    """Where one table's result on one board stands after the Director's entries."""

    played: Played | None = None
    adjusted: DeskEntry | None = None
    penalty_ns: float = 0.0
    penalty_ew: float = 0.0
    entries: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Desk:
    """The Director's entries (module doc), oldest first."""

    entries: tuple[DeskEntry, ...] = ()

    @property
    def next_id(self) -> int:
        return len(self.entries) + 1

    def add(self, entry: DeskEntry) -> Desk:
        """This desk with ``entry`` (its id set to the next); DeskError, and this desk unchanged, when
        it makes no sense: a field missing or out of range, taking back an entry that does not exist,
        is itself a taking back, or was already taken back."""
        entry = replace(entry, id=self.next_id)
        _check(entry)
        if entry.kind == "undo":
            target = self.get(entry.undoes)
            if target is None:
                raise DeskError(f"there is no entry {entry.undoes} to take back")
            if target.kind == "undo":
                raise DeskError(f"entry {target.id} takes back an entry: make that entry again instead")
            if target.id in self.undone():
                raise DeskError(f"entry {target.id} was already taken back")
            entry = replace(entry, board=target.board, table=target.table)
        return Desk((*self.entries, entry))

    def get(self, id_: int | None) -> DeskEntry | None:
        return self.entries[id_ - 1] if id_ is not None and 1 <= id_ <= len(self.entries) else None

    def undone(self) -> set[int]:
        return {e.undoes for e in self.entries if e.kind == "undo" and e.undoes is not None}

    def touched(self) -> set[tuple[str, str]]:
        """Every (board, table) with an entry, taken back or not."""
        return {(e.board, e.table) for e in self.entries}

    def standing(self, board: str, table: str) -> Standing:
        """What stands for ``table``'s result on ``board``: the latest correction and adjusted score
        not taken back, and the penalties added up."""
        undone = self.undone()
        st = Standing()
        for e in self.entries:
            if e.board != board or e.table != table:
                continue
            st = replace(st, entries=(*st.entries, e.id))
            if e.kind == "undo" or e.id in undone:
                continue
            if e.kind == "correction":
                st = replace(st, played=e.played)
            elif e.kind in ("artificial", "assigned"):
                st = replace(st, adjusted=e)
            elif e.kind == "penalty":
                ns = e.amount if e.side == "NS" else 0.0
                st = replace(st, penalty_ns=st.penalty_ns + ns, penalty_ew=st.penalty_ew + e.amount - ns)
        return st

    def entry(self, board: str, table: str, body: Mapping[str, Any] | None) -> Json | None:
        """``table``'s result entry on ``board`` as it now stands (``body``: as the table sent it,
        None when it sent none): corrected, adjusted, penalised, with ``desk``: the ids of its
        entries and ``original``: the table's own fields where a correction changed them."""
        st = self.standing(board, table)
        if not st.entries:
            return None if body is None else dict(body)
        if body is None and st.played is None and st.adjusted is None:
            return None
        out: Json = dict(body) if body is not None else {"number": _number(board), "status": "adjusted"}
        vul = _vulnerability(board, out)
        if st.played is not None:
            fields = st.played.fields()
            out["original"] = {k: out.get(k) for k in (*fields, "score_ns") if k in out}
            out.update(fields, score_ns=st.played.score(vul), status="corrected")
        adjusted = st.adjusted
        if adjusted is not None and adjusted.award is not None:
            out.update(score_ns=None, artificial=str(adjusted.award), status="adjusted")
        elif adjusted is not None and len(adjusted.assigned) == 1:
            played = adjusted.assigned[0][0]
            out.update(played.fields(), score_ns=played.score(vul), status="adjusted")
        elif adjusted is not None:
            out.update(score_ns=None, status="adjusted",
                       weighted=[[p.score(vul), w] for p, w in adjusted.assigned],
                       assigned=[{**p.fields(), "weight": w} for p, w in adjusted.assigned])
        if st.penalty_ns or st.penalty_ew:
            out.update(penalty_ns=st.penalty_ns, penalty_ew=st.penalty_ew)
        out["desk"] = list(st.entries)
        return out

    def as_json(self) -> list[Json]:
        undone = self.undone()
        return [{**e.as_json(), "undone": e.id in undone} for e in self.entries]


def _number(board: str) -> int | None:
    return int(board) if board.isdigit() else None


def _vulnerability(board: str, body: Mapping[str, Any]) -> Vulnerability:
    vul = body.get("vul")
    if isinstance(vul, str):
        try:
            return Vulnerability.parse(vul)
        except ValueError:
            pass
    number = _number(board)
    if number is None or number < 1:
        raise DeskError(f"board {board!r}: its vulnerability is not known")
    return board_vulnerability(number)


def result_of(label: str, ns: str, ew: str, section: str | None, body: Mapping[str, Any]) -> Result | None:
    """The field's ``Result`` of a result entry as it stands (``Desk.entry``): its score, its
    artificial or weighted adjusted score, its penalties; None when it has no score."""
    pen_ns, pen_ew = _float(body.get("penalty_ns")), _float(body.get("penalty_ew"))
    artificial = body.get("artificial")
    weighted = body.get("weighted")
    score = body.get("score_ns")
    if isinstance(artificial, str):
        return Result(label, ns, ew, artificial=Artificial.parse(artificial), section=section,
                      penalty_ns=pen_ns, penalty_ew=pen_ew)
    if isinstance(weighted, list) and weighted:
        return Result(label, ns, ew, weighted=tuple((int(s), float(w)) for s, w in weighted), section=section,
                      penalty_ns=pen_ns, penalty_ew=pen_ew)
    if isinstance(score, int) and not isinstance(score, bool):
        return Result(label, ns, ew, score=score, section=section, penalty_ns=pen_ns, penalty_ew=pen_ew)
    return None


def _float(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0



def absent_entries(movement: Movement, section: str, pair: str, rounds: range, by: str, reason: str,
                   played: Mapping[tuple[str, str], bool]) -> list[DeskEntry]:
    """The artificial entries for ``pair`` absent in ``rounds`` (module doc): for each board its
    table should have played with it and has no result on (``played``: (board, table) -> True),
    average minus to the pair, average plus to its opponents. ``section`` is the table names'
    prefix (``""`` for a session of one section). DeskError for a pair the movement lacks, or
    rounds outside it."""
    if pair not in movement.participants:
        raise DeskError(f"the movement has no pair {pair}")
    if not rounds or rounds.start < 1 or rounds.stop - 1 > movement.rounds:
        raise DeskError(f"rounds {rounds.start}-{rounds.stop - 1}: the movement has rounds 1-{movement.rounds}")
    out = []
    for s in movement.sittings:
        if s.round not in rounds or pair not in (s.ns, s.ew) or s.sit_out:
            continue
        table = f"{section}{s.table}"
        award = Artificial(Award.MINUS, Award.PLUS) if s.ns == pair else Artificial(Award.PLUS, Award.MINUS)
        for board in movement.boards(s.board_set):
            if not played.get((str(board), table)):
                out.append(DeskEntry(0, "artificial", str(board), table, by, 0.0, reason, award=award))
    return out


def absent(results: RoomResults, section: str | None, pair: str, rounds: range, by: str, reason: str,
           at: float) -> list[DeskEntry]:
    """``pair`` late or gone for ``rounds``: ``absent_entries`` made on ``results``' desk at ``at``,
    all or none; DeskError, the desk unchanged, without the session, for a section, pair or rounds
    the movement lacks, or with nothing left to adjust."""
    session = results.session
    if session is None:
        raise DeskError("a late or absent pair needs the Director's session (its movement)")
    names = [name for name, _ in session.sections]
    wanted = (section or "").strip().upper()
    found = [name for name in names if name.upper() == wanted] or (names if len(names) == 1 and not wanted else [])
    if not found:
        raise DeskError(f"the session has no section {section!r}")
    played = {(board, table): True for board, at_tables in results.results.items() for table in at_tables}
    entries = absent_entries(session.movement(found[0]), found[0] if len(names) > 1 else "", pair, rounds, by,
                             reason, played)
    if not entries:
        raise DeskError(f"pair {pair} has no board left to adjust in rounds {rounds.start}-{rounds.stop - 1} "
                        "(each has a result, or the pair met the phantom)")
    before = results.desk
    try:
        return [results.adjust(replace(e, at=at)) for e in entries]
    except DeskError:
        results.desk = before
        results.scored_again()
        raise
