"""The room's commands: the table's link options, ``tablectl console`` and ``tablectl room demo``.

* ``--club URL --table-id ID`` on ``run`` and ``demo`` (else the config's ``[club]``, else
  ``$BRIDGE_CLUB_URL`` and ``$BRIDGE_TABLE_ID``, which keep a password out of the process
  list): the table links to the room (``tablectl.room.link``).
* ``tablectl console --club URL``: the Director's console (``tablectl.room.console``) and its
  page (``web_ui.console``), behind the arbiter PIN, or with ``--directors FILE`` the team of
  Directors, each by name and PIN (``tablectl.room.directors``).
* ``tablectl room demo``: a whole room on this machine: a private Mosquitto with the club
  configuration of ``tablectl room init`` (passwords and ACL) on a free port, N simulated
  tables (each its own ``tablectl demo`` process, playing real corpus boards, with its
  pages), and the console. ``make run`` starts it. Without the corpus (or with ``--deal``)
  the tables deal their own boards, every table the same cards on the same board (one
  deal seed for the room), and one line says so. With ``--rooms N`` it is an event of N rooms,
  each on its own broker bridged to a centre, with its console, and the head console
  (``tablectl.room.event_demo``).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import logging
import os
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.errors import BridgeTableError
from drivers import addresses
from drivers.config import hash_pin, verify_pin
from tablectl.room.address import ClubAddress, valid_name

if TYPE_CHECKING:
    from tablectl.webserver import ServerOptions

__all__ = ["add_commands", "add_link_options", "console_options", "open_link"]

log = logging.getLogger("tablectl")

CONSOLE_PORT = addresses.CONSOLE_PORT
DEMO_CLUB = "democlub"


def add_link_options(p: argparse.ArgumentParser) -> None:
    """``--club`` and ``--table-id`` for ``run`` and ``demo``."""
    p.add_argument("--club", metavar="URL",
                   help="the club room: mqtt://[USER[:PASSWORD]@]HOST[:PORT]/CLUB (mqtts:// for TLS); else the "
                        "config's [club] url, else $BRIDGE_CLUB_URL")
    p.add_argument("--table-id", metavar="ID", help="this table's number in the room (else [club] table_id, "
                                                    "else $BRIDGE_TABLE_ID)")
    p.add_argument("--boards-per-round", type=int, metavar="N", help="boards per round, for the console's rounds")


def open_link(args: argparse.Namespace, runtime: Any, config: Any = None) -> Any:
    """The table's ``TableLink`` when a room is named (started), else None; ValueError for a bad address."""
    url = args.club or (config.club_url if config is not None else None) or os.environ.get("BRIDGE_CLUB_URL")
    table = args.table_id or (config.table_id if config is not None else None) or os.environ.get("BRIDGE_TABLE_ID")
    if not url:
        return None
    if not table or not valid_name(str(table)):
        raise ValueError("a table in a club room needs --table-id (letters, digits, - or _), e.g. --table-id 3")
    from tablectl.room.link import TableLink

    address = ClubAddress.parse(url)
    per_round = args.boards_per_round or (config.boards_per_round if config is not None else None)
    link = TableLink(runtime, address, str(table), boards_per_round=per_round)
    link.start()
    log.info("table %s publishes to the room %s", table, address.url())
    return link


# -- tablectl console ------------------------------------------------------------------------------

def _the_pin(args: argparse.Namespace) -> tuple[str, str | None]:
    """The PIN given (``--arbiter-pin-file``, ``--arbiter-pin``, ``$BRIDGE_ARBITER_PIN``), else one
    made up: ``(PIN, the made-up PIN or None)``; ValueError for an unreadable or empty PIN file."""
    from tablectl.serve import given_pin

    given = given_pin(args)
    if given:
        return given, None
    pin = f"{secrets.randbelow(1_000_000):06d}"
    return pin, pin


def director_finder(team: Any) -> Any:
    """The console pages' ``find_director`` for the team of ``tablectl.room.directors.Directors``."""
    from web_ui.console import NamedDirector

    def find(name: str) -> NamedDirector | None:
        director = team.find(name)
        if director is None:
            return None
        pin_hash = director.pin_hash

        def check(pin: str) -> bool:
            return isinstance(pin, str) and 0 < len(pin) <= 64 and verify_pin(pin, pin_hash)
        return NamedDirector(director.name, director.role, director.rooms, team.scope(director), check)
    return find


