"""The SQLite event log: WAL and FULL sync, append-only rows in order, damage never stops start-up."""

from __future__ import annotations

import os
import queue
import shutil
import sqlite3
import stat
import threading
from pathlib import Path

import pytest

from controller.records.eventlog import BadRow, Row, raw_of, raw_to_json
from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth, TagGone, TagSeen
from drivers.sim import SimTable, default_deck
from tablectl.runtime import TableRuntime, TableSetup
from tablectl.store import EventStore, StoreError, open_reader
from tests.tablectl.test_runtime import TAG, Clock, _setup


def _groups(n: int) -> list[tuple[Row, list[Row]]]:
    return [(Row("raw", float(i), {"button": "director", "seat": "N"}),
             [Row("notice", float(i), {"kind": "board", "detail": f"row {i}"})]) for i in range(n)]


def test_the_log_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "t.sqlite")
    try:
        assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    finally:
        store.close()
    other = sqlite3.connect(tmp_path / "t.sqlite")
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # persistent in the file
    other.close()


def test_the_log_and_its_wal_and_shm_are_readable_by_the_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)  # the usual umask, which makes new files world-readable
    try:
        store = EventStore.open(tmp_path / "t.sqlite")
    finally:
        os.umask(old)
    try:
        store.append(_groups(3))
        files = [tmp_path / name for name in ("t.sqlite", "t.sqlite-wal", "t.sqlite-shm")]
        assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in files} == {p.name: 0o600 for p in files}
    finally:
        store.close()
    assert stat.S_IMODE((tmp_path / "t.sqlite").stat().st_mode) == 0o600


def test_rows_come_back_in_order_with_their_input(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "t.sqlite")
    rows = store.append(_groups(3))
    store.close()
    again = list(EventStore.open(tmp_path / "t.sqlite").read())
    assert [r.seq for r in again] == [1, 2, 3, 4, 5, 6] == [r.seq for r in rows]
    assert all(isinstance(r, Row) for r in again)
    assert [(r.kind, r.input) for r in again if isinstance(r, Row)] == [
        ("raw", 1), ("notice", 1), ("raw", 3), ("notice", 3), ("raw", 5), ("notice", 5)]


def test_raw_events_round_trip_through_json() -> None:
    events = [TagSeen("N.play", "04A1B2C3D4E5F6", 1.5), TagGone("board", "0B000000000001", 2.0),
              ContactChanged("E", "1NT", False, 3.25), ButtonPressed("W", "director", 4.0),
              DeviceHealth("N.unit", False, "unplugged", 5.0)]
    for ev in events:
        assert raw_of(raw_to_json(ev), ev.t) == ev


def test_damaged_rows_are_skipped_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    store = EventStore.open(path)
    store.append(_groups(4))
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE log SET body = '{\"button\": \"director\", \"seat\": \"S\"}' WHERE seq = 3")  # CRC now wrong
    conn.execute("INSERT INTO log VALUES (9, 9, 'raw', 9.0, '{not json', 0)")
    conn.execute("INSERT INTO log VALUES (10, 10, 'bogus', 'x', '{}', 0)")
    conn.commit()
    conn.close()
    rows = list(EventStore.open(path).read())
    bad = [r for r in rows if isinstance(r, BadRow)]
    good = [r for r in rows if isinstance(r, Row)]
    assert [b.seq for b in bad] == [3, 9, 10]
    assert "checksum" in bad[0].error and "row 3" in bad[0].error
    assert [r.seq for r in good] == [1, 2, 4, 5, 6, 7, 8]


