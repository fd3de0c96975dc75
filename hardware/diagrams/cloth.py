"""The cloth's zone artwork at real size: cloth-zones.svg, to print (or stitch) on the table cloth.

Run with ``python hardware/diagrams/cloth.py [--table 1000] [--out hardware/build/cloth-zones.svg]``
(``make hardware`` runs it). The SVG is in millimetres (``width="1000mm"``): print it at
100 % on a large-format printer or tiled on A3/A4 sheets and taped together, then copy the
outlines onto the cloth (fabric paint, transfer paper or stitching).

Per seat: the **play zone** (one card, 57 x 89 mm, and a margin), centred in front of the
player, and the **spread zone**: dummy's four suit columns over the 4 x 4 pad array
(drivers.spread.PadArray, diagrams.toml ``[spread_zone]``: columns 57 mm wide, 8 mm apart,
cards every 20 mm). Each seat's zones are the north seat's turned by 90 degrees. ``check``
refuses a table on which two zones' antennas come closer than 10 cm (readers.md) or a zone
leaves the table. A cloth of 1 m keeps them apart; on a 90 cm table each spread zone comes
within 5 cm of the next seat's play zone, and the script says so rather than draw it: move
those zones by hand and check the two readers with ``tablectl doctor``.
"""

from __future__ import annotations

import argparse
import math
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from drivers.spread import PadArray  # noqa: E402

MIN_GAP_MM = 100.0       # readers.md: antennas at least 10 cm apart
EDGE_MARGIN_MM = 40.0    # the spread zone's near edge from the table's edge
MARGIN_MM = 6.0          # around the cards of a zone


@dataclass(frozen=True)
class Zone:
    seat: str
    kind: str                # play or spread
    x0: float                # table coordinates, mm, origin at the centre, y towards North
    y0: float
    x1: float
    y1: float

    def gap(self, other: Zone) -> float:
        dx = max(other.x0 - self.x1, self.x0 - other.x1, 0.0)
        dy = max(other.y0 - self.y1, self.y0 - other.y1, 0.0)
        return math.hypot(dx, dy)


def _sizes() -> dict[str, float]:
    with (HERE / "diagrams.toml").open("rb") as f:
        return {k: float(v) for k, v in tomllib.load(f)["spread_zone"].items()}


def zones(table_mm: float = 1000.0) -> list[Zone]:
    """The eight zones of a square table ``table_mm`` wide."""
    z, pads = _sizes(), PadArray()
    half = table_mm / 2
    cards = pads.rows * pads.tags_per_pad
    spread_w = pads.columns * z["card_width"] + (pads.columns - 1) * z["column_gap"] + 2 * MARGIN_MM
    spread_h = z["card_height"] + (cards - 1) * z["pitch"] + 2 * MARGIN_MM
    play_w, play_h = z["card_width"] + 2 * MARGIN_MM, z["card_height"] + 2 * MARGIN_MM
    # North's zones, seen from above with North at the top; North's own left is East's side (x > 0).
    spread = (-spread_w - MIN_GAP_MM / 2, half - EDGE_MARGIN_MM - spread_h,
              -MIN_GAP_MM / 2, half - EDGE_MARGIN_MM)
    play_y1 = half - EDGE_MARGIN_MM - 60.0
    play = (MIN_GAP_MM / 2, play_y1 - play_h, MIN_GAP_MM / 2 + play_w, play_y1)
    out = []
    for turn, seat in enumerate("NWSE"):         # each a quarter turn anticlockwise from North
        for kind, (x0, y0, x1, y1) in (("play", play), ("spread", spread)):
            corners = [(x0, y0), (x1, y1)]
            for _ in range(turn):
                corners = [(-y, x) for x, y in corners]
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            out.append(Zone(seat, kind, min(xs), min(ys), max(xs), max(ys)))
    return out


