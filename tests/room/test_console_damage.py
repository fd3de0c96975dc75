"""Fault injection over the console's own file: what the console does with every damage of
``console.sqlite`` (``tablectl.room.console_store``).

Two real tables (``TableRuntime`` and ``TableLink``) play on the real Mosquitto while a console
holds their outboxes, then the console stops. On a fresh copy of its files each time, its
``console.sqlite`` is damaged (one byte flipped, 20 or 200 flipped, the file cut to half, a
garbage header; at offsets drawn from the seed) and a console is started on it.

For every case: the console starts; every row it can read is kept; a file SQLite finds damaged
is set aside and said so (``snapshot()["store"]``); and the console ends holding exactly each
table's outbox, once, the tables sending again what it lacks. ``pytest -s`` prints the table of
cases and outcomes.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

from tablectl.room.console import Console
from tests.room.conftest import Broker
from tests.room.test_link import TAG, Table, _stored, wait

SEED = 20261127
PAGE = 4096


def _flip(path: Path, count: int, rng: random.Random) -> str:
    data = bytearray(path.read_bytes())
    offsets = sorted(rng.randrange(100, len(data)) for _ in range(count))  # past the header: the pages
    for at in offsets:
        data[at] ^= 0xFF
    path.write_bytes(bytes(data))
    return f"{count} byte(s) flipped" + (f" at {offsets[0]}" if count == 1 else "")


def _truncate(path: Path, rng: random.Random) -> str:
    size = path.stat().st_size
    with path.open("r+b") as f:
        f.truncate(size // 2 // PAGE * PAGE)
    return f"cut from {size} to {size // 2 // PAGE * PAGE} bytes"


def _garbage_header(path: Path, rng: random.Random) -> str:
    data = bytearray(path.read_bytes())
    data[:100] = bytes(rng.randrange(256) for _ in range(100))
    path.write_bytes(bytes(data))
    return "header overwritten"


CASES: dict[str, Callable[[Path, random.Random], str]] = {
    "one flip": lambda p, r: _flip(p, 1, r),
    "one flip (2)": lambda p, r: _flip(p, 1, r),
    "20 flips": lambda p, r: _flip(p, 20, r),
    "200 flips": lambda p, r: _flip(p, 200, r),
    "truncated to half": _truncate,
    "garbage header": _garbage_header,
}


def _play_a_board_start(t: Table) -> None:
    t.sim.present(TAG, "board")
    assert t.rt.sync(5)
    for slot, seat in (("1NT", "N"), ("Pass", "E"), ("2C", "S"), ("Pass", "W"), ("2D", "N"), ("Pass", "E")):
        t.call(slot, seat)


def _holds(console: Console, t: Table) -> bool:
    outbox = t.outbox()
    return console.room.acknowledged(t.link.table) == (t.link.session, outbox[-1]) \
        and _stored(console, t.link.table) == outbox


def test_a_damaged_console_file_starts_keeps_what_it_can_says_so_and_ends_with_every_outbox(
        anon_broker: Broker, tmp_path: Path) -> None:
    rng = random.Random(SEED)
    first = Console(anon_broker.address(), tmp_path / "console")
    first.start()
    tables = [Table(tmp_path / f"table-{n}.sqlite", anon_broker.address(), n) for n in ("1", "2")]
    outcomes: list[str] = []
    try:
        for t in tables:
            _play_a_board_start(t)
        wait(lambda: all(_holds(first, t) for t in tables), timeout=30, what="the console to hold both tables")
        first.stop()
        original = tmp_path / "console" / "console.sqlite"
        assert original.stat().st_size > 4 * PAGE  # pages to damage
        rows = sum(len(_stored_at(original, t.link.table)) for t in tables)
        for name, damage in CASES.items():
            where = tmp_path / name.replace(" ", "-")
            shutil.copytree(tmp_path / "console", where)
            did = damage(where / "console.sqlite", rng)
            console = Console(anon_broker.address(), where)  # starts, whatever the damage
            kept = sum(len(_stored(console, t.link.table)) for t in tables)
            store = console.snapshot()["store"]
            console.start()
            try:
                wait(lambda c=console: all(_holds(c, t) for t in tables), timeout=60,  # type: ignore[misc]
                     what=f"the console to hold both outboxes again after: {name}")
            finally:
                console.stop()
            aside = sorted(p.name for p in where.glob("console.sqlite.damaged-*"))
            if store["damaged"] is not None:
                assert aside and store["damaged"]["aside"] == aside[0] and "damaged" in store["damaged"]["what"]
            else:
                assert not aside
            outcomes.append(f"{name:<18} {did:<36} kept {kept:>3}/{rows} rows, "
                            f"{'set aside' if aside else 'in place':<9} unreadable {store['unreadable']}")
        assert any("set aside" in line for line in outcomes)
    finally:
        for t in tables:
            t.stop()
    print("\n" + "\n".join(outcomes))


def _stored_at(path: Path, table: str) -> list[int]:
    conn = sqlite3.connect(str(path))
    try:
        return [int(s) for (s,) in conn.execute("SELECT seq FROM message WHERE table_id = ?", (table,))]
    finally:
        conn.close()


def test_the_directors_desk_entries_outlive_a_damaged_header_law_12(tmp_path: Path) -> None:
    """The Director's corrections and adjusted scores (Laws 12, 79C) exist only in the console's
    file (no table can send them again): a damaged file's salvage keeps them with the rest."""
    from controller.fieldscore.model import Artificial, Award
    from controller.room.adjustments import DeskEntry
    from tablectl.room.console_desk import DeskStore
    from tablectl.room.console_store import ConsoleStore

    path = tmp_path / "console.sqlite"
    ConsoleStore(path).close()
    entries = [DeskEntry(id=n, kind="artificial", board=str(n), table="1", by="director", at=1000.0 + n,
                         reason="a fouled board", award=Artificial(Award.PLUS, Award.MINUS)) for n in (1, 2, 3)]
    desk = DeskStore(path)
    for entry in entries:
        desk.add(entry)
    _garbage_header(path, random.Random(SEED))
    store = ConsoleStore(path)
    try:
        assert store.damaged is not None  # said so, the damaged file set aside
    finally:
        store.close()
    assert DeskStore(path).load() == entries
