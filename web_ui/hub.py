"""Live updates: the latest view payload of each audience, pushed to one queue per WebSocket client.

The table's ``subscribe`` callback runs on the table's thread; it only hands the ``seq`` to
the event loop (``loop.call_soon_threadsafe``). One pusher task then takes a snapshot off
the loop, builds each audience's payload once, and puts its JSON text into every client's
queue. A queue holds one payload: a slow client skips to the latest, and a reconnecting
client gets the latest at once. Spectators get the public payloads ``delay`` seconds late.
At a table in a club room both public payloads obey the room's rule (``web_ui.privacy``: a board
is shown only once released); a new message from the room rebuilds them.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

import anyio
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.views import arbiter_view, spectator_view, table_view
from web_ui import privacy
from web_ui.service import Snapshot, TableService

__all__ = ["Channel", "DelayBuffer", "Hub", "arbiter_payload", "dumps", "pump"]


def dumps(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"))


async def pump(ws: WebSocket, queue: asyncio.Queue[str], still_allowed: Callable[[], bool] | None = None) -> None:
    """One client's WebSocket (accepted): ``queue``'s texts sent in order until the client goes; what it sends
    is read and dropped. Once ``still_allowed`` says no (its session ended), the next text closes it instead
    (4401, "session expired")."""
    async with anyio.create_task_group() as tasks:
        async def reader() -> None:
            with suppress(WebSocketDisconnect, RuntimeError, OSError):
                while (await ws.receive())["type"] != "websocket.disconnect":
                    pass
            tasks.cancel_scope.cancel()

        async def writer() -> None:
            # a client gone mid-send ends the connection, nothing more to do
            with suppress(WebSocketDisconnect, RuntimeError, OSError):
                while True:
                    text = await queue.get()
                    if still_allowed is not None and not still_allowed():
                        await ws.close(code=4401, reason="session expired")
                        break
                    await ws.send_text(text)
            tasks.cancel_scope.cancel()

        tasks.start_soon(reader)
        tasks.start_soon(writer)


@dataclass(slots=True)
class Channel:
    """One audience: its latest payload (JSON text) and its clients' queues."""

    latest: str | None = None
    queues: set[asyncio.Queue[str]] = field(default_factory=set)

    def publish(self, text: str) -> None:
        self.latest = text
        for q in self.queues:
            if q.full():
                q.get_nowait()  # the client only needs the newest full view
            q.put_nowait(text)

    def join(self) -> asyncio.Queue[str]:
        q: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
        if self.latest is not None:
            q.put_nowait(self.latest)
        self.queues.add(q)
        return q

    def leave(self, q: asyncio.Queue[str]) -> None:
        self.queues.discard(q)


@dataclass(slots=True)
class DelayBuffer:
    """Payloads held back ``delay`` seconds: ``push(item, now)``, then ``due(now)`` releases them in order."""

    delay: float
    limit: int = 100_000
    _items: deque[tuple[float, str]] = field(default_factory=deque)

    def push(self, item: str, now: float) -> None:
        self._items.append((now + self.delay, item))
        while len(self._items) > self.limit:
            self._items.popleft()

    def due(self, now: float) -> list[str]:
        out = []
        while self._items and self._items[0][0] <= now:
            out.append(self._items.popleft()[1])
        return out

    def next_release(self) -> float | None:
        return self._items[0][0] if self._items else None


def arbiter_payload(snap: Snapshot, table_name: str) -> dict[str, Any]:
    """The arbiter's view of a snapshot, with device health and notices."""
    return arbiter_view(snap.state, seq=snap.seq, now=snap.now, table_name=table_name,
                        health=snap.health, notices=snap.notices)


class Hub:
    """The pusher: builds the payloads after each change and publishes them to the channels."""

    def __init__(self, service: TableService, table_name: str, spectator_delay: float) -> None:
        self.service = service
        self.table_name = table_name
        self.table = Channel()
        self.spectator = Channel()
        self.arbiter = Channel()
        self.delay = max(0.0, spectator_delay)
        self._buffer = DelayBuffer(self.delay)
        self._dirty = asyncio.Event()
        self._held = asyncio.Event()
        self._last_seq = -1
        self._last_room = -1
        self._arbiter_wanted = False
        self._tasks: list[asyncio.Task[None]] = []
        self._unsubscribe: Callable[[], None] | None = None
        self.last_snapshot: Snapshot | None = None

    async def start(self) -> None:
        loop = asyncio.get_running_loop()

        def changed(seq: int) -> None:  # on the table's thread: only hand it to the loop
            if not loop.is_closed():
                with suppress(RuntimeError):  # the loop closed meanwhile: nobody to tell
                    loop.call_soon_threadsafe(self._dirty.set)

        self._unsubscribe = self.service.subscribe(changed)
        self._dirty.set()
        self._tasks = [asyncio.create_task(self._push()), asyncio.create_task(self._release())]

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def refresh(self) -> None:
        """Rebuild and publish every payload now (an arbiter joined: his channel had none)."""
        self._last_seq = -1
        self._arbiter_wanted = True
        self._dirty.set()

    async def snapshot(self) -> Snapshot:
        """A snapshot taken off the event loop (the table may hold its lock for a moment)."""
        return await asyncio.to_thread(self.service.snapshot)

    def arbiter_payload(self, snap: Snapshot) -> dict[str, Any]:
        return arbiter_payload(snap, self.table_name)

    def table_payload(self, snap: Snapshot) -> dict[str, Any]:
        payload = table_view(snap.state, seq=snap.seq, now=snap.now, table_name=self.table_name)
        return privacy.table_payload(privacy.with_answer(payload, self.service), privacy.release_of(self.service))

    def spectator_payload(self, snap: Snapshot) -> dict[str, Any]:
        payload = spectator_view(snap.state, seq=snap.seq, now=snap.now, table_name=self.table_name)
        payload = privacy.spectator_payload(payload, privacy.release_of(self.service))
        payload["delay"] = self.delay
        return payload

    async def _push(self) -> None:
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            snap = await self.snapshot()
            room = int(getattr(self.service, "room_version", 0))
            if snap.seq <= self._last_seq and room == self._last_room:
                continue
            self._last_seq, self._last_room = snap.seq, room
            self.last_snapshot = snap
            self.table.publish(dumps(self.table_payload(snap)))
            spectator = dumps(self.spectator_payload(snap))
            if self.delay == 0:
                self.spectator.publish(spectator)
            else:
                self._buffer.push(spectator, asyncio.get_running_loop().time())
                self._held.set()
            if self.arbiter.queues or self._arbiter_wanted:
                self._arbiter_wanted = False
                self.arbiter.publish(dumps(self.arbiter_payload(snap)))
            else:
                self.arbiter.latest = None  # built on demand when an arbiter connects

    async def _release(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            nxt = self._buffer.next_release()
            if nxt is None:
                self._held.clear()
                await self._held.wait()
                continue
            wait = nxt - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            for text in self._buffer.due(loop.time()):
                self.spectator.publish(text)
