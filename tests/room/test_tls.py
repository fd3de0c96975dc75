"""A room over TLS (``mqtts://``): Mosquitto with a self-signed certificate made by one openssl command
(hardware/deploy/room.md), the clients checking the broker against their copy of it."""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tablectl.room.broker import RoomFiles, init_room
from tablectl.room.process import MosquittoProcess, free_port
from tests.room.conftest import HOST, Peer, require_mosquitto

Peers = Callable[..., Peer]


def self_signed(directory: Path, name: str = "localhost") -> tuple[Path, Path]:
    """A certificate and key for ``name`` and 127.0.0.1, as room.md makes them."""
    openssl = shutil.which("openssl")
    if openssl is None:
        if os.environ.get("CI"):
            pytest.fail("openssl is missing (CI is set)")
        pytest.skip("no openssl")
    cert, key = directory / "room.crt", directory / "room.key"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-keyout", str(key),
                    "-out", str(cert), "-subj", f"/CN={name}", "-addext", f"subjectAltName=DNS:{name},IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


@pytest.fixture
def tls_room(tmp_path: Path) -> Iterator[RoomFiles]:
    require_mosquitto(passwd=True)
    cert, key = self_signed(tmp_path)
    port = free_port(HOST)
    room = init_room(tmp_path / "room", "testclub", ["1"], HOST, port, cert, key, address="localhost",
                     client_ca=str(cert))
    with MosquittoProcess(room.conf, port, host=HOST):
        yield room


def test_tls_room_takes_a_table_that_checks_the_certificate(tls_room: RoomFiles, peers: Peers) -> None:
    console = peers(tls_room.url("console")).connected()
    console.subscribe("bridge/testclub/table/+/#")
    peers(tls_room.url("1")).connected().publish("bridge/testclub/table/1/state", b"{}")
    console.wait_for("bridge/testclub/table/1/state")


def test_tls_client_without_the_certificate_does_not_trust_the_broker(tls_room: RoomFiles, peers: Peers) -> None:
    untrusting = tls_room.address_of("1").with_ca_file(None)
    with pytest.raises(ssl.SSLError):
        peers(untrusting.url(hide_password=False)).connect()


def test_tls_room_still_wants_the_password(tls_room: RoomFiles, peers: Peers) -> None:
    assert peers(tls_room.url("1"), password="wrong").connect().is_failure
