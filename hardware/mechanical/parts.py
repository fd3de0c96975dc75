"""The printed and cut parts of a table, as parametric build123d models.

Every size comes from ``hardware/diagrams/diagrams.toml`` (the card, the bid rack, the seat
unit's board, the case, the table) and the bid rack's pitch and lanes from
``magnetics.py``, so the drawings, the boards and the parts share one source. Units are
millimetres; x runs across (the card's width), y from the front (the player) to the back,
z up. ``build.py`` exports the parts and checks that they fit; this module only builds
shapes (run it with the CAD tools' Python, ``.cache/cad-venv``).

Parts:

- ``bid_rack``: 35 single-card slots at the derived pitch over a 1 mm floor, a cavity under
  the floor for the reed and diode board, closed by ``rack_bottom``;
- ``front_holder``: the Pass, X and XX stack pockets (the one-card well at the front, the
  microswitch's window in the front wall) and the Stop and Alert slots;
- ``case_base`` and ``case_lid``: the seat unit's case, sized from its board, with standoffs,
  the cables' openings and two tabs to screw it under the table;
- ``reader_cradle``: holds a reader module flat against the table top (in a pocket routed from
  below when the top is thicker than ``max_over_antenna``), with a groove for its cable;
- the loose things the fit check places: ``cards`` with their magnets, ``reeds``, the
  board's envelope (``seat_board``), ``reader_module``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from build123d import Axis, Box, Cylinder, Part, Pos, Rot

HERE = Path(__file__).resolve().parent
TOML = HERE.parent / "diagrams" / "diagrams.toml"

import magnetics  # noqa: E402  (build.py puts this folder on the path)

RACK_SIDE = 2.5          # the rack's side and end walls
REED_BAY = 6.0           # the cavity under the floor: reed 2 mm, diode, a 1.6 mm board, leads
BAY_WALL = 1.0           # the cavity's end walls, thinner than the rack's: the end slots' reeds reach past
LIP = 2.0                # the case lid's lip, inside the walls
BOTTOM = 2.0             # the rack's bottom plate
SWITCH = (12.8, 5.8, 6.5)  # Omron D2F-01L body: length, width, height (datasheet)


@dataclass(frozen=True)
class Source:
    raw: dict[str, Any]
    rack: magnetics.Rack
    pitch: float

    def __getitem__(self, key: str) -> dict[str, Any]:
        return dict(self.raw[key])


def load(path: Path = TOML) -> Source:
    with path.open("rb") as f:
        raw = tomllib.load(f)
    rack = magnetics.load(path)
    src = Source(raw, rack, magnetics.derive_pitch(rack).pitch)
    pocket_depth(src)          # refuses a table a reader cannot read through
    return src


def box(x0: float, y0: float, z0: float, x1: float, y1: float, z1: float) -> Part:
    """An axis-aligned box between two corners."""
    return Pos((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2) * Box(x1 - x0, y1 - y0, z1 - z0)


def rod_x(cx: float, cy: float, cz: float, diameter: float, length: float) -> Part:
    """A cylinder along x centred at (cx, cy, cz)."""
    return Pos(cx, cy, cz) * (Rot(0, 90, 0) * Cylinder(diameter / 2, length))


# -- the bid rack ------------------------------------------------------------------------------------

def inner_width(src: Source) -> float:
    return float(src["card"]["width"] + 2 * src["bid_rack"]["clearance"])


def slot_front(src: Source, i: int) -> float:
    """The front face (y) of slot ``i``: the first slot behind the front end wall."""
    wall = src.pitch - src.rack.gap
    return RACK_SIDE + i * (src.rack.gap + wall)


def rack_depth(src: Source) -> float:
    return slot_front(src, src.rack.slots - 1) + src.rack.gap + RACK_SIDE


def bid_rack(src: Source) -> Part:
    r = src["bid_rack"]
    w, d = inner_width(src), rack_depth(src)
    floor = r["floor"]
    body = box(-RACK_SIDE, 0, -floor - REED_BAY, w + RACK_SIDE, d, r["wall_height"])
    for i in range(src.rack.slots):
        y = slot_front(src, i)
        body -= box(0, y, 0, w, y + src.rack.gap, r["wall_height"] + 1)
    body -= box(0, BAY_WALL, -floor - REED_BAY - 1, w, d - BAY_WALL, -floor)
    return body


def rack_bottom(src: Source) -> Part:
    """The plate that closes the reed bay, screwed or glued under the rack."""
    z = -src["bid_rack"]["floor"] - REED_BAY
    return box(-RACK_SIDE, 0, z - BOTTOM, inner_width(src) + RACK_SIDE, rack_depth(src), z)


def card_in_slot(src: Source, i: int, y: float, lane: int) -> Part:
    """A bid card standing in a slot whose front face is at ``y``, its magnet at its foot in ``lane``."""
    card, r = src["card"], src["bid_rack"]
    x0 = r["clearance"]
    shape = box(x0, y, 0, x0 + card["width"], y + card["thickness"], card["height"])
    lane_w = src.rack.lane_width
    mz = r["magnet_above_foot"] + r["magnet_diameter"] / 2
    my = y + card["thickness"] + r["magnet_diameter"] / 2
    return shape + rod_x(x0 + (lane + 0.5) * lane_w, my, mz, r["magnet_diameter"], r["magnet_length"])


def cards(src: Source) -> list[Part]:
    return [card_in_slot(src, i, slot_front(src, i), magnetics.lane_of(src.rack, i)) for i in range(src.rack.slots)]


def reeds(src: Source) -> list[Part]:
    """Each slot's reed under the floor, under its card's magnet."""
    card, r = src["card"], src["bid_rack"]
    out = []
    for i in range(src.rack.slots):
        lane = magnetics.lane_of(src.rack, i)
        x = r["clearance"] + (lane + 0.5) * src.rack.lane_width
        y = slot_front(src, i) + card["thickness"] + r["magnet_diameter"] / 2
        out.append(rod_x(x, y, -r["floor"] - r["reed_diameter"] / 2 - 0.05, r["reed_diameter"], r["reed_length"]))
    return out


# -- the front holder: three stack pockets, Stop and Alert --------------------------------------------

FRONT_WALL = SWITCH[1] + 2.0   # a pocket's front wall holds the switch body, 1 mm of wall each side


def pocket_front(src: Source, k: int) -> float:
    p = src["stack_pocket"]
    return FRONT_WALL + k * (p["pocket_depth"] + FRONT_WALL)


def holder_depth(src: Source) -> float:
    """Three pockets, then two single slots (Stop, Alert) at the rack's pitch."""
    return pocket_front(src, 3) - FRONT_WALL + RACK_SIDE + 2 * src.pitch + RACK_SIDE


