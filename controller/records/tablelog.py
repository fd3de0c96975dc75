"""The JSON Lines table log (docs/table-log.md): read and write.

One object per line: ``t`` (seconds) and one action. A malformed line is reported with its
line number and skipped; the lines around it are still read (tolerant reader).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller import actions as a
from controller.calls import Call, Denomination
from controller.cards import Card
from controller.codes import LOG_DEFAULT_CODE
from controller.contract import Contract
from controller.deal import Deal
from controller.errors import BridgeTableError, RecordError
from controller.records import jsontext
from controller.seats import Seat, Vulnerability

__all__ = ["LogLine", "action_to_json", "correction_json", "dump", "dumps", "load", "loads", "parse_line"]


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of a table log: its number, and the action or the reason it was refused."""

    line: int
    action: a.Action | None
    error: str | None = None


def _seat(obj: dict[str, Any]) -> Seat:
    if "seat" not in obj:
        raise RecordError("missing 'seat'")
    return Seat.parse(str(obj["seat"]))


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{what} must be a whole number, not {value!r}")
    return value


def _board(spec: Any, t: float) -> a.BoardStart:
    if not isinstance(spec, dict):
        raise RecordError("'board' must be an object")
    number = spec.get("number")
    dealer = spec.get("dealer")
    vul = spec.get("vul")
    deal = spec.get("deal")
    return a.BoardStart(
        number=None if number is None else _int(number, "board number"),
        dealer=None if dealer is None else Seat.parse(str(dealer)),
        vulnerability=None if vul is None else Vulnerability.parse(str(vul)),
        deal=None if deal is None else Deal.parse(str(deal)),
        t=t)


def _ruling(spec: Any, t: float) -> a.Ruling:
    if not isinstance(spec, dict) or not isinstance(spec.get("option"), str):
        raise RecordError("'ruling' must be an object with an 'option'")
    id_ = spec.get("id")
    args = tuple((k, v) for k, v in spec.items() if k not in ("id", "option"))
    return a.Ruling(spec["option"], None if id_ is None else _int(id_, "ruling id"), args, t)


def _session(spec: Any, t: float) -> a.SessionStart:
    if not isinstance(spec, dict):
        raise RecordError("'session' must be an object")
    code = spec.get("code", LOG_DEFAULT_CODE)
    settings = tuple((k, v) for k, v in spec.items() if k != "code")
    return a.SessionStart(str(code), settings, t)


def _text(spec: dict[str, Any], key: str, what: str) -> str:
    value = spec.get(key)
    if not isinstance(value, str) or not value.strip():
        raise RecordError(f"{what} must be a non-empty text, not {value!r}")
    return value


def _correction(spec: Any, t: float) -> a.CorrectResult:
    """``{"entry", "board", "contract", "declarer", "tricks", "lead", "by", "reason", "made"}``."""
    if not isinstance(spec, dict):
        raise RecordError("'correction' must be an object")
    contract_text = _text(spec, "contract", "the corrected contract")
    contract: Contract | None = None
    tricks = 0
    lead = None
    if contract_text.strip().upper() != "PASS":
        contract = Contract.parse(contract_text, Seat.parse(_text(spec, "declarer", "the corrected declarer")))
        tricks = _int(spec.get("tricks"), "corrected tricks")
        if not 0 <= tricks <= 13:
            raise RecordError(f"corrected tricks are 0 to 13, not {tricks}")
        if spec.get("lead") is not None:
            lead = Card.parse(str(spec["lead"]))
    return a.CorrectResult(_int(spec.get("entry"), "correction entry"), _int(spec.get("board"), "corrected board"),
                           contract, tricks, lead, _text(spec, "by", "who corrected ('by')"),
                           _text(spec, "reason", "why ('reason')"), _text(spec, "made", "when ('made')"), t)


def _undo_correction(spec: Any, t: float) -> a.UndoCorrection:
    if not isinstance(spec, dict):
        raise RecordError("'undo_correction' must be an object")
    return a.UndoCorrection(_int(spec.get("entry"), "undo entry"), _int(spec.get("undoes"), "undone correction"),
                            _text(spec, "by", "who took it back ('by')"), _text(spec, "reason", "why ('reason')"),
                            _text(spec, "made", "when ('made')"), t)


def _declare(value: Any) -> Denomination | None:
    text = str(value)
    return None if text.lower() == "pass" else Denomination.parse(text)


