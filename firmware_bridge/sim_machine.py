"""A simulated RP2040 ``machine`` module with the seat unit's parts wired to it.

The seat firmware (``firmware/seatfw``) runs unchanged under CPython against this module,
in the tests and in the emulator (a simulator ships with the package; gpiozero's
mock pin factory is the model). ``SimMachine(board)`` quacks like
``machine``: ``Pin``, ``SPI``, ``unique_id``. Parts attach to a ``SimBoard``:

- ``SimContactMatrix``: contacts between open-drain rows and pulled-up columns, with or
  without the diodes, computed electrically, so that ghosting shows without diodes;
- ``SimMFRC522``: the MFRC522 register model over SPI (address byte, FIFO, ComIrqReg,
  ErrorReg, CollReg, BitFramingReg, ControlReg, TxControlReg, VersionReg, soft reset,
  Transceive) with ISO/IEC 14443A tags in its field (REQA/WUPA, bit-level anticollision
  at three cascade levels, SELECT with CRC_A, HLTA, the IDLE/READY/ACTIVE/HALT states);
- ``SimButton``: a push button to ground.

The parts are not thread-safe: whoever runs the firmware in a thread (the emulator)
serialises physical acts and ``poll`` with one lock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, overload

__all__ = [
    "SimBoard",
    "SimButton",
    "SimContactMatrix",
    "SimMFRC522",
    "SimMachine",
    "SimPin",
    "SimSPI",
    "SimTag",
]

IN, OUT, OPEN_DRAIN = 0, 1, 2
PULL_NONE, PULL_UP, PULL_DOWN = 0, 1, 2


class SpiDevice(Protocol):
    """A chip on a simulated SPI bus: a transaction runs from ``begin`` (CS low) to ``end``."""

    def begin(self) -> None: ...

    def end(self) -> None: ...

    def exchange(self, mosi: int) -> int: ...


class SimBoard:
    """Pin levels and SPI buses of one simulated board, and what is wired to them."""

    def __init__(self, unique_id: bytes = bytes(8)) -> None:
        self.unique_id = bytes(unique_id)
        self._mode: dict[int, int] = {}
        self._pull: dict[int, int] = {}
        self._out: dict[int, int] = {}
        self._sources: dict[int, Callable[[], int | None]] = {}
        self._spi: dict[int, list[tuple[int, SpiDevice]]] = {}
        self._listeners: dict[int, list[Callable[[int], None]]] = {}
        self._edges: dict[int, list[Callable[[int], None]]] = {}

    # -- the firmware's side

    def configure(self, pin: int, mode: int, pull: int, value: int | None) -> None:
        if mode >= 0:
            self._mode[pin] = mode
        if pull >= 0:
            self._pull[pin] = pull
        if value is not None:
            self.drive(pin, value)

    def drive(self, pin: int, value: int) -> None:
        """Set the output latch of ``pin`` (CS edges start and end SPI transactions)."""
        old = self._out.get(pin, 1)
        new = 1 if value else 0
        self._out[pin] = new
        if old != new:
            for callback in self._edges.get(pin, ()):
                callback(new)
            for bus in self._spi.values():
                for cs, device in bus:
                    if cs == pin:
                        if new == 0:
                            device.begin()
                        else:
                            device.end()

    def level(self, pin: int) -> int:
        """The logic level the firmware reads on ``pin``."""
        mode = self._mode.get(pin, IN)
        if mode == OUT:
            return self._out.get(pin, 0)
        if mode == OPEN_DRAIN and self._out.get(pin, 1) == 0:
            return 0
        source = self._sources.get(pin)
        if source is not None:
            driven = source()
            if driven is not None:
                return driven
        return 1 if self._pull.get(pin, PULL_NONE) == PULL_UP else 0

    def spi_exchange(self, bus: int, mosi: int) -> int:
        """Clock one byte on SPI ``bus``: the selected chips answer (MISO idles high)."""
        miso = 0xFF
        for listener in self._listeners.get(bus, ()):
            listener(mosi)
        for cs, device in self._spi.get(bus, ()):
            if self.driven_low(cs):
                miso &= device.exchange(mosi)
        return miso

    # -- the simulation's side

    def driven_low(self, pin: int) -> bool:
        """True if the firmware drives ``pin`` low (push-pull or open drain)."""
        return self._mode.get(pin, IN) in (OUT, OPEN_DRAIN) and self._out.get(pin, 1) == 0

    def output(self, pin: int) -> int:
        """What the firmware drives on an output ``pin`` (an LED, the buzzer)."""
        return self._out.get(pin, 0) if self._mode.get(pin, IN) == OUT else 0

    def attach_source(self, pin: int, source: Callable[[], int | None]) -> None:
        """Something outside drives ``pin``: ``source()`` gives 0, 1, or None (not driving)."""
        self._sources[pin] = source

    def attach_spi(self, bus: int, cs: int, device: SpiDevice) -> None:
        """Wire ``device`` to SPI ``bus`` with chip select on pin ``cs``."""
        self._spi.setdefault(bus, []).append((cs, device))

    def attach_spi_listener(self, bus: int, listener: Callable[[int], None]) -> None:
        """Wire a chip without chip select (a shift register) to ``bus``: it sees every MOSI byte."""
        self._listeners.setdefault(bus, []).append(listener)

    def on_edge(self, pin: int, callback: Callable[[int], None]) -> None:
        """Call ``callback(level)`` whenever the firmware changes what it drives on ``pin``."""
        self._edges.setdefault(pin, []).append(callback)


class SimPin:
    """``machine.Pin`` on a ``SimBoard``."""

    IN = IN
    OUT = OUT
    OPEN_DRAIN = OPEN_DRAIN
    PULL_UP = PULL_UP
    PULL_DOWN = PULL_DOWN

    def __init__(self, board: SimBoard, id: int, mode: int = -1, pull: int = -1, *,
                 value: int | None = None) -> None:
        self.board = board
        self.id = id
        board.configure(id, mode, pull, value)

    def init(self, mode: int = -1, pull: int = -1, *, value: int | None = None) -> None:
        self.board.configure(self.id, mode, pull, value)

    @overload
    def value(self) -> int: ...

    @overload
    def value(self, x: int) -> None: ...

    def value(self, x: int | None = None) -> int | None:
        """Read the level, or drive ``x``."""
        if x is None:
            return self.board.level(self.id)
        self.board.drive(self.id, x)
        return None

    def on(self) -> None:
        self.board.drive(self.id, 1)

    def off(self) -> None:
        self.board.drive(self.id, 0)

    def __repr__(self) -> str:
        return f"Pin({self.id})"


class _PinClass:
    """``machine.Pin`` as seen through a ``SimMachine``: the constants and the constructor."""

    IN = IN
    OUT = OUT
    OPEN_DRAIN = OPEN_DRAIN
    PULL_UP = PULL_UP
    PULL_DOWN = PULL_DOWN

    def __init__(self, board: SimBoard) -> None:
        self._board = board

    def __call__(self, id: int, mode: int = -1, pull: int = -1, *, value: int | None = None) -> SimPin:
        return SimPin(self._board, id, mode, pull, value=value)


class SimSPI:
    """``machine.SPI`` on a ``SimBoard`` (chip select is a separate pin, as on the RP2040)."""

    def __init__(self, board: SimBoard, id: int, *, baudrate: int = 1000000, polarity: int = 0,
                 phase: int = 0, sck: object = None, mosi: object = None, miso: object = None) -> None:
        self.board = board
        self.id = id
        self.baudrate = baudrate

    def write(self, buf: bytes | bytearray) -> None:
        for b in buf:
            self.board.spi_exchange(self.id, b)

    def read(self, nbytes: int, write: int = 0) -> bytes:
        return bytes(self.board.spi_exchange(self.id, write) for _ in range(nbytes))

    def write_readinto(self, write_buf: bytes | bytearray, read_buf: bytearray) -> None:
        for i, b in enumerate(write_buf):
            read_buf[i] = self.board.spi_exchange(self.id, b)


class _SpiClass:
    def __init__(self, board: SimBoard) -> None:
        self._board = board

    def __call__(self, id: int, *, baudrate: int, polarity: int = 0, phase: int = 0,
                 sck: object = None, mosi: object = None, miso: object = None) -> SimSPI:
        return SimSPI(self._board, id, baudrate=baudrate, polarity=polarity, phase=phase)


class SimMachine:
    """Stands in for MicroPython's ``machine`` module, on ``board``."""

    def __init__(self, board: SimBoard) -> None:
        self.board = board
        self._pin = _PinClass(board)
        self._spi = _SpiClass(board)

    @property
    def Pin(self) -> _PinClass:
        return self._pin

    @property
    def SPI(self) -> _SpiClass:
        return self._spi

    def unique_id(self) -> bytes:
        return self.board.unique_id


