"""An event scored from its scores alone: every board, every pair's session, the ranking.

- Session totals: the sum of a pair's points; its percentage is the total over the tops of
  the boards it played (boards it did not play count for nothing: EBU and ACBL practice). A
  bye the file records (Ruter, Magic Contest) scores the pair's own average on those boards.
- A program's own conventions come with the event (``conventions.program_conventions``):
  matchpoints rounded per board before they are added (EBUScore, ScoreBridge), average plus
  and minus at the pair's own percentage beyond 60 % and 40 % (Ruter; Law 12C2).
- Ranks: competition ranking (1, 2=, 2=, 4): pairs with equal results share the best rank
  of the group (written "2=" by the EBU's programs; Ruter prints the group's first and last
  rank). Matchpoint pairs rank by percentage, IMP pairs by IMPs per board played, teams by
  VPs (or IMPs). A pair that played no board ranks after every pair that did (as Ruter does).
- Fields: one ranking, or North-South and East-West apart in a matchpoint event in which
  no pair changed direction (a Mitchell); ``Conventions.rank_by_direction`` decides; and each
  section apart when ``Conventions.rank_by_section`` says so (``controller.fieldscore.field``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from controller.fieldscore.imps import butler_board, cross_imp_board, score_match
from controller.fieldscore.matchpoints import score_board
from controller.fieldscore.model import (
    Award,
    BoardScore,
    Conventions,
    Event,
    EventScore,
    Result,
    ScoredResult,
    Scoring,
    Standing,
)

__all__ = ["UNRANKED", "rank", "rank_standings", "round_half_away", "score_event"]

UNRANKED = ""
"""The pair of a side that is scored for the field but not ranked (a substitute pair the file
gives no number): its results count for the other tables, it has no standing."""


def score_event(event: Event, conventions: Conventions | None = None) -> EventScore:
    """Score ``event`` from its scores alone, with its own conventions unless others are given."""
    conv = conventions if conventions is not None else event.conventions
    if event.scoring is Scoring.TEAMS:
        return _score_teams(event, conv)
    groups = _board_groups(event.results, conv.across_sections)
    expected: dict[str | None, int] = {}
    for (section, _), results in groups.items():
        expected[section] = max(expected.get(section, 0), len(results))
    boards = []
    for (section, board), results in groups.items():
        if event.scoring is Scoring.MP:
            boards.append(score_board(board, section, results, expected[section], conv))
        elif event.scoring is Scoring.BUTLER:
            boards.append(butler_board(board, section, results, conv))
        else:
            boards.append(cross_imp_board(board, section, results, conv))
    if conv.awards_own_percent and event.scoring is Scoring.MP:
        boards = _awards_at_own_percent(boards, conv)
    if conv.board_decimals is not None:
        boards = [_rounded(b, conv.board_decimals) for b in boards]
    standings = _pair_standings(boards, event.pairs, event.byes)
    by_direction = conv.rank_by_direction
    if by_direction is None:
        by_direction = event.scoring is Scoring.MP and _is_mitchell(standings)
    ranked = _ranked(standings, event.scoring, by_direction, conv.rank_by_section)
    return EventScore(replace(event, conventions=conv), tuple(boards), ranked, by_direction=by_direction)


def _awards_at_own_percent(boards: Sequence[BoardScore], conv: Conventions) -> list[BoardScore]:
    """Average plus raised to the pair's own percentage when that is higher, average minus lowered
    to it when lower (Law 12C2: at least 60 %, at most 40 %). A pair's own percentage is that of
    its boards other than its average-plus and average-minus ones (an average counts), before any
    penalty: Ruter's "actual percentage" (T. Brenning, 2001)."""
    earned: dict[tuple[str | None, str], list[float]] = {}
    for b in boards:
        for s in b.results:
            r = s.result
            for pair, side, points, penalty in ((r.ns, "ns", s.points_ns, r.penalty_ns),
                                                (r.ew, "ew", s.points_ew, r.penalty_ew)):
                award = r.award_of(side)
                if award in (Award.PLUS, Award.MINUS) or not s.top:
                    continue
                tally = earned.setdefault((r.section, pair), [0.0, 0.0])
                tally[0] += points + penalty * s.top
                tally[1] += s.top
    own = {key: 100.0 * p / m for key, (p, m) in earned.items() if m}
    out = []
    for b in boards:
        results = []
        for s in b.results:
            r = s.result
            ns_award, ew_award = r.award_of("ns"), r.award_of("ew")
            if s.top and (ns_award or ew_award):
                s = replace(s, points_ns=_award_points(s.points_ns, ns_award, own.get((r.section, r.ns)), s.top, conv),
                            points_ew=_award_points(s.points_ew, ew_award, own.get((r.section, r.ew)), s.top, conv))
            results.append(s)
        out.append(replace(b, results=tuple(results)))
    return out


