"""The console's earlier sessions: a new session starts clean, the old one is kept and readable.

The console keeps one session in ``console.sqlite`` (``tablectl.room.console.ConsoleStore``).
A new session begins when the Director says so (``Console.new_session``: the console page's
"Start a new session"), or when the console starts with another session file than the one its
store was kept with (each club night the Director edits its name or date), or with a store whose
latest message is older than ``STALE_HOURS`` (last week's session). The old store is then moved,
whole, to ``sessions/console-<date>-<time>.sqlite`` beside it, and the console starts empty: no
traveller, ranking or call of the old session shows, and each table's results page is sent an
empty one. The tables' outboxes of the old session are not taken again (the new store starts with
what the old one had acknowledged of each table session, ``archived_streams``).

``archives(dir)`` lists the kept sessions, ``read_archive(path, session)`` gives one's ranking,
travellers and pairs' names, the Director's corrections and movement changes applied (the console's
pages: ``GET /api/archive``, ``GET /api/archive/{name}``); ``tablectl.room.console_reopen`` puts one back
as the live session (to correct it and export it again);
an event of several sessions adds them up (``controller.room.event``, ``GET /api/desk/event``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import time
from pathlib import Path
from typing import Any

from controller.fieldscore.session import Session
from controller.room.console import Room

__all__ = ["ARCHIVE_DIR", "STALE_HOURS", "archive", "archive_path", "archives", "read_archive", "session_key", "stale"]

Json = dict[str, Any]

ARCHIVE_DIR = "sessions"
STALE_HOURS = 10.0
"""A store whose latest message is older than this is last session's: a new one starts clean."""
_NAME = re.compile(r"^console-\d{8}-\d{6}(-\d+)?\.sqlite$")


def session_key(session: Session | None) -> str:
    """What tells one session file from another (its name, date, movement, scoring...)."""
    return hashlib.sha256(repr(session).encode()).hexdigest()[:16]


def stale(latest: float | None, settings: dict[str, Any], now: float) -> bool:
    """The kept store is last session's: its latest message is older than ``STALE_HOURS``, and so is
    its reopening, if the Director reopened it (``tablectl.room.console_reopen``: to correct it)."""
    reopened = settings.get("reopened_at")
    last = max(x for x in (latest, reopened if isinstance(reopened, int | float) else None, 0.0) if x is not None)
    return latest is not None and now - last > STALE_HOURS * 3600


def archive(store: Path, now: float) -> Path:
    """Move the closed store ``store`` (with its WAL files) to the sessions folder beside it."""
    folder = store.parent / ARCHIVE_DIR
    folder.mkdir(mode=0o700, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    target = folder / f"console-{stamp}.sqlite"
    n = 1
    while target.exists():
        target = folder / f"console-{stamp}-{n}.sqlite"
        n += 1
    store.rename(target)
    for suffix in ("-wal", "-shm"):
        side = store.with_name(store.name + suffix)
        if side.exists():
            side.rename(target.with_name(target.name + suffix))
    return target


def archives(data_dir: Path) -> list[Json]:
    """The sessions kept, newest first: ``{"name", "kept", "bytes"}``."""
    folder = data_dir / ARCHIVE_DIR
    out = []
    for path in sorted(folder.glob("console-*.sqlite"), reverse=True) if folder.is_dir() else []:
        if _NAME.match(path.name):
            stat = path.stat()
            out.append({"name": path.stem, "kept": stat.st_mtime, "bytes": stat.st_size})
    return out


def archive_path(data_dir: Path, name: str) -> Path | None:
    """The kept session ``name`` (None: no such session, or not a session's name)."""
    path = data_dir / ARCHIVE_DIR / f"{name}.sqlite"
    return path if _NAME.match(path.name) and path.is_file() else None


def read_archive(path: Path, club: str, session: Session | None) -> Json:
    """A kept session's ranking and travellers, as its console had them: the Director's desk
    entries and movement changes applied (``session``: the Director's session file, when it is the same)."""
    from tablectl.room.console_desk import load_desk, restore_desk
    from tablectl.room.console_moves import apply_moves, load_moves
    from tablectl.room.console_people import read_seating
    from tablectl.room.console_store import ConsoleStore

    store = ConsoleStore(path)
    try:
        messages, _, _ = store.load()
        kept = store.settings()
    finally:
        store.close()
    if kept.get("session_key") != session_key(session):
        session = None
    room = Room(club, session=session)
    for table, _session, _seq, kind, payload in messages:
        with contextlib.suppress(ValueError, TypeError, KeyError):
            room.receive(kind, table, json.loads(payload), 0.0)
    apply_moves(room, session, load_moves(path, read_only=True))
    restore_desk(room.results, load_desk(path))
    return {"name": path.stem, "report": room.results.report(), "travellers": room.results.travellers(),
            "names": read_seating(path).names()}
