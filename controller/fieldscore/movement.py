"""Movements: who sits where in each round, and which boards each table plays (pure).

A movement is a schedule of ``Sitting`` values, one per table and round: the pair (or team)
at North-South, the one at East-West, and the board set they play. Board set ``s`` holds
boards ``first_board + (s - 1) * boards_per_round`` onwards, ``boards_per_round`` of them.
Every standard movement is generated here, none is typed in:

- **Mitchell** (``mitchell``): North-South pairs 1..T stay at their table; East-West pairs
  T+1..2T start at tables 1..T and move up one table a round, the boards down one. With an
  even number of tables the East-West pairs skip a table before round T/2 + 1 (a skip
  Mitchell), so a full even Mitchell has T - 1 rounds. In an arrow-switched round the pairs
  play the boards in the other direction (the North-South pair sits East-West).
- **Howell** (``howell``): 2T pairs, 2T - 1 rounds, 2T - 1 board sets; every pair meets
  every other pair once and plays every board set once, North-South as often as East-West.
  Pair 2T stays at table 1; the others follow a cyclic schedule on Z_m (m = 2T - 1): in
  round r pair 2T meets the pair of residue r, and each "starter" pair {a, b} of residues
  meets at its table as {a + r, b + r}, so every two pairs meet once. Each table's boards
  are its "adder" offset plus r, and the offsets are found by a deterministic backtracking
  search so that each pair meets each offset once (a Room square: Mullin and Wallis, 1975).
  The circle method's starter {k, -k} is tried first; where it has no adder (5 tables) the
  search also chooses the starter. Room squares of side 3 and 5 do not exist, so a 2- or
  3-table Howell must share boards: the tables of a round that play the same set pass the
  boards between them (or play duplicated copies), as the published 2- and 3-table Howells
  do; those schedules come from a search that keeps the sharing to the least (every round
  for 2 tables, one round played by all three tables for 3).
- **A team match** (``team_match``): two teams, two rooms; in every round both rooms play
  the same set, the home team North-South at table 1 (the open room) and East-West at
  table 2 (the closed room).
- **Round robin** (``round_robin``): every team meets every other once, by the circle
  method (with a bye for an odd number of teams); **Swiss** (``swiss_pairings``): each round
  the teams ranked by score, each against the highest-ranked team it has not met, with
  backtracking so that no two teams meet twice. A match of round j sits at tables 2j-1
  (home North-South) and 2j (away North-South); every match of a round plays that round's
  set (duplicated boards).

A pair count one short of full (a half table) makes the last pair a phantom: whoever meets
it sits out (``Sitting.sit_out``), and its boards are not played at that table.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from controller.errors import BridgeTableError

__all__ = [
    "HOWELL_MAX_TABLES",
    "Movement",
    "MovementError",
    "MovementKind",
    "Sitting",
    "howell",
    "mitchell",
    "round_robin",
    "swiss",
    "swiss_next",
    "swiss_pairings",
    "team_match",
]

HOWELL_MAX_TABLES = 10
"""The largest Howell generated: 20 pairs, 19 rounds (clubs play Howells up to 7 or 8 tables)."""


class MovementError(BridgeTableError, ValueError):
    """A movement that cannot be made (too many rounds for its tables, an unknown board...)."""


class MovementKind(Enum):
    """The movement a Director chooses: the ``movement`` of a session file."""

    MITCHELL = "mitchell"
    HOWELL = "howell"
    TEAM_MATCH = "teams"
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"

    @property
    def is_teams(self) -> bool:
        """True for the team movements (a match, round robin, Swiss)."""
        return self in (MovementKind.TEAM_MATCH, MovementKind.ROUND_ROBIN, MovementKind.SWISS)


@dataclass(frozen=True, slots=True)
class Sitting:
    """One table in one round: the pair (or team) at North-South and at East-West, the board set.

    ``sit_out``: one of the two is the phantom of a half table; the other sits out and the
    boards are not played here this round.
    """

    round: int
    table: int
    ns: str
    ew: str
    board_set: int
    sit_out: bool = False


@dataclass(frozen=True, slots=True)
class Movement:
    """A schedule: every table of every round (``sittings``, by round then table).

    ``participants`` are the pairs (or teams) in number order, the phantom excepted;
    ``sets`` the board sets; ``notes`` what a Director must know to run it (a skip, shared
    boards, arrow-switched rounds, a bye).
    """

    kind: MovementKind
    tables: int
    rounds: int
    boards_per_round: int
    sets: int
    sittings: tuple[Sitting, ...]
    participants: tuple[str, ...]
    first_board: int = 1
    phantom: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def board_numbers(self) -> tuple[int, ...]:
        """Every board of the movement, in order."""
        return tuple(range(self.first_board, self.first_board + self.sets * self.boards_per_round))

    def boards(self, board_set: int) -> tuple[int, ...]:
        """The boards of ``board_set`` (1-based)."""
        if not 1 <= board_set <= self.sets:
            raise MovementError(f"no board set {board_set}: this movement has sets 1 to {self.sets}")
        start = self.first_board + (board_set - 1) * self.boards_per_round
        return tuple(range(start, start + self.boards_per_round))

    def board_set_of(self, board: int) -> int:
        """The set that holds ``board``."""
        offset = board - self.first_board
        if not 0 <= offset < self.sets * self.boards_per_round:
            raise MovementError(f"no board {board}: this movement has boards {self.first_board} to "
                                f"{self.first_board + self.sets * self.boards_per_round - 1}")
        return offset // self.boards_per_round + 1

    def round(self, number: int) -> tuple[Sitting, ...]:
        """The tables of round ``number`` (1-based), by table."""
        if not 1 <= number <= self.rounds:
            raise MovementError(f"no round {number}: this movement has rounds 1 to {self.rounds}")
        return tuple(s for s in self.sittings if s.round == number)

    def who_played(self, board: int) -> list[tuple[int, int, str, str]]:
        """Where ``board`` is played: (round, table, North-South, East-West), by round and table;
        a table where a pair sits out is left out."""
        board_set = self.board_set_of(board)
        return [(s.round, s.table, s.ns, s.ew) for s in self.sittings if s.board_set == board_set and not s.sit_out]

    def card(self, pair: str) -> tuple[Sitting, ...]:
        """The guide card of ``pair``: its table in each round, by round."""
        if pair not in self.participants:
            raise MovementError(f"no pair or team {pair!r} in this movement")
        return tuple(s for s in self.sittings if pair in (s.ns, s.ew))


def _set_count(kind: str, name: str, value: int, low: int, high: int | None = None) -> None:
    if value < low or (high is not None and value > high):
        span = f"at least {low}" if high is None else f"{low} to {high}"
        raise MovementError(f"{kind}: {name} = {value}: must be {span}")


# --- Mitchell ----------------------------------------------------------------------------


def mitchell(tables: int, boards_per_round: int, rounds: int | None = None, *,
             arrow_switch: Iterable[int] = (), pairs: int | None = None, first_board: int = 1) -> Movement:
    """A Mitchell: North-South stationary, East-West up one table, boards down one a round.

    ``rounds`` defaults to the most the tables allow (T for an odd T, T - 1 for an even T,
    whose East-West pairs skip a table before round T/2 + 1). ``arrow_switch`` lists the
    rounds played in the other direction. ``pairs`` 2T - 1 makes East-West pair 2T a phantom.
    """
    _set_count("Mitchell", "tables", tables, 2)
    _set_count("Mitchell", "boards_per_round", boards_per_round, 1)
    most = tables if tables % 2 else tables - 1
    if rounds is None:
        rounds = most
    if tables % 2 == 0 and rounds > most:
        raise MovementError(f"Mitchell: rounds = {rounds}: an even number of tables ({tables}) plays at most "
                            f"{most} rounds of a skip Mitchell without meeting a pair or a board twice "
                            "(play a Howell, or fewer rounds)")
    _set_count("Mitchell", "rounds", rounds, 1, most)
    switched = _rounds_list("Mitchell", "arrow_switch", arrow_switch, rounds)
    phantom = _phantom("Mitchell", pairs, tables)
    skip_from = tables // 2 if tables % 2 == 0 else None
    sittings = []
    for r in range(rounds):
        skip = 1 if skip_from is not None and r >= skip_from else 0
        for t in range(tables):
            ns = str(t + 1)
            ew = str(tables + 1 + (t - r - skip) % tables)
            board_set = (t + r) % tables + 1
            if r + 1 in switched:
                ns, ew = ew, ns
            sittings.append(Sitting(r + 1, t + 1, ns, ew, board_set, phantom in (ns, ew)))
    notes = []
    if skip_from is not None and rounds > skip_from:
        notes.append(f"East-West pairs skip a table before round {skip_from + 1}")
    if switched:
        notes.append("arrow-switched (North-South pairs play East-West): round"
                     + ("s " if len(switched) > 1 else " ") + ", ".join(str(r) for r in sorted(switched)))
    if phantom:
        notes.append(f"pair {phantom} is a phantom: the North-South pair it meets sits out")
    participants = tuple(str(p) for p in range(1, 2 * tables + 1) if str(p) != phantom)
    return Movement(MovementKind.MITCHELL, tables, rounds, boards_per_round, tables, tuple(sittings), participants,
                    first_board, phantom, tuple(notes))


def _rounds_list(kind: str, name: str, values: Iterable[int], rounds: int) -> frozenset[int]:
    out = set()
    for v in values:
        if not 1 <= v <= rounds:
            raise MovementError(f"{kind}: {name} names round {v}: the rounds are 1 to {rounds}")
        out.add(v)
    return frozenset(out)


def _phantom(kind: str, pairs: int | None, tables: int) -> str | None:
    if pairs is None or pairs == 2 * tables:
        return None
    if pairs == 2 * tables - 1:
        return str(2 * tables)
    raise MovementError(f"{kind}: pairs = {pairs}: {tables} tables seat {2 * tables} pairs, or "
                        f"{2 * tables - 1} with a half table")


# --- Howell ------------------------------------------------------------------------------


def howell(tables: int, boards_per_round: int, rounds: int | None = None, *, pairs: int | None = None,
           first_board: int = 1) -> Movement:
    """A complete Howell for ``tables`` tables (2 to ``HOWELL_MAX_TABLES``): 2T - 1 rounds and
    board sets (fewer ``rounds`` cut it short). ``pairs`` 2T - 1 makes pair 2T a phantom."""
    _set_count("Howell", "tables", tables, 2, HOWELL_MAX_TABLES)
    _set_count("Howell", "boards_per_round", boards_per_round, 1)
    m = 2 * tables - 1
    if rounds is None:
        rounds = m
    _set_count("Howell", "rounds", rounds, 1, m)
    phantom = _phantom("Howell", pairs, tables)
    stationary = str(2 * tables)
    schedule = _cyclic_howell(tables) if tables >= 4 else _shared_howell(tables)
    sittings = []
    for r, row in enumerate(schedule[:rounds]):
        for t, (ns, ew, board_set) in enumerate(row):
            sittings.append(Sitting(r + 1, t + 1, ns, ew, board_set, phantom in (ns, ew)))
    notes = [f"pair {stationary} stays at table 1"]
    for r in range(1, rounds + 1):
        by_set: dict[int, list[int]] = {}
        for s in sittings:
            if s.round == r:
                by_set.setdefault(s.board_set, []).append(s.table)
        for board_set, at in by_set.items():
            if len(at) > 1:
                notes.append(f"round {r}: tables {_and(at)} share set {board_set}")
    if phantom:
        notes.append(f"pair {phantom} is a phantom: the pair it meets sits out")
    participants = tuple(str(p) for p in range(1, 2 * tables + 1) if str(p) != phantom)
    return Movement(MovementKind.HOWELL, tables, rounds, boards_per_round, m, tuple(sittings), participants,
                    first_board, phantom, tuple(notes))


def _and(items: Sequence[int]) -> str:
    text = [str(i) for i in items]
    return text[0] if len(text) == 1 else ", ".join(text[:-1]) + " and " + text[-1]


_Row = list[tuple[str, str, int]]


def _cyclic_howell(tables: int) -> list[_Row]:
    """The cyclic Howell of ``tables`` >= 4: rounds of (NS pair, EW pair, board set) by table."""
    m = 2 * tables - 1
    found = _adder(m, [(k, -k % m) for k in range(1, tables)]) or _starter_and_adder(m, tables)
    if found is None:  # never for 4 to HOWELL_MAX_TABLES tables: Room squares exist for every odd side >= 7
        raise MovementError(f"Howell: no schedule found for {tables} tables")
    starter, adder = found
    stationary = str(2 * tables)
    rows = []
    for r in range(m):
        row: _Row = []
        first = (stationary, str(r + 1)) if r % 2 == 0 else (str(r + 1), stationary)
        row.append((*first, r + 1))  # the stationary table's offset is 0: set r + 1 in round r + 1
        for (a, b), c in zip(starter, adder, strict=True):
            row.append((str((a + r) % m + 1), str((b + r) % m + 1), (c + r) % m + 1))
        rows.append(row)
    return rows


def _adder(m: int, starter: Sequence[tuple[int, int]]) -> tuple[list[tuple[int, int]], list[int]] | None:
    """Offsets c_k for the starter's pairs {a_k, b_k}: distinct, nonzero, and such that the
    offsets each pair meets, c_k - a_k and c_k - b_k, with 0 for residue 0, are all of Z_m."""
    adder: list[int] = []
    used_c = {0}
    seen = {0}

    def place(k: int) -> bool:
        if k == len(starter):
            return True
        a, b = starter[k]
        for c in range(1, m):
            o1, o2 = (c - a) % m, (c - b) % m
            if c in used_c or o1 in seen or o2 in seen or o1 == o2:
                continue
            used_c.add(c)
            seen.update((o1, o2))
            adder.append(c)
            if place(k + 1):
                return True
            adder.pop()
            used_c.discard(c)
            seen.difference_update((o1, o2))
        return False

    return (list(starter), adder) if place(0) else None


def _starter_and_adder(m: int, tables: int) -> tuple[list[tuple[int, int]], list[int]] | None:
    """A starter (pairs {a, a + d} for d = 1 .. T - 1 covering Z_m but 0) with its adder, both searched."""
    starter: list[tuple[int, int]] = []
    adder: list[int] = []
    used = {0}
    used_c = {0}
    seen = {0}

    def place(d: int) -> bool:
        if d == tables:
            return True
        for a in range(1, m):
            b = (a + d) % m
            if a in used or b in used:
                continue
            used.update((a, b))
            for c in range(1, m):
                o1, o2 = (c - a) % m, (c - b) % m
                if c in used_c or o1 in seen or o2 in seen:
                    continue
                used_c.add(c)
                seen.update((o1, o2))
                starter.append((a, b))
                adder.append(c)
                if place(d + 1):
                    return True
                starter.pop()
                adder.pop()
                used_c.discard(c)
                seen.difference_update((o1, o2))
            used.difference_update((a, b))
        return False

    return (starter, adder) if place(1) else None


def _shared_howell(tables: int) -> list[_Row]:
    """A 2- or 3-table Howell: the circle method's rounds, and the board sets searched so that
    each pair plays each set once with the fewest tables sharing a set; the rounds with a
    share are played last, and the sets numbered in the order they first come into play."""
    m = 2 * tables - 1
    stationary = 2 * tables - 1
    meetings = [[(stationary, r) if r % 2 == 0 else (r, stationary)]
                + [((r + k) % m, (r - k) % m) for k in range(1, tables)] for r in range(m)]
    cells = [(r, t) for r in range(m) for t in range(tables)]
    seen: list[set[int]] = [set() for _ in range(2 * tables)]
    in_round: dict[tuple[int, int], int] = {}
    chosen: dict[tuple[int, int], int] = {}

    def place(i: int, spare: int) -> bool:
        if i == len(cells):
            return True
        r, t = cells[i]
        a, b = meetings[r][t]
        for s in range(m):
            if s in seen[a] or s in seen[b]:
                continue
            shared = in_round.get((r, s), 0)
            if shared and not spare:
                continue
            in_round[(r, s)] = shared + 1
            seen[a].add(s)
            seen[b].add(s)
            chosen[(r, t)] = s
            if place(i + 1, spare - (1 if shared else 0)):
                return True
            in_round[(r, s)] = shared
            seen[a].discard(s)
            seen[b].discard(s)
        return False

    spare = 0
    while not place(0, spare):
        spare += 1
    order = sorted(range(m), key=lambda r: len({chosen[(r, t)] for t in range(tables)}) < tables)
    numbers: dict[int, int] = {}
    rows = []
    for r in order:
        row: _Row = []
        for t in range(tables):
            a, b = meetings[r][t]
            s = numbers.setdefault(chosen[(r, t)], len(numbers) + 1)
            row.append((str(a + 1), str(b + 1), s))
        rows.append(row)
    return rows


# --- teams -------------------------------------------------------------------------------


def team_match(boards_per_round: int, rounds: int = 1, teams: tuple[str, str] = ("1", "2"), *,
               first_board: int = 1) -> Movement:
    """A match between two teams in two rooms: round r's set in both, the home team (the first)
    North-South at table 1 and East-West at table 2."""
    _set_count("team match", "boards_per_round", boards_per_round, 1)
    _set_count("team match", "rounds", rounds, 1)
    home, away = teams
    if home == away:
        raise MovementError(f"team match: a team cannot play itself ({home!r})")
    return _team_movement(MovementKind.TEAM_MATCH, (home, away), [[(home, away)] for _ in range(rounds)],
                          boards_per_round, first_board)


def round_robin(teams: Sequence[str], boards_per_round: int, rounds: int | None = None, *,
                first_board: int = 1) -> Movement:
    """Every team against every other once, by the circle method: the last team (or the bye,
    for an odd number) stays, the others turn; ``rounds`` fewer cuts it short."""
    _set_count("round robin", "teams", len(teams), 2)
    _set_count("round robin", "boards_per_round", boards_per_round, 1)
    _unique("round robin", teams)
    field: list[str | None] = [*teams] + ([None] if len(teams) % 2 else [])
    n = len(field)
    most = n - 1
    if rounds is None:
        rounds = most
    _set_count("round robin", "rounds", rounds, 1, most)
    schedule = []
    for r in range(rounds):
        pairs: list[tuple[str | None, str | None]] = [(field[-1], field[r]) if r % 2 == 0 else (field[r], field[-1])]
        pairs.extend((field[(r + k) % most], field[(r - k) % most]) for k in range(1, n // 2))
        schedule.append([(a, b) for a, b in pairs if a is not None and b is not None])
    return _team_movement(MovementKind.ROUND_ROBIN, tuple(teams), schedule, boards_per_round, first_board)


def _unique(kind: str, teams: Sequence[str]) -> None:
    repeated = sorted({t for t in teams if list(teams).count(t) > 1})
    if repeated:
        raise MovementError(f"{kind}: team {repeated[0]!r} is listed twice")


def _team_movement(kind: MovementKind, teams: tuple[str, ...], schedule: Sequence[Sequence[tuple[str, str]]],
                   boards_per_round: int, first_board: int, notes: tuple[str, ...] = ()) -> Movement:
    sittings = []
    byes: list[str] = []
    for r, matches in enumerate(schedule, start=1):
        for j, (home, away) in enumerate(matches):
            sittings.append(Sitting(r, 2 * j + 1, home, away, r))
            sittings.append(Sitting(r, 2 * j + 2, away, home, r))
        playing = {t for m in matches for t in m}
        byes.extend(f"round {r}: {t} has the bye" for t in teams if t not in playing)
    tables = 2 * max((len(m) for m in schedule), default=0)
    extra = ("every match of a round plays that round's set (duplicated boards)",) if kind is not \
        MovementKind.TEAM_MATCH else ()
    return Movement(kind, tables, len(schedule), boards_per_round, len(schedule), tuple(sittings), teams,
                    first_board, None, (*extra, *notes, *byes))


def swiss(teams: Sequence[str], boards_per_round: int, *, first_board: int = 1) -> Movement:
    """A Swiss's first round: all scores 0, so the teams meet in their listed order (1 v 2, 3 v 4)."""
    _set_count("Swiss", "teams", len(teams), 2)
    _set_count("Swiss", "boards_per_round", boards_per_round, 1)
    _unique("Swiss", teams)
    matches, _ = swiss_pairings(teams, {}, ())
    return _team_movement(MovementKind.SWISS, tuple(teams), [matches], boards_per_round, first_board)


