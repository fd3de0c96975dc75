"""Whole sessions under each code, as table logs through the replay (the scoring laws' own examples:
D 77, R 72-74, 81, App. 4)."""

from __future__ import annotations

import json

from controller.records import tablelog
from controller.replay import replay_log
from controller.seats import Seat


def log(*lines: dict[str, object]) -> str:
    return "".join(json.dumps(x) + "\n" for x in lines)


def deal_by_auction(dealer: str, calls: str, claimer: str, tricks: int) -> list[dict[str, object]]:
    """A deal played to an agreed claim: the auction, then the claim at trick one."""
    out: list[dict[str, object]] = [{"t": 0, "board": {"dealer": dealer}}]
    seat = Seat.parse(dealer)
    for call in calls.split():
        out.append({"t": 1, "seat": str(seat), "call": call})
        seat = seat.lho
    claimant = Seat.parse(claimer)
    out.append({"t": 2, "seat": claimer, "claim": tricks})
    for opp in (claimant.lho, claimant.rho):
        out.append({"t": 3, "seat": str(opp), "agree": True})
    return out


def replay(text: str) -> dict[str, object]:
    report = replay_log(tablelog.loads(text)).report
    assert "errors" not in report and "rejected" not in report, report
    return report


def test_worked_rubber_example_nets_ns_1220_law_81() -> None:
    text = log({"t": 0, "session": {"code": "rubber"}},
               *deal_by_auction("N", "2H Pass Pass Pass", "N", 9),
               *deal_by_auction("E", "1NT Pass Pass Pass", "E", 7),
               *deal_by_auction("S", "2D Pass Pass Pass", "S", 8),
               *deal_by_auction("W", "4S X Pass Pass Pass", "W", 8),
               *deal_by_auction("N", "3NT Pass Pass Pass", "N", 10))
    report = replay(text)
    boards = report["boards"]
    assert isinstance(boards, list)
    assert [b["vul"] for b in boards] == ["None", "None", "None", "NS", "NS"]
    assert [b["score_ns"] for b in boards] == [90, -40, 40, 300, 830]
    assert report["session"] == {"code": "rubber", "total_ns": 1220}


def test_unfinished_rubber_gives_300_for_the_only_game_law_80() -> None:
    text = log({"t": 0, "session": {"code": "rubber"}},
               *deal_by_auction("N", "4S Pass Pass Pass", "N", 10),
               *deal_by_auction("E", "2H Pass Pass Pass", "E", 8))
    report = replay(text)
    # 120 below for NS, 60 below for EW; Law 80: 300 to NS for the only game completed,
    # 100 to EW who alone have a partscore in the unfinished game
    assert report["session"] == {"code": "rubber", "total_ns": 120 - 60 + 300 - 100}


def test_worked_chicago_example_nets_ns_400_appendix_4() -> None:
    text = log({"t": 0, "session": {"code": "chicago"}},
               *deal_by_auction("N", "2S Pass Pass Pass", "N", 8),
               *deal_by_auction("E", "3C Pass Pass Pass", "E", 9),
               *deal_by_auction("S", "2H Pass Pass Pass", "S", 8),
               *deal_by_auction("W", "2D Pass Pass Pass", "W", 9))
    report = replay(text)
    boards = report["boards"]
    assert isinstance(boards, list)
    assert [b["vul"] for b in boards] == ["None", "EW", "NS", "Both"]
    assert report["session"] == {"code": "chicago", "total_ns": 400}


def test_chicago_passed_out_deal_is_redealt_by_the_same_dealer_and_not_counted() -> None:
    text = log({"t": 0, "session": {"code": "chicago"}},
               *deal_by_auction("N", "2S Pass Pass Pass", "N", 8),
               {"t": 0, "board": {}},
               {"t": 1, "seat": "E", "call": "Pass"}, {"t": 1, "seat": "S", "call": "Pass"},
               {"t": 1, "seat": "W", "call": "Pass"}, {"t": 1, "seat": "N", "call": "Pass"},
               {"t": 0, "board": {}})
    report = replay(text)
    boards = report["boards"]
    assert isinstance(boards, list)
    assert boards[1]["contract"] == "Pass" and boards[1]["dealer"] == "E"
    assert boards[2]["dealer"] == "E" and boards[2]["vul"] == "EW"  # still deal 2


def test_1905_hearts_doubled_once_nine_tricks_scores_48_and_game_w_4_50() -> None:
    text = log({"t": 0, "session": {"code": "bridge1905"}},
               {"t": 0, "board": {"dealer": "S"}},
               {"t": 1, "seat": "S", "declare": "H"},
               {"t": 2, "seat": "W", "double": True},
               {"t": 3, "seat": "S", "satisfied": True},
               {"t": 4, "seat": "N", "satisfied": True},
               {"t": 5, "seat": "S", "claim": 9},
               {"t": 6, "seat": "W", "agree": True}, {"t": 6, "seat": "E", "agree": True})
    report = replay(text)
    boards = report["boards"]
    assert isinstance(boards, list)
    (b,) = boards
    assert b["declarer"] == "S" and b["tricks"] == 9 and b["score_ns"] == 48
    assert {"side": "NS", "points": 48, "below": True, "label": "trick points"} in b["sheet"]


def test_1905_eldest_hand_leads_and_dealer_is_declarer_w_61() -> None:
    text = log({"t": 0, "session": {"code": "bridge1905"}},
               {"t": 0, "board": {"dealer": "N"}},
               {"t": 1, "seat": "N", "declare": "pass"},
               {"t": 1, "seat": "S", "declare": "NT"},
               {"t": 2, "seat": "E", "satisfied": True},
               {"t": 2, "seat": "W", "satisfied": True},
               {"t": 3, "seat": "E", "play": "SA"})
    result = replay_log(tablelog.loads(text))
    board = result.state.boards[-1].board
    assert board.contract is not None and board.contract.declarer is Seat.N
    assert board.play is not None and board.play.played_cards()[0].suit.name == "S"


def test_1905_trump_named_by_partner_uninvited_lets_eldest_choose_w_46() -> None:
    text = log({"t": 0, "session": {"code": "bridge1905"}},
               {"t": 0, "board": {"dealer": "N"}},
               {"t": 1, "seat": "S", "declare": "H"})
    result = replay_log(tablelog.loads(text))
    (irr,) = result.state.irregularities
    assert irr.kind == "w_trump_named_by_partner_uninvited" and irr.law == "46"
    assert irr.chooser == "E" and irr.options == ("stands", "new_deal")


def test_1905_actions_at_a_duplicate_table_are_rejected() -> None:
    text = log({"t": 0, "board": {"number": 1}}, {"t": 1, "seat": "N", "declare": "H"})
    report = replay_log(tablelog.loads(text)).report
    assert "1905" in report["rejected"][0]
