"""``tablectl run`` and ``tablectl demo``: the running table, real or simulated, with its pages.

``run`` opens every device of a table config (``drivers.open_table``), rebuilds the table
from its log (``<data dir>/table.sqlite``) and serves the pages; ``demo`` does the same
with a simulated table whose players play real boards of the corpus (``tablectl.demo``),
or, when no corpus is found (or with ``--deal``), boards it deals and plays itself (one
line says so).
Both print the URLs of the table, arbiter and spectator pages, the arbiter's PIN when it
is not secret already, and the start-up time; SIGTERM and SIGINT stop them cleanly (the
log is checkpointed and closed). With ``--no-web`` (``--headless``) no server starts:
``demo`` then exits once its boards are played.

Logs go to stderr; under systemd (``JOURNAL_STREAM`` set) each line starts with its
syslog priority (``<3>`` error ... ``<7>`` debug) and carries no time stamp, as journald
wants them.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import secrets
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

from controller.codes import TABLE_DEFAULT_CODE
from controller.errors import BridgeTableError
from controller.sensing.deck import DeckRegistry
from drivers.config import PUBLIC_RECORDS, Listen, TableConfig, hash_pin, load_deck, verify_pin
from drivers.config import load as load_config
from tablectl.boardsetup import load_board_tags, load_hand_record
from tablectl.ports import PORT_TAKEN_EXIT, PortTaken, listen_socket
from tablectl.room.serve import add_link_options, open_link
from tablectl.runtime import TableRuntime, TableSetup
from tablectl.webserver import (
    DEFAULT_PORT,
    ServerOptions,
    add_server_options,
    check_server,
    run_server,
    uvicorn_config,
)
from web_ui.arbiter_link import ENV as LINK_ENV
from web_ui.arbiter_link import load_key
from web_ui.security import LOCAL_HOSTS
from web_ui.service import PUBLIC_RECORDS as WEB_PUBLIC_RECORDS
from web_ui.service import PublicRecords, WebSettings

__all__ = ["PIN_FILE", "ServerOptions", "add_commands", "add_link_key_option", "add_pin_options", "add_server_options",
           "check_server", "default_data_dir", "given_pin", "run_server", "server_options", "setup_logging", "show_pin",
           "uvicorn_config"]

log = logging.getLogger("tablectl")

DB_NAME = "table.sqlite"
IRREGULARITY_KINDS = ("insufficient_bid", "call_out_of_rotation", "exposed_card", "lead_out_of_turn", "revoke")
"""What ``demo --first-irregularity`` can commit (``tablectl.demo.IRREGULARITIES``)."""
PAGES = (("table", "/"), ("arbiter", "/arbiter"), ("spectator", "/spectator"))
_K = TypeVar("_K")
_V = TypeVar("_V")

_PRIORITY = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6, logging.DEBUG: 7}


class _JournalFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        priority = _PRIORITY.get(record.levelno, 6)
        text = super().format(record)
        return "\n".join(f"<{priority}>{line}" for line in text.splitlines() or [""])


def setup_logging(verbose: bool = False) -> None:
    """Log to stderr: journald's priority prefixes under systemd, time stamps elsewhere."""
    handler = logging.StreamHandler(sys.stderr)
    if os.environ.get("JOURNAL_STREAM"):
        handler.setFormatter(_JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG if verbose else logging.INFO)


def default_data_dir() -> Path:
    """Where ``run`` keeps its log by default: ``$STATE_DIRECTORY`` (systemd), else
    ``$XDG_STATE_HOME/bridgetable``, else ``~/.local/state/bridgetable``."""
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "bridgetable"


def _archive(db: Path) -> Path | None:
    """Move a finished session's log aside (``table-<time>.sqlite``), with its WAL and its
    high-water mark (a new session's log must not be checked against the old one's)."""
    if not db.exists():
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = db.with_name(f"{db.stem}-{stamp}{db.suffix}")
    for suffix in ("-wal", "-shm", ".hwm", ""):
        src = Path(str(db) + suffix)
        if src.exists():
            src.rename(Path(str(target) + suffix))
    return target


