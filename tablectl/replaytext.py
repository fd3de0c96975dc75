"""The plain-text report of ``tablectl replay`` (without ``--json``), for a club's scorer.

One header line per board (its number, where it is in the file, the contract in words, the
declarer, the result and North-South's score), then, indented: what happened at the table
(each irregularity in plain words with its law and where it stands), what is wrong with the
record itself (``record_faults``: its play contradicts its deal...), the replay's notes and
where the record's own tags differ from the replay; a closing summary. Built from the JSON
report alone (docs/replay-report.md): a pure function of it.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from controller import catalogue

__all__ = ["board_lines", "contract_words", "irregularity_sentence", "summary"]

SEAT_WORDS: dict[str, str] = {"N": "North", "E": "East", "S": "South", "W": "West",
                              "NS": "North-South", "EW": "East-West"}
_PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
_LHO = {"N": "E", "E": "S", "S": "W", "W": "N"}
_SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
_SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

STATUS_WORDS: dict[str, str] = {
    "played": "played out",
    "claimed": "claimed",
    "passed_out": "passed out",
    "adjusted": "result assigned",
    "redeal": "redealt",
    "incomplete": "not finished",
}
"""The board's ``status`` in words."""

IRREGULARITY_STATUS: dict[str, str] = {
    "awaiting_ruling": "waiting for a ruling",
    "accepted": "accepted by the next player's call or play",
    "waived": "waived: the player in turn called over it",
    "cancelled": "cancelled: the next player condoned it",
    "superseded": "superseded",
    "ruled": "ruled",
    "noted": "noted",
    "undone": "undone by the arbiter",
}
"""An irregularity's ``status`` in words (``controller.irregularities.Irregularity``)."""

_LIST_LIMIT = 20
"""How many of the file's skipped lines, refusals or mismatches the text lists (--json has all)."""

_SOURCE = re.compile(r"^(?P<file>.*) record (?P<record>\d+) \(line (?P<line>\d+)\)$")


# -- cards, calls, contracts ---------------------------------------------------------------------------

def _card(text: str, symbols: bool) -> str:
    try:
        return catalogue.card_words(text) if symbols else text
    except ValueError:
        return text


def _call(text: str, symbols: bool) -> str:
    try:
        return catalogue.call_words(text) if symbols else text
    except ValueError:
        return text


def contract_words(contract: str | None, declarer: str | None, symbols: bool = True) -> str:
    """``"4HX"``, ``"S"`` -> ``"4♥ doubled by South"``; ``"Pass"`` -> ``"passed out"``; None -> the
    auction is not finished. With ``symbols`` False the suits stay letters (``4H doubled``)."""
    if contract is None:
        return "auction not finished"
    if contract == "Pass":
        return "passed out"
    match = re.fullmatch(r"([1-7])(NT|N|[SHDC])(X{0,2})", contract)
    if match is None:
        words = contract
    else:
        level, strain, doubled = match.groups()
        strain = "NT" if strain in ("N", "NT") else strain
        words = _call(level + strain, symbols) + {"": "", "X": " doubled", "XX": " redoubled"}[doubled]
    return words + (f" by {SEAT_WORDS[declarer]}" if declarer in SEAT_WORDS else "")


def _result_words(entry: Mapping[str, Any]) -> str:
    """``"made (10 tricks)"``, ``"made +1 (11 tricks)"``, ``"down 2 (8 tricks)"``, or where play stopped."""
    result, tricks = entry.get("result"), entry.get("tricks")
    if result is None or tricks is None:
        played = len(entry.get("play") or ())
        if entry.get("contract") in (None, "Pass"):
            return ""
        if entry.get("status") == "redeal":
            return "redealt"
        return f"play stopped at trick {played // 4 + 1}" if played else "play not started"
    counted = f"{tricks} trick" + ("" if tricks == 1 else "s")
    if result == "=":
        return f"made ({counted})"
    if str(result).startswith("+"):
        return f"made {result} ({counted})"
    if str(result).startswith("-"):
        return f"down {str(result)[1:]} ({counted})"
    return f"{result} ({counted})"


def _score_words(score: object) -> str:
    if not isinstance(score, int):
        return "no score"
    return f"NS {score:+d}" if score else "NS 0"


# -- irregularities ------------------------------------------------------------------------------------

def _seat_token(match: re.Match[str]) -> str:
    return SEAT_WORDS[match.group(0)]


def _detail_words(detail: str, symbols: bool) -> str:
    """An irregularity's ``detail`` (``"N played CK on a spades lead"``) with seats, cards and calls
    in words (``"North played ♣K on a spades lead"``); law references (``W 45``) are left alone."""
    text = re.sub(r"\b[NESW]\b(?!\s+\d+(?:[a-z]\b|\b))", _seat_token, detail.replace("_", " "))
    text = re.sub(r"\b[SHDC][2-9TJQKA]\b", lambda m: _card(m.group(0), symbols), text)
    text = re.sub(r"\b[1-7](?:NT|[SHDC])\b", lambda m: _call(m.group(0), symbols), text)
    return re.sub(r"(?<=[a-z] )(XX|X)(?= )", lambda m: "redouble" if m.group(0) == "XX" else "double", text)


