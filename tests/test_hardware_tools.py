"""The tools of ``hardware/tools/`` run as hardware/decks.md says: ``board_tags.py`` writes the club's
board map, board by board, from the tags laid on a reader (here nfcpy's own PN532 driver talking to
the simulated PN532 on a pseudo-terminal, as a real reader on its port)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from drivers.pn532_sim import Pn532Simulator
from tablectl.boardsetup import load_board_tags

ROOT = Path(__file__).resolve().parents[1]
BOARD_TAGS = ROOT / "hardware" / "tools" / "board_tags.py"
BOARD_1, BOARD_2 = "04B0A4D0000001", "04B0A4D0000002"


def test_board_tags_writes_the_board_map_from_each_board_laid_on_the_reader(tmp_path: Path) -> None:
    path = tmp_path / "boards.toml"
    with Pn532Simulator() as sim:
        child = subprocess.Popen([sys.executable, str(BOARD_TAGS), "--boards-file", str(path), "--first", "1",
                                  "--last", "2", "--reader", sim.url("boards") + "&interval=0.02",
                                  "--timeout", "60"],
                                 cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert child.stdout is not None
        lines = []
        try:
            for line in child.stdout:   # the volunteer: each board asked for, its tag laid on the reader
                lines.append(line)
                if line.startswith("put board 1 "):
                    sim.present(BOARD_1)
                elif line.startswith("put board 2 "):
                    sim.remove()
                    sim.present(BOARD_2)
            code = child.wait(timeout=60)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
    stderr = child.stderr.read() if child.stderr is not None else ""
    assert code == 0, "".join(lines) + stderr
    assert f"  ok board 1 = tag {BOARD_1}\n" in lines and f"  ok board 2 = tag {BOARD_2}\n" in lines
    assert lines[-1] == f"boards 1-2 complete in {path}\n"
    assert load_board_tags(path) == {BOARD_1: 1, BOARD_2: 2}   # what tablectl run --boards reads

    again = subprocess.run([sys.executable, str(BOARD_TAGS), "--boards-file", str(path), "--first", "1",
                            "--last", "2"], capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and again.stdout == f"boards 1-2 are all in {path}\n"


def test_a_missing_usb_reader_is_said_once_not_at_every_search(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "tablectl", "enrol", "--deck", str(tmp_path / "d.json"),
                          "--reader", "nfc:usb:072f:2200", "--cards", "SA", "--timeout", "2"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1, out.stdout + out.stderr  # no card within the timeout
    assert out.stdout.count("no reader found on usb:072f:2200") == 1, out.stdout
    assert "reader available" not in out.stderr and "searching for reader" not in out.stderr, out.stderr
