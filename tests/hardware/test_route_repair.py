"""The router's second pass (hardware/electronics/route_repair.py) and its pruning (route_prune.py), on small
synthetic boards without KiCad: a pad walled in by a fan-out's via in front of it is reached once that copper
is taken up, and what the cut leaves leading nowhere is taken off."""

from __future__ import annotations

import route_prune
import route_repair
import router
from route_geometry import Shape
from router import B_CU, F_CU, Obstacle, Pad, Problem, Rules, Track, Via

from .test_router import clearance_errors, joined, smd

RULES = Rules(pitch=0.25, max_expansions=200_000)
BOTH = frozenset({F_CU, B_CU})
FRONT = frozenset({F_CU})


def walled_in() -> Problem:
    """Pad A at the bottom of a corridor (netless walls on both layers, as a fine-pitch chip's neighbours are),
    and V's fan-out via laid in the corridor's mouth: fixed copper the first pass cannot move, which leaves
    A no way out. V's own pads are beyond it, A's other pad at the top."""
    walls = (Obstacle(Shape("rect", (9.4, 2.0), (0.05, 1.6)), BOTH),
             Obstacle(Shape("rect", (10.6, 2.0), (0.05, 1.6)), BOTH))
    fan_out = (Pad("V", Shape("circle", (10.0, 3.1), r=0.3), BOTH, drill=0.3, terminal=False),
               Pad("V", Shape("segment", (10.0, 3.1), (12.5, 3.1), 0.125), FRONT, terminal=False))
    pads = (smd("A", 10.0, 1.5, 0.3, 0.9), smd("A", 10.0, 9.0), smd("V", 12.5, 3.1, 0.6, 0.6), smd("V", 3.0, 8.0))
    return Problem((0, 0, 20, 11), pads + fan_out, walls)


def without(problem: Problem, lifted: tuple[Pad, ...]) -> Problem:
    return Problem(problem.box, tuple(p for p in problem.pads if p not in lifted), problem.obstacles, problem.power)


def test_a_pad_walled_in_by_a_fan_out_is_reached_once_the_copper_round_it_is_taken_up() -> None:
    problem = walled_in()
    first = router.route(problem, RULES)
    assert first.failed == ("A",)
    assert [p.name for p in route_repair.unreached(problem, first)] == ["A@10.0,1.5", "A@10.0,9.0"]   # nothing joined
    again = route_repair.repair(problem, first, RULES)
    assert again.failed == ()
    assert {p.shape.kind for p in again.lifted} == {"circle", "segment"}          # the fan-out's via and track
    board = without(problem, again.lifted)
    assert joined(again, board, "A") and joined(again, board, "V")
    assert clearance_errors(again, board, RULES) == []


def test_the_repair_keeps_the_first_pass_when_it_cannot_do_better() -> None:
    """A wall on both layers round the pad: nothing to take up there helps, and the first pass's board stays."""
    box = (Obstacle(Shape("rect", (10, 1.0), (1.0, 0.1)), BOTH), Obstacle(Shape("rect", (10, 3.0), (1.0, 0.1)), BOTH),
           Obstacle(Shape("rect", (9.0, 2.0), (0.1, 1.1)), BOTH),
           Obstacle(Shape("rect", (11.0, 2.0), (0.1, 1.1)), BOTH))
    problem = Problem((0, 0, 20, 11), (smd("A", 10.0, 2.0, 0.4, 0.4), smd("A", 10.0, 9.0)), box)
    first = router.route(problem, RULES)
    assert first.failed == ("A",)
    assert route_repair.repair(problem, first, RULES) is first


def test_a_board_with_nothing_left_is_not_routed_again() -> None:
    problem = Problem((0, 0, 20, 10), (smd("A", 3, 5), smd("A", 17, 5)))
    first = router.route(problem, RULES)
    assert route_repair.repair(problem, first, RULES) is first


def test_a_stub_beyond_a_junction_is_taken_off_and_the_joins_stay() -> None:
    p, q = smd("A", 2, 5), smd("A", 18, 5)
    tracks = (Track("A", F_CU, (2, 5), (10, 5), 0.25), Track("A", F_CU, (10, 5), (18, 5), 0.25),
              Track("A", F_CU, (10, 5), (10, 8), 0.25))           # leads nowhere
    kept, vias = route_prune.prune((p, q), tracks, (), {"A"})
    assert kept == tracks[:2] and vias == ()


def test_a_cut_track_is_shortened_to_where_a_new_track_meets_it() -> None:
    """The first pass's track ran on past the point where the second pass joined it: cut back to that point."""
    p, q = smd("A", 2, 5), smd("A", 10, 9)
    old = Track("A", F_CU, (2, 5), (16, 5), 0.25)                 # its far end's partner was taken up
    new = Track("A", F_CU, (10, 9), (10, 5), 0.25)
    kept, _ = route_prune.prune((p, q), (old, new), (), {"A"}, frozenset({new}))
    assert set(kept) == {Track("A", F_CU, (2, 5), (10, 5), 0.25), new}


def test_a_via_reached_on_one_layer_only_is_taken_off_with_its_track() -> None:
    p = smd("A", 2, 5)
    tracks = (Track("A", F_CU, (2, 5), (8, 5), 0.25),)
    vias = (Via("A", (8, 5), 0.6, 0.3),)
    assert route_prune.prune((p,), tracks, vias, {"A"}) == ((), ())


def test_a_new_track_ending_in_old_copper_off_its_centreline_is_joined_to_it() -> None:
    """The second pass may end a track anywhere inside the first pass's copper (its fixed copper then): inside
    a wide supply track, off its centreline, is a join and stays; an old track's end there would not be."""
    p, q = smd("V", 2, 5), smd("V", 18, 5)
    wide = Track("V", F_CU, (2, 5), (18, 5), 0.4)
    new = Track("V", F_CU, (10, 9), (10, 5.125), 0.25)
    r = smd("V", 10, 9)
    kept, _ = route_prune.prune((p, q, r), (wide, new), (), {"V"}, frozenset({new}))
    assert set(kept) == {wide, new}
    old_stub = Track("V", F_CU, (10, 9), (10, 5.125), 0.25)       # the same, but the first pass's
    kept, _ = route_prune.prune((p, q), (wide, old_stub), (), {"V"})
    assert kept == (wide,)


def test_a_piece_left_inside_a_pad_with_nothing_else_on_it_is_taken_off() -> None:
    """The cut may leave the first few cells of a track inside the pad it started from: KiCad calls that
    dangling, and it joins nothing."""
    p = smd("A", 2, 5, 2.0, 2.0)
    inside = Track("A", F_CU, (2, 5), (2.5, 5), 0.25)
    assert route_prune.prune((p,), (inside,), (), {"A"}) == ((), ())
