"""A small MFRC522 driver: ISO/IEC 14443A inventory of the tags in one reader's field.

Enough of the chip to read card tag UIDs (NTAG213 and the like): soft reset, timer and
ASK set-up, antenna on/off, Transceive with bit framing, REQA, bit-level anticollision
over the three cascade levels, SELECT and HLTA (ISO/IEC 14443-3 clause 6). Register
names follow the NXP MFRC522 data sheet.

``inventory`` finds several tags: each tag found is halted, so the next REQA is answered
only by the others. Halted tags wake again only after a field reset, which the caller
(``readers.ZoneScanner``) does before each inventory. Limits: ``max_tags`` per call; in
practice one MFRC522 antenna powers only a few stacked tags (one to three) reliably.
"""

TYPE_CHECKING = False  # type checkers take it as True; MicroPython has no typing module

if TYPE_CHECKING:
    from .hal import Pin, Spi

# Registers (data sheet section 9)
COMMAND = 0x01
COM_IEN = 0x02
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Commands
CMD_IDLE = 0x00
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F
POWER_DOWN = 0x10

# ComIrqReg bits
IRQ_TIMER = 0x01
IRQ_ERR = 0x02
IRQ_IDLE = 0x10
IRQ_RX = 0x20

# ErrorReg bits
ERR_PROTOCOL = 0x01
ERR_PARITY = 0x02
ERR_COLL = 0x08
ERR_BUFFER_OVERFLOW = 0x10

# PICC commands (ISO/IEC 14443-3)
REQA = 0x26
WUPA = 0x52
SEL_CL1 = 0x93
SEL_CL2 = 0x95
SEL_CL3 = 0x97
HLTA = 0x50
CASCADE_TAG = 0x88

# transceive results
OK = 0
TIMEOUT = 1
COLLISION = 2
ERROR_RX = 3
NO_CHIP = 4

KNOWN_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0xB2, 0x12)
"""VersionReg values of MFRC522 chips (0x91 v1.0, 0x92 v2.0) and common clones."""


def crc_a(data: "bytes | bytearray") -> bytes:
    """CRC_A of ISO/IEC 14443-3 (preset 0x6363, reflected 0x1021), low byte first as sent."""
    crc = 0x6363
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


