"""An event's rooms on their own brokers, bridged to a central one (docs/event-topology.md).

``init_event(directory, club, rooms, ...)`` writes, for an event whose rooms (or sections) each
have their own broker, console and Director:

``centre/``
    the central broker: ``mosquitto.conf``, ``passwd`` (the head console ``console`` and one
    bridge user per room, ``room-NAME``), ``acl`` (``centre_acl_text``) and ``credentials.toml``
    (the head console's URL, each room's bridge password). No table connects here.
``room-NAME/``
    each room's broker as ``tablectl room init`` writes it (``tablectl.room.broker.init_room``: its
    tables, its console, their passwords, ACL and keys), its ``mosquitto.conf`` ending with the
    bridge to the centre (``bridge_text``): Mosquitto's own bridge, started by the room's broker,
    QoS 1, a persistent session on both ends (``cleansession false``), so that what the room
    publishes while the link is down waits in the room's broker and crosses once it is back.

The bridge carries, room -> centre, each of the room's tables' ``state``, ``event``, ``alert``,
``result/+`` and ``public/#`` topics and the room console's acknowledgements ``console/ack/ID``
(the alerts on a bridge connection of their own, the room's alert lane: an alert never waits in
a socket behind the room's bulk; ``tablectl.room.alert_lane``);
centre -> room, each table's ``command`` and the head console's acknowledgements
``console/head/ID``. Nothing else crosses: the players' results (``results``) and the room
console's commands stay in the room. The topics are the same on both ends (no remapping: the
event is the club in every topic, and a table id is the event's, unique across its rooms; each
message names its club and table, so a remapped topic would be refused by the consoles).

On the centre, a room's bridge user may write only its own tables' topics and its console's
acknowledgements of them, and read only its tables' commands and the head console's
acknowledgements of them: a room's bridge credentials cannot speak for another room's table. The
alert lane's user (``alerts-room-NAME``, the bridge's password) may write only its tables' alerts.

TLS: with the centre's certificate and key, the centre listens for MQTT over TLS only (``mqtts``,
port 8883) and each room's bridge checks it: against ``room-NAME/centre.crt``, a copy of the
centre's certificate written there, when the clients keep a copy of it (``client_ca``: a
self-signed certificate), otherwise against the system's CAs. A room's own listener takes TLS
as a club's room does (``RoomPlan.tls_cert``), its tables keeping their copy at ``client_ca`` too:
each client holds the certificate of the broker it connects to, at the same path everywhere.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from tablectl.room.address import CONSOLE_USER, DEFAULT_PORTS, ClubAddress, ClubTopics, alert_lane_user, valid_name
from tablectl.room.broker import (
    ACL_NAME,
    CONF_NAME,
    CREDENTIALS_NAME,
    DATA_NAME,
    PASSWD_NAME,
    RoomError,
    RoomFiles,
    _public_host,
    _read_passwords,
    _toml_string,
    _write_passwd,
    _write_private,
    conf_text,
    init_room,
    tls_files,
    with_lanes,
)
from tablectl.room.process import find_mosquitto_passwd

__all__ = [
    "CENTRE_CA_NAME",
    "CENTRE_DIR",
    "EventFiles",
    "RoomPlan",
    "bridge_text",
    "centre_acl_text",
    "init_event",
    "link_topic",
    "room_dir",
    "room_user",
]

CENTRE_DIR = "centre"
CENTRE_CA_NAME = "centre.crt"
"""In each room's directory when the clients keep a copy of the centre's certificate: what the
room's bridge checks the centre against."""
_ROOM_PREFIX = "room-"
_TOKEN_BYTES = 24
RESTART_TIMEOUT = (1, 10)
"""Seconds the room's broker waits before it tries the centre again: 1 at first, doubling up to 10
(a link back is caught up within seconds; a centre down is asked at most every 10 s by each room)."""


def room_user(room: str) -> str:
    """The centre's broker user of room ``room``'s bridge: ``room-NAME``."""
    if not valid_name(room):
        raise RoomError(f"room name {room!r} is not valid: use 1 to 64 letters, digits, '-' or '_'")
    return _ROOM_PREFIX + room


def room_dir(directory: Path | str, room: str) -> Path:
    """Where ``init_event`` writes room ``room``'s broker files."""
    return Path(directory) / room_user(room)


