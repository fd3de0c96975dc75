"""Replay table logs and board records through the table and report them (``tablectl replay``).

The report is the contract of docs/replay-report.md: ``{"session": {...}, "boards": [...]}``, one board
entry per record of the input, in input order; a record that cannot be replayed still
gets its entry, with an ``error`` that says why.

A record's own tags (Contract, Declarer, Result, Score, LIN ``rs``) can be wrong: the
auction and the play decide, and every place where the record's tags differ from the
replay is listed in the entry's ``differences``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from controller import actions as a
from controller.cards import Card
from controller.codes import Sheet
from controller.contract import Contract
from controller.deal import Deal, format_mask
from controller.errors import NotationError
from controller.kernel import RegularBoard, replay_regular
from controller.records.model import BoardRecord
from controller.records.tablelog import LogLine
from controller.seats import Seat, board_dealer
from controller.table import (
    BoardOutcome,
    Phase,
    TableState,
    abandon_board,
    finish_session,
    step,
)
from controller.table.corrections import corrected_fields, standing
from controller.values import evolve

__all__ = [
    "RecordReplay", "ReplayReport", "board_actions", "outcome_json", "record_actions", "replay_log",
    "replay_records", "table_report",
]

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """The state after the replay and the JSON-ready report."""

    state: TableState
    report: dict[str, Any]


def outcome_json(outcome: BoardOutcome, state: TableState) -> dict[str, Any]:
    """The contract fields of one finished board (docs/replay-report.md)."""
    b = outcome.board
    contract = b.contract
    play = b.play.played_cards() if b.play is not None else ()
    entry: dict[str, Any] = {
        "number": b.number,
        "dealer": str(b.dealer),
        "vul": str(b.vulnerability),
        "deal": None if b.deal is None else b.deal.pbn(),
        "auction": [str(c) for c in b.auction.calls],
        "contract": b.contract_text,
        "declarer": None if contract is None else str(contract.declarer),
        "play": [str(c) for c in play],
        "tricks": outcome.tricks,
        "result": outcome.result,
        "score_ns": outcome.score_ns,
        "status": outcome.status,
        "irregularities": [irr.as_dict() for irr in map(state.irregularity, b.irregularity_ids)
                           if irr is not None],
    }
    if any(outcome.transfer):
        entry["revoke_transfer"] = {"NS": outcome.transfer[0], "EW": outcome.transfer[1],
                                    "tricks_before": outcome.tricks_before_transfer}
    if outcome.notes:
        entry["rulings_notes"] = list(outcome.notes)
    if b.penalty_cards:
        entry["penalty_cards"] = [{"seat": str(pc.seat), "card": str(pc.card), "major": pc.major}
                                  for pc in b.penalty_cards]
    if b.alerts:
        entry["alerts"] = list(b.alerts)
    if b.call_times or b.play_times:
        entry["timing"] = {"calls": list(b.call_times), "play": list(b.play_times)}
    if outcome.entries and not state.code.rules.duplicated_boards:  # a rubber's or Chicago's sheet
        entry["sheet"] = [{"side": str(e.side), "points": e.points,
                           "below": e.below, "label": e.label} for e in outcome.entries]
    return corrected_fields(outcome, state, entry)


def _session_json(state: TableState) -> dict[str, Any]:
    """The session's code and North-South's total; with the Director's corrections standing, the total
    is the corrected boards' (``total_ns_original``: as played)."""
    out: dict[str, Any] = {"code": state.code.name, "total_ns": state.total_ns}
    if state.corrections:
        delta = 0
        for o in state.boards:
            now = standing(state, o.board.index)
            if now is not None:
                delta += now.score_ns - (o.score_ns or 0)
        if delta:
            out["total_ns_original"] = state.total_ns
            out["total_ns"] = state.total_ns + delta
    return out


