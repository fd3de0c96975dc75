"""The irregularity record of docs/irregularities.md and the small pure detectors of the auction and play.

Each detector looks at the state and one action and returns the situation it sees, or
None; ``table.step`` turns a situation into an ``Irregularity`` with the law of the code
in force. Rectification (rulings and their enforcement) builds on these records. What each
situation is (kind, options, who chooses, the law per code) is ``controller.catalogue``;
the tables here are thin views of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller import catalogue
from controller.auction import Auction
from controller.calls import Call, CallKind
from controller.cards import Card
from controller.play import Play
from controller.seats import Seat

__all__ = [
    "KIND_OF_SITUATION",
    "OPTIONS",
    "PLAIN_KIND",
    "SITUATION_OPTIONS",
    "Irregularity",
    "detect_call_after_auction_closed",
    "detect_call_out_of_rotation",
    "detect_inadmissible_double",
    "detect_insufficient_bid",
    "detect_play_out_of_turn",
    "detect_revoke",
    "plain_kind",
]


@dataclass(frozen=True, slots=True)
class Irregularity:
    """One irregularity: what happened, the law in force, who offended, who chooses, the options.

    ``status`` is ``awaiting_ruling``, ``accepted`` (the non-offender accepted it by calling
    or playing on: Laws 27A, 29A, 53, 60), ``waived`` (the player in turn called over a call
    out of rotation: Law 28B), ``cancelled`` (condoned by the next player: the irregular call
    and the later ones are void, Law 36A), ``superseded`` (the proper leader led in his own
    right, Law 53C; or a call out of rotation made at the same time as the call in turn and
    deemed made after it, Law 33), ``ruled``, ``noted`` (nothing to choose) or ``undone``. ``notify`` is
    who is told at once under the club's policy (``log``, ``arbiter``, ``table``).
    ``trick`` is the trick number (1..13) for the play, None in the auction.
    """

    id: int
    kind: str
    situation: str
    law: str
    offender: Seat | None
    chooser: str
    options: tuple[str, ...]
    detail: str
    t: float
    board: int | None = None
    trick: int | None = None
    ruling: tuple[tuple[str, object], ...] | None = None
    status: str = "awaiting_ruling"
    notify: str = "arbiter"

    def as_dict(self) -> dict[str, object]:
        """The JSON form of the replay report (docs/replay-report.md)."""
        return {
            "id": self.id, "kind": self.kind, "situation": self.situation, "law": self.law,
            "offender": None if self.offender is None else str(self.offender),
            "chooser": self.chooser, "options": list(self.options),
            "ruling": None if self.ruling is None else dict(self.ruling),
            "status": self.status, "detail": self.detail, "t": self.t,
            "board": self.board, "trick": self.trick, "situation_law": self.law,
            "notify": self.notify,
        }


OPTIONS: dict[str, tuple[str, ...]] = {k.name: k.options for k in catalogue.kinds()}
"""The option codes docs/irregularities.md lists per kind (``controller.catalogue``; what the table offers
is each situation's own list, ``SITUATION_OPTIONS``)."""

SITUATION_OPTIONS: dict[str, tuple[str, ...]] = {s.name: s.option_codes for s in catalogue.situations()}
"""The option codes of each situation the table can see (``controller.catalogue``)."""

KIND_OF_SITUATION: dict[str, str] = {s.name: s.kind for s in catalogue.situations()}
"""The kind each situation is reported under (``controller.catalogue``)."""

PLAIN_KIND: dict[str, str] = {k.name: k.title for k in catalogue.kinds()}
"""Each kind of irregularity in the plain words a player or a Director uses (the console's banner)."""


def plain_kind(kind: str, situation: str | None = None) -> str:
    """The irregularity in plain words: its situation's title (``controller.catalogue``), else its kind's."""
    if situation is not None:
        try:
            return catalogue.situation_named(situation).title
        except catalogue.UnknownSituationError:
            pass
    return PLAIN_KIND.get(kind, kind.replace("_", " ").capitalize())


def detect_call_after_auction_closed(auction: Auction) -> str | None:
    """A call once the auction has closed (Law 39)."""
    return "call_after_auction_closed" if auction.is_complete else None


def detect_call_out_of_rotation(auction: Auction, seat: Seat) -> str | None:
    """A call by a seat that is not in turn (Laws 28-32)."""
    return None if seat is auction.turn else "call_out_of_rotation"


def detect_insufficient_bid(auction: Auction, call: Call) -> str | None:
    """A bid not higher than the last bid (Law 27)."""
    return None if auction.is_sufficient(call) else "insufficient_bid"


def detect_inadmissible_double(auction: Auction, call: Call, seat: Seat) -> str | None:
    """A double or redouble the auction does not allow (Law 36)."""
    if call.kind in (CallKind.DOUBLE, CallKind.REDOUBLE) and not auction.is_legal(call, seat):
        return "inadmissible_double"
    return None


def detect_play_out_of_turn(play: Play, seat: Seat) -> str | None:
    """A card from a seat not in turn: opening lead (54), lead (53-56) or premature play (57)."""
    if seat is play.turn:
        return None
    if not play.tricks and not play.current.cards:
        return "opening_lead_out_of_turn"
    if not play.current.cards:
        return "lead_out_of_turn"
    return "premature_play"


def detect_revoke(play: Play, seat: Seat, card: Card) -> str | None:
    """A card not of the suit led by a seat that holds that suit (Law 61), hands known."""
    return "revoke" if play.is_revoke(seat, card) else None
