"""Rubber bridge (Laws of Rubber Bridge 2014, Laws 72-81), optionally with the Club Laws.

The score sheet keeps what Law 75 draws on paper: trick points below the line toward the
current game, premiums above it, the games each side has won in the rubber. A side that has
won a game is vulnerable (definitions), so vulnerability comes from the sheet, never from the
log. A new rubber starts as soon as one ends; the sheet runs on across rubbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from controller.calls import Denomination
from controller.cards import Rank
from controller.codes import Sheet, SheetEntry
from controller.codes.laws import RUBBER_LAWS
from controller.codes.rules import RUBBER_CLUB_RULES, RUBBER_RULES, RulesOfCode
from controller.contract import Contract
from controller.deal import Deal
from controller.scoring import (
    DealResult,
    insult_bonus,
    overtrick_points,
    slam_premium,
    trick_points,
    undertrick_penalty,
)
from controller.seats import SEATS, Seat, Side, Vulnerability

__all__ = [
    "CLUB_AMENDED_LAWS",
    "RUBBER_CLUB_LAWS",
    "RUBBER_SCORE_LAWS",
    "Rubber",
    "RubberSheet",
    "club_reference",
    "contract_entries",
    "rubber_honours",
]

GAME = 100
"""Trick points below the line that win a game (Law 73)."""

RUBBER_SCORE_LAWS: dict[str, str] = RUBBER_LAWS | {
    "deal_out_of_turn": "9, 10A3",
    "passed_out_deal": "22A",
    "honours_claim": "76, 81",
    "rubber_not_finished": "80",
    "trick_count_disagreement": "76, 78",
    "score_arithmetic_error": "78",
}
"""Rubber references, with the scoring and dealing situations (R 1-16, 72-84)."""

CLUB_AMENDED_LAWS: tuple[int, ...] = (13, 14, 16, 21, 23, 25, 27, 29, 30, 31, 32, 36, 37, 38, 40,
                                      47, 55, 64, 69, 70)
"""The regular laws that a Club Law of the same number amends or adds to (Part VIII)."""


def _law_numbers(reference: str) -> list[int]:
    """The regular law numbers a reference cites: ``"55A, 53"`` -> 55, 53; ``"61-64"`` -> 61-64.

    Items that are not laws (``App. 2``, ``Proprieties 2``) are skipped.
    """
    numbers: list[int] = []
    for item in reference.split(","):
        m = re.match(r"\s*(\d+)[A-Z0-9()a-z]*(?:-(\d+))?\s*$", item)
        if m is None:
            continue
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) else first
        numbers.extend(range(first, last + 1))
    return numbers


def club_reference(reference: str) -> str:
    """``reference`` with the Club Laws that amend the laws it cites: ``"31A"`` -> ``"31A, Club 31"``.

    Under Part VIII the Arbiter's reference is the regular law together with the Club Law
    of the same number (e.g. Club Laws 29-32, 55), so the prompt shows both.
    """
    amended = [n for n in dict.fromkeys(_law_numbers(reference)) if n in CLUB_AMENDED_LAWS]
    if not amended:
        return reference
    return f"{reference}, Club {', '.join(str(n) for n in amended)}"


_RUBBER_CLUB_KINDS: dict[str, str] = {
    "insufficient_bid": "27, Club 27",
    "call_out_of_rotation": "28-32, Club 29-32",
    "change_of_call": "25, Club 25",
    "inadmissible_call": "35-39, Club 36-38",
    "lead_out_of_turn": "53, 55, 56, Club 55",
    "failure_to_comply": "59-60, 64, Club 64",
    "claim": "68-71, Club 69, 70",
    "claim_by_declarer": "68, 69, Club 69",
    "claim_by_defender": "70, Club 70",
    "tempo": "16, App. 2, Club 16",
    "call_changed_for_misinformation": "21, Club 21",
    "alert_failure_or_wrong_explanation": "40, App. 1, Club 40",
}

RUBBER_CLUB_LAWS: dict[str, str] = {
    situation: _RUBBER_CLUB_KINDS.get(situation, club_reference(reference))
    for situation, reference in (RUBBER_SCORE_LAWS | _RUBBER_CLUB_KINDS).items()
}
"""Rubber references where an Arbiter rules (Part VIII): each Club Law beside the law it amends,
for every kind and every situation (a situation's own letters, e.g. ``31A, Club 31``)."""


def rubber_honours(deal: Deal | None, denomination: Denomination) -> tuple[Side, int] | None:
    """The honours held in one hand and the side credited, or None (Law 81, honours).

    Four of the five trump honours in one hand score 100, all five 150; at no trumps all
    four aces in one hand score 150. The side holding them scores, defenders included, made
    or not (Law 72B); doubling does not change them. None when the hands are not all known.
    """
    if deal is None:
        return None
    deal = deal.completed()
    if not deal.is_complete:
        return None
    trump = denomination.trump
    for seat in SEATS:
        hand = deal.hand(seat) or frozenset()
        if trump is None:
            if sum(1 for c in hand if c.rank is Rank.ACE) == 4:
                return seat.side, 150
            continue
        held = sum(1 for c in hand if c.suit is trump and c.rank.is_honour)
        if held == 5:
            return seat.side, 150
        if held == 4:
            return seat.side, 100
    return None


def contract_entries(deal: int, contract: Contract, tricks: int,
                     vulnerable: bool) -> tuple[tuple[SheetEntry, ...], int]:
    """The entries of a contract's result, and the trick points toward game (Law 81).

    Declarer's side scores the trick points bid below the line and its overtricks, the
    bonus for making a doubled contract and the slam premium above it; a defeated contract
    gives the defenders the undertrick penalty by declarer's vulnerability. Honours, game
    and rubber premiums are the caller's: they depend on the code.
    """
    side = contract.declarer.side
    diff = tricks - contract.tricks_needed
    if diff < 0:
        down = undertrick_penalty(-diff, contract.doubled, vulnerable)
        return (SheetEntry(deal, side.other, down, False, "undertricks"),), 0
    points = trick_points(contract)
    entries = [SheetEntry(deal, side, points, True, "trick points")]
    for label, value in (("overtricks", overtrick_points(contract, diff, vulnerable)),
                         ("insult", insult_bonus(contract)),
                         ("slam", slam_premium(contract, vulnerable))):
        if value:
            entries.append(SheetEntry(deal, side, value, False, label))
    return tuple(entries), points


def _add(pair: tuple[int, int], side: Side, value: int) -> tuple[int, int]:
    return (pair[0] + value, pair[1]) if side is Side.NS else (pair[0], pair[1] + value)


@dataclass(frozen=True, slots=True)
class RubberSheet(Sheet):
    """A rubber score sheet: games won in the current rubber and trick points toward game.

    ``games`` and ``below`` are indexed by side (NS, EW). ``rubbers`` counts the rubbers
    scored, finished (Law 74) or closed unfinished (Law 80); ``rubber_ended`` is True when
    the last deal (or the end of the session) closed a rubber.
    """

    games: tuple[int, int] = (0, 0)
    below: tuple[int, int] = (0, 0)
    rubbers: int = 0
    rubber_ended: bool = False

    @property
    def vulnerability(self) -> Vulnerability:
        """A side that has won a game in this rubber is vulnerable (definitions, Law 81)."""
        return Vulnerability.of(self.games[0] > 0, self.games[1] > 0)


@dataclass(frozen=True, slots=True)
class Rubber:
    """Rubber bridge: games of 100 below the line, a rubber of two games (Laws 72-81).

    ``club_laws`` puts the Alternative Club Laws (Part VIII) in force: an Arbiter rules.
    For now it changes only the law references (``RUBBER_CLUB_LAWS``); the score is the
    same, since the Club Laws change who rules and when a score may be adjusted, not the
    scoring table.
    """

    club_laws: bool = False
    name: str = "rubber"
    declares_trumps: bool = False

    @property
    def rules(self) -> RulesOfCode:
        """Rubber rectifications; with the Club Laws the Arbiter rules on disputed claims (Club 69)."""
        return RUBBER_CLUB_RULES if self.club_laws else RUBBER_RULES

    def law(self, situation: str) -> str:
        table = RUBBER_CLUB_LAWS if self.club_laws else RUBBER_SCORE_LAWS
        return table.get(situation, "")

    def declaration(self, dealer: Seat) -> None:
        """No trump declaration: the contract comes from an auction (Law 17)."""
        return None

    def new_sheet(self) -> RubberSheet:
        return RubberSheet()

    def deal_setup(self, sheet: Sheet, number: int | None, dealer: Seat | None,
                   vulnerability: Vulnerability | None) -> tuple[Seat, Vulnerability]:
        """The dealer in rotation and the vulnerability of the sheet (Laws 9, 22A, 81).

        The deal passes clockwise after every deal, a passed-out one included (Law 22A).
        A dealer given by the log is taken as it is: a deal out of turn stands once the last
        card is dealt and the rotation continues from it (Law 9). The first dealer defaults
        to North. The log's vulnerability is ignored: it follows from the games won.
        """
        if dealer is None:
            dealer = sheet.last_dealer.lho if sheet.last_dealer is not None else Seat.N
        return dealer, _rubber_sheet(sheet).vulnerability

    def score_deal(self, sheet: Sheet, result: DealResult) -> tuple[Sheet, tuple[SheetEntry, ...]]:
        """Score one deal: trick points, premiums, honours, game and rubber (Laws 72-74, 77, 81).

        ``result.tricks`` already counts tricks transferred for a revoke (Law 77). A game
        wipes both sides' trick points toward the next game (Law 73); the second game of a
        side ends the rubber with 700 or 500 (Law 74) and the next rubber starts at once.
        """
        s = _rubber_sheet(sheet)
        deal = s.deals + 1
        contract = result.contract
        if contract is None:
            new = replace(s, deals=deal, last_dealer=result.dealer, rubber_ended=False)
            return new, ()
        side = contract.declarer.side
        entries, points = contract_entries(
            deal, contract, result.tricks, s.vulnerability.is_vulnerable(side))
        honours = rubber_honours(result.deal, contract.denomination)
        if honours is not None:
            entries += (SheetEntry(deal, honours[0], honours[1], False, "honours"),)
        below, games, rubbers, ended = _add(s.below, side, points), s.games, s.rubbers, False
        if below[side] >= GAME:
            below = (0, 0)
            games = _add(games, side, 1)
            if games[side] == 2:
                bonus = 700 if games[side.other] == 0 else 500
                entries += (SheetEntry(deal, side, bonus, False, "rubber"),)
                games, rubbers, ended = (0, 0), rubbers + 1, True
        new = RubberSheet(s.entries + entries, deal, result.dealer, s.points_with(entries),
                          games, below, rubbers, ended)
        return new, entries

    def finish(self, sheet: Sheet) -> tuple[Sheet, tuple[SheetEntry, ...]]:
        """Close an unfinished rubber (Law 80): 300 for the only game, 100 for the only partscore.

        At one game all nobody gets the 300; when both sides have a partscore in the
        unfinished game nobody gets the 100 (R 80 is silent on both). A second call adds nothing.
        """
        s = _rubber_sheet(sheet)
        if s.games == (0, 0) and s.below == (0, 0):
            return s, ()
        deal = s.deals
        entries: tuple[SheetEntry, ...] = ()
        for side in Side:
            if s.games[side] > 0 and s.games[side.other] == 0:
                entries += (SheetEntry(deal, side, 300, False, "unfinished rubber"),)
        for side in Side:
            if s.below[side] > 0 and s.below[side.other] == 0:
                entries += (SheetEntry(deal, side, 100, False, "unfinished rubber"),)
        new = replace(s, entries=s.entries + entries, points=s.points_with(entries), games=(0, 0), below=(0, 0),
                      rubbers=s.rubbers + 1, rubber_ended=True)
        return new, entries


def _rubber_sheet(sheet: Sheet) -> RubberSheet:
    """The sheet as a rubber sheet (a plain ``Sheet`` is read as one with nothing won)."""
    if isinstance(sheet, RubberSheet):
        return sheet
    return RubberSheet(sheet.entries, sheet.deals, sheet.last_dealer, sheet.points)
