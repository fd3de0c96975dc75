"""What a table in a club room shows of its boards on its public pages, pure: the room's rule.

In a duplicate room a board travels from table to table: its cards, auction, play and result
reach no page a player can open while some table has still to play it (Law 16C), whatever the
page. The console decides which boards are **released** (``controller.room.release``: every
table due to play the board has finished it, the Director released it, or the session is over)
and sends the list with the players' results (``released``); the table keeps the latest
(``TableRuntime.room_results``). Here each public payload is cut to it:

* the **spectator** page and socket show the board in progress, or the board just finished,
  only when it is released; otherwise ``board`` is None and ``held_back`` says why ("Board 5
  is still to be played at other tables"), with no irregularity, turn or result of it;
* the **table** page keeps the board in progress (the players seated there are playing it),
  but once it is finished there, its result, like the list of finished boards and the totals,
  shows only when released;
* the **results** page: ``web_ui.player_results``; the public records (PBN, LIN): released boards only.

The same message carries the Director's answer to the table's call (``director``: on my way,
done), which the table page shows instead of "Arbiter called by East" (``with_answer``).

A table in no room (``in_room`` false) shows everything as before; a table in a room that has not
heard from the console yet shows nothing of any board (fail closed).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from controller.room.release import Released

__all__ = ["ANSWER_WORDS", "RoomMember", "held_back_text", "release_of", "released_in", "spectator_payload",
           "table_payload", "with_answer"]

Json = dict[str, Any]


@runtime_checkable
class RoomMember(Protocol):
    """A running table that may be in a club room (``TableRuntime``)."""

    def in_room(self) -> bool: ...
    def room_results(self) -> Json | None: ...


def release_of(service: object) -> Released | None:
    """The boards ``service``'s pages may show (None: the table is in no room, all of them)."""
    if not isinstance(service, RoomMember) or not service.in_room():
        return None
    return released_in(service.room_results())


def released_in(message: Json | None) -> Released:
    """The ``released`` field of the console's message (nothing, when it has none)."""
    field = message.get("released") if isinstance(message, dict) else None
    if not isinstance(field, dict):
        return Released(False, frozenset())
    boards = field.get("boards")
    return Released(field.get("all") is True,
                    frozenset(str(b) for b in boards) if isinstance(boards, list) else frozenset())


def held_back_text(board: object) -> str:
    return f"Board {board} is still to be played at other tables: it is shown once every table has played it"


def _score(score: object, release: Released) -> Json | None:
    """The score sheet with only released boards; no totals while a finished board is held back."""
    if not isinstance(score, dict):
        return None
    boards = [b for b in score.get("boards") or [] if isinstance(b, dict) and release.shows(b.get("number"))]
    if len(boards) == len(score.get("boards") or []):
        return score
    return {"code": score.get("code"), "boards": boards, "held_back": True,
            "totals": {"NS": None, "EW": None}, "entries": []}


def _held(payload: Json, release: Released, in_progress_shown: bool) -> Json:
    out = {**payload, "score": _score(payload.get("score"), release)}
    board = payload.get("board")
    if not isinstance(board, dict) or release.shows(board.get("number")):
        return out
    if in_progress_shown and board.get("phase") != "done":
        return out
    number = board.get("number") if board.get("number") is not None else board.get("index")
    out.update(board=None, turn=None, irregularities=[], arbiter_called=None, waiting_for_arbiter=False,
               held_back={"board": number, "text": held_back_text(number)})
    return out


def spectator_payload(payload: Json, release: Released | None) -> Json:
    """The spectators' payload under the room's rule (module doc)."""
    if release is None or release.every:
        return payload
    return _held(payload, release, in_progress_shown=False)


def table_payload(payload: Json, release: Released | None) -> Json:
    """The table page's payload: the board in progress as it is, a finished one and those before it
    only when released."""
    if release is None or release.every:
        return payload
    return _held(payload, release, in_progress_shown=True)


ANSWER_WORDS = {"on_my_way": "The Director is on the way", "done": "The Director has answered the call"}


def with_answer(payload: Json, service: object) -> Json:
    """The table page's payload with the Director's answer to the table's call (``director``:
    ``{"answer", "text", "seat"}``), sent by the console with the players' results, while it
    is about the board at the table; after "Done" the call is no longer shown as waiting."""
    if not isinstance(service, RoomMember):
        return payload
    message = service.room_results()
    answer = message.get("director") if isinstance(message, dict) else None
    board = payload.get("board")
    number = board.get("number") if isinstance(board, dict) else None
    if not isinstance(answer, dict) or answer.get("answer") not in ANSWER_WORDS or answer.get("board") != number:
        return payload
    out = {**payload, "director": {"answer": answer["answer"], "text": ANSWER_WORDS[str(answer["answer"])],
                                   "seat": answer.get("seat")}}
    if answer["answer"] == "done" and answer.get("irregularity") is None:
        out["arbiter_called"] = None
    return out