# -- the bidding-box matrix and the button


class SimContactMatrix:
    """Contacts at the crossings of ``rows`` and ``cols`` pins; ``diodes`` as in the reference wiring.

    A column reads low when it is connected to a row the firmware drives low. With diodes
    only the contact at that crossing connects them; without, current also flows through
    other closed contacts (column -> contact -> row -> contact -> column ...).
    """

    def __init__(self, board: SimBoard, rows: tuple[int, ...], cols: tuple[int, ...],
                 diodes: bool = True) -> None:
        self.board = board
        self.rows = rows
        self.cols = cols
        self.diodes = diodes
        self.closed: set[tuple[int, int]] = set()
        for c, pin in enumerate(cols):
            board.attach_source(pin, self._column_source(c))

    def set(self, row: int, col: int, closed: bool) -> None:
        """Close or open the contact at (``row``, ``col``)."""
        if closed:
            self.closed.add((row, col))
        else:
            self.closed.discard((row, col))

    def _column_source(self, col: int) -> Callable[[], int | None]:
        def source() -> int | None:
            return 0 if self._pulled_low(col) else None

        return source

    def _pulled_low(self, col: int) -> bool:
        low_rows = {r for r, pin in enumerate(self.rows) if self.board.driven_low(pin)}
        if not low_rows:
            return False
        if self.diodes:
            return any((r, col) in self.closed for r in low_rows)
        seen_cols = {col}
        seen_rows: set[int] = set()
        frontier = [col]
        while frontier:
            c = frontier.pop()
            for r, cc in self.closed:
                if cc == c and r not in seen_rows:
                    if r in low_rows:
                        return True
                    seen_rows.add(r)
                    for r2, c2 in self.closed:
                        if r2 == r and c2 not in seen_cols:
                            seen_cols.add(c2)
                            frontier.append(c2)
        return False


