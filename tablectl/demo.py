"""The simulated table: four players play real boards from the corpus on a ``SimTable``.

``pick_boards`` takes boards from a corpus file (by default an ACBL speedball pairs game
on BBO: 12 boards, each played at many tables), one record per board number chosen by
the seed among those that replay cleanly. Without a corpus (a clone of the repository
alone), ``deal_boards`` deals them instead (``tablectl.selfplay``: a seeded dealer, and a
simple bidding and card-play policy that writes the same record a PBN file would give),
and everything below is the same. ``DemoPlayers`` then plays them with the
physical acts of a real table, through the simulator's verbs, with think times drawn
from the seed and scaled by the table clock's speed:

* the board's tag on the board reader (the runtime maps it to the board, with its deal
  from the hand record);
* each call: the bid card pulled from the caller's bidding box (Pass, X and XX cards are
  "put back" once the call is made: the next card of the slot comes forward);
* the opening lead on the leader's play zone, then dummy's hand faced on dummy's spread
  zone, each card on the play zone of the hand it comes from (declarer puts dummy's
  cards on dummy's zone); the quitted cards of a finished trick are taken off the readers;
* the record's claim, when its play stops early, entered as the arbiter would (a claim
  and the defenders' agreement: the sensors cannot hear a claim);
* at the end: every card gathered, the bid cards put back, the board taken away.

Irregularities. On a board chosen with probability ``irregularity_rate`` one of these is
committed, at a point drawn from the seed: an insufficient bid (a bid card lower than
the last bid), a call out of rotation (the player after the one in turn pulls Pass), a
card exposed during the auction (a low card dropped face up on a spread zone), an opening
lead out of turn (by the leader's partner), or a revoke (a defender who could follow suit
plays another suit). The table raises it; the players wait for the arbiter, whose ruling
comes from the web page or, after ``auto_rule_after`` seconds, from the demo itself (the
first option the table accepts).

Playing on after a ruling. The players never guess what a ruling means: at every turn
they read the table's state and play the record's next call or card when the board so far
is still the record's and that call or card is legal now (restrictions and penalty cards
included); otherwise the first legal call (Pass when it is legal) or the first legal card.
A penalty card is put face up on its owner's spread zone, and played from there when the
table requires it or the player chooses it. A board whose play has left the record is
played to the end, trick by trick (no claim). When the table does not take a physical act
three times running, the arbiter enters it (a call, or a card deemed played); if that
fails too, the board is left unfinished and the next one starts (never a crash).

After a restart on the same log, the players first put the table back physically as the
rebuilt state says it was (bid cards out, the trick in progress, dummy, penalty cards)
before the simulator reports it, then go on: every decision comes from the table's state
and the seed, so an interrupted demo finishes its boards as an uninterrupted one would.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from controller import actions as a
from controller.calls import ALL_BIDS, PASS, Call
from controller.cards import Card
from controller.records import pbn
from controller.records.model import BoardRecord
from controller.replay import replay_records
from controller.seats import SEATS, Seat
from controller.sensing.translate import SLOTS
from controller.table import BoardState, Phase, Step, TableState, step
from drivers.sim import SimTable
from tablectl import corpus
from tablectl.runtime import TableRuntime
from web_ui.service import Snapshot

__all__ = [
    "DEFAULT_CORPUS_FILE",
    "IRREGULARITIES",
    "DemoBoard",
    "DemoOptions",
    "DemoPlayers",
    "board_tag",
    "corpus_dir",
    "corpus_file",
    "deal_boards",
    "no_corpus",
    "pick_boards",
]

log = logging.getLogger(__name__)

DEFAULT_CORPUS_FILE = "pbntools_bbo_online/test_7_bbo_www_acbl_20130810/acbl_1607_pairs_acbl_sat_1pm_speedball.pbn"
IRREGULARITIES = ("insufficient_bid", "call_out_of_rotation", "exposed_card", "lead_out_of_turn", "revoke")
_AUCTION_KINDS = ("insufficient_bid", "call_out_of_rotation", "exposed_card")
_MULTI = ("Pass", "X", "XX")
_ARBITER_AFTER = 3
_GIVE_UP_AFTER = 6
_SYNC_TIMEOUT = 30.0
"""Real seconds the players wait for the engine to take what they did (it is a bug if it takes that long)."""


def corpus_dir() -> Path:
    """The real-record corpus (``tablectl.corpus``: ``$BRIDGE_CORPUS``, else its default)."""
    return corpus.corpus_dir()


def corpus_file(name: str | None = None) -> Path:
    """The corpus file the demo plays (``name``, relative to the corpus, else the speedball);
    it may not exist: then the demo deals its own boards."""
    return corpus_dir() / (name or DEFAULT_CORPUS_FILE)


def no_corpus(file: Path, who: str) -> str:
    """The line that says the demo deals its own boards, naming what is missing (the corpus
    directory, else the file in it); ``who`` deals: "the table deals its" or "the tables deal their"."""
    where = file if corpus_dir().is_dir() else corpus_dir()
    return f"no corpus found at {where}: {who} own boards (seeded)"


def board_tag(number: int) -> str:
    """The made-up tag UID (7 bytes) of duplicate board ``number`` in the demo."""
    return f"0B{number:012X}"


@dataclass(frozen=True, slots=True)
class DemoBoard:
    """A board of the demo: its number, its tag, the record played and the board start."""

    number: int
    tag: str
    record: BoardRecord
    start: a.BoardStart


def pick_boards(path: Path, count: int, seed: int) -> list[DemoBoard]:
    """Up to ``count`` boards of the corpus file ``path``, one record per board number (in
    the file's order), chosen by ``seed`` among the records that replay cleanly."""
    by_number: dict[int, list[BoardRecord]] = {}
    for rec in pbn.load(path):
        if (rec.error is None and rec.number is not None and rec.deal is not None and rec.calls
                and rec.play):
            by_number.setdefault(rec.number, []).append(rec)
    rng = random.Random(seed)
    out: list[DemoBoard] = []
    for number, recs in by_number.items():
        if len(out) >= count:
            break
        recs = list(recs)
        rng.shuffle(recs)
        for rec in recs[:8]:
            entry = replay_records([rec]).report["boards"][0]
            if ("error" in entry or entry["irregularities"] or entry.get("differences") or entry.get("notes")
                    or entry["status"] not in ("played", "claimed")):
                continue
            assert rec.deal is not None
            deal = rec.deal.completed()
            out.append(DemoBoard(number, board_tag(number), rec,
                                 a.BoardStart(number, rec.dealer, rec.vulnerability, deal)))
            break
    return out


def deal_boards(numbers: Sequence[int], deal_seed: int, style_seed: int) -> list[DemoBoard]:
    """Boards ``numbers`` dealt by the demo itself (``tablectl.selfplay``): each board's cards
    from ``deal_seed`` and its number (tables given the same deal seed hold the same cards),
    the auction and play the policy's, in the style of ``style_seed`` (the table's seed)."""
    from tablectl.selfplay.board import self_dealt_record

    out: list[DemoBoard] = []
    for number in dict.fromkeys(numbers):
        rec = self_dealt_record(number, deal_seed, style_seed)
        assert rec.deal is not None and rec.dealer is not None and rec.vulnerability is not None
        out.append(DemoBoard(number, board_tag(number), rec,
                             a.BoardStart(number, rec.dealer, rec.vulnerability, rec.deal)))
    return out


@dataclass(frozen=True, slots=True)
class DemoOptions:
    """How the demo plays: ``speed`` (table seconds per real second; think times are in table
    seconds), ``irregularity_rate`` (chance per board), ``auto_rule_after`` (real seconds
    before the demo rules itself; None: never), ``seed``; ``first_irregularity`` (one of
    ``IRREGULARITIES``) is committed early on the first board, whatever the rate (the room
    demo shows a newcomer what the product is for within its first minutes)."""

    speed: float = 1.0
    irregularity_rate: float = 0.3
    auto_rule_after: float | None = 45.0
    seed: int = 1
    first_irregularity: str | None = None


@dataclass(frozen=True, slots=True)
class _Plan:
    kind: str | None
    at: int


@dataclass
class _Memory:
    injected: set[int] = field(default_factory=set)
    claimed: set[int] = field(default_factory=set)
    skipped: set[int] = field(default_factory=set)
    seen: dict[int, float] = field(default_factory=dict)
    ruled: set[int] = field(default_factory=set)
    stuck_key: Hashable = None
    stuck: int = 0


_ARGS_TRIED: tuple[tuple[tuple[str, object], ...], ...] = ((), *((("suit", suit),) for suit in "SHDC"))
"""The arguments the demo's arbiter tries with each option: none, then each suit (a lead restriction)."""


def _refused(result: Step) -> bool:
    return any(event.kind == "rejected" for event in result.events)


def _progress(state: TableState) -> Hashable:
    """What changes whenever the table takes an act (the players wait for it to change)."""
    b = state.board
    if b is None:
        return (len(state.boards),)
    play = b.play
    return (len(state.boards), b.index, b.phase, len(b.auction.calls), len(b.held), len(b.faced),
            len(b.penalty_cards), None if play is None else len(play.played_cards()),
            None if play is None else play.declarer, b.claim is not None, len(state.irregularities),
            len(state.awaiting()))


class DemoPlayers:
    """The four players (and, when asked, the arbiter) of the simulated table."""

    def __init__(self, runtime: TableRuntime, sim: SimTable, boards: Sequence[DemoBoard],
                 options: DemoOptions, *, say: Callable[[str], None] | None = None) -> None:
        self.rt = runtime
        self.sim = sim
        self.boards = list(boards)
        self.by_number = {b.number: b for b in self.boards}
        self.options = options
        self.say = say or (lambda line: log.info("%s", line))
        self.memory = _Memory()
        self.settings = runtime.sensing.settings

    # -- putting the table back after a restart ----------------------------------------------

    def restore(self) -> None:
        """Put the simulated table physically where the rebuilt state says it was (before the
        simulator is started, so nothing is reported twice)."""
        state = self.rt.snapshot().state
        sensing = self.rt.sensing
        for seat in SEATS:
            raw = sensing.boxes[seat].raw
            for i, slot in enumerate(SLOTS):
                if not raw >> i & 1:
                    self.sim.pull(slot, str(seat))
        board = state.board
        if board is None or board.phase is Phase.DONE:
            return
        if board.number in self.by_number:
            self.sim.present(board_tag(board.number), "board")
        play = board.play
        if play is not None:
            for j, card in enumerate(play.current.cards):
                self.sim.present(str(card), f"{play.current.seat_of(j)}.play")
            if play.tricks or play.current.cards:
                faced = {s for s, _c in board.faced}
                hand = play.hands[play.dummy]
                if play.dummy in faced and hand is not None:
                    self.sim.present_many([str(c) for c in sorted(hand)], f"{play.dummy}.spread")
        for held in board.held:
            if held.card is not None:
                self.sim.present(str(held.card), f"{held.seat}.play")
        for pc in board.penalty_cards:
            self.sim.present(str(pc.card), f"{pc.seat}.spread")

    # -- the loop -----------------------------------------------------------------------------

    def finished(self, state: TableState) -> bool:
        done = {o.board.number for o in state.boards}
        open_board = state.board is not None and state.board.phase is not Phase.DONE
        return not open_board and all(b.number in done or b.number in self.memory.skipped for b in self.boards)

    def run(self, stop: threading.Event) -> None:
        """Play every board (resuming where the table is), until done or ``stop`` is set."""
        while not stop.is_set():
            snap = self.rt.snapshot()
            state = snap.state
            if self.finished(state):
                return
            if self._auto_rule(state):
                continue  # the table has changed: read it again
            if self._blocking(state):
                self._wait_change(state, 0.05)
                continue
            board = state.board
            try:
                if board is None or board.phase is Phase.DONE or board.number in self.memory.skipped:
                    self._next_board(state, stop)
                elif board.phase is Phase.AUCTION:
                    self._auction(state, board, stop)
                elif board.phase is Phase.PLAY:
                    self._play(state, board, stop)
                else:
                    self._give_up(board, "the demo plays no 1905 declaration")
            except ValueError as exc:  # a verb refused (a card not where it should be): say so, go on
                log.warning("demo: %s", exc)
                self._stuck(state, board)

    # -- waiting and timing ------------------------------------------------------------------------

    def _think(self, stop: threading.Event, *key: object, median: float) -> None:
        rng = random.Random(f"{self.options.seed}:think:{key}")
        think = min(60.0, max(1.0, rng.lognormvariate(0.0, 0.6) * median))
        stop.wait(think / self.options.speed)

    def _wait_change(self, state: TableState, table_seconds: float) -> bool:
        """Wait a while for somebody else (the arbiter) to change the table."""
        key = _progress(state)
        timeout = table_seconds / self.options.speed + 0.05
        return self.rt.wait_until(lambda s: _progress(s.state) != key, timeout)

    def _settled(self, predicate: Callable[[Snapshot], bool], table_seconds: float) -> bool:
        """Whether ``predicate`` holds once the table has taken what the players just did:
        True as soon as it holds; else after ``table_seconds`` of table time, once the engine has
        taken every event emitted so far and every deadline up to now (``sync``).

        Waiting on the table's clock and then on the engine, never for a real-time margin, makes
        a slow or loaded machine only slower: the table sees the same acts at the same table
        times between deadlines, so the players decide the same (an act is never counted as
        not taken, then done again, because the engine thread was late)."""
        until = self.rt.clock() + table_seconds
        while (left := (until - self.rt.clock()) / self.options.speed) > 0:
            if self.rt.wait_until(predicate, left):
                return True
        self.rt.sync(_SYNC_TIMEOUT)
        return predicate(self.rt.snapshot())

    def _act(self, state: TableState, board: BoardState | None, what: Callable[[], None],
             table_seconds: float) -> None:
        """Do a physical act and wait until the table takes it; count the acts it does not take."""
        what()
        key = _progress(state)
        if self._settled(lambda s: _progress(s.state) != key, table_seconds):
            self.memory.stuck = 0
        else:
            self._stuck(state, board)

    def _stuck(self, state: TableState, board: BoardState | None) -> None:
        key = _progress(state)
        if key == self.memory.stuck_key:
            self.memory.stuck += 1
        else:
            self.memory.stuck_key, self.memory.stuck = key, 1

    # -- the arbiter ---------------------------------------------------------------------------------

    def _blocking(self, state: TableState) -> bool:
        return any(i.kind != "tempo" and i.id not in self.memory.ruled for i in state.awaiting())

    def _auto_rule(self, state: TableState) -> bool:
        """Rule, as the arbiter would, what has waited ``auto_rule_after``; True if a ruling was given."""
        after = self.options.auto_rule_after
        if after is None:
            return False
        now = time.monotonic()
        for irr in state.awaiting():
            first = self.memory.seen.setdefault(irr.id, now)
            if irr.id in self.memory.ruled or now - first < after:
                continue
            self.memory.ruled.add(irr.id)
            snap = self.rt.snapshot()
            for option in irr.options:
                for args in _ARGS_TRIED:
                    ruling = a.Ruling(option, irr.id, args)
                    # tried on the table's state first: only a ruling the table takes goes in its log
                    # (a refused one would stand in the replay's report as if the arbiter had erred)
                    if _refused(step(snap.state, replace(ruling, t=snap.now))):
                        continue
                    if self.rt.submit(ruling).rejected is None:
                        self.say(f"arbiter: irregularity {irr.id} ({irr.kind}, Law {irr.law}): {option}")
                        return True
            log.warning("demo: no option of irregularity %d (%s) was accepted", irr.id, irr.kind)
            return True
        return False

    # -- boards --------------------------------------------------------------------------------------

    def _next_board(self, state: TableState, stop: threading.Event) -> None:
        done = {o.board.number for o in state.boards} | self.memory.skipped
        todo = [b for b in self.boards if b.number not in done]
        current = state.board
        if current is not None and current.phase is Phase.DONE and current.number is not None:
            self._gather()
        if not todo:
            return
        nxt = todo[0]
        self._think(stop, "board", nxt.number, median=20.0)
        if stop.is_set():
            return
        self.say(f"board {nxt.number}: {nxt.record.source}")
        self.sim.present(nxt.tag, "board")
        ok = self._settled(lambda s: s.state.board is not None and s.state.board.number == nxt.number
                           and s.state.board.phase is not Phase.DONE, 2.0)
        if not ok:
            log.warning("demo: board %d did not start from its tag: the arbiter starts it", nxt.number)
            self.rt.submit(nxt.start)

    def _gather(self) -> None:
        for reader in self.sim.readers:
            self.sim.clear(reader)
        for seat in SEATS:
            for slot in SLOTS:
                if self.sim.is_out(slot, str(seat)):
                    self.sim.put_back(slot, str(seat))

    def _plan(self, number: int | None) -> _Plan:
        if number is None:
            return _Plan(None, 0)
        first = self.options.first_irregularity
        if first is not None and self.boards and number == self.boards[0].number:
            return _Plan(first, 2)
        rng = random.Random(f"{self.options.seed}:plan:{number}")
        if rng.random() >= self.options.irregularity_rate:
            return _Plan(None, 0)
        kind = rng.choice(IRREGULARITIES)
        return _Plan(kind, rng.randint(1, 4) if kind in _AUCTION_KINDS else rng.randint(2, 9))

    def _may_inject(self, state: TableState, board: BoardState, kind: str, at: int) -> bool:
        if board.number is None or board.number in self.memory.injected:
            return False
        plan = self._plan(board.number)
        if plan.kind != kind or at < plan.at:
            return False
        if any((i := state.irregularity(n)) is not None and i.kind != "tempo" for n in board.irregularity_ids):
            self.memory.injected.add(board.number)  # (after a restart: it was committed already)
            return False
        return True

    def _give_up(self, board: BoardState, why: str) -> None:
        log.warning("demo: board %s left unfinished: %s", board.number, why)
        if board.number is not None:
            self.memory.skipped.add(board.number)
        self.memory.stuck = 0

    # -- the auction ---------------------------------------------------------------------------------

    def _auction(self, state: TableState, board: BoardState, stop: threading.Event) -> None:
        seat = state.turn
        if seat is None:
            self._give_up(board, "no seat in turn")
            return
        self._put_back_multi()
        calls = board.auction.calls
        k = len(calls)
        demo = self.by_number.get(board.number) if board.number is not None else None
        record = demo.record.calls if demo is not None and demo.record.calls is not None else ()
        on_record = k < len(record) and tuple(calls) == tuple(record[:k])
        call = record[k] if on_record and state.is_legal_call(record[k]) else self._fallback_call(state)
        if call is None:
            self._give_up(board, "no legal call")
            return
        if self.memory.stuck >= _GIVE_UP_AFTER:
            self._give_up(board, "the table takes no call")
            return
        wait = self.settings.call_confirm + 2.0
        if self.memory.stuck >= _ARBITER_AFTER:
            self.rt.submit(a.MakeCall(seat, call))
            self.memory.stuck += 1
            return
        self._think(stop, board.number, "call", k, median=4.0)
        if stop.is_set():
            return
        if self._inject_in_auction(state, board, seat, k, wait):
            return
        self._act(state, board, lambda: self._pull(str(call), seat), wait)

    def _fallback_call(self, state: TableState) -> Call | None:
        if state.is_legal_call(PASS):
            return PASS
        legal = state.legal_calls()
        return legal[0] if legal else None

    def _inject_in_auction(self, state: TableState, board: BoardState, seat: Seat, k: int, wait: float) -> bool:
        last = board.auction.last_bid
        for kind in _AUCTION_KINDS:
            if not self._may_inject(state, board, kind, k):
                continue
            if kind == "insufficient_bid":
                if last is None or last.rank < 1:
                    continue
                low = ALL_BIDS[max(0, last.rank - 5)] if last.rank >= 5 else ALL_BIDS[0]
                self._commit(board, f"{seat} makes an insufficient bid: {low} over {last}")
                self._act(state, board, lambda low=low: self._pull(str(low), seat), wait)  # type: ignore[misc]
            elif kind == "call_out_of_rotation":
                offender = seat.lho
                self._commit(board, f"{offender} passes out of rotation ({seat} is in turn)")
                self._act(state, board, lambda o=offender: self._pull("Pass", o), wait)  # type: ignore[misc]
            else:
                offender = seat.partner
                hand = board.deal.hand(offender) if board.deal is not None else None
                if not hand:
                    continue
                card = min(hand, key=lambda c: (c.rank, c.suit))
                self._commit(board, f"{offender} drops {card} face up during the auction")
                self._act(state, board, lambda c=card, o=offender: self.sim.present(str(c), f"{o}.spread"),  # type: ignore[misc]
                          self.settings.face_settle + 2.0)
            return True
        return False

    def _commit(self, board: BoardState, what: str) -> None:
        if board.number is not None:
            self.memory.injected.add(board.number)
        self.say(f"irregularity on board {board.number}: {what}")

    def _pull(self, slot: str, seat: Seat) -> None:
        s = str(seat)
        if self.sim.is_out(slot, s):  # out since an earlier call: put it back first
            self.sim.put_back(slot, s)
            time.sleep(2 * self.settings.debounce / self.options.speed)
        self.sim.pull(slot, s)

    def _put_back_multi(self) -> None:
        for seat in SEATS:
            for slot in _MULTI:
                if self.sim.is_out(slot, str(seat)):
                    self.sim.put_back(slot, str(seat))

    # -- the play ------------------------------------------------------------------------------------

    def _play(self, state: TableState, board: BoardState, stop: threading.Event) -> None:
        play = board.play
        if play is None or board.contract is None:
            self._give_up(board, "no play")
            return
        self._put_back_multi()
        self._tidy(board)
        played = play.played_cards()
        n = len(played)
        dummy = play.dummy
        if n >= 1 and dummy not in {s for s, _c in board.faced}:
            hand = play.hands[dummy]
            if hand is not None and hand:
                self._act(state, board, lambda: self.sim.present_many([str(c) for c in sorted(hand)],
                                                                      f"{dummy}.spread"),
                          self.settings.face_settle + 2.0)
                return
        demo = self.by_number.get(board.number) if board.number is not None else None
        record = demo.record if demo is not None else None
        rec_play = record.play if record is not None else ()
        on_record = tuple(played) == tuple(rec_play[:n])
        if (record is not None and on_record and n == len(rec_play) and record.claim is not None
                and board.claim is None and board.number not in self.memory.claimed):
            self._claim(state, board, record.claim)
            return
        if board.claim is not None:
            self._wait_change(state, 1.0)
            return
        seat = play.turn
        legal = state.legal_cards(seat)
        if self.memory.stuck >= _GIVE_UP_AFTER or not legal:
            self._give_up(board, "the table takes no card" if legal else f"no legal card for {seat}")
            return
        card = rec_play[n] if on_record and n < len(rec_play) and rec_play[n] in legal else legal[0]
        if self.memory.stuck >= _ARBITER_AFTER:
            self.rt.submit(a.PlayCard(seat, card, how="deemed"))
            self.memory.stuck += 1
            return
        self._think(stop, board.number, "card", n, median=6.0)
        if stop.is_set():
            return
        wait = self.settings.pickup_after + 2.0
        if self._inject_in_play(state, board, seat, n, wait):
            return
        self._act(state, board, lambda: self._place(card, f"{seat}.play"), wait)

    def _inject_in_play(self, state: TableState, board: BoardState, seat: Seat, n: int, wait: float) -> bool:
        play = board.play
        assert play is not None and board.contract is not None
        if n == 0 and self._may_inject(state, board, "lead_out_of_turn", 99):
            offender = seat.partner
            hand = play.hands[offender]
            if hand:
                card = min(hand)
                self._commit(board, f"{offender} leads {card} out of turn ({seat} is on lead)")
                self._act(state, board, lambda: self._place(card, f"{offender}.play"), wait)
                return True
        led = play.current.suit_led
        defender = seat.side is not board.contract.declarer.side
        if (led is not None and defender and self._may_inject(state, board, "revoke", play.trick_number)):
            hand = play.hands[seat] or frozenset()
            others = sorted(c for c in hand if c.suit is not led)
            if others and any(c.suit is led for c in hand):
                card = others[0]
                self._commit(board, f"{seat} revokes: {card} on a {led.name} lead")
                self._act(state, board, lambda: self._place(card, f"{seat}.play"), wait)
                return True
        return False

    def _claim(self, state: TableState, board: BoardState, tricks: int) -> None:
        play = board.play
        assert play is not None and board.number is not None
        self.memory.claimed.add(board.number)
        declarer = play.declarer
        wanted = tricks - play.declarer_tricks
        if not 0 <= wanted <= 13 - len(play.tricks):
            return
        self.say(f"board {board.number}: {declarer} claims {wanted} more trick(s)")
        result = self.rt.submit(a.Claim(declarer, wanted))
        if result.rejected is None:
            for seat in (declarer.lho, declarer.rho):
                self.rt.submit(a.Agree(seat))

    def _place(self, card: Card, zone: str) -> None:
        text = str(card)
        if text in self.sim.on(zone):  # lying there already: lifted and put down again
            self.sim.remove(text)
            time.sleep(2 * self.settings.dropout / self.options.speed)
        self.sim.present(text, zone)

    def _tidy(self, board: BoardState) -> None:
        """Cards where the table says they are: quitted tricks off the readers, penalty cards
        face up on their owner's spread zone, refused cards back in the hand."""
        play = board.play
        assert play is not None
        on_table = (set(play.current.cards) | {h.card for h in board.held if h.card is not None}
                    | {c for _s, c in board.deferred})
        penalties = {(pc.seat, pc.card) for pc in board.penalty_cards}
        dummy = play.dummy
        dummy_hand = play.hands[dummy] or frozenset()
        dummy_faced = dummy in {s for s, _c in board.faced}
        for seat in SEATS:
            for text in self.sim.on(f"{seat}.play"):
                card = Card.parse(text)
                if card in on_table:
                    continue
                if (seat, card) in penalties:
                    self.sim.present(text, f"{seat}.spread")
                else:
                    self.sim.remove(text)
            for text in self.sim.on(f"{seat}.spread"):
                card = Card.parse(text)
                if (seat, card) in penalties or (seat is dummy and dummy_faced and card in dummy_hand):
                    continue
                self.sim.remove(text)
        for seat, card in penalties:
            if str(card) not in self.sim.on(f"{seat}.spread") and str(card) not in self.sim.on(f"{seat}.play"):
                self.sim.present(str(card), f"{seat}.spread")


def describe(snapshot: Snapshot) -> str:
    """Where the table is, in one line (printed when the demo starts or resumes)."""
    state = snapshot.state
    board = state.board
    if board is None:
        return f"no board yet; {len(state.boards)} finished"
    play = board.play
    cards = 0 if play is None else len(play.played_cards())
    return (f"board {board.number} ({board.phase.value}), {len(board.auction.calls)} calls, {cards} cards; "
            f"{len(state.boards)} boards finished")
