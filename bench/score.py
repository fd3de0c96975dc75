"""Field scoring speed: a synthetic 30-table, 36-board session scored from its scores alone.

Run with ``.venv/bin/python bench/score.py [--tables 30] [--boards 36] [--repeat 20]``.
Prints the figures and asserts nothing. The session is a Mitchell: 30 North-South and 30
East-West pairs, each board played at every table (1080 results), scores drawn from a
realistic spread with a seed. Timed, each the median of ``--repeat`` runs:

- ``score_event`` as matchpoints (2/1, Neuberg on), Butler (trimmed datum), cross-IMPs;
- ``check`` of the matchpoint event against one printed value per result side and pair;
- the whole file path: PBN text with ``[ScoreTable]`` travellers read by
  ``controller.records.scoretable.loads``, then scored;
- the Director's console (``controller.room.console.Room``) holding the same session as the
  tables' result messages: after one more result, the room scored again for the page
  (``snapshot``: travellers, points, ranking) and what each table's players may see
  (``for_players``, 30 messages), as the console does after every batch of messages;
- the same after one correction at the Director's desk (``controller.room.adjustments``), and
  after one split score (Law 12C1(c)) on a board, which matchpoints that board score by score;
- **re-scoring after one result** (the target: under 10 ms at 500 tables): the room's results
  (``RoomResults``) take one more result and give the scored field and the ranking, only that
  board scored again (``controller.fieldscore.boardwise``), at each of ``--sizes`` tables
  (30, 100, 300, 500 by default); and the same tables as two sections of half as many, the
  field scored both ways (each section alone and across the field, ``controller.fieldscore.field``);
- **the console's push after one result** at each of ``--sizes`` tables (the lead's target: the
  lock the console thread needs for an alarm held a few ms): ``Room.changes`` as
  ``tablectl.room.console_session.ConsoleSession.changes`` takes it under the console's lock (the
  time it holds the lock, p50 and p99), then what it does outside it (``ResultsStream.narrow``:
  only the boards and ranking rows that changed since the push before) and the push's size as
  the page gets it (JSON), p50 and p99.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.fieldscore import (
    Conventions,
    CrossImps,
    Datum,
    Event,
    Official,
    Printed,
    Result,
    Scoring,
    check,
    score_event,
)
from controller.fieldscore.boardwise import BoardwiseScore
from controller.fieldscore.field import across_the_field, in_each_section, sections_score
from controller.records import scoretable
from controller.room.adjustments import DeskEntry, Played
from controller.room.console import Room
from tablectl.room.console_push import CallsStream, ResultsStream

# typical NS scores of a board: a contract made or set, with a few outliers
SPREADS = ((420, 450, 450, 420, 170, -50, -100, 480, 620, 650),
           (-110, -140, 110, 50, -120, 90, 140, -90, 100, -200),
           (1430, 1460, 680, 650, 710, -100, 1440, 690, -50, 200))


def session(tables: int, boards: int, seed: int = 1) -> list[Result]:
    """A Mitchell session: at table t, NS pair t against EW pair t + round (mod tables)."""
    rng = random.Random(seed)
    results = []
    for b in range(1, boards + 1):
        spread = SPREADS[b % len(SPREADS)]
        for t in range(1, tables + 1):
            ew = (t - 1 + b) % tables + 1
            results.append(Result(str(b), f"{t}", f"{tables + ew}", score=rng.choice(spread)))
    return results


def pbn_text(results: list[Result]) -> str:
    """The session as PBN records, one per board, each with its [ScoreTable]."""
    out = []
    by_board: dict[str, list[Result]] = {}
    for r in results:
        by_board.setdefault(r.board, []).append(r)
    for board, rs in by_board.items():
        out.append(f'[Event "Bench"]\n[Board "{board}"]\n'
                   '[ScoreTable "PairId_NS\\3R;PairId_EW\\3R;Score_NS\\6R;Score_EW\\6R"]')
        for r in rs:
            assert r.score is not None
            ns, ew = (f'"{r.score}"', "-") if r.score >= 0 else ("-", f'"{-r.score}"')
            out.append(f"{r.ns:>3} {r.ew:>3} {ns:>6} {ew:>6}")
        out.append("")
    return "\n".join(out)


def timed(label: str, fn: Callable[[], object], repeat: int) -> float:
    """The median wall time of ``fn`` over ``repeat`` runs, printed with the best and the median CPU
    time of this process (on a shared machine the wall time waits for the other processes too)."""
    times = []
    cpu = []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    median = statistics.median(times)
    print(f"{label:<52} median {median * 1000:8.2f} ms   best {min(times) * 1000:8.2f} ms   "
          f"cpu {statistics.median(cpu) * 1000:8.2f} ms")
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--boards", type=int, default=36)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--sizes", default="30,100,300,500",
                        help="tables for re-scoring after one result (comma-separated; empty: none)")
    args = parser.parse_args()
    results = tuple(session(args.tables, args.boards))
    print(f"synthetic session: {args.tables} tables, {args.boards} boards, {len(results)} results")
    mp = Event("Bench", Scoring.MP, results)
    butler = Event("Bench", Scoring.BUTLER, results, Conventions(datum=Datum(trim=1)))
    cross = Event("Bench", Scoring.CROSS_IMP, results, Conventions(cross_imps=CrossImps.AVERAGE))
    timed("matchpoints (score_event)", lambda: score_event(mp), args.repeat)
    timed("Butler, trimmed datum (score_event)", lambda: score_event(butler), args.repeat)
    timed("cross-IMPs, averaged (score_event)", lambda: score_event(cross), args.repeat)
    scored = score_event(mp)
    printed = tuple(Printed(("result", "", s.result.board, s.result.ns, s.result.ew), "points_ns",
                            f"{s.points_ns:g}", "MP_NS") for b in scored.boards for s in b.results)
    printed += tuple(Printed(("pair", "", st.pair), "percent", f"{st.percent:.2f}", "Percentage")
                     for st in scored.standings)
    with_printed = Event("Bench", Scoring.MP, results, printed=printed)
    report = check(score_event(with_printed))
    assert not report.differences
    timed(f"matchpoints + check of {len(printed)} printed values", lambda: check(score_event(with_printed)),
          args.repeat)
    text = pbn_text(list(results))
    timed(f"PBN ({len(text) // 1024} KiB) read + matchpoints",
          lambda: [score_event(e) for e in scoretable.loads(text).events], args.repeat)
    start = time.perf_counter()
    room, messages = room_of(results, args.tables)
    took = (time.perf_counter() - start) * 1000
    print(f"{'console: the ' + str(len(results)) + ' results received':<52} total  {took:8.2f} ms")
    timed("console: one more result, room + players", room_change(room, messages), args.repeat)
    timed("console: one correction at the desk, room + players", desk_change(room, weighted=False), args.repeat)
    timed("console: one split score at the desk, the same", desk_change(room, weighted=True), args.repeat)
    room.end_session()  # every table's players now get their whole scorecards
    timed("console: the same, the session over", room_change(room, messages), args.repeat)
    sizes = [int(n) for n in args.sizes.split(",") if n.strip()]
    for tables in sizes:
        rescoring(tables, args.boards, args.repeat)
    for tables in sizes:
        pushing(tables, args.boards, args.repeat)


def rescoring(tables: int, boards: int, repeat: int) -> None:
    """Re-scoring after one result at ``tables`` tables: the room's results (one section), then the
    same tables as two sections of half as many, scored in each section and across the field."""
    results = tuple(session(tables, boards))
    room, messages = room_of(results, tables)
    table, last = messages[-1]
    seq = [int(str(last["seq"]))]
    scores = (420, 450, -50)

    def one_more() -> object:
        seq[0] += 1
        room.results.result(table, {**last, "seq": seq[0], "prev": seq[0] - 1, "score_ns": scores[seq[0] % 3]})
        return room.results.scored(), room.results.ranking()
    timed(f"re-scoring after one result, {tables} tables", one_more, repeat)
    half = tuple(session(tables // 2, boards))  # the same tables in two sections of half as many
    field = [replace(r, section=section) for section in "AB" for r in half]
    pairs = tuple({(r.section, p) for r in field for p in (r.ns, r.ew)})
    ways = [BoardwiseScore("Bench", Scoring.MP, conventions, pairs)
            for conventions in (in_each_section(Conventions()), across_the_field(Conventions()))]
    by_board: dict[str, list[Result]] = {}
    for r in field:
        by_board.setdefault(r.board, []).append(r)
    for board, rs in by_board.items():
        for way in ways:
            way.put(board, rs)
    board = next(iter(by_board))
    turn = [0]

    def both_ways() -> object:
        turn[0] += 1
        rs = list(by_board[board])
        rs[-1] = replace(rs[-1], score=scores[turn[0] % 3])
        for way in ways:
            way.put(board, rs)
        return sections_score(ways[0].event_score(), ways[1].event_score(), Official.FIELD)
    timed(f"  the same in 2 sections of {tables // 2}, both rankings", both_ways, repeat)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def pushing(tables: int, boards: int, repeat: int) -> None:
    """The console's push to the Director's page after one more result, at ``tables`` tables: the part
    made under the console's lock (``Room.changes``), the part outside it, and the push's size."""
    results = tuple(session(tables, boards))
    room, messages = room_of(results, tables)
    stream, calls = ResultsStream(), CallsStream()
    version = [1]

    def push(table: str) -> tuple[float, float, float, int]:
        since, version[0] = version[0], version[0] + 1
        start, start_cpu = time.perf_counter(), time.process_time()
        out = room.changes(5000.0, {table}, True, 0)  # what ConsoleSession.changes makes under its lock
        held, held_cpu = time.perf_counter() - start, time.process_time() - start_cpu
        stream.narrow(out, since, version[0])
        calls.narrow(out, since, version[0])
        text = json.dumps({"kind": "delta", "base": since, "version": version[0], **out}, separators=(",", ":"))
        return held, held_cpu, time.perf_counter() - start - held, len(text)
    push("1")  # the page's first push: the results whole
    rng = random.Random(tables)
    held, cpu, outside, size = [], [], [], []
    for i in range(max(repeat, 20)):
        table, last = messages[rng.randrange(len(messages))]
        body = {**last, "seq": 10_000 + i, "prev": 10_000 + i - 1, "score_ns": rng.choice(SPREADS[0])}
        room.receive("result", table, body, 5000.0)
        h, c, o, n = push(table)
        held.append(h)
        cpu.append(c)
        outside.append(o)
        size.append(n)
    print(f"{f'push after one result, {tables} tables: lock held':<52} p50 {percentile(held, 0.5) * 1000:8.2f} ms   "
          f"p99 {percentile(held, 0.99) * 1000:8.2f} ms   cpu p50 {percentile(cpu, 0.5) * 1000:8.2f} ms")
    print(f"{'  outside the lock (narrowed to what changed)':<52} p50 {percentile(outside, 0.5) * 1000:8.2f} ms   "
          f"p99 {percentile(outside, 0.99) * 1000:8.2f} ms")
    print(f"{'  the push as the page gets it':<52} p50 {percentile(size, 0.5) / 1024:8.1f} KB   "
          f"p99 {percentile(size, 0.99) / 1024:8.1f} KB")


def room_of(results: tuple[Result, ...], tables: int) -> tuple[Room, list[tuple[str, dict[str, object]]]]:
    """A console's room holding ``results`` as the tables sent them, and those messages."""
    room = Room("bench")
    messages = []
    seq: dict[str, int] = {}
    for i, r in enumerate(results):
        table = str(i % tables + 1)
        n = seq[table] = seq.get(table, 0) + 1
        body = {"number": int(r.board), "contract": "3NT", "declarer": "N", "result": "=", "score_ns": r.score,
                "status": "played", "pairs": {"NS": r.ns, "EW": r.ew}, "v": 1, "club": "bench", "table": table,
                "session": "s", "seq": n, "prev": n - 1, "at": 1000.0 + i}
        room.receive("result", table, body, 1000.0 + i)
        messages.append((table, body))
    return room, messages


