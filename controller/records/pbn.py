"""PBN 2.1 (Portable Bridge Notation) reader and writer for board records.

One file on purpose (over 600 lines): the reader's tolerance of the corpus's quirks and the
writer that must read back through it are one format's two directions, kept side by side so
that a change to one is seen against the other.

Section numbers refer to the PBN 2.1 standard (Tis Veugen, tistis.nl/pbn/pbn_v21.txt).

The reader is tolerant, as the records of real events need: a record it cannot use comes
back with ``error`` set, what it tolerated is listed in ``warnings``, and reading goes on.
It never raises for the content of a file, and reads each line in time and memory in
proportion to its length (a tag value longer than ``MAX_TAG_VALUE`` is an ``error`` of its record).
Besides the standard (tags §3.3, ``%`` escape lines §2.4, the auction §3.5 and play §3.6
sections with notes and NAGs §3.7, commentary §3.8, irregularity marks §3.9, ``#`` copies
§4.8), it reads the habits of the programs that wrote the files in use:

- ``[Tag "#"]`` with nothing to copy (no such tag in the previous record): the tag is dropped.
- rpbridge.net files write a board's tags once: a record with an auction, play or contract
  but no ``[Deal]`` takes Event, Site, Date, Board, Dealer, Vulnerable and Deal from the
  record before it; they also drop the passes before the first bid, which ``[Declarer]``
  lets the reader put back.
- braces do not nest, so a ``}`` left over from a nested comment is skipped with a warning.
- play sections padded with ``-``, ``--`` or ``- - - -`` rows, with or without ``*``;
  suffix annotations written apart from their call (``2C !``); ``!`` is read as an alert.

A play section lists tricks in seat columns; the reader puts the cards in the order played
(``controller.play.chronological``), and a play that stops early takes ``[Result]`` as the
claim. The writer produces the export format (§2.1): the mandatory tags first, in their
order, then the other tags, the auction four calls a line with ``=n=`` notes, and the play a
trick a line in seat columns from the opening leader. What it writes reads back the same.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO, TypeVar

from controller.auction import Auction
from controller.calls import PASS, Call, CallKind, Denomination
from controller.cards import DECK, Card, Suit
from controller.contract import Contract
from controller.deal import Deal
from controller.errors import NotationError, RecordError
from controller.play import chronological, trick_winner
from controller.records.model import BoardRecord, decode_text, text_encoding
from controller.seats import SEATS, Seat, Side, Vulnerability

__all__ = ["ALERT_NOTE", "MAX_TAG_VALUE", "dump", "dumps", "load", "loads"]

ALERT_NOTE = "Alert"
"""The text of the note that marks an alerted call (``2C =1=`` with ``[Note "1:Alert"]``)."""

# A file is read a line at a time. Most lines are a whole tag or a run of section data and
# take the fast paths; a line with a brace, a ';' comment, a stray character or several tags
# is cut by _LINE_TOKEN: a tag, a commentary closed on the line (braces do not nest: it ends
# at the first '}'), a commentary left open (it goes on over the next lines), a ';' comment
# (to the end of the line), a run of data, or a stray character.
# Every repetition is possessive (``*+``, ``++``): the engine keeps no backtracking state for
# it, so a line of megabytes takes time and memory in proportion (``(?:[^"\\]|\\.)*`` kept
# ~190 bytes of state a character: 4.9 GB for a 30 MB tag value). A tag value runs to its
# first quote that is not escaped, so giving up backtracking changes no match.
_TAG_VALUE = r'[^"\\]*+(?:\\.[^"\\]*+)*+'
_TAG_LINE = re.compile(rf'\[[ \t]*+([A-Za-z0-9_]++)[ \t]*+"({_TAG_VALUE})"[ \t]*+\][ \t]*+$')
_SPECIAL = re.compile(r'[\[\]{};"]')
_LINE_TOKEN = re.compile(
    rf"""
      (?P<tag>\[[ \t]*+(?P<name>[A-Za-z0-9_]++)[ \t]*+"(?P<value>{_TAG_VALUE})"[ \t]*+\])
    | (?P<badtag>\[[^\]]*+\]?)
    | (?P<brace>\{{[^}}]*+\}})
    | (?P<openbrace>\{{.*+)
    | (?P<semi>;.*+)
    | (?P<data>[^\s\[\]{{}};"]++(?:[ \t]++[^\s\[\]{{}};"]++)*+)
    | (?P<junk>\S)
    """,
    re.VERBOSE,
)
MAX_TAG_VALUE = 65_536
"""The longest tag value read, in characters as written (escapes counted); a record with a
longer one is not read (its ``error`` says which tag and where): no real tag comes near it."""
_UNESCAPE = re.compile(r'\\(["\\])')
# A section token: an optional irregularity mark (^R), the call or card, then suffix
# annotations, NAGs and note references in any order (PBN 2.1 §3.5, §3.7). The suffix is
# found from the end of the token (``_pieces``): there each annotation is told by its last
# character, so the reversed token is read without backtracking.
_SUFFIX_REVERSED = re.compile(r"(?:=\d++=|\d++\$|[!?]++)*+")
_ANNOTATION = re.compile(r"=(\d+)=|\$\d+|[!?]+")
_NOTE = re.compile(r"\s*(\d+)\s*:(.*)$", re.DOTALL)
_CONTRACT_BID = re.compile(r"\s*\^?([1-7])\s*(NT|N|S|H|D|C)", re.IGNORECASE)
_SIDE_RESULT = re.compile(r"(NS|EW)\s*(\d+)$", re.IGNORECASE)

_UNKNOWN = ("", "?")
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_BOARD_TAGS = ("Event", "Site", "Date", "Board", "Dealer", "Vulnerable", "Deal")
_MANDATORY = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
              "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")
_GENERATED = frozenset((*_MANDATORY, "Auction", "Play", "Note"))
_PLAYER_TAGS = ("North", "East", "South", "West")

_CARD_CACHE: dict[str, Card] = {str(c): c for c in DECK}
_CARD_CACHE |= {str(c).lower(): c for c in DECK}
_PLAY_TOKENS: dict[str, Card | None] = {"-": None, "--": None} | _CARD_CACHE
_CALL_CACHE: dict[str, Call] = {}

T = TypeVar("T")


@dataclass(slots=True)
class _Raw:
    """One record as cut from the text, before its tags are resolved and its sections read."""

    line: int
    tags: list[tuple[str, str]] = field(default_factory=list)
    # for each [Note] tag, in order: the section it follows ("Auction", "Play" or "")
    note_after: list[str] = field(default_factory=list)
    auction: list[str] | None = None
    play: list[str] | None = None
    commentary: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


# --- reading ---------------------------------------------------------------------------


def load(path: str | os.PathLike[str]) -> list[BoardRecord]:
    """The records of the PBN file at ``path`` (UTF-8 or cp1252, any line ends)."""
    p = Path(path)
    return loads(decode_text(p.read_bytes()), source=p.name)


def iter_load(path: str | os.PathLike[str]) -> Iterator[BoardRecord]:
    """The records of the PBN file at ``path``, read as they come: memory holds one record,
    whatever the size of the file. The same records as ``load`` (same encodings)."""
    p = Path(path)
    with p.open(encoding=text_encoding(p), errors="replace", newline=None) as f:
        yield from _records(_lines(f), p.name)


def _lines(f: TextIO) -> Iterator[str]:
    """The lines of a text file without their ends, cut a megabyte at a time."""
    rest = ""
    while chunk := f.read(1 << 20):
        lines = (rest + chunk).split("\n")
        rest = lines.pop()
        yield from lines
    if rest:
        yield rest


def loads(text: str, source: str = "<string>") -> list[BoardRecord]:
    """The records of PBN text, one per record in the text, each named ``source record n (line m)``."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return list(_records(text.split("\n"), source))


_DEALS_KEPT = 512  # deals remembered by their text (the tables of a board share one)


def _records(lines: Iterable[str], source: str) -> Iterator[BoardRecord]:
    previous: dict[str, str] = {}
    deals: dict[str, Deal] = {}
    for number, raw in enumerate(_split(lines), start=1):
        if len(deals) > _DEALS_KEPT:
            deals.clear()
        record, previous = _build(raw, previous, deals,
                                  f"{source} record {number} (line {raw.line})")
        yield record


def _split(lines: Iterable[str]) -> Iterator[_Raw]:
    """Cut PBN lines into records: tags with their sections, commentary and what was odd.

    A blank line ends a record (PBN 2.1 §3); so does a second [Event] or
    [Board], for files that leave the blank line out. Lines starting with ``%`` are escapes
    and ``;`` starts a comment: both are skipped. A ``{...}`` commentary may run over lines.
    Each record is given as soon as the next one starts (nothing is added to it after that).
    """
    cutter = _Cutter()
    raws = cutter.raws
    tag_line = _TAG_LINE.match
    special = _SPECIAL.search
    brace: list[str] | None = None  # the lines of a commentary still open
    for number, line in enumerate(lines, start=1):
        if len(raws) > 1:
            yield from raws[:-1]
            del raws[:-1]
        if brace is not None:
            end = line.find("}")
            if end < 0:
                brace.append(line)
                continue
            brace.append(line[:end])
            cutter.comment("\n".join(brace).strip())
            brace = None
            line = line[end + 1:]
            if line and not line.isspace():
                brace = cutter.scan(line, number)
            continue
        if not line or line.isspace():
            cutter.blank()
            continue
        first = line[0]
        if first == "%":
            continue
        if first == "[":
            m = tag_line(line)
            if m is not None:
                cutter.tag(m.group(1), m.group(2), number)
                continue
        elif special(line) is None:
            cutter.data(line)
            continue
        brace = cutter.scan(line, number)
    if brace is not None:
        cutter.warn("commentary '{' not closed before the end of the text")
        cutter.comment("\n".join(brace).strip())
    yield from raws


class _Cutter:
    """The state of _split: the records so far, the one being read, and its current section."""

    __slots__ = ("current", "pending_comments", "pending_warnings", "raws", "section", "seen")

    def __init__(self) -> None:
        self.raws: list[_Raw] = []
        self.current: _Raw | None = None
        # commentary and warnings met between records go to the next record
        self.pending_comments: list[str] = []
        self.pending_warnings: list[str] = []
        # where data runs go: "Auction", "Play", "other" (a tag's table we do not read), ""
        self.section = ""
        self.seen: set[str] = set()

    def blank(self) -> None:
        """End the record being read (a blank line)."""
        self.current = None
        self.section = ""

    def warn(self, text: str) -> None:
        """Note a warning for the record being read, or for the next one between records."""
        (self.pending_warnings if self.current is None else self.current.warnings).append(text)

    def comment(self, text: str) -> None:
        """Keep a commentary for the record being read, or for the next one between records."""
        (self.pending_comments if self.current is None else self.current.commentary).append(text)

    def tag(self, name: str, value: str, line: int) -> None:
        """Take a tag: it may start a record, a section, or follow one as a note."""
        current = self.current
        if current is not None and (name == "Event" or name == "Board") and name in self.seen:
            current.warnings.append(f"no blank line before the [{name}] at line {line}")
            current = None
        if current is None:
            current = self.current = _Raw(line, commentary=self.pending_comments,
                                          warnings=self.pending_warnings)
            self.pending_comments, self.pending_warnings = [], []
            self.raws.append(current)
            self.seen = set()
            self.section = ""
        if len(value) > MAX_TAG_VALUE:
            current.errors.append(f"the [{name}] tag at line {line} is {len(value):,} characters long, more "
                                  f"than the {MAX_TAG_VALUE:,} a tag value may have; record not read")
            value = ""
        elif "\\" in value:
            value = _UNESCAPE.sub(r"\1", value)
        self.seen.add(name)
        current.tags.append((name, value))
        if name == "Auction" or name == "Play":
            if (current.auction if name == "Auction" else current.play) is not None:
                current.warnings.append(f"second [{name}] section ignored")
                self.section = "other"
            elif name == "Auction":
                current.auction = []
                self.section = name
            else:
                current.play = []
                self.section = name
        elif name == "Note":
            section = self.section
            in_section = section == "Auction" or section == "Play"
            current.note_after.append(section if in_section else "")
            if not in_section:
                self.section = "other"
            # else: notes follow their section, which keeps its later notes and data
        else:
            self.section = "other"

    def data(self, text: str) -> None:
        """Take a run of section data: calls or cards for the section being read."""
        current = self.current
        section = self.section
        if current is None:
            self.pending_warnings.append(f"text outside any record ignored: {text.strip()[:40]!r}")
        elif section == "Auction":
            assert current.auction is not None
            current.auction.extend(text.split())
        elif section == "Play":
            assert current.play is not None
            current.play.extend(text.split())
        # data after any other tag (e.g. an OptimumResultTable) is a table we do not read

    def scan(self, line: str, number: int) -> list[str] | None:
        """Take a line that is not a single tag or plain data; the open commentary, if left open."""
        for m in _LINE_TOKEN.finditer(line):
            kind = m.lastgroup
            if kind == "tag":
                self.tag(m.group("name"), m.group("value"), number)
            elif kind == "data":
                self.data(m.group())
            elif kind == "brace":
                self.comment(m.group()[1:-1].strip())
            elif kind == "openbrace":
                return [m.group()[1:]]
            elif kind == "badtag":
                self.warn(f"unreadable tag at line {number} ignored: {m.group()[:40]!r}")
            elif kind == "junk":
                self.warn(f"stray {m.group()!r} at line {number} ignored")
        return None


def _build(raw: _Raw, previous: dict[str, str], deals: dict[str, Deal],
           source: str) -> tuple[BoardRecord, dict[str, str]]:
    """The board record of a raw record, and its resolved tags for the record after it.

    ``deals`` caches the deals already read by their text: the tables of a board share one.
    """
    warnings = raw.warnings
    errors = raw.errors

    # '#' copies the value of the same tag in the previous record (PBN 2.1 §4.8).
    tags: list[tuple[str, str]] = []
    for name, value in raw.tags:
        if value == "#":
            copied = previous.get(name)
            if copied is None:
                warnings.append(f'[{name} "#"] has no previous value to copy; tag dropped')
                continue
            value = copied
        tags.append((name, value))
    names = {name for name, _ in tags}
    if "Deal" not in names and names & {"Auction", "Play", "Contract"}:
        inherited = [(n, previous[n]) for n in _BOARD_TAGS if n not in names and n in previous]
        if inherited:
            tags = inherited + tags
            warnings.append("board tags taken from the previous record: "
                            + ", ".join(n for n, _ in inherited))
    td = dict(tags)

    number = _number(td.get("Board"), warnings)
    dealer = _seat(td.get("Dealer"), "Dealer", warnings)
    auction_seat = _seat(td.get("Auction"), "Auction", warnings) if raw.auction is not None else None
    if dealer is None and auction_seat is not None:
        dealer = auction_seat
        warnings.append("no [Dealer]: the dealer is taken from [Auction]")
    vulnerability = _vulnerability(td.get("Vulnerable"), warnings)
    deal: Deal | None = None
    deal_text = td.get("Deal")
    if deal_text is not None and deal_text.strip() not in _UNKNOWN:
        deal = deals.get(deal_text)
        if deal is None:
            try:
                deal = deals[deal_text] = Deal.parse(deal_text)
            except NotationError as exc:
                errors.append(str(exc))

    declarer_text = td.get("Declarer", "").strip()
    contract_text = td.get("Contract", "").strip()
    if declarer_text.startswith("^"):
        warnings.append(f"irregular declarer {declarer_text!r} (PBN 2.1 §3.9 irregularity)")

    # The auction.
    calls: tuple[Call, ...] | None = None
    call_notes: tuple[tuple[int, str], ...] = ()
    alerts: tuple[int, ...] = ()
    contract: Contract | None = None
    passed_out = False
    if raw.auction is not None:
        seat = auction_seat or dealer
        if seat is None:
            errors.append("the auction has no seat to start from ([Auction] and [Dealer] unknown)")
        else:
            if dealer is not None and seat is not dealer:
                warnings.append(f"[Auction] starts from {seat}, not from the dealer {dealer}")
            try:
                parsed = _read_auction(raw.auction, warnings)
            except NotationError as exc:
                errors.append(str(exc))
            else:
                if not parsed.calls and not parsed.all_pass:
                    calls = ()
                    if parsed.ended != "*":  # '*' alone says: no call was made yet
                        warnings.append("the auction section holds no calls")
                else:
                    expected = _expected_declarer(declarer_text)
                    calls, contract, passed_out = _contract_of(seat, parsed.calls, parsed.all_pass)
                    shift = 0
                    if seat is dealer:  # from another seat, the record is taken as it is
                        shift = _missing_passes(parsed, contract, expected, contract_text)
                    if shift and contract is not None:
                        warnings.append(f"{shift} leading pass(es) missing from the auction put "
                                        "back (the declarer then agrees with the record)")
                        calls = (PASS,) * shift + calls
                        contract = Contract(contract.level, contract.denomination,
                                            contract.doubled, contract.declarer.offset(shift))
                    notes = _notes(raw) if parsed.note_refs else {}
                    cn: list[tuple[int, str]] = []
                    alerted = [i + shift for i in parsed.alerts]
                    for i, n in parsed.note_refs:
                        text = notes.get(n)
                        if text is None:
                            warnings.append(f"note {n} on call {i + shift + 1} has no [Note]")
                        elif text == ALERT_NOTE:
                            if i + shift not in alerted:
                                alerted.append(i + shift)
                        else:
                            cn.append((i + shift, text))
                    call_notes = tuple(cn)
                    alerts = tuple(sorted(alerted))

    # The trump suit for the trick winners: the auction's contract, else the [Contract] tag.
    if contract_text.upper() == "PASS" and contract is None:
        passed_out = True
    trump_known = contract is not None
    trump: Suit | None = contract.denomination.trump if contract is not None else None
    if not trump_known:
        m = _CONTRACT_BID.match(contract_text)
        if m is not None:
            trump_known = True
            trump = Denomination.parse(m.group(2)).trump

    # The play.
    play: tuple[Card, ...] = ()
    marks: tuple[tuple[int, str], ...] = ()
    if raw.play is not None:
        try:
            rows, row_marks, stated = _read_play(raw.play, warnings)
        except NotationError as exc:
            errors.append(str(exc))
        else:
            leader = _seat(td.get("Play"), "Play", warnings)
            if leader is None and contract is not None:
                leader = contract.opening_leader
                warnings.append("[Play] names no seat: the opening leader follows the contract")
            if stated and (leader is None or not trump_known):
                warnings.append("play ignored: no opening leader or contract to order the tricks")
            elif stated and leader is not None:
                play = chronological(leader, rows, trump)
                if len(play) < stated:
                    warnings.append(f"{stated - len(play)} card(s) after a gap in the play ignored")
                if row_marks:
                    where: dict[Card, int] = {}
                    for i, card in enumerate(play):
                        where.setdefault(card, i)
                    found: list[tuple[int, str]] = []
                    for card, letter in row_marks:
                        index = where.get(card)
                        if index is None:
                            warnings.append(f"irregularity ^{letter} on {card}, not played, ignored")
                        else:
                            found.append((index, letter))
                    marks = tuple(sorted(found))

    # A play that stops early is completed by the stated result: a claim (or concession).
    claim: int | None = None
    result_text = td.get("Result")
    if result_text is not None:
        declarer = contract.declarer if contract is not None else _plain_seat(declarer_text)
        tricks = _result(result_text, declarer, warnings)
        if tricks is not None and len(play) < 52 and not passed_out:
            claim = tricks

    players = tuple(td.get(name, "") for name in _PLAYER_TAGS)
    room_text = td.get("Room", "").strip()

    record = BoardRecord(
        source=source,
        number=number,
        dealer=dealer,
        vulnerability=vulnerability,
        deal=deal,
        calls=calls,
        call_notes=call_notes,
        alerts=alerts,
        play=play,
        claim=claim,
        marks=marks,
        tags=tuple(tags),
        room=room_text.lower() or None,
        players=players if any(players) else (),
        commentary=tuple(raw.commentary),
        error="; ".join(errors) or None,
        warnings=tuple(warnings),
    )
    return record, td


def _number(text: str | None, warnings: list[str]) -> int | None:
    """The board number of a [Board] value, None when absent or unreadable."""
    if text is None or text.strip() in _UNKNOWN:
        return None
    try:
        return int(text)
    except ValueError:
        warnings.append(f"invalid board number {text!r}")
        return None


def _seat(text: str | None, tag: str, warnings: list[str]) -> Seat | None:
    """The seat a tag names, None when absent or unreadable."""
    if text is None or text.strip() in _UNKNOWN:
        return None
    try:
        return Seat.parse(text)
    except NotationError:
        warnings.append(f"invalid seat in [{tag} {text!r}]")
        return None


def _plain_seat(text: str) -> Seat | None:
    """The seat of a [Declarer] value, irregularity mark or not; None if it names none."""
    try:
        return Seat.parse(text.lstrip("^"))
    except NotationError:
        return None


def _vulnerability(text: str | None, warnings: list[str]) -> Vulnerability | None:
    """The vulnerability of a [Vulnerable] value (None/Love, NS, EW, All/Both)."""
    if text is None or text.strip() in _UNKNOWN:
        return None
    try:
        return Vulnerability.parse(text)
    except NotationError:
        warnings.append(f"invalid vulnerability {text!r}")
        return None


def _result(text: str, declarer: Seat | None, warnings: list[str]) -> int | None:
    """Declarer's tricks of a [Result] value; ``^13`` marks a result that differs from the play."""
    value = text.strip()
    if value in _UNKNOWN:
        return None
    if value.startswith("^"):
        value = value[1:].strip()
        warnings.append(f"irregular result {text.strip()!r} (PBN 2.1 §3.9 irregularity)")
    if value.isdecimal() and int(value) <= 13:
        return int(value)
    m = _SIDE_RESULT.match(value)
    if m is not None and declarer is not None and int(m.group(2)) <= 13:
        tricks = int(m.group(2))
        side = Side.NS if m.group(1).upper() == "NS" else Side.EW
        return tricks if side is declarer.side else 13 - tricks
    warnings.append(f"result {text!r} not understood")
    return None


@dataclass(slots=True)
class _AuctionTokens:
    """The calls of an auction section, with where its notes and alerts attach."""

    calls: list[Call] = field(default_factory=list)
    all_pass: bool = False
    ended: str = ""  # the token that ended the record of the auction: "AP", "*" or "-"
    note_refs: list[tuple[int, int]] = field(default_factory=list)  # (call index, note number)
    alerts: list[int] = field(default_factory=list)


def _pieces(token: str) -> tuple[str, str, str]:
    """A section token's irregularity mark (``^R`` or ""), its call or card, and its suffix
    annotations: the longest run of ``=n=``, ``$n``, ``!`` and ``?`` that ends it."""
    start = 2 if len(token) > 1 and token[0] == "^" and token[1] in _LETTERS else 0
    match = _SUFFIX_REVERSED.match(token[::-1])
    assert match is not None  # the pattern matches the empty text
    end = max(start, len(token) - match.end())
    return token[:start], token[start:end], token[end:]


def _parse_cached(text: str, cache: dict[str, T], parse: Callable[[str], T]) -> T | None:
    """The value ``parse`` gives a token, or None if it gives none.

    Spellings that parse are cached (the same few tokens recur); failures are not, so the
    cache only ever holds the few spellings of real calls and cards.
    """
    value = cache.get(text)
    if value is None:
        try:
            value = parse(text)
        except NotationError:
            return None
        cache[text] = value
    return value


def _read_auction(tokens: Sequence[str], warnings: list[str]) -> _AuctionTokens:
    """The calls of an auction section's tokens (PBN 2.1 §3.5, §3.7).

    ``AP`` ends the auction with passes, ``*`` and ``-`` end the record of it; ``=n=``
    refers to a note, ``!`` alerts the call before it, other annotations and NAGs are
    dropped, ``^x`` irregularity marks become warnings.
    """
    out = _AuctionTokens()
    mark = ""
    for token in tokens:
        call = _CALL_CACHE.get(token)
        annotations = ""
        if call is None:
            mark_group, core, annotations = _pieces(token)
            if mark_group:
                mark = mark_group[1]
            if core:
                if core.upper() == "AP":
                    if not out.ended:
                        out.all_pass = True
                        out.ended = "AP"
                    continue
                if core == "*" or set(core) == {"-"}:
                    out.ended = out.ended or core
                    continue
                call = _parse_cached(core, _CALL_CACHE, Call.parse)
                if call is None:
                    raise NotationError(f"invalid call {core!r} in the auction")
        if call is not None:
            if out.ended:
                warnings.append(f"call {call} after {out.ended!r} in the auction ignored")
                continue
            out.calls.append(call)
            if mark:
                warnings.append(f"irregularity ^{mark} on call {len(out.calls)} ({call})")
                mark = ""
        if annotations and not out.ended:
            if not out.calls:
                warnings.append(f"annotation {annotations!r} before the first call ignored")
                continue
            index = len(out.calls) - 1
            for a in _ANNOTATION.finditer(annotations):
                if a.group(1) is not None:
                    out.note_refs.append((index, int(a.group(1))))
                elif a.group() == "!" and index not in out.alerts:
                    out.alerts.append(index)
    return out


def _expected_declarer(declarer_text: str) -> Seat | None:
    """The declarer [Declarer] states, None if it states none or marks it irregular (``^N``)."""
    if declarer_text and not declarer_text.startswith("^"):
        try:
            return Seat.parse(declarer_text)
        except NotationError:
            return None
    return None


def _run(seat: Seat, calls: Sequence[Call], all_pass: bool, leading_passes: int = 0) -> Auction:
    """The auction of ``calls`` from ``seat``, after ``leading_passes`` passes, ``AP`` expanded."""
    auction = Auction(seat)
    for _ in range(leading_passes):
        auction = auction.with_call(PASS)
    for call in calls:
        auction = auction.with_call(call)
    if all_pass:
        while not auction.is_complete:
            auction = auction.with_call(PASS)
    return auction


def _contract_of(seat: Seat, calls: Sequence[Call], all_pass: bool
                 ) -> tuple[tuple[Call, ...], Contract | None, bool]:
    """The calls of an auction section from ``seat`` (``AP`` expanded with passes), the
    contract they end in (Law 22) and whether they passed the deal out.

    Every call is taken as made, as ``Auction.with_call`` takes it (the replay judges the
    calls); this reads the contract without building an ``Auction`` per call.
    """
    last: Call | None = None
    bidder, doubled, passes = -1, 0, 0
    namers = [-1] * 10
    s = int(seat)
    for call in calls:
        kind = call.kind
        if kind is CallKind.PASS:
            passes += 1
        elif kind is CallKind.BID:
            last, bidder, doubled, passes = call, s, 0, 0
            key = (s & 1) * 5 + call.denomination  # type: ignore[operator]
            if namers[key] < 0:
                namers[key] = s
        else:
            doubled, passes = (1 if kind is CallKind.DOUBLE else 2), 0
        s = (s + 1) & 3
    out = tuple(calls)
    needed = 4 if last is None else 3  # Law 17E: the passes that end the auction
    if all_pass and passes < needed:
        out += (PASS,) * (needed - passes)
        passes = needed
    if passes < needed:
        return out, None, False
    if last is None:
        return out, None, True
    denomination = last.denomination
    assert denomination is not None
    return out, Contract(last.level, denomination, doubled, SEATS[namers[(bidder & 1) * 5 + denomination]]), False


def _missing_passes(parsed: _AuctionTokens, contract: Contract | None, expected: Seat | None,
                    contract_text: str) -> int:
    """How many opening passes (1-3) rpbridge.net dropped, by the declarer the record states; or 0.

    Passes before the first bid name nothing, so ``k`` more of them move every call, and so
    the declarer, ``k`` seats on (the contract and its doubling stay): the ``k`` that makes
    the declarer agree with ``expected`` is the number dropped.
    """
    if (expected is None or contract is None or contract.declarer is expected
            or not parsed.calls or not parsed.calls[0].is_bid):
        return 0
    m = _CONTRACT_BID.match(contract_text)
    if m is not None and (int(m.group(1)) != contract.level
                          or Denomination.parse(m.group(2)) is not contract.denomination):
        return 0  # another contract: the record disagrees on more than the seats
    return (expected - contract.declarer) & 3


def _notes(raw: _Raw) -> dict[int, str]:
    """Note texts by number for the auction: the notes after the auction, else any other."""
    after: dict[int, str] = {}
    other: dict[int, str] = {}
    places = iter(raw.note_after)
    for name, value in raw.tags:
        if name != "Note":
            continue
        place = next(places, "")
        m = _NOTE.match(value)
        if m is None:
            continue
        target = after if place == "Auction" else other
        target.setdefault(int(m.group(1)), m.group(2).strip())
    return other | after


def _read_play(tokens: list[str], warnings: list[str]
               ) -> tuple[list[list[Card | None]], list[tuple[Card, str]], int]:
    """The rows of a play section (PBN 2.1 §3.6), the marked cards, and the cards stated.

    Every four cards or ``-`` placeholders make a row (a trick, in columns from the opening
    leader). ``*`` ends the section; ``^x`` before a card marks an irregularity; suffix
    annotations, NAGs and note references are dropped.
    """
    if "*" in tokens:
        tokens = tokens[:tokens.index("*")]
    marks: list[tuple[Card, str]] = []
    try:
        items = [_PLAY_TOKENS[token] for token in tokens]  # the common case: cards and '-'
    except KeyError:
        items = _read_play_slowly(tokens, marks, warnings)
    rows = [items[i:i + 4] for i in range(0, len(items), 4)]
    if rows and len(rows[-1]) < 4:
        rows[-1].extend([None] * (4 - len(rows[-1])))
    stated = len(items) - sum(1 for item in items if item is None)  # None is '-'
    return rows, marks, stated


def _read_play_slowly(tokens: list[str], marks: list[tuple[Card, str]], warnings: list[str]
                      ) -> list[Card | None]:
    """The cards and placeholders of play tokens with marks, annotations or odd spellings."""
    items: list[Card | None] = []
    mark = ""
    for token in tokens:
        card = _CARD_CACHE.get(token)
        if card is None:
            mark_group, core, _ = _pieces(token)
            if mark_group:
                mark = mark_group[1]
            if not core:
                continue
            if core == "*":
                break
            if set(core) == {"-"}:
                items.append(None)
                if mark:
                    warnings.append(f"irregularity ^{mark} on a card not played ignored")
                    mark = ""
                continue
            card = _parse_cached(core, _CARD_CACHE, Card.parse)
            if card is None:
                raise NotationError(f"invalid card {core!r} in the play")
        items.append(card)
        if mark:
            marks.append((card, mark))
            mark = ""
    return items


# --- writing ---------------------------------------------------------------------------


def dump(records: Iterable[BoardRecord], path: str | os.PathLike[str]) -> None:
    """Write ``records`` to the file at ``path`` in the PBN 2.1 export format (UTF-8)."""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(dumps(records))


def dumps(records: Iterable[BoardRecord]) -> str:
    """The PBN 2.1 export text of ``records``, each record followed by an empty line.

    Raises RecordError for a record with cards played but no contract (neither an auction
    that ends nor a [Contract] tag): its tricks cannot be put in rows without trumps.
    """
    parts = ["% PBN 2.1\n% EXPORT\n"]
    deals: dict[str, Deal | None] = {}
    for record in records:
        parts.append(_format(record, deals))
        parts.append("\n")  # every record, the last too, ends with an empty line (§2.1)
    return "".join(parts)


def _tag(name: str, value: str) -> str:
    """A tag line, the value escaped (PBN 2.1 §3.3): a backslash before a quote or backslash.

    A value that is just ``#`` would be read as a copy of the previous record's tag; PBN
    has no way to write it, so it is written empty. Line ends become spaces.
    """
    if value == "#":
        value = ""
    value = value.replace("\\", "\\\\").replace('"', '\\"').replace("\r", " ").replace("\n", " ")
    return f'[{name} "{value}"]'


def _format(record: BoardRecord, deals: dict[str, Deal | None]) -> str:
    """The PBN text of one record: mandatory tags, other tags, auction, play, commentary.

    A board tag keeps its text when it says what the field says (``Both`` stays ``Both``, a
    deal keeps its first seat), so that the tags read back are the tags written.
    ``deals`` caches the deals of [Deal] texts already seen.
    """
    td = dict(record.tags)
    lines: list[str] = []

    auction_seat = _plain_seat(td.get("Auction", "")) or record.dealer or Seat.N
    auction = _run(auction_seat, record.calls, False) if record.calls is not None else None
    contract = auction.contract() if auction is not None else None

    values = {name: td.get(name, "?" if name in ("Event", "Site", "Date", "Scoring") else "")
              for name in _MANDATORY}
    ignore: list[str] = []
    if record.number is not None and _number(values["Board"], ignore) != record.number:
        values["Board"] = str(record.number)
    elif values["Board"] == "":
        values["Board"] = "?"
    if record.dealer is not None and _seat(values["Dealer"], "", ignore) is not record.dealer:
        values["Dealer"] = str(record.dealer)
    if (record.vulnerability is not None
            and _vulnerability(values["Vulnerable"], ignore) is not record.vulnerability):
        values["Vulnerable"] = record.vulnerability.pbn
    if record.deal is not None:
        text = values["Deal"]
        if text not in deals:
            try:
                deals[text] = Deal.parse(text)
            except NotationError:
                deals[text] = None
        if deals[text] != record.deal:
            values["Deal"] = record.deal.pbn(record.dealer or Seat.N)
    if any(record.players):
        for name, player in zip(_PLAYER_TAGS, record.players, strict=False):
            values[name] = player
    if "Contract" not in td and auction is not None and auction.is_complete:
        if contract is None:
            values["Contract"] = "Pass"
        else:
            values["Contract"] = contract.text
            values["Declarer"] = str(contract.declarer)
    if record.claim is not None:
        if _result(values["Result"], None, ignore) != record.claim:
            values["Result"] = str(record.claim)
    elif "Result" not in td and contract is not None and len(record.play) == 52:
        values["Result"] = str(_declarer_tricks(record.play, contract))
    for name in _MANDATORY:
        lines.append(_tag(name, values[name]))

    room_written = False
    for name, value in record.tags:
        if name in _GENERATED:
            continue
        room_written = room_written or name == "Room"
        lines.append(_tag(name, value))
    if record.room and not room_written:
        lines.append(_tag("Room", record.room.capitalize()))

    if record.calls is not None:
        lines.append(f'[Auction "{auction_seat}"]')
        lines.extend(_auction_lines(record, auction))
    elif "Auction" in td:
        lines.append(_tag("Auction", td["Auction"]))  # a section without calls
    if record.play or "Play" in td:
        lines.extend(_play_lines(record, td, contract))
    lines.extend(record.sections)
    for text in record.commentary:
        lines.append("{" + text.replace("}", ")") + "}")
    return "\n".join(lines) + "\n"


def _auction_lines(record: BoardRecord, auction: Auction | None) -> list[str]:
    """The auction section: four calls a line, ``=n=`` notes, then the [Note] tags.

    An alerted call refers to a note reading ``Alert`` (``ALERT_NOTE``), written before its
    other notes: PBN 2.1's ``!`` suffix grades a call as good (§3.7), and readers that take
    the standard at its word refuse a call written ``X!``.
    """
    assert record.calls is not None
    alerts = set(record.alerts)
    skipped: dict[int, int] = {}
    insufficient: set[int] = set()
    for index, mark in record.call_marks:
        if mark == "S":
            skipped[index] = skipped.get(index, 0) + 1
        elif mark == "I":
            insufficient.add(index)
    notes_at: dict[int, list[int]] = {}
    texts: list[str] = []
    for index, text in sorted([(i, ALERT_NOTE) for i in sorted(alerts)] + list(record.call_notes),
                              key=lambda n: n[0]):
        texts.append(text)
        notes_at.setdefault(index, []).append(len(texts))
    tokens: list[str] = []
    for i, call in enumerate(record.calls):
        tokens.extend(["^S"] * skipped.get(i, 0))
        token = ("^I " if i in insufficient else "") + str(call)
        for n in notes_at.get(i, ()):
            token += f" ={n}="
        tokens.append(token)
    if auction is not None and not auction.is_complete:
        tokens.append("*")
    lines = [" ".join(tokens[i:i + 4]) for i in range(0, len(tokens), 4)]
    lines.extend(_tag("Note", f"{n}:{text}") for n, text in enumerate(texts, start=1))
    return lines


def _play_lines(record: BoardRecord, td: dict[str, str], contract: Contract | None) -> list[str]:
    """The play section: one trick a row, columns from the opening leader, ``-`` for cards not played."""
    leader = _plain_seat(td.get("Play", ""))
    if leader is None and contract is not None:
        leader = contract.opening_leader
    tagged = _CONTRACT_BID.match(td.get("Contract", "")) if record.trick_leaders else None
    if contract is not None and tagged is None:
        trump = contract.denomination.trump
    else:
        m = tagged or _CONTRACT_BID.match(td.get("Contract", ""))
        if m is None:
            if not record.play:
                return []
            raise RecordError(f"{record.source}: cannot write the play without a contract")
        trump = Denomination.parse(m.group(2)).trump
    if leader is None:
        if not record.play:
            return []
        raise RecordError(f"{record.source}: cannot write the play without an opening leader")
    marks = dict(record.marks)
    lines = [f'[Play "{leader}"]']
    trick_leader = leader
    play = record.play
    for start in range(0, len(play), 4):
        trick = play[start:start + 4]
        if start // 4 < len(record.trick_leaders):
            trick_leader = record.trick_leaders[start // 4]
        row = ["-"] * 4
        for k, card in enumerate(trick):
            mark = marks.get(start + k)
            text = str(card)
            row[(trick_leader + k - leader) & 3] = f"^{mark} {text}" if mark else text
        lines.append(" ".join(row))
        if len(trick) == 4:
            trick_leader = trick_winner(trick_leader, trick, trump)
    if len(play) < 52:
        lines.append("*")
    return lines


def _declarer_tricks(play: Sequence[Card], contract: Contract) -> int:
    """Tricks won by declarer's side in a complete play (Law 44)."""
    trump = contract.denomination.trump
    leader = contract.opening_leader
    won = 0
    for start in range(0, 52, 4):
        leader = trick_winner(leader, play[start:start + 4], trump)
        won += leader.side is contract.declarer.side
    return won
