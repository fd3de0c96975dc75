"""The round clock and the tables that are late, pure (times are given, never read).

The Director starts the clock when he calls a round (``RoundClock.start(now, round)``): that
round has the session's round time (``Session.minutes_per_round``, the move included), the
next one starts when it is up, and so on to the last. He starts it again to call a round
late or early; the rounds after it follow from there. Calling a round ends the rounds before
it (Law 8): a table still playing one of them is late from that moment.

A table is *late* when the time of a round is up and it has not finished the boards the
movement gives it up to that round (a sit-out round gives it none): ``late_tables``. Law 8
(Duplicate Decisions): a round ends when the Director calls the move, and for a table still
playing when its players move on; the clock tells the Director who is holding the room up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

__all__ = ["Late", "RoundClock", "late_tables"]

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class RoundClock:
    """``minutes`` a round, ``rounds`` of them; ``first`` began at ``started`` (epoch seconds;
    None: not started)."""

    minutes: float
    rounds: int
    started: float | None = None
    first: int = 1

    def __post_init__(self) -> None:
        if self.minutes <= 0 or self.rounds < 1:
            raise ValueError(f"a round clock needs minutes > 0 and rounds >= 1, not {self.minutes}, {self.rounds}")
        if not 1 <= self.first <= self.rounds:
            raise ValueError(f"round {self.first} is not one of the session's rounds 1-{self.rounds}")

    def start(self, now: float, round_: int = 1) -> RoundClock:
        """The clock with round ``round_`` starting at ``now``."""
        return replace(self, started=now, first=round_)

    def stop(self) -> RoundClock:
        return replace(self, started=None, first=1)

    @property
    def running(self) -> bool:
        return self.started is not None

    def ends(self, round_: int) -> float | None:
        """When round ``round_``'s time is up (None: the clock is not running). A round before the
        one the Director called ended when he called it (Law 8: the round ends when he calls the
        move), early or not."""
        if self.started is None or round_ < 1:
            return None
        if round_ < self.first:
            return self.started
        return self.started + (round_ - self.first + 1) * self.minutes * 60.0

    def round_at(self, now: float) -> int | None:
        """The round being played at ``now`` (the last one once all time is up; None: not running)."""
        if self.started is None:
            return None
        done = int(max(0.0, now - self.started) // (self.minutes * 60.0))
        return min(self.rounds, self.first + done)

    def due(self, now: float) -> int:
        """The last round whose time is up at ``now`` (0: none yet)."""
        if self.started is None or now < self.started + self.minutes * 60.0:
            return self.first - 1 if self.started is not None else 0
        done = int((now - self.started) // (self.minutes * 60.0))
        return min(self.rounds, self.first - 1 + done)

    def over(self, now: float) -> bool:
        """All the session's time is up."""
        return self.due(now) >= self.rounds

    def as_json(self, now: float) -> Json:
        """For the page: the round now, when it ends, the seconds left (negative: overtime)."""
        current = self.round_at(now)
        ends = None if current is None else self.ends(current)
        return {"minutes": self.minutes, "rounds": self.rounds, "running": self.running, "round": current,
                "ends_at": ends, "left": None if ends is None else round(ends - now, 1),
                "over": self.over(now) if self.running else False}


@dataclass(frozen=True, slots=True)
class Late:
    """A table that has not finished ``round``'s boards though its time was up ``seconds`` ago."""

    table: str
    round: int
    played: int
    due: int
    seconds: float

    def as_json(self) -> Json:
        return {"table": self.table, "round": self.round, "played": self.played, "due": self.due,
                "late_by": round(self.seconds, 1)}


def late_tables(clock: RoundClock, now: float, played: Mapping[str, int],
                due_by_round: Mapping[str, Mapping[int, int]]) -> list[Late]:
    """The tables late at ``now``: ``played`` is each table's boards finished, ``due_by_round``
    each table's boards it must have finished by the end of each round (the movement's). A table
    is late for the first round whose time is up and whose boards it has not all finished: a round
    before the one the Director called is up since he called it (a round called early makes the
    tables still playing the one before late at once)."""
    last_due = clock.due(now)
    out = []
    for table, due in due_by_round.items():
        done = played.get(table, 0)
        for round_ in range(1, last_due + 1):
            need = due.get(round_, 0)
            ends = clock.ends(round_)
            if done < need and ends is not None:
                out.append(Late(table, round_, done, need, now - ends))
                break
    return out