def action_of(obj: Any) -> a.Action:
    """The action of one decoded log object; raises RecordError (or NotationError) if malformed."""
    if not isinstance(obj, dict):
        raise RecordError("a log line must be a JSON object")
    t = obj.get("t", 0.0)
    if isinstance(t, bool) or not isinstance(t, int | float):
        raise RecordError(f"'t' must be a number of seconds, not {t!r}")
    try:
        t = float(t)
    except OverflowError:
        raise RecordError(f"'t' must be a number of seconds, not a number of {len(str(abs(t))):,} digits") from None
    if not math.isfinite(t):
        raise RecordError(f"'t' must be a number of seconds, not {t!r}")
    if "session" in obj:
        return _session(obj["session"], t)
    if "board" in obj:
        return _board(obj["board"], t)
    if "ruling" in obj:
        return _ruling(obj["ruling"], t)
    if "undo_ruling" in obj:
        return a.UndoRuling(_int(obj["undo_ruling"], "undone ruling id"), t)
    if "correction" in obj:
        return _correction(obj["correction"], t)
    if "undo_correction" in obj:
        return _undo_correction(obj["undo_correction"], t)
    if "adjust" in obj:
        spec = obj["adjust"]
        if not isinstance(spec, dict):
            raise RecordError("'adjust' must be an object with 'tricks'")
        return a.Adjust(_int(spec.get("tricks"), "adjusted tricks"), t)
    seat = _seat(obj)
    if "call" in obj:
        return a.MakeCall(seat, Call.parse(str(obj["call"])), t)
    if "play" in obj:
        how = "deemed" if obj.get("deemed") is True else ""
        return a.PlayCard(seat, Card.parse(str(obj["play"])), t, how)
    if "designate" in obj:
        return a.PlayCard(seat, Card.parse(str(obj["designate"])), t, "designated")
    if "expose" in obj:
        return a.ExposeCard(seat, Card.parse(str(obj["expose"])), obj.get("deliberate") is True, t)
    if "face" in obj:
        cards = obj["face"]
        if not isinstance(cards, list):
            raise RecordError("'face' must be a list of cards")
        return a.FaceCards(seat, tuple(Card.parse(str(c)) for c in cards), t)
    if "pickup" in obj:
        return a.PickUp(seat, Card.parse(str(obj["pickup"])), t)
    if "claim" in obj:
        statement = obj.get("statement", "")
        return a.Claim(seat, _int(obj["claim"], "claimed tricks"), t,
                       statement if isinstance(statement, str) else str(statement))
    if "concede" in obj:
        return a.Concede(seat, _int(obj["concede"], "conceded tricks"), t)
    if obj.get("agree") is True:
        return a.Agree(seat, t)
    if obj.get("agree") is False:
        return a.Dispute(seat, t)
    if obj.get("stop") is True:
        return a.StopCard(seat, t)
    if obj.get("alert") is True:
        return a.AlertCard(seat, t)
    if obj.get("director") is True:
        return a.CallDirector(seat, t)
    if "declare" in obj:
        return a.Declare(seat, _declare(obj["declare"]), t)
    if obj.get("double") is True:
        return a.DoubleDeclaration(seat, t)
    if obj.get("satisfied") is True:
        return a.Satisfied(seat, t)
    keys = ", ".join(sorted(k for k in obj if k not in ("t", "seat"))) or "nothing"
    raise RecordError(f"no known action in this line (found {keys})")


