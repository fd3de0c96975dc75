"""``tablectl replay`` and ``tablectl demo-replay``: replay a file and print its report."""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from controller.errors import BridgeTableError
from controller.records import lin, pbn, tablelog
from controller.records.model import BoardRecord
from controller.replay import (
    RecordReplay,
    ReplayReport,
    board_actions,
    replay_log,
    replay_records,
    table_report,
)
from tablectl.corpus import corpus_dir
from tablectl.replaytext import summary

if TYPE_CHECKING:
    from controller.engine import Engine

# A table's event log needs the engine, the sensing layer and the store: they are imported
# when such a log is replayed, so that replaying records starts fast.

__all__ = ["UsageError", "add_commands", "replay_file"]


class UsageError(BridgeTableError, ValueError):
    """The input cannot be used at all (missing file, unknown format, nothing readable)."""


_TABLE_LOG = (".jsonl", ".log", ".json")
_EVENT_LOG = (".sqlite", ".sqlite3", ".db")
_SQLITE_HEADER = b"SQLite format 3\0"


def _progress_printer(label: str) -> Any:
    """Progress of a long replay on stderr: a line every two seconds at most, and the last."""
    start = last = time.monotonic()

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if total >= 1000 and (now - last >= 2.0 or (done == total and now - start >= 2.0)):
            last = now
            rate = done / max(now - start, 1e-9)
            print(f"{label}: {done:,}/{total:,} boards ({rate:,.0f}/s)", file=sys.stderr, flush=True)
    return progress


def load_records(path: Path) -> list[BoardRecord]:
    """The records of a .pbn or .lin file."""
    suffix = path.suffix.lower()
    if suffix == ".pbn":
        return pbn.load(path)
    if suffix == ".lin":
        return lin.load(path)
    raise UsageError(f"{path}: unknown record format {suffix!r} (expected .jsonl, .sqlite, .pbn or .lin)")


def is_event_log(path: Path) -> bool:
    """True for a table's own event log: an SQLite file (by its name or by its header)."""
    if path.suffix.lower() in _EVENT_LOG:
        return True
    try:
        with path.open("rb") as f:
            return f.read(len(_SQLITE_HEADER)) == _SQLITE_HEADER
    except OSError:
        return False


def replay_event_log(path: Path) -> ReplayReport:
    """The report of a table's own event log (``table.sqlite``), read-only: the table rebuilt
    from its stored inputs exactly as the running table rebuilds itself at start-up."""
    from controller.engine import rebuild, session_start
    from controller.records.eventlog import BadRow, Row
    from tablectl.store import StoreError, open_reader

    try:
        with open_reader(path, snapshot=True) as reader:
            meta = reader.meta()
            rows = reader.rows_after(0)
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    if not rows and "session" not in meta:
        raise UsageError(f"{path}: this table log is empty")
    bad = [r for r in rows if isinstance(r, BadRow)]
    if rows and len(bad) == len(rows):
        raise UsageError(f"{path}: no row of this table log could be read ({bad[0].error})")
    errors: list[str] = []
    engine = _engine_of(meta, path, errors)
    if "session" in meta and not any(isinstance(r, Row) and r.is_input for r in rows):
        try:  # a log whose session line was never written: the table starts it from meta
            engine = engine.act(session_start(meta["session"]), "session").engine
        except (TypeError, ValueError) as exc:
            errors.append(f"{path}: the stored session settings are unusable ({exc})")
    rebuilt = rebuild(rows, engine)
    result = table_report(rebuilt.engine.table, errors + [b.error for b in rebuilt.bad], rebuilt.rejected)
    if rebuilt.mismatches:
        result.report["mismatches"] = rebuilt.mismatches
    return result


def _engine_of(meta: dict[str, Any], path: Path, errors: list[str]) -> Engine:
    """The engine at power-on of the session in ``meta``, as the running table makes it
    (``tablectl.poweron.engine_of``), with no config behind it."""
    from controller.sensing.deck import DeckRegistry
    from controller.sensing.translate import Settings
    from tablectl.poweron import engine_of

    return engine_of(meta, DeckRegistry(), Settings(), None, str(path), errors)


