"""The players' names from a table page, seated at the console through its People (the Players panel).

Before the first board the players at a table may name themselves on the table page (picked from
the club's roster or typed: ``web_ui.table_players``). The table writes them in its log as an
``alert`` row, ``{"alert": "players_named", "players": {"N": {"name", "federation_id"}, ...}}``, which
its link sends the console like every outbox row (so nothing is lost while the room is away).

``take_players_named(console, table, body)`` seats them: the pairs the movement seats at that table
(the round it is in, or its first round before any board), North-South as North then South and
East-West as East then West, through the console's own ``People.name_pair``. The Director's own
entry wins: a pair he has named already (or the players named before) is left as it is, and he can
name a pair again over what the players entered. A pair with only one of its two players named, a
table the session lacks, or a console without a session is left alone (logged).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from typing import Any

from controller.records.people import Player
from controller.room.roster import RosterError

__all__ = ["pairs_at", "take_players_named", "take_players_named_in"]

log = logging.getLogger(__name__)

_SIDES = (("NS", "N", "S"), ("EW", "E", "W"))


def pairs_at(results: Any, table: str) -> tuple[str | None, dict[str, str]] | None:
    """The section and the pairs (``NS``, ``EW``) seated at ``table`` now as the movement has it, or in
    its first round before any board; None without a session or for a table it lacks."""
    now = results.current(table)
    if now is not None:
        return now.section, {"NS": now.ns, "EW": now.ew}
    where = results.place(table)
    if where is None:
        return None
    section, _, sittings = where
    first = sittings[0]
    return section or None, {"NS": first.ns, "EW": first.ew}


def _player(value: Any) -> Player | None:
    if not isinstance(value, Mapping) or not isinstance(value.get("name"), str) or not value["name"].strip():
        return None
    number = value.get("federation_id") or ""
    return Player(value["name"].strip(), number.strip() if isinstance(number, str) else "")


def take_players_named(console: Any, table: str, body: Mapping[str, Any]) -> list[str]:
    """Seat the players a table's page named (module doc); the pairs named, as ``"<section>|<pair>"``."""
    players = body.get("players")
    if not isinstance(players, Mapping):
        return []
    with console._lock:
        found = pairs_at(console.room.results, table)
    if found is None:
        log.info("console: table %s named its players, but the session does not seat pairs there", table)
        return []
    section, pairs = found
    named = []
    for side, first_seat, second_seat in _SIDES:
        first, second = _player(players.get(first_seat)), _player(players.get(second_seat))
        pair = pairs[side]
        if first is None or second is None or pair in ("", "0"):
            continue
        if console.people.players(section, pair) is not None:
            log.info("console: pair %s is named already (the Director's entry wins): table %s's names left",
                     pair, table)
            continue
        try:
            console.people.name_pair(section, pair, first, second)
        except (RosterError, ValueError) as exc:
            log.warning("console: table %s's names for pair %s not taken: %s", table, pair, exc)
            continue
        named.append(f"{section or ''}|{pair}")
    if named:
        console.people_changed()
    return named


def take_players_named_in(console: Any, kept: Iterable[tuple[str, str, int, str, str, float]]) -> None:
    """``take_players_named`` for each new ``players_named`` alert among the messages the console just
    kept (``(table, session, seq, kind, text, received)``)."""
    for table, _session, _seq, kind, text, _at in kept:
        if kind == "alert" and '"players_named"' in text:
            try:
                body = json.loads(text)
            except ValueError:
                continue
            if isinstance(body, dict) and body.get("alert") == "players_named":
                take_players_named(console, table, body)
