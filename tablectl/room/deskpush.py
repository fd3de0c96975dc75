"""The console's side of the ``desk`` message: the Director's corrections published to each table.

``publish_desk(console)`` is called with the players' results (``ConsoleSession._publish_results``):
for each table whose corrections changed since they were last sent (or since the console linked
again), the whole list (``controller.room.deskmsg.desk_messages``) is published retained on
``bridge/<club>/table/<id>/desk``, so that a table that is off gets it when it comes back.
"""

from __future__ import annotations

import json
from typing import Any

import paho.mqtt.client as mqtt

from controller.room.deskmsg import desk_messages
from tablectl.room.address import valid_name

__all__ = ["desk_texts", "publish_desk"]


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
