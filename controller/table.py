"""The table: one immutable state and ``step(state, action) -> Step``.

``step`` never mutates and never raises for anything that can happen at a table. An
illegal call or card becomes an ``Irregularity`` (kind, situation and law of the code in
force, offender, chooser, options). An action that makes no sense now (a card before any
board, a claim of 14 tricks, a call while the arbiter is being waited for) is
``rejected`` with a clear message and leaves the state unchanged.

Irregular calls and cards are held aside (``BoardState.held``) until their ruling, or
until the next non-offender accepts them by acting (Laws 27A, 29A, 53, 60): the table
blocks only what the law stops. A ruling applies its option and leaves what the law
imposes afterwards on the board as values (``controller.rulings``): obligations in the
auction, penalty cards, lead and play restrictions, revoke records whose tricks are
transferred when the play ends (Law 64). Those are enforced at every later call and card.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from controller import actions as a
from controller import rulings as r
from controller.auction import Auction
from controller.calls import PASS, Call, CallKind
from controller.cards import Card, Rank, Suit
from controller.codes import Code, Sheet, SheetEntry, code_named
from controller.codes.bridge1905 import W_UNEXPECTED_ACT, Declaration1905
from controller.contract import Contract
from controller.deal import Deal
from controller.irregularities import (
    KIND_OF_SITUATION,
    OPTIONS,
    SITUATION_OPTIONS,
    Irregularity,
    detect_call_after_auction_closed,
    detect_inadmissible_double,
    detect_insufficient_bid,
    detect_revoke,
)
from controller.play import Play, Trick
from controller.rulings import Held, Obligation, PenaltyCard, Policy, RevokeRecord
from controller.scoring import DealResult
from controller.seats import Seat, Side, Vulnerability
from controller.tempo import (
    ActKind,
    Pace,
    TempoSettings,
    hesitation,
    is_skip_bid,
    record_think,
    skip_bid_wait,
    think_time,
)
from controller.values import evolve

__all__ = [
    "BoardOutcome", "BoardState", "Event", "Phase", "Step", "TableState", "abandon_board", "finish_session",
    "step", "think_times",
]


class Phase(Enum):
    """Where the board stands."""

    AUCTION = "auction"
    DECLARATION = "declaration"
    PLAY = "play"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class Event:
    """Something the table reports: ``kind`` (``call``, ``card``, ``trick``, ``rejected`` ...)."""

    kind: str
    detail: str = ""
    seat: Seat | None = None
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class PendingClaim:
    """A claim (or concession) awaiting agreement: ``tricks`` of the remaining ones to ``side``."""

    seat: Seat
    side: Side
    tricks: int
    needed: frozenset[Seat]
    agreed: frozenset[Seat] = frozenset()
    statement: str = ""
    disputed: int | None = None


@dataclass(frozen=True, slots=True)
class BoardState:
    """One board in progress: its setup, auction (or 1905 declaration), play, timing and rulings."""

    index: int
    number: int | None
    dealer: Seat
    vulnerability: Vulnerability
    deal: Deal | None
    phase: Phase
    auction: Auction
    declaration: Declaration1905 | None = None
    contract: Contract | None = None
    play: Play | None = None
    claim: PendingClaim | None = None
    call_times: tuple[float, ...] = ()
    play_times: tuple[float, ...] = ()
    alerts: tuple[int, ...] = ()
    stops: tuple[tuple[Seat, float], ...] = ()
    shown_out: tuple[tuple[Seat, Suit, int], ...] = ()
    played: int = 0
    irregularity_ids: tuple[int, ...] = ()
    faced: tuple[tuple[Seat, tuple[Card, ...]], ...] = ()
    held: tuple[Held, ...] = ()
    obligations: tuple[Obligation, ...] = ()
    penalty_cards: tuple[PenaltyCard, ...] = ()
    revokes: tuple[RevokeRecord, ...] = ()
    exposed: tuple[tuple[Seat, Card, bool, int], ...] = ()
    deferred: tuple[tuple[Seat, Card], ...] = ()
    lead_options_for: int = 0
    start_t: float = 0.0
    last_t: float | None = None
    last_card: tuple[Seat, float] | None = None
    pauses: tuple[tuple[float, float], ...] = ()

    @property
    def contract_text(self) -> str | None:
        """The contract as the records write it (``4HX``), ``Pass`` when passed out, else None."""
        if self.contract is not None:
            return self.contract.text
        return "Pass" if self.auction.is_passed_out else None


@dataclass(frozen=True, slots=True)
class BoardOutcome:
    """A finished board: the result and what it added to the score sheet.

    ``status``: ``played`` (13 tricks), ``claimed``, ``passed_out``, ``adjusted`` (the
    arbiter assigned the tricks), ``redeal`` or ``incomplete`` (abandoned before a result).
    ``tricks`` are declarer's after revoke transfers; ``transfer`` is what each side (NS,
    EW) gave up for its revokes (Law 64), with ``notes`` for the arbiter.
    """

    board: BoardState
    status: str
    tricks: int | None
    entries: tuple[SheetEntry, ...]
    transfer: tuple[int, int] = (0, 0)
    notes: tuple[str, ...] = ()
    sheet_before: Sheet | None = None
    tricks_before_transfer: int | None = None

    @property
    def result(self) -> str | None:
        c = self.board.contract
        return None if c is None or self.tricks is None else c.result(self.tricks)

    @property
    def score_ns(self) -> int | None:
        """North-South's net points from this deal's sheet entries; None if not scored."""
        if self.status in ("incomplete", "redeal"):
            return None
        return sum(e.points if e.side is Side.NS else -e.points for e in self.entries)


@dataclass(frozen=True, slots=True)
class TableState:
    """The whole table: code in force, score sheet, board in progress, finished boards."""

    code: Code
    sheet: Sheet
    board: BoardState | None = None
    boards: tuple[BoardOutcome, ...] = ()
    irregularities: tuple[Irregularity, ...] = ()
    settings: tuple[tuple[str, object], ...] = ()
    director_called: Seat | None = None
    finished: bool = False
    irregularity_count: int = 0
    policy: Policy = Policy()
    tempo: TempoSettings = TempoSettings()
    before_ruling: tuple[tuple[int, TableState], ...] = ()

    @classmethod
    def new(cls, code: str = "duplicate", settings: dict[str, object] | None = None) -> TableState:
        """A table with no board yet, playing ``code``; ValueError for an unusable setting."""
        settings = settings or {}
        c = code_named(code, settings)
        tempo = TempoSettings.from_settings(settings)
        return cls(c, c.new_sheet(), settings=tuple(settings.items()),
                   policy=Policy.from_settings(settings), tempo=tempo)

    # Queries, in the manner of python-chess.
    @property
    def phase(self) -> Phase | None:
        return None if self.board is None else self.board.phase

    @property
    def turn(self) -> Seat | None:
        """The seat due to act (call, declare or play), None between boards."""
        b = self.board
        if b is None or b.phase is Phase.DONE:
            return None
        if b.phase is Phase.PLAY and b.play is not None:
            return b.play.turn
        if b.phase is Phase.DECLARATION and b.declaration is not None:
            return b.declaration.turn
        return b.auction.turn

    def legal_calls(self) -> tuple[Call, ...]:
        """The calls the seat in turn may make, obligations (pass, no double, repeat) included."""
        b = self.board
        if b is None or b.phase is not Phase.AUCTION:
            return ()
        seat = b.auction.turn
        return tuple(c for c in b.auction.legal_calls()
                     if r.forbidden_call(b.obligations, seat, c, b.auction) is None)

    def is_legal_call(self, call: Call) -> bool:
        return call in self.legal_calls()

    def legal_cards(self, seat: Seat | None = None) -> tuple[Card, ...]:
        """The cards ``seat`` (default: in turn) may play, restrictions and penalty cards included."""
        b = self.board
        if b is None or b.phase is not Phase.PLAY or b.play is None:
            return ()
        seat = b.play.turn if seat is None else seat
        if seat is not b.play.turn:
            return ()
        cards = r.playable_cards(b.play, seat, b.obligations, b.penalty_cards)
        return () if cards is None else tuple(sorted(cards))

    def contract(self) -> Contract | None:
        return None if self.board is None else self.board.contract

    def outcome(self) -> BoardOutcome | None:
        """The outcome of the last finished board."""
        return self.boards[-1] if self.boards else None

    def irregularity(self, id_: int) -> Irregularity | None:
        """The irregularity with id ``id_`` (ids run from 1 in order of detection)."""
        for irr in reversed(self.irregularities):
            if irr.id == id_:
                return irr
        return None

    def awaiting(self) -> tuple[Irregularity, ...]:
        """The irregularities still awaiting a ruling."""
        return tuple(i for i in self.irregularities if i.status == "awaiting_ruling")

    @property
    def total_ns(self) -> int:
        return self.sheet.total_ns


@dataclass(frozen=True, slots=True)
class Step:
    """The result of one action: the new state, what happened, and irregularities raised."""

    state: TableState
    events: tuple[Event, ...] = ()
    irregularities: tuple[Irregularity, ...] = ()


def _reject(state: TableState, why: str, action: Any) -> Step:
    seat = getattr(action, "seat", None)
    return Step(state, (Event("rejected", why, seat, getattr(action, "t", 0.0)),))


def _raise(state: TableState, board: BoardState, situation: str, offender: Seat | None,
           detail: str, t: float, trick: int | None = None, chooser: str | None = None,
           options: tuple[str, ...] | None = None, kind: str | None = None,
           status: str = "awaiting_ruling") -> tuple[TableState, BoardState, Irregularity]:
    """Record a new irregularity against ``board``; ids run from 1 in order of detection."""
    kind = kind or KIND_OF_SITUATION.get(situation, situation)
    law = state.code.law(situation) or state.code.law(kind)
    if options is None:
        options = SITUATION_OPTIONS.get(situation, OPTIONS.get(kind, ()))
    irr = Irregularity(
        id=state.irregularity_count + 1, kind=kind, situation=situation, law=law,
        offender=offender, chooser=chooser or _default_chooser(kind, offender, board),
        options=options, detail=detail, t=t, board=board.number, trick=trick, status=status,
        notify=state.policy.notify_of(kind))
    board = evolve(board, irregularity_ids=(*board.irregularity_ids, irr.id))
    state = evolve(state, irregularities=(*state.irregularities, irr), board=board,
                   irregularity_count=irr.id)
    return state, board, irr


def _settle(state: TableState, id_: int, status: str, **ruling: object) -> TableState:
    """The state with irregularity ``id_`` given ``status`` and its ruling (or its acceptance)."""
    irrs = tuple(evolve(i, status=status, ruling=tuple(ruling.items()) or i.ruling)
                 if i.id == id_ else i for i in state.irregularities)
    return evolve(state, irregularities=irrs)


def _default_chooser(kind: str, offender: Seat | None, board: BoardState) -> str:
    """Who picks among the options, per LAWS.md Part 1 (the arbiter where the law says so)."""
    if offender is None:
        return "arbiter"
    if kind in ("insufficient_bid", "call_out_of_rotation"):
        return str(offender.lho)
    if kind in ("opening_lead_out_of_turn", "premature_play", "penalty_card",
                "failure_to_play_penalty_card") and board.contract is not None:
        return str(board.contract.declarer)
    if kind == "lead_out_of_turn" and board.contract is not None:
        if offender.side is board.contract.declarer.side:
            return str(board.contract.declarer.lho.side)
        return str(board.contract.declarer)
    if kind == "simultaneous_play":
        return str(offender)
    if kind == "card_exposed_in_auction":
        return "none"
    return "arbiter"


def _declarer(board: BoardState) -> Seat:
    assert board.contract is not None
    return board.contract.declarer


def _hold(board: BoardState, held: Held) -> BoardState:
    return evolve(board, held=(*board.held, held))


def _unhold(board: BoardState, source: int) -> BoardState:
    return evolve(board, held=tuple(h for h in board.held if h.source != source))


def _held_of(board: BoardState, source: int) -> Held | None:
    for h in board.held:
        if h.source == source:
            return h
    return None


def _oblige(board: BoardState, *obs: Obligation) -> BoardState:
    return evolve(board, obligations=(*board.obligations, *obs))


def _drop(board: BoardState, kinds: tuple[str, ...], seat: Seat | None = None) -> BoardState:
    kept = tuple(o for o in board.obligations
                 if not (o.kind in kinds and (seat is None or o.seat is seat)))
    return evolve(board, obligations=kept)


# --- tempo -------------------------------------------------------------------------------------

def _since_last_act(board: BoardState, t: float) -> float:
    """Seconds since the previous call or card at the table (the board's start for the first)."""
    return t - (board.start_t if board.last_t is None else board.last_t)


def _timed(state: TableState, board: BoardState, seat: Seat, kind: ActKind, t: float,
           after_skip: bool) -> tuple[TableState, BoardState, Irregularity | None]:
    """Time one call or card (Laws 16, 73): flag a think far beyond the player's own pace."""
    think = max(0.0, _since_last_act(board, t))
    irr = None
    # the player's own pace is read from the timing already kept, and only for a long think:
    # most acts cost one subtraction (the caller copies the board once with ``last_t=t``)
    if think >= state.tempo.min_s(kind):
        pace = _pace(state, board, seat, kind)
        why = hesitation(pace, seat, kind, think, state.tempo, after_skip_bid=after_skip)
        if why is not None:
            trick = board.play.trick_number if board.play is not None else None
            state, board, irr = _raise(state, board, "hesitation", seat, why, t, trick,
                                       chooser="arbiter", status="awaiting_ruling")
    return state, board, irr


def think_times(board: BoardState, kind: ActKind) -> list[tuple[Seat, float]]:
    """Each call's or card's think time on ``board``, in order: the time since the previous act."""
    if kind is ActKind.CALL:
        seats: list[Seat] = list(board.auction.seats)
        times, previous = board.call_times, board.start_t
    else:
        play = board.play
        if play is None:
            return []
        seats = [trick.seat_of(i) for trick in (*play.tricks, play.current) for i in range(len(trick.cards))]
        times, previous = board.play_times, board.call_times[-1] if board.call_times else board.start_t
    out: list[tuple[Seat, float]] = []
    for s, t in zip(seats, times, strict=False):
        out.append((s, think_time(previous, t, board.pauses) if board.pauses else max(0.0, t - previous)))
        previous = t
    return out


def _pause_timers(state: TableState, irr: Irregularity, t: float) -> TableState:
    """The state with the think timer stopped while the arbiter ruled on ``irr`` (LAWS.md §4.2).

    The pause runs from the irregularity (or the last act, if later) to the ruling: that
    time is the arbiter's, not the next player's think (D 16, 73; R 16A judge a player's own
    tempo). ``last_t`` moves on by the pause, so the next act's think leaves it out, and the
    pause is kept for ``think_times``.
    """
    board = state.board
    if board is None or board.phase is Phase.DONE:
        return state
    last = board.start_t if board.last_t is None else board.last_t
    start = max(last, irr.t)
    if t <= start:
        return state
    return evolve(state, board=evolve(board, last_t=last + (t - start), pauses=(*board.pauses, (start, t))))


def _thinks(board: BoardState, seat: Seat, kind: ActKind) -> list[float]:
    """``seat``'s think times over calls or cards on ``board``, in order."""
    return [x for s, x in think_times(board, kind) if s is seat]


def _pace(state: TableState, board: BoardState, seat: Seat, kind: ActKind) -> Pace:
    """The player's recent thinks (this board and the ones before), as a tempo ``Pace``."""
    window = state.tempo.window
    times = _thinks(board, seat, kind)
    for outcome in reversed(state.boards):
        if len(times) >= window:
            break
        times = _thinks(outcome.board, seat, kind) + times
    pace = Pace.for_settings(state.tempo)
    for x in times[-window:]:
        pace = record_think(pace, seat, kind, x)
    return pace


# --- board set-up -------------------------------------------------------------------------

def _session(state: TableState, act: a.SessionStart) -> Step:
    if state.boards or state.board is not None:
        return _reject(state, "the session has already started: its code cannot change", act)
    try:
        fresh = TableState.new(act.code, dict(act.settings))
    except ValueError as exc:
        return _reject(state, str(exc), act)
    return Step(fresh, (Event("session", fresh.code.name, None, act.t),))


def _board(state: TableState, act: a.BoardStart) -> Step:
    events: list[Event] = []
    if state.board is not None and state.board.phase is not Phase.DONE:
        state = _close(state, state.board, "incomplete", None)
        events.append(Event("board_abandoned", "the previous board ended without a result",
                            None, act.t))
    dealer, vul = state.code.deal_setup(state.sheet, act.number, act.dealer, act.vulnerability)
    declaration = state.code.declaration(dealer)
    board = BoardState(
        index=len(state.boards) + 1, number=act.number, dealer=dealer, vulnerability=vul,
        deal=act.deal, phase=Phase.DECLARATION if declaration else Phase.AUCTION,
        auction=Auction(dealer), declaration=declaration, start_t=act.t)
    events.append(Event("board", f"board {act.number} dealer {dealer} vul {vul}", None, act.t))
    return Step(evolve(state, board=board, director_called=None, before_ruling=()), tuple(events))


# --- the auction ---------------------------------------------------------------------------

_ACCEPTABLE_BY_LHO = ("insufficient_bid", "call_out_of_rotation")


def _call(state: TableState, act: a.MakeCall) -> Step:
    board = state.board
    if board is None:
        return _reject(state, f"call {act.call} by {act.seat} before any board", act)
    if board.phase is Phase.DECLARATION:
        return _reject(state, "the 1905 game has no auction: declare trumps instead", act)
    if board.phase is Phase.DONE:
        return _reject(state, f"call {act.call} by {act.seat}: the board is over", act)
    auction = board.auction
    if detect_call_after_auction_closed(auction):
        detail = f"{act.seat} {act.call} after the auction closed"
        state, board, irr = _raise(state, board, "call_after_auction_closed", act.seat, detail,
                                   act.t, chooser="arbiter")
        board = _hold(board, Held(irr.id, act.seat, call=act.call, t=act.t))
        return Step(evolve(state, board=board), (Event("irregularity", irr.situation, act.seat, act.t),),
                    (irr,))
    for held in board.held:
        if held.call is not None:
            return _call_while_held(state, board, held, act)
    return _call_in_order(state, board, act)


def _call_in_order(state: TableState, board: BoardState, act: a.MakeCall) -> Step:
    """A call with nothing held: compulsory passes, then detection, then the call itself."""
    events: list[Event] = []
    auction = board.auction
    turn = auction.turn
    if board.obligations and act.seat is not turn and act.seat is turn.lho and any(
            o.kind in (r.PASS_ONCE, r.PASS_ALL) and o.seat is turn for o in board.obligations):
        # Law 28A: a player may call without waiting for the compulsory pass of his RHO
        state, board, auto = _apply_call(state, board, turn, PASS, act.t, timed=False)
        events.append(Event("compulsory_pass", "recorded for the barred player (Law 28A)", turn, act.t))
        events.extend(auto)
        if board.phase is not Phase.AUCTION:
            return Step(state, tuple(events))
        auction = board.auction
    situation = _call_situation(board, act.seat, act.call)
    if situation is not None:
        detail = f"{act.seat} {act.call}" + (
            f" while {auction.turn} was to call" if act.seat is not auction.turn else "")
        state, board, irr = _raise(state, board, situation, act.seat, detail, act.t)
        board = _hold(board, Held(irr.id, act.seat, call=act.call, t=act.t))
        events.append(Event("irregularity", irr.situation, act.seat, act.t))
        return Step(evolve(state, board=board), tuple(events), (irr,))
    count = state.irregularity_count
    state, board, more = _apply_call(state, board, act.seat, act.call, act.t)
    events.extend(more)
    raised = state.irregularity_count - count
    return Step(state, tuple(events), state.irregularities[-raised:] if raised else ())


def _call_situation(board: BoardState, seat: Seat, call: Call) -> str | None:
    """The catalogue row of an irregular call, or None for a legal one (Laws 25-39)."""
    auction = board.auction
    if seat is not auction.turn:
        return r.call_out_of_rotation_situation(auction, seat, call)
    broken = r.forbidden_call(board.obligations, seat, call, auction) if board.obligations else None
    if broken is not None:
        if broken.kind in (r.PASS_ONCE, r.PASS_ALL):
            return "call_by_player_required_to_pass"
        if broken.kind == r.REPEAT:
            return "call_not_repeated"
        return "double_when_barred"
    return detect_insufficient_bid(auction, call) or detect_inadmissible_double(auction, call, seat)


def _call_while_held(state: TableState, board: BoardState, held: Held, act: a.MakeCall) -> Step:
    """A call while an irregular call awaits its ruling: acceptance, waiver, condonation or wait."""
    irr = state.irregularity(held.source)
    assert irr is not None and held.call is not None
    offender = held.seat
    auction = board.auction
    if irr.kind in _ACCEPTABLE_BY_LHO and act.seat is offender.lho:
        # Laws 27A, 29A: LHO calling over it accepts it (at LHO's turn in the first round,
        # where 28B would cancel it instead, acceptance is chosen: the arbiter may undo)
        state = _settle(state, irr.id, "accepted", option="accept", by=str(act.seat))
        board = _unhold(board, irr.id)
        state, board, events = _apply_call(state, board, offender, held.call, held.t,
                                           timed=False, irregular=True)
        first = Event("accepted", f"{irr.id} {irr.situation} accepted by {act.seat} calling",
                      act.seat, act.t)
        if board.phase is not Phase.AUCTION:
            return Step(state, (first, *events))
        rest = _call_in_order(state, board, act)
        return Step(rest.state, (first, *events, *rest.events), rest.irregularities)
    if (irr.kind == "call_out_of_rotation" and act.seat is auction.turn and irr.status == "awaiting_ruling"
            and abs(act.t - held.t) <= state.policy.simultaneous_window):
        # Law 33: calls made at the same time; the call of the player in turn counts first and
        # the other is deemed made after it, judged afresh against the new turn
        state = _settle(state, irr.id, "superseded", option="cancel", by=str(act.seat),
                        deemed=f"made after {act.seat}'s call (Law 33)")
        board = _unhold(board, irr.id)
        first = Event("simultaneous", f"{irr.id}: {offender} {held.call} and {act.seat} {act.call} made at the "
                      f"same time: {act.seat}'s call counts first (Law 33)", act.seat, act.t)
        rest = _call_in_order(evolve(state, board=board), board, act)
        then = _call(rest.state, a.MakeCall(offender, held.call, act.t))
        return Step(then.state, (first, *rest.events, *then.events), (*rest.irregularities, *then.irregularities))
    if (irr.kind == "call_out_of_rotation" and act.seat is auction.turn
            and act.seat.side is not offender.side):
        # Law 28B: the player in turn calling waives the penalty; the call is cancelled
        state = _settle(state, irr.id, "waived", option="cancel", by=str(act.seat))
        board = _unhold(board, irr.id)
        first = Event("waived", f"{irr.id} cancelled: {act.seat} called in turn (Law 28B)",
                      act.seat, act.t)
        rest = _call_in_order(state, board, act)
        return Step(rest.state, (first, *rest.events), rest.irregularities)
    if irr.situation in ("inadmissible_double", "double_oor_inadmissible") and act.seat is offender.lho:
        # D 36A / R 35A: the double and every later call are cancelled, no rectification
        state = _settle(state, irr.id, "cancelled", option="cancel", by=str(act.seat))
        board = _unhold(board, irr.id)
        return Step(evolve(state, board=board),
                    (Event("cancelled", f"{irr.id} {held.call} and {act.seat} {act.call} cancelled; "
                           f"{auction.turn} to call (Law 36A)", act.seat, act.t),))
    if irr.situation == "call_by_player_required_to_pass" and act.seat is offender.lho:
        # D 37A / R 35B: condoned; the calls stand, no lead restriction
        state = _settle(state, irr.id, "accepted", option="accept", by=str(act.seat))
        board = _unhold(board, irr.id)
        board = _drop(board, (r.PASS_ONCE,), offender)
        if state.code.rules.family == "duplicate":
            board = _oblige(board, Obligation(r.PASS_ALL, offender, irr.id))
        state, board, events = _apply_call(state, board, offender, held.call, held.t,
                                           timed=False, irregular=True)
        rest = _call_in_order(state, board, act)
        return Step(rest.state, (*events, *rest.events), rest.irregularities)
    who = f"; {offender.lho} may accept it by calling" if irr.kind in _ACCEPTABLE_BY_LHO else ""
    return _reject(state, f"{act.seat} {act.call}: irregularity {irr.id} ({irr.situation}, Law "
                   f"{irr.law}) awaits the arbiter's ruling{who}", act)


def _apply_call(state: TableState, board: BoardState, seat: Seat, call: Call, t: float,
                timed: bool = True, irregular: bool = False) -> tuple[TableState, BoardState, list[Event]]:
    """Put ``call`` by ``seat`` into the auction, settling the obligations it meets."""
    events: list[Event] = []
    board, call, replaced = _resolve_obligations(state, board, seat, call, events)
    if replaced:
        return state, board, events
    auction = board.auction
    think = _since_last_act(board, t)
    timed = timed and state.policy.timing
    if timed and auction.calls and auction.calls[-1].is_bid and auction.seats[-1] is seat.rho \
            and _was_skip(board, state):
        # Law 73 (ACBL), R App. 2: after a skip bid the next player waits about 10 s
        stop = any(s is seat.rho and (board.call_times[-1] - 15) <= st <= board.call_times[-1]
                   for s, st in board.stops)
        # judged when the Stop card was shown, or always with the setting "skip_bid_always"
        always = dict(state.settings).get("skip_bid_always") is True
        why = skip_bid_wait(stop, think, state.tempo, seat=seat) if stop or always else None
        if why is not None:
            state, board, _ = _raise(state, board, "skip_bid_wait", seat, why, t, chooser="arbiter")
        if think >= state.tempo.min_call_s:
            state, board, _ = _timed(state, board, seat, ActKind.CALL, t, True)
    elif timed and think >= state.tempo.min_call_s:
        state, board, _ = _timed(state, board, seat, ActKind.CALL, t, False)
    auction = board.auction.with_call(call, seat)
    board = evolve(board, auction=auction, call_times=(*board.call_times, t), last_t=t if timed else board.last_t)
    events.append(Event("call", str(call) + (" (irregular, accepted)" if irregular else ""), seat, t))
    if auction.is_complete and (cut := r.skipped_turn(auction)) is not None:
        board = _reopen_auction(board, cut)
        auction = board.auction
        events.append(Event("auction_reopened", f"a pass out of rotation skipped {auction.turn}: the passes "
                            f"from it on are cancelled and {auction.turn} calls (Law 34; D 17E)", auction.turn, t))
    if auction.is_complete:
        contract = auction.contract()
        if contract is None:
            state = _close(evolve(state, board=board), board, "passed_out", 0)
            events.append(Event("passed_out", "", None, t))
            return state, state.board or board, events
        board = _start_play(board, contract, state.code.rules.family == "duplicate")
        events.append(Event("contract", str(contract), contract.declarer, t))
        state, board, more = _lead_options_due(evolve(state, board=board), board, t)
        events.extend(more)
    return evolve(state, board=board), board, events


def _was_skip(board: BoardState, state: TableState) -> bool:
    """Whether the last call was a skip bid (a jump; R App. 2 also 2-level openings)."""
    calls = board.auction.calls
    if not calls or not calls[-1].is_bid:
        return False
    previous = next((c.rank for c in reversed(calls[:-1]) if c.is_bid), None)
    return is_skip_bid(previous, calls[-1], state.tempo.rubber_app2)


def _reopen_auction(board: BoardState, cut: int) -> BoardState:
    """The board with the calls from index ``cut`` on cancelled (Law 34; D 17E): the auction
    is rebuilt from the calls before it, so the turn is the skipped player's."""
    auction = board.auction
    rebuilt = Auction(auction.dealer)
    for c, s in zip(auction.calls[:cut], auction.seats[:cut], strict=True):
        rebuilt = rebuilt.with_call(c, s)
    return evolve(board, auction=rebuilt, call_times=board.call_times[:cut])


def _resolve_obligations(state: TableState, board: BoardState, seat: Seat, call: Call,
                         events: list[Event]) -> tuple[BoardState, Call, bool]:
    """Settle the obligations a legal call by ``seat`` meets (Laws 27B, 30-32, 36)."""
    if not board.obligations:
        return board, call, False
    rules = state.code.rules
    partner = seat.partner
    new: list[Obligation] = []
    kept: list[Obligation] = []
    replaced = False
    for ob in board.obligations:
        if ob.kind == r.REPLACE_CALL and ob.seat is seat:
            original = ob.call
            assert original is not None
            if ob.mode in ("insufficient", "artificial"):
                # D 27B1(a) / R 27A: only when neither bid is artificial (the arbiter's finding)
                lowest = (ob.mode == "insufficient" and call.is_bid and call.denomination is original.denomination
                          and board.auction.last_bid is not None
                          and call.rank <= board.auction.last_bid.rank + 5)
                if lowest:
                    events.append(Event("rectification", "lowest sufficient bid in the same "
                                        "denomination: no rectification (Law 27B1(a))", seat))
                elif call.kind in (CallKind.DOUBLE, CallKind.REDOUBLE):
                    new.append(Obligation(r.PASS_ALL, partner, ob.source))
                    new.append(Obligation(r.LEAD_OPT_26, partner, ob.source,
                                          suits=r.lead_suits_of(original)))
                    if rules.insufficient_double_forces_pass:
                        call = PASS
                        events.append(Event("rectification", "a double replacing an insufficient "
                                            "bid is cancelled: the offender passes (R 27D)", seat))
                    else:
                        kept.append(evolve(ob, mode="any"))
                        events.append(Event("rectification", "a double replacing an insufficient bid "
                                            "is cancelled: call again; partner passes for the rest "
                                            "(D 27B)", seat))
                        replaced = True
                        continue
                else:
                    new.append(Obligation(r.PASS_ALL, partner, ob.source))
                    if rules.family == "duplicate" or not (call.is_bid and call.denomination is original.denomination):
                        # R 26A, 26B1: a replacement repeating the denomination leaves no lead option;
                        # D 26: a suit bid in the legal auction is dropped when the play starts, and
                        # a withdrawn notrump bid still lets declarer prohibit one suit
                        new.append(Obligation(r.LEAD_OPT_26, partner, ob.source,
                                              suits=r.lead_suits_of(original)))
                    events.append(Event("rectification", "partner must pass for the rest of the "
                                        "auction (Law 27B2)", partner))
            continue
        if ob.kind in (r.OOR_BID_RHO, r.OOR_DOUBLE_RHO) and ob.seat.rho is seat:
            offender = ob.seat
            if call.kind is CallKind.PASS:
                new.append(Obligation(r.REPEAT, offender, ob.source, ob.call))
                events.append(Event("rectification", f"{offender} must repeat {ob.call} (Laws 31A1, 32B1)",
                                    offender))
            elif ob.kind == r.OOR_BID_RHO:
                new.append(Obligation(r.OOR_REPLACEMENT, offender, ob.source, ob.call))
            else:
                bar = r.PASS_ALL if rules.double_oor_bars_partner_for_rest else r.PASS_ONCE
                new.append(Obligation(bar, offender.partner, ob.source))
                new.append(Obligation(r.LEAD_OPT_26, offender.partner, ob.source))
                events.append(Event("rectification", f"{offender.partner} must pass "
                                    f"{'for the rest of the auction' if bar == r.PASS_ALL else 'once'}"
                                    " (Law 32B2)", offender.partner))
            continue
        if ob.kind == r.OOR_REPLACEMENT and ob.seat is seat:
            cancelled = ob.call
            assert cancelled is not None
            if call.is_bid and call.denomination is cancelled.denomination:
                new.append(Obligation(r.PASS_ONCE, partner, ob.source))
                events.append(Event("rectification", "same denomination: partner passes once (Law 31A2)",
                                    partner))
            else:
                new.append(Obligation(r.PASS_ALL, partner, ob.source))
                new.append(Obligation(r.LEAD_OPT_26, partner, ob.source, suits=r.lead_suits_of(cancelled)))
                events.append(Event("rectification", "partner must pass for the rest of the auction "
                                    "(Law 31A2)", partner))
            continue
        if ob.seat is seat and ob.kind in (r.PASS_ONCE, r.NO_X_NOW, r.REPEAT):
            continue
        if ob.kind == r.NO_X_SAME and call.is_bid:
            continue
        kept.append(ob)
    return evolve(board, obligations=(*kept, *new)), call, replaced


def _start_play(board: BoardState, contract: Contract, specified_in_auction: bool = False) -> BoardState:
    """The play begins: auction obligations end; exposed cards of defenders become penalty cards.

    Law 26 lead options stay only for the defending side; in duplicate a suit the offender
    bid in the legal auction is dropped from them (D 26: no rectification for that suit).
    """
    play = Play.start(contract.declarer, contract.denomination.trump, board.deal)
    defenders = (contract.declarer.lho, contract.declarer.rho)
    obligations: list[Obligation] = []
    for o in board.obligations:
        if o.kind != r.LEAD_OPT_26 or o.seat not in defenders:
            continue
        if specified_in_auction and o.suits:
            named = {c.denomination.trump for c in board.auction.calls_of(o.seat.partner)
                     if c.is_bid and c.denomination is not None}
            kept = tuple(s for s in o.suits if s not in named)
            if not kept:
                continue
            o = evolve(o, suits=kept)
        obligations.append(o)
    pcs = list(board.penalty_cards)
    mine: dict[Seat, int] = {}
    for seat, _, _, _ in board.exposed:
        mine[seat] = mine.get(seat, 0) + 1
    for seat, card, major, source in board.exposed:
        if seat in defenders:
            pcs.append(PenaltyCard(seat, card, r.is_major(card, major, mine[seat] - 1), source))
    return evolve(board, phase=Phase.PLAY, contract=contract, play=play, obligations=tuple(obligations),
                  penalty_cards=tuple(pcs), exposed=())


def _stop(state: TableState, act: a.StopCard) -> Step:
    board = state.board
    if board is None or board.phase is not Phase.AUCTION:
        return _reject(state, "a Stop card is shown only during the auction", act)
    return Step(evolve(state, board=evolve(board, stops=(*board.stops, (act.seat, act.t)))),
                (Event("stop", "", act.seat, act.t),))


def _alert(state: TableState, act: a.AlertCard) -> Step:
    board = state.board
    if board is None or not board.auction.calls:
        return _reject(state, "an Alert needs a call to alert", act)
    index = len(board.auction.calls) - 1
    return Step(evolve(state, board=evolve(board, alerts=(*board.alerts, index))),
                (Event("alert", str(board.auction.calls[index]), act.seat, act.t),))


# --- the 1905 declaration ------------------------------------------------------------------

def _declaration(state: TableState, act: a.Declare | a.DoubleDeclaration | a.Satisfied) -> Step:
    board = state.board
    if board is None or board.declaration is None:
        return _reject(state, "trump declarations and doubling belong to the 1905 game", act)
    if board.phase is not Phase.DECLARATION:
        return _reject(state, "the declaration and doubling are over", act)
    if isinstance(act, a.Declare):
        move: tuple[Any, ...] = (("declare", act.denomination) if act.denomination is not None
                                 else ("pass_to_partner",))
    elif isinstance(act, a.DoubleDeclaration):
        move = ("double",)
    else:
        move = ("satisfied",)
    before = board.declaration
    result = before.apply(act.seat, move)
    if result.situation == W_UNEXPECTED_ACT:
        return _reject(state, f"{act.seat} {move[0]}: not an act the 1905 laws allow now", act)
    board = evolve(board, declaration=result.declaration)
    events = [Event("declaration", " ".join(str(m) for m in move), act.seat, act.t)]
    irrs: tuple[Irregularity, ...] = ()
    if result.situation is not None:
        state, board, irr = _raise(state, board, result.situation, act.seat,
                                   f"{act.seat} {move[0]}", act.t,
                                   chooser=_chooser_1905(result.situation, before))
        irrs = (irr,)
    board, started = _declaration_done(board, act.t)
    events.extend(started)
    return Step(evolve(state, board=board), tuple(events), irrs)


def _chooser_1905(situation: str, before: Declaration1905) -> str:
    """Who decides a 1905 declaration irregularity (W 46-48 eldest/dealer; W 54, 55)."""
    if situation in ("w_trump_named_by_partner_uninvited", "w_declaration_passed_back_to_dealer"):
        return str(before.eldest)
    if situation == "w_adversary_names_or_passes_trump":
        return str(before.dealer)
    if situation == "w_double_before_may_i_lead":
        return str(before.maker or before.dealer)
    last = before.last_doublers[before.adversaries]
    return str(last or before.eldest)


def _declaration_done(board: BoardState, t: float) -> tuple[BoardState, list[Event]]:
    """Start the play once the declaration and doubling are over (W 57, 61)."""
    declaration = board.declaration
    if declaration is None or not declaration.is_complete or board.phase is not Phase.DECLARATION:
        return board, []
    contract = declaration.contract()
    play = Play.start(contract.declarer, contract.denomination.trump, board.deal)
    board = evolve(board, phase=Phase.PLAY, contract=contract, play=play)
    return board, [Event("contract", str(contract), contract.declarer, t)]


# --- the play ------------------------------------------------------------------------------

def _card(state: TableState, act: a.PlayCard) -> Step:
    board = state.board
    if board is None or board.phase is Phase.DONE:
        return _reject(state, f"{act.card} by {act.seat}: no board is being played", act)
    if board.phase is Phase.DECLARATION:
        return _reject(state, f"{act.card} by {act.seat} before the trumps are declared "
                       "(W 67, 68: the arbiter enters an exposed card)", act)
    if board.phase is Phase.AUCTION:
        return _exposed_in_auction(state, board, act.seat, (act.card,), act.t, led=True)
    play = board.play
    assert play is not None
    claim = board.claim
    if claim is not None and claim.disputed is not None and not state.code.rules.disputed_claim_plays_on:
        return _reject(state, f"{act.card} by {act.seat}: play has stopped for the arbiter's "
                       f"ruling on the disputed claim ({claim.disputed}, Law 70)", act)
    for held in board.held:
        if held.card is not None:
            irr = state.irregularity(held.source)
            if irr is not None and irr.status == "awaiting_ruling" and irr.situation in _BLOCKING_PLAY:
                return _card_while_held(state, board, held, irr, act)
    return _card_in_order(state, board, act)


_BLOCKING_PLAY = frozenset((
    "opening_lead_out_of_turn", "lead_from_wrong_hand_by_declarer",
    "lead_by_declarer_when_defender_on_lead", "lead_out_of_turn_by_defender",
    "lead_out_of_turn_last_trick", "premature_lead_by_defender", "premature_play_by_defender",
    "failure_to_play_penalty_card", "major_pc_partner_on_lead",
    "lead_restriction_from_withdrawn_call", "opening_lead_face_down_out_of_turn"))


def _card_in_order(state: TableState, board: BoardState, act: a.PlayCard) -> Step:
    """A card with no blocking irregularity pending: detect, then play it."""
    play = board.play
    assert play is not None
    trick_no = play.trick_number
    bit = 1 << act.card.index
    seat = act.seat
    situation: str | None = None
    if board.played & bit:
        situation = "card_played_twice"
    elif board.deal is not None:
        holder = board.deal.holder(act.card)
        if holder is not None and holder is not seat and play.hands[seat] is not None:
            situation = "card_not_in_hand"
    if situation is not None:
        return _hold_card(state, board, situation, seat, act, trick_no)
    last = board.last_card
    # a second card right after the card that completed a trick is two cards at once (Law 58B),
    # unless that seat won the trick and so leads the next one
    contributed = play.current.card_of(seat) is not None or (
        last is not None and last[0] is seat and seat is not play.turn
        and act.t - last[1] <= state.policy.simultaneous_window)
    if contributed:
        return _extra_card(state, board, act)
    if seat is not play.turn:
        return _out_of_turn(state, board, act)
    # the seat in turn: lead options due, penalty cards, restrictions, revokes
    due = _pending_lead_option(state, board, seat) if board.irregularity_ids else None
    if due is not None:
        board = _hold(board, Held(due.id, seat, card=act.card, t=act.t))
        return Step(evolve(state, board=board),
                    (Event("held", f"{act.card}: declarer has not yet chosen his lead option "
                           f"({due.id}, Law {due.law}); the lead waits", seat, act.t),))
    failure = _failure_to_play_penalty_card(board, seat, act.card) if board.penalty_cards else None
    if failure is not None:
        return _hold_card(state, board, "failure_to_play_penalty_card", seat, act, trick_no,
                          detail=f"{seat} played {act.card} instead of the penalty card {failure}")
    return _play_card(state, board, seat, act.card, act.t, act.how)


def _hold_card(state: TableState, board: BoardState, situation: str, seat: Seat, act: a.PlayCard,
               trick: int, detail: str | None = None) -> Step:
    # D 41A: the arbiter has a face-down lead out of turn returned; nobody chooses
    chooser = "arbiter" if situation == "opening_lead_face_down_out_of_turn" else None
    state, board, irr = _raise(state, board, situation, seat, detail or f"{seat} {act.card}", act.t, trick,
                               chooser=chooser)
    board = _hold(board, Held(irr.id, seat, card=act.card, t=act.t))
    return Step(evolve(state, board=board), (Event("irregularity", situation, seat, act.t),), (irr,))


def _extra_card(state: TableState, board: BoardState, act: a.PlayCard) -> Step:
    """A second card from a seat that has played to the trick: two at once, early lead, fifth card."""
    play = board.play
    assert play is not None and board.contract is not None
    seat = act.seat
    declarer = board.contract.declarer
    last = board.last_card
    if last is not None and last[0] is seat and act.t - last[1] <= state.policy.simultaneous_window:
        situation = ("two_cards_at_once_declarer" if seat.side is declarer.side
                     else "two_cards_at_once_defender")
    elif seat.side is not declarer.side and play.current.card_of(seat.partner) is None:
        situation = "premature_lead_by_defender"
    else:
        situation = "fifth_card_on_trick"
    return _hold_card(state, board, situation, seat, act, play.trick_number)


def _out_of_turn(state: TableState, board: BoardState, act: a.PlayCard) -> Step:
    """A card from a seat not in turn: a lead out of turn (53-56), or an early play (57)."""
    play = board.play
    assert play is not None and board.contract is not None
    seat = act.seat
    declarer = board.contract.declarer
    dummy = declarer.partner
    trick_no = play.trick_number
    rules = state.code.rules
    if not play.current.cards and seat.side is not declarer.side and _retraction_pending(state, board):
        # D 60 / R 60: a defender's card after declarer was told to retract his lead from the
        # wrong hand, before he leads from the right one, is a (major) penalty card
        state, board, irr = _raise(state, board, "defender_plays_after_retraction_ordered", seat,
                                   f"{seat} played {act.card} before declarer led from the right hand",
                                   act.t, trick_no, chooser="arbiter", status="noted")
        board = _add_penalty_card(board, seat, act.card, True, irr.id)
        return Step(evolve(state, board=board), (Event("penalty_card", f"{act.card} (Law 60)", seat, act.t),),
                    (irr,))
    if not play.current.cards:
        if not play.tricks:
            if seat.side is declarer.side:
                # D 54 note, R 48: not acceptable; the card goes back, no penalty
                state, board, irr = _raise(state, board, "opening_lead_by_declaring_side", seat,
                                           f"{seat} {act.card} before the opening lead", act.t, 1,
                                           status="noted")
                return Step(evolve(state, board=board),
                            (Event("irregularity", irr.situation, seat, act.t),), (irr,))
            situation = ("opening_lead_face_down_out_of_turn" if state.policy.face_down_opening_lead
                         else "opening_lead_out_of_turn")
            if board.declaration is not None:
                # 1905 (W 60, 76): the dealer plays both hands, so only his RHO can lead out of turn
                # here; the maker of the trump chooses
                declaration = board.declaration
                maker = declaration.maker if declaration.maker is not None else declaration.dealer
                state, board, irr = _raise(state, board, "w_opening_lead_by_dealers_rho", seat,
                                           f"{seat} led {act.card} while {play.turn} was to lead", act.t,
                                           trick_no, chooser=str(maker), kind="opening_lead_out_of_turn")
                board = _hold(board, Held(irr.id, seat, card=act.card, t=act.t))
                return Step(evolve(state, board=board), (Event("irregularity", irr.situation, seat, act.t),),
                            (irr,))
        elif seat.side is declarer.side:
            situation = ("lead_from_wrong_hand_by_declarer" if play.turn.side is declarer.side
                         else "lead_by_declarer_when_defender_on_lead")
        else:
            situation = "lead_out_of_turn_by_defender"
        if trick_no == 13 and not rules.last_trick_lead_acceptable and situation != "opening_lead_out_of_turn":
            situation = "lead_out_of_turn_last_trick"
        return _hold_card(state, board, situation, seat, act, trick_no,
                          detail=f"{seat} led {act.card} while {play.turn} was to lead")
    # a trick is in progress and the seat has not played to it
    current = play.current
    both_declarer_hands = (current.card_of(declarer) is not None and current.card_of(dummy) is not None)
    if seat.side is declarer.side or current.card_of(seat.partner) is not None or both_declarer_hands:
        # D 57 note: declarer's early card is played; a defender whose partner has played, or
        # after declarer played from both hands, is not rectified: the card waits for its turn
        board = evolve(board, deferred=(*board.deferred, (seat, act.card)))
        return Step(evolve(state, board=board),
                    (Event("deferred", f"{act.card} played early: it counts when {seat}'s turn comes "
                           "(Law 57)", seat, act.t),))
    return _hold_card(state, board, "premature_play_by_defender", seat, act, trick_no,
                      detail=f"{seat} played {act.card} before {play.turn}")


def _retraction_pending(state: TableState, board: BoardState) -> bool:
    """Whether declarer was told to retract a lead from the wrong hand and has not yet led (Law 60)."""
    play = board.play
    if play is None or play.current.cards:
        return False
    for id_ in reversed(board.irregularity_ids):
        irr = state.irregularity(id_)
        if (irr is not None and irr.situation == "lead_from_wrong_hand_by_declarer"
                and irr.trick == play.trick_number and irr.status == "ruled"
                and dict(irr.ruling or ()).get("option") == "reject"):
            return True
    return False


def _card_while_held(state: TableState, board: BoardState, held: Held, irr: Irregularity,
                     act: a.PlayCard) -> Step:
    """A card while a lead or play irregularity awaits its ruling: acceptance by playing on, or wait."""
    play = board.play
    assert play is not None and board.contract is not None and held.card is not None
    seat = act.seat
    offender = held.seat
    situation = irr.situation
    if situation in ("lead_restriction_from_withdrawn_call", "major_pc_partner_on_lead"):
        return _reject(state, f"{act.card} by {seat}: declarer's lead option {irr.id} (Law {irr.law}) "
                       "is awaited", act)
    if (situation == "opening_lead_out_of_turn" and seat is _declarer(board).partner
            and offender.side is not seat.side):
        # R 54A: declarer playing first from dummy accepts the lead; dummy's card may not be
        # withdrawn and counts when dummy's turn comes
        declarer = _declarer(board)
        state = _settle(state, irr.id, "accepted", option="accept_see_dummy", by=str(declarer))
        board = _unhold(board, irr.id)
        board = evolve(board, deferred=(*board.deferred, (seat, act.card)))
        state, board, events = _accept_lead(state, board, offender, held)
        first = Event("accepted", f"{irr.id} accepted: declarer played {act.card} from dummy; it counts at "
                      f"{seat}'s turn (Law 54A)", declarer, act.t)
        return Step(state, (first, *events))
    if situation.startswith(("opening_lead", "lead_")) and situation != "opening_lead_face_down_out_of_turn":
        if seat is offender.lho and situation != "lead_out_of_turn_last_trick":
            # Law 53A (and 54A for the opening lead): playing to it accepts it
            option = "accept_see_dummy" if situation == "opening_lead_out_of_turn" else "accept"
            state = _settle(state, irr.id, "accepted", option=option, by=str(seat))
            board = _unhold(board, irr.id)
            state, board, events = _accept_lead(state, board, offender, held)
            first = Event("accepted", f"{irr.id} accepted: {seat} played to the lead out of turn (Law 53)",
                          seat, act.t)
            rest = _card(state, act)
            return Step(rest.state, (first, *events, *rest.events), rest.irregularities)
        if seat is play.turn:
            # Law 53C: the proper leader leads in his own right; the card led out of turn goes back
            state = _settle(state, irr.id, "superseded", option="reject", by=str(seat))
            board = _unhold(board, irr.id)
            first = Event("superseded", f"{irr.id}: {seat} led in his own right; {held.card} goes back "
                          "to its hand without penalty (Law 53C)", seat, act.t)
            rest = _card_in_order(evolve(state, board=board), board, act)
            return Step(rest.state, (first, *rest.events), rest.irregularities)
    if situation.startswith("premature") and seat.side is not offender.side:
        # Law 60: a non-offender playing before the ruling forfeits the rectification
        state = _settle(state, irr.id, "accepted", option="accept", by=str(seat))
        board = _unhold(board, irr.id)
        board = evolve(board, deferred=(*board.deferred, (offender, held.card)))
        first = Event("accepted", f"{irr.id}: {seat} played on; {held.card} counts at {offender}'s "
                      "turn (Law 60)", seat, act.t)
        rest = _card_in_order(evolve(state, board=board), board, act)
        return Step(rest.state, (first, *rest.events), rest.irregularities)
    if situation == "failure_to_play_penalty_card" and seat.side is _declarer(board).side:
        # Law 52B: declarer playing on accepts the card played
        state = _settle(state, irr.id, "accepted", option="accept_play", by=str(seat))
        board = _unhold(board, irr.id)
        state, board, events, irrs = _play(state, board, offender, held.card, held.t, "")
        rest = _card(state, act)
        return Step(rest.state, (*events, *rest.events), (*irrs, *rest.irregularities))
    return _reject(state, f"{act.card} by {seat}: irregularity {irr.id} ({irr.situation}, Law "
                   f"{irr.law}) awaits the ruling of {irr.chooser}", act)


def _accept_lead(state: TableState, board: BoardState, offender: Seat,
                 held: Held) -> tuple[TableState, BoardState, list[Event]]:
    """A lead out of turn accepted: the offender's card leads the trick (Laws 53, 54A)."""
    play = board.play
    assert play is not None and held.card is not None
    play = evolve(play, current=Trick(offender))
    board = evolve(board, play=play)
    state, board, events, _ = _play(state, board, offender, held.card, held.t, "")
    return state, board, events


def _play_card(state: TableState, board: BoardState, seat: Seat, card: Card, t: float, how: str) -> Step:
    state, board, events, irrs = _play(state, board, seat, card, t, how)
    return Step(state, tuple(events), tuple(irrs))


def _play(state: TableState, board: BoardState, seat: Seat, card: Card, t: float,
          how: str) -> tuple[TableState, BoardState, list[Event], list[Irregularity]]:
    """Play ``card`` by ``seat`` (in turn) into the trick, with everything that follows from it."""
    play = board.play
    assert play is not None
    trick_no = play.trick_number
    events: list[Event] = []
    irrs: list[Irregularity] = []
    claim = board.claim
    if claim is not None:
        events.append(Event("claim_withdrawn" if claim.disputed is None else "play_after_claim",
                            "play continued", seat, t))
        if claim.disputed is None:
            claim = None
    if state.policy.timing and _since_last_act(board, t) >= state.tempo.min_card_s:
        state, board, tempo = _timed(state, board, seat, ActKind.CARD, t, False)
        if tempo is not None:
            irrs.append(tempo)
    led = play.current.suit_led
    revoke = detect_revoke(play, seat, card)
    broken = (r.restriction_broken(play, seat, card, board.obligations)
              if board.obligations and not revoke else None)
    shown_out = board.shown_out
    if revoke is None and play.hands[seat] is None:
        late = _revoke_shown_later(board, seat, card)
        if late is not None:
            state, board, irr = _raise(state, board, "revoke", seat,
                                       f"{seat} showed out of {_SUIT_NAMES[card.suit]} at trick {late} and now "
                                       f"plays {card}", t, late)
            established = trick_no > late
            board = evolve(board, revokes=(*board.revokes, RevokeRecord(
                irr.id, seat, late, card.suit, established, "twelfth_trick" if late == 12 else "")))
            irrs.append(irr)
            # LAWS.md 1.H.4: that show-out is now one revoke, reported once; later cards of
            # the suit reveal nothing more (a later show-out starts a new ledger entry)
            shown_out = tuple(x for x in shown_out if not (x[0] is seat and x[1] is card.suit))
        if led is not None and card.suit is not led:
            shown_out = (*shown_out, (seat, led, trick_no))
    if revoke is not None and led is not None:
        situation = "revoke_twelfth_trick" if trick_no == 12 else "revoke"
        state, board, irr = _raise(state, board, situation, seat,
                                   f"{seat} played {card} on a {_SUIT_NAMES[led]} lead holding "
                                   f"{_SUIT_NAMES[led]}", t, trick_no)
        board = evolve(board, revokes=(*board.revokes, RevokeRecord(
            irr.id, seat, trick_no, led, False, "twelfth_trick" if trick_no == 12 else "")))
        irrs.append(irr)
    if broken is not None:
        state, board, irr = _raise(state, board, "failure_to_comply_with_restriction", seat,
                                   f"{seat} played {card} though he could comply with "
                                   f"{broken.kind.replace('_', ' ')} (Law 59)", t, trick_no)
        irrs.append(irr)
    # Law 63: the revoker or his partner playing to a later trick establishes his revoke
    if board.revokes:
        revokes = []
        for rv in board.revokes:
            if not rv.established and rv.seat.side is seat.side and trick_no > rv.trick:
                rv = evolve(rv, established=True)
                events.append(Event("revoke_established", f"revoke at trick {rv.trick} by {rv.seat}",
                                    rv.seat, t))
            revokes.append(rv)
        board = evolve(board, revokes=tuple(revokes))
    pcs = board.penalty_cards
    if pcs and any(pc.card == card for pc in pcs):
        pcs = tuple(pc for pc in pcs if pc.card != card)
    play = play.with_card(card)
    bit = 1 << card.index
    board = evolve(board, play=play, played=board.played | bit, shown_out=shown_out,
                   play_times=(*board.play_times, t), penalty_cards=pcs, last_card=(seat, t),
                   obligations=_after_card(board.obligations, seat, trick_no, led is None)
                   if board.obligations else (), claim=claim, last_t=t)
    events.append(Event("card", str(card) + (f" ({how})" if how else ""), seat, t))
    if not play.current.cards and play.tricks:
        winner = play.tricks[-1].winner
        assert winner is not None
        events.append(Event("trick", f"trick {len(play.tricks)} to {winner}", winner, t))
        if board.obligations:  # most boards have none: no copy of the board for nothing
            board = evolve(board, obligations=tuple(
                o for o in board.obligations
                if not (o.kind == r.PLAY_OPT_57 or (o.kind == r.LEAD_BAN and o.seat is not winner))))
    state = evolve(state, board=board)
    if play.is_complete:
        state = _close(state, board, "played", play.declarer_tricks)
        events.append(Event("board_done", "13 tricks played", None, t))
        return state, board, events, irrs
    if not play.current.cards and (board.obligations or board.penalty_cards):
        state, board, more = _lead_options_due(state, board, t)
        events.extend(more)
        irrs.extend(i for i in state.irregularities[-1:] if more and i.id == state.irregularity_count)
    if board.deferred:
        state, board, more_events, more_irrs = _play_deferred(state, board, t)
        return state, board, events + more_events, irrs + more_irrs
    return state, board, events, irrs


def _after_card(obligations: tuple[Obligation, ...], seat: Seat, trick: int,
                leading: bool) -> tuple[Obligation, ...]:
    """Obligations left after ``seat`` plays: a lead requirement is used up by the lead (Law 26)."""
    if not obligations:
        return obligations
    return tuple(o for o in obligations
                 if not (o.seat is seat and leading and o.kind == r.LEAD_REQ))


def _play_deferred(state: TableState, board: BoardState,
                   t: float) -> tuple[TableState, BoardState, list[Event], list[Irregularity]]:
    """Cards played early that stand (Law 57 note, 60) count when their seat's turn comes."""
    events: list[Event] = []
    irrs: list[Irregularity] = []
    while board.deferred and board.play is not None and board.phase is Phase.PLAY:
        turn = board.play.turn
        mine = [d for d in board.deferred if d[0] is turn]
        if not mine:
            break
        seat, card = mine[0]
        board = evolve(board, deferred=tuple(d for d in board.deferred if d != mine[0]))
        state, board, ev, ir = _play(evolve(state, board=board), board, seat, card, t, "")
        events.extend(ev)
        irrs.extend(ir)
    return state, board, events, irrs


def _revoke_shown_later(board: BoardState, seat: Seat, card: Card) -> int | None:
    """The trick at which ``seat`` showed out of ``card``'s suit, now shown to have been a revoke."""
    for s, suit, trick in board.shown_out:
        if s is seat and suit is card.suit:
            return trick
    return None


def _failure_to_play_penalty_card(board: BoardState, seat: Seat, card: Card) -> Card | None:
    """The penalty card ``seat`` had to play instead of ``card``, when that is certain (Law 52).

    A major penalty card: certain when the hand is known, when the seat leads, or when the
    card played shows that the seat could not follow suit. A minor one (Law 50): another
    card of its suit below the 10 played before it, which is never allowed.
    """
    mine = [pc for pc in board.penalty_cards if pc.seat is seat]
    if any(pc.card == card for pc in mine):
        return None
    play = board.play
    assert play is not None
    minor = next((pc.card for pc in mine if not pc.major and pc.card.suit is card.suit
                  and card.rank < Rank.TEN), None)
    if minor is not None and (play.hands[seat] is None or minor in (
            r.playable_cards(play, seat, board.obligations, board.penalty_cards) or ())):
        return minor
    majors = [pc.card for pc in mine if pc.major]
    if not majors:
        return None
    if play.hands[seat] is not None:
        legal = r.playable_cards(play, seat, board.obligations, board.penalty_cards)
        if legal and card not in legal and any(m in legal for m in majors):
            return next(m for m in majors if m in legal)
        return None
    led = play.current.suit_led
    restricted = any(o.seat is seat and o.kind in (r.LEAD_REQ, r.LEAD_BAN, r.PLAY_OPT_57)
                     for o in board.obligations)
    if restricted:
        return None
    if led is None:
        return majors[0]
    same = [m for m in majors if m.suit is led]
    if same and card.suit is led:
        return same[0]
    if card.suit is not led:
        return same[0] if same else majors[0]
    return None


def _pending_lead_option(state: TableState, board: BoardState, seat: Seat) -> Irregularity | None:
    for id_ in reversed(board.irregularity_ids):
        irr = state.irregularity(id_)
        if (irr is not None and irr.status == "awaiting_ruling" and irr.situation in
                ("lead_restriction_from_withdrawn_call", "major_pc_partner_on_lead")
                and irr.offender is not None and irr.offender.partner is seat):
            return irr
    return None


def _lead_options_due(state: TableState, board: BoardState,
                      t: float) -> tuple[TableState, BoardState, list[Event]]:
    """Declarer's lead options when the offender's partner gets the lead (Laws 26, 50, 51)."""
    play = board.play
    if play is None or board.contract is None or board.lead_options_for == play.trick_number:
        return state, board, []
    leader = play.turn
    declarer = board.contract.declarer
    events: list[Event] = []
    board = evolve(board, lead_options_for=play.trick_number)
    for ob in board.obligations:
        if ob.kind == r.LEAD_OPT_26 and ob.seat is leader:
            options = (("require_suit", "forbid_suit", "no_restriction") if ob.suits
                       else ("forbid_suit", "no_restriction"))
            source = state.irregularity(ob.source)
            kind = source.kind if source is not None else "call_out_of_rotation"
            suits = ", ".join(_SUIT_NAMES[s] for s in ob.suits) or "any one suit (prohibit only)"
            state, board, irr = _raise(
                state, board, "lead_restriction_from_withdrawn_call", leader.partner,
                f"{leader} is on lead after a withdrawn call by {leader.partner}: declarer may "
                f"require or prohibit {suits} (Law 26)", t, play.trick_number, chooser=str(declarer),
                options=options, kind=kind)
            kept = tuple(o for o in board.obligations if o is not ob)
            board = evolve(board, obligations=(*kept, Obligation(r.LEAD_OPT_26, leader, irr.id, suits=ob.suits,
                                                                 mode="raised")))
            events.append(Event("lead_option", f"{irr.id}: declarer's choice before {leader} leads",
                                declarer, t))
            return state, board, events
    majors = [pc for pc in board.penalty_cards if pc.seat is leader.partner and pc.major]
    if majors and leader.side is not declarer.side:
        cards = " ".join(str(pc.card) for pc in majors)
        state, board, irr = _raise(
            state, board, "major_pc_partner_on_lead", leader.partner,
            f"{leader} is on lead while {leader.partner} has the major penalty card(s) {cards}: "
            "declarer may require or forbid a suit of them, or leave them (Laws 50, 51)", t,
            play.trick_number, chooser=str(declarer))
        events.append(Event("lead_option", f"{irr.id}: declarer's choice before {leader} leads",
                            declarer, t))
    return state, board, events


def _exposed_in_auction(state: TableState, board: BoardState, seat: Seat, cards: tuple[Card, ...],
                        t: float, led: bool, deliberate: bool = False) -> Step:
    """Cards seen during the auction (Law 24): a card on the play zone counts as led."""
    several = len(cards) > 1 or any(s is seat for s, _, _, _ in board.exposed)
    honour = any(c.rank >= 10 for c in cards)
    if led:
        situation = "card_led_during_auction"
    elif several or honour:
        situation = "card_exposed_in_auction_honour_or_several"
    else:
        situation = "card_exposed_in_auction_single_low"
    what = " ".join(str(c) for c in cards)
    state, board, irr = _raise(state, board, situation, seat, f"{seat} exposed {what} during the auction",
                               t, chooser="none")
    major = led or several or honour or deliberate
    board = evolve(board, exposed=(*board.exposed, *((seat, c, major, irr.id) for c in cards)))
    events = [Event("irregularity", situation, seat, t)]
    if major:
        board = _oblige(board, Obligation(r.PASS_ONCE, seat.partner, irr.id))
        events.append(Event("rectification", f"{seat.partner} must pass at his next turn (Law 24)",
                            seat.partner, t))
    return Step(evolve(state, board=board), tuple(events), (irr,))


def _face(state: TableState, act: a.FaceCards) -> Step:
    board = state.board
    if board is None:
        return _reject(state, "cards faced before any board", act)
    if not act.cards:
        return _reject(state, "no card faced", act)
    if board.phase is Phase.AUCTION:
        return _exposed_in_auction(state, board, act.seat, act.cards, act.t, led=False)
    board = evolve(board, faced=(*board.faced, (act.seat, act.cards)))
    play = board.play
    events = [Event("faced", " ".join(str(c) for c in act.cards), act.seat, act.t)]
    if play is not None and board.contract is not None and not play.tricks:
        for held in board.held:
            irr = state.irregularity(held.source)
            if (irr is not None and irr.situation == "opening_lead_out_of_turn"
                    and irr.status == "awaiting_ruling" and act.seat is board.contract.declarer):
                # Law 54A: declarer spreading his hand accepts the lead and becomes dummy
                state = _settle(state, irr.id, "accepted", option="accept_become_dummy", by=str(act.seat))
                board = _unhold(board, irr.id)
                state, board, more = _swap_declarer(state, board, held)
                return Step(state, (*events, Event("accepted", f"{irr.id}: declarer faced his hand "
                                                   "and becomes dummy (Law 54A)", act.seat, act.t),
                                    *more))
    if play is not None and play.hands[act.seat] is None and act.seat is play.dummy:
        hands = list(play.hands)
        hands[act.seat] = frozenset(act.cards)
        board = evolve(board, play=evolve(play, hands=(hands[0], hands[1], hands[2], hands[3])))
    return Step(evolve(state, board=board), tuple(events))


def _swap_declarer(state: TableState, board: BoardState,
                   held: Held) -> tuple[TableState, BoardState, list[Event]]:
    """Option 2 of Law 54: the lead stands and declarer's partner becomes declarer."""
    assert board.contract is not None and board.play is not None and held.card is not None
    contract = board.contract
    new_declarer = contract.declarer.partner
    contract = Contract(contract.level, contract.denomination, contract.doubled, new_declarer)
    play = evolve(board.play, declarer=new_declarer, current=Trick(held.seat))
    board = evolve(board, contract=contract, play=play)
    state, board, events, _ = _play(evolve(state, board=board), board, held.seat, held.card, held.t, "")
    return state, board, [Event("contract", f"{contract} (declarer and dummy exchanged, Law 54A)",
                                new_declarer, held.t), *events]


def _expose(state: TableState, act: a.ExposeCard) -> Step:
    """A card exposed off the readers, entered by the arbiter (Laws 24, 48, 49, 50)."""
    board = state.board
    if board is None or board.phase is Phase.DONE:
        return _reject(state, "an exposed card is recorded during a board", act)
    if board.phase is Phase.AUCTION:
        return _exposed_in_auction(state, board, act.seat, (act.card,), act.t, led=False,
                                   deliberate=act.deliberate)
    if board.contract is None or board.play is None:
        return _reject(state, "an exposed card needs the auction or the play", act)
    if act.seat.side is board.contract.declarer.side:
        return Step(state, (Event("exposed", f"{act.card}: declarer's and dummy's cards are never "
                                  "penalty cards (Law 48)", act.seat, act.t),))
    state, board, irr = _raise(state, board, "card_exposed_by_defender", act.seat,
                               f"{act.seat} exposed {act.card}", act.t, board.play.trick_number,
                               chooser="arbiter")
    board = _add_penalty_card(board, act.seat, act.card, act.deliberate, irr.id)
    return Step(evolve(state, board=board), (Event("penalty_card", str(act.card), act.seat, act.t),), (irr,))


def _add_penalty_card(board: BoardState, seat: Seat, card: Card, deliberate: bool,
                      source: int) -> BoardState:
    """A defender's penalty card; with two or more, all are major (Law 50)."""
    others = [pc for pc in board.penalty_cards if pc.seat is seat]
    pc = PenaltyCard(seat, card, r.is_major(card, deliberate, len(others)), source)
    pcs = tuple(evolve(p, major=True) if p.seat is seat else p for p in board.penalty_cards)
    return evolve(board, penalty_cards=(*pcs, pc))


def _pickup(state: TableState, act: a.PickUp) -> Step:
    return Step(state, (Event("pickup", str(act.card), act.seat, act.t),))


def _director(state: TableState, act: a.CallDirector) -> Step:
    return Step(evolve(state, director_called=act.seat),
                (Event("director_called", "", act.seat, act.t),))


# --- claims, concessions, adjustments --------------------------------------------------------

def _claim(state: TableState, act: a.Claim | a.Concede) -> Step:
    board = state.board
    if board is None or board.phase is not Phase.PLAY or board.play is None:
        return _reject(state, "a claim or concession is made during the play", act)
    remaining = 13 - len(board.play.tricks)
    if not 0 <= act.tricks <= remaining:
        return _reject(state, f"{act.tricks} tricks claimed or conceded but {remaining} remain",
                       act)
    side = act.seat.side
    tricks = act.tricks if isinstance(act, a.Claim) else remaining - act.tricks
    declarer = board.play.declarer
    if side is declarer.side:
        needed = frozenset((declarer.lho, declarer.rho))
    else:
        needed = frozenset((declarer,))
    statement = act.statement if isinstance(act, a.Claim) else ""
    claim = PendingClaim(act.seat, side, tricks, needed, statement=statement)
    board = _establish_by_claim(board, side)
    what = "claim" if isinstance(act, a.Claim) else "concession"
    return Step(evolve(state, board=evolve(board, claim=claim)),
                (Event(what, f"{tricks} of {remaining} remaining tricks to {side}"
                       + (f": {statement}" if statement else ""), act.seat, act.t),))


def _establish_by_claim(board: BoardState, side: Side) -> BoardState:
    """Law 63A: making or agreeing to a claim or concession establishes that side's revoke."""
    if not board.revokes:
        return board
    return evolve(board, revokes=tuple(evolve(rv, established=True) if rv.seat.side is side else rv
                                       for rv in board.revokes))


def _agree(state: TableState, act: a.Agree) -> Step:
    board = state.board
    if board is None or board.claim is None or board.play is None:
        return _reject(state, "no claim or concession awaits agreement", act)
    claim = board.claim
    if act.seat not in claim.needed:
        return _reject(state, f"{act.seat} is not an opponent of the claimer who must agree", act)
    claim = evolve(claim, agreed=claim.agreed | {act.seat})
    board = _establish_by_claim(evolve(board, claim=claim), act.seat.side)
    events = [Event("agree", "", act.seat, act.t)]
    if claim.agreed >= claim.needed and claim.disputed is None:
        state = _close_claim(evolve(state, board=board), board, claim.tricks)
        events.append(Event("board_done", f"claim agreed: declarer {state.boards[-1].tricks} tricks",
                            None, act.t))
        return Step(state, tuple(events))
    return Step(evolve(state, board=board), tuple(events))


def _close_claim(state: TableState, board: BoardState, tricks_to_claimer: int) -> TableState:
    claim = board.claim
    play = board.play
    assert claim is not None and play is not None
    won = play.won[claim.side] + tricks_to_claimer
    tricks = won if claim.side is play.declarer.side else 13 - won
    claimed = {claim.side: tricks_to_claimer, claim.side.other: 13 - len(play.tricks) - tricks_to_claimer}
    return _close(state, board, "claimed", tricks, claimed)


def _dispute(state: TableState, act: a.Dispute) -> Step:
    """An opponent disputes the claim: the arbiter rules (D 70; R 69, 70: play may go on)."""
    board = state.board
    if board is None or board.claim is None or board.play is None or board.contract is None:
        return _reject(state, "no claim or concession to dispute", act)
    claim = board.claim
    if act.seat not in claim.needed:
        return _reject(state, f"{act.seat} is not an opponent of the claimer", act)
    if claim.disputed is not None:
        return Step(state, (Event("dispute", "already disputed", act.seat, act.t),))
    situation = "claim_by_declarer" if claim.side is board.contract.declarer.side else "claim_by_defender"
    remaining = 13 - len(board.play.tricks)
    state, board, irr = _raise(state, board, situation, claim.seat,
                               f"{claim.seat} claims {claim.tricks} of {remaining}"
                               + (f" ({claim.statement})" if claim.statement else "")
                               + f"; {act.seat} disputes", act.t, board.play.trick_number,
                               chooser="arbiter")
    board = evolve(board, claim=evolve(claim, disputed=irr.id))
    plays_on = state.code.rules.disputed_claim_plays_on
    return Step(evolve(state, board=board),
                (Event("dispute", "play goes on with the claimer's hand face up (R 69, 70)" if plays_on
                       else "play stops: the arbiter rules (Law 70)", act.seat, act.t),), (irr,))


def _adjust(state: TableState, act: a.Adjust) -> Step:
    board = state.board
    if board is None or board.contract is None:
        return _reject(state, "an adjustment of tricks needs a board with a contract", act)
    if not 0 <= act.tricks <= 13:
        return _reject(state, f"invalid trick count {act.tricks}", act)
    if board.phase is Phase.DONE:
        return _rescore(state, act.tricks, "adjusted", act.t)
    state = _close(state, board, "adjusted", act.tricks, transfers=False)
    return Step(state, (Event("adjusted", f"declarer {act.tricks} tricks", None, act.t),))


def _rescore(state: TableState, tricks: int, status: str, t: float) -> Step:
    """Rescore the last finished board with declarer's ``tricks`` (Laws 12, 64C, 79, 82)."""
    if not state.boards or state.boards[-1].board is not state.board:
        return _reject(state, "only the board just finished can be rescored", None)
    last = state.boards[-1]
    if last.sheet_before is None or last.board.contract is None:
        return _reject(state, "that board has no contract to rescore", None)
    result = DealResult(last.board.contract, tricks, last.board.vulnerability, last.board.dealer,
                        last.board.deal, last.transfer, last.board.number)
    sheet, entries = state.code.score_deal(last.sheet_before, result)
    outcome = evolve(last, status=status, tricks=tricks, entries=entries)
    return Step(evolve(state, sheet=sheet, boards=(*state.boards[:-1], outcome)),
                (Event("adjusted", f"declarer {tricks} tricks", None, t),))


# --- rulings --------------------------------------------------------------------------------

_SUIT_NAMES = {Suit.C: "clubs", Suit.D: "diamonds", Suit.H: "hearts", Suit.S: "spades"}


class _Refused(Exception):
    """A ruling the law does not allow here; the message says why (never leaves this module)."""


def _ruling(state: TableState, act: a.Ruling) -> Step:
    target: Irregularity | None = None
    if act.id is not None:
        target = state.irregularity(act.id)
        if target is None:
            return _reject(state, f"no irregularity {act.id}", act)
    else:
        waiting = [i for i in state.irregularities if i.status == "awaiting_ruling"]
        if not waiting:
            return _reject(state, "no irregularity awaits a ruling", act)
        target = waiting[-1]
    if act.option not in target.options:
        return _reject(state, f"option {act.option!r} is not offered for irregularity "
                       f"{target.id} ({target.kind}, Law {target.law}): "
                       f"options are {', '.join(target.options)}", act)
    if target.status not in ("awaiting_ruling", "noted") and not (
            target.kind == "revoke" and target.status == "ruled"):
        return _reject(state, f"irregularity {target.id} is already settled ({target.status})", act)
    before = state
    args = dict(act.args)
    try:
        # the arbiter's time is nobody's think, nor is a card or call the ruling puts in
        state, events = _apply_ruling(_pause_timers(state, target, act.t), target, act.option, args, act.t)
    except _Refused as exc:
        return _reject(before, f"ruling {act.option!r} on irregularity {target.id} ({target.situation}, "
                       f"Law {target.law}): {exc}", act)
    state = _settle(state, target.id, "ruled", option=act.option, **args)
    state = evolve(state, before_ruling=(*before.before_ruling[-19:], (target.id, before)))
    return Step(state, (Event("ruling", f"{target.id} {act.option}", None, act.t), *events))


def _suit_arg(args: dict[str, object]) -> Suit:
    value = args.get("suit")
    try:
        return Suit.parse(str(value)) if isinstance(value, str) else Suit(-1)
    except ValueError as exc:
        raise _Refused(f"a suit is needed (\"suit\": \"S\", \"H\", \"D\" or \"C\"), not {value!r}") from exc


def _card_arg(args: dict[str, object]) -> Card:
    value = args.get("card")
    try:
        return Card.parse(str(value))
    except ValueError as exc:
        raise _Refused(f"a card is needed (\"card\": \"SK\"), not {value!r}") from exc


def _tricks_arg(args: dict[str, object]) -> int:
    value = args.get("tricks")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 13:
        raise _Refused(f"a number of tricks 0-13 is needed (\"tricks\": 9), not {value!r}")
    return value


def _apply_ruling(state: TableState, irr: Irregularity, option: str, args: dict[str, object],
                  t: float) -> tuple[TableState, list[Event]]:
    """Apply ``option`` to ``irr``: the state after it and what happened (raises _Refused)."""
    board = state.board
    if board is None:
        raise _Refused("no board is in progress")
    kind, situation = irr.kind, irr.situation
    if board.declaration is not None and board.declaration.pending == situation:
        declaration = board.declaration.rule(option == "stands")
        board, started = _declaration_done(evolve(board, declaration=declaration), t)
        return evolve(state, board=board), started
    if kind == "tempo":
        return state, []
    if irr.board != board.number or irr.id not in board.irregularity_ids:
        if kind in ("revoke", "failure_to_comply", "claim") and state.boards and (
                irr.id in state.boards[-1].board.irregularity_ids):
            return _rule_after_play(state, irr, option, args, t)
        raise _Refused("it belongs to a board that is over")
    if board.phase is Phase.DONE and kind in ("revoke", "failure_to_comply", "claim", "defective_trick"):
        return _rule_after_play(state, irr, option, args, t)
    held = _held_of(board, irr.id)
    offender = irr.offender
    if situation in ("lead_restriction_from_withdrawn_call", "major_pc_partner_on_lead"):
        return _rule_lead_option(state, board, irr, held, option, args, t)
    if situation == "call_after_auction_closed":
        return _rule_call_after_close(state, board, irr, held)
    if kind in ("insufficient_bid", "call_out_of_rotation", "change_of_call", "inadmissible_call"):
        if held is None or held.call is None or offender is None:
            raise _Refused("the call is no longer waiting for a ruling")
        return _rule_call(state, board, irr, held, option, args, t)
    if kind == "card_exposed_in_auction":
        return state, []
    if kind in ("opening_lead_out_of_turn", "lead_out_of_turn"):
        if held is None or held.card is None or offender is None:
            raise _Refused("the lead is no longer waiting for a ruling")
        if situation == "w_opening_lead_by_dealers_rho":
            return _rule_w_opening_lead(state, board, irr, held, option, args, t)
        return _rule_lead(state, board, irr, held, option, args, t)
    if kind == "premature_play":
        return _rule_premature(state, board, irr, held, option, args)
    if kind == "failure_to_play_penalty_card":
        if held is None or held.card is None or offender is None:
            raise _Refused("the card is no longer waiting for a ruling")
        board = _unhold(board, irr.id)
        if option == "accept_play":
            state, board, events, _ = _play(evolve(state, board=board), board, offender, held.card, held.t, "")
            return state, events
        board = _add_penalty_card(board, offender, held.card, True, irr.id)
        return evolve(state, board=board), [Event("penalty_card", f"{held.card} becomes a major penalty "
                                                  "card; the penalty card must be played (Law 52)",
                                                  offender, t)]
    if kind == "simultaneous_play":
        return _rule_two_cards(state, board, irr, held, args, t)
    if situation == "fifth_card_on_trick":
        if held is None or held.card is None or offender is None or board.contract is None:
            raise _Refused("the card is no longer waiting for a ruling")
        board = _unhold(board, irr.id)
        if offender.side is not _declarer(board).side:
            board = _add_penalty_card(board, offender, held.card, False, irr.id)
            return evolve(state, board=board), [Event("penalty_card", f"{held.card} (Law 45E)", offender, t)]
        return evolve(state, board=board), [Event("returned", f"{held.card} back to declarer's hand", offender, t)]
    if kind in ("revoke", "failure_to_comply"):
        return _rule_revoke(state, board, irr, option, args, t)
    if kind == "claim":
        return _rule_claim(state, board, irr, option, args, t)
    if kind in ("deck_problem", "wrong_board"):
        return _rule_deck(state, board, irr, held, option, args, t)
    return state, []  # penalty_card and the like: the ruling is recorded, nothing to apply


def _rule_call_after_close(state: TableState, board: BoardState, irr: Irregularity,
                           held: Held | None) -> tuple[TableState, list[Event]]:
    """Law 39: the call is cancelled; a defender's bid, double or redouble gives a Law 26 lead option."""
    board = _unhold(board, irr.id)
    events = [Event("cancelled", "the call after the auction closed is cancelled (Law 39)", irr.offender, irr.t)]
    offender = irr.offender
    if (held is not None and held.call is not None and offender is not None and board.contract is not None
            and held.call.kind is not CallKind.PASS and offender.side is not board.contract.declarer.side):
        board = _oblige(board, Obligation(r.LEAD_OPT_26, offender.partner, irr.id,
                                          suits=r.lead_suits_of(held.call)))
        if board.play is not None and not board.play.current.cards:
            board = evolve(board, lead_options_for=0)
            state, board, more = _lead_options_due(evolve(state, board=board), board, irr.t)
            events.extend(more)
    return evolve(state, board=board), events


def _rule_call(state: TableState, board: BoardState, irr: Irregularity, held: Held, option: str,
               args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Rulings of the auction: Laws 25, 27, 29-32, 36, 37."""
    offender = irr.offender
    assert offender is not None and held.call is not None
    call = held.call
    partner = offender.partner
    situation = irr.situation
    rules = state.code.rules
    board = _unhold(board, irr.id)
    events: list[Event] = []
    if option == "accept":
        state, board, events = _apply_call(evolve(state, board=board), board, offender, call, held.t,
                                           timed=False, irregular=True)
        return state, events
    if irr.kind == "insufficient_bid":
        # the arbiter's findings: a substitute of the same meaning (D 27B1(b); R 27B), or an
        # artificial bid, insufficient or substitute, so the lowest sufficient bid in the same
        # denomination is no longer free of rectification (D 27B1(a); R 27A)
        mode = ("no_rectification" if args.get("same_meaning") is True
                else "artificial" if args.get("artificial") is True else "insufficient")
        # D 31A1 / R 31B1: a bid out of rotation repeated as required but insufficient is then
        # corrected under Law 27; the repetition has been made, so REPEAT no longer binds
        board = _drop(board, (r.REPEAT,), offender)
        board = _oblige(board, Obligation(r.REPLACE_CALL, offender, irr.id, call, mode=mode))
        events.append(Event("rectification", f"{offender} replaces {call} (Law 27B)", offender, t))
        return evolve(state, board=board), events
    if irr.kind == "change_of_call":
        return _rule_change_of_call(state, board, irr, held, option, args, t)
    if situation in ("inadmissible_double", "double_oor_inadmissible"):
        board = _oblige(board, Obligation(r.REPLACE_CALL, offender, irr.id, call, mode="any"),
                        Obligation(r.PASS_ALL, partner, irr.id),
                        Obligation(r.LEAD_OPT_26, partner, irr.id))
        events.append(Event("rectification", f"{offender} must substitute a legal call; {partner} "
                            "passes for the rest of the auction (Law 36B)", offender, t))
        return evolve(state, board=board), events
    if situation == "call_by_player_required_to_pass":
        state, board, more = _apply_call(evolve(state, board=board), board, offender, PASS, held.t, timed=False)
        bars = [Obligation(r.PASS_ALL, partner, irr.id)]
        if rules.barred_call_bars_both:
            bars.append(Obligation(r.PASS_ALL, offender, irr.id))
        board = _oblige(board, *bars, Obligation(r.LEAD_OPT_26, partner, irr.id, suits=r.lead_suits_of(call)))
        events.append(Event("rectification", "the call is cancelled and a pass substituted; "
                            + ("both members of the offending side pass for the rest of the auction (R 37)"
                               if rules.barred_call_bars_both else
                               f"{partner} passes for the rest of the auction (Law 37)"), offender, t))
        return evolve(state, board=board), [*more, *events]
    if situation in ("double_when_barred",):
        board = _oblige(board, Obligation(r.REPLACE_CALL, offender, irr.id, call, mode="any"))
        return evolve(state, board=board), [Event("rectification", f"{offender} must make another call",
                                                  offender, t)]
    if situation == "call_not_repeated":
        required = next((o.call for o in board.obligations if o.kind == r.REPEAT and o.seat is offender), None)
        if required is None:
            raise _Refused("no call was required of the offender")
        state, board, more = _apply_call(evolve(state, board=board), board, offender, required, held.t,
                                         timed=False)
        return state, more
    # call_out_of_rotation, cancelled (Law 29B); what follows depends on the position (30-32)
    artificial = args.get("artificial") is True
    if situation in ("pass_oor_before_any_bid", "pass_oor_rho_turn_after_bid") and not artificial:
        board = _oblige(board, Obligation(r.PASS_ONCE, offender, irr.id))
        events.append(Event("rectification", f"{offender} must pass at his next turn (Law 30A)", offender, t))
    elif situation == "pass_oor_partner_turn_after_bid" and not artificial:
        board = _oblige(board, Obligation(r.PASS_ALL, offender, irr.id), Obligation(r.NO_X_NOW, partner, irr.id))
        events.append(Event("rectification", f"{offender} passes for the rest of the auction; {partner} "
                            "may not double or redouble at this turn (Law 30B)", offender, t))
    elif situation == "bid_oor_rho_turn":
        board = _oblige(board, Obligation(r.OOR_BID_RHO, offender, irr.id, call))
        events.append(Event("rectification", f"if {offender.rho} passes, {offender} must repeat {call}; "
                            f"if {offender.rho} bids, doubles or redoubles, {offender} may call freely "
                            "(Law 31A)", offender, t))
    elif situation == "double_oor_rho_turn":
        board = _oblige(board, Obligation(r.OOR_DOUBLE_RHO, offender, irr.id, call))
        events.append(Event("rectification", f"if {offender.rho} passes, {offender} must repeat {call} "
                            "(Law 32B)", offender, t))
    elif situation == "double_oor_partner_turn":
        obs = [Obligation(r.PASS_ALL, partner, irr.id), Obligation(r.LEAD_OPT_26, partner, irr.id)]
        if board.auction.last_bid is not None:
            obs.append(Obligation(r.NO_X_SAME, offender, irr.id, board.auction.last_bid))
        board = _oblige(board, *obs)
        events.append(Event("rectification", f"{partner} passes for the rest of the auction (Law 32A)",
                            partner, t))
    else:
        # a bid at partner's turn or in the first round at LHO's turn; an artificial pass (D 30C)
        suits = r.lead_suits_of(call)
        board = _oblige(board, Obligation(r.PASS_ALL, partner, irr.id),
                        Obligation(r.LEAD_OPT_26, partner, irr.id, suits=suits))
        events.append(Event("rectification", f"{partner} passes for the rest of the auction (Law 31B)",
                            partner, t))
    return evolve(state, board=board), events


def _rule_change_of_call(state: TableState, board: BoardState, irr: Irregularity, held: Held, option: str,
                         args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Law 25: an inadvertent change replaces the call; a purposeful one is handled per code.

    The change may come after LHO has called over the first call (D 25A: until partner
    calls). LHO's call then stands over the substitute unless LHO withdraws it (ruling
    argument ``"lho_withdraws": true``, no rectification, DD 25) or it is no longer legal
    over the substitute (it is then withdrawn and LHO calls again).
    """
    offender = irr.offender
    assert offender is not None and held.call is not None
    auction = board.auction
    seats = auction.seats
    if seats and seats[-1] is offender:
        at = len(seats) - 1
    elif len(seats) >= 2 and seats[-2] is offender and seats[-1] is offender.lho:
        at = len(seats) - 2
    else:
        raise _Refused("the offender's call is no longer the last one: partner has called")
    original = auction.calls[at]
    substitute_stands = option == "inadvertent" or args.get("accepted") is True
    family = state.code.rules.family
    if option == "purposeful" and family != "duplicate":
        substitute_stands = args.get("keep") is not True
    events: list[Event] = []
    if substitute_stands:
        later = tuple(zip(auction.calls[at + 1:], seats[at + 1:], board.call_times[at + 1:], strict=False))
        rebuilt = Auction(auction.dealer)
        for c, s in zip(auction.calls[:at], seats[:at], strict=True):
            rebuilt = rebuilt.with_call(c, s)
        board = evolve(board, auction=rebuilt, call_times=board.call_times[:at])
        state, board, events = _apply_call(evolve(state, board=board), board, offender, held.call, held.t,
                                           timed=False)
        for c, s, ct in later:
            if (args.get("lho_withdraws") is True or board.phase is not Phase.AUCTION
                    or s is not board.auction.turn or not board.auction.is_legal(c, s)):
                events.append(Event("withdrawn", f"{s} {c} is withdrawn without rectification; {s} calls "
                                    "again (Law 25A)", s, t))
                break
            state, board, more = _apply_call(evolve(state, board=board), board, s, c, ct, timed=False)
            events.extend(more)
    if option == "purposeful" and family != "duplicate":
        partner = offender.partner
        # R 26: the lead option comes from the call given up, unless the call that stands
        # repeated its denomination (R 26A: "did not repeat that suit"; 26B1 for notrump)
        if substitute_stands:
            board = _oblige(board, Obligation(r.PASS_ALL, partner, irr.id))
            suits = r.change_lead_suits(original, held.call)
        else:
            board = _oblige(board, Obligation(r.PASS_ONCE, partner, irr.id))
            suits = r.change_lead_suits(held.call, original)
        if suits is not None:
            board = _oblige(board, Obligation(r.LEAD_OPT_26, partner, irr.id, suits=suits))
        events.append(Event("rectification", f"{partner} must pass "
                            + ("for the rest of the auction" if substitute_stands else "at his next turn")
                            + " (R 25B)", partner, t))
    return evolve(state, board=board), events


def _rule_lead_option(state: TableState, board: BoardState, irr: Irregularity, held: Held | None,
                      option: str, args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Declarer's lead option (Laws 26, 50D, 51): require or forbid a suit, or no restriction."""
    assert irr.offender is not None
    leader = irr.offender.partner
    events: list[Event] = []
    pcs = board.penalty_cards
    if option in ("require_suit", "forbid_suit"):
        suit = _suit_arg(args)
        if irr.situation == "major_pc_partner_on_lead":
            allowed = {pc.card.suit for pc in pcs if pc.seat is irr.offender and pc.major}
        else:
            ob = next((o for o in board.obligations if o.kind == r.LEAD_OPT_26 and o.source == irr.id), None)
            allowed = set(ob.suits) if ob is not None and ob.suits else set(Suit)
        if suit not in allowed:
            raise _Refused(f"declarer may name only {', '.join(sorted(_SUIT_NAMES[s] for s in allowed))}")
        kind = r.LEAD_REQ if option == "require_suit" else r.LEAD_BAN
        named: tuple[Suit, ...] = (suit,)
        if kind == r.LEAD_BAN and irr.situation == "major_pc_partner_on_lead":
            named = _prohibited_pc_suits(state, pcs, irr.offender, suit, args, allowed)
        board = _oblige(board, Obligation(kind, leader, irr.id, suits=named))
        if irr.situation == "major_pc_partner_on_lead":
            # the penalty cards of the suit(s) named go back to the hand (Laws 50D2, 51)
            board = evolve(board, penalty_cards=tuple(pc for pc in pcs if not (
                pc.seat is irr.offender and pc.card.suit in named)))
        events.append(Event("restriction", f"{leader} {'must lead' if kind == r.LEAD_REQ else 'may not lead'} "
                            f"{' or '.join(_SUIT_NAMES[s] for s in named)}", leader, t))
    board = evolve(board, obligations=tuple(o for o in board.obligations
                                            if not (o.kind == r.LEAD_OPT_26 and o.seat is leader)))
    board = _unhold(board, irr.id)
    state = evolve(state, board=board)
    if held is not None and held.card is not None:
        # the lead made before the choice (DD 47): it stands if legal, else a major penalty card
        play = board.play
        assert play is not None
        legal = r.playable_cards(play, leader, board.obligations, board.penalty_cards)
        complies = r.restriction_broken(play, leader, held.card, board.obligations) is None and (
            legal is None or held.card in legal or not any(
                o.kind in (r.LEAD_REQ, r.LEAD_BAN) and o.seat is leader for o in board.obligations))
        if complies:
            state = _settle(state, irr.id, "ruled", option=option, **args)
            state, board, more, _ = _play(state, board, leader, held.card, held.t, "")
            return state, events + more
        board = _add_penalty_card(board, leader, held.card, True, irr.id)
        events.append(Event("penalty_card", f"{held.card} led before the choice breaks it: a major penalty "
                            "card; lead again", leader, t))
        state = evolve(state, board=board)
    return state, events


def _prohibited_pc_suits(state: TableState, pcs: tuple[PenaltyCard, ...], offender: Seat, suit: Suit,
                         args: dict[str, object], allowed: set[Suit]) -> tuple[Suit, ...]:
    """The suits a prohibition covers when a defender has penalty cards in several suits (Law 51).

    R 51: every suit in which he has a penalty card. D 51 (DD 51 item 3b): one or more of
    them, as declarer names: ``"suit"``, plus any others in ``"suits"`` (e.g. ``["H", "D"]``).
    """
    if state.code.rules.pc_prohibition_covers_every_suit:
        return tuple(sorted({pc.card.suit for pc in pcs if pc.seat is offender}))
    named = {suit}
    extra = args.get("suits")
    if isinstance(extra, list | tuple):
        for value in extra:
            named.add(_suit_arg({"suit": value}))
    if not named <= allowed:
        raise _Refused(f"declarer may name only {', '.join(sorted(_SUIT_NAMES[s] for s in allowed))}")
    return tuple(sorted(named))


def _rule_w_opening_lead(state: TableState, board: BoardState, irr: Irregularity, held: Held, option: str,
                         args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """1905 opening lead by the dealer's RHO (W 60, 76): name a suit, or leave the card exposed.

    W 60 lets the maker of the trump name any suit the eldest hand must lead; W 76 lets the
    dealer call the card led instead. The two are read as alternatives (W 76 says "or"):
    with ``require_suit`` the card goes back to the hand; with ``leave_penalty_card`` it
    stays exposed and may be called (W 80). Nobody becomes dummy: the dealer always plays
    dummy's hand (W 61), so the Law 54 options do not exist here.
    """
    offender = irr.offender
    play = board.play
    assert offender is not None and held.card is not None and play is not None
    eldest = offender.partner
    board = evolve(_unhold(board, irr.id), lead_options_for=play.trick_number)
    if option == "require_suit":
        suit = _suit_arg(args)
        board = _oblige(board, Obligation(r.LEAD_REQ, eldest, irr.id, suits=(suit,)))
        return evolve(state, board=board), [Event(
            "restriction", f"{eldest} must lead {_SUIT_NAMES[suit]}; {held.card} goes back to the hand (W 60)",
            eldest, t)]
    board = _add_penalty_card(board, offender, held.card, True, irr.id)
    return evolve(state, board=board), [Event(
        "penalty_card", f"{held.card} is an exposed card and may be called (W 76, 80)", offender, t)]


def _rule_lead(state: TableState, board: BoardState, irr: Irregularity, held: Held, option: str,
               args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Laws 53-56 and 54: accept the lead out of turn, or send it back (penalty card for a defender)."""
    offender = irr.offender
    assert offender is not None and held.card is not None and board.contract is not None
    board = _unhold(board, irr.id)
    state = evolve(state, board=board)
    if option in ("accept", "accept_see_dummy"):
        state, board, events = _accept_lead(state, board, offender, held)
        return state, events
    if option == "accept_become_dummy":
        state, board, events = _swap_declarer(state, board, held)
        return state, events
    dummy = _declarer(board).partner
    if irr.situation == "opening_lead_out_of_turn" and any(s is dummy for s, _ in board.faced):
        raise _Refused("declarer could have seen dummy's cards: he must accept the lead (Law 54; R 54B)")
    if option in ("require_suit", "forbid_suit") and "suit" in args and _suit_arg(args) is not held.card.suit:
        raise _Refused(f"declarer may only require or forbid the suit of the card led ({held.card.suit.name})")
    defender = offender.side is not _declarer(board).side
    if not defender or irr.situation == "opening_lead_face_down_out_of_turn":
        return state, [Event("returned", f"{held.card} goes back to its hand without penalty", offender, t)]
    board = _add_penalty_card(board, offender, held.card, True, irr.id)
    events = [Event("penalty_card", f"{held.card} is a major penalty card (Laws 50, 56)", offender, t)]
    if option in ("require_suit", "forbid_suit"):
        # Law 54D with 50D2: declarer's choice now; the card goes back to the hand
        suit = held.card.suit
        kind = r.LEAD_REQ if option == "require_suit" else r.LEAD_BAN
        board = _oblige(board, Obligation(kind, offender.partner, irr.id, suits=(suit,)))
        board = evolve(board, penalty_cards=tuple(pc for pc in board.penalty_cards
                                                  if not (pc.seat is offender and pc.card.suit is suit)),
                       lead_options_for=board.play.trick_number if board.play else 0)
        events = [Event("restriction", f"{offender.partner} {'must lead' if kind == r.LEAD_REQ else 'may not lead'}"
                        f" {_SUIT_NAMES[suit]}; {held.card} goes back to the hand (Law 54)", offender.partner, t)]
        return evolve(state, board=board), events
    if option == "leave_penalty_card":
        board = evolve(board, lead_options_for=board.play.trick_number if board.play else 0)
        return evolve(state, board=board), events
    # reject (Law 56): declarer's lead options when the partner has the lead
    board = evolve(board, lead_options_for=0)
    state, board, more = _lead_options_due(evolve(state, board=board), board, t)
    return state, events + more


def _rule_premature(state: TableState, board: BoardState, irr: Irregularity, held: Held | None,
                    option: str, args: dict[str, object]) -> tuple[TableState, list[Event]]:
    """Law 57: partner plays highest or lowest of the suit led, or not a named suit; the card is a
    major penalty card (D; R states it only when partner wins the trick: chosen here for every case)."""
    offender = irr.offender
    if held is None or held.card is None or offender is None or board.play is None:
        raise _Refused("the card is no longer waiting for a ruling")
    partner = offender.partner
    trick = board.play.trick_number
    if option == "forbid_suit":
        suit = _suit_arg(args)
        if suit is board.play.current.suit_led:
            raise _Refused("the suit named must be other than the suit led")
        ob = Obligation(r.PLAY_OPT_57, partner, irr.id, suits=(suit,), mode="forbid", trick=trick)
    else:
        ob = Obligation(r.PLAY_OPT_57, partner, irr.id, mode="highest" if option == "require_highest"
                        else "lowest", trick=trick)
    board = _unhold(board, irr.id)
    board = _oblige(board, ob)
    board = _add_penalty_card(board, offender, held.card, True, irr.id)
    return evolve(state, board=board), [Event("restriction", f"{partner}: {option.replace('_', ' ')} "
                                              f"(Law 57); {held.card} is a major penalty card", partner, irr.t)]


def _rule_two_cards(state: TableState, board: BoardState, irr: Irregularity, held: Held | None,
                    args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Law 58B: the player names the card he played; the other is a penalty card (defender) or goes back."""
    offender = irr.offender
    if held is None or held.card is None or offender is None or board.play is None or board.contract is None:
        raise _Refused("the cards are no longer waiting for a ruling")
    chosen = _card_arg(args)
    play = board.play
    played = play.current.card_of(offender)
    if played is None and play.tricks:
        played = play.tricks[-1].card_of(offender) if not play.current.cards else None
    if chosen not in (held.card, played):
        raise _Refused(f"the card played must be {held.card} or {played}")
    board = _unhold(board, irr.id)
    other = held.card
    events: list[Event] = []
    if chosen == held.card and played is not None:
        new_play, removed = r.take_back(play, r.cards_from(play, played))
        board = evolve(board, play=new_play, played=board.played & ~(1 << played.index),
                       deferred=(*board.deferred, *((s, c) for s, c in removed[1:])))
        state, board, events, _ = _play(evolve(state, board=board), board, offender, chosen, held.t, "")
        other = played
    if offender.side is not _declarer(board).side:
        board = _add_penalty_card(board, offender, other, False, irr.id)
        events.append(Event("penalty_card", f"{other} (Law 58B)", offender, t))
    else:
        events.append(Event("returned", f"{other} back to declarer's hand (Law 58B)", offender, t))
    return evolve(state, board=board), events


def _rule_revoke(state: TableState, board: BoardState, irr: Irregularity, option: str,
                 args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Laws 62-64: correct a revoke not yet established; confirm one (transfer at the end); adjust."""
    record = next((rv for rv in board.revokes if rv.source == irr.id), None)
    if irr.kind == "failure_to_comply":
        if option == "confirm" and irr.offender is not None and irr.trick is not None and board.play is not None:
            led = _suit_of_trick(board.play, irr.trick)
            board = evolve(board, revokes=(*board.revokes, RevokeRecord(
                irr.id, irr.offender, irr.trick, led or Suit.C, board.play.trick_number > irr.trick)))
        return evolve(state, board=board), []
    if record is None:
        raise _Refused("no revoke record")
    if option == "confirm":
        return state, [Event("revoke", f"revoke at trick {record.trick} confirmed: the transfer is "
                             "computed when the play ends (Law 64)", record.seat, t)]
    if option == "adjust":
        tricks = _tricks_arg(args)
        board = evolve(board, revokes=tuple(evolve(rv, exempt=f"adjusted:{tricks}") if rv is record else rv
                                            for rv in board.revokes))
        return evolve(state, board=board), [Event("revoke", f"the arbiter sets the transfer to {tricks} "
                                                  "(Law 64C)", record.seat, t)]
    # correct
    if record.established and record.trick != 12:
        raise _Refused("the revoke is established (Law 63): it can no longer be corrected; confirm or adjust")
    play = board.play
    assert play is not None and board.contract is not None
    so_far = (*play.tricks, play.current)
    card = so_far[record.trick - 1].card_of(record.seat) if record.trick <= len(so_far) else None
    if card is None:
        raise _Refused("the revoke card is not in its trick")
    new_play, removed = r.take_back(play, r.cards_from(play, card))
    revoke_card = removed[0][1]
    replacement = args.get("card")
    # a card the revoker played later (e.g. his lead to trick 13) that now corrects the revoke
    # is played once, to the revoke trick, and is not replayed in its old place (Law 62)
    substitute = _card_arg(args) if isinstance(replacement, str) else None
    later = tuple(sc for sc in removed[1:] if not (sc[0] is record.seat and sc[1] == substitute))
    board = evolve(board, play=new_play, played=board.played & ~(1 << revoke_card.index),
                   revokes=tuple(evolve(rv, exempt="corrected") if rv is record else rv for rv in board.revokes),
                   deferred=(*board.deferred, *later))
    events = [Event("revoke", f"{revoke_card} taken back (Law 62)", record.seat, t)]
    if record.seat.side is not _declarer(board).side and record.trick != 12:
        board = _add_penalty_card(board, record.seat, revoke_card, True, irr.id)
        events.append(Event("penalty_card", f"{revoke_card} is a major penalty card (Law 62B)", record.seat, t))
    state = evolve(state, board=board)
    if isinstance(replacement, str):
        state, board, more, _ = _play(state, board, record.seat, _card_arg(args), t, "")
        events.extend(more)
    return state, events


def _suit_of_trick(play: Play, trick: int) -> Suit | None:
    tricks = (*play.tricks, play.current)
    return tricks[trick - 1].suit_led if trick <= len(tricks) else None


def _rule_after_play(state: TableState, irr: Irregularity, option: str, args: dict[str, object],
                     t: float) -> tuple[TableState, list[Event]]:
    """Rulings once the play has ended: revokes, restrictions and claims rescore the board."""
    last = state.boards[-1]
    board = last.board
    if irr.kind == "claim":
        raise _Refused("the board is over: adjust the score instead")
    record = next((rv for rv in board.revokes if rv.source == irr.id), None)
    if option == "correct":
        if record is None or record.trick != 12 or state.board is not board:
            raise _Refused("the play is over: a revoke can no longer be corrected (Law 62)")
        # D 62D / R 62: a revoke on the twelfth trick is corrected even after the last trick,
        # until the hands go back in the board (here: until the next board starts); the board
        # reopens, tricks 12-13 are replayed and it is scored again when they are complete
        board = evolve(board, phase=Phase.PLAY, last_t=max(t, board.last_t or t))
        state = evolve(state, board=board, boards=state.boards[:-1], sheet=last.sheet_before or state.sheet)
        return _rule_revoke(state, board, irr, option, args, t)
    if irr.kind == "failure_to_comply" and option == "confirm" and irr.offender is not None and irr.trick:
        play = board.play
        assert play is not None
        led = _suit_of_trick(play, irr.trick) or Suit.C
        board = evolve(board, revokes=(*board.revokes, RevokeRecord(irr.id, irr.offender, irr.trick, led, True)))
    elif option == "adjust" and record is not None:
        board = evolve(board, revokes=tuple(evolve(rv, exempt=f"adjusted:{_tricks_arg(args)}")
                                            if rv is record else rv for rv in board.revokes))
    else:
        return state, []
    before = last.tricks_before_transfer if last.tricks_before_transfer is not None else last.tricks
    state = evolve(state, board=board, boards=state.boards[:-1], sheet=last.sheet_before or state.sheet)
    state = _close(state, board, last.status, before)
    return state, [Event("rescored", f"declarer {state.boards[-1].tricks} tricks", None, t)]


def _rule_claim(state: TableState, board: BoardState, irr: Irregularity, option: str,
                args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Laws 69-71: the claim as stated, or the tricks the arbiter awards (declarer's total)."""
    claim = board.claim
    if claim is None or board.play is None:
        raise _Refused("the claim is no longer pending")
    if option == "agree":
        state = _close_claim(state, board, claim.tricks)
    else:
        tricks = _tricks_arg(args)
        play = board.play
        decl_side = play.declarer.side
        to_declarer = tricks - play.won[decl_side]
        remaining = 13 - len(play.tricks)
        if not 0 <= to_declarer <= remaining:
            raise _Refused(f"declarer has {play.won[decl_side]} tricks with {remaining} to play: "
                           f"{tricks} is impossible")
        board = evolve(board, claim=evolve(claim, side=decl_side))
        state = _close_claim(evolve(state, board=board), board, to_declarer)
    return state, [Event("board_done", f"claim ruled: declarer {state.boards[-1].tricks} tricks", None, t)]


def _rule_deck(state: TableState, board: BoardState, irr: Irregularity, held: Held | None, option: str,
               args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Laws 7, 13-14 (R 10-12): carry on with the cards as they are, redeal, or adjust."""
    board = _unhold(board, irr.id)
    if option == "redeal":
        state = _close(evolve(state, board=board), board, "redeal", None)
        return state, [Event("redeal", "the board is redealt (the next board line starts it)", None, t)]
    if option == "adjust":
        tricks = _tricks_arg(args)
        if board.contract is None:
            raise _Refused("no contract to adjust")
        state = _close(evolve(state, board=board), board, "adjusted", tricks, transfers=False)
        return state, [Event("adjusted", f"declarer {tricks} tricks", None, t)]
    events: list[Event] = []
    if irr.situation == "card_not_in_hand" and held is not None and held.card is not None \
            and board.play is not None and board.deal is not None:
        # carry on: the hand record is set aside for the two hands involved
        holder = board.deal.holder(held.card)
        hands = list(board.play.hands)
        hands[held.seat] = None
        if holder is not None:
            hands[holder] = None
        board = evolve(board, play=evolve(board.play, hands=(hands[0], hands[1], hands[2], hands[3])),
                       deal=None)
        state = evolve(state, board=board)
        if board.play is not None and board.play.turn is held.seat:
            state, board, events, _ = _play(state, board, held.seat, held.card, held.t, "")
        return state, events
    return evolve(state, board=board), events


def _undo(state: TableState, act: a.UndoRuling) -> Step:
    """The arbiter withdraws a ruling: the table as it was just before it (Law 82)."""
    for id_, before in reversed(state.before_ruling):
        if id_ == act.id:
            return Step(before, (Event("ruling_undone", f"{act.id}: the table is back where it was before "
                                       "the ruling; later actions must be entered again", None, act.t),))
    return _reject(state, f"ruling {act.id} cannot be undone: no ruling on it on this board", act)


# --- closing a board -------------------------------------------------------------------------

def _close(state: TableState, board: BoardState, status: str, tricks: int | None,
           claimed: dict[Side, int] | None = None, transfers: bool = True) -> TableState:
    """Finish ``board``: revoke transfers (Law 64), the score on the sheet, the outcome.

    A disputed claim that was played out (R 69, 70: play goes on) is settled by that play:
    its irregularity is recorded as awarded the tricks declarer won (``"by": "play"``); the
    arbiter may still adjust the score.
    """
    claim = board.claim
    if claim is not None and claim.disputed is not None and status == "played" and tricks is not None:
        state = _settle(state, claim.disputed, "ruled", option="award", tricks=tricks, by="play")
    board = evolve(board, phase=Phase.DONE, claim=None)
    entries: tuple[SheetEntry, ...] = ()
    sheet = state.sheet
    lost = (0, 0)
    notes: tuple[str, ...] = ()
    before = tricks
    if (transfers and tricks is not None and board.revokes and board.play is not None
            and board.contract is not None):
        rules = state.code.rules
        plain = tuple(rv for rv in board.revokes if not rv.exempt.startswith("adjusted:"))
        lost, notes = r.revoke_transfers(board.play, plain, rules.revoke_penalty,
                                         rules.both_sides_revoked_no_transfer, claimed)
        fixed = [0, 0]
        for rv in board.revokes:
            if rv.exempt.startswith("adjusted:"):
                fixed[rv.seat.side] += int(rv.exempt.split(":")[1])
        lost = (lost[0] + fixed[0], lost[1] + fixed[1])
        side = board.contract.declarer.side
        tricks = max(0, min(13, tricks - lost[side] + lost[side.other]))
        if any(lost):
            law = "W 87" if rules.revoke_penalty == "w87" else "Law 64"
            notes = (*notes, f"revoke transfer: NS give up {lost[0]}, EW give up {lost[1]} ({law})")
    if status not in ("incomplete", "redeal"):
        result = DealResult(board.contract, tricks or 0, board.vulnerability, board.dealer,
                            board.deal, lost, board.number)
        sheet, entries = state.code.score_deal(sheet, result)
    outcome = BoardOutcome(board, status, tricks, entries, lost, notes, state.sheet, before)
    return evolve(state, board=board, sheet=sheet, boards=(*state.boards, outcome))


def abandon_board(state: TableState) -> TableState:
    """The state with the board in progress closed without a result (``incomplete``)."""
    if state.board is None or state.board.phase is Phase.DONE:
        return state
    return _close(state, state.board, "incomplete", None)


def finish_session(state: TableState) -> TableState:
    """The state at the end of the session: an unfinished board closed, end-of-session scores."""
    if state.finished:
        return state
    if state.board is not None and state.board.phase is not Phase.DONE:
        state = _close(state, state.board, "incomplete", None)
    sheet, _ = state.code.finish(state.sheet)
    return evolve(state, sheet=sheet, finished=True)


_HANDLERS: dict[type, Any] = {
    a.SessionStart: _session, a.BoardStart: _board, a.MakeCall: _call, a.StopCard: _stop,
    a.AlertCard: _alert, a.PlayCard: _card, a.FaceCards: _face, a.PickUp: _pickup,
    a.CallDirector: _director, a.Claim: _claim, a.Concede: _claim, a.Agree: _agree,
    a.Dispute: _dispute, a.ExposeCard: _expose, a.UndoRuling: _undo,
    a.Ruling: _ruling, a.Adjust: _adjust, a.Declare: _declaration,
    a.DoubleDeclaration: _declaration, a.Satisfied: _declaration,
}


def step(state: TableState, action: a.Action) -> Step:
    """The table after ``action``: new state, events and any irregularities raised."""
    if state.finished:
        return _reject(state, "the session has ended", action)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        return _reject(state, f"unknown action {action!r}", action)
    result: Step = handler(state, action)
    return result
