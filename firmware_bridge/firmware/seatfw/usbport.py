"""The unit's byte links to the Pi: USB CDC serial (the reference) or a hardware UART.

On the USB port MicroPython's REPL shares stdin/stdout: ``UsbPort`` turns off Ctrl-C
handling (``micropython.kbd_intr(-1)``) so that 0x03 bytes in frames reach us, and uses
the binary ``.buffer`` streams, which do no newline translation.
"""

import select
import sys

TYPE_CHECKING = False  # type checkers take it as True; MicroPython has no typing module

if TYPE_CHECKING:
    from typing import Any


class UsbPort:
    """USB CDC serial through ``sys.stdin.buffer`` / ``sys.stdout.buffer``; ``read`` never blocks."""

    def __init__(self, chunk: int = 128) -> None:
        import micropython  # type: ignore[import-not-found, unused-ignore]

        micropython.kbd_intr(-1)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._chunk = chunk

    def read(self) -> bytes:
        out = bytearray()
        while len(out) < self._chunk and self._poll.poll(0):
            b = self._in.read(1)
            if not b:
                break
            out.extend(b)
        return bytes(out)

    def write(self, data: bytes) -> None:
        try:  # noqa: SIM105 - no contextlib on MicroPython
            self._out.write(data)
        except OSError:
            pass  # host not listening: frames are snapshots, the next one heals


class UartPort:
    """A ``machine.UART`` (for a unit wired to the Pi's UART instead of USB)."""

    def __init__(self, uart: "Any") -> None:
        self.uart = uart

    def read(self) -> bytes:
        n = self.uart.any()
        if not n:
            return b""
        data = self.uart.read(n)
        return bytes(data) if data else b""

    def write(self, data: bytes) -> None:
        self.uart.write(data)
