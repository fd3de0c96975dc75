"""One set of addresses: the docs, the Makefile and the systemd units say what the code does.

``drivers/addresses.py`` holds the ports (a table's pages, the console, the broker) and where
pages listen. These tests read the commands' own defaults, the units of ``hardware/deploy/``
and every address and port written in the README, ``docs/`` and ``hardware/`` against it, so
a club volunteer never types an address that nothing serves.
"""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from drivers import addresses
from drivers.addresses import BROKER_PORT, BROKER_TLS_PORT, CONSOLE_PORT, LAN_HOST, LOCAL_HOST, TABLE_PORT
from tablectl import serve
from tablectl.cli import build_parser
from tablectl.room import serve as room_serve
from tablectl.room.address import DEFAULT_PORTS

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "hardware" / "deploy"
LOOPBACK = {"127.0.0.1", "localhost", "[::1]"}
ROOM_DEMO_TABLES = range(1, 31)
"""The room demo's tables: table N on the console's port + N."""

DOCS = sorted({ROOT / "README.md", ROOT / "Makefile", *(ROOT / "docs").glob("*.md"),
               *(ROOT / "hardware").rglob("*.md"), ROOT / "firmware_bridge" / "PROTOCOL.md"})

URL = re.compile(r"\b(https?|mqtts?)://((?:<[^>]*>|[^\s/`'\"()\]<])+)")
"""A web or broker address: scheme, then ``[user[:password]@]host[:port]``."""

PORT_WORDS = re.compile(r"(--port[ =]|\bport\s*=\s*|\bport |\bports? )(\d{2,5})\b")
"""A port written as an option, a TOML key or in prose."""


def _exec_start(unit: str) -> list[str]:
    text = (DEPLOY / unit).read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("ExecStart=") and x != "ExecStart=")
    return shlex.split(line.removeprefix("ExecStart="))


def _option(argv: list[str], name: str) -> list[str]:
    return [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == name]


def test_the_tables_unit_serves_its_pages_to_the_club_over_https_on_the_table_port() -> None:
    argv = _exec_start("bridgetable.service")
    assert argv[1:2] == ["run"]
    assert _option(argv, "--host") == [LAN_HOST], "a tablet must reach the table's pages"
    assert _option(argv, "--port") == [str(TABLE_PORT)]
    assert _option(argv, "--tls-cert") and _option(argv, "--tls-key"), "pages beyond the Pi need HTTPS"
    assert "%H.local" in _option(argv, "--allowed-host")


def test_the_consoles_unit_serves_the_console_over_https_on_the_console_port() -> None:
    argv = _exec_start("bridgetable-console.service")
    assert argv[1:2] == ["console"]
    assert _option(argv, "--host") == [LAN_HOST]
    assert _option(argv, "--port") == [str(CONSOLE_PORT)]
    assert _option(argv, "--tls-cert") and _option(argv, "--tls-key")
    assert "%H.local" in _option(argv, "--allowed-host")


def _args(command: list[str]) -> argparse.Namespace:
    return build_parser().parse_args(command)


def test_the_commands_defaults_are_the_addresses_module() -> None:
    table = serve.server_options(_args(["demo"]), None)
    assert (table.host, table.port, table.scheme) == (LOCAL_HOST, TABLE_PORT, "http")
    assert room_serve.console_options(_args(["console"])).port == CONSOLE_PORT
    assert (room_serve.console_options(_args(["console"])).host, _args(["room", "demo"]).port) == (
        LOCAL_HOST, CONSOLE_PORT)
    assert DEFAULT_PORTS == {"mqtt": BROKER_PORT, "mqtts": BROKER_TLS_PORT}


def test_a_console_port_given_on_the_command_line_wins() -> None:
    assert room_serve.console_options(_args(["console", "--port", "9123"])).port == 9123


def test_the_room_init_broker_listens_on_the_broker_port(tmp_path: Path) -> None:
    from tablectl.room.broker import init_room
    from tablectl.room.process import MosquittoMissing, find_mosquitto_passwd
    try:
        find_mosquitto_passwd()
    except MosquittoMissing:
        pytest.skip("mosquitto_passwd is not installed (Debian's mosquitto)")
    room = init_room(tmp_path, "riverside", ["1"], "0.0.0.0", address="club.lan")
    assert room.address.port == BROKER_PORT
    assert f"listener {BROKER_PORT} 0.0.0.0" in room.conf.read_text(encoding="utf-8")


