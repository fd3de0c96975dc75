"""The boards' maze router (hardware/electronics/router.py) on small synthetic boards, without KiCad.

Each test checks the routes against the design rules geometrically (clearance between copper of
different nets, via spacing, the edge) and that every net's pads end up joined.
"""

from __future__ import annotations

import itertools
import math

import router
from route_geometry import Shape, point_segment
from router import B_CU, F_CU, Obstacle, Pad, Problem, Rules

RULES = Rules(pitch=0.25, max_expansions=200_000)
BOTH = frozenset({F_CU, B_CU})
FRONT = frozenset({F_CU})


def smd(net: str, x: float, y: float, w: float = 1.0, h: float = 1.0) -> Pad:
    return Pad(net, Shape("rect", (x, y), (w / 2, h / 2)), FRONT, name=f"{net}@{x},{y}")


def tht(net: str, x: float, y: float) -> Pad:
    return Pad(net, Shape("circle", (x, y), r=0.85), BOTH, drill=1.0, name=f"{net}@{x},{y}")


def seg_seg(a0: tuple[float, float], a1: tuple[float, float], b0: tuple[float, float],
            b1: tuple[float, float]) -> float:
    """The distance between two segments (sampled finely: the tests' boards are small)."""
    best = math.inf
    for i in range(21):
        t = i / 20
        p = (a0[0] + t * (a1[0] - a0[0]), a0[1] + t * (a1[1] - a0[1]))
        q = (b0[0] + t * (b1[0] - b0[0]), b0[1] + t * (b1[1] - b0[1]))
        best = min(best, point_segment(*p, b0, b1), point_segment(*q, a0, a1))
    return best


def copper(result: router.Result, problem: Problem) -> list[tuple[str, int, Shape]]:
    """Every piece of copper: (net, layer, shape), pads, tracks and vias alike."""
    out = [(p.net, layer, p.shape) for p in problem.pads for layer in p.layers]
    out += [("", layer, o.shape) for o in problem.obstacles for layer in o.layers]
    out += [(t.net, t.layer, Shape("segment", t.a, t.b, t.width / 2)) for t in result.tracks]
    out += [(v.net, layer, Shape("circle", v.at, r=v.diameter / 2)) for v in result.vias for layer in (F_CU, B_CU)]
    return out


def gap(a: Shape, b: Shape) -> float:
    """Copper to copper, for the shapes the tests use (a segment or circle against anything)."""
    if a.kind != "segment" and b.kind == "segment":
        a, b = b, a
    if a.kind == "segment" and b.kind == "segment":
        return seg_seg(a.a, a.b, b.a, b.b) - a.r - b.r
    if a.kind == "segment":
        return min(b.distance(*p) for p in sample(a.a, a.b)) - a.r
    if a.kind == "circle":
        return b.distance(*a.a) - a.r
    return a.distance(*b.a) - b.r


def sample(a: tuple[float, float], b: tuple[float, float]) -> list[tuple[float, float]]:
    n = max(2, int(math.dist(a, b) / 0.02))
    return [(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n + 1)]


def clearance_errors(result: router.Result, problem: Problem, rules: Rules = RULES) -> list[str]:
    errors = []
    items = copper(result, problem)
    for (na, la, sa), (nb, lb, sb) in itertools.combinations(items, 2):
        if la != lb or (na == nb and na):
            continue
        if "segment" not in (sa.kind, sb.kind) and not (sa.kind == "circle" and sb.kind == "circle"):
            continue
        g = gap(sa, sb)
        if g < rules.clearance - 1e-6:
            errors.append(f"{na or 'copper'} and {nb or 'copper'} {g:.3f} mm apart on layer {la}")
    x0, y0, x1, y1 = problem.box
    for t in result.tracks:
        for x, y in (t.a, t.b):
            edge = min(x - x0, x1 - x, y - y0, y1 - y) - t.width / 2
            if edge < rules.edge_clearance - 1e-6:
                errors.append(f"{t.net} {edge:.2f} mm from the edge")
    for v, w in itertools.combinations(result.vias, 2):
        if math.dist(v.at, w.at) - v.drill < rules.hole_to_hole - 1e-6:
            errors.append(f"vias {v.at} and {w.at} too close")
    return errors


Item = Pad | router.Track | router.Via


def touches(a: Item, b: Item) -> bool:
    """Do two pieces of one net's copper join, as KiCad sees it (an end inside a pad, on a track, at a via)?"""
    if isinstance(a, Pad) and isinstance(b, Pad):
        return False
    if isinstance(b, Pad):
        a, b = b, a
    if isinstance(a, Pad):
        if isinstance(b, router.Via):
            return a.shape.distance(*b.at) <= 1e-6
        assert isinstance(b, router.Track)
        return b.layer in a.layers and any(a.shape.distance(*p) <= 1e-6 for p in (b.a, b.b))
    if isinstance(a, router.Via) and isinstance(b, router.Via):
        return a.at == b.at
    if isinstance(a, router.Via):
        a, b = b, a
    assert isinstance(a, router.Track)
    if isinstance(b, router.Via):
        return b.at in (a.a, a.b)
    assert isinstance(b, router.Track)
    if a.layer != b.layer:
        return False
    return any(point_segment(x, y, b.a, b.b) < 1e-6 for x, y in (a.a, a.b)) or \
        any(point_segment(x, y, a.a, a.b) < 1e-6 for x, y in (b.a, b.b))


