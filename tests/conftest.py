"""Shared fixtures: where the real-record corpus is, and what its absence means.

The corpus tests need the real records at ``$BRIDGE_CORPUS``. Outside CI a missing corpus
skips them, saying where it was looked for; under CI (``CI`` set to ``true``, as CI services
set it) it fails them: CI always has the corpus, so a skip there would hide a broken set-up.
Every corpus test goes through ``require_corpus`` (or the ``corpus`` fixture that calls it).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tablectl.corpus import corpus_dir

CORPUS = corpus_dir()
"""The optional real-record corpus (``tablectl.corpus``)."""


def in_ci() -> bool:
    """Whether the tests run under CI (``CI`` set, and not to ``false``, ``0`` or ``no``)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "false", "0", "no")


def require_corpus(path: Path | None = None) -> Path:
    """The corpus directory (or ``path`` in it, which must exist): a skip with the reason when
    it is missing, a failure under CI."""
    wanted = CORPUS if path is None else path
    if not CORPUS.is_dir() or not wanted.exists():
        if in_ci():
            pytest.fail(f"the real-record corpus is missing at {wanted}: under CI the corpus tests must run "
                        "(set BRIDGE_CORPUS)")
        pytest.skip(f"no real-record corpus at {wanted}: set BRIDGE_CORPUS to run the corpus tests")
    return wanted


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The corpus directory; missing is a failure under CI and a skip elsewhere (``require_corpus``)."""
    return require_corpus()
