"""A simulated NXP PN532 on a pseudo-terminal, with simulated NTAG213 tags in its field.

The simulator speaks the PN532 host-controller protocol over HSU (UART) frames on the
master side of a pty, so that nfcpy's own ``nfc.clf.pn532`` driver, over its ``TTY``
transport on the slave side, initialises it and reads and writes tags exactly as it would a
real chip. What it implements is what nfcpy sends (see ``Pn532Chip.COMMANDS``):

- framing: preamble and start code, normal and extended frames (LEN/LCS, TFI, DCS), ACK
  frames both ways, the syntax-error frame for commands it does not know;
- the wake-up and set-up of nfcpy's driver: GetFirmwareVersion, SAMConfiguration,
  SetSerialBaudrate, Diagnose (the communication line test), SetParameters,
  RFConfiguration, ReadRegister and WriteRegister (a CIU register file: nfcpy switches the
  receive CRC off for Type 2 Tags and reads ``CIU_FIFOData`` to tell "no tag" apart), and
  PowerDown when nfcpy closes the device;
- the initiator: InListPassiveTarget (106 kbps Type A, one or two targets, by UID or any,
  with ISO 14443-3 states: a halted tag answers no REQA until the field goes off),
  InCommunicateThru and InDataExchange to the selected tag (with CRC_A appended when the
  receive CRC check is off, as the CIU hands it over), InSelect, InDeselect, InRelease,
  GetGeneralStatus; InJumpForDEP/InJumpForPSL/InATR find no peer.

Tags are ``Ntag213``: 7-byte UID, 45 pages, READ (0x30), FAST_READ (0x3A), WRITE (0xA2),
GET_VERSION (0x60), READ_SIG (0x3C), READ_CNT (0x39), PWD_AUTH (0x1B), HLTA (0x50); any other
command gets no answer and sends the tag back to IDLE, as a real one does (nfcpy relies on
it when it probes for an Ultralight C).

How nfcpy is pointed at the pty: nfcpy's ``tty:`` paths only glob names under ``/dev``
(``tty:AMA1:pn532`` is ``/dev/ttyAMA1``; ``tty:NAME:pn532`` is ``/dev/NAME``) and a pty slave
is ``/dev/pts/N``. ``drivers.nfc_reader`` therefore also accepts an absolute device path,
``nfc:tty:/dev/pts/3:pn532``, and builds the driver itself from ``nfc.clf.transport.TTY`` and
``nfc.clf.pn532.init`` -- the two calls nfcpy's own ``device.connect`` makes for a tty --
so no link in ``/dev`` is needed. (A symlink ``/dev/NAME -> /dev/pts/N`` also works with
nfcpy's own path search; the tests do both.)

The simulator keeps its own descriptor on the slave open, so that nfcpy closing and
reopening the port (it does when it changes the baud rate) never hangs up the pty.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import tty
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import ClassVar

import ndef  # type: ignore[import-untyped]

__all__ = ["Ntag213", "Pn532Chip", "Pn532Simulator", "crc_a"]

log = logging.getLogger(__name__)

ACK = bytes.fromhex("0000FF00FF00")
NACK = bytes.fromhex("0000FFFF0100")
ERROR_FRAME = bytes.fromhex("0000FF01FF7F8100")

# PN532 status codes (user manual, table "Error code list")
TIMEOUT = 0x01
INVALID_PARAMETER = 0x10
NOT_ACCEPTABLE = 0x27

# CIU registers nfcpy reads or writes by name
CIU_MODE = 0x6301
CIU_TX_MODE = 0x6302
CIU_RX_MODE = 0x6303
CIU_TX_CONTROL = 0x6304
CIU_TX_AUTO = 0x6305
CIU_FIFO_DATA = 0x6339
CIU_FIFO_LEVEL = 0x633A
REQA = 0x26


def crc_a(data: bytes) -> bytes:
    """The ISO/IEC 14443-3 Type A CRC of ``data``: two bytes, least significant first."""
    crc = 0x6363
    for octet in data:
        octet ^= crc & 0xFF
        octet = (octet ^ (octet << 4)) & 0xFF
        crc = ((crc >> 8) ^ (octet << 8) ^ (octet << 3) ^ (octet >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


@dataclass(frozen=True, slots=True)
class _Answer:
    """What a tag sends back: ``data``, or a 4-bit ACK/NAK when ``short``."""

    data: bytes
    short: bool = False


class Ntag213:
    """A simulated NXP NTAG213: 7-byte UID, 45 pages of 4 bytes, 144 bytes of user memory.

    A new tag is as NXP ships it: capability container ``E1 10 12 00`` and, in page 4, a lock
    control TLV and an empty NDEF message TLV; ``text`` writes an NDEF text record instead,
    ``blank=True`` leaves the capability container empty (a tag nobody formatted).
    """

    PAGES = 45
    VERSION = bytes.fromhex("0004040201000F03")
    ACK = _Answer(b"\x0a", short=True)
    NAK = _Answer(b"\x00", short=True)

    def __init__(self, uid: str | bytes, *, text: str | None = None, blank: bool = False) -> None:
        uid_bytes = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        if len(uid_bytes) != 7:
            raise ValueError(f"an NTAG213 UID has 7 bytes, not {len(uid_bytes)}: {uid_bytes.hex().upper()}")
        self.uid = uid_bytes
        memory = bytearray(4 * self.PAGES)
        bcc0 = 0x88 ^ uid_bytes[0] ^ uid_bytes[1] ^ uid_bytes[2]
        bcc1 = uid_bytes[3] ^ uid_bytes[4] ^ uid_bytes[5] ^ uid_bytes[6]
        memory[0:12] = uid_bytes[0:3] + bytes([bcc0]) + uid_bytes[3:7] + bytes([bcc1, 0x48, 0, 0])
        if not blank:
            memory[12:16] = b"\xe1\x10\x12\x00"
            memory[16:24] = b"\x01\x03\xa0\x0c\x34\x03\x00\xfe"
        memory[160:164] = b"\x00\x00\x00\xbd"   # dynamic lock bytes, RFUI
        memory[164:168] = b"\x04\x00\x00\xff"   # CFG0: MIRROR, RFU, MIRROR_PAGE, AUTH0
        memory[168:172] = b"\x00\x05\x00\x00"   # CFG1: ACCESS
        memory[172:176] = b"\xff\xff\xff\xff"   # PWD (reads back as zeros)
        self.memory = memory
        self.signature = bytes((b * 37 + 11) & 0xFF for b in (uid_bytes * 5)[:32])
        if text is not None:
            self.write_ndef(b"".join(ndef.message_encoder([ndef.TextRecord(text)])))

    @property
    def uid_hex(self) -> str:
        return self.uid.hex().upper()

    def __repr__(self) -> str:
        return f"Ntag213({self.uid_hex!r})"

    # -- memory as NFC Forum Type 2 Tag ------------------------------------------------

    def _tlvs(self) -> Iterable[tuple[int, int, int]]:
        """(type, value offset, length) of the TLVs in the data area."""
        offset, end = 16, 16 + self.memory[14] * 8
        while offset < end:
            kind = self.memory[offset]
            if kind == 0x00:
                offset += 1
                continue
            if kind == 0xFE:
                return
            length = self.memory[offset + 1]
            start = offset + 2
            if length == 0xFF:
                length = int.from_bytes(self.memory[offset + 2:offset + 4], "big")
                start = offset + 4
            yield kind, start, length
            offset = start + length

    def ndef_message(self) -> bytes | None:
        """The NDEF message bytes in memory, or None when the tag is not NDEF formatted."""
        if self.memory[12] != 0xE1:
            return None
        for kind, start, length in self._tlvs():
            if kind == 0x03:
                return bytes(self.memory[start:start + length])
        return None

    def text(self) -> str | None:
        """The text of the first NDEF text record in memory, if any."""
        message = self.ndef_message()
        if not message:
            return None
        for record in ndef.message_decoder(message):
            if isinstance(record, ndef.TextRecord):
                return str(record.text)
        return None

    def write_ndef(self, message: bytes) -> None:
        """Put ``message`` in the NDEF message TLV (after the lock control TLV)."""
        if len(message) > 142:
            raise ValueError(f"an NTAG213 holds 142 bytes of NDEF message, not {len(message)}")
        self.memory[12:16] = b"\xe1\x10\x12\x00"
        area = bytearray(144)
        area[0:5] = b"\x01\x03\xa0\x0c\x34"
        area[5:7] = bytes((0x03, len(message)))
        area[7:7 + len(message)] = message
        if 7 + len(message) < 144:
            area[7 + len(message)] = 0xFE
        self.memory[16:160] = area

    # -- the tag's side of the air interface ---------------------------------------------

    def _page(self, page: int) -> bytes:
        if page == 43:
            return b"\x00\x00\x00\x00"   # PWD always reads as zeros
        return bytes(self.memory[4 * page:4 * page + 4])

    def command(self, data: bytes) -> tuple[_Answer | None, bool]:
        """Answer one command frame (CRC stripped); also whether the tag stays selected.

        A None answer is silence. A NAK or an unknown command sends the tag back to IDLE.
        """
        if not data:
            return None, False
        code = data[0]
        if code == 0x30 and len(data) == 2:   # READ: four pages, rolling over past the last
            if data[1] >= self.PAGES:
                return self.NAK, False
            return _Answer(b"".join(self._page((data[1] + i) % self.PAGES) for i in range(4))), True
        if code == 0x3A and len(data) == 3:   # FAST_READ
            start, end = data[1], data[2]
            if start > end or end >= self.PAGES:
                return self.NAK, False
            return _Answer(b"".join(self._page(p) for p in range(start, end + 1))), True
        if code == 0xA2 and len(data) == 6:   # WRITE
            page, value = data[1], data[2:6]
            if page < 2 or page >= self.PAGES:
                return self.NAK, False
            if page == 2:   # only the static lock bytes, and they only set bits
                self.memory[10] |= value[2]
                self.memory[11] |= value[3]
            elif page == 3:   # the capability container is one-time programmable
                for i in range(4):
                    self.memory[12 + i] |= value[i]
            else:
                self.memory[4 * page:4 * page + 4] = value
            return self.ACK, True
        if code == 0x60 and len(data) == 1:   # GET_VERSION
            return _Answer(self.VERSION), True
        if code == 0x3C and len(data) == 2 and data[1] == 0:   # READ_SIG
            return _Answer(self.signature), True
        if code == 0x39 and len(data) == 2:   # READ_CNT
            return (_Answer(b"\x00\x00\x00"), True) if data[1] == 2 else (self.NAK, False)
        if code == 0x1B and len(data) == 5:   # PWD_AUTH: the factory password
            if data[1:5] == b"\xff\xff\xff\xff":
                return _Answer(b"\x00\x00"), True
            return self.NAK, False
        return None, False   # HLTA and everything unknown: silence (HLTA is handled by the field)


@dataclass(slots=True)
class _InField:
    tag: Ntag213
    state: str = "idle"   # idle | active | halt


class Pn532Chip:
    """The PN532's host interface as a pure protocol: ``feed(bytes from the host) -> bytes to the host``.

    It holds the chip's state (CIU registers, RF field, listed targets) and the tags in its
    field; ``Pn532Simulator`` puts it behind a pty. Not thread-safe by itself.
    """

    COMMANDS: ClassVar[dict[int, str]] = {
        0x00: "Diagnose", 0x02: "GetFirmwareVersion", 0x04: "GetGeneralStatus",
        0x06: "ReadRegister", 0x08: "WriteRegister", 0x0C: "ReadGPIO", 0x0E: "WriteGPIO",
        0x10: "SetSerialBaudrate", 0x12: "SetParameters", 0x14: "SAMConfiguration",
        0x16: "PowerDown", 0x32: "RFConfiguration", 0x40: "InDataExchange",
        0x42: "InCommunicateThru", 0x44: "InDeselect", 0x46: "InJumpForPSL",
        0x4A: "InListPassiveTarget", 0x4E: "InPSL", 0x50: "InATR", 0x52: "InRelease",
        0x54: "InSelect", 0x56: "InJumpForDEP", 0x60: "InAutoPoll",
    }
    FIRMWARE = bytes((0x32, 0x01, 0x06, 0x07))   # PN532, v1.6, supports ISO 14443 A and B, ISO 18092

    def __init__(self) -> None:
        self._field: list[_InField] = []
        self._listed: list[_InField] = []
        self._current: _InField | None = None
        self._rf_on = False
        self._registers: dict[int, int] = {}
        self._buffer = bytearray()
        self.received: Counter[int] = Counter()
        self.frame_errors = 0
        self.reset()

    # -- the field --------------------------------------------------------------------------

    def present(self, tag: Ntag213 | str | bytes) -> Ntag213:
        """Put ``tag`` (or a new NTAG213 with that UID) in the field; return it."""
        if not isinstance(tag, Ntag213):
            tag = Ntag213(tag)
        if all(entry.tag is not tag for entry in self._field):
            self._field.append(_InField(tag))
        return tag

    def remove(self, tag: Ntag213 | str | bytes | None = None) -> None:
        """Take ``tag`` (a tag or its UID) out of the field, or every tag when None."""
        if tag is None:
            gone = list(self._field)
        else:
            uid = tag.uid if isinstance(tag, Ntag213) else (
                bytes.fromhex(tag) if isinstance(tag, str) else bytes(tag))
            gone = [entry for entry in self._field if entry.tag.uid == uid]
        for entry in gone:
            self._field.remove(entry)
            if entry in self._listed:
                self._listed.remove(entry)
            if self._current is entry:
                self._current = None

    @property
    def tags(self) -> tuple[Ntag213, ...]:
        return tuple(entry.tag for entry in self._field)

    def reset(self) -> None:
        """Power-on state: registers at their defaults, field off, nothing listed, input forgotten."""
        self._registers = {CIU_MODE: 0x3B, CIU_TX_MODE: 0x80, CIU_RX_MODE: 0x80, CIU_TX_CONTROL: 0x80,
                           CIU_TX_AUTO: 0x00, CIU_FIFO_DATA: 0x00, CIU_FIFO_LEVEL: 0x00}
        self._buffer.clear()
        self._field_off()

    # -- the host interface -----------------------------------------------------------------

    def feed(self, data: bytes) -> bytes:
        """Take bytes from the host; return what the chip sends back (ACK and answer frames)."""
        self._buffer += data
        return b"".join(reply for frame in self._frames() for reply in self._handle(frame))

    def _frames(self) -> Iterable[bytes]:
        """Cut complete host frames (command code and parameters) out of the buffer."""
        buf = self._buffer
        while True:
            start = buf.find(b"\x00\xff")
            if start < 0:
                del buf[:max(0, len(buf) - 1)]
                return
            del buf[:start]
            if len(buf) < 4:
                return
            length, lcs = buf[2], buf[3]
            if (length, lcs) in ((0x00, 0xFF), (0xFF, 0x00)):   # ACK or NACK from the host
                del buf[:4]
                continue
            if length == 0xFF and lcs == 0xFF:   # extended frame
                if len(buf) < 7:
                    return
                length = buf[4] << 8 | buf[5]
                if (buf[4] + buf[5] + buf[6]) & 0xFF:
                    self.frame_errors += 1
                    del buf[:2]
                    continue
                head = 7
            else:
                if (length + lcs) & 0xFF:
                    self.frame_errors += 1
                    del buf[:2]
                    continue
                head = 4
            if len(buf) < head + length + 1:
                return
            data = bytes(buf[head:head + length])
            dcs = buf[head + length]
            del buf[:head + length + 1]
            if (sum(data) + dcs) & 0xFF or len(data) < 2 or data[0] != 0xD4:
                self.frame_errors += 1   # a real PN532 ignores such a frame too
                continue
            yield data[1:]

    @staticmethod
    def frame(payload: bytes) -> bytes:
        """The chip's information frame (TFI 0xD5) carrying ``payload``: normal, or extended when long."""
        data = b"\xd5" + payload
        dcs = (-sum(data)) & 0xFF
        if len(data) < 255:
            return b"\x00\x00\xff" + bytes((len(data), (-len(data)) & 0xFF)) + data + bytes((dcs, 0))
        high, low = len(data) >> 8, len(data) & 0xFF
        return b"\x00\x00\xff\xff\xff" + bytes((high, low, (-(high + low)) & 0xFF)) + data + bytes((dcs, 0))

    def _handle(self, command: bytes) -> list[bytes]:
        code, params = command[0], command[1:]
        self.received[code] += 1
        handler = getattr(self, f"_cmd_{code:02x}", None)
        if handler is None:
            log.debug("pn532 simulator: unknown command 0x%02X", code)
            return [ACK, ERROR_FRAME]
        try:
            payload: bytes = handler(params)
        except (IndexError, ValueError) as exc:
            log.debug("pn532 simulator: bad parameters for 0x%02X: %s", code, exc)
            return [ACK, ERROR_FRAME]
        return [ACK, self.frame(bytes((code + 1,)) + payload)]

    # -- commands (named by code, as the user manual lists them) ----------------------------

    def _cmd_00(self, params: bytes) -> bytes:   # Diagnose
        if params[0] == 0x00:   # communication line test: echo
            return params
        return b"\x00"

    def _cmd_02(self, params: bytes) -> bytes:   # GetFirmwareVersion
        return self.FIRMWARE

    def _cmd_04(self, params: bytes) -> bytes:   # GetGeneralStatus
        targets = b"".join(bytes((i + 1, 0, 0, 0x10)) for i in range(len(self._listed)))
        return bytes((0, int(self._rf_on), len(self._listed))) + targets + b"\x00"

    def _cmd_06(self, params: bytes) -> bytes:   # ReadRegister
        addresses = [params[i] << 8 | params[i + 1] for i in range(0, len(params) - 1, 2)]
        return bytes(self._registers.get(address, 0) for address in addresses)

    def _cmd_08(self, params: bytes) -> bytes:   # WriteRegister
        for i in range(0, len(params) - 2, 3):
            self._registers[params[i] << 8 | params[i + 1]] = params[i + 2]
        return b""

    def _cmd_0c(self, params: bytes) -> bytes:   # ReadGPIO
        return b"\xff\xff\x00"

    def _cmd_0e(self, params: bytes) -> bytes:   # WriteGPIO
        return b""

    def _cmd_10(self, params: bytes) -> bytes:   # SetSerialBaudrate: a pty has no baud rate
        if params[0] > 8:
            raise ValueError("baud rate index")
        return b""

    def _cmd_12(self, params: bytes) -> bytes:   # SetParameters
        return b""

    def _cmd_14(self, params: bytes) -> bytes:   # SAMConfiguration
        if not 1 <= params[0] <= 4:
            raise ValueError("SAM mode")
        return b""

    def _cmd_16(self, params: bytes) -> bytes:   # PowerDown: the field goes off
        self._field_off()
        return b"\x00"

    def _cmd_32(self, params: bytes) -> bytes:   # RFConfiguration
        if params[0] == 0x01 and not params[1] & 0x01:
            self._field_off()
        elif params[0] == 0x01:
            self._rf_on = True
        return b""

    def _cmd_4a(self, params: bytes) -> bytes:   # InListPassiveTarget
        max_tg, brty, initiator = params[0], params[1], params[2:]
        if not 1 <= max_tg <= 2:
            raise ValueError("MaxTg")
        self._rf_on = True
        self._registers[CIU_TX_MODE] = 0x80
        self._registers[CIU_RX_MODE] = 0x80
        for entry in self._field:
            if entry.state == "active":   # an unexpected REQA sends an active tag back to idle
                entry.state = "idle"
        self._listed, self._current = [], None
        if brty != 0:   # only 106 kbps Type A tags live here
            self._registers[CIU_FIFO_DATA] = 0x00
            return b"\x00"
        candidates = sorted((e for e in self._field if e.state == "idle"), key=lambda e: e.tag.uid)
        if initiator:
            candidates = [e for e in candidates if _cascade(e.tag.uid) == initiator]
        if not candidates:
            self._registers[CIU_FIFO_DATA] = REQA   # nobody answered the SENS_REQ
            return b"\x00"
        self._registers[CIU_FIFO_DATA] = 0x44
        listed = candidates[:max_tg]
        for entry in listed[:-1]:   # the firmware halts each target before it selects the next
            entry.state = "halt"
        listed[-1].state = "active"
        self._listed, self._current = listed, listed[-1]
        answer = bytearray((len(listed),))
        for number, entry in enumerate(listed, start=1):
            answer += bytes((number, 0x00, 0x44, 0x00, len(entry.tag.uid))) + entry.tag.uid
        return bytes(answer)

    def _cmd_42(self, params: bytes) -> bytes:   # InCommunicateThru
        return self._exchange(self._current, params, raw=True)

    def _cmd_40(self, params: bytes) -> bytes:   # InDataExchange
        number = params[0] & 0x0F
        if not 1 <= number <= len(self._listed):
            return bytes((NOT_ACCEPTABLE,))
        entry = self._select(self._listed[number - 1])
        return self._exchange(entry, params[1:], raw=False)

    def _cmd_44(self, params: bytes) -> bytes:   # InDeselect
        if self._current is not None and self._current.state == "active":
            self._current.state = "idle"
        return b"\x00"

    def _cmd_52(self, params: bytes) -> bytes:   # InRelease
        for entry in self._listed:
            if entry.state == "active":
                entry.state = "idle"
        self._listed, self._current = [], None
        return b"\x00"

    def _cmd_54(self, params: bytes) -> bytes:   # InSelect
        number = params[0]
        if not 1 <= number <= len(self._listed):
            return bytes((NOT_ACCEPTABLE,))
        return b"\x00" if self._select(self._listed[number - 1]) is not None else bytes((TIMEOUT,))

    def _cmd_46(self, params: bytes) -> bytes:   # InJumpForPSL: no NFC-DEP peer here
        return bytes((TIMEOUT,))

    _cmd_56 = _cmd_46   # InJumpForDEP
    _cmd_50 = _cmd_46   # InATR
    _cmd_4e = _cmd_46   # InPSL

    def _cmd_60(self, params: bytes) -> bytes:   # InAutoPoll: nothing polled for
        return b"\x00"

    # -- the field ------------------------------------------------------------------------

    def _field_off(self) -> None:
        self._rf_on = False
        self._listed, self._current = [], None
        for entry in self._field:
            entry.state = "idle"   # no power, no state: halted tags wake up idle

    def _select(self, entry: _InField) -> _InField | None:
        """WUPA and select ``entry`` again (the firmware does before talking to a listed target)."""
        if entry not in self._field:
            return None
        if self._current is not None and self._current is not entry and self._current.state == "active":
            self._current.state = "halt"
        entry.state = "active"
        self._current = entry
        return entry

    def _exchange(self, entry: _InField | None, data: bytes, *, raw: bool) -> bytes:
        if entry is None or entry not in self._field or entry.state != "active":
            return bytes((TIMEOUT,))
        if data[:2] == b"\x50\x00":   # HLTA: never answered
            entry.state = "halt"
            return bytes((TIMEOUT,))
        answer, stays = entry.tag.command(data)
        if not stays:
            entry.state = "idle"
        if answer is None:
            return bytes((TIMEOUT,))
        payload = answer.data
        if raw and not answer.short and not self._registers.get(CIU_RX_MODE, 0x80) & 0x80:
            payload += crc_a(payload)   # the CIU hands over the CRC when it does not check it
        return b"\x00" + payload




