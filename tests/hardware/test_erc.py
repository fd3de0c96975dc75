"""`make hardware`'s electrical rule check: SKiDL over both boards, from its own venv.

SKiDL lives in .cache/hw-venv (the Makefile's hardware-tools); `make test` installs it when
CI is set. Elsewhere, without it, these tests skip and say how to get it.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HW_PYTHON = ROOT / ".cache" / "hw-venv" / "bin" / "python"
BUILD = ROOT / "hardware" / "electronics" / "build.py"


@pytest.fixture(scope="module")
def hw_python() -> Path:
    if not HW_PYTHON.exists():
        if os.environ.get("CI"):
            pytest.fail("CI is set but .cache/hw-venv is missing: `make test` installs it (hardware-tools)")
        pytest.skip("SKiDL is not installed: run `make hardware-tools` (or `make hardware`)")
    return HW_PYTHON


def _build(hw_python: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(hw_python), str(BUILD), "--out", str(out), *extra], capture_output=True,
                          text=True, timeout=600, cwd=ROOT)


def test_both_boards_pass_skidls_electrical_rule_check(hw_python: Path, tmp_path: Path) -> None:
    done = _build(hw_python, tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    erc = (tmp_path / "erc.txt").read_text(encoding="utf-8")
    assert "seat-unit:" in erc and "pad-board:" in erc and "ERC 0 errors" in erc
    for name in ("seat-unit", "pad-board"):
        assert "(export" in (tmp_path / f"{name}.net").read_text(encoding="utf-8")
        bom = (tmp_path / f"{name}-bom.csv").read_text(encoding="utf-8")
        assert bom.startswith("refs,qty,value,maker,mpn,second source")


def test_an_output_wired_to_an_output_fails_the_check(hw_python: Path, tmp_path: Path) -> None:
    """The check can fail: a copy of the netlists with the two shift registers' QH' outputs joined."""
    src = (ROOT / "hardware" / "electronics" / "circuits.py").read_text(encoding="utf-8")
    broken = src.replace('n.join("QH_OUT", ("U3", "QH\'"))', 'n.join("CHAIN", ("U3", "QH\'"))')
    assert broken != src
    work = tmp_path / "electronics"
    work.mkdir()
    (work / "circuits.py").write_text(broken.replace("ROOT = Path(__file__).resolve().parents[2]",
                                                     f"ROOT = Path({str(ROOT)!r})"), encoding="utf-8")
    for name in ("antenna.py", "build.py"):
        (work / name).write_text((ROOT / "hardware" / "electronics" / name).read_text(encoding="utf-8"),
                                 encoding="utf-8")
    done = subprocess.run([str(hw_python), str(work / "build.py"), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 1
    assert re.search(r"pad-board: .*ERC [1-9]\d* errors", done.stdout), done.stdout
    assert "seat-unit: 16 parts, 36 nets; ERC 0 errors" in done.stdout
    assert "OUTPUT" in done.stderr     # SKiDL's own message names the conflict
