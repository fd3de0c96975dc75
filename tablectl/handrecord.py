"""``tablectl handrecord FILE.pbn --html OUT.html``: a session's printable hand record.

The deals come from a PBN file (a dealing program's, or results with ``[Deal]``), one per
board number; each board's double-dummy table and par come from Bo Haglund's DDS through
endplay (``analyse``, the one place here that calls it), and
``controller.records.handrecord`` writes the page from those values.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from controller.calls import Denomination
from controller.errors import BridgeTableError
from controller.records import pbn
from controller.records.handrecord import DoubleDummy, HandRecordBoard, Par, ParContract, boards_of, hand_record_html
from controller.seats import SEATS, Seat, Vulnerability

__all__ = ["add_commands", "analyse"]

# DDS solves at most 40 deals (all five denominations) in one call of CalcAllTables.
_BATCH = 32
_PENALTY = {1: "", 2: "x", 4: "xx"}  # endplay's Penalty: passed, doubled, redoubled
_ORDER = (Denomination.C, Denomination.D, Denomination.H, Denomination.S, Denomination.NT)


def analyse(boards: Sequence[HandRecordBoard]) -> list[HandRecordBoard]:
    """Each board with its double-dummy table (DDS's CalcAllTables) and par (DealerParBin, for
    the board's dealer and vulnerability)."""
    # endplay loads its DDS library (and numpy) on import: only when a hand record needs it.
    from endplay.dds import calc_all_tables, par
    from endplay.types import Deal as EndplayDeal
    from endplay.types import Denom, Player, Vul

    vul = {Vulnerability.NONE: Vul.none, Vulnerability.NS: Vul.ns, Vulnerability.EW: Vul.ew,
           Vulnerability.BOTH: Vul.both}
    out = []
    for start in range(0, len(boards), _BATCH):
        batch = boards[start:start + _BATCH]
        tables = calc_all_tables([EndplayDeal(b.deal.pbn()) for b in batch])
        for b, table in zip(batch, tables, strict=True):
            tricks = tuple(tuple(int(table[Denom.nt if d is Denomination.NT else Denom(3 - d), Player(seat)])
                                 for d in _ORDER) for seat in SEATS)
            result = par(table, vul[b.vulnerable], Player(b.dealer_seat))
            # endplay's iterator reuses one structure for the two seats of a side: read each now
            found = [(c.level, Denomination.NT if c.denom == Denom.nt else Denomination(3 - c.denom),
                      Seat(int(c.declarer)), _PENALTY.get(int(c.penalty), ""), int(c.result)) for c in result]
            out.append(replace(b, double_dummy=DoubleDummy(tricks), par=Par(int(result.score), _grouped(found))))
    return out


def _grouped(found: list[tuple[int, Denomination, Seat, str, int]]) -> tuple[ParContract, ...]:
    """Par contracts with the seats that may declare each one together (``4♥ by E/W``)."""
    seats: dict[tuple[int, Denomination, str, int], list[Seat]] = {}
    for level, denomination, declarer, penalty, result in found:
        seats.setdefault((level, denomination, penalty, result), []).append(declarer)
    return tuple(ParContract(level, denomination, tuple(sorted(set(by))), penalty, result)
                 for (level, denomination, penalty, result), by in seats.items())


def _cmd_handrecord(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        records = pbn.load(path)
    except (OSError, BridgeTableError) as exc:
        print(f"tablectl handrecord: {exc}", file=sys.stderr)
        return 2
    boards, skipped = boards_of(records)
    for line in skipped:
        print(f"tablectl handrecord: {path.name}: {line}: left out", file=sys.stderr)
    if not boards:
        print(f"tablectl handrecord: {path}: no board with a complete deal", file=sys.stderr)
        return 2
    if not args.no_analysis:
        boards = analyse(boards)
    title = args.title or next((t for r in records if (t := r.tag("Event"))), None) or path.stem
    try:
        Path(args.html).write_text(hand_record_html(boards, title=title, per_page=args.per_page), encoding="utf-8")
    except OSError as exc:
        print(f"tablectl handrecord: {exc}", file=sys.stderr)
        return 2
    print(f"tablectl handrecord: wrote {args.html} ({len(boards)} boards)", file=sys.stderr)
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``handrecord`` to ``tablectl``'s sub-commands."""
    p = sub.add_parser("handrecord", help="a printable hand record (HTML) of a PBN file's deals, with "
                       "double-dummy tables and par",
                       description="Write a printable HTML hand record: each board's deal, dealer and "
                                   "vulnerability, double-dummy table and par (DDS), 2 to 4 boards to an A4 page.")
    p.add_argument("file", help="a PBN file with [Deal] tags (one board per number is shown)")
    p.add_argument("--html", required=True, metavar="OUT", help="the HTML file to write")
    p.add_argument("--title", help="the page title (default: the file's [Event])")
    p.add_argument("--per-page", type=int, choices=(2, 3, 4), default=4, help="boards to an A4 page (default 4)")
    p.add_argument("--no-analysis", action="store_true", help="leave out the double-dummy tables and par")
    p.set_defaults(func=_cmd_handrecord)
