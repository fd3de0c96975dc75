"""Reading one zone (play or spread): a field reset, then an inventory, every period.

Each cycle switches the field off for ``off_ms`` (ISO/IEC 14443-3 asks at least 5 ms for
a reset), back on, waits ``settle_ms`` for the tags to power up, then runs
``MFRC522.inventory``. Waiting is done by returning to the main loop, never by sleeping,
so the bidding box keeps being scanned. A tag is reported from its first read and
dropped after ``miss_cycles`` cycles in a row without it: readers drop out for a
moment (docs/architecture.md, raw sensor events); the host's sensing layer absorbs the rest.
"""

TYPE_CHECKING = False  # type checkers take it as True; MicroPython has no typing module

if TYPE_CHECKING:
    from .mfrc522 import MFRC522
    from .ticks import Ticks

_WAIT = 0
_FIELD_OFF = 1
_SETTLING = 2


def keep_seen(uids: "list[bytes]", misses: "list[int]", seen: "list[bytes]",
              miss_cycles: int) -> "tuple[list[bytes], list[int], bool]":
    """The tags kept after a read cycle that saw ``seen``, with their counts of cycles missed in
    a row, and whether any was dropped: a tag missed ``miss_cycles`` cycles in a row goes."""
    kept = []  # type: list[bytes]
    counts = []  # type: list[int]
    dropped = False
    for i in range(len(uids)):
        uid, missed = uids[i], misses[i]
        if uid in seen:
            kept.append(uid)
            counts.append(0)
        elif missed + 1 < miss_cycles:
            kept.append(uid)
            counts.append(missed + 1)
        else:
            dropped = True
    return kept, counts, dropped


class Scanner:
    """What a zone's scanner is, whatever its antennas (``ZoneScanner``: one; ``pads.PadScanner``: a pad
    array): its reader, initialised at boot and tried again every ``retry_ms`` while it fails; the tags it
    holds (at most ``max_tags``), each with its count of cycles missed in a row; when ``poll`` has work."""

    def __init__(self, reader: "MFRC522 | None", ticks: "Ticks", max_tags: int, miss_cycles: int,
                 retry_ms: int) -> None:
        self.reader = reader
        self.ticks = ticks
        self.max_tags = max_tags
        self.miss_cycles = miss_cycles
        self.retry_ms = retry_ms
        self.ok = False
        self._uids = []  # type: list[bytes]
        self._misses = []  # type: list[int]
        self._due = 0

    def start(self) -> None:
        """Initialise the reader at boot (its first cycle comes at the offset)."""
        if self.reader is not None:
            self.ok = self.reader.init()

    def uids(self) -> "list[bytes]":
        """UIDs present, in the order first seen."""
        return list(self._uids)

    def due_in(self, now: int) -> int:
        """Milliseconds until ``poll`` has work (0: now)."""
        if self.reader is None:
            return 1 << 20
        return max(0, self.ticks.diff(self._due, now))

    def _init_again(self, reader: "MFRC522", now: int) -> bool:
        """The failed reader initialised again: True if it answers; else the next try ``retry_ms`` on."""
        self.ok = reader.init()
        if not self.ok:
            self._due = self.ticks.add(now, self.retry_ms)
        return self.ok

    def _lost(self, now: int) -> None:
        """The reader stopped answering: no tags while it is tried again, ``retry_ms`` on."""
        self.ok = False
        self._uids = []
        self._misses = []
        self._due = self.ticks.add(now, self.retry_ms)


class ZoneScanner(Scanner):
    """The tags on one zone's reader, kept up to date by ``poll``."""

    def __init__(self, reader: "MFRC522 | None", ticks: "Ticks", period_ms: int = 100, offset_ms: int = 0,
                 off_ms: int = 6, settle_ms: int = 5, max_tags: int = 16, miss_cycles: int = 2,
                 retry_ms: int = 1000) -> None:
        super().__init__(reader, ticks, max_tags, miss_cycles, retry_ms)
        self.period_ms = period_ms
        self.off_ms = off_ms
        self.settle_ms = settle_ms
        self._phase = _WAIT
        self._cycle = 0
        self._due = ticks.add(ticks.now(), offset_ms)

    def poll(self, now: int) -> bool:
        """Do the step that is due; True if the tags or the reader's health changed."""
        reader = self.reader
        if reader is None or self.ticks.diff(now, self._due) < 0:
            return False
        ticks = self.ticks
        if not self.ok:
            answers = self._init_again(reader, now)
            self._phase = _WAIT
            if not answers:
                return False
            self._cycle = now
            self._due = now
            return True
        if self._phase == _WAIT:
            self._cycle = now
            reader.antenna(False)
            self._phase = _FIELD_OFF
            self._due = ticks.add(now, self.off_ms)
            return False
        if self._phase == _FIELD_OFF:
            reader.antenna(True)
            self._phase = _SETTLING
            self._due = ticks.add(now, self.settle_ms)
            return False
        self._phase = _WAIT
        self._due = ticks.add(self._cycle, self.period_ms)
        if ticks.diff(self._due, now) < 0:
            self._due = now
        seen = reader.inventory(self.max_tags)
        if seen is None:
            self._lost(now)
            return True
        return self._update(seen)

    def _update(self, seen: "list[bytes]") -> bool:
        uids, misses, changed = keep_seen(self._uids, self._misses, seen, self.miss_cycles)
        for uid in seen:
            if uid not in uids:
                uids.append(uid)
                misses.append(0)
                changed = True
        self._uids = uids
        self._misses = misses
        return changed
