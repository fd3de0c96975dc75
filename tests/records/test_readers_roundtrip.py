"""A table's PBN and LIN exports read back by two programs of other authors, endplay and bridgebots:
every deal, auction, play, contract and result as the table recorded it.

The boards are the scenarios of real rulings (tests/scenarios) replayed: revokes corrected
(Law 62) and established (Laws 63, 64), a claim (Law 68), a plain board. endplay's LIN reader
counts the tricks of a complete play from North whoever led (its ``total_tricks``), so the
LIN result is checked with bridgebots and with the two PBN readings, not with endplay's count;
and endplay's PBN reader refuses the irregularity marks of PBN 2.1 §3.9 (``^R`` before the card
of an established revoke) and bridgebots drops such a play: a record that has one is read whole
in its LIN form by both, and its PBN form without the play by bridgebots.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import bridgebots
import pytest
from endplay.config import suppress_unicode
from endplay.parsers import lin as endplay_lin
from endplay.parsers import pbn as endplay_pbn
from endplay.types import ContractBid, PenaltyBid

from controller.records import lin, pbn, tablelog
from controller.records.export import records_of
from controller.replay import replay_log
from controller.seats import Seat

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
BOARDS = [
    "62_revoke_by_defender_corrected_before_establishment.json",
    "62_revoke_by_declarer_corrected_no_penalty_card.json",
    "62D_twelfth_trick_revoke_corrected_after_the_last_trick.json",
    "63_claim_establishes_revoke.json",
    "68_claim_by_declarer_agreed_by_both_defenders.json",
]
_PENALTY = {"": "Pass", "x": "X", "xx": "XX"}


@dataclass(frozen=True)
class Read:
    """What a reader gives back of one board, in the table's own words."""

    hands: dict[str, frozenset[str]]
    calls: list[str]
    play: list[str]
    contract: str
    declarer: str
    tricks: int | None


def _table_boards(name: str) -> list[Read]:
    log = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))["log"]
    state = replay_log(tablelog.loads("".join(json.dumps(x) + "\n" for x in log))).state
    out = []
    for outcome in state.boards:
        b = outcome.board
        assert b.contract is not None and b.deal is not None
        play = () if b.play is None else (*b.play.tricks, b.play.current)
        out.append(Read(hands={str(s): frozenset(str(c) for c in b.deal.hands[s]) for s in Seat},
                        calls=[str(c) for c in b.auction.calls],
                        play=[str(c) for t in play for c in t.cards],
                        contract=b.contract.text.rstrip("X"), declarer=str(b.contract.declarer),
                        tricks=outcome.tricks))
    return out


def _endplay(board: object, *, with_result: bool = True) -> Read:
    with suppress_unicode():
        deal = board.deal  # type: ignore[attr-defined]
        hands = {}
        for seat, text in zip("NESW", deal.to_pbn()[2:].split(), strict=True):
            hands[seat] = frozenset(f"{suit}{rank}" for suit, holding in zip("SHDC", text.split("."), strict=True)
                                    for rank in holding)
        calls = []
        for bid in board.auction:  # type: ignore[attr-defined]
            if isinstance(bid, ContractBid):
                calls.append(f"{bid.level}{bid.denom.abbr.replace('N', 'NT')}")
            else:
                assert isinstance(bid, PenaltyBid)
                calls.append(_PENALTY[bid.penalty.abbr])
        play = [f"{c.suit.abbr}{c.rank.abbr}" for c in board.play]  # type: ignore[attr-defined]
        c = board.contract  # type: ignore[attr-defined]
        return Read(hands=hands, calls=calls, play=play, contract=f"{c.level}{c.denom.abbr.replace('N', 'NT')}",
                    declarer=c.declarer.abbr, tricks=c.level + 6 + c.result if with_result else None)


