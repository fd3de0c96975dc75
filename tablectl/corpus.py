"""Where the real-record corpus is looked for: the one place its default location is named.

The corpus (real PBN and LIN records, and results files) is optional: nothing the product
does needs it. A few tests read it when it is there (and are skipped, with the reason, when
it is not), the replay benchmark times it, and the demos may play its boards. It is
``$BRIDGE_CORPUS`` when set, else ``DEFAULT``: a folder kept beside the repository's own
folder by the project's CI and development machines.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DEFAULT", "ENV", "corpus_dir"]

ENV = "BRIDGE_CORPUS"
"""The environment variable that names the corpus folder."""

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus"
"""Where the corpus is when ``$BRIDGE_CORPUS`` is not set: ``shared/corpus`` beside the checkout."""


def corpus_dir() -> Path:
    """The corpus folder: ``$BRIDGE_CORPUS``, else ``DEFAULT`` (it may not exist)."""
    env = os.environ.get(ENV)
    return Path(env) if env else DEFAULT
