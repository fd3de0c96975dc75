"""PBN results: ``[ScoreTable]``, ``[TotalScoreTable]`` and ``[ScoreIMP]`` read into events to score, and written.

One file on purpose (over 600 lines): the reader and the writer of one PBN table format, kept
together so that what is written is exactly what is read back.

A PBN table (PBN 2.1 §5.2) is a tag whose value names its columns, ``Name\\widthAlign``
separated by ``;`` (an optional ``+``/``-`` before a name gives its order), followed by its
elements: string tokens in double quotes or section tokens, as many per row as there are
columns, over as many lines as they take. ``-`` is an irrelevant element, ``?`` an unknown one,
and ``^`` marks an artificial score. ``[ScoreTable]`` is a board's traveller (§5.7),
``[TotalScoreTable]`` the ranking (§5.8); ``[ScoreIMP "NS 4 EW -4"]`` a table's IMPs in a team
match, whose rooms ``[HomeTeam]`` (North-South at that table) and ``[VisitTeam]`` name.

The reader turns them into ``controller.fieldscore`` events: the results to score, the
conventions the producing program used (found from its name and the file's ``Scoring``), and
every value it printed, for ``tablectl score --check``. The programs it knows:

- Ruter (Ruter, "Ruter i Norge"; brenning.se): matchpoints 2 per pair beaten; "Ruter i
  Norge" prints matchpoints and totals centred on the average (matchpoints minus half the
  top); ``IMP;Butler-2;Mean`` is Butler with the highest and the lowest score dropped and the
  mean to the nearest 10; ``TotalScoreIMP`` is IMPs per board played; a multi-session file
  prints the session in ``Session*`` columns, and its ``Total*``/``Rank`` columns add up
  earlier sessions that are not in the file.
- any ``[ScoreIMP]`` file (RealBridge and others): the two rooms of each match are the two
  records of a board with the same teams swapped; a record without ``[Score]`` is scored
  from its contract and result.

It never raises for the content of a file: what it cannot use is listed in ``warnings``.

``dumps``/``dump`` write scored events back as PBN 2.1 results (travellers, ranking, team
rooms), with the event's conventions in a ``[ScoringConventions]`` tag that the reader takes
over what it would guess from the producing program; what they write reads back the same.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from controller.contract import Contract
from controller.deal import Deal
from controller.errors import NotationError
from controller.fieldscore.check import fixed
from controller.fieldscore.conventions import conventions_text, parse_conventions, program_conventions
from controller.fieldscore.event import UNRANKED
from controller.fieldscore.model import (
    Artificial,
    Award,
    BoardScore,
    Conventions,
    Datum,
    Event,
    EventScore,
    FieldScoreError,
    Match,
    Printed,
    Result,
    ResultsFile,
    ScoredResult,
    Scoring,
    Standing,
)
from controller.records.model import decode_text
from controller.records.people import NO_NAMES, Roll
from controller.records.played import Plays, TablePlay, play_key
from controller.scoring import duplicate_score
from controller.seats import Seat, Vulnerability, board_dealer, board_vulnerability

__all__ = ["PROGRAM", "Column", "Table", "TableRecord", "dump", "dumps", "load", "loads", "read"]

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_META = re.compile(r'%\s*<META\s+name=(\S+)\s+content="([^"]*)"', re.IGNORECASE)
_ELEMENT = re.compile(r'"((?:[^"\\]|\\.)*)"|([^\s"]+)')
_COLUMN = re.compile(r"^([+-]?)([^\\]+?)(?:\\(\d+)([LR]?))?$")
_SIDE_POINTS = re.compile(r"\b(NS|EW)\s*([+-]?\d+(?:\.\d+)?)", re.IGNORECASE)
_BUTLER_TRIM = re.compile(r"Butler-(\d+)", re.IGNORECASE)
_ESCAPE = re.compile(r'\\(["\\])')  # PBN: \" is a quote and \\ a backslash; other backslashes stay
_ROOM_SCORE = re.compile(r"^\s*(NS|EW)\s+(\S.*?)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Column:
    """A table's column (PBN 2.1 §5.2): its name, minimum width, alignment and sort order."""

    name: str
    width: int | None = None
    align: str | None = None
    order: str | None = None

    @classmethod
    def parse(cls, text: str) -> Column:
        """The column of ``Rank\\2R``, ``+Percentage_NS``, ``Names``."""
        m = _COLUMN.match(text.strip())
        if m is None:
            return cls(text.strip())
        order, name, width, align = m.groups()
        return cls(name.strip(), int(width) if width else None, align or None, order or None)


