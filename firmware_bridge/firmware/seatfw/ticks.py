"""Millisecond ticks that wrap, with the arithmetic of MicroPython's ``time.ticks_*``.

The firmware never compares raw ticks: it uses ``diff`` and ``add``, which stay right when
the counter wraps (every 2**30 ms, about 12.4 days, on the rp2 port).
"""

TYPE_CHECKING = False  # type checkers take it as True; MicroPython has no typing module

if TYPE_CHECKING:
    from .hal import MsClock

PERIOD = 1 << 30
_MASK = PERIOD - 1
_HALF = PERIOD >> 1


class Ticks:
    """Wrapping millisecond clock over ``ms`` (``time.ticks_ms`` on the unit)."""

    def __init__(self, ms: "MsClock") -> None:
        self._ms = ms

    def now(self) -> int:
        """The current tick count."""
        return self._ms() & _MASK

    @staticmethod
    def diff(a: int, b: int) -> int:
        """``a - b`` in ms, signed, as long as the two are less than 2**29 ms apart."""
        return ((a - b + _HALF) & _MASK) - _HALF

    @staticmethod
    def add(a: int, delta: int) -> int:
        """The tick count ``delta`` ms after ``a``."""
        return (a + delta) & _MASK