class Pn532Simulator:
    """A ``Pn532Chip`` behind a pty: point nfcpy at ``port`` (or ``nfcpy_path``), put tags in its field.

    Verbs: ``present(tag)`` (an ``Ntag213`` or a UID), ``remove(tag=None)`` (one tag, or all),
    ``go_silent()`` (the chip stops answering: nfcpy's commands time out) and ``wake()``
    (the chip answers again, as after a power cycle). ``received`` counts the command codes
    the host sent. Use as a context manager, or ``start()`` and ``close()``.
    """

    def __init__(self) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._wake_r, self._wake_w = os.pipe()
        self._lock = threading.Lock()
        self.chip = Pn532Chip()
        self._silent = False
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def nfcpy_path(self) -> str:
        """The path ``drivers.nfc_reader`` opens this chip with: ``tty:/dev/pts/N:pn532``."""
        return f"tty:{self.port}:pn532"

    def url(self, reader: str) -> str:
        """A device URL for this chip as the reader ``reader`` (``N.play``)."""
        return f"nfc:{self.nfcpy_path}?reader={reader}"

    @property
    def received(self) -> Counter[int]:
        return self.chip.received

    def start(self) -> Pn532Simulator:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"pn532-sim {self.port}", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout=5)
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> Pn532Simulator:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def present(self, tag: Ntag213 | str | bytes) -> Ntag213:
        """Put ``tag`` (or a new NTAG213 with that UID) in the field; return it."""
        with self._lock:
            return self.chip.present(tag)

    def remove(self, tag: Ntag213 | str | bytes | None = None) -> None:
        """Take ``tag`` (a tag or its UID) out of the field, or every tag when None."""
        with self._lock:
            self.chip.remove(tag)

    @property
    def tags(self) -> tuple[Ntag213, ...]:
        with self._lock:
            return self.chip.tags

    def go_silent(self) -> None:
        """The chip stops answering (a brown-out, a loose wire): the host's commands time out."""
        with self._lock:
            self._silent = True

    def wake(self) -> None:
        """The chip answers again, freshly reset."""
        with self._lock:
            self.chip.reset()
            self._silent = False

    def _run(self) -> None:
        while not self._closed:
            try:
                ready, _, _ = select.select([self._master, self._wake_r], [], [])
                if self._wake_r in ready:
                    return
                chunk = os.read(self._master, 4096)
            except OSError as exc:
                log.debug("pn532 simulator stops reading: %s", exc)
                return
            with self._lock:
                if self._silent:
                    continue
                reply = self.chip.feed(chunk)
            if reply:
                try:
                    os.write(self._master, reply)
                except OSError as exc:
                    log.debug("pn532 simulator cannot answer: %s", exc)
                    return


def _cascade(uid: bytes) -> bytes:
    """The UID as InListPassiveTarget's initiator data carries it, with cascade tags (0x88)."""
    if len(uid) == 4:
        return uid
    if len(uid) == 7:
        return b"\x88" + uid
    return b"\x88" + uid[0:3] + b"\x88" + uid[3:]
