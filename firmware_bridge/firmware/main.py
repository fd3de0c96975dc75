# mypy: ignore-errors
"""Seat-unit entry point: copy to the unit as ``/main.py`` next to the ``seatfw`` package.

Builds the hardware on the reference pins, boots the firmware and polls it forever. A
watchdog resets the unit if the loop ever hangs; the host then sees a new HELLO and asks
for a snapshot, so nothing is lost but time (PROTOCOL.md "Sequence numbers").
"""

import time

import machine
from seatfw import board, usbport
from seatfw.app import Config, SeatFirmware
from seatfw.ticks import Ticks

MAX_FAILURES = 20


def main() -> None:
    """Run the seat unit."""
    watchdog = machine.WDT(timeout=4000)
    hw = board.build(machine, time.sleep_us)
    firmware = SeatFirmware(hw, usbport.UsbPort(), Ticks(time.ticks_ms), Config())
    firmware.boot()
    failures = 0
    while True:
        watchdog.feed()
        try:
            firmware.poll()
            failures = 0
        except Exception:  # keep the seat alive; the watchdog is the last resort
            failures += 1
            if failures > MAX_FAILURES:
                machine.reset()
        wait = firmware.ms_until_due()
        if wait > 0:
            time.sleep_ms(min(wait, 2))


main()