def check(table_mm: float = 1000.0) -> list[str]:
    """Zones closer than 10 cm to each other, or off the table: what would make this cloth wrong."""
    half = table_mm / 2
    found = []
    zs = zones(table_mm)
    for i, a in enumerate(zs):
        if min(a.x0, a.y0) < -half or max(a.x1, a.y1) > half:
            found.append(f"{a.seat} {a.kind} zone leaves a {table_mm:.0f} mm table")
        for b in zs[i + 1:]:
            if a.gap(b) < MIN_GAP_MM:
                found.append(f"{a.seat} {a.kind} and {b.seat} {b.kind} zones are {a.gap(b):.0f} mm apart "
                             f"(at least {MIN_GAP_MM:.0f})")
    return found


def svg(table_mm: float = 1000.0) -> str:
    half = table_mm / 2
    z, pads = _sizes(), PadArray()
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{table_mm:g}mm" height="{table_mm:g}mm" '
             f'viewBox="{-half:g} {-half:g} {table_mm:g} {table_mm:g}">',
             f"<title>Cloth zones for a {table_mm:g} mm bridge table, real size (1 unit = 1 mm)</title>",
             f'<rect x="{-half:g}" y="{-half:g}" width="{table_mm:g}" height="{table_mm:g}" fill="none" '
             'stroke="#888" stroke-width="0.5" stroke-dasharray="5 5"/>']
    for zone in zones(table_mm):
        # SVG's y grows downwards: North (y > 0 in table coordinates) is at the top.
        x, y, w, h = zone.x0, -zone.y1, zone.x1 - zone.x0, zone.y1 - zone.y0
        colour = "#1f5fbf" if zone.kind == "play" else "#c25b00"
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="6" fill="none" '
                     f'stroke="{colour}" stroke-width="1.5"/>')
        label = f"{zone.seat} {'play' if zone.kind == 'play' else 'dummy'}"
        parts.append(f'<text x="{x + w / 2:.1f}" y="{y + h / 2:.1f}" font-size="9" text-anchor="middle" '
                     f'fill="{colour}" font-family="sans-serif">{label}</text>')
        if zone.kind == "spread":
            n = pads.columns
            col_w = (w - 2 * MARGIN_MM - (n - 1) * z["column_gap"]) / n
            horizontal = w > h
            for k in range(n):
                if horizontal:
                    cx = x + MARGIN_MM + k * (col_w + z["column_gap"])
                    parts.append(f'<rect x="{cx:.1f}" y="{y + MARGIN_MM:.1f}" width="{col_w:.1f}" '
                                 f'height="{h - 2 * MARGIN_MM:.1f}" fill="none" stroke="{colour}" '
                                 'stroke-width="0.5" stroke-dasharray="3 2"/>')
            if not horizontal:
                col_h = (h - 2 * MARGIN_MM - (n - 1) * z["column_gap"]) / n
                for k in range(n):
                    cy = y + MARGIN_MM + k * (col_h + z["column_gap"])
                    parts.append(f'<rect x="{x + MARGIN_MM:.1f}" y="{cy:.1f}" width="{w - 2 * MARGIN_MM:.1f}" '
                                 f'height="{col_h:.1f}" fill="none" stroke="{colour}" stroke-width="0.5" '
                                 'stroke-dasharray="3 2"/>')
    for seat, (x, y) in {"N": (0, -half + 12), "S": (0, half - 6), "W": (-half + 14, 0), "E": (half - 14, 0)}.items():
        parts.append(f'<text x="{x:g}" y="{y:g}" font-size="12" text-anchor="middle" font-family="sans-serif">'
                     f"{seat}</text>")
    parts.append(f'<text x="0" y="0" font-size="8" text-anchor="middle" font-family="sans-serif" fill="#444">'
                 f"print at 100 %: this square is {table_mm:g} mm</text>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--table", type=float, default=1000.0, help="the table's side, mm")
    parser.add_argument("--out", type=Path, default=ROOT / "hardware" / "build" / "cloth-zones.svg")
    args = parser.parse_args(argv)
    problems = check(args.table)
    if problems:
        print("cloth: " + "; ".join(problems), file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(svg(args.table), encoding="utf-8")
    print(f"wrote {args.out} ({args.table:g} mm square, real size)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