def _award_points(points: float, award: Award | None, own: float | None, top: float, conv: Conventions) -> float:
    if award is None or own is None or award is Award.AVERAGE:
        return points
    given = conv.percent_of(award)
    if (award is Award.PLUS and own > given) or (award is Award.MINUS and own < given):
        return points + top * (own - given) / 100.0
    return points


def round_half_away(value: float, places: int) -> float:
    """``value`` to ``places`` decimals, halves away from zero (as the scoring programs print)."""
    scale = 10.0 ** places
    return math.copysign(math.floor(abs(value) * scale + 0.5 + 1e-9) / scale, value)


def _rounded(board: BoardScore, places: int) -> BoardScore:
    results = tuple(replace(s, points_ns=round_half_away(s.points_ns, places),
                            points_ew=round_half_away(s.points_ew, places)) for s in board.results)
    return replace(board, results=results)


def _board_groups(results: Iterable[Result], across_sections: bool
                  ) -> dict[tuple[str | None, str], list[Result]]:
    """The results compared with each other, by (section or None, board), in file order."""
    groups: dict[tuple[str | None, str], list[Result]] = {}
    for r in results:
        groups.setdefault((None if across_sections else r.section, r.board), []).append(r)
    return groups


@dataclass(slots=True)
class _Tally:
    section: str | None
    pair: str
    boards: int = 0
    total: float = 0.0
    maximum: float = 0.0
    directions: set[str] = field(default_factory=set)
    wins: int = 0


def _pair_standings(boards: Sequence[BoardScore], participants: Iterable[tuple[str | None, str]],
                    byes: Iterable[tuple[str | None, str, str]] = ()) -> list[Standing]:
    tallies: dict[tuple[str | None, str], _Tally] = {}
    for key in participants:
        tallies.setdefault(key, _Tally(*key))
    for b in boards:
        for s in b.results:
            r = s.result
            for pair, points, direction in ((r.ns, s.points_ns, "NS"), (r.ew, s.points_ew, "EW")):
                if pair == UNRANKED:
                    continue
                t = tallies.get((r.section, pair))
                if t is None:
                    t = tallies[(r.section, pair)] = _Tally(r.section, pair)
                t.boards += 1
                t.total += points
                t.maximum += s.top or 0.0
                t.directions.add(direction)
    _credit_byes(tallies, byes)
    return [Standing(t.pair, t.section, next(iter(t.directions)) if len(t.directions) == 1 else None,
                     t.boards, t.total, t.maximum or None) for t in tallies.values()]


def _credit_byes(tallies: dict[tuple[str | None, str], _Tally], byes: Iterable[tuple[str | None, str, str]]) -> None:
    """Each bye scores the pair's own average on the boards it played (its points and its tops
    per board), so that its percentage and average stay what it earned at the table and its total
    counts every board of the session (Ruter: a bye awards the pair's actual percentage)."""
    count: dict[tuple[str | None, str], int] = {}
    for section, pair, _board in byes:
        count[(section, pair)] = count.get((section, pair), 0) + 1
    for key, n in count.items():
        t = tallies.get(key)
        if t is None or not t.boards:
            continue
        t.total += t.total / t.boards * n
        t.maximum += t.maximum / t.boards * n
        t.boards += n


def _is_mitchell(standings: Sequence[Standing]) -> bool:
    """True when every pair that played sat in one direction only, and both directions were played."""
    played = [s for s in standings if s.boards]
    return bool(played) and all(s.direction for s in played) and len({s.direction for s in played}) == 2


