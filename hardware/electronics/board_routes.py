"""Between a pcbnew board and ``router.py``: the board as a routing problem, the routes back as tracks and vias.

Needs KiCad's ``pcbnew`` (``layout.py`` imports it); ``router.py`` itself does not.
"""

from __future__ import annotations

import sys
import time

import pcbnew
import route_repair
import router
from route_geometry import Shape

POWER = frozenset({"GND", "+3V3", "+5V"})
RULES = router.Rules()
# the grid for each board: the pad board's fine-pitch parts (QFN 0.5 mm, TSSOP and SC-70 0.65 mm) need a fine
# one, and with it a smaller margin for the centrelines between cells; the seat unit's parts do not
BOARD_RULES = {"seat-unit": router.Rules(pitch=0.25, margin=0.06),
               "pad-board": router.Rules(pitch=0.125, margin=0.02, last=("GND",), history=2.0, rip_limit=5,
                                        first=("BUS1", "BUS2"))}
GRID = 0.25              # parts are placed on it: a multiple of both pitches


def mm(v: int) -> float:
    return float(pcbnew.ToMM(v))


def _pad_shape(pad: pcbnew.PAD) -> router.Shape:
    c = pad.GetPosition()
    centre = (mm(c.x), mm(c.y))
    if pad.GetShape() == pcbnew.PAD_SHAPE_CIRCLE:
        return Shape("circle", centre, r=mm(pad.GetSize().x) / 2)
    box = pad.GetBoundingBox()       # the pads here are at 0/90/180/270 degrees: their box is their outline
    return Shape("rect", (mm(box.GetCenter().x), mm(box.GetCenter().y)),
                        (mm(box.GetWidth()) / 2, mm(box.GetHeight()) / 2))


def problem(board: pcbnew.BOARD) -> router.Problem:
    """The board's pads (with their nets), its netless copper and holes, its fixed tracks, its outline."""
    edge = next(d for d in board.GetDrawings() if d.GetLayer() == pcbnew.Edge_Cuts)
    x0, y0, x1, y1 = edge.GetStart().x, edge.GetStart().y, edge.GetEnd().x, edge.GetEnd().y
    pads: list[router.Pad] = []
    obstacles: list[router.Obstacle] = []
    for fp in board.GetFootprints():
        for pad in fp.Pads():
            layers = frozenset(layer for layer, kl in ((router.F_CU, pcbnew.F_Cu), (router.B_CU, pcbnew.B_Cu))
                               if pad.IsOnLayer(kl))
            if pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH:
                c = pad.GetPosition()
                obstacles.append(router.Obstacle(Shape("circle", (mm(c.x), mm(c.y)),
                                                              r=mm(pad.GetDrillSize().x) / 2), hole=True))
                continue
            if not layers:
                continue                 # paste only
            shape = _pad_shape(pad)
            drill = mm(pad.GetDrillSize().x) if pad.GetAttribute() == pcbnew.PAD_ATTRIB_PTH else 0.0
            if not pad.GetNetname():
                obstacles.append(router.Obstacle(shape, layers))
            else:
                pads.append(router.Pad(pad.GetNetname(), shape, layers, drill,
                                       name=f"{fp.GetReference()}.{pad.GetNumber()}"))
        for item in fp.GraphicalItems():
            layer = item.GetLayer()
            if layer in (pcbnew.F_Cu, pcbnew.B_Cu) and item.GetShape() == pcbnew.SHAPE_T_SEGMENT:
                a, b = item.GetStart(), item.GetEnd()
                obstacles.append(router.Obstacle(
                    Shape("segment", (mm(a.x), mm(a.y)), (mm(b.x), mm(b.y)), mm(item.GetWidth()) / 2),
                    frozenset({router.F_CU if layer == pcbnew.F_Cu else router.B_CU})))
    pads += [_fixed(t) for t in board.GetTracks()]     # fixed tracks and vias (the loops' returns, the switches' joins)
    return router.Problem((mm(min(x0, x1)), mm(min(y0, y1)), mm(max(x0, x1)), mm(max(y0, y1))),
                          tuple(pads), tuple(obstacles), POWER)


