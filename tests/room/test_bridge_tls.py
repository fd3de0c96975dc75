"""An event whose sites are linked over TLS (docs/event-topology.md, Security): ``tablectl room init
--room ... --tls-cert --tls-key --client-ca`` makes the centre listen for MQTT over TLS only, each
room's bridge check the centre's certificate against its own copy, and (``--room-tls``) a room's
tables reach their broker over TLS too. Real Mosquitto on both ends, real openssl certificates."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tablectl.cli import main
from tablectl.room.bridge import CENTRE_CA_NAME, link_topic
from tablectl.room.broker import RoomFiles, load_room
from tablectl.room.process import MosquittoProcess, free_port
from tests.room.conftest import HOST, Peer, require_mosquitto
from tests.room.test_tls import self_signed

Peers = Callable[..., Peer]
LINK = link_topic("congress", "A")


def _init(tmp_path: Path, centre_port: int, room_port: int, *extra: str) -> tuple[RoomFiles, RoomFiles]:
    require_mosquitto(passwd=True)
    (tmp_path / "centre-keys").mkdir()
    cert, key = self_signed(tmp_path / "centre-keys")
    code = main(["room", "init", "--dir", str(tmp_path / "ev"), "--club", "congress", "--listen", HOST,
                 "--port", str(centre_port), "--tls-cert", str(cert), "--tls-key", str(key),
                 "--client-ca", str(cert), "--room", "A=A1-A2", "--room-listen", HOST,
                 "--room-address", f"A={HOST}:{room_port}", *extra])
    assert code == 0
    return load_room(tmp_path / "ev" / "centre"), load_room(tmp_path / "ev" / "room-A")


def test_the_centre_listens_over_tls_and_a_rooms_bridge_crosses_checking_its_certificate(
        tmp_path: Path, peers: Peers) -> None:
    centre_port, room_port = free_port(HOST), free_port(HOST)
    (tmp_path / "room-keys").mkdir()
    room_cert, room_key = self_signed(tmp_path / "room-keys")
    centre, room = _init(tmp_path, centre_port, room_port, "--room-tls", f"A={room_cert},{room_key}")
    assert centre.address.tls and centre.address.port == centre_port
    assert room.address.tls, "--room-tls: the room's tables reach it over TLS"
    conf = room.conf.read_text(encoding="utf-8")
    assert f"bridge_cafile {(room.directory / CENTRE_CA_NAME).resolve()}" in conf
    assert "bridge_insecure false" in conf
    with MosquittoProcess(centre.conf, centre_port, host=HOST), MosquittoProcess(room.conf, room_port, host=HOST):
        head = peers(centre.url("console")).connected()
        head.subscribe(LINK)
        head.wait_for(LINK, b"1", timeout=15)
        head.subscribe("bridge/congress/table/+/event")
        # each client keeps its own broker's certificate at --client-ca: on this one machine, the room's is here
        table = room.address_of("A1").with_ca_file(str(room_cert)).url(hide_password=False)
        peers(table).connected().publish("bridge/congress/table/A1/event", b'{"over": "tls"}')
        head.wait_for("bridge/congress/table/A1/event", b'{"over": "tls"}')


def test_a_rooms_bridge_refuses_a_centre_whose_certificate_it_does_not_hold(tmp_path: Path, peers: Peers) -> None:
    centre_port, room_port = free_port(HOST), free_port(HOST)
    centre, room = _init(tmp_path, centre_port, room_port)
    (tmp_path / "other").mkdir()
    other, _ = self_signed(tmp_path / "other")  # another machine posing as the centre would have this one
    (room.directory / CENTRE_CA_NAME).write_bytes(other.read_bytes())
    with MosquittoProcess(centre.conf, centre_port, host=HOST), \
            MosquittoProcess(room.conf, room_port, host=HOST) as room_broker:
        head = peers(centre.url("console")).connected()
        head.subscribe(LINK)
        deadline = time.monotonic() + 20
        while "certificate verify failed" not in room_broker.log_tail().lower():
            assert time.monotonic() < deadline, f"the room's bridge never tried the centre:\n{room_broker.log_tail()}"
            time.sleep(0.2)
        assert not [m for m in head.messages if m.topic == LINK and m.payload == b"1"]


def test_the_centre_over_tls_refuses_a_client_in_clear(tmp_path: Path, peers: Peers) -> None:
    centre_port, room_port = free_port(HOST), free_port(HOST)
    centre, _ = _init(tmp_path, centre_port, room_port)
    plain = centre.url("console").replace("mqtts://", "mqtt://").partition("?")[0]
    with MosquittoProcess(centre.conf, centre_port, host=HOST), pytest.raises((OSError, AssertionError)):
        peers(plain).connected()


def test_room_tls_for_a_room_that_is_not_listed_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_mosquitto(passwd=True)
    code = main(["room", "init", "--dir", str(tmp_path / "ev"), "--club", "congress", "--room", "A=1-2",
                 "--room-tls", "B=b.crt,b.key"])
    assert code == 2
    assert "--room-tls names no room of --room: B" in capsys.readouterr().err
    assert not (tmp_path / "ev").exists()
