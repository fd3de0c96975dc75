"""The text report of ``tablectl replay`` reads for a club's scorer: one header line per board in
words, irregularities at the table as sentences with their law, a record's own faults apart
from them, notes and differences indented, a closing summary; never a raw ``None`` or ``?``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.records import tablelog
from controller.replay import replay_log
from tablectl.replaycmd import replay_file
from tablectl.replaytext import contract_words, irregularity_sentence, summary

SCENARIOS = Path(__file__).parent.parent / "scenarios"


def _no_raw_values(text: str) -> None:
    assert "None" not in text and "?" not in text and "null" not in text
    assert "deck_problem" not in text and "awaiting_ruling" not in text


@pytest.fixture(scope="module")
def example3(corpus: Path) -> dict[str, Any]:
    """The endplay example whose records contradict their own deals (the corpus's defects)."""
    report: dict[str, Any] = replay_file(corpus / "endplay_tests" / "example3.pbn").report
    return report


def _entries(report: dict[str, Any], *numbers: int) -> dict[str, Any]:
    return {"session": report["session"], "boards": [report["boards"][n - 1] for n in numbers]}


def test_a_faulty_record_says_so_on_its_own_line_apart_from_irregularities(example3: dict[str, Any]) -> None:
    text = summary(_entries(example3, 1))
    assert text.splitlines() == [
        "example3.pbn:",
        "Board 1 (record 1, line 2): 5♣ by East, made +1 (12 tricks), NS -420, result assigned",
        "    record faults: the record's play contradicts its deal: at trick 3 East plays CQ, but the deal "
        "gives it to North; the play is not replayed further",
        "    notes:",
        "      - 1 leading pass(es) missing from the auction put back (the declarer then agrees with the record)",
        "      - the record's result (12 tricks) is taken as the arbiter's assigned result: the play could "
        "not be replayed",
        "1 board: 1 scored; 0 irregularities; 1 record faulty in itself",
        f"North-South total: {example3['session']['total_ns']:+d} (duplicate scoring)",  # the file's
    ]
    assert "irregularit" not in text.splitlines()[2]


def test_a_record_whose_play_stops_has_no_result_and_prints_no_none(example3: dict[str, Any]) -> None:
    (entry,) = _entries(example3, 48)["boards"]
    assert entry["result"] is None and entry["tricks"] is None and entry["score_ns"] is None
    text = summary(_entries(example3, 48))
    assert "Board 24 (record 48, line 872): 2♥ by East, play stopped at trick 5, no score" in text
    assert "    record faults: the record's play contradicts its deal: at trick 5" in text
    _no_raw_values(text)


def test_a_record_that_cannot_be_replayed_says_why(example3: dict[str, Any]) -> None:
    text = summary(_entries(example3, 73))
    assert "Board 37 (record 73, line 1368): not replayed: the record has no auction" in text
    assert "1 board: 0 scored, 1 not replayed" in text


def test_the_differences_with_the_records_tags_are_indented_under_the_board(example3: dict[str, Any]) -> None:
    lines = summary(_entries(example3, 11)).splitlines()
    assert lines[1].startswith("Board 6 (record 11, line 194): 1NT doubled by North, down 1 (6 tricks), NS -100")
    assert "    the record's own tags differ (its auction and play decide): contract: record 1N, auction 1NTX" in lines


def test_the_whole_of_example3_reads_without_raw_values(example3: dict[str, Any]) -> None:
    text = summary(example3)
    _no_raw_values(text)
    faulty = sum(1 for b in example3["boards"] if b.get("record_faults"))
    assert faulty and text.count("    record faults: ") == faulty
    assert text.splitlines()[-2].startswith(f"{len(example3['boards'])} boards: ")
    assert f"{faulty} records faulty in themselves" in text


def test_a_revoke_in_a_record_is_an_irregularity_with_its_law_64(corpus: Path) -> None:
    """Law 64: the revoke the EBL record marks is found by the replay and told in words."""
    report = replay_file(corpus / "cs221_ebl_pbn" / "etc99pbn" / "A1A10505.PBN").report
    text = summary(_entries(report, 10))
    lines = text.splitlines()
    assert lines[:2] == ["A1A10505.PBN:",
                         "Board 5 (record 10, line 336): 2♠ by West, made (8 tricks), NS -110, claimed"]
    assert ("    irregularity 1: Revoke by North at trick 11 (Law 64A2): North played ♣K on a spades lead holding "
            "spades; waiting for a ruling") in lines
    assert "    rulings: revoke transfer: NS give up 1, EW give up 0 (Law 64)" in lines
    assert "      - score: record NS 50, replay NS -110" in lines
    assert "1 board: 1 scored; 1 irregularity on 1 board" in text
    _no_raw_values(text)


def _scenario(name: str) -> dict[str, Any]:
    spec = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))
    log = "\n".join(json.dumps(line) for line in spec["log"])
    report: dict[str, Any] = replay_log(tablelog.loads(log)).report
    return report


