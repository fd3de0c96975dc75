"""The table config file (TOML) and the deck file, parsed into frozen values.

A table config names the table and its code of laws, says which device URL serves each
seat's readers, bidding box and button, where the board reader and the Pi's own GPIO pins
are, where the enrolled deck file lives, the arbiter's PIN hash and where the web server
listens. Example (every key but ``table.name`` is optional)::

    [table]
    name = "Table 3"
    code = "duplicate2017"             # the default (2017 Laws) | duplicate (2008) | rubber | chicago | bridge1905
    deck = "decks/club.json"           # relative to this file
    board_reader = "nfc:usb:072f:2200"
    boards = "boards.toml"             # board tag UID -> board number (tablectl run --boards)
    hand_record = "session.pbn"        # the dealing machine's file: deals by board number
    public_records = "after_session"   # never | after_session | finished_boards (default: by code)

    [arbiter]
    pin_hash = "pbkdf2_sha256$200000$9f1c...$6a0b..."   # drivers.config.hash_pin("1234")
    link_key_file = "arbiter-link.key" # shared with the Director's console (web_ui.arbiter_link)

    [listen]
    host = "0.0.0.0"
    port = 8000                        # drivers.addresses.TABLE_PORT, the default
    tls_cert = "table.crt"             # HTTPS (needed beyond localhost): docs/install.md
    tls_key = "table.key"
    hosts = ["table-3.local", "192.168.1.23"]   # the names the pages answer to (and localhost)
    proxies = []                       # reverse proxies whose X-Forwarded-For is believed

    [club]                             # the club room (tablectl room init prints these lines)
    url = "mqtt://table-3:PASSWORD@192.168.1.10:1883/myclub"   # or mqtts:// with TLS
    table_id = "3"
    boards_per_round = 3               # optional: the console counts rounds

    [seats.N]
    unit = "serial:///dev/ttyACM0"     # one seat unit: readers, bidding box, button, LED
                                       # (drivers.open_table adds ?seat=N)
    [seats.E]
    play = "nfc:tty:AMA1:pn532"
    spread = "nfc:tty:AMA2:pn532"

    [gpio]
    url = "gpio:rpigpio"
    numbering = "BCM"                  # or "BOARD" (header pin numbers)
    bouncetime_ms = 30
    contacts_active_low = true         # a slot's contact closes to ground when its card is in
    buttons = { N = 5, E = 6, S = 13, W = 19 }
    leds = { N = 12, E = 16, S = 20, W = 21 }
    buzzers = { N = 18 }
    [gpio.contacts.E]
    Pass = 22
    "1NT" = 23

The deck file is the JSON that ``tablectl enrol`` writes (``controller.sensing.deck``)::

    {"format": "bridgetable-decks", "version": 1,
     "decks": {"deck1": {"SA": "04A1B2C3D4E5F6", "SK": "04A1B2C3D4E5F7"}}}

A relative path in the config, ``table.deck`` or the ``deck=`` of a ``sim://`` URL, is
relative to the config file's folder.

Errors are ``ConfigError`` (a ``ValueError``) whose message names the key and the file.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, parse_qsl, urlencode

from controller.codes import CODE_NAMES, TABLE_DEFAULT_CODE
from controller.errors import BridgeTableError
from controller.sensing import deck as deck_file
from controller.sensing.deck import DeckError, DeckRegistry
from drivers.addresses import LOCAL_HOST, TABLE_PORT

__all__ = [
    "BIDDING_BOX_SLOTS",
    "CODES",
    "PUBLIC_RECORDS",
    "SEATS",
    "ConfigError",
    "GpioPins",
    "Listen",
    "SeatDevices",
    "TableConfig",
    "check_device_url",
    "hash_pin",
    "load",
    "load_deck",
    "loads",
    "older_deck_form",
    "verify_pin",
]

SEATS = ("N", "E", "S", "W")
CODES = CODE_NAMES
DEFAULT_CODE = TABLE_DEFAULT_CODE
"""A table config that names no code plays the 2017 Laws of Duplicate Bridge, the code clubs
play today; ``duplicate`` (the 2008 code) must be named. (``tablectl replay`` of a log or a
record without a session line still assumes ``duplicate``: ``controller.codes.LOG_DEFAULT_CODE``.)"""
SCHEMES = ("nfc", "gpio", "sim", "serial")
BIDDING_BOX_SLOTS: tuple[str, ...] = (
    *(f"{level}{strain}" for level in range(1, 8) for strain in ("C", "D", "H", "S", "NT")),
    "Pass", "X", "XX", "Stop", "Alert",
)
"""The 40 slots of a bidding box, each with a contact: 35 bids, Pass, X, XX, Stop, Alert."""

_PIN_HASH = re.compile(r"^pbkdf2_sha256\$(\d+)\$([0-9a-f]{16,})\$([0-9a-f]{64})$")
_BCM_PINS = range(0, 54)
_BOARD_PINS = frozenset({3, 5, 7, 8, 10, 11, 12, 13, 15, 16, 18, 19, 21, 22, 23, 24, 26, 29, 31, 32,
                         33, 35, 36, 37, 38, 40})


class ConfigError(BridgeTableError, ValueError):
    """A table config, deck file or device URL that cannot be used; the message says where."""


@dataclass(frozen=True, slots=True)
class GpioPins:
    """The Pi's own GPIO: which pin is which seat's button, LED, buzzer or bidding-box contact.

    ``numbering`` is ``BCM`` (GPIO numbers) or ``BOARD`` (header pin numbers). Buttons and
    contacts are inputs with the internal pull-up (pull-down for contacts when
    ``contacts_active_low`` is false); a button closes to ground when pressed. ``contacts``
    holds ``(seat, slot, pin)`` with the slot names of ``BIDDING_BOX_SLOTS``.
    """

    numbering: str = "BCM"
    buttons: tuple[tuple[str, int], ...] = ()
    leds: tuple[tuple[str, int], ...] = ()
    buzzers: tuple[tuple[str, int], ...] = ()
    contacts: tuple[tuple[str, str, int], ...] = ()
    bouncetime_ms: int = 20
    contacts_active_low: bool = True

    def __post_init__(self) -> None:
        if self.numbering not in ("BCM", "BOARD"):
            raise ConfigError(f"GPIO numbering must be BCM or BOARD, not {self.numbering!r}")
        if not 0 <= self.bouncetime_ms <= 1000:
            raise ConfigError(f"GPIO bouncetime_ms must be 0..1000, not {self.bouncetime_ms}")
        used: dict[int, str] = {}
        roles = [(f"button {s}", p) for s, p in self.buttons] + [(f"LED {s}", p) for s, p in self.leds]
        roles += [(f"buzzer {s}", p) for s, p in self.buzzers]
        roles += [(f"contact {s} {slot}", p) for s, slot, p in self.contacts]
        for role, pin in roles:
            valid = pin in _BCM_PINS if self.numbering == "BCM" else pin in _BOARD_PINS
            if not valid:
                raise ConfigError(f"{role}: {pin} is not a usable {self.numbering} GPIO pin")
            if pin in used:
                raise ConfigError(f"{role}: pin {pin} is already the {used[pin]}")
            used[pin] = role
        for kind, pairs in (("button", self.buttons), ("LED", self.leds), ("buzzer", self.buzzers)):
            seats = [seat for seat, _ in pairs]
            for seat in seats:
                if seat not in SEATS:
                    raise ConfigError(f"{kind} seat must be one of N E S W, not {seat!r}")
            if len(set(seats)) != len(seats):
                raise ConfigError(f"a seat has two {kind} pins")
        slots = [(seat, slot) for seat, slot, _ in self.contacts]
        for seat, slot in slots:
            if seat not in SEATS:
                raise ConfigError(f"contact seat must be one of N E S W, not {seat!r}")
            if slot not in BIDDING_BOX_SLOTS:
                raise ConfigError(f"contact {seat} {slot!r} is not a bidding-box slot "
                                  f"(1C..7NT, Pass, X, XX, Stop, Alert)")
        if len(set(slots)) != len(slots):
            raise ConfigError("a bidding-box slot has two contact pins")

    @property
    def pins(self) -> tuple[int, ...]:
        """Every pin of the map."""
        return (tuple(p for _, p in self.buttons) + tuple(p for _, p in self.leds)
                + tuple(p for _, p in self.buzzers) + tuple(p for _, _, p in self.contacts))

    @classmethod
    def from_query(cls, query: str, where: str) -> GpioPins:
        """The pin map of a ``gpio:`` URL query: ``button.N=5&led.N=12&buzzer.N=18&contact.E.Pass=22``.

        Also ``numbering=BCM|BOARD``, ``bouncetime=ms`` and ``active_low=0|1`` (contacts).
        """
        buttons: list[tuple[str, int]] = []
        leds: list[tuple[str, int]] = []
        buzzers: list[tuple[str, int]] = []
        contacts: list[tuple[str, str, int]] = []
        options: dict[str, Any] = {}
        for key, values in parse_qs(query, keep_blank_values=True, strict_parsing=False).items():
            value = values[-1]
            parts = key.split(".")
            try:
                if parts[0] == "numbering" and len(parts) == 1:
                    options["numbering"] = value.upper()
                elif parts[0] in ("bouncetime", "bouncetime_ms") and len(parts) == 1:
                    options["bouncetime_ms"] = int(value)
                elif parts[0] == "active_low" and len(parts) == 1:
                    options["contacts_active_low"] = value.lower() in ("1", "true", "yes")
                elif parts[0] in ("button", "led", "buzzer") and len(parts) == 2:
                    {"button": buttons, "led": leds, "buzzer": buzzers}[parts[0]].append(
                        (parts[1], int(value)))
                elif parts[0] == "contact" and len(parts) == 3:
                    contacts.append((parts[1], parts[2], int(value)))
                else:
                    raise ConfigError(f"unknown GPIO option {key!r} in {where}")
            except ValueError as exc:
                if isinstance(exc, ConfigError):
                    raise
                raise ConfigError(f"GPIO option {key}={value!r} in {where} is not a number") from None
        try:
            return cls(buttons=tuple(buttons), leds=tuple(leds), buzzers=tuple(buzzers),
                       contacts=tuple(contacts), **options)
        except ConfigError as exc:
            raise ConfigError(f"{exc} (in {where})") from None


@dataclass(frozen=True, slots=True)
class SeatDevices:
    """The device URLs of one seat: a seat unit, or separate play and spread readers."""

    seat: str
    unit: str | None = None
    play: str | None = None
    spread: str | None = None


@dataclass(frozen=True, slots=True)
class Listen:
    """Where the table's web server listens and how: ``tls_cert``/``tls_key`` serve HTTPS (needed
    beyond localhost unless ``plain_http``); ``hosts`` are the names it answers to besides
    localhost and ``host``; ``proxies`` the reverse proxies whose ``X-Forwarded-For`` is believed
    (none by default: every client is its TCP peer)."""

    host: str = LOCAL_HOST
    port: int = TABLE_PORT
    proxies: tuple[str, ...] = ()
    tls_cert: Path | None = None
    tls_key: Path | None = None
    hosts: tuple[str, ...] = ()
    plain_http: bool = False


@dataclass(frozen=True, slots=True)
class TableConfig:
    """One table's config file, parsed (see the module docstring for the format)."""

    path: Path
    name: str
    code: str = DEFAULT_CODE
    seats: tuple[SeatDevices, ...] = ()
    board_reader: str | None = None
    gpio_url: str | None = None
    gpio: GpioPins | None = None
    deck: Path | None = None
    boards: Path | None = None
    hand_record: Path | None = None
    arbiter_pin_hash: str | None = None
    arbiter_link_key_file: Path | None = None
    public_records: str | None = None
    listen: Listen = field(default_factory=Listen)
    club_url: str | None = None
    table_id: str | None = None
    boards_per_round: int | None = None

    def seat(self, seat: str) -> SeatDevices:
        """The devices of ``seat`` (none when the config names none)."""
        for devices in self.seats:
            if devices.seat == seat:
                return devices
        return SeatDevices(seat)

    def device_urls(self) -> tuple[tuple[str, str], ...]:
        """``(name, url)`` of every event source, named as their raw events name them.

        Readers are ``N.play``, ``N.spread`` and ``board``; a seat unit is ``N.unit``; the
        Pi's GPIO is ``gpio``.
        """
        urls: list[tuple[str, str]] = []
        for devices in self.seats:
            if devices.unit:
                urls.append((f"{devices.seat}.unit", devices.unit))
            if devices.play:
                urls.append((f"{devices.seat}.play", devices.play))
            if devices.spread:
                urls.append((f"{devices.seat}.spread", devices.spread))
        if self.board_reader:
            urls.append(("board", self.board_reader))
        if self.gpio_url:
            urls.append(("gpio", self.gpio_url))
        return tuple(urls)


