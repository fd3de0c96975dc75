"""`make hardware`, boards: both netlists laid out in KiCad (pcbnew), checked, and plotted for a fab.

Run with the Python that has KiCad's ``pcbnew`` module (Debian's ``kicad`` package puts it
in the system ``python3``; ``make hardware`` installs it)::

    python3 hardware/electronics/layout.py [--out hardware/build/boards]

For each board of ``circuits.py`` (the same parts, nets and pin map as the netlists and the
firmware): a ``.kicad_pcb`` with its outline, every part's footprint from KiCad's own
library (two drawn here: the Pico in sockets, the printed pad loop), every pad on its net,
the parts placed (``place_*``: connectors where the case's openings are, the pad loops
under dummy's columns), the tracks routed by ``router.py`` (through ``board_routes.py``), on the pad board a GND pour
on both layers around the loops (``ground_pour``);
then KiCad's design-rule check (``drc-<board>.rpt``), Gerbers and drill files
(``<board>-gerbers/``), the pick-and-place file (``<board>-pos.csv``), the fab's BOM with
manufacturer part numbers (``<board>-fab-bom.csv``) and a Specctra file (``<board>.dsn``).

The check fails on any DRC violation (clearance, courtyards, holes, the outline), on a pad
whose net is not the netlist's, and on a connection left unrouted on the seat unit. What the
router leaves on the pad board (one connection: README.md) is counted and printed: finish it
in KiCad's PCB editor before ordering.
"""

from __future__ import annotations

import argparse
import csv
import io
import itertools
import math
import re
import sys
import tomllib
from pathlib import Path

import pcbnew

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import board_routes  # noqa: E402
import circuits  # noqa: E402
import router  # noqa: E402

from drivers.spread import PadArray  # noqa: E402

FOOTPRINTS = Path("/usr/share/kicad/footprints")
MM = pcbnew.FromMM
SPACING = 1.0            # between the courtyards of packed parts
LOOP_GAP = 0.5           # between neighbouring pad loops' copper
LOOP_TRACK = 0.5         # the loop's copper (antenna.py's trace)
STRIP_SPACING = 2.5      # between the pad board's strip parts (courtyards): room for the QFN's and TSSOPs' tracks
MIN_CLEARANCE = 0.2      # KiCad's default netclass clearance, which the DRC applies


def pt(x: float, y: float) -> pcbnew.wxPoint:
    return pcbnew.wxPointMM(x, y)


def sizes() -> dict[str, dict[str, float]]:
    with (ROOT / "hardware" / "diagrams" / "diagrams.toml").open("rb") as f:
        return tomllib.load(f)


# -- the two footprints of this project ---------------------------------------------------------------

def _tht(fp: pcbnew.FOOTPRINT, number: str, x: float, y: float, size: float = 1.7, drill: float = 1.0,
         square: bool = False) -> None:
    pad = pcbnew.PAD(fp)
    pad.SetNumber(number)
    pad.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
    pad.SetShape(pcbnew.PAD_SHAPE_RECT if square else pcbnew.PAD_SHAPE_CIRCLE)
    pad.SetSize(pcbnew.wxSizeMM(size, size))
    pad.SetDrillSize(pcbnew.wxSizeMM(drill, drill))
    pad.SetLayerSet(pad.PTHMask())
    fp.Add(pad)
    pad.SetPos0(pt(x, y))
    pad.SetPosition(pt(x, y))


def _line(fp: pcbnew.FOOTPRINT, layer: int, a: tuple[float, float], b: tuple[float, float], width: float) -> None:
    seg = pcbnew.FP_SHAPE(fp)
    seg.SetShape(pcbnew.SHAPE_T_SEGMENT)
    seg.SetLayer(layer)
    seg.SetWidth(MM(width))
    seg.SetStart0(pt(*a))
    seg.SetEnd0(pt(*b))
    fp.Add(seg)


def _box(fp: pcbnew.FOOTPRINT, layer: int, x0: float, y0: float, x1: float, y1: float, width: float) -> None:
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        _line(fp, layer, a, b, width)


