"""A simulated spread-zone pad board: two 74HC595 on the SPI lines, 16 pads onto one MFRC522.

The pad board of hardware/spread-zone.md, as the seat firmware sees it through a
``SimBoard``: the shift registers see every byte clocked on the SPI bus (they have no chip
select) and a rising edge on the latch pin copies the last 16 bits to the pad switches.
The pads' tags are in the ``SimMFRC522``'s field only while their pad is switched on; a tag
whose pad is switched off loses power (and forgets a HALT), as a card on an open loop does.
A tag may lie on two pads (a card across the gap between them).
"""

from __future__ import annotations

from firmware_bridge.sim_machine import SimBoard, SimMFRC522, SimTag

__all__ = ["SimPadBoard"]


class SimPadBoard:
    """``count`` antenna pads switched onto ``chip`` by shift registers on SPI ``bus``, latched by ``latch``."""

    def __init__(self, board: SimBoard, bus: int, latch: int, chip: SimMFRC522, count: int = 16) -> None:
        self.chip = chip
        self.count = count
        self.shift = 0
        self.outputs = 0
        self.latched: list[int] = []
        """The switch word at every latch edge, in order (bit ``k``: pad ``k`` on)."""
        self.pads: list[list[SimTag]] = [[] for _ in range(count)]
        self._mask = (1 << (8 * ((count + 7) // 8))) - 1
        board.attach_spi_listener(bus, self._clock)
        board.on_edge(latch, self._latch)

    @property
    def selected(self) -> tuple[int, ...]:
        """The pads switched on now."""
        return tuple(k for k in range(self.count) if self.outputs >> k & 1)

    def put(self, uid: bytes, *pads: int) -> None:
        """A card with tag ``uid`` comes to lie on ``pads`` (one, or two when across a gap)."""
        for pad in pads:
            if not 0 <= pad < self.count:
                raise ValueError(f"pad {pad} is not one of 0-{self.count - 1}")
        tag = self._find(uid) or SimTag(uid)
        for pad in pads:
            if tag not in self.pads[pad]:
                self.pads[pad].append(tag)
        self._connect()

    def remove(self, uid: bytes) -> None:
        """The card with tag ``uid`` is taken off the zone."""
        for pad in self.pads:
            pad[:] = [tag for tag in pad if tag.uid != uid]
        self._connect()

    def _find(self, uid: bytes) -> SimTag | None:
        for pad in self.pads:
            for tag in pad:
                if tag.uid == uid:
                    return tag
        return None

    def _clock(self, mosi: int) -> None:
        self.shift = ((self.shift << 8) | mosi) & self._mask

    def _latch(self, level: int) -> None:
        if level:
            self.outputs = self.shift
            self.latched.append(self.outputs)
            self._connect()

    def _connect(self) -> None:
        powered: list[SimTag] = []
        for k in self.selected:
            powered.extend(tag for tag in self.pads[k] if tag not in powered)
        for tag in self.chip.tags:
            if tag not in powered:
                tag.power_off()
        self.chip.tags = powered
