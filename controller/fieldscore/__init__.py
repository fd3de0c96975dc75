"""Field scoring: matchpoints, Butler, cross-IMPs and team matches from the scores alone (pure).

``score_event(event)`` scores an ``Event`` (its results, matches and ``Conventions``) into an
``EventScore``: every board's points, every pair's total, percentage and rank. ``check``
compares that with what a results file printed. The conventions are cited where they are
applied: ``matchpoints`` (pairs), ``imps`` (IMP scale, Butler, cross-IMPs, teams, VPs),
``event`` (totals, percentages, ranks). The readers are ``controller.records.scoretable``
(PBN score tables) and ``controller.records.usebio`` (USEBIO XML).
"""

from controller.fieldscore.check import CheckReport, Difference, check
from controller.fieldscore.event import rank, score_event
from controller.fieldscore.imps import IMP_SCALE, cross_imps, datum, imps, score_match
from controller.fieldscore.matchpoints import matchpoints, neuberg, top
from controller.fieldscore.model import (
    WBF_VP_20,
    Artificial,
    Award,
    BoardScore,
    Conventions,
    CrossImps,
    Datum,
    Event,
    EventScore,
    FieldScoreError,
    Match,
    MatchpointScale,
    MatchScore,
    Printed,
    Result,
    ResultsFile,
    ScoredResult,
    Scoring,
    Standing,
    VpScale,
    wbf_vps,
)

__all__ = [
    "IMP_SCALE",
    "WBF_VP_20",
    "Artificial",
    "Award",
    "BoardScore",
    "CheckReport",
    "Conventions",
    "CrossImps",
    "Datum",
    "Difference",
    "Event",
    "EventScore",
    "FieldScoreError",
    "Match",
    "MatchScore",
    "MatchpointScale",
    "Printed",
    "Result",
    "ResultsFile",
    "ScoredResult",
    "Scoring",
    "Standing",
    "VpScale",
    "check",
    "cross_imps",
    "datum",
    "imps",
    "matchpoints",
    "neuberg",
    "rank",
    "score_event",
    "score_match",
    "top",
    "wbf_vps",
]