def pico_sockets() -> pcbnew.FOOTPRINT:
    """The Pico in two 1x20 sockets, USB towards -x; pins numbered as diagrams.toml's [pico] (1-20, then 21-40 back)."""
    fp = pcbnew.FOOTPRINT(None)
    fp.SetFPID(pcbnew.LIB_ID("bridgetable", "RaspberryPi_Pico_Sockets"))
    for k in range(1, 41):
        x = -24.13 + (k - 1) * 2.54 if k <= 20 else 24.13 - (k - 21) * 2.54
        _tht(fp, str(k), x, 8.89 if k <= 20 else -8.89, square=k == 1)
    _box(fp, pcbnew.F_CrtYd, -26.0, -11.0, 26.0, 11.0, 0.05)
    _box(fp, pcbnew.F_SilkS, -25.5, -10.5, 25.5, 10.5, 0.12)
    _box(fp, pcbnew.F_SilkS, -25.5, -4.0, -20.5, 4.0, 0.12)       # the USB end
    return fp


def spiral(outer: float, pitch: float, turns: int) -> list[tuple[float, float]]:
    """A square spiral's corners, inwards from (-outer/2, -outer/2): ``turns`` turns ``pitch`` apart."""
    x = y = -outer / 2
    points = [(x, y)]
    for j in range(4 * turns):
        length = outer - pitch * max(0, (j - 1) // 2)
        dx, dy = ((1, 0), (0, 1), (-1, 0), (0, -1))[j % 4]
        x, y = x + dx * length, y + dy * length
        points.append((x, y))
    return points


def pad_loop(side: float, turns: int = 3, track: float = 0.5, gap: float = 0.5) -> pcbnew.FOOTPRINT:
    """A printed square spiral (antenna.py's loop), a net tie between its ends: both pads outside, on its left."""
    fp = pcbnew.FOOTPRINT(None)
    fp.SetFPID(pcbnew.LIB_ID("bridgetable", "PadLoop_40x40mm_3T"))
    fp.SetKeywords("net tie antenna loop")     # KiCad 6: a net tie's copper may join its pads (the loop does)
    pitch, h = track + gap, (side - track) / 2
    points = spiral(2 * h, pitch, turns)
    for a, b in itertools.pairwise(points):
        _line(fp, pcbnew.F_Cu, a, b, track)
    start, inner = points[0], points[-1]
    out_x = -h - 2.5                     # both pads outside the loop, on its left
    _line(fp, pcbnew.F_Cu, start, (out_x, start[1]), track)
    _tht(fp, "1", out_x, start[1], size=1.5, drill=0.8, square=True)
    _tht(fp, "2", inner[0], inner[1], size=0.8, drill=0.4)           # the inner end goes through to the back
    _tht(fp, "2", out_x, inner[1], size=1.5, drill=0.8)
    _box(fp, pcbnew.F_CrtYd, -side / 2 - 4.0, -side / 2, side / 2, side / 2, 0.05)
    return fp


def segment_gap(a: tuple[tuple[float, float], tuple[float, float]],
                b: tuple[tuple[float, float], tuple[float, float]]) -> float:
    """The distance between two axis-aligned segments (0 when they cross or touch)."""
    (ax0, ay0), (ax1, ay1) = a
    (bx0, by0), (bx1, by1) = b
    dx = max(min(bx0, bx1) - max(ax0, ax1), min(ax0, ax1) - max(bx0, bx1), 0.0)
    dy = max(min(by0, by1) - max(ay0, ay1), min(ay0, ay1) - max(by0, by1), 0.0)
    return math.hypot(dx, dy)


def loop_clearance(side: float, turns: int = 3, track: float = 0.5, gap: float = 0.5) -> float:
    """The smallest copper gap between two turns of the loop (DRC does not look inside a net tie)."""
    points = spiral(side - track, track + gap, turns)
    segs = list(itertools.pairwise(points))
    return min(segment_gap(segs[i], segs[j]) for i in range(len(segs)) for j in range(i + 2, len(segs))) - track


def footprint(name: str, loop_side: float) -> pcbnew.FOOTPRINT:
    lib, item = name.split(":")
    if name == "bridgetable:RaspberryPi_Pico_Sockets":
        return pico_sockets()
    if name == "bridgetable:PadLoop_40x40mm_3T":
        return pad_loop(loop_side)
    fp = pcbnew.FootprintLoad(str(FOOTPRINTS / f"{lib}.pretty"), item)
    if fp is None:
        raise LookupError(f"KiCad's library has no footprint {name} (is kicad-footprints installed?)")
    return fp


# -- placing ------------------------------------------------------------------------------------------

def courtyard(fp: pcbnew.FOOTPRINT) -> tuple[float, float, float, float]:
    """The footprint's extent (courtyard and pads) around its position: (left, top, right, bottom) in mm."""
    box = fp.GetBoundingBox(False, False)
    pos = fp.GetPosition()
    return (pcbnew.ToMM(box.GetX() - pos.x), pcbnew.ToMM(box.GetY() - pos.y),
            pcbnew.ToMM(box.GetRight() - pos.x), pcbnew.ToMM(box.GetBottom() - pos.y))


def snap(v: float) -> float:
    """On the router's grid, so that the pins of fine-pitch parts (0.5 mm) fall on its cells."""
    return round(v / board_routes.GRID) * board_routes.GRID


def loop_returns(board: pcbnew.BOARD, fps: dict[str, pcbnew.FOOTPRINT]) -> None:
    """Each loop's return on the back, from its inner end to the pad outside: a track of the loop's
    end net (a drawing inside the footprint would leave KiCad counting the two pads unjoined)."""
    for ref, fp in fps.items():
        if not ref.startswith("ANT"):
            continue
        ends = [p for p in fp.Pads() if p.GetNumber() == "2"]
        track = pcbnew.PCB_TRACK(board)
        track.SetStart(ends[0].GetPosition())
        track.SetEnd(ends[1].GetPosition())
        track.SetWidth(MM(LOOP_TRACK))
        track.SetLayer(pcbnew.B_Cu)
        track.SetNet(ends[0].GetNet())
        board.Add(track)


def _track(board: pcbnew.BOARD, net: pcbnew.NETINFO_ITEM, layer: int, a: tuple[float, float],
           b: tuple[float, float], width: float = 0.25) -> None:
    track = pcbnew.PCB_TRACK(board)
    track.SetStart(pt(*a))
    track.SetEnd(pt(*b))
    track.SetWidth(MM(width))
    track.SetLayer(layer)
    track.SetNet(net)
    board.Add(track)


def _via(board: pcbnew.BOARD, net: pcbnew.NETINFO_ITEM, at: tuple[float, float]) -> None:
    via = pcbnew.PCB_VIA(board)
    via.SetViaType(pcbnew.VIATYPE_THROUGH)
    via.SetPosition(pt(*at))
    via.SetWidth(MM(board_routes.RULES.via_diameter))
    via.SetDrill(MM(board_routes.RULES.via_drill))
    via.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
    via.SetNet(net)
    board.Add(via)


SWITCH_VIA = 1.75        # from the switch's centre to the vias of its sources' join, up and down


def switch_fanout(board: pcbnew.BOARD, fps: dict[str, pcbnew.FOOTPRINT]) -> None:
    """Each pad switch's own two joins, fixed before the router runs: the gates (pins 2 and 5, face to face)
    straight across under the part on the front, the sources (pins 1 and 4, at opposite corners) through a
    via above pin 4 and one below pin 1 and a track between them on the back. The router, left to itself,
    joins the sources on the front and walls the bus pin in with the gates' net going round."""
    for ref, fp in fps.items():
        if not re.fullmatch(r"Q\d+[AB]", ref):
            continue
        pads = {p.GetNumber(): p for p in fp.Pads()}
        at = {n: (pcbnew.ToMM(p.GetPosition().x), pcbnew.ToMM(p.GetPosition().y)) for n, p in pads.items()}
        _track(board, pads["2"].GetNet(), pcbnew.F_Cu, at["5"], at["2"])
        vias = []
        for pin in ("4", "1"):
            x, y = at[pin]
            cy = pcbnew.ToMM(fp.GetPosition().y)
            end = (x, cy + math.copysign(SWITCH_VIA, y - cy))
            _track(board, pads[pin].GetNet(), pcbnew.F_Cu, at[pin], end)
            _via(board, pads[pin].GetNet(), end)
            vias.append(end)
        _track(board, pads["1"].GetNet(), pcbnew.B_Cu, vias[0], vias[1])


# the chips' supply pins given a via each before the router runs (pins side by side on one net share one): a fine
# pitch chip's supply pins between signal pins are what the router walls in when the signals are routed first
POWER_FANOUT = {"U1": "+3V3", "U2": "+5V", "U3": "+5V"}
FANOUT_REACH = 0.8       # from the pin's outer end to the via's centre


def power_fanout(board: pcbnew.BOARD, fp: pcbnew.FOOTPRINT, net: str) -> None:
    """A via in front of each group of ``net``'s pins (pins closer than 0.7 mm together: one group), outwards
    from the chip's centre, and a track from each pin of the group to it."""
    cx, cy = pcbnew.ToMM(fp.GetPosition().x), pcbnew.ToMM(fp.GetPosition().y)
    pins = []
    for pad in fp.Pads():
        x, y = pcbnew.ToMM(pad.GetPosition().x), pcbnew.ToMM(pad.GetPosition().y)
        if pad.GetNetname() == net and math.hypot(x - cx, y - cy) > 1.0:       # not the exposed pad
            box = pad.GetBoundingBox()
            pins.append((x, y, pcbnew.ToMM(box.GetWidth()) / 2, pcbnew.ToMM(box.GetHeight()) / 2, pad.GetNet()))
    pins.sort(key=lambda p: (p[0], p[1]))
    groups: list[list[tuple[float, float, float, float, pcbnew.NETINFO_ITEM]]] = []
    for pin in pins:
        near = next((g for g in groups if any(math.hypot(pin[0] - q[0], pin[1] - q[1]) < 0.7 for q in g)), None)
        if near is None:
            groups.append([pin])
        else:
            near.append(pin)
    for group in groups:
        mx, my = sum(p[0] for p in group) / len(group), sum(p[1] for p in group) / len(group)
        if abs(mx - cx) >= abs(my - cy):
            sign = math.copysign(1.0, mx - cx)
            end = max(sign * (p[0] - cx) + p[2] for p in group)
            at = (snap(cx + sign * (end + FANOUT_REACH)), my)
        else:
            sign = math.copysign(1.0, my - cy)
            end = max(sign * (p[1] - cy) + p[3] for p in group)
            at = (mx, snap(cy + sign * (end + FANOUT_REACH)))
        for x, y, _, _, netinfo in group:
            _track(board, netinfo, pcbnew.F_Cu, (x, y), at)
        _via(board, group[0][4], at)


def _zone_outline(zone: pcbnew.ZONE, x0: float, y0: float, x1: float, y1: float) -> None:
    poly = zone.Outline()
    poly.NewOutline()
    for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
        poly.Append(MM(x), MM(y))


def ground_pour(board: pcbnew.BOARD, w: float, h: float) -> None:
    """A GND zone on both copper layers over the whole board except the loops (a pour under a loop would
    take its field): it joins the GND pads the tracks have not, with thermal reliefs. Filled in place."""
    gnd = board.FindNet("GND")
    edge = board.GetDesignSettings().m_CopperEdgeClearance
    for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
        zone = pcbnew.ZONE(board)
        zone.SetLayer(layer)
        zone.SetNet(gnd)
        zone.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
        zone.SetThermalReliefGap(MM(0.3))
        zone.SetThermalReliefSpokeWidth(MM(0.4))
        zone.SetMinThickness(MM(0.25))
        zone.SetLocalClearance(MM(0.3))      # 0.25 mm to a bare hole, with room
        zone.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
        e = pcbnew.ToMM(edge)
        _zone_outline(zone, e, e, w - e, h - e)
        board.Add(zone)
    for fp in board.GetFootprints():
        if not fp.GetReference().startswith("ANT"):
            continue
        box = fp.GetBoundingBox(False, False)
        keep = pcbnew.ZONE(board)
        keep.SetIsRuleArea(True)
        keep.SetDoNotAllowCopperPour(True)
        keep.SetDoNotAllowTracks(False)
        keep.SetDoNotAllowVias(False)
        keep.SetDoNotAllowPads(False)
        keep.SetDoNotAllowFootprints(False)
        ls = pcbnew.LSET()
        ls.AddLayer(pcbnew.F_Cu)
        ls.AddLayer(pcbnew.B_Cu)
        keep.SetLayerSet(ls)
        _zone_outline(keep, pcbnew.ToMM(box.GetLeft()) - 1.0, pcbnew.ToMM(box.GetTop()) - 1.0,
                      pcbnew.ToMM(box.GetRight()) + 1.0, pcbnew.ToMM(box.GetBottom()) + 1.0)
        board.Add(keep)
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())


