"""Hand records: every board's deal, dealer, vulnerability, double-dummy table and par on a
printable page; the double-dummy values are DDS's own; nothing else is on the page."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from controller.calls import Denomination
from controller.cards import DECK, Card, Suit
from controller.deal import Deal
from controller.records import pbn
from controller.records.handrecord import (
    DoubleDummy,
    HandRecordBoard,
    Par,
    ParContract,
    boards_of,
    hand_record_html,
)
from controller.records.model import BoardRecord
from controller.seats import SEATS, Seat, Vulnerability
from tablectl.handrecord import analyse

# endplay's documentation deal; the tricks each seat takes as declarer in C, D, H, S, NT by
# DDS's CalcDDtable (as tests/controller/test_claimhelp.py checks them too)
DEAL = "N:974.AJ3.63.AK963 K83.K9752.7.8752 AQJ5.T864.KJ94.4 T62.Q.AQT852.QJT"
TABLE = ((8, 8, 8, 9, 9), (4, 5, 4, 4, 4), (9, 8, 9, 9, 9), (3, 4, 3, 3, 3))


class _Page(HTMLParser):
    """The text of each board's hands, its info and its analysis, by board id."""

    def __init__(self) -> None:
        super().__init__()
        self.boards: dict[str, dict[str, str]] = {}
        self.board: str | None = None
        self.part: list[str] = []
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "article":
            self.board = a.get("id")
            assert self.board is not None
            self.boards[self.board] = {}
        classes = (a.get("class") or "").split() or [""]
        if self.board and tag == "div" and classes[0] in ("hand", "info", "analysis", "compass") and \
                not self.depth:
            self.part = [classes[-1]]
            self.depth = 1
        elif self.depth:
            self.depth += 1 if tag == "div" else 0

    def handle_endtag(self, tag: str) -> None:
        if self.depth and tag == "div":
            self.depth -= 1
            if not self.depth and self.board:
                self.boards[self.board][self.part[0]] = " ".join(self.part[1:])

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.part.append(data.strip())


def cards_shown(hand_text: str) -> set[Card]:
    cards = set()
    suit = None
    for token in hand_text.split():
        if token in ("♠", "♥", "♦", "♣"):
            suit = Suit("♣♦♥♠".index(token))
        elif token != "—":
            assert suit is not None
            cards.add(Card.parse(suit.name + token))
    return cards


def test_double_dummy_table_of_a_known_deal_is_ddss_own() -> None:
    from endplay.dds import calc_dd_table, par
    from endplay.types import Deal as EndplayDeal
    from endplay.types import Denom, Player, Vul

    (board,) = analyse([HandRecordBoard(1, Deal.parse(DEAL))])
    assert board.double_dummy == DoubleDummy(TABLE)
    table = calc_dd_table(EndplayDeal(DEAL))
    for seat in SEATS:
        for d in Denomination:
            denom = Denom.nt if d is Denomination.NT else Denom(3 - d)
            assert board.double_dummy.of(seat, d) == table[denom, Player(seat)]
    assert board.par is not None and board.par.score == par(table, Vul.none, Player.north).score == 400
    assert str(board.par) == "Par NS +400: 3NT by N/S ="  # both North and South make 9 tricks at notrump


def test_par_is_the_boards_own_dealer_and_vulnerability() -> None:
    from endplay.dds import par
    from endplay.types import Deal as EndplayDeal
    from endplay.types import Player, Vul

    (board,) = analyse([HandRecordBoard(7, Deal.parse(DEAL))])  # board 7: South deals, all vulnerable
    assert board.par is not None
    assert board.par.score == par(EndplayDeal(DEAL), Vul.both, Player.south).score


