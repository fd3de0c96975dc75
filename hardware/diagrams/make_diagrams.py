"""Draw the seat unit's wiring, the contact matrix, the table's Pi and the bidding box as SVG.

    make diagrams                                     # or:
    .venv/bin/python hardware/diagrams/make_diagrams.py [--check] [--out DIR]

Sources: ``diagrams.toml`` beside this script (the Pico's pinout, the reader module's header,
part values, the bidding box's dimensions) and the firmware itself: every GPIO number comes
from ``firmware_bridge/firmware/seatfw/board.py`` and the slot order from
``firmware_bridge/messages.py``, so the drawings and the firmware cannot disagree. It writes
``seat-unit.svg``, ``contact-matrix.svg``, ``pi.svg``, ``bidding-box.svg`` and ``spread-zone.svg``
(drawn by ``spread_drawing.py``, from ``drivers.spread``'s pad array) next to itself
(``--out`` elsewhere); ``--check`` writes nothing and exits 1 when a drawing on disk is not
what the sources give now.

Only the standard library (``tomllib``, Python 3.11) and the repository's own modules are
used; the output is the same byte for byte on every run.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from firmware_bridge.firmware.seatfw import board  # noqa: E402  (the firmware's own pin map)
from firmware_bridge.messages import SLOTS  # noqa: E402  (the wire order of the 40 slots)

FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
INK = "#1a1a1a"
GREY = "#8a8a8a"
ROW = "#1f5fbf"       # matrix rows
COL = "#1d8a3a"       # matrix columns
SPI = "#c25b00"       # shared SPI lines
SEL = "#8a2be2"       # chip selects and resets
PWR = "#c0392b"       # 3.3 V and 5 V
NOTE = "#444444"


def num(v: float) -> str:
    """A coordinate as SVG text: at most two decimals, no trailing zeros (stable output)."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class Svg:
    """A minimal SVG writer: shapes in user units (px), rendered in the order drawn."""

    def __init__(self, width: float, height: float, title: str) -> None:
        self.width = width
        self.height = height
        self.title = title
        self.items: list[str] = []

    def add(self, item: str) -> None:
        self.items.append(item)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK, width: float = 1.6,
             dash: str | None = None) -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" stroke="{stroke}" '
                 f'stroke-width="{num(width)}"{extra}/>')

    def path(self, points: Sequence[tuple[float, float]], stroke: str = INK, width: float = 1.6,
             fill: str = "none", close: bool = False, dash: str | None = None) -> None:
        d = " ".join(f"{'M' if i == 0 else 'L'}{num(x)} {num(y)}" for i, (x, y) in enumerate(points))
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<path d="{d}{" Z" if close else ""}" fill="{fill}" stroke="{stroke}" '
                 f'stroke-width="{num(width)}" stroke-linejoin="round"{extra}/>')

    def rect(self, x: float, y: float, w: float, h: float, stroke: str = INK, fill: str = "none",
             width: float = 1.6, rx: float = 0, dash: str | None = None) -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="{num(rx)}" '
                 f'fill="{fill}" stroke="{stroke}" stroke-width="{num(width)}"{extra}/>')

    def circle(self, cx: float, cy: float, r: float, stroke: str = INK, fill: str = "none",
               width: float = 1.6) -> None:
        self.add(f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" fill="{fill}" stroke="{stroke}" '
                 f'stroke-width="{num(width)}"/>')

    def dot(self, x: float, y: float, colour: str = INK) -> None:
        self.circle(x, y, 3.2, stroke=colour, fill=colour, width=0)

    def text(self, x: float, y: float, s: str, size: float = 13, anchor: str = "start", colour: str = INK,
             bold: bool = False, italic: bool = False, rotate: float | None = None) -> None:
        attrs = f'x="{num(x)}" y="{num(y)}" font-size="{num(size)}" text-anchor="{anchor}" fill="{colour}"'
        if bold:
            attrs += ' font-weight="bold"'
        if italic:
            attrs += ' font-style="italic"'
        if rotate is not None:
            attrs += f' transform="rotate({num(rotate)} {num(x)} {num(y)})"'
        self.add(f"<text {attrs}>{escape(s)}</text>")

    def lines(self, x: float, y: float, texts: Iterable[str], size: float = 13, step: float | None = None,
              colour: str = INK, bold_first: bool = False) -> float:
        """Several lines of text from (x, y) down; the y after the last line."""
        step = step if step is not None else size * 1.35
        for i, s in enumerate(texts):
            self.text(x, y, s, size=size, colour=colour, bold=bold_first and i == 0)
            y += step
        return y

    # -- schematic symbols (each drawn between two points on one axis) -------------------------

    def ground(self, x: float, y: float, direction: str = "down", colour: str = INK) -> None:
        """A ground symbol whose lead starts at (x, y)."""
        if direction == "down":
            self.line(x, y, x, y + 10, colour)
            for i, half in enumerate((9, 6, 3)):
                self.line(x - half, y + 10 + 4 * i, x + half, y + 10 + 4 * i, colour)
        elif direction == "left":
            self.line(x, y, x - 10, y, colour)
            for i, half in enumerate((9, 6, 3)):
                self.line(x - 10 - 4 * i, y - half, x - 10 - 4 * i, y + half, colour)
        else:
            self.line(x, y, x + 10, y, colour)
            for i, half in enumerate((9, 6, 3)):
                self.line(x + 10 + 4 * i, y - half, x + 10 + 4 * i, y + half, colour)

    def resistor(self, x1: float, y: float, x2: float, label: str, colour: str = INK) -> None:
        """A horizontal resistor (IEC box) from x1 to x2 at y."""
        a, b = min(x1, x2), max(x1, x2)
        mid = (a + b) / 2
        self.line(a, y, mid - 18, y, colour)
        self.rect(mid - 18, y - 7, 36, 14, stroke=colour, fill="#ffffff")
        self.line(mid + 18, y, b, y, colour)
        self.text(mid, y - 12, label, size=12, anchor="middle", colour=colour)

    def diode(self, x: float, y1: float, y2: float, colour: str = INK, label: str | None = None) -> None:
        """A vertical diode from y1 (anode) to y2 (cathode, the band)."""
        mid = (y1 + y2) / 2
        self.line(x, y1, x, mid - 7, colour)
        down = 1 if y2 > y1 else -1
        self.path([(x - 7, mid - 7 * down), (x + 7, mid - 7 * down), (x, mid + 7 * down)], stroke=colour,
                  fill=colour, close=True, width=1)
        self.line(x - 8, mid + 7 * down, x + 8, mid + 7 * down, colour, width=2.4)
        self.line(x, mid + 7 * down, x, y2, colour)
        if label:
            self.text(x + 11, mid + 4, label, size=10, colour=colour)

    def diode_h(self, x1: float, x2: float, y: float, colour: str = INK) -> None:
        """A horizontal diode (an LED's body) from x1 (anode) to x2 (cathode)."""
        mid = (x1 + x2) / 2
        d = 1 if x2 > x1 else -1
        self.line(x1, y, mid - 7 * d, y, colour)
        self.path([(mid - 7 * d, y - 7), (mid - 7 * d, y + 7), (mid + 7 * d, y)], stroke=colour, fill=colour,
                  close=True, width=1)
        self.line(mid + 7 * d, y - 8, mid + 7 * d, y + 8, colour, width=2.4)
        self.line(mid + 7 * d, y, x2, y, colour)

    def switch(self, x: float, y1: float, y2: float, colour: str = INK) -> None:
        """A vertical normally-open contact from y1 to y2."""
        mid = (y1 + y2) / 2
        self.line(x, y1, x, mid - 8, colour)
        self.circle(x, mid - 8, 2, stroke=colour, fill="#ffffff", width=1.2)
        self.line(x, mid + 8, x + 9, mid - 9, colour)
        self.circle(x, mid + 8, 2, stroke=colour, fill="#ffffff", width=1.2)
        self.line(x, mid + 10, x, y2, colour)

    def switch_h(self, x1: float, x2: float, y: float, colour: str = INK, push: bool = True) -> None:
        """A horizontal normally-open push button from x1 to x2."""
        a, b = min(x1, x2), max(x1, x2)
        mid = (a + b) / 2
        self.line(a, y, mid - 14, y, colour)
        self.circle(mid - 12, y, 2, stroke=colour, fill="#ffffff", width=1.2)
        self.circle(mid + 12, y, 2, stroke=colour, fill="#ffffff", width=1.2)
        self.line(mid + 14, y, b, y, colour)
        self.line(mid - 14, y - 9, mid + 14, y - 9, colour)
        if push:
            self.line(mid, y - 9, mid, y - 20, colour)
            self.line(mid - 6, y - 20, mid + 6, y - 20, colour)

    def dimension(self, x1: float, y1: float, x2: float, y2: float, label: str, offset: float = 0,
                  size: float = 12, colour: str = "#0a5c8a", text_side: float = 1,
                  text_at: tuple[float, float] | None = None) -> None:
        """A dimension line between two points (horizontal or vertical), with arrows and a label
        (at ``text_at``, anchored at its start, when the span is too short to hold it)."""
        if text_at is not None:
            self.dimension(x1, y1, x2, y2, "", offset, size, colour, text_side)
            self.text(text_at[0], text_at[1], label, size=size, colour=colour)
            return
        if y1 == y2:   # horizontal: offset moves it down (positive) or up
            y = y1 + offset
            if offset:
                self.line(x1, y1, x1, y + 4 * (1 if offset > 0 else -1), colour, width=0.8)
                self.line(x2, y2, x2, y + 4 * (1 if offset > 0 else -1), colour, width=0.8)
            self.line(x1, y, x2, y, colour, width=1)
            self._arrow(x1, y, -1 if x2 > x1 else 1, 0, colour)
            self._arrow(x2, y, 1 if x2 > x1 else -1, 0, colour)
            self.text((x1 + x2) / 2, y - 5 if text_side > 0 else y + 15, label, size=size, anchor="middle",
                      colour=colour)
        else:          # vertical: offset moves it right (positive) or left
            x = x1 + offset
            if offset:
                self.line(x1, y1, x + 4 * (1 if offset > 0 else -1), y1, colour, width=0.8)
                self.line(x2, y2, x + 4 * (1 if offset > 0 else -1), y2, colour, width=0.8)
            self.line(x, y1, x, y2, colour, width=1)
            self._arrow(x, y1, 0, -1 if y2 > y1 else 1, colour)
            self._arrow(x, y2, 0, 1 if y2 > y1 else -1, colour)
            mid = (y1 + y2) / 2
            if text_side > 0:
                self.text(x + 6, mid + 4, label, size=size, colour=colour)
            else:
                self.text(x - 6, mid + 4, label, size=size, anchor="end", colour=colour)

    def _arrow(self, x: float, y: float, dx: float, dy: float, colour: str) -> None:
        """An arrow head pointing in (dx, dy) whose tip is (x, y)."""
        size = 6
        if dx:
            pts = [(x, y), (x - dx * size, y - 3), (x - dx * size, y + 3)]
        else:
            pts = [(x, y), (x - 3, y - dy * size), (x + 3, y - dy * size)]
        self.path(pts, stroke=colour, fill=colour, close=True, width=0.5)

    def render(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(self.width)}" height="{num(self.height)}" '
                f'viewBox="0 0 {num(self.width)} {num(self.height)}" font-family="{FONT}">\n'
                f"<title>{escape(self.title)}</title>\n"
                f'<rect x="0" y="0" width="{num(self.width)}" height="{num(self.height)}" fill="#ffffff"/>\n')
        return head + "\n".join(self.items) + "\n</svg>\n"