PIN_FILE = "arbiter-pin"
"""Where a made-up PIN is kept in the data dir when no terminal shows it (mode 0600)."""


def given_pin(args: argparse.Namespace) -> str | None:
    """The PIN given to the command: ``--arbiter-pin-file``, else ``--arbiter-pin`` (with a warning:
    every user of the machine sees a command line), else ``$BRIDGE_ARBITER_PIN``; ValueError for an
    unreadable or empty file."""
    path = getattr(args, "arbiter_pin_file", None)
    if path is not None:
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read the PIN file {path}: {exc}") from None
        pin = lines[0].strip() if lines else ""
        if not pin:
            raise ValueError(f"the PIN file {path} is empty")
        return pin
    if args.arbiter_pin:
        log.warning("--arbiter-pin shows the PIN to every user of this machine (the process list, "
                    "/proc/PID/cmdline): give it with --arbiter-pin-file FILE or $BRIDGE_ARBITER_PIN instead")
        return str(args.arbiter_pin)
    return os.environ.get("BRIDGE_ARBITER_PIN") or None


def _pin(args: argparse.Namespace, config: TableConfig | None, generate: bool) -> tuple[str, str | None]:
    """The arbiter's PIN hash, and the PIN itself when it was made up here (``show_pin`` says where
    it is); the options first, then the config's ``pin_hash``, then the environment."""
    if getattr(args, "arbiter_pin_file", None) is not None or args.arbiter_pin:
        return hash_pin(given_pin(args) or ""), None
    if config is not None and config.arbiter_pin_hash:
        return config.arbiter_pin_hash, None
    env = given_pin(args)
    if env:
        return hash_pin(env), None
    if not generate:
        log.warning("no arbiter PIN configured (arbiter.pin_hash, --arbiter-pin-file, BRIDGE_ARBITER_PIN): "
                    "one is made up for this run")
    pin = f"{secrets.randbelow(1_000_000):06d}"
    return hash_pin(pin), pin


def show_pin(pin: str, data_dir: Path, label: str = "arbiter PIN") -> str:
    """The line that tells where a made-up PIN is: the PIN itself when stdout is an interactive
    terminal; else (a log, journald) it goes to ``<data_dir>/arbiter-pin``, readable by its owner
    only, and the line names that file. Never logged."""
    if sys.stdout.isatty():
        return f"{label}: {pin}"
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / PIN_FILE
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        os.fchmod(fd, 0o600)  # a file left by an earlier run keeps its own mode otherwise
        os.write(fd, f"{pin}\n".encode())
    finally:
        os.close(fd)
    return f"{label}: in {path.resolve()} (readable by this user only; a PIN is printed only on a terminal)"


def _public_records(value: str | None) -> PublicRecords | None:
    """The ``public_records`` setting named ``value`` (the command line's or the config's, both checked)."""
    return next((choice for choice in WEB_PUBLIC_RECORDS if choice == value), None)


def _check_pin(pin_hash: str) -> Callable[[str], bool]:
    def check(pin: str) -> bool:
        return isinstance(pin, str) and 0 < len(pin) <= 64 and verify_pin(pin, pin_hash)
    return check


