"""Commands from the Director's console to a table, read and checked as the arbiter page's.

A command is one JSON object on ``bridge/<club>/table/<id>/command``::

    {"v": 1, "club": "...", "table": "3", "ref": "c-17", "time": "...",
     "command": "ruling", "ruling": {"id": 2, "option": "forbid_suit", "suit": "S"}}
    {"v": 1, ..., "command": "action", "action": {"seat": "S", "play": "SK", "deemed": true}}

``ruling`` takes the arbiter page's ``POST /api/arbiter/rulings`` body, ``action`` its
``POST /api/arbiter/actions`` body: the same pydantic models check them (``web_ui.models``),
so the console can send nothing the table's own arbiter page could not. The table then
applies the action or refuses it with its reason, as for its own page.

``restore`` gives back what a table lost from its log (its ``log_damaged`` alert), from the
console's copy: ``{"command": "restore", "session": "...", "events": [{"seq", "action",
"source"}, ...]}``, the table's own ``event`` messages of that session in order (``Restore``;
the runtime decides whether it takes them: ``TableRuntime.restore``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from pydantic import ValidationError

from controller import actions as a
from controller.errors import BridgeTableError
from controller.records.tablelog import action_of
from controller.room.messages import SCHEMA
from web_ui.models import ActionBody, RulingBody

__all__ = ["CommandError", "Restore", "command", "read_command"]

_REF_MAX = 64


class CommandError(BridgeTableError, ValueError):
    """A command the table refuses unread; ``ref`` is the command's, when it had one."""

    def __init__(self, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.ref = ref


@dataclass(frozen=True, slots=True)
class Restore:
    """A ``restore`` command: the table actions of ``session`` the console holds, ``(seq, action,
    source)`` in the order of their ``seq``."""

    session: str
    events: tuple[tuple[int, a.Action, str], ...]


def _restore(obj: dict[str, Any], ref: str) -> Restore:
    session, events = obj.get("session"), obj.get("events")
    if not isinstance(session, str) or not isinstance(events, list) or not events:
        raise CommandError("a restore needs the 'session' and a non-empty list of 'events'", ref)
    out: list[tuple[int, a.Action, str]] = []
    for event in events:
        seq = event.get("seq") if isinstance(event, dict) else None
        if type(seq) is not int or (out and seq <= out[-1][0]):
            raise CommandError("a restore's events need each a 'seq', in increasing order", ref)
        try:
            action = action_of(event.get("action"))
        except (BridgeTableError, ValueError, TypeError) as exc:
            raise CommandError(f"the restore's event seq {seq} is not a table action: {exc}", ref) from None
        out.append((seq, replace(action, t=0.0), str(event.get("source", ""))))
    return Restore(session, tuple(out))


def _plain(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "__root__")
        parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
    return "; ".join(parts)


def read_command(payload: bytes, *, club: str, table: str,
                 limit: int = 16_384) -> tuple[str, a.Action | Restore]:
    """The command's ``ref`` and its table action; ``CommandError`` saying why it is refused."""
    if len(payload) > limit:
        raise CommandError(f"a command of {len(payload)} bytes is over the limit of {limit}")
    try:
        obj = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as exc:
        raise CommandError(f"a command must be a JSON object ({exc})") from None
    if not isinstance(obj, dict):
        raise CommandError("a command must be a JSON object")
    ref = obj.get("ref")
    if not isinstance(ref, str) or not 0 < len(ref) <= _REF_MAX:
        raise CommandError(f"a command needs a 'ref' (text of 1 to {_REF_MAX} characters)")
    if obj.get("v") != SCHEMA:
        raise CommandError(f"command schema {obj.get('v')!r} is not {SCHEMA}", ref)
    if obj.get("club") != club or str(obj.get("table")) != table:
        raise CommandError(f"this command is for club {obj.get('club')!r} table {obj.get('table')!r}, "
                           f"not club {club!r} table {table!r}", ref)
    kind = obj.get("command")
    if kind == "restore":
        return ref, _restore(obj, ref)
    try:
        if kind == "ruling":
            ruling = RulingBody.model_validate(obj.get("ruling"))
            log_object: dict[str, Any] = {"ruling": ruling.model_dump(mode="json", exclude_none=True)}
        elif kind == "action":
            log_object = ActionBody.model_validate(obj.get("action")).log_object()
        else:
            raise CommandError(f"unknown command {kind!r} (ruling, action or restore)", ref)
        action = action_of(log_object)
    except ValidationError as exc:
        raise CommandError(f"the {kind} is not valid: {_plain(exc)}", ref) from None
    except (BridgeTableError, ValueError, TypeError) as exc:
        if isinstance(exc, CommandError):
            raise
        raise CommandError(f"not a table action: {exc}", ref) from None
    return ref, replace(action, t=0.0)


def command(club: str, table: str, ref: str, kind: str, body: dict[str, Any], time: str) -> dict[str, Any]:
    """A command object for ``table`` (what the console publishes)."""
    return {"v": SCHEMA, "club": club, "table": table, "ref": ref, "time": time, "command": kind, kind: body}
