"""``tablectl score``: field scoring of a results file (PBN score tables or USEBIO XML).

Every board's matchpoints or IMPs and every pair's total, percentage and rank are computed
from the scores alone (``controller.fieldscore``), never from the MP, IMP, percentage, total
or rank the file carries; ``--check`` compares them with what the file printed and lists
every difference (exit 0 when all agree, 1 when some differ, 2 when the file is unusable).
``--json`` prints the object of docs/field-scoring.md. ``--pbn OUT`` and ``--usebio OUT`` also
write the scored events as PBN score tables and as USEBIO 1.2 (``controller.records``), every
value the one computed here.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from controller.errors import BridgeTableError
from controller.fieldscore import (
    CheckReport,
    Conventions,
    EventScore,
    MatchpointScale,
    ResultsFile,
    Scoring,
    Standing,
    check,
    score_event,
)
from controller.records import scoretable, usebio

__all__ = ["add_commands", "event_json", "load_results", "score_file"]

_MAX_WARNINGS = 10


class UnusableFile(BridgeTableError, ValueError):
    """A results file with nothing to score: missing, unreadable, or without any result."""


def load_results(path: Path) -> ResultsFile:
    """The events of a PBN (score tables, ``[ScoreIMP]``) or USEBIO file, by its name or its first bytes."""
    if not path.is_file():
        raise UnusableFile(f"{path}: no such file")
    data = path.read_bytes()
    head = data[:200].lstrip(b"\xef\xbb\xbf \t\r\n")
    if path.suffix.lower() == ".xml" or head.startswith(b"<"):
        results = usebio.loads(data, source=path.name)
    else:
        results = scoretable.load(path)
    if not any(e.results or e.matches for e in results.events):
        raise UnusableFile(f"{path}: no [ScoreTable], [ScoreIMP] or USEBIO traveller with a result found")
    return results


def score_file(results: ResultsFile, matchpoints: str | None = None) -> list[EventScore]:
    """Score every event of ``results``; ``matchpoints`` (``ebu``/``acbl``) overrides the scale."""
    out = []
    for event in results.events:
        conv: Conventions = event.conventions
        if matchpoints is not None:
            conv = replace(conv, matchpoints=MatchpointScale(matchpoints))
        out.append(score_event(event, conv))
    return out


def _r(value: float | None, places: int) -> float | None:
    return None if value is None else round(value + 0.0, places) + 0.0


def event_json(score: EventScore) -> dict[str, Any]:
    """One event as the object of docs/field-scoring.md (and, for teams, its ``matches``)."""
    event = score.event
    sections = any(r.section for r in event.results)
    boards = []
    for b in score.boards:
        results = []
        for s in b.results:
            r = s.result
            entry: dict[str, Any] = {"ns": r.ns, "ew": r.ew}
            if sections:
                entry["section"] = r.section
            entry["score_ns"] = r.score
            entry["points_ns"] = _r(s.points_ns, 2)
            entry["points_ew"] = _r(s.points_ew, 2)
            if event.scoring is Scoring.MP:
                entry["percent_ns"] = _r(s.percent_ns, 1)
                entry["percent_ew"] = _r(s.percent_ew, 1)
            results.append(entry)
        boards.append({"board": b.board, "results": results})
    pairs = [{"pair": st.pair, "direction": st.direction, "section": st.section, "total": _r(st.total, 2),
              "percent": _r(st.percent, 2), "rank": st.rank} for st in score.standings]
    out: dict[str, Any] = {"name": event.name, "scoring": event.scoring.value, "boards": boards, "pairs": pairs}
    if event.scoring is Scoring.TEAMS:
        out["matches"] = [{"round": ms.match.round, "home": ms.match.home, "away": ms.match.away,
                           "imps": [{"board": b, "home": i} for b, i in ms.imps],
                           "imps_home": ms.home_imps, "imps_away": ms.away_imps,
                           "vp_home": ms.home_vps, "vp_away": ms.away_vps} for ms in score.matches]
    return out


def _place(st: Standing) -> str:
    if st.rank is None:
        return "-"
    return f"{st.rank}=" if st.tied > 1 else str(st.rank)


def ranking_text(score: EventScore) -> str:
    """A readable ranking of one event, with what scored it."""
    e = score.event
    what = {Scoring.MP: "matchpoints", Scoring.BUTLER: "Butler IMPs", Scoring.CROSS_IMP: "cross-IMPs",
            Scoring.TEAMS: "teams"}[e.scoring]
    n_results = sum(len(b.results) for b in score.boards)
    lines = [f"{e.name}: {what}" + (f" ({e.producer})" if e.producer else "")
             + f", {len(score.boards)} boards, {n_results} results, {len(score.standings)} "
             + ("teams" if e.scoring is Scoring.TEAMS else "pairs")]
    notes = list(e.notes)
    if e.scoring is Scoring.MP:
        notes = [n for n in notes if not n.startswith("matchpoints ")]
        scale = e.conventions.matchpoints
        notes.insert(0, "matchpoints " + ("2 per pair beaten, 1 per tie (EBU/WBF)" if scale is MatchpointScale.EBU
                                          else "1 per pair beaten, 1/2 per tie (ACBL)"))
    lines.extend(f"  {n}" for n in notes)
    sections = any(st.section for st in score.standings)
    if e.scoring is Scoring.TEAMS:
        lines.append(f"{'Rank':>5}  {'Team':<16}{'Boards':>7}{'Total':>9}{'Wins':>6}")
        for st in score.standings:
            lines.append(f"{_place(st):>5}  {st.pair:<16}{st.boards:>7}{st.total:>9.2f}{st.wins or 0:>6}")
        lines.append("Matches (home v away: IMPs, VPs):")
        for ms in score.matches:
            m = ms.match
            vps = f"  VPs {ms.home_vps:g}-{ms.away_vps:g}" if ms.home_vps is not None and ms.away_vps is not None \
                else ""
            where = f"round {m.round}: " if m.round else ""
            lines.append(f"  {where}{m.home} v {m.away}: IMPs {ms.home_imps}-{ms.away_imps}{vps}")
        return "\n".join(lines)
    mp = e.scoring is Scoring.MP
    head = f"{'Rank':>5}  {'Pair':<10}" + (f"{'Sect':<5}" if sections else "") + f"{'Dir':<4}{'Boards':>7}{'Total':>10}"
    lines.append(head + (f"{'%':>8}" if mp else f"{'Per board':>11}"))
    for i, st in enumerate(score.standings):
        if score.by_direction and (i == 0 or st.direction != score.standings[i - 1].direction):
            lines.append({"NS": "North-South", "EW": "East-West"}.get(st.direction or "", "Others"))
        row = f"{_place(st):>5}  {st.pair:<10}" + (f"{st.section or '':<5}" if sections else "") + \
            f"{st.direction or '-':<4}{st.boards:>7}{st.total:>10.2f}"
        if mp:
            row += f"{st.percent:>8.2f}" if st.percent is not None else f"{'-':>8}"
        else:
            row += f"{st.average:>11.2f}" if st.average is not None else f"{'-':>11}"
        lines.append(row)
    return "\n".join(lines)


def check_text(source: str, reports: list[CheckReport]) -> str:
    """The readable ``--check`` report: per event, what was compared, every difference, what was not."""
    lines = []
    for rep in reports:
        verdict = "all agree" if not rep.differences else f"{len(rep.differences)} differ"
        lines.append(f"{source}: {rep.event}: {rep.compared} printed values compared, {verdict}")
        lines.extend(f"  {d}" for d in rep.differences)
        lines.extend(f"  not checked: {n}" for n in rep.not_checked)
    return "\n".join(lines)


def check_json(reports: list[CheckReport]) -> dict[str, Any]:
    """The ``--check --json`` report."""
    return {"events": [{"name": r.event, "compared": r.compared,
                        "differences": [{"where": d.where, "label": d.label, "printed": d.printed,
                                         "computed": d.computed} for d in r.differences],
                        "not_checked": list(r.not_checked)} for r in reports]}


def _cmd_score(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        results = load_results(path)
        scores = score_file(results, args.matchpoints)
    except (BridgeTableError, OSError) as exc:
        print(f"tablectl score: {exc}", file=sys.stderr)
        return 2
    for w in results.warnings[:_MAX_WARNINGS]:
        print(f"tablectl score: {results.source}: {w}", file=sys.stderr)
    if len(results.warnings) > _MAX_WARNINGS:
        print(f"tablectl score: {results.source}: {len(results.warnings) - _MAX_WARNINGS} more warnings",
              file=sys.stderr)
    try:
        _write_exports(scores, args.pbn, args.usebio)
    except OSError as exc:
        print(f"tablectl score: {exc}", file=sys.stderr)
        return 2
    if args.check:
        reports = [check(s) for s in scores]
        if args.json:
            json.dump(check_json(reports), sys.stdout, indent=1)
            sys.stdout.write("\n")
        else:
            print(check_text(results.source, reports))
        return 1 if any(r.differences for r in reports) else 0
    if args.json:
        json.dump({"events": [event_json(s) for s in scores]}, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print("\n\n".join(ranking_text(s) for s in scores))
    return 0


def _write_exports(scores: list[EventScore], pbn_path: str | None, usebio_path: str | None) -> None:
    """Write the scored events as PBN score tables and as USEBIO 1.2, where asked."""
    for path, module in ((pbn_path, scoretable), (usebio_path, usebio)):
        if path is not None:
            module.dump(scores, path)
            print(f"tablectl score: wrote {path}", file=sys.stderr)


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``score`` to ``tablectl``'s sub-commands."""
    p = sub.add_parser("score", help="score a results file (PBN [ScoreTable]/[ScoreIMP] or USEBIO XML) "
                       "from its scores alone",
                       description="Compute every board's matchpoints or IMPs and every pair's total, percentage "
                                   "and rank from the scores alone (docs/field-scoring.md).")
    p.add_argument("file", help="a PBN file with score tables or [ScoreIMP], or a USEBIO 1.2 XML file")
    p.add_argument("--json", action="store_true", help="print the JSON object of docs/field-scoring.md")
    p.add_argument("--check", action="store_true",
                   help="compare with every value the file printed and list each difference "
                        "(exit 0: all agree, 1: some differ, 2: unusable file)")
    p.add_argument("--matchpoints", choices=[s.value for s in MatchpointScale],
                   help="matchpoint scale: ebu (2 per pair beaten, 1 per tie) or acbl (1 and 1/2); "
                        "default: the file's program's, ebu when it says nothing")
    p.add_argument("--pbn", metavar="OUT", help="also write the scored events as PBN 2.1 score tables "
                   "([ScoreTable] travellers, [TotalScoreTable] ranking; [ScoreIMP] for teams)")
    p.add_argument("--usebio", metavar="OUT", help="also write the scored events as USEBIO 1.2 XML")
    p.set_defaults(func=_cmd_score)
