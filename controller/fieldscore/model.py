"""Field scoring values: an event's results, the conventions that score them, and the outcome.

An event is scored from the scores alone. A result is one table's score on one board
(North-South's, Law 77) or an artificial adjusted score (Law 12C2); a team match pairs the
two rooms of each board. The conventions say how: matchpoint scale, Neuberg, the awards of
artificial scores, the Butler datum, cross-IMPs, the VP scale. What a file printed
(``Printed``) travels with its event so that a check can compare it with what the scores give.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from enum import Enum

from controller.errors import BridgeTableError

__all__ = [
    "WBF_VP_20",
    "Artificial",
    "Award",
    "BoardScore",
    "Conventions",
    "CrossImps",
    "Datum",
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
    "wbf_vps",
]


class FieldScoreError(BridgeTableError, ValueError):
    """An event or a value that cannot be scored (an unreadable artificial score, a one-room match)."""


class Scoring(Enum):
    """How an event's boards are scored: the ``scoring`` of ``tablectl score --json``."""

    MP = "MP"                  # matchpoints across the field
    BUTLER = "Butler"          # IMPs against a datum (the mean, perhaps trimmed)
    CROSS_IMP = "CrossIMP"     # IMPs against every other result
    TEAMS = "Teams"            # IMPs between the two rooms of a team match, VPs per match


class MatchpointScale(Enum):
    """Matchpoints per pair beaten: 2 and 1 per tie (EBU, WBF: top 2n-2) or 1 and 1/2 (ACBL: top n-1)."""

    EBU = "ebu"
    ACBL = "acbl"

    @property
    def beaten(self) -> float:
        """Matchpoints for each other result beaten; half of it for each tie."""
        return 2.0 if self is MatchpointScale.EBU else 1.0


class CrossImps(Enum):
    """Cross-IMPs of a result: the IMPs against every other result summed, or their average."""

    SUM = "sum"
    AVERAGE = "average"


class Award(Enum):
    """An artificial adjusted score for one side (Law 12C2): average plus, average, average minus."""

    PLUS = "A+"
    AVERAGE = "A"
    MINUS = "A-"

    @classmethod
    def parse(cls, text: str) -> Award:
        """The award of ``A+``/``A``/``A=``/``A-``, ``AVE+``, ``AVG-``, ``A60``, ``60`` or ``60%`` (any case)."""
        t = text.strip().upper().rstrip("%")
        for prefix in ("AVERAGE", "AVE", "AVG", "A"):
            if t.startswith(prefix):
                t = t[len(prefix):] or "="
                break
        award = _AWARD_BY_SUFFIX.get(t)
        if award is None:
            raise FieldScoreError(f"invalid artificial score {text!r}")
        return award


_AWARD_TOKEN = re.compile(r"(?:AVERAGE|AVE|AVG|A)(?:[+=-]|60|50|40)?%?|(?:60|50|40)%?")
_AWARD_BY_SUFFIX = {"+": Award.PLUS, "=": Award.AVERAGE, "-": Award.MINUS,
                    "60": Award.PLUS, "50": Award.AVERAGE, "40": Award.MINUS}


@dataclass(frozen=True, slots=True)
class Artificial:
    """An artificial adjusted score (Law 12C2): each side its own award (a split score is ``A+/A-``)."""

    ns: Award
    ew: Award

    @classmethod
    def parse(cls, text: str) -> Artificial:
        """``A+/A-``, ``A60/A40``, ``60/40``, ``A+A-``; one award alone is both sides' (``A=``)."""
        t = text.strip().upper()
        parts = _AWARD_TOKEN.findall(t)
        if not parts or len(parts) > 2 or _AWARD_TOKEN.sub("", t).replace("/", "").strip():
            raise FieldScoreError(f"invalid artificial score {text!r}")
        ns = Award.parse(parts[0])
        return cls(ns, Award.parse(parts[-1]))

    def __str__(self) -> str:
        return self.ns.value if self.ns is self.ew else f"{self.ns.value}/{self.ew.value}"


