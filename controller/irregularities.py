"""The irregularity record of LAWS.md Part 1 and the small pure detectors of the auction and play.

Each detector looks at the state and one action and returns the situation it sees, or
None; ``table.step`` turns a situation into an ``Irregularity`` with the law of the code
in force. Rectification (rulings and their enforcement) builds on these records.
"""

from __future__ import annotations

from dataclasses import dataclass

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
        """The JSON form of the replay contract (DESIGN.md)."""
        return {
            "id": self.id, "kind": self.kind, "situation": self.situation, "law": self.law,
            "offender": None if self.offender is None else str(self.offender),
            "chooser": self.chooser, "options": list(self.options),
            "ruling": None if self.ruling is None else dict(self.ruling),
            "status": self.status, "detail": self.detail, "t": self.t,
            "board": self.board, "trick": self.trick, "situation_law": self.law,
            "notify": self.notify,
        }


OPTIONS: dict[str, tuple[str, ...]] = {
    "insufficient_bid": ("accept", "correct"),
    "call_out_of_rotation": ("accept", "cancel"),
    "change_of_call": ("inadvertent", "purposeful"),
    "inadmissible_call": ("cancel", "accept"),
    "card_exposed_in_auction": ("acknowledge",),
    "opening_lead_out_of_turn": ("accept_see_dummy", "accept_become_dummy", "require_suit",
                                 "forbid_suit", "leave_penalty_card"),
    "lead_out_of_turn": ("accept", "reject"),
    "premature_play": ("require_highest", "require_lowest", "forbid_suit"),
    "penalty_card": ("require_suit", "forbid_suit", "no_restriction", "designate"),
    "failure_to_play_penalty_card": ("accept_play", "require_penalty_card"),
    "simultaneous_play": ("play",),
    "failure_to_comply": ("confirm",),
    "revoke": ("correct", "confirm", "adjust"),
    "defective_trick": ("confirm", "adjust"),
    "claim": ("agree", "dispute", "award"),
    "deck_problem": ("redeal", "continue", "adjust"),
    "wrong_board": ("continue", "redeal", "adjust"),
    "tempo": ("note", "dismiss"),
    # 1905 declaration irregularities (W 46-48, 54-55): the named opponent lets the act
    # stand, or claims a new deal / has the double struck out.
    "w_trump_named_by_partner_uninvited": ("stands", "new_deal"),
    "w_declaration_passed_back_to_dealer": ("stands", "new_deal"),
    "w_adversary_names_or_passes_trump": ("stands", "new_deal"),
    "w_double_before_may_i_lead": ("stands", "cancel"),
    "w_redouble_out_of_turn": ("stands", "cancel"),
}

SITUATION_OPTIONS: dict[str, tuple[str, ...]] = {
    # never acceptable (D 32 preamble, 36; R 35A): cancelled, or condoned by LHO calling
    "double_oor_inadmissible": ("cancel",),
    "inadmissible_double": ("cancel",),
    "call_by_player_required_to_pass": ("cancel",),
    "double_when_barred": ("cancel",),
    "call_not_repeated": ("cancel",),
    "call_after_auction_closed": ("cancel",),
    # declarer's choice the first time the offender's partner has the lead (26, 50, 51)
    "lead_restriction_from_withdrawn_call": ("require_suit", "forbid_suit", "no_restriction"),
    "major_pc_partner_on_lead": ("require_suit", "forbid_suit", "no_restriction"),
    "opening_lead_face_down_out_of_turn": ("reject",),
    "opening_lead_by_declaring_side": ("acknowledge",),
    "card_exposed_by_defender": ("acknowledge",),
    "defender_plays_after_retraction_ordered": ("acknowledge",),
    "lead_out_of_turn_last_trick": ("reject",),
    # 1905: the maker of the trump names the eldest hand's suit (W 60), or the card stays exposed (W 76)
    "w_opening_lead_by_dealers_rho": ("require_suit", "leave_penalty_card"),
    "fifth_card_on_trick": ("confirm",),
    "revoke_twelfth_trick": ("correct",),
    "claim_by_declarer": ("agree", "award"),
    "claim_by_defender": ("agree", "award"),
    "card_played_twice": ("continue", "redeal", "adjust"),
    "card_not_in_hand": ("continue", "redeal", "adjust"),
}
"""Where the law gives fewer options than the kind's list (or different ones), per situation."""

