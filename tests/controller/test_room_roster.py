"""The club's roster and who played for each pair (controller.room.roster), pure: a roster CSV
read whole or refused whole with every bad line named; a pair named at the start and a
substitute from a given round on, the pair keeping its number; the seating answers the
exports' question (controller.records.people.Roll) round by round."""

from __future__ import annotations

import pytest

from controller.records.people import NO_NAMES, PairPlayers, Player, Roll
from controller.room.roster import Roster, RosterError, Seating, read_roster

ROSTER = """Name,EBU number,Email,Club
Ann Smith,123456,ann@example.org,Riverside
Bob Jones,234567,,
Carl Wu,345678,carl@example.org,Hillside
Dee Patel,,,
"""

ANN, BOB, CARL, DEE = (Player("Ann Smith", "123456"), Player("Bob Jones", "234567"), Player("Carl Wu", "345678"),
                       Player("Dee Patel"))


def test_a_roster_csv_with_a_header_gives_each_member_with_the_federation_number() -> None:
    members = read_roster(ROSTER)
    assert [m.player for m in members] == [ANN, BOB, CARL, DEE]
    assert members[0].email == "ann@example.org" and members[2].club == "Hillside"


def test_a_header_column_the_roster_does_not_know_is_left_out() -> None:
    members = read_roster("Phone,Name,Federation number\n01234,Ann Smith,123456\n")
    assert [m.player for m in members] == [ANN]


def test_a_roster_csv_without_a_header_is_name_number_email_club_in_that_order() -> None:
    members = read_roster("\ufeffAnn  Smith , 123456\nBob Jones;x,234567,bob@example.org\n")
    assert [m.player for m in members] == [ANN, Player("Bob Jones;x", "234567")]
    assert members[1].email == "bob@example.org"


def test_a_bad_roster_csv_is_refused_whole_naming_every_bad_line() -> None:
    text = ("name,federation number,email\nAnn Smith,123456,ann@example.org\n,999\nBob Jones,23 45,\n"
            "Carl Wu,345678,not-an-address\nAnn Smith again,123456,\nEve,1,a@b.c,Club,extra\n")
    with pytest.raises(RosterError) as caught:
        read_roster(text)
    problems = caught.value.problems
    assert [p.split(":")[0] for p in problems] == ["line 3", "line 4", "line 5", "line 6", "line 7"]
    assert "the name is empty" in problems[0]
    assert "'23 45' is not a number the federations give" in problems[1]
    assert "'not-an-address' is not an e-mail address" in problems[2]
    assert "Ann Smith again is already on line 2 (federation number 123456)" in problems[3]
    assert "5 columns, at most 3 expected" in problems[4]
    assert str(caught.value).startswith("nothing imported, 5 line(s) to fix: line 3:")
    with pytest.raises(RosterError, match="names no member"):
        read_roster("name,ebu\n\n")
    with pytest.raises(RosterError, match="not a CSV text file"):
        read_roster("PK\x03\x04\x00\x00")


def test_importing_again_updates_a_member_by_federation_number_and_adds_the_new_ones() -> None:
    roster, added, updated = Roster().merged(read_roster(ROSTER))
    assert (added, updated, len(roster.members)) == (4, 0, 4)
    again, added, updated = roster.merged(read_roster("Ann Smith-Brown,123456\nEve Adams,456789\nDee Patel\n"))
    assert (added, updated) == (1, 1)  # Dee (matched by name, no number) is unchanged
    assert [m.player.name for m in again.members] == ["Ann Smith-Brown", "Bob Jones", "Carl Wu", "Dee Patel",
                                                      "Eve Adams"]
    assert again.find("123456") is not None and again.find("123456").player.name == "Ann Smith-Brown"  # type: ignore[union-attr]


def test_a_substitute_plays_from_the_given_round_on_and_the_pair_keeps_its_number() -> None:
    seating = Seating().named(None, "3", PairPlayers(ANN, BOB))
    seating = seating.substituted("", "3", 4, "second", CARL)
    roll: Roll = seating
    assert roll.players(None, "3", 1) == PairPlayers(ANN, BOB)
    assert roll.players(None, "3", 3) == PairPlayers(ANN, BOB)
    assert roll.players(None, "3", 4) == PairPlayers(ANN, CARL)
    assert roll.players("", "3", 7) == PairPlayers(ANN, CARL)
    assert roll.players(None, "3") == PairPlayers(ANN, CARL)  # as the pair stands now
    assert roll.players(None, "4", 1) is None and NO_NAMES.players(None, "3", 1) is None
    # naming the pair again (a typo fixed) keeps the substitute from round 4
    fixed = seating.named(None, "3", PairPlayers(Player("Ann Smyth", "123456"), BOB))
    assert fixed.players(None, "3", 2) == PairPlayers(Player("Ann Smyth", "123456"), BOB)
    assert fixed.players(None, "3", 5) == PairPlayers(ANN, CARL)
    assert seating.names() == {"|3": [{"from": 1, "names": ["Ann Smith", "Bob Jones"], "ids": ["123456", "234567"]},
                                      {"from": 4, "names": ["Ann Smith", "Carl Wu"], "ids": ["123456", "345678"]}]}


def test_sections_keep_their_own_pairs() -> None:
    seating = Seating().named("A", "1", PairPlayers(ANN, BOB)).named("b", "1", PairPlayers(CARL, DEE))
    assert seating.players("a", "1", 1) == PairPlayers(ANN, BOB)
    assert seating.players("B", "1", 1) == PairPlayers(CARL, DEE)
    assert seating.players(None, "1", 1) is None


def test_a_seating_change_that_makes_no_sense_is_refused_and_changes_nothing() -> None:
    seating = Seating().named(None, "3", PairPlayers(ANN, BOB))
    with pytest.raises(RosterError, match="no players named yet: name the pair first"):
        seating.substituted(None, "5", 2, "first", CARL)
    with pytest.raises(RosterError, match="Bob Jones already plays in pair 3"):
        seating.substituted(None, "3", 2, "first", BOB)
    with pytest.raises(RosterError, match="cannot sit twice"):
        seating.named(None, "4", PairPlayers(CARL, CARL))
    with pytest.raises(RosterError, match="is not a pair number"):
        seating.named(None, "3; drop", PairPlayers(CARL, DEE))
    assert seating.players(None, "3", 9) == PairPlayers(ANN, BOB) and len(seating.seats) == 1
