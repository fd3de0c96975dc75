"""The Director's scoring desk driven once, end to end, in a real headless Chromium (/usr/bin/chromium)
at phone width through a Mitchell, over real SQLite files: he imports the club's roster, names a pair
and seats a substitute from a later round, corrects a table's result (Law 79C), gives a weighted split
score (Law 12C1(c)) and an artificial score, average plus to one side and average minus to the other
(Law 12C2), and prints the results. The travellers and the ranking on the page, and the printed page,
are checked against the field scored by the pure scoring (``controller.fieldscore``) from the results
as the Director left them."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pytest

from controller.fieldscore import loads_session
from controller.fieldscore.matchpoints import score_board
from controller.fieldscore.model import Artificial, Award, Result
from controller.room.adjustments import Played
from controller.seats import board_vulnerability
from tests.controller.test_room_results import Tables
from tests.web_ui.console_fake import FakeConsole, console_settings, director_signed_in
from tests.web_ui.test_browser import ARGS, CHROMIUM, serving
from web_ui.console import create_console_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (make installs it)")

SESSION = loads_session('[session]\nname = "Club Pairs"\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\n')
ROSTER = b"Name,EBU number,Email,Club\nAnn Smith,123456,ann@example.org,Riverside\nBob Jones,234567,,\n" \
         b"Carl Wu,345678,,\nDee Patel,456789,,\n"
WAIT = 20_000  # ms: a loaded machine may take its time; every wait is on a condition


def pure_field(scores: Mapping[tuple[int, str], Result]) -> tuple[dict[tuple[int, str], tuple[float, float]],
                                                                    dict[str, float]]:
    """Each (board, table)'s points for each side and each pair's percentage, scored by
    ``controller.fieldscore`` from the results alone (every board played at the three tables)."""
    points: dict[tuple[int, str], tuple[float, float]] = {}
    total: dict[str, float] = {}
    tops: dict[str, float] = {}
    for board in sorted({b for b, _ in scores}):
        tables = sorted(t for b, t in scores if b == board)
        scored = score_board(str(board), None, [scores[(board, t)] for t in tables], 3, SESSION.conventions)
        for table, s in zip(tables, scored.results, strict=True):
            points[(board, table)] = (s.points_ns, s.points_ew)
            for pair, got in ((s.result.ns, s.points_ns), (s.result.ew, s.points_ew)):
                total[pair] = total.get(pair, 0.0) + got
                tops[pair] = tops.get(pair, 0.0) + (s.top or 0.0)
    return points, {pair: 100.0 * total[pair] / tops[pair] for pair in total}


def shown(value: float) -> str:
    """Points as the console shows them (console.js ``points``): 2 decimals at most, no trailing zeros."""
    text = f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def test_the_director_drives_the_whole_desk_through_a_mitchell_at_phone_width(tmp_path: Path) -> None:
    """Law 79C (a score corrected within the correction period), Law 12C1(c) (an assigned score
    weighted between results), Law 12C2 (an artificial adjusted score: average plus to the side not
    at fault, average minus to the side at fault): each recorded on the phone, the travellers and the
    ranking follow as the pure scoring has them, the printed results name the pairs as seated."""
    from playwright.sync_api import Page, expect, sync_playwright

    fake = FakeConsole(session=SESSION, data_dir=tmp_path / "console")
    tables = Tables(fake.room, now=fake.wall - 1200)
    movement = SESSION.movement()
    results: dict[tuple[int, str], Result] = {}
    seated: dict[tuple[int, str], int] = {}  # (board, table) -> the round it was played in
    for rnd in (1, 2, 3):
        for table in (1, 2, 3):
            sitting = next(s for s in movement.sittings if s.table == table and s.round == rnd)
            for i, board in enumerate(movement.boards(sitting.board_set)):
                score = [420, 450, -50, 100, 620, 400][(3 * table + rnd + i) % 6]
                tables.result(str(table), board, score)
                results[(board, str(table))] = Result(str(board), sitting.ns, sitting.ew, score=score)
                seated[(board, str(table))] = rnd
    first = next(s for s in movement.sittings if s.table == 1 and s.round == 1)
    second = next(s for s in movement.sittings if s.table == 2 and s.round == 1)
    corrected = movement.boards(first.board_set)[0]  # at table 1: 3NT by North, 8 tricks, not what was sent
    split = movement.boards(first.board_set)[1]  # at table 2: 4S= 30 %, 4S-1 70 %
    fouled = movement.boards(second.board_set)[0]  # at table 3: A+ to North-South, A- to East-West
    assert len({corrected, split, fouled}) == 3 and all((b, t) in results for b, t in
                                                        ((corrected, "1"), (split, "2"), (fouled, "3")))
    named = first.ns  # pair 1, North-South at table 1 all session

    adjusted = dict(results)
    was = results[(corrected, "1")]
    adjusted[(corrected, "1")] = Result(was.board, was.ns, was.ew,
                                        score=Played.parse("3NT", "N", 8).score(board_vulnerability(corrected)))
    was = results[(split, "2")]
    vul = board_vulnerability(split)
    made, down = Played.parse("4S", "N", 10).score(vul), Played.parse("4S", "N", 9).score(vul)
    adjusted[(split, "2")] = Result(was.board, was.ns, was.ew, weighted=((made, 30.0), (down, 70.0)))
    was = results[(fouled, "3")]
    adjusted[(fouled, "3")] = Result(was.board, was.ns, was.ew, artificial=Artificial(Award.PLUS, Award.MINUS))
    points_before, percent_before = pure_field(results)
    points_after, percent_after = pure_field(adjusted)
    moved = {p for p in percent_after if abs(percent_after[p] - percent_before[p]) >= 0.01}
    assert moved, "the adjustments chosen move no pair's percentage: the test could not see them"

    def ranking_shown(page: Page, percent: Mapping[str, float]) -> None:
        for pair, value in percent.items():
            expect(page.locator(f"#ranking li[data-pair='{pair}'] .rank-value")).to_have_text(
                f"{value:.2f}%", timeout=WAIT)

    def traveller_shown(page: Page, points: Mapping[tuple[int, str], tuple[float, float]]) -> None:
        for board, table in ((corrected, "1"), (split, "2"), (fouled, "3")):
            ns, ew = points[(board, table)]
            cell = page.locator(f"table.traveller[data-board='{board}'] tr[data-table='{table}'] td.points")
            expect(cell).to_have_text(f"{shown(ns)}/{shown(ew)}", timeout=WAIT)

    def sideways(page: Page, where: str) -> None:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{where} scrolls sideways on a phone ({width}px)"

    def record(page: Page, board: int, table: str, kind: str, fields: Mapping[str, str], reason: str) -> None:
        page.click(f"table.traveller[data-board='{board}'] tr[data-table='{table}'] .desk-open")
        expect(page.locator("#desk-where")).to_have_text(f"Board {board}, table {table}", timeout=WAIT)
        page.select_option("#desk-kind", kind)
        for field, value in fields.items():
            if field in ("#desk-ns", "#desk-ew", "#desk-declarer"):
                page.select_option(field, value)
            else:
                page.fill(field, value)
        page.fill("#desk-reason", reason)
        page.fill("#desk-by", "Ann")
        count = page.locator("#desk-history li[data-entry]").count()
        page.click("#desk-record")
        expect(page.locator("#desk-history li[data-entry]")).to_have_count(count + 1, timeout=WAIT)
        expect(page.locator("#desk-error")).to_have_text("")

    with serving(create_console_app(fake, console_settings())) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone, errors = director_signed_in(browser, url, timeout=WAIT)
            ranking_shown(phone, percent_before)
            traveller_shown(phone, points_before)

            # the players panel: the roster, pair 1 named, a substitute from round 3 on
            phone.set_input_files("#roster-file", files=[{"name": "club.csv", "mimeType": "text/csv",
                                                          "buffer": ROSTER}])
            expect(phone.locator("#roster-count")).to_have_text("Club roster: 4 members", timeout=WAIT)
            pair = phone.locator(f"#people-pairs li[data-pair='{named}']")
            pair.locator(".people-name").click()
            phone.fill("#people-first", "Ann Smith (123456)")
            phone.fill("#people-second", "bob jones")
            phone.click("#people-save")
            expect(pair).to_contain_text("Ann Smith & Bob Jones", timeout=WAIT)
            pair.locator(".people-sub").click()
            phone.fill("#people-round", "3")
            phone.select_option("#people-seat", "second")
            phone.fill("#people-sub", "Carl Wu")
            phone.click("#people-save")
            expect(pair).to_contain_text("from round 3: Ann Smith & Carl Wu", timeout=WAIT)
            expect(phone.locator(f"#ranking li[data-pair='{named}'] .pair-names")).to_have_text(
                "Ann Smith & Carl Wu", timeout=WAIT)

            # the desk: Law 79C, Law 12C1(c), Law 12C2
            record(phone, corrected, "1", "correction",
                   {"#desk-contract": "3NT", "#desk-declarer": "N", "#desk-tricks": "8"},
                   "the table entered the wrong number of tricks")
            record(phone, split, "2", "assigned",
                   {"#desk-1-contract": "4S", "#desk-1-tricks": "10", "#desk-1-weight": "30",
                    "#desk-2-contract": "4S", "#desk-2-tricks": "9", "#desk-2-weight": "70"},
                   "misinformation: 4S likely, made or one down")
            record(phone, fouled, "3", "artificial", {"#desk-ns": "A+", "#desk-ew": "A-"},
                   "no result could be obtained: East-West at fault")
            history = "#desk-history li[data-entry='{}']"
            for entry, words in ((1, "the table entered the wrong number of tricks (Ann"),
                                 (2, "4S= by N 30%, 4S-1 by N 70%"),
                                 (3, "average plus to North-South, average minus to East-West")):
                expect(phone.locator(history.format(entry))).to_contain_text(words)

            fake.people_changed()  # the real console pushes the room on each desk entry; the fake, when told
            traveller_shown(phone, points_after)
            ranking_shown(phone, percent_after)
            marks = "table.traveller[data-board='{}'] tr.desk-mark-row[data-for='{}']"
            expect(phone.locator(marks.format(split, "2"))).to_contain_text("30%", timeout=WAIT)
            names_at = f"table.traveller[data-board='{split}'] tr[data-table='1'] .pair-names"
            expect(phone.locator(names_at).first).to_have_text(
                "Ann Smith & Carl Wu" if seated[(split, "1")] >= 3 else "Ann Smith & Bob Jones")
            sideways(phone, "the console")

            # the print panel's "Print results": the printable page, then read on the phone
            phone.evaluate("window.print = () => { window.__printed = true; }")  # no dialog in a headless run
            phone.click("#print-results")
            frame = phone.frame_locator("iframe.print-frame")
            expect(frame.locator(f"table.ranking tr[data-pair='{named}']")).to_contain_text(
                "Ann Smith & Carl Wu", timeout=WAIT)
            expect(phone.locator("#print-note")).to_contain_text("sent to the print dialog", timeout=WAIT)
            printed = phone.context.new_page()
            printed.goto(url + "/api/results.html")
            for who, value in percent_after.items():
                percent = printed.locator(f"table.ranking tr[data-pair='{who}'] td.num").last.inner_text()
                assert abs(float(percent) - value) < 0.006, (who, percent, value)
            for board, at in ((corrected, "1"), (split, "2"), (fouled, "3")):
                ns, ew = points_after[(board, at)]
                rows = printed.locator(f"table.traveller[data-board='{board}'] tr:has(td)")
                cells = rows.nth(sorted(t for b, t in adjusted if b == board).index(at)).locator("td.num")
                assert [cells.nth(-2).inner_text(), cells.nth(-1).inner_text()] == [shown(ns), shown(ew)], (board, at)
            sideways(printed, "the printed results")
            phone.locator("#desk-panel").screenshot(path=str(tmp_path / "desk-phone.png"))
            printed.screenshot(path=str(tmp_path / "printed-results-phone.png"), full_page=True)
            assert errors == []
        finally:
            browser.close()
