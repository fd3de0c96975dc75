"""`make hardware`, electronics: SKiDL's electrical rule check, the KiCad netlists and the BOMs.

Run with the hardware tools' Python (``make hardware`` makes ``.cache/hw-venv`` with the
versions of ``hardware/electronics/requirements.txt``)::

    .cache/hw-venv/bin/python hardware/electronics/build.py [--out hardware/build]

For each board of ``circuits.py`` (the seat unit's carrier, the pad board): the netlist's
own checks (``circuits.problems``), then the board built in SKiDL with every pin's
electrical kind and SKiDL's ERC (an output driving an output, a net with inputs and no
driver, a power input with no source, a pin left open), then ``<board>.net`` (KiCad
netlist, for KiCad's PCB editor) and ``<board>-bom.csv`` (one line per value and part
number, with quantities, second sources and prices), and ``antenna.txt`` (the matching
calculation's figures). Exits 1 when a check finds an error; ERC warnings are printed and
counted in ``erc.txt``.
"""

from __future__ import annotations

import argparse
import csv
import io
import logging
import os
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import antenna  # noqa: E402
import circuits  # noqa: E402

KINDS = {"in": "INPUT", "out": "OUTPUT", "bidir": "BIDIR", "passive": "PASSIVE", "pwr_in": "PWRIN",
         "pwr_out": "PWROUT", "nc": "NOCONNECT"}


def bom_rows(b: circuits.Board) -> list[dict[str, str]]:
    """One row per (value, MPN): refs, quantity, maker, second source, unit and line price."""
    groups: dict[tuple[str, str, str], list[circuits.Part]] = defaultdict(list)
    for p in b.parts:
        groups[(p.value, p.mpn, p.footprint)].append(p)
    rows = []
    for (value, mpn, footprint), parts in sorted(groups.items(), key=lambda g: g[1][0].ref):
        first = parts[0]
        rows.append({
            "refs": " ".join(p.ref for p in parts), "qty": str(len(parts)), "value": value,
            "maker": first.maker, "mpn": mpn, "second source": first.second, "footprint": footprint,
            "fit": first.fit, "unit EUR": f"{first.price_eur:.2f}",
            "line EUR": f"{first.price_eur * len(parts):.2f}", "note": first.note,
        })
    return rows


def bom_csv(b: circuits.Board) -> str:
    rows = bom_rows(b)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def skidl_check(b: circuits.Board, out: Path) -> tuple[int, int]:
    """The board in SKiDL: its ERC's error and warning counts, and its KiCad netlist in ``out``."""
    os.environ.setdefault("KICAD_SYMBOL_DIR", "")
    logging.disable(logging.WARNING)     # SKiDL's notes about missing KiCad libraries: none are used
    import skidl
    from skidl import SKIDL, Circuit, Net, Part, Pin
    logging.disable(logging.NOTSET)

    circuit = Circuit()
    with circuit:
        parts = {}
        for p in b.parts:
            prefix = "".join(c for c in p.ref if c.isalpha())
            parts[p.ref] = Part(tool=SKIDL, name=p.value, ref=p.ref, ref_prefix=prefix, footprint=p.footprint,
                                tag=p.ref,
                                pins=[Pin(num=q.num, name=q.name, func=getattr(Pin.types, KINDS[q.kind]))
                                      for q in p.pins])
            parts[p.ref].MPN = p.mpn
        for name, ends in b.nets.items():
            net = Net(name)
            if name in b.power:
                net.drive = skidl.POWER
            for ref, pin in ends:
                net += parts[ref][circuits.Part.pin(b.part(ref), pin).num]
            if len(ends) == 1 and circuits.open_on_purpose(b, name):
                net.do_erc = False
                for ref, pin in ends:
                    parts[ref][circuits.Part.pin(b.part(ref), pin).num].do_erc = False
        from skidl.logger import erc_logger
        erc_logger.error.reset()
        erc_logger.warning.reset()
        circuit.ERC()
        errors, warnings = erc_logger.error.count, erc_logger.warning.count   # SKiDL prints each one
        circuit.generate_netlist(tool=skidl.KICAD8, do_backup=False, file_=str(out / f"{b.name}.net"))
    return errors, warnings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE.parent / "build")
    parser.add_argument("--no-skidl", action="store_true", help="only the netlists' own checks and the BOMs")
    args = parser.parse_args(argv)
    args.out = args.out.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    failed = False
    report = []
    for b in circuits.boards():
        found = circuits.problems(b)
        for problem in found:
            print(f"netlist: {problem}", file=sys.stderr)
        failed |= bool(found)
        (args.out / f"{b.name}-bom.csv").write_text(bom_csv(b), encoding="utf-8")
        if args.no_skidl:
            continue
        cwd = Path.cwd()
        os.chdir(args.out)        # SKiDL writes its own logs beside the netlist, not in the work tree
        try:
            errors, warnings = skidl_check(b, args.out)
        finally:
            os.chdir(cwd)
        line = f"{b.name}: {len(b.parts)} parts, {len(b.nets)} nets; ERC {errors} errors, {warnings} warnings"
        print(line)
        report.append(line)
        failed |= errors > 0
    (args.out / "antenna.txt").write_text(antenna.report() + "\n", encoding="utf-8")
    if report:
        (args.out / "erc.txt").write_text("\n".join(report) + "\n", encoding="utf-8")
    print(f"outputs in {args.out}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
