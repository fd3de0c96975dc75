"""The pad board's antenna pads and their matching network, computed (hardware/electronics/README.md).

The reference is NXP's antenna design guide for the MFRC52x family (application note
AN1445, "Antenna design guide for MFRC52x, PN51x, PN53x"; AN11019 for the CLRC663 family
follows the same method). The method as this module applies it:

1. **The pad**: a square printed loop. Its inductance by the modified Wheeler formula for a
   square planar spiral (Mohan et al., 1999):
   ``L = K1 * mu0 * n^2 * d_avg / (1 + K2 * rho)``, K1 = 2.34, K2 = 2.75, ``d_avg`` the
   mean of the outer and inner side, ``rho`` the fill ratio ``(d_out - d_in) / (d_out + d_in)``.
   Its resistance at 13.56 MHz: the copper's length over the skin-depth ring of the trace.
2. **Quality factor**: the reader talks to the tag at 106 kbit/s with an 848 kHz subcarrier;
   AN1445 keeps the antenna's Q at about 30 or below so that the bandwidth passes them.
   The pad switches' on-resistance already lowers it; ``r_damp`` in each leg brings
   ``Q = w * L / R`` down to ``q_target`` (15: field strength traded for margin). At 0.2 ohm
   it is no part: the feed track from the bus to a pad (10-20 cm of 0.5 mm copper) has about
   that, so the board has no damping resistor and bring-up measures the Q it gets.
3. **EMC filter**: L0 and C0 on each TX output, a low-pass whose resonance
   ``1 / (2 pi sqrt(L0 C0))`` lies just above 13.56 MHz + 848 kHz (AN1445 places it at
   about 14.3-15 MHz). ``L0 = 1.0 uH`` is a stock 1210 inductor; C0 follows.
4. **Matching**: the circuit is symmetric (TX1 and TX2 are driven in antiphase, the pads'
   midpoints are a virtual ground), so one half is computed: TX -> L0 -> node (C0 to ground)
   -> series ``C1`` -> the pad bus (``C2`` to ground) -> each pad through its switch -> loop
   half ``(L/2, R/2 + r_damp)``. ``C1`` and ``C2`` are solved so that the impedance the TX
   pin sees is ``r_match / 2`` and purely resistive, with the 15 pads not selected on the
   same bus, each in series with its open switch's capacitance ``c_off``: they are the same
   15 branches whichever pad is on, so they are part of the shunt and C2 adds what they
   lack. ``max_c_off`` says how much off-capacitance the array tolerates: a switch that
   opens the loop (AN11314's way), not an RF multiplexer whose off ports still resonate.
   A first attempt with matching per pad (C1 and C2 on every pad, C2 switched to ground)
   fails this calculation: 15 pads' C1 (19 pF each) on the node are 15 times the shunt
   the match can take.
5. **Values**: rounded to the E12 series of C0G capacitors; the impedance with the rounded
   values is what the board gets, and the trimming step of bring-up (a VNA or the reader's
   field strength, hardware/electronics/README.md) corrects the rest.

Assumptions (stated, not measured): 2-layer FR-4, 35 um copper; pad 40 x 40 mm, 3 turns of
0.5 mm trace at 0.5 mm spacing; ``r_match`` 40 ohm differential (AN1445's range for the
MFRC522's TX drivers is about 20-60 ohm: lower draws more TVDD current); each pad switch
two onsemi BSS138 back to back (sources joined) at each loop end, gates driven at 5 V by a
74HCT595: about 1 ohm each on (2 ohm a switch), 13 pF each off (6.5 pF a switch), figures of
the datasheet's order of magnitude, not measured. None of it has been built: the first
board is measured (hardware/electronics/README.md, "Bring-up of a pad board").
"""

from __future__ import annotations

import cmath
import math
from dataclasses import dataclass, replace

