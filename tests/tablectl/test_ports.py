"""A port already in use: every command that listens says so before it prints any address or
PIN, names the program holding the port when it can be seen, says how to choose another
(the ``--port`` flag, with a free one), and exits 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablectl.ports import (
    PORT_TAKEN_EXIT,
    PortTaken,
    free_from,
    listen_socket,
    port_holder,
    port_problem,
    taken_ports_message,
)
from tests.free_ports import free_base_port

HOLDER = "import socket, sys\n" \
         "s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen()\n" \
         "print(s.getsockname()[1], flush=True); sys.stdin.read()\n"


@pytest.fixture
def held_port(tmp_path: Path) -> Iterator[tuple[int, int]]:
    """A port another process listens on (``port_holder_for_test.py``): (port, that process's id). The port
    before it is free too (``room demo`` is given it, its table 1 the held one), and both lie below the
    ephemeral ports (``tests.free_ports``), where no other program takes the free one meanwhile."""
    script = tmp_path / "port_holder_for_test.py"
    script.write_text(HOLDER)
    proc = subprocess.Popen([sys.executable, str(script), str(free_base_port(2) + 1)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        yield port, proc.pid
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_a_port_another_program_listens_on_is_taken_and_its_holder_named(held_port: tuple[int, int]) -> None:
    port, pid = held_port
    assert port_holder(port) is not None and f"process {pid}" in (port_holder(port) or "")
    problem = port_problem("127.0.0.1", port)
    assert problem is not None
    assert f"port {port} on 127.0.0.1 is already in use by" in problem
    assert "port_holder_for_test.py" in problem and f"(process {pid})" in problem
    assert "choose another port with --port N" in problem


def test_the_port_offered_instead_is_free(held_port: tuple[int, int]) -> None:
    port, _ = held_port
    problem = port_problem("127.0.0.1", port) or ""
    offered = free_from("127.0.0.1", port + 1)
    assert offered is not None and f"(--port {offered} is free)" in problem
    assert port_problem("127.0.0.1", offered) is None


def test_a_run_of_ports_names_the_one_taken_and_a_first_port_whose_run_is_free(held_port: tuple[int, int]) -> None:
    port, pid = held_port
    message = taken_ports_message("127.0.0.1", range(port - 1, port + 2)) or ""
    first = free_from("127.0.0.1", port, 3)
    assert first is not None and first > port
    assert message.startswith(f"port {port} on 127.0.0.1 is already in use by ")
    assert f"(process {pid})" in message and f"(--port {first}: ports {first}-{first + 2} are free)" in message
    assert all(port_problem("127.0.0.1", p) is None for p in range(first, first + 3))
    assert taken_ports_message("127.0.0.1", range(first, first + 3)) is None


def test_listening_everywhere_finds_a_port_held_on_localhost(held_port: tuple[int, int]) -> None:
    port, pid = held_port
    assert f"(process {pid})" in (port_problem("0.0.0.0", port) or "")


def test_a_free_port_is_held_by_the_command_until_it_serves() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    sock = listen_socket("127.0.0.1", port)
    try:
        sock.listen()
        with pytest.raises(PortTaken, match=f"port {port} on 127.0.0.1 is already in use by .*process {os.getpid()}"):
            listen_socket("127.0.0.1", port)
    finally:
        sock.close()
    assert port_problem("127.0.0.1", port) is None


def test_an_address_that_is_not_this_machines_says_to_choose_another_host() -> None:
    problem = port_problem("192.0.2.1", 8000)  # TEST-NET-1: never a local address
    assert problem == "192.0.2.1 is not an address of this machine: choose another with --host"


def _command(kind: str, port: int, tmp_path: Path, corpus: Path) -> list[str]:
    data = tmp_path / "data"
    base = [sys.executable, "-m", "tablectl"]
    if kind == "run":
        config = tmp_path / "table.toml"
        config.write_text('[table]\nname = "T"\n\n[seats.N]\nunit = "sim://"\n')
        return [*base, "run", "--config", str(config), "--data-dir", str(data), "--port", str(port)]
    if kind == "demo":
        return [*base, "demo", "--port", str(port), "--data-dir", str(data), "--boards", "1"]
    if kind == "console":
        return [*base, "console", "--club", "mqtt://console:pw@127.0.0.1:1/club", "--port", str(port),
                "--data-dir", str(data)]
    return [*base, "room", "demo", "--tables", "2", "--port", str(port - 1)]


@pytest.mark.parametrize("kind", ["run", "demo", "console", "room demo"])
def test_a_command_whose_port_is_taken_prints_no_address_nor_pin_and_exits_2(
        kind: str, held_port: tuple[int, int], tmp_path: Path, corpus: Path) -> None:
    port, pid = held_port
    env = dict(os.environ, BRIDGE_CORPUS=str(corpus))
    env.pop("BRIDGE_ARBITER_PIN", None)
    out = subprocess.run(_command(kind, port, tmp_path, corpus), capture_output=True, text=True, timeout=120,
                         env=env, stdin=subprocess.DEVNULL)
    assert out.returncode == PORT_TAKEN_EXIT == 2, out.stderr[-2000:]
    assert out.stdout == ""  # no URL, no PIN, no "started"
    assert "http://" not in out.stderr and "PIN" not in out.stderr
    assert f"tablectl {kind}: port {port} on 127.0.0.1 is already in use by" in out.stderr
    assert f"(process {pid})" in out.stderr and "--port" in out.stderr
    assert "Traceback" not in out.stderr
    assert not (tmp_path / "data" / "arbiter-pin").exists()
    assert "opening device" not in out.stderr  # a real table checks its port before its devices