def _resolve_sim_deck(url: str, base: Path) -> str:
    """``url`` with the relative ``deck=`` file of a ``sim://`` URL made relative to ``base``."""
    if not url.startswith("sim:"):
        return url
    head, sep, query = url.partition("?")
    params = parse_qsl(query, keep_blank_values=True)
    if not any(key == "deck" and value and not Path(value).is_absolute() for key, value in params):
        return url
    params = [(key, str(base / value) if key == "deck" and value and not Path(value).is_absolute() else value)
              for key, value in params]
    return f"{head}{sep}{urlencode(params, safe='/:')}"


def check_device_url(url: str, where: str) -> str:
    """Return ``url`` if its scheme is one the drivers open (``nfc:``, ``gpio:``, ``sim:``, ``serial:``)."""
    scheme, sep, rest = url.partition(":")
    if not sep or scheme not in SCHEMES or not rest:
        raise ConfigError(f"{where}: {url!r} is not a device URL "
                          f"(nfc:tty:AMA1:pn532, nfc:usb:072f:2200, serial:///dev/ttyACM0, "
                          f"gpio:rpigpio, sim://)")
    return url


# -- the table config file ---------------------------------------------------------------

_TOP_KEYS = {"table", "arbiter", "listen", "seats", "gpio", "club"}
_TABLE_KEYS = {"name", "code", "deck", "board_reader", "boards", "hand_record", "public_records"}
PUBLIC_RECORDS = ("never", "after_session", "finished_boards")
"""``[table] public_records``: when the finished boards' records are public (``web_ui.service.PUBLIC_RECORDS``)."""
_SEAT_KEYS = {"unit", "play", "spread"}
_GPIO_KEYS = {"url", "numbering", "bouncetime_ms", "contacts_active_low", "buttons", "leds", "buzzers",
              "contacts"}