# -- what the firmware says -----------------------------------------------------------------------

@dataclass(frozen=True)
class PinMap:
    """The seat unit's pins as the firmware has them, with the Pico's physical pin of each GPIO."""

    physical: dict[str, int]          # "GP5" -> 7, "GND" -> first GND ... (names of diagrams.toml)
    names: list[str]                  # physical pin - 1 -> name
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    roles: dict[int, tuple[str, str]]  # GPIO -> (short role, board.py constant)

    def pin(self, gpio: int) -> int:
        return self.physical[f"GP{gpio}"]

    def gnd_pins(self) -> list[int]:
        return [i + 1 for i, name in enumerate(self.names) if name == "GND"]


def pin_map(source: dict[str, Any]) -> PinMap:
    names = list(source["pico"]["pins"])
    if len(names) != 40:
        raise SystemExit(f"diagrams.toml: [pico] pins lists {len(names)} pins, not 40")
    physical: dict[str, int] = {}
    for i, name in enumerate(names):
        physical.setdefault(name, i + 1)
    roles: dict[int, tuple[str, str]] = {}
    for k, gpio in enumerate(board.ROW_PINS):
        roles[gpio] = (f"R{k}", f"ROW_PINS[{k}]")
    for k, gpio in enumerate(board.COL_PINS):
        roles[gpio] = (f"C{k}", f"COL_PINS[{k}]")
    for role, const in (("buzzer", "BUZZER_PIN"), ("button", "BUTTON_PIN"), ("LED", "LED_PIN"),
                        ("MISO", "MISO_PIN"), ("SCK", "SCK_PIN"), ("MOSI", "MOSI_PIN"),
                        ("play CS", "PLAY_CS_PIN"), ("play RST", "PLAY_RST_PIN"),
                        ("spread CS", "SPREAD_CS_PIN"), ("spread RST", "SPREAD_RST_PIN")):
        roles[getattr(board, const)] = (role, const)
    for k, gpio in enumerate(board.SEAT_PINS):
        roles[gpio] = (f"seat jumper {k}", f"SEAT_PINS[{k}]")
    roles[board.PAD_LATCH_PIN] = ("pad latch", "PAD_LATCH_PIN")
    if len(roles) != 5 + 8 + 10 + 2 + 1:
        raise SystemExit("board.py gives one GPIO two roles: the drawing would be wrong")
    for gpio in roles:
        if f"GP{gpio}" not in physical:
            raise SystemExit(f"board.py uses GP{gpio}, which diagrams.toml's [pico] pins does not have")
    return PinMap(physical, names, tuple(board.ROW_PINS), tuple(board.COL_PINS), roles)


