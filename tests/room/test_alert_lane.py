"""The console's alert lane (``tablectl.room.alert_lane``): the tables' alerts on a connection of their
own, so that no alert waits in a socket behind the room's states and events (real Mosquitto)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tablectl.room.address import ClubAddress
from tablectl.room.broker import _write_passwd
from tablectl.room.console import Console
from tablectl.room.process import find_mosquitto_passwd
from tests.room.conftest import CLUB, Broker, Peer, WallClock, running_console
from tests.room.test_link import wait
from tests.room.test_room_trust import _message

CALL = {"alert": "arbiter_called", "seat": "N", "what": "N called the Director", "alarm": True}


@pytest.fixture
def clock() -> WallClock:
    """The console's wall clock, moved on by hand past the gap grace."""
    return WallClock()


@pytest.fixture
def lane_console(club_broker: Broker, tmp_path: Path, clock: WallClock) -> Iterator[Console]:
    yield from running_console(club_broker.address("console"), tmp_path / "console", wall=clock)


def _called(console: Console, table: str) -> bool:
    return any(c.table == table for c in list(console.room.calls.values()))


def test_an_alert_reaches_the_console_while_its_main_connection_reads_nothing(
        club_broker: Broker, lane_console: Console, peers: Callable[..., Peer]) -> None:
    """The main socket no longer read (as when it is full of five hundred tables' states): the call
    for the Director still comes, on the lane."""
    assert lane_console._lane.connected and lane_console._lane.refused is None
    lane_console._client.loop_stop()
    try:
        table = peers(club_broker.url("2")).connected()
        table.publish(f"bridge/{CLUB}/table/2/alert", json.dumps(_message("2", 1, 0, CALL)))
        wait(lambda: _called(lane_console, "2"), what="the call, on the alert lane")
        assert lane_console.room.acknowledged("2") == ("s-fake", 1)
    finally:
        lane_console._client.loop_start()


def test_the_main_connection_no_longer_reads_what_the_console_itself_publishes(lane_console: Console) -> None:
    """The players' results, commands and corrections the console sends a table are not read back."""
    topics = lane_console._table_topics()
    assert topics == [f"bridge/{CLUB}/table/+/state", f"bridge/{CLUB}/table/+/event",
                      f"bridge/{CLUB}/table/+/result/+"]


def test_without_a_lane_user_the_alerts_come_on_the_main_connection(
        club_broker: Broker, tmp_path: Path, peers: Callable[..., Peer]) -> None:
    """A broker whose files were written before there were lanes refuses the lane's user: the console
    says so once and reads the alerts on its main connection, as before."""
    assert club_broker.room is not None
    _write_passwd(club_broker.room.passwd, club_broker.room.passwords, find_mosquitto_passwd())  # no alerts-console
    club_broker.restart()
    for console in running_console(club_broker.address("console"), tmp_path / "old"):
        assert console._lane.refused is not None
        assert f"bridge/{CLUB}/table/+/alert" in console._table_topics()
        table = peers(club_broker.url("3")).connected()
        table.publish(f"bridge/{CLUB}/table/3/alert", json.dumps(_message("3", 1, 0, CALL)))
        wait(lambda c=console: _called(c, "3"), what="the call, on the main connection")


def test_an_alert_that_overtakes_the_event_before_it_waits_for_it_and_no_table_is_asked_again(
        club_broker: Broker, lane_console: Console, clock: WallClock, peers: Callable[..., Peer]) -> None:
    """Two connections need not deliver in the table's order: an alert ahead of its event is held, not
    a gap, while the event is on its way (within ``_LANE_GRACE``); then both are acknowledged."""
    token = lane_console._tokens.get("1")
    table = peers(club_broker.url("1")).connected()
    table.publish(f"bridge/{CLUB}/table/1/alert", json.dumps(_message("1", 2, 1, CALL)))
    wait(lambda: _called(lane_console, "1"), what="the call, ahead of its event")
    clock.now += 1.0
    table.publish(f"bridge/{CLUB}/table/1/event", json.dumps(_message("1", 1, 0, {"action": {"type": "x"}})))
    wait(lambda: lane_console.room.acknowledged("1") == ("s-fake", 2), what="both acknowledged")
    assert lane_console._tokens.get("1") == token  # nobody asked table 1 to send again