MU0 = 4e-7 * math.pi
COPPER_RESISTIVITY = 1.72e-8   # ohm m at 20 C
CARRIER_HZ = 13.56e6
SUBCARRIER_HZ = 847.5e3
E12 = (1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2)
E24 = (1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.7, 3.0,
       3.3, 3.6, 3.9, 4.3, 4.7, 5.1, 5.6, 6.2, 6.8, 7.5, 8.2, 9.1)


@dataclass(frozen=True)
class Loop:
    """A square printed loop antenna (all lengths in metres)."""

    side: float = 0.040
    turns: int = 3
    trace: float = 0.5e-3
    gap: float = 0.5e-3
    copper: float = 35e-6

    def inner_side(self) -> float:
        inner = self.side - 2 * (self.turns * self.trace + (self.turns - 1) * self.gap)
        if inner <= 0:
            raise ValueError(f"{self.turns} turns of {self.trace * 1e3} mm do not fit in a "
                             f"{self.side * 1e3} mm pad")
        return inner

    def inductance(self) -> float:
        """Henry, modified Wheeler formula for a square spiral (K1 2.34, K2 2.75)."""
        d_in = self.inner_side()
        d_avg = (self.side + d_in) / 2
        rho = (self.side - d_in) / (self.side + d_in)
        return 2.34 * MU0 * self.turns ** 2 * d_avg / (1 + 2.75 * rho)

    def length(self) -> float:
        return 4 * self.turns * (self.side + self.inner_side()) / 2

    def resistance(self, f: float = CARRIER_HZ) -> float:
        """Ohm at ``f``: the current flows in a skin-depth ring around the trace's section."""
        skin = math.sqrt(COPPER_RESISTIVITY / (math.pi * f * MU0))
        depth = min(skin, self.copper / 2)
        ring = 2 * (self.trace + self.copper) * depth
        return COPPER_RESISTIVITY * self.length() / ring


@dataclass(frozen=True)
class Design:
    """What the matching is computed for: the pad, the array, the filter and the targets."""

    loop: Loop = Loop()
    pads: int = 16
    q_target: float = 15.0
    r_match: float = 40.0       # ohm, differential, seen by TX1-TX2
    l0: float = 1.0e-6          # EMC filter inductor, each TX
    filter_hz: float = 14.5e6   # EMC filter resonance
    r_on: float = 2.0           # one pad switch on (two BSS138 back to back, 5 V gate drive)
    c_off: float = 6.5e-12      # one pad switch off (two BSS138 output capacitances in series)


@dataclass(frozen=True)
class Match:
    """The network's values (farad, ohm) and the impedance the TX pins see with them."""

    l_pad: float
    r_pad: float
    r_damp: float
    c0: float
    c1: float
    c2: float
    z_tx: complex            # differential, ohm
    q: float
    off_pad_resonance_hz: float


def _z_c(c: float, w: float) -> complex:
    return 1 / (1j * w * c)


def damping(design: Design, w: float) -> float:
    """Ohm in each leg so that the selected pad's Q is ``q_target`` (AN1445 step 2)."""
    l_pad, r_pad = design.loop.inductance(), design.loop.resistance(w / (2 * math.pi))
    needed = w * l_pad / design.q_target - r_pad - 2 * design.r_on
    if needed < 0:
        raise ValueError(f"the pad's own Q ({w * l_pad / r_pad:.0f}) is already below {design.q_target}")
    return needed / 2


def _bus_admittance(design: Design, c2: float, r_damp: float, w: float) -> complex:
    """Half circuit: the pad bus after C1: C2 to ground, the selected pad, the pads switched off."""
    z_loop = 1j * w * design.loop.inductance() / 2 + design.loop.resistance(w / (2 * math.pi)) / 2 + r_damp
    y_on = 1 / (design.r_on + z_loop)
    y_off = 1 / (_z_c(design.c_off, w) + z_loop)
    return 1j * w * c2 + y_on + (design.pads - 1) * y_off


