"""The room's results as they come in: each table's results put to its pairs, the field scored
live, and the boards checked across the room (pure).

``RoomResults`` takes what the tables publish: a board started (the table's ``state``: its
``deal``, or its arbiter view's deal) and a board finished (its ``result``, the replay entry). It keeps

* the **travellers**: per board, every table's result entry as it arrived;
* the **attribution** of each result to its pairs, and each table followed through the movement
  (Law 15): ``controller.room.attribution``;
* the **scores**: the results scored with ``controller.fieldscore.score_event`` (matchpoints
  by default, the session's scoring otherwise; a team movement's matches from its two rooms),
  recomputed only when something changed: every board's points, the ranking, a pair's scorecard.
* the **Director's desk** (``controller.room.adjustments``): corrections and adjusted scores,
  each an entry; the results are scored as they stand after them (``adjust``, ``entries``);
* what the console's page shows (``view``): each board's traveller and points, made again only for
  the boards whose rows or points changed, each with a version (``controller.room.board_output``).

And it checks the boards across the room:

* **Law 87, a fouled board:** the same board number seen with different deals at two tables
  (the deal of the table's state at board start, or of its result). The Director is told
  once for every new deal; the board's results are scored in groups, the tables with the same
  deal against each other (Law 87B), each group scaled to the full top by Neuberg's formula.
  The group with the most tables keeps the board's number; the others are ``7b``, ``7c``...
* **Law 7, a rotated board:** the same board with the same hands, each moved on by 1 to 3
  seats (``controller.room.boards``). The Director is told which table played it which way.
  Turned round (2 seats: North-South still held the North-South cards) the result is scored
  with the others; turned by 1 or 3 seats it is scored as played, in a group of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.deal import Deal
from controller.fieldscore.boardwise import BoardwiseScore
from controller.fieldscore.event import score_event
from controller.fieldscore.field import (
    Official,
    SectionsScore,
    across_the_field,
    in_each_section,
    score_sections,
    sections_score,
)
from controller.fieldscore.model import (
    Conventions,
    Event,
    EventScore,
    FieldScoreError,
    Match,
    Result,
    ScoredResult,
    Scoring,
)
from controller.fieldscore.session import Session
from controller.room.adjustments import Desk, DeskEntry, DeskError, result_of
from controller.room.attribution import Attribution, MovementWays, RoomAlert, _int, _set_boards, _Way, table_order
from controller.room.board_output import BoardOutputs, ResultsView, ranking_json
from controller.room.boards import deals_differ
from controller.room.deals_seen import DealsSeen
from controller.room.standings import Made, Row, ScoredRows, team_matches

__all__ = ["Attribution", "RoomAlert", "RoomResults", "deals_differ", "table_order"]

Json = dict[str, Any]

_IDLE = (None, "idle", "done")


def _round2(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


@dataclass(slots=True)
class _Scored:
    score: EventScore | None
    rows: Mapping[tuple[str, str], Row]
    """(board, table) -> attribution, label (the board as scored) and its points."""
    groups: dict[str, list[list[str]]]
    entries: dict[str, dict[str, Json]] = field(default_factory=dict)
    """board -> table -> the result entry as it stands (``RoomResults.entries``)."""
    sections: SectionsScore | None = None
    """Sections playing the same boards: scored in each section and across the field, ``score``
    being the official one of the two (``controller.fieldscore.field``)."""
    _by_pair: dict[tuple[str | None, str], list[tuple[str, str]]] | None = None
    _standings: dict[tuple[str | None, str], Json] | None = None
    ranking: list[Json] | None = None
    """``RoomResults.ranking`` once made."""
    made: Mapping[str, Made] = field(default_factory=dict)
    """board -> its rows as they were scored (``RoomResults._rows``: made anew when they change)."""
    points_of: Callable[[str], Sequence[ScoredResult | None]] | None = None
    """A board's scored results, one per row with a result (None: read from ``rows``, once a board)."""
    _points: dict[str, tuple[ScoredResult | None, ...]] = field(default_factory=dict)

    def points(self, board: str) -> Sequence[ScoredResult | None]:
        """``board``'s scored results, one per row with a result: the same object until scored again."""
        if self.points_of is not None:
            return self.points_of(board)
        found = self._points.get(board)
        if found is None:  # scored whole: every board's points are new with each scoring
            found = self._points[board] = tuple(self.rows[(board, t)][2] for t, _, _, r in self.made[board][1]
                                                if r is not None)
        return found

    def of_pair(self, pair: str, section: str | None) -> list[tuple[str, str]]:
        """The (board, table) rows ``pair`` played in ``section`` (indexed once: every pair's
        scorecard at the session's end is then linear in the results, not in their square)."""
        if self._by_pair is None:
            self._by_pair = {}
            for key, (who, _, _) in self.rows.items():
                for side in {who.ns, who.ew}:
                    self._by_pair.setdefault((who.section or None, side), []).append(key)
        return self._by_pair.get((section or None, pair), [])

    def standing_row(self, pair: str, section: str | None, ranking: Callable[[], list[Json]]) -> Json | None:
        """``pair``'s row of the ranking in ``section`` (None: not ranked yet), the ranking read once."""
        if self.score is None:
            return None
        if self._standings is None:
            self._standings = {}
            for row in ranking():
                self._standings.setdefault((row["section"] or None, row["pair"]), row)
        return self._standings.get((section or None, pair))