def rank(keys: Sequence[float | None]) -> list[tuple[int, int]]:
    """Competition ranks of ``keys``, highest first, as (rank, how many share it); None (a pair
    that played nothing) ranks after every number, all such tied."""
    order = sorted(range(len(keys)), key=lambda i: (keys[i] is None, -_tie_key(keys[i])))
    out = [(0, 0)] * len(keys)
    start = 0
    while start < len(order):
        end = start + 1
        first = keys[order[start]]
        while end < len(order) and _same(keys[order[end]], first):
            end += 1
        for i in order[start:end]:
            out[i] = (start + 1, end - start)
        start = end
    return out


def _tie_key(k: float | None) -> float:
    return 0.0 if k is None else round(k, 9)


def _same(a: float | None, b: float | None) -> bool:
    return (a is None) == (b is None) and _tie_key(a) == _tie_key(b)


def _ranking_key(s: Standing, scoring: Scoring) -> float | None:
    if not s.boards:
        return None
    if scoring is Scoring.MP:
        return s.percent
    if scoring is Scoring.TEAMS:
        return s.total
    return s.average


_FIELD_ORDER: dict[str | None, int] = {"NS": 0, "EW": 1}


def _ranked(standings: Sequence[Standing], scoring: Scoring, by_direction: bool,
            by_section: bool = False) -> tuple[Standing, ...]:
    """``standings`` ranked in their fields: North-South and East-West apart when ``by_direction``,
    each section apart when ``by_section``; the fields in section order, North-South first."""
    fields: dict[tuple[str | None, str | None], list[Standing]] = {}
    for s in standings:
        fields.setdefault((s.section or None if by_section else None, s.direction if by_direction else None),
                          []).append(s)
    out = []
    for name in sorted(fields, key=lambda k: (_natural(k[0]), _FIELD_ORDER.get(k[1], 2))):
        group = fields[name]
        places = rank([_ranking_key(s, scoring) for s in group])
        ranked = [replace(s, rank=r, tied=n) for s, (r, n) in zip(group, places, strict=True)]
        ranked.sort(key=lambda s: (s.rank or 0, _natural(s.section), _natural(s.pair)))
        out.extend(ranked)
    return tuple(out)


def rank_standings(standings: Sequence[Standing], scoring: Scoring, by_direction: bool,
                   by_section: bool = False) -> tuple[Standing, ...]:
    """``standings`` ranked again in their fields (``by_direction``: North-South and East-West
    apart; ``by_section``: each section apart), in rank order field by field."""
    return _ranked(standings, scoring, by_direction, by_section)


def _natural(text: str | None) -> tuple[int, str]:
    """Sort key that puts "2" before "10"."""
    t = text or ""
    digits = t[:len(t) - len(t.lstrip("0123456789"))]
    return (int(digits) if digits else 0, t)


def _score_teams(event: Event, conv: Conventions) -> EventScore:
    matches = tuple(score_match(m, conv) for m in event.matches)
    by_board: dict[str, list[ScoredResult]] = {}
    tallies: dict[str, _Tally] = {}
    for key in event.pairs:
        tallies.setdefault(key[1], _Tally(None, key[1]))
    for ms in matches:
        m = ms.match
        for (home_ns, away_ns), (_, gained) in zip(m.boards, ms.imps, strict=True):
            by_board.setdefault(home_ns.board, []).extend(
                (ScoredResult(home_ns, float(gained), float(-gained)),
                 ScoredResult(away_ns, float(-gained), float(gained))))
        for team, mine, theirs, vps in ((m.home, ms.home_imps, ms.away_imps, ms.home_vps),
                                        (m.away, ms.away_imps, ms.home_imps, ms.away_vps)):
            t = tallies.setdefault(team, _Tally(None, team))
            t.boards += len(m.boards)
            t.total += vps if vps is not None else mine - theirs
            t.wins += mine >= theirs
    boards = tuple(BoardScore(b, None, tuple(rs)) for b, rs in by_board.items())
    standings = [Standing(t.pair, None, None, t.boards, t.total, wins=t.wins) for t in tallies.values()]
    return EventScore(replace(event, conventions=conv), boards, _ranked(standings, Scoring.TEAMS, False),
                      matches)

