"""The replay's fast path (controller.kernel) reports every board exactly as the full table does.

The fast path replays regular boards on small ints; anything else goes to the full table.
The differential test replays the whole corpus both ways and compares the reports as parsed
JSON, board by board: a second path with a rule of its own would show here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.records import lin, pbn
from controller.records.model import BoardRecord
from controller.replay import RecordReplay, replay_records

REGULAR = """[Event "t"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]
[Declarer "N"]
[Contract "7NT"]
[Result "13"]
[Auction "N"]
7NT Pass Pass Pass
[Play "E"]
ST S6 S2 SA
*
"""


def _records(corpus: Path) -> list[tuple[str, list[BoardRecord]]]:
    files = sorted(p for p in corpus.rglob("*") if p.suffix.lower() in (".pbn", ".lin")
                   and "results" not in p.relative_to(corpus).parts[:1])
    return [(f.name, pbn.load(f) if f.suffix.lower() == ".pbn" else lin.load(f)) for f in files]


def _json(report: dict[str, Any]) -> Any:
    return json.loads(json.dumps(report))


@pytest.mark.parametrize("code", ["duplicate", "duplicate2017"])
def test_fast_path_and_full_table_report_the_whole_corpus_identically(corpus: Path, code: str) -> None:
    regular = total = 0
    for name, records in _records(corpus):
        full = _json(replay_records(records, code=code, fast=False).report)
        fast = _json(replay_records(records, code=code, fast=True).report)
        assert fast["session"] == full["session"], name
        for a, b in zip(full["boards"], fast["boards"], strict=True):
            assert b == a, a.get("source")
        replay = RecordReplay(code)
        for rec in records:
            replay.entry(rec)
        regular += replay.regular
        total += len(records)
    print(f"\n{regular} of {total} records took the fast path")
    # both paths are exercised: most boards are regular, and some are not
    assert total * 0.7 < regular < total


def test_a_regular_board_takes_the_fast_path_laws_44_and_77() -> None:
    (rec,) = pbn.loads(REGULAR)
    replay = RecordReplay()
    entry = replay.entry(rec)
    assert replay.regular == 1
    assert entry["status"] == "claimed" and entry["tricks"] == 13 and entry["score_ns"] == 1520


@pytest.mark.parametrize(("change", "why"), [
    ("7NT Pass Pass Pass\n[Play \"E\"]\nST S6 S2 SA", None),
    ("7NT Pass Pass 7NT\n[Play \"E\"]\nST S6 S2 SA", "an insufficient bid (Law 27)"),
    ("7NT X XX Pass\n[Play \"E\"]\nST S6 S2 SA", "a redouble by the doubler's side (Law 19B)"),
    ("7NT Pass Pass Pass\n[Play \"E\"]\nST S6 H2 SA", "a revoke (Law 61): South shows out of spades holding one"),
    ("7NT Pass Pass\n[Play \"E\"]\nST S6 S2 SA", "an auction that did not end (Law 17E)"),
])
def test_a_board_with_anything_irregular_goes_to_the_full_table(change: str, why: str | None) -> None:
    text = REGULAR.replace("7NT Pass Pass Pass\n[Play \"E\"]\nST S6 S2 SA", change)
    (rec,) = pbn.loads(text)
    replay = RecordReplay()
    entry = replay.entry(rec)
    assert replay.regular == (1 if why is None else 0), why
    assert entry == _json(replay_records([rec], fast=False).report)["boards"][0]


def test_a_long_replay_keeps_the_session_total_without_keeping_the_sheet() -> None:
    (rec,) = pbn.loads(REGULAR)
    replay = RecordReplay()
    for _ in range(300):
        replay.entry(rec)
    assert replay.state.sheet.entries == ()  # dropped as the boards are reported
    assert replay.session()["total_ns"] == 300 * 1520
