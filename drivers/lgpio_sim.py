"""A simulated ``lgpio``: the functions rpi-lgpio calls, on a simulated gpiochip a test drives.

``install()`` puts this module in ``sys.modules['lgpio']`` (and rebinds an already imported
``RPi.GPIO`` of rpi-lgpio to it), so that rpi-lgpio's real ``RPi.GPIO`` runs on top of it on
any machine. It mirrors the lgpio Python binding: the same function names, arguments,
constants, error codes and ``error`` exception (raised for a negative status, as lgpio does
with ``exceptions = True``), handles that carry the chip number in bits 16 and up, and
alerts delivered to ``callback`` functions as ``func(chip, gpio, level, tick)`` from a
notification thread of its own, never the caller's.

The chip (``SimChip``) has a virtual clock in nanoseconds. A test drives an input with
``drive(gpio, level, after_us=...)`` (the level a switch forces; ``release`` lets the pull
resistor decide again) and moves time with ``advance(us)``. As in the kernel, an alert is
issued only for the edges its claim asked for, and, with a debounce time set, only when a
new level has been stable for that long; it is then timestamped the debounce time after the
change. Outputs are observed with ``level(gpio)``, ``writes`` and ``wait_for_level``.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "SimChip", "callback", "error", "error_text", "gpio_claim_alert", "gpio_claim_input",
    "gpio_claim_output", "gpio_free", "gpio_get_chip_info", "gpio_get_line_info", "gpio_get_mode",
    "gpio_read", "gpio_set_debounce_micros", "gpio_set_watchdog_micros", "gpio_write",
    "gpiochip_close", "gpiochip_open", "install", "tx_pwm", "uninstall",
]

# -- constants, with lgpio's values ------------------------------------------------------------

LGPIO_PY_VERSION = 0x00020200
OFF = LOW = CLEAR = 0
ON = HIGH = SET = 1
TIMEOUT = 2
SET_ACTIVE_LOW = 4
SET_OPEN_DRAIN = 8
SET_OPEN_SOURCE = 16
SET_PULL_UP = 32
SET_PULL_DOWN = 64
SET_PULL_NONE = 128
SET_BIAS_PULL_UP = SET_PULL_UP
SET_BIAS_PULL_DOWN = SET_PULL_DOWN
SET_BIAS_DISABLE = SET_PULL_NONE
RISING_EDGE = 1
FALLING_EDGE = 2
BOTH_EDGES = 3
TX_PWM = 0
TX_WAVE = 1

OKAY = 0
BAD_HANDLE = -5
GPIO_IN_USE = -11
BAD_GPIO_NUMBER = -73
CANNOT_OPEN_CHIP = -78
GPIO_BUSY = -79
GPIO_NOT_ALLOCATED = -80
NOT_A_GPIOCHIP = -81
BAD_DEBOUNCE_MICS = -98
BAD_WATCHDOG_MICS = -99
BAD_PWM_FREQ = -102
BAD_PWM_DUTY = -103
GPIO_NOT_AN_OUTPUT = -104

_ERRORS = {
    OKAY: "no error",
    BAD_HANDLE: "unknown handle",
    GPIO_IN_USE: "GPIO already in use",
    BAD_GPIO_NUMBER: "bad GPIO number",
    CANNOT_OPEN_CHIP: "can not open gpiochip",
    GPIO_BUSY: "GPIO busy",
    GPIO_NOT_ALLOCATED: "GPIO not allocated",
    NOT_A_GPIOCHIP: "not a gpiochip",
    BAD_DEBOUNCE_MICS: "bad debounce microseconds",
    BAD_WATCHDOG_MICS: "bad watchdog microseconds",
    BAD_PWM_FREQ: "bad PWM frequency",
    BAD_PWM_DUTY: "bad PWM dutycycle",
    GPIO_NOT_AN_OUTPUT: "GPIO not set as an output",
}

exceptions = True
"""As in lgpio: raise ``error`` for a negative status instead of returning it."""

# gpio_get_mode bits
_KERNEL_IN_USE = 1
_KERNEL_OUTPUT = 2
_LG_INPUT = 0x100
_LG_OUTPUT = 0x200
_LG_ALERT = 0x400
_KERNEL_INPUT = 1 << 16
_KERNEL_RISING = 1 << 17
_KERNEL_FALLING = 1 << 18
_PULLS = SET_PULL_UP | SET_PULL_DOWN | SET_PULL_NONE


class error(Exception):   # lgpio's name
    """lgpio's exception: ``value`` is the error text."""

    def __init__(self, value: str) -> None:
        super().__init__(value)
        self.value = value

    def __str__(self) -> str:
        return repr(self.value)