def addresses_in(text: str) -> list[str]:
    """What is wrong with each address and port of ``text`` (a doc), in words; [] when all agree."""
    problems = []
    for m in URL.finditer(text):
        scheme, netloc = m.group(1), m.group(2).rsplit("@", 1)[-1].rstrip(".,;:")
        host, _, port_text = netloc.rpartition(":") if re.search(r":\d+$", netloc) else (netloc, "", "")
        port = int(port_text) if port_text else None
        where = f"{m.group(0)}"
        if scheme.startswith("mqtt"):
            if port is not None and port != DEFAULT_PORTS[scheme]:
                problems.append(f"{where}: the broker's port is {DEFAULT_PORTS[scheme]} for {scheme}://")
            continue
        ours = host in LOOPBACK or host.endswith(".local") or host.startswith(("192.168.", "<")) or host in (
            "HOST", "table-3", "club-pi")
        if not ours:
            continue  # a web site
        if port is None:
            problems.append(f"{where}: say the port ({TABLE_PORT} a table, {CONSOLE_PORT} the console)")
            continue
        if host in LOOPBACK:
            if scheme != "http":
                problems.append(f"{where}: this computer's pages are plain http")
            if port not in (TABLE_PORT, CONSOLE_PORT, *(CONSOLE_PORT + n for n in ROOM_DEMO_TABLES)):
                problems.append(f"{where}: no command serves port {port} by default")
            continue
        if scheme != "https":
            problems.append(f"{where}: pages beyond this computer are served over https only")
        console = "club-pi" in host or "room" in host
        expected = CONSOLE_PORT if console else TABLE_PORT
        if port != expected:
            problems.append(f"{where}: {'the console' if console else 'a table'} serves port {expected}")
    known = {TABLE_PORT, CONSOLE_PORT, BROKER_PORT, BROKER_TLS_PORT}
    for m in PORT_WORDS.finditer(text):
        port = int(m.group(2))
        if port not in known and port >= 1024:
            problems.append(f"{m.group(0)!r}: not one of the ports of drivers/addresses.py {sorted(known)}")
    for line in text.splitlines():
        for command, expected in (("tablectl console", CONSOLE_PORT), ("room demo", CONSOLE_PORT),
                                  ("tablectl run", TABLE_PORT), ("tablectl demo", TABLE_PORT)):
            if command in line and (m := re.search(r"--port[ =](\d+)", line)) and int(m.group(1)) != expected:
                problems.append(f"{line.strip()!r}: {command} serves port {expected} by default")
    return problems


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_address_in_the_docs_is_one_the_code_serves(doc: Path) -> None:
    problems = addresses_in(doc.read_text(encoding="utf-8"))
    assert not problems, f"{doc.relative_to(ROOT)} (drivers/addresses.py, docs/addresses.md):\n" + "\n".join(problems)


def test_the_docs_check_catches_what_the_docs_once_said() -> None:
    """The contradictions of the old docs are each found, and the right addresses pass."""
    assert addresses_in("the pages: `http://<table's address>:8080/`")
    assert addresses_in("then at `https://table-3.local:8443/`")
    assert addresses_in("the console's page, `http://club-pi.local:8100/`")
    assert addresses_in("tablectl console --club URL --host 0.0.0.0 --port 8000")
    assert addresses_in("[listen]\nport = 8443\n")
    assert addresses_in("mqtts://club-pi.local:1883/riverside")
    assert not addresses_in(f"open http://127.0.0.1:{CONSOLE_PORT}/ then https://table-3.local:{TABLE_PORT}/arbiter, "
                            f"https://club-pi.local:{CONSOLE_PORT}/ and mqtt://club-pi.local:{BROKER_PORT}/riverside")


def test_the_addresses_page_names_every_port_of_the_code() -> None:
    page = (ROOT / "docs" / "addresses.md").read_text(encoding="utf-8")
    for name in addresses.__all__:
        value = getattr(addresses, name)
        assert str(value) in page, f"docs/addresses.md does not say {name} = {value}"


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return next((dict(a.choices) for a in parser._actions if isinstance(a, argparse._SubParsersAction)), {})


def _options(words: list[str]) -> tuple[str, set[str]] | None:
    """The command named by ``words`` (``room demo``) and the options its parser takes."""
    parser, named = build_parser(), []
    for word in words:
        sub = _subparsers(parser)
        if word not in sub:
            break
        parser, named = sub[word], [*named, word]
    if not named:
        return None
    return " ".join(named), {o for a in parser._actions for o in a.option_strings}


COMMAND_LINE = re.compile(r"tablectl((?: [a-z][a-z-]*)+)(.*)")


def command_options_in(text: str) -> list[str]:
    """Every ``--option`` the text gives a ``tablectl`` command that the command does not take."""
    problems = []
    for line in text.splitlines():
        for m in COMMAND_LINE.finditer(line):
            found = _options(m.group(1).split())
            if found is None:
                continue
            command, options = found
            for option in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", m.group(2).split("#")[0].split("`")[0]):
                if option not in options:
                    problems.append(f"tablectl {command} has no {option}: {line.strip()}")
    return problems


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_option_the_docs_give_a_command_is_one_it_takes(doc: Path) -> None:
    problems = command_options_in(doc.read_text(encoding="utf-8"))
    assert not problems, f"{doc.relative_to(ROOT)}:\n" + "\n".join(problems)


def test_the_options_check_catches_an_option_a_command_does_not_take() -> None:
    assert command_options_in(".venv/bin/tablectl console --club URL --tables 4")
    assert command_options_in("tablectl room demo --tabels 4")
    assert not command_options_in("tablectl room demo --tables 4 --port 8100  # the --verbose flag")
