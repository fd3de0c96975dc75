"""Taking back what a table's log lost, from the room's copy (a part of ``tablectl.runtime.TableRuntime``).

At power-on the table may find that its log lost actions it had acknowledged (``tablectl.highwater``:
``TableRuntime.loss``), and says so to the room (a ``log_damaged`` alert). The room's console holds the table's
own ``event`` messages, one an action, and sends back those of the lost session (``restore`` commands,
``tablectl.room.console_catchup``; ``tablectl.room.link`` hands each here): ``restore`` takes again the ones the
log lost, each as an input of source ``room``. The raw sensor reads that
produced them cannot come back (the room never had them): the table's state is rebuilt from the actions, and a
notice kept for as long as the table runs says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller import actions as a
from controller.sensing.translate import Notice, NoticeKind
from tablectl.highwater import Loss

__all__ = ["TableRestore", "refusal"]

Event = tuple[int, a.Action, str]
"""One of the table's own ``event`` messages as the console holds it: ``(seq, action, source)``."""


def refusal(loss: Loss | None, session: str, events: Sequence[Event], restored_upto: int) -> str | None:
    """Why the table cannot take ``events`` back (None: it can): it lost nothing, or actions of another
    session; one of them was not lost; or every one was restored already (``restored_upto``)."""
    lost: set[int] = set() if loss is None else {s for lo, hi in loss.missing for s in range(lo, hi + 1)}
    if loss is None or not lost:
        return "this table lost nothing from its log: there is nothing to restore"
    if session != loss.mark.session:
        return f"the table lost actions of session {loss.mark.session}, not of session {session}"
    seq = next((seq for seq, _action, _source in events if seq not in lost), None)
    if seq is not None:
        return f"seq {seq} was not lost (the log lost {_spans(loss.missing)}): nothing restored"
    if not _todo(events, restored_upto):
        return "these actions were restored already"
    return None


def _todo(events: Sequence[Event], restored_upto: int) -> list[Event]:
    """The events not restored yet, a session's start left out."""
    return [e for e in events if e[0] > restored_upto and not isinstance(e[1], a.SessionStart)]


def _spans(ranges: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"seq {lo}" if lo == hi else f"seq {lo}-{hi}" for lo, hi in ranges)


class TableRestore:
    """The table's restore from the room's copy (module doc): ``TableRuntime.__init__`` sets every attribute
    below."""

    loss: Loss | None
    _restored_upto: int
    """The highest seq restored from the room's copy."""
    _pinned: list[Notice]
    _last_t: float

    @property
    def running(self) -> bool:
        raise NotImplementedError  # ``TableRuntime.running``

    def report(self, body: Mapping[str, Any]) -> None:
        raise NotImplementedError  # ``TableRuntime.report``

    def _take_all(self, actions: Sequence[a.Action], source: str) -> int:
        raise NotImplementedError  # ``TableRuntime._take_all``

    def restore(self, ref: str, session: str, events: Sequence[Event]) -> int:
        """Take back, from the room's copy, the table actions the log lost (``self.loss``).

        ``events`` are the ``(seq, action, source)`` of the table's own ``event`` messages the
        console holds. Only those whose ``seq`` the log lost (``Loss.missing``, in the lost
        session) and not restored yet are taken, in order, each submitted again as an input of
        source ``room``; then a ``log_restored`` alert row says how many. The raw sensor
        inputs are not restored (the room never had them): the table's state is rebuilt from
        the actions they produced. A restore the table cannot take changes nothing and is
        answered by a refused ``command`` alert. Returns how many actions were restored.
        """
        if not self.running:
            raise RuntimeError("the table is not running")
        reason = refusal(self.loss, session, events, self._restored_upto)
        if reason is not None:
            self.report({"alert": "command", "ref": ref, "accepted": False, "reason": reason,
                         "what": f"restore refused: {reason}", "alarm": False})
            return 0
        todo = _todo(events, self._restored_upto)
        taken = self._take_all([action for _seq, action, _source in todo], "room")
        self._restored_upto = todo[-1][0]
        what = (f"{taken} action(s) restored from the room's copy (seq {todo[0][0]}-{todo[-1][0]}); the sensor "
                "reads that produced them cannot be: check the table against the cards")
        self._pinned.append(Notice(NoticeKind.LOG_DAMAGED, None, None, None, what, self._last_t))
        self.report({"alert": "log_restored", "ref": ref, "accepted": True, "what": what, "alarm": False,
                     "restored": taken, "first": todo[0][0], "last": todo[-1][0]})
        return taken
