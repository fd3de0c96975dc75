"""Seat-unit backend: one RP2040 seat unit over USB serial as an ``EventSource`` and ``Indicator``.

hardware/README.md (reference wiring: one seat unit per seat, ``firmware_bridge``
protocol over pyserial) and "Raw sensor events". The unit sends whole ``State`` snapshots;
this backend diffs successive snapshots into raw sensor events, so a lost frame heals with
the next snapshot instead of losing an event:

- ``ContactChanged(seat, slot, present, t)`` for each bidding-box slot that changed
  (slots ``1C``..``7NT``, ``Pass``, ``X``, ``XX``, ``Stop``, ``Alert``);
- ``TagSeen``/``TagGone(reader, uid, t)`` per reader ``<seat>.play`` and ``<seat>.spread``,
  UIDs as upper-case hex;
- ``ButtonPressed(seat, "director", t)`` once per press the unit counted;
- ``DeviceHealth`` for the unit (``<seat>.unit``: link up or down) and for each reader
  (``<seat>.play``, ``<seat>.spread``: answering or not).

Before the first snapshot the table is taken to be tidy (every bidding card in its slot,
no tag, button up), so the first snapshot reports what differs from that. Across a link
drop the last snapshot is kept, so the first one after reconnection reports what changed
meanwhile. A reader that stops answering reports no tags; its last tags are kept (no
``TagGone``) until it answers again.

Open with ``open_seatunit("serial:///dev/ttyACM0?seat=N", clock)``; the port part may be
any pyserial URL (``serial://loop://?seat=N``, ``serial://socket://host:7000?seat=E``).
"""

from __future__ import annotations

import logging
import threading
from urllib.parse import parse_qsl, urlencode

from controller.sensing.events import (
    ButtonPressed,
    ContactChanged,
    DeviceHealth,
    RawEvent,
    TagGone,
    TagSeen,
)
from drivers.base import Clock, Emit, monotonic
from firmware_bridge.link import LinkStatus, PortOpener, SeatLink, Wait
from firmware_bridge.messages import (
    SEATS,
    SLOTS,
    ZONES,
    Buzzer,
    Capability,
    DeviceMessage,
    Led,
    LedMode,
    State,
    slot_mask,
)

__all__ = ["SeatUnit", "open_seatunit", "parse_seatunit_url"]

log = logging.getLogger(__name__)

SCHEME = "serial://"
_ALL_IN = slot_mask(SLOTS)
_LED_RESEND = 0.5
_ZONE_CAPABILITY = {"play": Capability.PLAY_READER, "spread": Capability.SPREAD_READER}


def parse_seatunit_url(url: str) -> tuple[str, str, int]:
    """``(port_url, seat, baudrate)`` of ``serial://PORT?seat=N[&baudrate=B]``; raises ``ValueError``.

    Parameters other than ``seat`` and ``baudrate`` stay on the pyserial URL.
    """
    if not url.startswith(SCHEME):
        raise ValueError(f"seat-unit URL {url!r} does not start with {SCHEME}")
    rest = url[len(SCHEME):]
    port, _, query = rest.partition("?")
    params = parse_qsl(query, keep_blank_values=True)
    seat = next((v for k, v in params if k == "seat"), None)
    if seat is None:
        raise ValueError(f"seat-unit URL {url!r} has no seat (add ?seat=N)")
    seat = seat.upper()
    if seat not in SEATS:
        raise ValueError(f"seat {seat!r} in seat-unit URL {url!r} is not one of N, E, S, W")
    baud_text = next((v for k, v in params if k == "baudrate"), "115200")
    try:
        baudrate = int(baud_text)
    except ValueError:
        raise ValueError(f"baudrate {baud_text!r} in seat-unit URL {url!r} is not a number") from None
    others = [(k, v) for k, v in params if k not in ("seat", "baudrate")]
    if others:
        port = f"{port}?{urlencode(others)}"
    if not port:
        raise ValueError(f"seat-unit URL {url!r} names no port")
    return port, seat, baudrate


