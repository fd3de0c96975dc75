"""The event's team of Directors: who may sign in to a console, by name and PIN, and which rooms each covers.

A championship has a chief (head) Director over every room and Directors for one room or a few.
Each signs in to a console under their own name with their own PIN (``tablectl room director add``),
so that a call shows who is on the way and every ruling who made it (docs/directors.md).

``directors.toml``, written by ``add_director`` (mode 0600: it holds PIN hashes)::

    room = "A"                      # the room whose console reads this file (absent: a club or the centre)
    [tables]                        # the centre's: each room's tables, for the head console's views
    A = ["A1", "A2"]
    [[director]]
    name = "Anna"
    pin_hash = "pbkdf2_sha256$..."  # drivers.config.hash_pin: never the PIN itself
    role = "room"                   # "head": every room; "room": the rooms listed
    rooms = ["A"]

For an event (a directory with ``centre/``, made by ``tablectl room init --room``) the team is kept in
``centre/directors.toml`` (every Director, and each room's tables), and each ``room-NAME/directors.toml``
holds only the Directors who cover that room (the head Directors too): a room's machine holds no other
room's PINs. For a club room, ``DIR/directors.toml``.

``Directors.scope(director)`` is what a Director sees on a console: None for everything the console
holds (a head Director; any Director on a room's own console, which holds that room alone), or the
tables of the rooms they cover (a room Director on the head console).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from controller.errors import BridgeTableError

__all__ = ["CLUB_DIRECTOR", "DIRECTORS_NAME", "ROLES", "Director", "DirectorError", "Directors", "add_director",
           "directors_files", "load_directors", "remove_director"]

DIRECTORS_NAME = "directors.toml"
ROLES = ("head", "room")
"""``head``: every room of the event; ``room``: the rooms listed."""
CLUB_DIRECTOR = "Director"
"""Who signs in with the console's one PIN (a club night with no team of Directors)."""
_NAME = re.compile(r"^[^\x00-\x1f\x7f\"\\]{1,40}$")
_ROOM = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class DirectorError(BridgeTableError, ValueError):
    """A Directors file or a Director that cannot be taken: the message says which and why."""


@dataclass(frozen=True, slots=True)
class Director:
    """One Director: their name (as they sign in), their PIN's hash, ``head`` or ``room``, and the rooms covered."""

    name: str
    pin_hash: str
    role: str = "room"
    rooms: tuple[str, ...] = ()

    def covers(self, room: str) -> bool:
        return self.role == "head" or room in self.rooms

    def covered(self) -> str:
        """The rooms covered, in words."""
        if self.role == "head":
            return "head Director (every room)"
        return ("room " if len(self.rooms) == 1 else "rooms ") + ", ".join(self.rooms) if self.rooms else "the room"


@dataclass(frozen=True, slots=True)
class Directors:
    """The team a console signs in (module doc): ``room``, the room of a room's console (None: a club or
    the centre); ``tables``, each room's tables (the centre's)."""

    directors: tuple[Director, ...] = ()
    room: str | None = None
    tables: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def find(self, name: str) -> Director | None:
        """The Director signing in as ``name`` (letter case and spaces around ignored), None when none."""
        wanted = " ".join(name.split()).casefold()
        return next((d for d in self.directors if d.name.casefold() == wanted), None)

    def scope(self, director: Director) -> frozenset[str] | None:
        """The tables ``director`` sees on this console (module doc): None for all it holds."""
        if director.role == "head" or self.room is not None or not self.tables:
            return None
        return frozenset(t for room in director.rooms for t in self.tables.get(room, ()))

    def room_of(self, table: str) -> str | None:
        return next((room for room, tables in self.tables.items() if table in tables), None)


def _director(item: object, where: str) -> Director:
    if not isinstance(item, dict):
        raise DirectorError(f"{where}: a [[director]] is not a table")
    name, pin_hash = item.get("name"), item.get("pin_hash")
    role, rooms = item.get("role", "room"), item.get("rooms", [])
    if not isinstance(name, str) or not _NAME.match(name):
        raise DirectorError(f"{where}: a Director's name must be 1 to 40 characters, got {name!r}")
    if not isinstance(pin_hash, str) or not pin_hash.startswith("pbkdf2_sha256$"):
        raise DirectorError(f"{where}: Director {name}'s pin_hash is not a PIN hash (tablectl room director add)")
    if role not in ROLES:
        raise DirectorError(f"{where}: Director {name}'s role must be head or room, got {role!r}")
    if not isinstance(rooms, list) or not all(isinstance(r, str) and _ROOM.match(r) for r in rooms):
        raise DirectorError(f"{where}: Director {name}'s rooms must be a list of room names")
    return Director(name, pin_hash, str(role), tuple(rooms))