def _serve_console(console: Any, pin_hash: str, options: Any, club: str, link_key: bytes | None = None,
                   table_urls: dict[str, str] | None = None, team: Any = None) -> int:
    from tablectl.serve import run_server
    from web_ui.console import ConsoleSettings, create_console_app

    def check(pin: str) -> bool:
        return isinstance(pin, str) and 0 < len(pin) <= 64 and verify_pin(pin, pin_hash)

    app = create_console_app(console, ConsoleSettings(check_pin=check, club=club, link_key=link_key,
                                                      table_urls=table_urls or {}, hosts=options.hosts,
                                                      find_director=None if team is None else director_finder(team)))
    run_server(app, options)
    return 0


def console_options(args: argparse.Namespace) -> ServerOptions:
    """Where and how ``tablectl console`` serves its page: the command line, else the console's
    port (``drivers.addresses.CONSOLE_PORT``) on this machine; ValueError as ``server_options``."""
    from tablectl.serve import server_options
    return dataclasses.replace(server_options(args, None), port=args.port or CONSOLE_PORT, graceful=3.0)


def _table_urls(pairs: list[str] | None) -> dict[str, str]:
    """``--table-url ID=URL`` options as a map; ValueError naming a malformed one."""
    urls: dict[str, str] = {}
    for pair in pairs or ():
        table, sep, url = pair.partition("=")
        if not sep or not valid_name(table) or not url.startswith(("http://", "https://")):
            raise ValueError(f"--table-url {pair!r}: give ID=URL, "
                             f"e.g. 3=https://table-3.local:{addresses.TABLE_PORT}")
        urls[table] = url.rstrip("/")
    return urls


def _cmd_console(args: argparse.Namespace) -> int:
    from tablectl.room.console import Console
    from tablectl.serve import setup_logging

    setup_logging(args.verbose)
    url = args.club or os.environ.get("BRIDGE_CLUB_URL")
    if not url:
        print("tablectl console: name the room with --club mqtt://console:PASSWORD@HOST/CLUB "
              "(or $BRIDGE_CLUB_URL)", file=sys.stderr)
        return 2
    try:
        address = ClubAddress.parse(url)
    except (BridgeTableError, ValueError) as exc:
        print(f"tablectl console: {exc}", file=sys.stderr)
        return 2
    from tablectl.serve import check_server, show_pin
    from web_ui.arbiter_link import load_key

    try:
        options = console_options(args)
        check_server(options)
        link_key, table_urls = load_key(args.arbiter_link_key_file), _table_urls(args.table_url)
        team = None
        if args.directors is not None:  # each Director signs in by name and PIN: no console PIN
            from tablectl.room.directors import load_directors
            team = load_directors(args.directors)
            if not team.directors:
                raise ValueError(f"{args.directors} names no Director: tablectl room director add --dir DIR NAME")
            pin, made_up = secrets.token_urlsafe(24), None
        else:
            pin, made_up = _the_pin(args)
    except ValueError as exc:
        print(f"tablectl console: {exc}", file=sys.stderr)
        return 2
    host, port = options.host, options.port
    from tablectl.ports import PORT_TAKEN_EXIT, port_problem
    if (taken := port_problem(host, port)) is not None:
        print(f"tablectl console: {taken}", file=sys.stderr)
        return PORT_TAKEN_EXIT
    data_dir = args.data_dir or Path(os.environ.get("STATE_DIRECTORY", "").split(":")[0] or ".console-data")
    session = None
    if args.session is not None:
        from controller.fieldscore.session import load_session
        try:
            session = load_session(args.session)
        except (ValueError, OSError) as exc:  # MovementError is a ValueError naming the file and the key
            print(f"tablectl console: {exc}", file=sys.stderr)
            return 2
    console = Console(address, Path(data_dir), session=session, head=args.head)
    if team is not None:  # the centre's team names each room's tables: the head's desk says which room an entry is from
        console.rooms = team.tables
    console.start()
    print(f"Director's console for {address.club} ({address.url()})")
    named = [h for h in options.hosts if h not in ("localhost", "127.0.0.1", "::1")]
    shown = named[0] if named else "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"  console   {options.scheme}://{shown}:{port}/")
    if made_up is not None:
        print(f"  {show_pin(made_up, Path(data_dir), 'PIN')}", flush=True)
    if team is not None:
        print(f"  Directors: {', '.join(f'{d.name} ({d.covered()})' for d in team.directors)}: each signs in "
              "with their name and PIN", flush=True)
    try:
        return _serve_console(console, hash_pin(pin), options, address.club, link_key, table_urls, team)
    finally:
        console.stop()


