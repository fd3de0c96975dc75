"""USEBIO 1.2 results read into events to score: pairs travellers, teams matches, safe XML."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.errors import RecordError
from controller.fieldscore import Artificial, Award, CrossImps, Scoring, check, score_event
from controller.fieldscore.model import WBF_VP_20
from controller.records import usebio

PAIRS = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE USEBIO SYSTEM "https://www.ebu.co.uk/usebio/usebio_v1_2_ext.dtd">
<USEBIO Version="1.2">
<EVENT EVENT_TYPE="PAIRS">
  <PROGRAM_NAME>EBUScore</PROGRAM_NAME>
  <EVENT_DESCRIPTION>Tuesday Pairs</EVENT_DESCRIPTION>
  <BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>
  <PARTICIPANTS>
    <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><PLACE>2</PLACE><BOARDS_PLAYED>1</BOARDS_PLAYED>
      <PERCENTAGE>60.00</PERCENTAGE></PAIR>
    <PAIR><PAIR_NUMBER>3</PAIR_NUMBER><PLACE>1</PLACE><BOARDS_PLAYED>1</BOARDS_PLAYED></PAIR>
    <PAIR><PAIR_NUMBER>2</PAIR_NUMBER><PLACE>2=</PLACE><BOARDS_PLAYED>1</BOARDS_PLAYED></PAIR>
  </PARTICIPANTS>
  <BOARD>
    <BOARD_NUMBER>1</BOARD_NUMBER>
    <TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>
      <SCORE>A60A40</SCORE><NS_MATCH_POINTS>2.4</NS_MATCH_POINTS><EW_MATCH_POINTS>1.6</EW_MATCH_POINTS>
    </TRAVELLER_LINE>
    <TRAVELLER_LINE><NS_PAIR_NUMBER>3</NS_PAIR_NUMBER><EW_PAIR_NUMBER>4</EW_PAIR_NUMBER>
      <SCORE>420</SCORE><NS_MATCH_POINTS>3.5</NS_MATCH_POINTS><EW_MATCH_POINTS>0.5</EW_MATCH_POINTS>
    </TRAVELLER_LINE>
    <TRAVELLER_LINE><NS_PAIR_NUMBER>5</NS_PAIR_NUMBER><EW_PAIR_NUMBER>6</EW_PAIR_NUMBER>
      <SCORE>-50</SCORE><NS_MATCH_POINTS>0.5</NS_MATCH_POINTS><EW_MATCH_POINTS>3.5</EW_MATCH_POINTS>
    </TRAVELLER_LINE>
  </BOARD>
</EVENT>
</USEBIO>
"""


def test_pairs_event_travellers_participants_and_printed_values() -> None:
    (event,) = usebio.loads(PAIRS).events
    assert (event.name, event.producer, event.scoring) == ("Tuesday Pairs", "EBUScore", Scoring.MP)
    assert [r.score for r in event.results] == [None, 420, -50]
    assert event.results[0].artificial == Artificial(Award.PLUS, Award.MINUS)
    assert event.pairs == ((None, "1"), (None, "3"), (None, "2"))
    assert {p.label for p in event.printed} == {"PLACE", "BOARDS_PLAYED", "PERCENTAGE", "NS_MATCH_POINTS",
                                                 "EW_MATCH_POINTS"}


def test_pairs_event_checks_a_split_average_and_places_by_direction_in_a_mitchell() -> None:
    (event,) = usebio.loads(PAIRS).events
    report = check(score_event(event))
    # the two real scores are Neuberg-scaled from 2 results to 3 (top 4): 3.5 and 0.5
    # NS: 3 (87.5 %), 1 (60 %: A+), 5; EW: 6, 2 (40 %: A-), 4; "2=" says 2nd place is shared: it is not
    assert [str(d) for d in report.differences] == ["pair 2: PLACE printed 2=, computed 2"]
    assert report.compared == len(event.printed) == 13


def test_document_declaring_entities_is_refused() -> None:
    bomb = ('<?xml version="1.0"?><!DOCTYPE USEBIO [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
            "<USEBIO><EVENT><EVENT_DESCRIPTION>&b;</EVENT_DESCRIPTION></EVENT></USEBIO>")
    with pytest.raises(RecordError, match="declares XML entities"):
        usebio.loads(bomb)
    external = '<!DOCTYPE USEBIO [<!ENTITY x SYSTEM "file:///etc/passwd">]><USEBIO>&x;</USEBIO>'
    with pytest.raises(RecordError):
        usebio.loads(external.encode())


def test_external_dtd_is_never_fetched() -> None:
    # the DOCTYPE names a URL; the parser does not open it (this test runs offline)
    assert usebio.loads(PAIRS.encode()).events[0].name == "Tuesday Pairs"


@pytest.mark.parametrize("text", ["<USEBIO><EVENT></USEBIO>", "not xml at all", "<OTHER/>"])
def test_unreadable_document_raises_record_error(text: str) -> None:
    with pytest.raises(RecordError):
        usebio.loads(text)


def test_unreadable_score_is_a_warning() -> None:
    text = PAIRS.replace("<SCORE>420</SCORE>", "<SCORE>NP</SCORE>")
    results = usebio.loads(text)
    assert len(results.events[0].results) == 2
    assert "unreadable score 'NP'" in results.warnings[0]


def test_real_crawley_pairs_file_reads(corpus: Path) -> None:
    (event,) = usebio.load(corpus / "results" / "ebu-crawley-2025-01-06.usebio.xml").events
    assert (event.producer, event.scoring, len(event.results), len(event.pairs)) == \
        ("BBO Extractor", Scoring.MP, 18 * 8, 17)
    assert all(p.field != "place" for p in event.printed)  # BBO Extractor prints shared places without "="


def test_real_teams_file_reads_matches_and_the_pairs_cross_imps(corpus: Path) -> None:
    teams, pairs = usebio.load(corpus / "results" / "ebu-example-multiple-teams.usebio.xml").events
    assert teams.scoring is Scoring.TEAMS and pairs.scoring is Scoring.CROSS_IMP
    assert len(teams.matches) == 40 and {len(m.boards) for m in teams.matches} == {3}
    assert teams.conventions.vp is usebio.TEAMSSCORER_VP_3_BOARDS
    assert pairs.conventions.cross_imps is CrossImps.AVERAGE and pairs.conventions.board_decimals == 2
    assert len(pairs.results) == 240 and len(teams.pairs) == 10 and len(pairs.pairs) == 20


def test_other_programs_teams_use_the_wbf_continuous_scale(corpus: Path) -> None:
    data = (corpus / "results" / "ebu-example-multiple-teams.usebio.xml").read_bytes()
    teams = usebio.loads(data.replace(b"TeamsScorer", b"OtherScorer")).events[0]
    assert teams.conventions.vp is WBF_VP_20
