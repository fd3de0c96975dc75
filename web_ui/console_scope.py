"""What a room Director sees on the head console: their rooms' tables only (``tablectl.room.directors``).

The console sends every page the room (``{"kind": "room"}``) and its changes (``{"kind": "delta"}``);
a page whose Director covers some rooms of the event (``scope``: their tables) gets the same
message with only those tables' tiles, calls, recent alerts, late tables and folded calls
(``scoped``), and only their alarms (``alarm_seen``). The results (travellers, ranking) are the
event's, the same for every Director. ``scope`` None: everything.
"""

from __future__ import annotations

from typing import Any

__all__ = ["alarm_seen", "scoped"]

Json = dict[str, Any]

_BY_TABLE = ("tiles", "calls", "calls_changed", "calls_gone", "alerts", "late")
"""The lists of a room message whose items each name their ``table``."""


def scoped(message: Json, scope: frozenset[str] | None) -> Json:
    """``message`` as a Director who sees the tables of ``scope`` gets it (module doc)."""
    if scope is None:
        return message
    out = dict(message)
    for key in _BY_TABLE:
        items = out.get(key)
        if isinstance(items, list):
            out[key] = [x for x in items if isinstance(x, dict) and x.get("table") in scope]
    folded = out.get("folded")
    if isinstance(folded, dict):
        out["folded"] = {t: n for t, n in folded.items() if t in scope}
    return out


def alarm_seen(message: Json, scope: frozenset[str] | None) -> bool:
    """Whether a Director who sees ``scope`` gets the alarm ``message``: their tables', and the
    console's own (the broker lost, another console: no table, or ``room``)."""
    table = message.get("table")
    return scope is None or table is None or table == "room" or table in scope
