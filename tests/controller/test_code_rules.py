"""Each code owns its rules: the table and the views never ask which code they play."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_rule_asks_the_codes_name_or_family_each_code_owns_its_differences() -> None:
    pattern = re.compile(r"code\.name\s*[!=]=|\.family\b|family\s*[!=]=")
    offenders = []
    for folder in ("controller/table", "controller/views.py", "controller/catalogue", "web_ui"):
        path = ROOT / folder
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
                if pattern.search(line):
                    offenders.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == [], "a difference between codes belongs in its code's RulesOfCode:\n" + "\n".join(offenders)


def test_the_table_never_names_a_code_the_2017_laws_are_rules_and_labels_of_their_code() -> None:
    """The 2017 code (``duplicate2017``) differs from the 2008 one only through its ``RulesOfCode``
    flags and law labels (``controller/codes``): no table module names a code."""
    offenders = []
    for file in sorted((ROOT / "controller" / "table").rglob("*.py")):
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
            named = re.search(r"[\"'](duplicate|duplicate2017|rubber|chicago|bridge1905)[\"']", line)
            if named and "code: str = " not in line:  # (a new table's default code is no rule)
                offenders.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == [], "name a rule in RulesOfCode instead:\n" + "\n".join(offenders)