def seat_of_jumpers(fitted: tuple[bool, bool]) -> str:
    """The seat ``board.read_seat`` gives for fitted jumpers on SEAT_PINS (fitted = reads 0)."""
    index = sum(1 << bit for bit, on in enumerate(fitted) if on)
    return board.SEATS[index]


# -- seat-unit.svg -----------------------------------------------------------------------------------

def draw_seat_unit(src: dict[str, Any]) -> str:
    pm = pin_map(src)
    parts = src["parts"]
    svg = Svg(1540, 1130, "Seat unit wiring: Raspberry Pi Pico, two MFRC522 readers, bidding-box matrix, "
                          "button, LED, buzzer")
    svg.text(30, 36, "Seat unit (one per seat): Raspberry Pi Pico wiring", size=22, bold=True)
    svg.text(30, 60, "GPIO numbers are read from firmware_bridge/firmware/seatfw/board.py; physical pins "
                     "from hardware/diagrams/diagrams.toml. All logic is 3.3 V.", size=13, colour=NOTE)

    px, pw, top, pitch = 600, 250, 150, 32
    body_h = 20 * pitch + 16

    def row_y(r: int) -> float:
        return top + 24 + r * pitch

    def y_of(pin: int) -> float:
        return row_y(pin - 1) if pin <= 20 else row_y(40 - pin)

    # the Pico
    svg.rect(px, top, pw, body_h, fill="#eaf4ea", rx=6, width=2)
    svg.rect(px + pw / 2 - 22, top - 18, 44, 18, fill="#d0d0d0")
    svg.text(px + pw / 2, top - 24, "micro-USB: to the Pi's hub (pi.svg)", size=12, anchor="middle")
    svg.text(px + pw / 2 - 4, top + body_h / 2, "Raspberry Pi Pico", size=16, anchor="middle", bold=True,
             rotate=-90)
    svg.text(px + pw / 2 + 14, top + body_h / 2, "(top view, USB at the top)", size=12, anchor="middle",
             colour=NOTE, rotate=-90)
    for p in range(1, 41):
        name = pm.names[p - 1]
        y = y_of(p)
        used = (name.startswith("GP") and int(name[2:]) in pm.roles) or name in ("GND", "3V3(OUT)", "VBUS")
        colour = INK if used else GREY
        if p <= 20:
            svg.line(px - 40, y, px, y, colour)
            svg.text(px + 6, y + 4, f"{p}  {name}", size=12, colour=colour)
        else:
            svg.line(px + pw, y, px + pw + 40, y, colour)
            svg.text(px + pw - 6, y + 4, f"{name}  {p}", size=12, anchor="end", colour=colour)
        if name == "GND":
            if p <= 20:
                svg.ground(px - 40, y, "left")
            else:
                svg.ground(px + pw + 40, y, "right")

    # J1 and the bidding box, left
    jx = 330
    matrix_pins = [(f"R{k}", gpio, ROW) for k, gpio in enumerate(pm.rows)]
    matrix_pins += [(f"C{k}", gpio, COL) for k, gpio in enumerate(pm.cols)]
    connector = src["matrix_connector"]["name"]
    ys = [y_of(pm.pin(g)) for _, g, _ in matrix_pins]
    svg.rect(jx - 50, min(ys) - 20, 50, max(ys) - min(ys) + 40, fill="#f4f4f4")
    svg.text(jx - 25, min(ys) - 28, connector, size=14, anchor="middle", bold=True)
    for n, ((label, gpio, colour), y) in enumerate(zip(matrix_pins, ys, strict=True), start=1):
        svg.line(jx, y, px - 40, y, colour, width=2)
        svg.text(jx - 44, y + 4, f"{n} {label}", size=11)
        svg.text(jx + 8, y - 4, f"GP{gpio} {pm.roles[gpio][1]}", size=10, colour=colour)
    spare_y = max(ys) + 14
    svg.text(jx - 44, spare_y + 4, f"14 {src['matrix_connector']['spare']}", size=11, colour=GREY)
    # the ribbon to the box
    bx, bw = 40, 180
    svg.path([(jx - 50, min(ys)), (bx + bw, min(ys) + 40)], stroke=GREY, width=1.2)
    svg.path([(jx - 50, max(ys)), (bx + bw, max(ys) - 40)], stroke=GREY, width=1.2)
    svg.rect(bx, min(ys) + 40, bw, max(ys) - min(ys) - 80, fill="#fff7e0", width=2)
    svg.lines(bx + 10, min(ys) + 66, [
        "Bidding box",
        "40 contacts: rows R0-R4",
        "x columns C0-C7,",
        f"one {parts['diode']} per",
        "contact (anode to the",
        "column, band to the",
        "contact and the row)",
        "",
        "contact-matrix.svg",
        "bidding-box.svg",
        "14-way ribbon, IDC",
    ], size=12, bold_first=True)

    # buzzer, button, LED, bottom left (routing: see hardware/wiring.md section 1)
    buzz, btn, led = board.BUZZER_PIN, board.BUTTON_PIN, board.LED_PIN
    xb, yb = 440, 880     # buzzer branch: vertical at xb, circuit at yb
    xk, yk = 480, 960     # button
    xl, yl = 520, 1040    # LED
    for gpio, x, y in ((buzz, xb, yb), (btn, xk, yk), (led, xl, yl)):
        y0 = y_of(pm.pin(gpio))
        svg.path([(px - 40, y0), (x, y0), (x, y)], stroke=INK, width=2)
        svg.text(x - 6, y0 - 5, f"GP{gpio}", size=11, anchor="end")
    # buzzer: GP13 - 1k - base; emitter to GND; collector - buzzer - VBUS
    svg.resistor(xb, yb, 300, parts["buzzer_resistor"])
    base_x, tx = 300, 262
    svg.line(base_x, yb, tx + 8, yb)
    svg.line(tx + 8, yb - 16, tx + 8, yb + 16, width=2.6)                  # base bar
    svg.line(tx + 8, yb - 8, tx - 14, yb - 26)                            # collector
    svg.line(tx + 8, yb + 8, tx - 14, yb + 26)                            # emitter
    svg.path([(tx - 14, yb + 26), (tx - 4, yb + 24), (tx - 9, yb + 17)], fill=INK, close=True, width=1)
    svg.circle(tx - 2, yb, 24, width=1.2)
    svg.text(tx + 36, yb + 34, f"NPN {parts['transistor']}", size=11)
    svg.line(tx - 14, yb - 26, tx - 14, yb - 44)
    svg.line(tx - 14, yb + 26, tx - 14, yb + 44)
    svg.ground(tx - 14, yb + 44)
    # the buzzer between the collector and VBUS
    bz_top = yb - 100
    svg.rect(tx - 34, yb - 80, 40, 36, fill="#ffffff")
    svg.text(tx - 14, yb - 57, "BZ", size=12, anchor="middle", bold=True)
    svg.text(tx - 40, yb - 72, "+", size=13, anchor="end")
    svg.text(tx - 40, yb - 46, "−", size=13, anchor="end")
    svg.line(tx - 14, yb - 44, tx - 14, yb - 44)
    svg.line(tx - 14, yb - 80, tx - 14, bz_top)
    vbus_pin = pm.physical["VBUS"]
    svg.text(tx - 14, bz_top - 6, f"VBUS (5 V, Pico pin {vbus_pin})", size=12, anchor="middle", colour=PWR)
    svg.text(tx - 52, yb - 66, parts["buzzer"], size=11, anchor="end", colour=NOTE)
    svg.text(tx - 52, yb - 52, f"sounds while GP{buzz} is high", size=11, anchor="end", colour=NOTE)
    # button: GP14 to GND, internal pull-up
    svg.switch_h(xk, 330, yk)
    svg.line(330, yk, 300, yk)
    svg.ground(300, yk)
    svg.text(405, yk + 22, "button to GND (internal pull-up)", size=11, anchor="middle", colour=NOTE)
    # LED: GP15 - 330R - LED - GND
    svg.resistor(xl, yl, 400, parts["led_resistor"])
    svg.diode_h(400, 330, yl)
    svg.line(330, yl, 300, yl)
    svg.ground(300, yl)
    svg.text(330, yl + 24, "LED: high = lit (a 5 V arcade LED needs an NPN like the buzzer's)", size=11,
             colour=NOTE)
    svg.text(60, yk - 12, parts["button"], size=11, colour=NOTE)

    # the two readers, right: nets from the Pico's right side to each module's header
    header = list(src["reader"]["header"])
    mx, mw, pitch_m = 1270, 230, 28
    modules = (("play", 140, board.PLAY_CS_PIN, board.PLAY_RST_PIN),
               ("spread", 600, board.SPREAD_CS_PIN, board.SPREAD_RST_PIN))
    module_pin_y: dict[tuple[str, str], float] = {}
    for zone, mtop, _, _ in modules:
        svg.rect(mx, mtop, mw, len(header) * pitch_m + 24, fill="#e8f0ff", rx=4, width=2)
        svg.text(mx + mw / 2, mtop - 24, src["reader"]["part"], size=13, anchor="middle", bold=True)
        svg.text(mx + mw / 2, mtop - 8, f"{zone} zone (raw events: N.{zone})", size=12, anchor="middle")
        svg.rect(mx + 110, mtop + 30, 100, len(header) * pitch_m - 36, rx=10, stroke="#6a8acb", width=1.2)
        svg.rect(mx + 120, mtop + 40, 80, len(header) * pitch_m - 56, rx=8, stroke="#6a8acb", width=1.2)
        svg.text(mx + 160, mtop + len(header) * pitch_m / 2 + 16, "antenna", size=11, anchor="middle",
                 colour="#6a8acb")
        for i, name in enumerate(header):
            y = mtop + 26 + i * pitch_m
            module_pin_y[(zone, name)] = y
            svg.line(mx - 20, y, mx, y)
            svg.text(mx + 6, y + 4, name, size=12)
            if name == "GND":
                svg.ground(mx - 20, y, "left")
            if name == "IRQ":
                svg.text(mx - 24, y + 4, "n.c.", size=11, anchor="end", colour=GREY)
    # nets: (label, pico pin, colour, [(zone, header pin)])
    spi = [("MISO", board.MISO_PIN, SPI), ("SCK", board.SCK_PIN, SPI), ("MOSI", board.MOSI_PIN, SPI)]
    nets: list[tuple[str, int, str, list[tuple[str, str]]]] = []
    for label, gpio, colour in spi:
        nets.append((f"GP{gpio} {label}", pm.pin(gpio), colour, [("play", label), ("spread", label)]))
    nets.append((f"GP{board.PLAY_CS_PIN} play CS", pm.pin(board.PLAY_CS_PIN), SEL, [("play", "SDA")]))
    nets.append((f"GP{board.PLAY_RST_PIN} play RST", pm.pin(board.PLAY_RST_PIN), SEL, [("play", "RST")]))
    nets.append((f"GP{board.SPREAD_CS_PIN} spread CS", pm.pin(board.SPREAD_CS_PIN), SEL, [("spread", "SDA")]))
    nets.append((f"GP{board.SPREAD_RST_PIN} spread RST", pm.pin(board.SPREAD_RST_PIN), SEL,
                 [("spread", "RST")]))
    nets.append(("3V3(OUT)", pm.physical["3V3(OUT)"], PWR, [("play", "3.3V"), ("spread", "3.3V")]))
    channel0, channel_step = 1010, 26
    order = sorted(nets, key=lambda n: -y_of(n[1]))   # the lowest pin gets the leftmost channel
    for k, (label, pin, colour, ends) in enumerate(order):
        cx = channel0 + k * channel_step
        y0 = y_of(pin)
        targets = [module_pin_y[e] for e in ends]
        svg.line(px + pw + 40, y0, cx, y0, colour, width=2)
        svg.text(px + pw + 46, y0 - 4, label, size=11, colour=colour)
        svg.line(cx, min([y0, *targets]), cx, max([y0, *targets]), colour, width=2)
        svg.dot(cx, y0, colour)
        for ty in targets:
            svg.line(cx, ty, mx - 20, ty, colour, width=2)
            svg.dot(cx, ty, colour)
    # seat jumpers
    for gpio in board.SEAT_PINS:
        y = y_of(pm.pin(gpio))
        x0 = px + pw + 40
        svg.line(x0, y, x0 + 40, y)
        svg.circle(x0 + 44, y, 4, fill="#ffffff")
        svg.circle(x0 + 64, y, 4, fill="#ffffff")
        svg.rect(x0 + 38, y - 7, 32, 14, stroke=GREY, dash="3 2", rx=3)
        svg.line(x0 + 68, y, x0 + 90, y)
        svg.ground(x0 + 90, y, "right")
        svg.text(x0 + 46, y - 10, f"GP{gpio} jumper", size=10, colour=NOTE)
    jy = 930
    svg.rect(1290, jy - 16, 200, 112, stroke=GREY, fill="#fafafa")
    svg.text(1298, jy, "Seat jumpers (to GND)", size=12, bold=True)
    for k, head in enumerate((f"GP{board.SEAT_PINS[0]}", f"GP{board.SEAT_PINS[1]}", "seat")):
        svg.text(1298 + 70 * k, jy + 20, head, size=11, bold=True)
    for r, fitted in enumerate(((False, False), (True, False), (False, True), (True, True))):
        cells = ["fitted" if f else "open" for f in fitted] + [seat_of_jumpers(fitted)]
        for k, cell in enumerate(cells):
            svg.text(1298 + 70 * k, jy + 38 + 17 * r, cell, size=11)
    # the pad board's latch (hardware/electronics: J5 of the seat unit's board)
    latch = board.PAD_LATCH_PIN
    ly = y_of(pm.pin(latch))
    svg.line(px + pw + 40, ly, px + pw + 100, ly, SEL, width=2)
    svg.circle(px + pw + 104, ly, 4, stroke=SEL, fill="#ffffff")
    svg.text(px + pw + 46, ly - 4, f"GP{latch} pad latch", size=11, colour=SEL)
    # VBUS flag
    vy = y_of(pm.physical["VBUS"])
    svg.text(px + pw + 46, vy - 4, "VBUS 5 V: buzzer +", size=11, colour=PWR)

    # notes
    ny = 930
    svg.lines(640, ny, [
        "Notes",
        f"SPI{board.SPI_ID} at {board.SPI_BAUDRATE // 1_000_000} MHz, mode 0: MISO, SCK, MOSI shared; "
        "each reader has its own chip select (SDA) and reset.",
        "Readers on 3.3 V only (Pico pin 36). IRQ not connected: the firmware polls.",
        "Every ground symbol is one net: Pico GND pins " + ", ".join(map(str, pm.gnd_pins())) + ".",
        "SPI leads short (under 20 cm): put the Pico between its two readers.",
        f"GP{board.PAD_LATCH_PIN} (PAD_LATCH_PIN) to the pad board: RCLK of its two 74HCT595, which shift on "
        "MOSI/SCK;",
        f"its MFRC522 takes GP{board.SPREAD_CS_PIN} CS and GP{board.SPREAD_RST_PIN} RST instead of the "
        "spread module.",
        "Grey pins are not used.",
    ], size=12, bold_first=True)
    return svg.render()