class RoomResults(DealsSeen, MovementWays):
    """The room's results (module doc): ``state`` and ``result`` take a table's messages and
    return what the Director must be told; the rest reads."""

    def __init__(self, session: Session | None = None, name: str | None = None) -> None:
        self.session = session
        self.name = name or (session.name if session is not None else "Session")
        self.results: dict[str, dict[str, Json]] = {}
        """board -> table -> the result entry (the board's replay entry plus ``pairs``)."""
        self.deals: dict[str, dict[str, Deal]] = {}
        """board -> table -> the deal it was played with."""
        self.turns: dict[str, dict[str, int]] = {}
        """board -> table -> by how many seats it played the board rotated (Law 7)."""
        self._ways: dict[str, _Way] = {}
        self._way_changes: dict[str, int] = {}
        self._told: dict[str, int] = {}
        """board -> how many different deals the Director has been told of."""
        self._scored: _Scored | None = None
        self._rows: dict[str, tuple[dict[str, Json], list[tuple[str, Attribution, str, Result | None]]]] = {}
        """board -> its result entries as they stand and each table's row (attribution, label, result):
        made again only for a board that changed (``_rescore``), so that one more result costs its board."""
        self._groups: dict[str, list[list[str]]] = {}
        """board -> its tables by the deal they played (``groups``), until its deals change."""
        self._alike: dict[str, tuple[Deal, int]] = {}
        """board -> what its tables saw of it together, and how many tables, while they all played one
        deal (no board fouled, none turned): a table's deal that agrees with it changes nothing (``_deal``)."""
        self._made: dict[str, dict[str, tuple[Json, Attribution, str, Result | None, int]]] = {}
        """board -> table -> the entry, attribution, label and way (``_way_changes``) its result was made
        from: a board's rows made again keep the attribution and result of the tables whose entry and way
        through the movement are the same."""
        self._scorers: dict[bool, BoardwiseScore] | None = None
        """The field scored board by board, by ``across_sections``: one way, or with sections both
        (each section alone and across the field); made again when every board is."""
        self.changes = 0
        """How many times the results changed (a result, a deal, the desk): the console's page is sent
        the travellers and the ranking again only when it moved on."""
        self._outputs = BoardOutputs()
        """Each board's traveller and points as the page shows them, made again where they changed."""
        self.desk = Desk()
        """The Director's corrections and adjusted scores (``controller.room.adjustments``)."""

    # -- taking the tables' messages ----------------------------------------------------------------

    def state(self, table: str, body: Mapping[str, Any]) -> list[RoomAlert]:
        """A table's ``state``: a board in progress is checked (its deal, its round)."""
        board = _int(body.get("board"))
        if board is None or body.get("phase") in _IDLE:
            return []
        alerts: list[RoomAlert] = []
        way = self._ways.get(table)
        played = _int(body.get("boards_played"))
        # only a console in step with the table follows its round from a state: the retained state
        # of a later board can arrive before the results of the boards it missed
        if played is not None and played == (0 if way is None else len(way.seen)):
            alerts += self._began(table, board, "is playing")
        deal = body.get("deal")  # the state's own (a table that sends its arbiter view on demand)
        if deal is None:  # a table that sends its arbiter view in every state
            view = body.get("view")
            seen = view.get("board") if isinstance(view, dict) else None
            deal = seen.get("deal") if isinstance(seen, dict) else None
        alerts += self._deal(table, board, deal)
        return alerts

    def result(self, table: str, body: Mapping[str, Any]) -> list[RoomAlert]:
        """A table's ``result``: into the board's traveller, checked, and scored with the rest."""
        number = body.get("number")
        if number is None:
            return []
        self.results.setdefault(str(number), {})[table] = dict(body)
        self._rescore(str(number))
        board = _int(number)
        if board is None:
            return []
        return self._began(table, board, "played") + self._deal(table, board, body.get("deal"))

    # -- the Director's desk ---------------------------------------------------------------------------------

    def adjust(self, entry: DeskEntry) -> DeskEntry:
        """Add the Director's ``entry`` (its id given here) and score again; DeskError, nothing
        changed, for a board the table neither played nor should play, or a correction where there is no
        result."""
        played = entry.table in self.results.get(entry.board, {})
        if entry.kind == "correction" and not played:
            raise DeskError(f"table {entry.table} has no result on board {entry.board} to correct "
                            "(give an adjusted score for a board not played)")
        where = self.place(entry.table)
        due = where is not None and any(entry.board.isdigit() and int(entry.board) in _set_boards(where[1], s)
                                        for s in where[2])
        if entry.kind != "undo" and not played and not due:
            raise DeskError(f"table {entry.table} did not play board {entry.board}, and the movement does not "
                            "give it that board")
        self.desk = self.desk.add(entry)
        added = self.desk.entries[-1]
        self._rescore(added.board)  # an entry (taking back one included) touches its own board alone
        return added

    def _rescore(self, board: str | None = None) -> None:
        """Score again, ``board``'s rows made again (None: every board's)."""
        self._scored = None
        self.changes += 1
        if board is None:
            self._rows.clear()
            self._groups.clear()
            self._scorers = None
        else:
            self._rows.pop(board, None)
            self._groups.pop(board, None)

    def scored_again(self) -> None:
        """Score again when asked (the desk was put back from the console's store)."""
        self._rescore()

    def entries(self) -> dict[str, dict[str, Json]]:
        """board -> table -> the result entry as it stands after the Director's entries."""
        out: dict[str, dict[str, Json]] = {board: dict(sent) for board, sent in self.results.items()}
        for board, table in self.desk.touched():  # only where the Director made an entry
            body = self.desk.entry(board, table, self.results.get(board, {}).get(table))
            if body is not None:
                out.setdefault(board, {})[table] = body
            else:
                out.get(board, {}).pop(table, None)
        return {board: tables for board, tables in out.items() if tables}

    # -- the scores ----------------------------------------------------------------------------------------

    def scored(self) -> _Scored:
        """Every result scored (cached until a result or a deal comes)."""
        if self._scored is None:
            self._scored = self._score()
        return self._scored

    def _score(self) -> _Scored:
        session = self.session
        scoring = session.scoring if session is not None else Scoring.MP
        conventions = session.conventions if session is not None else Conventions()
        groups = self.fouled()
        touched = self.desk.touched()
        boards = sorted(set(self.results) | {b for b, _ in touched}, key=table_order)
        changed = []
        for board in boards:
            if board not in self._rows:
                self._rows[board] = self._board_rows(board, groups.get(board, []), touched)
                changed.append(board)
        entries = {board: self._rows[board][0] for board in boards if self._rows[board][0]}
        participants: tuple[tuple[str | None, str], ...] = ()
        if session is not None:
            participants = tuple((name or None, p) for name, movement in session.sections
                                 for p in movement.participants)
        if BoardwiseScore.supports(scoring, conventions):
            scored = self._score_boardwise(boards, changed, groups, entries, participants)
        else:
            scored = self._score_whole(boards, groups, entries, participants)
        scored.made = {board: self._rows[board] for board in boards}
        return scored

    def _sectioned(self) -> bool:
        """Whether the session has sections playing the same boards (scored both ways)."""
        return self.session is not None and len(self.session.sections) > 1

    def _score_boardwise(self, boards: list[str], changed: list[str], groups: dict[str, list[list[str]]],
                         entries: dict[str, dict[str, Json]], participants: tuple[tuple[str | None, str], ...]
                         ) -> _Scored:
        """Only the boards whose rows changed scored again (``controller.fieldscore.boardwise``);
        with sections, each section alone and across the field."""
        session = self.session
        scoring = session.scoring if session is not None else Scoring.MP
        conventions = session.conventions if session is not None else Conventions()
        if self._scorers is None:
            ways = (False, True) if self._sectioned() else (conventions.across_sections,)
            self._scorers = {across: BoardwiseScore(self.name, scoring, self._conventions(conventions, across),
                                                    participants) for across in ways}
            changed = boards
        try:
            for board in changed:
                results = [r for _, _, _, r in self._rows[board][1] if r is not None]
                for scorer in self._scorers.values():
                    scorer.put(board, results)
        except FieldScoreError:
            self._scorers = None
            return _Scored(None, ScoredRows(boards, self._rows, None), groups, entries, points_of=lambda _: ())
        sections = None
        if self._sectioned():
            assert session is not None
            official = self._scorers[session.official is Official.FIELD]
            sections = sections_score(self._scorers[False].event_score(), self._scorers[True].event_score(),
                                      session.official)
        else:
            official = next(iter(self._scorers.values()))
        rows = ScoredRows(boards, self._rows, official.scored)
        if not any(official.scored(board) for board in boards):
            return _Scored(None, rows, groups, entries, points_of=official.scored)
        score = sections.official_score if sections is not None else official.event_score()
        return _Scored(score, rows, groups, entries, sections, points_of=official.scored)

    def _conventions(self, conventions: Conventions, across: bool) -> Conventions:
        """The session's conventions for the field scored across the field, or in each section (with
        sections playing the same boards; else as the session has them)."""
        if not self._sectioned():
            return conventions
        return across_the_field(conventions) if across else in_each_section(conventions)

    def _score_whole(self, boards: list[str], groups: dict[str, list[list[str]]],
                     entries: dict[str, dict[str, Json]], participants: tuple[tuple[str | None, str], ...]
                     ) -> _Scored:
        """Every result scored at once (team matches; a pair's own percentage for its awards)."""
        session = self.session
        scoring = session.scoring if session is not None else Scoring.MP
        conventions = session.conventions if session is not None else Conventions()
        rows: dict[tuple[str, str], Row] = {}
        made: dict[int, tuple[str, str]] = {}
        results: list[Result] = []
        for board in boards:
            for table, who, label, result in self._rows[board][1]:
                rows[(board, table)] = (who, label, None)
                if result is not None:
                    made[id(result)] = (board, table)
                    results.append(result)
        if not results:
            return _Scored(None, rows, groups, entries)
        matches: tuple[Match, ...] = ()
        if scoring is Scoring.TEAMS:
            matches = team_matches(results, made, rows)
        event = Event(self.name, scoring, tuple(results), conventions, matches, participants)
        sections = None
        try:
            if self._sectioned() and scoring is not Scoring.TEAMS:
                assert session is not None
                sections = score_sections(event, session.official)
                score = sections.official_score
            else:
                score = score_event(event)
        except FieldScoreError:
            return _Scored(None, rows, groups, entries)
        for b in score.boards:
            for s in b.results:
                key = made.get(id(s.result))
                if key is not None:
                    who, label, _ = rows[key]
                    rows[key] = (who, label, s)
        return _Scored(score, rows, groups, entries, sections)

    def _board_rows(self, board: str, groups: list[list[str]], touched: set[tuple[str, str]]
                    ) -> tuple[dict[str, Json], list[tuple[str, Attribution, str, Result | None]]]:
        """``board``'s result entries as they stand after the Director's entries (``entries``), and
        each table's row: whom it belongs to, the board as scored (a fouled board's group), its result."""
        entries = dict(self.results.get(board, {}))
        for b, table in touched:
            if b == board:
                body = self.desk.entry(board, table, self.results.get(board, {}).get(table))
                if body is not None:
                    entries[table] = body
                else:
                    entries.pop(table, None)
        labels = {t: board if i == 0 else f"{board}{chr(ord('a') + i)}" for i, tables in enumerate(groups)
                  for t in tables}
        rows = []
        before = self._made.get(board, {})
        now: dict[str, tuple[Json, Attribution, str, Result | None, int]] = {}
        for table in sorted(entries, key=table_order):
            body = entries[table]
            made = before.get(table)
            way = self._way_changes.get(table, 0)
            if made is None or made[0] is not body or made[4] != way:
                who = self.attribution(table, board, body)
            else:
                who = made[1]
            label = labels.get(table, board)
            if made is None or made[0] is not body or made[1] != who or made[2] != label:
                made = (body, who, label, result_of(label, who.ns, who.ew, who.section, body), way)
            now[table] = made
            rows.append((table, who, label, made[3]))
        self._made[board] = now
        return entries, rows

    # -- what the console shows ------------------------------------------------------------------------

    def view(self) -> ResultsView:
        """The results as the console's page shows them (``controller.room.board_output``): each board's
        traveller and points, made again only for the boards that changed, and the ranking."""
        scored = self.scored()
        boards = self._outputs.outputs(scored.made, tuple(scored.made), scored.points)  # in board order
        ranked = None if scored.ranking is None else tuple(scored.ranking)
        return ResultsView({**self._how(scored), "fouled": scored.groups}, boards, ranked,
                           scored.score, scored.sections, self._outputs.epoch)

    def travellers(self) -> list[Json]:
        """Per board, every table's result: contract, result, North-South's score and the pairs."""
        return self.view().travellers()

    def scores(self) -> Json:
        """The field scored: scoring, whether ranked by direction, and per board and table the
        pairs, the round, the board as scored (a fouled board's group), and each side's points."""
        return self.view().scores()

    def _how(self, scored: _Scored) -> Json:
        """How the field is scored: name, scoring, by direction, the session; with sections playing
        the same boards, the ranking that is ``official`` (``field`` or ``section``; else None)."""
        score = scored.score
        session = self.session
        return {"name": self.name,
                "scoring": (session.scoring if session is not None else Scoring.MP).value,
                "by_direction": bool(score is not None and score.by_direction),
                "session": None if session is None else {
                    "name": session.name, "movement": session.kind.value, "rounds": session.rounds,
                    "boards_per_round": session.movement(session.sections[0][0]).boards_per_round,
                    "sections": [name for name, _ in session.sections]},
                "official": None if session is None or not self._sectioned() or session.scoring is Scoring.TEAMS
                else session.official.value}

    def ranking(self) -> list[Json]:
        """Every pair (or team): place, total, percentage (matchpoints), boards played, in rank
        order (North-South's field, then East-West's, when ranked by direction)."""
        scored = self.scored()
        if scored.score is None:
            return []
        if scored.ranking is None:  # made once a scoring: the console reads it for its page and the players'
            scored.ranking = ranking_json(scored.score, scored.sections)
        return list(scored.ranking)

    def report(self) -> Json:
        """The ranking with how it was scored: ``scores`` without the boards, plus ``ranking``."""
        scored = self.scored()
        return {**self._how(scored), "fouled": scored.groups, "ranking": self.ranking()}

    def event_score(self) -> EventScore | None:
        """The session scored so far (None: no result yet), for the exports."""
        return self.scored().score

    def export_deals(self) -> dict[str, Deal]:
        """Each board as scored (a fouled board's groups apart) with its complete deal, for the exports."""
        tables: dict[tuple[str, str], list[str]] = {}
        for (board, table), (_, label, _) in self.scored().rows.items():
            tables.setdefault((board, label), []).append(table)
        out: dict[str, Deal] = {}
        for (board, label), at in tables.items():
            deal = self.group_deal(board, at)
            if deal is not None and deal.is_complete:
                out[label] = deal
        return out

    def scorecard(self, pair: str, section: str | None = None, boards: Iterable[str] | None = None,
                  table: str | None = None) -> Json:
        """``pair``'s session so far: each board it played (round, table, direction, opponents,
        contract, result, its own score and points), with its total, percentage and place; only
        ``boards`` played at ``table``, when given."""
        scored = self.scored()
        rows = []
        keys = scored.of_pair(pair, section) if boards is None else \
            [(b, t) for b in boards for t in ((table,) if table is not None else scored.entries.get(b, {}))
             if (b, t) in scored.rows]
        for board, table in keys:
            who, label, s = scored.rows[(board, table)]
            if (who.section or None) != (section or None) or pair not in (who.ns, who.ew):
                continue
            ns = who.ns == pair
            r = scored.entries[board][table]
            score = _int(r.get("score_ns"))
            rows.append({"board": board, "label": label, "round": who.round, "table": table,
                         "direction": "NS" if ns else "EW", "opponents": who.ew if ns else who.ns,
                         "contract": r.get("contract"), "declarer": r.get("declarer"), "result": r.get("result"),
                         "status": r.get("status"),
                         "score": None if score is None else (score if ns else -score),
                         "points": None if s is None else _round2(s.points_ns if ns else s.points_ew),
                         "percent": None if s is None else _round2(s.percent_ns if ns else s.percent_ew),
                         "top": None if s is None else _round2(s.top), "law15": who.law15})
        rows.sort(key=lambda row: (row["round"] or 0, table_order(str(row["board"]))))
        standing = scored.standing_row(pair, section, self.ranking)
        return {"pair": pair, "section": section, "standing": standing, "boards": rows}

