"""The boards the room's tables played, as board records for PBN and LIN (the console's downloads).

Each table sends its finished boards to the console (``tablectl replay --json``'s board
entries: deal, auction, play, contract, tricks). ``room_records`` turns them into
``BoardRecord``s, a record per table and board, in board then table order, with the
players' names from a ``Roll`` (the pairs and round from the room's scores) and the table in
a ``[Table]`` tag. A table's entry that cannot be read (a call or card the notation refuses)
is left out and said so, never half written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.calls import Call
from controller.cards import Card
from controller.deal import Deal
from controller.errors import NotationError
from controller.records.model import BoardRecord
from controller.records.people import NO_NAMES, Roll
from controller.seats import Seat, Vulnerability

__all__ = ["room_records"]

Json = Mapping[str, Any]


def _order(key: str) -> tuple[int, str]:
    digits = "".join(ch for ch in key if ch.isdigit())
    return (int(digits) if digits else 0, key)


def room_records(raw: Mapping[str, Mapping[str, Json]], scores: Json | None = None, *, roll: Roll = NO_NAMES,
                 event: str = "", site: str = "", date: str = "") -> tuple[list[BoardRecord], list[str]]:
    """The records of ``raw`` (board, table: the table's board entry) and what was left out.

    ``scores`` (``RoomResults.scores()``) gives each table's pairs, section and round, which
    ``roll`` turns into the North, East, South and West names; ``event``, ``site`` and ``date``
    (PBN ``YYYY.MM.DD``) fill the tags of the same names."""
    seated = (scores or {}).get("boards", {})
    records: list[BoardRecord] = []
    left_out: list[str] = []
    for board in sorted(raw, key=_order):
        for table in sorted(raw[board], key=_order):
            try:
                records.append(_record(board, table, raw[board][table], seated.get(board, {}).get(table), roll,
                                       (("Event", event or "?"), ("Site", site or "?"), ("Date", date or "?"))))
            except (NotationError, ValueError, TypeError, KeyError) as exc:
                left_out.append(f"board {board} at table {table}: {exc}")
    return records, left_out


def _record(board: str, table: str, entry: Json, who: Json | None, roll: Roll,
            head: tuple[tuple[str, str], ...]) -> BoardRecord:
    number = int(entry.get("number") or board)
    dealer = Seat.parse(str(entry["dealer"])) if entry.get("dealer") else None
    vul = Vulnerability.parse(str(entry["vul"])) if entry.get("vul") else None
    deal = Deal.parse(str(entry["deal"])) if entry.get("deal") else None
    calls = tuple(Call.parse(str(c)) for c in entry.get("auction") or ())
    play = tuple(Card.parse(str(c)) for c in entry.get("play") or ())
    tricks = entry.get("tricks")
    claim = tricks if isinstance(tricks, int) and entry.get("contract") not in (None, "Pass") \
        and len(play) < 52 else None
    tags = [*head, ("Table", table)]
    return BoardRecord(source=f"board {board} at table {table}", number=number, dealer=dealer,
                       vulnerability=vul, deal=deal, calls=calls or None, play=play, claim=claim,
                       tags=tuple(tags), players=_players(who, roll))


def _players(who: Json | None, roll: Roll) -> tuple[str, ...]:
    """North, East, South, West as the roll names the two pairs (empty when it names neither)."""
    if who is None:
        return ()
    section, rnd = who.get("section"), who.get("round")
    ns = roll.players(section, str(who.get("ns")), rnd) if who.get("ns") is not None else None
    ew = roll.players(section, str(who.get("ew")), rnd) if who.get("ew") is not None else None
    if ns is None and ew is None:
        return ()
    north, south = ns.names if ns is not None else ("", "")
    east, west = ew.names if ew is not None else ("", "")
    return (north, east, south, west)
