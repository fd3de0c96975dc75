"""NFC readers through nfcpy: one reader (a play or spread zone, or the board reader) as an EventSource.

Opened from ``nfc:<nfcpy path>?reader=<name>``; the path is nfcpy's own:

- ``nfc:tty:AMA1:pn532?reader=N.play`` -- a PN532 on the Pi's UART ``/dev/ttyAMA1``;
- ``nfc:tty:USB0:pn532?reader=E.spread`` -- a PN532 behind a USB serial adapter;
- ``nfc:usb:072f:2200?reader=board`` -- an ACS ACR122U on USB;
- ``nfc:tty:/dev/pts/3:pn532?reader=N.play`` -- an absolute device path (nfcpy's own path
  search only knows names under ``/dev``): the driver module is then built here from
  ``nfc.clf.transport.TTY`` exactly as nfcpy's ``device.connect`` would.

Options in the query: ``interval`` (seconds between polls, 0.1), ``retry`` (seconds
between attempts to reopen a reader that is down, 1.0), ``gone_after`` (polls a tag must be
missing before ``TagGone``, 2), ``max_tags`` (tags told apart in one field, 16).

A reader thread polls with ``ContactlessFrontend.sense(RemoteTarget('106A'))``; to see
several tags in one field (a played card on quitted tricks, dummy's spread) it halts each
tag it found (HLTA through InCommunicateThru) and lists again until no other tag answers.
It reports ``TagSeen``/``TagGone`` with the UID in upper-case hex, ``DeviceHealth`` when
the reader goes down (an I/O error, the chip silent) or comes back, and reopens it.

``read_ndef_text()`` and ``write_ndef_text(text)`` read and write the NDEF text record of
the tag on the reader (deck enrolment writes the card, e.g. ``deck1:SA``, on blank NTAG213s).
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import logging
import re
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs

import ndef  # type: ignore[import-untyped]
import nfc  # type: ignore[import-untyped]
import nfc.clf  # type: ignore[import-untyped]
import nfc.clf.pn53x  # type: ignore[import-untyped]
import nfc.tag  # type: ignore[import-untyped]
from nfc.clf import transport

from controller.errors import BridgeTableError
from controller.sensing.events import DeviceHealth, RawEvent, TagGone, TagSeen
from drivers.base import Clock, Emit, monotonic
from drivers.config import ConfigError

__all__ = ["NfcError", "NfcReader", "parse_url"]

log = logging.getLogger(__name__)


class _NoSearchLines(logging.Filter):
    """nfcpy logs each search for a reader, an error at every retry while one is missing: the
    reader's health (``DeviceHealth``, "no reader found on ...") says it once instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(("searching for reader on path", "no reader available on path"))


logging.getLogger("nfc.clf").addFilter(_NoSearchLines())

TTY_DRIVERS = ("pn532", "arygon")
HLTA = b"\x50\x00"
_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")


class NfcError(BridgeTableError, OSError):
    """A reader that cannot do what was asked: no tag, a tag without NDEF, the reader down."""


def parse_url(url: str) -> tuple[str, dict[str, str]]:
    """Split ``nfc:<path>?<options>`` into nfcpy's path and the options."""
    if not url.startswith("nfc:"):
        raise ConfigError(f"not an nfc: URL: {url!r}")
    path, _, query = url[len("nfc:"):].partition("?")
    if not path:
        raise ConfigError(f"{url!r} names no reader (nfc:tty:AMA1:pn532, nfc:usb:072f:2200)")
    options = {key: values[-1] for key, values in parse_qs(query, keep_blank_values=True).items()}
    return path, options


def _explicit_tty(path: str) -> tuple[str, str] | None:
    """``(device, driver)`` for a ``tty:/abs/path[:driver]`` path, which nfcpy cannot search."""
    if not path.startswith("tty:/"):
        return None
    device, _, driver = path[len("tty:"):].rpartition(":")
    if not device or "/" in driver:   # no driver given: the colon was part of nothing
        device, driver = path[len("tty:"):], "pn532"
    if driver not in TTY_DRIVERS:
        raise ConfigError(f"nfc path {path!r}: driver must be one of {', '.join(TTY_DRIVERS)}")
    return device, driver


