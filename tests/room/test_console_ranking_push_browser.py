"""The live ranking on the Director's page in a real headless Chromium (Debian's /usr/bin/chromium),
over the real Mosquitto and the real console: after the whole room, each push carries only the
ranking's rows that moved (``ranking_changed``, ``ranking_gone``), and the page, merging them row by
row (``web_ui/static/console.js``), shows the ranking the console has, in its order."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tablectl.room.console import Console
from tests.room.conftest import CLUB, Broker, Peer
from tests.room.test_link import wait
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from web_ui.console import ConsoleSettings, create_console_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")

PIN = "2468"
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _result(table: int, seq: int, board: int, score_ns: int) -> str:
    return json.dumps({"v": 1, "club": CLUB, "table": str(table), "session": f"s{table}", "seq": seq,
                       "prev": seq - 1, "time": "2026-11-27T20:00:00.000Z", "at": 1.0, "number": board,
                       "contract": "3NT", "declarer": "N", "tricks": 9, "result": "=", "score_ns": score_ns,
                       "status": "played", "pairs": {"NS": f"{table}N", "EW": f"{table}E"}})


def _taken(console: Console, table: str, board: str) -> bool:
    return table in console.room.results.results.get(board, {})


@pytest.fixture
def console(anon_broker: Broker, tmp_path: Path) -> Iterator[tuple[Console, Peer]]:
    made = Console(anon_broker.address(), tmp_path / "console")
    made.start()
    peer = Peer(anon_broker.url()).connected()
    try:
        wait(lambda: made.connected, what="the console linked")
        yield made, peer
    finally:
        peer.client.loop_stop()
        peer.client.disconnect()
        made.stop()


def test_the_pages_ranking_merged_from_the_rows_that_moved_is_the_consoles(console: tuple[Console, Peer],
                                                                            tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    made, peer = console
    seq = dict.fromkeys(range(1, 7), 0)

    def play(table: int, board: int, score: int) -> None:
        seq[table] += 1
        # retained, as a table publishes its results: the console's subscription may follow the publish
        peer.publish(f"bridge/{CLUB}/table/{table}/result/{board}", _result(table, seq[table], board, score),
                     retain=True)

    for table in range(1, 5):  # four tables have played board 1: a ranking of eight pairs
        play(table, 1, (420, 450, -50, 100)[table - 1])
    wait(lambda: len(made.room.results.results.get("1", {})) == 4, what="board 1's results")
    pushed: list[dict[str, Any]] = []
    settings = ConsoleSettings(check_pin=lambda pin: pin == PIN, club=CLUB, push_interval=0.05)
    with serving(create_console_app(made, settings)) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_context(**PHONE).new_page()
            page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: pushed.append(json.loads(frame))))
            page.goto(url + "/")
            page.fill("#pin", PIN)
            page.click("#login-button")
            expect(page.locator("#status")).to_have_text("live")
            expect(page.locator("#ranking li")).to_have_count(8)

            def shown() -> bool:
                ranking = made.ranking()["ranking"]
                on_page = page.evaluate("room.ranking")
                order = page.locator("#ranking li").evaluate_all("(rows) => rows.map((r) => r.dataset.pair)")
                return bool(on_page == ranking and order == [r["pair"] for r in ranking])

            waves = ((1, 2, 620), (5, 1, 430), (2, 2, -100), (6, 2, 400), (3, 2, 90), (2, 1, -200))
            for table, board, score in waves:  # each a result that moves the ranking, pushed when its turn comes
                play(table, board, score)
                wait(partial(_taken, made, str(table), str(board)), what=f"table {table}'s board {board}")
                wait(shown, timeout=30.0, what="the page's ranking to be the console's")
            expect(page.locator("#ranking li")).to_have_count(12)
        finally:
            browser.close()
    deltas = [m for m in pushed if m.get("kind") == "delta"]
    moved = [m for m in deltas if "ranking_changed" in m]
    assert len(moved) >= 3  # several (the first push after the page came carries it whole; two results may share one)
    assert all("ranking" not in m for m in deltas[deltas.index(moved[0]):])
    assert any(len(m["ranking_changed"]) < m["ranking_count"] for m in moved)  # rows, not the whole ranking