def swiss_next(movement: Movement, scores: Mapping[str, float]) -> Movement:
    """``movement`` with one more round of its Swiss, paired by ``scores`` (VPs so far) with
    no two teams meeting twice."""
    if movement.kind is not MovementKind.SWISS:
        raise MovementError(f"swiss_next: a {movement.kind.value} movement is not a Swiss")
    rounds: list[list[tuple[str, str]]] = [[] for _ in range(movement.rounds)]
    for s in movement.sittings:
        if s.table % 2 == 1:
            rounds[s.round - 1].append((s.ns, s.ew))
    played = [m for r in rounds for m in r]
    byes = [t for r in rounds for t in movement.participants if all(t not in m for m in r)]
    matches, _ = swiss_pairings(movement.participants, scores, played, byes)
    return _team_movement(MovementKind.SWISS, movement.participants, [*rounds, list(matches)],
                          movement.boards_per_round, movement.first_board)


_SEARCH_BUDGET = 200_000


def swiss_pairings(teams: Sequence[str], scores: Mapping[str, float], played: Iterable[tuple[str, str]],
                   byes: Collection[str] = ()) -> tuple[tuple[tuple[str, str], ...], str | None]:
    """The next Swiss round: (matches as (home, away), the team with the bye or None).

    The teams rank by score, highest first, ties in their listed order; the top team meets
    the highest-ranked team it has not met, and so on down, going back on an earlier choice
    only when the rest cannot be paired without a repeat. The higher-ranked team is home. With
    an odd number of teams the bye goes to the lowest-ranked team that has not had one (and
    whose bye leaves a pairing)."""
    met = {frozenset(m) for m in played}
    order = sorted(teams, key=lambda t: (-scores.get(t, 0.0), list(teams).index(t)))
    budget = [_SEARCH_BUDGET]
    candidates: list[str | None] = [None]
    if len(order) % 2:
        candidates = [t for t in reversed(order) if t not in byes] or list(reversed(order))
    for bye in candidates:
        rest = [t for t in order if t != bye]
        matches = _pair(rest, met, budget)
        if matches is not None:
            return tuple(matches), bye
    raise MovementError("Swiss: no pairing of the next round without two teams meeting again")


def _pair(order: list[str], met: set[frozenset[str]], budget: list[int]) -> list[tuple[str, str]] | None:
    if not order:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        raise MovementError("Swiss: no pairing without a repeat found within the search budget")
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], met, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None