class _Reader:
    """Typed access to one TOML table, with errors that name the key and the file."""

    def __init__(self, data: Mapping[str, Any], prefix: str, source: str) -> None:
        self.data, self.prefix, self.source = data, prefix, source

    def key(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def fail(self, name: str, message: str) -> ConfigError:
        return ConfigError(f"'{self.key(name)}' in {self.source}: {message}")

    def only(self, allowed: set[str]) -> None:
        for name in self.data:
            if name not in allowed:
                raise ConfigError(f"unknown key '{self.key(name)}' in {self.source} "
                                  f"(expected one of {', '.join(sorted(allowed))})")

    def table(self, name: str) -> _Reader:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise self.fail(name, f"must be a table, not {value!r}")
        return _Reader(value, f"{self.key(name)}.", self.source)

    def string(self, name: str, default: str | None = None) -> str | None:
        value = self.data.get(name, default)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise self.fail(name, f"must be a non-empty string, not {value!r}")
        return value

    def integer(self, name: str, default: int, low: int, high: int) -> int:
        value = self.data.get(name, default)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.fail(name, f"must be a whole number {low}..{high}, not {value!r}")
        return value

    def boolean(self, name: str, default: bool) -> bool:
        value = self.data.get(name, default)
        if not isinstance(value, bool):
            raise self.fail(name, f"must be true or false, not {value!r}")
        return value

    def strings(self, name: str) -> tuple[str, ...]:
        value = self.data.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.fail(name, f"must be a list of non-empty strings, not {value!r}")
        return tuple(v.strip() for v in value)

    def url(self, name: str, base: Path | None = None) -> str | None:
        value = self.string(name)
        if value is None:
            return None
        url = check_device_url(value, f"'{self.key(name)}' in {self.source}")
        return url if base is None else _resolve_sim_deck(url, base)

    def pins(self, name: str) -> tuple[tuple[str, int], ...]:
        table = self.table(name)
        pairs = []
        for seat in table.data:
            if seat not in SEATS:
                raise table.fail(seat, "is not a seat (N, E, S, W)")
            pairs.append((seat, table.integer(seat, 0, 0, 53)))
        return tuple(pairs)


def loads(text: str, path: str | Path = "<string>") -> TableConfig:
    """Parse the text of a table config; relative paths in it are relative to ``path``'s folder."""
    source = str(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source} is not valid TOML: {exc}") from None
    top = _Reader(data, "", source)
    top.only(_TOP_KEYS)
    base = Path(path).parent if source != "<string>" else Path(".")

    table = top.table("table")
    table.only(_TABLE_KEYS)
    name = table.string("name")
    if name is None:
        raise ConfigError(f"'table.name' is missing in {source}")
    code = table.string("code", DEFAULT_CODE) or DEFAULT_CODE
    if code not in CODES:
        raise table.fail("code", f"must be one of {', '.join(CODES)}, not {code!r}")
    public_records = table.string("public_records")
    if public_records is not None and public_records not in PUBLIC_RECORDS:
        raise table.fail("public_records", f"must be one of {', '.join(PUBLIC_RECORDS)}, not {public_records!r}")
    deck_text = table.string("deck")
    deck = None if deck_text is None else (base / deck_text)
    boards_text, hand_text = table.string("boards"), table.string("hand_record")
    boards = None if boards_text is None else (base / boards_text)
    hand_record = None if hand_text is None else (base / hand_text)

    arbiter = top.table("arbiter")
    arbiter.only({"pin_hash", "link_key_file"})
    pin_hash = arbiter.string("pin_hash")
    if pin_hash is not None and not _PIN_HASH.match(pin_hash):
        raise arbiter.fail("pin_hash", "must be 'pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>' "
                                       "as drivers.config.hash_pin makes it")
    link_key_text = arbiter.string("link_key_file")
    link_key_file = None if link_key_text is None else base / link_key_text

    listen_table = top.table("listen")
    listen_table.only({"host", "port", "proxies", "tls_cert", "tls_key", "hosts", "plain_http"})
    tls_cert, tls_key = listen_table.string("tls_cert"), listen_table.string("tls_key")
    if (tls_cert is None) != (tls_key is None):
        raise listen_table.fail("tls_key" if tls_key is None else "tls_cert",
                                "is needed too: HTTPS takes tls_cert and tls_key together")
    listen = Listen(host=listen_table.string("host", LOCAL_HOST) or LOCAL_HOST,
                    port=listen_table.integer("port", TABLE_PORT, 1, 65535),
                    proxies=listen_table.strings("proxies"),
                    tls_cert=None if tls_cert is None else base / tls_cert,
                    tls_key=None if tls_key is None else base / tls_key,
                    hosts=listen_table.strings("hosts"), plain_http=listen_table.boolean("plain_http", False))

    club = top.table("club")
    club.only({"url", "table_id", "boards_per_round"})
    club_url = club.string("url")
    raw_id = club.data.get("table_id")
    table_id = str(raw_id) if isinstance(raw_id, int) and not isinstance(raw_id, bool) else club.string("table_id")
    if (club_url is None) != (table_id is None):
        raise club.fail("url" if club_url is None else "table_id", "is needed too: [club] names the room's url "
                        "and this table's table_id together")
    if table_id is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,16}", table_id):
        raise club.fail("table_id", "must be 1 to 16 letters, digits, '-' or '_'")
    boards_per_round = club.integer("boards_per_round", 0, 0, 36) or None

    seats_table = top.table("seats")
    seats: list[SeatDevices] = []
    for seat in seats_table.data:
        if seat not in SEATS:
            raise seats_table.fail(seat, "is not a seat (N, E, S, W)")
        devices = seats_table.table(seat)
        devices.only(_SEAT_KEYS)
        seats.append(SeatDevices(seat, unit=devices.url("unit", base), play=devices.url("play", base),
                                 spread=devices.url("spread", base)))
    seats.sort(key=lambda d: SEATS.index(d.seat))

    gpio_url: str | None = None
    gpio: GpioPins | None = None
    if "gpio" in data:
        section = top.table("gpio")
        section.only(_GPIO_KEYS)
        gpio_url = section.url("url", base) or "gpio:rpigpio"
        contacts: list[tuple[str, str, int]] = []
        contact_table = section.table("contacts")
        for seat in contact_table.data:
            if seat not in SEATS:
                raise contact_table.fail(seat, "is not a seat (N, E, S, W)")
            slots = contact_table.table(seat)
            for slot in slots.data:
                contacts.append((seat, slot, slots.integer(slot, 0, 0, 53)))
        numbering = section.string("numbering", "BCM") or "BCM"
        buttons, leds, buzzers = section.pins("buttons"), section.pins("leds"), section.pins("buzzers")
        bouncetime_ms = section.integer("bouncetime_ms", 20, 0, 1000)
        active_low = section.boolean("contacts_active_low", True)
        try:
            gpio = GpioPins(numbering=numbering.upper(), buttons=buttons, leds=leds, buzzers=buzzers,
                            contacts=tuple(contacts), bouncetime_ms=bouncetime_ms,
                            contacts_active_low=active_low)
        except ConfigError as exc:
            raise ConfigError(f"[gpio] in {source}: {exc}") from None

    return TableConfig(path=Path(path), name=name, code=code, seats=tuple(seats),
                       board_reader=table.url("board_reader", base), gpio_url=gpio_url, gpio=gpio, deck=deck,
                       boards=boards, hand_record=hand_record, arbiter_pin_hash=pin_hash,
                       arbiter_link_key_file=link_key_file, public_records=public_records, listen=listen,
                       club_url=club_url, table_id=table_id, boards_per_round=boards_per_round)