def pack(fps: list[pcbnew.FOOTPRINT], region: tuple[float, float, float, float], spacing: float = SPACING) -> None:
    """Place footprints in rows, left to right, inside ``region`` (x0, y0, x1, y1), ``spacing`` apart."""
    x0, y0, x1, y1 = region
    x, y, row = x0, y0, 0.0
    for fp in fps:
        left, top, right, bottom = courtyard(fp)
        w, h = right - left, bottom - top
        if x + w > x1:
            x, y, row = x0, y + row + spacing, 0.0
        if y + h > y1:
            raise ValueError(f"{fp.GetReference()} does not fit in the region {region}: a bigger board, or fewer parts")
        fp.SetPosition(pt(snap(x - left), snap(y - top)))
        x, row = x + w + spacing, max(row, h)


def place_seat_unit(fps: dict[str, pcbnew.FOOTPRINT], w: float, h: float, inset: float) -> None:
    """The Pico's USB at the left edge (the case's USB opening), J1 at the right edge (the ribbon's),
    the readers' and pad board's connectors along the far edge (their cables' opening), the rest packed."""
    fps["U1"].SetPosition(pt(26.5, h / 2))
    fps["J1"].SetOrientationDegrees(0)
    _, top, right, bottom = courtyard(fps["J1"])
    fps["J1"].SetPosition(pt(w - right - 1.0, h / 2 - (top + bottom) / 2))
    edge = [fps[r] for r in ("J2", "J3", "J5")]
    for fp in edge:
        fp.SetOrientationDegrees(90)
    pack(edge, (inset + 4.0, h / 2 + 12.0, w - inset - 4.0, h - 1.0))
    rest = [fp for ref, fp in sorted(fps.items()) if ref not in ("U1", "J1", "J2", "J3", "J5")]
    rest.sort(key=lambda fp: -(courtyard(fp)[3] - courtyard(fp)[1]))
    pack(rest, (inset + 4.0, 1.0, w - 16.0, h / 2 - 12.0))


