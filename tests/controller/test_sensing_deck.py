"""The enrolled-deck registry: tag UID -> (deck, card); JSON form; NDEF tag text."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.cards import DECK, Card
from controller.errors import BridgeTableError
from controller.sensing.deck import (
    DeckError,
    DeckRegistry,
    EnrolledTag,
    dumps,
    format_tag_text,
    loads,
    normalize_uid,
    parse_tag_text,
)

SA = Card.parse("SA")
HK = Card.parse("HK")


def uid(n: int) -> str:
    return f"04{n:012X}"


def full_deck(deck: str = "deck1", base: int = 0) -> DeckRegistry:
    r = DeckRegistry()
    for c in DECK:
        r = r.enrol(uid(base + c.index), c, deck)
    return r


def test_an_enrolled_tag_is_looked_up_by_uid() -> None:
    r = DeckRegistry().enrol("04A1B2C3D4E5F6", SA, "deck1")
    tag = r.get("04A1B2C3D4E5F6")
    assert tag == EnrolledTag("04A1B2C3D4E5F6", "deck1", SA)
    assert str(tag) == "deck1:SA"
    assert r.get("04FFFFFFFFFFFF") is None
    assert r.lookup("04:a1:b2:c3:d4:e5:f6") is tag
    assert "04A1B2C3D4E5F6" in r and len(r) == 1
    assert r.find("deck1", SA) is tag and r.find("deck2", SA) is None


def test_enrolment_returns_a_new_registry_and_leaves_the_old_one_alone() -> None:
    empty = DeckRegistry()
    one = empty.enrol(uid(1), SA)
    assert len(empty) == 0 and empty.get(uid(1)) is None
    assert one.get(uid(1)) is not None


def test_a_uid_already_enrolled_is_refused_whatever_its_card() -> None:
    r = DeckRegistry().enrol(uid(1), SA, "deck1")
    with pytest.raises(DeckError, match=r"tag 04000000000001 is already enrolled as deck1:SA"):
        r.enrol(uid(1), HK, "deck2")


def test_a_card_the_deck_already_has_is_refused() -> None:
    r = DeckRegistry().enrol(uid(1), SA, "deck1")
    with pytest.raises(DeckError, match=r"deck1 already has SA \(tag 04000000000001\)"):
        r.enrol(uid(2), SA, "deck1")
    assert r.enrol(uid(2), SA, "deck2").find("deck2", SA) is not None  # another deck may


def test_deck_errors_are_value_errors_of_the_project_root() -> None:
    assert issubclass(DeckError, BridgeTableError) and issubclass(DeckError, ValueError)


@pytest.mark.parametrize(("text", "expected"), [
    ("04a1b2c3d4e5f6", "04A1B2C3D4E5F6"), ("04:A1:B2:C3:D4:E5:F6", "04A1B2C3D4E5F6"),
    (" 04-a1-b2-c3 ", "04A1B2C3"), ("04 A1 B2 C3 D4 E5 F6 07 08 09", "04A1B2C3D4E5F6070809"),
])
def test_uids_are_normalised_to_the_drivers_form(text: str, expected: str) -> None:
    assert normalize_uid(text) == expected


@pytest.mark.parametrize("text", ["", "04A1B2", "04A1B2C3D4E5F", "04A1B2C3D4E5FG", "hello"])
def test_a_uid_that_is_not_4_7_or_10_bytes_of_hex_is_refused(text: str) -> None:
    with pytest.raises(DeckError, match="invalid tag UID"):
        DeckRegistry().enrol(text, SA)


@pytest.mark.parametrize(("text", "deck", "card"), [
    ("SA", None, "SA"), ("deck1:SA", "deck1", "SA"), (" deck2 : h10 ", "deck2", "HT"),
    ("club-7.b:CT", "club-7.b", "CT"),
])
def test_tag_text_names_the_card_and_maybe_the_deck(text: str, deck: str | None, card: str) -> None:
    assert parse_tag_text(text) == (deck, Card.parse(card))


@pytest.mark.parametrize("text", ["", "ZZ", "deck1:", ":SA", "my deck:SA", "deck1:SA:x", "S1"])
def test_unreadable_tag_text_is_an_error_naming_it(text: str) -> None:
    with pytest.raises(DeckError, match="invalid tag text"):
        parse_tag_text(text)


def test_tag_text_round_trips() -> None:
    assert parse_tag_text(format_tag_text(SA)) == (None, SA)
    assert parse_tag_text(format_tag_text(SA, "deck3")) == ("deck3", SA)


def test_enrol_from_tag_text_uses_the_deck_it_names_else_the_default() -> None:
    r = DeckRegistry().enrol_text(uid(1), "deck9:SA").enrol_text(uid(2), "HK", deck="deck4")
    assert str(r.get(uid(1))) == "deck9:SA" and str(r.get(uid(2))) == "deck4:HK"


def test_missing_lists_the_cards_a_deck_lacks_in_pbn_order() -> None:
    r = full_deck().remove(uid(Card.parse("D7").index))
    assert r.missing("deck1") == (Card.parse("D7"),)
    assert len(r.cards("deck1")) == 51 and r.cards("deck1")[0].card == SA
    assert len(full_deck().missing("other")) == 52


def test_the_json_form_round_trips_and_is_readable() -> None:
    r = full_deck("deck1").enrol(uid(999), SA, "deck2")
    text = dumps(r)
    assert loads(text) == r
    data = json.loads(text)
    assert data["version"] == 1 and data["decks"]["deck2"] == {"SA": uid(999)}
    assert list(data["decks"]["deck1"])[:3] == ["SA", "SK", "SQ"]


def test_a_deck_file_with_a_uid_twice_is_refused_naming_both_cards() -> None:
    text = json.dumps({"format": "bridgetable-decks", "version": 1,
                       "decks": {"a": {"SA": uid(1)}, "b": {"HK": uid(1)}}})
    with pytest.raises(DeckError, match="already enrolled as a:SA; cannot enrol it as b:HK"):
        loads(text)


def test_a_deck_file_with_a_card_twice_in_a_deck_is_refused() -> None:
    text = ('{"format": "bridgetable-decks", "version": 1, '
            f'"decks": {{"a": {{"SA": "{uid(1)}", "SA": "{uid(2)}"}}}}}}')
    with pytest.raises(DeckError, match="'SA' appears twice"):
        loads(text)


@pytest.mark.parametrize(("text", "message"), [
    ("{", "not JSON"),
    ("[]", "not a 'bridgetable-decks' document"),
    ('{"format": "bridgetable-decks", "version": 2, "decks": {}}', "unsupported version 2"),
    ('{"format": "bridgetable-decks", "version": 1, "decks": []}', "'decks' must be an object"),
    ('{"format": "bridgetable-decks", "version": 1, "decks": {"a": {"ZZ": "04000000000001"}}}',
     "deck 'a', card 'ZZ': invalid card"),
    ('{"format": "bridgetable-decks", "version": 1, "decks": {"a": {"SA": "04"}}}',
     "deck 'a', card 'SA': invalid tag UID"),
    ('{"format": "bridgetable-decks", "version": 1, "decks": {"a": {"SA": 4}}}',
     "uid must be a string"),
])
def test_a_bad_deck_file_is_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(DeckError, match=message):
        loads(text)


@given(st.lists(st.tuples(st.integers(0, 2**32 - 1), st.sampled_from(DECK),
                          st.sampled_from(["deck1", "deck2", "x"])),
                unique_by=(lambda e: e[0], lambda e: (e[1], e[2]))))
def test_any_registry_round_trips_through_json(entries: list[tuple[int, Card, str]]) -> None:
    r = DeckRegistry()
    for n, card, deck in entries:
        r = r.enrol(f"{n:08X}", card, deck)
    back = loads(dumps(r))
    assert {(t.uid, t.deck, t.card) for t in back} == {(t.uid, t.deck, t.card) for t in r}


def test_a_registry_is_built_from_the_deck_to_card_to_uid_shape_of_any_deck_file() -> None:
    r = DeckRegistry.from_mapping({"deck1": {"SA": "04:00:00:00:00:00:01", "h10": uid(2)}})
    assert r.to_mapping() == {"deck1": {"SA": uid(1), "HT": uid(2)}}
    with pytest.raises(DeckError, match="deck 'deck1', card 'SA': invalid tag UID"):
        DeckRegistry.from_mapping({"deck1": {"SA": "nope"}})
    with pytest.raises(DeckError, match="deck 'deck1' must map card -> uid"):
        DeckRegistry.from_mapping({"deck1": ["SA"]})
