"""Results written as PBN score tables and as USEBIO 1.2 read back the same: the same travellers,
the same ranking, every printed value what the scores give (``check``), the same conventions."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from controller.deal import Deal
from controller.fieldscore import (
    Artificial,
    Award,
    Conventions,
    CrossImps,
    Datum,
    Event,
    EventScore,
    Match,
    MatchpointScale,
    Result,
    Scoring,
    VpScale,
    check,
    score_event,
)
from controller.fieldscore.conventions import conventions_text, parse_conventions
from controller.records import pbn, scoretable, usebio
from tablectl.score import load_results

FORMATS = [scoretable, usebio]


def standings(score: EventScore) -> list[tuple[Any, ...]]:
    return [(st.section, st.pair, st.direction, st.rank, st.tied, st.boards, round(st.total, 6),
             None if st.percent is None else round(st.percent, 6), st.wins) for st in score.standings]


def travellers(score: EventScore) -> list[tuple[Any, ...]]:
    return sorted((s.result.board, s.result.section or "", s.result.ns, s.result.ew, s.result.score,
                   str(s.result.artificial), round(s.points_ns, 6), round(s.points_ew, 6))
                  for b in score.boards for s in b.results)


def matches(score: EventScore) -> list[tuple[Any, ...]]:
    return [(ms.match.home, ms.match.away, ms.match.round, ms.imps, ms.home_imps, ms.away_imps, ms.home_vps,
             ms.away_vps) for ms in score.matches]


def reread(module: ModuleType, scores: list[EventScore]) -> list[EventScore]:
    text = module.dumps(scores)
    back = module.loads(text)
    assert back.warnings == ()
    return [score_event(e) for e in back.events]


def assert_same(before: EventScore, after: EventScore, *, same_lines: bool = True) -> None:
    assert after.event.scoring is before.event.scoring
    assert after.event.conventions == before.event.conventions
    assert standings(after) == standings(before)
    assert matches(after) == matches(before)
    if same_lines:
        assert travellers(after) == travellers(before)
    report = check(after)
    assert report.compared > 0 and report.differences == ()


def r(board: str, ns: str, ew: str, score: int | str, section: str | None = None) -> Result:
    if isinstance(score, str):
        return Result(board, ns, ew, artificial=Artificial.parse(score), section=section)
    return Result(board, ns, ew, score=score, section=section)


# A two-section Mitchell: A and B compared across the field, a split artificial score, a board
# played at fewer tables (Neuberg), ACBL matchpoints, a pair that played nothing.
MITCHELL = Event("Tuesday \"Club\" Pairs", Scoring.MP, (
    r("1", "1", "4", 420, "A"), r("1", "2", "5", 450, "A"), r("1", "3", "6", -50, "A"),
    r("1", "1", "4", 420, "B"), r("1", "2", "5", "A+/A-", "B"),
    r("2", "1", "5", 110, "A"), r("2", "2", "6", 140, "A"), r("2", "3", "4", 110, "A"),
    r("2", "1", "5", -100, "B"), r("2", "2", "4", 0, "B"),
), Conventions(matchpoints=MatchpointScale.ACBL), pairs=(("B", "7"),))

BUTLER = Event("Butler", Scoring.BUTLER, (
    r("1", "1", "2", 620), r("1", "3", "4", 650), r("1", "5", "6", 170), r("1", "7", "8", -100),
    r("2", "1", "4", -200), r("2", "3", "6", 90), r("2", "5", "8", "A"), r("2", "7", "2", 110),
), Conventions(datum=Datum(trim=1, rounding=10)))

CROSS = Event("Cross", Scoring.CROSS_IMP, BUTLER.results, Conventions(cross_imps=CrossImps.AVERAGE, board_decimals=2))

TEAMS = Event("Teams", Scoring.TEAMS, (), Conventions(vp=VpScale("short", (1, 3, 5, 7, 10, 13, 16, 19, 22, 25))),
              matches=(
                  Match("Reds", "Blues", ((r("1", "Reds", "Blues", 420), r("1", "Blues", "Reds", -170)),
                                          (r("2", "Reds", "Blues", -50), r("2", "Blues", "Reds", "A+")),
                                          (r("3", "Reds", "Blues", 100), r("3", "Blues", "Reds", 100))), "1"),
                  Match("Greens", "Whites", ((r("1", "Greens", "Whites", 400), r("1", "Whites", "Greens", -420)),
                                             (r("2", "Greens", "Whites", 0), r("2", "Whites", "Greens", 600)),
                                             (r("3", "Greens", "Whites", -800), r("3", "Whites", "Greens", 0))),
                        "1")))


@pytest.mark.parametrize("module", FORMATS, ids=["pbn", "usebio"])
@pytest.mark.parametrize("event", [MITCHELL, BUTLER, CROSS, TEAMS], ids=["mitchell", "butler", "cross", "teams"])
def test_export_reads_back_the_same_travellers_ranking_and_conventions(module: ModuleType, event: Event) -> None:
    before = score_event(event)
    (after,) = reread(module, [before])
    assert after.event.name == event.name
    assert_same(before, after)


def test_mitchell_ranks_each_direction_apart_after_the_round_trip() -> None:
    before = score_event(MITCHELL)
    assert before.by_direction
    for module in FORMATS:
        (after,) = reread(module, [before])
        assert after.by_direction


def test_pbn_export_is_pbn_21_score_tables() -> None:
    text = scoretable.dumps([score_event(MITCHELL)], deals={"1": Deal.parse(DEAL)})
    records, meta, warnings = scoretable.read(text)
    assert warnings == () and meta == {"Generator": "tablectl"}
    first = records[0]
    assert first.tag("Event") == 'Tuesday "Club" Pairs' and first.tag("Dealer") == "N"
    assert first.tag("Vulnerable") == "None" and first.tag("Scoring") == "MP"
    assert first.tag("Deal") == DEAL
    traveller = first.table("ScoreTable")
    assert traveller is not None
    assert [c.name for c in traveller.columns] == ["Section", "PairId_NS", "PairId_EW", "Score_NS", "Score_EW",
                                                   "MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW"]
    assert all(c.width and c.align in ("L", "R") for c in traveller.columns)
    assert ("B", "2", "5", "^A+/A-", "-", "2.4", "1.6", "60", "40") in traveller.rows
    assert ("A", "3", "6", "-", "50", "0.13", "3.88", "3.13", "96.88") in traveller.rows  # Neuberg: 4 results of 5
    ranking = first.table("TotalScoreTable")
    assert ranking is not None and ranking.records()[-1]["PairId"] == "7"  # played nothing: last
    # the board records are ordinary PBN records with their deal (a hand record can be made of them)
    boards = pbn.loads(text)
    assert [b.number for b in boards] == [1, 2] and boards[0].deal == Deal.parse(DEAL)


DEAL = "N:974.AJ3.63.AK963 K83.K9752.7.8752 AQJ5.T864.KJ94.4 T62.Q.AQT852.QJT"


def test_usebio_export_is_the_structure_the_reader_reads() -> None:
    text = usebio.dumps([score_event(MITCHELL)])
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE USEBIO SYSTEM')
    assert '<SECTION SECTION_ID="A">' in text and "<SCORE>A60A40</SCORE>" in text
    assert "<?bridge-conventions MP: matchpoints=acbl;" in text


def test_team_export_puts_a_teams_pairs_cross_imps_in_the_same_usebio_event(corpus: Path) -> None:
    results = load_results(corpus / "results" / "ebu-example-multiple-teams.usebio.xml")
    scores = [score_event(e) for e in results.events]
    text = usebio.dumps(scores)
    assert text.count("<EVENT ") == 1 and text.count("<PAIR_IMPS>") == 20
    assert text.count("<NS_CROSS_IMP_POINTS>") == 240


def test_names_with_quotes_and_backslashes_survive_pbn_tags() -> None:
    event = Event('A "B" \\ C\\', Scoring.MP, (r("1", "1", "2", 100), r("1", "3", "4", 200)))
    (after,) = reread(scoretable, [score_event(event)])
    assert after.event.name == 'A "B" \\ C\\'


def test_conventions_line_reads_back_every_choice() -> None:
    conv = Conventions(matchpoints=MatchpointScale.ACBL, neuberg=False, award_percent=(65.0, 50.0, 35.0),
                       datum=Datum(2, 0), cross_imps=CrossImps.AVERAGE, vp=None, board_decimals=1,
                       across_sections=False, rank_by_direction=True)
    assert parse_conventions(conventions_text(conv)) == conv
    assert parse_conventions(conventions_text(Conventions())) == Conventions()


# --- the real files: read, write, read --------------------------------------------------

REAL = ["results/fin-sm2.pbn", "results/nor-spiren-2015-06-17.pbn", "results/nor-teams-sub-butler.pbn",
        "results/ebu-crawley-2025-01-06.usebio.xml", "results/ebu-example-multiple-teams.usebio.xml",
        "endplay_tests/example2.pbn"]


@pytest.mark.parametrize("module", FORMATS, ids=["pbn", "usebio"])
@pytest.mark.parametrize("name", REAL)
def test_real_file_read_written_and_read_again_scores_the_same(corpus: Path, module: ModuleType, name: str) -> None:
    results = load_results(corpus / name)
    before = [score_event(e) for e in results.events]
    after = reread(module, before)
    assert len(after) == len(before)
    for b, a in zip(before, after, strict=True):
        # a team event from USEBIO names its pairs on the lines; PBN's [ScoreIMP] names the teams
        renamed = b.event.scoring is Scoring.TEAMS and module is scoretable and name.endswith(".xml")
        assert_same(b, a, same_lines=not renamed)


def test_artificial_award_of_a_team_room_reads_back_from_pbn() -> None:
    (after,) = reread(scoretable, [score_event(TEAMS)])
    rooms = after.event.matches[0].boards[1]
    assert rooms[1].artificial == Artificial(Award.PLUS, Award.PLUS)