def error_text(errnum: int) -> str:
    """The description of a (negative) lgpio error number."""
    return _ERRORS.get(errnum, "unknown error")


def _status(value: int) -> int:
    if value < 0 and exceptions:
        raise error(error_text(value))
    return value


# -- the simulated chip ----------------------------------------------------------------------

@dataclass(slots=True)
class _Line:
    kind: str | None = None   # None (free) | input | output | alert
    flags: int = 0   # line flags: pulls, active low ...
    edges: int = 0   # alert event flags
    debounce_us: int = 0
    watchdog_us: int = 0
    driven: int | None = None   # the level something outside forces, or None
    output: int = 0
    stable: int = 0   # the level of the last alert (or of the claim)
    pending: tuple[int, int] | None = None   # (time of change, level) waiting out the debounce
    pwm: tuple[float, float] = (0.0, 0.0)


@dataclass(slots=True)
class _Alert:
    chip: int
    gpio: int
    level: int
    tick: int


class SimChip:
    """A simulated gpiochip: ``lines`` GPIO lines whose inputs a test drives (see the module doc).

    ``unavailable`` makes ``gpiochip_open`` fail; ``busy`` holds lines another process has
    claimed (claiming them fails with ``GPIO_BUSY``).
    """

    def __init__(self, number: int = 0, lines: int = 54, label: str = "pinctrl-rp1") -> None:
        self.number = number
        self.label = label
        self._lines = [_Line() for _ in range(lines)]
        self._lock = threading.Condition()
        self.now_ns = 1_000_000_000
        self.unavailable = False
        self.busy: set[int] = set()
        self.writes: list[tuple[int, int]] = []

    def __repr__(self) -> str:
        return f"SimChip({self.number}, lines={len(self._lines)})"

    # -- what a test does ------------------------------------------------------------------

    def drive(self, gpio: int, level: int, *, after_us: int = 0) -> None:
        """After ``after_us`` of virtual time, force ``gpio`` to ``level`` (a switch closing or opening)."""
        self._set_driven(gpio, 1 if level else 0, after_us)

    def release(self, gpio: int, *, after_us: int = 0) -> None:
        """After ``after_us``, stop forcing ``gpio``: its pull resistor sets the level again."""
        self._set_driven(gpio, None, after_us)

    def advance(self, us: int) -> None:
        """Move the chip's clock ``us`` microseconds on, issuing the alerts that fall due."""
        with self._lock:
            self._advance_to(self.now_ns + us * 1000)

    def settle(self) -> None:
        """Advance past every debounce still running."""
        with self._lock:
            due = [line.pending[0] + line.debounce_us * 1000 for line in self._lines if line.pending]
            if due:
                self._advance_to(max(due))

    def level(self, gpio: int) -> int:
        """The level on ``gpio``: what it outputs, what forces it, or its pull."""
        with self._lock:
            return self._level(self._lines[gpio])

    def wait_for_level(self, gpio: int, level: int, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for ``gpio`` to be at ``level`` (an output the code sets)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._level(self._lines[gpio]) == level, timeout)

    def mode(self, gpio: int) -> str | None:
        """How the line is claimed: None, ``input``, ``output`` or ``alert``."""
        with self._lock:
            return self._lines[gpio].kind

    # -- the chip's insides ---------------------------------------------------------------

    @staticmethod
    def _level(line: _Line) -> int:
        if line.kind == "output":
            return line.output
        if line.driven is not None:
            return line.driven
        return 1 if line.flags & SET_PULL_UP else 0

    def _set_driven(self, gpio: int, driven: int | None, after_us: int) -> None:
        with self._lock:
            self._advance_to(self.now_ns + after_us * 1000)
            line = self._lines[gpio]
            before = self._level(line)
            line.driven = driven
            self._changed(gpio, line, before)

    def _changed(self, gpio: int, line: _Line, before: int) -> None:
        after = self._level(line)
        if line.kind != "alert" or after == before:
            return
        if line.debounce_us == 0:
            self._alert(gpio, line, after, self.now_ns)
        elif after == line.stable:
            line.pending = None   # bounced back before the level was stable: nothing happened
        else:
            line.pending = (self.now_ns, after)

    def _advance_to(self, t_ns: int) -> None:
        while True:
            due = [(line.pending[0] + line.debounce_us * 1000, gpio) for gpio, line in enumerate(self._lines)
                   if line.pending is not None and line.pending[0] + line.debounce_us * 1000 <= t_ns]
            if not due:
                break
            when, gpio = min(due)
            line = self._lines[gpio]
            assert line.pending is not None
            self.now_ns = max(self.now_ns, when)
            level = line.pending[1]
            line.pending = None
            self._alert(gpio, line, level, when)
        self.now_ns = max(self.now_ns, t_ns)
        self._lock.notify_all()

    def _alert(self, gpio: int, line: _Line, level: int, tick: int) -> None:
        line.stable = level
        wanted = RISING_EDGE if level else FALLING_EDGE
        if line.edges & wanted:
            _dispatcher.post(_Alert(self.number, gpio, level, tick))

    def _line(self, gpio: int) -> _Line | None:
        return self._lines[gpio] if 0 <= gpio < len(self._lines) else None

    def _claim(self, gpio: int, kind: str, flags: int, output: int = 0, edges: int = 0) -> int:
        with self._lock:
            line = self._line(gpio)
            if line is None:
                return BAD_GPIO_NUMBER
            if gpio in self.busy:
                return GPIO_BUSY
            before = self._level(line)
            line.kind, line.flags, line.edges, line.pending = kind, flags, edges, None
            if kind == "output":
                line.output = 1 if output else 0
                self.writes.append((gpio, line.output))
            else:
                line.debounce_us = 0 if kind == "input" else line.debounce_us
            line.stable = self._level(line)
            if kind == "output" and before != line.output:
                self._lock.notify_all()
            return OKAY

    def _free(self, gpio: int) -> int:
        with self._lock:
            line = self._line(gpio)
            if line is None:
                return BAD_GPIO_NUMBER
            if line.kind is None:
                return GPIO_NOT_ALLOCATED
            line.kind, line.flags, line.edges, line.pending, line.debounce_us = None, 0, 0, None, 0
            return OKAY

    def _read(self, gpio: int) -> int:
        with self._lock:
            line = self._line(gpio)
            if line is None:
                return BAD_GPIO_NUMBER
            if line.kind is None:
                return GPIO_NOT_ALLOCATED
            return self._level(line)

    def _write(self, gpio: int, level: int) -> int:
        with self._lock:
            line = self._line(gpio)
            if line is None:
                return BAD_GPIO_NUMBER
            if line.kind != "output":
                return GPIO_NOT_AN_OUTPUT
            line.output = 1 if level else 0
            self.writes.append((gpio, line.output))
            self._lock.notify_all()
            return OKAY

    def _mode(self, gpio: int) -> int:
        with self._lock:
            line = self._line(gpio)
            if line is None:
                return BAD_GPIO_NUMBER
            if line.kind is None:
                return _KERNEL_INPUT
            kept = _PULLS | SET_ACTIVE_LOW | SET_OPEN_DRAIN | SET_OPEN_SOURCE
            mode = _KERNEL_IN_USE | (line.flags & kept)
            if line.kind == "output":
                return mode | _KERNEL_OUTPUT | _LG_OUTPUT
            mode |= _KERNEL_INPUT | _LG_INPUT
            if line.kind == "alert":
                mode |= _LG_ALERT
                mode |= (_KERNEL_RISING if line.edges & RISING_EDGE else 0)
                mode |= (_KERNEL_FALLING if line.edges & FALLING_EDGE else 0)
            return mode

    def _set_debounce(self, gpio: int, micros: int) -> int:
        with self._lock:
            line = self._line(gpio)
            if line is None:
                return BAD_GPIO_NUMBER
            if not 0 <= micros <= 5_000_000:
                return BAD_DEBOUNCE_MICS
            line.debounce_us = micros
            return OKAY


