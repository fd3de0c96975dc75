"""Reference wiring of a seat unit on a Raspberry Pi Pico (RP2040), and ``build`` from it.

GPIO numbers (``firmware/README.md`` has the full pin table and the matrix drawing):

- bidding-box matrix: rows GP0-GP4 (open drain), columns GP5-GP12 (inputs, pull-ups);
  slot ``8 * row + column`` in the order of PROTOCOL.md (1C, 1D, ... 7NT, Pass, X, XX, Stop, Alert);
- buzzer GP13 (active buzzer through a transistor), director button GP14 (to ground),
  LED GP15 (through a resistor to ground);
- SPI0: MISO GP16, SCK GP18, MOSI GP19; play-zone MFRC522 CS GP17, RST GP20;
  spread-zone MFRC522 CS GP21, RST GP22;
- seat jumpers GP26 and GP27 (to ground when fitted): none N, GP26 E, GP27 S, both W;
- the spread zone's pad board (hardware/spread-zone.md): its MFRC522 on the spread-zone
  CS and RST, its two 74HC595 on MOSI and SCK, latched by GP28.

``SPREAD_PADS`` says whether the unit has a pad board: 16 (its pads, read one at a time)
or 0 for a unit without one, whose spread reader is a module read through its own antenna.
"""

from .app import SeatHardware
from .matrix import ContactMatrix
from .mfrc522 import MFRC522
from .pads import PadSelect

TYPE_CHECKING = False  # type checkers take it as True; MicroPython has no typing module

if TYPE_CHECKING:
    from .hal import DelayUs, Machine

ROW_PINS = (0, 1, 2, 3, 4)
COL_PINS = (5, 6, 7, 8, 9, 10, 11, 12)
BUZZER_PIN = 13
BUTTON_PIN = 14
LED_PIN = 15
SPI_ID = 0
SPI_BAUDRATE = 4000000
MISO_PIN = 16
SCK_PIN = 18
MOSI_PIN = 19
PLAY_CS_PIN = 17
PLAY_RST_PIN = 20
SPREAD_CS_PIN = 21
SPREAD_RST_PIN = 22
SEAT_PINS = (26, 27)
PAD_LATCH_PIN = 28
SPREAD_PADS = 16
"""Pads of the spread zone's pad board; set 0 before copying to a unit without a pad board."""
SEATS = "NESW"


def read_seat(machine: "Machine") -> str:
    """The seat set by the jumpers on ``SEAT_PINS`` (a fitted jumper reads 0)."""
    pin = machine.Pin
    index = 0
    for bit, number in enumerate(SEAT_PINS):
        if not pin(number, pin.IN, pin.PULL_UP).value():
            index |= 1 << bit
    return SEATS[index]


def build(machine: "Machine", settle: "DelayUs | None" = None, play: bool = True, spread: bool = True,
          bidding_box: bool = True, spread_pads: int = SPREAD_PADS) -> SeatHardware:
    """The seat unit's parts on the reference pins, through ``machine`` (real or simulated).

    ``spread_pads`` > 0: the spread reader sits on a pad board of that many pads, selected
    through the shift registers latched by ``PAD_LATCH_PIN``.
    """
    pin = machine.Pin
    matrix = None
    if bidding_box:
        rows = [pin(n, pin.OPEN_DRAIN, value=1) for n in ROW_PINS]
        cols = [pin(n, pin.IN, pin.PULL_UP) for n in COL_PINS]
        matrix = ContactMatrix(rows, cols, settle)
    spi = machine.SPI(SPI_ID, baudrate=SPI_BAUDRATE, polarity=0, phase=0,
                      sck=pin(SCK_PIN), mosi=pin(MOSI_PIN), miso=pin(MISO_PIN))
    play_reader = None
    if play:
        play_reader = MFRC522(spi, pin(PLAY_CS_PIN, pin.OUT, value=1), pin(PLAY_RST_PIN, pin.OUT, value=1))
    spread_reader = None
    pads = None
    if spread:
        spread_reader = MFRC522(spi, pin(SPREAD_CS_PIN, pin.OUT, value=1),
                                pin(SPREAD_RST_PIN, pin.OUT, value=1))
        if spread_pads > 0:
            pads = PadSelect(spi, pin(PAD_LATCH_PIN, pin.OUT, value=0), spread_pads)
    return SeatHardware(
        seat=read_seat(machine),
        unit_id=bytes(machine.unique_id()),
        matrix=matrix,
        button=pin(BUTTON_PIN, pin.IN, pin.PULL_UP),
        led=pin(LED_PIN, pin.OUT, value=0),
        buzzer=pin(BUZZER_PIN, pin.OUT, value=0),
        play=play_reader,
        spread=spread_reader,
        pads=pads,
    )