def scenario_log(path: Path) -> str | None:
    """The table log of a scenario file (one JSON document with a ``log`` list, as the
    situations' tests are written), led by its session line under the first code it names;
    None for anything else (a table log is one JSON object per line)."""
    try:
        text = path.read_text(encoding="utf-8")
        spec = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(spec, dict) or not isinstance(spec.get("log"), list):
        return None
    codes = spec.get("codes") or ["duplicate"]
    print(f"{path.name}: a scenario: its log replayed under the {codes[0]} code"
          + (f" (it also names {', '.join(map(str, codes[1:]))})" if len(codes) > 1 else ""), file=sys.stderr)
    return scenario_text(spec, str(codes[0]))


def scenario_text(spec: dict[str, Any], code: str) -> str:
    """A scenario's table log under ``code``: its session line (the code and the scenario's
    ``settings``), then the lines of its ``log``."""
    settings = spec.get("settings")
    session = {"t": 0, "session": {"code": code, **(settings if isinstance(settings, dict) else {})}}
    return "".join(json.dumps(line) + "\n" for line in [session, *spec["log"]])


def replay_file(path: Path) -> ReplayReport:
    """Replay a table log, a table's event log, a PBN or LIN file; UsageError if it cannot be used at all."""
    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    if is_event_log(path):
        return replay_event_log(path)
    progress = _progress_printer(path.name)
    if path.suffix.lower() in _TABLE_LOG:
        scenario = scenario_log(path)
        lines = tablelog.loads(scenario) if scenario is not None else tablelog.load(path)
        if lines and all(line.action is None for line in lines):
            raise UsageError(f"{path}: no line of this table log could be read "
                             f"({lines[0].error})")
        return replay_log(lines, progress)
    records = load_records(path)
    if not records:
        raise UsageError(f"{path}: no board record found")
    return replay_records(records, progress)


def iter_records(path: Path) -> Iterator[BoardRecord]:
    """The records of a .pbn file as they are read (a .lin file is read whole: vugraph files
    are small); UsageError for another format."""
    if path.suffix.lower() == ".pbn":
        return pbn.iter_load(path)
    return iter(load_records(path))


def stream_report(path: Path, out: IO[str], lines: bool = False, compact: bool = False) -> int:
    """Replay the records of ``path`` and write each board's entry as soon as it is replayed,
    then the session: memory holds one board whatever the size of the file.

    The JSON is the report of ``--json`` (``boards`` first, then ``session``: a streamed report
    knows the session's totals only at its end), one board per line unless ``compact``; with
    ``lines``, JSON Lines: one board per line, then one ``{"session": ...}`` line. Returns the
    number of records; UsageError when the file holds none (nothing is written then).
    """
    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    gc.set_threshold(50_000, 20, 20)  # a streamed replay makes few cycles: collect them rarely
    encode = json.JSONEncoder().encode
    replay = RecordReplay()
    progress = _counter(path.name)
    sep = "\n" if lines else "," if compact else ",\n"
    n = 0
    for rec in iter_records(path):
        if n == 0:
            out.write("" if lines else '{"boards": [' if compact else '{"boards": [\n')
        else:
            out.write(sep)
        out.write(encode(replay.entry(rec)))
        n += 1
        progress(n)
    if n == 0:
        raise UsageError(f"{path}: no board record found")
    session = encode(replay.session())
    if lines:
        out.write(f'\n{{"session": {session}}}\n')
    else:
        out.write(f'], "session": {session}}}\n' if compact else f'\n],\n"session": {session}}}\n')
    progress(n, final=True)
    return n


def _counter(name: str) -> Any:
    """Progress of a streamed replay on stderr: a line every few seconds on long files."""
    start = last = time.monotonic()

    def progress(done: int, final: bool = False) -> None:
        nonlocal last
        if done % 1000 and not final:
            return
        now = time.monotonic()
        if (now - last >= 2.0) or (final and now - start >= 2.0):
            last = now
            rate = done / max(now - start, 1e-9)
            end = " done" if final else ""
            print(f"{name}: {done:,} boards replayed ({rate:,.0f}/s){end}", file=sys.stderr, flush=True)
    return progress