# -- alert delivery: one notification thread, as lgpio's ------------------------------------

@dataclass(eq=False, slots=True)
class _Callback:
    chip: int
    gpio: int
    edge: int
    func: Callable[[int, int, int, int], Any] | None = None
    count: int = 0


class _Dispatcher:
    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[_Alert] = queue.SimpleQueue()
        self._callbacks: list[_Callback] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def add(self, cb: _Callback) -> None:
        with self._lock:
            self._callbacks.append(cb)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="lgpio-sim notify", daemon=True)
                self._thread.start()

    def remove(self, cb: _Callback) -> None:
        with self._lock:
            if cb in self._callbacks:
                self._callbacks.remove(cb)

    def post(self, alert: _Alert) -> None:
        self._queue.put(alert)

    def _run(self) -> None:
        while True:
            alert = self._queue.get()
            with self._lock:
                callbacks = [cb for cb in self._callbacks if (cb.chip, cb.gpio) == (alert.chip, alert.gpio)]
            for cb in callbacks:
                if cb.func is None:
                    continue
                try:
                    cb.func(alert.chip, alert.gpio, alert.level, alert.tick)
                except Exception as exc:   # as in lgpio, a failing callback does not stop the thread
                    print(f"lgpio-sim callback {cb.func!r} failed: {exc!r}", file=sys.stderr)


