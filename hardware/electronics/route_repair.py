"""The router's second pass: room for a connection the first pass left walled in.

:func:`router.route` routes the whole board net by net, and a net routed early can close in a pad
that a later net needs (at a fine-pitch chip, a track that has to bend round a supply pin's via
runs across its neighbour's way out). Ripping up and routing the whole board again gives another
board with other connections left: every change to the order or the fixed copper reshuffles it.

:func:`repair` works where the connection was lost and nowhere else:

1. the pads the first pass could not join to the rest of their net (:func:`unreached`);
2. around each, every routed track and via within ``reach`` of its centre is taken up, and so is
   the fixed copper within :data:`FIXED_REACH` of its edge (a supply pin's fan-out via in front of
   it) with all the fixed copper chained to that; ``Result.lifted`` names it for the board;
3. everything else on the board becomes fixed copper, so that only the nets that lost copper
   there have pads (or pieces of their own copper) left to join;
4. those are routed again on that board: the failed nets first, the supplies and the nets
   ``Rules.last`` names after, with the first pass's rip-up among them.

5. what the cut leaves leading nowhere is taken off (:mod:`route_prune`).

Each of :data:`REACHES` is tried in turn while something is left; a result is kept only when it
leaves fewer nets unjoined. Like the first pass it is deterministic: the same problem gives the
same board.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable
from dataclasses import replace

from route_geometry import Shape
from route_model import B_CU, F_CU, Pad, Problem, Result, Rules, Track, Via, fixed_groups, touch
from route_prune import prune
from router import route

REACH = 3.0              # mm round an unreached pad's centre: the routed copper there is taken up...
REACHES = (REACH, 4.0, 5.0)   # ...or further, tried in turn while something is left
FIXED_REACH = 1.0        # mm from an unreached pad's copper to fixed copper taken up (a fan-out in front of it)
DEBUG = bool(os.environ.get("ROUTER_DEBUG"))


def as_copper(tracks: tuple[Track, ...], vias: tuple[Via, ...]) -> list[Pad]:
    """Routed tracks and vias as fixed copper of their nets (pads that are not terminals)."""
    out = [Pad(t.net, Shape("segment", t.a, t.b, t.width / 2), frozenset({t.layer}), terminal=False)
           for t in tracks]
    out += [Pad(v.net, Shape("circle", v.at, r=v.diameter / 2), frozenset({F_CU, B_CU}), v.drill, terminal=False)
            for v in vias]
    return out


def unreached(problem: Problem, result: Result) -> list[Pad]:
    """The terminal pads of the failed nets that the routed copper does not join to the largest
    group of their net (the pads a connection is still missing at); all of a net's pads when no group of
    two or more is larger than the others."""
    joined = Problem(problem.box, problem.pads + tuple(as_copper(result.tracks, result.vias)),
                     problem.obstacles, problem.power)
    _, groups = fixed_groups(joined)
    terminals = {p for p in problem.pads if p.terminal}
    by_net: dict[str, list[list[Pad]]] = {}
    for head, members in groups.items():
        if head.net in result.failed:
            by_net.setdefault(head.net, []).append([m for m in members if m in terminals])
    out: list[Pad] = []
    for parts in by_net.values():
        parts.sort(key=len, reverse=True)          # stable: ties keep the pads' order
        whole = len(parts[0]) > 1 and (len(parts) == 1 or len(parts[0]) > len(parts[1]))
        for part in parts[1:] if whole else parts:  # no group larger than the others: every pad is left
            out += part
    return out


def _near(pad: Pad, places: list[Pad], reach: float) -> bool:
    """Is the copper within ``reach`` of a place's centre?"""
    return any(pad.shape.distance(*p.shape.centre()) <= reach for p in places)