def replay_log(lines: Iterable[LogLine], progress: Progress | None = None) -> ReplayReport:
    """Replay a table log: one board entry per ``board`` line; bad lines reported in ``errors``."""
    state = TableState.new()
    errors: list[str] = []
    rejected: list[str] = []
    for line in lines:
        if line.action is None:
            errors.append(line.error or f"line {line.line}: unreadable")
            continue
        result = step(state, line.action)
        for ev in result.events:
            if ev.kind == "rejected":
                rejected.append(f"line {line.line}: {ev.detail}")
        state = result.state
        if progress is not None and isinstance(line.action, a.BoardStart):
            progress(len(state.boards), 0)
    return table_report(state, errors, rejected)


def table_report(state: TableState, errors: Sequence[str] = (), rejected: Sequence[str] = ()) -> ReplayReport:
    """The report of a table's state at the end of its log (the session finished, as a replay
    of the log finishes it), with the log's ``errors`` and the actions the table ``rejected``."""
    state = finish_session(state)
    report: dict[str, Any] = {
        "session": _session_json(state),
        "boards": [outcome_json(o, state) for o in state.boards],
    }
    if errors:
        report["errors"] = list(errors)
    if rejected:
        report["rejected"] = list(rejected)
    return ReplayReport(state, report)


def board_actions(outcome: BoardOutcome) -> list[a.Action]:
    """The table actions that reproduce a finished board: set-up, calls, cards, claim or adjustment.

    Replaying them on a fresh table gives the same outcome (the live state equals the replay
    of its log).
    """
    b = outcome.board
    out: list[a.Action] = [a.BoardStart(b.number, b.dealer, b.vulnerability, b.deal, 0.0)]
    for i, call in enumerate(b.auction.calls):
        t = b.call_times[i] if i < len(b.call_times) else float(i)
        out.append(a.MakeCall(b.auction.seat_of(i), call, t))
    play = b.play
    if play is None:
        return out
    k = 0
    for trick in (*play.tricks, play.current):
        for j, card in enumerate(trick.cards):
            t = b.play_times[k] if k < len(b.play_times) else float(k)
            out.append(a.PlayCard(trick.seat_of(j), card, t))
            k += 1
    t = out[-1].t
    if outcome.status == "claimed" and outcome.tricks is not None:
        declarer = play.declarer
        out.append(a.Claim(declarer, outcome.tricks - play.declarer_tricks, t))
        out += [a.Agree(declarer.lho, t), a.Agree(declarer.rho, t)]
    elif outcome.status == "adjusted" and outcome.tricks is not None:
        out.append(a.Adjust(outcome.tricks, t))
    return out


# --- board records -------------------------------------------------------------------------

def record_actions(rec: BoardRecord) -> list[a.Action]:
    """The table actions that reproduce a record's auction (the play is fed by ``replay_records``).

    Raises NotationError for a record that cannot be replayed at all.
    """
    if rec.error:
        raise NotationError(rec.error)
    if rec.deal is None:
        raise NotationError("the record has no deal")
    if rec.calls is None:
        raise NotationError("the record has no auction (the board was not played here)")
    if not rec.calls:
        raise NotationError("the record's auction is empty")
    dealer = rec.dealer
    if dealer is None:
        if rec.number is None:
            raise NotationError("the record gives neither dealer nor board number")
        dealer = board_dealer(rec.number)
    out: list[a.Action] = [a.BoardStart(rec.number, dealer, rec.vulnerability, rec.deal.completed())]
    seat = dealer
    for i, call in enumerate(rec.calls):
        out.append(a.MakeCall(seat, call, float(i)))
        seat = seat.lho
    return out


def replay_records(records: Sequence[BoardRecord], progress: Progress | None = None,
                   code: str = "duplicate", fast: bool = True) -> ReplayReport:
    """Replay PBN/LIN records, one board each, through one table session."""
    replay = RecordReplay(code, fast)
    entries: list[dict[str, Any]] = []
    total = len(records)
    for n, rec in enumerate(records, 1):
        entries.append(replay.entry(rec))
        if progress is not None and (n % 500 == 0 or n == total):
            progress(n, total)
    session = replay.session()
    return ReplayReport(replay.state, {"session": session, "boards": entries})