def server_options(args: argparse.Namespace, config: TableConfig | None) -> ServerOptions:
    """Where and how the pages are served: the command line, else the config's ``[listen]``;
    ValueError when a certificate comes without its key or the other way round."""
    listen = config.listen if config is not None else Listen()
    host = args.host or listen.host
    tls_cert, tls_key = args.tls_cert or listen.tls_cert, args.tls_key or listen.tls_key
    if (args.tls_cert is None) != (args.tls_key is None) or (tls_cert is None) != (tls_key is None):
        raise ValueError("HTTPS needs both --tls-cert and --tls-key ([listen] tls_cert and tls_key)")
    named = (*listen.hosts, *(args.allowed_host or ()))
    if not named and host not in ("0.0.0.0", "::", ""):
        named = (host,)
    return ServerOptions(host=host, port=args.port or listen.port,
                         proxies=tuple(args.trusted_proxy or ()) or listen.proxies,
                         tls_cert=tls_cert, tls_key=tls_key, hosts=tuple(dict.fromkeys((*LOCAL_HOSTS, *named))),
                         plain_http=args.plain_http or listen.plain_http)


def _link(args: argparse.Namespace, config: TableConfig | None) -> tuple[bytes | None, str | None]:
    """The arbiter link key shared with the console (``web_ui.arbiter_link``) and this table's id;
    ValueError for an unreadable or too short key."""
    path = args.arbiter_link_key_file or (config.arbiter_link_key_file if config is not None else None)
    table = args.table_id or (config.table_id if config is not None else None) or os.environ.get("BRIDGE_TABLE_ID")
    return load_key(path), table


def _room_link(args: argparse.Namespace, runtime: TableRuntime, config: TableConfig | None,
               command: str) -> tuple[Any, bytes | None, str | None] | None:
    """The table's link to the club room (None: no room), the arbiter link key shared with the
    console and the table's id; None when they cannot be used: said on stderr, what was
    started stopped."""
    try:
        link = open_link(args, runtime, config)
    except (BridgeTableError, ValueError) as exc:
        runtime.stop()
        print(f"tablectl {command}: {exc}", file=sys.stderr)
        return None
    try:
        link_key, table_id = _link(args, config)
    except ValueError as exc:
        if link is not None:
            link.stop()
        runtime.stop()
        print(f"tablectl {command}: {exc}", file=sys.stderr)
        return None
    return link, link_key, table_id


def _print_urls(options: ServerOptions, pin_line: str | None, started: float) -> None:
    host, port = options.host, options.port
    named = [h for h in options.hosts if h not in LOCAL_HOSTS]
    shown = named[0] if named else "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    for name, path in PAGES:
        print(f"  {name:9} {options.scheme}://{shown}:{port}{path}")
    if host in ("0.0.0.0", "::"):
        print(f"  (listening on every interface, port {port}: the club LAN reaches it by this Pi's address)")
    if pin_line is not None:
        print(f"  {pin_line}")
    print(f"  started in {time.monotonic() - started:.2f} s", flush=True)


class _Stopper:
    """SIGTERM and SIGINT stop a headless run: ``is_set()``, ``wait()``.

    The handler only sets a flag. It runs on the main thread between two bytecodes, possibly
    while that thread is inside ``threading.Event.wait`` holding the event's own lock: calling
    ``Event.set`` there deadlocks, and a SIGTERM then left ``tablectl run`` hanging (seen in CI).
    """

    def __init__(self) -> None:
        self.signalled = False
        self._old: dict[int, Any] = {}

    def __enter__(self) -> _Stopper:
        for sig in (signal.SIGTERM, signal.SIGINT):
            self._old[sig] = signal.signal(sig, self._handle)
        return self

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.signalled = True

    def is_set(self) -> bool:
        return self.signalled

    def wait(self) -> None:
        """Until a signal came (a sleep is cut short by the signal and looks again)."""
        while not self.signalled:
            time.sleep(0.2)
        log.info("signalled: stopping")

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)


def _serve(runtime: TableRuntime, settings: WebSettings, options: ServerOptions, sock: socket.socket) -> int:
    """Serve the pages on ``sock`` until SIGTERM/SIGINT."""
    try:
        app_module = importlib.import_module("web_ui.app")
    except ModuleNotFoundError as exc:
        if exc.name not in ("web_ui.app",):
            raise
        log.error("the web pages (web_ui/app.py) are not installed: use --no-web")
        return 2
    run_server(app_module.create_app(runtime, settings), options, sock)
    return 0


