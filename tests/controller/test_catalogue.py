"""The catalogue of situations is the one source: its laws are the code modules', the tables of
``irregularities`` are views of it, its sentences name only what it knows, and the generated page
and the table of docs/irregularities.md equal what it gives."""

from __future__ import annotations

import contextlib
import io
import string
from pathlib import Path

import pytest

from controller import catalogue, irregularities
from controller.catalogue.__main__ import main
from controller.catalogue.page import _CHOICES, README_BEGIN, README_END, markdown, readme_table
from controller.codes import CODE_NAMES, code_named

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_situations_page_is_the_generated_one() -> None:
    page = (ROOT / "docs" / "situations.md").read_text(encoding="utf-8")
    assert page == markdown(), "run: python -m controller.catalogue --markdown > docs/situations.md"


def test_every_link_of_the_situations_pages_leads_to_an_anchor_of_its_own() -> None:
    """GitHub names a heading's anchor after all its words: the summary links to explicit ids."""
    import re

    page = markdown()
    ids = set(re.findall(r'<a id="([^"]+)"></a>', page))
    links = set(re.findall(r"\]\(#([^)]+)\)", page))
    readme = readme_table()
    assert links and links <= ids
    assert set(re.findall(r"\]\(situations\.md#([^)]+)\)", readme)) <= ids


def test_the_table_of_situations_in_the_irregularities_page_is_the_generated_one() -> None:
    readme = (ROOT / "docs" / "irregularities.md").read_text(encoding="utf-8")
    start, end = readme.index(README_BEGIN), readme.index(README_END) + len(README_END)
    assert readme[start:end] == readme_table(), \
        "run: python -m controller.catalogue --readme (and paste it into docs/irregularities.md)"


def test_the_command_prints_the_page_and_the_readme_table() -> None:
    for flag, expected in (("--markdown", markdown()), ("--readme", readme_table() + "\n")):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main([flag]) == 0
        assert out.getvalue() == expected


def test_the_law_of_each_situation_is_read_from_the_code_modules() -> None:
    for sit in catalogue.situations():
        for name in CODE_NAMES:
            code = code_named(name)
            law = code.law(sit.name) or code.law(sit.kind)
            assert sit.law(name) in ("", law), (sit.name, name)
    # where law letters differ between the codes, the catalogue shows each code's own (D 31B is R 31A)
    bid = catalogue.situation_named("bid_oor_partner_turn")
    assert (bid.law("duplicate"), bid.law("rubber")) == ("31B", "31A")
    assert catalogue.situation_named("w_trump_named_by_partner_uninvited").laws == (
        ("duplicate", ""), ("duplicate2017", ""), ("rubber", ""), ("chicago", ""), ("bridge1905", "46"))
    # the 2017 Laws swapped 32A and 32B (2017 32A/32B): each code shows its own
    double = catalogue.situation_named("double_oor_rho_turn")
    assert (double.law("duplicate"), double.law("duplicate2017")) == ("32B", "32A")


def test_the_tables_of_irregularities_are_views_of_the_catalogue() -> None:
    for sit in catalogue.situations():
        assert irregularities.SITUATION_OPTIONS[sit.name] == sit.option_codes
        assert irregularities.KIND_OF_SITUATION[sit.name] == sit.kind
        assert irregularities.plain_kind(sit.kind, sit.name) == sit.title
    assert irregularities.OPTIONS["opening_lead_out_of_turn"] == (
        "accept_see_dummy", "accept_become_dummy", "require_suit", "forbid_suit", "leave_penalty_card")
    assert irregularities.PLAIN_KIND["revoke"] == "Revoke"
    assert irregularities.plain_kind("revoke", "no_such_situation") == "Revoke"


def test_every_situation_has_a_known_kind_chooser_and_options_with_sentences() -> None:
    kinds = {k.name for k in catalogue.kinds()}
    for sit in catalogue.situations():
        assert set(sit.kinds) <= kinds and sit.chooser in catalogue.CHOOSERS
        assert sit.options and len(set(sit.option_codes)) == len(sit.options)
        assert sit.offender and sit.title
        assert any(sit.applies_in(code) for code in CODE_NAMES), sit.name
        for option in sit.options:
            for arg in option.args:
                assert arg.label and arg.choices in _CHOICES, (sit.name, option.code, arg.name)
            for code in CODE_NAMES:
                for text in (catalogue.render(option, code=code), catalogue.render(option, {}, "54", code=code)):
                    assert "{" not in text and text[0].isupper() and text.endswith("."), text


