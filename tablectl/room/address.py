"""The address of a club room and its MQTT topic tree (docs/room-protocol.md), pure.

A room is addressed as ``mqtt://[USER[:PASSWORD]@]HOST[:PORT]/CLUB`` (port 1883 by default;
``mqtts://`` for TLS, port 8883). With TLS, ``?ca=FILE`` names the certificate (or CA) to check
the broker against, e.g. a club's self-signed one; without it, the system's CAs. Its topics::

    bridge/CLUB/table/ID/state           retained; the table's last will
    bridge/CLUB/table/ID/event
    bridge/CLUB/table/ID/alert
    bridge/CLUB/table/ID/result/BOARD    retained
    bridge/CLUB/table/ID/command         console -> table
    bridge/CLUB/table/ID/results         retained, console -> table: what its players may see
    bridge/CLUB/table/ID/desk            retained, console -> table: the Director's corrections of its results
    bridge/CLUB/roster                   retained, console -> tables: the club's roster, names and numbers only
    bridge/CLUB/console/ack/ID           retained, console -> table: what the console holds
    bridge/CLUB/console/head/ID          retained, head console -> table (over the bridge): what it holds
    bridge/CLUB/public/ID/...            the optional spectator feed

Club names and table ids are topic levels, so they are restricted to ``[A-Za-z0-9_-]``:
the MQTT wildcards ``+`` and ``#`` and the level separator ``/`` can never appear in one,
and neither can anything the broker's ACL file would read differently.

>>> a = ClubAddress.parse("mqtt://table-2:s3cret@club.lan/riverside")
>>> (a.host, a.port, a.club, a.username, a.table_id)
('club.lan', 1883, 'riverside', 'table-2', '2')
>>> a.url()
'mqtt://table-2:***@club.lan/riverside'
>>> a.topics("2").result(7)
'bridge/riverside/table/2/result/7'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from urllib.parse import parse_qs, quote, unquote, urlsplit

from controller.errors import BridgeTableError
from drivers.addresses import BROKER_PORT, BROKER_TLS_PORT

__all__ = [
    "ALERT_LANE_PREFIX",
    "CONSOLE_USER",
    "DEFAULT_PORTS",
    "AddressError",
    "ClubAddress",
    "ClubTopics",
    "TopicParts",
    "Topics",
    "alert_lane_user",
    "table_user",
    "valid_name",
]

DEFAULT_PORTS = {"mqtt": BROKER_PORT, "mqtts": BROKER_TLS_PORT}
"""The scheme of a room address and its default port (``mqtts`` is MQTT over TLS)."""

CONSOLE_USER = "console"
"""The broker user of the Director's console."""

ALERT_LANE_PREFIX = "alerts-"
"""The prefix of an alert lane's broker user (``alert_lane_user``)."""

_TABLE_USER_PREFIX = "table-"
_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


class AddressError(BridgeTableError, ValueError):
    """A room address, club name or table id that cannot be used."""


def valid_name(text: str) -> bool:
    """Whether ``text`` may be a club name, table id or board in a topic: 1-64 of ``[A-Za-z0-9_-]``."""
    return _NAME.fullmatch(text) is not None


def _check_name(what: str, text: str) -> str:
    if not valid_name(text):
        raise AddressError(f"{what} {text!r} is not a valid name: use 1 to 64 letters, digits, "
                           "'-' or '_' (never '/', '+', '#' or spaces: they mean something in MQTT topics)")
    return text


def table_user(table_id: str) -> str:
    """The broker user of table ``table_id``: ``table-ID``."""
    return _TABLE_USER_PREFIX + _check_name("table id", table_id)


def alert_lane_user(user: str) -> str:
    """The broker user of ``user``'s alert lane: ``alerts-USER``, with ``user``'s password.

    A console reads the tables' alerts on a connection of their own, and each room's bridge carries
    them to the centre on one of its own, so that no alert waits in a socket behind the bulk of
    states and events (``tablectl.room.alert_lane``). The broker gives each connection its own
    user (``use_username_as_clientid``): the lane's is this one, and it shares ``user``'s password so
    that one address (one URL) is still all a console is given.
    """
    return ALERT_LANE_PREFIX + user