def test_a_ruling_is_told_in_the_catalogues_words_with_the_seats_named() -> None:
    """Law 27A: the offender's left-hand opponent accepts the insufficient bid; the ruling names him."""
    report = _scenario("27a_insufficient_bid_accepted_by_ruling.json")
    (board,) = report["boards"]
    (irr,) = board["irregularities"]
    assert irregularity_sentence(irr, board, "duplicate") == (
        "Insufficient bid by East during the auction (Law 27): East 1♠; ruled: South accepts the insufficient "
        "bid (the call): it stands and South calls next")
    _no_raw_values(summary(report))


def test_an_adjusted_score_after_a_card_from_another_hand_says_result_assigned() -> None:
    """Laws 13, 14: the arbiter assigns declarer's tricks; the header says the result was assigned."""
    text = summary(_scenario("13_card_not_in_hand_adjust.json"))
    assert text.splitlines()[0] == "Board 1: 3NT by North, made (9 tricks), NS +400, result assigned"
    assert ("    irregularity 1: A card from another hand by East at trick 1 (Laws 13, 14): East ♠2; ruled: the "
            "arbiter assigns declarer 9 tricks in all and the board ends") in text


def test_a_redealt_board_says_redealt_and_no_score() -> None:
    """Laws 13, 14: a redeal cancels the board's result."""
    text = summary(_scenario("13_card_not_in_hand_redeal.json"))
    assert text.splitlines()[0] == "Board 1: 3NT by North, redealt, no score"
    assert text.endswith("North-South total: 0 (duplicate scoring)")


@pytest.mark.parametrize(("contract", "declarer", "symbols", "words"), [
    ("4HX", "S", True, "4♥ doubled by South"),
    ("4HX", "S", False, "4H doubled by South"),
    ("3NT", "W", True, "3NT by West"),
    ("7CXX", "E", True, "7♣ redoubled by East"),
    ("Pass", None, True, "passed out"),
    (None, None, True, "auction not finished"),
])
def test_the_contract_reads_in_words(contract: str | None, declarer: str | None, symbols: bool, words: str) -> None:
    assert contract_words(contract, declarer, symbols) == words


def test_suits_as_letters_when_asked(example3: dict[str, Any]) -> None:
    text = summary(_entries(example3, 1), symbols=False)
    assert "Board 1 (record 1, line 2): 5C by East, made +1" in text and "♣" not in text


def test_a_table_logs_unreadable_lines_and_refusals_are_listed_after_the_boards() -> None:
    report = _scenario("13_card_not_in_hand_redeal.json")
    report["errors"] = [f"line {n}: not JSON (Expecting value)" for n in range(1, 26)]
    lines = summary(report).splitlines()
    assert "Unreadable lines skipped (25):" in lines and "    line 1: not JSON (Expecting value)" in lines
    assert "    ... and 5 more (--json lists them all)" in lines
    assert "Actions the table refused (1):" in lines


def test_a_1905_irregularity_reads_in_words_with_its_whist_law() -> None:
    """W 47 (bridge1905): the declaration passed back to the dealer; no code word left in the text."""
    path = SCENARIOS / "47_1905_declaration_passed_back_offender_must_name_trump.json"
    spec = json.loads(path.read_text(encoding="utf-8"))
    log = "\n".join(json.dumps(line) for line in [{"t": 0, "session": {"code": "bridge1905"}}, *spec["log"]])
    text = summary(replay_log(tablelog.loads(log)).report)
    assert ("    irregularity 1: Declaration passed back to the dealer by South during the auction (Law 47): "
            "South pass to partner; ruled: East compels South to name the trump") in text
    _no_raw_values(text)
