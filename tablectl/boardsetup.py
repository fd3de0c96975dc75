"""What the board reader's tag and the hand record say of the board to play.

The board map (a TOML file: board tag UID -> board number) names the board whose tag the
board reader sees; the hand record (the dealing machine's PBN or LIN file) gives its deal,
dealer and vulnerability. ``board_of_tag`` decides, from the table's state, whether a tag
starts its board: the board in play seen again starts nothing, and neither does a board
already finished at this table (each board is played once at a table, Law 15A: the arbiter
may still start it again himself); a tag not in the map is left to the arbiter.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from pathlib import Path

from controller import actions as a
from controller.records import lin, pbn
from controller.sensing import deck as deck_json
from controller.table import Phase, TableState

__all__ = ["board_of_tag", "load_board_tags", "load_hand_record", "with_hand_record"]


def board_of_tag(uid: str, boards: Mapping[str, int], hand_record: Mapping[int, a.BoardStart],
                 table: TableState, t: float) -> a.BoardStart | str | None:
    """The ``BoardStart`` a board tag seen at ``t`` makes; a sentence saying why it starts
    nothing the arbiter should know of; None for the board in play seen again."""
    number = boards.get(uid)
    if number is None:
        return f"board tag {uid} is not in the board map: the arbiter starts the board"
    board = table.board
    if board is not None and board.number == number and board.phase is not Phase.DONE:
        return None
    if any(o.board.number == number for o in table.boards):
        return (f"board {number} has been played at this table already: it is not started again "
                "(put the next board on the reader; the arbiter can start it again from the arbiter page)")
    known = hand_record.get(number)
    return a.BoardStart(number, t=t) if known is None else dataclasses.replace(known, number=number, t=t)


def with_hand_record(action: a.Action, hand_record: Mapping[int, a.BoardStart]) -> a.Action:
    """A board start that names no deal, with the hand record's deal, dealer and vulnerability."""
    if isinstance(action, a.BoardStart) and action.deal is None and action.number is not None:
        known = hand_record.get(action.number)
        if known is not None:
            return dataclasses.replace(action, deal=known.deal, dealer=action.dealer or known.dealer,
                                       vulnerability=action.vulnerability or known.vulnerability)
    return action


def load_board_tags(path: str | Path) -> dict[str, int]:
    """The board map of a TOML file: ``[boards]`` then ``"04A1B2C3D4E5F6" = 7`` per board tag."""
    from drivers.config import ConfigError

    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read the board map {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    boards = data.get("boards")
    if not isinstance(boards, dict):
        raise ConfigError(f"{path}: expected a [boards] table of \"tag UID\" = board number")
    out: dict[str, int] = {}
    for uid, number in boards.items():
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise ConfigError(f"'boards.{uid}' in {path}: {number!r} is not a board number")
        out[deck_json.normalize_uid(uid)] = number
    return out


def load_hand_record(path: str | Path) -> dict[int, a.BoardStart]:
    """Board number -> ``BoardStart`` (deal, dealer, vulnerability) of a PBN or LIN hand record."""
    from drivers.config import ConfigError

    path = Path(path)
    try:
        records = lin.load(path) if path.suffix.lower() == ".lin" else pbn.load(path)
    except OSError as exc:
        raise ConfigError(f"cannot read the hand record {path}: {exc.strerror or exc}") from None
    out: dict[int, a.BoardStart] = {}
    for rec in records:
        if rec.number is None or rec.deal is None or rec.number in out:
            continue
        try:
            deal = rec.deal.completed()
        except ValueError:
            deal = rec.deal
        out[rec.number] = a.BoardStart(rec.number, rec.dealer, rec.vulnerability, deal)
    if not out:
        raise ConfigError(f"{path}: no numbered board with a deal in this hand record")
    return out
