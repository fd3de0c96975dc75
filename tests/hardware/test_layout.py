"""`make hardware`'s boards in KiCad: laid out from the netlists, routed, design-rule checked, plotted for a fab.

KiCad's pcbnew module is Debian's (the system python3, `apt install kicad`: the Makefile's
hardware-tools installs it when CI is set). Elsewhere, without it, these tests skip and say so.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KICAD_PYTHON = Path(os.environ.get("KICAD_PYTHON", "/usr/bin/python3"))
LAYOUT = ROOT / "hardware" / "electronics" / "layout.py"
ELECTRONICS = ROOT / "hardware" / "electronics"


@pytest.fixture(scope="module")
def kicad_python() -> Path:
    has = KICAD_PYTHON.exists() and subprocess.run([str(KICAD_PYTHON), "-c", "import pcbnew"],
                                                  capture_output=True, timeout=60).returncode == 0
    if not has:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {KICAD_PYTHON} cannot import pcbnew: `make test` installs kicad "
                        "(hardware-tools)")
        pytest.skip("KiCad's pcbnew is not installed: run `make kicad` (or `make hardware`)")
    return KICAD_PYTHON


@pytest.fixture(scope="module")
def boards(kicad_python: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("boards")
    done = subprocess.run([str(kicad_python), str(LAYOUT), "--out", str(out)], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)
    (out / "layout.log").write_text(done.stderr, encoding="utf-8")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def test_both_boards_pass_kicads_design_rule_check_and_are_fully_routed(boards: Path) -> None:
    """KiCad's own check of the routed boards: no violation, no connection left, on either board (the pad board's
    last connection, walled in at the reader chip by the first pass, is routed by the router's second pass)."""
    summary = (boards / "layout.txt").read_text(encoding="utf-8")
    assert re.search(r"seat-unit: 80 x 60 mm, \d+ footprints, 36 nets; DRC 0 violations, 0 unconnected; "
                     r"routed 32 nets: [1-9]\d* tracks", summary), summary
    assert re.search(r"pad-board: \d+ x \d+ mm, \d+ footprints, 111 nets; DRC 0 violations, 0 unconnected; "
                     r"routed \d+ nets: [1-9]\d* tracks", summary), summary
    for name in ("seat-unit", "pad-board"):
        report = (boards / f"drc-{name}.rpt").read_text(encoding="utf-8")
        assert "Severity: error" not in report, report[:3000]
        assert "** Found 0 unconnected pads **" in report and "[unconnected_items]" not in report
        assert "[track_dangling]" not in report and "[via_dangling]" not in report      # no copper leading nowhere
    gerber = (boards / "seat-unit-gerbers" / "seat-unit-B_Cu.gbr").read_text(encoding="utf-8")
    assert "TO.N,MOSI" in gerber or "TO.N,GND" in gerber         # tracks with their nets on the back copper


def test_the_pad_boards_walled_in_connection_is_routed_by_the_second_pass(boards: Path) -> None:
    """The first pass leaves MOSI at the reader chip's pin 30 walled in (README.md); layout.py says so and the
    second pass routes it, taking up the +3V3 fan-out in front of pin 32 that forced MISO across pin 30."""
    log = (boards / "layout.log").read_text(encoding="utf-8")
    assert "pad-board: MOSI not joined; routing again round the pads left" in log, log[-2000:]
    summary = (boards / "layout.txt").read_text(encoding="utf-8")
    assert re.search(r"pad-board: [^\n]*DRC 0 violations, 0 unconnected", summary), summary


