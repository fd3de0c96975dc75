"""The running table: one engine thread, log before acknowledging, subscribers, idle blocking, restart."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from controller import actions as a
from controller.calls import Call
from controller.cards import Card
from controller.deal import Deal
from controller.records import tablelog
from controller.records.eventlog import Row
from controller.replay import outcome_json, replay_log
from controller.seats import Seat
from controller.sensing.deck import DeckRegistry
from controller.sensing.events import ContactChanged
from controller.sensing.translate import NoticeKind
from drivers.sim import SimTable, default_deck
from tablectl.runtime import TableRuntime, TableSetup
from tablectl.store import EventStore

DEAL = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
TAG = "0B000000000001"


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Lights:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str, object]] = []

    def set_led(self, seat: str, on: bool) -> None:
        self.calls.append(("led", seat, on))

    def buzz(self, seat: str, milliseconds: int) -> None:
        self.calls.append(("buzz", seat, milliseconds))


def _setup() -> TableSetup:
    return TableSetup(decks=DeckRegistry.from_mapping({"deck1": default_deck()}), deck="deck1",
                      boards={TAG: 1}, hand_record={1: a.BoardStart(1, deal=DEAL)})


@pytest.fixture
def table(tmp_path: Path):  # type: ignore[no-untyped-def]
    clock = Clock()
    lights = Lights()
    rt = TableRuntime(tmp_path / "table.sqlite", _setup(), monotonic=clock, indicator=lights)
    sim = SimTable(default_deck(), rt.clock)
    rt.start([sim])
    rt.sync(5)
    yield rt, sim, clock, lights
    rt.stop()


def _call(rt: TableRuntime, sim: SimTable, clock: Clock, slot: str, seat: str) -> None:
    sim.pull(slot, seat)
    clock.now += 2.0  # past the debounce and the call's confirmation
    assert rt.sync(5)
    if slot in ("Pass", "X", "XX"):
        sim.put_back(slot, seat)
        clock.now += 0.1
        assert rt.sync(5)


def test_board_tag_starts_the_board_with_the_hand_records_deal(table) -> None:  # type: ignore[no-untyped-def]
    rt, sim, _clock, _ = table
    sim.present(TAG, "board")
    assert rt.sync(5)
    board = rt.snapshot().state.board
    assert board is not None and board.number == 1 and board.deal == DEAL


def test_a_finished_board_put_back_on_the_reader_is_not_played_again_law_15a(table) -> None:  # type: ignore[no-untyped-def]
    """Each board is played once at a table: its tag seen again after the board is finished
    starts nothing; the table says why, and the arbiter can still start it himself."""
    rt, sim, clock, _ = table
    sim.present(TAG, "board")
    assert rt.sync(5)
    for seat in "NESW":
        _call(rt, sim, clock, "Pass", seat)
    finished = rt.snapshot().state
    assert finished.board is not None and finished.boards[-1].status == "passed_out"
    sim.remove(TAG, "board")
    clock.now += 1
    assert rt.sync(5)
    sim.present(TAG, "board")
    clock.now += 1
    assert rt.sync(5)
    snap = rt.snapshot()
    assert len(snap.state.boards) == 1 and snap.state.board is finished.board
    assert any("board 1 has been played at this table already" in n.detail for n in snap.notices)
    assert rt.submit(a.BoardStart(1)).rejected is None  # the arbiter's decision
    assert rt.snapshot().state.board is not finished.board


def test_subscribers_hear_of_every_change_after_it_is_logged(table) -> None:  # type: ignore[no-untyped-def]
    rt, sim, clock, _ = table
    heard: list[tuple[int, int]] = []
    unsubscribe = rt.subscribe(lambda seq: heard.append((seq, rt.store.last_seq)))
    logged_before = rt.store.last_seq
    sim.present(TAG, "board")
    assert rt.sync(5)
    assert heard and heard[-1][0] == rt.snapshot().seq
    assert heard[0][1] > logged_before  # the log was written before the callback
    unsubscribe()
    count = len(heard)
    _call(rt, sim, clock, "1NT", "N")
    assert len(heard) == count


def test_submit_is_stamped_logged_and_applied(table) -> None:  # type: ignore[no-untyped-def]
    rt, _sim, clock, _ = table
    clock.now += 5
    before = rt.snapshot().seq
    done = rt.submit(a.BoardStart(1))
    assert done.rejected is None and done.seq > before
    assert rt.snapshot().state.board is not None and rt.snapshot().state.board.deal == DEAL
    rows = [r for r in EventStore.open(rt.store.path).read() if isinstance(r, Row) and r.kind == "action"]
    assert rows[-1].body["source"] == "arbiter" and rows[-1].body["action"]["board"]["number"] == 1
    assert rows[-1].t == pytest.approx(5.0, abs=0.002)


def test_a_refused_action_is_logged_and_changes_nothing(table) -> None:  # type: ignore[no-untyped-def]
    rt, _sim, _clock, _ = table
    snap = rt.snapshot()
    done = rt.submit(a.PlayCard(Seat.N, Card.parse("SA")))
    assert done.rejected is not None and "board" in done.rejected
    after = rt.snapshot()
    assert after.state is snap.state and after.seq == snap.seq == done.seq
    derived = [r for r in EventStore.open(rt.store.path).read() if isinstance(r, Row) and r.kind == "derived"]
    assert "rejected" in derived[-1].body


def test_an_impossible_contact_is_a_notice_and_changes_nothing(table) -> None:  # type: ignore[no-untyped-def]
    rt, sim, _clock, _ = table
    sim.present(TAG, "board")
    assert rt.sync(5)
    state = rt.snapshot().state
    rt.emit(ContactChanged("N", "9Z", False, rt.clock()))
    rt.emit("garbage")  # type: ignore[arg-type]
    assert rt.sync(5)
    snap = rt.snapshot()
    assert snap.state is state
    kinds = [n.kind for n in snap.notices]
    assert NoticeKind.IMPOSSIBLE_CONTACT in kinds and NoticeKind.UNKNOWN_READER in kinds


def test_the_engine_blocks_without_timeout_when_nothing_is_due(table) -> None:  # type: ignore[no-untyped-def]
    rt, sim, clock, _ = table
    assert rt.sync(5) and rt.wait_blocked(5)
    assert rt.last_wait is None
    sim.present(TAG, "board")
    sim.pull("1NT", "N")  # pending: the contact's debounce, then the call's confirmation
    assert rt.sync(5) and rt.wait_blocked(5)
    assert rt.last_wait is not None and 0 < rt.last_wait <= 1.5
    clock.now += 2.0
    assert rt.sync(5) and rt.wait_blocked(5)
    assert rt.last_wait is None
    assert rt.snapshot().state.board.auction.calls == (Call.parse("1NT"),)


def test_submit_from_a_subscriber_is_refused_rather_than_deadlocking(table) -> None:  # type: ignore[no-untyped-def]
    rt, sim, _clock, _ = table
    errors: list[BaseException] = []

    def callback(seq: int) -> None:
        try:
            rt.submit(a.BoardStart(2))
        except RuntimeError as exc:
            errors.append(exc)
    rt.subscribe(callback)
    sim.present(TAG, "board")
    assert rt.sync(5)
    assert errors and "engine thread" in str(errors[0])


def test_irregularity_lights_the_offenders_led_until_ruled(table) -> None:  # type: ignore[no-untyped-def]
    rt, sim, clock, lights = table
    sim.present(TAG, "board")
    assert rt.sync(5)
    _call(rt, sim, clock, "Pass", "E")  # N deals: E passes out of rotation
    irr = rt.snapshot().state.awaiting()
    assert irr and irr[0].offender is Seat.E
    assert ("led", "E", True) in lights.calls and ("buzz", "E", 200) in lights.calls
    done = rt.submit(a.Ruling(irr[0].options[0], irr[0].id))
    assert done.rejected is None
    assert lights.calls[-1] == ("led", "E", False)


def test_restart_rebuilds_the_same_table_and_table_time_goes_on(tmp_path: Path) -> None:
    clock = Clock()
    rt = TableRuntime(tmp_path / "table.sqlite", _setup(), monotonic=clock)
    sim = SimTable(default_deck(), rt.clock)
    rt.start([sim])
    sim.present(TAG, "board")
    for slot, seat in (("1NT", "N"), ("Pass", "E"), ("3NT", "S"), ("Pass", "W"), ("Pass", "N"), ("Pass", "E")):
        _call(rt, sim, clock, slot, seat)
    sim.present("CA", "E.play")
    clock.now += 1
    assert rt.sync(5)
    state = rt.snapshot().state
    log_text = rt.records("jsonl")
    last_t = rt.snapshot().now
    rt.stop()
    assert state.board is not None and state.board.play is not None
    assert state.board.play.played_cards() == (Card.parse("CA"),)

    again = TableRuntime(tmp_path / "table.sqlite", _setup(), monotonic=Clock())
    try:
        assert again.rebuilt.mismatches == [] and again.rebuilt.bad == []
        assert again.engine.table == state
        assert again.records("jsonl") == log_text
        assert again.clock() >= last_t - 1.0
        # the live state equals the replay of its table log
        replayed = replay_log(tablelog.loads(log_text)).state
        assert replayed.board is not None and replayed.board.play is not None
        assert replayed.board.play.played_cards() == state.board.play.played_cards()
        assert replayed.board.auction == state.board.auction
    finally:
        again.stop()


def test_many_events_from_threads_are_all_taken_in_time_order(table) -> None:  # type: ignore[no-untyped-def]
    rt, sim, _clock, _ = table
    sim.present(TAG, "board")

    def press(seat: str) -> None:
        for _ in range(50):
            sim.press(seat)
    threads = [threading.Thread(target=press, args=(s,)) for s in "NESW"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert rt.sync(5)
    rows = [r for r in EventStore.open(rt.store.path).read() if isinstance(r, Row) and r.is_input]
    times = [r.t for r in rows]
    assert times == sorted(times)
    assert sum(1 for r in rows if r.body.get("button") == "director") == 200


def test_records_export_the_finished_boards(table) -> None:  # type: ignore[no-untyped-def]
    rt, sim, clock, _ = table
    sim.present(TAG, "board")
    for slot, seat in (("Pass", "N"), ("Pass", "E"), ("Pass", "S"), ("Pass", "W")):
        _call(rt, sim, clock, slot, seat)
    state = rt.snapshot().state
    assert len(state.boards) == 1 and state.boards[0].status == "passed_out"
    assert '[Board "1"]' in rt.records("pbn")
    assert "md|" in rt.records("lin")
    replayed = replay_log(tablelog.loads(rt.records("jsonl"))).state
    mine, theirs = outcome_json(state.boards[0], state), outcome_json(replayed.boards[0], replayed)
    assert theirs.pop("timing")["calls"] == pytest.approx(mine.pop("timing")["calls"], abs=0.001)  # (log: ms)
    assert theirs == mine
