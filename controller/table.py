"""The table: one immutable state and ``step(state, action) -> Step``.

``step`` never mutates and never raises for anything that can happen at a table: an
illegal call or card becomes an ``Irregularity`` (kind and law of the code in force), an
action that makes no sense now (a card before any board, a claim of 14 tricks) is
``rejected`` with a clear message and leaves the state unchanged. Keeping past states
gives undo and replay.

What this module does not do yet is rectify: rulings are recorded against their
irregularity, and the flow goes on with the irregular call or card left out (a revoke,
being a played card, stays in its trick).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from controller import actions as a
from controller.auction import Auction
from controller.calls import Call
from controller.cards import Card, Suit
from controller.codes import Code, Sheet, SheetEntry, code_named
from controller.codes.bridge1905 import W_UNEXPECTED_ACT, Declaration1905
from controller.contract import Contract
from controller.deal import Deal
from controller.irregularities import (
    KIND_OF_SITUATION,
    OPTIONS,
    Irregularity,
    detect_call_after_auction_closed,
    detect_call_out_of_rotation,
    detect_inadmissible_double,
    detect_insufficient_bid,
    detect_play_out_of_turn,
    detect_revoke,
)
from controller.play import Play
from controller.scoring import DealResult
from controller.seats import Seat, Side, Vulnerability
from controller.values import evolve

__all__ = [
    "BoardOutcome", "BoardState", "Event", "Phase", "Step", "TableState", "abandon_board", "finish_session",
    "step",
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


@dataclass(frozen=True, slots=True)
class BoardState:
    """One board in progress: its setup, auction (or 1905 declaration), play and timing."""

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


@dataclass(frozen=True, slots=True)
class BoardOutcome:
    """A finished board: the result and what it added to the score sheet.

    ``status``: ``played`` (13 tricks), ``claimed``, ``passed_out``, ``adjusted`` (the
    arbiter assigned the tricks) or ``incomplete`` (abandoned before a result).
    """

    board: BoardState
    status: str
    tricks: int | None
    entries: tuple[SheetEntry, ...]

    @property
    def result(self) -> str | None:
        c = self.board.contract
        return None if c is None or self.tricks is None else c.result(self.tricks)

    @property
    def score_ns(self) -> int | None:
        """North-South's net points from this deal's sheet entries; None if not scored."""
        if self.status == "incomplete":
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

    @classmethod
    def new(cls, code: str = "duplicate", settings: dict[str, object] | None = None) -> TableState:
        """A table with no board yet, playing ``code``."""
        c = code_named(code, settings)
        return cls(c, c.new_sheet(), settings=tuple((settings or {}).items()))

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
        b = self.board
        return () if b is None or b.phase is not Phase.AUCTION else b.auction.legal_calls()

    def is_legal_call(self, call: Call) -> bool:
        b = self.board
        return b is not None and b.phase is Phase.AUCTION and b.auction.is_legal(call)

    def legal_cards(self, seat: Seat | None = None) -> tuple[Card, ...]:
        b = self.board
        if b is None or b.phase is not Phase.PLAY or b.play is None:
            return ()
        return b.play.legal_cards(seat)

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
           detail: str, t: float, trick: int | None = None,
           chooser: str | None = None) -> tuple[TableState, BoardState, Irregularity]:
    """Record a new irregularity against ``board``; ids run from 1 in order of detection."""
    kind = KIND_OF_SITUATION.get(situation, situation)
    law = state.code.law(situation) or state.code.law(kind)
    irr = Irregularity(
        id=state.irregularity_count + 1, kind=kind, situation=situation, law=law,
        offender=offender, chooser=chooser or _default_chooser(kind, offender, board),
        options=OPTIONS.get(kind, ()), detail=detail, t=t, board=board.number, trick=trick)
    board = evolve(board, irregularity_ids=(*board.irregularity_ids, irr.id))
    state = evolve(state, irregularities=(*state.irregularities, irr), board=board,
                   irregularity_count=irr.id)
    return state, board, irr


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
    return "arbiter"


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
        auction=Auction(dealer), declaration=declaration)
    events.append(Event("board", f"board {act.number} dealer {dealer} vul {vul}", None, act.t))
    return Step(evolve(state, board=board, director_called=None), tuple(events))


# --- the auction ---------------------------------------------------------------------------

def _call(state: TableState, act: a.MakeCall) -> Step:
    board = state.board
    if board is None:
        return _reject(state, f"call {act.call} by {act.seat} before any board", act)
    if board.phase is Phase.DECLARATION:
        return _reject(state, "the 1905 game has no auction: declare trumps instead", act)
    auction = board.auction
    situation = (detect_call_after_auction_closed(auction)
                 or detect_call_out_of_rotation(auction, act.seat)
                 or detect_insufficient_bid(auction, act.call)
                 or detect_inadmissible_double(auction, act.call, act.seat))
    if situation is not None:
        detail = f"{act.seat} {act.call}" + (
            f" while {auction.turn} was to call" if situation == "call_out_of_rotation"
            else "")
        state, board, irr = _raise(state, board, situation, act.seat, detail, act.t)
        return Step(state, (Event("irregularity", irr.situation, act.seat, act.t),), (irr,))
    auction = auction.with_call(act.call)
    board = evolve(board, auction=auction, call_times=(*board.call_times, act.t))
    events = [Event("call", str(act.call), act.seat, act.t)]
    if auction.is_complete:
        contract = auction.contract()
        if contract is None:
            state = _close(state, board, "passed_out", 0)
            events.append(Event("passed_out", "", None, act.t))
            return Step(state, tuple(events))
        board = _start_play(board, contract)
        events.append(Event("contract", str(contract), contract.declarer, act.t))
    return Step(evolve(state, board=board), tuple(events))


def _start_play(board: BoardState, contract: Contract) -> BoardState:
    play = Play.start(contract.declarer, contract.denomination.trump, board.deal)
    return evolve(board, phase=Phase.PLAY, contract=contract, play=play)


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
    if board.phase is not Phase.PLAY or board.play is None:
        return _reject(state, f"{act.card} by {act.seat} before the auction has ended "
                       "(a card exposed during the auction is entered by the arbiter, Law 24)",
                       act)
    play = board.play
    trick_no = play.trick_number
    situation: str | None = None
    bit = 1 << act.card.index
    if board.played & bit:
        situation = "card_played_twice"
    elif board.deal is not None:
        holder = board.deal.holder(act.card)
        if holder is not None and holder is not act.seat:
            situation = "card_not_in_hand"
    situation = situation or detect_play_out_of_turn(play, act.seat)
    if situation is not None:
        state, board, irr = _raise(state, board, situation, act.seat,
                                   f"{act.seat} {act.card}", act.t, trick_no)
        return Step(state, (Event("irregularity", situation, act.seat, act.t),), (irr,))
    events: list[Event] = []
    irrs: list[Irregularity] = []
    if board.claim is not None:
        events.append(Event("claim_withdrawn", "play continued", act.seat, act.t))
        board = evolve(board, claim=None)
    revoke = detect_revoke(play, act.seat, act.card)
    led = play.current.suit_led
    shown_out = board.shown_out
    if revoke is None and play.hands[act.seat] is None:
        late = _revoke_shown_later(board, act.seat, act.card)
        if late is not None:
            state, board, irr = _raise(state, board, "revoke", act.seat,
                                       f"{act.seat} showed out of {act.card.suit} at trick "
                                       f"{late} and now plays {act.card}", act.t, late)
            irrs.append(irr)
        if led is not None and act.card.suit is not led:
            shown_out = (*shown_out, (act.seat, led, trick_no))
    if revoke is not None:
        state, board, irr = _raise(state, board, revoke, act.seat,
                                   f"{act.seat} played {act.card} on a {led} lead "
                                   f"holding {led}", act.t, trick_no)
        irrs.append(irr)
    play = play.with_card(act.card)
    board = evolve(board, play=play, played=board.played | bit, shown_out=shown_out,
                    play_times=(*board.play_times, act.t))
    events.append(Event("card", str(act.card), act.seat, act.t))
    if play.current.cards == () and play.tricks:
        events.append(Event("trick", f"trick {len(play.tricks)} to {play.tricks[-1].winner}",
                            play.tricks[-1].winner, act.t))
    state = evolve(state, board=board)
    if play.is_complete:
        state = _close(state, board, "played", play.declarer_tricks)
        events.append(Event("board_done", "13 tricks played", None, act.t))
    return Step(state, tuple(events), tuple(irrs))


def _revoke_shown_later(board: BoardState, seat: Seat, card: Card) -> int | None:
    """The trick at which ``seat`` showed out of ``card``'s suit, now shown to have been a revoke."""
    for s, suit, trick in board.shown_out:
        if s is seat and suit is card.suit:
            return trick
    return None


