"""PBN and LIN export of a table's boards carry the irregularities and rulings (PBN 2.1 §3.9, §5)."""

from __future__ import annotations

import json
from pathlib import Path

from controller.records import lin, pbn, tablelog
from controller.records.export import records_of
from controller.replay import replay_log
from tablectl.cli import main

DEAL = "N:AKQJ.AKQ.AKQ.432 T98.JT9.JT9.AKQJ 765.876.8765.T98 432.5432.432.765"


def _state(lines: list[dict[str, object]]):  # type: ignore[no-untyped-def]
    text = "".join(json.dumps(x) + "\n" for x in lines)
    return replay_log(tablelog.loads(text)).state


def _board(*calls: tuple[str, str]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = [{"t": 0, "board": {"number": 1, "dealer": "N", "vul": "None", "deal": DEAL}}]
    out += [{"t": 2 + i, "seat": s, "call": c} for i, (s, c) in enumerate(calls)]
    return out


def test_an_accepted_insufficient_bid_is_marked_caret_i_pbn_3_9_law_27() -> None:
    state = _state(_board(("N", "1NT"), ("E", "1S"), ("S", "Pass"), ("W", "Pass"), ("N", "Pass")))
    text = pbn.dumps(records_of(state))
    assert "1NT ^I 1S Pass Pass" in text
    assert "Irregularity 1: insufficient_bid" in text and "Law 27" in text
    assert "[AuctionTimeTable \"Time\"]" in text


def test_an_accepted_call_out_of_rotation_leaves_caret_s_for_the_skipped_seat_law_29() -> None:
    # S bids while E is to call; W (S's LHO) calls over it: accepted, E loses his turn
    state = _state(_board(("N", "1C"), ("S", "1H"), ("W", "Pass"), ("N", "Pass"), ("E", "Pass"), ("S", "Pass")))
    text = pbn.dumps(records_of(state))
    assert "1C ^S 1H Pass" in text


def test_a_revoke_and_its_transfer_are_in_the_pbn_and_lin_commentary_law_64(tmp_path: Path) -> None:
    lines = _board(("N", "1NT"), ("E", "Pass"), ("S", "Pass"), ("W", "Pass"))
    # E leads a club; S (dummy) follows; W discards a heart holding clubs: a revoke
    plays = [("E", "CA"), ("S", "CT"), ("W", "H2"), ("N", "C2")]
    lines += [{"t": 10 + i, "seat": s, "play": c} for i, (s, c) in enumerate(plays)]
    log = tmp_path / "revoke.jsonl"
    log.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    assert main(["replay", str(log), "--pbn", str(tmp_path / "out.pbn"), "--lin", str(tmp_path / "out.lin")]) == 0
    text = (tmp_path / "out.pbn").read_text(encoding="utf-8")
    assert "^R H2" in text
    assert "revoke" in (tmp_path / "out.lin").read_text(encoding="utf-8")
    back = pbn.loads(text)
    assert back[0].calls is not None and [str(c) for c in back[0].calls] == ["1NT", "Pass", "Pass", "Pass"]
    assert lin.loads((tmp_path / "out.lin").read_text(encoding="utf-8"))[0].commentary


def test_both_duplicate_codes_export_matchpoint_scoring() -> None:
    """A board of the 2017 code is a duplicate board as under the 2008 code (Law 78 unchanged):
    its PBN ``Scoring`` says MP."""
    for code in ("duplicate", "duplicate2017"):
        lines = [{"t": 0, "session": {"code": code}}, *_board(("N", "1NT"), ("E", "Pass"), ("S", "Pass"),
                                                             ("W", "Pass"))]
        state = _state(lines)
        assert state.code.name == code
        assert '[Scoring "MP"]' in pbn.dumps(records_of(state))


def test_a_result_the_director_corrected_is_exported_as_it_stands_with_the_play_as_it_was_law_79c() -> None:
    """PBN's Contract, Result and Score are the corrected ones; the auction stays as the table saw it, and the
    commentary says who corrected what, why, and what was played. Taken back, the result as played returns."""
    from tests.controller.test_result_corrections import CORRECTION, PLAYED, UNDO

    state = replay_log(tablelog.loads(PLAYED + CORRECTION)).state
    text = pbn.dumps(records_of(state))
    assert '[Contract "6NT"]' in text and '[Result "12"]' in text and '[Score "NS 990"]' in text
    assert "7NT Pass Pass Pass" in text                                     # the auction as it was
    assert "Law 79C: board 1 corrected to 6NT= by N by Ann: 6NT was bid" in text
    assert "as played: 7NT by N, 13 tricks, NS 1520" in text
    back = pbn.loads(text)[0]
    assert back.tag("Contract") == "6NT" and back.claim == 12
    assert "Law 79C" in lin.dumps(records_of(state))

    undone = pbn.dumps(records_of(replay_log(tablelog.loads(PLAYED + CORRECTION + UNDO)).state))
    assert '[Contract "7NT"]' in undone and '[Result "13"]' in undone and '[Score "NS 1520"]' in undone
    assert "correction 1 of board 1 taken back by Ann" in undone and "as played" not in undone
