"""The router's model: the design rules, the problem (pads, netless copper, the outline) and the result.

Plain data, no KiCad (``router.py`` routes a :class:`Problem` under :class:`Rules` into a :class:`Result`), and
what is read off a problem before routing: the pads already joined by fixed copper, the order of the nets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from route_geometry import Point, Shape

F_CU, B_CU = 0, 1


@dataclass(frozen=True)
class Rules:
    """The design rules (mm) the router keeps; KiCad's check is given the same clearance and widths."""

    pitch: float = 0.125
    clearance: float = 0.2
    margin: float = 0.02          # extra room for a centreline between cell centres
    track: float = 0.25
    power_track: float = 0.4
    via_diameter: float = 0.6
    via_drill: float = 0.3
    hole_to_hole: float = 0.25
    hole_clearance: float = 0.25  # copper to a hole without copper
    edge_clearance: float = 0.5
    via_cost: float = 16.0        # in cells
    turn_cost: float = 0.4
    wrong_way: float = 1.5        # a run across the layer's preferred direction costs this much a cell
    max_expansions: int = 100_000
    rip_limit: int = 3
    history: float = 0.0          # cost added to a cell (in cells) each time a net is routed over others' tracks there
    first: tuple[str, ...] = ()   # nets routed before the others (a bus that reaches every corner)
    last: tuple[str, ...] = ()    # nets routed after the others (a ground a pour joins where tracks cannot)


@dataclass(frozen=True)
class Pad:
    """Copper on a net: ``layers`` (F_CU, B_CU), ``drill`` > 0 for a through hole. A pad that is not
    a ``terminal`` is copper of the net already joined to another of its pads (a fixed track)."""

    net: str
    shape: Shape
    layers: frozenset[int]
    drill: float = 0.0
    terminal: bool = True
    name: str = ""


@dataclass(frozen=True)
class Obstacle:
    """Copper of no net (a net tie's drawing, a fiducial) or a hole without copper (``hole``)."""

    shape: Shape
    layers: frozenset[int] = frozenset({F_CU, B_CU})
    hole: bool = False


@dataclass(frozen=True)
class Problem:
    box: tuple[float, float, float, float]          # the outline: x0, y0, x1, y1
    pads: tuple[Pad, ...]
    obstacles: tuple[Obstacle, ...] = ()
    power: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Track:
    net: str
    layer: int
    a: Point
    b: Point
    width: float


@dataclass(frozen=True)
class Via:
    net: str
    at: Point
    diameter: float
    drill: float


@dataclass(frozen=True)
class Result:
    tracks: tuple[Track, ...]
    vias: tuple[Via, ...]
    failed: tuple[str, ...]                         # nets not fully joined
    nets: int                                       # nets with two terminals or more
    ripped: int = 0
    lifted: tuple[Pad, ...] = ()                    # fixed copper the router took up (off the board too)

    def length(self) -> float:
        return sum(math.dist(t.a, t.b) for t in self.tracks)


def touch(a: Pad, b: Pad) -> bool:
    """Do two pieces of a net's copper meet (a layer in common, an end, centre or corner of one on the other)?"""
    if not a.layers & b.layers:
        return False
    def points(shape: Shape) -> tuple[Point, ...]:
        return (shape.a, shape.b) if shape.kind == "segment" else (shape.a,)
    return any(b.shape.distance(*q) <= 1e-6 for q in points(a.shape)) or \
        any(a.shape.distance(*q) <= 1e-6 for q in points(b.shape))


def settle_fixed(problem: Problem) -> Problem:
    """Pads already joined by fixed copper (tracks and vias given as pads that are not terminals) count as one
    terminal: the first of them stays one, the others become copper of the net already joined."""
    return fixed_groups(problem)[0]


def fixed_groups(problem: Problem) -> tuple[Problem, dict[Pad, tuple[Pad, ...]]]:
    """:func:`settle_fixed`'s problem, and for each terminal the copper joined to it (itself, the pads and the
    fixed tracks and vias): a track may start from any of it, on any of its layers (a fixed via's other side)."""
    pads = list(problem.pads)
    parent = list(range(len(pads)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_net: dict[str, list[int]] = {}
    for i, p in enumerate(pads):
        if p.net:
            by_net.setdefault(p.net, []).append(i)
    for indices in by_net.values():
        fixed = [i for i in indices if not pads[i].terminal]
        if not fixed:
            continue
        for i in fixed:
            for j in indices:
                if i != j and find(i) != find(j) and touch(pads[i], pads[j]):
                    parent[find(i)] = find(j)
    kept: dict[int, int] = {}
    for i, p in enumerate(pads):
        if p.terminal and p.net:
            root = find(i)
            if root in kept:
                pads[i] = Pad(p.net, p.shape, p.layers, p.drill, terminal=False, name=p.name)
            else:
                kept[root] = i
    members: dict[int, list[Pad]] = {}
    for i, p in enumerate(pads):
        if p.net and find(i) in kept:
            members.setdefault(find(i), []).append(p)
    groups = {pads[i]: tuple(members[root]) for root, i in kept.items()}
    return Problem(problem.box, tuple(pads), problem.obstacles, problem.power), groups


def net_order(problem: Problem, first: tuple[str, ...] = (), last: tuple[str, ...] = ()) -> list[str]:
    """Nets with two terminals or more: those named ``first`` in that order, then the smallest bounding
    box (half perimeter) first, those named ``last`` at the end."""
    where: dict[str, list[Point]] = {}
    for p in problem.pads:
        if p.net and p.terminal:
            where.setdefault(p.net, []).append(p.shape.centre())
    def span(net: str) -> float:
        xs, ys = [c[0] for c in where[net]], [c[1] for c in where[net]]
        return max(xs) - min(xs) + max(ys) - min(ys)
    nets = sorted((n for n in where if len(where[n]) > 1), key=lambda n: (span(n), n))
    middle = [n for n in nets if n not in first and n not in last]
    return [n for n in first if n in nets] + middle + [n for n in last if n in nets and n not in first]