def room_change(room: Room, messages: list[tuple[str, dict[str, object]]]) -> Callable[[], object]:
    """One more result (a table sends its last board again, corrected), then what the console computes."""
    table, last = messages[-1]
    counter = [int(str(last["seq"]))]

    def change() -> object:
        counter[0] += 1
        room.receive("result", table, {**last, "seq": counter[0], "prev": counter[0] - 1}, 5000.0)
        return room.snapshot(5000.0), room.for_players(5000.0)
    return change


def desk_change(room: Room, weighted: bool) -> Callable[[], object]:
    """One more entry at the Director's desk on board 1 at table 1 (a correction, or a split score),
    then what the console computes."""
    tricks = [9]

    def change() -> object:
        tricks[0] = 8 if tricks[0] == 9 else 9
        played = Played.parse("3NT", "N", tricks[0])
        entry = (DeskEntry(0, "assigned", "1", "1", "bench", 0.0, "bench",
                           assigned=((played, 30.0), (Played.parse("3NT", "N", 10), 70.0))) if weighted
                 else DeskEntry(0, "correction", "1", "1", "bench", 0.0, "bench", played=played))
        room.results.adjust(entry)
        return room.snapshot(5000.0), room.for_players(5000.0)
    return change


if __name__ == "__main__":
    main()
