"""``tablectl room init --room NAME=TABLES``: an event's centre and rooms, bridged (docs/event-topology.md).

The files are the real ones: ``mosquitto_passwd`` hashes the passwords, and the real Mosquitto
loads the centre's configuration and a room's with its bridge, which links them.
"""

from __future__ import annotations

import stat
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from tablectl.cli import main
from tablectl.room.bridge import RoomPlan, bridge_text, centre_acl_text, init_event, link_topic
from tablectl.room.broker import RoomError, load_room
from tablectl.room.process import MosquittoProcess, free_port
from tests.room.conftest import HOST, Peer, require_mosquitto


@pytest.fixture(autouse=True)
def _passwd() -> None:
    require_mosquitto(passwd=True)


def test_room_init_with_rooms_writes_a_centre_and_each_room_bridged_to_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], peers: Callable[..., Peer]) -> None:
    centre_port, room_port = free_port(HOST), free_port(HOST)
    code = main(["room", "init", "--dir", str(tmp_path / "ev"), "--club", "congress", "--listen", HOST,
                 "--port", str(centre_port), "--room", "A=A1-A3", "--room", "B=B1-B2",
                 "--room-listen", HOST, "--room-address", f"A={HOST}:{room_port}"])
    assert code == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "room A: 3 tables (A1 to A3)" in out and "room B: 2 tables (B1 to B2)" in out
    centre, room_a = load_room(tmp_path / "ev" / "centre"), load_room(tmp_path / "ev" / "room-A")
    assert centre.tables == () and set(centre.passwords) == {"console", "room-A", "room-B"}
    assert room_a.tables == ("A1", "A2", "A3") and room_a.port == room_port
    for path in (centre.conf, centre.passwd, centre.acl, centre.credentials, room_a.conf):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # the real Mosquitto takes both configurations, and the room's bridge links it to the centre
    with MosquittoProcess(centre.conf, centre_port, host=HOST), MosquittoProcess(room_a.conf, room_port, host=HOST):
        head = peers(centre.url("console")).connected()
        head.subscribe(link_topic("congress", "A"))
        head.wait_for(link_topic("congress", "A"), b"1", timeout=15)
        table = peers(room_a.url("A2")).connected()
        table.publish("bridge/congress/table/A2/event", b'{"crossed": true}')
        head.subscribe("bridge/congress/table/+/event")
        table.publish("bridge/congress/table/A2/event", b'{"crossed": 2}')
        head.wait_for("bridge/congress/table/A2/event", b'{"crossed": 2}')


def test_a_table_in_two_rooms_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    with pytest.raises(RoomError, match="table 3 is in rooms A and B"):
        init_event(tmp_path / "ev", "congress", [RoomPlan("A", ("1", "2", "3")), RoomPlan("B", ("3", "4"))])
    assert not (tmp_path / "ev").exists()


def test_running_it_again_keeps_the_centres_and_the_rooms_passwords(tmp_path: Path) -> None:
    rooms = [RoomPlan("A", ("1", "2")), RoomPlan("B", ("3",))]
    first = init_event(tmp_path, "congress", rooms, address="centre.lan")
    again = init_event(tmp_path, "congress", [*rooms, RoomPlan("C", ("4",))], address="centre.lan")
    assert {u: again.centre.passwords[u] for u in first.centre.passwords} == first.centre.passwords
    assert again.rooms["A"].passwords == first.rooms["A"].passwords
    assert f"remote_password {first.centre.passwords['room-B']}" in again.rooms["B"].conf.read_text()
    rotated = init_event(tmp_path, "congress", rooms, address="centre.lan", rotate=True)
    assert rotated.centre.passwords["room-A"] != first.centre.passwords["room-A"]


def test_the_bridge_carries_each_table_at_qos_1_in_a_persistent_session() -> None:
    from tablectl.room.address import ClubAddress

    text = bridge_text("ev", "A", ["1", "2"], ClubAddress("mqtt", "centre.lan", 1883, "ev"), "pw")
    lines = text.splitlines()
    for setting in ("cleansession false", "local_cleansession false", "remote_username room-A",
                    "remote_password pw", "address centre.lan:1883", "try_private true"):
        assert setting in lines
    topics = [line for line in lines if line.startswith("topic ")]
    assert all(line.endswith((" out 1", " in 1")) for line in topics)   # QoS 1 both ways
    assert "topic bridge/ev/table/2/event out 1" in topics and "topic bridge/ev/console/ack/2 out 1" in topics
    assert "topic bridge/ev/table/2/command in 1" in topics and "topic bridge/ev/console/head/2 in 1" in topics
    assert not [t for t in topics if "results" in t]   # the players' results stay in the room
    assert len(topics) == 2 * 8


