"""What differs between the codes in rectification, as plain values: ``RulesOfCode`` and one per code.

Each code (``controller.codes``) carries one; the table (``controller.table``) asks its named
rules, never the code's name (``tests/controller/test_code_rules.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["BRIDGE1905_RULES", "DUPLICATE2017_RULES", "DUPLICATE_RULES", "RUBBER_CLUB_RULES", "RUBBER_RULES",
           "RulesOfCode"]


@dataclass(frozen=True, slots=True)
class RulesOfCode:
    """The rectifications that differ between the codes (docs/irregularities.md, the codes of laws), as plain values.

    Each code carries one; the table never asks which code it plays.
    """

    # the boards are duplicated: each is scored alone and moves on to other tables (D 6, 78)
    duplicated_boards: bool = True
    # a call by a player required to pass, condoned by LHO: D 37A still bars the partner for
    # the rest of the auction; R 35B lets the calls stand with no further rectification
    condoned_barred_call_bars_partner: bool = True
    # D 26: a suit the offender bid in the legal auction is dropped from declarer's lead
    # options when the play starts; R 26 keeps them
    lead_options_drop_suits_bid_legally: bool = True
    # a withdrawn call replaced by one repeating its denomination: D 26 still gives declarer
    # lead options; R 26A and 26B1 give none
    lead_options_after_repeated_denomination: bool = True
    # R 25B: a purposeful change of call stands unless the offender keeps his first call (the
    # ``keep`` argument); his partner then passes for the rest of the auction and declarer has
    # the lead options of the call given up (R 26). D 25B (2008): LHO may accept the substitute
    rubber_purposeful_change: bool = False
    # double/redouble out of rotation at RHO's turn, RHO then acts: D 32B2 bars partner for
    # the rest of the auction, R 32B2 only once
    double_oor_bars_partner_for_rest: bool = True
    # a call by a player required to pass: D 37 bars the partner, R 37 both
    barred_call_bars_both: bool = False
    # an insufficient bid replaced by a double: D makes the offender call again, R 27D pass
    insufficient_double_forces_pass: bool = False
    # a lead out of turn at trick 13 may be accepted in D, not in R
    last_trick_lead_acceptable: bool = True
    # a disputed claim: D stops the play for the arbiter; R plays on
    disputed_claim_plays_on: bool = False
    # both sides revoked on one board: no transfer in D (Duplicate Decisions), transfers in R
    both_sides_revoked_no_transfer: bool = True
    # tricks a revoke transfers: "law64" (2/1/0) or "w87" (three tricks, 1905)
    revoke_penalty: str = "law64"
    # penalty cards in several suits, declarer prohibits a lead: D 51 lets him name one or more
    # of the suits, R 51 prohibits every such suit
    pc_prohibition_covers_every_suit: bool = False
    # a revoke made in failing to play a faced card (a penalty card) transfers no trick: D 64B3,
    # R 64D3; the 1905 laws have no such exemption (W 85, 87: only dummy's, W 65)
    faced_card_revoke_exempt: bool = True
    # a revoke on the twelfth trick is corrected even once established, and transfers no trick:
    # D 62D, 64B6; R 62, 64D5; the 1905 laws have no such rule (W 86, 87)
    twelfth_trick_revoke_corrected: bool = True
    # 2017 Law 23: the call that replaces a cancelled one (27B1(b), 30B1, 31A2, 31B, 32A2, 32B) is held
    # for the arbiter's judgement, comparable or not; only a call not comparable bars the partner
    # (once after a call out of rotation, for the rest after an insufficient bid: 27B2). 2008: the
    # position and the denomination decide at once (D 30-32)
    comparable_call: bool = False
    # 2017 Law 26B (as amended by the WBF Laws Committee, 2017): declarer may only prohibit one suit the
    # offender did not specify in the legal auction; 2008 D 26A lets him require or prohibit a suit named
    lead_restriction_prohibit_only: bool = False
    # 2017 Law 57A: declarer may also require the offender's partner to play a suit other than the suit led
    premature_play_requires_suit: bool = False
    # 2017 Law 54C: once declarer could have seen dummy he must accept the opening lead out of turn
    # and stays declarer (he may no longer spread his hand and become dummy); 2008 D 54 lets him
    seen_dummy_keeps_declarer: bool = False
    # 2017 Law 68D2(b): a doubted claim; play may go on at the non-claiming side's request when all
    # four agree, the claim then void; 2008 D 68D: play ceases
    doubted_claim_may_play_on: bool = False
    # 2017 Law 57D: a defender's card at his RHO's turn waits for his turn if it is a legal card for the
    # trick, else it is a major penalty card; D 57 (2008) has it wait whatever it is
    play_at_rho_turn_checked: bool = False
    # 2017 Law 62C3: both sides revoked on the same trick and only one side has played to the next:
    # both revokes are corrected (the first side's is not established yet); 2008: established as usual
    both_sides_revokes_on_one_trick_corrected: bool = False
    # 2017 Law 63A4: a side's agreement to an opponent's claim establishes its revoke when the agreement
    # is complete (69A); D 63A (2008): each player's acquiescence establishes it at once
    revoke_established_at_full_agreement: bool = False
    # 2017 Law 25B: after a purposeful change of call, accepted by LHO or not, Law 26B may apply (the
    # partner's lead); DD 25 (2008) gives no lead restriction
    purposeful_change_restricts_lead: bool = False
    # 2017 (WBF Laws Committee, 15 Aug 2017): a card exposed before the first call of the board goes
    # back to the hand, Law 16D only; 2008 D 24 applies from the start of the auction period
    card_exposed_before_auction_returns: bool = False
    # 2017 Law 36C: an inadmissible double or redouble first pointed out after the opening lead is faced:
    # the contract is played and scored as if it had not been made; 2008 D 36 has no such clause
    inadmissible_call_void_after_lead: bool = False


DUPLICATE_RULES = RulesOfCode()
RUBBER_RULES = RulesOfCode(
    duplicated_boards=False, condoned_barred_call_bars_partner=False, lead_options_drop_suits_bid_legally=False,
    lead_options_after_repeated_denomination=False, rubber_purposeful_change=True,
    double_oor_bars_partner_for_rest=False, barred_call_bars_both=True,
    insufficient_double_forces_pass=True, last_trick_lead_acceptable=False,
    disputed_claim_plays_on=True, both_sides_revoked_no_transfer=False,
    pc_prohibition_covers_every_suit=True)
RUBBER_CLUB_RULES = replace(RUBBER_RULES, disputed_claim_plays_on=False)
DUPLICATE2017_RULES = RulesOfCode(
    condoned_barred_call_bars_partner=False, barred_call_bars_both=True, last_trick_lead_acceptable=False,
    comparable_call=True, lead_restriction_prohibit_only=True, premature_play_requires_suit=True,
    seen_dummy_keeps_declarer=True, doubted_claim_may_play_on=True, card_exposed_before_auction_returns=True,
    purposeful_change_restricts_lead=True, play_at_rho_turn_checked=True,
    both_sides_revokes_on_one_trick_corrected=True, revoke_established_at_full_agreement=True,
    inadmissible_call_void_after_lead=True)
"""The 2017 Laws (WBF; ACBL from Sept 2017): 37A keeps only the offender's own bar, 37B bars both,
53A no acceptance at trick 13, and the rules above (docs/irregularities.md, the codes of laws)."""
BRIDGE1905_RULES = RulesOfCode(duplicated_boards=False, condoned_barred_call_bars_partner=False,
                               lead_options_drop_suits_bid_legally=False,
                               lead_options_after_repeated_denomination=False, revoke_penalty="w87",
                               both_sides_revoked_no_transfer=False, disputed_claim_plays_on=True,
                               faced_card_revoke_exempt=False, twelfth_trick_revoke_corrected=False)
