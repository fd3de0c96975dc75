"""BBO LIN records: a tolerant reader and a writer for hand records and vugraph files.

LIN is a flat run of ``key|value|`` pairs; newlines only separate pairs. The keys read:

- ``pn|`` players, South, West, North, East (vugraph: eight names, open room then closed);
- ``md|`` the deal: the dealer digit (1 South, 2 West, 3 North, 4 East), then the South,
  West, North and East hands separated by commas (often only three: the fourth is the rest);
- ``ah|Board 12|`` the board number; ``sv|`` vulnerability (``o``/``0``/``-``, ``n``, ``e``, ``b``);
- ``mb|`` calls from the dealer (``p``, ``d``, ``r``, ``1C`` .. ``7N``, ``!`` suffix for an
  alert); ``an|`` explains the call before it; ``pc|`` cards in the order played;
  ``mc|`` a claim, declarer's total tricks (it may come in the middle of a trick);
- vugraph: ``vg|`` event header, ``rs|`` results (o1, c1, o2, c2, ...), ``qx|o12``/``qx|c12``
  starts the open or closed room table of board 12; ``nt|`` commentary anywhere.

Display keys (``pg``, ``st``, ``rh``, ``sk``, ``bn``, ``pw``, ``mn`` ...) are ignored. A board
that cannot be used becomes a record with ``error`` set; reading goes on with the next one.
Records read here have ``room`` ``"open"`` or ``"closed"`` (vugraph) or None (hand records).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from controller.calls import Call, CallKind
from controller.cards import DECK, Card, Rank, Suit
from controller.deal import Deal, Hand, format_hand
from controller.errors import NotationError
from controller.records.model import BoardRecord, decode_text
from controller.seats import Seat, Vulnerability

__all__ = ["dump", "dumps", "load", "loads"]

_LIN_SEATS: tuple[Seat, ...] = (Seat.S, Seat.W, Seat.N, Seat.E)
"""The order of LIN hands (``md|``) and names (``pn|``)."""

_DEALER_BY_DIGIT = {"1": Seat.S, "2": Seat.W, "3": Seat.N, "4": Seat.E}
_DIGIT_BY_DEALER = {seat: digit for digit, seat in _DEALER_BY_DIGIT.items()}
_VUL_LETTER = {Vulnerability.NONE: "o", Vulnerability.NS: "n",
               Vulnerability.EW: "e", Vulnerability.BOTH: "b"}
_ROOM_BY_LETTER = {"o": "open", "c": "closed"}
_SUIT_BY_CHAR = {"S": Suit.S, "H": Suit.H, "D": Suit.D, "C": Suit.C,
                 "s": Suit.S, "h": Suit.H, "d": Suit.D, "c": Suit.C}
_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_ESCAPE_RE = re.compile(r"[!@]([SHDCshdc])")
_SYMBOL_RE = re.compile("[♠♥♦♣]")
_LETTER_BY_SYMBOL = {v: k for k, v in _SYMBOL.items()}
_NUMBER_RE = re.compile("[0-9]+")
_WHITESPACE = " \t\r\n"


# ---------------------------------------------------------------------------- reading


@dataclass(slots=True)
class _Table:
    """One table record as the pairs read so far describe it (mutable, private to the reader)."""

    room: str | None = None
    number: int | None = None
    started_by_qx: bool = False
    has_md: bool = False
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    deal: Deal | None = None
    calls: list[Call] | None = None
    passes: int = 0
    bid_made: bool = False
    dropped_calls: int = 0
    notes: list[tuple[int, str]] = field(default_factory=list)
    alerts: set[int] = field(default_factory=set)
    play: list[Card] = field(default_factory=list)
    claim: int | None = None
    claimed_after: int = 0
    commentary: list[str] = field(default_factory=list)
    players: tuple[str, ...] = ()
    header: list[tuple[str, str]] = field(default_factory=list)
    first_board: int | None = None
    results: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        """True while no pair has started a board (only names or commentary so far)."""
        return not (self.started_by_qx or self.has_md or self.calls or self.play
                    or self.claim is not None or self.errors)

    @property
    def auction_complete(self) -> bool:
        """Four passes, or three passes after a bid (Law 17E), as :class:`Auction` judges it."""
        return self.passes >= (3 if self.bid_made else 4)


@dataclass(slots=True)
class _File:
    """What a whole LIN text says outside any one table: names, vugraph header, results."""

    names: list[str] = field(default_factory=list)
    header: list[tuple[str, str]] = field(default_factory=list)
    first_board: int | None = None
    results: list[str] = field(default_factory=list)


def _players(names: Sequence[str], room: str | None) -> tuple[str, ...]:
    """The players (N, E, S, W) of a table from the current ``pn|`` names; () if none are named."""
    half = list(names[4:8]) if room == "closed" and len(names) >= 8 else list(names[:4])
    half += [""] * (4 - len(half))
    if not any(half):
        return ()
    south, west, north, east = half
    return (north, east, south, west)


def _decode_escapes(text: str) -> str:
    """``text`` with BBO suit escapes (``!S``, ``@h``) turned into suit symbols."""
    if "!" not in text and "@" not in text:
        return text
    return _ESCAPE_RE.sub(lambda m: _SYMBOL[m.group(1).upper()], text)


def _parse_hand(text: str) -> Hand:
    """The cards of a LIN hand such as ``SAKQHJT9D32CA2`` (either case, ``10`` for ten)."""
    cards: list[Card] = []
    suit: Suit | None = None
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        i += 1
        s = _SUIT_BY_CHAR.get(ch)
        if s is not None:
            suit = s
            continue
        if ch in _WHITESPACE:
            continue
        if suit is None:
            raise NotationError(f"invalid hand {text!r}: a rank before any suit letter")
        if ch == "1" and text[i:i + 1] == "0":
            i += 1
            rank = Rank.TEN
        else:
            rank = Rank.parse(ch)
        cards.append(DECK[suit * 13 + rank - 2])
    hand = frozenset(cards)
    if len(hand) != len(cards):
        raise NotationError(f"invalid hand {text!r}: a card is repeated")
    return hand


def _read_deal(table: _Table, value: str, where: str) -> None:
    """Set dealer and deal of ``table`` from an ``md|`` value."""
    text = value.strip()
    if text[:1].isdecimal():
        dealer = _DEALER_BY_DIGIT.get(text[0])
        if dealer is None:
            table.warnings.append(f"invalid dealer digit {text[0]!r} in md| {where}")
        table.dealer = dealer
        text = text[1:]
    elif text:
        table.warnings.append(f"no dealer digit in md| {where}")
    fields = [f.strip() for f in text.split(",")]
    if len(fields) > 4:
        if any(fields[4:]):
            table.warnings.append(f"more than four hands in md| {where}: extra ignored")
        fields = fields[:4]
    if not any(fields):
        table.errors.append(f"no deal {where}")
        return
    hands: list[Hand | None] = [None] * 4
    try:
        for seat, hand_text in zip(_LIN_SEATS, fields, strict=False):
            if hand_text:
                hands[seat] = _parse_hand(hand_text)
        deal = Deal((hands[0], hands[1], hands[2], hands[3]))
        deal.check()
    except NotationError as exc:
        table.errors.append(f"{exc} {where}")
        return
    deal = deal.completed()
    if not deal.is_complete:
        table.warnings.append(f"incomplete deal {where}")
    table.deal = deal


def _read_call(table: _Table, value: str, where: str) -> bool:
    """Append the call of an ``mb|`` value to ``table``; False when it was not kept."""
    text = value.strip()
    alerted = text.endswith("!")
    text = text.rstrip("!").strip()
    if not text:
        table.warnings.append(f"empty call {where} ignored")
        return False
    if table.calls is None:
        table.calls = []
    elif table.auction_complete:
        if not table.dropped_calls:
            table.warnings.append(
                f"call {text!r} {where} after the auction ended dropped (operator error)")
        table.dropped_calls += 1
        return False
    try:
        call = Call.parse(text)
    except NotationError:
        table.errors.append(f"invalid call {text!r} {where}")
        return False
    if call.kind is CallKind.PASS:
        table.passes += 1
    else:
        table.passes = 0
        if call.kind is CallKind.BID:
            table.bid_made = True
    if alerted:
        table.alerts.add(len(table.calls))
    table.calls.append(call)
    return True


def _read_card(table: _Table, value: str, where: str) -> None:
    """Append the card of a ``pc|`` value to ``table``'s play."""
    text = value.strip()
    try:
        card = Card.parse(text)
    except NotationError:
        table.errors.append(f"invalid card {text!r} {where}")
        return
    if len(table.play) >= 52:
        table.warnings.append(f"card {text!r} {where} after 52 cards dropped")
        return
    if table.claim is not None and table.claimed_after == len(table.play):
        table.warnings.append(f"card {text!r} {where} played after the claim")
    table.play.append(card)


