"""The small interfaces every driver backend implements.

A backend turns one piece of hardware into timestamped raw sensor events
(``controller.sensing.events``) and knows nothing of bridge. It is opened from a URL-like
string of the table config (``drivers.open_source``), takes an injected clock, and runs its
own reader thread(s), which only read, frame, debounce and hand events to ``emit``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from controller.sensing.events import DeviceHealth, RawEvent

__all__ = ["Clock", "Emit", "EventSource", "Indicator", "monotonic"]

Clock = Callable[[], float]
"""Seconds, monotonic; injected so that tests control time."""

Emit = Callable[[RawEvent], None]
"""Where a backend hands its events; called from the backend's reader thread."""

monotonic: Clock = time.monotonic


class EventSource(Protocol):
    """A device that reports raw sensor events.

    ``start`` opens the device and starts the reader thread(s), which call ``emit`` for
    each event (including ``DeviceHealth`` when the device goes down or comes back);
    ``stop`` stops them and closes the device, and may be called twice. ``health`` is the
    latest health report. A backend never raises out of its reader thread: failures become
    ``DeviceHealth(up=False)`` and the backend keeps trying to reopen the device.
    """

    name: str

    def start(self, emit: Emit) -> None: ...

    def stop(self) -> None: ...

    def health(self) -> DeviceHealth: ...


class Indicator(Protocol):
    """Outputs at a seat: the LED and the buzzer (``seat`` is ``N``, ``E``, ``S`` or ``W``)."""

    def set_led(self, seat: str, on: bool) -> None: ...

    def buzz(self, seat: str, milliseconds: int) -> None: ...
