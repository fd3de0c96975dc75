"""The deals the tables saw of a board, taken one state at a time (``controller.room.deals_seen``):
a deal that agrees with what every table saw together is taken without comparing it with each
table's, and the room's alerts (Law 87: a fouled board; Law 7: a board played rotated) and groups
are exactly those of comparing every table's deal each time."""

from __future__ import annotations

import random

from pytest_mock import MockerFixture

from controller.deal import Deal
from controller.room.boards import turned
from controller.room.results import RoomResults
from tests.controller.test_room_results import DEAL, OTHER


class EveryTime(RoomResults):
    """The room's results that compare every table's deal with each state (no ``_alike``)."""

    def _deal(self, table: str, board: int, text: object) -> list:  # type: ignore[override,type-arg]
        self._alike.clear()
        return super()._deal(table, board, text)


def _seen(deal: Deal, rng: random.Random, share: float) -> str:
    """Part of ``deal``: each hand known or not, as a table that has seen some of it sends it."""
    hands = [h if rng.random() < share else None for h in deal.hands]
    return Deal((hands[0], hands[1], hands[2], hands[3])).pbn()


def _state(board: int, deal: str) -> dict[str, object]:
    return {"board": board, "phase": "play", "deal": deal}


def test_a_deal_taken_quickly_raises_the_same_alerts_and_groups_as_comparing_every_deal_law_87_law_7() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        quick, every = RoomResults(), EveryTime()
        boards = {1: Deal.parse(DEAL), 2: Deal.parse(OTHER)}
        for _ in range(300):
            board = rng.choice((1, 2))
            table = str(rng.randint(1, 12))
            deal = boards[board]
            odd = rng.random()
            if odd < 0.02:
                deal = turned(deal, rng.choice((1, 2, 3)))  # the board put on the table rotated (Law 7)
            elif odd < 0.04:
                deal = boards[3 - board]  # another board's cards in its pockets (Law 87)
            text = _seen(deal, rng, rng.choice((0.25, 0.5, 1.0)))
            assert quick.state(table, _state(board, text)) == every.state(table, _state(board, text)), seed
            assert quick.fouled() == every.fouled(), seed
            assert quick.turns == every.turns, seed
        for board in ("1", "2"):
            assert quick.groups(board) == every.groups(board), seed


def test_a_state_that_agrees_with_the_board_is_not_compared_with_each_tables_deal(mocker: MockerFixture) -> None:
    results = RoomResults()
    hands = Deal.parse(DEAL).hands
    for table in range(1, 30):
        results.state(str(table), _state(1, DEAL))
    compared = mocker.spy(results, "groups")
    rotated = mocker.spy(results, "_rotated")
    seen = Deal((hands[0], None, None, None)).pbn()
    for table in range(30, 60):  # new tables, each having seen North's hand so far
        assert results.state(str(table), _state(1, seen)) == []
    assert compared.call_count == 0 and rotated.call_count == 0
    assert results.fouled() == {}
    assert results.groups("1") == [sorted(map(str, range(1, 60)), key=int)]