def test_page_shows_every_board_its_cards_dealer_vulnerability_and_analysis(corpus: Path) -> None:
    boards, skipped = boards_of(pbn.load(corpus / "results" / "fin-sm2.pbn"))
    assert skipped == [] and [b.number for b in boards] == list(range(67, 106))
    boards = analyse(boards)
    page = hand_record_html(boards, title="SM 2014, session 2")
    parsed = _Page()
    parsed.feed(page)
    assert list(parsed.boards) == [f"board-{n}" for n in range(67, 106)]
    for b in boards:
        shown = parsed.boards[f"board-{b.number}"]
        for seat in SEATS:
            hand = b.deal.hand(seat)
            assert hand is not None
            assert cards_shown(shown[{Seat.N: "north", Seat.E: "east", Seat.S: "south", Seat.W: "west"}[seat]]) \
                == set(hand)
        assert f"Dealer {({Seat.N: 'North', Seat.E: 'East', Seat.S: 'South', Seat.W: 'West'})[b.dealer_seat]}" \
            in shown["info"]
        assert b.double_dummy is not None and b.par is not None
        numbers = [int(t) for t in re.findall(r"\b\d+\b", shown["analysis"].split("Par")[0])]
        assert numbers == [b.double_dummy.of(seat, d) for seat in (Seat.N, Seat.S, Seat.E, Seat.W)
                           for d in (Denomination.NT, Denomination.S, Denomination.H, Denomination.D,
                                     Denomination.C)]
        par_shown = shown["analysis"][shown["analysis"].index("Par"):]
        assert str(b.par).replace(" ", "") == par_shown.replace(" ", "")
    # 67: South deals, East-West vulnerable, as the file's own tags say
    assert "Dealer South" in parsed.boards["board-67"]["info"] and "Vul E-W" in parsed.boards["board-67"]["info"]


def test_page_is_self_contained_and_shows_nothing_but_the_deals() -> None:
    boards = [HandRecordBoard(n, Deal.parse(DEAL)) for n in (1, 2, 3, 4, 5)]
    page = hand_record_html(boards, title='<script>alert("x")</script> & Co', per_page=2)
    assert "<script" not in page and "&lt;script&gt;" in page
    for concealing in ("display:none", "display: none", "visibility", " hidden", "<!--", "http", "src=", "data-"):
        assert concealing not in page
    # every card token on the page is one of the deal's cards, each once per board
    body = page[page.index("<body>"):]
    for article in re.findall(r'<article class="board".*?</article>', body):
        parsed = _Page()
        parsed.feed(article)
        (shown,) = parsed.boards.values()
        held = [cards_shown(shown[h]) for h in ("north", "east", "south", "west")]
        assert sum(len(h) for h in held) == 52 and set().union(*held) == set(DECK)
    assert page.count('<section class="page">') == 3  # 5 boards, 2 to a page


def test_unknown_dealer_and_vulnerability_follow_the_board_rotation_law_2() -> None:
    page = hand_record_html([HandRecordBoard(6, Deal.parse(DEAL)),
                             HandRecordBoard(6, Deal.parse(DEAL), Seat.N, Vulnerability.NONE)], per_page=2)
    infos = re.findall(r'<div class="info">(.*?)</div></div>', page)
    assert "Dealer East" in infos[0] and "Vul E-W" in infos[0]
    assert "Dealer North" in infos[1] and "Vul None" in infos[1]


def test_boards_of_takes_each_number_once_and_completes_a_three_hand_deal() -> None:
    three = Deal.parse("N:974.AJ3.63.AK963 K83.K9752.7.8752 AQJ5.T864.KJ94.4 -")
    records = [BoardRecord("f", 2, deal=None), BoardRecord("f", 1, deal=three), BoardRecord("f", 1),
               BoardRecord("f", 3, error="invalid deal"), BoardRecord("f", 2, deal=Deal.parse(DEAL))]
    boards, skipped = boards_of(records)
    assert [b.number for b in boards] == [1, 2]
    assert boards[0].deal == Deal.parse(DEAL)
    assert skipped == ["board 3: invalid deal"]


def test_par_contract_text() -> None:
    par = Par(-200, (ParContract(5, Denomination.S, (Seat.N, Seat.S), "x", -1),))
    assert str(par) == "Par EW +200: 5♠x by N/S −1"
    assert str(Par(0, ())) == "Par 0: pass"


def test_two_to_four_boards_to_a_page() -> None:
    with pytest.raises(ValueError, match="2 to 4"):
        hand_record_html([], per_page=5)
    boards = [HandRecordBoard(n, Deal.parse(DEAL)) for n in range(1, 10)]
    assert hand_record_html(boards).count('<section class="page">') == 3
    assert "@page { size: A4;" in hand_record_html(boards)
