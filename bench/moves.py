"""What a movement change costs at the console: ``python bench/moves.py [TABLES]``.

A Mitchell of TABLES tables (15 by default: a big club night), 2 boards a round, every round played;
then two pairs swapped from round 2 on (``controller.room.moves``): the room's results followed again
through the changed movement (``refollowed``) and scored (the ranking). Prints the results, and the
milliseconds of the change (the best of 5 runs): the Director waits this long for the page to follow.
"""

from __future__ import annotations

import sys
import time

from controller.fieldscore import loads_session
from controller.room.console import Room
from controller.room.moves import MoveEntry, Moves, refollowed


def main() -> None:
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    session = loads_session(f'[session]\nname = "Bench"\nmovement = "mitchell"\ntables = {tables}\n'
                            'boards_per_round = 2\n')
    movement = session.movement()
    room = Room("bench", session=session)
    seq: dict[str, int] = {}
    at = 0.0
    for s in movement.sittings:
        table = str(s.table)
        for board in movement.boards(s.board_set):
            seq[table] = seq.get(table, 0) + 1
            at += 1.0
            room.receive("result", table, {"v": 1, "club": "bench", "table": table, "session": f"s{table}",
                                           "seq": seq[table], "prev": seq[table] - 1, "at": at, "number": board,
                                           "contract": "3NT", "declarer": "N", "tricks": 9, "result": "=",
                                           "score_ns": 400 + 10 * ((board * s.table) % 7)}, at)
    room.results.ranking()
    a, b = str(tables + 1), str(tables + 2)
    moves, _ = Moves().add(session, MoveEntry(0, "swap", "", 2, "bench", 0.0, "bench", a=a, b=b))
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        results = refollowed(room.results, moves.session(session))
        results.ranking()
        best = min(best, time.perf_counter() - start)
    print(f"{tables} tables, {len(movement.sittings)} sittings, {sum(len(t) for t in room.results.results.values())} "
          f"results: a swap followed and scored again in {best * 1000:.1f} ms (best of 5)")


if __name__ == "__main__":
    main()