class SimButton:
    """A push button from ``pin`` to ground."""

    def __init__(self, board: SimBoard, pin: int) -> None:
        self.pressed = False
        board.attach_source(pin, lambda: 0 if self.pressed else None)


# -- the MFRC522 and its tags

# registers and bits used by the model (NXP MFRC522 data sheet, section 9)
_COMMAND, _COM_IRQ, _DIV_IRQ, _ERROR = 0x01, 0x04, 0x05, 0x06
_FIFO_DATA, _FIFO_LEVEL, _CONTROL, _BIT_FRAMING, _COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
_TX_CONTROL, _VERSION = 0x14, 0x37
_CMD_IDLE, _CMD_TRANSCEIVE, _CMD_SOFT_RESET = 0x00, 0x0C, 0x0F
_IRQ_TIMER, _IRQ_IDLE, _IRQ_RX = 0x01, 0x10, 0x20
_ERR_COLL, _ERR_BUFFER_OVERFLOW = 0x08, 0x10
_RESET_VALUES = {_COMMAND: 0x20, 0x02: 0x80, _TX_CONTROL: 0x80, 0x11: 0x3F, _COLL: 0xA0, 0x26: 0x48}

IDLE, READY, ACTIVE, HALT = "IDLE", "READY", "ACTIVE", "HALT"


def _crc_a(data: bytes) -> bytes:
    """CRC_A (ISO/IEC 14443-3 annex B), bit by bit, low byte first."""
    crc = 0x6363
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return bytes((crc & 0xFF, crc >> 8))


def _bits(data: bytes) -> list[int]:
    """Bits of ``data`` in air order: each byte least significant bit first."""
    return [(byte >> i) & 1 for byte in data for i in range(8)]


