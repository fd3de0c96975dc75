"""The room's results from the console (web_ui/console_results.py): the ranking, a pair's
scorecard, and the session exported as PBN score tables and USEBIO 1.2, behind the Director's
session. Each export, read back by its reader and scored, ranks every pair as the console does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, HTTPException, Request
from fastapi.testclient import TestClient

from controller.fieldscore import loads_session, score_event
from controller.records import scoretable, usebio
from tablectl.room.address import ClubAddress
from tablectl.room.console import Console
from tests.controller.test_room_results import DEAL, OTHER, Tables
from tests.web_ui.console_fake import FakeConsole
from web_ui.console_results import results_router

SESSION = loads_session('[session]\nname = "Club Pairs"\nmovement = "mitchell"\ntables = 5\nboards_per_round = 3\n'
                        'matchpoints = "acbl"\n')
COOKIE = {"director": "yes"}


def director(request: Request) -> str:
    """The console's session check, as create_console_app makes it: 401 without the session."""
    if request.cookies.get("director") != "yes":
        raise HTTPException(401, "no Director session: log in with the PIN")
    return "session"


def a_session_played(console: Console) -> None:
    """Round 1 of a 5-table Mitchell, every table's own boards, and board 1 fouled at table 1."""
    tables = Tables(console.room)
    movement = SESSION.movement()
    for table in range(1, 6):
        sitting = next(s for s in movement.sittings if s.table == table and s.round == 1)
        for i, board in enumerate(movement.boards(sitting.board_set)):
            score = [420, 450, -50, 100, 620][(table + 2 * i) % 5]
            tables.result(str(table), board, score, deal=DEAL if board != 1 else OTHER)
    # round 2 at tables 2, 3 and 5: table 5 plays set 1, board 1 with another deal than table 1 had
    for table in (2, 3, 5):
        sitting = next(s for s in movement.sittings if s.table == table and s.round == 2)
        for i, board in enumerate(movement.boards(sitting.board_set)):
            tables.result(str(table), board, [400, 430, 430, -100, 90][(table + i) % 5], deal=DEAL)


@pytest.fixture
def console(tmp_path: Path) -> Iterator[Console]:
    made = Console(ClubAddress("mqtt", "127.0.0.1", 1883, "club"), tmp_path / "console", session=SESSION)
    try:
        yield made
    finally:
        made.store.close()


@pytest.fixture
def client(console: Console) -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(results_router(console, director))
    with TestClient(app, base_url="http://testserver") as c:
        yield c


def _ranked(standings: Any) -> list[tuple[str, str | None, int | None, float | None, float]]:
    return [(st.pair, st.direction, st.rank, None if st.percent is None else round(st.percent, 2),
             round(st.total, 2)) for st in standings]


@pytest.mark.parametrize("path", ["/api/ranking", "/api/scorecards/3", "/api/results.pbn", "/api/results.usebio"])
def test_every_result_needs_the_directors_session(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 401 and "log in with the PIN" in r.json()["detail"]


def test_no_result_yet_is_a_404_and_an_empty_ranking(client: TestClient) -> None:
    client.cookies.update(COOKIE)
    assert client.get("/api/results.pbn").status_code == 404
    assert client.get("/api/results.usebio").json()["detail"] == "no board has a result yet"
    assert client.get("/api/ranking").json()["ranking"] == []


def test_both_exports_read_back_rank_every_pair_as_the_console_does(client: TestClient, console: Console) -> None:
    a_session_played(console)
    assert console.room.results.fouled() == {"1": [["1"], ["5"]]}
    client.cookies.update(COOKIE)
    ranking = client.get("/api/ranking").json()
    assert ranking["name"] == "Club Pairs" and ranking["scoring"] == "MP" and ranking["by_direction"] is True
    ours = [(r["pair"], r["direction"], r["rank"], r["percent"], r["total"]) for r in ranking["ranking"]]
    assert len(ours) == 10 and ours != sorted(ours)

    pbn = client.get("/api/results.pbn")
    assert pbn.status_code == 200 and 'filename="Club-Pairs.pbn"' in pbn.headers["content-disposition"]
    assert '[Board "1b"]' in pbn.text and "[TotalScoreTable" in pbn.text and "[Deal " in pbn.text
    [event] = scoretable.loads(pbn.text).events
    assert _ranked(score_event(event).standings) == ours

    xml = client.get("/api/results.usebio")
    assert xml.status_code == 200 and xml.headers["content-type"].startswith("application/xml")
    [event] = usebio.loads(xml.content).events
    assert _ranked(score_event(event).standings) == ours
    assert event.conventions.matchpoints.value == "acbl"  # the session's conventions travel with the file


def test_a_pairs_scorecard_lists_its_boards_with_its_points_and_place(client: TestClient, console: Console) -> None:
    a_session_played(console)
    client.cookies.update(COOKIE)
    card = client.get("/api/scorecards/7").json()  # EW pair 7: table 2 in round 1, table 3 in round 2
    assert [(b["board"], b["table"], b["round"], b["direction"], b["opponents"]) for b in card["boards"]] == [
        ("4", "2", 1, "EW", "2"), ("5", "2", 1, "EW", "2"), ("6", "2", 1, "EW", "2"),
        ("10", "3", 2, "EW", "3"), ("11", "3", 2, "EW", "3"), ("12", "3", 2, "EW", "3")]
    standing = next(r for r in client.get("/api/ranking").json()["ranking"] if r["pair"] == "7")
    assert card["standing"] == standing
    assert round(sum(b["points"] for b in card["boards"]), 2) == standing["total"]
    assert client.get("/api/scorecards/77").status_code == 404


def test_a_console_that_offers_only_its_room_has_results_too() -> None:
    fake = FakeConsole()
    Tables(fake.room).result("1", 1, 420)
    app = FastAPI()
    app.include_router(results_router(fake, director))
    with TestClient(app, base_url="http://testserver", cookies=COOKIE) as c:
        assert [r["pair"] for r in c.get("/api/ranking").json()["ranking"]] == ["1NS", "1EW"]
        assert c.get("/api/results.pbn").status_code == 200
