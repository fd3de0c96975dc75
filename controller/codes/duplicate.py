"""Duplicate bridge (Laws of Duplicate Bridge 2008, as Duplicate Decisions explains them)."""

from __future__ import annotations

from dataclasses import dataclass

from controller.codes import Sheet, SheetEntry
from controller.codes.laws import DUPLICATE_LAWS
from controller.codes.rules import DUPLICATE_RULES, RulesOfCode
from controller.scoring import DealResult, duplicate_score
from controller.seats import Seat, Side, Vulnerability, board_dealer, board_vulnerability

__all__ = ["Duplicate"]


@dataclass(frozen=True, slots=True)
class Duplicate:
    """Each board scored on its own (Law 77); dealer and vulnerability from the board (Law 2)."""

    name: str = "duplicate"
    declares_trumps: bool = False
    rules: RulesOfCode = DUPLICATE_RULES

    def law(self, situation: str) -> str:
        return DUPLICATE_LAWS.get(situation, "")

    def declaration(self, dealer: Seat) -> None:
        """No trump declaration: the contract comes from an auction (Law 17)."""
        return None

    def new_sheet(self) -> Sheet:
        return Sheet()

    def deal_setup(self, sheet: Sheet, number: int | None, dealer: Seat | None,
                   vulnerability: Vulnerability | None) -> tuple[Seat, Vulnerability]:
        """The board's markings govern (Law 2); missing ones follow from the board number."""
        n = number if number is not None and number > 0 else sheet.deals + 1
        return (dealer if dealer is not None else board_dealer(n),
                vulnerability if vulnerability is not None else board_vulnerability(n))

    def score_deal(self, sheet: Sheet, result: DealResult) -> tuple[Sheet, tuple[SheetEntry, ...]]:
        deal = sheet.deals + 1
        ns = duplicate_score(result.contract, result.tricks, result.vulnerability)
        entries: tuple[SheetEntry, ...] = ()
        if ns:
            side = Side.NS if ns > 0 else Side.EW
            entries = (SheetEntry(deal, side, abs(ns), True, "board"),)
        return Sheet(sheet.entries + entries, deal, result.dealer, sheet.points_with(entries)), entries

    def finish(self, sheet: Sheet) -> tuple[Sheet, tuple[SheetEntry, ...]]:
        return sheet, ()
