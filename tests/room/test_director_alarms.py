"""Nothing the Director must see is hidden, through the real Mosquitto (passwords and ACL): a table
waiting for a ruling stays on "needs you" until the table has applied one; the broker lost is one
alarm naming the cause and since when; a table gone during play is an alarm; "On my way" and "Done"
reach the table's page; the session's end can be taken back within a minute, before any table sees
it; a new session starts clean with the old one kept and readable.
Waits are bounded polls on a condition, never bare sleeps."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller import actions as a
from controller.fieldscore import loads_session
from controller.room.console import UNDO_SECONDS
from controller.seats import Seat
from tablectl.room.console import Console
from tests.room.conftest import Broker, WallClock, running_console
from tests.room.test_link import Table, _auction_to_lead, wait
from tests.room.test_room_results import MITCHELL_3
from web_ui.app import create_app
from web_ui.service import WebSettings

Json = dict[str, Any]


@pytest.fixture
def wall() -> WallClock:
    return WallClock()


@pytest.fixture
def console(club_broker: Broker, tmp_path: Path, wall: WallClock) -> Iterator[Console]:
    yield from running_console(club_broker.address("console"), tmp_path / "console", wall=wall)


@pytest.fixture
def t3(club_broker: Broker, tmp_path: Path) -> Iterator[Table]:
    table = Table(tmp_path / "table-3.sqlite", club_broker.address("3"), "3")
    try:
        yield table
    finally:
        table.stop()


def colour(console: Console, table: str) -> str | None:
    return next((t["colour"] for t in console.snapshot()["tiles"] if t["table"] == table), None)


def table_page(table: Table) -> Json:
    app = create_app(table.rt, WebSettings(check_pin=lambda pin: False, hosts=("testserver",)))
    with TestClient(app, base_url="http://testserver") as client:
        got: Json = client.get("/api/table").json()
    return got


def lead_out_of_turn(t3: Table) -> None:
    _auction_to_lead(t3)
    t3.sim.present("S2", "W.play")  # East is on lead: West leads out of turn (Law 54)
    t3.clock.now += 1.0
    assert t3.rt.sync(5)


def test_a_table_waiting_for_a_ruling_needs_the_director_until_it_has_applied_one_law_54(
        console: Console, t3: Table) -> None:
    lead_out_of_turn(t3)
    wait(lambda: any(c.table == "3" and c.irregularity is not None for c in console.room.calls.values()),
         what="the lead out of turn at the console")
    [call] = [c for c in console.room.calls.values() if c.table == "3"]
    console.mark(call.key, "acknowledged")  # "On my way" reaches the table's page
    wait(lambda: (table_page(t3).get("director") or {}).get("answer") == "on_my_way", what="the answer at table 3")
    assert table_page(t3)["director"]["text"] == "The Director is on the way"
    with pytest.raises(ValueError, match="still waits for your ruling"):
        console.mark(call.key, "resolved")  # "Done" cannot make a waiting table quiet
    assert colour(console, "3") == "irregularity" and call.state != "resolved"
    ref = console.send("3", "ruling", {"id": call.irregularity, "option": "accept_see_dummy"})
    wait(lambda: console.reply(ref, 0.1) is not None, what="table 3's answer")
    wait(lambda: colour(console, "3") == "playing", what="table 3 quiet once it has applied the ruling")
    assert console.room.calls[call.key].state == "resolved"


def test_done_on_a_call_of_the_director_reaches_the_table_which_no_longer_shows_the_call(
        console: Console, t3: Table) -> None:
    _auction_to_lead(t3)
    t3.rt.submit(a.CallDirector(Seat.parse("E")))
    assert t3.rt.sync(5)
    assert table_page(t3)["arbiter_called"] == "E"
    wait(lambda: any(c.table == "3" and c.seat == "E" for c in console.room.calls.values()),
         what="East's call at the console")
    [call] = [c for c in console.room.calls.values() if c.table == "3"]
    console.mark(call.key, "resolved")
    wait(lambda: (table_page(t3).get("director") or {}).get("answer") == "done", what="Done at table 3")
    page = table_page(t3)
    assert page["arbiter_called"] is None and page["director"]["text"] == "The Director has answered the call"
    assert colour(console, "3") == "playing"


def test_the_broker_lost_is_one_alarm_naming_the_cause_and_since_when(
        club_broker: Broker, console: Console, t3: Table, wall: WallClock) -> None:
    wait(lambda: colour(console, "3") is not None, what="table 3 at the console")
    alarms: list[Json] = []
    console.subscribe(lambda m: alarms.append(m) if m.get("kind") == "alarm" else None)
    assert console.snapshot()["broker"]["connected"] is True
    lost_at = time.strftime("%H:%M", time.localtime(wall.now))
    club_broker.stop()
    wait(lambda: not console.connected, what="the console to see the broker gone")
    broker = console.snapshot()["broker"]
    assert broker["connected"] is False and f"unreachable since {lost_at}" in broker["text"]
    assert [m for m in alarms if m.get("broker")] and all(m.get("table") == "room" for m in alarms)
    club_broker.start()
    wait(lambda: console.snapshot()["broker"]["connected"], timeout=30, what="the console linked again")


def test_a_table_gone_during_play_is_an_alarm_and_needs_the_director(console: Console, t3: Table) -> None:
    _auction_to_lead(t3)
    wait(lambda: colour(console, "3") == "playing", what="table 3 playing at the console")
    alarms: list[Json] = []
    console.subscribe(lambda m: alarms.append(m) if m.get("kind") == "alarm" else None)
    t3.link.stop()  # the table's link goes (a power cut says the same, by the broker's last will)
    wait(lambda: colour(console, "3") == "lost", what="table 3 lost during play")
    assert any("Table 3 went offline during board 1" in m["text"] for m in alarms)


def test_the_end_of_the_session_waits_a_minute_and_can_be_taken_back_before_any_table_sees_it(
        console: Console, t3: Table, wall: WallClock) -> None:
    wait(lambda: (t3.rt.room_results() or {}).get("kind") == "results", what="table 3's results from the console")
    console.end_session()
    assert console.settings()["undo_left"] == pytest.approx(UNDO_SECONDS)
    wall.now += UNDO_SECONDS / 2
    console.set_players(True, "end")  # anything that sends the tables their results again
    wait(lambda: (t3.rt.room_results() or {}).get("settings") == {"travellers": True, "ranking": "end"},
         what="the settings at table 3")
    assert (t3.rt.room_results() or {})["ended"] is False  # the minute is not over: the tables know nothing
    console.end_session(False)  # taken back
    wall.now += UNDO_SECONDS
    console.set_players(True, "live")
    wait(lambda: (t3.rt.room_results() or {}).get("settings", {}).get("ranking") == "live", what="live at table 3")
    assert (t3.rt.room_results() or {})["ended"] is False
    console.end_session()
    wall.now += UNDO_SECONDS + 1
    wait(lambda: (t3.rt.room_results() or {}).get("ended") is True, what="the session's end at table 3")


def test_a_new_session_starts_clean_with_the_old_one_kept_and_readable(
        club_broker: Broker, tmp_path: Path, wall: WallClock) -> None:
    first = Console(club_broker.address("console"), tmp_path / "console", wall=wall, session=MITCHELL_3)
    first.start()
    t1 = Table(tmp_path / "table-1.sqlite", club_broker.address("1"), "1")
    try:
        wait(lambda: first.connected, what="the console to connect")
        _auction_to_lead(t1)
        t1.rt.submit(a.Adjust(8))
        assert t1.rt.sync(5)
        wait(lambda: "1" in first.room.travellers, what="board 1 at the console")
        first.end_session()
        wall.now += UNDO_SECONDS + 1
        first.new_session()
        snap = first.snapshot()
        assert snap["travellers"] == [] and snap["ranking"] == [] and snap["ended"] is False
        wait(lambda: (t1.rt.room_results() or {}).get("ended") is False
             and not (t1.rt.room_results() or {}).get("scorecards"), what="table 1's results page emptied")
        [kept] = first.archives()
        old = first.archived(kept["name"])
        assert old is not None and [t["board"] for t in old["travellers"]] == ["1"]
    finally:
        first.stop()
    # the console restarts: the new session stays clean (table 1's old outbox is not taken again)
    again = Console(club_broker.address("console"), tmp_path / "console", wall=wall, session=MITCHELL_3)
    try:
        again.start()
        wait(lambda: again.connected and again.room.tiles.get("1") is not None, what="table 1 at the new console")
        assert again.snapshot()["travellers"] == []
    finally:
        again.stop()
    # next club night: another session file; the console starts clean, the session kept
    tuesday = loads_session(MITCHELL_3_TOML.replace("Club Pairs", "Tuesday Pairs"))
    later = Console(club_broker.address("console"), tmp_path / "console", wall=wall, session=tuesday)
    try:
        assert len(later.archives()) == 2 and later.snapshot()["travellers"] == []
    finally:
        later.store.close()
    t1.stop()


MITCHELL_3_TOML = '[session]\nname = "Club Pairs"\nmovement = "mitchell"\ntables = 3\nboards_per_round = 2\n'