# -- contact-matrix.svg ---------------------------------------------------------------------------------

def draw_contact_matrix(src: dict[str, Any]) -> str:
    pm = pin_map(src)
    n_rows, n_cols = len(pm.rows), len(pm.cols)
    if n_rows * n_cols != len(SLOTS):
        raise SystemExit(f"{n_rows} x {n_cols} matrix for {len(SLOTS)} slots")
    diode = src["parts"]["diode"]
    x0, y0, cw, rh = 230, 200, 150, 150
    width = x0 + n_cols * cw + 60
    height = y0 + n_rows * rh + 200
    svg = Svg(width, height, "Bidding-box contact matrix: 5 rows x 8 columns, one diode per contact")
    svg.text(30, 36, "Bidding-box contact matrix (one seat): 40 contacts, one diode each", size=22, bold=True)
    svg.text(30, 60, "Slot i sits at row i div 8, column i mod 8 (firmware_bridge/messages.py SLOTS, "
                     "PROTOCOL.md 7.2). Rows and columns from board.py.", size=13, colour=NOTE)
    svg.text(30, 80, "Each contact is closed while its bid card is in its slot (STATE bit = 1).", size=13,
             colour=NOTE)
    col_x = [x0 + c * cw + 30 for c in range(n_cols)]
    row_y = [y0 + r * rh + 110 for r in range(n_rows)]
    bottom = row_y[-1] + 20
    for c, x in enumerate(col_x):
        gpio = pm.cols[c]
        svg.line(x, y0 - 40, x, bottom, COL, width=2)
        svg.text(x, y0 - 78, f"C{c}", size=14, anchor="middle", bold=True, colour=COL)
        svg.text(x, y0 - 62, f"GP{gpio} (pin {pm.pin(gpio)})", size=11, anchor="middle", colour=COL)
        svg.text(x, y0 - 48, "pull-up", size=10, anchor="middle", colour=NOTE)
    for r, y in enumerate(row_y):
        gpio = pm.rows[r]
        svg.line(x0 - 30, y, col_x[-1] + 80, y, ROW, width=2)
        svg.text(x0 - 36, y - 8, f"R{r}", size=14, anchor="end", bold=True, colour=ROW)
        svg.text(x0 - 36, y + 8, f"GP{gpio} (pin {pm.pin(gpio)})", size=11, anchor="end", colour=ROW)
        svg.text(x0 - 36, y + 22, "driven low in turn", size=10, anchor="end", colour=NOTE)
        for c, x in enumerate(col_x):
            i = r * n_cols + c
            bx = x + 60
            top = y - 100
            svg.line(x, top, bx, top, COL, width=1.6)
            svg.dot(x, top, COL)
            svg.diode(bx, top, top + 40, INK)
            svg.switch(bx, top + 44, y - 8)
            svg.line(bx, y - 8, bx, y, ROW, width=1.6)
            svg.dot(bx, y, ROW)
            svg.text(bx + 14, top + 64, SLOTS[i], size=14, bold=True)
            svg.text(bx + 14, top + 80, f"slot {i}", size=10, colour=NOTE)
    # legend
    ly = bottom + 40
    svg.diode(60, ly, ly + 40)
    svg.text(80, ly + 14, f"{diode}: anode (triangle) to the column, cathode (band) towards the contact "
                          "and the row.", size=13)
    svg.text(80, ly + 32, "When the firmware drives a row low, each closed contact of that row pulls its "
                          "column low through its diode.", size=13)
    svg.switch(60, ly + 60, ly + 100)
    svg.text(80, ly + 76, "Contact: normally open, closed while the card is in (reed switch and magnet, or "
                          "microswitch: bidding-box.md).", size=13)
    svg.text(80, ly + 94, "Without the diodes, three closed contacts at three corners of a rectangle make the "
                          "fourth read closed (ghosting).", size=13)
    svg.text(80, ly + 120, "Scan every 5 ms; a change counts after 3 equal scans (seatfw/matrix.py).", size=13,
             colour=NOTE)
    return svg.render()


