"""The Director's corrections of a finished board's result in the table's own record (Law 79C):
an entry of its own in the table log, the original lines kept; what the replay and the players'
table page then show; what the table refuses (nothing changes)."""

from __future__ import annotations

from controller import actions as a
from controller.records import tablelog
from controller.replay import replay_log
from controller.table import TableState, step
from controller.views import table_view

DEAL = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
PLAYED = f"""{{"t": 0, "board": {{"number": 1, "deal": "{DEAL}"}}}}
{{"t": 1, "seat": "N", "call": "7NT"}}
{{"t": 2, "seat": "E", "call": "Pass"}}
{{"t": 3, "seat": "S", "call": "Pass"}}
{{"t": 4, "seat": "W", "call": "Pass"}}
{{"t": 5, "seat": "E", "play": "ST"}}
{{"t": 6, "seat": "N", "claim": 13}}
{{"t": 7, "seat": "E", "agree": true}}
{{"t": 8, "seat": "W", "agree": true}}
"""
CORRECTION = ('{"t": 9, "correction": {"entry": 1, "board": 1, "contract": "6NT", "declarer": "N", "tricks": 12, '
              '"lead": "ST", "by": "Ann", "reason": "6NT was bid", "made": "2026-11-27T21:00:00.000Z"}}\n')
UNDO = ('{"t": 10, "undo_correction": {"entry": 2, "undoes": 1, "by": "Ann", "reason": "wrong table", '
        '"made": "2026-11-27T21:05:00.000Z"}}\n')


def _state(text: str, code: str | None = None) -> tuple[TableState, list[str]]:
    state = TableState.new(code) if code else TableState.new()
    refused = []
    for line in tablelog.loads(text):
        assert line.action is not None, line.error
        done = step(state, line.action)
        refused += [e.detail for e in done.events if e.kind == "rejected"]
        state = done.state
    return state, refused


def test_a_correction_is_a_table_log_line_of_its_own_read_and_written_back_unchanged_law_79c() -> None:
    lines = tablelog.loads(CORRECTION + UNDO)
    assert [type(x.action) for x in lines] == [a.CorrectResult, a.UndoCorrection]
    assert tablelog.dumps(x.action for x in lines if x.action is not None) == CORRECTION + UNDO


def test_an_unreadable_correction_is_an_error_of_its_line_and_the_lines_around_it_are_read() -> None:
    bad = CORRECTION.replace('"tricks": 12', '"tricks": 14').replace('"t": 9', '"t": 9.5')
    lines = tablelog.loads(PLAYED + bad + CORRECTION)
    errors = [x.error for x in lines if x.error]
    assert len(errors) == 1 and "line 10" in errors[0] and "0 to 13" in errors[0]
    assert sum(isinstance(x.action, a.CorrectResult) for x in lines) == 1


def test_the_replay_reports_the_corrected_score_and_keeps_the_board_as_played_law_79c() -> None:
    report = replay_log(tablelog.loads(PLAYED + CORRECTION)).report
    board = report["boards"][0]
    assert (board["contract"], board["tricks"], board["score_ns"], board["status"]) == ("6NT", 12, 990, "corrected")
    assert board["original"] == {"contract": "7NT", "declarer": "N", "tricks": 13, "result": "=", "score_ns": 1520,
                                 "status": "claimed"}
    assert board["auction"] == ["7NT", "Pass", "Pass", "Pass"]  # the play as it was
    assert board["corrected_by"]["by"] == "Ann" and board["corrections"][0]["law"] == "79C"
    assert report["session"]["total_ns"] == 990 and report["session"]["total_ns_original"] == 1520


def test_a_correction_taken_back_leaves_the_result_as_played_and_both_entries_visible() -> None:
    board = replay_log(tablelog.loads(PLAYED + CORRECTION + UNDO)).report["boards"][0]
    assert (board["score_ns"], board["status"]) == (1520, "claimed") and "original" not in board
    assert [(c["kind"], c["entry"]) for c in board["corrections"]] == [("correction", 1), ("undo", 2)]
    assert board["corrections"][0]["undone"] is True


def test_the_same_correction_twice_is_one_entry_the_second_refused() -> None:
    state, refused = _state(PLAYED + CORRECTION + CORRECTION)
    assert len(state.corrections) == 1 and refused == ["correction 1 is in the log already"]


def test_a_correction_needs_a_board_this_table_finished() -> None:
    state, refused = _state(PLAYED.splitlines(keepends=True)[0] + CORRECTION)
    assert state.corrections == () and "board 1 has not been finished at this table" in refused[0]


def test_a_correction_is_for_duplicate_boards_not_a_rubbers_score_sheet() -> None:
    state, refused = _state(PLAYED + CORRECTION, "rubber")
    assert state.corrections == () and "duplicate boards" in refused[0]


def test_a_correction_taken_back_twice_or_never_made_is_refused() -> None:
    twice = UNDO.replace('"entry": 2', '"entry": 3').replace("21:05", "21:06")
    state, refused = _state(PLAYED + CORRECTION + UNDO + twice)
    assert len(state.corrections) == 2 and refused == ["correction 1 was taken back already"]
    _, refused = _state(PLAYED + UNDO)
    assert refused == ["this table has no correction 1 to take back"]


def test_a_correction_is_taken_after_the_session_ended_law_79c() -> None:
    from controller.table import finish_session

    state, _ = _state(PLAYED)
    done = step(finish_session(state), tablelog.loads(CORRECTION)[0].action)  # type: ignore[arg-type]
    assert len(done.state.corrections) == 1


def test_the_players_table_page_shows_the_corrected_result_and_what_was_played() -> None:
    state, _ = _state(PLAYED + CORRECTION)
    row = table_view(state)["score"]["boards"][0]
    assert (row["contract"], row["tricks"], row["score_ns"], row["status"]) == ("6NT", 12, 990, "corrected")
    assert row["original"]["contract"] == "7NT" and row["corrected_by"]["reason"] == "6NT was bid"
    assert table_view(state)["score"]["board_score"] == {"number": 1, "score_ns": 990, "score_ew": -990}