def test_the_centre_lets_a_rooms_bridge_write_only_its_own_tables() -> None:
    blocks = centre_acl_text("ev", {"A": ["1"], "B": ["2"]}).split("\n\n")[1:]
    assert blocks[3].splitlines() == [
        "user room-A",
        "topic write bridge/ev/room/A/link",
        "topic write bridge/ev/table/1/state",
        "topic write bridge/ev/table/1/event",
        "topic write bridge/ev/table/1/result/#",
        "topic write bridge/ev/public/1/#",
        "topic write bridge/ev/console/ack/1",
        "topic read bridge/ev/table/1/command",
        "topic read bridge/ev/console/head/1",
    ]
    assert "topic write bridge/ev/console/head/#" in blocks[0].splitlines()
    # the alert lanes: the room's bridge writes its tables' alerts on its own, the head console reads them
    assert blocks[2].splitlines() == ["# room A's alert lane: its tables' alerts", "user alerts-room-A",
                                      "topic write bridge/ev/table/1/alert"]
    assert blocks[1].splitlines()[1:] == ["user alerts-console", "topic read bridge/ev/table/+/alert"]


def test_a_rooms_alerts_cross_on_a_bridge_connection_of_their_own() -> None:
    """An alert never waits in the bridge's socket behind the room's states and events: the alert
    topics are the lane's alone (``tablectl.room.alert_lane``), both connections QoS 1 and persistent."""
    from tablectl.room.address import ClubAddress

    text = bridge_text("ev", "A", ["1", "2"], ClubAddress("mqtt", "centre.lan", 1883, "ev"), "pw")
    main, lane = text.split("\nconnection ")[1:]
    assert main.startswith("centre-A\n") and lane.startswith("centre-A-alerts\n")
    assert [line for line in lane.splitlines() if line.startswith("topic ")] == [
        "topic bridge/ev/table/1/alert out 1", "topic bridge/ev/table/2/alert out 1"]
    assert not [line for line in main.splitlines() if line.startswith("topic ") and "/alert" in line]
    for setting in ("remote_username alerts-room-A", "remote_clientid alerts-room-A", "remote_password pw",
                    "local_clientid bridge-centre-A-alerts", "cleansession false", "local_cleansession false",
                    "notifications false"):
        assert setting in lane.splitlines()


def test_in_a_room_nobody_may_write_the_head_consoles_acknowledgement(
        tmp_path: Path, peers: Callable[..., Peer]) -> None:
    """Only the bridge brings ``console/head/ID`` into a room: a table, or the room's console, that
    wrote it could make a table send again without end."""
    port, centre_port = free_port(HOST), free_port(HOST)
    files = init_event(tmp_path, "ev", [RoomPlan("A", ("1",), HOST, port)], listen=HOST, port=centre_port)
    room = files.rooms["A"]
    with MosquittoProcess(files.centre.conf, centre_port, host=HOST), MosquittoProcess(room.conf, port, host=HOST):
        for who in ("console", "1"):  # retained: a forgery the broker took would wait for the table
            forger = peers(room.url(who)).connected()
            forger.publish("bridge/ev/console/head/1", b'{"forged": true}', retain=True)
            forger.close()
        table = peers(room.url("1")).connected()
        table.subscribe("bridge/ev/console/head/1")
        assert "bridge/ev/console/head/1" not in table.quiet()
        head = peers(files.centre.url("console")).connected()
        head.subscribe(link_topic("ev", "A"))
        head.wait_for(link_topic("ev", "A"), b"1", timeout=15)
        head.publish("bridge/ev/console/head/1", b'{"head": true}', retain=True)   # over the bridge: it reads it
        table.wait_for("bridge/ev/console/head/1", b'{"head": true}')


def test_the_head_consoles_credentials_are_in_the_centres_file(tmp_path: Path) -> None:
    files = init_event(tmp_path, "ev", [RoomPlan("A", ("1",))], address="centre.lan", port=1884)
    data = tomllib.loads(files.centre.credentials.read_text())
    assert data["console"]["url"].startswith("mqtt://console:") and data["console"]["url"].endswith(
        "@centre.lan:1884/ev")
    assert data["rooms"]["A"]["user"] == "room-A"


@pytest.mark.parametrize(("why", "cursor", "acked", "head", "back_to"), [
    ({"connect"}, 90, 80, None, 80),        # one room, no head console: what the room's console holds
    ({"console"}, 90, 80, None, 80),
    ({"connect"}, 90, 80, 50, 50),          # connected again: the lower of the two (a broker lost the rest)
    ({"console"}, 60, 80, 50, 60),          # the room's console asks again: never past what the head still lacks
    ({"console"}, 90, 70, 50, 70),
    ({"head"}, 90, 80, 50, 50),             # the head console asks again: from what it holds
    ({"head", "console"}, 90, 40, 50, 40),
])
def test_a_table_asked_again_goes_back_to_what_the_console_asking_holds(
        why: set[str], cursor: int, acked: int, head: int | None, back_to: int) -> None:
    from tablectl.room.link import _rewound

    assert _rewound(why, cursor, acked, head) == back_to
