"""The table's values: ``TableState`` and its queries, ``BoardState``, ``BoardOutcome``, ``Step``.

Frozen slotted dataclasses: a change is a copy (``controller.values.evolve``, checked by
mypy as ``dataclasses.replace``). The queries read like python-chess (``turn``,
``legal_calls()``, ``legal_cards(seat)``, ``contract()``, ``outcome()``) and apply the
restrictions the rulings left on the board: obligations in the auction (Laws 26-32, 36,
37), lead and play restrictions and penalty cards (Laws 26, 50-51, 57).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from controller import rulings as r
from controller.auction import Auction
from controller.calls import Call
from controller.cards import Card, Suit
from controller.codes import LOG_DEFAULT_CODE, Code, Sheet, SheetEntry, code_named
from controller.codes.bridge1905 import Declaration1905
from controller.contract import Contract
from controller.deal import Deal
from controller.irregularities import Irregularity
from controller.play import Play
from controller.rulings import Held, Obligation, PenaltyCard, Policy, RevokeRecord
from controller.seats import Seat, Side, Vulnerability
from controller.tempo import TempoSettings

if TYPE_CHECKING:
    from controller.table.corrections import CorrectionEntry

__all__ = ["BoardOutcome", "BoardState", "Event", "PendingClaim", "Phase", "Step", "TableState"]


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
    """A claim (or concession) awaiting agreement: ``tricks`` of the remaining ones to ``side``;
    ``disputed``: the irregularity of a dispute (Laws 68D, 69, 70)."""

    seat: Seat
    side: Side
    tricks: int
    needed: frozenset[Seat]
    agreed: frozenset[Seat] = frozenset()
    statement: str = ""
    disputed: int | None = None
    concession: bool = False


@dataclass(frozen=True, slots=True)
class BoardState:
    """One board in progress: its setup, auction (or 1905 declaration), play, timing and rulings.

    ``deferred``: cards played early that stand and count at their seat's turn (Law 57 note,
    60); ``early_leads``: a defender's lead to the next trick made before his partner played,
    once declarer had played from both hands (Law 57C: no rectification), judged as a lead
    when the trick is complete. ``standing``: (irregularity id, index in the auction) of an
    inadmissible double or redouble the table called over before any ruling: it stays in the
    record as made and awaits the arbiter (Law 36). ``bypassed``: the irregularities the players went on
    past before their ruling (the record followed the table; ``table_departs_from_record``).
    """

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
    early_leads: tuple[tuple[Seat, Card, float], ...] = ()
    standing: tuple[tuple[int, int], ...] = ()
    bypassed: tuple[int, ...] = ()
    lead_options_for: int = 0
    start_t: float = 0.0
    last_t: float | None = None
    last_card: tuple[Seat, float] | None = None
    pauses: tuple[tuple[float, float], ...] = ()
    waiting_since: float | None = None

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
    corrections: tuple[CorrectionEntry, ...] = ()
    """The Director's corrections of finished boards' results and their undoing (``corrections``, Law 79C)."""

    @classmethod
    def new(cls, code: str = LOG_DEFAULT_CODE, settings: dict[str, object] | None = None) -> TableState:
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
