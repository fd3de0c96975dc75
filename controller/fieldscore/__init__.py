"""Field scoring: matchpoints, Butler, cross-IMPs and team matches from the scores alone (pure).

``score_event(event)`` scores an ``Event`` (its results, matches and ``Conventions``) into an
``EventScore``: every board's points, every pair's total, percentage and rank. ``check``
compares that with what a results file printed. The conventions are cited where they are
applied: ``matchpoints`` (pairs), ``imps`` (IMP scale, Butler, cross-IMPs, teams, VPs),
``event`` (totals, percentages, ranks), ``field`` (sections playing the same boards: in
each section and across the field). The readers are ``controller.records.scoretable``
(PBN score tables) and ``controller.records.usebio`` (USEBIO XML), which also write them.

``movement`` generates the movements (Mitchell, Howell, a team match, round robin, Swiss):
who sits where in each round and which boards each table plays; ``session`` reads the
Director's description of a session (TOML).
"""

from controller.fieldscore.check import CheckReport, Difference, check, fixed
from controller.fieldscore.conventions import conventions_text, parse_conventions
from controller.fieldscore.event import rank, score_event
from controller.fieldscore.field import FieldStanding, Official, SectionsScore, score_sections
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
from controller.fieldscore.movement import (
    Movement,
    MovementError,
    MovementKind,
    Sitting,
    howell,
    mitchell,
    round_robin,
    swiss,
    swiss_next,
    swiss_pairings,
    team_match,
)
from controller.fieldscore.session import Session, load_session, loads_session

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
    "FieldStanding",
    "Match",
    "MatchScore",
    "MatchpointScale",
    "Movement",
    "MovementError",
    "MovementKind",
    "Official",
    "Printed",
    "Result",
    "ResultsFile",
    "ScoredResult",
    "Scoring",
    "SectionsScore",
    "Session",
    "Sitting",
    "Standing",
    "VpScale",
    "check",
    "conventions_text",
    "cross_imps",
    "datum",
    "fixed",
    "howell",
    "imps",
    "load_session",
    "loads_session",
    "matchpoints",
    "mitchell",
    "neuberg",
    "parse_conventions",
    "rank",
    "round_robin",
    "score_event",
    "score_match",
    "score_sections",
    "swiss",
    "swiss_next",
    "swiss_pairings",
    "team_match",
    "top",
    "wbf_vps",
]