def test_a_message_missing_past_the_grace_is_a_gap_the_table_is_asked_to_send_again(
        club_broker: Broker, lane_console: Console, clock: WallClock, peers: Callable[..., Peer]) -> None:
    """The event before an alert never comes (lost on its way): once ``_LANE_GRACE`` has passed the
    console asks the table to send again what follows what it holds (a new token in its acknowledgement)."""
    from tablectl.room.console_catchup import _LANE_GRACE

    table = peers(club_broker.url("1")).connected()
    table.subscribe(f"bridge/{CLUB}/console/ack/1")
    table.publish(f"bridge/{CLUB}/table/1/alert", json.dumps(_message("1", 2, 1, CALL)))
    wait(lambda: "1" in lane_console._early_since, what="the call taken, ahead of its event")
    assert "1" not in lane_console._rewound and _called(lane_console, "1")
    clock.now += _LANE_GRACE + 0.1
    wait(lambda: "1" in lane_console._rewound, timeout=10, what="the table asked to send again")
    ack = json.loads(table.wait_for(f"bridge/{CLUB}/console/ack/1").payload)
    assert ack["session"] == "s-fake" and ack["seq"] == 0


def test_an_alert_waits_for_one_message_of_a_bulk_batch_not_the_whole_batch(tmp_path: Path) -> None:
    """The console thread takes the bulk in batches (one transaction each); an alert that arrives while
    one is being taken cuts it short: it is taken after the message in hand, the rest of the batch after it."""
    console = Console(ClubAddress("mqtt", "127.0.0.1", 1883, CLUB), tmp_path / "console")
    try:
        event = {"action": {"type": "x"}}
        bulk = [(f"bridge/{CLUB}/table/1/event", json.dumps(_message("1", n, n - 1, event)).encode(), 1.0, False)
                for n in range(1, 201)]
        console._backlog.extend(bulk)
        alert = (f"bridge/{CLUB}/table/2/alert", json.dumps(_message("2", 1, 0, CALL)).encode(), 1.0, False)
        console._urgent.put(alert)  # it arrived while the batch was being taken
        console._take_bulk()
        assert console.room.acknowledged("1") == ("s-fake", 1)  # one message of the batch, then the alert's turn
        assert len(console._backlog) == 199 and list(console._backlog) == bulk[1:]
        console._take_urgent()
        assert _called(console, "2")
        console._take_bulk()
        assert console.room.acknowledged("1") == ("s-fake", 200) and not console._backlog
    finally:
        console.store.close()


def test_a_console_whose_intake_is_behind_is_busy_and_its_pages_are_pushed_less_often(tmp_path: Path) -> None:
    """The whole room raising at once: while hundreds of messages wait, the pushes to the pages (their bulk,
    made on the console's cores) come at most every ``busy_push_interval``; the alarms still go at once."""
    from web_ui.console import ConsoleSettings, push_delay

    settings = ConsoleSettings(check_pin=lambda pin: False, club=CLUB)
    console = Console(ClubAddress("mqtt", "127.0.0.1", 1883, CLUB), tmp_path / "console")
    try:
        assert not console.busy and push_delay(settings, console) == settings.push_interval
        state = (f"bridge/{CLUB}/table/1/state", b"{}", 1.0, False)
        console._backlog.extend([state] * 400)
        assert console.busy and push_delay(settings, console) == settings.busy_push_interval > settings.push_interval
        console._backlog.clear()
        assert not console.busy
    finally:
        console.store.close()


def test_a_lane_away_on_its_own_past_its_grace_tells_the_page_the_alerts_are_late_until_it_is_back(
        lane_console: Console, clock: WallClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The main connection up, the alert lane's own socket dropped: within ``LANE_LATE`` nothing is said (paho
    reconnects in seconds); past it the console's ``broker`` tells the page the alerts are held up, the page
    is woken to show it, and it is said no more once the lane is back."""
    import tablectl.room.alert_lane as alert_lane

    monkeypatch.setattr(alert_lane, "LANE_LATE", 0.2)        # the timer that wakes the page, in real seconds
    lane = lane_console._lane
    assert lane.connected and lane_console.broker()["alerts"] is None
    woken: list[dict[str, object]] = []
    lane_console.subscribe(woken.append)
    lane._client.disconnect()                                 # the lane's socket alone: the main one stays up
    wait(lambda: lane.lost_since is not None, what="the lane away")
    assert lane_console.broker() == {"connected": True, "since": None, "text": None, "alerts": None}
    clock.now += alert_lane.LANE_LATE + 10.0                  # the console's own grace (10 s) passed
    late = lane_console.broker()
    assert late["connected"] and late["alerts"]["since"] == lane.lost_since
    assert "alerts are held up" in late["alerts"]["text"] and "Walk the room" in late["alerts"]["text"]
    wait(lambda: any(m.get("kind") == "changed" for m in woken), what="the page woken to show it")
    lane._client.loop_stop()
    lane._client.reconnect()
    lane._client.loop_start()
    wait(lambda: lane.connected, what="the lane back")
    assert lane.lost_since is None and lane_console.broker()["alerts"] is None