def joined(result: router.Result, problem: Problem, net: str) -> bool:
    """Are the net's pads one piece of copper through its tracks and vias?"""
    nodes: list[Item] = [p for p in problem.pads if p.net == net]
    nodes += [t for t in result.tracks if t.net == net]
    nodes += [v for v in result.vias if v.net == net]
    parent = list(range(len(nodes)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(nodes)), 2):
        if touches(nodes[i], nodes[j]):
            parent[find(i)] = find(j)
    return len({find(i) for i, node in enumerate(nodes) if isinstance(node, Pad)}) == 1


def test_two_pads_in_the_open_are_joined_by_one_straight_track() -> None:
    problem = Problem((0, 0, 20, 10), (smd("A", 3, 5), smd("A", 17, 5)))
    result = router.route(problem, RULES)
    assert result.failed == () and joined(result, problem, "A")
    assert len(result.tracks) == 1 and not result.vias
    assert 12.0 <= result.length() <= 14.0          # from inside one pad to inside the other
    assert clearance_errors(result, problem) == []


def test_a_wall_of_netless_copper_on_the_front_is_passed_on_the_back_with_two_vias() -> None:
    wall = Obstacle(Shape("segment", (10, 0.8), (10, 9.2), 0.25), FRONT)
    problem = Problem((0, 0, 20, 10), (smd("A", 3, 5), smd("A", 17, 5)), (wall,))
    result = router.route(problem, RULES)
    assert result.failed == () and joined(result, problem, "A")
    assert len(result.vias) == 2
    assert {t.layer for t in result.tracks} == {F_CU, B_CU}
    assert clearance_errors(result, problem) == []


def test_a_wall_on_both_layers_leaves_the_net_unrouted_and_says_so() -> None:
    wall = Obstacle(Shape("rect", (10, 5), (0.5, 5)), BOTH)
    problem = Problem((0, 0, 20, 10), (smd("A", 3, 5), smd("A", 17, 5), smd("B", 3, 8), smd("B", 6, 8)), (wall,))
    result = router.route(problem, RULES)
    assert result.failed == ("A",)
    assert joined(result, problem, "B")
    assert not any(t.net == "A" for t in result.tracks)


def test_a_net_with_one_pad_walled_in_still_joins_the_others_and_says_it_is_unfinished() -> None:
    """The walled-in pad is the net's first (the router's usual start): the rest are joined from another one."""
    box = (Obstacle(Shape("rect", (3, 2.6), (1.6, 0.2)), BOTH), Obstacle(Shape("rect", (3, 7.4), (1.6, 0.2)), BOTH),
           Obstacle(Shape("rect", (1.2, 5), (0.2, 2.6)), BOTH), Obstacle(Shape("rect", (4.8, 5), (0.2, 2.6)), BOTH))
    pads = (smd("A", 3, 5), smd("A", 10, 5), smd("A", 17, 5))
    problem = Problem((0, 0, 20, 10), pads, box)
    result = router.route(problem, RULES)
    assert result.failed == ("A",)
    assert joined(result, Problem(problem.box, pads[1:], box), "A")
    assert clearance_errors(result, problem) == []


def test_crossing_nets_keep_the_clearance_and_both_connect() -> None:
    pads = (tht("A", 3, 10), tht("A", 17, 10), tht("B", 10, 3), tht("B", 10, 17))
    problem = Problem((0, 0, 20, 20), pads)
    result = router.route(problem, RULES)
    assert result.failed == ()
    assert joined(result, problem, "A") and joined(result, problem, "B")
    assert result.vias or {t.layer for t in result.tracks if t.net == "A"} != {t.layer for t in result.tracks
                                                                               if t.net == "B"}
    assert clearance_errors(result, problem) == []


def test_a_track_passes_between_fine_pitch_pads_only_where_the_clearance_allows() -> None:
    """Pads 0.65 mm apart (0.4 wide): a 0.25 mm track may not squeeze between two of them."""
    row = tuple(smd(f"N{i}", 10, 4 + 0.65 * i, 1.5, 0.4) for i in range(10))
    problem = Problem((0, 0, 20, 14), (*row, smd("A", 3, 7), smd("A", 17, 7)))
    result = router.route(problem, RULES)
    assert joined(result, problem, "A")
    assert clearance_errors(result, problem) == []


def test_a_multi_pad_net_is_one_tree_and_junctions_are_track_ends() -> None:
    pads = tuple(smd("GND", x, y) for x, y in ((3, 3), (17, 3), (10, 12), (3, 12)))
    problem = Problem((0, 0, 20, 15), pads, power=frozenset({"GND"}))
    result = router.route(problem, RULES)
    assert result.failed == () and joined(result, problem, "GND")
    assert {t.width for t in result.tracks} == {RULES.power_track}
    assert clearance_errors(result, problem) == []


