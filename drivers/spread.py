"""A spread zone read as the chosen hardware reads it: a pad array, one pad at a time.

``hardware/spread-zone.md`` says why: one antenna cannot read dummy's 13 overlapped cards, so
each seat's spread zone is a grid of small antenna pads (``PadArray``: 4 columns, one per suit,
of 4 pads, each pad under the tags of two overlapped cards) switched one at a time onto the
seat unit's spread-zone MFRC522. One read cycle visits every pad in turn: the antenna is
switched, the tags on it power up, an inventory lists them (``PadArray.pad_ms`` per pad,
``PadArray.cycle_s`` for the 16). What the zone reports is the union of the pads, exactly as
the seat unit reports one spread reader: a tag from its first read, gone after
``miss_cycles`` cycles in a row without a read of it.

``SpreadScanner`` models one zone: where dummy's cards lie (``place``: a card goes to its
suit's column, at the first free place of the column; ``lift``), and the reads of each pad at
its moment of the cycle (``advance(t)``). A tag is missed in one pad's read with probability
``PadArray.miss``, or ``PadArray.crowded_miss`` when more tags lie on the pad than an MFRC522
inventory reads reliably (``tags_per_pad``); the draws come from the ``random.Random`` given,
so a seeded scanner reports the same events, at the same times, on every run. Nothing here
reads a clock or starts a thread: ``drivers.sim.SimTable`` drives it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from controller.sensing.events import RawEvent, TagGone, TagSeen

__all__ = ["PadArray", "SpreadScanner"]

_COLUMN_OF_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3}


@dataclass(frozen=True, slots=True)
class PadArray:
    """The spread zone's antenna pads and their read timing (hardware/spread-zone.md).

    * ``columns`` x ``rows`` pads (4 x 4), each under ``tags_per_pad`` (2) overlapped cards'
      tags: a column of ``rows * tags_per_pad`` (8) cards is read at two tags a pad; the
      cards beyond lie on the column's last pad, crowding it.
    * ``pad_ms`` (12.5): one pad's slot in the cycle: switch the antenna, wait for the tags
      to power up, inventory up to two tags (about 1 + 5 + 2 x 3 ms, rounded up).
    * ``miss`` (0.02): the chance that a tag on a pad is not read in one pass (a card
      slightly off its pad, a tag detuned by the one over it); ``crowded_miss`` (0.5) the
      same on a pad with more tags than ``tags_per_pad``.
    * ``miss_cycles`` (2): cycles in a row without a read before the tag is reported gone
      (the seat unit's ``Config.miss_cycles``).
    """

    columns: int = 4
    rows: int = 4
    tags_per_pad: int = 2
    pad_ms: float = 12.5
    miss: float = 0.02
    crowded_miss: float = 0.5
    miss_cycles: int = 2

    def __post_init__(self) -> None:
        for name in ("columns", "rows", "tags_per_pad", "miss_cycles"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"pad array {name} must be a whole number >= 1, not {value!r}")
        if not (math.isfinite(self.pad_ms) and self.pad_ms > 0):
            raise ValueError(f"pad array pad_ms must be a number of milliseconds > 0, not {self.pad_ms!r}")
        for name in ("miss", "crowded_miss"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and 0 <= value < 1):
                raise ValueError(f"pad array {name} must be a probability from 0 up to (not including) 1, "
                                 f"not {value!r}")

    @property
    def pads(self) -> int:
        """Pads per zone (read in this order: column by column, row by row)."""
        return self.columns * self.rows

    @property
    def pad_s(self) -> float:
        return self.pad_ms / 1000

    @property
    def cycle_s(self) -> float:
        """Seconds to read every pad once: the zone's read cycle (0.2 s by default)."""
        return self.pads * self.pad_s

    def pad_of(self, column: int, place: int) -> int:
        """The pad under the ``place``-th card (from 0) of ``column``."""
        return column * self.rows + min(place // self.tags_per_pad, self.rows - 1)


class SpreadScanner:
    """One seat's spread zone read pad by pad (see the module doc); ``t0`` starts its first cycle."""

    def __init__(self, reader: str, pads: PadArray, rng: random.Random, t0: float = 0.0) -> None:
        self.reader = reader
        self.pads = pads
        self._rng = rng
        self._cycle_start = t0
        self._next = 0                       # the pad read next in this cycle
        self._places: dict[str, tuple[int, int]] = {}   # tag UID -> (column, place in column)
        self._misses: dict[str, int] = {}    # reported tag -> cycles in a row without a read
        self._read: set[str] = set()         # tags read so far in this cycle

    def __repr__(self) -> str:
        return f"SpreadScanner({self.reader!r}, {len(self._places)} tags, cycle {self.pads.cycle_s:.3f} s)"

    # -- the cards ---------------------------------------------------------------------------

    def place(self, uid: str, card: str | None = None) -> int:
        """Lay tag ``uid`` (card ``card``, e.g. ``SA``, or None for a tag of no known card) on the
        zone as dummy lays a hand out: its suit's column, the first free place; the pad it lies on."""
        if uid in self._places:
            return self.pad_under(uid)
        if card is not None and card[:1] in _COLUMN_OF_SUIT and self.pads.columns >= 4:
            column = _COLUMN_OF_SUIT[card[0]]
        else:   # not a card: the column with the fewest cards
            counts = [sum(1 for c, _p in self._places.values() if c == col) for col in range(self.pads.columns)]
            column = counts.index(min(counts))
        taken = {p for c, p in self._places.values() if c == column}
        place = next(p for p in range(len(taken) + 1) if p not in taken)
        self._places[uid] = (column, place)
        return self.pads.pad_of(column, place)

    def lift(self, uid: str) -> None:
        """Take tag ``uid`` off the zone (it is reported gone after ``miss_cycles`` cycles unread)."""
        self._places.pop(uid, None)

    def pad_under(self, uid: str) -> int:
        column, place = self._places[uid]
        return self.pads.pad_of(column, place)

    def forget(self) -> None:
        """Forget what was reported (the reader restarted): every tag is reported again when read."""
        self._misses.clear()
        self._read.clear()

    @property
    def reported(self) -> frozenset[str]:
        """The tags the zone reports as present."""
        return frozenset(self._misses)

    # -- the reads --------------------------------------------------------------------------

    def advance(self, t: float) -> list[RawEvent]:
        """The events of every pad read due at or before ``t``, in time order."""
        pads = self.pads
        out: list[RawEvent] = []
        while True:
            t_read = self._cycle_start + (self._next + 1) * pads.pad_s
            if t_read > t:
                return out
            on_pad = [uid for uid in self._places if self.pad_under(uid) == self._next]
            miss = pads.miss if len(on_pad) <= pads.tags_per_pad else pads.crowded_miss
            for uid in on_pad:
                if self._rng.random() < miss:
                    continue
                self._read.add(uid)
                if uid not in self._misses:
                    out.append(TagSeen(self.reader, uid, t_read))
                self._misses[uid] = 0
            self._next += 1
            if self._next == pads.pads:
                self._end_cycle(t_read, out)

    def _end_cycle(self, t: float, out: list[RawEvent]) -> None:
        for uid in list(self._misses):
            if uid in self._read:
                continue
            self._misses[uid] += 1
            if self._misses[uid] >= self.pads.miss_cycles:
                del self._misses[uid]
                out.append(TagGone(self.reader, uid, t))
        self._read.clear()
        self._next = 0
        self._cycle_start = t
