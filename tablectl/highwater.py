"""The table log's high-water mark: what the table knows it acknowledged, kept outside SQLite.

SQLite's write-ahead log drops, by design, every frame after one whose checksum fails; a
deleted ``-wal``, or a database file cut to nothing (SQLite then deletes the ``-wal`` itself),
takes every transaction since the last checkpoint with it. The log then opens clean, rows
missing, and nothing in SQLite says so. So after each commit, before the table acknowledges
anything, ``tablectl.store`` writes beside the log (``table.sqlite.hwm``) what the log then
holds (``Mark``): the session, the last ``seq``, how many rows and inputs up to it, the last
input's ``seq``, a CRC of the log's first rows (``head``) and the time. At start the store
compares the log with it (``compare``) and says what is missing (``Loss``).

The file is two slots of 512 bytes, written in turn in place (``pwrite`` then ``fdatasync``:
one flush per commit, no rename, no directory to sync), each slot with its generation and a
CRC-32: a write torn by a power cut spoils only the slot being written, and the other still
holds the mark of the commit before (the torn one's inputs were not acknowledged either).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import time
import zlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from controller.records.eventlog import BadRow, Row

__all__ = ["HEAD_SEQ", "Loss", "Mark", "MarkFile", "compare", "head_crc", "mark_path", "read_mark"]

log = logging.getLogger(__name__)

HEAD_SEQ = 16
"""The rows whose ``seq`` is up to this make the log's ``head``."""
_SLOT = 512
_MAGIC = b"bridgetable-hwm/1 "
_MISSING_KEPT = 100
"""Ranges of missing rows listed in a ``log_damaged`` alert (the count is always whole)."""


def mark_path(log_path: Path) -> Path:
    """Where the mark of the log at ``log_path`` is kept: beside it, ``<name>.hwm``."""
    return log_path.with_name(f"{log_path.name}.hwm")


def head_crc(rows: Iterable[tuple[int, int]]) -> int:
    """The CRC-32 of the ``(seq, crc)`` of the rows whose ``seq`` is up to ``HEAD_SEQ``, in order."""
    text = "".join(f"{seq}:{crc};" for seq, crc in rows if seq <= HEAD_SEQ)
    return zlib.crc32(text.encode())


@dataclasses.dataclass(frozen=True, slots=True)
class Mark:
    """What the log held after a commit: ``rows`` and ``inputs`` (intact rows, input rows among
    them) with a ``seq`` up to ``seq``, the ``seq`` of the last input, the ``head`` CRC, the wall
    time ``at`` (epoch seconds) and the session's id."""

    session: str
    seq: int
    rows: int
    inputs: int
    last_input: int
    head: int
    at: float

    def to_json(self) -> dict[str, Any]:
        """The mark's fields (written after every commit: not ``dataclasses.asdict``, a deep copy of plain values)."""
        return {"session": self.session, "seq": self.seq, "rows": self.rows, "inputs": self.inputs,
                "last_input": self.last_input, "head": self.head, "at": self.at}

    @classmethod
    def of(cls, obj: Mapping[str, Any]) -> Mark:
        """The mark of a slot's JSON object (ValueError, TypeError or KeyError if it is not one)."""
        ints = {k: obj[k] for k in ("seq", "rows", "inputs", "last_input", "head")}
        if not all(type(v) is int and v >= 0 for v in ints.values()) or not isinstance(obj["session"], str):
            raise ValueError("not a mark")
        return cls(obj["session"], at=float(obj["at"]), **ints)


