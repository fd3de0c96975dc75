"""The words a player or the arbiter reads about an irregularity, a held call and a restriction.

Each line names the seat, the call or card, and what follows, in plain words: "Lead option after
a withdrawn call (East) - North forbids West to lead ♠ for as long as he keeps the lead (Law 26B)."
The sentences are the catalogue's (``controller.catalogue``: each option's sentence, filled with
this irregularity's seats, call and card by ``facts``); this module only puts them together, so
that the pages draw words and never make them up. Pure: the state in, strings out.

A line for the players (``public=True``) names a card only when it lies face up on the table:
never a face-down opening lead (``held_card_public``); the irregularity's ``detail`` (which may
describe a concealed hand) is never used.
"""

from __future__ import annotations

import re

from controller import catalogue
from controller import rulings as r
from controller.cards import Card, Suit
from controller.irregularities import Irregularity
from controller.rulings import Held, Obligation
from controller.table import BoardState, TableState

__all__ = [
    "SEAT_WORDS",
    "board_of",
    "facts",
    "held_call_line",
    "held_card_public",
    "held_of",
    "irregularity_line",
    "restriction_line",
    "ruling_sentence",
    "situation_of",
]

SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West", "NS": "North-South", "EW": "East-West",
              "arbiter": "the arbiter", "none": "nobody"}

_SUIT_NAMES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}

_STATUS_WORDS = {
    "waived": "waived: the player in turn called over it, and it is cancelled (Law 28B)",
    "superseded": "it no longer counts: the call or card in turn came first",
    "cancelled": "cancelled with the calls after it",
    "noted": "recorded, no rectification",
    "undone": "the ruling was undone: waiting for a new one",
    "accepted": "accepted",
    "ruled": "ruled",
}


def situation_of(irr: Irregularity) -> catalogue.Situation | None:
    """The catalogue row of ``irr`` (None for a situation the catalogue does not have)."""
    try:
        return catalogue.situation_named(irr.situation)
    except catalogue.UnknownSituationError:
        return None


def board_of(state: TableState, irr: Irregularity) -> BoardState | None:
    """The board ``irr`` was raised on, in progress or finished (None: no longer kept)."""
    board = state.board
    if board is not None and irr.id in board.irregularity_ids:
        return board
    for outcome in reversed(state.boards):
        if irr.id in outcome.board.irregularity_ids:
            return outcome.board
    return board


def held_of(state: TableState, irr: Irregularity) -> Held | None:
    """The call or card ``irr`` holds aside, or held before its ruling (the state kept for Law 82)."""
    board = board_of(state, irr)
    for candidate in (board, *(b.board for i, b in reversed(state.before_ruling) if i == irr.id)):
        if candidate is not None:
            held = next((h for h in candidate.held if h.source == irr.id), None)
            if held is not None:
                return held
    return None


def held_card_public(state: TableState, board: BoardState, held: Held) -> bool:
    """A card held aside lies face up on the table, unless it is a face-down opening lead."""
    play = board.play
    if held.card is None:
        return False
    return not (state.policy.face_down_opening_lead and play is not None
                and not play.tricks and not play.current.cards)