class SimTag:
    """An ISO/IEC 14443A tag (an NTAG213 on a card) with its 4-, 7- or 10-byte UID."""

    def __init__(self, uid: bytes) -> None:
        if len(uid) not in (4, 7, 10):
            raise ValueError(f"a tag UID has 4, 7 or 10 bytes, not {len(uid)}")
        self.uid = bytes(uid)
        self.state = IDLE
        self.level = 0
        self.from_halt = False
        self.levels = {4: 1, 7: 2, 10: 3}[len(uid)]
        self._cl = [self._cascade(k) for k in range(self.levels)]

    def _cascade(self, level: int) -> bytes:
        uid = self.uid
        if level == self.levels - 1:
            part = uid[3 * level:3 * level + 4]
        else:
            part = b"\x88" + uid[3 * level:3 * level + 3]
        return part + bytes((part[0] ^ part[1] ^ part[2] ^ part[3],))

    def power_off(self) -> None:
        self.state = IDLE
        self.level = 0
        self.from_halt = False

    def _unexpected(self) -> None:
        if self.state in (READY, ACTIVE):
            self.state = HALT if self.from_halt else IDLE

    def receive(self, data: bytes, nbits: int) -> list[int] | None:
        """The tag's answer (bits) to a frame of ``nbits`` bits, or None if it keeps quiet."""
        if nbits == 7:
            command = data[0] & 0x7F
            wakes = (IDLE,) if command == 0x26 else (IDLE, HALT) if command == 0x52 else ()
            if self.state in wakes:
                self.from_halt = self.state == HALT
                self.state = READY
                self.level = 0
                return _bits({1: b"\x04\x00", 2: b"\x44\x00", 3: b"\x84\x00"}[self.levels])
            self._unexpected()
            return None
        if nbits < 16 or (nbits % 8 and data[0] not in (0x93, 0x95, 0x97)):
            self._unexpected()
            return None
        command = data[0]
        if command in (0x93, 0x95, 0x97):
            if self.state != READY or (command - 0x93) // 2 != self.level:
                return None
            cl = self._cl[self.level]
            nvb = data[1]
            if nvb == 0x70:
                if nbits != 72 or _crc_a(data[:7]) != data[7:9]:
                    self._unexpected()
                    return None
                if data[2:7] != cl:
                    return None
                if self.level == self.levels - 1:
                    self.state = ACTIVE
                    sak = 0x00
                else:
                    self.level += 1
                    sak = 0x04
                return _bits(bytes((sak,)) + _crc_a(bytes((sak,))))
            known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
            if nvb & 0x0F > 7 or not 0 <= known <= 32 or nbits != 16 + known:
                self._unexpected()
                return None
            cl_bits = _bits(cl)
            if _bits(data)[16:16 + known] != cl_bits[:known]:
                return None
            return cl_bits[known:]
        is_halt = command == 0x50 and nbits == 32 and data[1] == 0 and _crc_a(data[:2]) == data[2:4]
        if is_halt and self.state == ACTIVE:
            self.state = HALT
            return None
        if self.state != ACTIVE:
            self._unexpected()
        return None


