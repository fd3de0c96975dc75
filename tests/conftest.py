"""Shared fixtures: where the real-record corpus is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tablectl.corpus import corpus_dir

CORPUS = corpus_dir()
"""The optional real-record corpus (``tablectl.corpus``)."""


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The corpus directory; missing is a failure under CI and a skip elsewhere."""
    if not CORPUS.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the corpus is missing at {CORPUS}")
        pytest.skip(f"no corpus at {CORPUS} (set BRIDGE_CORPUS)")
    return CORPUS
