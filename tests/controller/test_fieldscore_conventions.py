"""Each scoring program's own conventions, checked on the real sessions it scored: every value the
file printed is reproduced with the convention, and a named value is not without it
(docs/field-scoring.md, "Each program's conventions")."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from controller.fieldscore import Conventions, Event, check, parse_conventions, score_event
from controller.fieldscore.conventions import conventions_text, program_conventions
from controller.fieldscore.model import Artificial, Award, Scoring
from controller.records import scoretable, usebio
from tests.conftest import require_corpus

SESSIONS = Path(__file__).resolve().parents[1] / "data" / "results"
"""Real sessions kept with the tests (their origins: its README.md)."""


def _event(corpus: Path, name: str, index: int = 0) -> Event:
    kept = SESSIONS / name
    path = kept if kept.is_file() else require_corpus(corpus / "results" / name)
    loaded = usebio.load(path) if name.endswith(".xml") else scoretable.load(path)
    return loaded.events[index]


def _differences(event: Event, conventions: Conventions | None = None) -> list[str]:
    return [str(d) for d in check(score_event(event, conventions)).differences]


def _printed(event: Event, key: tuple[str, ...], field: str) -> str:
    return next(p.text for p in event.printed if p.key == key and p.field == field)


def _computed(event: Event, key: tuple[str, ...], field: str, conventions: Conventions | None = None) -> float:
    score = score_event(event, conventions)
    section, pair = key[1], key[2]
    st = next(s for s in score.standings if (s.section or "") == section and s.pair == pair)
    if field == "percent":
        assert st.percent is not None
        return st.percent
    return {"total": st.total, "boards": float(st.boards)}[field]


# --- EBUScore and ScoreBridge: each board's matchpoints as printed, then added up ---------------


@pytest.mark.parametrize(("name", "places"), [("ebu-watford-2025-01-02.usebio.xml", 2),
                                              ("ebu-allestree-2025-01-02.usebio.xml", 2),
                                              ("ebu-beckenham-2025-01-06.usebio.xml", 1)])
def test_pair_percentage_adds_each_board_matchpoints_as_the_program_prints_them(corpus: Path, name: str,
                                                                                places: int) -> None:
    event = _event(corpus, name)
    assert event.conventions.board_decimals == places
    assert _differences(event) == []
    # the exact matchpoints added up give some percentages 0.01 off what the program printed
    assert _differences(event, replace(event.conventions, board_decimals=None))


def test_ebuscore_prints_60_01_from_the_rounded_factored_matchpoints(corpus: Path) -> None:
    # Watford, pair 10 (section A): the exact total is 60.004 % of its tops, the rounded one 60.005 %.
    event = _event(corpus, "ebu-watford-2025-01-02.usebio.xml")
    key = ("pair", "A", "10")
    assert _printed(event, key, "percent") == "60.01"
    assert round(_computed(event, key, "percent"), 3) == 60.005
    assert round(_computed(event, key, "percent", replace(event.conventions, board_decimals=None)), 3) == 60.004


def test_scorebridge_ties_two_pairs_on_one_decimal_matchpoints(corpus: Path) -> None:
    # Beckenham: pairs 9 and 10 both printed 51.29 % and "8=" (exact matchpoints split them).
    event = _event(corpus, "ebu-beckenham-2025-01-06.usebio.xml")
    assert _printed(event, ("pair", "", "9"), "place") == _printed(event, ("pair", "", "10"), "place") == "8="
    score = score_event(event)
    nine, ten = (next(s for s in score.standings if s.pair == p) for p in ("9", "10"))
    assert (nine.rank, nine.tied) == (ten.rank, ten.tied) == (8, 2)


# --- Ruter and Magic Contest: a bye scores the pair's own average ------------------------------


@pytest.mark.parametrize(("name", "key", "total", "boards"), [
    ("nor-spiren-2015-06-18.pbn", ("pair", "", "8"), "42.8", "27"),     # Ruter i Norge, centred MPs
    ("fin-h6-butler-2013-08-20.pbn", ("pair", "", "5"), "42.0", "28"),  # Magic Contest, Butler IMPs
])
def test_bye_scores_the_pair_own_average_on_the_boards_it_played(corpus: Path, name: str, key: tuple[str, ...],
                                                                 total: str, boards: str) -> None:
    event = _event(corpus, name)
    assert event.byes
    assert _differences(event) == []
    field = "centred_total" if event.scoring is Scoring.MP else "total"
    assert (_printed(event, key, field), _printed(event, key, "boards")) == (total, boards)
    # without its byes the pair has 3 (4) boards fewer and a total smaller by as many averages
    without = replace(event, byes=())
    assert _computed(without, key, "boards") == float(boards) - len([b for b in event.byes if b[1] == key[2]])
    assert len(_differences(without)) > 0


def test_bye_leaves_the_percentage_what_the_pair_earned_at_the_table(corpus: Path) -> None:
    event = _event(corpus, "nor-spiren-2015-06-18.pbn")
    key = ("pair", "", "8")
    with_byes = _computed(event, key, "percent")
    assert with_byes == pytest.approx(_computed(replace(event, byes=()), key, "percent"))
    assert f"{with_byes:.2f}" == _printed(event, key, "percent") == "69.79"


# --- Ruter: artificial scores (Law 12C2) --------------------------------------------------------


def test_split_award_written_side_by_side_gives_each_side_its_own(corpus: Path) -> None:
    # Spiren 30 Sep 2019, board 1: "A+" under Score_NS and "A-" under Score_EW (pairs 3 v 4).
    event = _event(corpus, "nor-spiren-2019-09-30.pbn")
    split = next(r for r in event.results if r.artificial is not None and r.ns == "3")
    assert split.artificial == Artificial(Award.PLUS, Award.MINUS)
    assert _differences(event) == []


@pytest.mark.parametrize(("name", "board", "pair", "percent"), [
    ("nor-spiren-2019-09-30.pbn", "1", "3", "66"),   # average plus, the pair's own 66 %
    ("nor-spiren-2017-07-10.pbn", "22", "2", "34"),   # average minus, the pair's own 34 %
])
def test_average_plus_and_minus_follow_the_pair_own_percentage_beyond_60_and_40_law_12c2(
        corpus: Path, name: str, board: str, pair: str, percent: str) -> None:
    event = _event(corpus, name)
    assert event.conventions.awards_own_percent
    side = next(r for r in event.results if r.board == board and r.artificial is not None and pair in (r.ns, r.ew))
    key = ("result", side.section or "", board, side.ns, side.ew)
    field = "percent_ns" if side.ns == pair else "percent_ew"
    assert _printed(event, key, field) == percent
    assert _differences(event) == []
    assert _differences(event, replace(event.conventions, awards_own_percent=False))


# --- Ruter: cross-IMPs --------------------------------------------------------------------------


def test_ruter_cross_imps_award_half_the_imps_per_comparison(corpus: Path) -> None:
    # Silver 1 (Finland), board 15 section O: A+ for both pairs against 39 other results:
    # Ruter prints 58.5 = 1.5 x 39, half of 3 IMPs against each (ACBLscore: 3 x 39 = 117).
    event = _event(corpus, "fin-silver-cross-imps.pbn")
    assert event.conventions.cross_award_share == 0.5
    assert _printed(event, ("result", "O", "15", "635", "658"), "points_ns") == "58.5"
    assert _differences(event) == []
    whole = _differences(event, replace(event.conventions, cross_award_share=1.0))
    assert "board 15 (section O), 635 v 658: IMP_NS printed 58.5, computed 117.0" in whole


def test_ruter_cross2_total_is_the_score_per_comparison(corpus: Path) -> None:
    # Lounaisliiga (IMP;Cross2), pair 305 (section B): 729 cross-IMPs over 16 boards x 11 comparisons.
    event = _event(corpus, "fin-lounaisliiga-cross2.pbn")
    assert next(p for p in event.printed if p.key == ("pair", "B", "305") and p.label == "TotalScoreIMP").field == \
        "per_comparison"
    assert _printed(event, ("pair", "B", "305"), "per_comparison") == "4.14"
    assert _differences(event) == []


# --- the conventions line of the files written here ---------------------------------------------


def test_new_conventions_travel_in_the_conventions_line() -> None:
    conv = Conventions(awards_own_percent=True, cross_award_share=0.5, board_decimals=2)
    assert parse_conventions(conventions_text(conv)) == conv
    assert parse_conventions("cross_award_share=1") == Conventions()


def test_program_conventions_leave_an_unknown_program_alone() -> None:
    conv = Conventions()
    assert program_conventions("SomeScorer 1.0", Scoring.MP, conv) == (conv, ())
    assert program_conventions(None, Scoring.CROSS_IMP, conv) == (conv, ())
    ruter, notes = program_conventions("Ruter", Scoring.MP, conv)
    assert ruter.awards_own_percent and notes


def test_bye_reads_back_from_the_pbn_written_here(corpus: Path) -> None:
    before = score_event(_event(corpus, "nor-spiren-2015-06-18.pbn"))
    back = scoretable.loads(scoretable.dumps([before]))
    assert back.warnings == ()
    (event,) = back.events
    assert sorted(event.byes) == sorted(before.event.byes)
    after = score_event(event)
    assert [(s.pair, s.boards, round(s.total, 6)) for s in after.standings] == \
        [(s.pair, s.boards, round(s.total, 6)) for s in before.standings]


def test_award_under_one_side_and_a_score_under_the_other_counts_for_the_field(corpus: Path) -> None:
    # Spiren 18 Nov 2019, board 1, pairs 3 v 4: "A=" under North-South, "+0" under East-West:
    # North-South score average, East-West's 0 is compared with the field (100 %), and the six
    # 450s beat it (69 %: 11 of 16, not 64 % with the row taken as an average for both).
    event = _event(corpus, "nor-spiren-2019-11-18.pbn")
    row = next(r for r in event.results if r.board == "1" and r.ns == "3")
    assert (row.score, row.award_ns, row.award_ew) == (0, Award.AVERAGE, None)
    assert _printed(event, ("result", "", "1", "1", "2"), "percent_ns") == "69"
    assert _printed(event, ("result", "", "1", "3", "4"), "percent_ew") == "100"
    assert _differences(event) == []


def test_award_beside_a_score_follows_the_pair_own_percentage_law_12c2(corpus: Path) -> None:
    # Spiren 18 May 2016, board 16: North-South "+0" (a score), East-West "A+" printed 65 %,
    # the pair's own percentage on its other boards.
    event = _event(corpus, "nor-spiren-2016-05-18.pbn")
    row = next(r for r in event.results if r.board == "16" and r.award_ew is not None)
    assert row.award_ew is Award.PLUS
    assert _printed(event, ("result", "", "16", row.ns, row.ew), "percent_ew") == "65"
    assert _differences(event) == []


def test_side_without_a_pair_number_counts_for_the_field_unranked(corpus: Path) -> None:
    # Spiren 14 Oct 2019, board 1: table 11 has no North-South pair number but a score (90):
    # the board has 11 results (top 20), and only pair 22 of that table is ranked.
    event = _event(corpus, "nor-spiren-2019-10-14.pbn")
    assert len([r for r in event.results if r.board == "1"]) == 11
    score = score_event(event)
    assert next(b for b in score.boards if b.board == "1").top == 20.0
    assert all(s.pair for s in score.standings)
    assert _differences(event) == []
