"""Hardware in the loop: runs only when an environment variable names a real device.

``BRIDGE_NFC_URL=nfc:tty:AMA1:pn532?reader=N.play`` -- put one tag on the reader when asked;
``BRIDGE_GPIO_URL=gpio:rpigpio?button.N=5&led.N=12`` -- press the button when asked.
"""

from __future__ import annotations

import os

import pytest

import drivers
from controller.sensing.events import ButtonPressed, TagSeen
from tests.drivers.conftest import EventLog, TickClock

HARDWARE_WAIT = 30.0


@pytest.mark.skipif("BRIDGE_NFC_URL" not in os.environ, reason="no real NFC reader named (BRIDGE_NFC_URL)")
def test_a_real_reader_comes_up_and_sees_a_tag(clock: TickClock, log: EventLog) -> None:
    source = drivers.open_source(os.environ["BRIDGE_NFC_URL"], clock, name="hil")
    source.start(log)
    try:
        log.health(up=True, timeout=HARDWARE_WAIT)
        print(f"\nput a tag on {source.name}")
        tag = log.wait_for(lambda e: isinstance(e, TagSeen), timeout=HARDWARE_WAIT)
        assert isinstance(tag, TagSeen) and tag.uid == tag.uid.upper()
    finally:
        source.stop()


@pytest.mark.skipif("BRIDGE_GPIO_URL" not in os.environ, reason="no real GPIO pins named (BRIDGE_GPIO_URL)")
def test_real_pins_come_up_and_report_a_press(clock: TickClock, log: EventLog) -> None:
    source = drivers.open_source(os.environ["BRIDGE_GPIO_URL"], clock)
    source.start(log)
    try:
        log.health(up=True, timeout=HARDWARE_WAIT)
        print("\npress a call-the-arbiter button")
        log.wait_for(lambda e: isinstance(e, ButtonPressed), timeout=HARDWARE_WAIT)
    finally:
        source.stop()
