"""A kept session reopened as the live one: ``reopen_session(console, name)``.

The Director started a new session by mistake, or must correct last week's results and export
them again. He picks the kept session (``tablectl.room.sessions.archives``) and reopens it: the
session being played is kept in its turn (unless it holds nothing: no message, no desk entry, no
pair named, no movement change), the kept one's file becomes the console's file again, and the
console holds it as it was kept: the tables' results, the Director's desk, the pairs' names, the
movement changes, the players' settings. It is live again (not ended): the Director corrects,
the scores follow, the exports are made again; "Start a new session" keeps it again.

Only a session played with the console's own session file can be reopened (its movement is what
puts each result to its pairs); another is refused, and nothing changes. The tables' messages of
the session it replaces stay with that one (kept): the tables' streams it was taking are not taken
again into the reopened one. A reopened session is not taken for last week's by a console started
again within ``STALE_HOURS`` of the reopening (``tablectl.room.sessions.stale``); later it is kept
and a new one starts, as for any session.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

from controller.room.console import Room, Stream
from tablectl.room.console_desk import DeskStore, load_desk, restore_desk
from tablectl.room.console_moves import apply_moves, load_moves
from tablectl.room.console_people import read_seating
from tablectl.room.console_store import ConsoleStore, restore
from tablectl.room.sessions import archive, archive_path, session_key

__all__ = ["ReopenError", "reopen_session"]

log = logging.getLogger("tablectl.room.console")

Json = dict[str, Any]


class ReopenError(ValueError):
    """A kept session that cannot be reopened (why, in plain words); nothing changed."""


def _holds_something(path: Path, latest: float | None) -> bool:
    if latest is not None or load_desk(path) or read_seating(path).seats:
        return True
    return bool(load_moves(path, read_only=True).entries)


def _move(source: Path, target: Path) -> None:
    source.rename(target)
    for suffix in ("-wal", "-shm"):
        side = source.with_name(source.name + suffix)
        if side.exists():
            side.rename(target.with_name(target.name + suffix))


def _kept_key(path: Path) -> object:
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            row = conn.execute("SELECT value FROM setting WHERE key = 'session_key'").fetchone()
    except sqlite3.Error:
        return None
    if row is None:
        return None
    with contextlib.suppress(ValueError, TypeError):
        return json.loads(row[0])
    return row[0]


def reopen_session(console: Any, name: str) -> Json:
    """Reopen the kept session ``name`` as the live one (module doc): ``{"reopened", "kept"}`` (the
    name the replaced session is kept under; None: it held nothing and is gone). ReopenError:
    refused, nothing changed."""
    with console._lock:
        path: Path = console.store.path
        kept = archive_path(path.parent, name)
        if kept is None:
            raise ReopenError(f"there is no kept session {name!r}")
        if _kept_key(kept) not in (None, session_key(console.session)):
            raise ReopenError(f"{name} was played with another session file: start the console with that file "
                              "to reopen it")
        now = console._wall()
        old = console.room
        latest = console.store.latest()
        console.store.close()
        if _holds_something(path, latest):
            replaced: str | None = archive(path, now).stem
        else:
            replaced = None
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    path.with_name(path.name + suffix).unlink()
        _move(kept, path)
        console.store = ConsoleStore(path)
        console.desk_store = DeskStore(path)
        console.people.reopen(path)
        room = Room(console.club, session=console.session)
        console.room = room
        console._seed_archived_streams()
        console.unreadable = restore(console.store, room, console.club, now)
        console._restore_settings()
        apply_moves(room, console.session, load_moves(path), console.people)
        restore_desk(room.results, console.desk_store.load())
        for (table, session), stream in old.streams.items():  # the replaced session's messages stay its own
            room.streams.setdefault((table, session), Stream(stream.acked))
        for table, tile in old.tiles.items():
            room.tiles.setdefault(table, tile)
        room.end_session(False)
        console.store.set("ended", False)
        console.store.set("ended_at", None)
        console.store.set("reopened_at", now)
        console.store.set("session_key", session_key(console.session))
        console._published.clear()
        console._journal.clear()
        console._bump(None)
    log.warning("console: the kept session %s is reopened as the live one; the one before is %s", name,
                f"kept as {replaced}" if replaced else "gone (it held nothing)")
    console._queue.put(("", b"", now, False))  # the console thread sends the players' results
    console._notify()
    return {"reopened": name, "kept": replaced}
