"""The messages of the Pi <-> seat-unit link as typed values, with ``encode`` and ``decode``.

Layouts are those of ``firmware_bridge/PROTOCOL.md`` ("Messages"); multi-byte integers are
big-endian. Seat units send ``Hello``, ``State``, ``Heartbeat`` and ``Ack``; the host sends
``Led``, ``Buzzer`` and ``SnapshotRequest``. A ``State`` is a whole snapshot of the seat
(bidding-box slots, tags per reader, button, LED), so one lost frame heals with the next
(docs/architecture.md, raw sensor events: readers repeat reads, contacts bounce).
"""

from __future__ import annotations

import functools
import struct
from dataclasses import dataclass, field
from enum import IntEnum, IntFlag
from typing import Any

from controller.errors import BridgeTableError
from firmware_bridge.codec import MAX_PAYLOAD, Frame, encode_frame

__all__ = [
    "DEVICE_MESSAGES",
    "HOST_COMMANDS",
    "SEATS",
    "SLOTS",
    "SLOT_INDEX",
    "UID_SIZES",
    "ZONES",
    "Ack",
    "AckStatus",
    "Buzzer",
    "Capability",
    "DeviceMessage",
    "Heartbeat",
    "Hello",
    "HostCommand",
    "Led",
    "LedMode",
    "Message",
    "MessageError",
    "MessageType",
    "SnapshotRequest",
    "State",
    "decode",
    "encode",
    "encode_bytes",
    "encode_payload",
    "message_type",
    "slot_mask",
    "slots_from_mask",
]

SEATS = ("N", "E", "S", "W")
ZONES = ("play", "spread")
SLOTS: tuple[str, ...] = (
    *(f"{level}{denomination}" for level in range(1, 8) for denomination in ("C", "D", "H", "S", "NT")),
    "Pass", "X", "XX", "Stop", "Alert",
)
"""The 40 bidding-box slots in wire order: slot ``i`` is bit ``i % 8`` of bitmap byte ``i // 8``."""
SLOT_INDEX = {name: i for i, name in enumerate(SLOTS)}
UID_SIZES = (4, 7, 10)
"""ISO/IEC 14443-3 UID sizes: single, double and triple size."""
MAX_TAGS_ON_WIRE = 32


class MessageError(BridgeTableError, ValueError):
    """A frame whose payload is not a valid message of its type, or an invalid message value."""


class _Enum(IntEnum):
    """An int enum whose ``repr()`` rebuilds it (``LedMode.ON``)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class MessageType(_Enum):
    """Message type byte; the high bit marks host -> seat-unit commands."""

    HELLO = 0x01
    STATE = 0x02
    HEARTBEAT = 0x03
    ACK = 0x04
    LED = 0x81
    BUZZER = 0x82
    SNAPSHOT_REQUEST = 0x83

    @property
    def from_host(self) -> bool:
        """True for commands the host sends."""
        return bool(self.value & 0x80)


class Capability(IntFlag):
    """What a seat unit has fitted, announced in its ``Hello``."""

    PLAY_READER = 0x01
    SPREAD_READER = 0x02
    BIDDING_BOX = 0x04
    DIRECTOR_BUTTON = 0x08
    LED = 0x10
    BUZZER = 0x20
    SPREAD_PADS = 0x40
    """The spread reader reads through a pad array (protocol minor 1); its tags are the pads' union."""

    def __repr__(self) -> str:
        return f"Capability({int(self):#04x})"


class LedMode(_Enum):
    """The seat LED: off, on, or blinking with the commanded period."""

    OFF = 0
    ON = 1
    BLINK = 2


class AckStatus(_Enum):
    """How a seat unit took a host command."""

    OK = 0
    UNKNOWN_TYPE = 1
    BAD_PAYLOAD = 2


