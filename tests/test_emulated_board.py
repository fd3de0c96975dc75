"""A real board played on four emulated seat units, read back through the whole Pi side.

Issue 4, "Must show": the seat firmware (``firmware_bridge/firmware/seatfw``) runs on four
simulated seats behind pseudo-terminals (``firmware_bridge.emulator``); the Pi side opens
them with real pyserial (``drivers.seatunit`` over ``SeatLink``); the raw events go through
``controller.sensing.Sensing`` into ``controller.table.step``. The players act as people
do: they pull a bid card with the cards in front of it, the Pass/X/XX slots close again
as the next card comes forward, quitted cards stay face down on the play zone, dummy's
hand lies on dummy's spread zone, the bid cards go back after the opening lead. The
hardware misbehaves as it does: a contact bounces, a card drops out of a reader's field
for a moment, and a reader goes silent mid-hand (the arbiter then enters the card).

One clock moves only when the test moves it. ``sync_all`` makes every firmware run at the
new time, and ``SeatLink.wait_handled`` waits until the Pi side has handled the last frame
each unit wrote, so every raw event carries a known time and the run is deterministic. No
sleep, no timed assertion.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator

import pytest

from controller import actions as a
from controller.calls import Call
from controller.cards import Card
from controller.records import pbn
from controller.records.export import records_of
from controller.records.model import BoardRecord
from controller.seats import SEATS, Seat
from controller.sensing.deck import DeckRegistry
from controller.sensing.events import ContactChanged, DeviceHealth, RawEvent, TagGone, TagSeen
from controller.sensing.translate import Notice, NoticeKind, Output, Sensing
from controller.table import Phase, TableState, step
from drivers.seatunit import SeatUnit
from drivers.sim import default_deck
from firmware_bridge.emulator import SeatEmulator, sync_all
from firmware_bridge.firmware.seatfw.app import Config
from tests.conftest import CORPUS, require_corpus
from tests.firmware_bridge.conftest import FakeClock

BOARD_FILE = CORPUS / "endplay_tests" / "example2.pbn"  # CORPUS: tablectl.corpus
BOARD_INDEX = 184   # board 17: Pass Pass 1H Pass 1NT Pass 2D Pass 3D Pass 5D X Pass Pass Pass; 5DX by S, 11 tricks
SCAN = 0.005        # the firmware's scan period: the step while a contact bounces
STEP = 0.025        # the step while waiting for a unit to report (a contact debounces over 3 steps)
THINK = 0.25        # the step while nothing physical happens
WAIT = 2.0          # real seconds for any one hand-over between threads (never reached when all is well)
BID_SLOTS = tuple(f"{level}{strain}" for level in range(1, 8) for strain in ("C", "D", "H", "S", "NT"))


class EmulatedTable:
    """Four emulated seat units, the seat-unit backends reading them, sensing and the table."""

    def __init__(self, decks: DeckRegistry) -> None:
        self.clock = FakeClock()
        # max_tags 16 (the default): a quitted card stays on its play zone (13 at the end) and dummy's
        # whole hand lies on the spread zone, which the larger antenna of PROTOCOL.md
        # section 11 reads; the protocol allows 32 UIDs per reader.
        config = Config(max_tags=16)
        self.emulators = {s: SeatEmulator(str(s), clock=self.clock, config=config) for s in SEATS}
        self.raw: queue.Queue[tuple[int, RawEvent]] = queue.Queue()
        self.units = {s: SeatUnit(self.emulators[s].path, str(s), self.clock, backoff=(0.01, 0.05))
                      for s in SEATS}
        self.sensing = Sensing.start(decks, deck="deck1")
        self.state = TableState.new("duplicate")
        self.seen: list[RawEvent] = []
        self.notices: list[Notice] = []
        self.rejected: list[str] = []

    def start(self) -> None:
        for emulator in self.emulators.values():
            emulator.start()
        for seat, unit in self.units.items():
            unit.start(self._emit(int(seat)))
        up: set[str] = set()
        while len(up) < 4:
            _, event = self.raw.get(timeout=WAIT * 2)
            if isinstance(event, DeviceHealth) and event.up:
                up.add(event.device)
        self.sync()

    def _emit(self, seat_index: int) -> Callable[[RawEvent], None]:
        def emit(event: RawEvent) -> None:   # on the unit's reader thread: only queue
            self.raw.put((seat_index, event))
        return emit

    def stop(self) -> None:
        for unit in self.units.values():
            unit.stop()
        for emulator in self.emulators.values():
            emulator.stop()

    # -- time

    def sync(self) -> None:
        """Every unit runs at the present time, and the Pi side has handled all they wrote."""
        assert sync_all(tuple(self.emulators.values()), WAIT), "an emulated unit did not run"
        for seat, emulator in self.emulators.items():
            seq = emulator.last_seq
            assert seq is not None and self.units[seat].link.wait_handled(seq, WAIT), \
                f"the Pi side did not handle frame {seq} of seat {seat}"
        batch: list[tuple[int, RawEvent]] = []
        while not self.raw.empty():
            batch.append(self.raw.get_nowait())
        batch.sort(key=lambda item: (item[1].t, item[0]))  # in time order; one seat's own order kept
        for _, event in batch:
            self.seen.append(event)
            self.sensing, outputs = self.sensing.feed(event)
            self.apply(outputs)
        self.sensing, outputs = self.sensing.tick(self.clock())
        self.apply(outputs)

    def advance(self, seconds: float, step_s: float = SCAN) -> None:
        """Let ``seconds`` pass, in steps of ``step_s``."""
        end = self.clock() + seconds - 1e-9
        while self.clock() < end:
            self.clock.advance(min(step_s, max(end - self.clock(), 1e-6)))
            self.sync()

    def until(self, what: str, done: Callable[[RawEvent], bool], within: float = 3.0,
              since: int | None = None, step_s: float = STEP) -> RawEvent:
        """Step time until a raw event ``done`` says is the one awaited has arrived (or did
        since the ``since``-th raw event)."""
        start, end = len(self.seen) if since is None else since, self.clock() + within
        while True:
            for event in self.seen[start:]:
                if done(event):
                    return event
            if self.clock() >= end:
                break
            self.advance(step_s, step_s)
        raise AssertionError(f"no raw event for {what} within {within} s of table time")

    # -- the table

    def apply(self, outputs: tuple[Output, ...]) -> None:
        for out in outputs:
            if isinstance(out, Notice):
                self.notices.append(out)
                continue
            self.act(out)

    def act(self, action: a.Action) -> None:
        result = step(self.state, action)
        self.state = result.state
        self.rejected += [f"{e.detail}: {action!r}" for e in result.events if e.kind == "rejected"]
        if isinstance(action, a.PlayCard) and any(e.kind == "rejected" for e in result.events):
            self.sensing = self.sensing.withdraw(action.card)

    def new_board(self, rec: BoardRecord) -> None:
        t = self.clock()
        self.act(a.BoardStart(rec.number, rec.dealer, rec.vulnerability, rec.deal, t))
        self.sensing, outputs = self.sensing.new_board(t)
        self.apply(outputs)


class Players:
    """The four players at the emulated table: what their hands and bidding boxes do."""

    def __init__(self, table: EmulatedTable, uids: dict[str, str]) -> None:
        self.table = table
        self.uids = uids
        self.out: dict[Seat, list[str]] = {s: [] for s in SEATS}   # bid cards lying on the table

    def unit(self, seat: Seat) -> SeatEmulator:
        return self.table.emulators[seat]

    def contact(self, seat: Seat, slot: str, present: bool) -> Callable[[RawEvent], bool]:
        return lambda e: (isinstance(e, ContactChanged) and e.seat == str(seat) and e.slot == slot
                          and e.present is present)

    def tag(self, kind: type[TagSeen] | type[TagGone], reader: str, card: Card) -> Callable[[RawEvent], bool]:
        uid = self.uids[str(card)]
        return lambda e: isinstance(e, kind) and e.reader == reader and e.uid == uid

    def call(self, seat: Seat, call: Call, bounce: bool = False) -> None:
        """Pull the call's card: a bid card with the cards in front of it; Pass, X, XX from their slot."""
        unit = self.unit(seat)
        if not call.is_bid:
            slot = str(call)
            unit.pull(slot)
            self.table.until(f"{seat} pulls {slot}", self.contact(seat, slot, False))
            self.table.advance(0.1, STEP)
            unit.put_back(slot)   # the next card of the slot comes forward: the contact closes again
            self.table.until(f"{seat}'s next {slot} card", self.contact(seat, slot, True))
            return
        bid, since = str(call), len(self.table.seen)
        pulled = [s for s in BID_SLOTS[:BID_SLOTS.index(bid) + 1] if s not in self.out[seat]]
        for slot in pulled:
            unit.pull(slot)
        if bounce:
            # the front card's contact bounces as the stack slides out: chatter shorter
            # than the firmware's 3-scan debounce, then a bounce of 3 scans that the
            # firmware reports and the sensing layer's debounce absorbs
            front = pulled[0]
            for present in (True, False, True, False, False, False, True, True, True, False):
                (unit.put_back if present else unit.pull)(front)
                self.table.advance(SCAN)
        self.out[seat] += pulled
        self.table.until(f"{seat} pulls {bid}", self.contact(seat, bid, False), since=since)

    def return_bid_cards(self) -> None:
        for seat in SEATS:
            for slot in self.out[seat]:
                self.unit(seat).put_back(slot)
            self.out[seat] = []

    def play(self, seat: Seat, card: Card, from_spread: bool = False) -> None:
        """Put ``card`` on ``seat``'s play zone (dummy's card goes there from the spread zone)."""
        unit, uid = self.unit(seat), self.uids[str(card)]
        if from_spread:
            unit.remove(uid, "spread")
        unit.put(uid, "play")


