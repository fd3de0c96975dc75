"""``tablectl score FILE --pbn OUT --usebio OUT``: the scored file written in both formats, each
reading back with every printed value agreeing (``--check`` exits 0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablectl import cli


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["score", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", ["results/nor-spiren-2015-06-17.pbn", "results/ebu-crawley-2025-01-06.usebio.xml",
                                  "results/ebu-example-multiple-teams.usebio.xml"])
def test_score_writes_pbn_and_usebio_that_check_clean_and_rank_the_same(corpus: Path, tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str],
                                                                          name: str) -> None:
    pbn_out, xml_out = tmp_path / "out.pbn", tmp_path / "out.xml"
    code, out, err = _run(capsys, "--json", "--pbn", str(pbn_out), "--usebio", str(xml_out), str(corpus / name))
    assert code == 0
    assert f"wrote {pbn_out}" in err and f"wrote {xml_out}" in err
    ranking = [[(p["pair"], p["rank"], p["total"]) for p in e["pairs"]] for e in json.loads(out)["events"]]
    for written in (pbn_out, xml_out):
        code, out, _ = _run(capsys, "--check", "--json", str(written))
        report = json.loads(out)
        assert code == 0 and all(e["compared"] and not e["differences"] for e in report["events"])
        _, out, _ = _run(capsys, "--json", str(written))
        assert [[(p["pair"], p["rank"], p["total"]) for p in e["pairs"]] for e in json.loads(out)["events"]] == ranking


def test_an_unwritable_output_exits_2(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "--pbn", str(tmp_path / "no" / "such" / "dir.pbn"),
                        str(corpus / "results" / "nor-spiren-2015-06-17.pbn"))
    assert code == 2 and "No such file or directory" in err
