"""``tablectl replay`` and ``tablectl demo-replay``: replay a file and print its report."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from controller.engine import Engine, rebuild, session_start
from controller.errors import BridgeTableError
from controller.records import lin, pbn, tablelog
from controller.records.eventlog import BadRow, Row
from controller.records.export import records_of
from controller.records.model import BoardRecord
from controller.replay import ReplayReport, board_actions, replay_log, replay_records, table_report
from controller.sensing.deck import DeckRegistry
from controller.sensing.translate import Settings
from tablectl.replaytext import summary
from tablectl.store import StoreError, open_reader

__all__ = ["UsageError", "add_commands", "replay_file"]


class UsageError(BridgeTableError, ValueError):
    """The input cannot be used at all (missing file, unknown format, nothing readable)."""


_TABLE_LOG = (".jsonl", ".log", ".json")
_EVENT_LOG = (".sqlite", ".sqlite3", ".db")
_SQLITE_HEADER = b"SQLite format 3\0"


def _progress_printer(label: str) -> Any:
    start = time.monotonic()

    def progress(done: int, total: int) -> None:
        if total >= 1000:
            rate = done / max(time.monotonic() - start, 1e-9)
            print(f"{label}: {done}/{total} boards ({rate:,.0f}/s)", file=sys.stderr)
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
    """The engine at power-on of the session in ``meta`` (as ``TableRuntime`` makes it, without a config)."""
    decks, settings, deck = DeckRegistry(), Settings(), None
    try:
        decks = DeckRegistry.from_mapping(meta["decks"]) if "decks" in meta else decks
        settings = Settings(**meta["sensing"]) if "sensing" in meta else settings
        deck = meta.get("deck", deck)
    except (TypeError, ValueError) as exc:
        errors.append(f"{path}: the stored decks or sensing settings are unusable ({exc}): defaults used")
    return Engine.new(decks, settings, deck if isinstance(deck, str) else None)


def replay_file(path: Path) -> ReplayReport:
    """Replay a table log, a table's event log, a PBN or LIN file; UsageError if it cannot be used at all."""
    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    if is_event_log(path):
        return replay_event_log(path)
    progress = _progress_printer(path.name)
    if path.suffix.lower() in _TABLE_LOG:
        lines = tablelog.load(path)
        if lines and all(line.action is None for line in lines):
            raise UsageError(f"{path}: no line of this table log could be read "
                             f"({lines[0].error})")
        return replay_log(lines, progress)
    records = load_records(path)
    if not records:
        raise UsageError(f"{path}: no board record found")
    return replay_records(records, progress)


def _cmd_replay(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        result = replay_file(path)
    except (BridgeTableError, OSError) as exc:
        print(f"tablectl replay: {exc}", file=sys.stderr)
        return 2
    report = result.report
    if args.record is not None:
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


def _cmd_demo_replay(args: argparse.Namespace) -> int:
    """Replay one real board from the corpus and print its record and score (``make run``)."""
    corpus = Path(os.environ.get("BRIDGE_CORPUS", "../shared/corpus"))
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
    p.add_argument("--json", action="store_true", help="print the JSON report (DESIGN.md)")
    p.add_argument("--compact", action="store_true", help="with --json: one line")
    p.add_argument("--record", type=int, help="only the Nth record of the file (from 1)")
    p.add_argument("--pbn", metavar="OUT", help="write the boards of a table log (or table.sqlite) as PBN, with "
                   "irregularity marks, rulings as commentary, and time tables")
    p.add_argument("--lin", metavar="OUT", help="write the boards of a table log as LIN, with "
                   "rulings as commentary")
    p.set_defaults(func=_cmd_replay)
    d = sub.add_parser("demo-replay", help="replay one real corpus board and print it")
    d.add_argument("--record", type=int, default=1)
    d.set_defaults(func=_cmd_demo_replay)
