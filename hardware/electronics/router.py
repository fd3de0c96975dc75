"""A grid maze router for two-layer boards: A* on a fine grid, with vias, net ordering and rip-up.

Pure Python, no KiCad: ``layout.py`` turns a pcbnew board into a :class:`Problem` (the pads with
their nets, the netless copper, the outline), calls :func:`route`, and writes the tracks and vias
back through pcbnew, whose design-rule check then judges them.

How it routes:

- **The grid**: cells ``Rules.pitch`` apart on both copper layers (F.Cu prefers horizontal
  runs, B.Cu vertical ones); a track's centreline runs from cell centre to cell centre in the
  8 directions, a via joins the two layers at a cell.
- **Obstacles, exactly**: for each width class (signal track, power track, via) a map says which
  net may put a centreline in each cell: a cell closer to some copper than the clearance plus
  the half width (plus a small ``margin`` for the grid's corners) belongs to that copper's net,
  or to no net when two nets' copper or netless copper (the antenna loops, holes, the edge)
  claim it. Routed tracks and vias are drawn into a second set of maps the same way.
- **Fixed copper**: tracks and vias already on the board (given as pads that are not terminals) join the
  pads they touch into one terminal, and a track may start anywhere on that copper (a fixed via's other side).
- **A net**: from its first pad, each remaining pad (nearest first) is joined to the net's
  tree (its pads and tracks so far) by an A* search, power nets at the power width where it fits.
- **Order**: the nets ``Rules.first`` names (the pad board's two antenna buses, which reach every
  pad), then those with the smallest bounding box first, those ``Rules.last`` names at the end (the pad
  board's GND, which its pour joins where tracks do not); a net that cannot be joined is routed
  again ignoring the other nets' tracks at a cost, the nets it crosses are ripped up and
  queued again after it (each at most ``Rules.rip_limit`` times).
- **History** (negotiated congestion, as PathFinder): each cell where a net had to run over other nets'
  tracks costs ``Rules.history`` more from then on, for every net; the nets ripped up go round the cells
  fought over where they can, and leave them to the net that cannot.
- **What is left**: each net that could not be joined whole is routed last as far as it goes
  (a pad it cannot reach is left out; from another start pad when the first is walled in), so
  that only the pads it could not reach stay unconnected; ``Result.failed`` still names it, and
  ``route_repair.repair`` can then route the copper round those pads again.

The same problem and rules give the same board: no clock, no hash order, ties broken by insertion.
"""

from __future__ import annotations

import heapq
import itertools
import math
import os
import sys
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from route_geometry import Point, Shape, row_span
from route_model import (
    B_CU,
    F_CU,
    Obstacle,
    Pad,
    Problem,
    Result,
    Rules,
    Track,
    Via,
    fixed_groups,
    net_order,
    settle_fixed,
)

__all__ = ["B_CU", "F_CU", "Grid", "Obstacle", "Pad", "Problem", "Result", "Rules", "Track", "Via", "fixed_groups",
           "net_order", "route", "settle_fixed", "simplify"]

State = int            # layer * cells + y * nx + x

PENALTY = 6.0          # a cell of another net's track, when looking for what to rip up
DEBUG = bool(os.environ.get("ROUTER_DEBUG"))
WEIGHT = 1.6           # A*'s heuristic weight: a little longer tracks, far fewer cells searched


