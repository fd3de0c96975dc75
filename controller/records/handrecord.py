"""Hand records: a printable HTML page of a session's deals, 2 to 4 boards to an A4 page (pure).

Each board shows its number, dealer and vulnerability (the board's own, else the standard
rotation of Law 2), the four hands with suit symbols around a compass with each hand's high
card points, and, when given, the double-dummy table (the tricks each declarer takes in
each denomination) and the par score with its contracts. The writer computes nothing: the
double-dummy tables and par come in with the boards (``tablectl handrecord`` gets them from
DDS through endplay), so that this module stays a function from values to text.

The page is one self-contained HTML document: its CSS inline, no script, no external
resource, nothing hidden; every card of a board appears once, in its hand, and nothing else.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from controller.calls import Denomination
from controller.cards import RANKS, SUITS, Rank, Suit
from controller.deal import Deal, Hand
from controller.errors import RecordError
from controller.records.model import BoardRecord
from controller.seats import SEATS, Seat, Side, Vulnerability, board_dealer, board_vulnerability

__all__ = ["DoubleDummy", "HandRecordBoard", "Par", "ParContract", "boards_of", "hand_record_html"]

_DENOMINATIONS = (Denomination.NT, Denomination.S, Denomination.H, Denomination.D, Denomination.C)
_SYMBOL = {Denomination.NT: "NT", Denomination.S: "♠", Denomination.H: "♥", Denomination.D: "♦",
           Denomination.C: "♣"}
_SEAT_WORD = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
_HCP = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}


@dataclass(frozen=True, slots=True)
class DoubleDummy:
    """The tricks each declarer takes in each denomination with best play by all four hands:
    ``tricks[seat][denomination]``, seats N, E, S, W and denominations C, D, H, S, NT."""

    tricks: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if len(self.tricks) != 4 or any(len(row) != 5 or any(not 0 <= t <= 13 for t in row) for row in self.tricks):
            raise RecordError(f"a double-dummy table is 4 seats by 5 denominations of 0 to 13 tricks: {self.tricks}")

    def of(self, declarer: Seat, denomination: Denomination) -> int:
        """The tricks ``declarer`` takes in ``denomination``."""
        return self.tricks[declarer][denomination]


@dataclass(frozen=True, slots=True)
class ParContract:
    """A par contract: level, denomination, who may declare it, doubled (``x``) or not, and
    the tricks over (+) or under (-) the contract it takes double dummy."""

    level: int
    denomination: Denomination
    declarers: tuple[Seat, ...]
    penalty: str
    result: int

    def __str__(self) -> str:
        by = "/".join(str(s) for s in self.declarers)
        outcome = "=" if self.result == 0 else f"{self.result:+d}".replace("-", "−")
        return f"{self.level}{_SYMBOL[self.denomination]}{self.penalty} by {by} {outcome}"


@dataclass(frozen=True, slots=True)
class Par:
    """The par score (North-South's) and the contracts that reach it; none when it is to pass."""

    score: int
    contracts: tuple[ParContract, ...]

    def __str__(self) -> str:
        if not self.contracts:
            return "Par 0: pass"
        side = Side.NS if self.score >= 0 else Side.EW
        return f"Par {side} +{abs(self.score)}: " + ", ".join(str(c) for c in self.contracts)


@dataclass(frozen=True, slots=True)
class HandRecordBoard:
    """One board of a hand record; dealer and vulnerability by the board rotation when None."""

    number: int
    deal: Deal
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    double_dummy: DoubleDummy | None = None
    par: Par | None = None

    @property
    def dealer_seat(self) -> Seat:
        return self.dealer if self.dealer is not None else board_dealer(self.number)

    @property
    def vulnerable(self) -> Vulnerability:
        return self.vulnerability if self.vulnerability is not None else board_vulnerability(self.number)


def boards_of(records: Iterable[BoardRecord]) -> tuple[list[HandRecordBoard], list[str]]:
    """The boards of a record file, each number once (its first record with a deal), in
    number order, and what was left out and why. A deal with one hand missing is completed
    from the cards nobody else holds."""
    boards: dict[int, HandRecordBoard] = {}
    why: dict[int, str] = {}
    for rec in records:
        n = rec.number
        if n is None or n < 1 or n in boards:
            continue
        if rec.error is not None or rec.deal is None:
            why.setdefault(n, rec.error or "no deal")
            continue
        deal = rec.deal.completed()
        if not deal.is_complete:
            why.setdefault(n, "the deal is not complete")
            continue
        boards[n] = HandRecordBoard(n, deal, rec.dealer, rec.vulnerability)
    return [boards[n] for n in sorted(boards)], [f"board {n}: {w}" for n, w in sorted(why.items()) if n not in boards]


def hand_record_html(boards: Sequence[HandRecordBoard], *, title: str = "Hand record", per_page: int = 4) -> str:
    """The printable HTML page of ``boards``: ``per_page`` (2 to 4) boards to each A4 page."""
    if not 2 <= per_page <= 4:
        raise ValueError(f"per_page = {per_page}: 2 to 4 boards to a page")
    pages = [boards[i:i + per_page] for i in range(0, len(boards), per_page)]
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{html.escape(title)}</title>", f"<style>{_css(per_page)}</style>", "</head>", "<body>"]
    for number, page in enumerate(pages, start=1):
        out.append('<section class="page">')
        out.append(f'<header>{html.escape(title)}<span>page {number} of {len(pages)}</span></header>')
        out.extend(_board(b) for b in page)
        out.append("</section>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)


def _css(per_page: int) -> str:
    return f"""
@page {{ size: A4; margin: 10mm 12mm; }}
* {{ box-sizing: border-box; }}
body {{ margin: 0; font: 10pt/1.3 "DejaVu Sans", "Segoe UI Symbol", Arial, sans-serif; color: #000; }}
.page {{ height: 276mm; display: flex; flex-direction: column; break-after: page; page-break-after: always; }}
.page:last-child {{ break-after: auto; page-break-after: auto; }}
header {{ display: flex; justify-content: space-between; font-weight: bold; border-bottom: 1px solid #000;
         padding-bottom: 1mm; }}
.board {{ flex: 0 0 calc((276mm - 8mm) / {per_page}); display: grid; grid-template-columns: 1fr 1fr 1.2fr;
         grid-template-rows: auto auto auto; align-items: center; padding: 2mm 0; border-bottom: 1px solid #999;
         break-inside: avoid; page-break-inside: avoid; }}
.info {{ grid-area: 1 / 1; font-weight: bold; }}
.info .number {{ font-size: 14pt; }}
.hand.north {{ grid-area: 1 / 2; justify-self: center; }} .hand.west {{ grid-area: 2 / 1; }}
.hand.east {{ grid-area: 2 / 3; }} .hand.south {{ grid-area: 3 / 2; justify-self: center; }}
.compass {{ grid-area: 2 / 2; width: 22mm; height: 22mm; border: 1px solid #000; position: relative;
           justify-self: center; font-size: 8pt; }}
.compass span {{ position: absolute; }}
.compass .n {{ top: 1mm; left: 0; right: 0; text-align: center; }}
.compass .s {{ bottom: 1mm; left: 0; right: 0; text-align: center; }}
.compass .w {{ left: 1mm; top: 8mm; }} .compass .e {{ right: 1mm; top: 8mm; }}
.analysis {{ grid-area: 3 / 3; font-size: 8.5pt; }}
.hand div {{ white-space: nowrap; }}
.red {{ color: #c00; }}
table.dd {{ border-collapse: collapse; }}
table.dd th, table.dd td {{ border: 1px solid #999; padding: 0 1.5mm; text-align: center; }}
.par {{ margin-top: 1mm; }}
@media screen {{ body {{ max-width: 200mm; margin: 0 auto; }} .page {{ height: auto; }} }}
""".strip()


def _symbol(suit: Suit) -> str:
    cls = ' class="red"' if suit in (Suit.H, Suit.D) else ""
    return f"<span{cls}>{suit.symbol}</span>"


def _holding(hand: Hand, suit: Suit) -> str:
    ranks = [r for r in RANKS if any(c.suit is suit and c.rank is r for c in hand)]
    return " ".join("10" if r is Rank.TEN else str(r) for r in ranks) or "—"


def _hand(seat: Seat, hand: Hand) -> str:
    rows = "".join(f"<div>{_symbol(suit)} {_holding(hand, suit)}</div>" for suit in SUITS)
    return f'<div class="hand {_SEAT_WORD[seat].lower()}" aria-label="{_SEAT_WORD[seat]}">{rows}</div>'


def _points(hand: Hand) -> int:
    return sum(_HCP.get(c.rank, 0) for c in hand)


def _vulnerability_text(v: Vulnerability) -> str:
    return {Vulnerability.NONE: "None", Vulnerability.NS: "N-S", Vulnerability.EW: "E-W",
            Vulnerability.BOTH: "All"}[v]


def _board(b: HandRecordBoard) -> str:
    hands = [h if h is not None else frozenset() for h in b.deal.hands]
    parts = [f'<article class="board" id="board-{b.number}">',
             f'<div class="info"><div class="number">Board {b.number}</div>'
             f"<div>Dealer {_SEAT_WORD[b.dealer_seat]}</div><div>Vul {_vulnerability_text(b.vulnerable)}</div></div>"]
    parts.extend(_hand(seat, hands[seat]) for seat in SEATS)
    parts.append('<div class="compass" title="high card points">'
                 + "".join(f'<span class="{str(seat).lower()}">{_points(hands[seat])}</span>' for seat in SEATS)
                 + "</div>")
    parts.append(f'<div class="analysis">{_analysis(b)}</div>')
    parts.append("</article>")
    return "".join(parts)


def _analysis(b: HandRecordBoard) -> str:
    out = []
    if b.double_dummy is not None:
        head = "".join(f"<th>{_denomination(d)}</th>" for d in _DENOMINATIONS)
        rows = "".join(f"<tr><th>{seat}</th>" + "".join(f"<td>{b.double_dummy.of(seat, d)}</td>"
                                                         for d in _DENOMINATIONS) + "</tr>"
                       for seat in (Seat.N, Seat.S, Seat.E, Seat.W))
        out.append(f'<table class="dd" title="tricks double dummy"><tr><th></th>{head}</tr>{rows}</table>')
    if b.par is not None:
        out.append(f'<div class="par">{_par_html(b.par)}</div>')
    return "".join(out)


def _denomination(d: Denomination) -> str:
    if d is Denomination.NT:
        return "NT"
    suit = d.trump
    assert suit is not None
    return _symbol(suit)


def _par_html(par: Par) -> str:
    text = html.escape(str(par))
    for d in (Denomination.H, Denomination.D):
        text = text.replace(_SYMBOL[d], f'<span class="red">{_SYMBOL[d]}</span>')
    return text