def _fixed(t: pcbnew.PCB_TRACK) -> router.Pad:
    """A track or via already on the board as the router's fixed copper of its net."""
    if isinstance(t, pcbnew.PCB_VIA):
        c = t.GetPosition()
        return router.Pad(t.GetNetname(), Shape("circle", (mm(c.x), mm(c.y)), r=mm(t.GetWidth()) / 2),
                          frozenset({router.F_CU, router.B_CU}), mm(t.GetDrillValue()), terminal=False)
    a, b = t.GetStart(), t.GetEnd()
    return router.Pad(t.GetNetname(), Shape("segment", (mm(a.x), mm(a.y)), (mm(b.x), mm(b.y)), mm(t.GetWidth()) / 2),
                      frozenset({router.F_CU if t.GetLayer() == pcbnew.F_Cu else router.B_CU}), terminal=False)


def set_rules(board: pcbnew.BOARD) -> None:
    """The rules KiCad's check applies: the router's (a cheap fab's: 0.2 mm clearance, 0.3 mm via drill)."""
    ds = board.GetDesignSettings()
    nc = ds.GetNetClasses().GetDefault()
    nc.SetClearance(pcbnew.FromMM(RULES.clearance))
    nc.SetTrackWidth(pcbnew.FromMM(RULES.track))
    nc.SetViaDiameter(pcbnew.FromMM(RULES.via_diameter))
    nc.SetViaDrill(pcbnew.FromMM(RULES.via_drill))
    ds.m_CopperEdgeClearance = pcbnew.FromMM(RULES.edge_clearance)
    ds.m_HoleClearance = pcbnew.FromMM(RULES.hole_clearance)
    ds.m_HoleToHoleMin = pcbnew.FromMM(RULES.hole_to_hole)
    ds.m_TrackMinWidth = pcbnew.FromMM(0.2)
    ds.m_MinThroughDrill = pcbnew.FromMM(RULES.via_drill)


def add(board: pcbnew.BOARD, result: router.Result) -> None:
    """The routes onto the board, and the fixed copper the router took up off it."""
    lifted = set(result.lifted)
    for t in list(board.GetTracks()):
        if _fixed(t) in lifted:
            board.Remove(t)
    layer = {router.F_CU: pcbnew.F_Cu, router.B_CU: pcbnew.B_Cu}
    for t in result.tracks:
        track = pcbnew.PCB_TRACK(board)
        track.SetStart(pcbnew.wxPointMM(*t.a))
        track.SetEnd(pcbnew.wxPointMM(*t.b))
        track.SetWidth(pcbnew.FromMM(t.width))
        track.SetLayer(layer[t.layer])
        track.SetNet(board.FindNet(t.net))
        board.Add(track)
    for v in result.vias:
        via = pcbnew.PCB_VIA(board)
        via.SetViaType(pcbnew.VIATYPE_THROUGH)
        via.SetPosition(pcbnew.wxPointMM(*v.at))
        via.SetWidth(pcbnew.FromMM(v.diameter))
        via.SetDrill(pcbnew.FromMM(v.drill))
        via.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
        via.SetNet(board.FindNet(v.net))
        board.Add(via)


def route(board: pcbnew.BOARD, name: str) -> tuple[router.Result, float]:
    """Route the board in place: (the router's result, seconds)."""
    start = time.monotonic()

    def progress(done: int, total: int, net: str) -> None:
        print(f"\r{name}: {done}/{total} nets routed ({net})".ljust(70), end="", file=sys.stderr, flush=True)

    rules = BOARD_RULES.get(name, RULES)
    routing = problem(board)
    result = router.route(routing, rules, progress)
    print(file=sys.stderr)
    if result.failed:
        print(f"{name}: {', '.join(result.failed)} not joined; routing again round the pads left", file=sys.stderr)
        result = route_repair.repair(routing, result, rules, progress)
        print(file=sys.stderr)
    add(board, result)
    return result, time.monotonic() - start