def _check_range(what: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise MessageError(f"{what} {value} is outside {low}..{high}")


def _check_uid(what: str, uid: bytes) -> None:
    if len(uid) not in UID_SIZES:
        raise MessageError(f"{what} UID {uid.hex().upper()} has {len(uid)} bytes, not 4, 7 or 10")


@dataclass(frozen=True, slots=True)
class Hello:
    """Who the unit is: its seat, unit id, firmware version, fitted parts and timing."""

    seat: str
    unit_id: bytes
    firmware: tuple[int, int, int]
    capabilities: Capability
    max_tags: int = 16
    state_period_ms: int = 2000
    heartbeat_period_ms: int = 500
    protocol_minor: int = 0

    def __post_init__(self) -> None:
        if self.seat not in SEATS:
            raise MessageError(f"seat {self.seat!r} is not one of N, E, S, W")
        if len(self.unit_id) != 8:
            raise MessageError(f"unit id {self.unit_id.hex().upper()} has {len(self.unit_id)} bytes, not 8")
        if len(self.firmware) != 3:
            raise MessageError(f"firmware version {self.firmware} is not (major, minor, patch)")
        for part in self.firmware:
            _check_range("firmware version part", part, 0, 0xFF)
        _check_range("capabilities", int(self.capabilities), 0, 0xFFFF)
        _check_range("max tags", self.max_tags, 0, MAX_TAGS_ON_WIRE)
        _check_range("state period (ms)", self.state_period_ms, 0, 0xFFFF)
        _check_range("heartbeat period (ms)", self.heartbeat_period_ms, 0, 0xFFFF)
        _check_range("protocol minor version", self.protocol_minor, 0, 0xFF)

    @property
    def firmware_version(self) -> str:
        """``"1.0.0"``."""
        return ".".join(map(str, self.firmware))


def slot_mask(slots: tuple[str, ...] | frozenset[str] | set[str]) -> int:
    """The 40-bit bitmap of slot names (bit ``i`` is ``SLOTS[i]``); raises on an unknown name."""
    if isinstance(slots, tuple):
        return _tuple_mask(slots)
    return _mask(slots)


@functools.lru_cache(maxsize=1024)
def _tuple_mask(slots: tuple[str, ...]) -> int:
    return _mask(slots)


def _mask(slots: tuple[str, ...] | frozenset[str] | set[str]) -> int:
    mask = 0
    for name in slots:
        index = SLOT_INDEX.get(name)
        if index is None:
            raise MessageError(f"unknown bidding-box slot {name!r}")
        mask |= 1 << index
    return mask


@functools.lru_cache(maxsize=1024)
def slots_from_mask(mask: int) -> tuple[str, ...]:
    """Slot names of the set bits of ``mask``, in wire order (a bidding box changes seldom: cached)."""
    return tuple(name for i, name in enumerate(SLOTS) if mask >> i & 1)


@dataclass(frozen=True, slots=True)
class State:
    """A snapshot of one seat: ``slots`` whose card is in, tag UIDs per reader, button, LED.

    ``presses`` counts director-button presses since boot (mod 256), so a press between two
    lost snapshots is still counted; ``button`` is the button held at the snapshot.
    ``play_ok``/``spread_ok`` say the reader answers; a failed reader reports no tags.
    """

    uptime_ms: int
    slots: tuple[str, ...] = SLOTS
    play: tuple[bytes, ...] = ()
    spread: tuple[bytes, ...] = ()
    button: bool = False
    presses: int = 0
    led: LedMode = LedMode.OFF
    play_ok: bool = True
    spread_ok: bool = True
    mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_range("uptime (ms)", self.uptime_ms, 0, 0xFFFFFFFF)
        _check_range("press count", self.presses, 0, 0xFF)
        mask = slot_mask(self.slots)
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "slots", slots_from_mask(mask))
        for zone in ZONES:
            uids = getattr(self, zone)
            if len(uids) > MAX_TAGS_ON_WIRE:
                raise MessageError(f"{len(uids)} tags in the {zone} zone exceed {MAX_TAGS_ON_WIRE}")
            for uid in uids:
                _check_uid(zone, uid)
        if not isinstance(self.led, LedMode):
            object.__setattr__(self, "led", LedMode(self.led))

    def tags(self, zone: str) -> tuple[bytes, ...]:
        """UIDs seen by the reader of ``zone`` (``play`` or ``spread``)."""
        if zone == "play":
            return self.play
        if zone == "spread":
            return self.spread
        raise ValueError(f"unknown zone {zone!r}")

    def reader_ok(self, zone: str) -> bool:
        """Whether the reader of ``zone`` answers."""
        return self.play_ok if zone == "play" else self.spread_ok


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Sign of life between snapshots, with the unit's link counters."""

    uptime_ms: int
    rx_bad: int = 0
    loop_hz: int = 0

    def __post_init__(self) -> None:
        _check_range("uptime (ms)", self.uptime_ms, 0, 0xFFFFFFFF)
        _check_range("bad frame count", self.rx_bad, 0, 0xFFFF)
        _check_range("loop rate", self.loop_hz, 0, 0xFFFF)


