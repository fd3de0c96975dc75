"""An event of several sessions: each partnership's results carried over from session to session (pure).

A club's two-session pairs championship, or a ladder over several club nights: the Director
picks the sessions kept (``tablectl.room.sessions``) and the one being played, and the console
adds them up. A partnership is known by its players, not by its pair number (pair 3 on Monday may
be pair 7 on Thursday): the two players named for the pair at the start of each session
(``controller.room.roster``), each by federation number, or by name without one, in either
order. A pair not named is its session's alone: it is listed, never carried over.

``carry_over`` gives each partnership its sessions (pair number, score) and its total:

* matchpoints: the percentage over every board it played in the event, each session's
  percentage weighted by its boards (``percent``), and the matchpoints added up (``total``);
* IMPs and victory points: the totals added up.

Ranked by percentage (matchpoints) or total, ties sharing a place (``3=``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.room.roster import section_key

__all__ = ["EventSession", "carry_over", "partnership"]

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class EventSession:
    """One session of the event: its name, its ranking rows (``RoomResults.ranking``), the pairs'
    names (``Seating.names``) and its scoring (``MP``, ``IMP``...)."""

    name: str
    ranking: Sequence[Json]
    names: Mapping[str, Sequence[Json]]
    scoring: str = "MP"


def partnership(names: Mapping[str, Sequence[Json]], section: str | None, pair: str) -> tuple[str, ...] | None:
    """Who a pair is in the event: its two players at the start of the session, each by federation
    number or name, in either order (None: the pair was not named)."""
    seats = names.get(f"{section_key(section)}|{pair}") or []
    if not seats:
        return None
    first = min(seats, key=lambda s: int(s.get("from", 1)))
    ids = list(first.get("ids") or ["", ""])
    keys = [i.strip().upper() if i else "name:" + " ".join(str(n).split()).casefold()
            for i, n in zip(ids, first["names"], strict=False)]
    return tuple(sorted(keys))


def carry_over(sessions: Sequence[EventSession]) -> Json:
    """The event's ranking (module doc): ``{"sessions": [names], "scoring", "ranking": [{"players",
    "sessions": {name: {"pair", "section", "percent", "total", "boards"}}, "played", "boards",
    "total", "percent", "place"}]}``."""
    scoring = sessions[0].scoring if sessions else "MP"
    mixed = any(s.scoring != scoring for s in sessions)
    rows: dict[tuple[str, ...], Json] = {}
    for session in sessions:
        for st in session.ranking:
            key = partnership(session.names, st.get("section"), str(st["pair"]))
            seats = session.names.get(f"{section_key(st.get('section'))}|{st['pair']}") or []
            if key is None:
                key = ("unnamed", session.name, section_key(st.get("section")), str(st["pair"]))
            row = rows.setdefault(key, {"players": list(seats[0]["names"]) if seats else None, "sessions": {},
                                        "played": 0, "boards": 0, "total": 0.0, "weighted": 0.0})
            boards = int(st.get("boards") or 0)
            percent = st.get("percent")
            row["sessions"][session.name] = {"pair": st["pair"], "section": st.get("section"), "percent": percent,
                                             "total": st.get("total"), "boards": boards}
            row["played"] += 1
            row["boards"] += boards
            row["total"] += float(st.get("total") or 0.0)
            if isinstance(percent, int | float):
                row["weighted"] += percent * boards
    by_percent = scoring == "MP" and not mixed
    out = []
    for row in rows.values():
        weighted = row.pop("weighted")
        row["percent"] = round(weighted / row["boards"], 2) if by_percent and row["boards"] else None
        row["total"] = round(row["total"], 2)
        out.append(row)

    def value(row: Json) -> float:
        if by_percent:
            return float(row["percent"]) if row["percent"] is not None else -1.0
        return float(row["total"])

    out.sort(key=lambda r: (-value(r), -r["played"]))
    for row in out:
        tied = sum(1 for r in out if value(r) == value(row))
        rank = 1 + sum(1 for r in out if value(r) > value(row))
        row["place"] = f"{rank}=" if tied > 1 else str(rank)
        row["rank"] = rank
    return {"sessions": [s.name for s in sessions], "scoring": "mixed" if mixed else scoring,
            "by_percent": by_percent, "ranking": out}