def parse_line(text: str, line: int) -> LogLine:
    """Parse one line; the error names the line and what is wrong.

    The line must be exactly JSON (``jsontext``: no NaN, no lone surrogate, nothing nested
    too deeply, no integer of thousands of digits); bytes that were not UTF-8 (``load`` keeps
    them as ``surrogateescape`` characters) are reported with the byte and its column.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        what = f"byte 0x{code - 0xDC00:02x} is not UTF-8" if 0xDC80 <= code <= 0xDCFF else \
            f"character \\u{code:04x} is not text"
        return LogLine(line, None, f"line {line}: {what} (column {exc.start + 1})")
    try:
        obj = jsontext.loads(text)
    except json.JSONDecodeError as exc:
        return LogLine(line, None, f"line {line}: not JSON ({exc.msg})")
    try:
        return LogLine(line, action_of(obj))
    except (BridgeTableError, ValueError) as exc:
        return LogLine(line, None, f"line {line}: {exc}")


def loads(text: str) -> list[LogLine]:
    """Every non-blank line of a table log, parsed or with its error."""
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        if raw.strip():
            out.append(parse_line(raw, number))
    return out


def load(path: str | Path) -> list[LogLine]:
    """The lines of the table log file at ``path`` (UTF-8; a line that is not is an error of that line)."""
    return loads(Path(path).read_bytes().decode("utf-8", "surrogateescape"))


def _t(value: float) -> float | int:
    return int(value) if value == int(value) else round(value, 3)


def action_to_json(action: a.Action) -> dict[str, Any]:
    """The log object of an action (the inverse of ``action_of``)."""
    t = _t(action.t)
    if isinstance(action, a.SessionStart):
        return {"t": t, "session": {"code": action.code, **dict(action.settings)}}
    if isinstance(action, a.BoardStart):
        spec: dict[str, Any] = {}
        if action.number is not None:
            spec["number"] = action.number
        if action.dealer is not None:
            spec["dealer"] = str(action.dealer)
        if action.vulnerability is not None:
            spec["vul"] = str(action.vulnerability)
        if action.deal is not None:
            spec["deal"] = action.deal.pbn()
        return {"t": t, "board": spec}
    if isinstance(action, a.Ruling):
        ruling: dict[str, Any] = {"option": action.option, **dict(action.args)}
        if action.id is not None:
            ruling = {"id": action.id, **ruling}
        return {"t": t, "ruling": ruling}
    if isinstance(action, a.Adjust):
        return {"t": t, "adjust": {"tricks": action.tricks}}
    if isinstance(action, a.UndoRuling):
        return {"t": t, "undo_ruling": action.id}
    if isinstance(action, a.CorrectResult):
        return {"t": t, "correction": correction_json(action)}
    if isinstance(action, a.UndoCorrection):
        return {"t": t, "undo_correction": {"entry": action.entry, "undoes": action.undoes, "by": action.by,
                                            "reason": action.reason, "made": action.made}}
    seat = str(action.seat)
    body: dict[str, Any]
    if isinstance(action, a.MakeCall):
        body = {"call": str(action.call)}
    elif isinstance(action, a.PlayCard):
        if action.how == "designated":
            body = {"designate": str(action.card)}
        else:
            body = {"play": str(action.card)} | ({"deemed": True} if action.how == "deemed" else {})
    elif isinstance(action, a.ExposeCard):
        body = {"expose": str(action.card)} | ({"deliberate": True} if action.deliberate else {})
    elif isinstance(action, a.Dispute):
        body = {"agree": False}
    elif isinstance(action, a.FaceCards):
        body = {"face": [str(c) for c in action.cards]}
    elif isinstance(action, a.PickUp):
        body = {"pickup": str(action.card)}
    elif isinstance(action, a.Claim):
        body = {"claim": action.tricks} | ({"statement": action.statement} if action.statement else {})
    elif isinstance(action, a.Concede):
        body = {"concede": action.tricks}
    elif isinstance(action, a.Agree):
        body = {"agree": True}
    elif isinstance(action, a.StopCard):
        body = {"stop": True}
    elif isinstance(action, a.AlertCard):
        body = {"alert": True}
    elif isinstance(action, a.CallDirector):
        body = {"director": True}
    elif isinstance(action, a.Declare):
        body = {"declare": "pass" if action.denomination is None else str(action.denomination)}
    elif isinstance(action, a.DoubleDeclaration):
        body = {"double": True}
    else:
        body = {"satisfied": True}
    return {"t": t, "seat": seat, **body}


def correction_json(action: a.CorrectResult) -> dict[str, Any]:
    """The ``correction`` object of a correction (docs/table-log.md)."""
    c = action.contract
    out: dict[str, Any] = {"entry": action.entry, "board": action.board, "contract": "Pass" if c is None else c.text}
    if c is not None:
        out |= {"declarer": str(c.declarer), "tricks": action.tricks}
        if action.lead is not None:
            out["lead"] = str(action.lead)
    return out | {"by": action.by, "reason": action.reason, "made": action.made}


def dumps(actions: Iterable[a.Action]) -> str:
    """The table log text of ``actions``, one JSON object per line."""
    return "".join(json.dumps(action_to_json(x), separators=(", ", ": ")) + "\n"
                   for x in actions)


def dump(actions: Iterable[a.Action], path: str | Path) -> None:
    Path(path).write_text(dumps(actions), encoding="utf-8")
