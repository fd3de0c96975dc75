"""The Pi's own GPIO through the ``RPi.GPIO`` API: buttons, LEDs, buzzers and bidding-box contacts.

On a Pi 4 the API is RPi.GPIO; on a Pi 5 it is rpi-lgpio (the same ``RPi.GPIO`` module on
top of lgpio). Opened from ``gpio:rpigpio`` with a pin map (``drivers.config.GpioPins``, from
the ``[gpio]`` table of the table config) or with the pin map in the URL:
``gpio:rpigpio?numbering=BCM&bouncetime=30&button.N=5&led.N=12&buzzer.N=18&contact.E.Pass=22``.

- A call-the-arbiter button is an input with the pull-up, closing to ground; a falling edge
  (``add_event_detect(pin, FALLING, callback, bouncetime)``) that still reads low when the
  callback runs is ``ButtonPressed(seat, "director", t)`` (the check drops the short glitches
  of a bouncing release).
- A bidding-box contact is an input watched on both edges; each callback reads the pin and
  reports ``ContactChanged`` when the card's presence differs from the last one reported. On
  start (and when the pins come back) every contact's state is reported once.
- LEDs and buzzers are outputs; ``GpioSource`` is also the seats' ``Indicator``.

Callbacks come from the library's own thread (RPi.GPIO's or lgpio's); they only read the pin
and hand the event to ``emit``. If the pins cannot be set up (no GPIO chip, pins busy), the
source reports ``DeviceHealth(up=False)`` and tries again every ``retry`` seconds.
``RPi.GPIO`` is one per process: use one ``GpioSource`` at a time; stopping it (or a failed
set-up) cleans up all of ``RPi.GPIO`` (every pin an input again, the chip closed, the pin
numbering forgotten), so that the next start opens the chip afresh.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from urllib.parse import parse_qsl, urlencode

import RPi.GPIO as GPIO  # type: ignore[import-untyped]

from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth
from drivers.base import Clock, Emit, monotonic
from drivers.config import SEATS, ConfigError, GpioPins

__all__ = ["GpioSource"]

log = logging.getLogger(__name__)


class GpioSource:
    """The Pi's buttons and bidding-box contacts as an ``EventSource``; LEDs, buzzers as an ``Indicator``."""

    def __init__(self, pins: GpioPins, clock: Clock = monotonic, *, name: str = "gpio",
                 retry: float = 1.0) -> None:
        if retry <= 0:
            raise ConfigError(f"GPIO source {name}: retry must be positive, not {retry}")
        self.name = name
        self.pins = pins
        self._clock = clock
        self._retry = retry
        self._buttons = {pin: seat for seat, pin in pins.buttons}
        self._contacts = {pin: (seat, slot) for seat, slot, pin in pins.contacts}
        self._leds = dict(pins.leds)
        self._buzzers = dict(pins.buzzers)
        self._lock = threading.RLock()
        self._emit: Emit | None = None
        self._running = False
        self._up = False
        self._claimed: list[int] = []
        self._watched: list[int] = []
        self._present: dict[int, bool] = {}
        self._led_on: dict[str, bool] = {}
        self._timers: dict[str, threading.Timer] = {}
        self._stop = threading.Event()
        self._retrier: threading.Thread | None = None
        self._health = DeviceHealth(name, False, "not started", clock())
        self._reported_up: bool | None = None

    @classmethod
    def from_url(cls, url: str, clock: Clock = monotonic, *, pins: GpioPins | None = None,
                 name: str | None = None) -> GpioSource:
        """Open ``gpio:rpigpio[?pin map and options]``; ``pins`` is the pin map of the table config."""
        scheme, _, after = url.partition(":")
        backend, _, query = after.partition("?")
        if scheme != "gpio" or backend != "rpigpio":
            raise ConfigError(f"{url!r}: the GPIO backend is gpio:rpigpio (RPi.GPIO or rpi-lgpio)")
        retry: str | None = None
        rest: list[tuple[str, str]] = []
        for key, value in parse_qsl(query, keep_blank_values=True):
            if key == "retry":
                retry = value
            else:
                rest.append((key, value))
        rest_query = urlencode(rest)
        if pins is not None and rest_query:
            raise ConfigError(f"{url!r}: the pin map comes from the config; the URL may not add to it")
        if pins is None:
            pins = GpioPins.from_query(rest_query, url)
        try:
            retry_s = 1.0 if retry is None else float(retry)
        except ValueError:
            raise ConfigError(f"{url!r}: retry must be a number of seconds") from None
        return cls(pins, clock, name=name or "gpio", retry=retry_s)

    def __repr__(self) -> str:
        return f"GpioSource({self.pins!r})"

    # -- EventSource ----------------------------------------------------------------------

    def start(self, emit: Emit) -> None:
        with self._lock:
            if self._running:
                return
            self._running = True
            self._emit = emit
            self._reported_up = None
            self._stop.clear()
            if self._set_up():
                return
            self._retrier = threading.Thread(target=self._retry_set_up, name=f"{self.name} retry",
                                             daemon=True)
            self._retrier.start()

    def stop(self) -> None:
        with self._lock:
            if not self._running:
                return
            self._running = False
            self._stop.set()
            retrier, self._retrier = self._retrier, None
        if retrier is not None:
            retrier.join(timeout=10)
        with self._lock:
            for timer in self._timers.values():
                timer.cancel()
            self._timers.clear()
            self._up = False   # callbacks still on their way find nothing to report
            self._health = DeviceHealth(self.name, False, "stopped", self._clock())
        self._release()   # outside the lock: the library may wait for its callback thread

    def health(self) -> DeviceHealth:
        return self._health

    # -- Indicator ------------------------------------------------------------------------

    def set_led(self, seat: str, on: bool) -> None:
        """Light or put out ``seat``'s LED (remembered, and set again when the pins come back)."""
        _check_seat(seat)
        with self._lock:
            self._led_on[seat] = on
            pin = self._leds.get(seat)
            if pin is not None and self._up:
                self._output(pin, on)

    def buzz(self, seat: str, milliseconds: int) -> None:
        """Sound ``seat``'s buzzer for ``milliseconds`` (nothing when the seat has none)."""
        _check_seat(seat)
        with self._lock:
            pin = self._buzzers.get(seat)
            if pin is None or not self._up or milliseconds <= 0:
                return
            old = self._timers.pop(seat, None)
            if old is not None:
                old.cancel()
            self._output(pin, True)
            timer = threading.Timer(milliseconds / 1000, self._buzz_off, args=(seat, pin))
            timer.daemon = True
            self._timers[seat] = timer
            timer.start()

    def _buzz_off(self, seat: str, pin: int) -> None:
        with self._lock:
            self._timers.pop(seat, None)
            if self._up:
                self._output(pin, False)

    def _output(self, pin: int, on: bool) -> None:
        try:
            GPIO.output(pin, GPIO.HIGH if on else GPIO.LOW)
        except Exception as exc:   # an indicator never takes the table down
            log.warning("%s: cannot set pin %s: %s", self.name, pin, exc)

    # -- setting the pins up ------------------------------------------------------------

    def _set_up(self) -> bool:
        """Claim and configure every pin; report health; False (all released) when it failed."""
        pins = self.pins
        bounce = {"bouncetime": pins.bouncetime_ms} if pins.bouncetime_ms > 0 else {}
        contact_pull = GPIO.PUD_UP if pins.contacts_active_low else GPIO.PUD_DOWN
        try:
            GPIO.setwarnings(False)
            GPIO.setmode(GPIO.BCM if pins.numbering == "BCM" else GPIO.BOARD)
            for seat, pin in (*pins.leds, *pins.buzzers):
                on = self._led_on.get(seat, False) and seat in self._leds and self._leds[seat] == pin
                self._claimed.append(pin)
                GPIO.setup(pin, GPIO.OUT, initial=GPIO.HIGH if on else GPIO.LOW)
            for pin in self._buttons:
                self._claimed.append(pin)
                GPIO.setup(pin, GPIO.IN, pull_up_down=GPIO.PUD_UP)
                self._watched.append(pin)
                GPIO.add_event_detect(pin, GPIO.FALLING, callback=self._on_button, **bounce)
            for pin in self._contacts:
                self._claimed.append(pin)
                GPIO.setup(pin, GPIO.IN, pull_up_down=contact_pull)
                self._present[pin] = self._reads_present(pin)
                self._watched.append(pin)
                GPIO.add_event_detect(pin, GPIO.BOTH, callback=self._on_contact, **bounce)
        except Exception as exc:   # RuntimeError from RPi.GPIO, lgpio.error from rpi-lgpio
            self._release()
            self._report(False, f"cannot set up the GPIO pins: {exc}")
            return False
        self._up = True
        self._report(True, f"{len(self._claimed)} pins ({pins.numbering}) through {GPIO.__name__}")
        for pin, (seat, slot) in self._contacts.items():
            self._present[pin] = self._reads_present(pin)   # read again: its callbacks were not yet heard
            self._send(ContactChanged(seat, slot, self._present[pin], self._clock()))
        return True

    def _retry_set_up(self) -> None:
        while not self._stop.wait(self._retry):
            with self._lock:
                if not self._running or self._set_up():
                    return

    def _release(self) -> None:
        self._up = False
        for pin in self._watched:
            with contextlib.suppress(Exception):
                GPIO.remove_event_detect(pin)
        for pin in self._claimed:
            if pin in self._leds.values() or pin in self._buzzers.values():
                with contextlib.suppress(Exception):
                    GPIO.output(pin, GPIO.LOW)
        with contextlib.suppress(Exception):
            GPIO.cleanup()   # every pin back to an input, the chip closed, the numbering forgotten
        self._watched, self._claimed = [], []
        self._present.clear()

    # -- callbacks, from the library's thread ------------------------------------------

    def _reads_present(self, pin: int) -> bool:
        low = int(GPIO.input(pin)) == 0
        return low if self.pins.contacts_active_low else not low

    def _on_button(self, channel: int) -> None:
        try:
            with self._lock:
                seat = self._buttons.get(channel)
                if seat is None or not self._up or GPIO.input(channel) != GPIO.LOW:
                    return
                event = ButtonPressed(seat, "director", self._clock())
            self._send(event)
        except Exception:
            log.exception("%s: button callback on pin %s failed", self.name, channel)

    def _on_contact(self, channel: int) -> None:
        try:
            with self._lock:
                where = self._contacts.get(channel)
                if where is None or not self._up:
                    return
                present = self._reads_present(channel)
                if self._present.get(channel) == present:
                    return
                self._present[channel] = present
                event = ContactChanged(where[0], where[1], present, self._clock())
            self._send(event)
        except Exception:
            log.exception("%s: contact callback on pin %s failed", self.name, channel)

    def _send(self, event: ContactChanged | ButtonPressed | DeviceHealth) -> None:
        emit = self._emit
        if emit is None:
            return
        try:
            emit(event)
        except Exception:   # the receiver's failure must not take the library's thread down
            log.exception("%s: emit(%r) failed", self.name, event)

    def _report(self, up: bool, detail: str) -> None:
        self._health = DeviceHealth(self.name, up, detail, self._clock())
        if up != self._reported_up:
            self._reported_up = up
            (log.info if up else log.warning)("%s is %s: %s", self.name, "up" if up else "down", detail)
            self._send(self._health)


def _check_seat(seat: str) -> None:
    if seat not in SEATS:
        raise ValueError(f"seat must be one of N E S W, not {seat!r}")
