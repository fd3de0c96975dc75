"""The real Mosquitto for the room's tests: a broker on a free loopback port, and MQTT peers.

``anon_broker`` allows anonymous access (docs/room-protocol.md: tests may); ``club_broker`` runs the
club configuration of ``tablectl room init`` (passwords and ACL) for club ``testclub`` and
tables 1, 2 and 3. Both yield a ``Broker``, a fresh one per test, stopped at teardown.
Without Debian's ``mosquitto`` the fixtures skip, and fail when ``CI`` is set (CI must never
skip silently).

``Peer`` is a paho-mqtt 2 client made from a room URL that records what it receives, so a
test waits on a condition (with a timeout) instead of sleeping. ``console`` is the room's console of
the 3-table Mitchell on ``club_broker``.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from tablectl.room.address import ClubAddress
from tablectl.room.broker import RoomFiles, init_room
from tablectl.room.console import Console
from tablectl.room.process import MosquittoMissing, MosquittoProcess, find_mosquitto, find_mosquitto_passwd, free_port

CLUB = "testclub"
TABLES = ("1", "2", "3")
HOST = "127.0.0.1"
TIMEOUT = 5.0
"""How long a peer waits for something that must happen (connect, suback, a message)."""
QUIET = 0.5
"""How long a peer listens to show that something does not arrive."""


def require_mosquitto(passwd: bool = False) -> None:
    """Skip without Debian's mosquitto (and mosquitto_passwd); fail instead when ``CI`` is set."""
    try:
        find_mosquitto()
        if passwd:
            find_mosquitto_passwd()
    except MosquittoMissing as exc:
        if os.environ.get("CI"):
            pytest.fail(f"{exc} (CI is set: the room's broker tests must run)")
        pytest.skip(str(exc))


@dataclass
class Broker:
    """A Mosquitto of the tests: where it listens, which club, the room's files, the process."""

    process: MosquittoProcess
    club: str
    room: RoomFiles | None = None
    """The club configuration's files and passwords (``club_broker``); None for ``anon_broker``."""

    @property
    def host(self) -> str:
        return self.process.host

    @property
    def port(self) -> int:
        return self.process.port

    def address(self, user: str | None = None) -> ClubAddress:
        """The room's address, as ``user``: ``console``, a table id, or None (anonymous).

        On ``anon_broker`` every address is anonymous."""
        if user is None or self.room is None:
            return ClubAddress("mqtt", self.host, self.port, self.club)
        return self.room.address_of(user)

    def url(self, user: str | None = None) -> str:
        """``mqtt://USER:PASSWORD@127.0.0.1:PORT/testclub`` for ``user`` (see ``address``)."""
        return self.address(user).url(hide_password=False)

    @property
    def alive(self) -> bool:
        return self.process.alive

    def kill(self) -> None:
        """SIGKILL: the broker dies saving nothing."""
        self.process.kill()

    def stop(self) -> None:
        """SIGTERM: the broker saves its persistence file and exits."""
        self.process.stop()

    def start(self) -> None:
        """Start again on the same port and persistence directory; returns once it takes connections."""
        self.process.start()

    def restart(self) -> None:
        self.process.restart()


