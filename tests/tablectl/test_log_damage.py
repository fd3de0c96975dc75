"""A damaged log never loses acknowledged inputs silently: the high-water mark beside it tells.

SQLite drops every WAL frame after one whose checksum fails, and a deleted WAL or a database
file cut to nothing takes every commit since the last checkpoint with it; the log then opens
clean with rows missing. Each test plays some of a board on a running table, takes the files
as a power cut leaves them (the commits in the WAL, the high-water mark beside), damages
them, and starts a table on them: it must start, say on the arbiter's page and in an
``alert`` row for the room how many acknowledged inputs were lost and since which ``seq``,
say it once, and go on above every ``seq`` the room may hold.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.records.eventlog import Row
from drivers.sim import SimTable, default_deck
from tablectl.runtime import TableRuntime
from tablectl.store import EventStore
from tests.tablectl.test_runtime import TAG, Clock, _call, _setup

WAL_HEADER, FRAME_HEADER, PAGE = 32, 24, 4096


def _rows(path: Path) -> list[Row]:
    store = EventStore.open(path)
    try:
        return [r for r in store.read() if isinstance(r, Row)]
    finally:
        store.close()


def _power_cut(tmp_path: Path, calls: tuple[tuple[str, str], ...]) -> tuple[Path, list[Row], str]:
    """Start a board and make ``calls`` on a running table, then copy its files as a power cut
    leaves them. Returns the copy's log, the rows the table had committed when it acknowledged
    its last input, and the session."""
    clock = Clock()
    live = tmp_path / "live" / "table.sqlite"
    rt = TableRuntime(live, _setup(), monotonic=clock)
    sim = SimTable(default_deck(), rt.clock)
    rt.start([sim])
    sim.present(TAG, "board")
    assert rt.sync(5)
    for slot, seat in calls:
        _call(rt, sim, clock, slot, seat)
    last = rt.store.last_seq
    session = rt.store.session_id
    crash = tmp_path / "crash"
    crash.mkdir()
    for suffix in ("", "-wal", ".hwm"):
        if Path(f"{live}{suffix}").exists():
            shutil.copy(f"{live}{suffix}", crash / f"table.sqlite{suffix}")
    rt.stop()
    rows = [r for r in _rows(live) if r.seq <= last]
    return crash / "table.sqlite", rows, session


AUCTION = (("1NT", "N"), ("Pass", "E"), ("3NT", "S"), ("Pass", "W"), ("Pass", "N"))


def _flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x55
    path.write_bytes(bytes(data))


def _frame(n: int) -> int:
    """An offset in the page of the ``n``-th frame (from 0) of a WAL."""
    return WAL_HEADER + n * (FRAME_HEADER + PAGE) + FRAME_HEADER + 100


def _cut(path: Path, keep: Callable[[int], int]) -> None:
    with path.open("r+b") as f:
        f.truncate(keep(path.stat().st_size))


def _frames(wal: Path) -> int:
    return (wal.stat().st_size - WAL_HEADER) // (FRAME_HEADER + PAGE)


LOSSES: dict[str, Callable[[Path], None]] = {
    "the WAL deleted": lambda db: Path(f"{db}-wal").unlink(),
    "the WAL cut to its header": lambda db: _cut(Path(f"{db}-wal"), lambda size: WAL_HEADER),
    "the WAL cut in the middle of its frames": lambda db: _cut(
        Path(f"{db}-wal"), lambda size: _frame(_frames(Path(f"{db}-wal")) // 2)),
}
"""Damages that take acknowledged rows away for good: they must be told."""
RECOVERED: dict[str, Callable[[Path], None]] = {
    "a byte of the first WAL frame flipped": lambda db: _flip(Path(f"{db}-wal"), _frame(0)),
    "a byte of a WAL frame mid-file flipped": lambda db: _flip(Path(f"{db}-wal"),
                                                                _frame(_frames(Path(f"{db}-wal")) // 2)),
    "the database cut to nothing": lambda db: db.write_bytes(b""),
    "the database deleted": lambda db: db.unlink(),
}
"""Damages after which SQLite reads less than the files hold (it stops at the first bad frame;
it deletes a WAL beside an empty database): the rows are read again, and nothing is lost."""
DAMAGES = {**LOSSES, **RECOVERED}


@pytest.mark.parametrize("damage", list(LOSSES))
def test_inputs_lost_to_a_damaged_log_are_told_to_the_arbiter_and_the_room_once(tmp_path: Path, damage: str) -> None:
    db, acknowledged, session = _power_cut(tmp_path, AUCTION)
    DAMAGES[damage](db)

    rt = TableRuntime(db, _setup())
    try:
        rt.start()
        assert rt.sync(5)  # the table starts and runs
        held = {r.seq: r for r in rt.store.read() if isinstance(r, Row)}
        lost = [r for r in acknowledged if held.get(r.seq) != r]
        lost_inputs = [r for r in lost if r.is_input]
        assert lost_inputs, "every damage here loses inputs"
        # the arbiter's page says it, in numbers
        told = [n.detail for n in rt.snapshot().notices if str(n.kind) == "log_damaged"]
        assert told, "the loss is not on the arbiter's page"
        assert f"{len(lost_inputs)} acknowledged input(s) lost since seq {lost[0].seq}" in told[-1]
        # and so does an alert row, which the club-room link publishes
        alerts = [r for r in held.values() if r.kind == "alert" and r.body.get("alert") == "log_damaged"]
        assert len(alerts) == 1
        body = alerts[0].body
        assert body["alarm"] is True and body["lost_inputs"] == len(lost_inputs) and body["since"] == lost[0].seq
        assert body["what"] == told[-1]
        assert alerts[0].seq > acknowledged[-1].seq  # above every seq the room may hold of this session
        assert rt.store.session_id == session  # the same session goes on
        assert rt.loss is not None and rt.loss.lost_inputs == len(lost_inputs)
    finally:
        rt.stop()

    again = TableRuntime(db, _setup())  # told once: a restart tells no new loss, and still shows it
    try:
        assert again.loss is None
        assert [n.detail for n in again.snapshot().notices if str(n.kind) == "log_damaged"] == told[-1:]
        assert sum(1 for r in again.store.read() if isinstance(r, Row) and r.kind == "alert"
                   and r.body.get("alert") == "log_damaged") == 1
    finally:
        again.stop()


@pytest.mark.parametrize("damage", list(RECOVERED))
def test_rows_sqlite_cannot_read_are_read_again_and_nothing_acknowledged_is_lost(
        tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture) -> None:
    db, acknowledged, session = _power_cut(tmp_path, AUCTION)
    DAMAGES[damage](db)
    damaged = Path(f"{db}-wal").read_bytes()
    rt = TableRuntime(db, _setup())
    try:
        held = {r.seq: r for r in rt.store.read() if isinstance(r, Row)}
        assert [r.seq for r in acknowledged if held.get(r.seq) != r] == []
        assert rt.loss is None and rt.store.session_id == session
        assert not [n for n in rt.snapshot().notices if str(n.kind) == "log_damaged"]
        assert rt.rebuilt.mismatches == [] and rt.rebuilt.bad == []
        assert rt.store.recovered > 0 and rt.store.kept is not None
        assert Path(f"{rt.store.kept}-wal").read_bytes() == damaged  # kept as SQLite found it, before writing
        assert any("read again" in r.getMessage() and r.levelname == "ERROR" for r in caplog.records)
    finally:
        rt.stop()


def test_a_power_cut_without_damage_tells_nothing_and_keeps_no_copy(tmp_path: Path) -> None:
    db, acknowledged, _session = _power_cut(tmp_path, AUCTION)
    rt = TableRuntime(db, _setup())
    try:
        assert rt.loss is None
        assert not [n for n in rt.snapshot().notices if str(n.kind) == "log_damaged"]
        held = {r.seq: r for r in rt.store.read() if isinstance(r, Row)}
        assert all(held.get(r.seq) == r for r in acknowledged)
        assert not [p for p in db.parent.iterdir() if ".damaged-" in p.name]
    finally:
        rt.stop()


def test_a_torn_mark_falls_back_on_the_other_slot_and_a_lost_mark_is_said(tmp_path: Path) -> None:
    from tablectl.highwater import mark_path, read_mark

    db, _acknowledged, _session = _power_cut(tmp_path, AUCTION)
    mark, problem = read_mark(db)
    assert mark is not None and problem is None
    hwm = mark_path(db)
    data = bytearray(hwm.read_bytes())
    newest = 0 if data[:512].find(f'"seq": {mark.seq},'.encode()) >= 0 else 512
    data[newest + 40] ^= 0x01  # the slot written last is torn: the one before holds the mark of the commit before
    hwm.write_bytes(bytes(data))
    older, problem = read_mark(db)
    assert problem is None and older is not None and older.seq < mark.seq
    rt = TableRuntime(db, _setup())
    try:
        assert rt.loss is None
    finally:
        rt.stop()

    hwm.write_bytes(b"\0" * 1024)  # both slots gone: the check cannot be made, and the arbiter is told so
    rt = TableRuntime(db, _setup())
    try:
        assert rt.loss is None
        [notice] = [n for n in rt.snapshot().notices if str(n.kind) == "log_damaged"]
        assert "cannot be told" in notice.detail
    finally:
        rt.stop()
    mark, problem = read_mark(db)
    assert mark is not None and problem is None  # written again at the next commit


def test_a_finished_board_is_checkpointed_so_a_lost_wal_keeps_it(tmp_path: Path) -> None:
    passed_out = (("Pass", "N"), ("Pass", "E"), ("Pass", "S"), ("Pass", "W"))
    db, acknowledged, _session = _power_cut(tmp_path, passed_out)
    Path(f"{db}-wal").unlink()
    rt = TableRuntime(db, _setup())
    try:
        assert [b.board.number for b in rt.engine.table.boards] == [1]  # in the database file itself
        result = next(r.seq for r in acknowledged if r.kind == "result")
        held = {r.seq for r in rt.store.read() if isinstance(r, Row)}
        assert all(r.seq in held for r in acknowledged if r.seq <= result)
        # what came after the board's end (the last pass card put back) was in the WAL only: told
        assert rt.loss is not None and rt.loss.since > result
    finally:
        rt.stop()


def test_a_new_session_takes_the_old_mark_aside_with_its_log(tmp_path: Path) -> None:
    from tablectl.serve import _open_runtime

    db, _acknowledged, session = _power_cut(tmp_path, AUCTION)
    rt = _open_runtime(db.parent, _setup(), True)
    try:
        assert rt.loss is None and rt.store.session_id != session
        assert not [n for n in rt.snapshot().notices if str(n.kind) == "log_damaged"]
        archived = sorted(p.name for p in db.parent.glob("table-*"))
        assert [name for name in archived if name.endswith(".sqlite.hwm")], archived
    finally:
        rt.stop()
