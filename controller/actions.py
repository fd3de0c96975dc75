"""Table actions: what happened at the table, one immutable value each (the table log's lines).

Every action carries ``t``, seconds since the session started (the sensing layer's clock).
The JSON form of each is documented in docs/table-log.md and read and written
by ``controller.records.tablelog``.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.calls import Call, Denomination
from controller.cards import Card
from controller.contract import Contract
from controller.deal import Deal
from controller.seats import Seat, Vulnerability

__all__ = [
    "Action",
    "Adjust",
    "Agree",
    "AlertCard",
    "BoardStart",
    "CallDirector",
    "Claim",
    "Concede",
    "CorrectResult",
    "Declare",
    "Dispute",
    "DoubleDeclaration",
    "ExposeCard",
    "FaceCards",
    "MakeCall",
    "PickUp",
    "PlayCard",
    "Ruling",
    "Satisfied",
    "SessionStart",
    "StopCard",
    "UndoCorrection",
    "UndoRuling",
]


@dataclass(frozen=True, slots=True)
class SessionStart:
    """The code of laws in force and the table settings (first line of a table log)."""

    code: str = "duplicate"
    settings: tuple[tuple[str, object], ...] = ()
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class BoardStart:
    """A new board (duplicate) or deal; hands, dealer and vulnerability where known."""

    number: int | None = None
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    deal: Deal | None = None
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class MakeCall:
    """A call made by ``seat`` (a bid card placed from its bidding box)."""

    seat: Seat
    call: Call
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class StopCard:
    """The Stop card shown by ``seat`` before a skip bid (R App. 2; ACBL skip-bid regulation)."""

    seat: Seat
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class AlertCard:
    """The Alert card shown by ``seat`` for partner's last call."""

    seat: Seat
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class PlayCard:
    """A card put on ``seat``'s play zone (dummy's cards are put on dummy's zone).

    ``how`` is empty for a card the readers saw; the arbiter enters what they cannot see:
    ``deemed`` (a card legally played off the readers, Law 45) or ``designated`` (dummy's
    card named by declarer, Laws 45, 46).
    """

    seat: Seat
    card: Card
    t: float = 0.0
    how: str = ""


@dataclass(frozen=True, slots=True)
class FaceCards:
    """Cards put face up on ``seat``'s spread zone (dummy's hand, a hand faced for a claim)."""

    seat: Seat
    cards: tuple[Card, ...]
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class PickUp:
    """A card taken back from ``seat``'s zones."""

    seat: Seat
    card: Card
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class CallDirector:
    """``seat`` pressed the call-the-arbiter button."""

    seat: Seat
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class Claim:
    """``seat`` claims ``tricks`` of the remaining tricks for its side (Law 68), with its statement."""

    seat: Seat
    tricks: int
    t: float = 0.0
    statement: str = ""


@dataclass(frozen=True, slots=True)
class Concede:
    """``seat`` concedes ``tricks`` of the remaining tricks to the opponents (Law 68)."""

    seat: Seat
    tricks: int
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class Agree:
    """``seat`` agrees to the pending claim or concession (Law 69)."""

    seat: Seat
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class Dispute:
    """``seat`` disputes the pending claim or concession (Laws 69, 70): the arbiter is needed."""

    seat: Seat
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class ExposeCard:
    """The arbiter records a card of ``seat`` exposed off the readers (dropped, shown, named).

    ``deliberate`` makes a defender's penalty card major whatever its rank (Laws 24, 49, 50).
    """

    seat: Seat
    card: Card
    deliberate: bool = False
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class UndoRuling:
    """The arbiter withdraws ruling ``id``: the table returns to just before it (Law 82)."""

    id: int
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class Ruling:
    """The arbiter's decision on irregularity ``id`` (None: the latest one awaiting a ruling)."""

    option: str
    id: int | None = None
    args: tuple[tuple[str, object], ...] = ()
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class Adjust:
    """The arbiter assigns declarer's side ``tricks`` on the board in play (Laws 12, 64C, 69-71)."""

    tricks: int
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class CorrectResult:
    """The Director corrects a finished board's recorded result (Law 79C): the contract (None:
    passed out), declarer inside it, declarer's tricks and the opening lead, as they should stand.

    ``entry`` and ``made`` (the wall-clock time of the Director's entry, ISO 8601) name the
    Director's entry at the console's desk, so the same entry is never taken twice; ``by`` and
    ``reason`` say who made it and why. The original lines of the log stay as they were.
    """

    entry: int
    board: int
    contract: Contract | None
    tricks: int
    lead: Card | None
    by: str
    reason: str
    made: str
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class UndoCorrection:
    """The Director takes back correction ``undoes`` (entry ``entry`` of the desk): the result stands
    as before it (Law 79C; an undo is an entry of its own, the correction stays in the log)."""

    entry: int
    undoes: int
    by: str
    reason: str
    made: str
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class Declare:
    """1905: ``seat`` names the trump (``denomination``), or the dealer passes it to partner (None)."""

    seat: Seat
    denomination: Denomination | None
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class DoubleDeclaration:
    """1905: ``seat`` doubles (or redoubles) the value of the tricks (W 50-55)."""

    seat: Seat
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class Satisfied:
    """1905: ``seat`` declines to (re)double: "May I lead?", "Yes", "Satisfied" (W 51-57)."""

    seat: Seat
    t: float = 0.0


Action = (SessionStart | BoardStart | MakeCall | StopCard | AlertCard | PlayCard | FaceCards
          | PickUp | CallDirector | Claim | Concede | Agree | Dispute | ExposeCard | Ruling
          | UndoRuling | Adjust | Declare | DoubleDeclaration | Satisfied | CorrectResult | UndoCorrection)