@dataclass(frozen=True, slots=True)
class Ack:
    """The unit's answer to the host command of sequence number ``seq`` and type ``type``."""

    seq: int
    type: int
    status: AckStatus = AckStatus.OK

    def __post_init__(self) -> None:
        _check_range("acknowledged sequence number", self.seq, 0, 0xFFFF)
        _check_range("acknowledged type", self.type, 0, 0xFF)


@dataclass(frozen=True, slots=True)
class Led:
    """Host command: set the seat LED (``period_ms`` is the blink period)."""

    mode: LedMode
    period_ms: int = 500

    def __post_init__(self) -> None:
        _check_range("blink period (ms)", self.period_ms, 0, 0xFFFF)


@dataclass(frozen=True, slots=True)
class Buzzer:
    """Host command: sound the buzzer for ``milliseconds`` (0 silences it)."""

    milliseconds: int

    def __post_init__(self) -> None:
        _check_range("buzz duration (ms)", self.milliseconds, 0, 0xFFFF)


@dataclass(frozen=True, slots=True)
class SnapshotRequest:
    """Host command: send a ``State`` now (preceded by a ``Hello`` if ``hello``)."""

    hello: bool = False


DeviceMessage = Hello | State | Heartbeat | Ack
HostCommand = Led | Buzzer | SnapshotRequest
Message = DeviceMessage | HostCommand
DEVICE_MESSAGES = (Hello, State, Heartbeat, Ack)
HOST_COMMANDS = (Led, Buzzer, SnapshotRequest)

_HELLO = struct.Struct(">cB8s3BHBHH")
_STATE_FIXED = struct.Struct(">I5sBBBB")
_HEARTBEAT = struct.Struct(">IHH")
_ACK = struct.Struct(">HBB")
_LED = struct.Struct(">BH")
_BUZZER = struct.Struct(">H")
_TYPES: dict[type, MessageType] = {
    Hello: MessageType.HELLO,
    State: MessageType.STATE,
    Heartbeat: MessageType.HEARTBEAT,
    Ack: MessageType.ACK,
    Led: MessageType.LED,
    Buzzer: MessageType.BUZZER,
    SnapshotRequest: MessageType.SNAPSHOT_REQUEST,
}
_READER_PLAY_OK = 0x01
_READER_SPREAD_OK = 0x02
_BUTTON_DIRECTOR = 0x01


def message_type(message: Message) -> MessageType:
    """The type byte of ``message``."""
    return _TYPES[type(message)]


def _encode_uids(out: bytearray, uids: tuple[bytes, ...]) -> None:
    out.append(len(uids))
    for uid in uids:
        out.append(len(uid))
        out += uid


def encode_payload(message: Message) -> bytes:
    """The payload bytes of ``message`` (PROTOCOL.md "Messages")."""
    match message:
        case Hello():
            return _HELLO.pack(message.seat.encode("ascii"), message.protocol_minor, message.unit_id,
                               *message.firmware, int(message.capabilities), message.max_tags,
                               message.state_period_ms, message.heartbeat_period_ms)
        case State():
            readers = ((_READER_PLAY_OK if message.play_ok else 0)
                       | (_READER_SPREAD_OK if message.spread_ok else 0))
            out = bytearray(_STATE_FIXED.pack(message.uptime_ms, message.mask.to_bytes(5, "little"),
                                              _BUTTON_DIRECTOR if message.button else 0, message.presses,
                                              int(message.led), readers))
            _encode_uids(out, message.play)
            _encode_uids(out, message.spread)
            return bytes(out)
        case Heartbeat():
            return _HEARTBEAT.pack(message.uptime_ms, message.rx_bad, message.loop_hz)
        case Ack():
            return _ACK.pack(message.seq, message.type, int(message.status))
        case Led():
            return _LED.pack(int(message.mode), message.period_ms)
        case Buzzer():
            return _BUZZER.pack(message.milliseconds)
        case SnapshotRequest():
            return bytes([1 if message.hello else 0])
    raise TypeError(f"not a link message: {message!r}")


def encode(message: Message, seq: int) -> Frame:
    """``message`` as the frame of sequence number ``seq``."""
    return Frame(message_type(message), seq, encode_payload(message))


def encode_bytes(message: Message, seq: int) -> bytes:
    """``message`` as wire bytes (delimited COBS frame) with sequence number ``seq``."""
    return encode_frame(encode(message, seq))


