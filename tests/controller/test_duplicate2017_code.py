"""The ``duplicate2017`` code as a value: its law labels, its rules, and the 2008 scoring it keeps."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from controller import catalogue
from controller.calls import Denomination
from controller.codes import CODE_NAMES, code_named
from controller.codes.duplicate2017 import Duplicate2017
from controller.codes.rules import DUPLICATE2017_RULES, DUPLICATE_RULES
from controller.contract import Contract
from controller.scoring import DealResult
from controller.seats import Seat, Vulnerability


def test_duplicate2017_is_a_code_of_its_own_beside_the_2008_code() -> None:
    code = code_named("duplicate2017")
    assert isinstance(code, Duplicate2017) and code.name == "duplicate2017" and code.rules is DUPLICATE2017_RULES
    assert "duplicate" in CODE_NAMES and code_named("duplicate").rules is DUPLICATE_RULES


def test_every_situation_of_the_2008_code_has_its_2017_law_except_the_bars_the_2017_laws_dropped() -> None:
    """The 2017 Laws: NO_X_NOW (D 30B1(b)) and NO_X_SAME (D 32A) exist in nothing read of the
    2017 text, so ``double_when_barred`` cannot arise; every other 2008 situation has a 2017 law."""
    old = {s.name for s in catalogue.situations() if s.applies_in("duplicate")}
    new = {s.name for s in catalogue.situations() if s.applies_in("duplicate2017")}
    assert old - new == {"double_when_barred"}
    assert new - old == {"comparable_call", "card_exposed_before_auction", "lead_out_of_turn_last_trick",
                         "play_at_rho_turn", "legal_card_at_rho_turn"}


def test_the_2017_labels_follow_the_2017_numbering_laws_2017_section_1() -> None:
    """The 2017 numbering: 32A/32B swapped (French code, lovboka 2007), 53B/53C swapped
    (thesmolens law53), 17E is 17D3, 16C/16D swapped (only 16D, extraneous information, is cited here),
    the lead restriction is 26B, Law 23 is the comparable call."""
    old, new = code_named("duplicate"), code_named("duplicate2017")
    pairs = {key: (old.law(key), new.law(key)) for key in (
        "double_oor_rho_turn", "double_oor_partner_turn", "call_not_repeated", "cite:proper_leader_leads",
        "cite:auction_reopened", "lead_restriction_from_withdrawn_call", "comparable_call",
        "card_exposed_before_auction", "call_by_player_required_to_pass", "cite:concession_objected")}
    assert pairs == {
        "double_oor_rho_turn": ("32B", "32A"), "double_oor_partner_turn": ("32A", "32B"),
        "call_not_repeated": ("31A1, 32B1", "31A1, 32A1"), "cite:proper_leader_leads": ("Law 53C", "Law 53B"),
        "cite:auction_reopened": ("Law 34; D 17E", "Law 17D3"),
        "lead_restriction_from_withdrawn_call": ("26", "26B"), "comparable_call": ("", "23"),
        "card_exposed_before_auction": ("", "16D"), "call_by_player_required_to_pass": ("37", "37B"),
        "cite:concession_objected": ("Law 68; DD 68 item 3", "Law 68B2")}


@given(level=st.integers(1, 7), strain=st.sampled_from(list(Denomination)), doubled=st.integers(0, 2),
       tricks=st.integers(0, 13), vul=st.sampled_from(list(Vulnerability)))
def test_a_board_scores_the_same_under_both_codes_law_77_unchanged(level: int, strain: Denomination, doubled: int,
                                                                    tricks: int, vul: Vulnerability) -> None:
    """Law 77 did not change in 2017 (club TD list; EBU article: no change to scoring)."""
    result = DealResult(Contract(level, strain, doubled, Seat.S), tricks, vul, Seat.N)
    old, new = code_named("duplicate"), code_named("duplicate2017")
    assert old.score_deal(old.new_sheet(), result)[1] == new.score_deal(new.new_sheet(), result)[1]
    assert old.deal_setup(old.new_sheet(), 7, None, None) == new.deal_setup(new.new_sheet(), 7, None, None)
