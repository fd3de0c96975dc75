"""Copper that leads nowhere, taken off: the ends :mod:`route_repair` leaves where it cuts a net's tracks.

A track end that touches no other copper of its net on its layer (a pad, a track, a via) is cut
back to the last place where something touches the track, or the track is taken off whole when
nothing does; a via that no copper reaches on one of its layers is taken off too. Repeated until
nothing changes: taking one piece off can leave another end bare. KiCad's check calls these
"dangling" (a warning there; here a stub of copper on a signal is also an antenna).
"""

from __future__ import annotations

import math

from route_geometry import Point, Shape, point_segment
from route_model import B_CU, F_CU, Pad, Track, Via

EPS = 1e-6


def _at(a: Point, b: Point, t: float) -> Point:
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


def _along(a: Point, b: Point, p: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    return 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))


def _shape(item: Track | Via | Pad) -> Shape:
    if isinstance(item, Track):
        return Shape("segment", item.a, item.b, item.width / 2)
    if isinstance(item, Via):
        return Shape("circle", item.at, r=item.diameter / 2)
    return item.shape


def _layers(item: Track | Via | Pad) -> frozenset[int]:
    if isinstance(item, Track):
        return frozenset({item.layer})
    if isinstance(item, Via):
        return frozenset({F_CU, B_CU})
    return item.layers


def _touches_point(item: Track | Via | Pad, p: Point, loose: bool) -> bool:
    """Does a track ending at ``p`` join the item? A track of the first pass joined what it was routed to: a
    track's centreline, a via's centre, the inside of a pad or fixed copper; a ``loose`` one (of the second
    pass) ended anywhere in the copper it was given as fixed, the first pass's tracks and vias among it."""
    if loose or isinstance(item, Pad):
        return _shape(item).distance(*p) <= EPS
    if isinstance(item, Track):
        return point_segment(*p, item.a, item.b) <= EPS
    return math.dist(p, item.at) <= EPS


def _marks(track: Track, others: list[Track | Via | Pad]) -> list[float]:
    """Where along the track (0 at ``a``, 1 at ``b``) other copper of its net on its layer meets it: a track's
    end on it, a via or a pad over its centreline."""
    seg = _shape(track)
    out = []
    for o in others:
        if track.layer not in _layers(o):
            continue
        if isinstance(o, Track):
            out += [_along(track.a, track.b, q) for q in (o.a, o.b) if seg.distance(*q) <= EPS]
        else:
            t = _along(track.a, track.b, _shape(o).centre())
            if _shape(o).distance(*_at(track.a, track.b, t)) <= EPS:
                out.append(t)
    return out


class _Index:
    """The copper of one net bucketed by millimetre, for "what touches this point"."""

    def __init__(self, items: list[Track | Via | Pad]) -> None:
        self.buckets: dict[tuple[int, int], list[int]] = {}
        self.items = items
        for i, item in enumerate(items):
            x0, y0, x1, y1 = _shape(item).box()
            for bx in range(math.floor(x0), math.floor(x1) + 1):
                for by in range(math.floor(y0), math.floor(y1) + 1):
                    self.buckets.setdefault((bx, by), []).append(i)

    def near(self, p: Point, layer: int, but: int) -> list[Track | Via | Pad]:
        """The copper on ``layer`` (but item ``but``) whose box holds the point's bucket."""
        return [self.items[i] for i in self.buckets.get((math.floor(p[0]), math.floor(p[1])), [])
                if i != but and layer in _layers(self.items[i])]

    def over(self, item: Track | Via, but: int) -> list[Track | Via | Pad]:
        """The copper whose box shares a bucket with the item's, on a layer of the item."""
        x0, y0, x1, y1 = _shape(item).box()
        seen: set[int] = set()
        for bx in range(math.floor(x0), math.floor(x1) + 1):
            for by in range(math.floor(y0), math.floor(y1) + 1):
                seen.update(self.buckets.get((bx, by), []))
        seen.discard(but)
        return [self.items[i] for i in sorted(seen) if _layers(item) & _layers(self.items[i])]


def _trimmed(i: int, tr: Track, index: _Index, loose: bool) -> Track | bool | None:
    """The track cut back to where copper meets it (None: taken off; True: both ends meet copper already). A
    track whose ends meet one and the same piece and nothing else (a stub left inside a pad) joins nothing."""
    at_a = [id(o) for o in index.near(tr.a, tr.layer, i) if _touches_point(o, tr.a, loose)]
    at_b = [id(o) for o in index.near(tr.b, tr.layer, i) if _touches_point(o, tr.b, loose)]
    if len(at_a) == 1 and at_a == at_b:
        return None
    bare_a, bare_b = not at_a, not at_b
    if not (bare_a or bare_b):
        return True
    marks = _marks(tr, index.over(tr, i))
    lo = min(marks, default=None) if bare_a else 0.0
    hi = max(marks, default=None) if bare_b else 1.0
    if lo is None or hi is None or math.dist(_at(tr.a, tr.b, lo), _at(tr.a, tr.b, hi)) <= EPS:
        return None
    return Track(tr.net, tr.layer, _at(tr.a, tr.b, lo), _at(tr.a, tr.b, hi), tr.width)


def _reached(via: Via, others: list[Track | Via | Pad]) -> set[int]:
    """The layers on which copper reaches the via (a track's end in it, a pad or copper over its centre)."""
    circle = _shape(via)
    out: set[int] = set()
    for o in others:
        if isinstance(o, Track):
            w = o.width / 2 + EPS
            if circle.distance(*o.a) <= w or circle.distance(*o.b) <= w or point_segment(*via.at, o.a, o.b) <= w:
                out.add(o.layer)
        elif _shape(o).distance(*via.at) <= EPS:
            out |= _layers(o)
    return out


def _prune_net(fixed: list[Pad], tracks: list[Track], vias: list[Via],
               new: frozenset[Track]) -> tuple[list[Track], list[Via]]:
    while True:
        items: list[Track | Via | Pad] = [*tracks, *vias, *fixed]
        index = _Index(items)
        new_tracks: list[Track] = []
        for i, tr in enumerate(tracks):
            cut = _trimmed(i, tr, index, tr in new)
            if cut is True:
                new_tracks.append(tr)
            elif isinstance(cut, Track):
                new_tracks.append(cut)
                if tr in new:
                    new = new | {cut}
        new_vias = [v for j, v in enumerate(vias)
                    if _reached(v, index.over(v, len(tracks) + j)) == {F_CU, B_CU}]
        if new_tracks == tracks and new_vias == vias:
            return tracks, vias
        tracks, vias = new_tracks, new_vias


def prune(pads: tuple[Pad, ...], tracks: tuple[Track, ...], vias: tuple[Via, ...], nets: set[str],
          new: frozenset[Track] = frozenset()) -> tuple[tuple[Track, ...], tuple[Via, ...]]:
    """The routed tracks and vias without the copper of ``nets`` that leads nowhere (``pads``: the board's
    pads and fixed copper, which stay; ``new``: the tracks of a second pass, see :func:`_touches_point`)."""
    kept_t = [t for t in tracks if t.net not in nets]
    kept_v = [v for v in vias if v.net not in nets]
    for net in sorted(nets):
        fixed = [p for p in pads if p.net == net]
        t, v = _prune_net(fixed, [t for t in tracks if t.net == net], [v for v in vias if v.net == net], new)
        kept_t += t
        kept_v += v
    return tuple(kept_t), tuple(kept_v)


__all__ = ["prune"]