def _gap(piece: Pad, place: Pad) -> float:
    """From the edge of a piece of fixed copper (a track or a via) to the edge of a pad, near enough (the track's
    centreline sampled every 0.05 mm)."""
    s = piece.shape
    if s.kind != "segment":
        return place.shape.distance(*s.centre()) - s.r
    steps = max(1, int(math.dist(s.a, s.b) / 0.05))
    return min(place.shape.distance(s.a[0] + (s.b[0] - s.a[0]) * k / steps, s.a[1] + (s.b[1] - s.a[1]) * k / steps)
               for k in range(steps + 1)) - s.r


def _chained(fixed: list[Pad], seeds: list[int]) -> set[int]:
    """The fixed copper touching the seeds on their net, transitively (a fan-out's track and its via)."""
    taken, todo = set(seeds), list(seeds)
    while todo:
        i = todo.pop()
        for j, q in enumerate(fixed):
            if j not in taken and q.net == fixed[i].net and touch(fixed[i], q):
                taken.add(j)
                todo.append(j)
    return taken


def repair(problem: Problem, result: Result, rules: Rules,
           progress: Callable[[int, int, str], None] | None = None) -> Result:
    """The first pass's result with the copper round its unreached pads routed again (see the module's text),
    taken up within each of :data:`REACHES` in turn until nothing is left unjoined; the first pass's result
    itself when none leaves fewer nets unjoined."""
    places = unreached(problem, result) if result.failed else []
    best = result
    for reach in REACHES:
        if not best.failed or not places:
            break
        again = reroute(problem, result, rules, reach, places, progress)
        if DEBUG:
            print(f"repair within {reach} mm: left {again.failed}", file=sys.stderr)
        if len(again.failed) < len(best.failed):
            best = again
    return best


def reroute(problem: Problem, result: Result, rules: Rules, reach: float = REACH, places: list[Pad] | None = None,
            progress: Callable[[int, int, str], None] | None = None) -> Result:
    """The board with the copper round the unreached pads (``places``: :func:`unreached`'s, found when not given)
    taken up and routed again: the routed copper within ``reach`` of their centres, the fixed copper within
    :data:`FIXED_REACH` of their edges (and what it chains)."""
    if places is None:
        places = unreached(problem, result)
    if not places:
        return result
    fixed = [p for p in problem.pads if not p.terminal]
    lifted_fixed = _chained(fixed, [i for i, p in enumerate(fixed) if any(_gap(p, q) <= FIXED_REACH for q in places)])
    lifted = tuple(fixed[i] for i in sorted(lifted_fixed))
    taken_t = [_near(c, places, reach) for c in as_copper(result.tracks, ())]
    taken_v = [_near(c, places, reach) for c in as_copper((), result.vias)]
    keep_tracks = tuple(t for t, taken in zip(result.tracks, taken_t, strict=True) if not taken)
    keep_vias = tuple(v for v, taken in zip(result.vias, taken_v, strict=True) if not taken)
    board = tuple(p for p in problem.pads if p.terminal) + \
        tuple(p for i, p in enumerate(fixed) if i not in lifted_fixed)
    again = Problem(problem.box, board + tuple(as_copper(keep_tracks, keep_vias)), problem.obstacles, problem.power)
    failed = tuple(sorted(result.failed))
    supplies = tuple(sorted(n for n in problem.power if n not in failed and n not in rules.last))
    second = route(again, replace(rules, first=failed, last=supplies + tuple(n for n in rules.last if n not in failed)),
                   progress)
    touched = {p.net for p in lifted} | {t.net for t, taken in zip(result.tracks, taken_t, strict=True) if taken} | \
        {v.net for v, taken in zip(result.vias, taken_v, strict=True) if taken} | {t.net for t in second.tracks}
    tracks, vias = prune(board, keep_tracks + second.tracks, keep_vias + second.vias, touched,
                         frozenset(second.tracks))
    return Result(tracks, vias, second.failed, result.nets, result.ripped + second.ripped, result.lifted + lifted)


__all__ = ["FIXED_REACH", "REACH", "REACHES", "as_copper", "repair", "reroute", "unreached"]