def pad_centres(zone: dict[str, float], origin: tuple[float, float]) -> list[tuple[float, float]]:
    """Each pad's centre, in the firmware's order (column by column, row by row), as spread_drawing.py draws them."""
    pads = PadArray()
    cw, gap, pitch = zone["card_width"], zone["column_gap"], zone["pitch"]
    out = []
    for col in range(pads.columns):
        for row in range(pads.rows):
            cx = origin[0] + col * (cw + gap) + cw / 2
            cy = origin[1] + (row * pads.tags_per_pad + (pads.tags_per_pad - 1) / 2) * pitch + zone["card_height"] / 2
            out.append((cx, cy))
    return out


def free_spot(target: tuple[float, float], extent: tuple[float, float, float, float],
              taken: list[tuple[float, float, float, float]], region: tuple[float, float, float, float],
              gap: float) -> tuple[float, float]:
    """The position on the placement grid nearest ``target`` where a part of ``extent`` (left, top, right,
    bottom around its position) lies inside ``region`` and ``gap`` from every box ``taken``."""
    left, top, right, bottom = extent
    x0, y0, x1, y1 = region
    step = 2 * board_routes.GRID
    best: tuple[float, float, float] | None = None
    reach = 0.0
    while best is None:
        reach += 5.0
        for i in range(-int(reach / step), int(reach / step) + 1):
            for j in range(-int(reach / step), int(reach / step) + 1):
                x, y = snap(target[0]) + i * step, snap(target[1]) + j * step
                d = math.hypot(x - target[0], y - target[1])
                if best is not None and (d, x, y) >= best:
                    continue
                box = (x + left, y + top, x + right, y + bottom)
                if box[0] < x0 or box[1] < y0 or box[2] > x1 or box[3] > y1:
                    continue
                if any(box[0] < t[2] + gap and t[0] < box[2] + gap and box[1] < t[3] + gap and t[1] < box[3] + gap
                       for t in taken):
                    continue
                best = (d, x, y)
        if reach > max(x1 - x0, y1 - y0):
            raise ValueError(f"no room for a part in the region {region}: a bigger board, or fewer parts")
    return best[1], best[2]