def test_a_blocking_net_is_ripped_up_and_both_are_routed() -> None:
    """B (shorter, routed first) runs across the board on the front, its preferred layer; A's pads are
    front-only and the back is closed but for a strip too narrow for A's vias. A can only pass if B
    moves to the back strip: B is ripped up and routed again after A."""
    back = frozenset({B_CU})
    walls = (Obstacle(Shape("rect", (1.1, 11), (1.1, 0.3)), BOTH),
             Obstacle(Shape("rect", (10.9, 11), (1.1, 0.3)), BOTH),
             Obstacle(Shape("rect", (6, 5), (6, 5)), back), Obstacle(Shape("rect", (6, 17), (6, 5)), back))
    pads = (smd("A", 6, 1.5), smd("A", 6, 20.5), tht("B", 3, 11), tht("B", 9, 11))
    problem = Problem((0, 0, 12, 22), pads, walls)
    result = router.route(problem, RULES)
    assert result.failed == () and result.ripped >= 1
    assert joined(result, problem, "A") and joined(result, problem, "B")
    assert {t.layer for t in result.tracks if t.net == "B"} == {B_CU}
    assert clearance_errors(result, problem) == []


def test_nets_are_routed_shortest_first() -> None:
    pads = (smd("LONG", 1.5, 1.5), smd("LONG", 18, 18), smd("SHORT", 5, 5), smd("SHORT", 7, 5))
    assert router.net_order(Problem((0, 0, 20, 20), pads)) == ["SHORT", "LONG"]


def test_the_nets_named_first_are_routed_before_the_shortest() -> None:
    pads = (smd("BUS", 1.5, 1.5), smd("BUS", 18, 18), smd("SHORT", 5, 5), smd("SHORT", 7, 5))
    assert router.net_order(Problem((0, 0, 20, 20), pads), ("BUS", "ABSENT")) == ["BUS", "SHORT"]


def test_a_path_is_reduced_to_its_corners_and_layer_changes() -> None:
    cells = [(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 3, 1), (0, 4, 2), (1, 4, 2), (1, 4, 3), (1, 4, 4)]
    assert router.simplify(cells) == [(0, 0, 0), (0, 2, 0), (0, 4, 2), (1, 4, 2), (1, 4, 4)]


def test_the_nets_named_last_are_routed_after_all_others() -> None:
    pads = (smd("GND", 1.5, 1.5), smd("GND", 3, 1.5), smd("SHORT", 5, 5), smd("SHORT", 7, 5),
            smd("LONG", 1.5, 10), smd("LONG", 18, 18))
    assert router.net_order(Problem((0, 0, 20, 20), pads), last=("GND",)) == ["SHORT", "LONG", "GND"]


def test_pads_joined_by_fixed_copper_are_not_joined_again() -> None:
    """A switch's sources joined by a fixed track and via (given as copper that is not a terminal): the router
    leaves the net alone, where it would otherwise lay a second track between the two pads."""
    s1, s2 = tht("S", 5, 5), tht("S", 15, 5)
    fixed = (Pad("S", Shape("segment", (5, 5), (10, 5), 0.125), FRONT, terminal=False),
             Pad("S", Shape("circle", (10, 5), r=0.3), BOTH, drill=0.3, terminal=False),
             Pad("S", Shape("segment", (10, 5), (15, 5), 0.125), frozenset({B_CU}), terminal=False))
    problem = Problem((0, 0, 20, 10), (s1, s2, *fixed))
    settled = router.settle_fixed(problem)
    assert [p.terminal for p in settled.pads[:2]] == [True, False]
    result = router.route(problem, RULES)
    assert result.tracks == () and result.failed == () and result.nets == 0
    loose = Problem((0, 0, 20, 10), (s1, s2, fixed[0]))         # the via missing: pad 2 still to join
    assert router.route(loose, RULES).nets == 1


def test_cells_nets_fought_over_cost_more_and_the_next_search_goes_round_them() -> None:
    """Negotiated congestion: where a net's path ran over another net's track, the cells keep a history cost
    (Rules.history); once that net is ripped up, the next search avoids those cells if it can go round."""
    a, b = smd("A", 3, 5), smd("A", 17, 5)
    rules = Rules(pitch=0.25, history=4.0)
    grid = router.Grid(Problem((0, 0, 20, 10), (a, b)), rules)
    nid = grid.ids["A"]
    goal = [b.shape.centre()]
    straight = grid.search(nid, 0, grid.terminals(a, 0), set(grid.terminals(b, 0)), goal)
    assert straight is not None
    other = [s for s in straight if 36 <= (s % grid.n) % grid.nx <= 44]        # a track of another net on it
    grid.draw(99, other, rules.track)
    grid.contest(nid, straight, 0, rules.history)
    contested = {s for s in straight if grid.history[s // grid.n][s % grid.n] > 0}
    assert contested and len(contested) < len(straight)
    grid.clear_dynamic()                                                       # the other net ripped up
    again = grid.search(nid, 0, grid.terminals(a, 0), set(grid.terminals(b, 0)), goal)
    assert again is not None and not contested & set(again)
    assert all(grid.history[s // grid.n][s % grid.n] == 0 for s in again)
