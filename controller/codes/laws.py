"""Law references per code for each irregularity kind and catalogue situation (LAWS.md Part 1).

Law letters differ between the codes for the same situation (LAWS.md Part 2 §2 row 4):
look a situation up in the table of the code in force, never share one number.
"""

from __future__ import annotations

__all__ = ["BRIDGE1905_LAWS", "DUPLICATE_LAWS", "RUBBER_LAWS"]

DUPLICATE_LAWS: dict[str, str] = {
    "insufficient_bid": "27",
    "call_out_of_rotation": "28-32",
    "change_of_call": "25",
    "inadmissible_call": "35-39",
    "card_exposed_in_auction": "24",
    "opening_lead_out_of_turn": "54",
    "lead_out_of_turn": "53, 55, 56",
    "premature_play": "57",
    "penalty_card": "49-51",
    "failure_to_play_penalty_card": "52",
    "simultaneous_play": "58",
    "failure_to_comply": "59-60, 64",
    "revoke": "61-64",
    "defective_trick": "67",
    "claim": "68-71",
    "deck_problem": "1, 13, 14",
    "wrong_board": "7, 15, 17",
    "tempo": "16, 73",
    "passed_out_deal": "22",
    "card_not_in_hand": "13, 14",
    "call_after_auction_closed": "39",
}

RUBBER_LAWS: dict[str, str] = DUPLICATE_LAWS | {
    "deck_problem": "10-12, 79",
    "wrong_board": "",
    "tempo": "16, App. 2",
    "passed_out_deal": "22A",
    "card_not_in_hand": "10C, 11, 12",
}

BRIDGE1905_LAWS: dict[str, str] = {
    "revoke": "85-89",
    "lead_out_of_turn": "76, 77",
    "opening_lead_out_of_turn": "60, 76",
    "deck_problem": "38, 41, 42",
    "card_not_in_hand": "41, 84",
    "defective_trick": "83, 84",
    "penalty_card": "69-72, 80",
    "claim": "74",
}