POWER_NETS = ("GND", "+3V3", "+5V")


def place_near_nets(fps: list[tuple[pcbnew.FOOTPRINT, pcbnew.FOOTPRINT | None]], placed: list[pcbnew.FOOTPRINT],
                    region: tuple[float, float, float, float], gap: float) -> None:
    """Each part in turn where it is nearest the pads it shares a signal net with, ``gap`` from the parts
    placed before; a part given a partner (a decoupling capacitor, its chip) by the partner's pads it shares
    a net with, power nets included."""
    taken = []
    for fp in placed:
        left, top, right, bottom = courtyard(fp)
        x, y = pcbnew.ToMM(fp.GetPosition().x), pcbnew.ToMM(fp.GetPosition().y)
        taken.append((x + left, y + top, x + right, y + bottom))
    for fp, partner in fps:
        nets = {p.GetNetname() for p in fp.Pads()} - {""}
        signal = nets if partner else nets - set(POWER_NETS)
        near = [(pcbnew.ToMM(p.GetPosition().x), pcbnew.ToMM(p.GetPosition().y))
                for other in ([partner] if partner else placed) for p in other.Pads() if p.GetNetname() in signal]
        if not near:
            raise ValueError(f"{fp.GetReference()} shares no net with the parts placed before it")
        target = (sum(x for x, _ in near) / len(near), sum(y for _, y in near) / len(near))
        x, y = free_spot(target, courtyard(fp), taken, region, gap)
        fp.SetPosition(pt(x, y))
        left, top, right, bottom = courtyard(fp)
        taken.append((x + left, y + top, x + right, y + bottom))
        placed.append(fp)