@dataclass(frozen=True, slots=True)
class Result:
    """One table's result on one board: North-South's ``score`` or an ``artificial`` score.

    ``ns`` and ``ew`` name the pairs (or, in a team match, the teams) at North-South and
    East-West. A procedural penalty (Law 90) is taken from the offending side only, after the
    board is scored, and changes nothing for the other tables: ``penalty_ns``/``penalty_ew`` in
    tops for matchpoints (0.25 is the EBU's standard quarter top) and in IMPs for IMP scoring.
    An assigned score (Law 12C1) is an ordinary score; a weighted one (Law 12C1(c)) is
    ``weighted``: North-South's scores, each with its weight in % (the weights add up to 100).
    ``award_ns``/``award_ew``: a score that the other tables are compared with, but for which
    one side scores an artificial award instead (Ruter writes ``"A="`` under one side and the
    score under the other).
    """

    board: str
    ns: str
    ew: str
    score: int | None = None
    artificial: Artificial | None = None
    section: str | None = None
    penalty_ns: float = 0.0
    penalty_ew: float = 0.0
    weighted: tuple[tuple[int, float], ...] = ()
    award_ns: Award | None = None
    award_ew: Award | None = None

    def __post_init__(self) -> None:
        given = (self.score is not None) + (self.artificial is not None) + bool(self.weighted)
        if given != 1:
            raise FieldScoreError(f"board {self.board} ({self.ns} v {self.ew}): a result is a score, "
                                  "an artificial score or a weighted score, one of them")
        if (self.award_ns or self.award_ew) and (self.score is None or (self.award_ns and self.award_ew)):
            raise FieldScoreError(f"board {self.board} ({self.ns} v {self.ew}): one side's award goes with a "
                                  "score the other side keeps")
        if self.weighted and (len(self.weighted) < 2 or any(w <= 0 for _, w in self.weighted)
                              or abs(sum(w for _, w in self.weighted) - 100.0) > 1e-6):
            raise FieldScoreError(f"board {self.board} ({self.ns} v {self.ew}): a weighted score has two or "
                                  "more scores whose weights are above 0 and add up to 100 %")

    def award_of(self, side: str) -> Award | None:
        """The award side ``"ns"`` or ``"ew"`` scores (an artificial score's, or its own), if any."""
        if self.artificial is not None:
            return self.artificial.ns if side == "ns" else self.artificial.ew
        return self.award_ns if side == "ns" else self.award_ew

    @property
    def components(self) -> tuple[tuple[int, float], ...]:
        """The scores this result stands for, each with its share (1 in all): one for a score, the
        weighted scores' for a weighted one, none for an artificial score."""
        if self.score is not None:
            return ((self.score, 1.0),)
        return tuple((s, w / 100.0) for s, w in self.weighted)

    def score_text(self) -> str:
        """The score as the scorer writes it: ``420``, ``A+/A-`` or ``420 30% -50 70%``."""
        award = self.award_ns or self.award_ew
        if award is not None:
            return f"{self.score} ({'NS' if self.award_ns else 'EW'} {award.value})"
        if self.artificial is not None:
            return str(self.artificial)
        if self.weighted:
            return " ".join(f"{s} {w:g}%" for s, w in self.weighted)
        return str(self.score)


@dataclass(frozen=True, slots=True)
class Match:
    """A team match in two rooms: for each board, the result where ``home`` sits North-South
    and the result where ``away`` does."""

    home: str
    away: str
    boards: tuple[tuple[Result, Result], ...]
    round: str | None = None


@dataclass(frozen=True, slots=True)
class Datum:
    """The Butler datum: the mean of the scores after dropping ``trim`` from each end, rounded
    to the nearest ``rounding`` points (halves away from zero; 0: not rounded)."""

    trim: int = 0
    rounding: int = 10


