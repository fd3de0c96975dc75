"""A private Mosquitto as a child process (``MosquittoProcess``), and the test brokers built on it."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from tablectl.room import process
from tablectl.room.process import BrokerError, MosquittoMissing, MosquittoProcess, free_port
from tests.room import conftest
from tests.room.conftest import Broker, Peer

Peers = Callable[..., Peer]
STATE = "bridge/testclub/table/1/state"


def _refused(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return False
    except OSError:
        return True


def test_anon_broker_lets_anyone_publish_and_subscribe(anon_broker: Broker, peers: Peers) -> None:
    assert anon_broker.url() == f"mqtt://127.0.0.1:{anon_broker.port}/testclub"
    reader = peers(anon_broker.url()).connected()
    reader.subscribe("bridge/testclub/#")
    peers(anon_broker.url("2")).connected().publish(STATE, b"{}")
    reader.wait_for(STATE)


def test_killed_broker_refuses_connections_and_starts_again_on_the_same_port(anon_broker: Broker,
                                                                            peers: Peers) -> None:
    port = anon_broker.port
    anon_broker.kill()
    assert not anon_broker.alive and _refused(port)
    anon_broker.start()
    assert anon_broker.alive and anon_broker.port == port
    assert not peers(anon_broker.url()).connect().is_failure


def test_retained_state_survives_a_clean_restart(club_broker: Broker, peers: Peers) -> None:
    table = peers(club_broker.url("1")).connected()
    table.publish(STATE, b'{"online": true}', retain=True)
    table.close()
    club_broker.restart()   # SIGTERM saves the persistence file; the new broker reads it
    console = peers(club_broker.url("console")).connected()
    console.subscribe(STATE)
    assert console.wait_for(STATE).payload == b'{"online": true}'


def test_club_broker_urls_carry_each_users_credentials(club_broker: Broker) -> None:
    assert club_broker.room is not None
    password = club_broker.room.passwords["table-3"]
    assert club_broker.url("3") == f"mqtt://table-3:{password}@127.0.0.1:{club_broker.port}/testclub"
    assert club_broker.url("console").startswith("mqtt://console:")
    assert club_broker.url() == f"mqtt://127.0.0.1:{club_broker.port}/testclub"


def test_a_broker_that_cannot_start_says_why(tmp_path: Path) -> None:
    conftest.require_mosquitto()
    conf = tmp_path / "bad.conf"
    conf.write_text("listener 1 127.0.0.1\nno_such_option yes\n")
    broker = MosquittoProcess(conf, free_port())
    with pytest.raises(BrokerError, match=r"no_such_option|Unknown configuration"):
        broker.start(timeout=5)
    assert not broker.alive


def test_starting_a_running_broker_is_an_error(anon_broker: Broker) -> None:
    with pytest.raises(BrokerError, match="already running"):
        anon_broker.process.start()


def test_missing_mosquitto_names_the_debian_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(process.os, "access", lambda path, mode: False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(MosquittoMissing, match="apt-get install mosquitto"):
        process.find_mosquitto()
    with pytest.raises(OSError):
        MosquittoProcess(tmp_path / "x.conf", 1883)


def test_fixtures_fail_under_ci_and_skip_elsewhere_without_mosquitto(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(process.os, "access", lambda path, mode: False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        conftest.require_mosquitto()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="apt-get install mosquitto"):
        conftest.require_mosquitto()


def test_a_broker_started_by_root_runs_as_the_owner_of_the_rooms_files(tmp_path: Path) -> None:
    conf = tmp_path / "mosquitto.conf"
    conf.write_text("listener 1883 127.0.0.1\n")
    run = process.runnable_config(conf)
    if os.geteuid() != 0:
        assert run == conf
    else:   # made by root here: Mosquitto would drop to the mosquitto user, which cannot read them
        assert run != conf and run.read_text().endswith("listener 1883 127.0.0.1\n\nuser root\n")
        assert process.runnable_config(run) == run