class SeatUnit:
    """The seat unit of ``seat`` on the serial port ``port`` (a pyserial URL or device path)."""

    def __init__(self, port: str, seat: str, clock: Clock = monotonic, *, baudrate: int = 115200,
                 open_port: PortOpener | None = None, wait: Wait | None = None,
                 backoff: tuple[float, float] = (0.1, 2.0)) -> None:
        if seat not in SEATS:
            raise ValueError(f"seat {seat!r} is not one of N, E, S, W")
        self.seat = seat
        self.port = port
        self.name = f"{seat}.unit"
        self._clock = clock
        self._lock = threading.Lock()
        self._emit: Emit | None = None
        self._health = DeviceHealth(self.name, False, "not started", clock())
        self._mask = _ALL_IN
        self._tags: dict[str, tuple[bytes, ...]] = {zone: () for zone in ZONES}
        self._reader_up: dict[str, bool] = {zone: True for zone in ZONES}
        self._presses: int | None = None
        self._uptime: tuple[int, float] | None = None
        self._capabilities = Capability(0)
        self._wrong_seat = False
        self._led = LedMode.OFF
        self._led_period = 500
        self._led_sent = float("-inf")
        self.link = SeatLink(port, on_message=self._on_message, on_status=self._on_status, clock=clock,
                             wait=wait, open_port=open_port, baudrate=baudrate, backoff=backoff)

    # -- EventSource

    def start(self, emit: Emit) -> None:
        """Start the link's reader thread; events go to ``emit`` from that thread."""
        self._emit = emit
        self.link.start()

    def stop(self) -> None:
        """Stop the reader thread and close the port (may be called twice)."""
        self.link.stop()

    def health(self) -> DeviceHealth:
        """The latest health report of the unit."""
        with self._lock:
            return self._health

    # -- Indicator

    def set_led(self, seat: str, on: bool) -> None:
        """Light the seat LED or put it out; the unit's snapshots confirm it (resent if lost)."""
        self._command_led(seat, LedMode.ON if on else LedMode.OFF, self._led_period)

    def blink(self, seat: str, period_ms: int = 500) -> None:
        """Blink the seat LED with ``period_ms``."""
        self._command_led(seat, LedMode.BLINK, period_ms)

    def buzz(self, seat: str, milliseconds: int) -> None:
        """Sound the seat buzzer for ``milliseconds`` (the unit caps it at 10 s)."""
        self._check_seat(seat)
        self.link.send(Buzzer(max(0, min(milliseconds, 0xFFFF))))

    def _check_seat(self, seat: str) -> None:
        if seat != self.seat:
            raise ValueError(f"the seat unit of {self.seat} cannot drive the indicators of seat {seat!r}")

    def _command_led(self, seat: str, mode: LedMode, period_ms: int) -> None:
        self._check_seat(seat)
        with self._lock:
            self._led = mode
            self._led_period = period_ms
            self._led_sent = self._clock()
        self.link.send(Led(mode, period_ms))

    # -- from the link (reader thread)

    def _send(self, events: list[RawEvent]) -> None:
        emit = self._emit
        if emit is None:
            return
        for event in events:
            emit(event)

    def _set_health(self, up: bool, detail: str, t: float) -> list[RawEvent]:
        with self._lock:
            if self._health.up == up and self._health.detail == detail:
                return []
            self._health = DeviceHealth(self.name, up, detail, t)
            return [self._health]

    def _on_status(self, status: LinkStatus) -> None:
        events: list[RawEvent] = []
        if status.up and status.hello is not None:
            self._capabilities = status.hello.capabilities
            if status.hello.seat != self.seat:
                self._wrong_seat = True
                detail = (f"the unit on {self.port} is set for seat {status.hello.seat}, "
                          f"the table config says {self.seat}")
                events += self._set_health(False, detail, status.t)
            else:
                self._wrong_seat = False
                events += self._set_health(True, status.detail, status.t)
        elif not status.up:
            events += self._set_health(False, status.detail, status.t)
        self._send(events)

    def _on_message(self, message: DeviceMessage, t: float) -> None:
        if isinstance(message, State) and not self._wrong_seat:
            self._send(self.diff(message, t))
            self._reconcile_led(message, t)

    def diff(self, state: State, t: float) -> list[RawEvent]:
        """The raw events that take the last known seat to ``state`` (and remember it)."""
        seat = self.seat
        events: list[RawEvent] = []
        for zone in ZONES:
            reader = f"{seat}.{zone}"
            ok = state.reader_ok(zone)
            fitted = not self._capabilities or bool(self._capabilities & _ZONE_CAPABILITY[zone])
            if fitted and ok != self._reader_up[zone]:
                detail = "reader answers" if ok else "reader does not answer"
                events.append(DeviceHealth(reader, ok, detail, t))
            self._reader_up[zone] = ok
            if not ok:
                continue
            old, new = self._tags[zone], state.tags(zone)
            events += [TagGone(reader, uid.hex().upper(), t) for uid in old if uid not in new]
            events += [TagSeen(reader, uid.hex().upper(), t) for uid in new if uid not in old]
            self._tags[zone] = new
        changed = self._mask ^ state.mask
        index = 0
        while changed:
            if changed & 1:
                events.append(ContactChanged(seat, SLOTS[index], bool(state.mask >> index & 1), t))
            changed >>= 1
            index += 1
        self._mask = state.mask
        if self._presses is not None:
            base = 0 if self._rebooted(state.uptime_ms, t) else self._presses
            events += [ButtonPressed(seat, "director", t)] * ((state.presses - base) & 0xFF)
        self._presses = state.presses
        self._uptime = (state.uptime_ms, t)
        return events

    def _rebooted(self, uptime_ms: int, t: float) -> bool:
        """True if the unit restarted since the last snapshot: its uptime grew less than our clock."""
        if self._uptime is None:
            return False
        last_uptime, last_t = self._uptime
        grew = ((uptime_ms - last_uptime + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)
        elapsed = (t - last_t) * 1000
        return grew + 500 + 0.02 * elapsed < elapsed

    def _reconcile_led(self, state: State, t: float) -> None:
        with self._lock:
            mode, period = self._led, self._led_period
            due = state.led != mode and t - self._led_sent >= _LED_RESEND
            if due:
                self._led_sent = t
        if due:
            self.link.send(Led(mode, period))


def open_seatunit(url: str, clock: Clock = monotonic) -> SeatUnit:
    """The seat unit named by ``url`` (``serial:///dev/ttyACM0?seat=N``), not yet started."""
    port, seat, baudrate = parse_seatunit_url(url)
    return SeatUnit(port, seat, clock, baudrate=baudrate)
