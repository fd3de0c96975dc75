"""The conventions of an event as one line of text, for the results files this project writes.

A results file says how it was scored only in part (PBN's ``Scoring`` tag, USEBIO's
``BOARD_SCORING_METHOD``); the rest a reader guesses from the program that wrote it. The
files written here carry every choice of ``Conventions`` in one line, so that reading them
back scores them as they were scored: ``key=value`` pairs separated by ``;``::

    matchpoints=ebu; neuberg=yes; awards=60/50/40; award_imps=3/0/-3; datum_trim=0;
    datum_rounding=10; cross_imps=sum; vp=wbf; board_decimals=none; across_sections=yes;
    rank_by_direction=auto; awards_own=no; cross_award_share=1

``vp`` is ``wbf`` (the WBF continuous scale), ``none`` (IMPs only) or a discrete scale's
thresholds (``1,2,3,5,...``, with its name in ``vp_name``). A key left out keeps the
reader's own default; an unknown key or value is a ``FieldScoreError``. ``rank_by_section=yes``
is written only when sections are ranked apart (the section ranking, ``field``).
"""

from __future__ import annotations

from dataclasses import replace

from controller.fieldscore.model import (
    WBF_VP_20,
    Conventions,
    CrossImps,
    Datum,
    FieldScoreError,
    MatchpointScale,
    Scoring,
    VpScale,
)

__all__ = ["conventions_text", "parse_conventions", "program_conventions"]

# The matchpoints of a board as a program adds them up: rounded (halves away from zero) to so
# many decimals first, the pair's total and percentage then taken from the rounded values
# (docs/field-scoring.md, "Each program's conventions", gives the sources).
_MATCHPOINT_DECIMALS = (
    ("ebuscore", 2, "each board's matchpoints rounded to 2 decimals before they are added up (EBUScore)"),
    ("scorebridge", 1, "each board's matchpoints rounded to 1 decimal before they are added up "
                       "(ScoreBridge, as the WBF's one-decimal scoring)"),
)


def program_conventions(program: str | None, scoring: Scoring, conv: Conventions
                        ) -> tuple[Conventions, tuple[str, ...]]:
    """``conv`` with what a file's producing ``program`` is known to do that the file does not
    say, and a note for each such choice (none for a program not known here)."""
    name = (program or "").strip().lower()
    notes: list[str] = []
    if scoring is Scoring.MP and name.startswith("ruter") and not conv.awards_own_percent:
        conv = replace(conv, awards_own_percent=True)
        notes.append("average plus at least 60 % and average minus at most 40 %: the pair's own percentage "
                     "on its other boards when that is beyond them (Ruter)")
    if scoring is Scoring.CROSS_IMP and name.startswith("ruter") and conv.cross_award_share == 1.0:
        conv = replace(conv, cross_award_share=0.5)
        notes.append("an artificial score earns half its IMP award against each other result (Ruter)")
    if scoring is Scoring.MP and conv.board_decimals is None:
        for prefix, places, note in _MATCHPOINT_DECIMALS:
            if name.startswith(prefix):
                conv = replace(conv, board_decimals=places)
                notes.append(note)
                break
    return conv, tuple(notes)


def _number(value: float) -> str:
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def conventions_text(conv: Conventions) -> str:
    """Every choice of ``conv`` as ``key=value; ...`` (read back by ``parse_conventions``)."""
    if conv.vp is None:
        vp = ["vp=none"]
    elif not conv.vp.thresholds:
        vp = ["vp=wbf"]
    else:
        vp = ["vp=" + ",".join(str(t) for t in conv.vp.thresholds),
              "vp_name=" + conv.vp.name.replace(";", ",").replace("=", "-")]
    by_direction = "auto" if conv.rank_by_direction is None else _yes(conv.rank_by_direction)
    parts = [
        f"matchpoints={conv.matchpoints.value}",
        f"neuberg={_yes(conv.neuberg)}",
        "awards=" + "/".join(_number(v) for v in conv.award_percent),
        "award_imps=" + "/".join(_number(v) for v in conv.award_imps),
        f"datum_trim={conv.datum.trim}",
        f"datum_rounding={conv.datum.rounding}",
        f"cross_imps={conv.cross_imps.value}",
        *vp,
        f"board_decimals={'none' if conv.board_decimals is None else conv.board_decimals}",
        f"across_sections={_yes(conv.across_sections)}",
        f"rank_by_direction={by_direction}",
        *([f"rank_by_section={_yes(conv.rank_by_section)}"] if conv.rank_by_section else []),
        f"awards_own={_yes(conv.awards_own_percent)}",
        f"cross_award_share={_number(conv.cross_award_share)}",
    ]
    return "; ".join(parts)


def parse_conventions(text: str, base: Conventions | None = None) -> Conventions:
    """The conventions of ``conventions_text``'s line, on top of ``base`` for the keys it leaves out."""
    conv = base if base is not None else Conventions()
    values: dict[str, str] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        if not sep:
            raise FieldScoreError(f"conventions: {part.strip()!r} is not key=value")
        values[key.strip()] = value.strip()
    trim, rounding = conv.datum.trim, conv.datum.rounding
    vp_name = values.pop("vp_name", "20-VP scale")
    for key, value in values.items():
        try:
            if key == "matchpoints":
                conv = replace(conv, matchpoints=MatchpointScale(value))
            elif key == "neuberg":
                conv = replace(conv, neuberg=_bool(value))
            elif key == "awards":
                conv = replace(conv, award_percent=_three(value))
            elif key == "award_imps":
                conv = replace(conv, award_imps=_three(value))
            elif key == "datum_trim":
                trim = int(value)
            elif key == "datum_rounding":
                rounding = int(value)
            elif key == "cross_imps":
                conv = replace(conv, cross_imps=CrossImps(value))
            elif key == "vp":
                conv = replace(conv, vp=_vp(value, vp_name))
            elif key == "board_decimals":
                conv = replace(conv, board_decimals=None if value == "none" else int(value))
            elif key == "across_sections":
                conv = replace(conv, across_sections=_bool(value))
            elif key == "cross_award_share":
                share = float(value)
                if not 0.0 < share <= 1.0:
                    raise ValueError(value)
                conv = replace(conv, cross_award_share=share)
            elif key == "awards_own":
                conv = replace(conv, awards_own_percent=_bool(value))
            elif key == "rank_by_section":
                conv = replace(conv, rank_by_section=_bool(value))
            elif key == "rank_by_direction":
                conv = replace(conv, rank_by_direction=None if value == "auto" else _bool(value))
            else:
                raise FieldScoreError(f"conventions: unknown key {key!r}")
        except ValueError as exc:
            if isinstance(exc, FieldScoreError):
                raise
            raise FieldScoreError(f"conventions: {key}={value!r} is not a valid value") from None
    if (trim, rounding) != (conv.datum.trim, conv.datum.rounding):
        conv = replace(conv, datum=Datum(trim, rounding))
    return conv


def _bool(value: str) -> bool:
    if value in ("yes", "no"):
        return value == "yes"
    raise ValueError(value)


def _three(value: str) -> tuple[float, float, float]:
    a, b, c = (float(v) for v in value.split("/"))
    return a, b, c


def _vp(value: str, name: str) -> VpScale | None:
    if value == "none":
        return None
    if value == "wbf":
        return WBF_VP_20
    thresholds = tuple(int(v) for v in value.split(","))
    if list(thresholds) != sorted(thresholds) or len(thresholds) > 10:
        raise ValueError(value)
    return VpScale(name, thresholds)