def _title(irr: Mapping[str, Any]) -> str:
    """The irregularity's plain name from the catalogue (its situation's, else its kind's)."""
    try:
        return catalogue.situation_named(str(irr.get("situation"))).title
    except catalogue.UnknownSituationError:
        kind = catalogue.kind_named(str(irr.get("kind")))
        return kind.title if kind is not None else str(irr.get("kind", "irregularity")).replace("_", " ").capitalize()


def _facts(irr: Mapping[str, Any], entry: Mapping[str, Any]) -> dict[str, str]:
    """The seats a ruling's sentence names (``controller.catalogue.PLACEHOLDERS``)."""
    facts: dict[str, str] = {}
    offender = irr.get("offender")
    if offender in _PARTNER:
        facts.update(offender=SEAT_WORDS[offender], partner=SEAT_WORDS[_PARTNER[offender]],
                     lho=SEAT_WORDS[_LHO[offender]], rho=SEAT_WORDS[_LHO[_PARTNER[offender]]])
    declarer = entry.get("declarer")
    if declarer in _PARTNER:
        facts.update(declarer=SEAT_WORDS[declarer], dummy=SEAT_WORDS[_PARTNER[declarer]],
                     defenders=SEAT_WORDS[_SIDE[_LHO[declarer]]])
    chooser = str(irr.get("chooser"))
    facts["chooser"] = SEAT_WORDS.get(chooser) or catalogue.CHOOSERS.get(chooser, chooser)
    return facts


def _ruling_words(irr: Mapping[str, Any], entry: Mapping[str, Any], code: str | None) -> str:
    """The ruling made, as the catalogue words it (``"ruled: ..."``), or its option's name."""
    ruling = irr.get("ruling")
    if not isinstance(ruling, Mapping):
        return ""
    chosen = str(ruling.get("option", ""))
    option = None
    with contextlib.suppress(catalogue.UnknownSituationError):
        option = catalogue.situation_named(str(irr.get("situation"))).option(chosen)
    if option is None:
        return f"ruled: {chosen.replace('_', ' ')}"
    args = {k: v for k, v in ruling.items() if option.arg(k) is not None}
    sentence = catalogue.render(option, _facts(irr, entry), args=args, code=code)  # the law is said before
    if sentence.startswith("The "):
        sentence = "t" + sentence[1:]
    return "ruled: " + sentence.rstrip(".")


def irregularity_sentence(irr: Mapping[str, Any], entry: Mapping[str, Any], code: str | None = None,
                          symbols: bool = True) -> str:
    """One irregularity in plain words: what, by whom, when, the law, what happened, where it stands."""
    words = _title(irr)
    offender = irr.get("offender")
    if offender in SEAT_WORDS:
        words += f" by {SEAT_WORDS[offender]}"
    trick = irr.get("trick")
    if isinstance(trick, int):
        words += f" at trick {trick}"
    elif "auction" not in words:
        words += " during the auction"
    law = catalogue.law_words(str(irr.get("law") or ""))
    if law:
        words += f" ({law})"
    detail = str(irr.get("detail") or "")
    if detail:
        words += f": {_detail_words(detail, symbols)}"
    status = str(irr.get("status") or "")
    if status == "ruled" and irr.get("ruling"):
        words += f"; {_ruling_words(irr, entry, code)}"
    elif status in IRREGULARITY_STATUS:
        words += f"; {IRREGULARITY_STATUS[status]}"
    elif status:
        words += f"; {status.replace('_', ' ')}"
    return words


# -- one board -----------------------------------------------------------------------------------------

def _where(entry: Mapping[str, Any], common_file: str | None) -> str:
    """Where the board is in its file (``record 3, line 40``), the file named unless all share it."""
    source = entry.get("source")
    if not source:
        return ""
    match = _SOURCE.match(str(source))
    if match is None:
        return str(source)
    where = f"record {match['record']}, line {match['line']}"
    return where if match["file"] == common_file else f"{match['file']} {where}"


def _header(entry: Mapping[str, Any], common_file: str | None, symbols: bool) -> str:
    number = entry.get("number")
    head = f"Board {number}" if number is not None else "A board"
    where = _where(entry, common_file)
    if where:
        head += f" ({where})"
    if "error" in entry:
        return f"{head}: not replayed: {entry['error']}"
    parts = [contract_words(entry.get("contract"), entry.get("declarer"), symbols)]
    result = _result_words(entry)
    if result:
        parts.append(result)
    parts.append(_score_words(entry.get("score_ns")))
    status = entry.get("status")
    if status == "adjusted" or (status == "claimed" and entry.get("result") is not None):
        parts.append(STATUS_WORDS[str(status)])
    return f"{head}: " + ", ".join(parts)


