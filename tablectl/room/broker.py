"""A club's broker configuration: ``tablectl room init`` writes Mosquitto's files for a room.

``init_room(directory, club, tables, ...)`` writes into ``directory``:

``mosquitto.conf``
    one listener (plain MQTT, or TLS with the given certificate and key), no anonymous
    access, the password and ACL files below, persistence in ``data/``, the log on stderr.
``passwd``
    one broker user per table (``table-ID``) and one for the console (``console``), and the
    console's alert lane (``alerts-console``, the console's password: ``tablectl.room.alert_lane``),
    hashed by Debian's ``mosquitto_passwd``; mode 0600.
``acl``
    table ``ID`` may write only its own ``bridge/CLUB/table/ID/{state,event,alert,result/#}``
    and ``bridge/CLUB/public/ID/#``, and read only its ``command`` topic, the console's
    ``bridge/CLUB/console/ack/ID``, the head console's ``bridge/CLUB/console/head/ID`` (rooms
    bridged to a centre: ``tablectl.room.bridge``), the results for its players ``bridge/CLUB/table/ID/results``
    and the Director's corrections of its results ``bridge/CLUB/table/ID/desk``, and the club's roster
    ``bridge/CLUB/roster`` (names and federation numbers only);
    the console reads ``bridge/CLUB/#`` and writes the tables' ``command``, ``results`` and ``desk`` topics,
    the roster
    and its ``console/ack/#``; its alert lane reads the tables' ``alert`` topics; nobody else anything.
``credentials.toml``
    mode 0600: each table's and the console's full room address with its password, and for
    each table the line to paste into its table config.
``keys/``
    the arbiter links' keys (``web_ui.arbiter_link``), mode 0600: ``master.key`` for the console
    only (``tablectl console --arbiter-link-key-file``), and ``table-ID.key`` for table ``ID`` only
    (its ``arbiter.link_key_file``), derived from the master: a table's key opens that table alone.

Passwords are random (``secrets.token_urlsafe``). Running ``init_room`` again (more tables,
another port) keeps the passwords of ``credentials.toml`` unless ``rotate`` is set; the
given tables are the room's whole list. A running broker re-reads ``passwd`` and ``acl`` on
SIGHUP (``systemctl reload``); a new listener or port needs a restart.
"""

from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tablectl.room.address import (
    CONSOLE_USER,
    DEFAULT_PORTS,
    AddressError,
    ClubAddress,
    ClubTopics,
    alert_lane_user,
    table_user,
    valid_name,
)
from tablectl.room.process import find_mosquitto, find_mosquitto_passwd

__all__ = [
    "CONF_NAME",
    "CREDENTIALS_NAME",
    "MAX_PACKET",
    "MAX_QUEUED_BYTES",
    "MAX_QUEUED_MESSAGES",
    "RoomError",
    "RoomFiles",
    "acl_text",
    "broker_command",
    "conf_text",
    "init_room",
    "load_room",
    "parse_tables",
    "tls_files",
    "with_lanes",
]

CONF_NAME = "mosquitto.conf"
PASSWD_NAME = "passwd"
ACL_NAME = "acl"
CREDENTIALS_NAME = "credentials.toml"
DATA_NAME = "data"
KEYS_NAME = "keys"
MASTER_KEY_NAME = "master.key"

MAX_QUEUED_MESSAGES = 20000
"""QoS 1 messages the broker keeps per client beyond those in flight (the console away for a
while, 30 tables playing). Past it the broker drops; nothing is lost for good, since each table
publishes again everything after the console's acknowledgement when the console comes back."""

MAX_PACKET = (1 << 20) + 4096
"""Bytes of the largest MQTT packet the broker takes: a message of 1 MiB (the console's limit,
``tablectl.room.intake.LIMITS``, and the players' results) and its topic and headers."""
MAX_QUEUED_BYTES = 256 << 20
"""Bytes of QoS 1 messages the broker queues per client away (with ``MAX_QUEUED_MESSAGES``)."""

_TOKEN_BYTES = 24


class RoomError(AddressError):
    """A room that cannot be written or read: bad table list, missing certificate, broken files."""


