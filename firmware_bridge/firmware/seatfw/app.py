"""The seat unit's main loop: scan, debounce, read tags, drive LED and buzzer, talk to the Pi.

``SeatFirmware.poll`` does whatever is due and returns; ``main.py`` calls it forever on the
unit, the emulator calls it from a thread under CPython. What goes on the wire is
``firmware_bridge/PROTOCOL.md``: HELLO at boot and on request, STATE on every change and
every ``state_period_ms`` (a whole snapshot, so a lost frame heals by itself), HEARTBEAT
every ``heartbeat_period_ms``, ACK for each host command.
"""

from . import VERSION, wire
from .matrix import Button, Debouncer
from .pads import PadScanner
from .readers import ZoneScanner

TYPE_CHECKING = False  # type checkers take it as True; MicroPython has no typing module

if TYPE_CHECKING:
    from .hal import Pin, Port
    from .matrix import ContactMatrix
    from .mfrc522 import MFRC522
    from .pads import PadSelect
    from .ticks import Ticks

MATRIX_ROWS = 5
_FAR = 1 << 20


class Config:
    """Timing of the firmware (milliseconds) and reading limits.

    ``pad_slot_us`` and ``pad_switch_ms`` time the spread zone's pad array (a unit whose
    ``board.build`` found a pad board): one pad's slot (switch, settle, inventory) and the
    time from latching a pad to switching the field back on. 16 slots of 12.5 ms: 200 ms.
    """

    def __init__(self, state_period_ms: int = 2000, heartbeat_period_ms: int = 500, scan_period_ms: int = 5,
                 debounce_scans: int = 3, reader_period_ms: int = 100, field_off_ms: int = 6,
                 field_settle_ms: int = 5, max_tags: int = 16, miss_cycles: int = 2,
                 max_buzz_ms: int = 10000, pad_slot_us: int = 12500, pad_switch_ms: int = 1) -> None:
        self.state_period_ms = state_period_ms
        self.heartbeat_period_ms = heartbeat_period_ms
        self.scan_period_ms = scan_period_ms
        self.debounce_scans = debounce_scans
        self.reader_period_ms = reader_period_ms
        self.field_off_ms = field_off_ms
        self.field_settle_ms = field_settle_ms
        self.max_tags = max_tags
        self.miss_cycles = miss_cycles
        self.max_buzz_ms = max_buzz_ms
        self.pad_slot_us = pad_slot_us
        self.pad_switch_ms = pad_switch_ms


class SeatHardware:
    """The parts of one seat unit (None for a part not fitted), as ``board.build`` makes them.

    ``pads`` is the spread zone's pad board (its pad select); None: the spread reader
    reads through its own single antenna.
    """

    def __init__(self, seat: str, unit_id: bytes, matrix: "ContactMatrix | None", button: "Pin | None",
                 led: "Pin | None", buzzer: "Pin | None", play: "MFRC522 | None",
                 spread: "MFRC522 | None", pads: "PadSelect | None" = None) -> None:
        self.seat = seat
        self.unit_id = unit_id
        self.matrix = matrix
        self.button = button
        self.led = led
        self.buzzer = buzzer
        self.play = play
        self.spread = spread
        self.pads = pads


def _spread_scanner(hw: SeatHardware, ticks: "Ticks", cfg: Config) -> "ZoneScanner | PadScanner":
    """The spread zone's reading: pad by pad on a pad board, else through the reader's one antenna."""
    if hw.pads is not None and hw.spread is not None:
        return PadScanner(hw.spread, hw.pads, ticks, cfg.pad_slot_us, cfg.reader_period_ms // 2,
                          cfg.pad_switch_ms, cfg.field_settle_ms, cfg.max_tags, cfg.miss_cycles)
    return ZoneScanner(hw.spread, ticks, cfg.reader_period_ms, cfg.reader_period_ms // 2, cfg.field_off_ms,
                       cfg.field_settle_ms, cfg.max_tags, cfg.miss_cycles)