def read_mark(log_path: Path) -> tuple[Mark | None, str | None]:
    """The latest mark kept for the log at ``log_path``, and what is wrong with the file if it
    exists but holds no readable mark (None, None: there is no mark yet)."""
    path = mark_path(log_path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"{path} cannot be read: {exc.strerror or exc}"
    best: tuple[int, Mark] | None = None
    for start in range(0, min(len(data), 2 * _SLOT), _SLOT):
        slot = _slot_of(data[start:start + _SLOT])
        if slot is not None and (best is None or slot[0] > best[0]):
            best = slot
    if best is None:
        return None, f"{path} holds no readable mark ({len(data)} bytes)"
    return best[1], None


def _slot_of(slot: bytes) -> tuple[int, Mark] | None:
    if len(slot) != _SLOT or not slot.startswith(_MAGIC):
        return None
    if zlib.crc32(slot[:-4]) != int.from_bytes(slot[-4:], "big"):
        return None
    try:
        obj = json.loads(slot[len(_MAGIC):-4].decode("utf-8"))
        gen = obj["gen"]
        if type(gen) is not int:
            return None
        return gen, Mark.of(obj)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


class MarkFile:
    """Writes the marks of one log, in turn into the two slots of its ``.hwm`` file."""

    def __init__(self, log_path: Path, latest: Mark | None = None) -> None:
        self.path = mark_path(log_path)
        self._fd: int | None = None
        self._gen = 0
        self._failing = False
        self.latest = latest
        """The mark last written (or found at open)."""

    def write(self, mark: Mark) -> None:
        """Write ``mark`` durably (``fdatasync``); a failure is logged, never raised (the
        commit it describes is durable already; only the check after a damage is weaker)."""
        try:
            fd = self._open()
            self._gen += 1
            body = _MAGIC + json.dumps({"gen": self._gen, **mark.to_json()}, sort_keys=True).encode() + b"\n"
            if len(body) > _SLOT - 4:
                raise ValueError(f"a mark of {len(body)} bytes does not fit its slot")
            body = body.ljust(_SLOT - 4, b" ")
            os.pwrite(fd, body + zlib.crc32(body).to_bytes(4, "big"), (self._gen % 2) * _SLOT)
            os.fdatasync(fd)
        except (OSError, ValueError) as exc:
            if not self._failing:
                log.error("the high-water mark %s cannot be written (%s): inputs lost to a damaged log "
                          "could go unnoticed", self.path, getattr(exc, "strerror", None) or exc)
            self._failing = True
            return
        if self._failing:
            log.warning("the high-water mark %s is written again", self.path)
        self._failing = False
        self.latest = mark

    def _open(self) -> int:
        if self._fd is not None:
            return self._fd
        created = False
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            created = True
        except FileExistsError:
            fd = os.open(self.path, os.O_RDWR)
        try:
            if created or os.fstat(fd).st_size < 2 * _SLOT:
                os.ftruncate(fd, 2 * _SLOT)  # both slots exist from the start: later writes change no size
                os.fsync(fd)
                _sync_dir(self.path.parent)
            else:
                data = os.pread(fd, 2 * _SLOT, 0)
                gens = [s[0] for s in (_slot_of(data[i:i + _SLOT]) for i in (0, _SLOT)) if s is not None]
                self._gen = max(gens, default=0)
        except OSError:
            os.close(fd)
            raise
        self._fd = fd
        return fd

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


def _sync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclasses.dataclass(frozen=True, slots=True)
class Loss:
    """What the log lacks of what the table had acknowledged (``compare``)."""

    mark: Mark
    session: str
    lost_rows: int
    lost_inputs: int
    since: int
    missing: tuple[tuple[int, int], ...]
    reasons: tuple[str, ...]
    kept: str | None = None

    @property
    def what(self) -> str:
        """The loss in plain words, for the arbiter, the Director and the system log."""
        m = self.mark
        when = time.strftime("%H:%M:%S", time.localtime(m.at))
        head = (f"{self.lost_inputs} acknowledged input(s) lost since seq {self.since}" if self.lost_inputs
                else f"{self.lost_rows} row(s) lost since seq {self.since}")
        text = (f"table log damaged: {head} ({self.lost_rows} row(s) in all; the table had acknowledged up to "
                f"seq {m.seq}, input {m.last_input}, at {when})")
        if self.reasons:
            text += "; " + "; ".join(self.reasons)
        if self.kept:
            text += f"; the damaged files are kept as {self.kept}"
        return text + ". The table goes on from what the log holds: check it against the cards on the table."

    def alert(self, at: float) -> dict[str, Any]:
        """The body of the ``alert`` row the club-room link publishes."""
        return {"alert": "log_damaged", "what": self.what, "alarm": True, "lost_inputs": self.lost_inputs,
                "lost_rows": self.lost_rows, "since": self.since, "acknowledged": self.mark.seq,
                "last_input": self.mark.last_input, "acknowledged_at": round(self.mark.at, 3),
                "lost_session": self.mark.session, "missing": [list(r) for r in self.missing],
                "kept": self.kept, "at": round(at, 3)}


def compare(mark: Mark, session: str, rows: Sequence[Row | BadRow], kept: str | None = None) -> Loss | None:
    """What ``rows`` (the log of ``session``, as read) lack of what ``mark`` says it held; None
    when nothing is missing.

    Rows missing or damaged up to ``mark.seq`` are lost; so is every row of the mark when the
    log holds another session. A seq that an earlier ``log_damaged`` alert listed as missing
    (already reported) does not count for ``since``.
    """
    reasons: list[str] = []
    held = [r for r in rows if isinstance(r, Row) and r.seq <= mark.seq]
    if session != mark.session:
        reasons.append(f"the log holds session {session}, not session {mark.session} that the table wrote")
        held = []
    held_rows = len(held)
    held_inputs = sum(1 for r in held if r.is_input)
    head = head_crc((r.seq, _row_crc(r)) for r in held if r.seq <= HEAD_SEQ)
    if held_rows >= mark.rows and held_inputs >= mark.inputs and head != mark.head and not reasons:
        reasons.append(f"its first rows (seq 1 to {HEAD_SEQ}) are not those the table wrote")
    if held_rows >= mark.rows and held_inputs >= mark.inputs and not reasons:
        return None
    seqs = {r.seq for r in held}
    if session == mark.session:  # what an earlier alert reported missing is not news
        for r in rows:
            if isinstance(r, Row) and r.kind == "alert" and r.body.get("alert") == "log_damaged":
                for pair in r.body.get("missing") or ():
                    with contextlib.suppress(TypeError, ValueError, IndexError):
                        seqs.update(range(max(1, int(pair[0])), min(int(pair[1]), mark.seq) + 1))
    missing = _ranges(s for s in range(1, mark.seq + 1) if s not in seqs)
    since = missing[0][0] if missing else max(seqs, default=0) + 1
    return Loss(mark, session, max(0, mark.rows - held_rows), max(0, mark.inputs - held_inputs), since,
                tuple(missing[:_MISSING_KEPT]), tuple(reasons), kept)


def _row_crc(row: Row) -> int:
    from controller.records.eventlog import encode_body, row_crc

    return row_crc(row.kind, row.t, encode_body(row.body))


def _ranges(seqs: Iterable[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s in seqs:
        if out and out[-1][1] == s - 1:
            out[-1] = (out[-1][0], s)
        else:
            out.append((s, s))
    return out
