"""IMPs: the WBF IMP scale, Butler against a datum, cross-IMPs, team matches and their VPs.

- The IMP scale of Law 78B (WBF): 0-10 points 0 IMPs, 20-40 1, ... 4000 and more 24; a
  difference counts from the lower bound of its band (15 points is still 0 IMPs).
- Butler: each score against the board's datum, the mean of its scores; a trimmed datum
  drops the highest and the lowest scores first (``Datum.trim`` from each end), and the
  datum is rounded to the nearest 10 (halves away from zero) as the scoring programs do
  (Ruter's "Butler-2": one score dropped at each end, mean, nearest 10).
- Cross-IMPs: each score against every other score of the board, summed, or averaged over
  the others (on the scale of a Butler score; TeamsScorer, the EBU's program, prints them so).
- A team match: on each board, the home team's score in one room against the away team's
  in the other (Law 78B); the match total converts to VPs on a 20-VP scale (``VpScale``:
  the WBF continuous scale, or a discrete one).
- A weighted assigned score (Law 12C1(c)) takes no part in the Butler datum; each of its
  scores is IMPed against it and the IMPs weighted. In a team match each of its scores is IMPed
  against the other room's (each of that room's, when it is weighted too) and the IMPs weighted
  by the shares, to 0.01 IMP: the method the WBF's Code of Practice gives for weighted scores
  (IMP each outcome, then weight), as read here. In cross-IMPs it counts, for the other
  tables, as a share of a result for each of its scores, as in matchpoints.
- An artificial score takes no part in the datum or the other results' IMPs; it scores its
  award, +3/0/-3 IMPs (Law 12C2), and in summed cross-IMPs that award against each other result
  (ACBLscore), or half of it (``Conventions.cross_award_share``: Ruter).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from fractions import Fraction

from controller.fieldscore.model import (
    BoardScore,
    Conventions,
    CrossImps,
    Datum,
    FieldScoreError,
    Match,
    MatchScore,
    Result,
    ScoredResult,
    VpScale,
)

__all__ = ["IMP_SCALE", "butler_board", "cross_imp_board", "cross_imps", "datum", "imps", "score_match",
           "weighted_cross_imps"]

# The lower bound of each band of Law 78B's scale: 20 points for 1 IMP ... 4000 for 24.
IMP_SCALE = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500,
             1750, 2000, 2250, 2500, 3000, 3500, 4000)


def imps(difference: float) -> int:
    """The IMPs of a difference in points, signed as the difference (Law 78B)."""
    n = bisect_right(IMP_SCALE, abs(difference))
    return n if difference >= 0 else -n


def datum(scores: Sequence[int], rule: Datum | None = None) -> float:
    """The Butler datum of a board's scores: the mean after dropping ``rule.trim`` scores at
    each end (when more than that many remain), to the nearest ``rule.rounding`` points,
    halves away from zero."""
    if not scores:
        raise FieldScoreError("no score to take a datum from")
    rule = rule if rule is not None else Datum()
    s = sorted(scores)
    if rule.trim and len(s) > 2 * rule.trim:
        s = s[rule.trim:len(s) - rule.trim]
    mean = Fraction(sum(s), len(s))
    if not rule.rounding:
        return float(mean)
    steps = abs(mean) / rule.rounding
    rounded = math.floor(steps + Fraction(1, 2)) * rule.rounding
    return float(rounded if mean >= 0 else -rounded)


def butler_board(board: str, section: str | None, results: Sequence[Result],
                 conventions: Conventions) -> BoardScore:
    """Butler-score one board: IMPs of each score against the datum; artificial scores their award."""
    scores = [r.score for r in results if r.score is not None]
    board_datum = datum(scores, conventions.datum) if scores else None
    scored = []
    for r in results:
        if r.artificial is None and board_datum is not None:
            ns = sum(w * imps(s - board_datum) for s, w in r.components)
            ew = -ns
            ns = ns if r.award_ns is None else conventions.imps_of(r.award_ns)
            ew = ew if r.award_ew is None else conventions.imps_of(r.award_ew)
        else:
            assert r.artificial is not None
            ns = conventions.imps_of(r.artificial.ns)
            ew = conventions.imps_of(r.artificial.ew)
        scored.append(ScoredResult(r, ns - r.penalty_ns, ew - r.penalty_ew))
    return BoardScore(board, section, tuple(scored), datum=board_datum)


def cross_imps(scores: Sequence[int], mode: CrossImps = CrossImps.SUM) -> list[float]:
    """Each score's IMPs against every other score, summed, or averaged over the others."""
    counts: dict[int, int] = {}
    for s in scores:
        counts[s] = counts.get(s, 0) + 1
    totals = {s: sum(imps(s - t) * k for t, k in counts.items()) for s in counts}
    others = len(scores) - 1
    if mode is CrossImps.AVERAGE:
        return [totals[s] / others if others else 0.0 for s in scores]
    return [float(totals[s]) for s in scores]


