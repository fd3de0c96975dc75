"""A SQLite write-ahead log read without SQLite: its frames applied over its database file.

SQLite reads a WAL's frames in order and stops at the first whose checksum fails (each
frame's checksum carries on from the one before), so one bad byte in a frame loses every
commit after it, though those frames are whole. ``replay`` writes a copy of the database
with the frames of the WAL's latest generation (those carrying its salt) applied in order
up to its last commit frame, checksums not checked: a damaged frame damages the page it
carries (a later frame of the same page puts it right), nothing else. The table log's rows
carry their own CRC (``controller.records.eventlog``), so a row read from such a copy is
either the row that was written or a damaged row, never a wrong one.

The formats are SQLite's (https://www.sqlite.org/fileformat2.html, "The WAL File Format"):
a 32-byte header (magic, version, page size, checkpoint sequence, salt, checksum), then
frames of a 24-byte header (page number, the database's size in pages for the frame that
ends a commit and 0 for the others, salt, checksum) and one page.
"""

from __future__ import annotations

import collections
from pathlib import Path

__all__ = ["replay"]

_HEADER, _FRAME_HEADER = 32, 24
_MAX_PAGES = 1 << 24
"""A page number or database size above this is a damaged frame header, not a table log's."""


def replay(db: Path | None, wal: Path, out: Path) -> int:
    """Write to ``out`` the database ``db`` (None or missing: empty) with the committed frames of
    ``wal``'s latest generation applied, checksums not checked (module doc), in rollback-journal
    mode (so that SQLite reads ``out`` alone). Returns how many frames were applied."""
    base = db.read_bytes() if db is not None and db.is_file() else b""
    data = wal.read_bytes()
    page = _page_size(data, base)
    size = _FRAME_HEADER + page
    frames = [data[at:at + size] for at in range(_HEADER, len(data) - size + 1, size)]
    salt = _salt(data, frames)
    image = bytearray(base)
    pending: list[tuple[int, bytes]] = []
    applied = 0
    for frame in frames:
        if frame[8:16] != salt:
            continue  # an older generation's frame (or a damaged header): not this WAL's
        number = int.from_bytes(frame[0:4], "big")
        pages = int.from_bytes(frame[4:8], "big")
        if not 0 < number <= _MAX_PAGES:
            continue
        pending.append((number, frame[_FRAME_HEADER:]))
        if not 0 < pages <= _MAX_PAGES:
            continue  # not the end of a commit
        for n, content in pending:
            end = n * page
            if len(image) < end:
                image.extend(bytes(end - len(image)))
            image[end - page:end] = content
        applied += len(pending)
        pending = []
        del image[pages * page:]
        if len(image) < pages * page:
            image.extend(bytes(pages * page - len(image)))
    if len(image) >= 100 and image[:16] == b"SQLite format 3\0":
        image[18:20] = b"\x01\x01"  # rollback journal: no -wal is looked for beside the copy
    out.write_bytes(bytes(image))
    return applied


def _page_size(wal: bytes, db: bytes) -> int:
    """The WAL header's page size, else the database header's, else 4096."""
    for value in (int.from_bytes(wal[8:12], "big") if len(wal) >= 12 else 0,
                  (int.from_bytes(db[16:18], "big") or 0) if len(db) >= 18 else 0):
        if value == 1:
            value = 65536
        if 512 <= value <= 65536 and value & (value - 1) == 0:
            return value
    return 4096


def _salt(wal: bytes, frames: list[bytes]) -> bytes:
    """The salt of the WAL's latest generation: the header's, unless the first frames agree on another
    (a damaged header); the first frame is always of the latest generation."""
    header = wal[16:24]
    votes = collections.Counter([header, *(f[8:16] for f in frames[:2])])
    best, count = votes.most_common(1)[0] if votes else (header, 0)
    return best if count >= 2 else (frames[0][8:16] if frames else header)
