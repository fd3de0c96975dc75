"""The cost of a table and of a club, recomputed from hardware/bom/table.csv (hardware/bom/cost.py)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import circuits
import cost
import pytest

BOM = Path(cost.__file__).with_name("table.csv")
HARDWARE = BOM.parents[1]
CARD_WIDTH_MM = 57.0
"""A bridge card is 57 x 89 mm (hardware/dealing.md)."""


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
    bad.write_text(",".join(cost.COLUMNS) + "\n1,thing,m,p,q,table,two,1.00,estimate,,,\n", encoding="utf-8")
    with pytest.raises(ValueError, match="row 2"):
        cost.read(bad)


def test_the_script_prints_the_costs(capsys: pytest.CaptureFixture[str]) -> None:
    assert cost.main(["--tables", "3"]) == 0
    assert "a club of 3 tables" in capsys.readouterr().out


def _with_row(tmp_path: Path, **changes: str) -> Path:
    """The committed BOM with its first row changed: a file cost.read must judge."""
    rows = _rows()
    rows[0] = {**rows[0], **changes}
    path = tmp_path / "bom.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=cost.COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_every_line_names_a_second_source() -> None:
    missing = [row["id"] for row in _rows() if not row["second_source"].strip()]
    assert missing == []


def test_every_price_says_where_it_comes_from() -> None:
    for row in _rows():
        assert cost.price_basis_ok(row["price_basis"]), (row["id"], row["price_basis"])


@pytest.mark.parametrize("basis", ["", "list price", "list price seen at Farnell", "seen on 2026-11-27 at Farnell",
                                   "list price seen on 27 November at Farnell"])
def test_a_price_neither_seen_on_a_date_at_a_distributor_nor_an_estimate_is_refused(tmp_path: Path,
                                                                                     basis: str) -> None:
    with pytest.raises(ValueError, match=r"row 2.*price_basis"):
        cost.read(_with_row(tmp_path, price_basis=basis))


def test_a_price_seen_on_a_date_at_a_distributor_is_accepted(tmp_path: Path) -> None:
    lines = cost.read(_with_row(tmp_path, price_basis="list price seen on 2026-11-27 at Farnell"))
    assert len(lines) == len(_rows())


def test_the_club_lines_hold_the_room_machine_the_network_and_the_tags() -> None:
    club = " ".join(r["part"] for r in _rows() if r["per"] == "club").lower()
    for part in ("room machine", "router", "switch", "ntag213"):
        assert part in club, part
    table = " ".join(r["part"] for r in _rows() if r["per"] == "table").lower()
    assert "tablet" in table


def test_the_tag_line_names_its_chip_and_a_size_that_fits_a_card() -> None:
    tags = [r for r in _rows() if "tag" in r["part"].lower() and r["per"] == "club"]
    assert len(tags) == 1
    tag = tags[0]
    assert "NTAG213" in tag["maker"] and "NTAG213" in tag["mpn"]
    size = re.search(r"(\d+(?:\.\d+)?) mm round", tag["part"])
    assert size is not None
    diameter = float(size.group(1))
    assert 22.0 <= diameter <= CARD_WIDTH_MM - 2 * 10.0  # no smaller than 22 mm; 10 mm clear of each long edge


def _written(text: str, amount: float) -> bool:
    return f"{amount:,.2f} EUR" in text or f"{amount:.2f} EUR" in text


def test_the_totals_written_in_the_docs_are_the_computed_ones() -> None:
    result = cost.cost(cost.read(BOM), tables=10)
    for page in (HARDWARE / "bom.md", HARDWARE / "bom" / "README.md"):
        text = page.read_text(encoding="utf-8")
        assert _written(text, result.table), (page.name, result.table)
        assert _written(text, result.club), (page.name, result.club)