# the pad board's strip below the loops: the shift registers under the columns they switch, the reader and
# its connector between them, then every other part by the pads it shares a net with (in this order)
STRIP_ANCHORS = {"U2": (0.15, 0.3), "U3": (0.65, 0.3), "U1": (0.42, 0.7), "J1": (0.3, 0.3)}
STRIP_ORDER = {"C16": "U2", "C17": "U3", "Y1": "", "C1": "", "C2": "", "L1": "", "L2": "", "C3": "", "C4": "",
               "C5": "", "C6": "", "C7": "", "C8": "", "R1": "", "C9": "", "R2": "", "C14": "", "R3": "",
               "C10": "U1", "C11": "U1", "C12": "U1", "C13": "U1", "C15": "U1"}     # part: its partner


def place_pad_board(fps: dict[str, pcbnew.FOOTPRINT], zone: dict[str, float], w: float, h: float) -> None:
    """The loops under dummy's columns, each pad's two switches beside it, the reader and registers below."""
    centres = pad_centres(zone, (4.0, 4.0))
    for k, (cx, cy) in enumerate(centres):
        fps[f"ANT{k}"].SetPosition(pt(cx, cy))
        for j, end in enumerate("AB"):
            fps[f"Q{k}{end}"].SetPosition(pt(cx - zone["pad_width"] / 2 - 8.0, cy - 16.0 + 6.0 * j))   # by its ends
            fps[f"Q{k}{end}"].SetOrientationDegrees(180)     # drain (pin 3) towards the loop, pin 6 to the bus
    bottom = max(cy for _, cy in centres) + zone["pad_height"] / 2 + 3.0
    rest = {ref for ref in fps if not re.fullmatch(r"ANT\d+|Q\d+[AB]", ref)}
    if rest != set(STRIP_ANCHORS) | set(STRIP_ORDER):
        odd = sorted(rest ^ (set(STRIP_ANCHORS) | set(STRIP_ORDER)))
        raise ValueError(f"the pad board's strip does not place {odd}")
    for ref, (fx, fy) in STRIP_ANCHORS.items():
        fps[ref].SetPosition(pt(snap(fx * w), snap(bottom + fy * (h - bottom))))
    fps["J1"].SetOrientationDegrees(90)      # lying along the strip: the registers' lines pass above the reader
    region = (12.0, bottom, w - 12.0, h - 2.0)
    place_near_nets([(fps[r], fps[p] if p else None) for r, p in STRIP_ORDER.items()],
                    [fps[r] for r in STRIP_ANCHORS], region, STRIP_SPACING)


# -- the board ----------------------------------------------------------------------------------------

