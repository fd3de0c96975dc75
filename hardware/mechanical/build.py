"""`make hardware`, mechanical: the parts' STL (to print), STEP and DXF (to cut), and their fit check.

Run with the CAD tools' Python (``make hardware`` makes ``.cache/cad-venv`` with the
versions of ``hardware/mechanical/requirements.txt``)::

    .cache/cad-venv/bin/python hardware/mechanical/build.py [--out hardware/build/mechanical] [--toml FILE]

The fit check places what goes into each part and measures the volume of every
intersection (build123d booleans on OpenCASCADE solids): the 35 bid cards with their
magnets in the rack, the reeds under its floor, the stack pockets' cards, the seat unit's
board with its parts' envelope in its case, the lid on the case, a reader module in the
pocket of a table top and on its cradle. Any intersection over ``TOLERANCE_MM3``, a board
closer than its clearance to the case's wall, a card not standing on its floor, or a
reader further from the cloth than it reads through, is a failure: the script prints it in
``fit.txt`` and exits 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import magnetics  # noqa: E402
import parts  # noqa: E402
from build123d import ExportDXF, Part, Plane, Pos, export_step, export_stl, section  # noqa: E402

TOLERANCE_MM3 = 1e-3


def overlap(a: Part, b: Part) -> float:
    common = a & b
    return float(common.volume) if common is not None else 0.0


def checks(src: parts.Source) -> list[tuple[str, bool, str]]:
    """(what, passed, figure) for every fit rule."""
    out: list[tuple[str, bool, str]] = []

    def none_between(what: str, a: Part, bs: list[Part]) -> None:
        worst = max((overlap(a, b) for b in bs), default=0.0)
        out.append((what, worst <= TOLERANCE_MM3, f"largest overlap {worst:.4f} mm3"))

    rack, bottom, holder = parts.bid_rack(src), parts.rack_bottom(src), parts.front_holder(src)
    cards, reeds = parts.cards(src), parts.reeds(src)
    none_between(f"{len(cards)} bid cards with their magnets in the rack's slots", rack, cards)
    none_between(f"{len(reeds)} reeds under the rack's floor", rack, reeds)
    none_between("the reeds clear of the bottom plate", bottom, reeds)
    none_between("the bottom plate under the rack", rack, [bottom])
    lowest = min(float(c.bounding_box().min.Z) for c in cards)
    out.append(("every bid card stands on the floor", abs(lowest) < 1e-6, f"lowest card foot z = {lowest:.3f}"))
    gaps = [float(cards[i + 1].bounding_box().min.Y - cards[i].bounding_box().max.Y) for i in range(len(cards) - 1)]
    out.append(("the cards clear of each other", min(gaps) > 0, f"closest {min(gaps):.2f} mm"))
    none_between("the stack pockets' and Stop/Alert cards in the front holder", holder, parts.front_cards(src))

    base, lid, board = parts.case_base(src), parts.case_lid(src), parts.seat_board(src)
    none_between("the seat unit's board and its parts in the case", base, [board])
    none_between("the board under the lid", lid, [board])
    none_between("the lid on the case", base, [lid])
    e = src["enclosure"]
    inner = (e["wall"], e["wall"], parts.case_outer(src)[0] - e["wall"], parts.case_outer(src)[1] - e["wall"])
    bb = board.bounding_box()
    margin = min(bb.min.X - inner[0], bb.min.Y - inner[1], inner[2] - bb.max.X, inner[3] - bb.max.Y)
    out.append(("the board's edge clear of the case's walls", margin >= e["clearance"] - 1e-6,
                f"{margin:.2f} mm (wanted {e['clearance']:g})"))
    ceiling = parts.case_outer(src)[2] - parts.LIP
    out.append(("the tallest part under the lid's lip", ceiling + 1e-6 >= bb.max.Z,
                f"{ceiling - bb.max.Z:.2f} mm to spare"))

    t = src["table"]
    top, module, cradle = parts.table_top(src), parts.reader_module(src), parts.reader_cradle(src)
    none_between("the reader module in its pocket", top, [module])
    none_between("the reader module on its cradle", cradle, [module])
    none_between("the cradle under the table top", top, [cradle])
    over = -float(module.bounding_box().max.Z) + t["cloth"]
    out.append((f"wood and cloth over the antenna, top {t['top_thickness']:g} mm", over <= t["max_over_antenna"] + 1e-6,
                f"{over:.1f} mm (at most {t['max_over_antenna']:g})"))
    return out


def export(src: parts.Source, out: Path) -> list[str]:
    written = []
    for name, shape in parts.all_parts(src).items():
        export_stl(shape, out / f"{name}.stl", tolerance=0.01)
        export_step(shape, out / f"{name}.step")
        written += [f"{name}.stl", f"{name}.step"]
    bottom = parts.rack_bottom(src)
    flat = {"rack-bottom": (bottom, float(bottom.bounding_box().center().Z)),        # cut from 2 mm sheet
            "reader-pocket": (parts.table_top(src), -float(src["table"]["top_thickness"]) + 0.5)}  # routing outline
    for name, (shape, z) in flat.items():
        dxf = ExportDXF()
        dxf.add_layer("cut")
        dxf.add_shape(section(Pos(0, 0, -z) * shape, Plane.XY), layer="cut")
        dxf.write(out / f"{name}.dxf")
        written.append(f"{name}.dxf")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE.parent / "build" / "mechanical")
    parser.add_argument("--toml", type=Path, default=parts.TOML, help="the sizes (diagrams.toml)")
    parser.add_argument("--no-export", action="store_true", help="only the fit check")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        src = parts.load(args.toml)
    except ValueError as e:
        print(f"mechanical: {e}", file=sys.stderr)
        return 1
    lines = [magnetics.report(src.rack), "", "Fit check (hardware/mechanical/build.py)"]
    failed = False
    for what, ok, figure in checks(src):
        lines.append(f"  {'ok  ' if ok else 'FAIL'} {what}: {figure}")
        failed |= not ok
    ow, od, oh = parts.case_outer(src)
    lines += ["", f"Seat unit case: {ow:.1f} x {od:.1f} x {oh + src['enclosure']['lid']:.1f} mm outside (lid on), "
              f"for a {src['seat_unit_board']['width']:g} x {src['seat_unit_board']['height']:g} mm board",
              f"Bid rack: {parts.inner_width(src) + 2 * parts.RACK_SIDE:.1f} x {parts.rack_depth(src):.1f} mm; "
              f"front holder {parts.holder_depth(src):.1f} mm deep",
              f"Reader pocket under a {src['table']['top_thickness']:g} mm top: {parts.pocket_depth(src):.1f} mm deep, "
              f"{parts.pocket_outline(src)[0]:g} x {parts.pocket_outline(src)[1]:g} mm"]
    if not args.no_export:
        lines += ["", "Files: " + " ".join(export(src, args.out))]
    text = "\n".join(lines)
    (args.out / "fit.txt").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
