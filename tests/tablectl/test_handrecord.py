"""``tablectl handrecord FILE.pbn --html OUT.html``: a session's printable hand record."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablectl import cli

DEALS = """[Event "Club \\"Night\\""]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:974.AJ3.63.AK963 K83.K9752.7.8752 AQJ5.T864.KJ94.4 T62.Q.AQT852.QJT"]

[Event "Club \\"Night\\""]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "E:974.AJ3.63.AK963 K83.K9752.7.8752 AQJ5.T864.KJ94.4 -"]

[Event "Club \\"Night\\""]
[Board "3"]
[Dealer "S"]
[Vulnerable "EW"]
"""


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = cli.main(["handrecord", *args])
    return code, capsys.readouterr().err


def test_handrecord_writes_every_board_with_its_analysis(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out = tmp_path / "deals.pbn", tmp_path / "hands.html"
    source.write_text(DEALS, encoding="utf-8")
    code, err = _run(capsys, str(source), "--html", str(out), "--per-page", "2")
    assert code == 0
    assert "board 3: no deal: left out" in err and f"wrote {out} (2 boards)" in err
    page = out.read_text(encoding="utf-8")
    assert 'id="board-1"' in page and 'id="board-2"' in page and 'id="board-3"' not in page
    assert "<title>Club &quot;Night&quot;</title>" in page
    assert page.count('<table class="dd"') == 2 and "Par NS +400: 3NT by N/S =" in page


def test_handrecord_without_analysis_and_with_a_title(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out = tmp_path / "deals.pbn", tmp_path / "hands.html"
    source.write_text(DEALS, encoding="utf-8")
    assert _run(capsys, str(source), "--html", str(out), "--no-analysis", "--title", "Monday")[0] == 0
    page = out.read_text(encoding="utf-8")
    assert "<title>Monday</title>" in page and 'class="dd"' not in page and "Par " not in page


@pytest.mark.parametrize(("content", "message"), [(None, "No such file"), ('[Board "1"]\n', "no board with a "
                                                                                          "complete deal")])
def test_handrecord_of_an_unusable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                content: str | None, message: str) -> None:
    source = tmp_path / "deals.pbn"
    if content is not None:
        source.write_text(content, encoding="utf-8")
    code, err = _run(capsys, str(source), "--html", str(tmp_path / "out.html"))
    assert code == 2 and message in err