class RecordReplay:
    """One table session replaying records one at a time, so a caller can stream the entries:
    memory holds one board and the session's totals, whatever the number of records.

    With ``fast`` (the default) and a duplicate code (2008 or 2017), a regular board goes through the
    fast path (``controller.kernel``: the same legality rules on small ints, the same scoring);
    any other board, and every board under another code, through the full table. Both give
    the same entry (a differential test over the corpus checks it).
    """

    def __init__(self, code: str = "duplicate", fast: bool = True) -> None:
        self._state = TableState.new(code, {"timing": False})  # a record's times are made up: no tempo
        # the fast path knows boards scored each on its own (duplicate, 2008 and 2017 codes)
        self.fast = fast and self._state.code.rules.duplicated_boards
        self.regular = 0  # boards the fast path replayed
        self._sheet: Sheet | None = None  # the sheet, while the fast path keeps it

    @property
    def state(self) -> TableState:
        """The table after the records so far (the fast path's sheet put back into it)."""
        if self._sheet is not None:
            self._state = evolve(self._state, sheet=self._sheet)
            self._sheet = None
        return self._state

    def entry(self, rec: BoardRecord) -> dict[str, Any]:
        """The report entry of one record, the session advanced past it."""
        if self.fast:
            sheet = self._state.sheet if self._sheet is None else self._sheet
            board = replay_regular(rec, self._state.code, sheet)
            if board is not None:
                # the sheet's totals are kept, not its entries (they are in the report)
                self._sheet = board.sheet.without_entries() if board.sheet.entries else board.sheet
                self.regular += 1
                return _regular_entry(rec, board)
        state = self.state
        if state.boards:
            # each record is its own board: keep the sheet's totals and the id counter, not
            # the history (the state keeps only the last record's board and irregularities)
            # nor the sheet's entries (copying them on every board would be quadratic)
            state = evolve(state, boards=(), irregularities=(), sheet=state.sheet.without_entries())
        self._state, entry = _replay_record(state, rec)
        return entry

    def session(self) -> dict[str, Any]:
        """The session's part of the report, the session finished (as a replay finishes it)."""
        self._state = finish_session(self.state)
        return _session_json(self._state)


def _regular_entry(rec: BoardRecord, board: RegularBoard) -> dict[str, Any]:
    """The entry of a board the fast path replayed: as ``outcome_json`` writes a board that
    had no irregularity, with the record's differences and the reader's warnings."""
    contract = board.contract
    assert rec.calls is not None and rec.deal is not None
    entry: dict[str, Any] = {
        "source": rec.source,
        "number": board.number,
        "dealer": str(board.dealer),
        "vul": str(board.vulnerability),
        "deal": "N:" + " ".join(map(format_mask, board.hands)),  # as Deal.pbn() writes it
        "auction": [str(c) for c in rec.calls],
        "contract": contract.text,
        "declarer": str(contract.declarer),
        "play": [str(c) for c in rec.play[:board.replayed]],
        "tricks": board.tricks,
        "result": None if board.tricks is None else contract.result(board.tricks),
        "score_ns": board.score_ns,
        "status": board.status,
        "irregularities": [],
    }
    # the made-up times the full replay gives a record's actions: one per action, in order
    calls = len(rec.calls)
    entry["timing"] = {"calls": [float(i) for i in range(calls)],
                       "play": [float(i) for i in range(calls + 1, calls + 1 + board.replayed)]}
    entry["differences"] = _differences(rec, entry)
    notes = list(rec.warnings)
    if board.replayed < len(rec.play):
        card = rec.play[board.replayed]
        entry["record_faults"] = [_contradiction(rec.deal.completed(), board.turn, card, board.trick)]
        if board.tricks is not None:
            notes.append(_assigned_note(board.tricks, "the play could not be replayed"))
    if board.status == "incomplete":
        notes.append(_NO_RESULT)
    if notes:
        entry["notes"] = notes
    return entry