def _read_claim(table: _Table, value: str, where: str) -> None:
    """Set ``table``'s claim (declarer's total tricks) from an ``mc|`` value."""
    text = value.strip()
    if text.isascii() and text.isdecimal() and int(text) <= 13:
        table.claim = int(text)
        table.claimed_after = len(table.play)
    else:
        table.warnings.append(f"invalid claim {text!r} {where} ignored")


def _read_header(file: _File, value: str) -> None:
    """Keep the vugraph ``vg|`` header: event, segment, first board, teams."""
    parts = [p.strip() for p in value.split(",")]
    parts += [""] * (9 - len(parts))
    file.header = [(tag, text) for tag, text in
                   (("Event", parts[0]), ("Stage", parts[1]),
                    ("HomeTeam", parts[5]), ("VisitTeam", parts[7])) if text]
    if parts[3].isascii() and parts[3].isdecimal():
        file.first_board = int(parts[3])


def _close(tables: list[_Table], table: _Table, file: _File) -> _Table:
    """Close ``table`` under the names and vugraph header in force; a fresh table to fill."""
    table.players = _players(file.names, table.room)
    table.header = file.header
    table.first_board = file.first_board
    table.results = file.results
    tables.append(table)
    return _Table()


def loads(text: str, source: str = "<string>") -> list[BoardRecord]:
    """The board records of a LIN text, one per table, in file order; never raises for content.

    ``source`` names the text in each record's ``source`` and in messages: a single hand record
    keeps it as is, vugraph tables become ``"<source> board 46 open"``.
    """
    file = _File()
    tables: list[_Table] = []
    table = _Table()
    last_call_kept = False
    parts = text.split("|")
    line = 1
    i, n = 0, len(parts) - 1
    while i < n:
        raw_key = parts[i]
        if "\n" in raw_key:
            line += raw_key.count("\n")
        key = raw_key.strip(_WHITESPACE).lower()
        if len(key) != 2 or not key.isalnum():
            table.warnings.append(f"unexpected text {raw_key.strip()[:20]!r} at line {line} "
                                  f"of {source} skipped")
            i += 1
            continue
        value = parts[i + 1]
        i += 2
        where = f"at line {line} of {source}"
        if "\n" in value:
            line += value.count("\n")
        if key == "nt":
            table.commentary.append(_decode_escapes(value))
        elif key == "mb":
            last_call_kept = _read_call(table, value, where)
        elif key == "an":
            note = _decode_escapes(value.strip())
            if table.calls and last_call_kept:
                index = len(table.calls) - 1
                table.notes.append((index, note))
                table.alerts.add(index)
            elif not table.calls:
                table.warnings.append(f"explanation {where} before any call kept as commentary")
                table.commentary.append(note)
            # else it explains a call that was dropped or unreadable: dropped with it
        elif key == "pc":
            _read_card(table, value, where)
        elif key == "qx":
            if not table.is_empty:
                table = _close(tables, table, file)
            qx = value.strip()
            table.started_by_qx = True
            table.room = _ROOM_BY_LETTER.get(qx[:1].lower())
            if table.room is None:
                table.warnings.append(f"invalid room in qx|{qx} {where}")
            m = _NUMBER_RE.search(qx)
            table.number = int(m.group()) if m else None
        elif key == "md":
            if table.has_md:
                table = _close(tables, table, file)
            table.has_md = True
            _read_deal(table, value, where)
        elif key == "pn":
            if table.has_md:
                table = _close(tables, table, file)
            file.names = [name.strip() for name in value.split(",")]
        elif key == "ah":
            if table.calls or table.play:
                table = _close(tables, table, file)
            m = _NUMBER_RE.search(value)
            table.number = int(m.group()) if m else None
        elif key == "sv":
            try:
                table.vulnerability = Vulnerability.parse(value)
            except NotationError:
                table.warnings.append(f"invalid vulnerability {value.strip()!r} {where}")
        elif key == "mc":
            _read_claim(table, value, where)
        elif key == "vg":
            _read_header(file, value)
        elif key == "rs":
            file.results = [r.strip() for r in value.split(",")]
        # pg st rh sk bn pw mn and the rest are display or lobby keys: nothing to keep
    if i == n and parts[n].strip():
        table.warnings.append(f"unterminated text {parts[n].strip()[:20]!r} at the end of {source}")
    if not table.is_empty:
        _close(tables, table, file)
    return _records(tables, source)


