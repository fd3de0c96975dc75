"""`make hardware`'s mechanical parts: exported, and fitting (hardware/mechanical/build.py in .cache/cad-venv).

build123d lives in .cache/cad-venv (the Makefile's hardware-tools); `make test` installs it
when CI is set. Elsewhere, without it, these tests skip and say how to get it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CAD_PYTHON = ROOT / ".cache" / "cad-venv" / "bin" / "python"
BUILD = ROOT / "hardware" / "mechanical" / "build.py"
TOML = ROOT / "hardware" / "diagrams" / "diagrams.toml"


@pytest.fixture(scope="module")
def cad_python() -> Path:
    if not CAD_PYTHON.exists():
        if os.environ.get("CI"):
            pytest.fail("CI is set but .cache/cad-venv is missing: `make test` installs it (hardware-tools)")
        pytest.skip("build123d is not installed: run `make hardware-tools` (or `make hardware`)")
    return CAD_PYTHON


def _build(cad_python: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(cad_python), str(BUILD), "--out", str(out), *extra], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)


def _with(tmp_path: Path, old: str, new: str) -> Path:
    text = TOML.read_text(encoding="utf-8")
    assert old in text
    changed = tmp_path / "diagrams.toml"
    changed.write_text(text.replace(old, new), encoding="utf-8")
    return changed


def test_every_part_is_exported_and_everything_fits(cad_python: Path, tmp_path: Path) -> None:
    done = _build(cad_python, tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for name in ("bid-rack", "rack-bottom", "front-holder", "case-base", "case-lid", "reader-cradle"):
        stl = (tmp_path / f"{name}.stl").read_bytes()
        triangles = int.from_bytes(stl[80:84], "little")                       # binary STL: 50 bytes a triangle
        assert triangles >= 12 and len(stl) == 84 + 50 * triangles
        assert (tmp_path / f"{name}.step").read_text(encoding="utf-8").startswith("ISO-10303-21;")
    for name in ("rack-bottom", "reader-pocket"):
        assert "LWPOLYLINE" in (tmp_path / f"{name}.dxf").read_text(encoding="utf-8") or \
            "LINE" in (tmp_path / f"{name}.dxf").read_text(encoding="utf-8")
    fit = (tmp_path / "fit.txt").read_text(encoding="utf-8")
    assert "FAIL" not in fit and fit.count("  ok   ") >= 15
    assert "35 bid cards with their magnets in the rack's slots" in fit


def test_a_card_thicker_than_its_slot_fails_the_fit(cad_python: Path, tmp_path: Path) -> None:
    toml = _with(tmp_path, "thickness = 0.35", "thickness = 0.8")     # with its 1 mm magnet: over the 1.6 gap
    done = _build(cad_python, tmp_path / "out", "--toml", str(toml), "--no-export")
    assert done.returncode == 1
    assert "FAIL 35 bid cards with their magnets in the rack's slots" in done.stdout


def test_the_case_is_sized_from_the_board(cad_python: Path, tmp_path: Path) -> None:
    """A wider board gives a wider case that still fits it with the set clearance."""
    toml = _with(tmp_path, "width = 80.0", "width = 90.0")
    done = _build(cad_python, tmp_path / "out", "--toml", str(toml), "--no-export")
    assert done.returncode == 0, done.stdout
    assert "Seat unit case: 96.0 x 66.0 x" in done.stdout and "for a 90 x 60 mm board" in done.stdout


def test_a_pocket_leaving_more_wood_than_a_reader_reads_through_is_refused(cad_python: Path,
                                                                                   tmp_path: Path) -> None:
    toml = _with(tmp_path, "leave_over_antenna = 6.0", "leave_over_antenna = 8.0")
    done = _build(cad_python, tmp_path / "out", "--toml", str(toml), "--no-export")
    assert done.returncode == 1
    assert "over the 10.0 mm a reader reads through" in done.stdout + done.stderr