class NfcReader:
    """One NFC reader as an ``EventSource`` named after the reader (``N.play``, ``board``)."""

    def __init__(self, path: str, reader: str, clock: Clock = monotonic, *, interval: float = 0.1,
                 retry: float = 1.0, gone_after: int = 2, max_tags: int = 16) -> None:
        if not _NAME.match(reader):
            raise ConfigError(f"reader name {reader!r} for {path!r} is not a name like N.play or board")
        if interval <= 0 or retry <= 0 or gone_after < 1 or max_tags < 1:
            raise ConfigError(f"reader {reader}: interval and retry must be positive, "
                              f"gone_after and max_tags at least 1")
        _explicit_tty(path)   # reject a bad driver name now, not on the reader thread
        self.name = reader
        self.path = path
        self._clock = clock
        self._interval = interval
        self._retry = retry
        self._gone_after = gone_after
        self._max_tags = max_tags
        self._io = threading.RLock()   # one user of the frontend at a time: the poll or a helper
        self._clf: Any = None
        self._emit: Emit | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._present: dict[str, int] = {}   # uid -> polls missed in a row
        self._health = DeviceHealth(reader, False, "not started", clock())
        self._reported_up: bool | None = None

    @classmethod
    def from_url(cls, url: str, clock: Clock = monotonic, *, name: str | None = None) -> NfcReader:
        """Open ``nfc:<path>?reader=N.play&interval=0.1&retry=1&gone_after=2&max_tags=16``."""
        path, options = parse_url(url)
        reader = options.pop("reader", None) or name
        if reader is None:
            raise ConfigError(f"{url!r} does not say which reader it is (add ?reader=N.play)")
        kwargs: dict[str, Any] = {}
        for key, kind in (("interval", float), ("retry", float), ("gone_after", int), ("max_tags", int)):
            if key in options:
                try:
                    kwargs[key] = kind(options.pop(key))
                except ValueError:
                    raise ConfigError(f"{url!r}: {key} must be a number") from None
        if options:
            raise ConfigError(f"{url!r}: unknown option(s) {', '.join(sorted(options))} "
                              f"(reader, interval, retry, gone_after, max_tags)")
        return cls(path, reader, clock, **kwargs)

    def __repr__(self) -> str:
        return f"NfcReader({self.path!r}, {self.name!r})"

    # -- EventSource ----------------------------------------------------------------------

    def start(self, emit: Emit) -> None:
        if self._thread is not None:
            return
        self._emit = emit
        self._stop.clear()
        self._present = {}
        self._reported_up = None
        self._thread = threading.Thread(target=self._run, name=f"nfc {self.name}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._stop.set()
        thread.join(timeout=10)
        if thread.is_alive():
            log.warning("reader %s: the reader thread did not stop", self.name)
        with self._io:
            self._close()
        self._health = DeviceHealth(self.name, False, "stopped", self._clock())

    def health(self) -> DeviceHealth:
        return self._health

    # -- the reader thread --------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with self._io:
                    if self._clf is None:
                        device = self._open()
                        self._report(True, f"{device} ({self.path})")
                    uids = self._scan()
            except Exception as exc:   # a reader thread never raises: the device is down
                log.debug("reader %s failed", self.name, exc_info=True)
                with self._io:
                    self._close()
                self._report(False, _describe(exc, self.path))
                self._stop.wait(self._retry)
                continue
            self._update(uids)
            self._stop.wait(self._interval)
        with self._io:
            self._close()

    def _open(self) -> Any:
        """Open the reader; return nfcpy's device."""
        explicit = _explicit_tty(self.path)
        clf = nfc.ContactlessFrontend()
        if explicit is None:
            if not clf.open(self.path):
                raise OSError(errno.ENODEV, f"no reader found on {self.path}")
        else:
            device_path, driver = explicit
            module = importlib.import_module(f"nfc.clf.{driver}")
            tty = transport.TTY(device_path)
            try:
                device = module.init(tty)
            except BaseException:
                tty.close()
                raise
            device._path = device_path   # what nfcpy's device.connect sets for str(device)
            clf.device = device
        self._clf = clf
        return clf.device

    def _close(self) -> None:
        clf, self._clf = self._clf, None
        if clf is None:
            return
        device = clf.device
        port = getattr(getattr(device, "chipset", None), "transport", None)
        with contextlib.suppress(Exception):
            clf.close()
        if port is not None:   # nfcpy leaves the port open when the chip did not answer its goodbye
            with contextlib.suppress(Exception):
                port.close()

    def _scan(self) -> list[str]:
        """The UIDs of the tags in the field: the first that answers, then each after halting the last."""
        clf = self._clf
        target = clf.sense(nfc.clf.RemoteTarget("106A"))
        if target is None:
            return []
        uids = [bytes(target.sdd_res).hex().upper()]
        chipset = getattr(clf.device, "chipset", None)
        if self._max_tags == 1 or not isinstance(chipset, nfc.clf.pn53x.Chipset):
            return uids
        chipset.rf_configuration(0x02, bytes((10, 11, 4)))   # ~1 ms for the HLTA that nobody answers
        while len(uids) < self._max_tags:
            with contextlib.suppress(nfc.clf.pn53x.Chipset.Error):
                chipset.in_communicate_thru(HLTA, 0.1)
            answer = chipset.in_list_passive_target(1, 0, b"")
            if answer is None:
                break
            uid = bytes(answer[4:4 + answer[3]]).hex().upper()
            if uid in uids:   # a tag that ignores HLTA would be listed for ever
                break
            uids.append(uid)
        return uids

    def _update(self, uids: list[str]) -> None:
        for uid in uids:
            if uid not in self._present:
                self._send(TagSeen(self.name, uid, self._clock()))
            self._present[uid] = 0
        for uid in [uid for uid in self._present if uid not in uids]:
            self._present[uid] += 1
            if self._present[uid] >= self._gone_after:
                del self._present[uid]
                self._send(TagGone(self.name, uid, self._clock()))

    def _send(self, event: RawEvent) -> None:
        emit = self._emit
        if emit is None:
            return
        try:
            emit(event)
        except Exception:   # the receiver's failure is not the reader's: keep reading
            log.exception("reader %s: emit(%r) failed", self.name, event)

    def _report(self, up: bool, detail: str) -> None:
        self._health = DeviceHealth(self.name, up, detail, self._clock())
        if up != self._reported_up:
            self._reported_up = up
            if up:
                log.info("reader %s is up: %s", self.name, detail)
            else:
                log.warning("reader %s is down: %s", self.name, detail)
            self._send(self._health)

    # -- NDEF helpers (deck enrolment) ------------------------------------------------------

    def read_ndef_text(self, uid: str | None = None) -> str | None:
        """The text of the first NDEF text record on the tag (``uid``, or the one on the reader).

        None when the tag holds no text record; ``NfcError`` when there is no tag.
        """
        with self._tag(uid) as tag:
            if tag.ndef is None:
                return None
            for record in tag.ndef.records:
                if isinstance(record, ndef.TextRecord):
                    return str(record.text)
            return None

    def write_ndef_text(self, text: str, uid: str | None = None) -> str:
        """Write ``text`` as the tag's only NDEF record (a text record, language ``en``); return its UID."""
        with self._tag(uid) as tag:
            if tag.ndef is None:
                raise NfcError(f"tag {_uid_of(tag)} on reader {self.name} is not NDEF formatted")
            if not tag.ndef.is_writeable:
                raise NfcError(f"tag {_uid_of(tag)} on reader {self.name} is write protected")
            record = ndef.TextRecord(text)
            if len(b"".join(ndef.message_encoder([record]))) > tag.ndef.capacity:
                raise NfcError(f"{text!r} does not fit on tag {_uid_of(tag)} ({tag.ndef.capacity} bytes)")
            tag.ndef.records = [record]
            if tag.ndef is None or tag.ndef.has_changed:
                raise NfcError(f"tag {_uid_of(tag)} on reader {self.name} did not keep {text!r}")
            return _uid_of(tag)

    @contextlib.contextmanager
    def _tag(self, uid: str | None) -> Iterator[Any]:
        with self._io:
            opened_here = False
            if self._clf is None:
                if self._thread is not None:
                    raise NfcError(f"reader {self.name} is down: {self._health.detail}")
                try:
                    self._open()
                except Exception as exc:
                    raise NfcError(_describe(exc, self.path)) from exc
                opened_here = True
            try:
                target = nfc.clf.RemoteTarget("106A")
                if uid is not None:
                    target.sel_req = bytearray.fromhex(uid)
                try:
                    found = self._clf.sense(target)
                    tag = nfc.tag.activate(self._clf, found) if found is not None else None
                except OSError as exc:
                    raise NfcError(_describe(exc, self.path)) from exc
                if tag is None:
                    what = f"tag {uid.upper()}" if uid else "no tag"
                    raise NfcError(f"{what} on reader {self.name}" + (" is not there" if uid else ""))
                try:
                    yield tag
                except nfc.tag.TagCommandError as exc:
                    raise NfcError(f"tag {_uid_of(tag)} on reader {self.name}: {exc}") from exc
            finally:
                if opened_here:
                    self._close()


def _uid_of(tag: Any) -> str:
    return bytes(tag.identifier).hex().upper()


def _describe(exc: BaseException, path: str) -> str:
    if isinstance(exc, OSError) and exc.errno is not None:
        reason = exc.strerror or str(exc)
        return f"{path}: {reason}"
    return f"{path}: {exc.__class__.__name__}: {exc}"
