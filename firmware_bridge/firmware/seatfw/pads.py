"""The spread zone's pad array: 16 antenna pads switched one at a time onto one MFRC522.

``PadSelect`` drives the two 74HC595 shift registers of the pad board: the pad-select
bits go out on the SPI lines (MOSI, SCK) with no chip select low, so no reader listens,
and a rising edge on the latch pin (GP28) puts them on the pad switches. The registers
also shift while the readers talk; that is harmless, the outputs change only at the latch.

``PadScanner`` reads the zone pad by pad (hardware/spread-zone.md "Read cycle"): for each
pad, field off, latch the pad, ``switch_ms`` later field on, ``settle_ms`` for its tags to
power up, then the reader's inventory (REQA, anticollision, SELECT, HLTA; normally one or
two tags a pad). Slot ``k`` of a cycle starts ``k * slot_us`` microseconds after the cycle's
start: 16 pads of 12.5 ms make a 200 ms cycle. A tag is reported from its first read on any
pad; at the end of a cycle every tag read on no pad in that cycle counts a miss, and a tag
missed ``miss_cycles`` cycles in a row is dropped. The zone reports the union of its pads,
at most ``max_tags`` tags, so the STATE frame and the host are those of one reader.
"""

from .readers import Scanner, keep_seen

TYPE_CHECKING = False  # type checkers take it as True; MicroPython has no typing module

if TYPE_CHECKING:
    from .hal import Pin, Spi
    from .mfrc522 import MFRC522
    from .ticks import Ticks

NO_PAD = -1
_WAIT = 0
_SWITCHING = 1
_SETTLING = 2


class PadSelect:
    """The pad board's shift registers: ``select(k)`` switches pad ``k`` on, every other pad off."""

    def __init__(self, spi: "Spi", latch: "Pin", count: int = 16) -> None:
        self.spi = spi
        self.latch = latch
        self.count = count
        self.selected = NO_PAD
        self.select(NO_PAD)  # the 74HC595 outputs are undefined at power-up

    def select(self, pad: int) -> None:
        """Shift out the bits of ``pad`` (``NO_PAD``: none), most significant byte first, and latch them."""
        bits = 1 << pad if 0 <= pad < self.count else 0
        nbytes = (self.count + 7) // 8
        out = bytearray(nbytes)
        for i in range(nbytes):
            out[nbytes - 1 - i] = (bits >> (8 * i)) & 0xFF
        self.latch.value(0)
        self.spi.write(out)
        self.latch.value(1)  # rising edge: the registers' outputs take the bits
        self.latch.value(0)
        self.selected = pad if bits else NO_PAD


class PadScanner(Scanner):
    """The tags on the spread zone's pad array, kept up to date by ``poll`` (as ``ZoneScanner``)."""

    def __init__(self, reader: "MFRC522 | None", pads: PadSelect, ticks: "Ticks", slot_us: int = 12500,
                 offset_ms: int = 0, switch_ms: int = 1, settle_ms: int = 5, max_tags: int = 16,
                 miss_cycles: int = 2, retry_ms: int = 1000) -> None:
        super().__init__(reader, ticks, max_tags, miss_cycles, retry_ms)
        self.pads = pads
        self.slot_us = slot_us
        self.switch_ms = switch_ms
        self.settle_ms = settle_ms
        self.pad = 0
        self.cycles = 0
        self._seen = []  # type: list[bytes]
        self._phase = _WAIT
        self._cycle = ticks.add(ticks.now(), offset_ms)
        self._due = self._cycle

    @property
    def cycle_ms(self) -> int:
        """Length of one read cycle over every pad."""
        return self.pads.count * self.slot_us // 1000

    def poll(self, now: int) -> bool:
        """Do the step that is due; True if the tags or the reader's health changed."""
        reader = self.reader
        ticks = self.ticks
        if reader is None or ticks.diff(now, self._due) < 0:
            return False
        if not self.ok:
            answers = self._init_again(reader, now)
            self._phase = _WAIT
            if not answers:
                return False
            self._restart(now)
            return True
        if self._phase == _WAIT:
            reader.antenna(False)
            self.pads.select(self.pad)
            self._phase = _SWITCHING
            self._due = ticks.add(now, self.switch_ms)
            return False
        if self._phase == _SWITCHING:
            reader.antenna(True)
            self._phase = _SETTLING
            self._due = ticks.add(now, self.settle_ms)
            return False
        self._phase = _WAIT
        seen = reader.inventory(self.max_tags)
        if seen is None:
            self._lost(now)
            self._seen = []
            self.pads.select(NO_PAD)
            return True
        changed = self._add(seen)
        self.pad += 1
        if self.pad >= self.pads.count:
            changed = self._end_cycle() or changed
            self.pad = 0
            self.cycles += 1
            self._cycle = ticks.add(self._cycle, self.cycle_ms)
            if ticks.diff(self._cycle, now) < 0:
                self._cycle = now  # fell behind (a long inventory): start afresh, never crowd the slots
        self._due = ticks.add(self._cycle, self.pad * self.slot_us // 1000)
        if ticks.diff(self._due, now) < 0:
            self._due = now
        return changed

    def _restart(self, now: int) -> None:
        self.pad = 0
        self._seen = []
        self._cycle = now
        self._due = now

    def _add(self, seen: "list[bytes]") -> bool:
        changed = False
        for uid in seen:
            if uid not in self._seen:
                self._seen.append(uid)
            if uid not in self._uids and len(self._uids) < self.max_tags:
                self._uids.append(uid)
                self._misses.append(0)
                changed = True
        return changed

    def _end_cycle(self) -> bool:
        self._uids, self._misses, changed = keep_seen(self._uids, self._misses, self._seen, self.miss_cycles)
        self._seen = []
        return changed
