"""The addresses a club types: the one place their defaults are written.

A table's pages, the Director's console and the room's broker each have one port, whatever
the machine: the demo on this computer and a club's Raspberry Pis use the same numbers.
The scheme follows from where the pages are served: plain HTTP on this machine only
(``LOCAL_HOST``, the demo), HTTPS as soon as another device reaches them (``LAN_HOST``, a
club), since the PIN and the arbiter's session must never cross the club's network in clear.

``docs/addresses.md`` says the same for the club; ``tests/test_addresses.py`` reads the
docs, the Makefile and the systemd units of ``hardware/deploy/`` against these values.
"""

from __future__ import annotations

__all__ = ["BROKER_PORT", "BROKER_TLS_PORT", "CONSOLE_PORT", "LAN_HOST", "LOCAL_HOST", "TABLE_PORT"]

LOCAL_HOST = "127.0.0.1"
"""Where pages listen unless told otherwise: this machine only, plain HTTP."""

LAN_HOST = "0.0.0.0"
"""Every address of the machine: the club's network reaches the pages, over HTTPS only."""

TABLE_PORT = 8000
"""A table's pages (``/``, ``/arbiter``, ``/spectator``, ``/results``): ``tablectl run`` and
``tablectl demo``; http://127.0.0.1:8000/ on this machine, https://<table>.local:8000/ in a club."""

CONSOLE_PORT = 8100
"""The Director's console (``tablectl console``, ``tablectl room demo``); in the room demo,
table N serves its pages on ``CONSOLE_PORT + N``."""

BROKER_PORT = 1883
"""The club room's Mosquitto broker, plain MQTT (``mqtt://``)."""

BROKER_TLS_PORT = 8883
"""The club room's Mosquitto broker with TLS (``mqtts://``)."""