class _Reader:
    """Reads fields off a payload; errors name the message, the field and the offset."""

    __slots__ = ("data", "pos", "what")

    def __init__(self, data: bytes, what: str) -> None:
        self.data = data
        self.pos = 0
        self.what = what

    def fail(self, detail: str) -> MessageError:
        return MessageError(f"{self.what}: {detail}")

    def take(self, n: int, name: str) -> bytes:
        end = self.pos + n
        if end > len(self.data):
            size = len(self.data)
            raise self.fail(f"payload of {size} bytes ends inside {name} (bytes {self.pos}..{end - 1})")
        chunk = self.data[self.pos:end]
        self.pos = end
        return chunk

    def unpack(self, fmt: struct.Struct, name: str) -> tuple[Any, ...]:
        return fmt.unpack(self.take(fmt.size, name))

    def uids(self, zone: str) -> tuple[bytes, ...]:
        count = self.take(1, f"{zone} tag count")[0]
        if count > MAX_TAGS_ON_WIRE:
            raise self.fail(f"{zone} tag count {count} exceeds {MAX_TAGS_ON_WIRE}")
        out = []
        for k in range(count):
            size = self.take(1, f"{zone} UID {k} length")[0]
            if size not in UID_SIZES:
                raise self.fail(f"{zone} UID {k} length {size} at byte {self.pos - 1} is not 4, 7 or 10")
            out.append(self.take(size, f"{zone} UID {k}"))
        return tuple(out)


def decode(frame: Frame) -> Message:
    """The message in ``frame``; raises ``MessageError`` saying what is wrong and where.

    Payload bytes after the last known field are ignored: a later minor protocol version
    may append fields (PROTOCOL.md "Versioning").
    """
    try:
        kind = MessageType(frame.type)
    except ValueError:
        raise MessageError(f"unknown message type {frame.type:#04x} in frame seq {frame.seq}") from None
    r = _Reader(frame.payload, f"{kind.name} frame seq {frame.seq}")
    if kind is MessageType.HELLO:
        fields = r.unpack(_HELLO, "HELLO fields")
        seat_b, minor, unit_id, fw_a, fw_b, fw_c, caps, max_tags, state_ms, hb_ms = fields
        seat = seat_b.decode("latin-1")
        if seat not in SEATS:
            raise r.fail(f"seat byte {seat_b.hex()} is not one of N, E, S, W")
        try:
            return Hello(seat, unit_id, (fw_a, fw_b, fw_c), Capability(caps),
                         max_tags, state_ms, hb_ms, minor)
        except MessageError as exc:
            raise r.fail(str(exc)) from None
    if kind is MessageType.STATE:
        uptime, bitmap, buttons, presses, led, readers = r.unpack(_STATE_FIXED, "STATE fixed fields")
        try:
            led_mode = LedMode(led)
        except ValueError:
            raise r.fail(f"LED mode {led} is not 0 (off), 1 (on) or 2 (blink)") from None
        play = r.uids("play")
        spread = r.uids("spread")
        return State(uptime, slots_from_mask(int.from_bytes(bitmap, "little")), play, spread,
                     bool(buttons & _BUTTON_DIRECTOR), presses, led_mode,
                     bool(readers & _READER_PLAY_OK), bool(readers & _READER_SPREAD_OK))
    if kind is MessageType.HEARTBEAT:
        uptime, rx_bad, loop_hz = r.unpack(_HEARTBEAT, "HEARTBEAT fields")
        return Heartbeat(uptime, rx_bad, loop_hz)
    if kind is MessageType.ACK:
        seq, type_, status = r.unpack(_ACK, "ACK fields")
        try:
            return Ack(seq, type_, AckStatus(status))
        except ValueError:
            raise r.fail(f"ACK status {status} is not 0, 1 or 2") from None
    if kind is MessageType.LED:
        mode, period = r.unpack(_LED, "LED fields")
        try:
            return Led(LedMode(mode), period)
        except ValueError:
            raise r.fail(f"LED mode {mode} is not 0 (off), 1 (on) or 2 (blink)") from None
    if kind is MessageType.BUZZER:
        (ms,) = r.unpack(_BUZZER, "BUZZER duration")
        return Buzzer(ms)
    (flags,) = r.take(1, "SNAPSHOT_REQUEST flags")
    return SnapshotRequest(bool(flags & 0x01))


assert len(SLOTS) == 40
assert _STATE_FIXED.size + 2 + 2 * MAX_TAGS_ON_WIRE * 11 <= MAX_PAYLOAD
