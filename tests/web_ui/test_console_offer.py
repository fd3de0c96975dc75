"""The console's page never loses an alarm to the room's pushes (``web_ui.console._offer``).

A Director's phone on a slow link, or a burst of a hundred tables raising at once, used to fill
the page's queue of 64 messages, which then dropped the oldest one, alarms included. Each room
push makes the ones still waiting out of date, so it replaces them, and no alarm is dropped.
"""

from __future__ import annotations

import asyncio

from web_ui.console import _offer
from web_ui.hub import dumps


def _drain(q: asyncio.Queue[str]) -> list[str]:
    return [q.get_nowait() for _ in range(q.qsize())]


def test_a_burst_of_alarms_among_room_pushes_loses_no_alarm_and_keeps_the_newest_room() -> None:
    q: asyncio.Queue[str] = asyncio.Queue()
    alarms = [dumps({"kind": "alarm", "table": str(t), "text": f"Table {t}: Revoke"}) for t in range(1, 201)]
    for n, alarm in enumerate(alarms):
        _offer(q, dumps({"kind": "room", "version": n}), room=True)
        _offer(q, alarm)
    _offer(q, dumps({"kind": "room", "version": 999}), room=True)
    waiting = _drain(q)
    assert [t for t in waiting if '"alarm"' in t] == alarms  # all 200, in order
    assert waiting[-1] == dumps({"kind": "room", "version": 999})
    assert sum('"room"' in t for t in waiting) == 1


def test_a_stalled_client_is_bounded_losing_its_oldest_alarm_only_past_the_cap(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("web_ui.console.ALARMS_QUEUED", 5)
    q: asyncio.Queue[str] = asyncio.Queue()
    alarms = [dumps({"kind": "alarm", "table": str(t)}) for t in range(8)]
    for alarm in alarms:
        _offer(q, alarm)
    assert _drain(q) == alarms[3:]