def build_board(b: circuits.Board, path: Path) -> pcbnew.BOARD:
    src = sizes()
    board = pcbnew.NewBoard(str(path))
    zone = src["spread_zone"]
    loop_side = float(zone["pad_width"]) - LOOP_GAP
    if b.name == "seat-unit":
        su = src["seat_unit_board"]
        w, h, inset, hole = su["width"], su["height"], su["hole_inset"], "MountingHole_2.7mm_M2.5"
    else:
        pads = PadArray()
        w = pads.columns * zone["card_width"] + (pads.columns - 1) * zone["column_gap"] + 8.0
        h = zone["card_height"] + (pads.columns * pads.tags_per_pad - 1) * zone["pitch"] + 16.0 + 8.0
        inset, hole = 4.0, "MountingHole_3.2mm_M3"
    outline = pcbnew.PCB_SHAPE(board)
    outline.SetShape(pcbnew.SHAPE_T_RECT)
    outline.SetStart(pt(0, 0))
    outline.SetEnd(pt(w, h))
    outline.SetLayer(pcbnew.Edge_Cuts)
    outline.SetWidth(MM(0.1))
    board.Add(outline)

    nets: dict[str, pcbnew.NETINFO_ITEM] = {}
    for name in b.nets:
        nets[name] = pcbnew.NETINFO_ITEM(board, name)
        board.Add(nets[name])
    fps: dict[str, pcbnew.FOOTPRINT] = {}
    for part in b.parts:
        fp = footprint(part.footprint, loop_side)
        fp.SetReference(part.ref)
        fp.SetValue(part.value)
        if part.mpn:
            fp.SetProperty("MPN", part.mpn)
            fp.SetProperty("Manufacturer", part.maker)
        board.Add(fp)
        fps[part.ref] = fp
    for name, ends in b.nets.items():
        for ref, pin in ends:
            num = circuits.Part.pin(b.part(ref), pin).num
            for pad in fps[ref].Pads():
                if pad.GetNumber() == num:
                    pad.SetNet(nets[name])
    if b.name == "seat-unit":
        place_seat_unit(fps, w, h, inset)
    else:
        place_pad_board(fps, zone, w, h)
        loop_returns(board, fps)
        switch_fanout(board, fps)
        for ref, net in POWER_FANOUT.items():
            power_fanout(board, fps[ref], net)
    corners = [(inset, inset), (w - inset, inset), (inset, h - inset), (w - inset, h - inset)]
    if b.name == "pad-board":
        corners += [(w / 2, inset), (w / 2, h - inset)]
    for i, (x, y) in enumerate(corners, start=1):
        fp = pcbnew.FootprintLoad(str(FOOTPRINTS / "MountingHole.pretty"), hole)
        fp.SetReference(f"H{i}")
        fp.SetPosition(pt(x, y))
        fp.SetAttributes(fp.GetAttributes() | pcbnew.FP_EXCLUDE_FROM_BOM | pcbnew.FP_EXCLUDE_FROM_POS_FILES)
        board.Add(fp)
    fiducials = [(inset + 6.0, h - 2.0), (w - inset - 6.0, h - 2.0), (w - inset - 6.0, 2.0)]
    for i, (x, y) in enumerate(fiducials, start=1):
        fp = pcbnew.FootprintLoad(str(FOOTPRINTS / "Fiducial.pretty"), "Fiducial_1mm_Mask2mm")
        fp.SetReference(f"FID{i}")
        fp.SetPosition(pt(x, y))
        board.Add(fp)
    board.BuildConnectivity()
    return board


def mismatches(b: circuits.Board, board: pcbnew.BOARD) -> list[str]:
    """Every pad of the saved board whose net is not the netlist's, and every part not on the board or off it."""
    want = {}
    for name, ends in b.nets.items():
        for ref, pin in ends:
            want[(ref, circuits.Part.pin(b.part(ref), pin).num)] = name
    out = []
    outline = board.GetBoardEdgesBoundingBox()
    found = {fp.GetReference(): fp for fp in board.GetFootprints()}
    for part in b.parts:
        fp = found.get(part.ref)
        if fp is None:
            out.append(f"{b.name}: {part.ref} is not on the board")
            continue
        if not outline.Contains(fp.GetBoundingBox(False, False)):
            out.append(f"{b.name}: {part.ref} lies over the board's edge")
        for pad in fp.Pads():
            net = want.get((part.ref, pad.GetNumber()))
            if net is not None and pad.GetNetname() != net:
                out.append(f"{b.name}: {part.ref} pad {pad.GetNumber()} is on {pad.GetNetname()!r}, "
                           f"the netlist says {net!r}")
    return out


def drc(board: pcbnew.BOARD, report: Path) -> tuple[int, int, str]:
    """KiCad's design-rule check: (violations, connections to route, the report)."""
    pcbnew.WriteDRCReport(board, str(report), pcbnew.EDA_UNITS_MILLIMETRES, True)
    text = report.read_text(encoding="utf-8")
    entries = re.split(r"\n(?=\[)", text)
    errors = [e for e in entries if "Severity: error" in e and not e.startswith("[unconnected_items]")]
    unrouted = int(re.search(r"Found (\d+) unconnected", text).group(1))   # type: ignore[union-attr]
    return len(errors), unrouted, text


LAYERS = (("F_Cu", "F.Cu"), ("B_Cu", "B.Cu"), ("F_Mask", "F.Mask"), ("B_Mask", "B.Mask"), ("F_Paste", "F.Paste"),
          ("F_SilkS", "F.SilkS"), ("B_SilkS", "B.SilkS"), ("Edge_Cuts", "Edge.Cuts"))


def plot(board: pcbnew.BOARD, folder: Path) -> list[str]:
    """Gerbers (one a layer, RS-274X, with a job file) and Excellon drill files (plated and not)."""
    folder.mkdir(parents=True, exist_ok=True)
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(str(folder))
    po.SetPlotFrameRef(False)
    po.SetUseGerberProtelExtensions(False)
    po.SetUseGerberX2format(True)
    po.SetSubtractMaskFromSilk(True)
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    for attr, name in LAYERS:
        pc.SetLayer(getattr(pcbnew, attr))
        pc.OpenPlotfile(name.replace(".", "_"), pcbnew.PLOT_FORMAT_GERBER, name)
        pc.PlotLayer()
    pc.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, False, pcbnew.wxPoint(0, 0), False)
    drill.SetFormat(True)
    drill.CreateDrillandMapFilesSet(str(folder), True, False)
    return sorted(p.name for p in folder.iterdir())