@dataclass(frozen=True, slots=True)
class Topics:
    """The topics of one table of a club (the table publishes and reads these; so does the console)."""

    club: str
    table: str

    def __post_init__(self) -> None:
        _check_name("club name", self.club)
        _check_name("table id", self.table)

    @property
    def base(self) -> str:
        """``bridge/CLUB/table/ID``: the table's own subtree."""
        return f"bridge/{self.club}/table/{self.table}"

    @property
    def state(self) -> str:
        """Retained, QoS 1: the table now, and its last will ``{"online": false}``."""
        return f"{self.base}/state"

    @property
    def event(self) -> str:
        """QoS 1: every table action, as in the table log."""
        return f"{self.base}/event"

    @property
    def alert(self) -> str:
        """QoS 1: an irregularity raised, ruled or closed; the arbiter called; a refused command."""
        return f"{self.base}/alert"

    def result(self, board: int | str) -> str:
        """Retained, QoS 1: the result of ``board``."""
        return f"{self.base}/result/{_check_name('board', str(board))}"

    @property
    def results(self) -> str:
        """The filter of every result of this table."""
        return f"{self.base}/result/+"

    @property
    def command(self) -> str:
        """Console -> table, QoS 1: a ruling, an acknowledgement, a board start."""
        return f"{self.base}/command"

    @property
    def player_results(self) -> str:
        """Retained, console -> table: the results its players may see (``controller.room.players``)."""
        return f"{self.base}/results"

    @property
    def desk(self) -> str:
        """Retained, console -> table: the Director's corrections of its results (``controller.room.deskmsg``)."""
        return f"{self.base}/desk"

    @property
    def roster(self) -> str:
        """Retained, console -> every table: the club's roster (names and federation numbers only), for
        the players who name themselves at the table page."""
        return f"bridge/{self.club}/roster"

    @property
    def ack(self) -> str:
        """Retained, console -> table: the session and highest ``seq`` the console holds."""
        return f"bridge/{self.club}/console/ack/{self.table}"

    @property
    def head_ack(self) -> str:
        """Retained, head console -> table over the bridge: the session and highest ``seq`` the event's
        head console holds (docs/room-protocol.md, "Rooms bridged to a centre")."""
        return f"bridge/{self.club}/console/head/{self.table}"

    @property
    def public(self) -> str:
        """The prefix of the table's spectator feed: its topics are ``PUBLIC/...``."""
        return f"bridge/{self.club}/public/{self.table}"

    @property
    def subscriptions(self) -> tuple[str, ...]:
        """What the table subscribes to: its commands, the console's acknowledgement, the head
        console's (rooms bridged to a centre), the results for its players, the Director's corrections
        and the club's roster."""
        return (self.command, self.ack, self.head_ack, self.player_results, self.desk, self.roster)


@dataclass(frozen=True, slots=True)
class TopicParts:
    """A topic of the club read back: which table, which kind, and the rest (the board of a result)."""

    table: str
    kind: str
    """``state``, ``event``, ``alert``, ``result``, ``command``, ``results``, ``ack``, ``head_ack`` or ``public``."""
    rest: str | None = None