def weighted_cross_imps(tables: Sequence[Sequence[tuple[int, float]]], mode: CrossImps = CrossImps.SUM
                        ) -> list[float]:
    """Cross-IMPs when a table may stand for several scores, each a share of a result (a weighted
    score, Law 12C1(c)): every score of a table against every score of each other table, the IMPs
    times the product of their shares; summed, or averaged over the other tables."""
    out = []
    for i, mine in enumerate(tables):
        total = sum(w * v * imps(s - t) for j, theirs in enumerate(tables) if j != i
                    for s, w in mine for t, v in theirs)
        others = len(tables) - 1
        out.append(total / others if mode is CrossImps.AVERAGE and others else float(total))
    return out


def cross_imp_board(board: str, section: str | None, results: Sequence[Result],
                    conventions: Conventions) -> BoardScore:
    """Cross-IMP one board; an artificial score scores its award (times the other results when summed)."""
    compared = [r for r in results if r.artificial is None]
    if any(r.weighted for r in compared):
        earned = iter(weighted_cross_imps([r.components for r in compared], conventions.cross_imps))
    else:
        earned = iter(cross_imps([r.score for r in compared if r.score is not None], conventions.cross_imps))
    times = conventions.cross_award_share * (1 if conventions.cross_imps is CrossImps.AVERAGE
                                             else max(len(results) - 1, 1))
    scored = []
    for r in results:
        if r.artificial is None:
            ns = next(earned)
            ew = -ns
            ns = ns if r.award_ns is None else conventions.imps_of(r.award_ns) * times
            ew = ew if r.award_ew is None else conventions.imps_of(r.award_ew) * times
        else:
            assert r.artificial is not None
            ns = conventions.imps_of(r.artificial.ns) * times
            ew = conventions.imps_of(r.artificial.ew) * times
        scored.append(ScoredResult(r, ns - r.penalty_ns, ew - r.penalty_ew))
    return BoardScore(board, section, tuple(scored))


def _room_imps(home_ns: Result, away_ns: Result, conventions: Conventions) -> float:
    """The home team's IMPs on a board before penalties: its two rooms' scores against each other;
    with a weighted score in a room (or both), each of its scores against the other room's, the IMPs
    weighted by the shares (to 0.01 IMP); with an artificial score in a room, the home team's award there
    (the mean of its awards)."""
    if home_ns.artificial is None and away_ns.artificial is None and (home_ns.weighted or away_ns.weighted):
        return round(sum(wh * wa * imps(sh - sa) for sh, wh in home_ns.components
                         for sa, wa in away_ns.components), 2)
    if home_ns.score is not None and away_ns.score is not None:
        return imps(home_ns.score - away_ns.score)
    awards = []
    if home_ns.artificial is not None:
        awards.append(conventions.imps_of(home_ns.artificial.ns))
    if away_ns.artificial is not None:
        awards.append(conventions.imps_of(away_ns.artificial.ew))
    return round(sum(awards) / len(awards))


def score_match(match: Match, conventions: Conventions, vp: VpScale | None = None) -> MatchScore:
    """A team match: the home team's IMPs per board, both teams' totals after penalties, and
    the VPs of the margin on ``vp`` (the conventions' scale when not given)."""
    per_board = []
    home_total: float = 0
    away_total: float = 0
    for home_ns, away_ns in match.boards:
        gained = _room_imps(home_ns, away_ns, conventions)
        per_board.append((home_ns.board, gained))
        home_pen = home_ns.penalty_ns + away_ns.penalty_ew
        away_pen = home_ns.penalty_ew + away_ns.penalty_ns
        home_total = round(home_total + max(gained, 0) - round(home_pen), 2)   # whole IMPs but for weighted
        away_total = round(away_total + max(-gained, 0) - round(away_pen), 2)  # scores' shares
    scale = vp if vp is not None else conventions.vp
    vps = scale.vps(home_total - away_total, len(match.boards)) if scale is not None else (None, None)
    return MatchScore(match, tuple(per_board), home_total, away_total, vps[0], vps[1])