def _records(tables: list[_Table], source: str) -> list[BoardRecord]:
    """The board records of the tables read, with sources and tags filled in."""
    numbers = [t.number for t in tables if t.room is not None and t.number is not None]
    lowest = min(numbers) if numbers else None
    single = len(tables) == 1 and tables[0].room is None
    records = []
    for k, t in enumerate(tables, start=1):
        if single:
            name = source
        elif t.number is None:
            name = f"{source} record {k}"
        else:
            name = f"{source} board {t.number}" + (f" {t.room}" if t.room else "")
        tags = list(t.header)
        if t.number is not None:
            tags.append(("Board", str(t.number)))
        if t.room is not None:
            tags.append(("Room", t.room.capitalize()))
        if t.claim is not None:
            tags.append(("Result", str(t.claim)))
        first = lowest if t.first_board is None else t.first_board
        if t.room is not None and t.number is not None and first is not None:
            index = 2 * (t.number - first) + (t.room == "closed")
            if 0 <= index < len(t.results) and t.results[index]:
                tags.append(("RecordedResult", t.results[index]))
        errors = list(t.errors)
        if not t.has_md:
            errors.insert(0, "no deal")
        warnings = list(t.warnings)
        if t.calls and not t.auction_complete:
            warnings.append(f"auction not complete ({len(t.calls)} calls)")
        records.append(BoardRecord(
            source=name,
            number=t.number,
            dealer=t.dealer,
            vulnerability=t.vulnerability,
            deal=t.deal,
            calls=None if t.calls is None else tuple(t.calls),
            call_notes=tuple(t.notes),
            alerts=tuple(sorted(t.alerts)),
            play=tuple(t.play),
            claim=t.claim,
            tags=tuple(tags),
            room=t.room,
            players=t.players,
            commentary=tuple(t.commentary),
            error="; ".join(errors) if errors else None,
            warnings=tuple(warnings),
        ))
    return records