def link_topic(club: str, room: str) -> str:
    """The room's bridge's own state on both brokers, retained: ``1`` linked, ``0`` not (the centre's
    last will of the bridge). A Mosquitto notification, not JSON: no console reads it."""
    return f"bridge/{club}/room/{room}/link"


@dataclass(frozen=True, slots=True)
class RoomPlan:
    """One room of the event: its name, its tables (ids unique across the event), where its broker
    listens and is reached (``address``; default: ``listen``, or this machine's host name), and
    ``centre``: ``HOST:PORT`` where this room's broker reaches the centre when it is not the centre's
    own address (a tunnel, a VPN, a relay). ``tls_cert`` and ``tls_key``: the room broker's own
    certificate and key, for MQTT over TLS between the room's tables and its broker."""

    name: str
    tables: tuple[str, ...]
    listen: str = "0.0.0.0"
    port: int | None = None
    address: str | None = None
    centre: str | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None


@dataclass(frozen=True, slots=True)
class EventFiles:
    """What ``init_event`` wrote: the centre (its tables: none) and each room."""

    directory: Path
    centre: RoomFiles
    rooms: Mapping[str, RoomFiles] = field(default_factory=dict)

    def room_of(self, table: str) -> str:
        """The room that has table ``table`` (RoomError if none)."""
        for name, room in self.rooms.items():
            if table in room.tables:
                return name
        raise RoomError(f"no room of the event has table {table!r}")


def centre_acl_text(club: str, rooms: Mapping[str, Sequence[str]]) -> str:
    """The central broker's ACL: the head console as a room's console (and its ``console/head/#``
    acknowledgements), each room's bridge limited to its own tables (module doc)."""
    c = ClubTopics(club)
    lines = [
        f"# Mosquitto ACL of the centre of the event {club!r}, written by tablectl room init --room",
        "# (tablectl/room/bridge.py). The head console, and one bridge user per room: a room's bridge",
        "# may speak only for its own tables. No anonymous access; no rule outside a user's block.",
        "",
        f"user {CONSOLE_USER}",
        f"topic read {c.everything}",
        f"topic write {c.commands}",
        f"topic write {c.player_results}",
        f"topic write bridge/{club}/console/head/#",
        f"topic write bridge/{club}/table/+/result/#",
        "",
        "# the head console's alert lane (tablectl/room/alert_lane.py): the tables' alerts, read only",
        f"user {alert_lane_user(CONSOLE_USER)}",
        f"topic read {c.alerts}",
    ]
    for room, tables in rooms.items():
        lines += ["", f"# room {room}'s alert lane: its tables' alerts", f"user {alert_lane_user(room_user(room))}"]
        lines += [f"topic write {c.table(table).alert}" for table in tables]
        lines += ["", f"user {room_user(room)}", f"topic write {link_topic(club, room)}"]
        for table in tables:
            t = c.table(table)
            lines += [
                f"topic write {t.state}",
                f"topic write {t.event}",
                f"topic write {t.base}/result/#",
                f"topic write {t.public}/#",
                f"topic write {t.ack}",
                f"topic read {t.command}",
                f"topic read {t.head_ack}",
            ]
    return "\n".join(lines) + "\n"


def bridge_text(club: str, room: str, tables: Sequence[str], centre: ClubAddress, password: str) -> str:
    """The end of a room's ``mosquitto.conf``: Mosquitto's bridge to the centre at ``centre``, as the
    room's bridge user with ``password`` (module doc)."""
    c = ClubTopics(club)
    lines = [
        f"# The bridge of room {room!r} to the centre of the event {club!r}, written by tablectl room init",
        "# --room (tablectl/room/bridge.py; docs/event-topology.md). The room's broker opens it and keeps",
        "# it: the room plays on while the centre is out of reach, and what it published meanwhile",
        "# waits here (a persistent session, QoS 1, within max_queued_messages) and crosses once the",
        "# link is back. The topics are the same on both ends; each table's are listed.",
        *_connection(f"centre-{room}", room_user(room), password, centre),
        "# the link's own state, retained on both ends: 1 linked, 0 not",
        "notifications true",
        f"notification_topic {link_topic(club, room)}",
        "# room -> centre: the tables' outboxes and states, the room console's acknowledgements",
    ]
    for table in tables:
        t = c.table(table)
        lines += [f"topic {t.state} out 1", f"topic {t.event} out 1", f"topic {t.base}/result/+ out 1",
                  f"topic {t.public}/# out 1", f"topic {t.ack} out 1"]
    lines.append("# centre -> room: the head console's commands and acknowledgements")
    for table in tables:
        t = c.table(table)
        lines += [f"topic {t.command} in 1", f"topic {t.head_ack} in 1"]
    lines += [
        "",
        "# The room's alert lane (tablectl/room/alert_lane.py): the tables' alerts on a connection of their",
        "# own, so that none waits in a socket behind the states and events of the room's other tables.",
        *_connection(f"centre-{room}-alerts", alert_lane_user(room_user(room)), password, centre),
        "notifications false",
    ]
    lines += [f"topic {c.table(table).alert} out 1" for table in tables]
    return "\n".join(lines) + "\n"


