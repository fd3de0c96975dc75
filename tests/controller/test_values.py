"""``evolve``: the fast copy-with-changes of the table's frozen slotted dataclasses."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from controller.auction import Auction
from controller.play import Play, Trick
from controller.seats import Seat
from controller.table import TableState
from controller.values import evolve


def test_evolve_gives_what_dataclasses_replace_gives_and_leaves_the_original_alone() -> None:
    play = Play.start(Seat.S, None)
    new = evolve(play, current=Trick(Seat.E), won=(1, 2))
    assert new == dataclasses.replace(play, current=Trick(Seat.E), won=(1, 2))
    assert type(new) is Play
    assert play.current == Trick(Seat.W) and play.won == (0, 0)


def test_an_evolved_copy_is_still_frozen_and_hashable() -> None:
    auction = evolve(Auction(Seat.N), passes=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        auction.passes = 3  # type: ignore[misc]
    assert hash(auction) == hash(Auction(Seat.N, passes=2))


def test_evolve_copies_every_field_of_the_table_state() -> None:
    state = TableState.new("rubber")
    copy = evolve(state, finished=True)
    for f in dataclasses.fields(TableState):
        if f.name != "finished":
            assert getattr(copy, f.name) is getattr(state, f.name)
    assert copy.finished and not state.finished


def test_evolve_refuses_a_field_the_class_does_not_have() -> None:
    with pytest.raises(AttributeError):
        evolve(Trick(Seat.N), colour="red")


_TYPED = """\
from controller.table import BoardState, TableState
from controller.values import evolve


def misspelt(board: BoardState) -> BoardState:
    return evolve(board, pahse=board.phase)


def wrong_type(state: TableState) -> TableState:
    return evolve(state, finished="yes")


def right(board: BoardState) -> BoardState:
    return evolve(board, played=board.played | 1, last_t=None)
"""


def test_mypy_checks_each_evolve_like_dataclasses_replace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api = pytest.importorskip("mypy.api")
    (tmp_path / "typed_updates.py").write_text(_TYPED, encoding="utf-8")
    monkeypatch.chdir(Path(__file__).parents[2])
    out, err, status = api.run(["--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "cache"),
                                str(tmp_path / "typed_updates.py")])
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1, out + err
    assert len(errors) == 2, out
    assert ':6: error: Unexpected keyword argument "pahse" for "replace" of "BoardState"' in errors[0]
    assert ':10: error: Argument "finished" to "replace" of "TableState" has incompatible type "str"' in errors[1]