@dataclass(frozen=True, slots=True)
class ClubTopics:
    """The topics of a whole club, as the Director's console sees them."""

    club: str

    def __post_init__(self) -> None:
        _check_name("club name", self.club)

    def table(self, table_id: str) -> Topics:
        """The topics of one table."""
        return Topics(self.club, table_id)

    @property
    def everything(self) -> str:
        """``bridge/CLUB/#``: what the console may read."""
        return f"bridge/{self.club}/#"

    @property
    def tables(self) -> str:
        """``bridge/CLUB/table/+/#``: every topic of every table (only the console may read it)."""
        return f"bridge/{self.club}/table/+/#"

    @property
    def states(self) -> str:
        return f"bridge/{self.club}/table/+/state"

    @property
    def events(self) -> str:
        return f"bridge/{self.club}/table/+/event"

    @property
    def alerts(self) -> str:
        return f"bridge/{self.club}/table/+/alert"

    @property
    def results(self) -> str:
        return f"bridge/{self.club}/table/+/result/+"

    @property
    def commands(self) -> str:
        """Every table's command topic (the console writes them; nobody else may)."""
        return f"bridge/{self.club}/table/+/command"

    @property
    def player_results(self) -> str:
        """Every table's results for its players (the console writes them; nobody else may)."""
        return f"bridge/{self.club}/table/+/results"

    @property
    def desks(self) -> str:
        """Every table's corrections from the Director's desk (the console writes them; nobody else may)."""
        return f"bridge/{self.club}/table/+/desk"

    @property
    def roster(self) -> str:
        """The club's roster for the tables (names and federation numbers; the console writes it)."""
        return f"bridge/{self.club}/roster"

    @property
    def acks(self) -> str:
        """The console's own retained acknowledgements, one per table."""
        return f"bridge/{self.club}/console/ack/+"

    @property
    def head_acks(self) -> str:
        """The head console's retained acknowledgements, one per table (rooms bridged to a centre)."""
        return f"bridge/{self.club}/console/head/+"

    @property
    def public(self) -> str:
        """Every table's spectator feed."""
        return f"bridge/{self.club}/public/#"

    @property
    def console_subscriptions(self) -> tuple[str, ...]:
        """What the console subscribes to: every table's topics, and its own acknowledgements
        (retained: after a restart they say what it held)."""
        return (self.tables, self.acks)

    def parse(self, topic: str) -> TopicParts | None:
        """Which table and kind ``topic`` is, or None for a topic outside this club's tree."""
        levels = topic.split("/")
        if len(levels) < 4 or levels[0] != "bridge" or levels[1] != self.club or not valid_name(levels[3]):
            return None
        area, table, tail = levels[2], levels[3], levels[4:]
        if area == "table":
            if len(tail) == 1 and tail[0] in ("state", "event", "alert", "command", "results"):
                return TopicParts(table, tail[0])
            if len(tail) == 2 and tail[0] == "result" and valid_name(tail[1]):
                return TopicParts(table, "result", tail[1])
            return None
        if area == "public":
            return TopicParts(table, "public", "/".join(tail) or None)
        if area == "console" and table == "ack" and len(tail) == 1 and valid_name(tail[0]):
            return TopicParts(tail[0], "ack")
        if area == "console" and table == "head" and len(tail) == 1 and valid_name(tail[0]):
            return TopicParts(tail[0], "head_ack")
        return None


