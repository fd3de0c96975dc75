"""``tablectl score``: field scoring of real results files, reproducing every value they printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablectl import cli

# Every real file: the events it holds, how many printed values each has, and what of it
# cannot be recomputed from its scores (docs/field-scoring.md; the notes that come with the corpus's results files).
REAL_FILES = {
    "results/fin-sm2.pbn": [("SM-parikilpailu - Session 2", 2988, [
        "TotalScoreMP, TotalPercentage, Rank, NrBoards: cumulative over earlier sessions, whose scores are "
        "not in the file"])],
    "results/nor-spiren-2015-06-17.pbn": [("Spiren", 470, [])],
    "results/nor-teams-sub-butler.pbn": [("2022KMLAG - 1:1", 1216, [])],
    "results/ebu-crawley-2025-01-06.usebio.xml": [("#39808 Pairs Crawley Relaxed Duplicate", 339, [])],
    "results/ebu-example-multiple-teams.usebio.xml": [("Multiple Teams Example Session", 230, []),
                                                      ("Multiple Teams Example Session", 519, [])],
    "endplay_tests/example2.pbn": [("2021 Online Qual: Open R2", 596, [
        "board 20, TURKEY v SWITZERLAND: the other room's record (SWITZERLAND North-South) is not in the file, "
        "so its ScoreIMP (-1, 1) cannot be recomputed"])],
}


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["score", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", sorted(REAL_FILES))
def test_check_reproduces_every_printed_value_of_a_real_file(corpus: Path, capsys: pytest.CaptureFixture[str],
                                                             name: str) -> None:
    code, out, _ = _run(capsys, "--check", "--json", str(corpus / name))
    report = json.loads(out)
    assert [(e["name"], e["compared"], e["not_checked"]) for e in report["events"]] == REAL_FILES[name]
    assert [d for e in report["events"] for d in e["differences"]] == []
    assert code == 0


def test_json_follows_design_field_scoring(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--json", str(corpus / "results" / "fin-sm2.pbn"))
    assert code == 0
    (event,) = json.loads(out)["events"]
    assert list(event) == ["name", "scoring", "boards", "pairs"]
    assert event["scoring"] == "MP" and len(event["boards"]) == 39
    first = event["boards"][0]
    assert first["board"] == "67"
    assert first["results"][1] == {"ns": "8", "ew": "3", "score_ns": 400, "points_ns": 32.0, "points_ew": 2.0,
                                   "percent_ns": 94.1, "percent_ew": 5.9}
    assert event["pairs"][0] == {"pair": "31", "direction": None, "section": None, "total": 826.0,
                                 "percent": 62.29, "rank": 1}


def test_json_of_butler_has_sections_and_no_percentages(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "--json", str(corpus / "results" / "nor-teams-sub-butler.pbn"))
    (event,) = json.loads(out)["events"]
    assert event["scoring"] == "Butler"
    assert event["boards"][0]["results"][0] == {"ns": "112", "ew": "312", "section": "B", "score_ns": 150,
                                                "points_ns": 5.0, "points_ew": -5.0}
    assert event["pairs"][0] == {"pair": "10", "direction": "NS", "section": "A", "total": 41.0, "percent": None,
                                 "rank": 1}
    assert event["pairs"][-1]["rank"] == 49  # the four pairs that played nothing rank last


def test_json_of_teams_has_the_matches(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "--json", str(corpus / "results" / "ebu-example-multiple-teams.usebio.xml"))
    teams, pairs = json.loads(out)["events"]
    assert (teams["scoring"], pairs["scoring"]) == ("Teams", "CrossIMP")
    assert teams["matches"][0] == {"round": "1", "home": "1", "away": "3",
                                   "imps": [{"board": "1", "home": 0}, {"board": "2", "home": 8},
                                            {"board": "3", "home": -6}],
                                   "imps_home": 8, "imps_away": 6, "vp_home": 12.0, "vp_away": 8.0}
    assert teams["pairs"][0] == {"pair": "10", "direction": None, "section": None, "total": 119.0,
                                 "percent": None, "rank": 1}


def test_check_lists_each_difference_and_exits_1(corpus: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    text = (corpus / "results" / "nor-spiren-2015-06-17.pbn").read_bytes()
    changed = text.replace(b'4 1  7  8 3D  N 10 "130"      -  4 -4 100   0',
                           b'4 1  7  8 3D  N 10 "130"      -  3 -4  99   0', 1)
    assert changed != text
    path = tmp_path / "spiren.pbn"
    path.write_bytes(changed)
    code, out, _ = _run(capsys, "--check", str(path))
    assert code == 1
    assert "board 1, 7 v 8: MP_NS printed 3, computed 4" in out
    assert "board 1, 7 v 8: Percentage_NS printed 99, computed 100" in out
    assert "470 printed values compared, 2 differ" in out


def test_matchpoints_acbl_halves_the_points_and_keeps_the_percentages(corpus: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = str(corpus / "results" / "fin-sm2.pbn")
    _, out, _ = _run(capsys, "--json", "--matchpoints", "acbl", path)
    (event,) = json.loads(out)["events"]
    assert event["boards"][0]["results"][1]["points_ns"] == 16.0
    assert event["pairs"][0]["percent"] == 62.29
    code, out, _ = _run(capsys, "--check", "--matchpoints", "acbl", path)
    assert code == 1 and "MP_NS printed 32, computed 16" in out


def test_text_output_is_a_ranking_per_event(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, str(corpus / "results" / "nor-spiren-2015-06-17.pbn"))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Spiren: matchpoints (Ruter i Norge), 21 boards, 105 results, 10 pairs"
    assert any(line.split()[:2] == ["5=", "7"] for line in lines)
    assert lines[-1].split() == ["10", "8", "-", "21", "58.00", "34.52"]


@pytest.mark.parametrize(("content", "message"), [
    (None, "no such file"),
    (b"just some text\n", "no [ScoreTable], [ScoreIMP] or USEBIO traveller"),
    (b"<USEBIO><EVENT></USEBIO>", "not well-formed XML"),
    (b'[Event "E"]\n[Board "1"]\n[Deal "N:AKQJ.T98.765.432 - - -"]\n', "no [ScoreTable]"),
])
def test_unusable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None,
                               message: str) -> None:
    path = tmp_path / "results.pbn"
    if content is not None:
        path.write_bytes(content)
    code, _, err = _run(capsys, "--check", str(path))
    assert code == 2
    assert message in err
