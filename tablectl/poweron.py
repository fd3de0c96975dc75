"""The table at power-on: its log opened, checked, and the table rebuilt from it.

A new log gets the session's settings from the table's config (``meta``), then a session
line as its first input; an existing log keeps its own (it is what was played). The rows are
checked against the high-water mark (``EventStore.check``: a loss is logged and written as a
``log_damaged`` alert row for the room) and every loss the log records, this one and those of
earlier starts, becomes a notice pinned for the arbiter. Then ``controller.engine.rebuild``
runs the stored inputs through the same pure functions the table runs live.
``tablectl replay table.sqlite`` builds its engine the same way (``engine_of``).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from controller.engine import Engine, Rebuilt, rebuild, session_start
from controller.records.eventlog import FORMAT, BadRow, Row, input_row
from controller.sensing.deck import DeckRegistry
from controller.sensing.translate import Notice, NoticeKind, Settings
from tablectl.highwater import Loss
from tablectl.store import EventStore

if TYPE_CHECKING:
    from tablectl.runtime import TableSetup

__all__ = ["PowerOn", "engine_of", "power_on"]

log = logging.getLogger("tablectl.runtime")


class PowerOn(NamedTuple):
    """The table rebuilt, what the log lost (None: nothing) and the notices pinned for the arbiter."""

    rebuilt: Rebuilt
    loss: Loss | None
    pinned: tuple[Notice, ...]


def power_on(store: EventStore, s: TableSetup) -> PowerOn:
    """The log opened and the table rebuilt from it, as at power-on (the runtime's start)."""
    meta = store.meta()
    if "session" not in meta:
        if store.row_count:
            log.error("table log %s has rows but no session settings: using the table's config",
                      store.path)
        meta = {
            "format": FORMAT, "table": s.name, "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "session": {"code": s.code, **dict(s.settings)},
            "decks": s.decks.to_mapping(), "deck": s.deck,
            "sensing": dataclasses.asdict(s.sensing),
        }
        store.set_meta(meta)
    engine = engine_of(meta, s.decks, s.sensing, s.deck, str(store.path))
    rows = list(store.read())
    loss, pinned = _damage(store, rows)
    if not any(isinstance(r, Row) and r.is_input for r in rows):
        start = session_start(meta["session"])
        store.append([engine.act(start, "session").rows(input_row(start, 0.0, "session"))])
        rows = list(store.read())
    rebuilt = rebuild(rows, engine)
    damaged = {r.seq for r in rows if isinstance(r, BadRow)}  # the store has logged these
    for bad in rebuilt.bad:
        if bad.seq not in damaged:
            log.error("table log %s: %s", store.path, bad.error)
    if rebuilt.bad:
        log.error("table log %s: %d damaged row(s) skipped", store.path, len(rebuilt.bad))
    for m in rebuilt.mismatches[:20]:
        log.warning("table log %s: re-deriving %s", store.path, m)
    if rebuilt.inputs:
        board = rebuilt.engine.table.board
        where = "no board yet" if board is None else f"board {board.number} ({board.phase.value})"
        log.info("table rebuilt from %d inputs of %s: %s, table time %.1f s", rebuilt.inputs,
                 store.path, where, rebuilt.last_t)
    return PowerOn(rebuilt, loss, tuple(pinned))


def _damage(store: EventStore, rows: list[Row | BadRow]) -> tuple[Loss | None, list[Notice]]:
    """Check the log against its high-water mark (``EventStore.check``: a loss is logged and
    written as an ``alert`` row for the room) and pin a notice for the arbiter of every loss
    the log records, this one and those of earlier starts."""
    loss = store.check(rows)
    pinned: list[Notice] = []
    if store.mark_problem is not None:
        pinned.append(Notice(NoticeKind.LOG_DAMAGED, None, None, None,
                             f"the table's high-water mark is damaged ({store.mark_problem}): "
                             "whether the log lost acknowledged inputs cannot be told this time", 0.0))
    found = [r for r in rows if isinstance(r, Row) and r.kind == "alert" and r.body.get("alert") == "log_damaged"]
    if loss is not None:
        found.append(Row("alert", max((r.t for r in rows if isinstance(r, Row)), default=0.0),
                         {"what": loss.what}))
    for row in found:
        pinned.append(Notice(NoticeKind.LOG_DAMAGED, None, None, None, str(row.body.get("what", "")), row.t))
    return loss, pinned


def engine_of(meta: Mapping[str, Any], decks: DeckRegistry, settings: Settings, deck: str | None,
              where: str, errors: list[str] | None = None) -> Engine:
    """The engine at power-on of the session in ``meta``: its stored decks and sensing settings
    (the log is what was played), else the given ones. What cannot be used is added to
    ``errors`` when given (a replay reports it), else logged as an error (the running table)."""
    configured = decks
    try:
        decks = DeckRegistry.from_mapping(meta["decks"]) if "decks" in meta else decks
        settings = Settings(**meta["sensing"]) if "sensing" in meta else settings
        stored = meta.get("deck", deck)
        deck = stored if isinstance(stored, str) else None
    except (TypeError, ValueError) as exc:
        if errors is None:
            log.error("table log %s: stored decks or sensing settings unusable (%s): using the config's",
                      where, exc)
        else:
            errors.append(f"{where}: the stored decks or sensing settings are unusable ({exc}): defaults used")
    if decks != configured and errors is None:
        log.warning("the enrolled decks differ from those this session started with: the session's "
                    "are used (start a new session to use the new ones)")
    return Engine.new(decks, settings, deck)
