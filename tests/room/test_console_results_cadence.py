"""When the console computes the players' results it sends the tables (``Console._results``): each
table's page is every scorecard of the room again, on the thread that takes the alarms, so it is
made again only when something it shows changed, or every ``_RESULTS_QUIET`` seconds for what the
clock alone changes; and never on an event's head console, whose broker no table reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from controller.room.players import PlayerSettings
from tablectl.room import console as console_module
from tablectl.room.address import ClubAddress
from tablectl.room.console import Console

ADDRESS = ClubAddress("mqtt", "127.0.0.1", 1883, "testclub", "console", "secret")


@pytest.fixture
def made(tmp_path: Path, mocker: MockerFixture) -> tuple[Console, object]:
    console = Console(ADDRESS, tmp_path / "console")
    return console, mocker.spy(console, "_publish_results")


def test_nothing_changed_the_players_results_are_not_made_again_after_each_message(
        made: tuple[Console, object]) -> None:
    console, made_again = made
    for _ in range(50):  # the queue found empty after each of 50 table states
        console._results(force=True)
    assert made_again.call_count == 1  # type: ignore[attr-defined]


def test_what_the_players_see_changed_their_results_are_made_again_at_once(made: tuple[Console, object]) -> None:
    console, made_again = made
    console._results(force=True)
    console.room.set_players(PlayerSettings(travellers=False))
    console._results(force=True)
    console.room.end_session()
    console._results(force=True)
    console.room.release("3")
    console._results(force=True)
    assert made_again.call_count == 4  # type: ignore[attr-defined]


def test_the_clock_alone_changes_them_within_the_quiet_interval(made: tuple[Console, object]) -> None:
    console, made_again = made
    console._results(force=True)
    console._results_at -= console_module._RESULTS_QUIET  # the interval passed: the round may have moved on
    console._results(force=True)
    assert made_again.call_count == 2  # type: ignore[attr-defined]


def test_the_head_console_of_an_event_sends_the_tables_no_players_results(tmp_path: Path,
                                                                          mocker: MockerFixture) -> None:
    head = Console(ADDRESS, tmp_path / "head", head=True)
    made_again = mocker.spy(head, "_publish_results")
    head._results(force=True)
    head.room.end_session()
    head._results(force=True)
    assert made_again.call_count == 0