def _common(p: argparse.ArgumentParser, data_dir_help: str) -> None:
    p.add_argument("--port", type=int, help=f"web server port (default {DEFAULT_PORT}, or the config's [listen])")
    p.add_argument("--host", help="web server address (default 127.0.0.1, or the config's [listen] host; "
                                  "0.0.0.0 opens it to the club LAN)")
    p.add_argument("--data-dir", type=Path, help=data_dir_help)
    add_pin_options(p, "the arbiter's PIN", "else the config's arbiter.pin_hash, else $BRIDGE_ARBITER_PIN")
    add_server_options(p)
    add_link_key_option(p)
    p.add_argument("--public-records", choices=PUBLIC_RECORDS,
                   help="when anybody may download the finished boards' records (/api/records.pbn): never, "
                        "after_session (the default at a duplicate table: the boards move on to other tables) or "
                        "finished_boards (the other codes' default); else the config's [table] public_records")
    p.add_argument("--no-web", "--headless", dest="no_web", action="store_true",
                   help="run without the web server")
    p.add_argument("--new-session", action="store_true",
                   help="move the data dir's log aside (table-<time>.sqlite) and start a new session")
    p.add_argument("--verbose", action="store_true", help="debug logging")
    add_link_options(p)


def add_pin_options(p: argparse.ArgumentParser, what: str, otherwise: str) -> None:
    """``--arbiter-pin-file`` and ``--arbiter-pin`` (which the process list shows)."""
    pins = p.add_mutually_exclusive_group()
    pins.add_argument("--arbiter-pin-file", type=Path, metavar="FILE",
                      help=f"a file (mode 0600) whose first line is {what} ({otherwise}; without any, one is made "
                           f"up: shown on a terminal, else kept in DATA_DIR/{PIN_FILE})")
    pins.add_argument("--arbiter-pin", metavar="PIN",
                      help=f"{what} on the command line: every user of the machine sees it (ps); prefer "
                           "--arbiter-pin-file or $BRIDGE_ARBITER_PIN")


def add_link_key_option(p: argparse.ArgumentParser) -> None:
    """``--arbiter-link-key-file`` for ``run`` and ``demo``."""
    p.add_argument("--arbiter-link-key-file", type=Path, metavar="FILE",
                   help="this table's own arbiter link key (keys/table-ID.key of tablectl room init, derived "
                        "from the console's master key): the Director's console then opens this table's arbiter "
                        f"page by a signed link; else the config's arbiter.link_key_file, else ${LINK_ENV}")


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``run`` and ``demo`` to ``tablectl``'s sub-commands."""
    r = sub.add_parser("run", help="run a real table: devices, log, web pages",
                       description="Run the table of a config: its devices, its log (rebuilt at start), "
                                   "its web pages.")
    r.add_argument("--config", required=True, type=Path, metavar="FILE", help="the table config (TOML)")
    r.add_argument("--boards", type=Path, metavar="FILE",
                   help='board tags: a TOML file with [boards] and "tag UID" = board number')
    r.add_argument("--hand-record", type=Path, metavar="FILE",
                   help="the deals (PBN or LIN, e.g. the dealing machine's file)")
    _common(r, f"where the log ({DB_NAME}) lives (default {default_data_dir()})")
    r.set_defaults(func=_cmd_run)

    d = sub.add_parser("demo", help="run a simulated table playing real boards from the corpus",
                       description="A simulated table whose players play real boards of the corpus (without "
                                   "one, boards it deals itself), with irregularities for the arbiter.")
    d.add_argument("--speed", type=float, default=1.0, help="table seconds per real second (1)")
    d.add_argument("--irregularity-rate", type=float, default=0.3,
                   help="chance that a board has an irregularity (0.3)")
    d.add_argument("--auto-rule-after", type=float, default=45.0, metavar="SECONDS",
                   help="real seconds after which the demo rules itself, choosing the first option "
                        "the table accepts (45; negative: never)")
    d.add_argument("--seed", type=int, default=1, help="the seed of boards, think times and irregularities")
    d.add_argument("--boards", type=int, default=8, help="how many boards to play (8)")
    d.add_argument("--corpus-file", help="a PBN file of the corpus (relative to $BRIDGE_CORPUS)")
    d.add_argument("--deal", action="store_true",
                   help="deal the boards here (seeded; bid and played by a simple policy) even when the corpus is "
                        "present; without a corpus the demo always does")
    d.add_argument("--deal-seed", type=int, metavar="SEED",
                   help="the seed of the self-dealt cards (default --seed): tables given the same one hold the same "
                        "cards on each board")
    d.add_argument("--no-tempo", action="store_true", help="do not time calls and cards for hesitations")
    d.add_argument("--ack-log", action="store_true", help=argparse.SUPPRESS)
    d.add_argument("--board-order", type=_numbers, metavar="N,N,...",
                   help="play these board numbers in this order (the movement's boards for this table)")
    d.add_argument("--first-irregularity", choices=IRREGULARITY_KINDS, metavar="KIND",
                   help=f"commit this irregularity early on the first board ({', '.join(IRREGULARITY_KINDS)})")
    _common(d, f"where the log ({DB_NAME}) lives (default ./.demo-data)")
    d.set_defaults(func=_cmd_demo)


