"""The console's print and export desk (web_ui/console_results.py): the printable results page and its
PDF, the hand record, and every table's boards as PBN and LIN, behind the Director's session; each
file read back by programs of other authors (endplay, bridgebots, lxml) with every deal, auction,
play, contract and result the tables sent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import bridgebots
import pytest
from bridgebots.lin import parse_lin_str
from endplay.config import suppress_unicode
from endplay.parsers import lin as endplay_lin
from endplay.parsers import pbn as endplay_pbn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from lxml import etree

from controller.records import tablelog
from controller.records.people import Player
from controller.replay import outcome_json, replay_log
from tablectl.room.address import ClubAddress
from tablectl.room.console import Console
from tests.controller.test_room_results import Tables
from tests.web_ui.test_browser import CHROMIUM
from tests.web_ui.test_console_results import COOKIE, SESSION, director
from web_ui.console_results import results_router

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
PLAYED = ["62_revoke_by_defender_corrected_before_establishment", "62_revoke_by_declarer_corrected_no_penalty_card",
          "68_claim_by_declarer_agreed_by_both_defenders"]


def _outcome(name: str) -> dict[str, Any]:
    log = json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))["log"]
    state = replay_log(tablelog.loads("".join(json.dumps(x) + "\n" for x in log))).state
    return outcome_json(state.boards[0], state)


OUTCOMES = [_outcome(n) for n in PLAYED]


def _send(tables: Tables, table: int, board: int, outcome: dict[str, Any]) -> None:
    body = {k: outcome[k] for k in ("deal", "dealer", "vul", "auction", "play", "contract", "declarer", "tricks",
                                     "result", "score_ns", "status")}
    tables.room.receive("result", str(table), tables._envelope(str(table), {**body, "number": board}), tables.now)


def _console(tmp_path: Path, rounds: tuple[tuple[int, range], ...],
             named: bool = True) -> tuple[Console, dict[tuple[str, str], Any]]:
    console = Console(ClubAddress("mqtt", "127.0.0.1", 1883, "club"), tmp_path / "console", session=SESSION)
    if named:  # the Director names pair 1 in the Players panel, the others stay unnamed
        console.people.name_pair(None, "1", Player("Ann Smith", "509864"), Player("Bob Jones", ""))
    tables = Tables(console.room)
    movement = SESSION.movement()
    sent: dict[tuple[str, str], dict[str, Any]] = {}
    for rnd, at in rounds:
        for table in at:
            sitting = next(s for s in movement.sittings if s.table == table and s.round == rnd)
            for i, board in enumerate(movement.boards(sitting.board_set)):
                outcome = OUTCOMES[(table + i) % 3]
                _send(tables, table, board, outcome)
                sent[(str(board), str(table))] = outcome
    return console, sent


@pytest.fixture
def sent(tmp_path: Path) -> Iterator[tuple[Console, dict[tuple[str, str], dict[str, Any]]]]:
    """Round 1 at every table of a 5-table Mitchell and round 2 at tables 1-4. Every board has the
    same deal, played three ways."""
    console, sent = _console(tmp_path, ((1, range(1, 6)), (2, range(1, 5))))
    try:
        yield console, sent
    finally:
        console.store.close()


def _client(console: Console) -> TestClient:
    app = FastAPI()
    app.include_router(results_router(console, director))
    c = TestClient(app, base_url="http://testserver")
    c.cookies.update(COOKIE)
    return c


@pytest.fixture
def client(sent: tuple[Console, Any]) -> Iterator[TestClient]:
    with _client(sent[0]) as c:
        yield c


def _expected(outcome: dict[str, Any]) -> tuple[Any, ...]:
    return (outcome["deal"], outcome["auction"], outcome["play"], outcome["contract"], outcome["declarer"],
            outcome["tricks"])


@pytest.mark.parametrize("path", ["/api/results.html", "/api/results.pdf", "/api/handrecord.html",
                                  "/api/boards.pbn", "/api/boards.lin"])
def test_every_print_and_export_needs_the_directors_session(sent: Any, path: str) -> None:
    app = FastAPI()
    app.include_router(results_router(sent[0], director))
    with TestClient(app, base_url="http://testserver") as c:
        r = c.get(path)
    assert r.status_code == 401


def test_the_boards_pbn_reads_back_every_tables_play_with_endplay_and_bridgebots(
        client: TestClient, sent: Any, tmp_path: Path) -> None:
    r = client.get("/api/boards.pbn")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    path = tmp_path / "boards.pbn"
    path.write_text(r.text, encoding="utf-8")
    expected = [_expected(o) for _, o in sorted(sent[1].items(), key=lambda kv: (int(kv[0][0]), int(kv[0][1])))]
    with suppress_unicode(), open(path, encoding="utf-8") as f:
        boards = endplay_pbn.load(f)
    assert len(boards) == len(expected) == 27
    with suppress_unicode():
        got = [(b.deal.to_pbn(), [_call(c) for c in b.auction], [f"{c.suit.abbr}{c.rank.abbr}" for c in b.play],
                f"{b.contract.level}{b.contract.denom.abbr}", b.contract.declarer.abbr,
                b.contract.level + 6 + b.contract.result) for b in boards]
    assert got == expected
    # bridgebots groups the records of one deal (here every board has the same deal)
    by_bridgebots = [(br.bidding_record, [str(c) for c in br.play_record], str(br.contract), br.declarer.name[0],
                      br.tricks) for d in bridgebots.parse_pbn(path) for br in d.board_records]
    assert by_bridgebots == [([c.upper() for c in e[1]], e[2], e[3], e[4], e[5]) for e in expected]
    # the roll's names where it names the pair, empty elsewhere
    assert '[North "Ann Smith"]' in r.text and '[South "Bob Jones"]' in r.text


def _call(bid: Any) -> str:
    level = getattr(bid, "level", None)
    if level is not None:
        return f"{level}{bid.denom.abbr.replace('N', 'NT')}"
    return {"": "Pass", "x": "X", "xx": "XX"}[bid.penalty.abbr]


def test_the_boards_lin_gives_endplay_every_board_with_its_names(client: TestClient, sent: Any) -> None:
    r = client.get("/api/boards.lin")
    assert r.status_code == 200
    boards = endplay_lin.loads(r.text)
    assert len(boards) == len(sent[1])
    assert all(line.startswith("pn|") for line in r.text.splitlines())
    by_bridgebots = [br for d in parse_lin_str(r.text) for br in d.board_records]
    assert len(by_bridgebots) == len(sent[1])
    expected = [o for _, o in sorted(sent[1].items(), key=lambda kv: (int(kv[0][0]), int(kv[0][1])))]
    assert [(br.bidding_record, [str(c) for c in br.play_record], br.tricks) for br in by_bridgebots] == [
        ([c.upper() for c in o["auction"]], o["play"], o["tricks"]) for o in expected]


def test_the_usebio_traveller_lines_say_the_contract_declarer_lead_and_tricks(client: TestClient) -> None:
    r = client.get("/api/results.usebio")
    root = etree.fromstring(r.content, etree.XMLParser(resolve_entities=False, no_network=True))
    lines = root.findall(".//TRAVELLER_LINE")
    assert len(lines) == 27
    assert {(x.findtext("CONTRACT"), x.findtext("PLAYED_BY"), x.findtext("LEAD")) for x in lines} == {
        ("4S", "N", "AC")}
    assert {x.findtext("TRICKS") for x in lines} == {"10", "11"}
    assert root.findtext("CLUB/CLUB_NAME") == "club" and root.findtext("EVENT/PROGRAM_VERSION")
    named = [p for p in root.iter("PAIR") if p.findtext("PAIR_NUMBER") == "1"]
    assert [pl.findtext("NATIONAL_ID_NUMBER") for pl in named[0].iter("PLAYER")] == ["509864", None]


def test_the_results_pbn_travellers_have_contract_declarer_result_and_lead(client: TestClient) -> None:
    text = client.get("/api/results.pbn").text
    assert "[ScoreTable \"" in text and "Contract\\" in text and "Lead\\" in text and "TotalMP\\" in text
    boards = endplay_pbn.loads(text)
    assert boards and all(b.contract is None for b in boards)  # a pairs board's record is no one table's


def test_the_printable_page_has_the_ranking_travellers_and_score_cards(client: TestClient) -> None:
    r = client.get("/api/results.html")
    assert r.status_code == 200
    page = r.text
    assert "@media print" in page and "<script" not in page
    assert 'class="ranking"' in page and page.count('class="traveller"') == 15
    assert page.count('class="scorecard"') == 10
    assert "Ann Smith &amp; Bob Jones" in page
    assert "only result" not in page  # every board compared (Neuberg: a board played once is factored up)


def test_after_the_first_round_a_board_played_once_says_only_result_not_zero(tmp_path: Path) -> None:
    console, _ = _console(tmp_path, ((1, range(1, 6)),))
    try:
        with _client(console) as c:
            page = c.get("/api/results.html").text
        card = page[page.index('<table class="scorecard" data-pair="1"'):]
        card = card[:card.index("</table>")]
        assert card.count("only result") == 3 and '<td class="num">0</td>' not in card
    finally:
        console.store.close()


def test_the_printed_results_name_the_pairs_the_director_named_in_the_players_panel(tmp_path: Path) -> None:
    """The console's own names (``console.people``, the Players panel's), pair 2 the only one named."""
    console, _ = _console(tmp_path, ((1, range(1, 6)),), named=False)
    try:
        console.people.name_pair(None, "2", Player("Carl Wu", "345678"), Player("Dee Patel", ""))
        with _client(console) as c:
            page = c.get("/api/results.html").text
            usebio = c.get("/api/results.usebio").text
        row = page[page.index('<tr data-pair="2">'):]
        assert "Carl Wu &amp; Dee Patel" in row[:row.index("</tr>")]
        assert "Ann Smith" not in page and "Carl Wu" in usebio
    finally:
        console.store.close()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (make installs it)")
def test_the_pdf_is_the_page_printed_by_chromium(client: TestClient) -> None:
    r = client.get("/api/results.pdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.content.startswith(b"%PDF") and len(r.content) > 2000


def test_the_hand_record_has_every_board_with_its_double_dummy_table(client: TestClient) -> None:
    plain = client.get("/api/handrecord.html?analysis=false")
    assert plain.status_code == 200 and "Board 15" in plain.text
    analysed = client.get("/api/handrecord.html")
    assert analysed.status_code == 200 and "Par" in analysed.text
