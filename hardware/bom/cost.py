"""What a table and a club cost, from the machine-readable BOM ``hardware/bom/table.csv``.

Run with ``python hardware/bom/cost.py [--tables 10] [--with 3uk] [--csv PATH]``. Prints
the cost of one table and of a club of ``--tables`` tables (each table's lines times the
tables, plus the club's lines once). A line whose ``replaces`` names another line is an
alternative, counted only when chosen with ``--with`` (a UK plug: ``--with 3uk``; a Pi 5:
``--with 1b``). ``unit_eur`` may be ``board:<name>``: the sum of that board's parts in
``hardware/electronics/circuits.py`` (printed copper counts nothing), so the BOM and the
boards cannot drift apart. ``price_basis`` says where each price comes from: ``list price seen on
<YYYY-MM-DD> at <distributor>`` when one was seen, otherwise ``estimate ...``; nothing else is
accepted, so no price passes for a quote it is not.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "electronics"))

COLUMNS = ("id", "part", "maker", "mpn", "second_source", "per", "qty", "unit_eur", "price_basis", "replaces", "where",
           "note")
SEEN = re.compile(r"list price seen on \d{4}-\d{2}-\d{2} at \S")
"""A price read off a distributor's listing: its date and the distributor."""


def price_basis_ok(basis: str) -> bool:
    """A price is either seen at a distributor on a date, or honestly an estimate."""
    return basis.startswith("estimate") or SEEN.match(basis) is not None


@dataclass(frozen=True)
class Line:
    id: str
    part: str
    mpn: str
    per: str
    qty: int
    unit_eur: float
    replaces: str


@dataclass(frozen=True)
class Cost:
    table: float
    club_lines: float
    tables: int

    @property
    def club(self) -> float:
        return round(self.table * self.tables + self.club_lines, 2)


def board_price(name: str) -> float:
    """The parts of one board of circuits.py, at their unit prices."""
    import circuits
    for b in circuits.boards():
        if b.name == name:
            return round(sum(p.price_eur for p in b.parts if p.fit != "pcb"), 2)
    raise ValueError(f"no board {name!r} in hardware/electronics/circuits.py")


def read(path: Path) -> list[Line]:
    """The BOM's lines; a line that cannot be counted is an error naming its row."""
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if tuple(reader.fieldnames or ()) != COLUMNS:
            raise ValueError(f"{path.name}: columns must be {', '.join(COLUMNS)}")
        lines = []
        for row_number, row in enumerate(reader, start=2):
            where = f"{path.name} row {row_number} (line {row['id']!r})"
            if row["per"] not in ("table", "club"):
                raise ValueError(f"{where}: per must be table or club, not {row['per']!r}")
            try:
                qty = int(row["qty"])
                price = row["unit_eur"]
                unit = board_price(price.removeprefix("board:")) if price.startswith("board:") else float(price)
            except ValueError as e:
                raise ValueError(f"{where}: {e}") from None
            if qty < 0 or unit < 0:
                raise ValueError(f"{where}: a negative quantity or price")
            if not price_basis_ok(row["price_basis"]):
                raise ValueError(f"{where}: price_basis must be 'list price seen on YYYY-MM-DD at <distributor>' "
                                 f"or start with 'estimate', not {row['price_basis']!r}")
            lines.append(Line(row["id"], row["part"], row["mpn"], row["per"], qty, unit, row["replaces"]))
    ids = [line.id for line in lines]
    for line in lines:
        if ids.count(line.id) > 1:
            raise ValueError(f"{path.name}: line {line.id} twice")
        if line.replaces and line.replaces not in ids:
            raise ValueError(f"{path.name}: line {line.id} replaces {line.replaces}, which is not a line")
    return lines


def chosen(lines: list[Line], options: tuple[str, ...] = ()) -> list[Line]:
    """The lines counted: every line but the alternatives, with the alternatives in ``options`` swapped in."""
    by_id = {line.id: line for line in lines}
    for option in options:
        if option not in by_id or not by_id[option].replaces:
            raise ValueError(f"{option!r} is not an alternative line of the BOM")
    replaced = {by_id[o].replaces for o in options}
    return [line for line in lines
            if (not line.replaces and line.id not in replaced) or line.id in options]


def cost(lines: list[Line], tables: int = 10, options: tuple[str, ...] = ()) -> Cost:
    if tables < 1:
        raise ValueError("a club has at least one table")
    counted = chosen(lines, options)
    table = round(sum(line.qty * line.unit_eur for line in counted if line.per == "table"), 2)
    club = round(sum(line.qty * line.unit_eur for line in counted if line.per == "club"), 2)
    return Cost(table, club, tables)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--csv", type=Path, default=HERE / "table.csv")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--with", dest="options", action="append", default=[], help="an alternative line's id")
    args = parser.parse_args(argv)
    try:
        lines = read(args.csv)
        result = cost(lines, args.tables, tuple(args.options))
    except ValueError as e:
        print(f"cost: {e}", file=sys.stderr)
        return 2
    for line in chosen(lines, tuple(args.options)):
        print(f"{line.id:>4} {line.per:5} {line.qty:5} x {line.unit_eur:8.2f} = {line.qty * line.unit_eur:9.2f}  "
              f"{line.part}")
    print(f"one table: {result.table:.2f} EUR")
    print(f"a club of {result.tables} tables (with the club's own lines): {result.club:.2f} EUR")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