@dataclass(frozen=True, slots=True)
class VpScale:
    """A 20-VP scale: the WBF continuous scale (``thresholds`` empty) or a discrete one, where
    ``thresholds[k]`` is the smallest IMP margin that wins 11 + k VPs."""

    name: str
    thresholds: tuple[int, ...] = ()

    def vps(self, margin: float, boards: int) -> tuple[float, float]:
        """The winner's and loser's VPs, in the order of a ``margin`` seen from the first team."""
        m = abs(margin)
        if self.thresholds:
            win = 10.0 + sum(1 for t in self.thresholds if m >= t)
        else:
            win = wbf_vps(m, boards)
        return (win, 20.0 - win) if margin >= 0 else (20.0 - win, win)


def wbf_vps(margin: float, boards: int) -> float:
    """The winner's VPs on the WBF continuous 20-VP scale (WBF Scoring Panel, 2013) for an IMP
    margin M over N boards: with the blitz B = 15 sqrt(N) and tau = (sqrt 5 - 1) / 2,
    VP = 10 + 10 (1 - tau^(3M/B)) / (1 - tau^3), 20 from M = B on, rounded to 2 decimals.

    The WBF's published tables keep every extra IMP worth no more than the one before; the
    rounding here can break that by 0.01 at a few margins (16 boards: 14 IMPs), where the
    published table may differ by 0.01.
    """
    if boards <= 0:
        return 10.0
    blitz = 15.0 * math.sqrt(boards)
    if margin >= blitz:
        return 20.0
    tau = (math.sqrt(5.0) - 1.0) / 2.0
    vp = 10.0 + 10.0 * (1.0 - tau ** (3.0 * margin / blitz)) / (1.0 - tau ** 3)
    return float(math.floor(vp * 100.0 + 0.5 + 1e-9)) / 100.0


WBF_VP_20 = VpScale("WBF continuous 20-VP scale")


@dataclass(frozen=True, slots=True)
class Conventions:
    """How an event is scored; every choice a scorer makes, each with its default.

    - ``matchpoints``: 2/1 (EBU, WBF) or 1/0.5 (ACBL).
    - ``neuberg``: a board with fewer results than the most any board has is scaled up by
      Neuberg's formula (and so is every board with an artificial score).
    - ``award_percent``: A+, A, A- of an artificial score in matchpoints, in % of the top
      (Law 12C2: 60/50/40); ``award_imps`` the same in IMP scoring (+3/0/-3).
    - ``datum`` (Butler), ``cross_imps`` (sum or average), ``vp`` (teams; None: IMPs only).
    - ``board_decimals``: each result's points rounded (halves away from zero) to so many
      decimals before they are added up, as a program that adds the values it prints does
      (TeamsScorer's cross-IMP pair totals); None: totals of the exact values.
    - ``across_sections``: a board's results are compared across all sections (else in
      each section alone).
    - ``rank_by_direction``: rank North-South and East-West apart; None: only for a
      matchpoint event in which no pair changed direction (a Mitchell).
    - ``rank_by_section``: rank each section's pairs apart (the section ranking of sections
      scored each alone: ``controller.fieldscore.field``); else one ranking of every section.
    - ``cross_award_share``: cross-IMPs: the share of its IMP award an artificial score earns
      against each other result (1: the whole award each time, as ACBLscore; 0.5: half, as
      Ruter, a comparison of two tables being a team board that both tables score).
    - ``awards_own_percent``: matchpoints only: average plus is the pair's own percentage on
      its other boards when that is higher, and average minus its own percentage when that is
      lower (Law 12C2's "at least 60 %" and "at most 40 %", as Ruter scores them).
    """

    matchpoints: MatchpointScale = MatchpointScale.EBU
    neuberg: bool = True
    award_percent: tuple[float, float, float] = (60.0, 50.0, 40.0)
    award_imps: tuple[float, float, float] = (3.0, 0.0, -3.0)
    datum: Datum = Datum()
    cross_imps: CrossImps = CrossImps.SUM
    vp: VpScale | None = WBF_VP_20
    board_decimals: int | None = None
    across_sections: bool = True
    rank_by_direction: bool | None = None
    rank_by_section: bool = False
    awards_own_percent: bool = False
    cross_award_share: float = 1.0

    def percent_of(self, award: Award) -> float:
        return self.award_percent[_AWARD_INDEX[award]]

    def imps_of(self, award: Award) -> float:
        return self.award_imps[_AWARD_INDEX[award]]


