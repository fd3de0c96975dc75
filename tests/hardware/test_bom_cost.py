"""The cost of a table and of a club, recomputed from hardware/bom/table.csv (hardware/bom/cost.py)."""

from __future__ import annotations

import csv
from pathlib import Path

import circuits
import cost
import pytest

BOM = Path(cost.__file__).with_name("table.csv")


def _rows() -> list[dict[str, str]]:
    with BOM.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_the_club_costs_its_tables_and_its_own_lines() -> None:
    lines = cost.read(BOM)
    result = cost.cost(lines, tables=10)
    table = sum(x.qty * x.unit_eur for x in lines if x.per == "table" and not x.replaces)
    club = sum(x.qty * x.unit_eur for x in lines if x.per == "club" and not x.replaces)
    assert result.table == pytest.approx(table)
    assert result.club == pytest.approx(10 * table + club)


def test_a_board_line_costs_the_parts_of_that_board() -> None:
    lines = {x.id: x for x in cost.read(BOM)}
    seat = circuits.seat_unit()
    assert lines["6"].unit_eur == pytest.approx(sum(p.price_eur for p in seat.parts if p.fit != "pcb"))


def test_a_uk_plug_replaces_the_eu_supply_and_is_counted_once() -> None:
    lines = cost.read(BOM)
    ids = [x.id for x in cost.chosen(lines, ("3uk",))]
    assert "3uk" in ids and "3" not in ids and "3us" not in ids


def test_every_line_names_a_part_number_and_every_bought_line_a_price() -> None:
    for row in _rows():
        if row["per"] == "table" and row["maker"] not in ("club", "generic"):
            assert row["mpn"], row["id"]
        assert row["unit_eur"], row["id"]


def test_supplies_for_eu_uk_and_us_plugs_are_listed() -> None:
    parts = " ".join(r["part"] for r in _rows())
    for plug in ("EU plug", "UK plug", "US plug"):
        assert plug in parts


def test_an_unknown_alternative_is_refused() -> None:
    with pytest.raises(ValueError, match="not an alternative"):
        cost.chosen(cost.read(BOM), ("3",))


def test_a_bad_row_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bom.csv"
    bad.write_text(",".join(cost.COLUMNS) + "\n1,thing,m,p,,table,two,1.00,,,\n", encoding="utf-8")
    with pytest.raises(ValueError, match="row 2"):
        cost.read(bad)


def test_the_script_prints_the_costs(capsys: pytest.CaptureFixture[str]) -> None:
    assert cost.main(["--tables", "3"]) == 0
    assert "a club of 3 tables" in capsys.readouterr().out