def _numbers(text: str) -> list[int]:
    try:
        numbers = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of board numbers like 3,4,1,2") from None
    if not numbers or any(n < 1 for n in numbers):
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of board numbers like 3,4,1,2")
    return numbers


def _open_runtime(data_dir: Path, setup: TableSetup, new_session: bool) -> TableRuntime:
    db = data_dir / DB_NAME
    if new_session:
        archived = _archive(db)
        if archived is not None:
            log.info("previous session moved to %s", archived)
    return TableRuntime(db, setup)


def _maybe(load: Callable[[Path], dict[_K, _V]], path: str | Path | None) -> dict[_K, _V]:
    """``load(path)``, or nothing when no file is named (command line first, then the config)."""
    return {} if path is None else load(Path(path))


def _serve_listening(args: argparse.Namespace, config: TableConfig | None, command: str,
                     serve: Callable[[ServerOptions, socket.socket | None], int]) -> int:
    """Hold the port first (``_listen_first``), then ``serve`` with the options and the socket: its exit
    status, the socket closed on the ways out. When the port cannot be held, ``_listen_first``'s status."""
    listening = _listen_first(args, config, command)
    if isinstance(listening, int):
        return listening
    options, sock = listening
    try:
        return serve(options, sock)
    finally:
        if sock is not None:
            sock.close()  # the server closes it once served; here on the ways out before that


def _listen_first(args: argparse.Namespace, config: TableConfig | None,
                  command: str) -> tuple[ServerOptions, socket.socket | None] | int:
    """The server options and the port bound for them (None with ``--no-web``), before the
    command prints anything; else the exit status, having said why (a taken port: who holds it)."""
    try:
        options = server_options(args, config)
        if args.no_web:
            return options, None
        check_server(options)
        flag = "--port" if config is None else "--port (or [listen] port in the config)"
        return options, listen_socket(options.host, options.port, flag)
    except PortTaken as exc:
        print(f"tablectl {command}: {exc}", file=sys.stderr)
        return PORT_TAKEN_EXIT
    except ValueError as exc:
        print(f"tablectl {command}: {exc}", file=sys.stderr)
        return 2


def _cmd_run(args: argparse.Namespace) -> int:
    started = time.monotonic()
    setup_logging(args.verbose)
    try:
        config = load_config(args.config)
    except (BridgeTableError, OSError, ValueError) as exc:
        print(f"tablectl run: {exc}", file=sys.stderr)
        return 2
    return _serve_listening(args, config, "run",
                            lambda options, sock: _run_table(args, config, options, sock, started))


