"""Enrolled decks: which card, of which deck, each NFC tag is (hardware/decks.md, hardware/cards.md).

A deck is enrolled once: every card's tag UID is recorded with the card and the deck id,
and the registry is stored on the Pi as JSON. The registry is an immutable value:
``enrol`` returns a new registry and refuses a UID that is already enrolled, or a card
that its deck already has. ``loads``/``dumps`` turn it into JSON text and back (the
caller reads and writes the file). ``parse_tag_text`` reads the NDEF text written on a
tag at enrolment: ``"SA"`` (the card only) or ``"deck1:SA"`` (deck id and card).

The JSON form, cards in deck order (spades ace first) and one object per deck::

    {"format": "bridgetable-decks", "version": 1,
     "decks": {"deck1": {"SA": "04A1B2C3D4E5F6", "SK": "04A1B2C3D4E5F7", ...}}}

This JSON is the one deck file format (hardware/decks.md, "The deck file"), named the deck
file everywhere. ``DeckRegistry.from_mapping`` builds a registry from that ``decks`` shape
whatever it came from: a table's log keeps it, and the deprecated older TOML deck files
(one table per deck id), which ``drivers.config.load_deck`` still reads, have it too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from controller.cards import RANKS, SUITS, Card
from controller.errors import BridgeTableError, NotationError

__all__ = [
    "DEFAULT_DECK",
    "DeckError",
    "DeckRegistry",
    "EnrolledTag",
    "dumps",
    "format_tag_text",
    "loads",
    "normalize_uid",
    "parse_tag_text",
]

DEFAULT_DECK = "deck1"
"""The deck id of a card whose tag text names no deck."""

FORMAT = "bridgetable-decks"
VERSION = 1

_DECK_ID = re.compile(r"[A-Za-z0-9_.-]{1,32}\Z")
_HEX = re.compile(r"[0-9A-F]+\Z")
_UID_LENGTHS = (8, 14, 20)  # ISO 14443A single, double and triple size UIDs: 4, 7, 10 bytes
_PBN_ORDER: tuple[Card, ...] = tuple(Card(s, r) for s in SUITS for r in RANKS)


class DeckError(BridgeTableError, ValueError):
    """A tag that cannot be enrolled, unreadable tag text, or a deck file that cannot be read."""


@dataclass(frozen=True, slots=True)
class EnrolledTag:
    """The card a tag carries, and the deck it belongs to; ``str()`` is ``deck1:SA``."""

    uid: str
    deck: str
    card: Card

    def __str__(self) -> str:
        return f"{self.deck}:{self.card}"


def normalize_uid(text: str) -> str:
    """The UID in the form drivers report it: upper-case hex, no separators (``04A1B2C3D4E5F6``).

    Accepts ``04:a1:b2:c3``, ``04-A1-B2-C3`` and spaces; refuses anything that is not a 4, 7
    or 10 byte ISO 14443A UID.
    """
    uid = text.strip().upper().replace(":", "").replace("-", "").replace(" ", "")
    if not _HEX.match(uid) or len(uid) not in _UID_LENGTHS:
        raise DeckError(f"invalid tag UID {text!r}: expected 4, 7 or 10 bytes of hex")
    return uid


def _check_deck_id(deck: str) -> str:
    if not _DECK_ID.match(deck):
        raise DeckError(f"invalid deck id {deck!r}: use 1 to 32 letters, digits, '_', '.' or '-'")
    return deck


def parse_tag_text(text: str) -> tuple[str | None, Card]:
    """The deck id (None when the text names none) and card of a tag's NDEF text.

    ``"SA"`` -> ``(None, SA)``; ``"deck1:SA"`` -> ``("deck1", SA)``; surrounding spaces are
    ignored and the card may be written in either case (``"sa"``, ``"D10"``).
    """
    body = text.strip()
    deck: str | None = None
    if ":" in body:
        deck_text, _, body = body.partition(":")
        try:
            deck = _check_deck_id(deck_text.strip())
        except DeckError as exc:
            raise DeckError(f"invalid tag text {text!r}: {exc}") from None
        body = body.strip()
    try:
        return deck, Card.parse(body)
    except NotationError as exc:
        raise DeckError(f"invalid tag text {text!r}: {exc}") from None


def format_tag_text(card: Card, deck: str | None = None) -> str:
    """The NDEF text to write on a tag: ``"SA"``, or ``"deck1:SA"`` when ``deck`` is given."""
    return str(card) if deck is None else f"{_check_deck_id(deck)}:{card}"


@dataclass(frozen=True, slots=True)
class DeckRegistry:
    """The enrolled tags: UID -> (deck id, card); an immutable value.

    Build it with ``DeckRegistry().enrol(uid, card, deck)``, ``from_mapping`` or ``loads``;
    look a tag up with ``get(uid)``, which is a single dictionary read (the sensing layer
    does it for every tag event). Two tags never share a UID, and a deck never has a card
    twice. ``tags`` is kept sorted by deck, then in PBN card order, so equal registries
    compare equal.
    """

    tags: tuple[EnrolledTag, ...] = ()
    _by_uid: dict[str, EnrolledTag] = field(init=False, repr=False, compare=False)
    _by_card: dict[tuple[str, Card], EnrolledTag] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # one order for one value: by deck, then cards in PBN order
        tags = tuple(sorted(self.tags, key=lambda t: (t.deck, -t.card.suit, -t.card.rank)))
        object.__setattr__(self, "tags", tags)
        by_uid: dict[str, EnrolledTag] = {}
        by_card: dict[tuple[str, Card], EnrolledTag] = {}
        for tag in tags:
            _refuse_duplicate(by_uid, by_card, tag.uid, tag.deck, tag.card)
            by_uid[tag.uid] = tag
            by_card[(tag.deck, tag.card)] = tag
        object.__setattr__(self, "_by_uid", by_uid)
        object.__setattr__(self, "_by_card", by_card)

    @classmethod
    def from_mapping(cls, decks: Mapping[str, object]) -> DeckRegistry:
        """The registry of ``{deck id: {card text: uid}}`` (the shape of the deck file's ``decks``,
        and of the older TOML deck files); DeckError naming the deck and card of the first bad entry."""
        tags: list[EnrolledTag] = []
        for deck, cards in decks.items():
            if not isinstance(cards, Mapping):
                raise DeckError(f"deck {deck!r} must map card -> uid")
            for card_text, uid in cards.items():
                try:
                    if not isinstance(uid, str):
                        raise DeckError(f"uid must be a string, not {uid!r}")
                    tags.append(EnrolledTag(normalize_uid(uid), _check_deck_id(deck),
                                            Card.parse(card_text)))
                except (DeckError, NotationError) as exc:
                    raise DeckError(f"deck {deck!r}, card {card_text!r}: {exc}") from None
        return cls(tuple(tags))

    def to_mapping(self) -> dict[str, dict[str, str]]:
        """``{deck id: {card text: uid}}``, decks sorted and cards in PBN order."""
        return {d: {str(t.card): t.uid for t in self.cards(d)} for d in self.decks()}

    def get(self, uid: str) -> EnrolledTag | None:
        """The enrolled tag of ``uid`` (as drivers report it: upper-case hex), or None."""
        return self._by_uid.get(uid)

    def lookup(self, uid: str) -> EnrolledTag:
        """The enrolled tag of ``uid`` in any spelling ``normalize_uid`` accepts; DeckError if none."""
        tag = self._by_uid.get(uid) or self._by_uid.get(normalize_uid(uid))
        if tag is None:
            raise DeckError(f"tag {uid!r} is not enrolled")
        return tag

    def find(self, deck: str, card: Card) -> EnrolledTag | None:
        """The tag enrolled for ``card`` in ``deck``, or None."""
        return self._by_card.get((deck, card))

    def enrol(self, uid: str, card: Card, deck: str = DEFAULT_DECK) -> DeckRegistry:
        """A registry with tag ``uid`` enrolled as ``card`` of ``deck``.

        Refuses (DeckError, registry unchanged) a UID that is already enrolled, whatever
        its card, and a card that ``deck`` already has under another tag.
        """
        uid = normalize_uid(uid)
        _check_deck_id(deck)
        _refuse_duplicate(self._by_uid, self._by_card, uid, deck, card)
        return DeckRegistry((*self.tags, EnrolledTag(uid, deck, card)))

    def enrol_text(self, uid: str, text: str, deck: str = DEFAULT_DECK) -> DeckRegistry:
        """A registry with ``uid`` enrolled from its NDEF text (its deck id, else ``deck``)."""
        named, card = parse_tag_text(text)
        return self.enrol(uid, card, named if named is not None else deck)

    def remove(self, uid: str) -> DeckRegistry:
        """A registry without tag ``uid`` (a lost or damaged card, to enrol its replacement)."""
        tag = self.lookup(uid)
        return DeckRegistry(tuple(t for t in self.tags if t is not tag))

    def decks(self) -> tuple[str, ...]:
        """The deck ids, sorted."""
        return tuple(sorted({t.deck for t in self.tags}))

    def cards(self, deck: str) -> tuple[EnrolledTag, ...]:
        """The tags of ``deck``, in PBN order (spades ace first)."""
        return tuple(t for c in _PBN_ORDER if (t := self._by_card.get((deck, c))) is not None)

    def missing(self, deck: str) -> tuple[Card, ...]:
        """The cards ``deck`` still lacks, in PBN order (empty when the deck is complete)."""
        return tuple(c for c in _PBN_ORDER if (deck, c) not in self._by_card)

    def __contains__(self, uid: object) -> bool:
        return uid in self._by_uid

    def __len__(self) -> int:
        return len(self.tags)

    def __iter__(self) -> Iterator[EnrolledTag]:
        return iter(self.tags)


def _refuse_duplicate(by_uid: dict[str, EnrolledTag], by_card: dict[tuple[str, Card], EnrolledTag],
                      uid: str, deck: str, card: Card) -> None:
    known = by_uid.get(uid)
    if known is not None:
        raise DeckError(f"tag {uid} is already enrolled as {known}; cannot enrol it as {deck}:{card}")
    holder = by_card.get((deck, card))
    if holder is not None:
        raise DeckError(f"{deck} already has {card} (tag {holder.uid}); cannot enrol tag {uid} as "
                        f"{deck}:{card}")


def dumps(registry: DeckRegistry) -> str:
    """The registry as JSON text (decks sorted, cards in PBN order): the file stored on the Pi."""
    return json.dumps({"format": FORMAT, "version": VERSION, "decks": registry.to_mapping()},
                      indent=1) + "\n"


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise DeckError(f"key {key!r} appears twice")
        out[key] = value
    return out


def loads(text: str) -> DeckRegistry:
    """The registry of JSON text written by ``dumps``; DeckError naming the deck and card if bad."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise DeckError(f"deck file is not JSON: {exc}") from None
    except DeckError as exc:
        raise DeckError(f"deck file: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DeckError(f"deck file: not a {FORMAT!r} document")
    if data.get("version") != VERSION:
        raise DeckError(f"deck file: unsupported version {data.get('version')!r} (expected {VERSION})")
    decks = data.get("decks")
    if not isinstance(decks, dict):
        raise DeckError("deck file: 'decks' must be an object of deck id -> {card: uid}")
    try:
        return DeckRegistry.from_mapping(decks)
    except DeckError as exc:
        raise DeckError(f"deck file: {exc}") from None