def _face(state: TableState, act: a.FaceCards) -> Step:
    board = state.board
    if board is None:
        return _reject(state, "cards faced before any board", act)
    board = evolve(board, faced=(*board.faced, (act.seat, act.cards)))
    play = board.play
    if play is not None and play.hands[act.seat] is None and act.seat is play.dummy:
        hands = list(play.hands)
        hands[act.seat] = frozenset(act.cards)
        board = evolve(board, play=evolve(play, hands=(hands[0], hands[1], hands[2], hands[3])))
    return Step(evolve(state, board=board),
                (Event("faced", " ".join(str(c) for c in act.cards), act.seat, act.t),))


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
    claim = PendingClaim(act.seat, side, tricks, needed)
    what = "claim" if isinstance(act, a.Claim) else "concession"
    return Step(evolve(state, board=evolve(board, claim=claim)),
                (Event(what, f"{tricks} of {remaining} remaining tricks to {side}", act.seat,
                       act.t),))


def _agree(state: TableState, act: a.Agree) -> Step:
    board = state.board
    if board is None or board.claim is None or board.play is None:
        return _reject(state, "no claim or concession awaits agreement", act)
    claim = board.claim
    if act.seat not in claim.needed:
        return _reject(state, f"{act.seat} is not an opponent of the claimer who must agree", act)
    claim = evolve(claim, agreed=claim.agreed | {act.seat})
    board = evolve(board, claim=claim)
    events = [Event("agree", "", act.seat, act.t)]
    if claim.agreed >= claim.needed:
        play = board.play
        assert play is not None
        won = play.won[claim.side] + claim.tricks
        tricks = won if claim.side is play.declarer.side else 13 - won
        state = _close(evolve(state, board=board), board, "claimed", tricks)
        events.append(Event("board_done", f"claim agreed: declarer {tricks} tricks", None, act.t))
        return Step(state, tuple(events))
    return Step(evolve(state, board=board), tuple(events))