_dispatcher = _Dispatcher()
_chips: dict[int, SimChip] = {}
_handles: dict[int, int] = {}   # handle (low 16 bits) -> chip number
_handles_lock = threading.Lock()


class _CallbackHandle:
    """What ``callback`` returns: ``cancel()``, ``tally()``, ``reset_tally()``."""

    def __init__(self, cb: _Callback) -> None:
        self._cb = cb

    def cancel(self) -> None:
        _dispatcher.remove(self._cb)

    def tally(self) -> int:
        return self._cb.count

    def reset_tally(self) -> None:
        self._cb.count = 0


def _chip(handle: int) -> SimChip | None:
    with _handles_lock:
        number = _handles.get(handle & 0xFFFF)
    return None if number is None else _chips.get(number)


def _on_chip(handle: int, action: Callable[[SimChip], int]) -> int:
    chip = _chip(handle)
    return _status(BAD_HANDLE if chip is None else action(chip))


# -- the lgpio functions rpi-lgpio calls -----------------------------------------------------

def get_module_version() -> str:
    return "lgpio-sim_{}.{}.{}.{}".format(*LGPIO_PY_VERSION.to_bytes(4, "big"))


def gpiochip_open(gpiochip: int) -> int:
    """A handle to gpiochip ``gpiochip`` (its number in bits 16 and up)."""
    chip = _chips.get(gpiochip)
    if chip is None:
        return _status(NOT_A_GPIOCHIP)
    if chip.unavailable:
        return _status(CANNOT_OPEN_CHIP)
    with _handles_lock:
        handle = max(_handles, default=-1) + 1
        _handles[handle] = gpiochip
    return handle | (gpiochip << 16)


def gpiochip_close(handle: int) -> int:
    with _handles_lock:
        if _handles.pop(handle & 0xFFFF, None) is None:
            return _status(BAD_HANDLE)
    return OKAY


def gpio_get_chip_info(handle: int) -> list[Any]:
    chip = _chip(handle)
    if chip is None:
        return [_status(BAD_HANDLE), 0, "", ""]
    return [OKAY, len(chip._lines), f"gpiochip{chip.number}", chip.label]


def gpio_get_line_info(handle: int, gpio: int) -> list[Any]:
    chip = _chip(handle)
    if chip is None:
        return [_status(BAD_HANDLE), gpio, 0, "", ""]
    mode = _status(chip._mode(gpio))
    return [OKAY, gpio, mode, f"GPIO{gpio}", "lg" if mode & _KERNEL_IN_USE else ""]


def gpio_get_mode(handle: int, gpio: int) -> int:
    return _on_chip(handle, lambda chip: chip._mode(gpio))


def gpio_claim_input(handle: int, gpio: int, lFlags: int = 0) -> int:
    return _on_chip(handle, lambda chip: chip._claim(gpio, "input", lFlags))


def gpio_claim_output(handle: int, gpio: int, level: int = 0, lFlags: int = 0) -> int:
    return _on_chip(handle, lambda chip: chip._claim(gpio, "output", lFlags, output=level))