_AWARD_INDEX = {Award.PLUS: 0, Award.AVERAGE: 1, Award.MINUS: 2}


@dataclass(frozen=True, slots=True)
class Printed:
    """One value a file printed, to be compared with what the scores give.

    ``key`` names the thing: ``("result", section, board, ns, ew)``, ``("board", section,
    board)``, ``("pair", section, pair)``, ``("match", home, away)`` or ``("match_board",
    home, away, board)`` (section ``""`` when none); ``field`` the value (``points_ns``,
    ``percent``, ``rank`` ...: ``controller.fieldscore.check``); ``text`` as printed;
    ``label`` the file's own name for it (``MP_NS``, ``PERCENTAGE``).
    """

    key: tuple[str, ...]
    field: str
    text: str
    label: str


@dataclass(frozen=True, slots=True)
class Event:
    """An event to score: its results (and, for teams, its matches) and its conventions.

    ``pairs`` are the participants the file lists, (section, pair), so that a pair that
    played nothing is still ranked (last). ``byes`` are the boards a pair had no opponents for
    and was given a score for, (section, pair, board): each scores the pair's own average on
    the boards it played (``controller.fieldscore.event``). ``printed`` and ``not_checked`` come
    from the file: what it printed, and what of it cannot be recomputed from these scores, and why.
    """

    name: str
    scoring: Scoring
    results: tuple[Result, ...]
    conventions: Conventions = Conventions()
    matches: tuple[Match, ...] = ()
    pairs: tuple[tuple[str | None, str], ...] = ()
    producer: str | None = None
    notes: tuple[str, ...] = ()
    printed: tuple[Printed, ...] = ()
    not_checked: tuple[str, ...] = ()
    byes: tuple[tuple[str | None, str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ResultsFile:
    """What a results file holds: its events, and what its reader tolerated."""

    source: str
    events: tuple[Event, ...]
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoredResult:
    """A result with its points: matchpoints (``top`` set) or IMPs, for each side."""

    result: Result
    points_ns: float
    points_ew: float
    top: float | None = None

    @property
    def percent_ns(self) -> float | None:
        return None if not self.top else 100.0 * self.points_ns / self.top

    @property
    def percent_ew(self) -> float | None:
        return None if not self.top else 100.0 * self.points_ew / self.top


@dataclass(frozen=True, slots=True)
class BoardScore:
    """One board scored: its results, its top (matchpoints) or its datum (Butler)."""

    board: str
    section: str | None
    results: tuple[ScoredResult, ...]
    top: float | None = None
    datum: float | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """A pair's (or team's) session: boards played, total, percentage, rank among its field.

    ``maximum`` is the sum of the tops of its boards (matchpoints); ``tied`` how many share
    its rank (1 when none); ``rank`` None for a pair that played nothing when nobody did.
    """

    pair: str
    section: str | None
    direction: str | None
    boards: int
    total: float
    maximum: float | None = None
    rank: int | None = None
    tied: int = 1
    wins: int | None = None

    @property
    def percent(self) -> float | None:
        return None if not self.maximum else 100.0 * self.total / self.maximum

    @property
    def average(self) -> float | None:
        return None if not self.boards else self.total / self.boards


@dataclass(frozen=True, slots=True)
class MatchScore:
    """A team match scored: the home team's IMPs on each board, both totals and VPs."""

    match: Match
    imps: tuple[tuple[str, float], ...]
    """The home team's IMPs on each board: whole IMPs, but a weighted score's shares (to 0.01)."""
    home_imps: float
    away_imps: float
    home_vps: float | None = None
    away_vps: float | None = None


@dataclass(frozen=True, slots=True)
class EventScore:
    """An event scored: its boards, its standings in rank order (North-South's field, then
    East-West's, when ``by_direction``), its matches."""

    event: Event
    boards: tuple[BoardScore, ...]
    standings: tuple[Standing, ...]
    matches: tuple[MatchScore, ...] = field(default=())
    by_direction: bool = False