@dataclass(frozen=True, slots=True)
class ClubAddress:
    """Where a club's broker is, which club, and as whom to connect.

    ``str()`` and ``repr()`` never show the password; ``url(hide_password=False)`` does.
    ``ca_file`` (``?ca=FILE``, mqtts only): the certificate or CA that the broker's certificate
    is checked against; None: the system's CAs.
    """

    scheme: str
    host: str
    port: int
    club: str
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: bool = False
    ca_file: str | None = None

    def __post_init__(self) -> None:
        if self.scheme not in DEFAULT_PORTS:
            raise AddressError(f"unknown scheme {self.scheme!r} (expected mqtt or mqtts)")
        if self.tls != (self.scheme == "mqtts"):
            raise AddressError(f"tls={self.tls} does not go with the scheme {self.scheme}://")
        if not self.host:
            raise AddressError("the broker's host is missing")
        if not 0 < self.port < 65536:
            raise AddressError(f"port {self.port} is out of range (1-65535)")
        _check_name("club name", self.club)
        if self.username is not None and not self.username:
            raise AddressError("the user name is empty")
        if self.password is not None and self.username is None:
            raise AddressError("a password without a user name")
        if self.ca_file is not None and not self.tls:
            raise AddressError("a CA file (?ca=) is for mqtts:// only")

    @classmethod
    def parse(cls, url: str) -> ClubAddress:
        """Read ``mqtt://[USER[:PASSWORD]@]HOST[:PORT]/CLUB``; AddressError saying what is wrong."""
        where = f"room address {_hide(url)!r}"
        scheme, sep, _ = url.partition("://")
        if not sep:
            raise AddressError(f"{where}: expected mqtt://[USER[:PASSWORD]@]HOST[:PORT]/CLUB")
        if scheme.lower() not in DEFAULT_PORTS:
            raise AddressError(f"{where}: unknown scheme {scheme!r} (expected mqtt:// or mqtts:// for TLS)")
        if "#" in url:
            raise AddressError(f"{where}: '#' is an MQTT wildcard and cannot appear in a club name "
                               "(in a password, write it as %23)")
        parts = urlsplit(url)
        ca_file = None
        if parts.query:
            query = parse_qs(parts.query, keep_blank_values=True)
            if set(query) != {"ca"} or len(query["ca"]) != 1 or not query["ca"][0]:
                raise AddressError(f"{where}: the only query a room address takes is ?ca=FILE (mqtts://)")
            if scheme.lower() != "mqtts":
                raise AddressError(f"{where}: ?ca=FILE is for mqtts:// (TLS) only")
            ca_file = query["ca"][0]
        try:
            port = parts.port
        except ValueError:
            raise AddressError(f"{where}: the port is not a number from 1 to 65535") from None
        host = parts.hostname
        if not host:
            raise AddressError(f"{where}: the broker's host is missing")
        path = parts.path.strip("/")
        if not path:
            raise AddressError(f"{where}: the club is missing (expected .../CLUB at the end)")
        if "/" in path:
            raise AddressError(f"{where}: the club is one name, not a path ({path!r})")
        if not valid_name(path):
            raise AddressError(f"{where}: club name {path!r} is not valid: use 1 to 64 letters, digits, "
                               "'-' or '_' (never '+', '#', '/' or spaces: they mean something in MQTT topics)")
        username = unquote(parts.username) if parts.username is not None else None
        if username == "":
            raise AddressError(f"{where}: the user name is empty")
        password = unquote(parts.password) if parts.password is not None else None
        scheme = scheme.lower()
        return cls(scheme, host, port or DEFAULT_PORTS[scheme], path, username, password, scheme == "mqtts", ca_file)

    def with_credentials(self, username: str, password: str | None) -> ClubAddress:
        """The same room, connecting as ``username`` with ``password``."""
        return replace(self, username=username, password=password)

    def with_ca_file(self, ca_file: str | None) -> ClubAddress:
        """The same room, checking the broker's certificate against ``ca_file`` (mqtts only)."""
        return replace(self, ca_file=ca_file)

    def without_credentials(self) -> ClubAddress:
        """The same room, with no user name or password."""
        return replace(self, username=None, password=None)

    def url(self, hide_password: bool = True) -> str:
        """The address as text; the password is ``***`` unless ``hide_password`` is False.

        The port is written only when it is not the scheme's default; ``?ca=`` when there is a CA file.
        """
        auth = ""
        if self.username is not None:
            auth = quote(self.username, safe="")
            if self.password is not None:
                auth += ":" + ("***" if hide_password else quote(self.password, safe=""))
            auth += "@"
        host = f"[{self.host}]" if ":" in self.host else self.host
        port = "" if self.port == DEFAULT_PORTS[self.scheme] else f":{self.port}"
        query = f"?ca={quote(self.ca_file, safe='/')}" if self.ca_file is not None else ""
        return f"{self.scheme}://{auth}{host}{port}/{self.club}{query}"

    def __str__(self) -> str:
        return self.url()

    @property
    def table_id(self) -> str | None:
        """The table id of a ``table-ID`` user name, else None."""
        if self.username is None or not self.username.startswith(_TABLE_USER_PREFIX):
            return None
        table = self.username[len(_TABLE_USER_PREFIX):]
        return table if valid_name(table) else None

    def topics(self, table_id: str) -> Topics:
        """The topics of table ``table_id`` of this club."""
        return Topics(self.club, table_id)

    def club_topics(self) -> ClubTopics:
        """The topics of the whole club, as the console sees them."""
        return ClubTopics(self.club)


def _hide(url: str) -> str:
    """``url`` with any password replaced by ``***``, for error messages."""
    scheme, sep, rest = url.partition("://")
    netloc, slash, path = rest.partition("/")
    userinfo, at, hostport = netloc.rpartition("@")
    if not (sep and at and ":" in userinfo):
        return url
    return f"{scheme}://{userinfo.partition(':')[0]}:***@{hostport}{slash}{path}"
