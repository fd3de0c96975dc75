"""What each table played on a board, for the travellers of the results files.

The scored results (``controller.fieldscore``) know a table's pairs and North-South's score;
the room knows more: the contract, its declarer, the opening lead and declarer's tricks. The
PBN ``[ScoreTable]`` (``Contract``, ``Declarer``, ``Result``, ``Lead`` columns, PBN 2.1 §5.7)
and the USEBIO ``TRAVELLER_LINE`` (``CONTRACT``, ``PLAYED_BY``, ``LEAD``, ``TRICKS``) write
them when given a ``Plays`` mapping: a traveller line's ``PlayKey`` (section, board as scored,
North-South pair, East-West pair) to its ``TablePlay``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from controller.cards import Card
from controller.contract import Contract
from controller.errors import NotationError
from controller.seats import Seat

__all__ = ["PlayKey", "Plays", "TablePlay", "play_key", "plays_of_room"]

PlayKey = tuple[str, str, str, str]
"""(section or "", board as scored (``7b`` for a fouled board's second group), NS pair, EW pair)."""


@dataclass(frozen=True, slots=True)
class TablePlay:
    """One table's contract (``4SX``; None: passed out), declarer, declarer's tricks and opening lead."""

    contract: Contract | None
    tricks: int | None = None
    lead: Card | None = None

    @property
    def contract_text(self) -> str:
        return "Pass" if self.contract is None else self.contract.text

    @property
    def declarer(self) -> Seat | None:
        return None if self.contract is None else self.contract.declarer

    @classmethod
    def parse(cls, contract: object, declarer: object, tricks: object = None, lead: object = None) -> TablePlay | None:
        """From a room's result fields (``"4SX"``, ``"N"``, 10, ``"HQ"``); None when they do not
        say what was played (no contract, an unreadable one)."""
        if not isinstance(contract, str) or not contract.strip():
            return None
        if contract.strip().upper() in ("PASS", "P", "PASSED OUT", "AP"):
            return cls(None)
        try:
            played = Contract.parse(contract.strip(), Seat.parse(str(declarer or "")))
            card = Card.parse(lead) if isinstance(lead, str) and lead else None
        except (NotationError, ValueError):
            return None
        count = tricks if isinstance(tricks, int) and 0 <= tricks <= 13 else None
        return cls(played, count, card)


Plays = Mapping[PlayKey, TablePlay]


def play_key(section: str | None, board: str, ns: str, ew: str) -> PlayKey:
    return (section or "", board, ns, ew)


def plays_of_room(travellers: Iterable[Mapping[str, Any]], scores: Mapping[str, Any],
                  raw: Mapping[str, Mapping[str, Mapping[str, Any]]] | None = None) -> dict[PlayKey, TablePlay]:
    """The plays of a room's results: ``travellers`` and ``scores`` as ``RoomResults.travellers()``
    and ``.scores()`` give them (the traveller's contract, declarer, tricks and lead; the scores'
    pairs, section and board as scored); ``raw`` (board, table: the table's own result) gives
    the opening lead from the play when the Director's desk did not set one."""
    by_table = scores.get("boards", {})
    out: dict[PlayKey, TablePlay] = {}
    for traveller in travellers:
        board = str(traveller.get("board"))
        for row in traveller.get("results", ()):
            table = str(row.get("table"))
            who = by_table.get(board, {}).get(table)
            if who is None or who.get("ns") is None or who.get("ew") is None:
                continue
            lead = row.get("lead")
            if lead is None and raw is not None and "desk" not in row and "original" not in row:
                cards = raw.get(board, {}).get(table, {}).get("play")
                lead = cards[0] if isinstance(cards, list) and cards and isinstance(cards[0], str) else None
            played = TablePlay.parse(row.get("contract"), row.get("declarer"), row.get("tricks"), lead)
            if played is not None:
                out[play_key(who.get("section"), str(who.get("label") or board), str(who["ns"]),
                             str(who["ew"]))] = played
    return out