def single_front(src: Source, k: int) -> float:
    return pocket_front(src, 3) - FRONT_WALL + RACK_SIDE + k * src.pitch


def front_holder(src: Source) -> Part:
    p, r = src["stack_pocket"], src["bid_rack"]
    w, d = inner_width(src), holder_depth(src)
    step, well = p["well_step"], p["well_gap"]
    bay_top = -step - r["floor"]
    body = box(-RACK_SIDE, 0, bay_top - REED_BAY, w + RACK_SIDE, d, p["wall_height"])
    for k in range(3):
        y = pocket_front(src, k)
        body -= box(0, y, 0, w, y + p["pocket_depth"], p["wall_height"] + 1)      # the stack on its floor
        body -= box(0, y, -step, w, y + well, 0.01)                                  # the well: one card
        sx, _, sz = SWITCH                                                           # the switch in the front wall,
        body -= box(w / 2 - sx / 2, y - FRONT_WALL + 1, bay_top - 0.01, w / 2 + sx / 2, y - 1, -step + sz / 2)
        body -= box(w / 2 - 3, y - 1.01, -step, w / 2 + 3, y + 0.01, -step + p["lever_height"] + 1.5)  # its window
    for k in range(2):
        y = single_front(src, k)
        body -= box(0, y, 0, w, y + src.rack.gap, r["wall_height"] + 1)
    body -= box(0, BAY_WALL, bay_top - REED_BAY - 1, w, d - BAY_WALL, bay_top)
    # Stop and Alert: their reeds go up to the bid rack's 1 mm floor, as in the rack
    body -= box(0, single_front(src, 0) - 0.5, bay_top - 1, w, single_front(src, 1) + src.rack.gap + 0.5, -r["floor"])
    return body


