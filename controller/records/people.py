"""Who played: the players' names the session's records carry (PBN, USEBIO, LIN, the pages).

The room's results know pairs as ``(section, pair)``; the Director's desk knows who sat in
each pair, round by round (a substitute from round 4 on is a change of player, not of pair:
the pair keeps its number and its score). ``Roll`` is the one question the exports and the
pages ask of the desk: who were this pair's players in this round. A pair's two players are
given in seat order, North then South or East then West, as the pair sat on that board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["NO_NAMES", "PairPlayers", "Player", "Roll"]


@dataclass(frozen=True, slots=True)
class Player:
    """A person: the name as the club writes it, and the national federation's number
    (EBU, ACBL, NBB...; empty when unknown)."""

    name: str
    federation_id: str = ""

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError("a player needs a name")


@dataclass(frozen=True, slots=True)
class PairPlayers:
    """The two players of a pair on a board: North then South, or East then West."""

    first: Player
    second: Player

    @property
    def names(self) -> tuple[str, str]:
        return (self.first.name, self.second.name)


class Roll(Protocol):
    """Who played for a pair: what a backend (the desk's roster and seating) must answer."""

    def players(self, section: str | None, pair: str, round_: int | None = None) -> PairPlayers | None:
        """The pair's players in ``round_`` (None: as the pair stands now); None when unnamed."""
        ...


class _NoNames:
    def players(self, section: str | None, pair: str, round_: int | None = None) -> PairPlayers | None:
        return None


NO_NAMES: Roll = _NoNames()
"""The roll of a room whose Director named no one: every pair unnamed."""
