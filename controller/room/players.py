"""What the players at a table may see of the room's results, pure: ``for_table``.

The console publishes to each table (``bridge/<club>/table/<id>/results``, retained) what its
players may see, as the Director has set it (``PlayerSettings``):

* the **travellers** (``travellers`` on or off): a board's results at every table, only once the
  players at this table have played it themselves, never before (it would tell them the deal):
  the boards this table has finished with the pairs seated at it now, the round they are in.
  When the table has finished that round and the round clock has moved on, the players move:
  the round's travellers go from the table, so the next pair never sees a board it may still
  play. Without the Director's session (no movement) the table's pairs stay put, and every board
  it finished is theirs. Once the session is over, every board the table finished is shown;
  a board the table has not finished never is;
* each seated pair's **scorecard**: its boards among those shown, its score and points;
* the **ranking** (``ranking``): ``live`` (as it stands, all along), ``end`` (once the session is
  over: the Director ends it, or every table has played all its boards) or ``never``; a
  scorecard shows the pair's place and total only when the ranking is shown;
* the boards **released** (``controller.room.release``): a traveller, and a scorecard's contract,
  result and points, only for a board that every table due to play it has finished (or the
  Director released), whatever the settings: a player who opens another table's page learns
  nothing of a board he has still to play. The table hides from its spectators every board not
  released (``web_ui.privacy``).

A table shows what it receives only for boards it has finished itself (``web_ui.player_results``),
whatever a message says: the console's rule above, and the table's own check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.room.release import Released, released
from controller.room.results import Attribution, RoomResults, table_order

__all__ = ["RANKING_WHEN", "PlayerSettings", "for_table", "session_complete"]

Json = dict[str, Any]

RANKING_WHEN = ("end", "live", "never")
"""When the players see the ranking: at the end of the session, all along, or never."""


@dataclass(frozen=True, slots=True)
class PlayerSettings:
    """The Director's two settings for the players' results page (module doc)."""

    travellers: bool = True
    ranking: str = "end"

    def __post_init__(self) -> None:
        if self.ranking not in RANKING_WHEN:
            raise ValueError(f"the ranking is shown to the players {', '.join(RANKING_WHEN)}, not {self.ranking!r}")

    def as_json(self) -> Json:
        return {"travellers": self.travellers, "ranking": self.ranking}


def session_complete(results: RoomResults) -> bool:
    """Every table of the Director's session has a result on every board its movement gives it."""
    session = results.session
    if session is None:
        return False
    have: dict[tuple[str | None, int, int], int] = {}
    for (_, _), (who, _, _) in results.scored().rows.items():
        if who.round is not None and who.sitting_table is not None:
            key = (who.section, who.sitting_table, who.round)
            have[key] = have.get(key, 0) + 1
    for name, movement in session.sections:
        for s in movement.sittings:
            if not s.sit_out and have.get((name or None, s.table, s.round), 0) < movement.boards_per_round:
                return False
    return True


def _shown(results: RoomResults, table: str, ended: bool, clock_round: int | None) -> list[tuple[str, Attribution]]:
    """The boards ``table``'s players may see (module doc), with whom each was played by."""
    rows = results.scored().rows
    mine = [(board, rows[(board, table)][0]) for board in results.results
            if table in results.results[board] and (board, table) in rows]
    if ended or results.session is None:
        return mine
    now = results.current(table)
    if now is None:
        return []
    shown = [(board, who) for board, who in mine
             if who.round == now.round and {who.ns, who.ew} == {now.ns, now.ew} and not who.law15]
    finished = len(shown) >= results.boards_per_round(table)
    if finished and clock_round is not None and clock_round > (now.round or 0):
        return []  # the round is over at this table and the clock has moved on: the players move
    return shown


_HELD_FIELDS = ("contract", "declarer", "result", "status", "score", "points", "percent", "top")
"""What a scorecard row keeps back until its board is released."""


def held_back(row: Json) -> Json:
    """A scorecard row of a board not released yet: where and against whom, nothing of the board."""
    return {**{k: v for k, v in row.items() if k not in _HELD_FIELDS}, **dict.fromkeys(_HELD_FIELDS), "held": True}


def for_table(results: RoomResults, table: str, settings: PlayerSettings, *, ended: bool,
              clock_round: int | None = None, travellers_now: list[Json] | None = None,
              ranking_now: list[Json] | None = None, release: Released | None = None) -> Json:
    """The results message for ``table``'s players (module doc); ``clock_round`` is the round the
    round clock is in (None: no clock); ``travellers_now`` and ``ranking_now`` the room's, when the
    caller has them already (one computation for every table); ``release`` the boards released
    (``controller.room.release``; by default: every board at the session's end, else those that
    every table due to play them has finished)."""
    if release is None:
        release = released(results, over=ended)
    shown = sorted(_shown(results, table, ended, clock_round), key=lambda bw: table_order(bw[0]))
    travellers: list[Json] = []
    pairs: list[tuple[str | None, str]] = []
    if settings.travellers:
        every = results.travellers() if travellers_now is None else travellers_now
        by_board = {t["board"]: t for t in every}
        travellers = [by_board[board] for board, _ in shown if board in by_board and release.shows(board)]
        now = results.current(table) if not ended else None
        last = shown[-1][1] if shown else None
        seated = now or last
        if seated is not None:
            pairs = [(seated.section, seated.ns), (seated.section, seated.ew)]
    boards = {board for board, _ in shown}
    show_ranking = settings.ranking == "live" or (settings.ranking == "end" and ended)
    cards = []
    for section, pair in pairs:
        card = results.scorecard(pair, section, None if ended else boards, None if ended else table)
        rows = [row if release.shows(row["board"]) else held_back(row) for row in card["boards"]]
        cards.append({**card, "boards": rows, "standing": card["standing"] if show_ranking else None})
    return {"kind": "results", "table": table, "name": results.name, "ended": ended,
            "settings": settings.as_json(), "boards": sorted(boards, key=table_order),
            "released": release.as_json(), "travellers": travellers, "scorecards": cards,
            "ranking": (results.ranking() if ranking_now is None else ranking_now) if show_ranking else None}