def load(path: str | os.PathLike[str]) -> list[BoardRecord]:
    """The board records of a LIN file; each record's source starts with the file name."""
    p = Path(path)
    return loads(decode_text(p.read_bytes()), source=p.name)


# ---------------------------------------------------------------------------- writing


def _clean(text: str) -> str:
    """``text`` fit for a LIN value: no ``|`` (LIN cannot quote it)."""
    return text.replace("|", "/")


def _encode_escapes(text: str, mark: str) -> str:
    """``text`` with suit symbols as BBO escapes (``!S`` in explanations, ``@S`` in chat)."""
    return _SYMBOL_RE.sub(lambda m: mark + _LETTER_BY_SYMBOL[m.group()], _clean(text))


def _lin_hand(hand: Hand | None) -> str:
    """The LIN text of a hand (``SAKQHJT9D32CA2``), empty when the hand is not known."""
    if hand is None:
        return ""
    spades, hearts, diamonds, clubs = format_hand(hand).split(".")
    return f"S{spades}H{hearts}D{diamonds}C{clubs}"


def _lin_call(call: Call) -> str:
    """The LIN token of a call: ``p``, ``d``, ``r``, ``1C`` .. ``7N``."""
    if call.kind is CallKind.PASS:
        return "p"
    if call.kind is CallKind.DOUBLE:
        return "d"
    if call.kind is CallKind.REDOUBLE:
        return "r"
    return str(call).replace("NT", "N")


def _names_for(record: BoardRecord, room: str | None, current: Sequence[str]) -> list[str]:
    """The ``pn|`` names that make the reader give ``record.players``, keeping the other room's."""
    if record.players:
        north, east, south, west = (_clean(p).replace(",", " ").strip()
                                    for p in (*record.players, "", "", "", "")[:4])
        half = [south, west, north, east]
    else:
        half = ["", "", "", ""]
    if room is None:
        return half
    names = (list(current) + [""] * 8)[:8]
    start = 4 if room == "closed" else 0
    names[start:start + 4] = half
    return names


