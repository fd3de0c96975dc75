"""``tablectl room init`` and ``tablectl room broker``: a club's Mosquitto broker, written and run.

``room director`` keeps the team of Directors who sign in to the consoles by name and PIN
(``tablectl.room.directors``). ``room init`` writes the broker's files for a club and its tables into a directory
(``tablectl.room.broker``), or with ``--room NAME=TABLES`` (repeated) an event's: the centre's and
each room's, bridged to it (``tablectl.room.bridge``, docs/event-topology.md); ``room broker``
runs Mosquitto on such a directory in the foreground (the process becomes ``mosquitto``, so
signals and systemd reach the broker itself). hardware/deploy/room.md has the whole set-up.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from controller.errors import BridgeTableError
from drivers.addresses import BROKER_PORT, BROKER_TLS_PORT
from tablectl.room.bridge import RoomPlan, init_event
from tablectl.room.broker import CONF_NAME, RoomError, broker_command, init_room, load_room, parse_tables
from tablectl.room.directors import DirectorError
from tablectl.room.process import runnable_config

__all__ = ["add_commands"]


def _cmd_init(args: argparse.Namespace) -> int:
    if args.room:
        return _cmd_init_event(args)
    if args.room_tls:
        print("tablectl room init: --room-tls is for an event's rooms (--room); a club's room takes --tls-cert "
              "and --tls-key", file=sys.stderr)
        return 2
    if args.tables is None:
        print("tablectl room init: name the room's tables (--tables 12), or an event's rooms "
              "(--room A=A1-A20 --room B=B1-B20)", file=sys.stderr)
        return 2
    try:
        files = init_room(args.dir, args.club, parse_tables(args.tables), args.listen, args.port,
                          args.tls_cert, args.tls_key, address=args.address, client_ca=args.client_ca,
                          rotate=args.rotate)
    except (BridgeTableError, OSError) as exc:
        print(f"tablectl room init: {exc}", file=sys.stderr)
        return 2
    print(f"room {files.address.club!r}: {len(files.tables)} tables ({', '.join(files.tables)}) at "
          f"{files.address.url()}, listening on {files.listen}:{files.port}")
    for path in (files.conf, files.passwd, files.acl, files.credentials):
        print(f"  wrote {path}")
    print(f"each table's and the console's address, with its password: {files.credentials} (keep it secret)")
    print(f"start the broker: tablectl room broker --dir {files.directory}")
    return 0


def _rooms(args: argparse.Namespace) -> list[RoomPlan]:
    """The ``--room NAME=TABLES`` and ``--room-address NAME=HOST[:PORT]`` options as plans (RoomError)."""
    addresses: dict[str, tuple[str, int | None]] = {}
    for item in args.room_address or ():
        name, sep, where = item.partition("=")
        host, colon, port = where.rpartition(":")
        if not colon or not port.isdigit():
            host, port = where, ""
        if not sep or not host:
            raise RoomError(f"--room-address {item!r}: give NAME=HOST[:PORT], e.g. A=room-a.local")
        addresses[name] = (host, int(port) if port else None)
    tls: dict[str, tuple[Path, Path]] = {}
    for item in args.room_tls or ():
        name, sep, files = item.partition("=")
        cert, comma, key = files.partition(",")
        if not sep or not comma or not cert or not key:
            raise RoomError(f"--room-tls {item!r}: give NAME=CERT,KEY, e.g. A=room-a.crt,room-a.key")
        tls[name] = (Path(cert), Path(key))
    plans = []
    for item in args.room:
        name, sep, spec = item.partition("=")
        if not sep:
            raise RoomError(f"--room {item!r}: give NAME=TABLES, e.g. A=A1-A20 or B=21-40")
        host, port = addresses.pop(name, (None, args.room_port))
        cert, key = tls.pop(name, (None, None))
        plans.append(RoomPlan(name, tuple(parse_tables(spec)), args.room_listen, port, host, tls_cert=cert,
                              tls_key=key))
    if addresses:
        raise RoomError(f"--room-address names no room of --room: {', '.join(addresses)}")
    if tls:
        raise RoomError(f"--room-tls names no room of --room: {', '.join(tls)}")
    return plans


def _cmd_init_event(args: argparse.Namespace) -> int:
    if args.tables is not None:
        print("tablectl room init: an event (--room) takes each room's tables in --room NAME=TABLES",
              file=sys.stderr)
        return 2
    try:
        files = init_event(args.dir, args.club, _rooms(args), listen=args.listen, port=args.port,
                           address=args.address, tls_cert=args.tls_cert, tls_key=args.tls_key,
                           client_ca=args.client_ca, rotate=args.rotate)
    except (BridgeTableError, OSError) as exc:
        print(f"tablectl room init: {exc}", file=sys.stderr)
        return 2
    centre = files.centre
    print(f"event {centre.address.club!r}: the centre at {centre.address.url()} (head console: "
          f"{centre.credentials}), {len(files.rooms)} rooms bridged to it")
    for name, room in files.rooms.items():
        print(f"  room {name}: {len(room.tables)} tables ({room.tables[0]} to {room.tables[-1]}) at "
              f"{room.address.url()}: {room.directory}")
    print("start each broker on its own machine: tablectl room broker --dir DIR (the centre's, each room's)")
    return 0


def _cmd_broker(args: argparse.Namespace) -> int:
    directory = Path(args.dir)
    conf = directory / CONF_NAME
    try:
        room = load_room(directory)
        command = broker_command(runnable_config(conf))
    except (BridgeTableError, OSError) as exc:
        print(f"tablectl room broker: {exc}", file=sys.stderr)
        return 2
    print(f"room {room.address.club!r} on {room.listen}:{room.port}: {' '.join(command)}", file=sys.stderr)
    sys.stderr.flush()
    os.execv(command[0], command)


def _director_pin(args: argparse.Namespace) -> tuple[str, bool]:
    """The new Director's PIN: ``--pin-file``, else ``$BRIDGE_DIRECTOR_PIN``, else one made up (True)."""
    if args.pin_file is not None:
        try:
            lines = Path(args.pin_file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise DirectorError(f"cannot read the PIN file {args.pin_file}: {exc}") from None
        pin = lines[0].strip() if lines else ""
        if not pin:
            raise DirectorError(f"the PIN file {args.pin_file} is empty")
        return pin, False
    given = os.environ.get("BRIDGE_DIRECTOR_PIN", "").strip()
    if given:
        return given, False
    import secrets
    return f"{secrets.randbelow(1_000_000):06d}", True


def _cmd_director(args: argparse.Namespace) -> int:
    from drivers.config import hash_pin
    from tablectl.room.directors import add_director, directors_files, load_directors, remove_director

    try:
        if args.director_command == "add":
            pin, made_up = _director_pin(args)
            if not 4 <= len(pin) <= 64:
                raise DirectorError("a Director's PIN is 4 to 64 characters")
            rooms = [r for part in args.rooms or () for r in part.split(",")]
            written = add_director(args.dir, args.name, hash_pin(pin), head=args.head, rooms=rooms)
            print(f"Director {' '.join(args.name.split())} can sign in to the consoles of {args.dir}")
            if made_up:
                print(f"  PIN: {pin} (give it to them; only its hash is kept)")
        elif args.director_command == "remove":
            written = remove_director(args.dir, args.name)
            print(f"Director {args.name} removed")
        else:
            team = load_directors(directors_files(args.dir)[None])
            for d in team.directors:
                print(f"{d.name}: {d.covered()}")
            if not team.directors:
                print("no Director yet: tablectl room director add --dir DIR NAME")
            return 0
    except (BridgeTableError, OSError) as exc:
        print(f"tablectl room director: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"  wrote {path}")
    print("restart each console with --directors FILE (its directory's directors.toml) to take the change")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``room`` (``init``, ``broker``, ``demo``) and ``console`` to ``tablectl``'s sub-commands."""
    room = sub.add_parser("room", help="the club room's broker: write its configuration, run it",
                          description="The club room's Mosquitto broker (hardware/deploy/room.md).")
    rsub = room.add_subparsers(dest="room_command", required=True)

    i = rsub.add_parser("init", help="write a club's broker files (config, passwords, ACL, credentials)",
                        description="Write mosquitto.conf, passwd, acl and credentials.toml for a club's "
                                    "room into a directory. Run again to add tables: passwords are kept "
                                    "unless --rotate.")
    i.add_argument("--dir", required=True, type=Path, help="the room directory (created if missing)")
    i.add_argument("--club", required=True, help="the club's name in the topics ([A-Za-z0-9_-])")
    i.add_argument("--tables", metavar="SPEC",
                   help="the room's tables: a count (12: tables 1 to 12), ranges and ids (1-12, 1-4,7, A1,B1, A1-A20)")
    i.add_argument("--room", action="append", metavar="NAME=TABLES",
                   help="an event's room and its tables (repeat per room: --room A=A1-A20 --room B=B1-B20): DIR gets "
                        "the centre's broker files (centre/) and each room's, bridged to it (room-NAME/); --listen, "
                        "--port and --address are then the centre's")
    i.add_argument("--room-address", action="append", metavar="NAME=HOST[:PORT]",
                   help="with --room: where room NAME's tables reach its broker (default: this host, port 1883)")
    i.add_argument("--room-listen", default="0.0.0.0", metavar="HOST",
                   help="with --room: the address each room's broker listens on (0.0.0.0)")
    i.add_argument("--room-port", type=int, metavar="PORT", help="with --room: each room broker's port (1883)")
    i.add_argument("--room-tls", action="append", metavar="NAME=CERT,KEY",
                   help="with --room: room NAME's broker takes its tables over TLS with this certificate and key "
                        "(--tls-cert and --tls-key are the centre's, which the rooms' bridges then use)")
    i.add_argument("--listen", default="0.0.0.0", metavar="HOST",
                   help="the address the broker listens on (0.0.0.0: every address, for the club LAN)")
    i.add_argument("--port", type=int, help=f"the broker's port ({BROKER_PORT}; {BROKER_TLS_PORT} with TLS)")
    i.add_argument("--address", metavar="HOST",
                   help="the name or address the tables and the console reach the broker at "
                        "(default: --listen, or this machine's host name when listening everywhere)")
    i.add_argument("--tls-cert", type=Path, metavar="FILE", help="the broker's TLS certificate (PEM): mqtts://")
    i.add_argument("--tls-key", type=Path, metavar="FILE", help="the private key of --tls-cert (PEM)")
    i.add_argument("--client-ca", metavar="PATH",
                   help="with TLS: where the tables and the console keep a copy of the certificate to check the "
                        "broker against (a self-signed one), added to their URLs as ?ca=PATH; with --room, each "
                        "room's bridge gets its copy of the centre's in room-NAME/centre.crt")
    i.add_argument("--rotate", action="store_true", help="make new passwords for every user")
    i.set_defaults(func=_cmd_init)

    b = rsub.add_parser("broker", help="run Mosquitto on a room directory (a room's or an event's centre)",
                        description="Run mosquitto -c DIR/mosquitto.conf in the foreground (Ctrl-C stops it): "
                                    "a room's broker (bridged to its centre when room init wrote an event), or "
                                    "an event's central broker.")
    b.add_argument("--dir", required=True, type=Path, help="the room directory made by tablectl room init")
    b.set_defaults(func=_cmd_broker)

    t = rsub.add_parser("director", help="the team of Directors: each signs in to the consoles by name and PIN",
                        description="Keep the event's team of Directors (docs/directors.md): each signs in to a "
                                    "console under their own name with their own PIN; a call shows who is on the "
                                    "way, every ruling and score adjustment who made it. A head Director sees every "
                                    "room; a room Director sees the rooms they cover. For an event (room init "
                                    "--room) the team is written to centre/directors.toml and each room-NAME/ gets "
                                    "its own Directors only; give each console its file with --directors.")
    tsub = t.add_subparsers(dest="director_command", required=True)
    ta = tsub.add_parser("add", help="add a Director (or change their PIN and rooms)",
                         description="Add a Director to the team kept in DIR (or change their PIN, role and rooms). "
                                     "The PIN comes from --pin-file, else $BRIDGE_DIRECTOR_PIN, else one is made up "
                                     "and printed once: only its hash is kept.")
    ta.add_argument("--dir", required=True, type=Path, help="the room or event directory of tablectl room init")
    ta.add_argument("name", help="the name they sign in with, as the page shows it (e.g. Anna)")
    role = ta.add_mutually_exclusive_group()
    role.add_argument("--head", action="store_true", help="a head (chief) Director: every room of the event")
    role.add_argument("--rooms", action="append", metavar="A,B",
                      help="an event's rooms this Director covers (comma-separated, or repeated)")
    ta.add_argument("--pin-file", type=Path, metavar="FILE", help="a file whose first line is their PIN")
    ta.set_defaults(func=_cmd_director)
    tr = tsub.add_parser("remove", help="take a Director off the team")
    tr.add_argument("--dir", required=True, type=Path, help="the room or event directory")
    tr.add_argument("name")
    tr.set_defaults(func=_cmd_director)
    tl = tsub.add_parser("list", help="the team: each Director and the rooms they cover")
    tl.add_argument("--dir", required=True, type=Path, help="the room or event directory")
    tl.set_defaults(func=_cmd_director)

    from tablectl.room import serve  # the console and the room demo

    serve.add_commands(sub, rsub)