KIND_OF_SITUATION: dict[str, str] = {
    "insufficient_bid": "insufficient_bid",
    "call_out_of_rotation": "call_out_of_rotation",
    "inadmissible_double": "inadmissible_call",
    "call_after_auction_closed": "inadmissible_call",
    "opening_lead_out_of_turn": "opening_lead_out_of_turn",
    "lead_out_of_turn": "lead_out_of_turn",
    "premature_play": "premature_play",
    "revoke": "revoke",
    "card_not_in_hand": "deck_problem",
    "card_played_twice": "deck_problem",
    "card_in_two_hands": "deck_problem",
    "change_of_call": "change_of_call",
    "pass_oor_before_any_bid": "call_out_of_rotation",
    "pass_oor_rho_turn_after_bid": "call_out_of_rotation",
    "pass_oor_partner_turn_after_bid": "call_out_of_rotation",
    "bid_oor_rho_turn": "call_out_of_rotation",
    "bid_oor_partner_turn": "call_out_of_rotation",
    "bid_oor_lho_turn_first_round": "call_out_of_rotation",
    "double_oor_partner_turn": "call_out_of_rotation",
    "double_oor_rho_turn": "call_out_of_rotation",
    "double_oor_inadmissible": "inadmissible_call",
    "call_by_player_required_to_pass": "inadmissible_call",
    "double_when_barred": "inadmissible_call",
    "call_not_repeated": "inadmissible_call",
    "card_exposed_in_auction_single_low": "card_exposed_in_auction",
    "card_exposed_in_auction_honour_or_several": "card_exposed_in_auction",
    "card_led_during_auction": "card_exposed_in_auction",
    "opening_lead_by_declaring_side": "card_exposed_in_auction",
    "opening_lead_face_down_out_of_turn": "lead_out_of_turn",
    "lead_from_wrong_hand_by_declarer": "lead_out_of_turn",
    "lead_by_declarer_when_defender_on_lead": "lead_out_of_turn",
    "lead_out_of_turn_by_defender": "lead_out_of_turn",
    "lead_out_of_turn_last_trick": "lead_out_of_turn",
    "w_opening_lead_by_dealers_rho": "opening_lead_out_of_turn",
    "premature_lead_by_defender": "premature_play",
    "premature_play_by_defender": "premature_play",
    "major_pc_partner_on_lead": "penalty_card",
    "card_exposed_by_defender": "penalty_card",
    "defender_plays_after_retraction_ordered": "penalty_card",
    "two_cards_at_once_defender": "simultaneous_play",
    "two_cards_at_once_declarer": "simultaneous_play",
    "fifth_card_on_trick": "defective_trick",
    "failure_to_comply_with_restriction": "failure_to_comply",
    "revoke_twelfth_trick": "revoke",
    "claim_by_declarer": "claim",
    "claim_by_defender": "claim",
    "board_rotated": "wrong_board",
    "hesitation": "tempo",
    "skip_bid_wait": "tempo",
}


PLAIN_KIND: dict[str, str] = {
    "insufficient_bid": "Insufficient bid",
    "call_out_of_rotation": "Call out of rotation",
    "change_of_call": "Change of call",
    "inadmissible_call": "Inadmissible call",
    "card_exposed_in_auction": "Card exposed during the auction",
    "opening_lead_out_of_turn": "Opening lead out of turn",
    "lead_out_of_turn": "Lead out of turn",
    "premature_play": "Premature lead or play by a defender",
    "penalty_card": "Penalty card",
    "failure_to_play_penalty_card": "Penalty card not played",
    "simultaneous_play": "Two cards played at once",
    "failure_to_comply": "Lead or play restriction not followed",
    "revoke": "Revoke",
    "defective_trick": "Defective trick",
    "claim": "Claim disputed",
    "deck_problem": "Problem with the cards",
    "wrong_board": "Wrong board or board rotated",
    "tempo": "Hesitation (tempo note)",
}
"""Each kind of irregularity in the plain words a player or a Director uses (the console's banner)."""

_PLAIN_SITUATION: dict[str, str] = {
    "bid_oor_partner_turn": "Bid out of rotation at partner's turn",
    "bid_oor_rho_turn": "Bid out of rotation at RHO's turn",
    "bid_oor_lho_turn_first_round": "Bid out of rotation at LHO's turn",
    "skip_bid_wait": "Stop card: the wait after a skip bid",
    "lead_from_wrong_hand_by_declarer": "Declarer led from the wrong hand",
    "card_exposed_by_defender": "Card exposed by a defender",
    "claim_by_declarer": "Declarer's claim disputed",
    "claim_by_defender": "Defender's claim disputed",
    "revoke_twelfth_trick": "Revoke on the twelfth trick",
}


def plain_kind(kind: str, situation: str | None = None) -> str:
    """The irregularity in plain words: its situation's when it has one of its own, else its kind's."""
    if situation is not None and situation in _PLAIN_SITUATION:
        return _PLAIN_SITUATION[situation]
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
