"""`make hardware`, boards: both netlists laid out in KiCad (pcbnew), checked, and plotted for a fab.

Run with the Python that has KiCad's ``pcbnew`` module (Debian's ``kicad`` package puts it
in the system ``python3``; ``make hardware`` installs it)::

    python3 hardware/electronics/layout.py [--out hardware/build/boards]

For each board of ``circuits.py`` (the same parts, nets and pin map as the netlists and the
firmware): a ``.kicad_pcb`` with its outline, every part's footprint from KiCad's own
library (two drawn here: the Pico in sockets, the printed pad loop), every pad on its net,
the parts placed (``placement.py``: connectors where the case's openings are, the pad loops
under dummy's columns, the copper fixed before routing), the tracks routed by ``router.py``
(through ``board_routes.py``), on the pad board a GND pour on both layers around the loops
(``ground_pour``);
then KiCad's design-rule check (``drc-<board>.rpt``), Gerbers and drill files
(``<board>-gerbers/``), the pick-and-place file (``<board>-pos.csv``), the fab's BOM with
manufacturer part numbers (``<board>-fab-bom.csv``) and a Specctra file (``<board>.dsn``).

The check fails on any DRC violation (clearance, courtyards, holes, the outline), on a pad
whose net is not the netlist's, and on a connection left unrouted on either board (the router's
second pass, ``route_repair.py``, routes what its first pass left walled in).
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
from placement import (  # noqa: E402
    POWER_FANOUT,
    loop_returns,
    place_pad_board,
    place_seat_unit,
    power_fanout,
    pt,
    switch_fanout,
)

from drivers.spread import PadArray  # noqa: E402

FOOTPRINTS = Path("/usr/share/kicad/footprints")
MM = pcbnew.FromMM
LOOP_GAP = 0.5           # between neighbouring pad loops' copper
MIN_CLEARANCE = 0.2      # KiCad's default netclass clearance, which the DRC applies


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
    if unrouted:
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