class MFRC522:
    """One MFRC522 on an SPI bus with its own chip-select (and optional reset) pin."""

    def __init__(self, spi: "Spi", cs: "Pin", rst: "Pin | None" = None, irq_polls: int = 300) -> None:
        self.spi = spi
        self.cs = cs
        self.rst = rst
        self.irq_polls = irq_polls
        self._rx = bytearray(2)
        self.version = 0
        cs.value(1)
        if rst is not None:
            rst.value(1)

    # -- registers over SPI (data sheet 8.1.2: address byte 0AAAAAA0, bit 7 set to read)

    def read(self, reg: int) -> int:
        """The value of register ``reg``."""
        self.cs.value(0)
        self.spi.write_readinto(bytes((0x80 | (reg << 1), 0)), self._rx)
        self.cs.value(1)
        return self._rx[1]

    def write(self, reg: int, value: int) -> None:
        """Write ``value`` into register ``reg``."""
        self.cs.value(0)
        self.spi.write(bytes(((reg << 1) & 0x7E, value)))
        self.cs.value(1)

    def write_fifo(self, data: "bytes | bytearray") -> None:
        """Push ``data`` into the 64-byte FIFO."""
        self.cs.value(0)
        self.spi.write(bytes(((FIFO_DATA << 1) & 0x7E,)) + bytes(data))
        self.cs.value(1)

    def read_fifo(self, n: int) -> bytes:
        """Pop ``n`` bytes from the FIFO."""
        if n <= 0:
            return b""
        address = 0x80 | (FIFO_DATA << 1)
        out = bytearray(n + 1)
        self.cs.value(0)
        self.spi.write_readinto(bytes([address] * n + [0]), out)
        self.cs.value(1)
        return bytes(out[1:])

    def set_bits(self, reg: int, mask: int) -> None:
        self.write(reg, self.read(reg) | mask)

    def clear_bits(self, reg: int, mask: int) -> None:
        self.write(reg, self.read(reg) & (~mask & 0xFF))

    # -- set-up

    def init(self) -> bool:
        """Reset and configure the chip, antenna on; True if a known chip answers."""
        self.version = self.read(VERSION)
        if self.version not in KNOWN_VERSIONS:
            return False
        self.write(COMMAND, CMD_SOFT_RESET)
        for _ in range(self.irq_polls):
            if not self.read(COMMAND) & POWER_DOWN:
                break
        self.write(TX_MODE, 0x00)
        self.write(RX_MODE, 0x00)
        # Timer: TAuto, prescaler 0xA9 -> 40 kHz, reload 80 -> 2 ms receive timeout. Tags answer
        # REQA, anticollision and SELECT within about 0.1 ms (ISO/IEC 14443-3 frame delay time);
        # a longer timeout would only stall the main loop on every empty REQA.
        self.write(T_MODE, 0x80)
        self.write(T_PRESCALER, 0xA9)
        self.write(T_RELOAD_H, 0x00)
        self.write(T_RELOAD_L, 0x50)
        self.write(TX_ASK, 0x40)  # 100 % ASK, as ISO/IEC 14443A requires
        self.write(MODE, 0x3D)  # CRC preset 0x6363 (CRC_A)
        self.antenna(True)
        return True

    def antenna(self, on: bool) -> None:
        """Switch the RF field (TX1 and TX2 drivers); switching off resets every tag."""
        if on:
            self.set_bits(TX_CONTROL, 0x03)
        else:
            self.clear_bits(TX_CONTROL, 0x03)

    # -- RF exchange

    def transceive(self, data: "bytes | bytearray", tx_last_bits: int = 0,
                   rx_align: int = 0) -> "tuple[int, bytes, int]":
        """Send ``data`` and receive the answer: ``(status, bytes, extra)``.

        ``extra`` is the number of valid bits in the last byte received (0: all eight), or
        for ``COLLISION`` the CollPos value (1..32: bit of the first collision, counted in
        the received bytes from bit 0 of the first one, RxAlign offset included).
        """
        self.write(COMMAND, CMD_IDLE)
        self.write(COM_IRQ, 0x7F)  # clear every interrupt request bit
        self.write(FIFO_LEVEL, 0x80)  # flush the FIFO
        self.write_fifo(data)
        self.write(BIT_FRAMING, ((rx_align & 0x07) << 4) | (tx_last_bits & 0x07))
        self.write(COMMAND, CMD_TRANSCEIVE)
        self.set_bits(BIT_FRAMING, 0x80)  # StartSend
        irq = 0
        for _ in range(self.irq_polls):
            irq = self.read(COM_IRQ)
            if irq & (IRQ_RX | IRQ_IDLE | IRQ_TIMER):
                break
        else:
            return NO_CHIP, b"", 0
        self.clear_bits(BIT_FRAMING, 0x80)
        if irq & IRQ_TIMER and not irq & IRQ_RX:
            return TIMEOUT, b"", 0
        error = self.read(ERROR)
        if error & (ERR_BUFFER_OVERFLOW | ERR_PARITY | ERR_PROTOCOL):
            return ERROR_RX, b"", 0
        received = self.read_fifo(self.read(FIFO_LEVEL))
        if error & ERR_COLL:
            coll = self.read(COLL)
            if coll & 0x20:  # CollPosNotValid
                return ERROR_RX, received, 0
            return COLLISION, received, (coll & 0x1F) or 32
        return OK, received, self.read(CONTROL) & 0x07

    def request(self) -> int:
        """REQA (a 7-bit short frame): OK, or COLLISION (ATQAs of different tags), if a tag answered."""
        status, atqa, _ = self.transceive(bytes((REQA,)), tx_last_bits=7)
        if status == OK and len(atqa) != 2:
            return ERROR_RX
        return status

    def _anticollision(self, sel: int) -> "bytes | None":
        """The 5 bytes (4 UID bytes or CT + 3, then BCC) of one tag at cascade level ``sel``."""
        known = bytearray(5)
        known_bits = 0
        for _ in range(33):
            full, rem = known_bits // 8, known_bits % 8
            nvb = ((2 + full) << 4) | rem
            count = full + (1 if rem else 0)
            frame = bytes((sel, nvb)) + bytes(known[:count])
            status, rx, extra = self.transceive(frame, tx_last_bits=rem, rx_align=rem)
            if status not in (OK, COLLISION) or not rx:
                return None
            low = (1 << rem) - 1
            for i in range(len(rx)):
                j = full + i
                if j >= 5:
                    break
                if i == 0 and rem:
                    known[j] = (known[j] & low) | (rx[0] & ~low & 0xFF)
                else:
                    known[j] = rx[i]
            if status == OK:
                if full + len(rx) != 5:
                    return None
                return bytes(known)
            pos = 8 * full + extra - 1  # index of the first colliding bit in the 40
            if pos < known_bits or pos >= 32:
                return None
            byte, bit = pos // 8, pos % 8
            known[byte] = (known[byte] & ((1 << bit) - 1)) | (1 << bit)
            for j in range(byte + 1, 5):
                known[j] = 0
            known_bits = pos + 1
        return None

    def select(self) -> "bytes | None":
        """Anticollision and SELECT through the cascade levels: the UID (4, 7 or 10 bytes)."""
        uid = bytearray()
        for sel in (SEL_CL1, SEL_CL2, SEL_CL3):
            cl = self._anticollision(sel)
            if cl is None or cl[0] ^ cl[1] ^ cl[2] ^ cl[3] != cl[4]:
                return None
            frame = bytes((sel, 0x70)) + cl
            status, sak, _ = self.transceive(frame + crc_a(frame))
            if status != OK or len(sak) != 3 or crc_a(sak[:1]) != sak[1:]:
                return None
            if sak[0] & 0x04:  # cascade bit: the UID goes on at the next level
                if cl[0] != CASCADE_TAG:
                    return None
                uid.extend(cl[1:4])
            else:
                uid.extend(cl[0:4])
                return bytes(uid)
        return None

    def halt(self) -> None:
        """HLTA: the selected tag stops answering REQA until the field is reset."""
        frame = bytes((HLTA, 0x00))
        self.transceive(frame + crc_a(frame))

    def inventory(self, max_tags: int) -> "list[bytes] | None":
        """UIDs of up to ``max_tags`` tags in the field (after a field reset); None if the chip is dead."""
        uids = []  # type: list[bytes]
        self.write(COLL, 0x00)  # ValuesAfterColl off: bits after a collision read as 0
        while len(uids) < max_tags:
            status = self.request()
            if status == NO_CHIP:
                return None
            if status not in (OK, COLLISION):
                break
            uid = self.select()
            if uid is None:
                break
            if uid not in uids:
                uids.append(uid)
            self.halt()
        return uids