def front_cards(src: Source) -> list[Part]:
    """The front card of each stack in its well, a second card on the step, and the Stop and Alert cards."""
    p, card = src["stack_pocket"], src["card"]
    out = []
    for k in range(3):
        y = pocket_front(src, k)
        x0 = src["bid_rack"]["clearance"]
        out.append(box(x0, y + 0.2, -p["well_step"], x0 + card["width"], y + 0.2 + card["thickness"],
                       card["height"] - p["well_step"]))
        out.append(box(x0, y + well_gap_back(src), 0, x0 + card["width"],
                       y + well_gap_back(src) + card["thickness"], card["height"]))
    lanes = {"Stop": src.rack.lane_order.index("C"), "Alert": src.rack.lane_order.index("NT")}
    for k, name in enumerate(("Stop", "Alert")):
        out.append(card_in_slot(src, 35 + k, single_front(src, k), lanes[name]))
    return out


def well_gap_back(src: Source) -> float:
    return float(src["stack_pocket"]["well_gap"]) + 0.1


# -- the seat unit's case -------------------------------------------------------------------------------

def case_inner(src: Source) -> tuple[float, float, float]:
    b, e = src["seat_unit_board"], src["enclosure"]
    return (b["width"] + 2 * e["clearance"], b["height"] + 2 * e["clearance"],
            e["standoff"] + b["thickness"] + b["top_height"] + e["clearance"] + LIP)


def board_origin(src: Source) -> tuple[float, float, float]:
    """The board's lower-left corner, underside, in the case's coordinates."""
    e = src["enclosure"]
    return (e["wall"] + e["clearance"], e["wall"] + e["clearance"], e["wall"] + e["standoff"])


def seat_board(src: Source) -> Part:
    """The seat unit's board with the envelope of its parts above and their leads below."""
    b = src["seat_unit_board"]
    x, y, z = board_origin(src)
    pcb = box(x, y, z, x + b["width"], y + b["height"], z + b["thickness"])
    inset = b["hole_inset"] + 3.5       # the parts keep clear of the mounting holes' pads
    top = box(x + inset, y, z + b["thickness"], x + b["width"] - inset, y + b["height"],
              z + b["thickness"] + b["top_height"])
    under = box(x + inset, y + inset, z - b["bottom_height"], x + b["width"] - inset, y + b["height"] - inset, z)
    for hx, hy in holes(src):
        pcb -= Pos(hx, hy, z + b["thickness"] / 2) * Cylinder(b["hole_diameter"] / 2, b["thickness"] + 1)
    return pcb + top + under


def holes(src: Source) -> list[tuple[float, float]]:
    b = src["seat_unit_board"]
    x, y, _ = board_origin(src)
    i = b["hole_inset"]
    return [(x + i, y + i), (x + b["width"] - i, y + i), (x + i, y + b["height"] - i),
            (x + b["width"] - i, y + b["height"] - i)]


def case_outer(src: Source) -> tuple[float, float, float]:
    w, d, h = case_inner(src)
    e = src["enclosure"]
    return (w + 2 * e["wall"], d + 2 * e["wall"], h + e["wall"])


def case_base(src: Source) -> Part:
    """The case: its floor goes against the table's underside, held by two screw tabs."""
    e, b = src["enclosure"], src["seat_unit_board"]
    ow, od, oh = case_outer(src)
    wall = e["wall"]
    body = box(0, 0, 0, ow, od, oh) - box(wall, wall, wall, ow - wall, od - wall, oh + 1)
    for hx, hy in holes(src):
        body += Pos(hx, hy, wall + e["standoff"] / 2) * Cylinder(2.5, e["standoff"])
        body -= Pos(hx, hy, wall + e["standoff"] / 2 + 0.5) * Cylinder(1.05, e["standoff"])   # M2.5 self-tapping
    tab = e["screw_tab"]
    for x0, x1 in ((-tab, 0.0), (ow, ow + tab)):
        body += box(x0, od / 2 - tab / 2, 0, x1, od / 2 + tab / 2, 3)
        body -= Pos((x0 + x1) / 2, od / 2, 1.5) * Cylinder(2.2, 4)
    zb = wall + e["standoff"] + b["thickness"]
    for name, (side, _, height) in OPENINGS.items():
        lo, hi = opening_span(src, name)
        x, y = board_origin(src)[:2]
        if side == "left":
            body -= box(-0.1, y + lo, zb, wall + 0.1, y + hi, zb + height)
        elif side == "right":
            body -= box(ow - wall - 0.1, y + lo, zb, ow + 0.1, y + hi, zb + height)
        else:
            body -= box(x + lo, od - wall - 0.1, zb, x + hi, od + 0.1, zb + height)
    return body


