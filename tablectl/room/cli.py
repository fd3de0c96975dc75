"""``tablectl room init`` and ``tablectl room broker``: a club's Mosquitto broker, written and run.

``room init`` writes the broker's files for a club and its tables into a directory
(``tablectl.room.broker``); ``room broker`` runs Mosquitto on such a directory in the
foreground (the process becomes ``mosquitto``, so signals and systemd reach the broker
itself). hardware/deploy/room.md has the whole set-up.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from controller.errors import BridgeTableError
from drivers.addresses import BROKER_PORT, BROKER_TLS_PORT
from tablectl.room.broker import CONF_NAME, broker_command, init_room, load_room, parse_tables
from tablectl.room.process import runnable_config

__all__ = ["add_commands"]


def _cmd_init(args: argparse.Namespace) -> int:
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
    i.add_argument("--tables", required=True, metavar="SPEC",
                   help="the room's tables: a count (12: tables 1 to 12), ranges and ids (1-12, 1-4,7, A1,B1)")
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
                        "broker against (a self-signed one), added to their URLs as ?ca=PATH")
    i.add_argument("--rotate", action="store_true", help="make new passwords for every user")
    i.set_defaults(func=_cmd_init)

    b = rsub.add_parser("broker", help="run Mosquitto on a room directory, in the foreground",
                        description="Run mosquitto -c DIR/mosquitto.conf in the foreground (Ctrl-C stops it).")
    b.add_argument("--dir", required=True, type=Path, help="the room directory made by tablectl room init")
    b.set_defaults(func=_cmd_broker)

    from tablectl.room import serve  # the console and the room demo

    serve.add_commands(sub, rsub)