def facts(state: TableState, irr: Irregularity, public: bool = False) -> dict[str, str]:
    """The seats, card and call a sentence names for ``irr`` (``controller.catalogue.PLACEHOLDERS``);
    ``public``: only a card that lies face up on the table."""
    out: dict[str, str] = {}
    offender = irr.offender
    if offender is not None:
        for key, seat in (("offender", offender), ("partner", offender.partner), ("lho", offender.lho),
                          ("rho", offender.rho)):
            out[key] = SEAT_WORDS[str(seat)]
    board = board_of(state, irr)
    contract = board.contract if board is not None else None
    if contract is not None:
        out["declarer"] = SEAT_WORDS[str(contract.declarer)]
        out["dummy"] = SEAT_WORDS[str(contract.declarer.partner)]
        out["defenders"] = SEAT_WORDS[str(contract.declarer.lho.side)]
    out["chooser"] = SEAT_WORDS.get(irr.chooser, irr.chooser)
    held = held_of(state, irr)
    cards: list[Card] = []
    if held is not None and held.card is not None:
        if not public or (board is not None and held_card_public(state, board, held)):
            cards = [held.card]
    elif board is not None:
        cards = [c for _, c, _, src in board.exposed if src == irr.id] or [
            pc.card for pc in board.penalty_cards if pc.source == irr.id or (
                irr.situation == "major_pc_partner_on_lead" and pc.seat is offender and pc.major)]
    if cards:
        out["card"] = " ".join(catalogue.card_words(c) for c in cards)
    if held is not None and held.call is not None:
        out["call"] = catalogue.call_words(held.call)
    return out


def ruling_sentence(state: TableState, irr: Irregularity, public: bool = False) -> str | None:
    """The ruling made on ``irr`` as a plain sentence with its arguments (None: no ruling, or an
    option the catalogue does not give this situation, e.g. a call out of rotation waived)."""
    entry = situation_of(irr)
    ruling = dict(irr.ruling or ())
    option = entry.option(str(ruling.get("option"))) if entry is not None and ruling else None
    if option is None:
        return None
    args = {k: v for k, v in ruling.items() if option.arg(k) is not None}
    return catalogue.render(option, facts(state, irr, public), irr.law, args=args, code=state.code.name)


def _title(irr: Irregularity, named: dict[str, str]) -> str:
    """The situation's title with the seats for the roles it names ("at RHO's turn" -> "at East's turn")."""
    entry = situation_of(irr)
    kind = catalogue.kind_named(irr.kind)
    title = entry.title if entry is not None else kind.title if kind is not None else irr.kind.replace("_", " ")
    for role, key in (("RHO", "rho"), ("LHO", "lho"), ("partner", "partner")):
        if key in named:
            title = re.sub(rf"\b{role}'s turn\b", f"{named[key]}'s turn", title)
    return title


def _chooser(state: TableState, irr: Irregularity) -> str:
    """Who is to choose, in words: "the arbiter", "North (declarer)"."""
    who = SEAT_WORDS.get(irr.chooser, irr.chooser)
    board = board_of(state, irr)
    if board is not None and board.contract is not None and irr.chooser == str(board.contract.declarer):
        who += " (declarer)"
    return who


def irregularity_line(state: TableState, irr: Irregularity, public: bool = True) -> str:
    """The line a player reads about ``irr``: what happened and by whom, the call or card, and what
    follows: the ruling in the catalogue's words, or who is to choose.

    E.g. "Pass out of rotation at East's turn (South: pass) \u2014 Waiting for West to choose (Law 30A)."
    """
    named = facts(state, irr, public)
    title = _title(irr, named)
    held = held_of(state, irr)
    # the call or card is the offender's (a lead held for a lead restriction is his partner's)
    shown = named.get("call") or named.get("card") if held is None or held.seat is irr.offender else None
    who = (named["offender"] + (f": {shown}" if shown else "")) if irr.offender is not None else shown
    if who and title.endswith(")"):  # "Comparable call? (the call replacing a cancelled one; East: pass)"
        what = f"{title[:-1]}; {who})"
    else:
        what = f"{title} ({who})" if who else title
    said = ruling_sentence(state, irr, public)
    law = catalogue.law_words(irr.law)
    where = f" ({law})" if law else ""
    if said is None:
        if irr.status == "awaiting_ruling":
            verb = "to rule" if irr.chooser == "arbiter" else "to choose"
            said = f"Waiting for {_chooser(state, irr)} {verb}{where}."
        else:
            words = _STATUS_WORDS.get(irr.status, irr.status.replace("_", " "))
            said = words[:1].upper() + words[1:] + ("" if "(Law" in words else where) + "."
    return f"{what} \u2014 {said}"


