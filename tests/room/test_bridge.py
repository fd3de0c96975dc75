"""Rooms on their own brokers, bridged to a centre with Mosquitto's own bridge (docs/event-topology.md).

Real everything: the files of ``init_event`` run by real Mosquitto processes (a centre, a room),
the room's bridge crossing a TCP relay the test can cut (the link between two buildings), real
tables (``TableRuntime`` and ``TableLink``), the room's console and the event's head console
(``Console(head=True)``), each with its own SQLite. Each outage ends with the head console holding
exactly every table's outbox (nothing lost, nothing doubled), and the room playing and ruling on
its own meanwhile.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from controller import actions as a
from controller.seats import Seat
from tablectl.room.bridge import EventFiles, RoomPlan, init_event, link_topic
from tablectl.room.console import Console
from tablectl.room.process import MosquittoProcess, free_port
from tests.room.conftest import HOST, Peer, require_mosquitto
from tests.room.test_link import TAG, Table, _stored, wait

CLUB = "congress"
CATCH_UP = 45.0
"""Seconds a console may take to catch up after an outage (the bridge retries within 10 s)."""


class Relay:
    """A TCP relay on a free port to ``target``: the link between a room and the centre. ``cut()``
    drops every connection and refuses new ones (a cable pulled); ``mend()`` takes them again."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port(HOST)
        self._server: socket.socket | None = None
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self.mend()

    def mend(self) -> None:
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((HOST, self.port))
        server.listen(8)
        self._server = server
        threading.Thread(target=self._accept, args=(server,), daemon=True).start()

    def _accept(self, server: socket.socket) -> None:
        while True:
            try:
                near, _ = server.accept()
            except OSError:
                return
            try:
                far = socket.create_connection((HOST, self.target), timeout=2)
            except OSError:
                near.close()
                continue
            with self._lock:
                self._open += [near, far]
            for src, dst in ((near, far), (far, near)):
                threading.Thread(target=self._pipe, args=(src, dst), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        if self._server is not None:
            with contextlib.suppress(OSError):  # wakes the accepting thread: the port is free again
                self._server.shutdown(socket.SHUT_RDWR)
            self._server.close()
            self._server = None
        with self._lock:
            sockets, self._open = self._open, []
        for s in sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()


@dataclass
class Event:
    files: EventFiles
    centre: MosquittoProcess
    room: MosquittoProcess
    relay: Relay
    head_relay: Relay
    """The head console's own link to the centre."""
    room_console: Console
    head: Console
    path: Path
    tables: list[Table] = field(default_factory=list)

    def table(self, table_id: str) -> Table:
        t = Table(self.path / f"table-{table_id}.sqlite", self.files.rooms["A"].address_of(table_id), table_id)
        self.tables.append(t)
        return t


@pytest.fixture
def event(tmp_path: Path) -> Iterator[Event]:
    """Room A (tables 1 and 2) bridged through a relay to the centre; room B (table 3) only in the files."""
    with running_event(tmp_path) as ev:
        yield ev


@contextlib.contextmanager
def running_event(tmp_path: Path) -> Iterator[Event]:
    """The ``event`` fixture's event (other modules make their fixture of it)."""
    require_mosquitto(passwd=True)
    centre_port, room_port = free_port(HOST), free_port(HOST)
    relay, head_relay = Relay(centre_port), Relay(centre_port)
    files = init_event(tmp_path / "event", CLUB, [
        RoomPlan("A", ("1", "2"), HOST, room_port, centre=f"{HOST}:{relay.port}"),
        RoomPlan("B", ("3",), HOST, free_port(HOST)),
    ], listen=HOST, port=centre_port)
    centre = MosquittoProcess(files.centre.conf, centre_port, host=HOST)
    room = MosquittoProcess(files.rooms["A"].conf, room_port, host=HOST)
    centre.start()
    room.start()
    room_console = Console(files.rooms["A"].address_of("console"), tmp_path / "room-console")
    head = Console(replace(files.centre.address_of("console"), port=head_relay.port), tmp_path / "head-console",
                   head=True)
    room_console.start()
    head.start()
    ev = Event(files, centre, room, relay, head_relay, room_console, head, tmp_path)
    try:
        wait(lambda: room_console.connected and head.connected, what="both consoles to connect")
        yield ev
    finally:
        for t in ev.tables:
            t.stop()
        room_console.stop()
        head.stop()
        relay.cut()
        head_relay.cut()
        room.stop()
        centre.stop()


def holds(console: Console, table: Table) -> bool:
    """Whether ``console`` holds every outbox row of ``table``'s log with nothing missing."""
    outbox = table.outbox()
    ack = console.room.acknowledged(table.link.table)
    return bool(outbox) and ack == (table.rt.store.session_id, outbox[-1])


def play(t: Table, calls: tuple[tuple[str, str], ...]) -> None:
    for slot, seat in calls:
        t.call(slot, seat)


def exactly(console: Console, tables: list[Table]) -> None:
    """The head console ends with exactly every table's outbox: each row once, no alert taken twice."""
    for t in tables:
        # held in memory first, then kept in console.sqlite: the file is what the console holds for good
        wait(lambda t=t: holds(console, t) and _stored(console, t.link.table) == t.outbox(),  # type: ignore[misc]
             timeout=CATCH_UP, what=f"table {t.link.table} caught up")
        assert _stored(console, t.link.table) == t.outbox()
        assert not console.store.refused(1)[0]
        calls = [al for al in console.room.alerts
                 if al["table"] == t.link.table and al.get("alert") == "arbiter_called"]
        assert len(calls) == t.director_calls  # type: ignore[attr-defined]


def lead_out_of_turn(t: Table) -> None:
    """After 1NT by N and three passes E is on lead: W's card is an opening lead out of turn (Law 54)."""
    t.sim.present("S2", "W.play")
    t.clock.now += 1.0
    assert t.rt.sync(5)


def call_director(t: Table, seat: Seat) -> None:
    t.rt.submit(a.CallDirector(seat))
    assert t.rt.sync(5)
    t.director_calls = getattr(t, "director_calls", 0) + 1  # type: ignore[attr-defined]


def start(ev: Event) -> list[Table]:
    """Tables 1 and 2 under way, the head console holding what they sent."""
    tables = [ev.table("1"), ev.table("2")]
    for t in tables:
        t.director_calls = 0  # type: ignore[attr-defined]
        t.sim.present(TAG, "board")
        assert t.rt.sync(5)
        t.call("1NT", "N")
    for t in tables:
        wait(lambda t=t: holds(ev.head, t), timeout=CATCH_UP, what="the head console to hold the start")  # type: ignore[misc]
    return tables


def test_the_link_to_the_centre_cut_mid_session_the_room_rules_on_and_the_centre_catches_up(event: Event) -> None:
    t1, t2 = start(event)
    event.relay.cut()
    play(t1, (("Pass", "E"), ("Pass", "S"), ("Pass", "W")))
    lead_out_of_turn(t1)  # raised while the room is cut off from the centre
    call_director(t1, Seat.S)
    play(t2, (("Pass", "E"), ("Pass", "S")))
    call_director(t2, Seat.W)
    # the room plays and rules on its own: its console holds everything, its Director rules
    for t in (t1, t2):
        wait(lambda t=t: holds(event.room_console, t), what="the room's console to hold its tables")  # type: ignore[misc]
    assert not holds(event.head, t1) and not holds(event.head, t2)  # the cut is real: the centre lacks them
    [irregularity] = [c for c in event.room_console.room.calls.values() if c.table == "1" and c.irregularity]
    ref = event.room_console.send("1", "ruling", {"id": irregularity.irregularity, "option": "accept_see_dummy"})
    answer = event.room_console.reply(ref, 10)
    assert answer is not None and answer["accepted"] is True, answer
    event.relay.mend()
    exactly(event.head, [t1, t2])
    assert [r["accepted"] for r in event.head.room.replies.values()] == [True]  # the room's ruling, seen at the centre


def test_a_room_broker_killed_with_the_link_down_loses_the_centre_nothing(event: Event) -> None:
    """What waited in the room's broker for the centre dies with it (SIGKILL, never saved): the tables
    send it again, from the lower of the two consoles' acknowledgements. What the tables publish
    before the restarted broker has reached the centre is lost to the centre too, and no table
    publishes after it (the last row of the night): the room console's acknowledgement, crossing
    once the link is back, tells the head console it lacks them."""
    t1, t2 = start(event)
    event.relay.cut()
    play(t1, (("Pass", "E"), ("Pass", "S")))
    call_director(t2, Seat.N)
    for t in (t1, t2):
        wait(lambda t=t: holds(event.room_console, t), what="the room's console to hold its tables")  # type: ignore[misc]
    event.room.kill()
    play(t2, (("Pass", "E"),))
    event.room.start()
    wait(lambda: holds(event.room_console, t2), what="the room's console to hold table 2's last row")
    event.relay.mend()
    exactly(event.head, [t1, t2])
    exactly(event.room_console, [t1, t2])


def test_the_central_broker_killed_mid_session_the_head_console_catches_up(event: Event) -> None:
    """The centre dies (SIGKILL, never saved) holding what it had queued for the head console, away
    meanwhile; then the room publishes while the centre is down (it waits in the room's broker)."""
    t1, t2 = start(event)
    event.head_relay.cut()
    play(t1, (("Pass", "E"),))
    call_director(t2, Seat.S)
    wait(lambda: holds(event.room_console, t1) and holds(event.room_console, t2), what="the room's console")
    event.centre.kill()
    play(t1, (("Pass", "E"), ("Pass", "S")))
    call_director(t1, Seat.E)
    play(t2, (("Pass", "E"),))
    for t in (t1, t2):
        wait(lambda t=t: holds(event.room_console, t), what="the room's console to hold its tables")  # type: ignore[misc]
    event.centre.start()
    event.head_relay.mend()
    play(t2, (("Pass", "S"),))
    exactly(event.head, [t1, t2])


def test_a_command_from_the_head_console_crosses_the_bridge_to_the_table(event: Event) -> None:
    (t1, _t2) = start(event)
    play(t1, (("Pass", "E"), ("Pass", "S"), ("Pass", "W")))
    lead_out_of_turn(t1)  # an irregularity the head's Director may rule as well
    wait(lambda: any(c.table == "1" and c.irregularity for c in event.head.room.calls.values()), what="the call")
    [irregularity] = [c for c in event.head.room.calls.values() if c.table == "1" and c.irregularity]
    ref = event.head.send("1", "ruling", {"id": irregularity.irregularity, "option": "accept_see_dummy"})
    answer = event.head.reply(ref, 15)
    assert answer is not None and answer["accepted"] is True, answer
    assert event.room_console.reply(ref, 10) is not None  # the room saw the head's ruling and the table's answer


def test_a_rooms_bridge_credentials_cannot_speak_for_another_rooms_table(event: Event,
                                                                         peers: Callable[..., Peer]) -> None:
    head = peers(event.files.centre.url("console")).connected()
    head.subscribe(f"bridge/{CLUB}/#")
    room_a = event.files.centre.address_of("room-A").url(hide_password=False)
    bridge_a = peers(room_a, client_id="room-A-forger").connected()
    bridge_a.publish(f"bridge/{CLUB}/table/3/event", b'{"forged": true}')   # table 3 is room B's
    bridge_a.publish(f"bridge/{CLUB}/console/head/3", b'{"forged": true}')  # the head console's alone
    bridge_a.publish(f"bridge/{CLUB}/console/ack/3", b'{"forged": true}')   # room B's console's
    bridge_a.publish(f"bridge/{CLUB}/table/1/event", b'{"own": true}')      # its own table: crosses
    head.wait_for(f"bridge/{CLUB}/table/1/event")
    assert not [t for t in head.quiet() + head.topics() if "/3" in t]
    bridge_a.subscribe(f"bridge/{CLUB}/table/3/command")
    head.publish(f"bridge/{CLUB}/table/3/command", b"{}")
    head.publish(f"bridge/{CLUB}/table/1/command", b"{}")
    assert bridge_a.subscribe(f"bridge/{CLUB}/table/1/command")
    assert f"bridge/{CLUB}/table/3/command" not in bridge_a.quiet()


def test_the_bridge_says_on_both_ends_whether_the_room_is_linked(event: Event, peers: Callable[..., Peer]) -> None:
    head = peers(event.files.centre.url("console")).connected()
    head.subscribe(link_topic(CLUB, "A"))
    head.wait_for(link_topic(CLUB, "A"), b"1")
    event.relay.cut()
    head.wait_for(link_topic(CLUB, "A"), b"0", timeout=60)


def test_a_centre_restarted_from_an_older_save_the_room_consoles_acknowledgement_asks_again(event: Event) -> None:
    """The centre crashes after saving (SIGUSR1, as its autosave does) the head console's queue, and
    comes back with that older queue: the head console's session is there, the last rows are not,
    and no table publishes after them. The room console's acknowledgement, crossing again with the
    link, says the room holds more: the head console asks the table again."""
    import os
    import signal

    t1, _t2 = start(event)
    event.head_relay.cut()
    play(t1, (("Pass", "E"),))
    wait(lambda: holds(event.room_console, t1), what="the room's console")
    saved = event.files.centre.persistence / "mosquitto.db"
    saved.unlink(missing_ok=True)
    assert event.centre.pid is not None
    os.kill(event.centre.pid, signal.SIGUSR1)
    wait(saved.exists, what="the centre's save")
    play(t1, (("Pass", "S"),))
    call_director(t1, Seat.W)
    wait(lambda: holds(event.room_console, t1), what="the room's console")
    event.centre.kill()
    event.centre.start()
    event.head_relay.mend()
    exactly(event.head, [t1])


def test_who_is_on_the_way_crosses_the_bridge_both_ways(event: Event) -> None:
    """A room Director's "On my way" shows on the head console, and the head Director's on the room's."""
    (t1, t2) = start(event)
    for t in (t1, t2):
        play(t, (("Pass", "E"), ("Pass", "S"), ("Pass", "W")))
        lead_out_of_turn(t)  # a call at each table
    def call(console: Console, table: str) -> object:
        return next((c for c in console.room.calls.values() if c.table == table and c.irregularity), None)
    for console in (event.room_console, event.head):
        for table in ("1", "2"):
            wait(lambda c=console, t=table: call(c, t) is not None, what=f"table {table}'s call")  # type: ignore[misc]
    one, two = call(event.room_console, "1"), call(event.head, "2")
    assert one is not None and two is not None
    event.room_console.mark(one.key, "acknowledged", "Anna")  # type: ignore[attr-defined]
    event.head.mark(two.key, "acknowledged", "Max")  # type: ignore[attr-defined]
    wait(lambda: getattr(call(event.head, "1"), "by", None) == "Anna", timeout=CATCH_UP, what="Anna at the centre")
    wait(lambda: getattr(call(event.room_console, "2"), "by", None) == "Max", timeout=CATCH_UP, what="Max in the room")
    assert getattr(call(event.head, "1"), "state", None) == "acknowledged"