def load_directors(path: Path | str) -> Directors:
    """The team in the ``directors.toml`` at ``path`` (DirectorError saying what is wrong)."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DirectorError(f"no Directors file {p}: add Directors with tablectl room director add --dir DIR NAME") \
            from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DirectorError(f"cannot read the Directors file {p}: {exc}") from None
    room = data.get("room")
    if room is not None and not (isinstance(room, str) and _ROOM.match(room)):
        raise DirectorError(f"{p}: 'room' must be a room name, got {room!r}")
    tables = data.get("tables", {})
    if not isinstance(tables, dict) or not all(isinstance(v, list) for v in tables.values()):
        raise DirectorError(f"{p}: [tables] must give each room its list of tables")
    directors = tuple(_director(item, str(p)) for item in data.get("director", []))
    names = [d.name.casefold() for d in directors]
    if len(set(names)) != len(names):
        raise DirectorError(f"{p}: two Directors have one name: each signs in under their own")
    return Directors(directors, room, {str(k): tuple(str(t) for t in v) for k, v in tables.items()})


def _toml(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dumps(team: Directors) -> str:
    """The text of a ``directors.toml`` (module doc)."""
    lines = ["# The Directors who sign in to this console, written by tablectl room director add.",
             "# KEEP IT PRIVATE (mode 0600): it holds their PIN hashes. docs/directors.md", ""]
    if team.room is not None:
        lines += [f"room = {_toml(team.room)}", ""]
    if team.tables:
        lines.append("[tables]")
        lines += [f"{_toml(room)} = [{', '.join(_toml(t) for t in tables)}]" for room, tables in team.tables.items()]
        lines.append("")
    for d in team.directors:
        lines += ["[[director]]", f"name = {_toml(d.name)}", f"pin_hash = {_toml(d.pin_hash)}",
                  f"role = {_toml(d.role)}", f"rooms = [{', '.join(_toml(r) for r in d.rooms)}]", ""]
    return "\n".join(lines)


def _write(path: Path, team: Directors) -> None:
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, dumps(team).encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def _event_rooms(directory: Path) -> dict[str, tuple[str, ...]] | None:
    """An event's rooms and their tables (``tablectl room init --room``), None for a club room."""
    if not (directory / "centre").is_dir():
        return None
    from tablectl.room.broker import RoomError, load_room

    rooms: dict[str, tuple[str, ...]] = {}
    for sub in sorted(directory.glob("room-*")):
        try:
            rooms[sub.name.removeprefix("room-")] = load_room(sub).tables
        except RoomError as exc:
            raise DirectorError(str(exc)) from None
    return rooms


def directors_files(directory: Path | str) -> dict[str | None, Path]:
    """Where the team is kept under ``directory``: room -> its file (None: the club's, or the centre's)."""
    d = Path(directory)
    rooms = _event_rooms(d)
    if rooms is None:
        return {None: d / DIRECTORS_NAME}
    return {None: d / "centre" / DIRECTORS_NAME, **{room: d / f"room-{room}" / DIRECTORS_NAME for room in rooms}}


def _team(directory: Path) -> tuple[Directors, dict[str, tuple[str, ...]] | None]:
    rooms = _event_rooms(directory)
    main = directors_files(directory)[None]
    team = load_directors(main) if main.is_file() else Directors()
    return team, rooms


def _save(directory: Path, directors: Iterable[Director], rooms: dict[str, tuple[str, ...]] | None) -> list[Path]:
    everyone = tuple(directors)
    files = directors_files(directory)
    written = []
    for room, path in files.items():
        if not path.parent.is_dir():
            raise DirectorError(f"{path.parent} is not a directory: make the room with tablectl room init --dir DIR")
        if room is None:
            team = Directors(everyone, None, rooms or {})
        else:
            team = Directors(tuple(d for d in everyone if d.covers(room)), room)
        _write(path, team)
        written.append(path)
    return written


def add_director(directory: Path | str, name: str, pin_hash: str, *, head: bool = False,
                 rooms: Iterable[str] = ()) -> list[Path]:
    """Add Director ``name`` (or change their PIN, role and rooms) to the team kept under ``directory``
    (module doc); the files written. DirectorError for a name, room or directory that cannot be."""
    d = Path(directory)
    name = " ".join(name.split())
    if not _NAME.match(name):
        raise DirectorError(f"a Director's name must be 1 to 40 characters without quotes, got {name!r}")
    team, event = _team(d)
    covered = tuple(dict.fromkeys(r.strip() for r in rooms if r.strip()))
    if head and covered:
        raise DirectorError("a head Director covers every room: give --head or --rooms, not both")
    if event is not None and not head:
        if not covered:
            raise DirectorError(f"name the rooms {name} covers (--rooms {','.join(event) or 'A'}), or --head")
        unknown = [r for r in covered if r not in event]
        if unknown:
            raise DirectorError(f"no room {', '.join(unknown)} in this event (its rooms: {', '.join(event)})")
    elif covered and event is None:
        raise DirectorError(f"{d} is a club room (no centre/): its Directors cover the one room, drop --rooms")
    made = Director(name, pin_hash, "head" if head else "room", covered)
    others = [x for x in team.directors if x.name.casefold() != name.casefold()]
    at = next((i for i, x in enumerate(team.directors) if x.name.casefold() == name.casefold()), len(others))
    others.insert(at, made)
    return _save(d, others, event)


def remove_director(directory: Path | str, name: str) -> list[Path]:
    """Take Director ``name`` off the team (DirectorError when there is no such Director)."""
    d = Path(directory)
    team, event = _team(d)
    found = team.find(name)
    if found is None:
        raise DirectorError(f"no Director {name!r} in {directors_files(d)[None]}")
    return _save(d, [x for x in team.directors if x is not found], event)
