"""The finished boards' records are public only when the Director's setting allows it: at a
duplicate event the same boards move on to other tables, so by default (``after_session``)
the records stay the arbiter's until the session ends or the arbiter publishes them;
``never`` keeps them his for good; ``finished_boards`` (the default of the other codes) shows
each board once it is finished."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.records.tablelog import action_of
from controller.table import TableState, finish_session
from tests.web_ui.conftest import login, settings
from web_ui.app import create_app
from web_ui.local import LocalTable

DEAL = "N:AKQJ.AKQ.AKQ.432 T98.JT9.JT9.AKQJ 765.876.8765.T98 432.5432.432.765"
BOARD_1: list[dict[str, Any]] = [
    {"board": {"number": 1, "dealer": "N", "vul": "None", "deal": DEAL}},
    {"seat": "N", "call": "Pass"}, {"seat": "E", "call": "Pass"}, {"seat": "S", "call": "Pass"},
    {"seat": "W", "call": "Pass"},  # passed out: board 1 is finished
    {"board": {"number": 2, "dealer": "E", "vul": "NS", "deal": DEAL}},
]


def _table(code: str = "duplicate", finished: bool = False) -> LocalTable:
    table = LocalTable(TableState.new(code))
    for obj in BOARD_1:
        table.feed(action_of(obj))
    return LocalTable(finish_session(table.snapshot().state)) if finished else table


def _client(table: LocalTable, public_records: str | None = None) -> TestClient:
    web = settings() if public_records is None else replace(settings(), public_records=public_records)
    return TestClient(create_app(table, web))


def test_a_duplicate_tables_records_are_the_arbiters_until_the_session_ends() -> None:
    with _client(_table()) as c:
        for fmt in ("pbn", "lin"):
            r = c.get(f"/api/records.{fmt}")
            assert r.status_code == 403 and "until the session ends" in r.json()["detail"]
            assert "AKQJ" not in r.text
        csrf = login(c)
        assert "[Board \"1\"]" in c.get("/api/arbiter/records.pbn").text  # the arbiter has them all along
        assert c.post("/api/arbiter/records/publish").status_code == 403  # no CSRF token: refused
        assert c.post("/api/arbiter/records/publish", headers={"X-CSRF-Token": csrf}).status_code == 204
        c.cookies.clear()
        r = c.get("/api/records.pbn")
        assert r.status_code == 200 and "[Board \"1\"]" in r.text and "[Board \"2\"]" not in r.text
    with _client(_table(finished=True)) as c:  # a session that has ended
        r = c.get("/api/records.pbn")
        assert r.status_code == 200 and "[Board \"1\"]" in r.text


def test_never_keeps_the_records_the_arbiters_even_after_the_session() -> None:
    with _client(_table(finished=True), "never") as c:
        assert c.get("/api/records.pbn").status_code == 403
        csrf = login(c)
        r = c.post("/api/arbiter/records/publish", headers={"X-CSRF-Token": csrf})
        assert r.status_code == 409 and "never" in r.json()["detail"]
        c.cookies.clear()
        assert c.get("/api/records.lin").status_code == 403


@pytest.mark.parametrize(("code", "public_records"), [("duplicate", "finished_boards"), ("rubber", None)])
def test_finished_boards_are_public_at_once_where_the_setting_says_so_and_by_default_in_rubber(
        code: str, public_records: str | None) -> None:
    with _client(_table(code), public_records) as c:
        r = c.get("/api/records.pbn")
        assert r.status_code == 200 and "[Board \"1\"]" in r.text and "[Board \"2\"]" not in r.text


def test_an_unknown_public_records_setting_is_refused() -> None:
    with pytest.raises(ValueError, match="public_records"):
        create_app(LocalTable(), replace(settings(), public_records="sometimes"))
