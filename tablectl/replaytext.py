"""The plain-text report of ``tablectl replay`` (without ``--json``): one paragraph per board."""

from __future__ import annotations

from typing import Any

__all__ = ["summary"]


def summary(report: dict[str, Any]) -> str:
    lines = []
    for b in report["boards"]:
        where = b.get("source") or f"board {b.get('number')}"
        if "error" in b:
            lines.append(f"{where}: cannot replay: {b['error']}")
            continue
        contract = b["contract"] or "(auction incomplete)"
        by = f" by {b['declarer']}" if b.get("declarer") else ""
        result = b["result"] if b["result"] is not None else "?"
        score = b["score_ns"] if b["score_ns"] is not None else "-"
        line = (f"{where}: {contract}{by} {result}  tricks {b['tricks']}  NS {score}"
                f"  [{b['status']}]")
        if b["irregularities"]:
            line += "  irregularities: " + ", ".join(
                f"#{i['id']} {i['kind']} by {i['offender']} (Law {i['law']})"
                for i in b["irregularities"])
        for d in b.get("differences", []):
            line += f"\n    record differs: {d}"
        lines.append(line)
    skipped = report.get("errors", [])
    lines += [f"skipped: {e}" for e in skipped[:20]]
    if len(skipped) > 20:
        lines.append(f"skipped: {len(skipped) - 20} more (--json lists them all)")
    s = report["session"]
    errors = sum(1 for b in report["boards"] if "error" in b)
    lines.append(f"{len(report['boards'])} boards ({errors} not replayable); "
                 f"code {s['code']}; NS total {s['total_ns']:+d}")
    return "\n".join(lines)