class SeatFirmware:
    """One seat unit's behaviour over its hardware ``hw``, its link ``port`` and its clock ``ticks``."""

    def __init__(self, hw: SeatHardware, port: "Port", ticks: "Ticks",
                 config: "Config | None" = None) -> None:
        cfg = config if config is not None else Config()
        self.hw = hw
        self.port = port
        self.ticks = ticks
        self.cfg = cfg
        self.seq = 0
        self.rx = wire.FrameReader()
        self.contacts = Debouncer(MATRIX_ROWS, cfg.debounce_scans)
        self.button = Button(hw.button, cfg.debounce_scans) if hw.button is not None else None
        play = ZoneScanner(hw.play, ticks, cfg.reader_period_ms, 0, cfg.field_off_ms, cfg.field_settle_ms,
                           cfg.max_tags, cfg.miss_cycles)
        self.zones = (play, _spread_scanner(hw, ticks, cfg))
        self.led_mode = wire.LED_OFF
        self.blink_ms = 500
        self.buzzing = False
        now = ticks.now()
        self.uptime_ms = 0
        self._last = now
        self._buzz_until = now
        self._next_scan = now
        self._next_state = now
        self._next_heartbeat = now
        self._dirty = True
        self._loops = 0
        self._loop_hz = 0
        self._loop_window = 0

    @property
    def capabilities(self) -> int:
        """Capability bits of the fitted parts (PROTOCOL.md "HELLO")."""
        hw = self.hw
        caps = 0
        if hw.play is not None:
            caps |= wire.CAP_PLAY_READER
        if hw.spread is not None:
            caps |= wire.CAP_SPREAD_READER
            if hw.pads is not None:
                caps |= wire.CAP_SPREAD_PADS
        if hw.matrix is not None:
            caps |= wire.CAP_BIDDING_BOX
        if hw.button is not None:
            caps |= wire.CAP_DIRECTOR_BUTTON
        if hw.led is not None:
            caps |= wire.CAP_LED
        if hw.buzzer is not None:
            caps |= wire.CAP_BUZZER
        return caps

    # -- sending

    def send(self, type_: int, payload: bytes) -> None:
        """Frame ``payload`` with the next sequence number and write it."""
        self.port.write(wire.encode_frame(type_, self.seq, payload))
        self.seq = (self.seq + 1) & 0xFFFF

    def send_hello(self) -> None:
        cfg = self.cfg
        payload = wire.hello_payload(self.hw.seat, self.hw.unit_id, VERSION, self.capabilities, cfg.max_tags,
                                     cfg.state_period_ms, cfg.heartbeat_period_ms)
        self.send(wire.T_HELLO, payload)

    def send_state(self) -> None:
        play, spread = self.zones
        button = self.button
        self.send(wire.T_STATE, wire.state_payload(
            self.uptime_ms, self.contacts.stable, button.pressed if button is not None else False,
            button.presses if button is not None else 0, self.led_mode, play.ok, spread.ok,
            play.uids(), spread.uids()))
        self._dirty = False
        self._next_state = self.ticks.add(self.ticks.now(), self.cfg.state_period_ms)

    def send_heartbeat(self) -> None:
        self.send(wire.T_HEARTBEAT, wire.heartbeat_payload(self.uptime_ms, self.rx.bad, self._loop_hz))
        self._next_heartbeat = self.ticks.add(self.ticks.now(), self.cfg.heartbeat_period_ms)

    # -- the loop

    def boot(self) -> None:
        """Start up: a delimiter to end any partial frame on the line, HELLO, first scan, STATE."""
        self.port.write(b"\x00")
        self.send_hello()
        now = self.ticks.now()
        self._scan(now)
        for zone in self.zones:
            zone.start()
        self._outputs(now)
        self.send_state()
        self.send_heartbeat()

    def poll(self) -> None:
        """Do whatever is due now; never blocks for long."""
        ticks = self.ticks
        now = ticks.now()
        self.uptime_ms += max(0, ticks.diff(now, self._last))
        self._last = now
        data = self.port.read()
        if data:
            for type_, seq, payload in self.rx.feed(data):
                self.handle(type_, seq, payload)
        if ticks.diff(now, self._next_scan) >= 0:
            self._scan(now)
        for zone in self.zones:
            if zone.poll(now):
                self._dirty = True
        self._outputs(now)
        if self._dirty or ticks.diff(now, self._next_state) >= 0:
            self.send_state()
        if ticks.diff(now, self._next_heartbeat) >= 0:
            self.send_heartbeat()
        self._count_loop()

    def ms_until_due(self) -> int:
        """Milliseconds until ``poll`` has something to do (0: now)."""
        ticks = self.ticks
        now = ticks.now()
        due = min(ticks.diff(self._next_scan, now), ticks.diff(self._next_state, now),
                  ticks.diff(self._next_heartbeat, now))
        for zone in self.zones:
            due = min(due, zone.due_in(now))
        if self.buzzing:
            due = min(due, ticks.diff(self._buzz_until, now))
        if self.led_mode == wire.LED_BLINK:
            half = max(1, self.blink_ms // 2)
            due = min(due, half - self.uptime_ms % half)
        return max(0, min(due, _FAR))

    def _scan(self, now: int) -> None:
        self._next_scan = self.ticks.add(now, self.cfg.scan_period_ms)
        matrix = self.hw.matrix
        if matrix is not None and self.contacts.update(matrix.scan()):
            self._dirty = True
        if self.button is not None and self.button.update():
            self._dirty = True

    def _outputs(self, now: int) -> None:
        led = self.hw.led
        if led is not None:
            if self.led_mode == wire.LED_BLINK:
                half = max(1, self.blink_ms // 2)
                led.value(1 if (self.uptime_ms // half) % 2 == 0 else 0)
            else:
                led.value(1 if self.led_mode == wire.LED_ON else 0)
        buzzer = self.hw.buzzer
        if self.buzzing and self.ticks.diff(now, self._buzz_until) >= 0:
            self.buzzing = False
        if buzzer is not None:
            buzzer.value(1 if self.buzzing else 0)

    def _count_loop(self) -> None:
        self._loops += 1
        if self.uptime_ms - self._loop_window >= 1000:
            self._loop_hz = self._loops
            self._loops = 0
            self._loop_window = self.uptime_ms

    # -- host commands

    def handle(self, type_: int, seq: int, payload: bytes) -> None:
        """Carry out one host command and acknowledge it (PROTOCOL.md "Host commands")."""
        status = wire.ACK_OK
        if type_ == wire.T_LED:
            if len(payload) < 3 or payload[0] > wire.LED_BLINK:
                status = wire.ACK_BAD_PAYLOAD
            else:
                if payload[0] != self.led_mode:
                    self._dirty = True
                self.led_mode = payload[0]
                self.blink_ms = max(20, (payload[1] << 8) | payload[2])
        elif type_ == wire.T_BUZZER:
            if len(payload) < 2:
                status = wire.ACK_BAD_PAYLOAD
            else:
                ms = min((payload[0] << 8) | payload[1], self.cfg.max_buzz_ms)
                self.buzzing = ms > 0
                self._buzz_until = self.ticks.add(self.ticks.now(), ms)
        elif type_ == wire.T_SNAPSHOT_REQUEST:
            if len(payload) < 1:
                status = wire.ACK_BAD_PAYLOAD
        else:
            status = wire.ACK_UNKNOWN_TYPE
        self.send(wire.T_ACK, wire.ack_payload(seq, type_, status))
        if type_ == wire.T_SNAPSHOT_REQUEST and status == wire.ACK_OK:
            if payload[0] & 0x01:
                self.send_hello()
            self.send_state()
        self._outputs(self.ticks.now())
