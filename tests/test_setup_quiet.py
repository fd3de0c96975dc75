"""``make setup`` is quiet: installing the project (as the Makefile does, editable, without
resolving anything) prints no build backend's warning banner."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("controller", "drivers", "firmware_bridge", "web_ui", "tablectl")


def test_the_editable_install_of_make_setup_prints_no_warning(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, project / name)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, project / package, ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PIP_CONFIG_FILE": os.devnull}  # this machine's pip settings are not the project's
    out = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                          "--no-build-isolation", "--target", str(tmp_path / "site"), "-e", str(project)],
                         capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    assert "warning" not in out.stderr.lower(), out.stderr
    assert "!!" not in out.stderr, out.stderr