def _bridgebots(deal: bridgebots.DealRecord) -> Read:
    record = deal.board_records[0]
    hands = {d.name[0]: frozenset(str(c) for c in deal.deal.hands[d].cards) for d in deal.deal.hands}
    calls = [{"PASS": "Pass"}.get(c, c.replace("N", "NT") if c[-1:] == "N" else c) for c in record.bidding_record]
    return Read(hands=hands, calls=calls, play=[str(c) for c in record.play_record],
                contract=str(record.contract).rstrip("X").replace("N", "NT") if str(record.contract)[1:2] == "N"
                else str(record.contract).rstrip("X"),
                declarer=record.declarer.name[0], tricks=record.tricks)


@pytest.mark.parametrize("name", BOARDS)
def test_the_table_export_reads_back_the_same_with_endplay_and_bridgebots(name: str, tmp_path: Path) -> None:
    log = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))["log"]
    state = replay_log(tablelog.loads("".join(json.dumps(x) + "\n" for x in log))).state
    expected = _table_boards(name)
    pbn.dump(records_of(state), tmp_path / "t.pbn")
    lin.dump(records_of(state), tmp_path / "t.lin")

    marked = "^" in (tmp_path / "t.pbn").read_text(encoding="utf-8")
    if not marked:
        with open(tmp_path / "t.pbn", encoding="utf-8") as f:
            assert [_endplay(b) for b in endplay_pbn.load(f)] == expected
    with open(tmp_path / "t.lin", encoding="utf-8") as f:
        read = [_endplay(b, with_result=False) for b in endplay_lin.load(f)]
    assert read == [Read(**{**e.__dict__, "tricks": None}) for e in expected]
    by_bridgebots = [_bridgebots(d) for d in bridgebots.parse_pbn(tmp_path / "t.pbn")]
    assert by_bridgebots == [Read(**{**e.__dict__, "play": []}) for e in expected] if marked else expected
    assert [_bridgebots(d) for d in bridgebots.parse_single_lin(tmp_path / "t.lin")] == expected


def test_a_corrected_revoke_leaves_no_revoke_mark_and_names_the_card_taken_back_law_62(tmp_path: Path) -> None:
    """E revoked with S3 on trick 3 and corrected it with H3 (Law 62): H3 stands unmarked in the
    trick, S3 is named in the commentary as the card taken back (then played as a penalty card)."""
    log = json.loads((SCENARIOS / BOARDS[0]).read_text(encoding="utf-8"))["log"]
    state = replay_log(tablelog.loads("".join(json.dumps(x) + "\n" for x in log))).state
    record = records_of(state)[0]
    assert all(mark != "R" for _, mark in record.marks)
    text = pbn.dumps([record])
    assert "^R" not in text
    assert "Revoke corrected (Law 62): E took back S3 at trick 3 and played H3 in its place" in text
    back = pbn.loads(text)[0]
    assert back.marks == () and [str(c) for c in back.play[8:12]] == ["H2", "H3", "H5", "H9"]
    assert any("took back S3" in c for c in lin.loads(lin.dumps([record]))[0].commentary)


def test_an_established_revoke_keeps_its_caret_r_mark_law_63() -> None:
    log = json.loads((SCENARIOS / BOARDS[3]).read_text(encoding="utf-8"))["log"]
    state = replay_log(tablelog.loads("".join(json.dumps(x) + "\n" for x in log))).state
    assert any(mark == "R" for _, mark in records_of(state)[0].marks)


def test_an_unnamed_table_lin_starts_each_board_with_pn_and_endplay_reads_every_board(tmp_path: Path) -> None:
    records = []
    for name in BOARDS[:2]:
        log = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))["log"]
        records += records_of(replay_log(tablelog.loads("".join(json.dumps(x) + "\n" for x in log))).state)
    text = lin.dumps(records)
    assert all(line.startswith("pn|,,,|") for line in text.splitlines())
    assert len(endplay_lin.loads(text)) == 2
    assert [r.players for r in lin.loads(text)] == [(), ()]
