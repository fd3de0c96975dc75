"""The repository stands alone: no file of it names a path outside it or a document it does not hold.

A club clones the repository and nothing else, so every pointer in it (docs, code comments and
docstrings, tests, scenario files, hardware docs, the Makefile) must lead somewhere inside it:
to a ``docs/`` page, or for the Laws to the law number itself. The one exception is the
optional corpus's default location, named once in ``tablectl/corpus.py``.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

ALLOWED = {"tablectl/corpus.py", "tests/test_docs_self_contained.py"}
"""The one file that may name a place outside the repository (the corpus's default location),
and this check, which names what it looks for."""

OUTSIDE = re.compile(
    r"\.\./shared|shared/(corpus|seeds)|/work/"           # the workspace around the clone
    r"|\b(DESIGN|LAWS|LAWS2017|STYLE)\.md\b"              # documents that are not in the repository
    r"|\b\d{3}_[0-9a-f]{16}\.txt\b"                       # the law books' file names
    r"|\bSOURCES\.md\b",                                  # the corpus's own notes
)
"""Names of what lies outside the repository."""

LINK = re.compile(r"\]\(([^)\s]+)\)")
"""A Markdown link's target."""


def _tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [name for name in out.decode().split("\0") if name]


def _text(name: str) -> str | None:
    try:
        return (ROOT / name).read_text(encoding="utf-8")
    except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
        return None  # a picture, or a file deleted in the working tree


def outside_references(name: str, text: str) -> list[str]:
    """``name:line: match`` for every name of something outside the repository in ``text``."""
    return [f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}" for m in OUTSIDE.finditer(text)]


@pytest.fixture(scope="module")
def tracked() -> list[str]:
    try:
        return _tracked()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: no list of the repository's files")


def test_no_file_names_a_path_or_document_outside_the_repository(tracked: list[str]) -> None:
    found = [hit for name in tracked if name not in ALLOWED and (text := _text(name)) is not None
             for hit in outside_references(name, text)]
    assert not found, "point to a docs/ page, or cite the law itself:\n" + "\n".join(found)


def test_the_check_sees_each_kind_of_outside_reference() -> None:
    """The pattern itself: each way the repository once pointed outside is caught, plain words are not."""
    for text in ("see DESIGN.md", "LAWS.md Part 1", "LAWS2017.md section 2", 'STYLE.md "Tests"',
                 "../shared/corpus", "002_4493bb38d1dbe7b4.txt (Law 27)", "SOURCES.md counts"):
        assert outside_references("x", text), text
    for text in ("docs/table-log.md", "the 2017 Laws, Law 57D", "Duplicate Decisions (Law 27)",
                 "the shared pages", "seed 7 of the demo"):
        assert not outside_references("x", text), text


def test_every_relative_link_of_the_docs_leads_to_a_file_of_the_repository(tracked: list[str]) -> None:
    files = set(tracked)
    broken = []
    for name in tracked:
        if not name.endswith(".md") or (text := _text(name)) is None:
            continue
        for m in LINK.finditer(text):
            target = m.group(1).split("#", 1)[0]
            if not target or re.match(r"[a-z]+:", target):
                continue  # an anchor on the same page, or a web address
            resolved = (ROOT / name).parent.joinpath(target).resolve()
            try:
                inside = resolved.relative_to(ROOT).as_posix()
            except ValueError:
                broken.append(f"{name}: {m.group(1)} leads outside the repository")
                continue
            if inside not in files and not any(f.startswith(inside + "/") for f in files):
                broken.append(f"{name}: {m.group(1)} leads to nothing")
    assert not broken, "\n".join(broken)
