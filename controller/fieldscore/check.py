"""What the scores give against what a file printed: every printed value, compared.

A printed number agrees when the computed value, rounded half up to as many decimals as the
file printed, is that number (so "94" for 94.12 %, "2.93" for 41/14 IMPs, "-0" for 0). A
place printed "7=" (``place``: the producer marks ties) must be a shared 7th place, and
"7" then an unshared one. The fields of a ``Printed`` value:

- result ``("result", section, board, ns, ew)``: ``points_ns``/``points_ew`` (matchpoints or
  IMPs), ``percent_ns``/``percent_ew``, ``centred_ns``/``centred_ew`` (matchpoints minus half
  the top, as Ruter i Norge prints them);
- board ``("board", section, board)``: ``datum`` (Butler);
- pair or team ``("pair", section, pair)``: ``total``, ``percent``, ``average`` (per board
  played), ``per_comparison`` (cross-IMPs: the total over the comparisons the pair's results
  took part in), ``centred_total``, ``boards``, ``rank``, ``place`` (rank with "=" when shared),
  ``rank_end`` (the last place of a shared rank), ``wins`` (matches won or drawn);
- match ``("match", home, away)``: ``imps_home``/``imps_away``, ``vp_home``/``vp_away``;
  ``("match_board", home, away, board)``: ``imps`` (the home team's).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from controller.fieldscore.model import EventScore, Printed, Scoring

__all__ = ["CheckReport", "Difference", "check", "computed_values", "fixed"]

Key = tuple[tuple[str, ...], str]


@dataclass(frozen=True, slots=True)
class Difference:
    """A printed value that the scores do not give: where, the file's name for it, both values."""

    where: str
    label: str
    printed: str
    computed: str

    def __str__(self) -> str:
        return f"{self.where}: {self.label} printed {self.printed}, computed {self.computed}"


@dataclass(frozen=True, slots=True)
class CheckReport:
    """One event's check: how many printed values were compared, those that differ, and what
    the file printed that cannot be recomputed from its scores (and why)."""

    event: str
    compared: int
    differences: tuple[Difference, ...]
    not_checked: tuple[str, ...] = ()


def computed_values(score: EventScore) -> dict[Key, float]:
    """Every value the event's scores give, by (key, field) as ``Printed`` names them."""
    out: dict[Key, float] = {}
    for b in score.boards:
        if b.datum is not None:
            out[(("board", b.section or "", b.board), "datum")] = b.datum
        for s in b.results:
            r = s.result
            rkey = ("result", r.section or "", r.board, r.ns, r.ew)
            out[(rkey, "points_ns")] = s.points_ns
            out[(rkey, "points_ew")] = s.points_ew
            if s.top:
                out[(rkey, "percent_ns")] = 100.0 * s.points_ns / s.top
                out[(rkey, "percent_ew")] = 100.0 * s.points_ew / s.top
                out[(rkey, "centred_ns")] = s.points_ns - s.top / 2.0
                out[(rkey, "centred_ew")] = s.points_ew - s.top / 2.0
    comparisons: dict[tuple[str, str], int] = {}
    for b in score.boards:
        for s in b.results:
            for pair in (s.result.ns, s.result.ew):
                k = (s.result.section or "", pair)
                comparisons[k] = comparisons.get(k, 0) + len(b.results) - 1
    for st in score.standings:
        key: tuple[str, ...] = ("pair", st.section or "", st.pair)
        if score.event.scoring is Scoring.CROSS_IMP and comparisons.get((st.section or "", st.pair)):
            out[(key, "per_comparison")] = st.total / comparisons[(st.section or "", st.pair)]
        out[(key, "total")] = st.total
        out[(key, "boards")] = float(st.boards)
        out[(key, "average")] = st.average or 0.0
        if st.maximum:
            out[(key, "percent")] = 100.0 * st.total / st.maximum
            out[(key, "centred_total")] = st.total - st.maximum / 2.0
        if st.rank is not None:
            out[(key, "rank")] = float(st.rank)
            out[(key, "rank_end")] = float(st.rank + st.tied - 1)
            out[(key, "rank_tied")] = float(st.tied > 1)
        if st.wins is not None:
            out[(key, "wins")] = float(st.wins)
    for ms in score.matches:
        m = ms.match
        key = ("match", m.home, m.away)
        out[(key, "imps_home")] = float(ms.home_imps)
        out[(key, "imps_away")] = float(ms.away_imps)
        if ms.home_vps is not None and ms.away_vps is not None:
            out[(key, "vp_home")] = ms.home_vps
            out[(key, "vp_away")] = ms.away_vps
        for board, gained in ms.imps:
            out[(("match_board", m.home, m.away, board), "imps")] = float(gained)
    return out


def check(score: EventScore) -> CheckReport:
    """Compare every value ``score.event`` printed with what its scores give."""
    values = computed_values(score)
    differences = []
    for p in score.event.printed:
        text = p.text.strip()
        if p.field == "place":
            rank = values.get((p.key, "rank"))
            computed = "(nothing)" if rank is None else \
                f"{rank:.0f}" + ("=" if values.get((p.key, "rank_tied")) else "")
            if computed != text:
                differences.append(Difference(_where(p), p.label, p.text, computed))
            continue
        value = values.get((p.key, p.field))
        computed = "(nothing)" if value is None else _shown(value, text)
        if value is None or computed != _normal(text):
            differences.append(Difference(_where(p), p.label, p.text, computed))
    return CheckReport(score.event.name, len(score.event.printed), tuple(differences), score.event.not_checked)


def _normal(text: str) -> str:
    """A printed number in one form ("-0" and "0", "05" and "5" alike); other text as it is."""
    try:
        d = Decimal(text)
    except InvalidOperation:
        return text
    return str(d.copy_abs() if d.is_zero() else d)


def _shown(value: float, printed: str) -> str:
    """``value`` rounded half up to the decimals of ``printed`` (as ``_normal`` writes numbers)."""
    try:
        exponent = Decimal(printed).as_tuple().exponent
    except InvalidOperation:
        exponent = -2
    return fixed(value, -exponent if isinstance(exponent, int) and exponent < 0 else 0)


def fixed(value: float, places: int) -> str:
    """``value`` written with ``places`` decimals, halves rounded up (away from zero), no "-0":
    the form in which the results files written here print a number, so that ``check``
    reading them back finds each one equal."""
    d = Decimal(repr(round(value, 9))).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return str(d.copy_abs() if d.is_zero() else d)


def _where(p: Printed) -> str:
    kind, *rest = p.key
    if kind == "result":
        section, board, ns, ew = rest
        return f"board {board}{_in(section)}, {ns} v {ew}"
    if kind == "board":
        section, board = rest
        return f"board {board}{_in(section)}"
    if kind == "pair":
        section, pair = rest
        return f"pair {pair}{_in(section)}"
    if kind == "match":
        return f"match {rest[0]} v {rest[1]}"
    if kind == "match_board":
        return f"match {rest[0]} v {rest[1]}, board {rest[2]}"
    return " ".join(p.key)


def _in(section: str) -> str:
    return f" (section {section})" if section else ""