def _replay_record(state: TableState, rec: BoardRecord) -> tuple[TableState, dict[str, Any]]:
    base: dict[str, Any] = {"source": rec.source, "number": rec.number}
    try:
        acts = record_actions(rec)
    except NotationError as exc:
        return state, base | {"error": str(exc)}
    before = len(state.boards)
    notes: list[str] = list(rec.warnings)
    for act in acts:
        state = step(state, act).state
    board = state.board
    assert board is not None
    if board.phase is Phase.AUCTION:
        notes.append("the auction stops before its end")
    t = float(len(acts))
    faults: list[str] = []
    for card in rec.play:
        board = state.board
        if board is None or board.phase is not Phase.PLAY or board.play is None:
            notes.append("cards recorded after the play ended were ignored")
            break
        play = board.play
        if play.holds(play.turn, card) is False:
            # the record is faulty, not the table: no irregularity is raised for it
            faults.append(_contradiction(board.deal, play.turn, card, play.trick_number))
            break
        state = step(state, a.PlayCard(play.turn, card, t)).state
        t += 1
    contradiction = bool(faults)
    board = state.board
    if board is not None and board.phase is Phase.PLAY and board.play is not None:
        state, note = _close_by_record(state, rec, contradiction, t)
        if note:
            notes.append(note)
    if len(state.boards) == before:
        state = abandon_board(state)
    outcome = state.boards[-1]
    entry = base | outcome_json(outcome, state)
    entry["differences"] = _differences(rec, entry)
    if faults:
        entry["record_faults"] = faults
    if notes:
        entry["notes"] = notes
    marks = _check_marks(rec, outcome, state)
    if marks:
        entry["marks"] = marks
    return state, entry


_NAMES = ("North", "East", "South", "West")


def _contradiction(deal: Deal | None, seat: Seat, card: Card, trick: int) -> str:
    """Why a record's play cannot be replayed: the card it gives is not in the hand in turn."""
    holder = None if deal is None else deal.holder(card)
    where = ("no hand of the deal holds it" if holder is None else
             "it was played already" if holder is seat else f"the deal gives it to {_NAMES[holder]}")
    return (f"the record's play contradicts its deal: at trick {trick} {_NAMES[seat]} plays {card}, "
            f"but {where}; the play is not replayed further")


def _close_by_record(state: TableState, rec: BoardRecord, contradiction: bool,
                     t: float) -> tuple[TableState, str | None]:
    """End a board whose play stops early: the record's claim, as an agreed claim if possible."""
    board = state.board
    assert board is not None and board.play is not None
    if rec.claim is None:
        return state, _NO_RESULT
    play = board.play
    declarer = play.declarer
    remaining = 13 - len(play.tricks)
    wanted = rec.claim - play.declarer_tricks
    if not contradiction and 0 <= wanted <= remaining:
        state = step(state, a.Claim(declarer, wanted, t)).state
        state = step(state, a.Agree(declarer.lho, t)).state
        state = step(state, a.Agree(declarer.rho, t)).state
        return state, None
    state = step(state, a.Adjust(rec.claim, t)).state
    why = ("the play could not be replayed" if contradiction else
           f"declarer had won {play.declarer_tricks} with {remaining} tricks to play")
    return state, _assigned_note(rec.claim, why)


_NO_RESULT = "the play stops before the end and the record states no result"


def _assigned_note(tricks: int, why: str) -> str:
    return f"the record's result ({tricks} tricks) is taken as the arbiter's assigned result: {why}"


_RS_RE = re.compile(r"^([1-7])([CDHSN])([NESW])(X{0,2})([=+-]\d*)$", re.IGNORECASE)