def tx_impedance(design: Design, c0: float, c1: float, c2: float, r_damp: float, w: float) -> complex:
    """Differential impedance at TX1-TX2 with one pad selected and the others switched off."""
    z_node = _z_c(c1, w) + 1 / _bus_admittance(design, c2, r_damp, w)
    return 2 * (1j * w * design.l0 + 1 / (1j * w * c0 + 1 / z_node))


def solve(design: Design = Design(), f: float = CARRIER_HZ) -> Match:
    """C0 from the filter's resonance; C2 sets the real part, C1 then cancels the reactance.

    The impedance the pad bus must show behind C1 follows from the target through L0 and C0.
    The pads switched off are always ``pads - 1`` identical branches, whichever pad is on,
    so their switches' off-capacitance is part of the shunt: C2 only adds what they lack.
    """
    w = 2 * math.pi * f
    c0 = 1 / ((2 * math.pi * design.filter_hz) ** 2 * design.l0)
    r_damp = damping(design, w)
    z_node = 1 / (1 / (design.r_match / 2 - 1j * w * design.l0) - 1j * w * c0)

    def bus_r(c2: float) -> float:
        return (1 / _bus_admittance(design, c2, r_damp, w)).real

    top = 1 / (w * w * design.loop.inductance() / 2)   # C2 alone resonating with a loop half
    grid = [top * k / 400 for k in range(401)]
    peak = max(grid, key=bus_r)                           # the bus's parallel resonance
    if bus_r(0.0) > z_node.real:
        raise ValueError(f"the {design.pads - 1} pads switched off already load the bus past its match: "
                         f"their switches' off-capacitance ({design.c_off * 1e12:.1f} pF) must be smaller")
    if bus_r(peak) < z_node.real:
        raise ValueError(f"the pad bus cannot be matched to {design.r_match:.0f} ohm: at most "
                         f"{2 * bus_r(peak):.0f} ohm (the switches' off-capacitance, the Q or the turns)")
    lo, hi = 0.0, peak
    for _ in range(200):
        mid = (lo + hi) / 2
        if bus_r(mid) < z_node.real:
            lo = mid
        else:
            hi = mid
    c2 = (lo + hi) / 2
    x_c1 = z_node.imag - (1 / _bus_admittance(design, c2, r_damp, w)).imag
    if x_c1 >= 0:
        raise ValueError("no series capacitor C1 reaches the target (the bus is capacitive)")
    return _match(design, c0, 1 / (-x_c1 * w), c2, r_damp, w)


def max_c_off(design: Design, f: float = CARRIER_HZ) -> float:
    """The largest switch off-capacitance (farad) for which the array can still be matched."""
    lo, hi = 0.0, 1e-9
    for _ in range(60):
        mid = (lo + hi) / 2
        try:
            solve(replace(design, c_off=mid), f)
        except ValueError:
            hi = mid
        else:
            lo = mid
    return lo


def _match(design: Design, c0: float, c1: float, c2: float, r_damp: float, w: float) -> Match:
    l_pad = design.loop.inductance()
    r_pad = design.loop.resistance(w / (2 * math.pi))
    q = w * l_pad / (r_pad + 2 * r_damp + 2 * design.r_on)
    # A pad switched off: its loop in series with its two switches' off-capacitance.
    off_resonance = 1 / (2 * math.pi * math.sqrt(l_pad * design.c_off / 2))
    return Match(l_pad, r_pad, r_damp, c0, c1, c2, tx_impedance(design, c0, c1, c2, r_damp, w), q, off_resonance)


def off_current_ratio(design: Design, f: float = CARRIER_HZ) -> float:
    """A switched-off pad's loop current over the selected pad's (the same bus voltage drives both)."""
    w = 2 * math.pi * f
    z_loop = 1j * w * design.loop.inductance() / 2 + design.loop.resistance(f) / 2 + damping(design, w)
    return abs(design.r_on + z_loop) / abs(_z_c(design.c_off, w) + z_loop)