# -- tablectl room demo ------------------------------------------------------------------------------

def _cmd_room_demo(args: argparse.Namespace) -> int:
    from tablectl.room.broker import init_room
    from tablectl.room.console import Console
    from tablectl.room.process import BrokerError, MosquittoMissing, MosquittoProcess, free_port, runnable_config
    from tablectl.serve import ServerOptions, setup_logging, show_pin
    from web_ui.arbiter_link import table_key

    if args.rooms != 1:
        from tablectl.room.event_demo import run_event_demo
        return run_event_demo(args)
    started = time.monotonic()
    setup_logging(args.verbose)
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
    n = args.tables
    if not 1 <= n <= MAX_DEMO_TABLES:
        print(f"tablectl room demo: --tables must be 1 to {MAX_DEMO_TABLES}", file=sys.stderr)
        return 2
    ports = [args.port + i for i in range(n + 1)]
    from tablectl.ports import PORT_TAKEN_EXIT, taken_ports_message
    if (taken := taken_ports_message("127.0.0.1", ports)) is not None:
        print(f"tablectl room demo: {taken}; the console gets --port, table N --port+N", file=sys.stderr)
        return PORT_TAKEN_EXIT
    try:
        pin, made_up = _the_pin(args)
    except ValueError as exc:
        print(f"tablectl room demo: {exc}", file=sys.stderr)
        return 2
    root = Path(args.data_dir)
    for sub in ("console", *(f"table-{i}" for i in range(1, n + 1))):
        shutil.rmtree(root / sub, ignore_errors=True)  # a demo room starts afresh
    tables = [str(i) for i in range(1, n + 1)]
    try:
        room = init_room(root / "broker", DEMO_CLUB, tables, listen="127.0.0.1", port=free_port("127.0.0.1"))
        broker = MosquittoProcess(runnable_config(room.conf), room.port)
        broker.start()
    except (MosquittoMissing, BrokerError, BridgeTableError, OSError) as exc:
        print(f"tablectl room demo: the room's broker cannot start: {exc}", file=sys.stderr)
        return 2
    from tablectl.demo import corpus_file, no_corpus

    dealing = args.deal or not corpus_file().is_file()
    if dealing and not args.deal:
        print(no_corpus(corpus_file(), "the tables deal their"), flush=True)
    link_key = room.link_master  # the console's only: each table gets its own key, derived from it
    children: list[subprocess.Popen[bytes]] = []
    stopping = threading.Event()
    session, orders = _demo_session(root, n, args.boards_per_round)
    console = Console(room.address_of("console"), root / "console", session=session)
    try:
        console.start()
        for i, table in enumerate(tables, start=1):
            children.append(table_process(args, i, table, ports[i], root / f"table-{table}", room.url(table), pin,
                                          table_key(link_key, table).decode(), orders.get(table), dealing))
        print(f"The club room '{DEMO_CLUB}': {n} simulated tables, the broker on 127.0.0.1:{room.port} "
              f"(passwords and ACL: {room.directory})")
        print(f"  Director's console   http://127.0.0.1:{ports[0]}/")
        for i, table in enumerate(tables, start=1):
            base = f"http://127.0.0.1:{ports[i]}"
            print(f"  table {table:>2}  players {base}/   results {base}/results   arbiter {base}/arbiter")
        print(f"  from the console, once logged in: http://127.0.0.1:{ports[0]}/tables/N/arbiter opens table N's "
              "arbiter page without its PIN")
        if made_up is not None:
            label = "PIN (console and every table's arbiter page)"
            print(f"  {show_pin(made_up, root, label)}")
        print(f"  started in {time.monotonic() - started:.1f} s; table 1 commits "
              f"{args.first_irregularity.replace('_', ' ')} on its first board; Ctrl-C stops the room", flush=True)
        watcher = threading.Thread(target=_watch, args=(children, root, stopping), daemon=True)
        watcher.start()
        return _serve_console(console, hash_pin(pin), ServerOptions("127.0.0.1", ports[0], graceful=3.0), DEMO_CLUB,
                              link_key, {t: f"http://127.0.0.1:{ports[i]}" for i, t in enumerate(tables, 1)})
    finally:  # in order: the tables, the console, then the broker they all use
        stopping.set()
        stop_children(children)
        console.stop()
        broker.stop()


