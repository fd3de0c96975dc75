"""The bidding-box contact matrix and the debouncing of contacts and the button.

Reference wiring (``firmware/README.md``): 5 rows x 8 columns, one contact per slot, each
contact in series with a diode (anode on the column, cathode on the row). Rows are
open-drain outputs, released (high impedance) except the one being scanned, which is
driven low; columns are inputs with pull-ups. A closed contact (the card is in its slot)
pulls its column low while its row is driven. The diodes stop current flowing back from a
row into another column, which without them makes a fourth, unpressed contact of a
rectangle of three closed ones read closed ("ghosting"). Slot ``8 * row + column`` is
``SLOTS[...]`` of PROTOCOL.md, so the rows read are the STATE bitmap bytes as they are.
"""

TYPE_CHECKING = False  # type checkers take it as True; MicroPython has no typing module

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .hal import DelayUs, Pin


class ContactMatrix:
    """Scans a diode matrix of contacts: ``scan()`` returns one bit word per row (bit = column)."""

    def __init__(self, rows: "Sequence[Pin]", cols: "Sequence[Pin]", settle: "DelayUs | None" = None,
                 settle_us: int = 10) -> None:
        self.rows = rows
        self.cols = cols
        self._settle = settle
        self._settle_us = settle_us
        for row in rows:
            row.value(1)

    def scan(self) -> "list[int]":
        """Closed contacts, as a list of row words (bit ``c`` of word ``r`` is contact ``(r, c)``)."""
        words = []
        settle = self._settle
        for row in self.rows:
            row.value(0)
            if settle is not None:
                settle(self._settle_us)
            bits = 0
            bit = 1
            for col in self.cols:
                if not col.value():
                    bits |= bit
                bit <<= 1
            row.value(1)
            words.append(bits)
        return words


class Debouncer:
    """Debounces words of bits: a bit takes a new value once it read so in ``scans`` scans in a row.

    Per word: ``stable = all_ones | (stable & any_ones)`` over the last ``scans`` raw
    words, so a bouncing bit keeps its old value. The first scan is taken as it is.
    """

    def __init__(self, words: int, scans: int) -> None:
        self.scans = max(1, scans)
        self.stable = [0] * words
        self._ring = []  # type: list[list[int]]

    def update(self, raw: "Sequence[int]") -> bool:
        """Add one raw scan; True if a debounced bit changed (or on the first scan)."""
        ring = self._ring
        if not ring:
            self.stable = list(raw)
            ring.append(list(raw))
            return True
        ring.append(list(raw))
        if len(ring) > self.scans:
            ring.pop(0)
        if len(ring) < self.scans:
            return False
        changed = False
        stable = self.stable
        for w in range(len(stable)):
            all_ones = -1
            any_ones = 0
            for scan in ring:
                all_ones &= scan[w]
                any_ones |= scan[w]
            new = all_ones | (stable[w] & any_ones)
            if new != stable[w]:
                stable[w] = new
                changed = True
        return changed


class Button:
    """A push button to ground with a pull-up, debounced; counts presses (mod 256)."""

    def __init__(self, pin: "Pin", scans: int) -> None:
        self.pin = pin
        self._debouncer = Debouncer(1, scans)
        self.pressed = False
        self.presses = 0
        self._started = False

    def update(self) -> bool:
        """Sample the pin once; True if the debounced state changed."""
        if not self._debouncer.update((0 if self.pin.value() else 1,)):
            return False
        pressed = bool(self._debouncer.stable[0])
        if pressed == self.pressed and self._started:
            return False
        if pressed and self._started:
            self.presses = (self.presses + 1) & 0xFF
        self._started = True
        self.pressed = pressed
        return True