@dataclass(frozen=True, slots=True)
class Table:
    """A table: its tag's name, its columns and its rows (elements as text, quotes removed)."""

    name: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]

    def index(self, name: str) -> int | None:
        """The position of the column called ``name``, or None."""
        for i, c in enumerate(self.columns):
            if c.name == name:
                return i
        return None

    def records(self) -> list[dict[str, str]]:
        """The rows as {column name: element}."""
        names = [c.name for c in self.columns]
        return [dict(zip(names, row, strict=True)) for row in self.rows]


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One PBN record as this reader keeps it: its tags (``#`` copies resolved) and tables."""

    line: int
    tags: tuple[tuple[str, str], ...]
    tables: tuple[Table, ...]

    def tag(self, name: str) -> str | None:
        """The value of the last tag called ``name``, or None."""
        for key, value in reversed(self.tags):
            if key == name:
                return value
        return None

    def table(self, name: str) -> Table | None:
        """The table called ``name``, or None."""
        for t in self.tables:
            if t.name == name:
                return t
        return None


@dataclass(slots=True)
class _Open:
    line: int
    tags: list[tuple[str, str]] = field(default_factory=list)
    tables: list[tuple[str, str, list[str]]] = field(default_factory=list)


def read(text: str) -> tuple[tuple[TableRecord, ...], dict[str, str], tuple[str, ...]]:
    """The records of PBN text with their tags and tables, the ``% <META name= content=>`` lines
    (Ruter's), and the warnings: a table whose elements do not fill its rows."""
    meta: dict[str, str] = {}
    opened: list[_Open] = []
    current: _Open | None = None
    table: list[str] | None = None
    in_brace = False
    for number, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        if in_brace:
            if "}" not in line:
                continue
            line = line[line.index("}") + 1:]
            in_brace = False
        stripped = line.strip()
        if not stripped:
            current, table = None, None
            continue
        if stripped[0] == "%":
            m = _META.match(stripped)
            if m:
                meta[m.group(1)] = m.group(2)
            continue
        if stripped[0] == ";":
            continue
        if stripped[0] == "[":
            for m in _TAG.finditer(stripped):
                name, value = m.group(1), _ESCAPE.sub(r"\1", m.group(2))
                if current is None or (name in ("Event", "Board") and any(k == name for k, _ in current.tags)):
                    current = _Open(number)
                    opened.append(current)
                current.tags.append((name, value))
                table = None
                if name.endswith("Table"):
                    table = []
                    current.tables.append((name, value, table))
            rest = _TAG.sub("", stripped).strip()
            if "{" in rest and "}" not in rest[rest.index("{"):]:
                in_brace = True
            continue
        if stripped[0] == "{":
            in_brace = "}" not in stripped
            continue
        if table is not None:
            table.extend(_ESCAPE.sub(r"\1", a) if b == "" else b for a, b in _ELEMENT.findall(line))
    warnings: list[str] = []
    return _resolve(opened, warnings), meta, tuple(warnings)


def _resolve(opened: Sequence[_Open], warnings: list[str]) -> tuple[TableRecord, ...]:
    """The records with ``#`` copies resolved and each table's elements cut into rows."""
    records = []
    previous: dict[str, str] = {}
    for o in opened:
        tags = []
        for name, value in o.tags:
            if value == "#":
                value = previous.get(name, "")
            tags.append((name, value))
        previous = dict(tags)
        tables = []
        for name, spec, elements in o.tables:
            columns = tuple(Column.parse(c) for c in spec.split(";")) if spec.strip() else ()
            width = len(columns)
            rows = tuple(tuple(elements[i:i + width]) for i in range(0, len(elements) - width + 1, width)) \
                if width else ()
            if width and len(elements) % width:
                warnings.append(f"[{name}] of the record at line {o.line}: {len(elements) % width} element(s) "
                                f"after the last full row of {width} ignored")
            tables.append(Table(name, columns, rows))
        records.append(TableRecord(o.line, tuple(tags), tuple(tables)))
    return tuple(records)


def load(path: str | os.PathLike[str]) -> ResultsFile:
    """The events of the PBN results file at ``path`` (UTF-8, else cp1252 / Latin-1)."""
    p = Path(path)
    return loads(decode_text(p.read_bytes()), source=p.name)


def loads(text: str, source: str = "<string>") -> ResultsFile:
    """The events of PBN text: one per ``[Event]`` with score tables or ``[ScoreIMP]`` records."""
    records, meta, warnings = read(text)
    out_warnings = list(warnings)
    by_event: dict[str, list[TableRecord]] = {}
    for r in records:
        by_event.setdefault(r.tag("Event") or "", []).append(r)
    events = []
    for name, recs in by_event.items():
        if any(r.table("ScoreTable") for r in recs):
            events.append(_pairs_event(name, recs, meta, out_warnings))
        elif any(r.tag("ScoreIMP") is not None for r in recs):
            events.append(_teams_event(name, recs, meta, out_warnings))
    return ResultsFile(source, tuple(events), tuple(out_warnings))


# --- pairs: [ScoreTable] and [TotalScoreTable] ------------------------------------------


def _producer(records: Sequence[TableRecord], meta: dict[str, str]) -> str | None:
    if "Generator" in meta:
        return meta["Generator"]
    for r in records:
        app = r.tag("Application")
        if app:
            return app.split(" - ")[0].strip()
    return None


def _scoring_of(text: str, table: Table | None) -> tuple[Scoring, Conventions, list[str]]:
    """The scoring of a PBN ``Scoring`` value (or Ruter's ScoringType) and a traveller's columns."""
    t = text.lower()
    columns = {c.name for c in table.columns} if table else set()
    if "butler" in t or "ButlerDatum" in columns:
        m = _BUTLER_TRIM.search(text)
        dropped = int(m.group(1)) if m else 0
        notes = ["Butler: datum the mean of the scores to the nearest 10"
                 + (f", the {dropped // 2} highest and {dropped // 2} lowest dropped ({text!r})" if dropped else "")]
        return Scoring.BUTLER, Conventions(datum=Datum(trim=dropped // 2)), notes
    if "cross" in t or ("imp" in t and "IMP_NS" in columns):
        return Scoring.CROSS_IMP, Conventions(), ["cross-IMPs summed"]
    return Scoring.MP, Conventions(), ["matchpoints 2 per pair beaten, 1 per tie"]


def _cell(row: dict[str, str], name: str) -> str | None:
    v = row.get(name)
    if v is None or v in ("-", "?", ""):
        return None
    return v


def _row_result(board: str, row: dict[str, str], warnings: list[str], where: str) -> Result | None:
    ns, ew = _cell(row, "PairId_NS"), _cell(row, "PairId_EW")
    if ns is None and ew is None:
        warnings.append(f"{where}: no pair numbers: row ignored")
        return None
    if ns is None or ew is None:
        # one side without a pair number (Ruter: a substitute pair, not ranked) but a score the
        # other tables are compared with: the result counts for the field and the pair it names
        given = [t for t in (_cell(row, "Score_NS"), _cell(row, "Score_EW")) if t is not None]
        if len(given) != 1 or not re.fullmatch(r"[+-]?[0-9]+", given[0]):
            warnings.append(f"{where}: no pair numbers: row ignored")
            return None
        ns, ew = ns or UNRANKED, ew or UNRANKED
    section = _cell(row, "Section")
    split = _split_award(_cell(row, "Score_NS"), _cell(row, "Score_EW"))
    if split is not None:
        return Result(board, ns, ew, artificial=split, section=section)
    mixed = _score_and_award(board, ns, ew, section, _cell(row, "Score_NS"), _cell(row, "Score_EW"))
    if mixed is not None:
        return mixed
    texts = [(_cell(row, "Score_NS"), 1), (_cell(row, "Score_EW"), -1)]
    for text, sign in texts:
        if text is None:
            continue
        try:
            if text.startswith("^"):
                raise ValueError(text)
            return Result(board, ns, ew, score=sign * int(text), section=section)
        except ValueError:
            pass
        try:
            artificial = Artificial.parse(text.lstrip("^"))
        except FieldScoreError:
            continue
        if sign < 0:
            artificial = Artificial(artificial.ew, artificial.ns)
        return Result(board, ns, ew, artificial=artificial, section=section)
    warnings.append(f"{where}: no score for {ns} v {ew}: row ignored")
    return None


def _bye(board: str, row: dict[str, str]) -> tuple[str | None, str, str] | None:
    """(section, pair, board) of a bye row: one pair and the score ``Bye`` (Ruter, Magic Contest)."""
    ns, ew = _cell(row, "PairId_NS"), _cell(row, "PairId_EW")
    scores = {(_cell(row, c) or "").lower() for c in ("Score_NS", "Score_EW")}
    if (ns is None) == (ew is None) or "bye" not in scores:
        return None
    pair = ns if ns is not None else ew
    assert pair is not None
    return _cell(row, "Section"), pair, board


def _award(text: str) -> Award | None:
    try:
        artificial = Artificial.parse(text.lstrip("^"))
    except FieldScoreError:
        return None
    return artificial.ns if artificial.ns is artificial.ew else None


def _score_and_award(board: str, ns: str, ew: str, section: str | None, ns_text: str | None,
                     ew_text: str | None) -> Result | None:
    """A score under one side and an award under the other (Ruter: ``"A=" "+0"``): the score,
    compared with the other tables, and that side's award; None for any other row."""
    if ns_text is None or ew_text is None:
        return None
    for award_text, score_text, sign, side in ((ns_text, ew_text, -1, "ns"), (ew_text, ns_text, 1, "ew")):
        award = _award(award_text)
        if award is None or not re.fullmatch(r"[+-]?[0-9]+", score_text):
            continue
        score = sign * int(score_text)
        if side == "ns":
            return Result(board, ns, ew, score=score, section=section, award_ns=award)
        return Result(board, ns, ew, score=score, section=section, award_ew=award)
    return None


def _split_award(ns_text: str | None, ew_text: str | None) -> Artificial | None:
    """An artificial score given side by side: North-South's award in ``Score_NS`` and East-West's
    in ``Score_EW`` (Ruter writes ``"A+" "A-"``); None unless both columns hold one award each."""
    if ns_text is None or ew_text is None:
        return None
    try:
        ns_award, ew_award = Artificial.parse(ns_text.lstrip("^")), Artificial.parse(ew_text.lstrip("^"))
    except FieldScoreError:
        return None
    if ns_award.ns is not ns_award.ew or ew_award.ns is not ew_award.ew:
        return None
    return Artificial(ns_award.ns, ew_award.ew)


_RESULT_FIELDS = {"Percentage_NS": "percent_ns", "Percentage_EW": "percent_ew",
                  "IMP_NS": "points_ns", "IMP_EW": "points_ew"}


def _pairs_event(name: str, records: Sequence[TableRecord], meta: dict[str, str],
                 warnings: list[str]) -> Event:
    producer = _producer(records, meta)
    first_table = next(t for r in records if (t := r.table("ScoreTable")) is not None)
    scoring_text = meta.get("ScoringType") or next((s for r in records if (s := r.tag("Scoring"))), "")
    scoring, conventions, notes = _scoring_of(scoring_text, first_table)
    conventions, program_notes = program_conventions(producer, scoring, conventions)
    notes.extend(program_notes)
    conventions = _own_conventions(records, conventions, notes, warnings)
    name_lower = (producer or "").lower()
    is_ruter = name_lower.startswith("ruter")
    centred = is_ruter and "norge" in name_lower and scoring is Scoring.MP
    if centred:
        notes.append("matchpoints and totals printed centred on the average (Ruter i Norge)")
    results: list[Result] = []
    printed: list[Printed] = []
    participants: list[tuple[str | None, str]] = []
    not_checked: list[str] = []
    byes: list[tuple[str | None, str, str]] = []
    for rec in records:
        board = rec.tag("Board") or "?"
        traveller = rec.table("ScoreTable")
        if traveller is not None:
            if traveller.index("Multiplicity") is not None:
                warnings.append(f"board {board} (line {rec.line}): the Multiplicity column is not read: "
                                "each row is one result")
            for i, row in enumerate(traveller.records(), start=1):
                where = f"board {board} row {i} (line {rec.line})"
                bye = _bye(board, row)
                if bye is not None:
                    byes.append(bye)
                    continue
                result = _row_result(board, row, warnings, where)
                if result is None:
                    continue
                results.append(result)
                key = ("result", result.section or "", board, result.ns, result.ew)
                for column, value in row.items():
                    fname = _RESULT_FIELDS.get(column)
                    if column in ("MP_NS", "MP_EW"):
                        fname = ("centred_" if centred else "points_") + column[-2:].lower()
                    if fname and _cell(row, column) is not None:
                        printed.append(Printed(key, fname, value, column))
                if _cell(row, "ButlerDatum") is not None:
                    printed.append(Printed(("board", "", board), "datum", row["ButlerDatum"], "ButlerDatum"))
        totals = rec.table("TotalScoreTable")
        if totals is not None:
            _total_rows(totals, scoring, is_ruter, centred, printed, participants, not_checked,
                        _ruter_imp_total(scoring_text))
    if byes:
        notes.append("a pair's bye (a board it had no opponents for) scores its own average on the boards "
                     "it played (Ruter, Magic Contest)")
    return Event(name, scoring, tuple(results), conventions, pairs=tuple(participants), producer=producer,
                 notes=tuple(notes), printed=tuple(printed), not_checked=tuple(dict.fromkeys(not_checked)),
                 byes=tuple(byes))


def _ruter_imp_total(scoring_text: str) -> str:
    """What Ruter's ``TotalScoreIMP`` is, by its ScoringType: Butler IMPs per board played,
    cross-IMPs ``IMP;Cross`` summed, ``IMP;Cross2`` per comparison (as its files print them)."""
    kind = scoring_text.lower().replace(" ", "").split(";")
    if "cross2" in kind:
        return "per_comparison"
    if "cross" in kind:
        return "total"
    return "average"


def _total_rows(table: Table, scoring: Scoring, is_ruter: bool, centred: bool, printed: list[Printed],
                participants: list[tuple[str | None, str]], not_checked: list[str],
                imp_total: str = "average") -> None:
    columns = {c.name for c in table.columns}
    session = "SessionScoreMP" in columns or "SessionPercentage" in columns
    fields: dict[str, str] = {}
    if session:
        fields = {"SessionScoreMP": "centred_total" if centred else "total", "SessionPercentage": "percent",
                  "SessionRank": "rank", "SessionRankTie": "rank_end", "NrBoardsSession": "boards"}
        cumulative = [c for c in ("TotalScoreMP", "TotalPercentage", "Rank", "RankTie", "NrBoards") if c in columns]
        if cumulative:
            not_checked.append(f"{', '.join(cumulative)}: cumulative over earlier sessions, whose scores "
                               "are not in the file")
    else:
        fields = {"TotalScoreMP": "centred_total" if centred else "total", "TotalMP": "total",
                  "TotalPercentage": "percent", "Rank": "rank", "RankTie": "rank_end", "NrBoards": "boards",
                  "TotalIMP": "total", "MeanIMP": "average", "MeanMP": "average",
                  "TotalScoreIMP": imp_total if is_ruter else "total"}
    for row in table.records():
        pair = _cell(row, "PairId")
        if pair is None:
            continue
        section = _cell(row, "Section")
        participants.append((section, pair))
        key = ("pair", section or "", pair)
        for column, fname in fields.items():
            value = row.get(column)
            if value is None or value in ("?", ""):
                continue
            if fname == "rank_end" and value == "-":
                rank_column = "SessionRank" if session else "Rank"
                value = row.get(rank_column, "-")
            if value != "-":
                printed.append(Printed(key, fname, value, column))


def _own_conventions(records: Sequence[TableRecord], conventions: Conventions, notes: list[str],
                     warnings: list[str]) -> Conventions:
    """The conventions a ``[ScoringConventions]`` tag states (files written by ``dumps``), else ``conventions``."""
    for rec in records:
        text = rec.tag("ScoringConventions")
        if text is None:
            continue
        try:
            own = parse_conventions(text, conventions)
        except FieldScoreError as exc:
            warnings.append(f"line {rec.line}: [ScoringConventions]: {exc}: the program's defaults are used")
            return conventions
        notes.append(f"conventions as the file states them: {text}")
        return own
    return conventions


# --- teams: [ScoreIMP] -------------------------------------------------------------------


def _record_score(rec: TableRecord, board: str, warnings: list[str]) -> int | Artificial | None:
    """North-South's score: ``[Score]`` (``NS 420``, ``EW 100``, or an artificial score as this
    module writes one, ``NS A+/A-``), else from ``[Contract]``, ``[Declarer]`` and ``[Result]``."""
    text = rec.tag("Score")
    if text:
        sides = dict((s.upper(), float(v)) for s, v in _SIDE_POINTS.findall(text))
        if "NS" in sides:
            return int(sides["NS"])
        if "EW" in sides:
            return -int(sides["EW"])
        m = _ROOM_SCORE.match(text)
        if m:
            try:
                artificial = Artificial.parse(m.group(2))
            except FieldScoreError:
                pass
            else:
                return artificial if m.group(1).upper() == "NS" else Artificial(artificial.ew, artificial.ns)
    contract_text = (rec.tag("Contract") or "").strip()
    if contract_text.lower() == "pass":
        return 0
    try:
        declarer = Seat.parse(rec.tag("Declarer") or "")
        contract = Contract.parse(contract_text, declarer)
        tricks = int(rec.tag("Result") or "")
        vul_text = rec.tag("Vulnerable")
        vul = Vulnerability.parse(vul_text) if vul_text else board_vulnerability(int(board))
    except (NotationError, ValueError):
        warnings.append(f"board {board} (line {rec.line}): no score and no contract to score")
        return None
    return duplicate_score(contract, tricks, vul)


def _teams_event(name: str, records: Sequence[TableRecord], meta: dict[str, str], warnings: list[str]) -> Event:
    rooms: dict[frozenset[str], dict[str, dict[str, Result]]] = {}
    order: dict[frozenset[str], tuple[str, str]] = {}
    rounds: dict[frozenset[str], str] = {}
    printed: dict[tuple[str, ...], list[Printed]] = {}
    teams: list[str] = []
    notes = ["IMPs between the two rooms of each match; VPs on the WBF continuous scale"]
    conventions = _own_conventions(records, Conventions(), notes, warnings)
    if len(notes) > 1:
        notes = [notes[-1]]
    totals: list[Printed] = []
    for rec in records:
        ranking = rec.table("TotalScoreTable")
        if ranking is not None:
            teams.extend(_team_totals(ranking, totals))
        home, visit, board = rec.tag("HomeTeam"), rec.tag("VisitTeam"), rec.tag("Board")
        if not home or not visit or not board:
            warnings.append(f"line {rec.line}: a [ScoreIMP] record without HomeTeam, VisitTeam or Board: ignored")
            continue
        score = _record_score(rec, board, warnings)
        if score is None:
            continue
        teams.extend((home, visit))
        result = Result(board, home, visit, score=score) if isinstance(score, int) else \
            Result(board, home, visit, artificial=score)
        key = frozenset((home, visit))
        order.setdefault(key, (home, visit))
        if rec.tag("Round"):
            rounds.setdefault(key, rec.tag("Round") or "")
        rooms.setdefault(key, {}).setdefault(board, {})[home] = result
        rkey = ("result", "", board, home, visit)
        printed[rkey] = [Printed(rkey, f"points_{m.group(1).lower()}", m.group(2), "ScoreIMP")
                         for m in _SIDE_POINTS.finditer(rec.tag("ScoreIMP") or "")]
    matches = []
    not_checked = []
    for key, boards in rooms.items():
        home, away = order[key]
        pairs = []
        for board, by_home in boards.items():
            if home in by_home and away in by_home:
                pairs.append((by_home[home], by_home[away]))
                continue
            ((team, _),) = by_home.items()
            other = away if team == home else home
            lost = printed.pop(("result", "", board, team, other), [])
            note = (f"board {board}, {team} v {other}: the other room's record ({other} North-South) is "
                    f"not in the file, so its ScoreIMP ({', '.join(p.text for p in lost)}) cannot be recomputed")
            warnings.append(note)
            not_checked.append(note)
        matches.append(Match(home, away, tuple(pairs), rounds.get(key)))
    return Event(name, Scoring.TEAMS, tuple(r for m in matches for b in m.boards for r in b), conventions,
                 matches=tuple(matches), pairs=tuple((None, t) for t in dict.fromkeys(teams)),
                 producer=_producer(records, meta), notes=tuple(notes),
                 printed=(*(p for ps in printed.values() for p in ps), *totals), not_checked=tuple(not_checked))


_TEAM_FIELDS = {"TotalScoreVP": "total", "TotalScoreIMP": "total", "Rank": "rank", "RankTie": "rank_end",
                "NrBoards": "boards", "Wins": "wins"}


def _team_totals(table: Table, printed: list[Printed]) -> list[str]:
    """The teams of a teams event's ``[TotalScoreTable]`` (``TeamId`` rows) and what it printed."""
    teams = []
    for row in table.records():
        team = _cell(row, "TeamId")
        if team is None:
            continue
        teams.append(team)
        for column, fname in _TEAM_FIELDS.items():
            value = row.get(column)
            if fname == "rank_end" and value == "-":
                value = row.get("Rank", "-")
            if value is not None and value not in ("-", "?", ""):
                printed.append(Printed(("pair", "", team), fname, value, column))
    return teams


# --- writing -----------------------------------------------------------------------------


PROGRAM = "tablectl"
"""The program named in the files this project writes (PBN's Generator, USEBIO's PROGRAM_NAME)."""

def dump(scores: Sequence[EventScore], path: str | os.PathLike[str], *, deals: Mapping[str, Deal] | None = None,
         program: str = PROGRAM, plays: Plays | None = None, roll: Roll = NO_NAMES) -> None:
    """Write ``dumps(scores)`` to ``path`` (UTF-8)."""
    Path(path).write_text(dumps(scores, deals=deals, program=program, plays=plays, roll=roll), encoding="utf-8")


def dumps(scores: Sequence[EventScore], *, deals: Mapping[str, Deal] | None = None, program: str = PROGRAM,
          plays: Plays | None = None, roll: Roll = NO_NAMES) -> str:
    """The events as PBN 2.1 results: per board a record with its traveller (``[ScoreTable]``,
    §5.7) and, in the first record, the ranking (``[TotalScoreTable]``, §5.8); a team event
    as two ``[ScoreIMP]`` records per board of each match (``[HomeTeam]`` North-South at that
    table, as this module reads them) and its teams' ranking.

    Every value is the one the scores give, printed as ``check`` reads it back; the event's
    conventions travel in a ``[ScoringConventions]`` tag (``controller.fieldscore.conventions``).
    ``deals`` (by board) adds each board's ``[Deal]``; ``plays`` (``controller.records.played``)
    each table's ``Contract``, ``Declarer``, ``Result`` (declarer's tricks) and ``Lead`` in the
    traveller, and in a team match's record its mandatory ``[Declarer]``, ``[Contract]`` and
    ``[Result]`` tags (a pairs board's record stands for no one table: ``?``, unknown); ``roll``
    (``controller.records.people``) the pairs' ``Names`` in the ranking when it names any. Two
    events of one name (a teams event and its pairs' cross-IMPs) are told apart by the second's
    scoring. Procedural penalties are not written (PBN has no column for them).
    """
    lines = ["% PBN 2.1", "% EXPORT", f'% <META name=Generator content="{program}">', ""]
    names: set[str] = set()
    for score in scores:
        name = score.event.name
        if name in names:
            name = f"{name} ({_SCORING_WORDS[score.event.scoring]})"
        names.add(name)
        records = _teams_records(score, name, deals, plays or {}) if score.event.scoring is Scoring.TEAMS else \
            _pairs_records(score, name, deals, plays or {}, roll)
        for record in records:
            lines.extend(record)
            lines.append("")
    return "\n".join(lines)


_BACKSLASH = re.compile(r'\\(?=["\\]|$)')
_SCORING_WORDS = {Scoring.MP: "matchpoints", Scoring.BUTLER: "Butler", Scoring.CROSS_IMP: "cross-IMPs",
                  Scoring.TEAMS: "teams"}
_SCORING_TAG = {Scoring.MP: "MP", Scoring.BUTLER: "IMP;Butler", Scoring.CROSS_IMP: "IMP;Cross",
                Scoring.TEAMS: "IMP"}


def _tag(name: str, value: str) -> str:
    """A tag: a backslash escaped only where it would read as an escape (a table's ``Rank\\2R`` stays)."""
    return f'[{name} "' + _BACKSLASH.sub(r"\\\\", value).replace('"', '\\"') + '"]'


def _element(value: str) -> str:
    """A table element: a bare token when it can be one, else a string token."""
    if value and re.fullmatch(r"[^\s\"\\;]+", value) and value[0] not in "[{%":
        return value
    return '"' + _BACKSLASH.sub(r"\\\\", value).replace('"', '\\"') + '"'


def _number(value: float, places: int = 2) -> str:
    """``value`` to ``places`` decimals (as ``check`` rounds), without trailing zeros."""
    text = fixed(value, places)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _table(name: str, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[str]]) -> list[str]:
    """A PBN table (§5.2): the tag naming its columns with their widths, then a row a line."""
    cells = [[_element(v) for v in row] for row in rows]
    widths = [max([len(c[i]) for c in cells] + [1]) for i in range(len(columns))]
    spec = ";".join(f"{col}\\{w}{align}" for (col, align), w in zip(columns, widths, strict=True))
    out = [_tag(name, spec)]
    for row in cells:
        out.append(" ".join(c.rjust(w) if align == "R" else c.ljust(w)
                            for c, w, (_, align) in zip(row, widths, columns, strict=True)).rstrip())
    return out


def _board_tags(event: str, board: str, scoring: Scoring, deals: Mapping[str, Deal] | None,
                played: TablePlay | None = None) -> list[str]:
    """The mandatory tags of the export format (PBN 2.1 §3.1); the result ones are the table's
    when the record is one table's (``played``), else ``?`` (unknown)."""
    tags = [_tag("Event", event), _tag("Site", ""), _tag("Date", ""), _tag("Board", board)]
    tags += [_tag(seat, "") for seat in ("West", "North", "East", "South")]
    number = int(board) if board.isdigit() and int(board) > 0 else None
    tags.append(_tag("Dealer", str(board_dealer(number)) if number else ""))
    tags.append(_tag("Vulnerable", board_vulnerability(number).pbn if number else ""))
    deal = (deals or {}).get(board)
    if deal is not None:
        tags.append(_tag("Deal", deal.pbn()))
    tags.append(_tag("Scoring", _SCORING_TAG[scoring]))
    declarer, contract, result = _played_cells(played) if played is not None else ("?", "?", "?")
    tags += [_tag("Declarer", "" if declarer == "-" else declarer), _tag("Contract", contract),
             _tag("Result", "" if result == "-" else result)]
    return tags


def _played_cells(played: TablePlay | None) -> tuple[str, str, str]:
    """Declarer, contract and declarer's tricks as a traveller prints them (``-``: none, ``?``: unknown)."""
    if played is None:
        return "?", "?", "?"
    if played.contract is None:
        return "-", "Pass", "-"
    return str(played.declarer), played.contract_text, "?" if played.tricks is None else str(played.tricks)


def _place(st: Standing) -> tuple[str, str]:
    if st.rank is None:
        return "-", "-"
    return str(st.rank), str(st.rank + st.tied - 1) if st.tied > 1 else "-"


def _pairs_records(score: EventScore, name: str, deals: Mapping[str, Deal] | None, plays: Plays,
                   roll: Roll = NO_NAMES) -> list[list[str]]:
    event = score.event
    mp = event.scoring is Scoring.MP
    sections = any(r.section for r in event.results) or any(st.section for st in score.standings)
    ranking_columns = [("Rank", "R"), ("RankTie", "R"), ("PairId", "R")] + ([("Section", "L")] if sections else []) \
        + [("Direction", "R")] + ([("TotalMP", "R"), ("TotalPercentage", "R")] if mp else
                                  [("TotalScoreIMP", "R")]) + [("NrBoards", "R")]
    named = {(st.section, st.pair): players for st in score.standings
             if (players := roll.players(st.section, st.pair)) is not None}
    if named:
        ranking_columns.append(("Names", "L"))
    ranking = []
    for st in score.standings:
        rank, tie = _place(st)
        row = [rank, tie, st.pair] + ([st.section or "-"] if sections else []) \
            + [{"NS": "N-S", "EW": "E-W"}.get(st.direction or "", "-"), _number(st.total)]
        if mp:
            row.append(_number(st.percent) if st.percent is not None else "-")
        row.append(str(st.boards))
        if named:
            players = named.get((st.section, st.pair))
            row.append(" - ".join(players.names) if players is not None else "-")
        ranking.append(row)
    head = [_tag("ScoringConventions", conventions_text(event.conventions)),
            *_table("TotalScoreTable", ranking_columns, ranking)]
    by_board: dict[str, list[tuple[BoardScore, ScoredResult]]] = {}
    for b in score.boards:
        for s in b.results:
            by_board.setdefault(b.board, []).append((b, s))
    records: list[list[str]] = []
    for board, rows in by_board.items():
        played = [plays.get(play_key(s.result.section, board, s.result.ns, s.result.ew)) for _, s in rows]
        contracts = any(p is not None for p in played)
        columns = ([("Section", "L")] if sections else []) + [("PairId_NS", "R"), ("PairId_EW", "R")]
        if contracts:
            columns += [("Contract", "L"), ("Declarer", "L"), ("Result", "R"), ("Lead", "L")]
        columns += [("Score_NS", "R"), ("Score_EW", "R")]
        columns += [("MP_NS", "R"), ("MP_EW", "R"), ("Percentage_NS", "R"), ("Percentage_EW", "R")] if mp else \
            [("IMP_NS", "R"), ("IMP_EW", "R")]
        datum_column = event.scoring is Scoring.BUTLER and all(b.section is None for b, _ in rows)
        if datum_column:
            columns.append(("ButlerDatum", "R"))
        cells = []
        for (b, s), p in zip(rows, played, strict=True):
            r = s.result
            row = ([r.section or "-"] if sections else []) + [r.ns, r.ew]
            if contracts:
                declarer, contract, result = _played_cells(p)
                row += [contract, declarer, result, "-" if p is None or p.lead is None else str(p.lead)]
            row += [*_traveller_score(r), _number(s.points_ns), _number(s.points_ew)]
            if mp:
                row += [_number(s.percent_ns) if s.percent_ns is not None else "-",
                        _number(s.percent_ew) if s.percent_ew is not None else "-"]
            if datum_column:
                row.append(_number(b.datum) if b.datum is not None else "-")
            cells.append(row)
        for section, pair, bye_board in event.byes:  # as Ruter writes a bye: the pair, no opponents
            if bye_board == board:
                cells.append(([section or "-"] if sections else []) + [pair, "-", "Bye", "Bye"]
                             + ["-"] * (len(columns) - 4 - (1 if sections else 0)))
        record = _board_tags(name, board, event.scoring, deals)
        if not records:
            record += head
        records.append(record + _table("ScoreTable", columns, cells))
    if not records:  # no board scored: the ranking alone
        records.append([_tag("Event", name), _tag("Scoring", _SCORING_TAG[event.scoring]), *head])
    return records


def _traveller_score(r: Result) -> list[str]:
    """Score_NS and Score_EW: the score in its side's column; an artificial one (``^``) in North-South's."""
    if r.award_ns is not None:  # as Ruter writes it: the award under its side, the score under the other
        return [r.award_ns.value, str(-(r.score or 0))]
    if r.award_ew is not None:
        return [str(r.score), r.award_ew.value]
    if r.artificial is not None:
        return ["^" + str(r.artificial), "-"]
    if r.weighted:  # PBN has no form for a weighted score (Law 12C1(c)): written so that no reader takes it for one
        return ["^" + "/".join(f"{s}@{w:g}" for s, w in r.weighted), "-"]
    assert r.score is not None
    return [str(r.score), "-"] if r.score >= 0 else ["-", str(-r.score)]


def _room_score(r: Result) -> str:
    if r.artificial is not None or r.weighted:
        return f"NS {r.score_text()}"
    return f"NS {r.score}"


def _teams_records(score: EventScore, name: str, deals: Mapping[str, Deal] | None, plays: Plays) -> list[list[str]]:
    event = score.event
    vps = event.conventions.vp is not None
    columns = [("Rank", "R"), ("RankTie", "R"), ("TeamId", "R"), ("TotalScoreVP" if vps else "TotalScoreIMP", "R"),
               ("NrBoards", "R"), ("Wins", "R")]
    rows = []
    for st in score.standings:
        rank, tie = _place(st)
        rows.append([rank, tie, st.pair, _number(st.total), str(st.boards), str(st.wins or 0)])
    head = [_tag("ScoringConventions", conventions_text(event.conventions)), *_table("TotalScoreTable", columns, rows)]
    records: list[list[str]] = []
    for ms in score.matches:
        m = ms.match
        for (home_ns, away_ns), (board, gained) in zip(m.boards, ms.imps, strict=True):
            for room, result, team, other, points in (("Open", home_ns, m.home, m.away, gained),
                                                      ("Closed", away_ns, m.away, m.home, -gained)):
                played = plays.get(play_key(result.section, board, result.ns, result.ew))
                record = _board_tags(name, board, Scoring.TEAMS, deals, played)
                if not records:
                    record += head
                record += [_tag("HomeTeam", team), _tag("VisitTeam", other), _tag("Room", room)]
                if m.round:
                    record.append(_tag("Round", m.round))
                record += [_tag("Score", _room_score(result)), _tag("ScoreIMP", f"NS {points} EW {-points}")]
                records.append(record)
    if not records:
        records.append([_tag("Event", name), *head])
    return records