def parse_tables(spec: str) -> list[str]:
    """The table ids of ``--tables``: a count (``12``: tables 1 to 12), ranges and names
    separated by commas (``1-12``, ``1-4,7,9``, ``A1,A2,B1``, ``A1-A20``: a section's tables)."""
    spec = spec.strip()
    if spec.isdigit():
        count = int(spec)
        if not 1 <= count <= 1000:
            raise RoomError(f"--tables {spec}: a count of tables from 1 to 1000")
        return [str(n) for n in range(1, count + 1)]
    out: list[str] = []
    for item in (part.strip() for part in spec.split(",")):
        m = re.fullmatch(r"([A-Za-z_]*)(\d+)-\1(\d+)", item)
        if m:
            first, last = int(m[2]), int(m[3])
            if first > last or last - first >= 1000:
                raise RoomError(f"--tables {spec}: range {item!r} is empty or too long")
            out.extend(f"{m[1]}{n}" for n in range(first, last + 1))
        elif valid_name(item):
            out.append(item)
        else:
            raise RoomError(f"--tables {spec}: {item!r} is neither a table id ([A-Za-z0-9_-]) nor a range like 1-12")
    seen: set[str] = set()
    for table in out:
        if table in seen:
            raise RoomError(f"--tables {spec}: table {table} is listed twice")
        seen.add(table)
    return out


@dataclass(frozen=True, slots=True)
class RoomFiles:
    """What ``init_room`` wrote, and the addresses that go with it."""

    directory: Path
    conf: Path
    passwd: Path
    acl: Path
    credentials: Path
    persistence: Path
    address: ClubAddress
    """The room as the tables reach it, without credentials."""
    listen: str
    tables: tuple[str, ...]
    passwords: Mapping[str, str] = field(repr=False)
    """Broker user -> password: ``console`` and ``table-ID``."""
    link_master: bytes = field(default=b"", repr=False)
    """The arbiter links' master key (the console's only; ``keys/master.key``)."""

    @property
    def keys(self) -> Path:
        return self.directory / KEYS_NAME

    def key_file(self, who: str) -> Path:
        """The arbiter link key file of ``who``: ``console`` (the master) or a table id (its own key)."""
        if who == CONSOLE_USER:
            return self.keys / MASTER_KEY_NAME
        return self.keys / f"{self.user_of(who)}.key"

    @property
    def port(self) -> int:
        return self.address.port

    def user_of(self, who: str) -> str:
        """The broker user of ``who``: ``console``, a table id, or a user name already."""
        if who == CONSOLE_USER or who in self.passwords:
            return who
        if who in self.tables:
            return table_user(who)
        raise RoomError(f"room {self.address.club}: no table {who!r} (tables: {', '.join(self.tables)})")

    def address_of(self, who: str) -> ClubAddress:
        """The full room address of ``who`` (``console`` or a table id), password included."""
        user = self.user_of(who)
        return self.address.with_credentials(user, self.passwords[user])

    def url(self, who: str) -> str:
        """``address_of(who)`` as text, password included: what goes in a config."""
        return self.address_of(who).url(hide_password=False)


def acl_text(club: str, tables: Sequence[str]) -> str:
    """The Mosquitto ACL file of a room (docs/room-protocol.md, who may read and write)."""
    c = ClubTopics(club)
    lines = [
        f"# Mosquitto ACL of the club room {club!r}, written by tablectl room init (tablectl/room/broker.py).",
        "# One user per table and one for the console; there is no anonymous access",
        "# (allow_anonymous false) and no rule outside a user's block: nobody else may read or write.",
        "",
        f"user {CONSOLE_USER}",
        f"topic read {c.everything}",
        f"topic write {c.commands}",
        f"topic write {c.player_results}",
        f"topic write {c.desks}",
        f"topic write {c.roster}",
        f"topic write bridge/{club}/console/ack/#",
        "# a retained result the console refuses (a board the session does not have) is cleared by it",
        f"topic write bridge/{club}/table/+/result/#",
    ]
    for table in tables:
        t = c.table(table)
        lines += [
            "",
            f"user {table_user(table)}",
            f"topic write {t.state}",
            f"topic write {t.event}",
            f"topic write {t.alert}",
            f"topic write {t.base}/result/#",
            f"topic write {t.public}/#",
            f"topic read {t.command}",
            f"topic read {t.ack}",
            f"topic read {t.head_ack}",
            f"topic read {t.player_results}",
            f"topic read {t.desk}",
            f"topic read {t.roster}",
        ]
    lines += ["", "# the console's alert lane (tablectl/room/alert_lane.py): the tables' alerts, read only",
              f"user {alert_lane_user(CONSOLE_USER)}", f"topic read {c.alerts}"]
    return "\n".join(lines) + "\n"


