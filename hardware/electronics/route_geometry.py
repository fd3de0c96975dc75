"""The router's geometry: copper shapes, their distance to a point, and their spans along a grid row.

Pure functions, no KiCad (``router.py`` uses them to draw copper into its grid).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True)
class Shape:
    """Copper (or a hole): ``rect`` (centre a, half sizes b), ``circle`` (centre a, radius r),
    ``segment`` (from a to b, half width r)."""

    kind: str
    a: Point
    b: Point = (0.0, 0.0)
    r: float = 0.0

    def distance(self, x: float, y: float) -> float:
        """From the point to the shape's edge, 0 or less inside."""
        if self.kind == "rect":
            dx = abs(x - self.a[0]) - self.b[0]
            dy = abs(y - self.a[1]) - self.b[1]
            if dx <= 0 and dy <= 0:
                return max(dx, dy)
            return math.hypot(max(dx, 0.0), max(dy, 0.0))
        if self.kind == "circle":
            return math.hypot(x - self.a[0], y - self.a[1]) - self.r
        return point_segment(x, y, self.a, self.b) - self.r

    def box(self) -> tuple[float, float, float, float]:
        if self.kind == "rect":
            return (self.a[0] - self.b[0], self.a[1] - self.b[1], self.a[0] + self.b[0], self.a[1] + self.b[1])
        if self.kind == "circle":
            return (self.a[0] - self.r, self.a[1] - self.r, self.a[0] + self.r, self.a[1] + self.r)
        return (min(self.a[0], self.b[0]) - self.r, min(self.a[1], self.b[1]) - self.r,
                max(self.a[0], self.b[0]) + self.r, max(self.a[1], self.b[1]) + self.r)

    def centre(self) -> Point:
        if self.kind == "segment":
            return ((self.a[0] + self.b[0]) / 2, (self.a[1] + self.b[1]) / 2)
        return self.a


def point_segment(x: float, y: float, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / n))
    return math.hypot(x - ax - t * dx, y - ay - t * dy)


def _linear(a: float, b: float, lo: float, hi: float) -> tuple[float, float] | None:
    """The x where lo < a x + b < hi."""
    if abs(a) < 1e-12:
        return (-math.inf, math.inf) if lo < b < hi else None
    x0, x1 = (lo - b) / a, (hi - b) / a
    return (min(x0, x1), max(x0, x1))


def row_span(shape: Shape, radius: float, y: float) -> tuple[float, float] | None:
    """The x interval of the row at ``y`` closer than ``radius`` to the shape (its copper grown by
    ``radius`` is convex, so one interval), or None."""
    if shape.kind == "circle":
        rr = shape.r + radius
        dy = y - shape.a[1]
        if rr <= 0 or abs(dy) >= rr:
            return None
        w = math.sqrt(rr * rr - dy * dy)
        return (shape.a[0] - w, shape.a[0] + w)
    if shape.kind == "rect":
        (cx, cy), (hx, hy) = shape.a, shape.b
        dy = abs(y - cy) - hy
        if radius <= 0:
            if dy >= radius or hx + radius <= 0:
                return None
            return (cx - hx - radius, cx + hx + radius)
        if dy >= radius:
            return None
        w = hx + (radius if dy <= 0 else math.sqrt(radius * radius - dy * dy))
        return (cx - w, cx + w)
    rr = shape.r + radius
    if rr <= 0:
        return None
    (ax, ay), (bx, by) = shape.a, shape.b
    lo, hi = math.inf, -math.inf
    for px, py in ((ax, ay), (bx, by)):
        dy = y - py
        if abs(dy) < rr:
            w = math.sqrt(rr * rr - dy * dy)
            lo, hi = min(lo, px - w), max(hi, px + w)
    length = math.hypot(bx - ax, by - ay)
    if length > 0:
        ux, uy = (bx - ax) / length, (by - ay) / length
        along = _linear(ux, (y - ay) * uy - ax * ux, 0.0, length)
        across = _linear(-uy, (y - ay) * ux + ax * uy, -rr, rr)
        if along and across:
            x0, x1 = max(along[0], across[0]), min(along[1], across[1])
            if x0 < x1:
                lo, hi = min(lo, x0), max(hi, x1)
    return (lo, hi) if lo < hi else None