# The case's openings, each centred on its side: (side, width, height above the board). The board's
# layout (hardware/electronics/layout.py) puts the Pico's USB end on the left edge and J1 on the right,
# the readers', pad board's and button's connectors along the far edge; test_layout.py checks they meet.
OPENINGS = {"usb": ("left", 12.0, 8.0),          # the micro-USB plug
            "ribbon": ("right", 24.0, 10.0),     # the bidding box's 14-way ribbon and its 2x7 plug
            "cables": ("far", 30.0, 8.0)}        # readers, pad board, button


def opening_span(src: Source, name: str) -> tuple[float, float]:
    """Where an opening lies along its side, in the board's coordinates (mm from its corner at the case's origin)."""
    side, width, _ = OPENINGS[name]
    b = src["seat_unit_board"]
    centre = b["width"] / 2 if side == "far" else b["height"] / 2
    return centre - width / 2, centre + width / 2


def case_lid(src: Source) -> Part:
    e = src["enclosure"]
    ow, od, oh = case_outer(src)
    lip = 0.3                       # the lid's lip stands this far from the walls: a snug print
    return (box(0, 0, oh, ow, od, oh + e["lid"])
            + box(e["wall"] + lip, e["wall"] + lip, oh - LIP, ow - e["wall"] - lip, od - e["wall"] - lip, oh))


# -- mounting under the table: the readers --------------------------------------------------------------

def pocket_depth(src: Source, top: float | None = None) -> float:
    """How deep to rout under a reader's zone: nothing when the top is thin enough, else down to the leave."""
    t = src["table"]
    thickness = t["top_thickness"] if top is None else top
    if thickness + t["cloth"] <= t["max_over_antenna"]:
        return 0.0
    leave = t["leave_over_antenna"]
    if leave + t["cloth"] > t["max_over_antenna"]:
        raise ValueError(f"leaving {leave} mm of top under {t['cloth']} mm of cloth is over the "
                         f"{t['max_over_antenna']} mm a reader reads through")
    return float(thickness - leave)


def reader_module(src: Source) -> Part:
    """The reader module in its pocket: antenna side against the pocket's ceiling (z = -leave)."""
    t = src["table"]
    ceiling = -(t["top_thickness"] - pocket_depth(src))
    return box(-t["reader_width"] / 2, -t["reader_length"] / 2, ceiling - 1.6 - t["reader_parts_height"],
               t["reader_width"] / 2, t["reader_length"] / 2, ceiling)


def table_top(src: Source) -> Part:
    """A piece of the table top (z = 0 its upper face) with the reader's pocket routed from below."""
    t = src["table"]
    top = box(-70, -80, -t["top_thickness"], 70, 80, 0)
    depth = pocket_depth(src)
    if depth:
        w, ln = pocket_outline(src)
        top -= box(-w / 2, -ln / 2, -t["top_thickness"] - 1, w / 2, ln / 2, -t["top_thickness"] + depth)
    return top


def pocket_outline(src: Source) -> tuple[float, float]:
    t = src["table"]
    return t["reader_width"] + 2, t["reader_length"] + 2


def reader_cradle(src: Source) -> Part:
    """A plate screwed under the top that holds the module up in its pocket, with a groove for its wires."""
    t = src["table"]
    below = -t["top_thickness"]
    module_bottom = -(t["top_thickness"] - pocket_depth(src)) - 1.6 - t["reader_parts_height"]
    w, ln = pocket_outline(src)
    plate = box(-w / 2 - 12, -ln / 2 - 6, below - 3, w / 2 + 12, ln / 2 + 6, below)
    riser = box(-w / 2 + 0.3, -ln / 2 + 0.3, below, w / 2 - 0.3, ln / 2 - 0.3, module_bottom)
    cradle = plate + riser if module_bottom > below + 0.01 else plate
    cradle -= box(-6, -ln / 2 - 7, below - 1.5, 6, -ln / 2 + 8, module_bottom + 0.01)   # the wires' groove
    for sx in (-1, 1):
        cradle -= Pos(sx * (w / 2 + 6), 0, below - 1.5) * Cylinder(2.2, 4)
    return cradle


def all_parts(src: Source) -> dict[str, Part]:
    """The parts to make (printed, cut or routed), by file name."""
    return {"bid-rack": bid_rack(src), "rack-bottom": rack_bottom(src), "front-holder": front_holder(src),
            "case-base": case_base(src), "case-lid": case_lid(src), "reader-cradle": reader_cradle(src)}


__all__ = ["Axis", "all_parts", "load"]