def table_process(args: argparse.Namespace, index: int, table: str, port: int, data: Path, url: str, pin: str,
                  key: str, order: list[int] | None, dealing: bool) -> subprocess.Popen[bytes]:
    """Start table ``table`` of a room demo, the ``index``-th of the demo, as its own ``tablectl demo``
    process serving its pages on ``port``, its files in ``data``, linked to the room at ``url``
    (its password, PIN and arbiter link key in its environment: never on a command line)."""
    from web_ui.arbiter_link import ENV as LINK_ENV

    data.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "tablectl", "demo", "--port", str(port), "--data-dir", str(data),
           "--seed", str(args.seed + index - 1), "--speed", str(args.speed),
           "--irregularity-rate", str(args.irregularity_rate),
           "--auto-rule-after", str(args.auto_rule_after), "--boards-per-round", str(args.boards_per_round)]
    cmd += ["--board-order", ",".join(map(str, order))] if order else ["--boards", str(args.boards)]
    if dealing:  # one deal seed for the room: board N holds the same cards at every table
        cmd += ["--deal", "--deal-seed", str(args.seed)]
    if index == 1 and args.first_irregularity != "none":
        cmd += ["--first-irregularity", args.first_irregularity]
    env = {**os.environ, "BRIDGE_CLUB_URL": url, "BRIDGE_TABLE_ID": table, "BRIDGE_ARBITER_PIN": pin, LINK_ENV: key}
    with (data / "demo.out").open("wb") as out:
        return subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def stop_children(children: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM each child's process group, then SIGKILL those still there after 15 s."""
    for child in children:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGTERM)
    for child in children:
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)


MAX_DEMO_TABLES = 1000
"""Tables of a demo room at most (each is a process of some 60 MB: the machine's memory is the real bound)."""

_DEMO_BOARDS = 12
"""Boards of the demo's corpus file (an ACBL speedball: 12 boards, each played at many tables);
a room that deals its own boards plays as many."""


def _demo_session(root: Path, tables: int, per_round: int,
                  sections: list[str] | None = None) -> tuple[Any, dict[str, list[int]]]:
    """The room demo's session: a Mitchell of ``tables`` tables (in each of ``sections``: their tables
    ``A1``, ``A2``, ...), written to ``session.toml``, and the boards each table plays in its order;
    none when the corpus file has too few boards."""
    from controller.fieldscore.movement import MovementError
    from controller.fieldscore.session import loads_session

    text = (f'[session]\nname = "Demo room"\nmovement = "mitchell"\ntables = {tables}\n'
            f"boards_per_round = {per_round}\n")
    if sections:
        text += "sections = [" + ", ".join(f'"{s}"' for s in sections) + "]\n"
    try:
        session = loads_session(text, "session.toml")
        movement = session.sections[0][1]  # every section plays the same movement
    except MovementError:  # one table is no Mitchell: it plays its boards in order
        return None, {}
    if max(movement.board_numbers) > _DEMO_BOARDS:
        return None, {}
    (root / "session.toml").write_text(text, encoding="utf-8")
    orders: dict[str, list[int]] = {}
    for sitting in sorted(movement.sittings, key=lambda s: s.round):
        if not sitting.sit_out:
            for section in sections or [""]:
                orders.setdefault(f"{section}{sitting.table}", []).extend(movement.boards(sitting.board_set))
    return session, orders


