"""The contract: level, denomination, doubled or redoubled, and declarer (``"4HX"`` by S)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from controller.calls import Denomination
from controller.errors import NotationError
from controller.seats import Seat

__all__ = ["Contract", "format_result"]

_CONTRACT_RE = re.compile(r"^([1-7])(NT|N|S|H|D|C)(X{0,2}|R)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract (Law 22): ``level`` 1..7, denomination, ``doubled`` 0/1/2, and declarer.

    In the 1905 game ``doubled`` counts every double and redouble (there is no limit, W 55)
    and ``level`` is 1: the odd tricks are scored whatever their number.
    """

    level: int
    denomination: Denomination
    doubled: int
    declarer: Seat

    @classmethod
    def parse(cls, text: str, declarer: Seat) -> Contract:
        """The contract of its PBN text (``"4HX"``, ``"3NT"``, ``"6SXX"``) played by ``declarer``."""
        m = _CONTRACT_RE.match(text.strip())
        if m is None:
            raise NotationError(f"invalid contract {text!r}")
        x = m.group(3).upper()
        doubled = 2 if x in ("XX", "R") else len(x)
        return cls(int(m.group(1)), Denomination.parse(m.group(2)), doubled, declarer)

    @property
    def tricks_needed(self) -> int:
        """Tricks declarer needs: six plus the level (Law 22, definitions)."""
        return 6 + self.level

    @property
    def dummy(self) -> Seat:
        return self.declarer.partner

    @property
    def opening_leader(self) -> Seat:
        """Declarer's left-hand opponent makes the opening lead (Law 41)."""
        return self.declarer.lho

    @property
    def text(self) -> str:
        """The PBN contract text without declarer: ``"4HX"``."""
        return f"{self.level}{self.denomination}" + "X" * min(self.doubled, 2)

    def result(self, tricks: int) -> str:
        """The result as ``"="``, ``"+1"``, ``"-2"`` for ``tricks`` won by declarer."""
        return format_result(tricks - self.tricks_needed)

    def __str__(self) -> str:
        return f"{self.text} {self.declarer}"


def format_result(diff: int) -> str:
    """``"="`` for a contract just made, ``"+n"`` over, ``"-n"`` down."""
    return "=" if diff == 0 else f"{diff:+d}"
