"""Duplicate bridge under the 2017 Laws (WBF 2017; the ACBL edition in force from 25 Sept 2017).

Scoring, dealer and vulnerability are those of the 2008 code (Laws 2, 77, 78 did not change);
what differs is the law cited for each situation (``DUPLICATE2017_LAWS``: 16C/16D swapped, old
Law 23 now 72C, 32A/32B and 53B/53C swapped) and the rectifications (``DUPLICATE2017_RULES``:
the comparable call of Law 23, the 26B prohibition, 37B, 53A, 54C, 57A, 68D).
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.codes.duplicate import Duplicate
from controller.codes.laws import DUPLICATE2017_LAWS
from controller.codes.rules import DUPLICATE2017_RULES, RulesOfCode

__all__ = ["Duplicate2017"]


@dataclass(frozen=True, slots=True)
class Duplicate2017(Duplicate):
    """The 2017 code: the 2008 code's boards and scores, the 2017 law references and rectifications."""

    name: str = "duplicate2017"
    rules: RulesOfCode = DUPLICATE2017_RULES

    def law(self, situation: str) -> str:
        return DUPLICATE2017_LAWS.get(situation, "")