def _buffered_stdout() -> IO[str]:
    """Standard output through one large buffer (the report is many small writes)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # replaced by a test or an embedding program
        return sys.stdout
    sys.stdout.flush()
    return open(fd, "w", encoding="utf-8", buffering=1 << 20, closefd=False)


def _cmd_replay(args: argparse.Namespace) -> int:
    path = Path(args.file)
    streamable = (path.suffix.lower() in (".pbn", ".lin") and not args.record and not args.pbn
                  and not args.lin and (args.json or args.jsonl))
    if streamable:
        out = _buffered_stdout()
        try:
            stream_report(path, out, lines=args.jsonl, compact=args.compact)
        except BrokenPipeError:
            raise  # the reader went away: tablectl.cli stops quietly
        except (BridgeTableError, OSError) as exc:
            print(f"tablectl replay: {exc}", file=sys.stderr)
            return 2
        finally:
            with contextlib.suppress(BrokenPipeError):
                out.flush()
        return 0
    if args.jsonl:
        print("tablectl replay: --jsonl streams the boards of a .pbn or .lin file (without --record, "
              "--pbn or --lin)", file=sys.stderr)
        return 2
    try:
        if args.record is not None and path.suffix.lower() in (".pbn", ".lin"):
            result = _replay_one_record(path, args.record)
        else:
            result = replay_file(path)
    except (BridgeTableError, OSError) as exc:
        print(f"tablectl replay: {exc}", file=sys.stderr)
        return 2
    report = result.report
    if args.record is not None and len(report["boards"]) != 1:
        boards = report["boards"]
        if not 1 <= args.record <= len(boards):
            print(f"tablectl replay: {path} has {len(boards)} records, not {args.record}",
                  file=sys.stderr)
            return 2
        report = {"session": report["session"], "boards": [boards[args.record - 1]]}
    if args.pbn or args.lin:
        if path.suffix.lower() not in _TABLE_LOG and not is_event_log(path):
            print("tablectl replay: --pbn and --lin export the boards of a table log (.jsonl or "
                  "the table's table.sqlite)", file=sys.stderr)
            return 2
        from controller.records.export import records_of

        records = records_of(result.state)
        if args.pbn:
            pbn.dump(records, args.pbn)
        if args.lin:
            lin.dump(records, args.lin)
    if args.json:
        json.dump(report, sys.stdout, indent=None if args.compact else 1)
        sys.stdout.write("\n")
    else:
        print(summary(report))
    return 0


def _replay_one_record(path: Path, number: int) -> ReplayReport:
    """Record ``number`` (from 1) of a .pbn or .lin file replayed on its own: its entry, and a
    session of that one board (records are independent boards, unlike a table log's)."""
    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    count = 0
    for count, rec in enumerate(iter_records(path), start=1):
        if count == number:
            return replay_records([rec])
    raise UsageError(f"{path} has {count} records, not {number}")


def _cmd_demo_replay(args: argparse.Namespace) -> int:
    """Replay one real board from the corpus and print its record and score (``make run``)."""
    corpus = corpus_dir()
    path = corpus / "pbntools_bbo_online" / "test_6_bbo_skyclub_20130810" / \
        "sky_club_2196_pairs_sky_club_jackpot_2000.pbn"
    if not path.is_file():
        print(f"tablectl: the corpus is not at {corpus} (set BRIDGE_CORPUS)", file=sys.stderr)
        return 2
    records = pbn.load(path)
    rec = records[args.record - 1]
    result = replay_records([rec], fast=False)  # the full table: its board is exported below
    entry = result.report["boards"][0]
    print(f"# {rec.source}\n")
    print(pbn.dumps([rec]))
    print(summary({"session": result.report["session"], "boards": [entry]}))
    print("\nThe same board as a table log (tablectl replay accepts it as .jsonl):")
    print(tablelog.dumps(board_actions(result.state.boards[-1])), end="")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="replay a table log (.jsonl), a table's event log (table.sqlite), "
                       "PBN or LIN file")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print the JSON report (docs/replay-report.md)")
    p.add_argument("--compact", action="store_true", help="with --json: one line")
    p.add_argument("--jsonl", action="store_true", help="JSON Lines: one board per line as it is replayed, "
                   "then the session (for .pbn and .lin files)")
    p.add_argument("--record", type=int, help="only the Nth record of the file (from 1)")
    p.add_argument("--pbn", metavar="OUT", help="write the boards of a table log (or table.sqlite) as PBN, with "
                   "irregularity marks, rulings as commentary, and time tables")
    p.add_argument("--lin", metavar="OUT", help="write the boards of a table log as LIN, with "
                   "rulings as commentary")
    p.set_defaults(func=_cmd_replay)
    d = sub.add_parser("demo-replay", help="replay one real corpus board and print it")
    d.add_argument("--record", type=int, default=1)
    d.set_defaults(func=_cmd_demo_replay)