def test_the_fab_gets_gerbers_drill_position_and_bom_files(boards: Path) -> None:
    for name in ("seat-unit", "pad-board"):
        gerbers = boards / f"{name}-gerbers"
        for layer in ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_SilkS", "Edge_Cuts"):
            text = (gerbers / f"{name}-{layer}.gbr").read_text(encoding="utf-8")
            assert "%FSLAX" in text and text.rstrip().endswith("M02*")
        assert (gerbers / f"{name}-PTH.drl").read_text(encoding="utf-8").startswith("M48")
        pos = list(csv.DictReader((boards / f"{name}-pos.csv").read_text(encoding="utf-8").splitlines()))
        assert pos and {"Ref", "PosX", "PosY", "Rot", "Side"} <= set(pos[0])
        bom = list(csv.DictReader((boards / f"{name}-fab-bom.csv").read_text(encoding="utf-8").splitlines()))
        assert bom and all(row["MPN"] for row in bom)
        assert (boards / f"{name}.dsn").read_text(encoding="utf-8").startswith("(pcb")


def test_every_pad_of_the_board_is_on_the_firmware_pin_maps_net(boards: Path, kicad_python: Path) -> None:
    """Read the saved board back: the Pico's GPIO pads carry the nets board.py gives them (via circuits.py)."""
    probe = (
        "import sys; sys.path[:0] = [sys.argv[2], sys.argv[3]]\n"
        "import pcbnew\n"
        "from firmware_bridge.firmware.seatfw import board as fw\n"
        "b = pcbnew.LoadBoard(sys.argv[1])\n"
        "u1 = b.FindFootprintByReference('U1')\n"
        "nets = {p.GetNumber(): p.GetNetname() for p in u1.Pads()}\n"
        "import tomllib\n"
        "names = tomllib.load(open(sys.argv[3] + '/../diagrams/diagrams.toml', 'rb'))['pico']['pins']\n"
        "pin = {n: str(i) for i, n in enumerate(names, start=1)}\n"
        "print(nets[pin[f'GP{fw.ROW_PINS[0]}']], nets[pin[f'GP{fw.PAD_LATCH_PIN}']], nets[pin[f'GP{fw.BUTTON_PIN}']])\n"
    )
    done = subprocess.run([str(kicad_python), "-c", probe, str(boards / "seat-unit.kicad_pcb"), str(ROOT),
                           str(ELECTRONICS)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["ROW0", "PAD_LATCH", "BUTTON"]


def test_the_pad_boards_ground_pour_is_filled_and_keeps_out_of_the_loops(boards: Path, kicad_python: Path) -> None:
    """The GND zone joins what the tracks left (filled copper on both layers), and none of it lies over a loop,
    whose field a plane under it would cancel (antenna.py's loops are free-standing copper)."""
    probe = (
        "import sys, pcbnew\n"
        "b = pcbnew.LoadBoard(sys.argv[1])\n"
        "fills = [z for z in b.Zones() if not z.GetIsRuleArea() and z.GetNetname() == 'GND']\n"
        "print(sorted(b.GetLayerName(z.GetLayer()) for z in fills), all(z.IsFilled() for z in fills))\n"
        "loops = [fp.GetBoundingBox(False, False) for fp in b.GetFootprints() if fp.GetReference().startswith('ANT')]\n"
        "over = 0\n"
        "for z in fills:\n"
        "    poly = z.GetFilledPolysList(z.GetLayer())\n"
        "    for box in loops:\n"
        "        c = box.GetCenter()\n"
        "        for dx in (-15, 0, 15):\n"
        "            for dy in (-15, 0, 15):\n"
        "                over += poly.Contains(pcbnew.VECTOR2I(c.x + pcbnew.FromMM(dx), c.y + pcbnew.FromMM(dy)))\n"
        "print(len(loops), over, sum(z.GetFilledArea() for z in fills) / 1e12)\n"
    )
    done = subprocess.run([str(kicad_python), "-c", probe, str(boards / "pad-board.kicad_pcb")], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    layers, loops = done.stdout.splitlines()
    assert layers == "['B.Cu', 'F.Cu'] True"
    count, over, area = loops.split()
    assert count == "16" and over == "0"
    assert float(area) > 1000.0                  # mm2: a plane, not slivers


def test_parts_placed_over_each_other_fail_the_design_rule_check(kicad_python: Path, tmp_path: Path) -> None:
    """The check can fail: a copy of placement.py that moves the Pico down onto the small parts (courtyards, holes)."""
    work = tmp_path / "electronics"
    work.mkdir()
    src = (ELECTRONICS / "placement.py").read_text(encoding="utf-8")
    broken = src.replace('fps["U1"].SetPosition(pt(26.5, h / 2))', 'fps["U1"].SetPosition(pt(26.5, h / 2 - 12.0))')
    assert broken != src
    (work / "placement.py").write_text(broken, encoding="utf-8")
    layout = (ELECTRONICS / "layout.py").read_text(encoding="utf-8")
    (work / "layout.py").write_text(layout.replace("ROOT = HERE.parents[1]", f"ROOT = Path({str(ROOT)!r})"),
                                    encoding="utf-8")
    for name in ("circuits.py", "antenna.py", "board_routes.py", "router.py", "route_geometry.py", "route_model.py",
                 "route_repair.py", "route_prune.py"):
        text = (ELECTRONICS / name).read_text(encoding="utf-8")
        text = text.replace("ROOT = Path(__file__).resolve().parents[2]", f"ROOT = Path({str(ROOT)!r})")
        (work / name).write_text(text, encoding="utf-8")
    done = subprocess.run([str(kicad_python), str(work / "layout.py"), "--no-route", "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 1
    assert re.search(r"seat-unit: [1-9]\d* design-rule violations", done.stderr), done.stderr[-2000:]


def test_a_board_left_unrouted_fails_the_check(kicad_python: Path, tmp_path: Path) -> None:
    """The same layout without the router: KiCad counts the seat unit's connections left, and the check fails."""
    done = subprocess.run([str(kicad_python), str(LAYOUT), "--no-route", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 1
    assert re.search(r"seat-unit: [1-9]\d* connections not routed", done.stderr), done.stderr[-2000:]
    assert "seat-unit: 80 x 60 mm, 23 footprints, 36 nets; DRC 0 violations" in done.stdout


def test_the_picos_usb_and_the_connectors_meet_the_cases_openings(boards: Path) -> None:
    """The board's layout and the printed case agree: the case's openings (parts.OPENINGS) against pos.csv."""
    cad_python = ROOT / ".cache" / "cad-venv" / "bin" / "python"
    if not cad_python.exists():
        if os.environ.get("CI"):
            pytest.fail("CI is set but .cache/cad-venv is missing: `make test` installs it (hardware-tools)")
        pytest.skip("build123d is not installed: run `make hardware-tools`")
    probe = ("import sys, json; sys.path.insert(0, sys.argv[1]); import parts; src = parts.load()\n"
             "print(json.dumps({n: parts.opening_span(src, n) for n in parts.OPENINGS} | "
             "{'board': [src['seat_unit_board']['width'], src['seat_unit_board']['height']]}))")
    done = subprocess.run([str(cad_python), "-c", probe, str(ROOT / "hardware" / "mechanical")], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    case = json.loads(done.stdout)
    w, h = case["board"]
    pos = {row["Ref"]: (float(row["PosX"]), -float(row["PosY"]))      # the position file counts y upwards
           for row in csv.DictReader((boards / "seat-unit-pos.csv").read_text(encoding="utf-8").splitlines())}
    pico_x, pico_y = pos["U1"]
    assert pico_x - 25.5 <= 1.5, "the Pico's USB end is not at the board's left edge"
    assert case["usb"][0] + 4 <= pico_y <= case["usb"][1] - 4         # the micro-USB plug (8 mm) passes
    j1_x, j1_y = pos["J1"]
    assert j1_x >= w - 12 and case["ribbon"][0] <= j1_y <= case["ribbon"][1]
    for ref in ("J2", "J3", "J5"):
        assert pos[ref][1] >= h / 2, f"{ref} is not on the far half, by the case's cable opening"