def gpio_claim_alert(handle: int, gpio: int, eFlags: int, lFlags: int = 0,
                     notify_handle: int | None = None) -> int:
    return _on_chip(handle, lambda chip: chip._claim(gpio, "alert", lFlags, edges=eFlags))


def gpio_free(handle: int, gpio: int) -> int:
    return _on_chip(handle, lambda chip: chip._free(gpio))


def gpio_read(handle: int, gpio: int) -> int:
    return _on_chip(handle, lambda chip: chip._read(gpio))


def gpio_write(handle: int, gpio: int, level: int) -> int:
    return _on_chip(handle, lambda chip: chip._write(gpio, level))


def gpio_set_debounce_micros(handle: int, gpio: int, debounce_micros: int) -> int:
    return _on_chip(handle, lambda chip: chip._set_debounce(gpio, debounce_micros))


def gpio_set_watchdog_micros(handle: int, gpio: int, watchdog_micros: int) -> int:
    def set_watchdog(chip: SimChip) -> int:
        line = chip._line(gpio)
        if line is None:
            return BAD_GPIO_NUMBER
        if not 0 <= watchdog_micros <= 300_000_000:
            return BAD_WATCHDOG_MICS
        line.watchdog_us = watchdog_micros
        return OKAY
    return _on_chip(handle, set_watchdog)


def tx_pwm(handle: int, gpio: int, pwm_frequency: float, pwm_duty_cycle: float,
           pulse_offset: int = 0, pulse_cycles: int = 0) -> int:
    """Software PWM: recorded on the line (``frequency 0`` stops it); returns the queue room left."""
    def pwm(chip: SimChip) -> int:
        line = chip._line(gpio)
        if line is None:
            return BAD_GPIO_NUMBER
        if line.kind != "output":
            return GPIO_NOT_AN_OUTPUT
        if pwm_frequency and not 0.1 <= pwm_frequency <= 10000:
            return BAD_PWM_FREQ
        if not 0 <= pwm_duty_cycle <= 100:
            return BAD_PWM_DUTY
        line.pwm = (float(pwm_frequency), float(pwm_duty_cycle))
        return 10
    return _on_chip(handle, pwm)


def callback(handle: int, gpio: int, edge: int = RISING_EDGE,
             func: Callable[[int, int, int, int], Any] | None = None) -> _CallbackHandle:
    """Call ``func(chip, gpio, level, tick)`` from the notification thread for each alert on ``gpio``.

    As in lgpio, which edges raise alerts is the claim's business (``gpio_claim_alert``);
    without ``func`` the alerts are only counted (``tally()``).
    """
    cb = _Callback(handle >> 16, gpio, edge)

    def counted(chip: int, line: int, level: int, tick: int) -> None:
        cb.count += 1
        if func is not None:
            func(chip, line, level, tick)

    cb.func = counted
    _dispatcher.add(cb)
    return _CallbackHandle(cb)


# -- installing it ---------------------------------------------------------------------------

def install(chip: SimChip | None = None) -> SimChip:
    """Make ``import lgpio`` (and rpi-lgpio's ``RPi.GPIO``) use this module with ``chip``; return it.

    Also sets ``RPI_LGPIO_REVISION`` (a Pi 5) and ``RPI_LGPIO_CHIP`` unless they are set, so that
    rpi-lgpio imports and finds the chip away from a Pi. A chip installed later under the same
    number replaces the earlier one behind the handles already open.
    """
    chip = chip if chip is not None else SimChip()
    _chips[chip.number] = chip
    os.environ.setdefault("RPI_LGPIO_REVISION", "d04170")
    os.environ.setdefault("RPI_LGPIO_CHIP", str(chip.number))
    module = sys.modules[__name__]
    sys.modules["lgpio"] = module
    rpi_gpio = sys.modules.get("RPi.GPIO")
    if rpi_gpio is not None and hasattr(rpi_gpio, "lgpio"):
        setattr(rpi_gpio, "lgpio", module)  # noqa: B010 -- mypy knows no such attribute
    return chip


def uninstall() -> None:
    """Forget the chips and stop answering for ``lgpio`` (a real lgpio imports afresh after this)."""
    if sys.modules.get("lgpio") is sys.modules[__name__]:
        del sys.modules["lgpio"]
    _chips.clear()

