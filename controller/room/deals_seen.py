"""The deals the tables of the room saw of each board, compared (Law 87: the same board with different
deals; Law 7: a board played rotated): ``DealsSeen``, the part of ``controller.room.results.RoomResults``
that takes each deal a table sends (in its states and results) and raises the room's alerts.

A table sends what it has seen of the deal with every state (a state per card played): a deal that
agrees with what every table of the board saw together (``_alike``), while the board is one deal
and none turned, changes no group and is no rotation, and is taken without comparing it with each
table's (at 500 tables, some 125 tables a board and hundreds of states a second).
"""

from __future__ import annotations

from collections.abc import Iterable

from controller.deal import Deal
from controller.errors import NotationError
from controller.room.attribution import RoomAlert, table_order
from controller.room.boards import deals_differ, merged, rotation, turned

__all__ = ["DealsSeen"]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class DealsSeen:
    """Each board's deals as its tables saw them (module doc); ``RoomResults`` scores with them."""

    deals: dict[str, dict[str, Deal]]
    """board -> table -> the deal as that table saw it."""
    turns: dict[str, dict[str, int]]
    """board -> table -> the seats its deal is another table's turned by (Law 7)."""
    _told: dict[str, int]
    _groups: dict[str, list[list[str]]]
    _alike: dict[str, tuple[Deal, int]]

    def _rescore(self, board: str | None = None) -> None:
        raise NotImplementedError  # RoomResults's

    def _deal(self, table: str, board: int, text: object) -> list[RoomAlert]:
        if not isinstance(text, str) or not text:
            return []
        try:
            deal = Deal.parse(text)
        except NotationError:
            return []
        key = str(board)
        known = self.deals.setdefault(key, {})
        if known.get(table) == deal:
            return []
        alike = self._alike.get(key)
        agrees = alike is not None and alike[1] == len(known) and not deals_differ(alike[0], deal)
        if alike is not None and agrees and not self.turns.get(key):
            # the board as every table saw it agrees with this deal: no other deal (Law 87), no turn
            # (Law 7), one group still; without comparing it with each table's (a state per card played)
            known[table] = deal
            self._alike[key] = (merged(alike[0], deal), len(known))
            self._rescore(key)
            self._groups[key] = [sorted(known, key=table_order)]
            return []
        known[table] = deal
        self._rescore(key)
        alerts = self._rotated(table, board, deal)
        groups = self.groups(key)
        if len(groups) == 1 and not self.turns.get(key):
            self._alike[key] = (self.group_deal(key, groups[0]) or deal, len(known))
        else:
            self._alike.pop(key, None)
        told = self._told.get(str(board), 1)
        if len(groups) <= told:
            return alerts
        self._told[str(board)] = len(groups)
        if alerts:  # the new group is the rotation just told
            return alerts
        firsts = sorted((g[0] for g in groups), key=table_order)
        what = f"Board {board} is fouled: {_and([f'table {t}' for t in firsts])} have different deals (Law 87)"
        return [RoomAlert(f"room/87/{board}/{len(groups)}", table, board, "87", what)]

    def _rotated(self, table: str, board: int, deal: Deal) -> list[RoomAlert]:
        """Law 7: ``table``'s deal of ``board`` is another table's turned by some seats (module doc)."""
        turns = self.turns.setdefault(str(board), {})
        turns.pop(table, None)
        for other, seen in sorted(self.deals[str(board)].items(), key=lambda kv: table_order(kv[0])):
            if other == table or turns.get(other):
                continue
            k = rotation(deal, seen)
            if k is None:
                continue
            turns[table] = k
            how = {1: "turned one seat on (North held the West cards)",
                   2: "turned round (North held the South cards)",
                   3: "turned one seat back (North held the East cards)"}[k]
            scored = ("scored with the others" if k == 2
                      else "North-South held the East-West cards: scored as played, against the tables that "
                           "played it so")
            alike = [t for t, d in self.deals[str(board)].items()
                     if t != table and not turns.get(t) and not deals_differ(d, seen)]
            where = f"table {table}" if len(alike) > 1 else f"table {table} or table {other}"
            what = (f"Board {board} was played rotated at {where}: table {table} had the hands of table {other} "
                    f"{how}; {scored} (Law 7)")
            return [RoomAlert(f"room/7/{board}/{table}", table, board, "7", what)]
        return []

    def groups(self, board: str) -> list[list[str]]:
        """The tables of ``board`` by the deal they played (Law 87B): the most tables first; one
        group when the board is not fouled. A board turned round (Law 7, 2 seats) is compared as it
        should have lain."""
        found: list[tuple[Deal, list[str]]] = []
        turns = self.turns.get(board, {})
        for table in sorted(self.deals.get(board, {}), key=table_order):
            deal = self.deals[board][table]
            if turns.get(table) == 2:
                deal = turned(deal, 2)
            for i, (seen, tables) in enumerate(found):
                if not deals_differ(seen, deal):
                    found[i] = (merged(seen, deal), [*tables, table])
                    break
            else:
                found.append((deal, [table]))
        found.sort(key=lambda g: (-len(g[1]), table_order(g[1][0])))
        return [tables for _, tables in found]

    def fouled(self) -> dict[str, list[list[str]]]:
        """Every fouled board's groups of tables (``groups``), by board."""
        out = {}
        for board in sorted(self.deals, key=table_order):
            groups = self._groups.get(board)
            if groups is None:
                groups = self._groups[board] = self.groups(board)
            if len(groups) > 1:
                out[board] = groups
        return out

    def group_deal(self, board: str, tables: Iterable[str]) -> Deal | None:
        """The deal the ``tables`` played ``board`` with, as far as they saw it."""
        deal: Deal | None = None
        for table in tables:
            seen = self.deals.get(board, {}).get(table)
            if seen is not None and self.turns.get(board, {}).get(table) == 2:
                seen = turned(seen, 2)
            if seen is not None:
                deal = seen if deal is None else merged(deal, seen)
        return deal