def _indented(label: str, items: Sequence[object], transform: Callable[[str], str] = str) -> list[str]:
    if not items:
        return []
    if len(items) == 1:
        return [f"    {label}: {transform(str(items[0]))}"]
    return [f"    {label}:"] + [f"      - {transform(str(item))}" for item in items]


def board_lines(entry: Mapping[str, Any], code: str | None = None, common_file: str | None = None,
                symbols: bool = True) -> list[str]:
    """The lines of one board: its header, then indented its irregularities, the rulings' notes,
    the penalty cards left, the record's faults, the replay's notes and the record's differences."""
    lines = [_header(entry, common_file, symbols)]
    for irr in entry.get("irregularities") or ():
        number = f" {irr['id']}" if isinstance(irr.get("id"), int) else ""
        lines.append(f"    irregularity{number}: {irregularity_sentence(irr, entry, code, symbols)}")
    lines += _indented("rulings", list(entry.get("rulings_notes") or ()))
    for pc in entry.get("penalty_cards") or ():
        kind = "major" if pc.get("major") else "minor"
        lines.append(f"    penalty card left on the table: {SEAT_WORDS.get(pc.get('seat'), pc.get('seat'))}'s "
                     f"{_card(str(pc.get('card')), symbols)} ({kind})")
    lines += _indented("record faults", list(entry.get("record_faults") or ()))
    lines += _indented("notes", list(entry.get("notes") or ()))
    differences = list(entry.get("differences") or ())
    for mark in entry.get("marks") or ():
        if not mark.get("detected"):
            differences.append(f"the record marks a revoke by {SEAT_WORDS.get(mark.get('seat'), mark.get('seat'))} "
                               f"with {_card(str(mark.get('card')), symbols)} at trick {mark.get('trick')} that the "
                               "replay does not find")
    lines += _indented("the record's own tags differ (its auction and play decide)", differences)
    return lines


# -- the whole report ----------------------------------------------------------------------------------

def _common_file(boards: Sequence[Mapping[str, Any]]) -> str | None:
    files = {m["file"] for b in boards if (m := _SOURCE.match(str(b.get("source") or ""))) is not None}
    return files.pop() if len(files) == 1 else None


def _listed(label: str, items: Sequence[object]) -> list[str]:
    if not items:
        return []
    lines = [f"{label} ({len(items)}):"] + [f"    {item}" for item in items[:_LIST_LIMIT]]
    if len(items) > _LIST_LIMIT:
        lines.append(f"    ... and {len(items) - _LIST_LIMIT} more (--json lists them all)")
    return lines


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _closing(report: Mapping[str, Any]) -> list[str]:
    boards = list(report.get("boards") or ())
    session = report.get("session") or {}
    not_replayed = sum(1 for b in boards if "error" in b)
    scored = sum(1 for b in boards if isinstance(b.get("score_ns"), int))
    unfinished = len(boards) - not_replayed - scored
    irregularities = sum(len(b.get("irregularities") or ()) for b in boards)
    with_irregularities = sum(1 for b in boards if b.get("irregularities"))
    faulty = sum(1 for b in boards if b.get("record_faults"))
    parts = [f"{scored} scored"]
    if unfinished:
        parts.append(f"{unfinished} not finished")
    if not_replayed:
        parts.append(f"{not_replayed} not replayed")
    line = f"{_count(len(boards), 'board')}: " + ", ".join(parts)
    line += f"; {_count(irregularities, 'irregularity', 'irregularities')}"
    if irregularities:
        line += f" on {_count(with_irregularities, 'board')}"
    if faulty:
        line += f"; {_count(faulty, 'record')} faulty in {'itself' if faulty == 1 else 'themselves'}"
    total = session.get("total_ns")
    code = session.get("code")
    closing = [line]
    if isinstance(total, int):
        closing.append(f"North-South total: {total:+d}" if total else "North-South total: 0")
        closing[-1] += f" ({code} scoring)" if code else ""
    return closing


def summary(report: Mapping[str, Any], symbols: bool = True) -> str:
    """The report as text: the file's name once when all its boards come from it, each board's
    lines (``board_lines``), the lines skipped, the actions refused, and the closing summary.
    ``symbols``: suits as ♠♥♦♣ (else as the letters S H D C)."""
    boards = list(report.get("boards") or ())
    code = (report.get("session") or {}).get("code")
    common = _common_file(boards)
    lines = [f"{common}:"] if common else []
    for entry in boards:
        lines += board_lines(entry, code, common, symbols)
    lines += _listed("Unreadable lines skipped", list(report.get("errors") or ()))
    lines += _listed("Actions the table refused", list(report.get("rejected") or ()))
    lines += _listed("Differences between the table as stored and its inputs, which decide",
                     list(report.get("mismatches") or ()))
    lines += _closing(report)
    return "\n".join(lines)