def _connection(name: str, user: str, password: str, centre: ClubAddress) -> list[str]:
    """A bridge connection's own lines: to the centre as ``user``, QoS 1 sessions kept on both ends."""
    host = f"[{centre.host}]" if ":" in centre.host else centre.host
    lines = [
        f"connection {name}",
        f"address {host}:{centre.port}",
        "bridge_protocol_version mqttv311",
        "# the centre knows a Mosquitto bridge: it never sends a message back the way it came",
        "try_private true",
        f"remote_username {user}",
        f"remote_password {password}",
        f"remote_clientid {user}",
        f"local_clientid bridge-{name}",
        "# persistent sessions: the centre keeps what it owes the room, the room what it owes the centre",
        "cleansession false",
        "local_cleansession false",
        "start_type automatic",
        f"restart_timeout {RESTART_TIMEOUT[0]} {RESTART_TIMEOUT[1]}",
        "keepalive_interval 15",
    ]
    if centre.tls:
        lines.append("# TLS to the centre, checking its certificate")
        lines.append(f"bridge_cafile {centre.ca_file}" if centre.ca_file else "bridge_capath /etc/ssl/certs")
        lines.append("bridge_insecure false")
    return lines


def _centre_credentials(club: str, address: ClubAddress, listen: str, passwords: Mapping[str, str],
                        rooms: Mapping[str, Sequence[str]]) -> str:
    console = address.with_credentials(CONSOLE_USER, passwords[CONSOLE_USER])
    lines = [
        f"# Credentials of the centre of the event {club!r}, written by tablectl room init --room. KEEP IT",
        "# SECRET (mode 0600). Running it again keeps these passwords (--rotate makes new ones).",
        "",
        f"club = {_toml_string(club)}",
        f"broker = {_toml_string(address.url())}",
        f"listen = {_toml_string(listen)}",
        f"port = {address.port}",
        f"tls = {'true' if address.tls else 'false'}",
        "",
        "# the head console: tablectl console --head --club URL",
        "[console]",
        f"user = {_toml_string(CONSOLE_USER)}",
        f"password = {_toml_string(passwords[CONSOLE_USER])}",
        f"url = {_toml_string(console.url(hide_password=False))}",
    ]
    for room, tables in rooms.items():
        user = room_user(room)
        lines += ["", f"# room {room}'s bridge (in room-{room}/mosquitto.conf): tables {', '.join(tables)}",
                  f"[rooms.{room}]", f"user = {_toml_string(user)}", f"password = {_toml_string(passwords[user])}"]
    return "\n".join(lines) + "\n"


def _reached_at(centre: ClubAddress, where: str) -> ClubAddress:
    """The centre at ``HOST:PORT`` (or ``HOST``: the centre's port), as a room reaches it."""
    host, sep, port = where.rpartition(":")
    if not sep or not port.isdigit():
        host, port = where, str(centre.port)
    try:
        return ClubAddress(centre.scheme, host.strip("[]"), int(port), centre.club, tls=centre.tls,
                           ca_file=centre.ca_file)
    except ValueError as exc:
        raise RoomError(f"the centre as a room reaches it, {where!r}: {exc}") from None


