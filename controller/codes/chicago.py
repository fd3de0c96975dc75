"""Chicago, or four-deal bridge (Laws of Rubber Bridge 2014, Appendix 4).

Rubber bridge scored in series of four deals that were bid and played (App4-B), each deal's
vulnerability fixed by its place in the series and the seat of its rightful dealer (App4-C,
App4-G). Everything not changed by Appendix 4 is rubber bridge (App4-A): trick points,
overtricks, undertricks, slams, the doubled bonuses and honours (Law 81).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.codes import Sheet, SheetEntry
from controller.codes.rubber import RUBBER_SCORE_LAWS, contract_entries, rubber_honours
from controller.codes.rules import RUBBER_RULES, RulesOfCode
from controller.scoring import DealResult
from controller.seats import Seat, Side, Vulnerability

__all__ = ["CHICAGO_LAWS", "Chicago", "ChicagoSheet", "chicago_vulnerability"]

GAME = 100
"""Trick points, on one deal or added to earlier partscores, that make a game (App4-D)."""

SERIES = 4
"""Deals bid and played in a Chicago series (App4-B)."""

CHICAGO_LAWS: dict[str, str] = RUBBER_SCORE_LAWS | {
    "passed_out_deal": "22A, App4-B",
    "deal_out_of_turn": "9, App4-G",
    "rubber_not_finished": "App4-B",
    "honours_claim": "76, 81, App4-A",
    "chicago_vulnerability_diagram_error": "App4-E",
    "chicago_deal_count_error": "App4-B",
}
"""Rubber references with Appendix 4 where it replaces them."""


def chicago_vulnerability(deal_in_series: int, dealer: Seat,
                          non_dealer_vulnerable: bool = False) -> Vulnerability:
    """Vulnerability of deal 1-4 of a series dealt by the rightful ``dealer`` (App4-C).

    Deal 1: nobody; deals 2 and 3: the dealer's side (the other side when the players have
    agreed to switch); deal 4: both. Earlier scores never change it.
    """
    if deal_in_series <= 1:
        return Vulnerability.NONE
    if deal_in_series >= SERIES:
        return Vulnerability.BOTH
    side = dealer.side.other if non_dealer_vulnerable else dealer.side
    return Vulnerability.of(side is Side.NS, side is Side.EW)


@dataclass(frozen=True, slots=True)
class ChicagoSheet(Sheet):
    """A Chicago score sheet: the place in the series and the partscores toward game.

    ``played`` counts the deals bid and played in the current series (0-3; a passed-out deal
    does not count, App4-B); ``series`` counts completed series; ``below`` holds each side's
    partscores still counting toward game (App4-F); ``next_dealer`` is the rightful dealer of
    the next deal, whoever actually dealt (App4-G).
    """

    played: int = 0
    series: int = 0
    below: tuple[int, int] = (0, 0)
    next_dealer: Seat | None = None

    @property
    def deal_in_series(self) -> int:
        """The next deal's number in its series, 1 to 4 (the diagram of App4-E)."""
        return self.played + 1


@dataclass(frozen=True, slots=True)
class Chicago:
    """Four-deal bridge: fixed vulnerability, 300/500 per game, 100 for a deal-4 partscore.

    ``non_dealer_vulnerable`` is the switch of App4-C the players may agree on: on deals 2
    and 3 the dealer's opponents are vulnerable instead of the dealer's side.
    """

    non_dealer_vulnerable: bool = False
    name: str = "chicago"
    declares_trumps: bool = False
    rules: RulesOfCode = RUBBER_RULES

    def law(self, situation: str) -> str:
        return CHICAGO_LAWS.get(situation, "")

    def declaration(self, dealer: Seat) -> None:
        """No trump declaration: the contract comes from an auction (Law 17)."""
        return None

    def new_sheet(self) -> ChicagoSheet:
        return ChicagoSheet()

    def deal_setup(self, sheet: Sheet, number: int | None, dealer: Seat | None,
                   vulnerability: Vulnerability | None) -> tuple[Seat, Vulnerability]:
        """The dealer, and the vulnerability of the rightful dealer's deal (App4-B, C, E, G).

        A dealer given by the log is who actually deals; a deal out of turn changes neither
        the vulnerability nor the rotation, which follow the rightful dealer (App4-G). The
        first dealer of the session is the log's, else North. The log's deal number and
        vulnerability are ignored: the controller's count is the diagram (App4-E).
        """
        s = _chicago_sheet(sheet)
        rightful = s.next_dealer
        if rightful is None:
            rightful = dealer if dealer is not None else Seat.N
        vul = chicago_vulnerability(s.deal_in_series, rightful, self.non_dealer_vulnerable)
        return (dealer if dealer is not None else rightful), vul

    def score_deal(self, sheet: Sheet, result: DealResult) -> tuple[Sheet, tuple[SheetEntry, ...]]:
        """Score one deal of the series (App4-B, D, F; Law 81 otherwise).

        A passed-out deal is not counted and the same dealer deals again (App4-B). A game
        made or completed scores 300, or 500 if the completing side is vulnerable on that
        deal (App4-D), and no earlier partscore of either side counts toward game after it
        (App4-F). A partscore on deal 4 that does not complete a game scores 100. After the
        fourth deal a new series starts with no partscore carried over.
        """
        s = _chicago_sheet(sheet)
        deal = s.deals + 1
        rightful = s.next_dealer if s.next_dealer is not None else result.dealer
        contract = result.contract
        if contract is None:
            new = replace(s, deals=deal, last_dealer=result.dealer, next_dealer=rightful)
            return new, ()
        number = s.deal_in_series
        vul = chicago_vulnerability(number, rightful, self.non_dealer_vulnerable)
        side = contract.declarer.side
        vulnerable = vul.is_vulnerable(side)
        entries, points = contract_entries(deal, contract, result.tricks, vulnerable)
        honours = rubber_honours(result.deal, contract.denomination)
        if honours is not None:
            entries += (SheetEntry(deal, honours[0], honours[1], False, "honours"),)
        below = s.below
        if points:
            below = (below[0] + points, below[1]) if side is Side.NS else (
                below[0], below[1] + points)
            if below[side] >= GAME:
                entries += (SheetEntry(deal, side, 500 if vulnerable else 300, False, "game"),)
                below = (0, 0)
            elif number == SERIES:
                entries += (SheetEntry(deal, side, 100, False, f"partscore deal {SERIES}"),)
        played, series = number, s.series
        if played == SERIES:
            played, series, below = 0, series + 1, (0, 0)
        new = ChicagoSheet(s.entries + entries, deal, result.dealer, s.points_with(entries),
                           played, series, below, rightful.lho)
        return new, entries

    def finish(self, sheet: Sheet) -> tuple[Sheet, tuple[SheetEntry, ...]]:
        """Nothing: an incomplete series stands as scored (App4-B), with no rubber premium."""
        return sheet, ()


def _chicago_sheet(sheet: Sheet) -> ChicagoSheet:
    """The sheet as a Chicago sheet (a plain ``Sheet`` is read as the start of a series)."""
    if isinstance(sheet, ChicagoSheet):
        return sheet
    return ChicagoSheet(sheet.entries, sheet.deals, sheet.last_dealer, sheet.points)