def _watch(children: list[subprocess.Popen[bytes]], root: Path, stopping: threading.Event,
           names: list[str] | None = None) -> None:
    """Say when a table process ends while the room runs (its output is in its data dir); quiet once the
    room is ``stopping``. ``names``: the children's table ids (default 1, 2, ...)."""
    names = names or [str(i) for i in range(1, len(children) + 1)]
    reported: set[int] = set()
    while len(reported) < len(children) and not stopping.is_set():
        for i, (name, child) in enumerate(zip(names, children, strict=True)):
            if i not in reported and child.poll() is not None and not stopping.is_set():
                reported.add(i)
                print(f"  table {name} stopped (exit {child.returncode}; see {root / f'table-{name}' / 'demo.out'})",
                      flush=True)
        stopping.wait(1.0)


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser], room: Any = None) -> None:
    """Add ``console`` to ``tablectl``, and ``demo`` to its ``room`` sub-commands (``room``: their parser)."""
    from tablectl.serve import add_pin_options, add_server_options
    c = sub.add_parser("console", help="the Director's console: every table of the club room on one page",
                       description="Subscribe to every table of the club room and serve the Director's page.")
    c.add_argument("--club", metavar="URL", help="the room as the console user: mqtt://console:PASSWORD@HOST/CLUB "
                                                 "(else $BRIDGE_CLUB_URL)")
    c.add_argument("--port", type=int, help=f"the console page's port (default {CONSOLE_PORT})")
    c.add_argument("--host", help="the page's address (default 127.0.0.1; 0.0.0.0 for the Director's phone on "
                                  "the club LAN)")
    c.add_argument("--data-dir", type=Path, help="where the console keeps what the tables sent (console.sqlite)")
    c.add_argument("--session", type=Path, metavar="FILE",
                   help="the Director's session file (TOML [session]: movement, tables, boards_per_round, scoring): "
                        "each result put to the pairs the movement seats there, boards out of their round reported "
                        "(Law 15), the ranking scored as it says")
    add_pin_options(c, "the Director's PIN", "else $BRIDGE_ARBITER_PIN")
    add_server_options(c)
    c.add_argument("--arbiter-link-key-file", type=Path, metavar="FILE",
                   help="the room's master key (keys/master.key of tablectl room init; else "
                        "$BRIDGE_ARBITER_LINK_KEY; each table holds only its own key, derived from it): "
                        "the Director opens a table's arbiter page from the console, without its PIN")
    c.add_argument("--table-url", action="append", metavar="ID=URL",
                   help="where table ID serves its pages, for those links (repeat per table), "
                        f"e.g. 3=https://table-3.local:{addresses.TABLE_PORT}")
    c.add_argument("--head", action="store_true",
                   help="the head console of an event whose rooms are bridged to a centre (--club: the centre, as "
                        "its console user): it sees every room's tables, each room keeps its own console")
    c.add_argument("--directors", type=Path, metavar="FILE",
                   help="the team of Directors (directors.toml of tablectl room director add: the room's, or the "
                        "centre's for --head): each signs in by name and PIN, calls show who is on the way, rulings "
                        "who made them; a room Director on the head console sees their rooms only. Without it, "
                        "one PIN signs in 'Director'")
    c.add_argument("--verbose", action="store_true")
    c.set_defaults(func=_cmd_console)
    if room is not None:
        d = room.add_parser("demo", help="a whole simulated room: broker, tables playing real boards, console",
                            description="A private Mosquitto (club configuration), N simulated tables playing "
                                        "real corpus boards (without a corpus, boards they deal themselves), and "
                                        "the Director's console, on this machine.")
        d.add_argument("--tables", type=int, default=4, help="how many tables (4), in each room with --rooms")
        d.add_argument("--rooms", type=int, default=1,
                       help="rooms (sections A, B, ...), each on its own broker bridged to a centre, with its own "
                            "console; the head console serves on --port (1: one room, no centre)")
        d.add_argument("--port", type=int, default=CONSOLE_PORT,
                       help=f"the console's port ({CONSOLE_PORT}); table N serves its pages on PORT+N")
        d.add_argument("--data-dir", default=".room-demo", help="where the room keeps its files (.room-demo)")
        d.add_argument("--boards", type=int, default=8,
                       help="boards each table plays when a Mitchell needs more than the demo's 12 boards (8)")
        d.add_argument("--boards-per-round", type=int, default=2, help="boards per round (2)")
        d.add_argument("--speed", type=float, default=1.0, help="table seconds per real second (1)")
        d.add_argument("--irregularity-rate", type=float, default=0.3, help="chance per board of an irregularity")
        d.add_argument("--first-irregularity", default="insufficient_bid",
                       help="what table 1 commits on its first board (insufficient_bid; none: nothing forced)")
        d.add_argument("--auto-rule-after", type=float, default=90.0, metavar="SECONDS",
                       help="real seconds before a table rules by itself when the Director has not (90)")
        d.add_argument("--seed", type=int, default=1, help="table N plays with seed SEED+N-1")
        d.add_argument("--deal", action="store_true",
                       help="the tables deal their own boards (from SEED), even when the corpus is present; "
                            "without a corpus they always do")
        add_pin_options(d, "the PIN of the console and the tables", "else $BRIDGE_ARBITER_PIN")
        d.add_argument("--verbose", action="store_true")
        d.set_defaults(func=_cmd_room_demo)