def simplify(cells: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """A path's corners: the cells where its direction or layer changes (and both ends)."""
    if len(cells) < 3:
        return list(cells)
    out = [cells[0]]
    for prev, cur, nxt in zip(cells, cells[1:], cells[2:], strict=False):
        if prev[0] != cur[0] or cur[0] != nxt[0]:
            out.append(cur)
            continue
        if (cur[1] - prev[1], cur[2] - prev[2]) != (nxt[1] - cur[1], nxt[2] - cur[2]):
            out.append(cur)
    out.append(cells[-1])
    return out


@dataclass
class _Net:
    id: int
    name: str
    paths: list[list[State]] = field(default_factory=list)
    widths: list[float] = field(default_factory=list)


class Grid:
    """The board's cells and their owners, per width class and layer (internal to :func:`route`)."""

    def __init__(self, problem: Problem, rules: Rules) -> None:
        self.rules = rules
        x0, y0, x1, y1 = problem.box
        self.ox, self.oy, p = x0, y0, rules.pitch
        self.nx, self.ny = int((x1 - x0) / p) + 1, int((y1 - y0) / p) + 1
        self.n = self.nx * self.ny
        self.half = (rules.track / 2, rules.power_track / 2, rules.via_diameter / 2)
        self.ids: dict[str, int] = {}
        for pad in problem.pads:
            if pad.net and pad.net not in self.ids:
                self.ids[pad.net] = len(self.ids) + 1
        # static[k][layer][cell]: 0 free, a net id, -1 nobody; dyn: 0, a net id, -2 several
        self.static = [[array("h", bytes(2 * self.n)) for _ in (0, 1)] for _ in self.half]
        self.via_static = bytearray(self.n)          # 1: no via here (near a hole or inside a pad)
        self._build_static(problem)
        self.dyn: list[list[array[int]]] = []
        self.via_block = bytearray()
        self.clear_dynamic()
        # history[layer][cell]: what a centreline here costs more, for each time nets fought over the cell
        self.history = [array("f", bytes(4 * self.n)) for _ in (0, 1)]

    # -- cells -----------------------------------------------------------------------------------
    def xy(self, cell: int) -> Point:
        return (self.ox + (cell % self.nx) * self.rules.pitch, self.oy + (cell // self.nx) * self.rules.pitch)

    def cells_near(self, shape: Shape, radius: float) -> Iterable[int]:
        """Every cell whose centre is closer to the shape than ``radius`` (row by row, from the shape's spans)."""
        p, nx = self.rules.pitch, self.nx
        _bx0, by0, _bx1, by1 = shape.box()
        j0 = max(0, math.floor((by0 - abs(radius) - self.oy) / p))
        j1 = min(self.ny - 1, math.ceil((by1 + abs(radius) - self.oy) / p))
        for j in range(j0, j1 + 1):
            span = row_span(shape, radius, self.oy + j * p)
            if span is None:
                continue
            i0 = max(0, math.ceil((span[0] - self.ox) / p - 1e-9))
            i1 = min(nx - 1, math.floor((span[1] - self.ox) / p + 1e-9))
            row = j * nx
            yield from range(row + i0, row + i1 + 1)

    def _claim(self, owners: array[int], cells: Iterable[int], nid: int) -> None:
        for c in cells:
            o = owners[c]
            if o == 0:
                owners[c] = nid
            elif o != nid:
                owners[c] = -1

    def _build_static(self, problem: Problem) -> None:
        r = self.rules
        x0, y0, x1, y1 = problem.box
        for k, hw in enumerate(self.half):
            band = r.edge_clearance + hw + r.margin
            cols = [i for i in range(self.nx) if i * r.pitch < band or x1 - (x0 + i * r.pitch) < band]
            for layer in (0, 1):
                owners = self.static[k][layer]
                for j in range(self.ny):
                    y = y0 + j * r.pitch
                    row = j * self.nx
                    if y - y0 < band or y1 - y < band:
                        owners[row:row + self.nx] = array("h", [-1]) * self.nx
                    else:
                        for i in cols:
                            owners[row + i] = -1
            for ob in problem.obstacles:
                extra = r.hole_clearance if ob.hole else r.clearance
                cells = list(self.cells_near(ob.shape, extra + hw + r.margin))
                for layer in ob.layers:
                    self._claim(self.static[k][layer], cells, -1)
            for pad in problem.pads:
                cells = list(self.cells_near(pad.shape, r.clearance + hw + r.margin))
                for layer in pad.layers:
                    self._claim(self.static[k][layer], cells, self.ids.get(pad.net, -1))
        for pad in problem.pads:
            if pad.drill > 0:
                hole = Shape("circle", pad.shape.centre(), r=pad.drill / 2)
                self._mark(self.via_static, hole, r.hole_to_hole + r.via_drill / 2 + r.margin)
            else:
                self._mark(self.via_static, pad.shape, r.via_diameter / 2 + r.margin)
        for ob in problem.obstacles:
            if ob.hole:
                self._mark(self.via_static, ob.shape, r.hole_to_hole + r.via_drill / 2 + r.margin)

    def _mark(self, flags: bytearray, shape: Shape, radius: float) -> None:
        for c in self.cells_near(shape, radius):
            flags[c] = 1

    def clear_dynamic(self) -> None:
        self.dyn = [[array("h", bytes(2 * self.n)) for _ in (0, 1)] for _ in self.half]
        self.via_block = bytearray(self.via_static)

    def draw(self, nid: int, path: list[State], width: float) -> None:
        """A routed path's tracks and vias into the dynamic maps."""
        r, n = self.rules, self.n
        cells = [(s // n, s % n) for s in path]
        full = [(la, c % self.nx, c // self.nx) for la, c in cells]
        corners = [(la, y * self.nx + x) for la, x, y in simplify(full)]
        for (la, ca), (lb, cb) in itertools.pairwise(corners):
            if la != lb:
                via = Shape("circle", self.xy(ca), r=r.via_diameter / 2)
                for k, hw in enumerate(self.half):
                    near = list(self.cells_near(via, r.clearance + hw + r.margin))
                    for layer in (0, 1):
                        self._dclaim(self.dyn[k][layer], near, nid)
                self._mark(self.via_block, Shape("circle", self.xy(ca), r=r.via_drill / 2),
                           r.hole_to_hole + r.via_drill / 2 + r.margin)
            else:
                seg = Shape("segment", self.xy(ca), self.xy(cb), width / 2)
                for k, hw in enumerate(self.half):
                    self._dclaim(self.dyn[k][la], self.cells_near(seg, r.clearance + hw + r.margin), nid)
        if len(cells) == 1:
            layer, c = cells[0]
            dot = Shape("circle", self.xy(c), r=width / 2)
            for k, hw in enumerate(self.half):
                self._dclaim(self.dyn[k][layer], self.cells_near(dot, r.clearance + hw + r.margin), nid)

    @staticmethod
    def _dclaim(owners: array[int], cells: Iterable[int], nid: int) -> None:
        for c in cells:
            o = owners[c]
            if o == 0:
                owners[c] = nid
            elif o != nid:
                owners[c] = -2

    def terminals(self, pad: Pad, k: int) -> list[State]:
        """The cells inside the pad where the net's centreline may start (width class ``k``)."""
        nid = self.ids[pad.net]
        out = []
        shape = pad.shape
        depth = 0.3 * (min(shape.b) if shape.kind == "rect" else shape.r)
        inside = list(self.cells_near(shape, -depth))
        if not inside:
            inside = list(self.cells_near(shape, 1e-6))
        for layer in sorted(pad.layers):
            own = self.static[k][layer]
            out += [layer * self.n + c for c in inside if own[c] == nid]
        return out

    # -- search ----------------------------------------------------------------------------------
    def search(self, nid: int, k: int, sources: list[State], targets: set[State], goal: list[Point],
               penalty: bool = False) -> list[State] | None:
        """A* from any source to any target state; ``penalty``: other nets' tracks cost instead of block."""
        r, n, nx, ny = self.rules, self.n, self.nx, self.ny
        st, dy = self.static[k], self.dyn[k]
        hist = self.history
        vst, vdy = self.static[2], self.dyn[2]
        vblock = self.via_block
        gx = [((x - self.ox) / r.pitch, (y - self.oy) / r.pitch) for x, y in goal]

        def h(cell: int) -> float:
            x, y = cell % nx, cell // nx
            best = math.inf
            for tx, ty in gx:
                ax, ay = abs(x - tx), abs(y - ty)
                d = max(ax, ay) + 0.414 * min(ax, ay)
                if d < best:
                    best = d
            return best

        g: dict[State, float] = {}
        parent: dict[State, State] = {}
        heading: dict[State, int] = {}
        heap: list[tuple[float, int, State]] = []
        tick = 0
        for s in sources:
            g[s] = 0.0
            parent[s] = -1
            heading[s] = -1
            heapq.heappush(heap, (WEIGHT * h(s % n), tick, s))
            tick += 1
        moves = ((1, 0, 1.0, 0), (-1, 0, 1.0, 0), (0, 1, 1.0, 1), (0, -1, 1.0, 1),
                 (1, 1, 1.5, 2), (1, -1, 1.5, 2), (-1, 1, 1.5, 2), (-1, -1, 1.5, 2))
        done: set[State] = set()
        expansions = 0
        while heap:
            _, _, s = heapq.heappop(heap)
            if s in done:
                continue
            if s in targets:
                path = [s]
                while parent[path[-1]] != -1:
                    path.append(parent[path[-1]])
                path.reverse()
                return path
            done.add(s)
            expansions += 1
            if expansions > r.max_expansions:
                return None
            layer, c = divmod(s, n)
            x, y = c % nx, c // nx
            gs = g[s]
            head = heading[s]
            own, dyn, hs = st[layer], dy[layer], hist[layer]
            for d, (mx, my, base, axis) in enumerate(moves):
                xx, yy = x + mx, y + my
                if not (0 <= xx < nx and 0 <= yy < ny):
                    continue
                cc = yy * nx + xx
                o = own[cc]
                if o != 0 and o != nid:
                    continue
                cost = base + hs[cc]
                if axis == 2:      # no corner cutting past copper
                    o1, o2 = own[y * nx + xx], own[yy * nx + x]
                    if (o1 != 0 and o1 != nid) or (o2 != 0 and o2 != nid):
                        continue
                    q1, q2 = dyn[y * nx + xx], dyn[yy * nx + x]
                    if not penalty and ((q1 != 0 and q1 != nid) or (q2 != 0 and q2 != nid)):
                        continue
                elif axis != layer:
                    cost = r.wrong_way
                q = dyn[cc]
                if q != 0 and q != nid:
                    if not penalty:
                        continue
                    cost += PENALTY
                if head != -1 and head != d:
                    cost += r.turn_cost
                t = layer * n + cc
                ng = gs + cost
                if ng < g.get(t, math.inf) and t not in done:
                    g[t] = ng
                    parent[t] = s
                    heading[t] = d
                    heapq.heappush(heap, (ng + WEIGHT * h(cc), tick, t))
                    tick += 1
            # a via to the other layer
            other = 1 - layer
            t = other * n + c
            if t in done or vblock[c]:
                continue
            ok, cost = True, r.via_cost + hist[other][c]
            for lay in (0, 1):
                o = vst[lay][c]
                if o != 0 and o != nid:
                    ok = False
                q = vdy[lay][c]
                if q != 0 and q != nid:
                    if not penalty:
                        ok = False
                    cost += PENALTY
            if not ok or self._via_near(parent, s, c):
                continue
            ng = gs + cost
            if ng < g.get(t, math.inf):
                g[t] = ng
                parent[t] = s
                heading[t] = -1
                heapq.heappush(heap, (ng + WEIGHT * h(c), tick, t))
                tick += 1
        return None

    def _via_near(self, parent: dict[State, State], s: State, c: int) -> bool:
        """A via of this path already within the holes' spacing of cell ``c``."""
        r, n, nx = self.rules, self.n, self.nx
        reach = (r.hole_to_hole + r.via_drill) / r.pitch + 1
        cx, cy = c % nx, c // nx
        prev, cur = s, parent.get(s, -1)
        steps = 0
        while cur != -1 and steps < reach + 2:
            if cur // n != prev // n:
                pc = cur % n
                if math.hypot(pc % nx - cx, pc // nx - cy) < reach:
                    return True
            prev, cur = cur, parent.get(cur, -1)
            steps += 1
        return False

    def contest(self, nid: int, path: list[State], k: int, amount: float) -> None:
        """The cells where a path runs over other nets' tracks cost ``amount`` more from now on (for every net:
        the next searches go round them if they can, and the net that cannot keeps them)."""
        for s in path:
            layer, c = divmod(s, self.n)
            q = self.dyn[k][layer][c]
            if q != 0 and q != nid:
                self.history[layer][c] += amount

    def owners_along(self, path: list[State], k: int) -> set[int]:
        """The other nets whose tracks a path crosses."""
        found = set()
        for s in path:
            layer, c = divmod(s, self.n)
            q = self.dyn[k][layer][c]
            if q != 0:
                found.add(q)
        return found


def _geometry(grid: Grid, net: _Net, name: str) -> tuple[list[Track], list[Via]]:
    """A net's paths as KiCad items: straight runs between corners, vias at the layer changes; each
    path broken where another path of the net joins it, so that every junction is a track's end."""
    n, r = grid.n, grid.rules
    joints = set()
    for path in net.paths:
        joints.add(path[0] % n)
        joints.add(path[-1] % n)
    tracks, vias, seen = [], [], set()
    for path, width in zip(net.paths, net.widths, strict=False):
        cells = [(s // n, (s % n) % grid.nx, (s % n) // grid.nx) for s in path]
        corners = simplify(cells)
        keep = set(corners)
        pts = [cells[0]] + [cl for cl in cells[1:-1] if cl in keep or (cl[2] * grid.nx + cl[1]) in joints] + [cells[-1]]
        if len(cells) == 1:
            pts = cells
        for (la, xa, ya), (lb, xb, yb) in itertools.pairwise(pts):
            a = grid.xy(ya * grid.nx + xa)
            b = grid.xy(yb * grid.nx + xb)
            if la != lb:
                if a not in seen:
                    seen.add(a)
                    vias.append(Via(name, a, r.via_diameter, r.via_drill))
            elif a != b:
                tracks.append(Track(name, la, a, b, width))
    return tracks, vias


DEFAULT_RULES = Rules()


def route(problem: Problem, rules: Rules = DEFAULT_RULES,
          progress: Callable[[int, int, str], None] | None = None) -> Result:
    """Every net of the problem joined with tracks and vias that keep the rules (as far as it can)."""
    problem, groups = fixed_groups(problem)
    grid = Grid(problem, rules)

    def ends(pad: Pad, k: int) -> list[State]:
        """Where a track of width class ``k`` may join the terminal: its pad and the fixed copper joined to it."""
        out: list[State] = []
        for member in groups.get(pad, (pad,)):
            out += grid.terminals(member, k)
        return out

    by_net: dict[str, list[Pad]] = {}
    for pad in problem.pads:
        if pad.net and pad.terminal:
            by_net.setdefault(pad.net, []).append(pad)
    order = net_order(problem, rules.first, rules.last)
    nets = {name: _Net(grid.ids[name], name) for name in order}
    ripped_count = {name: 0 for name in order}
    queue = list(order)
    failed: list[str] = []
    routed: list[str] = []
    rips = 0

    def attempt(name: str, penalty: bool, partial: bool = False, first: int = 0) -> set[int] | None:
        """Route the net; None when done, else (with ``penalty``) the nets in its way. ``partial``: a pad
        that cannot be reached is left out and the others joined (None then too), from pad ``first``."""
        net = nets[name]
        pads = by_net[name][first:] + by_net[name][:first]
        classes = (1, 0) if name in problem.power else (0,)
        start = pads[0]
        tree: set[State] = set(ends(start, 0)) | set(ends(start, classes[0]))
        joined = [start.shape.centre()]
        rest = sorted(pads[1:], key=lambda p: min(math.dist(p.shape.centre(), j) for j in joined))
        victims: set[int] = set()
        while rest:
            rest.sort(key=lambda p: min(math.dist(p.shape.centre(), j) for j in joined))
            pad = rest.pop(0)
            path = None
            for k in classes:
                sources = ends(pad, k)
                if not sources:
                    continue
                goal = sorted(joined, key=lambda j: math.dist(j, pad.shape.centre()))[:6]
                path = grid.search(net.id, k, sources, tree, goal, penalty=penalty)
                if path is not None:
                    if penalty:
                        grid.contest(net.id, path, k, rules.history)
                        victims |= grid.owners_along(path, k) - {net.id, -2}
                        if -2 in {grid.dyn[k][s // grid.n][s % grid.n] for s in path}:
                            victims |= _mixed_owners(grid, path, k, nets, net.id)
                    width = rules.power_track if k == 1 else rules.track
                    net.paths.append(path)
                    net.widths.append(width)
                    grid.draw(net.id, path, width)
                    tree |= set(path)
                    tree |= set(ends(pad, 0))
                    joined.append(pad.shape.centre())
                    break
            if path is None:
                if DEBUG:
                    print("unreached", name, pad.name, file=sys.stderr)
                if partial:
                    continue
                return victims | {-1}
        return victims if penalty else None

    while queue:
        name = queue.pop(0)
        net = nets[name]
        net.paths, net.widths = [], []
        if attempt(name, False) is None:
            routed.append(name)
        else:
            _unroute(grid, nets, routed, name)
            blockers = attempt(name, True)
            others = [nm for nm in routed if grid.ids[nm] in (blockers or set())]     # in routing order
            if blockers is None or -1 in blockers or any(ripped_count[o] >= rules.rip_limit for o in others):
                failed.append(name)
                _unroute(grid, nets, routed, name)
            else:
                for o in others:
                    ripped_count[o] += 1
                    routed.remove(o)
                    nets[o].paths, nets[o].widths = [], []
                    queue.append(o)
                    rips += 1
                _redraw(grid, nets, routed)
                net.paths, net.widths = [], []
                if attempt(name, False) is None:
                    routed.append(name)
                else:
                    _unroute(grid, nets, routed, name)
                    failed.append(name)
        if progress:
            progress(len(routed), len(order), name)
    for name in list(failed):     # what the others left room for: each failed net as far as it goes
        best: tuple[list[list[State]], list[float]] = ([], [])
        for first in range(min(3, len(by_net[name]))):     # a start pad walled in joins nothing: another
            nets[name].paths, nets[name].widths = [], []
            attempt(name, False, partial=True, first=first)
            if len(nets[name].paths) > len(best[0]):
                best = (nets[name].paths, nets[name].widths)
            _unroute(grid, nets, routed, name)
            if 2 * len(best[0]) >= len(by_net[name]):
                break
        if best[0]:
            nets[name].paths, nets[name].widths = best
            routed.append(name)
            _redraw(grid, nets, routed)
    tracks: list[Track] = []
    vias: list[Via] = []
    for name in routed:
        t, v = _geometry(grid, nets[name], name)
        tracks += t
        vias += v
    return Result(tuple(tracks), tuple(vias), tuple(sorted(failed)), len(order), rips)


def _mixed_owners(grid: Grid, path: list[State], k: int, nets: dict[str, _Net], me: int) -> set[int]:
    """The nets whose tracks lie within reach of a path's cells (where the maps say 'several')."""
    r = grid.rules
    reach = (r.clearance + r.margin + r.power_track + r.via_diameter) / r.pitch + 1
    size = int(reach) + 1
    buckets = {((s % grid.n) % grid.nx // size, (s % grid.n) // grid.nx // size) for s in path}
    out = set()
    for net in nets.values():
        if net.id == me or not net.paths:
            continue
        for c in {s % grid.n for p in net.paths for s in p}:
            bx, by = c % grid.nx // size, c // grid.nx // size
            if any((bx + i, by + j) in buckets for i in (-1, 0, 1) for j in (-1, 0, 1)):
                out.add(net.id)
                break
    return out


def _redraw(grid: Grid, nets: dict[str, _Net], routed: list[str]) -> None:
    grid.clear_dynamic()
    for name in routed:
        net = nets[name]
        for path, width in zip(net.paths, net.widths, strict=False):
            grid.draw(net.id, path, width)


def _unroute(grid: Grid, nets: dict[str, _Net], routed: list[str], name: str) -> None:
    nets[name].paths, nets[name].widths = [], []
    _redraw(grid, nets, routed)