def _run_table(args: argparse.Namespace, config: TableConfig, options: ServerOptions,
               sock: socket.socket | None, started: float) -> int:
    """``tablectl run`` once its port is held (``sock``; None with ``--no-web``): the exit status."""
    from drivers.registry import open_source, open_table
    from tablectl.hardware import announcing

    try:
        decks = DeckRegistry()
        if config.deck is not None:
            decks = load_deck(config.deck)
        else:
            log.warning("the config names no deck file: every card tag will be unknown")
        setup = TableSetup(
            name=config.name, code=config.code, decks=decks,
            boards=_maybe(load_board_tags, args.boards or config.boards),
            hand_record=_maybe(load_hand_record, args.hand_record or config.hand_record))
        pin_hash, pin = _pin(args, config, generate=False)
        data_dir = args.data_dir or default_data_dir()
        runtime = _open_runtime(data_dir, setup, args.new_session)
        devices = open_table(config, runtime.clock, opener=announcing(open_source, config, sys.stderr))
    except (BridgeTableError, OSError, ImportError, ValueError) as exc:
        print(f"tablectl run: {exc}", file=sys.stderr)
        return 2
    runtime.indicator = devices.indicator
    runtime.start(devices.sources)
    linked = _room_link(args, runtime, config, "run")
    if linked is None:
        return 2
    link, link_key, table_id = linked
    print(f"{config.name}: {runtime.store.path}")
    settings = WebSettings(check_pin=_check_pin(pin_hash), table_name=config.name, link_key=link_key,
                           table_id=table_id, hosts=options.hosts,
                           public_records=_public_records(args.public_records or config.public_records))
    try:
        if sock is None:
            with _Stopper() as stop:  # stoppable before it says it has started
                print(f"  no web server; started in {time.monotonic() - started:.2f} s", flush=True)
                stop.wait()
            return 0
        _print_urls(options, None if pin is None else show_pin(pin, data_dir), started)
        return _serve(runtime, settings, options, sock)
    finally:
        if link is not None:
            link.stop()
        runtime.stop()


def _cmd_demo(args: argparse.Namespace) -> int:
    started = time.monotonic()
    setup_logging(args.verbose)
    if not (args.speed > 0 and 0 <= args.irregularity_rate <= 1 and args.boards >= 1):
        print("tablectl demo: --speed must be > 0, --irregularity-rate 0..1, --boards >= 1", file=sys.stderr)
        return 2
    return _serve_listening(args, None, "demo", lambda server, sock: _demo_table(args, server, sock, started))


