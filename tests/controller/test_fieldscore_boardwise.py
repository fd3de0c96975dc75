"""Scoring board by board: one board's new results re-score that board, and give what the whole
event scored at once gives (``score_event``)."""

from __future__ import annotations

import random

import pytest

from controller.fieldscore import (
    Artificial,
    Conventions,
    CrossImps,
    Datum,
    Event,
    FieldScoreError,
    Result,
    Scoring,
    score_event,
)
from controller.fieldscore.boardwise import BoardwiseScore
from controller.fieldscore.field import in_each_section, score_sections
from controller.fieldscore.model import EventScore

SPREAD = (420, 450, 400, -50, 170, 620, 450, -100)


def field(seed: int, tables: int = 4, boards: int = 6) -> dict[str, list[Result]]:
    """Two sections of ``tables`` tables, a Mitchell each; a few boards not played, one artificial score."""
    rng = random.Random(seed)
    out: dict[str, list[Result]] = {}
    for b in range(1, boards + 1):
        rows = out.setdefault(str(b), [])
        for section in "AB":
            for t in range(1, tables + 1):
                if rng.random() < 0.15:
                    continue  # not played there
                ew = str(tables + 1 + (t - 1 + b) % tables)
                if rng.random() < 0.05:
                    rows.append(Result(str(b), str(t), ew, artificial=Artificial.parse("A+/A-"), section=section))
                else:
                    rows.append(Result(str(b), str(t), ew, score=rng.choice(SPREAD), section=section))
    return out


def points(score: EventScore) -> dict[tuple[str | None, str, str, str], tuple[float, float, float | None]]:
    return {(s.result.section, s.result.board, s.result.ns, s.result.ew):
            (round(s.points_ns, 6), round(s.points_ew, 6), s.top) for b in score.boards for s in b.results}


def standings(score: EventScore) -> dict[tuple[str | None, str], tuple[int, float, float | None, int | None, int]]:
    return {(st.section, st.pair): (st.boards, round(st.total, 6), None if st.maximum is None else round(st.maximum, 6),
                                    st.rank, st.tied) for st in score.standings}


CASES = {
    "matchpoints across the field": (Scoring.MP, Conventions()),
    "matchpoints in each section": (Scoring.MP, Conventions(across_sections=False)),
    "matchpoints rounded per board": (Scoring.MP, Conventions(board_decimals=1)),
    "Butler, trimmed datum": (Scoring.BUTLER, Conventions(datum=Datum(trim=1))),
    "cross-IMPs averaged": (Scoring.CROSS_IMP, Conventions(cross_imps=CrossImps.AVERAGE)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_results_put_board_by_board_score_as_the_whole_event_scored_at_once(case: str) -> None:
    scoring, conventions = CASES[case]
    boards = field(7)
    pairs = tuple((s, str(p)) for s in "AB" for p in range(1, 9))
    scorer = BoardwiseScore("Field", scoring, conventions, pairs)
    have: dict[str, list[Result]] = {}
    rng = random.Random(3)
    steps = [(b, rs[:k]) for b, rs in boards.items() for k in range(1, len(rs) + 1)]
    rng.shuffle(steps)
    steps += [("2", []), ("5", boards["5"][:2]), ("2", boards["2"])]  # a board gone, one cut back, one back
    for board, results in steps:
        if results:
            have[board] = list(results)
        else:
            have.pop(board, None)
        scorer.put(board, results)
        whole = score_event(Event("Field", scoring, tuple(r for rs in have.values() for r in rs), conventions,
                                  pairs=pairs))
        mine = scorer.event_score()
        assert points(mine) == points(whole)
        assert standings(mine) == standings(whole)
        assert mine.by_direction == whole.by_direction


def test_a_board_played_more_often_than_any_before_factors_every_board_of_its_field_again_neuberg() -> None:
    scorer = BoardwiseScore("Field", Scoring.MP, Conventions())
    board_1 = [Result("1", str(t), str(t + 4), score=s) for t, s in enumerate((420, 450, 400), start=1)]
    board_2 = [Result("2", "1", "6", score=110), Result("2", "2", "7", score=100)]
    scorer.put("1", board_1)
    scorer.put("2", board_2)
    # board 2, 2 results of the 3 board 1 has: 110 beats one (2), (2 + 1) x 3/2 - 1 = 3.5 of 4
    assert scorer.scored("2")[0].points_ns == pytest.approx(3.5)
    assert scorer.scored("2")[0].top == 4.0
    scorer.put("1", [*board_1, Result("1", "4", "8", score=-50)])
    # board 1 now has 4 results: board 2 factored to 4, (2 + 1) x 4/2 - 1 = 5 of 6
    assert scorer.scored("2")[0].points_ns == pytest.approx(5.0)
    assert scorer.scored("2")[0].top == 6.0


def test_a_team_event_is_scored_whole_not_board_by_board() -> None:
    assert not BoardwiseScore.supports(Scoring.TEAMS, Conventions())
    assert not BoardwiseScore.supports(Scoring.MP, Conventions(awards_own_percent=True))
    with pytest.raises(FieldScoreError, match="scored whole"):
        BoardwiseScore("Teams", Scoring.TEAMS, Conventions())


def test_sections_scored_board_by_board_rank_each_section_alone_as_score_sections_does() -> None:
    boards = field(11)
    pairs = tuple((s, str(p)) for s in "AB" for p in range(1, 9))
    in_section = BoardwiseScore("Field", Scoring.MP, in_each_section(Conventions()), pairs)
    for board, results in boards.items():
        in_section.put(board, results)
    whole = score_sections(Event("Field", Scoring.MP, tuple(r for rs in boards.values() for r in rs), pairs=pairs))
    assert standings(in_section.event_score()) == standings(whole.in_section)
    assert [(st.section, st.pair) for st in in_section.event_score().standings] == \
        [(st.section, st.pair) for st in whole.in_section.standings]
    assert {st.section for st in whole.in_section.standings if st.rank == 1} == {"A", "B"}