def fab_bom(b: circuits.Board) -> str:
    """What the assembly house places: one line per value and MPN, with designators and footprint (smt parts only)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["Comment", "Designator", "Footprint", "Manufacturer", "MPN", "Second source", "Qty"])
    groups: dict[tuple[str, str, str], list[circuits.Part]] = {}
    for p in b.parts:
        if p.fit == "smt":
            groups.setdefault((p.value, p.mpn, p.footprint), []).append(p)
    for (value, mpn, fp), ps in sorted(groups.items(), key=lambda g: g[1][0].ref):
        w.writerow([value, ",".join(p.ref for p in ps), fp.split(":")[1], ps[0].maker, mpn, ps[0].second, len(ps)])
    return buf.getvalue()


def make(b: circuits.Board, out: Path, route: bool = True) -> tuple[list[str], str]:
    """One board: laid out, routed, saved, read back, checked, plotted. (problems, summary line)"""
    path = out / f"{b.name}.kicad_pcb"
    board = build_board(b, path)
    board_routes.set_rules(board)
    routed, seconds = board_routes.route(board, b.name) if route else (router.Result((), (), (), 0), 0.0)
    if b.name == "pad-board" and route:
        box = board.GetBoardEdgesBoundingBox()
        ground_pour(board, pcbnew.ToMM(box.GetWidth()), pcbnew.ToMM(box.GetHeight()))
    board.Save(str(path))
    saved = pcbnew.LoadBoard(str(path))
    problems = mismatches(b, saved)
    if b.name == "pad-board":
        side = float(sizes()["spread_zone"]["pad_width"]) - LOOP_GAP
        if loop_clearance(side) < MIN_CLEARANCE:
            problems.append(f"pad-board: the loop's turns are {loop_clearance(side):.2f} mm apart (< {MIN_CLEARANCE})")
    violations, unrouted, _ = drc(saved, out / f"drc-{b.name}.rpt")
    if violations:
        problems.append(f"{b.name}: {violations} design-rule violations (drc-{b.name}.rpt)")
    if unrouted and b.name == "pad-board" and route:
        print(f"{b.name}: {unrouted} connections not routed (the router gave up on: {', '.join(routed.failed)}): "
              "finish them in KiCad before ordering this board (README.md)", file=sys.stderr)
    elif unrouted:
        problems.append(f"{b.name}: {unrouted} connections not routed (drc-{b.name}.rpt; nets the router "
                        f"could not finish: {', '.join(routed.failed) or 'none'})")
    plot(saved, out / f"{b.name}-gerbers")
    pos = pcbnew.PLACE_FILE_EXPORTER(saved, True, False, False, True, True, True, False)
    (out / f"{b.name}-pos.csv").write_text(pos.GenPositionData(), encoding="utf-8")
    (out / f"{b.name}-fab-bom.csv").write_text(fab_bom(b), encoding="utf-8")
    pcbnew.ExportSpecctraDSN(saved, str(out / f"{b.name}.dsn"))
    box = saved.GetBoardEdgesBoundingBox()
    summary = (f"{b.name}: {pcbnew.ToMM(box.GetWidth()):.0f} x {pcbnew.ToMM(box.GetHeight()):.0f} mm, "
               f"{len(saved.GetFootprints())} footprints, {saved.GetNetCount() - 1} nets; DRC {violations} violations, "
               f"{unrouted} unconnected; routed {routed.nets} nets: {len(routed.tracks)} tracks, "
               f"{routed.length() / 1000:.2f} m, {len(routed.vias)} vias, {routed.ripped} rip-ups, {seconds:.0f} s")
    return problems, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE.parent / "build" / "boards")
    parser.add_argument("--no-route", action="store_true", help="place and check only (the tracks not routed)")
    args = parser.parse_args(argv)
    args.out = args.out.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    failed, lines = False, []
    for b in circuits.boards():
        try:
            problems, summary = make(b, args.out, route=not args.no_route)
        except (LookupError, ValueError) as e:
            problems, summary = [f"{b.name}: {e}"], f"{b.name}: not laid out"
        for p in problems:
            print(p, file=sys.stderr)
        failed |= bool(problems)
        lines.append(summary)
        print(summary)
    (args.out / "layout.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
