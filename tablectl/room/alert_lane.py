"""A console's alert lane: the tables' alerts on an MQTT connection of their own.

A broker writes a client's messages into one socket in the order they came, and paho reads them one
at a time on one thread: on a single connection, an alert that came just after five hundred tables'
states waits until every one of them is read. So a console reads the alerts (``table/+/alert``:
irregularities, calls for the Director, the tables' answers) on a second connection, its lane, and
everything else on its main one; an event's room bridges its alerts to the centre on a bridge
connection of their own for the same reason (``tablectl.room.bridge``). Both sockets feed the
console's one intake, where alerts are taken first (``Console._run``); a message's ``seq`` and
``prev`` put the two lanes back in order (an alert that overtakes the event before it is held until
that event comes: ``controller.room.console.Stream``).

The lane logs in as ``alerts-USER`` with the console's own password (``alert_lane_user``), read-only
on the alerts. A broker whose files were written before there were lanes has no such user: the lane
is refused once, says so, and the console takes the alerts on its main connection instead
(``on_refused``), as it did before. The lane keeps a persistent session too (QoS 1): what comes
while it is away waits in the broker.

A lane away while the main connection is up (``lost_since``) delays the alerts, nothing more: paho
reconnects by itself within seconds. Once it has been away ``LANE_LATE`` seconds the console says
so on its page (``Console.broker``'s ``alerts``), and ``on_change`` wakes the page then and again
when the lane is back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from tablectl.room.address import ClubAddress, ClubTopics, alert_lane_user
from tablectl.room.link import room_client

log = logging.getLogger(__name__)

__all__ = ["LANE_LATE", "AlertLane", "lane_address"]

LANE_LATE = 10.0
"""Seconds the lane may be away (reconnecting) before the console's page says the alerts are late."""


def lane_address(address: ClubAddress) -> ClubAddress:
    """``address`` as the lane logs in: ``alerts-USER`` with the same password (anonymous stays anonymous)."""
    if not address.username:
        return address
    return address.with_credentials(alert_lane_user(address.username), address.password)


class AlertLane:
    """The console's connection for the tables' alerts (module doc). ``on_message`` is paho's callback
    (the console's own); ``on_refused`` is called once if the broker refuses the lane's user."""

    def __init__(self, address: ClubAddress, client_id: str, on_message: Callable[..., None],
                 on_refused: Callable[[str], None], *, keepalive: int = 5,
                 on_change: Callable[[], None] = lambda: None, clock: Callable[[], float] = time.time) -> None:
        self.address = lane_address(address)
        self.topic = ClubTopics(address.club).alerts
        self.keepalive = keepalive
        self.connected = False
        """Linked and subscribed (the broker acknowledged the subscription): no alert is missed from now on."""
        self.refused: str | None = None
        """Why the broker refused the lane (None: it has not): the alerts then come on the main connection."""
        self.lost_since: float | None = None
        """Since when (``clock``) the lane has been away, from its start or from a drop (None: it is up, or refused)."""
        self._on_refused = on_refused
        self._on_change = on_change
        self._clock = clock
        self._stopping = False
        self._lock = threading.Lock()
        self._client = room_client(self.address, client_id, clean_session=False)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_subscribe = self._on_subscribe
        self._client.on_message = on_message

    @property
    def ready(self) -> bool:
        """Whether the alerts reach the console: on the lane, or on the main connection once it was refused."""
        return self.connected or self.refused is not None

    def start(self) -> None:
        self._away()
        self._client.connect_async(self.address.host, self.address.port, keepalive=self.keepalive)
        self._client.loop_start()

    def _away(self) -> None:
        """The lane is not up from now on: ``LANE_LATE`` seconds later the page is woken, to say so if it still
        is not."""
        self.lost_since = self._clock()
        timer = threading.Timer(LANE_LATE, self._on_change)
        timer.daemon = True
        timer.start()

    def stop(self) -> None:
        self._stopping = True
        self._client.disconnect()
        self._client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: Any, reason: Any,
                    properties: object) -> None:
        if reason.is_failure:
            self._refuse(str(reason))
            return
        client.subscribe(self.topic, 1)

    def _on_subscribe(self, client: mqtt.Client, userdata: object, mid: int, reasons: Any, properties: object) -> None:
        if any(getattr(r, "is_failure", False) for r in reasons):  # the broker's ACL does not let the lane read them
            self._refuse(f"its subscription to {self.topic} refused")
            return
        self.connected = True
        if self.lost_since is not None:
            self.lost_since = None
            self._on_change()

    def _refuse(self, reason: str) -> None:
        """The broker will not give the lane the alerts: the console reads them on its main connection."""
        with self._lock:
            first = self.refused is None
            self.refused = reason
            self.lost_since = None      # the alerts come on the main connection: not late
        if first:
            log.warning("the room's broker refused the console's alert lane (user %s: %s): the alerts come on the "
                        "console's main connection, behind its other messages; run tablectl room init again to "
                        "give the broker the lane's user", self.address.username, reason)
            # stop asking a broker that has no lane user (from a thread of its own: paho's cannot stop itself)
            threading.Thread(target=self.stop, name="alert-lane-stop", daemon=True).start()
            self._on_refused(reason)

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                       properties: object) -> None:
        was, self.connected = self.connected, False
        if was and not self._stopping:
            log.warning("the console's alert lane lost the room's broker (%s): reconnecting", reason)
            self._away()