def health(device: str, up: bool) -> Callable[[RawEvent], bool]:
    return lambda e: isinstance(e, DeviceHealth) and e.device == device and e.up is up


def corpus_board() -> BoardRecord:
    rec = pbn.load(BOARD_FILE)[BOARD_INDEX]
    assert rec.deal is not None and rec.calls is not None and len(rec.play) == 52
    return rec


def trick_seats(rec: BoardRecord) -> Iterator[Seat]:
    assert rec.deal is not None
    for card in rec.play:
        holder = rec.deal.holder(card)
        assert holder is not None
        yield holder


@pytest.fixture
def table() -> Iterator[EmulatedTable]:
    require_corpus(BOARD_FILE)
    uids = default_deck(1)
    t = EmulatedTable(DeckRegistry.from_mapping({"deck1": uids}))
    t.start()
    yield t
    t.stop()


def test_a_real_board_played_on_four_emulated_seat_units_gives_the_boards_record(table: EmulatedTable) -> None:
    rec = corpus_board()
    deal = rec.deal
    assert deal is not None and rec.calls is not None
    uids = default_deck(1)
    players = Players(table, uids)
    table.new_board(rec)
    board = table.state.board
    assert board is not None

    # the auction: each player pulls his call; one contact bounces on the way
    seat = bouncer = board.dealer
    for i, call in enumerate(rec.calls):
        players.call(seat, call, bounce=i == 4)
        table.advance(0.5, step_s=THINK)   # the next player thinks
        seat = seat.lho

    # the opening lead confirms the last pass; dummy's hand goes on the spread zone
    leader, *_ = trick_seats(rec)
    players.play(leader, rec.play[0])
    table.until("the opening lead", players.tag(TagSeen, f"{leader}.play", rec.play[0]))
    board = table.state.board
    assert board is not None and board.contract is not None and board.play is not None
    dummy = board.play.dummy
    dummy_hand = deal.hand(dummy)
    assert dummy_hand is not None
    for card in sorted(dummy_hand, key=lambda c: c.index):
        players.unit(dummy).put(uids[str(card)], "spread")
    players.return_bid_cards()
    table.advance(2.5, step_s=THINK)   # declarer plans the play; dummy's spread has settled

    # the play: every card stays face down on its play zone
    holders = list(trick_seats(rec))
    goes_silent = next(k for k in range(29, 52) if holders[k] is not dummy)
    silent = dropout = None
    for k, (card, holder) in enumerate(zip(rec.play, holders, strict=True)):
        if k == 0:
            continue
        zone = f"{holder}.play"
        if k == goes_silent:
            # the reader under this player's play zone goes silent mid-hand
            players.unit(holder).fail("play")
            down = table.until(f"{zone} going silent", health(zone, up=False))
            silent = (holder, card, down)
            players.play(holder, card)
            table.advance(0.3, STEP)
            # the arbiter, alerted, enters the card; the table carries on
            table.act(a.PlayCard(holder, card, table.clock(), how="deemed"))
            table.sensing = table.sensing.mark_played(card)
            players.unit(holder).recover("play")
            table.until(f"{zone} answering again", health(zone, up=True))
            table.advance(0.25, step_s=THINK)
            continue
        players.play(holder, card, from_spread=holder is dummy)
        table.until(f"{card} on {zone}", players.tag(TagSeen, zone, card))
        if k == 21:
            # the card just played drops out of the field for a moment and is seen again
            unit, uid = players.unit(holder), uids[str(card)]
            unit.remove(uid, "play")
            table.until(f"{card} dropping out", players.tag(TagGone, zone, card))
            unit.put(uid, "play")
            table.until(f"{card} back", players.tag(TagSeen, zone, card))
            dropout = card
        table.advance(0.25, step_s=THINK)
    table.advance(0.5, step_s=THINK)

    assert table.rejected == []
    assert table.state.board is not None and table.state.board.phase is Phase.DONE
    assert not table.state.irregularities
    (ours,) = records_of(table.state)
    assert (ours.number, ours.dealer, ours.vulnerability) == (rec.number, rec.dealer, rec.vulnerability)
    assert ours.deal == deal
    assert ours.calls == rec.calls
    assert ours.play == rec.play
    for tag in ("Contract", "Declarer", "Result", "Score"):
        assert (ours.tag(tag) or "").upper() == (rec.tag(tag) or "").upper(), tag

    # the deal as the readers learned it: each hand is what arrived on its seat's zones
    played_by = {s: {e.uid for e in table.seen if isinstance(e, TagSeen) and e.reader == f"{s}.play"}
                 for s in SEATS}
    for s in SEATS:
        hand = deal.hand(s)
        assert hand is not None and played_by[s] == {uids[str(c)] for c in hand}
    ((faced_by, faced_cards),) = table.state.board.faced
    assert faced_by is dummy and set(faced_cards) == set(dummy_hand)

    # the hardware's misbehaviour reached the arbiter, and nothing else did
    assert silent is not None and dropout is not None
    kinds = [(n.kind, n.reader) for n in table.notices]
    holder = silent[0]
    assert kinds == [(NoticeKind.DEVICE_DOWN, f"{holder}.play"), (NoticeKind.DEVICE_UP, f"{holder}.play")]
    bounced = [e.present for e in table.seen
               if isinstance(e, ContactChanged) and e.slot == "1C" and e.seat == str(bouncer)]
    assert bounced[:3] == [False, True, False]   # the bounce the firmware let through reached sensing
