"""The corpus tests never skip silently under CI: a missing corpus skips them elsewhere, with the
reason, and fails them when ``CI`` is ``true`` (``tests.conftest.require_corpus``, the one place)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import conftest


def test_a_missing_corpus_fails_the_corpus_tests_when_ci_is_true(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest, "CORPUS", tmp_path / "nowhere")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="under CI the corpus tests must run"):
        conftest.require_corpus()


@pytest.mark.parametrize("ci", [None, "", "false"])
def test_a_missing_corpus_skips_the_corpus_tests_outside_ci_saying_where(
        ci: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest, "CORPUS", tmp_path / "nowhere")
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.skip.Exception, match=f"no real-record corpus at {tmp_path / 'nowhere'}"):
        conftest.require_corpus()


def test_a_file_missing_from_a_present_corpus_fails_under_ci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest, "CORPUS", tmp_path)
    monkeypatch.setenv("CI", "true")
    assert conftest.require_corpus() == tmp_path
    with pytest.raises(pytest.fail.Exception):
        conftest.require_corpus(tmp_path / "endplay_tests" / "example2.pbn")