def init_event(directory: Path | str, club: str, rooms: Sequence[RoomPlan], *, listen: str = "0.0.0.0",
               port: int | None = None, address: str | None = None, tls_cert: Path | str | None = None,
               tls_key: Path | str | None = None, client_ca: str | None = None, rotate: bool = False) -> EventFiles:
    """Write the centre's broker files into ``directory/centre`` and each room's, bridged to it, into
    ``directory/room-NAME`` (module doc). ``listen``, ``port`` and ``address``: the centre's listener
    and the name the rooms' brokers reach it at; ``tls_cert`` and ``tls_key``: the centre's TLS
    certificate and key; ``client_ca``: where every client (the head console, a room's tables) keeps
    its copy of its broker's certificate, when it is self-signed (module doc). Passwords of an
    earlier run are kept unless ``rotate``."""
    d = Path(directory)
    if not rooms:
        raise RoomError("an event needs at least one room")
    cert, key = tls_files(tls_cert, tls_key)
    for plan in rooms:
        tls_files(plan.tls_cert, plan.tls_key)
    if client_ca is not None and cert is None and not any(plan.tls_cert for plan in rooms):
        raise RoomError("--client-ca is the clients' copy of a broker's TLS certificate: it needs --tls-cert "
                        "(the centre's) or --room-tls (a room's)")
    owner: dict[str, str] = {}
    for plan in rooms:
        room_user(plan.name)
        if not plan.tables:
            raise RoomError(f"room {plan.name} has no table")
        for table in plan.tables:
            if table in owner:
                raise RoomError(f"table {table} is in rooms {owner[table]} and {plan.name}: a table id is the "
                                "event's, give each room its own (A1-A20, B1-B20, or 1-20, 21-40)")
            owner[table] = plan.name
    names = [plan.name for plan in rooms]
    if len(set(names)) != len(names):
        raise RoomError(f"a room is listed twice in {', '.join(names)}")
    tables = {plan.name: plan.tables for plan in rooms}

    centre_dir = d / CENTRE_DIR
    centre_dir.mkdir(parents=True, exist_ok=True)
    (centre_dir / DATA_NAME).mkdir(mode=0o700, exist_ok=True)
    credentials = centre_dir / CREDENTIALS_NAME
    earlier = {} if rotate else _read_passwords(credentials)
    users = [CONSOLE_USER, *(room_user(n) for n in names)]
    passwords = {u: earlier.get(u) or secrets.token_urlsafe(_TOKEN_BYTES) for u in users}
    scheme = "mqtts" if cert is not None else "mqtt"
    centre_address = ClubAddress(scheme, address or _public_host(listen), port or DEFAULT_PORTS[scheme], club,
                                 tls=cert is not None, ca_file=client_ca if cert is not None else None)
    centre = RoomFiles(centre_dir, centre_dir / CONF_NAME, centre_dir / PASSWD_NAME, centre_dir / ACL_NAME,
                       credentials, centre_dir / DATA_NAME, centre_address, listen, (), passwords)
    _write_passwd(centre.passwd, with_lanes(passwords, users), find_mosquitto_passwd())
    _write_private(centre.acl, centre_acl_text(club, tables))
    _write_private(centre.conf, conf_text(centre_dir, club, listen, centre_address.port, cert, key))
    _write_private(credentials, _centre_credentials(club, centre_address, listen, passwords, tables))

    made: dict[str, RoomFiles] = {}
    for plan in rooms:
        reach = centre_address if plan.centre is None else _reached_at(centre_address, plan.centre)
        reach = replace(reach, ca_file=_centre_ca(room_dir(d, plan.name), cert, client_ca))
        bridge = bridge_text(club, plan.name, plan.tables, reach, passwords[room_user(plan.name)])
        made[plan.name] = init_room(room_dir(d, plan.name), club, plan.tables, plan.listen, plan.port,
                                    plan.tls_cert, plan.tls_key, address=plan.address,
                                    client_ca=client_ca if plan.tls_cert is not None else None, rotate=rotate,
                                    bridge=bridge)
    return EventFiles(d, centre, made)


def _centre_ca(directory: Path, cert: Path | None, client_ca: str | None) -> str | None:
    """What room ``directory``'s bridge checks the centre's certificate ``cert`` against: a copy of it in
    the room's directory when the clients keep one (a self-signed certificate); None: the system's CAs."""
    if cert is None or client_ca is None:
        if (directory / CENTRE_CA_NAME).exists():
            (directory / CENTRE_CA_NAME).unlink()
        return None
    directory.mkdir(parents=True, exist_ok=True)
    copy = directory / CENTRE_CA_NAME
    tmp = copy.with_name(f".{copy.name}.tmp")
    tmp.write_bytes(cert.read_bytes())
    os.chmod(tmp, 0o644)  # a certificate is public: the broker may run as another user
    os.replace(tmp, copy)
    return str(copy.resolve())