class SimMFRC522:
    """The MFRC522 register model behind an SPI chip select, with tags in its field."""

    def __init__(self, version: int = 0x92) -> None:
        self.version = version
        self.dead = False
        self.tags: list[SimTag] = []
        self.frames: list[bytes] = []
        self.regs = bytearray(64)
        self.fifo = bytearray()
        self._in_transaction = False
        self._first = True
        self._reading = False
        self._address = 0
        self._reset()

    # -- the physical world

    def put(self, uid: bytes) -> None:
        """A tag comes into the field (nothing if it is there already)."""
        if all(tag.uid != uid for tag in self.tags):
            self.tags.append(SimTag(uid))

    def remove(self, uid: bytes) -> None:
        """A tag leaves the field."""
        self.tags = [tag for tag in self.tags if tag.uid != uid]

    @property
    def field_on(self) -> bool:
        return bool(self.regs[_TX_CONTROL] & 0x03)

    # -- SPI (data sheet 8.1.2)

    def begin(self) -> None:
        self._in_transaction = True
        self._first = True

    def end(self) -> None:
        self._in_transaction = False

    def exchange(self, mosi: int) -> int:
        if self.dead or not self._in_transaction:
            return 0x00
        if self._first:
            self._first = False
            self._reading = bool(mosi & 0x80)
            self._address = (mosi >> 1) & 0x3F
            return 0x00
        if self._reading:
            value = self._read(self._address)
            self._address = (mosi >> 1) & 0x3F
            return value
        self._write(self._address, mosi)
        return 0x00

    # -- registers

    def _reset(self) -> None:
        was_on = self.field_on
        self.regs = bytearray(64)
        for reg, value in _RESET_VALUES.items():
            self.regs[reg] = value
        self.fifo = bytearray()
        if was_on:
            for tag in self.tags:
                tag.power_off()

    def _read(self, reg: int) -> int:
        if reg == _FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == _FIFO_LEVEL:
            return len(self.fifo)
        if reg == _VERSION:
            return self.version
        return self.regs[reg]

    def _write(self, reg: int, value: int) -> None:
        regs = self.regs
        if reg == _COMMAND:
            command = value & 0x0F
            if command == _CMD_SOFT_RESET:
                self._reset()
                return
            regs[reg] = value & 0x3F
            if command not in (_CMD_IDLE, _CMD_TRANSCEIVE):
                regs[_COM_IRQ] |= _IRQ_IDLE  # other commands are not modelled: they end at once
        elif reg in (_COM_IRQ, _DIV_IRQ):
            if value & 0x80:
                regs[reg] |= value & 0x7F
            else:
                regs[reg] &= ~value & 0x7F
        elif reg == _FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(value)
            else:
                regs[_ERROR] |= _ERR_BUFFER_OVERFLOW
        elif reg == _FIFO_LEVEL:
            if value & 0x80:
                self.fifo = bytearray()
                regs[_ERROR] &= ~_ERR_BUFFER_OVERFLOW & 0xFF
        elif reg == _BIT_FRAMING:
            regs[reg] = value
            if value & 0x80 and regs[_COMMAND] & 0x0F == _CMD_TRANSCEIVE:
                self._transceive()
        elif reg == _TX_CONTROL:
            was_on = self.field_on
            regs[reg] = value
            if was_on and not self.field_on:
                for tag in self.tags:
                    tag.power_off()
        elif reg in (_ERROR, _VERSION, 0x07, 0x08):
            pass  # read-only
        else:
            regs[reg] = value

    def _transceive(self) -> None:
        regs = self.regs
        data = bytes(self.fifo)
        self.fifo = bytearray()
        framing = regs[_BIT_FRAMING]
        tx_last, rx_align = framing & 0x07, (framing >> 4) & 0x07
        regs[_ERROR] = 0
        regs[_COLL] = (regs[_COLL] & 0x80) | 0x20
        self.frames.append(data)
        replies: list[list[int]] = []
        if self.field_on and data:
            nbits = (len(data) - 1) * 8 + (tx_last or 8)
            for tag in self.tags:
                reply = tag.receive(data, nbits)
                if reply is not None:
                    replies.append(reply)
        if not replies:
            regs[_COM_IRQ] |= _IRQ_TIMER
            return
        length = max(len(r) for r in replies)
        bits: list[int] = []
        collision: int | None = None
        for i in range(length):
            values = {r[i] for r in replies if i < len(r)}
            if collision is None and (len(values) > 1 or any(i >= len(r) for r in replies)):
                collision = i
            bits.append(1 if 1 in values else 0)
        if collision is not None:
            regs[_ERROR] |= _ERR_COLL
            position = rx_align + collision + 1
            regs[_COLL] = (regs[_COLL] & 0x80) | (position & 0x1F if position <= 32 else 0x20)
            if not regs[_COLL] & 0x80:  # ValuesAfterColl off: later bits read as 0
                bits[collision + 1:] = [0] * (length - collision - 1)
        total = rx_align + len(bits)
        out = bytearray((total + 7) // 8)
        for i, bit in enumerate(bits):
            if bit:
                p = rx_align + i
                out[p // 8] |= 1 << (p % 8)
        self.fifo = out
        regs[_CONTROL] = (regs[_CONTROL] & 0xF8) | (total % 8)
        regs[_COM_IRQ] |= _IRQ_RX