def held_call_line(state: TableState, held: Held) -> str:
    """A call held aside until a ruling, in words: "South's pass is held aside until the ruling
    (Pass out of rotation at East's turn)"."""
    who = SEAT_WORDS[str(held.seat)]
    call = catalogue.call_words(held.call) if held.call is not None else "call"
    irr = state.irregularity(held.source)
    why = f" ({_title(irr, facts(state, irr, True))})" if irr is not None else ""
    return f"{who}'s {call} is held aside until the ruling{why}"


def _suits(suits: tuple[Suit, ...], article: bool = True) -> str:
    names = [("a " if article else "") + _SUIT_NAMES[str(s)] + f" ({s.symbol})" for s in suits]
    return " or ".join(names)


def _lead_option(state: TableState, who: str, declarer: str, suits: tuple[Suit, ...]) -> str:
    """Declarer's lead option after a withdrawn call (Law 26; 2017 Law 26B: forbid only)."""
    start = f"when {who} first has the lead, {declarer} (declarer) may"
    if suits and not state.code.rules.lead_restriction_prohibit_only:
        return f"{start} require or forbid {_suits(suits)}"
    if len(suits) > 1:
        return f"{start} forbid him to lead one of these suits: " + ", ".join(
            f"{_SUIT_NAMES[str(x)]}s ({x.symbol})" for x in suits)
    return f"{start} forbid him to lead " + (_suits(suits) if suits else "one suit")


def restriction_line(state: TableState, board: BoardState, ob: Obligation) -> str:
    """What a seat must or may not do, in words, with the law of the irregularity it comes from:
    "West may not lead a spade (♠) for as long as he keeps the lead (Law 26B)"."""
    who = SEAT_WORDS[str(ob.seat)]
    call = catalogue.call_words(ob.call) if ob.call is not None else "the call"
    suits = _suits(ob.suits)
    declarer = SEAT_WORDS[str(board.contract.declarer)] if board.contract is not None else "declarer"
    text = {
        r.PASS_ONCE: f"{who} must pass at his next turn",
        r.PASS_ALL: f"{who} must pass for the rest of the auction",
        r.NO_X_NOW: f"{who} may not double or redouble at this turn",
        r.NO_X_SAME: f"{who} may not double or redouble {call} again",
        r.REPEAT: f"{who} must repeat {call}",
        r.REPLACE_CALL: f"{who}'s next call replaces the cancelled {call}",
        r.OOR_BID_RHO: f"{who}'s {call} is cancelled: if {SEAT_WORDS[str(ob.seat.rho)]} passes, {who} must repeat it",
        r.OOR_DOUBLE_RHO: f"{who}'s {call} is cancelled: if {SEAT_WORDS[str(ob.seat.rho)]} passes, {who} must "
                          "repeat it",
        r.OOR_REPLACEMENT: f"{who}'s next call replaces the cancelled {call}",
        r.LEAD_OPT_26: _lead_option(state, who, declarer, ob.suits),
        r.LEAD_REQ: f"{who} must lead {suits}" if suits else f"{who} must lead the suit declarer names",
        r.LEAD_BAN: f"{who} may not lead {suits} for as long as he keeps the lead" if suits
                    else f"{who} may not lead the suit declarer names",
        r.PLAY_OPT_57: {
            "highest": f"{who} must play his highest card of the suit led to this trick",
            "lowest": f"{who} must play his lowest card of the suit led to this trick",
            "forbid": f"{who} may not play {suits} to this trick",
            "require": f"{who} must play {suits} to this trick",
        }.get(ob.mode, f"{who} plays to this trick as declarer chose"),
    }.get(ob.kind, f"{who}: {ob.kind.replace('_', ' ')}")
    text = text[:1].upper() + text[1:]
    source = state.irregularity(ob.source)
    law = catalogue.law_words(source.law) if source is not None else ""
    return text + (f" ({law})" if law else "")
