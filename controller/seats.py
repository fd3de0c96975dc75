"""Seats, sides and vulnerability; the standard board rotation of dealer and vulnerability."""

from __future__ import annotations

from enum import Enum, IntEnum

from controller.errors import NotationError

__all__ = ["SEATS", "Seat", "Side", "Vulnerability", "board_dealer", "board_vulnerability"]


class Side(IntEnum):
    """A partnership: North-South or East-West."""

    NS = 0
    EW = 1

    @property
    def other(self) -> Side:
        return Side(1 - self.value)

    def __str__(self) -> str:
        return ("NS", "EW")[self]


class Seat(IntEnum):
    """A seat at the table, numbered clockwise from North (the rotation of Law 17)."""

    N = 0
    E = 1
    S = 2
    W = 3

    @classmethod
    def parse(cls, text: str) -> Seat:
        """The seat of ``N E S W`` (or the full word, either case)."""
        seat = _SEAT_BY_TEXT.get(text.strip().upper())
        if seat is None:
            raise NotationError(f"invalid seat {text!r}")
        return seat

    @property
    def lho(self) -> Seat:
        """Left-hand opponent: the next seat clockwise, who calls and plays after this one."""
        return _SEATS[(self + 1) & 3]

    @property
    def partner(self) -> Seat:
        return _SEATS[(self + 2) & 3]

    @property
    def rho(self) -> Seat:
        """Right-hand opponent: the seat that calls and plays just before this one."""
        return _SEATS[(self + 3) & 3]

    @property
    def side(self) -> Side:
        return _SIDES[self & 1]

    def offset(self, n: int) -> Seat:
        """The seat ``n`` places clockwise from this one."""
        return _SEATS[(self + n) & 3]

    def __str__(self) -> str:
        return "NESW"[self]

    def __repr__(self) -> str:
        return f"Seat.{self.name}"


_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
_SIDES = (Side.NS, Side.EW)
SEATS: tuple[Seat, ...] = _SEATS
_SEAT_BY_TEXT = {s.name: s for s in Seat} | {
    "NORTH": Seat.N, "EAST": Seat.E, "SOUTH": Seat.S, "WEST": Seat.W}


class Vulnerability(Enum):
    """Which sides are vulnerable; text form ``None``, ``NS``, ``EW``, ``Both``."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    BOTH = "Both"

    @classmethod
    def parse(cls, text: str) -> Vulnerability:
        """The vulnerability of its PBN or LIN text (``None``/``Love``, ``NS``, ``EW``, ``All``/``Both``)."""
        v = _VUL_BY_TEXT.get(text.strip().upper())
        if v is None:
            raise NotationError(f"invalid vulnerability {text!r}")
        return v

    def is_vulnerable(self, side: Side) -> bool:
        if self is Vulnerability.BOTH:
            return True
        if self is Vulnerability.NONE:
            return False
        return (self is Vulnerability.NS) == (side is Side.NS)

    @classmethod
    def of(cls, ns: bool, ew: bool) -> Vulnerability:
        """The vulnerability in which North-South are ``ns`` and East-West ``ew``."""
        return _VUL_OF[(ns, ew)]

    @property
    def pbn(self) -> str:
        """The PBN 2.1 text (``None``, ``NS``, ``EW``, ``All``)."""
        return "All" if self is Vulnerability.BOTH else self.value

    def __str__(self) -> str:
        return self.value


_VUL_BY_TEXT = {
    "NONE": Vulnerability.NONE, "LOVE": Vulnerability.NONE, "-": Vulnerability.NONE,
    "O": Vulnerability.NONE, "0": Vulnerability.NONE,
    "NS": Vulnerability.NS, "N": Vulnerability.NS,
    "EW": Vulnerability.EW, "E": Vulnerability.EW,
    "ALL": Vulnerability.BOTH, "BOTH": Vulnerability.BOTH, "B": Vulnerability.BOTH,
}
_VUL_OF = {(False, False): Vulnerability.NONE, (True, False): Vulnerability.NS,
           (False, True): Vulnerability.EW, (True, True): Vulnerability.BOTH}

# The 16-board cycle of vulnerability, used by every duplicate board (Law 2).
_VUL_CYCLE = (
    Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH,
    Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH, Vulnerability.NONE,
    Vulnerability.EW, Vulnerability.BOTH, Vulnerability.NONE, Vulnerability.NS,
    Vulnerability.BOTH, Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW,
)


def board_dealer(number: int) -> Seat:
    """The dealer of a duplicate board: North deals board 1, then clockwise (Law 2)."""
    if number < 1:
        raise NotationError(f"invalid board number {number}")
    return _SEATS[(number - 1) & 3]


def board_vulnerability(number: int) -> Vulnerability:
    """The vulnerability of a duplicate board in the standard 16-board cycle (Law 2)."""
    if number < 1:
        raise NotationError(f"invalid board number {number}")
    return _VUL_CYCLE[(number - 1) % 16]