def _demo_table(args: argparse.Namespace, server: ServerOptions, sock: socket.socket | None, started: float) -> int:
    """``tablectl demo`` once its port is held (``sock``; None with ``--no-web``): the exit status."""
    from controller.sensing.deck import DeckRegistry as Registry
    from drivers.sim import SimTable, default_deck
    from tablectl.demo import DemoOptions, DemoPlayers, corpus_file, deal_boards, describe, no_corpus, pick_boards

    path = corpus_file(args.corpus_file)
    order = args.board_order
    if args.corpus_file and not args.deal and not path.is_file():
        print(f"tablectl demo: no corpus file {path} (set BRIDGE_CORPUS)", file=sys.stderr)
        return 2
    if args.deal or not path.is_file():
        if not args.deal:
            print(no_corpus(path, "the table deals its"), flush=True)
        deal_seed = args.seed if args.deal_seed is None else args.deal_seed
        boards = deal_boards(order or range(1, args.boards + 1), deal_seed, args.seed)
        source = f"dealt by the demo (deal seed {deal_seed})"
    else:
        boards = pick_boards(path, max(order) if order else args.boards, args.seed)
        if order:  # the boards the movement brings to this table, in its order of play
            by_number = {b.number: b for b in boards}
            boards = [by_number[n] for n in order if n in by_number]
        if not boards:
            print(f"tablectl demo: no playable board in {path}", file=sys.stderr)
            return 2
        source = f"from {path.name}"
    deck = default_deck()
    settings: dict[str, object] = {"event": "tablectl demo", "site": "simulated table",
                                   "date": time.strftime("%Y.%m.%d")}
    if args.no_tempo:
        settings["timing"] = False
    setup = TableSetup(
        name="Demo table", code=TABLE_DEFAULT_CODE, settings=settings,
        decks=Registry.from_mapping({"deck1": deck}), deck="deck1",
        boards={b.tag: b.number for b in boards}, hand_record={b.number: b.start for b in boards},
        speed=args.speed)
    try:
        runtime = _open_runtime(args.data_dir or Path(".demo-data"), setup, args.new_session)
    except (BridgeTableError, OSError) as exc:
        print(f"tablectl demo: {exc}", file=sys.stderr)
        return 2
    sim = SimTable(deck, runtime.clock, name="sim")
    options = DemoOptions(args.speed, args.irregularity_rate,
                          None if args.auto_rule_after < 0 else args.auto_rule_after, args.seed,
                          args.first_irregularity)
    players = DemoPlayers(runtime, sim, boards, options, say=lambda line: print(line, flush=True))
    players.restore()
    if args.ack_log:
        def ack(seq: int) -> None:  # one write per line, so that the players' prints cannot split it
            sys.stdout.write(f"ack {runtime.last_input}\n")
            sys.stdout.flush()

        runtime.subscribe(ack)
    print(f"demo: {len(boards)} boards {source}, seed {args.seed}, speed {args.speed}; "
          f"log {runtime.store.path}", flush=True)
    print(f"resumed at input {runtime.rebuilt.last_input}: {describe(runtime.snapshot())}", flush=True)
    try:
        pin_hash, pin = _pin(args, None, generate=True)
    except ValueError as exc:
        runtime.stop()
        print(f"tablectl demo: {exc}", file=sys.stderr)
        return 2
    runtime.start([sim])
    linked = _room_link(args, runtime, None, "demo")
    if linked is None:
        return 2
    link, link_key, table_id = linked
    stop = threading.Event()
    thread = threading.Thread(target=_play, args=(players, stop), name="demo players", daemon=True)
    try:
        if sock is None:
            with _Stopper() as signalled:  # stoppable before it says it has started
                print(f"  started in {time.monotonic() - started:.2f} s", flush=True)
                thread.start()
                while thread.is_alive() and not signalled.is_set():
                    thread.join(0.2)
            stop.set()
            thread.join(10)
            _summary(runtime)
            return 0
        _print_urls(server, None if pin is None else show_pin(pin, args.data_dir or Path(".demo-data")), started)
        thread.start()
        code = _serve(runtime, WebSettings(check_pin=_check_pin(pin_hash), table_name="Demo table",
                                           link_key=link_key, table_id=table_id, hosts=server.hosts,
                                           public_records=_public_records(args.public_records)), server, sock)
        stop.set()
        thread.join(10)
        return code
    finally:
        stop.set()
        if link is not None:
            link.stop()
        runtime.stop()


def _play(players: Any, stop: threading.Event) -> None:
    try:
        players.run(stop)
        if not stop.is_set():
            print("demo: every board played", flush=True)
    except Exception:
        log.exception("the demo players stopped")


def _summary(runtime: TableRuntime) -> None:
    state = runtime.snapshot().state
    for outcome in state.boards:
        b = outcome.board
        contract = b.contract_text or "-"
        declarer = f" by {b.contract.declarer}" if b.contract is not None else ""
        print(f"board {b.number}: {contract}{declarer} {outcome.result or ''} tricks {outcome.tricks} "
              f"NS {outcome.score_ns} [{outcome.status}] irregularities {len(b.irregularity_ids)}", flush=True)
