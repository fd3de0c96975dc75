"""Codes of laws as values: what differs between duplicate (2008 and 2017), rubber, Chicago and 1905 bridge.

A table is given one ``Code``; the engine never asks which code it has. Each code says:
the law reference for a situation (numbers differ between codes), the dealer and
vulnerability of the next deal, how a deal is scored onto its score sheet, and what is
scored when the session ends (an unfinished rubber, Law 80).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from controller.errors import BridgeTableError
from controller.scoring import DealResult
from controller.seats import Seat, Side, Vulnerability

if TYPE_CHECKING:
    from controller.codes.bridge1905 import Declaration1905
    from controller.codes.rules import RulesOfCode

__all__ = ["CODES_BEFORE_2017", "CODES_WITH_AUCTION", "CODE_NAMES", "CODE_TITLES", "LOG_DEFAULT_CODE",
           "TABLE_DEFAULT_CODE", "Code", "Sheet", "SheetEntry", "UnknownCodeError", "code_named"]


@dataclass(frozen=True, slots=True)
class SheetEntry:
    """One line on a score sheet: ``points`` to ``side``, below the line or above it."""

    deal: int
    side: Side
    points: int
    below: bool
    label: str


@dataclass(frozen=True, slots=True)
class Sheet:
    """A score sheet: its entries, the number of deals scored, and each side's running total.

    ``points`` (NS, EW) is kept as deals are scored, so a totals query never walks the
    entries, and a long replay may drop the entries it has reported (``without_entries``)
    without losing the totals. Codes that need more (games won, partscores toward game, the
    rubber count) subclass it.
    """

    entries: tuple[SheetEntry, ...] = ()
    deals: int = 0
    last_dealer: Seat | None = None
    points: tuple[int, int] = (0, 0)

    def total(self, side: Side) -> int:
        return self.points[side]

    def points_with(self, entries: tuple[SheetEntry, ...]) -> tuple[int, int]:
        """The running totals once ``entries`` are added."""
        ns, ew = self.points
        for e in entries:
            if e.side is Side.NS:
                ns += e.points
            else:
                ew += e.points
        return ns, ew

    def without_entries(self) -> Sheet:
        """The same sheet with its entries dropped (totals and counts kept)."""
        return replace(self, entries=())

    @property
    def total_ns(self) -> int:
        """North-South's net score: their points less East-West's."""
        return self.total(Side.NS) - self.total(Side.EW)


class Code(Protocol):
    """A code of laws in force at a table (docs/irregularities.md, the codes of laws)."""

    @property
    def name(self) -> str:
        """``duplicate`` (2008), ``duplicate2017``, ``rubber``, ``chicago`` or ``bridge1905``."""
        ...

    @property
    def declares_trumps(self) -> bool:
        """True where the dealer declares trumps instead of an auction (1905, W 45)."""
        ...

    @property
    def rules(self) -> RulesOfCode:
        """The rectifications that differ between the codes (docs/irregularities.md, the codes of laws)."""
        ...

    def law(self, situation: str) -> str:
        """The law reference in this code for a catalogue situation or irregularity kind."""
        ...

    def new_sheet(self) -> Sheet:
        """An empty score sheet."""
        ...

    def deal_setup(self, sheet: Sheet, number: int | None, dealer: Seat | None,
                   vulnerability: Vulnerability | None) -> tuple[Seat, Vulnerability]:
        """Dealer and vulnerability of the next deal (the log's values are hints)."""
        ...

    def declaration(self, dealer: Seat) -> Declaration1905 | None:
        """The 1905 trump declaration for a deal by ``dealer``; None where an auction is held."""
        ...

    def score_deal(self, sheet: Sheet, result: DealResult) -> tuple[Sheet, tuple[SheetEntry, ...]]:
        """The sheet after scoring one deal, and the entries that deal added."""
        ...

    def finish(self, sheet: Sheet) -> tuple[Sheet, tuple[SheetEntry, ...]]:
        """The sheet when the session ends (e.g. Law 80 for an unfinished rubber)."""
        ...


class UnknownCodeError(BridgeTableError, ValueError):
    """A code name that is not one of ``CODE_NAMES``."""


CODE_TITLES: dict[str, str] = {"duplicate": "duplicate 2008", "duplicate2017": "duplicate 2017", "rubber": "rubber",
                               "chicago": "Chicago", "bridge1905": "1905"}
"""Every code a table can play, in the order the catalogue and the docs list them, with its title:
the one list of codes (the names below, the table config and the docs read it)."""
CODE_NAMES = tuple(CODE_TITLES)
"""``duplicate`` is the 2008 code (Duplicate Decisions), ``duplicate2017`` the 2017 Laws."""
CODES_WITH_AUCTION = tuple(c for c in CODE_NAMES if c != "bridge1905")
"""The codes with an auction (the 1905 game has a declaration instead, W 45)."""
CODES_BEFORE_2017 = tuple(c for c in CODES_WITH_AUCTION if c != "duplicate2017")
"""The codes with an auction whose rectifications predate the 2017 Laws."""
TABLE_DEFAULT_CODE = "duplicate2017"
"""What a table config that names no code plays: the 2017 Laws, the code clubs play today."""
LOG_DEFAULT_CODE = "duplicate"
"""What a table log or record with no session line was played under (the 2008 code): the contract of
``tablectl replay``'s report, kept so old logs replay as they did."""


def code_named(name: str, settings: Mapping[str, object] | None = None) -> Code:
    """The code called ``name`` with its table settings (e.g. ``{"club_laws": True}``)."""
    settings = settings or {}
    if name == "duplicate":
        from controller.codes.duplicate import Duplicate
        return Duplicate()
    if name == "duplicate2017":
        from controller.codes.duplicate2017 import Duplicate2017
        return Duplicate2017()
    if name == "rubber":
        from controller.codes.rubber import Rubber
        return Rubber(club_laws=bool(settings.get("club_laws", False)))
    if name == "chicago":
        from controller.codes.chicago import Chicago
        return Chicago()
    if name == "bridge1905":
        from controller.codes.bridge1905 import Bridge1905
        cap = settings.get("max_odd_trick_value")
        five = settings.get("five_honours_divided")
        code = Bridge1905(max_odd_trick_value=int(cap) if isinstance(cap, int | float) else None)
        if isinstance(five, list | tuple) and len(five) == 4:
            code = Bridge1905(tuple(int(v) for v in five), code.max_odd_trick_value)  # type: ignore[arg-type]
        return code
    raise UnknownCodeError(f"unknown code {name!r}: expected one of {', '.join(CODE_NAMES)}")
