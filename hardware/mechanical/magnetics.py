"""The bid rack's slot pitch and magnet lanes, derived from the reed switch's sensitivity and the magnet.

Standard library only (``make hardware`` prints the figures; the CAD model reads the pitch
from here). The model, and what it assumes:

- **The magnet** (diagrams.toml ``[bid_rack]``: an NdFeB rod, ``magnet_diameter`` x
  ``magnet_length``, axially magnetised, remanence ``magnet_br_t``) is two magnetic
  charges ``±q = ±Br/µ0 · πr²`` at its end faces (the Gilbert model, good for a rod several
  diameters long). Its scalar potential at distance ``d`` from a charge is ``q / (4π d)``.
- **The reed** lies parallel to the magnet, ``depth`` below it. What closes a reed is the
  magnetomotive force along its blades: the line integral of H from one end of the glass to
  the other, which is the potential difference between its two ends and is measured in
  ampere-turns, the unit of the datasheet's pull-in and release figures. The stated AT come
  from the maker's test coil, so the comparison is an estimate (Littelfuse's application
  note on AT and mT calls the conversion good to a factor of about 2): the design keeps
  margins both ways, and the box's test (bidding-box.md) checks it on the bench.
- **A reed must close** when its own card is in, whatever the other 34 cards do:
  own + stray ≥ ``CLOSE_MARGIN`` x the band's highest pull-in.
- **A reed must open** when its card is pulled with every other card in: the stray MMF of
  all the other magnets ≤ the lowest release / ``RELEASE_MARGIN``. This is the binding rule:
  a reed held closed by its neighbours would hide the pull.

The stray field comes mostly from the magnets in the **neighbouring lanes** of the next
slots, which lie nearly end to end with the reed, where a rod's field is strongest. So the
derivation also orders the lanes: with the denominations' natural order (C D H S NT left to
right) each slot's neighbour sits one lane over; with ``LANE_ORDER`` (C S D NT H) it sits
two lanes over, which lets the pitch shrink by about half. The pitch is the smallest, in
0.1 mm steps, from the mechanical minimum (card + magnet + clearance + the thinnest wall)
up, that meets both rules.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOML = HERE.parent / "diagrams" / "diagrams.toml"
MU0 = 4e-7 * math.pi
DENOMINATIONS = ("C", "D", "H", "S", "NT")
NATURAL_ORDER = DENOMINATIONS
CLOSE_MARGIN = 1.2       # own MMF over the band's highest pull-in
RELEASE_MARGIN = 1.5     # the band's lowest release over the stray MMF
MIN_WALL_MM = 1.2        # the thinnest divider a printer or 1.2 mm acrylic gives reliably


@dataclass(frozen=True)
class Rack:
    """What the derivation needs, in millimetres, amperes-turns and tesla."""

    slots: int
    gap: float                 # slot gap front to back: card + magnet + clearance
    lane_width: float
    depth: float               # magnet axis to reed axis, vertically
    magnet_diameter: float
    magnet_length: float
    magnet_br_t: float
    reed_length: float
    pull_in_at: tuple[float, float]
    release_at_min: float
    lane_order: tuple[str, ...]


@dataclass(frozen=True)
class Figures:
    pitch: float
    own_min_at: float          # the weakest reed's MMF with its card in (own magnet and the rest)
    stray_max_at: float        # the worst reed's MMF from the other magnets, its own card out
    worst_slot: int

    def closes(self, rack: Rack) -> bool:
        return self.own_min_at >= CLOSE_MARGIN * rack.pull_in_at[1]

    def opens(self, rack: Rack) -> bool:
        return self.stray_max_at * RELEASE_MARGIN <= rack.release_at_min


def load(path: Path = TOML) -> Rack:
    with path.open("rb") as f:
        src = tomllib.load(f)
    card, r = src["card"], src["bid_rack"]
    depth = r["magnet_above_foot"] + r["magnet_diameter"] / 2 + r["floor"] + r["reed_diameter"] / 2
    order = tuple(r["lane_order"])
    if sorted(order) != sorted(DENOMINATIONS):
        raise ValueError(f"diagrams.toml: lane_order {order} is not the five denominations once each")
    return Rack(slots=int(r["slots"]), gap=float(r["gap"]), lane_width=card["width"] / r["lanes"], depth=depth,
                magnet_diameter=float(r["magnet_diameter"]), magnet_length=float(r["magnet_length"]),
                magnet_br_t=float(r["magnet_br_t"]), reed_length=float(r["reed_length"]),
                pull_in_at=(float(r["reed_pull_in_at"][0]), float(r["reed_pull_in_at"][1])),
                release_at_min=float(r["reed_release_at_min"]), lane_order=order)


def lane_of(rack: Rack, slot: int) -> int:
    """The lane (0 = leftmost) of bid slot ``slot`` (1C = 0, 1D = 1, ... 7NT = 34)."""
    return rack.lane_order.index(DENOMINATIONS[slot % 5])


def _potential(rack: Rack, point: tuple[float, float, float], magnet: tuple[float, float, float]) -> float:
    """The magnet's scalar potential (amperes) at ``point``; lengths in mm, the magnet's axis along x."""
    q = rack.magnet_br_t / MU0 * math.pi * (rack.magnet_diameter / 2 * 1e-3) ** 2
    v = 0.0
    for sign in (1, -1):
        pole = (magnet[0] + sign * rack.magnet_length / 2, magnet[1], magnet[2])
        v += sign * q / (4 * math.pi * math.dist(point, pole) * 1e-3)
    return v


def reed_mmf(rack: Rack, reed: tuple[float, float, float], magnets: list[tuple[float, float, float]]) -> float:
    """The magnetomotive force (ampere-turns) the magnets drive along a reed centred at ``reed``."""
    half = rack.reed_length / 2
    a, b = (reed[0] - half, reed[1], reed[2]), (reed[0] + half, reed[1], reed[2])
    return sum(_potential(rack, a, m) - _potential(rack, b, m) for m in magnets)


def figures(rack: Rack, pitch: float) -> Figures:
    """Own and stray MMF of every reed of the rack at ``pitch``: the weakest own, the worst stray."""
    magnets = [((lane_of(rack, i) + 0.5) * rack.lane_width, i * pitch, 0.0) for i in range(rack.slots)]
    own_min, stray_max, worst = math.inf, 0.0, 0
    for i, m in enumerate(magnets):
        reed = (m[0], m[1], -rack.depth)
        others = magnets[:i] + magnets[i + 1:]
        own, stray = reed_mmf(rack, reed, [m]), reed_mmf(rack, reed, others)
        with_card = own + stray if (own + stray) * own > 0 else 0.0
        own_min = min(own_min, abs(with_card))
        if abs(stray) > stray_max:
            stray_max, worst = abs(stray), i
    return Figures(pitch, own_min, stray_max, worst)


def derive_pitch(rack: Rack, limit: float = 10.0) -> Figures:
    """The smallest pitch (0.1 mm steps) from the mechanical minimum up at which every reed closes and opens."""
    pitch = math.ceil((rack.gap + MIN_WALL_MM) * 10 - 1e-9) / 10
    f = figures(rack, pitch)
    while pitch <= limit:
        f = figures(rack, pitch)
        if f.closes(rack) and f.opens(rack):
            return f
        pitch = round(pitch + 0.1, 1)
    if not f.closes(rack):
        raise ValueError(f"the magnet is too weak for the reed: {f.own_min_at:.1f} AT at the reed, "
                         f"{CLOSE_MARGIN} x {rack.pull_in_at[1]:g} AT needed (a longer or thicker magnet, "
                         "a thinner floor or a more sensitive reed band)")
    raise ValueError(f"no pitch up to {limit} mm keeps the stray field under the reed's release")


def report(rack: Rack | None = None) -> str:
    rack = rack or load()
    f = derive_pitch(rack)
    natural = figures(Rack(**{**rack.__dict__, "lane_order": NATURAL_ORDER}), f.pitch)
    return "\n".join([
        "Bid rack: slot pitch from the reed switch and the magnet (hardware/mechanical/magnetics.py)",
        f"  magnet  NdFeB rod {rack.magnet_diameter:g} x {rack.magnet_length:g} mm, Br {rack.magnet_br_t:g} T; "
        f"reed glass {rack.reed_length:g} mm, {rack.depth:g} mm under the magnet",
        f"  reed    pull-in {rack.pull_in_at[0]:g}-{rack.pull_in_at[1]:g} AT, release at least "
        f"{rack.release_at_min:g} AT (check the datasheet of the band you buy)",
        f"  lanes   {' '.join(rack.lane_order)} (left to right), {rack.lane_width:.1f} mm each",
        f"  pitch   {f.pitch:.1f} mm (gap {rack.gap:g} + wall {f.pitch - rack.gap:.1f}); "
        f"{rack.slots} slots take {rack.slots * f.pitch:.1f} mm",
        f"  close   weakest reed with its card in: {f.own_min_at:.1f} AT >= {CLOSE_MARGIN} x {rack.pull_in_at[1]:g}",
        f"  open    worst stray with its card out: {f.stray_max_at:.1f} AT (slot {f.worst_slot}) <= "
        f"{rack.release_at_min:g} / {RELEASE_MARGIN}",
        f"  lanes in the natural order at this pitch: stray {natural.stray_max_at:.1f} AT, "
        f"{'opens' if natural.opens(rack) else 'would hold reeds closed'}",
    ])


if __name__ == "__main__":
    print(report())
