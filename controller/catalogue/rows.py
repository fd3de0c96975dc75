"""The catalogue's rows: every situation the table can see, with its options and their sentences.

Sentences are present tense, name who chooses and what happens next, and leave the law to
``render`` (the reference of the code in force). Placeholders: ``controller.catalogue.PLACEHOLDERS``
and the option's argument names. Law references are not here: ``controller.codes`` holds them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.catalogue import Arg, Kind, Option
from controller.codes import CODES_BEFORE_2017, CODES_WITH_AUCTION

__all__ = ["KINDS", "SITUATIONS", "Row"]


@dataclass(frozen=True, slots=True)
class Row:
    """A situation as written here; ``controller.catalogue`` adds its laws and title.

    ``codes``: the codes in which the table can raise it (empty: every code whose law
    references name it or its kind).
    """

    name: str
    kinds: tuple[str, ...]
    offender: str
    chooser: str
    options: tuple[Option, ...]
    title: str = ""
    noted: bool = False
    note: str = ""
    codes: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return self.kinds[0]


KINDS: tuple[Kind, ...] = (
    Kind("insufficient_bid", "Insufficient bid", ("accept", "correct")),
    Kind("call_out_of_rotation", "Call out of rotation", ("accept", "cancel")),
    Kind("change_of_call", "Change of call", ("inadvertent", "purposeful")),
    Kind("inadmissible_call", "Inadmissible call", ("cancel", "accept")),
    Kind("card_exposed_in_auction", "Card exposed during the auction", ("acknowledge",)),
    Kind("opening_lead_out_of_turn", "Opening lead out of turn",
         ("accept_see_dummy", "accept_become_dummy", "require_suit", "forbid_suit", "leave_penalty_card")),
    Kind("lead_out_of_turn", "Lead out of turn", ("accept", "reject")),
    Kind("premature_play", "Premature lead or play by a defender",
         ("require_highest", "require_lowest", "forbid_suit")),
    Kind("penalty_card", "Penalty card", ("require_suit", "forbid_suit", "no_restriction", "designate")),
    Kind("failure_to_play_penalty_card", "Penalty card not played", ("accept_play", "require_penalty_card")),
    Kind("simultaneous_play", "Two cards played at once", ("play",)),
    Kind("failure_to_comply", "Lead or play restriction not followed", ("confirm",)),
    Kind("revoke", "Revoke", ("correct", "confirm", "adjust")),
    Kind("defective_trick", "Defective trick", ("confirm", "adjust")),
    Kind("claim", "Claim disputed", ("agree", "dispute", "award")),
    Kind("deck_problem", "Problem with the cards", ("redeal", "continue", "adjust")),
    Kind("wrong_board", "Wrong board or board rotated", ("continue", "redeal", "adjust")),
    Kind("tempo", "Hesitation (tempo note)", ("note", "dismiss")),
    Kind("table_departs_from_record", "The table went on past an irregularity", ("resync", "rule")),
    # 1905 declaration irregularities (W 46-48, 54-55): the named opponent lets the act
    # stand, or claims a new deal / has the double struck out
    Kind("w_trump_named_by_partner_uninvited", "Trump named by the dealer's partner uninvited",
         ("stands", "new_deal")),
    Kind("w_declaration_passed_back_to_dealer", "Declaration passed back to the dealer", ("stands", "new_deal")),
    Kind("w_adversary_names_or_passes_trump", "An adversary named or passed the trump", ("stands", "new_deal")),
    Kind("w_double_before_may_i_lead", "Double before \"May I lead?\"", ("stands", "cancel")),
    Kind("w_redouble_out_of_turn", "Double or redouble out of turn", ("stands", "cancel")),
)
"""The kinds of docs/irregularities.md with the option codes Part 1 lists for each (the situations
below say which of them the table offers where)."""


# --- arguments -------------------------------------------------------------------------------------

def _suit(label: str, choices: str = "") -> Arg:
    return Arg("suit", "suit", True, label, choices)


_WITH_AUCTION = CODES_WITH_AUCTION
_BEFORE_2017 = CODES_BEFORE_2017
D2017 = "duplicate2017"

_TRICKS_DECLARER = Arg("tricks", "tricks", True, "declarer's tricks in all", unknown="the number of tricks he decides")

# --- options used by several situations -------------------------------------------------------------

_ACCEPT_CALL = Option("accept", "{lho} accepts {call}: it stands and {lho} calls next")
_ACKNOWLEDGE = "acknowledge"
_NOTE = Option("note", "the arbiter notes the hesitation by {offender}: it may matter later for "
                       "unauthorized information")
_DISMISS = Option("dismiss", "the arbiter dismisses it: nothing is noted against {offender}")
_LEAD_ACCEPT_BY_DEFENDERS = Option("accept", "{defenders} accept the lead of {card} from the wrong hand: it stands "
                                             "and play goes on")
_LEAD_REJECT_BY_DEFENDERS = Option("reject", "{defenders} require declarer to lead from the correct hand: "
                                             "{card} goes back to its hand without penalty")
_PREMATURE = (
    Option("require_highest", "{declarer} requires {partner} to play his highest card of the suit led to "
                              "this trick; {card} becomes a major penalty card"),
    Option("require_lowest", "{declarer} requires {partner} to play his lowest card of the suit led to "
                             "this trick; {card} becomes a major penalty card"),
    Option("forbid_suit", "{declarer} forbids {partner} to play {suit} to this trick; {card} becomes a major "
                          "penalty card", (_suit("suit forbidden (not the suit led)", "not_led"),)),
    Option("require_suit", "{declarer} requires {partner} to play {suit} to this trick (once void in the suit "
                           "led); {card} becomes a major penalty card",
           (_suit("suit required (not the suit led)", "not_led"),), codes=(D2017,)),
)
_TWO_CARDS = Arg("card", "card", True, "the card he meant to play", "two_cards", unknown="one of the two")
_DECK = (
    Option("continue", "the arbiter lets play continue with the cards as they are"),
    Option("redeal", "the arbiter has the board redealt: the next board line starts it"),
    Option("adjust", "the arbiter assigns declarer {tricks} in all and the board ends", (_TRICKS_DECLARER,)),
)
_CLAIM = (
    Option("agree", "the arbiter upholds the claim as stated: the board ends with the tricks claimed"),
    Option("award", "the arbiter awards declarer {tricks} in all and the board ends", (_TRICKS_DECLARER,)),
    Option("play_on", "at the request of the side that did not claim, all four players agree to play on: the "
                      "claim is void and the result of the play stands", codes=(D2017,)),
)
_NEW_DEAL = Option("new_deal", "{chooser} claims a new deal: the same dealer deals again")


def _cancel_oor(sentence: str, *, artificial: bool = False, by_code: tuple[tuple[str, str], ...] = ()) -> Option:
    args = (Arg("artificial", "flag", False, "the pass was artificial (D 30C): treated as a bid out of rotation",
                codes=("duplicate", D2017)),) if artificial else ()
    return Option("cancel", "{lho} does not accept: " + sentence, args, by_code)


_INADVERTENT_AT_PARTNERS_TURN = Option(
    "inadvertent", "the arbiter finds that {offender} was changing an unintended call of his own, made just "
                   "before {lho}'s (Law 25A: until partner calls): {call} replaces it without rectification; "
                   "{lho}'s call over the first one stands unless he withdraws it or it is no longer legal", (
                       Arg("lho_withdraws", "flag", False, "LHO withdraws the call he made over the first one (25A)"),),
    only_if="own_call_before_lho")
"""The arbiter's override of a call at partner's turn made by the player who called just before his
LHO: the table reads it as a call out of rotation (Laws 30-32), the arbiter may find it a change."""

_PASS_CANCELLED = "the pass is cancelled and the turn goes back to the player whose turn it was; "
_PASS_CANCELLED_2017 = "{lho} does not accept: " + _PASS_CANCELLED
_COMPARABLE_ONCE = ("{offender} may call freely at his turn and the arbiter judges whether that call is comparable "
                    "(Law 23): if not, {partner} must pass at his next turn and declarer may forbid one suit")
_PARTNER_FREE_2017 = ((D2017, "{lho} does not accept: {call} is cancelled and the turn goes back to the player "
                              "whose turn it was; {partner} may call freely, then " + _COMPARABLE_ONCE),)
_BARRED_AFTER_BID = ("{call} is cancelled and the turn goes back to the player whose turn it was; {partner} must "
                     "pass for the rest of the auction and declarer may have lead options when {partner} is on lead")


_AS_IF_NOT_MADE = Option("as_if_not_made", "attention was first drawn to {call} after the opening lead was faced: "
                                           "the contract is played and scored as if it had not been made",
                         codes=(D2017,), only_if="opening_lead_faced")
_STANDS_NOTE = ("If the next player calls before any ruling, the call stays in the record as the table made "
                "it and still awaits the arbiter: cancelling it then cancels every later call too, without "
                "rectification (Law 36A); in the 2017 code, once the opening lead is faced the contract is "
                "scored as if it had not been made (Law 36C).")


# --- the rows -----------------------------------------------------------------------------------------

_AUCTION: tuple[Row, ...] = (
    Row("insufficient_bid", ("insufficient_bid",), "the player who made the insufficient bid", "lho", (
        Option("accept", "{lho} accepts the insufficient bid ({call}): it stands and {lho} calls next"),
        Option("correct", "{lho} does not accept: {offender}'s next call replaces {call}; the lowest sufficient "
                          "bid in the same denomination costs nothing, other calls bar {partner} and may give "
                          "declarer lead options", (
                              Arg("same_meaning", "flag", False, "the replacement has the same meaning (27B1b)",
                                  codes=_BEFORE_2017),
                              Arg("artificial", "flag", False,
                                  "the insufficient bid or its replacement is artificial (27B1a)",
                                  codes=(*_BEFORE_2017, D2017))),
               by_code=((D2017, "{lho} does not accept: {offender}'s next call replaces {call}, and the arbiter "
                                "judges it: the lowest sufficient bid in the same denomination, or a comparable "
                                "call, costs nothing (the arbiter may adjust after the play); any other call bars "
                                "{partner} for the rest of the auction and lets declarer forbid one suit"),)),
    )),
    Row("change_of_call", ("change_of_call",), "the player who changed his call", "arbiter", (
        Option("inadvertent", "the arbiter finds the change inadvertent: {offender}'s substitute call stands "
                              "without rectification; a call {lho} made over the first one stands unless he "
                              "withdraws it or it is no longer legal", (
                                  Arg("lho_withdraws", "flag", False,
                                      "LHO withdraws the call he made over the first one (25A)"),)),
        Option("purposeful", "the arbiter finds the change purposeful: the first call stands unless {lho} "
                             "accepts the substitute", (
                                 Arg("accepted", "flag", False, "LHO accepts the substitute (D 25B)",
                                     codes=("duplicate", D2017)),
                                 Arg("keep", "flag", False, "the offender keeps his first call (R 25B)",
                                     codes=("rubber", "chicago"))),
               by_code=(*((c, "the arbiter finds the change purposeful: the substitute stands (or the "
                              "first call, if kept) and {partner} must pass, for the rest of the auction "
                              "(or once if the first call is kept); declarer may have lead options")
                          for c in ("rubber", "chicago")),
                        (D2017, "the arbiter finds the change purposeful: the first call stands unless {lho} "
                                "accepts the substitute; either way declarer may forbid {partner} one suit if "
                                "{partner} defends"))),
    ), note="A call at LHO's turn after an own call (nobody has called since it). A call at partner's turn is "
            "a call out of rotation, which the arbiter may find a change of call."),
    Row("pass_oor_before_any_bid", ("call_out_of_rotation",), "the player who passed out of rotation", "lho", (
        _ACCEPT_CALL,
        _cancel_oor(_PASS_CANCELLED + "{offender} must pass at his next turn", artificial=True,
                    by_code=((D2017, _PASS_CANCELLED_2017 + "at RHO's turn {offender} must pass at his next turn; "
                              "at partner's or LHO's turn " + _COMPARABLE_ONCE),)),
    ), title="Pass out of rotation before any bid"),
    Row("pass_oor_rho_turn_after_bid", ("call_out_of_rotation",), "the player who passed out of rotation", "lho", (
        _ACCEPT_CALL,
        _cancel_oor(_PASS_CANCELLED + "{offender} must pass at his next turn", artificial=True),
    ), title="Pass out of rotation at RHO's turn"),
    Row("pass_oor_partner_turn_after_bid", ("call_out_of_rotation",), "the player who passed out of rotation",
        "lho", (
            _ACCEPT_CALL,
            _cancel_oor(_PASS_CANCELLED + "{offender} must pass for the rest of the auction and {partner} may "
                        "not double or redouble at his next turn", artificial=True,
                        by_code=((D2017, _PASS_CANCELLED_2017 + _COMPARABLE_ONCE),)),
            _INADVERTENT_AT_PARTNERS_TURN,
        ), title="Pass out of rotation at partner's turn"),
    Row("bid_oor_rho_turn", ("call_out_of_rotation",), "the player who bid out of rotation", "lho", (
        _ACCEPT_CALL,
        _cancel_oor("{call} is cancelled; if {rho} then passes, {offender} must repeat it; if {rho} bids, doubles "
                    "or redoubles, {offender} may call freely and {partner} may be barred",
                    by_code=((D2017, "{lho} does not accept: {call} is cancelled; if {rho} then passes, {offender} "
                              "must repeat it; if {rho} bids, doubles or redoubles, " + _COMPARABLE_ONCE),)),
    ), title="Bid out of rotation at RHO's turn"),
    Row("bid_oor_partner_turn", ("call_out_of_rotation",), "the player who bid out of rotation", "lho", (
        _ACCEPT_CALL, _cancel_oor(_BARRED_AFTER_BID, by_code=_PARTNER_FREE_2017), _INADVERTENT_AT_PARTNERS_TURN,
    ), title="Bid out of rotation at partner's turn",
        note="Also when the offender made the call just before LHO's: the table reads a new call, not a change "
             "of call; the arbiter may find it one (inadvertent)."),
    Row("bid_oor_lho_turn_first_round", ("call_out_of_rotation",), "the player who bid out of rotation", "lho", (
        _ACCEPT_CALL, _cancel_oor(_BARRED_AFTER_BID, by_code=_PARTNER_FREE_2017),
    ), title="Bid out of rotation at LHO's turn"),
    Row("double_oor_partner_turn", ("call_out_of_rotation",), "the player who doubled or redoubled out of rotation",
        "lho", (
            _ACCEPT_CALL,
            _cancel_oor("{call} is cancelled; {partner} must pass for the rest of the auction, {offender} may not "
                        "double or redouble the same bid again, and declarer may have lead options",
                        by_code=_PARTNER_FREE_2017),
            _INADVERTENT_AT_PARTNERS_TURN,
        ), title="Double or redouble out of rotation at partner's turn"),
    Row("double_oor_rho_turn", ("call_out_of_rotation",), "the player who doubled or redoubled out of rotation",
        "lho", (
            _ACCEPT_CALL,
            _cancel_oor("{call} is cancelled; if {rho} then passes, {offender} must repeat it; if {rho} acts, "
                        "{offender} may call freely and {partner} must pass for the rest of the auction",
                        by_code=(*((c, "{lho} does not accept: {call} is cancelled; if {rho} then passes, "
                                       "{offender} must repeat it; if {rho} acts, {offender} may call freely "
                                       "and {partner} must pass at his next turn")
                                   for c in ("rubber", "chicago")),
                                 (D2017, "{lho} does not accept: {call} is cancelled; if {rho} then passes, "
                                         "{offender} must repeat it; if {rho} acts, " + _COMPARABLE_ONCE))),
        ), title="Double or redouble out of rotation at RHO's turn"),
    Row("double_oor_inadmissible", ("inadmissible_call",), "the player who doubled or redoubled", "arbiter", (
        Option("cancel", "the arbiter cancels {call}, which can never be accepted: {offender} must substitute a "
                         "legal call, {partner} must pass for the rest of the auction and declarer may have "
                         "lead options"),
        _AS_IF_NOT_MADE,
    ), title="Inadmissible double or redouble out of rotation", note=_STANDS_NOTE),
    Row("inadmissible_double", ("inadmissible_call",), "the player who doubled or redoubled", "arbiter", (
        Option("cancel", "the arbiter cancels {call}: {offender} must substitute a legal call, {partner} must pass "
                         "for the rest of the auction and declarer may have lead options"),
        _AS_IF_NOT_MADE,
    ), title="Inadmissible double or redouble", note=_STANDS_NOTE),
    Row("call_by_player_required_to_pass", ("inadmissible_call",), "the player required to pass", "arbiter", (
        Option("cancel", "the arbiter cancels {call} and a pass is put in its place; {partner} must pass for the "
                         "rest of the auction and declarer may have lead options",
               by_code=tuple((c, "the arbiter cancels {call} and a pass is put in its place; {offender} and "
                                 "{partner} must pass for the rest of the auction and declarer may have lead "
                                 "options") for c in ("rubber", "chicago", D2017))),
    ), title="Call by a player required to pass"),
    Row("double_when_barred", ("inadmissible_call",), "the player who may not double or redouble now", "arbiter", (
        Option("cancel", "the arbiter cancels {call}: {offender} must make another call"),
    ), title="Double or redouble by a player barred from it", codes=_BEFORE_2017),
    Row("call_not_repeated", ("inadmissible_call",), "the player who had to repeat his call", "arbiter", (
        Option("cancel", "the arbiter cancels {call}: {offender} makes the call he was required to repeat"),
    ), title="Call out of rotation not repeated"),
    Row("call_after_auction_closed", ("inadmissible_call",), "the player who called", "arbiter", (
        Option("cancel", "the arbiter cancels {call}; if {offender} is a defender and it was not a pass, "
                         "declarer may have lead options"),
    ), title="Call after the auction closed"),
    Row("comparable_call", ("call_out_of_rotation", "insufficient_bid"), "the player whose call was cancelled",
        "arbiter", (
            Option("lowest_same_denomination", "the arbiter finds {call} the lowest sufficient bid in the "
                                               "denomination of the insufficient bid: it stands without "
                                               "rectification; he may adjust after the play if the insufficient "
                                               "bid helped (27D)", only_if="lowest_same_denomination"),
            Option("comparable", "the arbiter finds {call} comparable to the cancelled call: it stands without "
                                 "rectification, and no lead restriction; he may adjust after the play if the "
                                 "infraction helped (23C)"),
            Option("not_comparable", "the arbiter finds {call} not comparable: after an insufficient bid, "
                                     "{partner} must pass for the rest of the auction (a double or redouble is "
                                     "cancelled and {offender} calls again); after a call out of rotation, "
                                     "{partner} must pass at his next turn; declarer may forbid one suit when "
                                     "{partner} is first on lead"),
        ), title="Comparable call? (the call replacing a cancelled one)",
        note="2017 only: the call the offender makes at his turn after his insufficient bid or call out of "
             "rotation was cancelled is held until the arbiter judges it (Law 23A: same or similar meaning, "
             "a subset of its meanings, or the same purpose).", codes=(D2017,)),
    Row("card_exposed_before_auction", ("card_exposed_in_auction",), "the player whose card was seen", "none", (
        Option(_ACKNOWLEDGE, "recorded: {card} goes back to {offender}'s hand; no rectification, the information "
                             "is dealt with as extraneous information"),
    ), title="Card exposed before the auction", noted=True,
        note="2017 only (WBF Laws Committee, 15 August 2017): before the first call of the board Law 24 does not "
             "apply yet.", codes=(D2017,)),
    Row("card_exposed_in_auction_single_low", ("card_exposed_in_auction",), "the player whose card was seen", "none", (
        Option(_ACKNOWLEDGE, "recorded: {card} stays face up until the auction ends and is a minor penalty card "
                             "if {offender} defends; {partner} is not barred"),
    ), title="Single low card exposed during the auction"),
    Row("card_exposed_in_auction_honour_or_several", ("card_exposed_in_auction",), "the player whose cards were seen",
        "none", (
            Option(_ACKNOWLEDGE, "recorded: {offender}'s exposed cards ({card}) stay face up until the auction ends "
                                 "and become major penalty cards if he defends; {partner} must pass at his next "
                                 "turn"),
        ), title="Honour or several cards exposed during the auction"),
    Row("card_led_during_auction", ("card_exposed_in_auction",), "the player who led", "none", (
        Option(_ACKNOWLEDGE, "recorded: {card} counts as led; {partner} must pass at his next turn and {card} is a "
                             "major penalty card if {offender} defends"),
    ), title="Card led during the auction"),
    Row("lead_restriction_from_withdrawn_call",
        ("call_out_of_rotation", "insufficient_bid", "change_of_call", "inadmissible_call"),
        "the player whose call was withdrawn", "declarer", (
            Option("require_suit", "{declarer} requires {partner} to lead {suit}",
                   (_suit("suit to lead", "withdrawn_suits"),), only_if="named_suit", codes=_BEFORE_2017),
            Option("forbid_suit", "{declarer} forbids {partner} to lead {suit} for as long as he keeps the lead",
                   (_suit("suit forbidden", "withdrawn_suits"),),
                   by_code=((D2017, "{declarer} forbids {partner} to lead {suit}, a suit {offender} did not "
                                    "specify in the legal auction, for as long as he keeps the lead"),)),
            Option("no_restriction", "{declarer} leaves {partner} free to lead any card"),
        ), title="Lead option after a withdrawn call",
        note="Reported under the kind of the irregularity that withdrew the call. Declarer may require "
             "a suit only when the withdrawn call named one (2008 Law 26A); under the 2017 Laws (26B, as "
             "amended in 2017) he may only forbid one suit the offender did not specify in the legal auction, "
             "and never after a comparable call."),
    Row("hesitation", ("tempo",), "the player who thought long", "arbiter", (_NOTE, _DISMISS),
        title="Hesitation (a note on the timeline)", noted=True,
        note="A think far beyond the player's own pace: recorded for the arbiter who looks, not an alert."),
    Row("unusual_hesitation", ("tempo",), "the player who thought unusually long", "arbiter", (_NOTE, _DISMISS),
        title="Unusual hesitation",
        note="An alert: at least tempo_alert_factor (5) times the player's own median and tempo_alert_min_s "
             "(15 s), once his pace is known (tempo_alert_min_history, 6), over a call or a defender's card "
             "from trick tempo_alert_from_trick (2) on."),
    Row("skip_bid_wait", ("tempo",), "the player who called too fast or too slowly after a skip bid", "arbiter", (
        Option("note", "the arbiter notes that {offender} did not keep to the wait after the skip bid"),
        _DISMISS,
    ), title="Stop card: the wait after a skip bid"),
)

_LEADS: tuple[Row, ...] = (
    Row("opening_lead_out_of_turn", ("opening_lead_out_of_turn",), "the defender who led out of turn", "declarer", (
        Option("accept_see_dummy", "{declarer} accepts the lead of {card}: dummy is faced and {declarer} plays "
                                   "second to the trick"),
        Option("accept_become_dummy", "{declarer} accepts the lead of {card} and spreads his own hand: {dummy} "
                                      "becomes declarer", not_if="dummy_seen_keeps_declarer"),
        Option("require_suit", "{declarer} refuses the lead and requires {partner} to lead {suit}; {card} goes "
                               "back to {offender}'s hand", (_suit("suit to lead", "card_suit"),), not_if="dummy_seen"),
        Option("forbid_suit", "{declarer} refuses the lead and forbids {partner} to lead {suit} while he keeps "
                              "the lead; {card} goes back to {offender}'s hand",
               (_suit("suit forbidden", "card_suit"),), not_if="dummy_seen"),
        Option("leave_penalty_card", "{declarer} refuses the lead: {card} stays face up as a major penalty card "
                                     "and {partner} leads any card", not_if="dummy_seen"),
    ), note="Declarer must accept the lead once he could have seen dummy's cards (2008 Law 54B; 2017 Law 54C, "
            "and then he stays declarer: he may not spread his hand).", codes=_WITH_AUCTION),
    Row("opening_lead_face_down_out_of_turn", ("lead_out_of_turn",), "the defender who led out of turn", "arbiter", (
        Option("reject", "the arbiter has {card} returned to {offender}'s hand without rectification; "
                         "{partner} leads"),
    ), title="Face-down opening lead out of turn", codes=_WITH_AUCTION),
    Row("opening_lead_by_declaring_side", ("card_exposed_in_auction",), "declarer or dummy", "none", (
        Option(_ACKNOWLEDGE, "recorded: {card} goes back to the hand; declarer's and dummy's cards never become "
                             "penalty cards"),
    ), title="Opening lead by the declaring side", noted=True),
    Row("w_opening_lead_by_dealers_rho", ("opening_lead_out_of_turn",), "the dealer's right-hand adversary", "maker", (
        Option("require_suit", "{chooser} names {suit} for the eldest hand, {partner}, to lead; {card} goes back "
                               "to {offender}'s hand", (_suit("suit to lead"),)),
        Option("leave_penalty_card", "{chooser} leaves {card} face up as an exposed card that may be called; "
                                     "{partner} leads"),
    ), title="Opening lead by the dealer's right-hand adversary (1905)", codes=("bridge1905",)),
    Row("lead_from_wrong_hand_by_declarer", ("lead_out_of_turn",), "declarer", "defenders", (
        _LEAD_ACCEPT_BY_DEFENDERS, _LEAD_REJECT_BY_DEFENDERS,
    ), title="Declarer led from the wrong hand"),
    Row("lead_by_declarer_when_defender_on_lead", ("lead_out_of_turn",), "declarer", "defenders", (
        Option("accept", "{defenders} accept the lead of {card}: it stands and play goes on"),
        Option("reject", "{defenders} refuse the lead: {card} goes back to its hand without penalty and the "
                         "defender on lead leads"),
    ), title="Declarer led when a defender was on lead"),
    Row("lead_out_of_turn_by_defender", ("lead_out_of_turn",), "the defender who led out of turn", "declarer", (
        Option("accept", "{declarer} accepts the lead of {card}: it stands and {lho} plays next"),
        Option("reject", "{declarer} refuses the lead: {card} becomes a major penalty card, the right hand leads, "
                         "and declarer may have lead options when {partner} is on lead"),
    ), title="Lead out of turn by a defender"),
    Row("lead_out_of_turn_last_trick", ("lead_out_of_turn",), "the player who led out of turn",
        "declarer_or_defenders", (
            Option("reject", "the lead of {card} to the last trick cannot be accepted: it goes back (a defender's "
                             "as a penalty card) and the right hand leads"),
        ), title="Lead out of turn to the last trick",
        note="Only where the code forbids accepting it (rubber, R 53; 2017 Law 53A).",
        codes=(D2017, "rubber", "chicago")),
)

_RECORD: tuple[Row, ...] = (
    Row("table_departs_from_record", ("table_departs_from_record",), "nobody: the players went on", "arbiter", (
        Option("resync", "the arbiter confirms the table as it is: the calls and cards stand as the players made "
                         "them, and the irregularities they went past are settled as the table shows"),
        Option("rule", "the arbiter rules on the irregularities the players went past (their own options); the "
                       "record keeps the table as it is until he does"),
    ), title="The table went on while an irregularity awaited its ruling",
        note="The controller never applies a rectification the players have not made: when they go on past an "
             "irregularity that awaits its ruling, the record follows the cards and calls on the table and this "
             "is raised once per board, whatever follows, until the arbiter answers it.",
        codes=("duplicate", D2017)),
)

_PLAY: tuple[Row, ...] = (
    Row("premature_lead_by_defender", ("premature_play",), "the defender who led to the next trick early",
        "declarer", _PREMATURE, title="Premature lead by a defender"),
    Row("premature_play_by_defender", ("premature_play",), "the defender who played before his partner",
        "declarer", _PREMATURE, title="Premature play by a defender"),
    Row("play_at_rho_turn", ("premature_play",), "the defender who played before his right-hand opponent",
        "none", (
            Option(_ACKNOWLEDGE, "recorded: {card} could not legally be played to this trick: a major penalty card "
                                 "{offender} plays at his first legal opportunity"),
        ), title="Defender played at his right-hand opponent's turn", noted=True,
        note="2017 only: a defender who plays before declarer or dummy, his partner having played; a card he "
             "may legally play to the trick waits for his turn, any other is a major penalty card.",
        codes=(D2017,)),
    Row("legal_card_at_rho_turn", ("premature_play",), "the defender who played before his right-hand opponent",
        "none", (
            Option(_ACKNOWLEDGE, "recorded: {card} is held and played at {offender}'s turn; it is not a penalty "
                                 "card, and the arbiter judges whether playing it early gave information (Law 16)"),
        ), title="Defender played a legal card at his right-hand opponent's turn", noted=True,
        note="2017 only: the 2008 code lets the card wait for its turn with nothing to report.", codes=(D2017,)),
    Row("major_pc_partner_on_lead", ("penalty_card",), "the defender with major penalty cards", "declarer", (
        Option("require_suit", "{declarer} requires {partner} to lead {suit}; {offender}'s penalty cards of that "
                               "suit go back to his hand", (_suit("suit to lead", "penalty_suits"),)),
        Option("forbid_suit", "{declarer} forbids {partner} to lead {suit} for as long as he keeps the lead; "
                              "{offender}'s penalty cards of that suit go back to his hand (also forbidden: "
                              "{suits})", (
                                  _suit("suit forbidden", "penalty_suits"),
                                  Arg("suits", "suits", False, "also forbid (D 51)", "penalty_suits",
                                      codes=("duplicate", D2017), unknown="any further suit of them declarer names",
                                      absent="no other suit")),
               by_code=tuple((c, "{declarer} forbids {partner} to lead {suit} or any other suit of {offender}'s "
                                 "penalty cards for as long as he keeps the lead; those penalty cards go back "
                                 "to his hand") for c in ("rubber", "chicago"))),
        Option("no_restriction", "{declarer} leaves {partner} free to lead; {offender}'s penalty cards stay on "
                                 "the table"),
    ), title="Partner of a major penalty card's owner on lead"),
    Row("penalty_cards_designation", ("penalty_card",), "the defender with two or more penalty cards", "declarer", (
        Option("designate", "{declarer} designates {card}: {offender} plays it now and his other penalty cards stay "
                            "on the table", (
                                Arg("card", "card", True, "the penalty card to play", "legal_penalty_cards",
                                    unknown="one of them"),)),
    ), title="Two or more penalty cards that may be played",
        note="Asked as soon as the defender's turn comes; a card he puts down before declarer designates waits.",
        codes=_WITH_AUCTION),
    Row("card_exposed_by_defender", ("penalty_card",), "the defender whose card was exposed", "arbiter", (
        Option(_ACKNOWLEDGE, "recorded: {card} is a penalty card, minor if a single card below the 10 exposed by "
                             "accident, else major; {offender} must play it as Law 50 says"),
        Option("deliberate", "the arbiter finds {card} exposed deliberately: a major penalty card, to be played "
                             "at the first legal opportunity, and declarer may have lead options when {partner} "
                             "is on lead"),
        Option("no_penalty", "the arbiter finds {card} exposed through an external cause: not a penalty card, "
                             "back to {offender}'s hand (the information is unauthorized for {partner})"),
    ), title="Card exposed by a defender",
        note="A defender's card faced on the table during the play (on his spread zone, dropped, shown), or "
             "entered by the arbiter; not one faced for a claim."),
    Row("defender_plays_after_retraction_ordered", ("penalty_card",), "the defender who played", "arbiter", (
        Option(_ACKNOWLEDGE, "recorded: {card} is a major penalty card"),
    ), title="Defender played before declarer led from the right hand", noted=True),
    Row("failure_to_play_penalty_card", ("failure_to_play_penalty_card",), "the defender with the penalty card",
        "declarer", (
            Option("accept_play", "{declarer} accepts {card}: it is played and the penalty card stays on the table"),
            Option("require_penalty_card", "{declarer} requires the penalty card: {card} becomes a major penalty "
                                           "card too and {offender} plays the penalty card"),
        )),
    Row("two_cards_at_once_defender", ("simultaneous_play",), "the defender who played two cards", "offender", (
        Option("play", "{offender} names {card} as the card he played; the other becomes a penalty card (major if "
                       "an honour)", (_TWO_CARDS,)),
    ), title="Two cards played at once by a defender"),
    Row("two_cards_at_once_declarer", ("simultaneous_play",), "declarer", "offender", (
        Option("play", "{offender} names {card} as the card he played; the other goes back to his hand",
               (_TWO_CARDS,)),
    ), title="Two cards played at once by declarer"),
    Row("simultaneous_leads_by_defenders", ("simultaneous_play",), "the defender who was not on lead", "arbiter", (
        Option(_ACKNOWLEDGE, "recorded: {partner}'s lead stands; {card}, deemed played after it, is a major penalty "
                             "card that {offender} plays at his first legal opportunity"),
    ), title="Both defenders led at once", noted=True, codes=_WITH_AUCTION),
    Row("fifth_card_on_trick", ("defective_trick",), "the player who added a card", "arbiter", (
        Option("confirm", "the arbiter confirms the extra card ({card}): a defender's is a penalty card, "
                          "declarer's goes back to his hand"),
    ), title="Fifth card on a trick"),
    Row("failure_to_comply_with_restriction", ("failure_to_comply",), "the player who could have complied",
        "arbiter", (
            Option("confirm", "the arbiter confirms that {offender} could have complied: it is treated as a revoke "
                              "and the tricks are transferred when the play ends"),
        )),
    Row("revoke", ("revoke",), "the player who revoked", "arbiter", (
        Option("correct", "the revoke is corrected before it is established: the revoke card goes back (a "
                          "defender's as a major penalty card) and {offender} plays {card} instead", (
                              Arg("card", "card", False, "card played instead (optional)",
                                  unknown="a card of the suit led"),)),
        Option("confirm", "the arbiter confirms the revoke: the tricks are transferred when the play ends"),
        Option("adjust", "the arbiter sets the tricks transferred for the revoke to {tricks}", (
            Arg("tricks", "tricks", True, "tricks transferred", unknown="the number of tricks he decides"),)),
    ), note="A revoke confirmed may be ruled again (corrected, or its transfer adjusted) until the board is scored. "
            "The law cited follows what becomes of it: correction (62), establishment (63), then the transfer "
            "or exemption decided when the play ends (D 64A1, 64A2, 64B1-7, 64C; R 64A-D). In duplicate 2017, "
            "when both sides revoked on one trick and only one side has played to the next, both are corrected "
            "(62C3; no transfer, 64B8)."),
    Row("revoke_faced_card", ("revoke",), "the defender who did not play his penalty card", "arbiter", (
        Option("correct", "the revoke is corrected before it is established: the revoke card goes back (a "
                          "major penalty card) and {offender} plays {card} instead", (
                              Arg("card", "card", False, "card played instead (optional)",
                                  unknown="the penalty card"),)),
        Option("confirm", "the arbiter confirms the revoke: it was made in failing to play a card faced on the "
                          "table, so no trick is transferred"),
        Option("adjust", "the arbiter restores equity: {tricks} transferred for the revoke", (
            Arg("tricks", "tricks", True, "tricks transferred", unknown="the number of tricks he decides"),)),
    ), title="Revoke in failing to play a penalty card",
        note="The only cards of the suit led that he held lay face up on the table as penalty cards: a revoke "
             "without trick transfer; the arbiter may still restore equity.",
        codes=_WITH_AUCTION),
    Row("revoke_twelfth_trick", ("revoke",), "the player who revoked", "arbiter", (
        Option("correct", "the revoke on the twelfth trick must be corrected: the revoke card goes back and "
                          "{offender} plays {card} instead", (
                              Arg("card", "card", False, "card played instead (optional)",
                                  unknown="a card of the suit led"),)),
    ), title="Revoke on the twelfth trick", note="Corrected even once established, until the hands go back in "
                                                  "the board; never a trick transferred.",
        codes=_WITH_AUCTION),
    Row("claim_by_declarer", ("claim",), "declarer (the claimer)", "arbiter", _CLAIM,
        title="Declarer's claim disputed"),
    Row("claim_by_defender", ("claim",), "the defender who claimed", "arbiter", _CLAIM,
        title="Defender's claim disputed"),
    Row("card_played_twice", ("deck_problem",), "the player who played it", "arbiter", _DECK,
        title="A card played twice"),
    Row("card_not_in_hand", ("deck_problem",), "the player who played it", "arbiter", (
        Option("continue", "the arbiter lets play continue with the cards as they are: the hand record is set "
                           "aside for the two hands involved"),
        *_DECK[1:],
    ), title="A card from another hand"),
)

_DECLARATION_1905: tuple[Row, ...] = (
    Row("w_trump_named_by_partner_uninvited", ("w_trump_named_by_partner_uninvited",), "the dealer's partner",
        "eldest", (
            Option("stands", "{chooser} lets the trump {offender} named stand"), _NEW_DEAL,
        )),
    Row("w_declaration_passed_back_to_dealer", ("w_declaration_passed_back_to_dealer",), "the dealer's partner",
        "eldest", (
            Option("stands", "{chooser} compels {offender} to name the trump"), _NEW_DEAL,
        )),
    Row("w_adversary_names_or_passes_trump", ("w_adversary_names_or_passes_trump",), "the adversary who spoke",
        "dealer", (
            Option("stands", "{chooser} goes on as if nothing had been said"), _NEW_DEAL,
        )),
    Row("w_double_before_may_i_lead", ("w_double_before_may_i_lead",), "the dealer's right-hand adversary", "maker", (
        Option("stands", "{chooser} lets the double stand: redoubling goes on"),
        Option("cancel", "{chooser} has the double struck out: the eldest hand keeps his right to double"),
    )),
    Row("w_redouble_out_of_turn", ("w_redouble_out_of_turn",), "the player who doubled without the first right",
        "last_doubler", (
            Option("stands", "{chooser} lets it stand"),
            Option("cancel", "{chooser} has it struck out: there is no more doubling on this deal"),
        )),
)

SITUATIONS: tuple[Row, ...] = (
    *(replace(row, codes=row.codes or _WITH_AUCTION) for row in _AUCTION), *_LEADS, *_PLAY, *_RECORD,
    *(replace(row, codes=("bridge1905",)) for row in _DECLARATION_1905))
"""Every situation the table can see, in the catalogue's order."""
