"""An event of several sessions (controller.room.event): a partnership is its two players, by
federation number or by name, in either order, whatever its pair number in each session; its
matchpoint percentage is over every board it played (each session weighted by its boards), IMPs
and victory points add up; a pair not named is never carried over."""

from __future__ import annotations

from controller.records.people import PairPlayers, Player
from controller.room.event import EventSession, carry_over, partnership
from controller.room.roster import Seating

ANN, BOB, CARL, DEE = (Player("Ann Smith", "123456"), Player("Bob Jones", "234567"), Player("Carl Wu"),
                       Player("Dee Patel"))


def _row(pair: str, percent: float | None, total: float, boards: int) -> dict[str, object]:
    return {"pair": pair, "section": None, "percent": percent, "total": total, "boards": boards}


def test_a_partnership_is_its_players_in_either_order_whatever_its_pair_number() -> None:
    monday = Seating().named(None, "3", PairPlayers(ANN, BOB)).named(None, "4", PairPlayers(CARL, DEE)).names()
    thursday = Seating().named(None, "7", PairPlayers(BOB, ANN)).named(None, "1", PairPlayers(Player("carl  wu"),
                                                                                            DEE)).names()
    assert partnership(monday, None, "3") == partnership(thursday, "", "7") == ("123456", "234567")
    assert partnership(monday, None, "4") == partnership(thursday, None, "1") == ("name:carl wu", "name:dee patel")
    assert partnership(monday, None, "9") is None


def test_matchpoints_carry_over_as_the_percentage_of_every_board_played() -> None:
    monday = Seating().named(None, "3", PairPlayers(ANN, BOB)).named(None, "4", PairPlayers(CARL, DEE)).names()
    thursday = Seating().named(None, "7", PairPlayers(BOB, ANN)).named(None, "1", PairPlayers(CARL, DEE)).names()
    event = carry_over([
        EventSession("monday", [_row("3", 60.0, 120.0, 24), _row("4", 50.0, 100.0, 24), _row("5", 70.0, 140, 24)],
                     monday),
        EventSession("thursday", [_row("1", 62.0, 124.0, 24), _row("7", 40.0, 48.0, 12)], thursday)])
    rows = {tuple(r["players"]) if r["players"] else r["sessions"].popitem()[1]["pair"]: r for r in event["ranking"]}
    ann = rows[("Ann Smith", "Bob Jones")]
    assert ann["played"] == 2 and ann["boards"] == 36 and ann["total"] == 168.0
    assert ann["percent"] == round((60.0 * 24 + 40.0 * 12) / 36, 2) == 53.33
    assert ann["sessions"]["thursday"]["pair"] == "7" and ann["sessions"]["monday"]["pair"] == "3"
    assert rows[("Carl Wu", "Dee Patel")]["percent"] == 56.0
    assert rows["5"]["played"] == 1 and rows["5"]["players"] is None  # not named: its session's alone
    assert [r["place"] for r in event["ranking"]] == ["1", "2", "3"]
    assert event["ranking"][0]["percent"] == 70.0 and event["by_percent"] is True


def test_imps_add_up_and_ties_share_a_place() -> None:
    names = Seating().named(None, "1", PairPlayers(ANN, BOB)).named(None, "2", PairPlayers(CARL, DEE)).names()
    event = carry_over([EventSession("a", [_row("1", None, 12.0, 8), _row("2", None, 5.0, 8)], names, "IMP"),
                        EventSession("b", [_row("1", None, -7.0, 8), _row("2", None, 0.0, 8)], names, "IMP")])
    assert [(r["players"][0], r["total"], r["place"]) for r in event["ranking"]] == [("Ann Smith", 5.0, "1="),
                                                                                    ("Carl Wu", 5.0, "1=")]
    assert event["by_percent"] is False and event["ranking"][0]["percent"] is None
