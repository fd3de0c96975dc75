"""What the console publishes for the tables besides their players' results: the Director's
corrections (``desk``) and the club's roster (``roster``).

``publish_to_tables(console)`` is called with the players' results (``ConsoleSession._publish_results``):

* for each table whose corrections changed since they were last sent (or since the console linked
  again), the whole list (``controller.room.deskmsg.desk_messages``) is published retained on
  ``bridge/<club>/table/<id>/desk``, so that a table that is off gets it when it comes back;
* the club's roster, names and federation numbers only (never an e-mail address or a club), retained
  on ``bridge/<club>/roster``, for the players who name themselves at the table page.
"""

from __future__ import annotations

import json
from typing import Any

import paho.mqtt.client as mqtt

from controller.room.deskmsg import desk_messages
from tablectl.room.address import valid_name

__all__ = ["desk_texts", "publish_desk", "publish_to_tables", "roster_text"]


def desk_texts(club: str, results: Any) -> dict[str, str]:
    """table -> the text of its ``desk`` message (``results``: the console's ``RoomResults``)."""
    out = {}
    for table, body in desk_messages(results.desk, results.results).items():
        if valid_name(table):
            out[table] = json.dumps({"v": 1, "club": club, **body}, separators=(",", ":"))
    return out


def publish_desk(console: Any) -> None:
    """Publish the ``desk`` messages that changed (module doc); kept in ``console._published`` under
    ``desk/<table>`` (cleared when the console links again: everything is sent again)."""
    if not console._connected:
        return
    with console._lock:
        texts = desk_texts(console.club, console.room.results)
        changed = {t: x for t, x in texts.items() if console._published.get(f"desk/{t}") != x}
    for table, text in changed.items():
        info = console._client.publish(f"bridge/{console.club}/table/{table}/desk", text, qos=1, retain=True)
        if info.rc == mqtt.MQTT_ERR_SUCCESS:
            with console._lock:
                console._published[f"desk/{table}"] = text


def roster_text(club: str, members: list[dict[str, Any]]) -> str:
    """The ``roster`` message: each member's name and federation number, nothing else."""
    return json.dumps({"v": 1, "club": club, "kind": "roster", "members": [
        {"name": str(m.get("name", "")), "federation_id": str(m.get("federation_id") or "")} for m in members
        if str(m.get("name", "")).strip()]}, separators=(",", ":"))


def publish_roster(console: Any) -> None:
    """Publish the roster when it changed (kept in ``console._published`` under ``roster/``: no table id
    has a slash)."""
    if not console._connected:
        return
    text = roster_text(console.club, list(console.people.roster_json().get("members") or []))
    with console._lock:
        if console._published.get("roster/") == text:
            return
    info = console._client.publish(f"bridge/{console.club}/roster", text, qos=1, retain=True)
    if info.rc == mqtt.MQTT_ERR_SUCCESS:
        with console._lock:
            console._published["roster/"] = text


def publish_to_tables(console: Any) -> None:
    """The Director's corrections and the club's roster, where they changed (module doc)."""
    publish_desk(console)
    publish_roster(console)
