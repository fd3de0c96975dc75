"""Where the boards' parts go, and the copper laid before the router runs (KiCad's ``pcbnew``; ``layout.py``).

The seat unit: its connectors where the case has its openings, the rest packed in rows. The pad board:
the loops under dummy's columns, each pad's switches by its loop's ends, the registers under the columns
they switch, the connector and the reader between them, the reader's parts by the pads they share a net
with. Fixed copper: each loop's return, each switch's gate and source joins, a via in front of the chips'
supply pins (where the router's greedy order would wall them in).
"""

from __future__ import annotations

import math
import re

import board_routes
import pcbnew

from drivers.spread import PadArray

MM = pcbnew.FromMM
SPACING = 1.0            # between the courtyards of packed parts
LOOP_TRACK = 0.5         # the loop's copper (antenna.py's trace)
STRIP_SPACING = 2.5      # between the pad board's strip parts (courtyards): room for the QFN's and TSSOPs' tracks


def pt(x: float, y: float) -> pcbnew.wxPoint:
    return pcbnew.wxPointMM(x, y)


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