def test_a_sentence_names_the_seats_and_cards_of_the_irregularity_and_its_law() -> None:
    lead = catalogue.situation_named("opening_lead_out_of_turn").option("forbid_suit")
    assert lead is not None
    facts = {"declarer": "South", "partner": "West", "offender": "East", "card": catalogue.card_words("H4")}
    assert catalogue.render(lead, facts, "54", choices={"suit": ["H"]}) == (
        "South refuses the lead and forbids West to lead \u2665 while he keeps the lead; \u26654 goes back to "
        "East's hand (Law 54).")
    award = catalogue.situation_named("claim_by_declarer").option("award")
    assert award is not None
    assert catalogue.render(award, {}, "68-70", args={"tricks": 9}) == (
        "The arbiter awards declarer 9 tricks in all and the board ends (Laws 68-70).")
    correct = catalogue.situation_named("insufficient_bid").option("correct")
    assert correct is not None
    assert catalogue.render(correct, {"call": catalogue.call_words("1H")}, "27", args={"same_meaning": True}).endswith(
        "; the replacement has the same meaning (27B1b) (Law 27).")


def test_cards_and_calls_are_written_with_suit_symbols() -> None:
    assert catalogue.card_words("HT") == "\u266510"
    assert catalogue.card_words("SA") == "\u2660A"
    assert [catalogue.call_words(c) for c in ("1H", "3NT", "Pass", "X", "XX")] == [
        "1\u2665", "3NT", "pass", "double", "redouble"]
    assert catalogue.law_words("54") == "Law 54" and catalogue.law_words("53, 55, 56") == "Laws 53, 55, 56"


def test_a_placeholder_the_catalogue_does_not_know_is_a_programmers_error() -> None:
    with pytest.raises(ValueError, match="unknown placeholder"):
        catalogue.Option("accept", "{nobody} accepts")
    with pytest.raises(ValueError, match="unknown type"):
        catalogue.Arg("suit", "colour")
    with pytest.raises(catalogue.UnknownSituationError):
        catalogue.situation_named("no_such_situation")
    fields = {f for o in catalogue.situation_named("revoke").options
              for _, f, _, _ in string.Formatter().parse(o.sentence) if f}
    assert fields <= set(catalogue.PLACEHOLDERS) | {"card", "tricks"}


@pytest.mark.parametrize(("situation", "option", "args", "code", "why"), [
    ("opening_lead_out_of_turn", "forbid_suit", {}, "duplicate", "option 'forbid_suit' needs 'suit'"),
    ("opening_lead_out_of_turn", "accept_see_dummy", {"suit": "S"}, "duplicate",
     "option 'accept_see_dummy' takes no arguments here (opening_lead_out_of_turn in duplicate), not 'suit'"),
    ("opening_lead_out_of_turn", "forbid_suit", {"suit": "X"}, "duplicate", "'suit' must be one suit"),
    ("claim_by_declarer", "award", {"tricks": 14}, "rubber", "'tricks' must be a number of tricks, 0-13"),
    ("change_of_call", "purposeful", {"keep": True}, "duplicate", "takes accepted here"),
    ("change_of_call", "purposeful", {"accepted": True}, "rubber", "takes keep here"),
    ("major_pc_partner_on_lead", "forbid_suit", {"suit": "H", "suits": ["D"]}, "rubber", "not 'suits'"),
    ("insufficient_bid", "shrug", {}, "duplicate", "option 'shrug' is not one of insufficient_bid's"),
])
def test_a_ruling_with_arguments_the_option_does_not_take_here_is_refused(
        situation: str, option: str, args: dict[str, object], code: str, why: str) -> None:
    problem = catalogue.ruling_problem(situation, option, args, code)
    assert problem is not None and why in problem


@pytest.mark.parametrize(("situation", "option", "args", "code"), [
    ("change_of_call", "inadvertent", {"lho_withdraws": True}, "duplicate"),
    ("change_of_call", "purposeful", {"accepted": True}, "duplicate"),
    ("major_pc_partner_on_lead", "forbid_suit", {"suit": "H", "suits": ["D"]}, "duplicate"),
    ("pass_oor_before_any_bid", "cancel", {"artificial": True}, "duplicate"),
    ("revoke", "correct", {}, "rubber"),
    ("revoke", "correct", {"card": "H3"}, "bridge1905"),
])
def test_a_ruling_with_the_arguments_the_catalogue_gives_is_accepted(
        situation: str, option: str, args: dict[str, object], code: str) -> None:
    assert catalogue.ruling_problem(situation, option, args, code) is None