def _recorded(rec: BoardRecord) -> dict[str, str]:
    """What the record's own tags say of contract, declarer, tricks and score."""
    out: dict[str, str] = {}
    tags = dict(rec.tags)  # the last of a name counts, as BoardRecord.tag reads it
    contract = tags.get("Contract")
    if contract:
        out["contract"] = contract.strip()
    declarer = tags.get("Declarer")
    if declarer:
        out["declarer"] = declarer.strip().lstrip("^")
    result = tags.get("Result")
    if result:
        out["result"] = result.strip().lstrip("^")
    score = tags.get("Score")
    if score:
        out["score"] = score.strip()
    rs = tags.get("RecordedResult")
    if rs:
        out["rs"] = rs.strip()
    return out


def _norm_contract(text: str) -> str | None:
    if text.upper() in ("PASS", "P"):
        return "Pass"
    try:
        return Contract.parse(text, Seat.N).text
    except NotationError:
        return None


def _differences(rec: BoardRecord, entry: dict[str, Any]) -> list[str]:
    """Where the record's tags disagree with the replay (the replay is right by construction)."""
    rec_tags = _recorded(rec)
    diffs: list[str] = []
    ours_c = entry.get("contract")
    if "contract" in rec_tags and ours_c is not None:
        theirs = _norm_contract(rec_tags["contract"])
        if theirs != ours_c:
            diffs.append(f"contract: record {rec_tags['contract']}, auction {ours_c}")
    if ("declarer" in rec_tags and entry.get("declarer") and ours_c not in (None, "Pass")
            and rec_tags["declarer"] != entry["declarer"]):
        diffs.append(f"declarer: record {rec_tags['declarer']}, auction {entry['declarer']}")
    tricks = entry.get("tricks")
    if (tricks is not None and rec_tags.get("result", "").isdigit()
            and int(rec_tags["result"]) != tricks):
        diffs.append(f"tricks: record {rec_tags['result']}, replay {tricks}")
    score = entry.get("score_ns")
    if "score" in rec_tags and score is not None:
        m = re.match(r"^(NS|EW)\s+(-?\d+)$", rec_tags["score"])
        if m:
            theirs_ns = int(m.group(2)) * (1 if m.group(1) == "NS" else -1)
            if theirs_ns != score:
                diffs.append(f"score: record {rec_tags['score']}, replay NS {score}")
    rs = rec_tags.get("rs", "")
    if _RS_RE.match(rs) and ours_c is not None:
        ours_rs = None
        if ours_c != "Pass" and entry.get("result") is not None:
            ours_rs = _rs_form(ours_c, str(entry["declarer"]), str(entry["result"]))
        if ours_rs != rs.upper():
            diffs.append(f"result: vugraph rs {rs}, replay {ours_rs}")
    return diffs


def _rs_form(contract: str, declarer: str, result: str) -> str:
    """A contract and result as the vugraph ``rs`` list writes them: ``4SWX-4``, ``3NN+3``."""
    strain = contract[1:].rstrip("X")
    doubles = len(contract) - 1 - len(strain)
    return contract[0] + strain.replace("NT", "N") + declarer + "X" * doubles + result


def _check_marks(rec: BoardRecord, outcome: BoardOutcome,
                 state: TableState) -> list[dict[str, Any]]:
    """PBN ``^R`` revoke marks, each with the seat and trick of the marked card and whether the
    replay detected a revoke by that seat at that trick (Law 61)."""
    play = outcome.board.play
    if play is None:
        return []
    tricks = (*play.tricks, play.current)
    out = []
    for index, letter in rec.marks:
        if letter != "R" or index // 4 >= len(tricks):
            continue
        trick = tricks[index // 4]
        seat = trick.seat_of(index % 4)
        revokes = [i for i in map(state.irregularity, outcome.board.irregularity_ids)
                   if i is not None and i.kind == "revoke"]
        detected = any(i.offender is seat and i.trick == index // 4 + 1 for i in revokes)
        out.append({"mark": "R", "card": str(rec.play[index]), "seat": str(seat),
                    "trick": index // 4 + 1, "detected": detected})
    return out