def load(path: str | Path) -> TableConfig:
    """Read and parse the table config file at ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read table config {path}: {exc.strerror or exc}") from None
    return loads(text, path)


# -- the arbiter's PIN ---------------------------------------------------------------------

def hash_pin(pin: str, *, iterations: int = 200_000, salt: bytes | None = None) -> str:
    """The ``pin_hash`` text for ``pin``: PBKDF2-HMAC-SHA256 with a random salt."""
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode("utf-8"), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def verify_pin(pin: str, pin_hash: str) -> bool:
    """Whether ``pin`` matches ``pin_hash`` (made by ``hash_pin``); compared in constant time."""
    match = _PIN_HASH.match(pin_hash)
    if match is None:
        raise ConfigError(f"not a PIN hash: {pin_hash!r}")
    iterations, salt, expected = int(match[1]), bytes.fromhex(match[2]), match[3]
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode("utf-8"), salt, iterations)
    return hmac.compare_digest(digest.hex(), expected)


# -- the deck file -------------------------------------------------------------------------

log = logging.getLogger(__name__)


def older_deck_form(path: str | Path) -> str | None:
    """The deprecation notice of a deck file in the older TOML form (None for the JSON one, or
    a file that cannot be read): it is still read, and how to convert it (hardware/decks.md)."""
    try:
        with Path(path).open(encoding="utf-8", errors="replace") as f:
            head = f.read(4096).lstrip()
    except OSError:
        return None
    if not head or head.startswith("{"):
        return None
    return (f"{path} is a deck file in the older TOML form: still read, but deprecated; "
            f"`tablectl enrol --deck {path}` saves it as JSON (hardware/decks.md)")


def load_deck(path: str | Path) -> DeckRegistry:
    """Read a deck file: the JSON that ``tablectl enrol`` writes (``controller.sensing.deck.dumps``).

    A deck file of the older TOML form (one table per deck id, ``SA = "UID"``) is still read,
    with a deprecation warning (``older_deck_form``).
    ``ConfigError`` naming the file when it cannot be read or is not a deck file.
    """
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read deck file {source}: {exc.strerror or exc}") from None
    try:
        if text.lstrip().startswith("{"):
            return deck_file.loads(text)
        registry = DeckRegistry.from_mapping(tomllib.loads(text))
        if (notice := older_deck_form(path)) is not None:
            log.warning("%s", notice)
        return registry
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source} is not a deck file (JSON, or the older TOML form): {exc}") from None
    except DeckError as exc:
        raise ConfigError(f"{source}: {exc}") from None
