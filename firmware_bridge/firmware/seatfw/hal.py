"""What the firmware uses of MicroPython's ``machine`` module and of its serial port.

For type checkers only: firmware modules import this under ``if TYPE_CHECKING`` (which is
False on MicroPython), so it is never imported on the unit and need not be copied there.
``firmware_bridge.sim_machine`` implements the same shapes for CPython.
"""

from collections.abc import Callable
from typing import Protocol, overload


class Pin(Protocol):
    """A GPIO pin: ``value()`` reads the level, ``value(x)`` drives it."""

    @overload
    def value(self) -> int: ...

    @overload
    def value(self, x: int) -> None: ...


class PinClass(Protocol):
    """``machine.Pin``: its mode and pull constants, and the constructor."""

    IN: int
    OUT: int
    OPEN_DRAIN: int
    PULL_UP: int
    PULL_DOWN: int

    def __call__(self, id: int, mode: int = -1, pull: int = -1, *, value: int | None = None) -> Pin: ...


class Spi(Protocol):
    """An SPI bus (chip select is a separate ``Pin``)."""

    def write(self, buf: bytes | bytearray) -> None: ...

    def write_readinto(self, write_buf: bytes | bytearray, read_buf: bytearray) -> None: ...


class SpiClass(Protocol):
    """``machine.SPI``: the constructor of a hardware SPI bus."""

    def __call__(self, id: int, *, baudrate: int, polarity: int = 0, phase: int = 0,
                 sck: Pin | None = None, mosi: Pin | None = None, miso: Pin | None = None) -> Spi: ...


class Machine(Protocol):
    """The parts of the ``machine`` module that ``board.build`` uses."""

    @property
    def Pin(self) -> PinClass: ...

    @property
    def SPI(self) -> SpiClass: ...

    def unique_id(self) -> bytes: ...


class Port(Protocol):
    """The byte link to the Pi: ``read`` never blocks and returns what has arrived."""

    def read(self) -> bytes: ...

    def write(self, data: bytes) -> None: ...


DelayUs = Callable[[int], None]
MsClock = Callable[[], int]