def _adjust(state: TableState, act: a.Adjust) -> Step:
    board = state.board
    if board is None or board.contract is None:
        return _reject(state, "an adjustment of tricks needs a board with a contract", act)
    if not 0 <= act.tricks <= 13:
        return _reject(state, f"invalid trick count {act.tricks}", act)
    if board.phase is Phase.DONE:
        return _reject(state, "the board is already scored", act)
    state = _close(state, board, "adjusted", act.tricks)
    return Step(state, (Event("adjusted", f"declarer {act.tricks} tricks", None, act.t),))


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
    ruled = evolve(target, ruling=(("option", act.option), *act.args), status="ruled")
    irrs = tuple(ruled if i.id == target.id else i for i in state.irregularities)
    state = evolve(state, irregularities=irrs)
    events = [Event("ruling", f"{target.id} {act.option}", None, act.t)]
    board = state.board
    if (board is not None and board.declaration is not None
            and board.declaration.pending == target.situation):
        declaration = board.declaration.rule(act.option == "stands")
        board, started = _declaration_done(evolve(board, declaration=declaration), act.t)
        state = evolve(state, board=board)
        events.extend(started)
    return Step(state, tuple(events))


# --- closing a board -------------------------------------------------------------------------

def _close(state: TableState, board: BoardState, status: str, tricks: int | None) -> TableState:
    """Finish ``board``: score it onto the sheet (unless incomplete) and record the outcome."""
    board = evolve(board, phase=Phase.DONE, claim=None)
    entries: tuple[SheetEntry, ...] = ()
    sheet = state.sheet
    if status != "incomplete":
        result = DealResult(board.contract, tricks or 0, board.vulnerability, board.dealer,
                            board.deal, (0, 0), board.number)
        sheet, entries = state.code.score_deal(sheet, result)
    outcome = BoardOutcome(board, status, tricks, entries)
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