# -- pi.svg -------------------------------------------------------------------------------------------

def draw_pi(src: dict[str, Any]) -> str:
    pi = src["pi"]
    svg = Svg(1400, 860, "The table's Raspberry Pi: hub, four seat units, board reader, club network")
    svg.text(30, 36, "The table's Pi: USB to four seat units and the board reader", size=22, bold=True)
    svg.text(30, 60, "Option A (seat units over USB), the reference build. Device names as in the table "
                     "config (hardware/config.md).", size=13, colour=NOTE)
    usb = "#3a6fd8"
    # the Pi
    x, y, w, h = 520, 300, 300, 230
    svg.rect(x, y, w, h, fill="#eaf4ea", rx=10, width=2)
    svg.text(x + w / 2, y + 30, pi["board"], size=15, anchor="middle", bold=True)
    svg.lines(x + 20, y + 60, ["tablectl run (bridgetable.service)",
                               "config /etc/bridgetable/table.toml",
                               "log /var/lib/bridgetable/table.sqlite",
                               "pages on port 8000 (or [listen])"], size=12)
    port_y = [y + 150 + k * 18 for k in range(4)]
    for k, py in enumerate(port_y):
        svg.rect(x + w - 6, py - 7, 14, 14, fill=usb if k < 2 else "#ffffff")
        svg.text(x + w - 12, py + 4, f"USB {k + 1}", size=10, anchor="end", colour=NOTE)
    svg.rect(x - 8, y + 60, 14, 24, fill="#d0d0d0")
    svg.rect(x - 8, y + 150, 14, 26, fill="#d0d0d0")
    svg.rect(x + 40, y + h - 4, 220, 10, fill="#444444")
    svg.text(x + 150, y + h + 24, "40-pin header: free in option A (option B: wiring.md section 3)", size=11,
             anchor="middle", colour=NOTE)
    # power supply and network, left
    svg.rect(140, y + 42, 220, 60, fill="#fbe9e7", rx=6)
    svg.lines(150, y + 64, ["Pi power supply (bom.md 3 / 3')", "official 15 W (Pi 4) / 27 W (Pi 5)"], size=12)
    svg.line(360, y + 72, x - 8, y + 72, PWR, width=2.4)
    svg.text(440, y + 66, "USB-C", size=11, anchor="middle", colour=PWR)
    svg.rect(60, y + 120, 300, 90, fill="#f0f0ff", rx=6)
    svg.lines(72, y + 142, ["Club LAN (Ethernet or Wi-Fi)",
                            "room machine: broker + Director's console",
                            "(hardware/deploy/room.md)",
                            "phones, tablets: the table's pages"], size=12, bold_first=True)
    svg.line(360, y + 163, x - 8, y + 163, "#5555aa", width=2.4)
    svg.text(440, y + 157, "Ethernet", size=11, anchor="middle", colour="#5555aa")
    # the hub, as tall as the four units, each unit on a straight cable
    unit_y = [100 + k * 110 for k in range(4)]
    hx, hy, hw = 960, 90, 180
    hh = unit_y[-1] + 84 + 10 - hy
    svg.rect(hx, hy, hw, hh, fill="#fff7e0", rx=8, width=2)
    svg.lines(hx + 12, hy + 150, ["USB hub", "powered, 7 ports,", "its own 5 V supply", "(bom.md 20)"], size=12,
              bold_first=True)
    svg.line(x + w + 8, port_y[0], hx, port_y[0], usb, width=2.4)
    svg.text(x + w + 40, port_y[0] - 6, "USB (upstream)", size=11, colour=usb)
    jumpers = {}
    for fitted in ((False, False), (True, False), (False, True), (True, True)):
        label = ("both jumpers" if all(fitted) else f"jumper GP{board.SEAT_PINS[fitted.index(True)]}"
                 if any(fitted) else "no jumper")
        jumpers[seat_of_jumpers(fitted)] = label
    for seat, uy in zip("NESW", unit_y, strict=True):
        ux = 1200
        svg.rect(ux, uy, 180, 84, fill="#eaf4ea", rx=6)
        svg.lines(ux + 10, uy + 20, [f"seat unit {seat}", "Pico + 2 x MFRC522,", "bidding box, button,",
                                     f"LED, buzzer; {jumpers[seat]}"], size=11, bold_first=True)
        svg.line(hx + hw, uy + 42, ux, uy + 42, usb, width=2)
    svg.text(1390, unit_y[-1] + 110, "one micro-USB cable per unit (data, not charge-only)", size=11,
             anchor="end", colour=NOTE)
    # board reader
    bx, by = 960, 640
    svg.rect(bx, by, 260, 80, fill="#e8f0ff", rx=6)
    svg.lines(bx + 12, by + 22, [f"board reader: {pi['board_reader']}",
                                 f"board_reader = \"{pi['board_reader_url']}\"",
                                 "the duplicate board's tag; also the",
                                 "enrolment reader (decks.md)"], size=12, step=15, bold_first=True)
    svg.path([(x + w + 8, port_y[1]), (920, port_y[1]), (920, by + 40), (bx, by + 40)], stroke=usb, width=2.4)
    # config and power notes
    units_ma = 4 * int(pi["unit_current_ma"])
    svg.lines(60, 650, [
        "In the table config (config.md)",
        f"[seats.N] unit = \"serial://{pi['unit_path']}\"",
        "... one [seats.X] per unit: ls /dev/serial/by-id/ shows each unit's name,",
        "which stays the same whichever port or order it is plugged in.",
    ], size=12, bold_first=True)
    svg.lines(60, 750, [
        "Power",
        f"Four seat units draw up to about {units_ma} mA together (an estimate: {pi['unit_current_ma']} mA each "
        "with both reader fields on, LED and buzzer),",
        f"the board reader about {pi['reader_current_ma']} mA: more than the {pi['pi_usb_budget_ma']} mA a Pi 4 "
        "gives its USB ports together. Hence the hub with its own supply.",
    ], size=12, bold_first=True)
    return svg.render()


