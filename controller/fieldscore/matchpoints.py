"""Matchpoints for pairs: each score against every other score of the board.

- 2 per score beaten and 1 per tie, top 2n-2 (EBU and WBF scoring: "top 2n-2"), or 1 and
  1/2, top n-1 (ACBL): ``MatchpointScale``. The percentage is the same either way.
- A board with fewer results than the rest (a board not played at some table, fouled, or
  with an artificial score) is scaled by Neuberg's formula, MP' = (MP + u) N / n - u, with n
  the results compared, N the results the board should have had, u half a pair beaten
  (1 on the 2/1 scale, 1/2 on ACBL's): Neuberg's formula as the EBU and the ACBL apply it.
- An artificial adjusted score (Law 12C2) takes no part in the other tables' matchpoints; it
  scores its award as a share of the top: average plus 60 %, average 50 %, average minus
  40 % (Law 12C2), each side its own (a split score, A+/A-).
- A score for which one side scores an award (``Result.award_ns``/``award_ew``) is matchpointed
  as a score for the other tables and the other side; the side with the award scores it.
- An assigned adjusted score (Law 12C1) is an ordinary score and is matchpointed as one. A
  weighted one (Law 12C1(c): "4S= 30 %, 4S-1 70 %") is a fraction of a result for each of
  its scores: its own matchpoints are each score's matchpoints against the other tables,
  weighted; and each other table counts it as so many fractions of a result, one for each of
  its scores (the method the WBF's Code of Practice and the EBU's White Book describe, as read
  here: docs/scoring-desk.md).
- A procedural penalty (Law 90) is taken from the offender's matchpoints after the board is
  scored, in tops (the EBU's standard penalty is a quarter of a top); the opponents keep
  what they scored.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from controller.fieldscore.model import BoardScore, Conventions, MatchpointScale, Result, ScoredResult

__all__ = ["matchpoints", "neuberg", "score_board", "top", "weighted_matchpoints"]


def matchpoints(scores: Sequence[int], scale: MatchpointScale = MatchpointScale.EBU) -> list[float]:
    """Each score's matchpoints against the others of the list: per score beaten 2 (EBU, WBF)
    or 1 (ACBL), half of that per tie."""
    order = sorted(scores)
    beaten = scale.beaten
    half = beaten / 2.0
    out = []
    for s in scores:
        below = bisect_left(order, s)
        out.append(beaten * below + half * (bisect_right(order, s) - below - 1))
    return out


def weighted_matchpoints(tables: Sequence[Sequence[tuple[int, float]]],
                         scale: MatchpointScale = MatchpointScale.EBU) -> list[float]:
    """Each table's matchpoints when a table may stand for several scores, each a share of a
    result (a weighted score, Law 12C1(c); an ordinary score is one score with share 1): every
    score of a table against every score of each other table, per pair of scores the product of
    their shares times 2 (EBU, WBF) or 1 (ACBL) for a score beaten, half of that for a tie."""
    beaten = scale.beaten
    out = []
    for i, mine in enumerate(tables):
        points = 0.0
        for j, theirs in enumerate(tables):
            if i == j:
                continue
            for s, w in mine:
                for t, v in theirs:
                    if s > t:
                        points += w * v * beaten
                    elif s == t:
                        points += w * v * beaten / 2.0
        out.append(points)
    return out


def top(results: int, scale: MatchpointScale = MatchpointScale.EBU) -> float:
    """The top of a board played ``results`` times: 2n-2 (EBU, WBF) or n-1 (ACBL)."""
    return scale.beaten * max(results - 1, 0)


def neuberg(points: float, compared: int, expected: int, scale: MatchpointScale = MatchpointScale.EBU) -> float:
    """Neuberg's formula: matchpoints earned against ``compared`` results scaled to
    ``expected`` results: MP' = (MP + u) N / n - u, u half of a pair beaten (Neuberg)."""
    if compared <= 0 or compared == expected:
        return points
    u = scale.beaten / 2.0
    return (points + u) * expected / compared - u


def score_board(board: str, section: str | None, results: Sequence[Result], expected: int,
                conventions: Conventions) -> BoardScore:
    """Matchpoint one board: the scores against each other, scaled by Neuberg to ``expected``
    results (at least the results it has), artificial scores as shares of the top, then penalties."""
    scale = conventions.matchpoints
    compared = [r for r in results if r.artificial is None]
    n = len(compared)
    size = max(expected, len(results)) if conventions.neuberg else len(results)
    board_top = top(size, scale)
    if any(r.weighted for r in compared):
        earned = iter(weighted_matchpoints([r.components for r in compared], scale))
    else:
        earned = iter(matchpoints([r.score for r in compared if r.score is not None], scale))
    scored = []
    for r in results:
        if r.artificial is None:
            ns = next(earned)
            if conventions.neuberg:
                ns = neuberg(ns, n, size, scale)
            ew = board_top - ns if conventions.neuberg else top(n, scale) - ns
            if r.award_ns is not None:
                ns = board_top * conventions.percent_of(r.award_ns) / 100.0
            if r.award_ew is not None:
                ew = board_top * conventions.percent_of(r.award_ew) / 100.0
        else:
            ns = board_top * conventions.percent_of(r.artificial.ns) / 100.0
            ew = board_top * conventions.percent_of(r.artificial.ew) / 100.0
        scored.append(ScoredResult(r, ns - r.penalty_ns * board_top, ew - r.penalty_ew * board_top, board_top))
    return BoardScore(board, section, tuple(scored), top=board_top)