def _room_letter(room: str) -> str:
    """``c`` for a closed room (``"closed"``, ``"Closed"``, ``"c"``), else ``o``."""
    return "c" if room.strip().lower().startswith("c") else "o"


def _write_board(record: BoardRecord, names: list[str]) -> tuple[str, list[str]]:
    """The LIN text of one record and the ``pn|`` names the reader holds after it."""
    room = None if record.room is None else _ROOM_BY_LETTER[_room_letter(record.room)]
    out: list[str] = []
    if room is None or _players(names, room) != record.players:
        # a hand record's line always starts with its names, empty when unnamed: readers such as
        # BBO's and endplay's take ``pn|`` for the start of a board and read nothing without it
        names = _names_for(record, room, names)
        out.append(f"pn|{','.join(names)}|")
    number = "" if record.number is None else str(record.number)
    if record.room is not None:
        out.append(f"qx|{_room_letter(record.room)}{number}|")
    digit = "" if record.dealer is None else _DIGIT_BY_DEALER[record.dealer]
    hands = ""
    if record.deal is not None:
        hands = ",".join(_lin_hand(record.deal.hands[seat]) for seat in _LIN_SEATS)
    out.append(f"st||md|{digit}{hands}|")
    if record.room is None:
        out.append(f"rh||ah|Board {number}|" if number else "rh||")
    if record.vulnerability is not None:
        out.append(f"sv|{_VUL_LETTER[record.vulnerability]}|")
    if record.calls:
        alerts = set(record.alerts)
        for index, call in enumerate(record.calls):
            out.append(f"mb|{_lin_call(call)}{'!' if index in alerts else ''}|")
            out.extend(f"an|{_encode_escapes(text, '!')}|"
                       for i, text in record.call_notes if i == index)
        out.append("pg||")
    for index, card in enumerate(record.play, start=1):
        out.append(f"pc|{card}|")
        if index % 4 == 0:
            out.append("pg||")
    if record.claim is not None:
        out.append(f"mc|{record.claim}|pg||")
    out.extend(f"nt|{_encode_escapes(text, '@')}|" for text in record.commentary)
    return "".join(out), names


def _write_header(records: Sequence[BoardRecord]) -> list[str]:
    """The vugraph ``vg|`` (and ``rs|``) lines for the records that have a room."""
    tagged = {name: value for r in reversed(records) for name, value in r.tags}
    numbers = [r.number for r in records if r.number is not None]
    first, last = (min(numbers), max(numbers)) if numbers else (1, 1)
    fields = [tagged.get("Event", ""), tagged.get("Stage", ""), "I", str(first), str(last),
              tagged.get("HomeTeam", ""), "0", tagged.get("VisitTeam", ""), "0"]
    lines = [f"vg|{','.join(_clean(f).replace(',', ' ') for f in fields)}|"]
    results = [""] * (2 * (last - first + 1))
    for r in records:
        result = r.tag("RecordedResult")
        if result and r.number is not None and r.room is not None:
            results[2 * (r.number - first) + (_room_letter(r.room) == "c")] = result
    if any(results):
        lines.append(f"rs|{','.join(_clean(x).replace(',', ' ') for x in results)}|")
    return lines


def dumps(records: Iterable[BoardRecord]) -> str:
    """The LIN text of ``records``: one line per board, vugraph style when a record has a room.

    A hand record reads ``pn|S,W,N,E|st||md|...|rh||ah|Board n|sv|o|mb|..|pc|..|mc|n|pg||``;
    a record with a room starts with ``qx|o12|`` or ``qx|c12|`` after a ``vg|`` header.
    """
    board_records = list(records)
    lines: list[str] = []
    roomed = [r for r in board_records if r.room is not None]
    if roomed:
        lines.extend(_write_header(roomed))
    names: list[str] = []
    for record in board_records:
        line, names = _write_board(record, names)
        lines.append(line)
    return "".join(f"{line}\n" for line in lines)


def dump(records: Iterable[BoardRecord], path: str | os.PathLike[str]) -> None:
    """Write ``records`` to a LIN file at ``path`` (UTF-8)."""
    Path(path).write_text(dumps(records), encoding="utf-8")