# -- bidding-box.svg ------------------------------------------------------------------------------

def draw_bidding_box(src: dict[str, Any]) -> str:
    card, rack, pocket = src["card"], src["bid_rack"], src["stack_pocket"]
    svg = Svg(1500, 1240, "Bidding box: slot dimensions and contact positions")
    svg.text(30, 36, "Bidding box: slots, contacts and dimensions (millimetres)", size=22, bold=True)
    svg.text(30, 60, f"ASSUMED bidding card {card['width']:g} x {card['height']:g} x {card['thickness']:g} mm: "
                     "measure your own cards and change [card] in diagrams.toml, then make diagrams.",
             size=13, colour=PWR)
    pitch = rack["gap"] + rack["wall"]
    order = [s for s in SLOTS if s[0].isdigit()]
    lanes = tuple(rack["lane_order"])     # left to right; hardware/mechanical/magnetics.py says why

    # A. side section of the bid rack, front at the left (scale 6 px/mm)
    s = 6.0
    ax, floor_y = 80, 640
    svg.text(ax - 40, 100, "A. Bid rack, section front to back (first five slots), scale 6:1 px/mm", size=15,
             bold=True)
    n = 5
    total = n * pitch + rack["wall"]
    # floor (the rack's base plate) and the reeds under it
    svg.rect(ax, floor_y, total * s, rack["floor"] * s, fill="#d9d9d9")
    svg.rect(ax, floor_y + rack["floor"] * s, total * s, 16, fill="#2e7d32", stroke="#2e7d32")
    svg.text(ax + total * s + 8, floor_y + rack["floor"] * s + 12, "matrix PCB (diodes, reeds)", size=11)
    for k in range(n + 1):
        wx = ax + k * pitch * s
        svg.rect(wx, floor_y - rack["wall_height"] * s, rack["wall"] * s, rack["wall_height"] * s, fill="#bdbdbd")
    for k in range(n):
        cx = ax + (rack["wall"] + k * pitch) * s
        card_x = cx + (rack["gap"] - card["thickness"] - rack["magnet_diameter"]) * s / 2
        svg.rect(card_x, floor_y - card["height"] * s, card["thickness"] * s, card["height"] * s,
                 fill="#fffbe6", width=1.2)
        my = floor_y - (rack["magnet_above_foot"] + rack["magnet_diameter"] / 2) * s
        svg.circle(card_x + card["thickness"] * s + rack["magnet_diameter"] * s / 2, my,
                   rack["magnet_diameter"] * s / 2, fill="#c62828", stroke="#c62828", width=0.5)
        svg.text(cx + rack["gap"] * s / 2 + 4, floor_y - card["height"] * s - 6, order[k], size=11, rotate=-90)
        # the reed lies under the floor, in the card's lane (seen end-on here)
        ry = floor_y + rack["floor"] * s + rack["reed_diameter"] * s / 2
        svg.circle(cx + rack["gap"] * s / 2, ry, rack["reed_diameter"] * s / 2, fill="#b3e5fc",
                   stroke="#0277bd", width=1)
    svg.text(ax - 30, floor_y - card["height"] * s / 2, "front", size=12, anchor="middle", rotate=-90)
    # dimensions of A
    right = ax + total * s
    svg.dimension(right, floor_y, right, floor_y - rack["wall_height"] * s, f"{rack['wall_height']:g} slot depth",
                  offset=40)
    svg.dimension(right, floor_y - rack["wall_height"] * s, right, floor_y - card["height"] * s,
                  f"{card['height'] - rack['wall_height']:g} visible", offset=40)
    svg.dimension(right, floor_y, right, floor_y - card["height"] * s, f"{card['height']:g} card", offset=150)
    gap_y = floor_y - rack["wall_height"] * s - 30
    svg.dimension(ax + rack["wall"] * s, gap_y, ax + (rack["wall"] + rack["gap"]) * s, gap_y,
                  f"{rack['gap']:g} gap", text_at=(ax + total * s + 8, gap_y + 4))
    svg.dimension(ax + rack["wall"] * s, floor_y + 50, ax + (rack["wall"] + pitch) * s, floor_y + 50,
                  f"{pitch:g} pitch", text_at=(ax + total * s + 8, floor_y + 54))
    svg.dimension(ax, floor_y + 70, ax + rack["wall"] * s, floor_y + 70, f"{rack['wall']:g} divider",
                  text_at=(ax + total * s + 8, floor_y + 74))
    svg.text(ax + total * s + 8, floor_y + rack["floor"] * s + 30, "reeds seen end-on, each in its card's lane (C)",
             size=11, colour="#0277bd")
    svg.lines(ax - 40, floor_y + 120, [
        f"Slot gap {rack['gap']:g}: card {card['thickness']:g} + magnet {rack['magnet_diameter']:g} + clearance; "
        f"dividers {rack['wall']:g}.",
        f"Floor {rack['floor']:g} between the card's foot and the reed's glass; reed {rack['reed_length']:g} x "
        f"{rack['reed_diameter']:g} (end-on, blue).",
        f"Magnet (red): NdFeB rod {rack['magnet_diameter']:g} x {rack['magnet_length']:g}, axially magnetised, "
        f"glued {rack['magnet_above_foot']:g} above the foot.",
        f"{rack['slots']} slots at {pitch:g} = {rack['slots'] * pitch + rack['wall']:.1f} front to back "
        "(1C at the front, 7NT at the back).",
    ], size=12)

    # B. the card seen face on, in its slot: lanes and the magnet (scale 5 px/mm)
    s2 = 5.0
    bx, by = 640, 150
    inner = card["width"] + 2 * rack["clearance"]
    svg.text(bx - 20, 100, "B. One slot seen from the front: lanes and contact position, scale 5:1", size=15,
             bold=True)
    base = by + card["height"] * s2
    svg.rect(bx, by, inner * s2, card["height"] * s2, stroke=GREY, dash="4 3")
    svg.rect(bx + rack["clearance"] * s2, by, card["width"] * s2, card["height"] * s2, fill="#fffbe6")
    lane_w = card["width"] / rack["lanes"]
    for k, lane in enumerate(lanes):
        lx = bx + (rack["clearance"] + k * lane_w) * s2
        if k:
            svg.line(lx, by, lx, base, GREY, width=0.8, dash="3 3")
        svg.text(lx + lane_w * s2 / 2, by + 20, lane, size=13, anchor="middle", bold=True)
    svg.text(bx + inner * s2 / 2, by + 60, "the card of slot 1H:", size=12, anchor="middle", colour=NOTE)
    svg.text(bx + inner * s2 / 2, by + 76, "its magnet in lane H", size=12, anchor="middle", colour=NOTE)
    # the magnet of 1H, in lane H, and its reed under the floor
    lane_k = lanes.index("H")
    mcx = bx + (rack["clearance"] + (lane_k + 0.5) * lane_w) * s2
    mag_len = rack["magnet_length"] * s2
    mag_y = base - (rack["magnet_above_foot"] + rack["magnet_diameter"]) * s2
    svg.rect(mcx - mag_len / 2, mag_y, mag_len, rack["magnet_diameter"] * s2, fill="#c62828", stroke="#c62828",
             width=0.5)
    svg.rect(bx - 10, base, inner * s2 + 20, rack["floor"] * s2, fill="#d9d9d9")
    reed_len = rack["reed_length"] * s2
    reed_y = base + rack["floor"] * s2
    svg.rect(mcx - reed_len / 2, reed_y, reed_len, rack["reed_diameter"] * s2, fill="#b3e5fc", stroke="#0277bd",
             rx=4, width=1)
    svg.line(mcx - reed_len / 2 - 20, reed_y + rack["reed_diameter"] * s2 / 2, mcx - reed_len / 2,
             reed_y + rack["reed_diameter"] * s2 / 2, "#0277bd")
    svg.line(mcx + reed_len / 2, reed_y + rack["reed_diameter"] * s2 / 2, mcx + reed_len / 2 + 20,
             reed_y + rack["reed_diameter"] * s2 / 2, "#0277bd")
    svg.dimension(bx, base, bx + inner * s2, base, f"{inner:g} slot width", offset=60)
    svg.dimension(bx + rack["clearance"] * s2, by, bx + (rack["clearance"] + card["width"]) * s2, by,
                  f"{card['width']:g} card", offset=-16)
    svg.dimension(bx + rack["clearance"] * s2, base, bx + (rack["clearance"] + lane_w) * s2, base,
                  f"{lane_w:g} lane", offset=34, size=11)
    svg.dimension(bx + rack["clearance"] * s2, base, mcx, base, f"{(lane_k + 0.5) * lane_w:g} to the magnet of lane H",
                  offset=84, size=11)
    svg.text(bx + inner * s2 + 20, reed_y + 8, f"reed, {rack['reed_length']:g} long, under the floor, along the lane",
             size=11)
    tx = bx + inner * s2 + 20
    svg.lines(tx, by + 40, [
        "Lane of each card's magnet",
        "(centre from the card's left edge):",
        *[f"{lane:>2}: {(k + 0.5) * lane_w:5.1f}" for k, lane in enumerate(lanes)],
        "",
        "Neighbouring slots are two",
        "lanes apart; the same lane",
        f"repeats every 5 slots ({5 * pitch:g} mm).",
    ], size=12, bold_first=True)

    # C. the rack floor from above: where each reed goes (scale 3 px/mm)
    s3 = 3.0
    cx0, cy0 = 640, 800
    svg.text(cx0 - 20, cy0 - 30, "C. Rack floor from above: one reed per slot, in its lane (scale 3:1)", size=15,
             bold=True)
    depth = rack["slots"] * pitch + rack["wall"]
    svg.rect(cx0, cy0, depth * s3, inner * s3, fill="#f5f5f5")
    for k, slot in enumerate(order):
        sx = cx0 + (rack["wall"] + k * pitch + rack["gap"] / 2) * s3
        lane_k = lanes.index(slot[1:])
        ly = cy0 + (rack["clearance"] + (lane_k + 0.5) * lane_w) * s3
        svg.rect(sx - rack["reed_diameter"] * s3 / 2, ly - reed_len * s3 / s2 / 2, rack["reed_diameter"] * s3,
                 rack["reed_length"] * s3, fill="#b3e5fc", stroke="#0277bd", width=0.8)
        if k % 5 == 0:
            svg.text(sx, cy0 - 6, slot, size=10, anchor="middle")
    for k, lane in enumerate(lanes):
        svg.text(cx0 - 8, cy0 + (rack["clearance"] + (k + 0.5) * lane_w) * s3 + 4, lane, size=11, anchor="end")
    svg.text(cx0, cy0 + inner * s3 + 18, "front (1C)", size=11)
    svg.text(cx0 + depth * s3, cy0 + inner * s3 + 18, "back (7NT)", size=11, anchor="end")
    svg.dimension(cx0, cy0 + inner * s3, cx0 + depth * s3, cy0 + inner * s3, f"{depth:.1f}", offset=40)

    # D. the Pass pocket: a stack, a well for the front card, a microswitch (scale 8 px/mm)
    s4 = 12.0
    svg.text(40, 905, "D. Pass pocket (X, XX alike): section, scale 12:1", size=15, bold=True)
    y0 = 1170                                  # the well floor
    shown = 16.0                               # mm of card drawn above the well floor (the rest cut off)
    y_cut = y0 - shown * s4
    fx0, fx1 = 250.0, 250.0 + 6 * s4           # the front wall, 6 mm thick, holds the switch
    well = pocket["well_gap"] * s4
    step = pocket["well_step"] * s4
    t = card["thickness"] * s4
    back = fx1 + well + pocket["pocket_depth"] * s4
    base = y0 + 24
    svg.rect(fx0, y_cut, fx1 - fx0, base - y_cut, fill="#bdbdbd")              # front wall
    svg.rect(fx1, y0, back - fx1, base - y0, fill="#d9d9d9", width=1)          # base under the well
    svg.rect(fx1 + well, y0 - step, back - fx1 - well, step, fill="#d9d9d9")  # the step: the stack's floor
    svg.rect(back, y_cut, 14, base - y_cut, fill="#bdbdbd")                    # back wall
    # the microswitch in the front wall, its lever through a window into the well
    lever_y = y0 - pocket["lever_height"] * s4
    svg.rect(fx0 + 6, lever_y - 20, 30, 40, fill="#37474f", stroke="#37474f")
    svg.text(fx0 + 21, lever_y + 5, "SW", size=11, anchor="middle", colour="#ffffff", bold=True)
    svg.line(fx0 + 36, lever_y - 14, fx1 - 1, lever_y, "#ff8f00", width=3)
    # the front card in the well, the stack on the step, the pusher and its spring
    svg.rect(fx1, y_cut, t, y0 - y_cut, fill="#a5d6a7", width=0.8)
    for k in range(int(pocket["cards"]) - 1):
        x = fx1 + well + k * t
        svg.rect(x, y_cut, t, y0 - step - y_cut, fill="#c8e6c9", width=0.5)
    push = fx1 + well + (int(pocket["cards"]) - 1) * t + 1
    svg.rect(push, y_cut + 30, 2 * s4, y0 - step - y_cut - 50, fill="#90a4ae")
    x = push + 2 * s4
    zig = [(x, y_cut + 60)]
    n = 8
    for k in range(1, n + 1):
        zig.append((x + (back - x) * k / n, y_cut + 60 + (8 if k % 2 else -8) * (k < n)))
    svg.path(zig, width=1.2)
    for yy in (y_cut,):
        svg.path([(fx0 - 6, yy), (back + 20, yy)], stroke=GREY, width=1, dash="6 4")
    svg.text(back + 24, y_cut + 4, "cards cut off here", size=11, colour=GREY)
    svg.text(fx0 - 8, y_cut + 20, "front", size=12, anchor="end")
    svg.text(back + 24, y_cut + 60, f"pusher spring, about {pocket['pusher_force_n']:g} N", size=11)
    svg.text(fx0 - 8, lever_y - 24, "microswitch, lever", size=11, anchor="end")
    svg.text(fx0 - 8, lever_y - 10, "pressed by the front card", size=11, anchor="end")
    svg.text(fx1 + well + 4, y_cut - 8, f"{int(pocket['cards'])} cards: the front one in the well", size=11)
    svg.dimension(back - 30, y0, back - 30, y0 - step, f"{pocket['well_step']:g} step",
                  text_at=(back + 24, y0 - step / 2 + 4))
    svg.dimension(fx1, y0, fx1, lever_y, f"{pocket['lever_height']:g} lever tip above the well floor",
                  offset=-40, size=11, text_at=(fx0 - 230, lever_y + 26))
    svg.dimension(fx1, base, fx1 + well, base, f"{pocket['well_gap']:g} well (one card)", offset=18, size=11,
                  text_at=(fx1 + well + 8, base + 22))
    svg.dimension(fx1 + well, base, back, base, f"{pocket['pocket_depth']:g} pocket", offset=40, size=11,
                  text_at=(back + 24, base + 44))
    svg.lines(720, 1050, [
        "How the stack pocket works",
        "The pusher keeps the stack against the front wall. The front card alone stands in the well,",
        f"{pocket['well_step']:g} lower than the others, and presses the microswitch's lever, whose tip is "
        f"{pocket['lever_height']:g} above the well floor:",
        "below the step, so no other card can reach it. A pulled card slides up and out; the lever opens.",
        "The next card cannot drop into the well until the pulled card is clear of it (it lies in front",
        "of the whole stack), so the contact stays open for the whole pull, far longer than the 10-15 ms",
        "of the firmware and the 30 ms of the sensing layer, then closes: one opening per card.",
        "The pusher must press harder than the switch's operating force (its datasheet).",
    ], size=12, bold_first=True)
    return svg.render()


# -- main ---------------------------------------------------------------------------------------

def draw_spread_zone(src: dict[str, Any]) -> str:
    """spread-zone.svg: the spread zone's antenna pads (its own module: spread_drawing.py)."""
    sys.path.insert(0, str(HERE))
    import spread_drawing  # (beside this script; it draws with this module's Svg)
    return spread_drawing.draw(src, Svg)


DRAWINGS: dict[str, Callable[[dict[str, Any]], str]] = {
    "seat-unit.svg": draw_seat_unit,
    "contact-matrix.svg": draw_contact_matrix,
    "pi.svg": draw_pi,
    "bidding-box.svg": draw_bidding_box,
    "spread-zone.svg": draw_spread_zone,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=HERE / "diagrams.toml", help="the source file")
    parser.add_argument("--out", type=Path, default=HERE, help="where to write the SVG files (this folder)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when a drawing on disk differs from what the sources give")
    args = parser.parse_args(argv)
    with args.source.open("rb") as f:
        source = tomllib.load(f)
    stale = []
    for name, draw in DRAWINGS.items():
        text = draw(source)
        path = args.out / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    if stale:
        print("out of date (run make diagrams): " + ", ".join(stale), file=sys.stderr)
        return 1
    if args.check:
        print("every drawing is up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
