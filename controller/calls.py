"""Denominations, bids and the other calls, in the PBN text form (``"1NT"``, ``"Pass"``, ``"X"``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from controller.cards import Suit
from controller.errors import NotationError

__all__ = ["ALL_BIDS", "DOUBLE", "PASS", "REDOUBLE", "Call", "CallKind", "Denomination"]


class Denomination(IntEnum):
    """A denomination, ranked clubs < diamonds < hearts < spades < notrump (Law 18)."""

    C = 0
    D = 1
    H = 2
    S = 3
    NT = 4

    @classmethod
    def parse(cls, text: str) -> Denomination:
        """The denomination of ``C D H S NT`` (``N`` is accepted for notrump)."""
        d = _DENOM_BY_TEXT.get(text.upper())
        if d is None:
            raise NotationError(f"invalid denomination {text!r}")
        return d

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or None at notrump."""
        return None if self is Denomination.NT else Suit(self.value)

    @property
    def is_major(self) -> bool:
        return self in (Denomination.H, Denomination.S)

    @property
    def is_minor(self) -> bool:
        return self in (Denomination.C, Denomination.D)

    def __str__(self) -> str:
        return self.name


_DENOM_BY_TEXT = {d.name: d for d in Denomination} | {"N": Denomination.NT}


class CallKind(IntEnum):
    """The four kinds of call (Law 18)."""

    PASS = 0
    DOUBLE = 1
    REDOUBLE = 2
    BID = 3


_KIND_TEXT = {CallKind.PASS: "Pass", CallKind.DOUBLE: "X", CallKind.REDOUBLE: "XX"}


@dataclass(frozen=True, slots=True)
class Call:
    """A call; ``Call.parse("1NT")``; ``str(call)`` is the PBN token (``Pass``, ``X``, ``XX``, ``7S``)."""

    kind: CallKind
    level: int = 0
    denomination: Denomination | None = None
    text: str = field(init=False, compare=False, repr=False)
    """The PBN token, kept in the call: reports write one for every call."""

    def __post_init__(self) -> None:
        text = f"{self.level}{self.denomination}" if self.kind is CallKind.BID else _KIND_TEXT[self.kind]
        object.__setattr__(self, "text", text)

    @classmethod
    def bid(cls, level: int, denomination: Denomination) -> Call:
        """The bid of ``level`` (1..7) in ``denomination``."""
        if not 1 <= level <= 7:
            raise NotationError(f"invalid bid level {level}")
        return _BIDS[(level - 1) * 5 + denomination.value]

    @classmethod
    def parse(cls, text: str) -> Call:
        """The call of a PBN token: ``Pass``, ``X``, ``XX``, ``1C`` .. ``7NT`` (case-insensitive)."""
        call = _CALL_BY_TEXT.get(text)
        if call is None:
            call = _CALL_BY_TEXT.get(text.upper())
            if call is None:
                raise NotationError(f"invalid call {text!r}")
        return call

    @property
    def is_bid(self) -> bool:
        return self.kind is CallKind.BID

    @property
    def rank(self) -> int:
        """A bid's place in the order of bids, 0 for 1C up to 34 for 7NT (Law 18); -1 otherwise."""
        if self.denomination is None:
            return -1
        return (self.level - 1) * 5 + self.denomination.value

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Call.parse({str(self)!r})"


PASS = Call(CallKind.PASS)
DOUBLE = Call(CallKind.DOUBLE)
REDOUBLE = Call(CallKind.REDOUBLE)
_BIDS = tuple(Call(CallKind.BID, lv, d) for lv in range(1, 8) for d in Denomination)
ALL_BIDS: tuple[Call, ...] = _BIDS
"""The 35 bids from 1C to 7NT, in ascending order."""

_CALL_BY_TEXT: dict[str, Call] = {str(c): c for c in (*_BIDS, PASS, DOUBLE, REDOUBLE)}
_CALL_BY_TEXT |= {str(c).upper(): c for c in (*_BIDS, PASS, DOUBLE, REDOUBLE)}
_CALL_BY_TEXT |= {f"{lv}N": Call(CallKind.BID, lv, Denomination.NT) for lv in range(1, 8)}
_CALL_BY_TEXT |= {"P": PASS, "PASS": PASS, "D": DOUBLE, "R": REDOUBLE}
_CALL_BY_TEXT = {k: (_BIDS[v.rank] if v.is_bid else v) for k, v in _CALL_BY_TEXT.items()}
