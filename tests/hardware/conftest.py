"""The hardware sources (hardware/electronics, hardware/bom, hardware/diagrams) are scripts, not packages."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for folder in ("hardware/electronics", "hardware/bom", "hardware/diagrams", "hardware/mechanical"):
    if str(ROOT / folder) not in sys.path:
        sys.path.insert(0, str(ROOT / folder))