def nearest(value: float, series: tuple[float, ...] = E12) -> float:
    """The value of ``series`` (one decade's mantissas) nearest to ``value`` on a log scale."""
    if value <= 0:
        raise ValueError(f"no preferred value for {value}")
    decade = 10 ** math.floor(math.log10(value))
    candidates = [m * decade * s for m in series for s in (0.1, 1, 10)]
    return min(candidates, key=lambda c: abs(math.log(c / value)))


def rounded(design: Design = Design(), f: float = CARRIER_HZ) -> Match:
    """The solved network with every part at its nearest preferred value (E12 capacitors, E24 resistors)."""
    exact = solve(design, f)
    w = 2 * math.pi * f
    return _match(design, nearest(exact.c0), nearest(exact.c1), nearest(exact.c2),
                  nearest(exact.r_damp, E24), w)


def mismatch_db(z: complex, r_target: float) -> float:
    """Return loss in dB of impedance ``z`` against a resistive target (0 dB reflected = total mismatch)."""
    gamma = abs((z - r_target) / (z + r_target))
    return float("inf") if gamma == 0 else -20 * math.log10(gamma)


def report(design: Design = Design()) -> str:
    """The derivation's figures, as the README quotes them (``make hardware`` writes them out)."""
    exact, chosen = solve(design), rounded(design)
    lines = [
        f"pad: {design.loop.side * 1e3:.0f} x {design.loop.side * 1e3:.0f} mm, {design.loop.turns} turns, "
        f"L = {exact.l_pad * 1e9:.0f} nH, R(13.56 MHz) = {exact.r_pad:.2f} ohm, "
        f"unloaded Q = {2 * math.pi * CARRIER_HZ * exact.l_pad / exact.r_pad:.0f}",
        f"damping: {exact.r_damp:.2f} ohm each leg for Q = {design.q_target:.0f} (chosen {chosen.r_damp:.2f} ohm, "
        f"Q = {chosen.q:.1f}); bandwidth f/Q = {CARRIER_HZ / chosen.q / 1e3:.0f} kHz vs subcarrier "
        f"{SUBCARRIER_HZ / 1e3:.0f} kHz",
        f"EMC filter: L0 = {design.l0 * 1e6:.1f} uH, C0 = {exact.c0 * 1e12:.0f} pF "
        f"(chosen {chosen.c0 * 1e12:.0f} pF: resonance "
        f"{1 / (2 * math.pi * math.sqrt(design.l0 * chosen.c0)) / 1e6:.2f} MHz)",
        f"matching: C1 = {exact.c1 * 1e12:.1f} pF, C2 = {exact.c2 * 1e12:.1f} pF for "
        f"{design.r_match:.0f} ohm; chosen C1 = {chosen.c1 * 1e12:.0f} pF, C2 = {chosen.c2 * 1e12:.0f} pF",
        f"impedance at TX1-TX2 with the chosen values: {chosen.z_tx.real:.1f} {chosen.z_tx.imag:+.1f}j ohm "
        f"(return loss {mismatch_db(chosen.z_tx, design.r_match):.1f} dB, |Z| {abs(chosen.z_tx):.1f} ohm, "
        f"phase {math.degrees(cmath.phase(chosen.z_tx)):.0f} deg)",
        f"a pad switched off resonates at {chosen.off_pad_resonance_hz / 1e6:.1f} MHz, "
        f"{chosen.off_pad_resonance_hz / CARRIER_HZ:.1f} x the carrier; it carries "
        f"{100 * off_current_ratio(design):.1f} % of the selected pad's current",
        f"the array tolerates up to {max_c_off(design) * 1e12:.1f} pF of off-capacitance a switch "
        f"(this design: {design.c_off * 1e12:.1f} pF)",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