def test_a_runtime_starts_on_a_log_with_damaged_rows(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    TableRuntime(path, TableSetup()).stop()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO log VALUES (100, 100, 'raw', 1.0, '{\"tag\": \"seen\"}', 1)")
    conn.commit()
    conn.close()
    rt = TableRuntime(path, TableSetup())
    try:
        assert [b.seq for b in rt.rebuilt.bad] == [100]
        assert rt.engine.table.code.name == "duplicate"  # the session line was rebuilt
    finally:
        rt.stop()


def test_a_torn_wal_tail_loses_only_the_unfinished_transaction(tmp_path: Path) -> None:
    path = tmp_path / "live" / "t.sqlite"
    store = EventStore.open(path)
    for group in _groups(20):
        store.append([group])  # one transaction (and one WAL commit frame) each
    copy = tmp_path / "copy"
    copy.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(str(path) + suffix, copy / ("t.sqlite" + suffix))
    store.close()
    wal = copy / "t.sqlite-wal"
    size = wal.stat().st_size
    assert size > 0
    with open(wal, "r+b") as f:
        f.truncate(size - 100)  # the power went while the last frame was being written
    rows = list(EventStore.open(copy / "t.sqlite").read())
    assert all(isinstance(r, Row) for r in rows)
    seqs = [r.seq for r in rows]
    assert seqs == list(range(1, len(seqs) + 1))  # a prefix of what was written
    assert 0 < len(seqs) < 40


def test_a_file_that_is_not_a_database_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    path.write_bytes(b"this is not SQLite at all" * 100)
    store = EventStore.open(path)
    try:
        assert list(store.read()) == []
        assert [p.name for p in tmp_path.iterdir() if ".damaged-" in p.name]
    finally:
        store.close()


def test_a_log_is_given_one_session_id_when_it_is_created(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "t.sqlite")
    session_id = store.session_id
    assert len(session_id) == 16 and int(session_id, 16) >= 0
    assert store.meta()["session_id"] == session_id
    store.close()
    again = EventStore.open(tmp_path / "t.sqlite")
    assert again.session_id == session_id  # written durably, made once
    again.close()
    other = EventStore.open(tmp_path / "other.sqlite")
    assert other.session_id != session_id
    other.close()


def test_a_log_without_a_session_id_is_given_one(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    EventStore.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM meta WHERE key = 'session_id'")
    conn.commit()
    conn.close()
    store = EventStore.open(path)
    try:
        assert store.session_id and store.meta()["session_id"] == store.session_id
    finally:
        store.close()


def test_a_reader_in_another_thread_reads_each_commit_while_the_store_writes(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    store = EventStore.open(path)
    reader = open_reader(path)
    commits: queue.SimpleQueue[int | None] = queue.SimpleQueue()
    done: queue.SimpleQueue[int] = queue.SimpleQueue()
    seen: list[Row | BadRow] = []
    last: list[int] = []

    def read() -> None:
        while commits.get() is not None:
            while batch := reader.rows_after(seen[-1].seq if seen else 0, limit=3):
                assert len(batch) <= 3
                seen.extend(batch)
            last.append(reader.last_seq())
            done.put(len(seen))

    thread = threading.Thread(target=read)
    thread.start()
    try:
        for group in _groups(5):
            store.append([group])
            commits.put(store.last_seq)
            assert done.get(timeout=10) == store.last_seq
        commits.put(None)
        thread.join(10)
        assert not thread.is_alive()
        assert [r.seq for r in seen] == list(range(1, 11))
        assert seen == list(store.read())
        assert last == [2, 4, 6, 8, 10]  # each commit was visible as soon as append returned
        assert reader.rows_after(8) == seen[8:] and reader.rows_after(10) == []
        assert reader.session_id == store.session_id
        with pytest.raises(sqlite3.OperationalError):  # read-only
            reader._conn.execute("DELETE FROM log")
    finally:
        reader.close()
        store.close()


def test_a_reader_reports_damaged_rows(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    store = EventStore.open(path)
    store.append(_groups(2))
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE log SET t = 7.5 WHERE seq = 2")
    conn.commit()
    conn.close()
    with open_reader(path) as reader:
        rows = reader.rows_after(0)
    assert [type(r) for r in rows] == [Row, BadRow, Row, Row]
    assert isinstance(rows[1], BadRow) and "checksum" in rows[1].error and "row 2" in rows[1].error


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in directory.iterdir()}


def test_a_snapshot_reader_changes_nothing_beside_a_closed_log(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    store = EventStore.open(path)
    store.append(_groups(3))
    store.close()
    before = _files(tmp_path)
    assert sorted(before) == ["t.sqlite", "t.sqlite.hwm"]  # the log and its high-water mark
    with open_reader(path, snapshot=True) as reader:
        assert [r.seq for r in reader.rows_after(0)] == [1, 2, 3, 4, 5, 6]
        assert reader.meta()["session_id"]
    assert _files(tmp_path) == before  # no -wal, no -shm, not a byte changed


def test_a_snapshot_reader_reads_the_wal_left_by_a_power_cut(tmp_path: Path) -> None:
    path = tmp_path / "live" / "t.sqlite"
    store = EventStore.open(path)
    for group in _groups(4):
        store.append([group])
    copy = tmp_path / "copy"
    copy.mkdir()
    for suffix in ("", "-wal"):  # as a power cut leaves it: the last commits only in the -wal
        shutil.copy(str(path) + suffix, copy / ("t.sqlite" + suffix))
    store.close()
    before = _files(copy)
    with open_reader(copy / "t.sqlite", snapshot=True) as reader:
        assert [r.seq for r in reader.rows_after(0)] == list(range(1, 9))
        assert reader.last_seq() == 8
    assert _files(copy) == before  # read from a private copy: no -shm made, the -wal untouched


def test_a_reader_refuses_what_is_not_a_table_log(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no such file"):
        open_reader(tmp_path / "missing.sqlite")
    (tmp_path / "junk.sqlite").write_bytes(b"this is not SQLite at all" * 100)
    with pytest.raises(StoreError):
        open_reader(tmp_path / "junk.sqlite", snapshot=True)
    other = sqlite3.connect(tmp_path / "other.sqlite")
    other.execute("CREATE TABLE t (x)")
    other.close()
    with pytest.raises(StoreError, match="not a table log"):
        open_reader(tmp_path / "other.sqlite", snapshot=True)


def _played_log(path: Path, presses: int = 4) -> None:
    """A log written by the real runtime: the session line, a board, calls of the director."""
    clock = Clock()
    rt = TableRuntime(path, _setup(), monotonic=clock)
    sim = SimTable(default_deck(), rt.clock)
    rt.start([sim])
    sim.present(TAG, "board")
    for i in range(presses):
        clock.now += 1
        sim.press("NESW"[i % 4])
        assert rt.sync(5)
    rt.stop()


def test_a_row_whose_text_is_not_utf8_is_reported_and_skipped_and_the_table_starts(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "table.sqlite"
    _played_log(path)
    before = list(EventStore.open(path).read())
    inputs = [r.seq for r in before if isinstance(r, Row) and r.is_input]
    presses = [r.seq for r in before if isinstance(r, Row) and r.kind == "raw" and "button" in r.body]
    assert all(isinstance(r, Row) for r in before) and len(presses) == 4
    damaged = presses[1]
    conn = sqlite3.connect(path)
    conn.execute("UPDATE log SET body = CAST(X'7B2262757474FF6F6E223A22646972656374C3'||X'28' AS TEXT) "
                 "WHERE seq = ?", (damaged,))
    conn.execute("UPDATE meta SET value = CAST(X'22323032FE22' AS TEXT) WHERE key = 'created'")
    conn.commit()
    conn.close()
    rt = TableRuntime(path, _setup())
    try:
        assert [b.seq for b in rt.rebuilt.bad] == [damaged]
        assert "UTF-8" in rt.rebuilt.bad[0].error and f"row {damaged}" in rt.rebuilt.bad[0].error
        assert rt.rebuilt.inputs == len(inputs) - 1  # every other input kept
        assert rt.engine.table.board is not None and rt.engine.table.board.number == 1
        assert "created" not in rt.store.meta() and rt.store.meta()["session_id"]
    finally:
        rt.stop()
    assert any(f"row {damaged}" in r.getMessage() and "UTF-8" in r.getMessage() for r in caplog.records)
    with open_reader(path, snapshot=True) as reader:  # tablectl replay and the room's link read it too
        rows = reader.rows_after(0)
    assert [r.seq for r in rows if isinstance(r, BadRow)] == [damaged]


@pytest.mark.parametrize("where", [1800, 0], ids=["cells", "page-header"])
def test_a_malformed_log_keeps_every_readable_row_and_the_damaged_file_is_kept_aside(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, where: int) -> None:
    path = tmp_path / "t.sqlite"
    _played_log(path, presses=400)
    store = EventStore.open(path)
    original = {r.seq: r for r in store.read()}
    session_id = store.session_id
    store.close()
    assert len(original) > 1000 and all(isinstance(r, Row) for r in original.values())
    page_size = 4096
    pages = path.stat().st_size // page_size
    assert pages > 10
    with open(path, "r+b") as f:  # a bad sector in a page of rows: SQLite finds the file malformed
        f.seek((pages * 2 // 3) * page_size + where)
        f.write(b"\xff" * 400)
    damaged = path.read_bytes()
    check = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError, match="malformed"):
        check.execute("SELECT * FROM log").fetchall()
    check.close()

    rt = TableRuntime(path, _setup())
    try:
        rows = list(rt.store.read())
        kept = [r for r in rows if isinstance(r, Row) and r.seq in original]
        assert not [r for r in rows if isinstance(r, BadRow)]
        assert 0 < len(original) - len(kept) <= 100  # the rows of one page, no more
        assert all(original[r.seq] == r for r in kept)
        note = next(r for r in rows if isinstance(r, Row) and "salvaged" in r.body).body["salvaged"]
        assert note["kept"] == len(kept) and note["lost"] == str(len(original) - len(kept))
        assert rt.rebuilt.inputs == sum(1 for r in kept if r.is_input)
        assert rt.store.session_id == session_id
        assert rt.store.last_seq > max(original)  # new rows never take a seq the room may have had
        assert rt.store._conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    finally:
        rt.stop()
    aside = [p for p in tmp_path.iterdir() if ".damaged-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    assert len(aside) == 1 and aside[0].read_bytes() == damaged  # kept for inspection, as it was
    reports = [r.getMessage() for r in caplog.records if r.levelname == "ERROR" and "is damaged" in r.getMessage()]
    assert len(reports) == 1 and f"{len(kept)} row(s) kept" in reports[0]
    assert f"{len(original) - len(kept)} row(s) lost" in reports[0] and aside[0].name in reports[0]
    with open_reader(aside[0], snapshot=True) as reader:  # tablectl replay of the damaged file: what it can
        again = reader.rows_after(0)
    assert [r for r in again if isinstance(r, Row)] == kept
    assert {r.seq for r in again if isinstance(r, BadRow)} == set(original) - {r.seq for r in kept}


def test_a_log_whose_last_page_is_damaged_goes_on_above_any_row_it_may_have_held(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    store = EventStore.open(path)
    store.append(_groups(300))
    store.close()
    size = path.stat().st_size
    with open(path, "r+b") as f:  # the page that holds the last rows: SQLite cannot tell the last seq
        f.seek(size - 4096)
        f.write(b"\xff" * 64)
    store = EventStore.open(path)
    try:
        rows = list(store.read())
        kept = [r.seq for r in rows if isinstance(r, Row) and r.kind != "run"]
        assert kept == list(range(1, len(kept) + 1)) and 400 < len(kept) < 600
        assert store.last_seq > 600
        assert rows[-1].body["salvaged"]["lost"] == "1 or more"  # type: ignore[union-attr]
        assert store.append(_groups(1))[0].seq == store.last_seq - 1 > 600
    finally:
        store.close()
