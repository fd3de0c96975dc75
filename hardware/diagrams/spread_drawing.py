"""The spread zone's antenna pads under dummy's columns (spread-zone.svg), for make_diagrams.py.

The pad grid and its timing come from ``drivers.spread.PadArray`` (the model the simulator
runs), the card, tag and pad sizes from ``[spread_zone]`` in diagrams.toml, so the drawing, the
simulator and hardware/spread-zone.md describe the same array.
"""

from __future__ import annotations

from typing import Any

from drivers.spread import PadArray
from firmware_bridge.firmware.seatfw import board  # the firmware's own pin map

INK = "#1a1a1a"
GREY = "#8a8a8a"
PAD = "#c25b00"
TAG = "#1f5fbf"
BUS = "#8a2be2"
NOTE = "#444444"


def draw(src: dict[str, Any], svg_class: Any) -> str:
    """spread-zone.svg: a top view of one seat's spread zone at 3 px per millimetre."""
    z = src["spread_zone"]
    pads = PadArray()
    k = 3.0   # px per mm
    cw, ch, pitch = float(z["card_width"]), float(z["card_height"]), float(z["pitch"])
    gap, tag_r = float(z["column_gap"]), float(z["tag_diameter"]) / 2
    pw, ph = float(z["pad_width"]), float(z["pad_height"])
    per_column = pads.rows * pads.tags_per_pad
    zone_w = pads.columns * cw + (pads.columns - 1) * gap
    zone_h = ch + (per_column - 1) * pitch
    left, top = 60.0, 70.0
    width = left * 2 + zone_w * k + 330
    height = top + zone_h * k + 170
    svg = svg_class(width, height, "Spread zone: antenna pads under dummy's columns")
    svg.text(left, 32, "Spread zone of one seat, seen from above (dummy's side at the bottom)", size=17, bold=True)
    svg.text(left, 54, f"{pads.columns} columns (one per suit, Law 41D) x {pads.rows} pads; "
             f"{pads.tags_per_pad} card tags over each pad; drawn at {k:g} px per mm",
             size=12, colour=NOTE)
    svg.rect(left - 10, top - 10, zone_w * k + 20, zone_h * k + 20, stroke=GREY, dash="6 4", width=1.2)
    order = 0
    for col in range(pads.columns):
        x0 = left + col * (cw + gap) * k
        for place in range(per_column):
            y = top + place * pitch * k
            svg.rect(x0, y, cw * k, ch * k, stroke=GREY, fill="#ffffff", width=1.0, rx=6)
        for place in range(per_column):
            cy = top + (place * pitch + ch / 2) * k
            svg.circle(x0 + cw / 2 * k, cy, tag_r * k, stroke=TAG, width=1.2)
        for row in range(pads.rows):
            centre = top + ((row * pads.tags_per_pad + (pads.tags_per_pad - 1) / 2) * pitch + ch / 2) * k
            px, py = x0 + (cw - pw) / 2 * k, centre - ph / 2 * k
            svg.rect(px, py, pw * k, ph * k, stroke=PAD, width=2.0, rx=4)
            svg.text(px + 6, py + 16, f"pad {order}", size=12, colour=PAD, bold=True)
            order += 1
    # the switch and the reader
    bx = left + zone_w * k + 40
    by = top + 20
    svg.rect(bx, by, 250, 120, stroke=BUS, width=1.6, rx=6)
    svg.lines(bx + 12, by + 24, ["antenna switch", f"{pads.pads} ways, one pad at a time",
                                 "(MOSFET pairs, NXP AN11314 style)", "two 74HCT595 on MOSI/SCK,",
                                 f"latched by GP{board.PAD_LATCH_PIN}"],
              size=12, colour=BUS)
    svg.line(bx, by + 60, left + zone_w * k + 12, by + 60, stroke=BUS, width=1.4, dash="4 3")
    svg.rect(bx, by + 150, 250, 80, stroke=INK, width=1.6, rx=6)
    svg.lines(bx + 12, by + 174, ["the pad board's MFRC522", f"(SPI: GP{board.SPREAD_CS_PIN} CS, "
                                  f"GP{board.SPREAD_RST_PIN} RST)"],
              size=12)
    svg.line(bx + 125, by + 120, bx + 125, by + 150, stroke=INK, width=1.6)
    cycle = pads.cycle_s * 1000
    svg.lines(bx, by + 270, [
        "One read cycle, every pad in turn:",
        f"switch, power-up, inventory: {pads.pad_ms:g} ms a pad,",
        f"{pads.pads} pads: {cycle:g} ms a cycle.",
        "A card is reported when its pad reads it,",
        f"gone after {pads.miss_cycles} cycles without a read.",
        f"Cards beyond the {per_column}th of a suit lie on",
        "the column's last pad (crowded: read less often).",
    ], size=12, colour=NOTE)
    svg.lines(left, top + zone_h * k + 40, [
        f"Cards {cw:g} x {ch:g} mm overlapped every {pitch:g} mm (the index strip shows); a "
        f"{2 * tag_r:g} mm tag centred on each card's back.",
        f"Pads {pw:g} x {ph:g} mm of copper under the cloth, each under {pads.tags_per_pad} tags; "
        "a tag read by a neighbouring pad does no harm: the zone reports the union.",
        "Print the column outlines on the cloth so that dummy lays each suit on its column.",
    ], size=12, colour=NOTE)
    return str(svg.render())
