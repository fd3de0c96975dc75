"""PBN score tables (PBN 2.1 §5.2, §5.7, §5.8) and [ScoreIMP], read into events to score."""

from __future__ import annotations

from pathlib import Path

from controller.fieldscore import Artificial, Award, Scoring, check, score_event
from controller.records import scoretable
from controller.records.scoretable import Column

TRAVELLER = '''[Event "Club"]
[Board "1"]
[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Score_NS\\5R;Score_EW\\5R;MP_NS\\2R;MP_EW\\2R"]
 1  2 "420"     -  2  2
 3  4     -  "50"  0  4
 5  6 "450"     -  4  0

[Event "Club"]
[Board "2"]
[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW;MP_NS;MP_EW"]
1 2 "110" - 2 2 3 4
"110" - 2 2 5 6 ^A60/A40 - 2.4 1.6
'''


def test_column_name_width_alignment_and_order_pbn_21_section_5_2() -> None:
    assert Column.parse("Rank\\2R") == Column("Rank", 2, "R", None)
    assert Column.parse("+Percentage_NS") == Column("Percentage_NS", None, None, "+")
    assert Column.parse("Names\\39L") == Column("Names", 39, "L", None)
    assert Column.parse("Declarer") == Column("Declarer")


def test_table_rows_are_cut_by_the_number_of_columns_not_by_lines_pbn_21_section_5_2() -> None:
    records, _, _ = scoretable.read(TRAVELLER)
    table = records[1].table("ScoreTable")
    assert table is not None
    assert table.rows == (("1", "2", "110", "-", "2", "2"), ("3", "4", "110", "-", "2", "2"),
                          ("5", "6", "^A60/A40", "-", "2.4", "1.6"))


def test_elements_that_do_not_fill_a_row_are_a_warning() -> None:
    text = '[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]\n1 2 "100" - 3 4\n'
    records, _, warnings = scoretable.read(text)
    table = records[0].table("ScoreTable")
    assert table is not None and len(table.rows) == 1
    assert warnings == ("[ScoreTable] of the record at line 1: 2 element(s) after the last full row of 4 ignored",)


def test_string_tokens_keep_their_spaces() -> None:
    text = '[Board "1"]\n[TotalScoreTable "Rank;PairId;Names"]\n1 7 "Ann Ash - Bo Birch"\n'
    records, _, _ = scoretable.read(text)
    table = records[0].table("TotalScoreTable")
    assert table is not None and table.records() == [{"Rank": "1", "PairId": "7", "Names": "Ann Ash - Bo Birch"}]


def test_artificial_score_marked_with_a_caret_pbn_21_section_5_2() -> None:
    event = scoretable.loads(TRAVELLER).events[0]
    assert event.results[-1].artificial == Artificial(Award.PLUS, Award.MINUS)
    assert event.results[-1].score is None


def test_score_of_east_west_is_north_souths_negated() -> None:
    event = scoretable.loads(TRAVELLER).events[0]
    assert [r.score for r in event.results[:3]] == [420, -50, 450]


def test_printed_matchpoints_are_kept_for_the_check_and_agree() -> None:
    event = scoretable.loads(TRAVELLER).events[0]
    assert len(event.printed) == 12
    assert check(score_event(event)).differences == ()


def test_tag_copy_hash_takes_the_previous_records_value_pbn_21() -> None:
    text = '[Event "Pairs"]\n[Board "1"]\n\n[Event "#"]\n[Board "2"]\n'
    records, _, _ = scoretable.read(text)
    assert [r.tag("Event") for r in records] == ["Pairs", "Pairs"]


def test_commentary_and_escape_lines_are_skipped() -> None:
    text = ('% a comment\n[Board "1"]\n{ a commentary\nover lines }\n'
            '[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]\n1 2 "100" -\n; a comment\n3 4 - "100"\n')
    event = scoretable.loads(text).events[0]
    assert [r.score for r in event.results] == [100, -100]


def test_ruter_meta_lines_give_the_producer_and_its_scoring() -> None:
    text = ('% <META  name=Generator                  content="Ruter i Norge">\n'
            '% <META  name=ScoringType                content="IMP;Butler-2;Mean">\n'
            '[Event "E"]\n[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW;IMP_NS;IMP_EW;ButlerDatum"]\n'
            '1 2 "100" - 0 0 100\n')
    event = scoretable.loads(text).events[0]
    assert (event.producer, event.scoring) == ("Ruter i Norge", Scoring.BUTLER)
    assert event.conventions.datum.trim == 1  # "Butler-2": the highest and the lowest dropped


def test_row_without_a_score_is_ignored_with_a_warning() -> None:
    text = '[Event "E"]\n[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]\n1 2 - -\n3 4 "10" -\n'
    results = scoretable.loads(text)
    assert len(results.events[0].results) == 1
    assert "no score for 1 v 2" in results.warnings[0]


SCOREIMP = '''[Event "Teams"]
[Board "1"]
[Vulnerable "None"]
[Contract "4S"]
[Declarer "N"]
[Result "10"]
[HomeTeam "Reds"]
[VisitTeam "Blues"]
[ScoreIMP "NS 11 EW -11"]

[Event "Teams"]
[Board "1"]
[Score "NS -170"]
[HomeTeam "Blues"]
[VisitTeam "Reds"]
[ScoreIMP "NS -11 EW 11"]
'''


def test_scoreimp_rooms_are_the_records_with_the_teams_swapped() -> None:
    event = scoretable.loads(SCOREIMP).events[0]
    assert event.scoring is Scoring.TEAMS
    (match,) = event.matches
    assert (match.home, match.away) == ("Reds", "Blues")
    (rooms,) = match.boards
    assert [r.score for r in rooms] == [420, -170]  # the first scored from its contract: 4S= by N
    assert score_event(event).matches[0].imps == (("1", 11),)  # 420 + 170 = 590
    assert check(score_event(event)).differences == ()


def test_scoreimp_room_without_its_other_room_is_not_checked_and_says_why() -> None:
    one_room = SCOREIMP.split("\n\n")[0] + "\n"
    event = scoretable.loads(one_room).events[0]
    assert event.printed == ()
    assert "the other room's record (Blues North-South) is not in the file" in event.not_checked[0]


def test_real_ruter_files_read(corpus: Path) -> None:
    fin = scoretable.load(corpus / "results" / "fin-sm2.pbn")
    (event,) = fin.events
    assert (event.producer, event.scoring, len(event.results)) == ("Ruter", Scoring.MP, 39 * 18)
    assert len(event.pairs) == 36 and fin.warnings == ()
    assert event.not_checked and "cumulative over earlier sessions" in event.not_checked[0]
    spiren = scoretable.load(corpus / "results" / "nor-spiren-2015-06-17.pbn").events[0]
    assert any(p.field == "centred_ns" for p in spiren.printed)
    butler = scoretable.load(corpus / "results" / "nor-teams-sub-butler.pbn").events[0]
    assert {r.section for r in butler.results} == {"A", "B"} and len(butler.results) == 14 * 24
    assert len(butler.pairs) == 52
