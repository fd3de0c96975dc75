"""Movements, generated: each one's guarantees checked on every size a club plays, and the
Director's session file read with clear errors."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from controller.fieldscore import Scoring
from controller.fieldscore.movement import (
    Movement,
    MovementError,
    MovementKind,
    howell,
    mitchell,
    round_robin,
    swiss,
    swiss_next,
    swiss_pairings,
    team_match,
)
from controller.fieldscore.session import loads_session


def meetings(m: Movement) -> Counter[frozenset[str]]:
    return Counter(frozenset((s.ns, s.ew)) for s in m.sittings if not s.sit_out)


def matches(m: Movement) -> Counter[frozenset[str]]:
    """The team matches: each at two tables (its two rooms), counted once."""
    return Counter(frozenset((s.ns, s.ew)) for s in m.sittings if s.table % 2)


def sets_played(m: Movement, pair: str) -> list[int]:
    return [s.board_set for s in m.sittings if pair in (s.ns, s.ew)]


def assert_one_table_per_pair_per_round(m: Movement) -> None:
    for r in range(1, m.rounds + 1):
        seated = [p for s in m.round(r) if not m.kind.is_teams or s.table % 2 for p in (s.ns, s.ew)]
        assert len(seated) == len(set(seated)), f"round {r}: a pair at two tables"
        assert [s.table for s in m.round(r)] == list(range(1, len(m.round(r)) + 1))


# --- Mitchell ----------------------------------------------------------------------------


@pytest.mark.parametrize("tables", range(3, 16))
def test_full_mitchell_every_ns_pair_meets_each_ew_pair_at_most_once_and_plays_each_set_once(tables: int) -> None:
    m = mitchell(tables, 2)
    assert m.rounds == (tables if tables % 2 else tables - 1)
    assert_one_table_per_pair_per_round(m)
    ns_pairs = [str(t) for t in range(1, tables + 1)]
    ew_pairs = [str(t) for t in range(tables + 1, 2 * tables + 1)]
    assert max(meetings(m).values()) == 1
    assert all(len({a, b} & set(ns_pairs)) == 1 for a, b in meetings(m))  # never NS v NS
    for pair in ns_pairs + ew_pairs:
        played = sets_played(m, pair)
        assert len(played) == m.rounds == len(set(played)), f"pair {pair} plays a set twice"
    for r in range(1, m.rounds + 1):  # each set at one table a round: no sharing in a Mitchell
        assert len({s.board_set for s in m.round(r)}) == tables
    assert all(s.ns in ns_pairs for s in m.sittings)  # North-South stationary
    assert [s.ns for s in m.sittings if s.table == 1] == ["1"] * m.rounds


def test_odd_mitchell_every_ns_pair_meets_every_ew_pair_and_plays_every_board() -> None:
    m = mitchell(7, 4)
    assert len(meetings(m)) == 7 * 7
    assert all(sorted(sets_played(m, str(p))) == list(range(1, 8)) for p in range(1, 15))
    assert m.board_numbers == tuple(range(1, 29))


def test_even_mitchell_skips_a_table_before_the_second_half() -> None:
    m = mitchell(8, 3)
    assert m.rounds == 7 and m.notes == ("East-West pairs skip a table before round 5",)
    ew_table = {s.round: s.table for s in m.sittings if s.ew == "9"}
    assert [ew_table[r] for r in range(1, 8)] == [1, 2, 3, 4, 6, 7, 8]


def test_even_mitchell_refuses_as_many_rounds_as_tables() -> None:
    with pytest.raises(MovementError, match="at most 7 rounds of a skip Mitchell"):
        mitchell(8, 3, 8)


def test_arrow_switch_turns_the_chosen_rounds_round() -> None:
    plain, switched = mitchell(7, 3), mitchell(7, 3, arrow_switch=[7])
    for a, b in zip(plain.sittings, switched.sittings, strict=True):
        assert (b.ns, b.ew) == ((a.ew, a.ns) if a.round == 7 else (a.ns, a.ew))
        assert (a.board_set, a.table) == (b.board_set, b.table)
    assert meetings(plain) == meetings(switched)
    with pytest.raises(MovementError, match="names round 9"):
        mitchell(7, 3, arrow_switch=[9])


def test_who_played_lists_each_table_that_played_the_board() -> None:
    m = mitchell(5, 3)
    played = m.who_played(1)  # set 1: table 1 in round 1, then down one table a round
    assert played == [(1, 1, "1", "6"), (2, 5, "5", "9"), (3, 4, "4", "7"), (4, 3, "3", "10"), (5, 2, "2", "8")]
    for board in m.board_numbers:
        rows = m.who_played(board)
        assert len(rows) == 5 and {r for r, *_ in rows} == {1, 2, 3, 4, 5}
        assert rows == m.who_played(m.boards(m.board_set_of(board))[0])
    with pytest.raises(MovementError, match="no board 16"):
        m.who_played(16)


def test_half_table_the_phantoms_opponent_sits_out_and_is_not_a_result() -> None:
    m = mitchell(5, 3, pairs=9)
    assert m.phantom == "10" and "10" not in m.participants
    sat_out = [s.ns for s in m.sittings if s.sit_out]
    assert sorted(sat_out) == ["1", "2", "3", "4", "5"]  # each North-South pair sits out once
    assert all(len(m.who_played(b)) == 4 for b in m.board_numbers)


# --- Howell ------------------------------------------------------------------------------


@pytest.mark.parametrize("tables", range(2, 11))
def test_complete_howell_each_pair_meets_every_other_once_and_plays_each_set_once(tables: int) -> None:
    m = howell(tables, 2)
    pairs = [str(p) for p in range(1, 2 * tables + 1)]
    assert (m.rounds, m.sets) == (2 * tables - 1, 2 * tables - 1)
    assert_one_table_per_pair_per_round(m)
    assert meetings(m) == Counter(frozenset(c) for c in itertools.combinations(pairs, 2))
    for pair in pairs:
        assert sorted(sets_played(m, pair)) == list(range(1, m.sets + 1)), f"pair {pair}"
    assert Counter(s.board_set for s in m.sittings) == Counter({s: tables for s in range(1, m.sets + 1)})
    assert all(s.table == 1 for s in m.sittings if str(2 * tables) in (s.ns, s.ew))  # the stationary pair


@pytest.mark.parametrize("tables", range(4, 11))
def test_howell_of_four_tables_or_more_never_shares_a_board_set_in_a_round(tables: int) -> None:
    m = howell(tables, 2)
    for r in range(1, m.rounds + 1):
        assert len({s.board_set for s in m.round(r)}) == tables
    assert not any("share" in n for n in m.notes)


@pytest.mark.parametrize("tables", range(2, 11))
def test_howell_seats_each_moving_pair_north_south_as_often_as_east_west(tables: int) -> None:
    m = howell(tables, 1)
    for p in range(1, 2 * tables):
        ns = sum(1 for s in m.sittings if s.ns == str(p))
        ew = sum(1 for s in m.sittings if s.ew == str(p))
        assert abs(ns - ew) <= 1


def test_three_table_howell_shares_one_set_between_all_tables_in_its_last_round() -> None:
    # No Room square of side 5 exists: some round must share; the search finds one round.
    m = howell(3, 4)
    assert m.notes == ("pair 6 stays at table 1", "round 5: tables 1, 2 and 3 share set 5")
    assert [len({s.board_set for s in m.round(r)}) for r in range(1, 6)] == [3, 3, 3, 3, 1]


def test_two_table_howell_both_tables_play_the_same_set_each_round() -> None:
    m = howell(2, 7)
    assert [len({s.board_set for s in m.round(r)}) for r in range(1, 4)] == [1, 1, 1]


def test_howell_is_generated_the_same_every_time() -> None:
    assert howell(5, 3) == howell(5, 3)


def test_howell_with_a_half_table_every_pair_sits_out_once() -> None:
    m = howell(4, 3, pairs=7)
    assert Counter(p for s in m.sittings if s.sit_out for p in (s.ns, s.ew) if p != "8") == \
        Counter({str(p): 1 for p in range(1, 8)})


def test_howell_refuses_more_rounds_than_a_complete_one() -> None:
    with pytest.raises(MovementError, match="rounds = 8: must be 1 to 7"):
        howell(4, 3, 8)


# --- teams -------------------------------------------------------------------------------


def test_team_match_both_rooms_play_the_same_boards_home_ns_in_the_open_room() -> None:
    m = team_match(8, 3, ("Reds", "Blues"))
    assert m.tables == 2 and m.sets == 3
    for r in range(1, 4):
        open_room, closed_room = m.round(r)
        assert (open_room.ns, open_room.ew, closed_room.ns, closed_room.ew) == ("Reds", "Blues", "Blues", "Reds")
        assert open_room.board_set == closed_room.board_set == r
    assert m.who_played(9) == [(2, 1, "Reds", "Blues"), (2, 2, "Blues", "Reds")]


@pytest.mark.parametrize("n", range(2, 13))
def test_round_robin_every_team_meets_every_other_team_once(n: int) -> None:
    teams = [f"T{i}" for i in range(1, n + 1)]
    m = round_robin(teams, 4)
    assert m.rounds == n - 1 + n % 2
    assert matches(m) == Counter(frozenset(c) for c in itertools.combinations(teams, 2))
    assert_one_table_per_pair_per_round(m)
    for t in teams:  # home as often as away, give or take one
        home = sum(1 for s in m.sittings if s.table % 2 and s.ns == t)
        away = sum(1 for s in m.sittings if s.table % 2 and s.ew == t)
        assert abs(home - away) <= 1
    if n % 2:
        assert sum(1 for note in m.notes if "has the bye" in note) == n


def test_swiss_pairs_by_score_and_never_repeats() -> None:
    teams = [str(i) for i in range(1, 9)]
    m = swiss(teams, 6)
    assert [(s.ns, s.ew) for s in m.round(1) if s.table % 2] == [("1", "2"), ("3", "4"), ("5", "6"), ("7", "8")]
    scores = {"1": 15.0, "2": 5.0, "3": 12.0, "4": 8.0, "5": 18.0, "6": 2.0, "7": 10.0, "8": 10.0}
    m = swiss_next(m, scores)
    # by score: 5, 1, 3, 7, 8, 4, 2, 6; 7 and 8 tie, in their listed order; 3 v 4 and 7 v 8 are repeats
    assert [(s.ns, s.ew) for s in m.round(2) if s.table % 2] == [("5", "1"), ("3", "7"), ("8", "4"), ("2", "6")]
    for _ in range(5):
        m = swiss_next(m, scores)
    assert max(matches(m).values()) == 1 and m.rounds == 7
    with pytest.raises(MovementError, match="without two teams meeting again"):
        swiss_next(m, scores)


def test_swiss_backtracks_rather_than_repeat_a_match() -> None:
    # greedily 1 v 2 would leave 3 and 4, who have met; the pairing goes back and takes 1 v 3
    matches, bye = swiss_pairings(["1", "2", "3", "4"], {}, [("3", "4")])
    assert matches == (("1", "3"), ("2", "4")) and bye is None


def test_swiss_bye_goes_to_the_lowest_team_without_one() -> None:
    scores = {"A": 3.0, "B": 2.0, "C": 1.0}
    assert swiss_pairings(["A", "B", "C"], scores, [], byes=["C"]) == ((("A", "C"),), "B")


# --- the session file --------------------------------------------------------------------


SESSION = """
[session]
name = "Tuesday Pairs"
movement = "mitchell"
tables = 8
rounds = 7
boards_per_round = 3
arrow_switch = [7]
sections = ["A", "B"]
"""


def test_session_file_gives_a_movement_per_section() -> None:
    s = loads_session(SESSION, "tuesday.toml")
    assert (s.name, s.kind, s.scoring, s.rounds) == ("Tuesday Pairs", MovementKind.MITCHELL, Scoring.MP, 7)
    assert [name for name, _ in s.sections] == ["A", "B"]
    assert s.movement("A") == mitchell(8, 3, 7, arrow_switch=[7])
    assert s.who_played(4, "B") == s.movement("A").who_played(4)


def test_session_file_for_teams() -> None:
    s = loads_session('[session]\nmovement = "round_robin"\nteams = ["N", "S", "E"]\nboards_per_round = 8\n')
    assert s.scoring is Scoring.TEAMS and s.movement().participants == ("N", "S", "E") and s.rounds == 3
    swiss_session = loads_session('[session]\nmovement = "swiss"\nteams = 6\nrounds = 4\nboards_per_round = 7\n')
    assert swiss_session.movement().rounds == 1 and swiss_session.rounds == 4
    assert swiss_session.next_swiss_round({"6": 20.0}).movement().rounds == 2


@pytest.mark.parametrize(("text", "message"), [
    ("[session]\nmovement = 'mitchel'\ntables = 8\nboards_per_round = 3\n",
     "s.toml: [session] movement = \"mitchel\": unknown movement (one of mitchell, howell, teams, round_robin, swiss)"),
    ("[session]\nmovement = 'mitchell'\ntabels = 8\nboards_per_round = 3\n",
     "s.toml: [session] tabels = 8: unknown key for a mitchell movement (known: arrow_switch, award_imps, awards,"),
    ("[session]\nmovement = 'mitchell'\ntables = 8\n", "s.toml: [session] boards_per_round: missing"),
    ("[session]\nmovement = 'mitchell'\ntables = '8'\nboards_per_round = 3\n",
     "s.toml: [session] tables = \"8\": a whole number is expected"),
    ("[session]\nmovement = 'mitchell'\ntables = 8\nrounds = 8\nboards_per_round = 3\n",
     "s.toml: Mitchell: rounds = 8: an even number of tables (8) plays at most 7 rounds"),
    ("[session]\nmovement = 'mitchell'\ntables = 7\nboards_per_round = 3\narrow_switch = [0]\n",
     "s.toml: Mitchell: arrow_switch names round 0: the rounds are 1 to 7"),
    ("[session]\nmovement = 'howell'\ntables = 4\nboards_per_round = 3\narrow_switch = [7]\n",
     "s.toml: [session] arrow_switch = [7]: unknown key for a howell movement"),
    ("[session]\nmovement = 'howell'\ntables = 4\nboards_per_round = 3\nscoring = 'Teams'\n",
     "s.toml: [session] scoring = \"Teams\": a howell movement is scored MP, Butler or CrossIMP"),
    ("[session]\nmovement = 'teams'\nteams = ['A', 'B', 'C']\nboards_per_round = 3\n",
     "s.toml: [session] teams = [\"A\", \"B\", \"C\"]: a two-room match is between two teams"),
    ("[session]\nmovement = 'swiss'\nteams = 6\nboards_per_round = 3\n",
     "s.toml: [session] rounds: missing (how many rounds the Swiss plays)"),
    ("[session\nmovement = 'howell'\n", "s.toml: not valid TOML"),
    ("[movement]\ntables = 3\n", "s.toml: no [session] table"),
])
def test_session_file_errors_name_the_key_and_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(MovementError) as exc:
        loads_session(text, "s.toml")
    assert str(exc.value).startswith(message)


def test_arrow_switch_last_means_the_last_round() -> None:
    s = loads_session("[session]\nmovement = 'mitchell'\ntables = 9\nboards_per_round = 3\narrow_switch = 'last'\n")
    assert s.movement() == mitchell(9, 3, arrow_switch=[9])