class WallClock:
    """The console's wall clock, moved on by the test (starts at the real time)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


ANON_CONF = """\
# a test broker that lets anyone in (tests/room/conftest.py)
listener {port} {host}
allow_anonymous true
persistence true
persistence_location {data}/
autosave_interval 60
max_queued_messages 20000
log_dest stderr
log_timestamp_format %Y-%m-%dT%H:%M:%S
"""


def _run(process: MosquittoProcess, broker: Broker) -> Iterator[Broker]:
    process.start()
    try:
        yield broker
    finally:
        process.stop()


@pytest.fixture
def anon_broker(tmp_path: Path) -> Iterator[Broker]:
    """Mosquitto on a free loopback port allowing anonymous access."""
    require_mosquitto()
    port = free_port(HOST)
    data = tmp_path / "data"
    data.mkdir()
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(ANON_CONF.format(port=port, host=HOST, data=data), encoding="utf-8")
    process = MosquittoProcess(conf, port, host=HOST)
    yield from _run(process, Broker(process, CLUB))


@pytest.fixture
def club_broker(tmp_path: Path) -> Iterator[Broker]:
    """Mosquitto with the club configuration of ``tablectl room init``: club ``testclub``,
    tables 1, 2, 3, passwords and ACL, on a free loopback port."""
    require_mosquitto(passwd=True)
    port = free_port(HOST)
    room = init_room(tmp_path / "room", CLUB, TABLES, listen=HOST, port=port)
    process = MosquittoProcess(room.conf, port, host=HOST)
    yield from _run(process, Broker(process, CLUB, room))


Message = mqtt.MQTTMessage


class Peer:
    """A paho-mqtt 2 client connected as the user of a room URL, recording what it receives."""

    def __init__(self, url: str, client_id: str = "", protocol: mqtt.MQTTProtocolVersion = mqtt.MQTTv311,
                 password: str | None = None) -> None:
        self.address = ClubAddress.parse(url)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=protocol)
        if self.address.tls:
            self.client.tls_set(ca_certs=self.address.ca_file)
        if self.address.username is not None:
            self.client.username_pw_set(self.address.username,
                                        password if password is not None else self.address.password)
        self.messages: list[Message] = []
        self.connack: ReasonCode | None = None
        self._subacks: dict[int, list[ReasonCode]] = {}
        self._changed = threading.Condition()
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags,
                    reason: ReasonCode, properties: object) -> None:
        with self._changed:
            self.connack = reason
            self._changed.notify_all()
        if reason.is_failure:
            client.disconnect()   # no retries: the broker said no

    def _on_connect_fail(self, client: mqtt.Client, userdata: object) -> None:
        with self._changed:
            self._changed.notify_all()

    def _on_subscribe(self, client: mqtt.Client, userdata: object, mid: int,
                      reasons: list[ReasonCode], properties: object) -> None:
        with self._changed:
            self._subacks[mid] = reasons
            self._changed.notify_all()

    def _on_message(self, client: mqtt.Client, userdata: object, message: Message) -> None:
        with self._changed:
            self.messages.append(message)
            self._changed.notify_all()

    def _wait(self, ready: Callable[[], bool], timeout: float, what: str) -> None:
        with self._changed:
            if not self._changed.wait_for(ready, timeout):
                raise AssertionError(f"{self.address}: no {what} within {timeout:g} s")

    def connect(self, timeout: float = TIMEOUT) -> ReasonCode:
        """Connect and return the broker's answer (CONNACK); does not raise for a refusal."""
        self.client.connect(self.address.host, self.address.port, keepalive=30)
        self.client.loop_start()
        self._wait(lambda: self.connack is not None, timeout, "CONNACK")
        assert self.connack is not None
        return self.connack

    def connected(self) -> Peer:
        """Connect, asserting the broker accepted."""
        reason = self.connect()
        assert not reason.is_failure, f"{self.address}: connection refused: {reason}"
        return self

    def subscribe(self, topic: str, qos: int = 1, timeout: float = TIMEOUT) -> list[ReasonCode]:
        """Subscribe and return the SUBACK's reason codes."""
        result, mid = self.client.subscribe(topic, qos)
        assert result == mqtt.MQTT_ERR_SUCCESS and mid is not None
        self._wait(lambda: mid in self._subacks, timeout, f"SUBACK for {topic}")
        return self._subacks[mid]

    def publish(self, topic: str, payload: str | bytes = b"{}", qos: int = 1, retain: bool = False,
                timeout: float = TIMEOUT) -> None:
        """Publish and, at QoS 1, return once the broker has acknowledged (and so routed) it."""
        info = self.client.publish(topic, payload, qos=qos, retain=retain)
        if qos:
            info.wait_for_publish(timeout)
            assert info.is_published(), f"{self.address}: no PUBACK for {topic}"

    def wait_for(self, topic: str, payload: bytes | None = None, timeout: float = TIMEOUT) -> Message:
        """The first message received on ``topic`` (with ``payload``, if given); waits for it."""
        def found() -> Message | None:
            return next((m for m in self.messages
                         if m.topic == topic and (payload is None or m.payload == payload)), None)
        self._wait(lambda: found() is not None, timeout, f"message on {topic}")
        message = found()
        assert message is not None
        return message

    def topics(self) -> list[str]:
        """The topics of every message received so far, in order."""
        with self._changed:
            return [m.topic for m in self.messages]

    def quiet(self, duration: float = QUIET) -> list[str]:
        """Listen for ``duration`` seconds, then return the topics received meanwhile."""
        before = len(self.messages)
        time.sleep(duration)   # showing that nothing arrives takes a (short, bounded) wait
        with self._changed:
            return [m.topic for m in self.messages[before:]]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def console(club_broker: Broker, tmp_path: Path) -> Iterator[Console]:
    """The room's console of the 3-table Mitchell (``MITCHELL_3``) on ``club_broker``, connected; stopped at
    teardown. A test module whose console needs another broker or a clock of its own names its own ``console``."""
    from tests.room.test_room_results import MITCHELL_3  # imported here: that module imports this conftest

    yield from running_console(club_broker.address("console"), tmp_path / "console", session=MITCHELL_3)


def running_console(address: ClubAddress, data_dir: Path, **kwargs: Any) -> Iterator[Console]:
    """A console on ``address`` (``Console``'s keywords: a session, a clock, ``head``), connected; stopped
    at the end. A fixture ``yield from``s it."""
    from tests.room.test_link import wait  # imported here: test_link imports this conftest

    made = Console(address, data_dir, **kwargs)
    made.start()
    wait(lambda: made.connected, what="the console to connect")
    try:
        yield made
    finally:
        made.stop()


@pytest.fixture
def peers() -> Iterator[Callable[..., Peer]]:
    """Make ``Peer``s (``peers(url)``); every one is closed at teardown."""
    made: list[Peer] = []

    def make(url: str, **kwargs: object) -> Peer:
        peer = Peer(url, **kwargs)  # type: ignore[arg-type]
        made.append(peer)
        return peer

    yield make
    for peer in made:
        peer.close()