def conf_text(directory: Path, club: str, listen: str, port: int,
              tls_cert: Path | None = None, tls_key: Path | None = None, bridge: str = "") -> str:
    """The ``mosquitto.conf`` of a room whose files are in ``directory`` (absolute paths); ``bridge``:
    the connection to the event's centre, at the end (``tablectl.room.bridge``)."""
    d = directory.resolve()
    lines = [
        f"# Mosquitto configuration of the club room {club!r}, written by tablectl room init",
        "# (tablectl/room/broker.py; hardware/deploy/room.md). Run it in the foreground with",
        f"#   mosquitto -c {d / CONF_NAME}      (or: tablectl room broker --dir {d})",
        "# After tablectl room init changes the tables or passwords, SIGHUP (systemctl reload)",
        "# makes a running broker re-read passwd and acl; a new listener or port needs a restart.",
        "",
        "# Who may connect: the users of passwd only, each limited to its topics by acl.",
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {d / PASSWD_NAME}",
        f"acl_file {d / ACL_NAME}",
        "",
    ]
    if tls_cert is not None and tls_key is not None:
        lines += [
            f"# MQTT over TLS (mqtts://) on {listen}:{port}. The tables and the console need the",
            "# certificate (or the CA that signed it) to check the broker: a self-signed one is copied",
            "# to each of them (hardware/deploy/room.md). Nothing listens without TLS.",
            f"listener {port} {listen}",
            f"certfile {tls_cert.resolve()}",
            f"keyfile {tls_key.resolve()}",
            "tls_version tlsv1.2",
        ]
    else:
        lines += [
            f"# Plain MQTT (mqtt://) on {listen}:{port}: passwords cross the club's network in clear.",
            "# For TLS: tablectl room init --tls-cert CERT --tls-key KEY (hardware/deploy/room.md).",
            f"listener {port} {listen}",
        ]
    lines += [
        "# Each connection's client id is its user name, whatever the client asks (a setting of the",
        "# listener above): a device holding one table's password can never take over, and so drop,",
        "# the console's session or another table's.",
        "use_username_as_clientid true",
        "set_tcp_nodelay true",
        "",
        "# Retained states and results, and the queues of the clients away, survive a restart:",
        "# saved every minute and at a clean stop (SIGTERM). A crash loses at most that minute, which",
        "# the tables publish again after the console's acknowledgement (docs/room-protocol.md, nothing lost).",
        "persistence true",
        f"persistence_location {d / DATA_NAME}/",
        "autosave_interval 60",
        "# a table taken out of the room: its session is forgotten after two weeks",
        "persistent_client_expiration 14d",
        "# Bounds on what any one client can make the broker hold: a packet over max_packet_size",
        "# disconnects its sender (a table's largest message is far smaller); the queue of a client",
        "# away stops at max_queued_messages or max_queued_bytes (the tables send again what the",
        "# console lacks); retained messages are bounded by the ACL (one per topic a table may write).",
        f"max_packet_size {MAX_PACKET}",
        f"max_queued_messages {MAX_QUEUED_MESSAGES}",
        f"max_queued_bytes {MAX_QUEUED_BYTES}",
        "max_inflight_messages 100",
        "",
        "# The log goes to stderr: the terminal, or the journal under systemd",
        "# (journalctl -u bridgetable-broker). For a file instead: log_dest file /var/log/mosquitto/room.log",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "log_type information",
        "connection_messages true",
        "log_timestamp true",
        "log_timestamp_format %Y-%m-%dT%H:%M:%S",
    ]
    if bridge:
        lines += ["", bridge.rstrip("\n")]
    return "\n".join(lines) + "\n"


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` with mode 0600, atomically (a temporary file then a rename)."""
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def _write_passwd(path: Path, passwords: Mapping[str, str], mosquitto_passwd: str) -> None:
    """``passwd`` hashed by ``mosquitto_passwd`` (``-c`` for the first user, ``-b`` for all), mode 0600."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.unlink(missing_ok=True)
    for n, (user, password) in enumerate(passwords.items()):
        args = [mosquitto_passwd, *(["-c"] if n == 0 else []), "-b", str(tmp), user, password]
        done = subprocess.run(args, capture_output=True, text=True, umask=0o077, check=False)
        if done.returncode != 0:
            tmp.unlink(missing_ok=True)
            raise RoomError(f"mosquitto_passwd failed for user {user!r}: "
                            f"{(done.stderr or done.stdout).strip()}")
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def with_lanes(passwords: Mapping[str, str], users: Iterable[str]) -> dict[str, str]:
    """``passwords`` and, for each of ``users``, its alert lane's user with the same password
    (``tablectl.room.address.alert_lane_user``): what the broker's ``passwd`` holds."""
    return {**passwords, **{alert_lane_user(u): passwords[u] for u in users}}


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _credentials_text(files: RoomFiles, tls_cert: Path | None) -> str:
    a = files.address
    lines = [
        f"# Credentials of the club room {a.club!r}, written by tablectl room init. KEEP IT SECRET (mode 0600):",
        "# whoever has a table's URL can publish as that table. Running tablectl room init again keeps",
        "# these passwords (--rotate makes new ones).",
        "",
        f"club = {_toml_string(a.club)}",
        f"broker = {_toml_string(a.url())}",
        f"listen = {_toml_string(files.listen)}",
        f"port = {a.port}",
        f"tls = {'true' if a.tls else 'false'}",
    ]
    if tls_cert is not None:
        lines.append("# the broker's certificate: the tables and the console check the broker against a copy of it")
        lines.append(f"certificate = {_toml_string(str(tls_cert.resolve()))}")
    console = files.address_of(CONSOLE_USER)
    lines += [
        "",
        "# tablectl console --club URL",
        "[console]",
        f"user = {_toml_string(CONSOLE_USER)}",
        f"password = {_toml_string(console.password or '')}",
        f"url = {_toml_string(console.url(hide_password=False))}",
    ]
    for table in files.tables:
        address = files.address_of(table)
        url = address.url(hide_password=False)
        lines += [
            "",
            f"# table {table}: tablectl run ... --club URL --table-id {table}; or paste the lines of `config`",
            "# at the end of that table's table.toml (hardware/config.md); copy keys/"
            f"{table_user(table)}.key (its arbiter link key, this table's alone) to it as its arbiter.link_key_file",
            f"[tables.{table}]",
            f"user = {_toml_string(table_user(table))}",
            f"password = {_toml_string(address.password or '')}",
            f"url = {_toml_string(url)}",
            "config = '''",
            "[club]",
            f"url = {_toml_string(url)}",
            f"table_id = {_toml_string(table)}",
            "'''",
        ]
    return "\n".join(lines) + "\n"


def _read_passwords(path: Path) -> dict[str, str]:
    """User -> password from an earlier ``credentials.toml`` (none when there is no file)."""
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RoomError(f"{path}: cannot read the earlier credentials ({exc}); move it aside, "
                        "or run with --rotate to make new passwords") from None
    out: dict[str, str] = {}
    entries: list[object] = [data.get("console")]
    for group in ("tables", "rooms"):  # the rooms' bridges: the centre's credentials (tablectl.room.bridge)
        members = data.get(group)
        if isinstance(members, dict):
            entries += list(members.values())
    for entry in entries:
        if isinstance(entry, dict) and isinstance(entry.get("user"), str) and isinstance(entry.get("password"), str):
            out[entry["user"]] = entry["password"]
    return out


def _write_keys(keys: Path, tables: Sequence[str], rotate: bool) -> bytes:
    """The master key (kept from an earlier run unless ``rotate``) and each table's, written into ``keys``;
    returns the master."""
    from web_ui.arbiter_link import table_key

    keys.mkdir(mode=0o700, exist_ok=True)
    path = keys / MASTER_KEY_NAME
    master = b""
    if path.is_file() and not rotate:
        master = path.read_text(encoding="utf-8").strip().encode()
    if len(master) < 32:
        master = secrets.token_hex(32).encode()
    _write_private(path, master.decode() + "\n")
    for table in tables:
        _write_private(keys / f"{table_user(table)}.key", table_key(master, table).decode() + "\n")
    return master


def _public_host(listen: str) -> str:
    if listen in ("0.0.0.0", "::", ""):
        return socket.gethostname()
    return listen


def tls_files(tls_cert: Path | str | None, tls_key: Path | str | None) -> tuple[Path | None, Path | None]:
    """A broker's TLS certificate and key as paths, both or neither, each an existing file (RoomError)."""
    if (tls_cert is None) != (tls_key is None):
        raise RoomError("TLS needs both the certificate (--tls-cert) and its private key (--tls-key)")
    cert = Path(tls_cert) if tls_cert is not None else None
    key = Path(tls_key) if tls_key is not None else None
    for what, path in (("certificate", cert), ("private key", key)):
        if path is not None and not path.is_file():
            raise RoomError(f"the TLS {what} {path} is not a file")
    return cert, key


def init_room(directory: Path | str, club: str, tables: Iterable[str], listen: str = "0.0.0.0",
              port: int | None = None, tls_cert: Path | str | None = None, tls_key: Path | str | None = None,
              *, address: str | None = None, client_ca: str | None = None, rotate: bool = False,
              bridge: str = "") -> RoomFiles:
    """Write a club room's broker files into ``directory`` (module docstring) and return them.

    ``listen`` is the listener's bind address, ``port`` its port (1883, or 8883 with TLS);
    ``address`` the host name the tables and the console use to reach the broker (default:
    ``listen``, or this machine's host name when listening on every address). With TLS,
    ``client_ca`` is where the tables and the console keep a copy of the certificate to check
    the broker against (a self-signed one): their URLs end in ``?ca=CLIENT_CA``. The passwords
    of an earlier ``credentials.toml`` in ``directory`` are kept unless ``rotate``. ``bridge``: the
    configuration of the room's bridge to its event's centre (``tablectl.room.bridge.init_event``).
    """
    d = Path(directory)
    table_ids = tuple(tables)
    if not table_ids:
        raise RoomError("a room needs at least one table")
    for table in table_ids:
        table_user(table)
    if len(set(table_ids)) != len(table_ids):
        raise RoomError(f"a table is listed twice in {', '.join(table_ids)}")
    cert, key = tls_files(tls_cert, tls_key)
    if client_ca is not None and cert is None:
        raise RoomError("--client-ca is the tables' copy of the broker's TLS certificate: it needs --tls-cert")
    scheme = "mqtts" if cert is not None else "mqtt"
    room = ClubAddress(scheme, address or _public_host(listen), port or DEFAULT_PORTS[scheme], club,
                       tls=cert is not None, ca_file=client_ca)

    d.mkdir(parents=True, exist_ok=True)
    data = d / DATA_NAME
    data.mkdir(mode=0o700, exist_ok=True)
    credentials = d / CREDENTIALS_NAME
    earlier = {} if rotate else _read_passwords(credentials)
    users = [CONSOLE_USER, *(table_user(t) for t in table_ids)]
    passwords = {user: earlier.get(user) or secrets.token_urlsafe(_TOKEN_BYTES) for user in users}

    master = _write_keys(d / KEYS_NAME, table_ids, rotate)
    files = RoomFiles(d, d / CONF_NAME, d / PASSWD_NAME, d / ACL_NAME, credentials, data, room, listen,
                      table_ids, passwords, master)
    _write_passwd(files.passwd, with_lanes(passwords, [CONSOLE_USER]), find_mosquitto_passwd())
    _write_private(files.acl, acl_text(club, table_ids))
    _write_private(files.conf, conf_text(d, club, listen, room.port, cert, key, bridge))
    _write_private(credentials, _credentials_text(files, cert))
    return files


def load_room(directory: Path | str) -> RoomFiles:
    """The room that ``init_room`` wrote into ``directory``, read back from its ``credentials.toml``."""
    d = Path(directory)
    path = d / CREDENTIALS_NAME
    if not (d / CONF_NAME).is_file() or not path.is_file():
        raise RoomError(f"{d} is not a room directory (no {CONF_NAME} and {CREDENTIALS_NAME}): "
                        "make it with tablectl room init --dir DIR")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        room = ClubAddress.parse(data["broker"])
        tables = tuple(str(t) for t in data.get("tables", {}))
        listen = str(data["listen"])
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, KeyError, TypeError) as exc:
        raise RoomError(f"{path}: not the credentials of a room ({exc})") from None
    master_path = d / KEYS_NAME / MASTER_KEY_NAME
    master = master_path.read_text(encoding="utf-8").strip().encode() if master_path.is_file() else b""
    return RoomFiles(d, d / CONF_NAME, d / PASSWD_NAME, d / ACL_NAME, path, d / DATA_NAME, room, listen,
                     tables, _read_passwords(path), master)


def broker_command(conf: Path | str) -> list[str]:
    """The command that runs the broker of ``conf`` in the foreground: ``mosquitto -c CONF``."""
    return [find_mosquitto(), "-c", str(conf)]
