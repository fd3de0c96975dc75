"""What each audience may see of the table, as JSON-ready dicts (who may see what).

One file on purpose (over 600 lines): every decision of who sees which card is here, so that
it is reviewed in one place and no view can leak what another hides.

Pure: the state in, plain dicts out; no clock (the caller passes ``now``), no I/O.

**Public** (``table_view`` for the players, ``spectator_view`` for the room) names a card
only when the play has shown it to everybody:

- a card played (a card led face down under ``face_down_opening_lead`` only once the lead is
  faced: dummy spreads or the next card is played, Law 41 and the ACBL regulation);
- a card held aside for a ruling (a lead out of turn lies face up on the table), except a
  face-down opening lead;
- dummy's cards still unplayed, once the opening lead is faced (Law 41D);
- cards faced on a spread zone (a claim, Law 68; cards dropped face up), cards exposed
  during the auction (Law 24) and penalty cards (Law 50).

The public part of an irregularity is its ``id``, ``kind``, ``law``, ``offender``, ``status``,
the option and suit or tricks of its ruling, and ``text``: the line the players read
(``controller.tablewords``: the situation's title with the seats, the call or a card that lies
face up, and the catalogue's sentence of the ruling or who is to choose); never its ``detail``
(it may describe a concealed hand), never a tempo irregularity (Laws 16, 73: the arbiter's
business), and only once the table knows of it: the club told the table (``notify`` is
``table``), the table waits for it (its call or card is held aside, or a claim), or it is
settled. An irregularity nobody has noticed (a revoke before it is established) stays with
the arbiter: telling the table would change the game (docs/irregularities.md, club settings). Whole deals,
hands, legal cards, think times and claim statements are the arbiter's only.

**Arbiter** (``arbiter_view``) sees everything: the deal and the hands remaining, the
irregularities with law, chooser, options and the arguments each option needs, rulings,
enforcement objects, the timeline with think times and hesitations, the score sheet of the
code, device health and notices; ``claim_help_view`` adds the double-dummy claim help.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from controller import catalogue
from controller import rulings as r
from controller.cards import SUITS, Card, Suit
from controller.codes import Sheet
from controller.irregularities import Irregularity
from controller.play import Play, Trick
from controller.seats import SEATS, Seat, Side
from controller.sensing.events import DeviceHealth
from controller.sensing.translate import Notice
from controller.table import BoardOutcome, BoardState, Phase, TableState, think_times
from controller.table.corrections import corrected_fields
from controller.tablewords import (
    board_of,
    facts,
    held_call_line,
    held_card_public,
    held_of,
    irregularity_line,
    restriction_line,
    ruling_sentence,
    situation_of,
)
from controller.tempo import ActKind

__all__ = [
    "OPTION_ARGS",
    "arbiter_view",
    "claim_help_view",
    "option_args",
    "option_sentences",
    "public_cards",
    "public_irregularity",
    "ruling_sentence",
    "spectator_view",
    "table_view",
]

Json = dict[str, Any]

OPTION_ARGS: dict[str, tuple[Json, ...]] = {
    option: tuple({"name": a.name, "type": a.type, "required": a.required, "label": a.label} for a in args.values())
    for option, args in catalogue.args_of_option().items() if args
}
"""Every argument an option code takes in some situation (``controller.catalogue``; ``option_args``
gives those of one irregularity)."""

_TEMPO = "tempo"


# --- what is public ------------------------------------------------------------------------

def _lead_faced(state: TableState, board: BoardState) -> bool:
    """Whether the opening lead has been faced (Law 41: dummy's cards become public then)."""
    play = board.play
    if play is None or (not play.tricks and not play.current.cards):
        return False
    if not state.policy.face_down_opening_lead:
        return True
    played = len(play.tricks) * 4 + len(play.current.cards)
    return played >= 2 or any(s is play.dummy for s, _ in board.faced)


def _face_down_lead(state: TableState, board: BoardState) -> bool:
    """True while the only card of the play is an opening lead still face down."""
    play = board.play
    return play is not None and bool(play.current.cards or play.tricks) and not _lead_faced(state, board)


def _dummy_cards(state: TableState, board: BoardState) -> tuple[Card, ...] | None:
    """Dummy's unplayed cards once the opening lead is faced (Law 41D), high to low."""
    play = board.play
    if play is None or not _lead_faced(state, board):
        return None
    hand = play.hands[play.dummy]
    if hand is None:
        return None
    return tuple(sorted(hand, reverse=True))


def _unplayed(board: BoardState, cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(c for c in cards if not board.played & (1 << c.index))


def public_cards(state: TableState) -> frozenset[Card]:
    """Every card a table or spectator payload may name now (the module docstring's rules)."""
    board = state.board
    if board is None:
        return frozenset()
    out: set[Card] = set()
    play = board.play
    if play is not None:
        played = play.played_cards()
        out.update(played[1:] if _face_down_lead(state, board) else played)
    out.update(h.card for h in board.held if h.card is not None and held_card_public(state, board, h))
    out.update(_dummy_cards(state, board) or ())
    for _, cards in board.faced:
        out.update(cards)
    out.update(c for _, c, _, _ in board.exposed)
    out.update(pc.card for pc in board.penalty_cards)
    return frozenset(out)


def _known_to_table(state: TableState, board: BoardState | None, irr: Irregularity) -> bool:
    if irr.kind == _TEMPO:
        return False
    if irr.notify == "table" or irr.status != "awaiting_ruling" or irr.kind == "claim":
        return True
    return board is not None and any(h.source == irr.id for h in board.held)


def _public_ruling(irr: Irregularity) -> Json | None:
    if irr.ruling is None:
        return None
    ruling = dict(irr.ruling)
    out: Json = {"option": ruling.get("option")}
    for key in ("suit", "tricks", "by"):
        value = ruling.get(key)
        if isinstance(value, str | int) and not isinstance(value, bool):
            out[key] = value
    return out


def _kind_title(kind: str) -> str:
    """The kind's plain title (docs/irregularities.md, ``controller.catalogue``): "Penalty card"."""
    found = catalogue.kind_named(kind)
    return found.title if found is not None else kind.replace("_", " ")


def public_irregularity(state: TableState, irr: Irregularity) -> Json:
    """The public part of an irregularity: id, kind and its plain title, law, offender, status,
    ruling option, and ``text``: the line the players read (seat, call or card, and what follows,
    in the catalogue's words: ``controller.tablewords``)."""
    return {"id": irr.id, "kind": irr.kind, "title": _kind_title(irr.kind), "law": irr.law,
            "offender": None if irr.offender is None else str(irr.offender),
            "status": irr.status, "board": irr.board, "ruling": _public_ruling(irr),
            "text": irregularity_line(state, irr)}


# --- building blocks -----------------------------------------------------------------------

def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _trick(trick: Trick, hide_first: bool = False) -> Json:
    cards: list[Json] = []
    for i, card in enumerate(trick.cards):
        if i == 0 and hide_first:
            cards.append({"seat": str(trick.seat_of(i)), "card": None, "face_down": True})
        else:
            cards.append({"seat": str(trick.seat_of(i)), "card": str(card)})
    out: Json = {"leader": str(trick.leader), "cards": cards}
    if trick.winner is not None:
        out["winner"] = str(trick.winner)
    return out


def _won(play: Play | None) -> Json:
    won = play.won if play is not None else (0, 0)
    return {"NS": won[Side.NS], "EW": won[Side.EW]}


def _outcome_of(state: TableState, board: BoardState) -> BoardOutcome | None:
    for outcome in reversed(state.boards):
        if outcome.board.index == board.index:
            return outcome
    return None


def _result(outcome: BoardOutcome, state: TableState) -> Json:
    """A finished board's result as it stands: the Director's correction when one stands (Law 79C),
    with ``original`` and ``corrections`` (``controller.table.corrections``)."""
    b = outcome.board
    return corrected_fields(outcome, state, {
        "index": b.index, "number": b.number, "contract": b.contract_text,
        "declarer": None if b.contract is None else str(b.contract.declarer),
        "vul": str(b.vulnerability), "status": outcome.status, "tricks": outcome.tricks,
        "result": outcome.result, "score_ns": outcome.score_ns})


def _sheet(state: TableState) -> Json:
    """The score sheet of the code in force: entries, totals, and what the code keeps."""
    sheet: Sheet = state.sheet
    out: Json = {
        "code": state.code.name, "total_ns": sheet.total_ns, "deals": sheet.deals,
        "duplicated_boards": state.code.rules.duplicated_boards,
        "totals": {"NS": sheet.total(Side.NS), "EW": sheet.total(Side.EW)},
        "entries": [{"deal": e.deal, "side": str(e.side), "points": e.points, "below": e.below,
                     "label": e.label} for e in sheet.entries],
    }
    for name in ("games", "below"):
        pair = getattr(sheet, name, None)
        if isinstance(pair, tuple) and len(pair) == 2:
            out[name] = {"NS": pair[0], "EW": pair[1]}
    for name in ("rubbers", "series", "played", "rubber_ended"):
        value = getattr(sheet, name, None)
        if isinstance(value, int | bool):
            out[name] = value
    in_series = getattr(sheet, "deal_in_series", None)
    if isinstance(in_series, int):
        out["deal_in_series"] = in_series
    vul = getattr(sheet, "vulnerability", None)
    if vul is not None:
        out["vulnerability"] = str(vul)
    out["boards"] = [_result(o, state) for o in state.boards]
    if state.code.rules.duplicated_boards and state.boards:
        last = out["boards"][-1]  # as it stands: the Director's correction when one stands (Law 79C)
        out["board_score"] = {"number": last["number"], "score_ns": last["score_ns"],
                              "score_ew": None if last["score_ns"] is None else -last["score_ns"]}
    return out


def _public_board(state: TableState, board: BoardState, history: bool) -> Json:
    play = board.play
    hide = _face_down_lead(state, board)
    held_calls = [{"seat": str(h.seat), "call": str(h.call), "text": held_call_line(state, h)}
                  for h in board.held if h.call is not None]
    held_cards = [{"seat": str(h.seat), "card": str(h.card)} for h in board.held
                  if h.card is not None and held_card_public(state, board, h)]
    out: Json = {
        "index": board.index, "number": board.number, "dealer": str(board.dealer),
        "vul": str(board.vulnerability), "phase": board.phase.value,
        "auction": [{"seat": str(s), "call": str(c), "alert": i in board.alerts}
                    for i, (c, s) in enumerate(zip(board.auction.calls, board.auction.seats, strict=True))],
        "held_calls": held_calls,
        "held_cards": held_cards,
        "contract": board.contract_text,
        "declarer": None if board.contract is None else str(board.contract.declarer),
        "dummy": None if board.contract is None else str(board.contract.declarer.partner),
        "tricks_won": _won(play),
        "trick_number": None if play is None else min(13, play.trick_number),
        "current_trick": None,
        "last_trick": None,
        "dummy_hand": None,
        "faced": [],
        "exposed": [{"seat": str(s), "card": str(c)} for s, c, _, _ in board.exposed],
        "penalty_cards": [{"seat": str(pc.seat), "card": str(pc.card), "major": pc.major}
                          for pc in board.penalty_cards],
        "restrictions": [{"kind": o.kind, "seat": str(o.seat), "suits": [str(x) for x in o.suits],
                          "mode": o.mode, "text": restriction_line(state, board, o)} for o in board.obligations],
        "claim": None,
        "result": None,
    }
    if board.declaration is not None:
        out["declaration"] = {"turn": None if board.phase is not Phase.DECLARATION else str(board.declaration.turn)}
    if play is not None:
        only_first = not play.tricks
        out["current_trick"] = _trick(play.current, hide and only_first)
        if play.tricks:
            out["last_trick"] = _trick(play.tricks[-1], hide and len(play.tricks) == 1)
        if history:
            out["tricks"] = [_trick(t, hide and i == 0) for i, t in enumerate(play.tricks)]
        dummy = _dummy_cards(state, board)
        out["dummy_hand"] = None if dummy is None else _cards(dummy)
    faced: dict[Seat, list[Card]] = {}
    for seat, cards in board.faced:
        for c in _unplayed(board, cards):
            if c not in faced.setdefault(seat, []):
                faced[seat].append(c)
    out["faced"] = [{"seat": str(s), "cards": _cards(sorted(cs, reverse=True))}
                    for s, cs in faced.items() if cs]
    claim = board.claim
    if claim is not None:
        out["claim"] = {"seat": str(claim.seat), "side": str(claim.side), "tricks": claim.tricks,
                        "agreed": sorted(str(s) for s in claim.agreed),
                        "disputed": claim.disputed is not None}
    outcome = _outcome_of(state, board) if board.phase is Phase.DONE else None
    if outcome is not None:
        out["result"] = _result(outcome, state)
    return out


def _board_irregularities(state: TableState, board: BoardState | None) -> list[Irregularity]:
    ids = set(board.irregularity_ids) if board is not None else set()
    return [i for i in state.irregularities if i.id in ids or i.status == "awaiting_ruling"]


def _waiting(state: TableState, board: BoardState | None) -> bool:
    """Whether the table waits for the arbiter: a call or card held aside, or a disputed claim."""
    if board is None:
        return False
    for h in board.held:
        irr = state.irregularity(h.source)
        if irr is not None and irr.status == "awaiting_ruling":
            return True
    return board.claim is not None and board.claim.disputed is not None


def _arbiter_called(state: TableState, board: BoardState | None) -> str | None:
    """The seat that called the arbiter, while the call is answered by no ruling yet.

    The table state keeps the call until the next board; a ruling on this board with nothing
    else awaiting one is taken as the arbiter having dealt with it.
    """
    seat = state.director_called
    if seat is None or board is None:
        return None if seat is None else str(seat)
    irrs = [i for i in map(state.irregularity, board.irregularity_ids) if i is not None and i.kind != _TEMPO]
    if any(i.status == "ruled" for i in irrs) and not any(i.status == "awaiting_ruling" for i in irrs):
        return None
    return str(seat)


def _public(state: TableState, seq: int, now: float, table_name: str, kind: str, history: bool) -> Json:
    board = state.board
    irrs = [public_irregularity(state, i) for i in _board_irregularities(state, board)
            if _known_to_table(state, board, i)]
    return {
        "kind": kind, "seq": seq, "now": now, "table_name": table_name, "code": state.code.name,
        "turn": None if state.turn is None else str(state.turn),
        "board": None if board is None else _public_board(state, board, history),
        "arbiter_called": _arbiter_called(state, board),
        "waiting_for_arbiter": _waiting(state, board),
        "irregularities": irrs,
        "score": _sheet(state),
        "finished": state.finished,
    }


def table_view(state: TableState, *, seq: int = 0, now: float = 0.0, table_name: str = "") -> Json:
    """What the players' table page shows: public information only, the last trick (Law 66A)."""
    return _public(state, seq, now, table_name, "table", history=False)


def spectator_view(state: TableState, *, seq: int = 0, now: float = 0.0, table_name: str = "") -> Json:
    """What spectators see (vugraph): the public information with the whole play so far."""
    return _public(state, seq, now, table_name, "spectator", history=True)


# --- the arbiter ---------------------------------------------------------------------------

def _hands(hands: Sequence[Iterable[Card] | None]) -> Json:
    return {str(seat): None if h is None else _cards(sorted(h, reverse=True)) for seat, h in zip(SEATS, hands,
                                                                                                 strict=True)}


def option_args(state: TableState, irr: Irregularity) -> dict[str, list[Json]]:
    """For each option of ``irr``, the arguments a ruling on it takes here (``controller.catalogue``),
    with their labels and the choices where the law narrows them."""
    board = board_of(state, irr)
    entry = situation_of(irr)
    out: dict[str, list[Json]] = {}
    for code in irr.options:
        option = entry.option(code) if entry is not None else None
        specs: list[Json] = []
        for arg in option.args_in(state.code.name) if option is not None else ():
            spec: Json = {"name": arg.name, "type": arg.type, "required": arg.required, "label": arg.label}
            if arg.type in ("suit", "suits"):
                spec["choices"] = [str(x) for x in _suit_choices(state, board, irr, arg.choices)]
            elif arg.type == "card":
                cards = _card_choices(state, board, irr, arg.choices)
                if cards:
                    spec["choices"] = _cards(cards)
            elif arg.type == "tricks":
                spec["min"], spec["max"] = 0, 13
            specs.append(spec)
        out[code] = specs
    return out


def option_sentences(state: TableState, irr: Irregularity) -> dict[str, str]:
    """For each option of ``irr``, its plain sentence with this irregularity's seats and cards:
    who chooses, what happens next, the law (``controller.catalogue.render``)."""
    entry = situation_of(irr)
    if entry is None:
        return {code: code.replace("_", " ") for code in irr.options}
    named = facts(state, irr)
    args = option_args(state, irr)
    out = {}
    for code in irr.options:
        option = entry.option(code)
        if option is not None:
            choices = {a["name"]: a.get("choices", []) for a in args.get(code, [])}
            out[code] = catalogue.render(option, named, irr.law, code=state.code.name, choices=choices)
    return out


def _suit_choices(state: TableState, board: BoardState | None, irr: Irregularity, key: str) -> tuple[Suit, ...]:
    """The suits declarer may name (Laws 26, 50D, 51, 54D, 57), by the catalogue's ``choices`` key;
    all four where the law does not narrow them."""
    if board is None:
        return SUITS
    if key == "penalty_suits":
        suits = {pc.card.suit for pc in board.penalty_cards if pc.seat is irr.offender and pc.major}
        return tuple(s for s in SUITS if s in suits) or SUITS
    if key == "withdrawn_suits":
        for o in board.obligations:
            if o.source == irr.id and o.suits:
                return tuple(s for s in SUITS if s in o.suits)
        return SUITS
    if key == "card_suit":
        held = held_of(state, irr)
        return (held.card.suit,) if held is not None and held.card is not None else SUITS
    if key == "not_led" and board.play is not None:
        led = board.play.current.suit_led
        return tuple(s for s in SUITS if s is not led)
    return SUITS


def _card_choices(state: TableState, board: BoardState | None, irr: Irregularity, key: str) -> tuple[Card, ...]:
    """The cards offered for a card argument (Law 58B: the two cards put down at once; D 51, R 50:
    the penalty cards the defender may legally play now)."""
    if key == "legal_penalty_cards":
        if board is None or board.play is None or irr.offender is None:
            return ()
        return r.penalty_cards_to_designate(board.play, irr.offender, board.obligations, board.penalty_cards)
    held = held_of(state, irr)
    if key != "two_cards" or board is None or held is None or held.card is None or board.play is None:
        return ()
    play = board.play
    played = play.current.card_of(held.seat)
    if played is None and play.tricks and not play.current.cards:
        played = play.tricks[-1].card_of(held.seat)
    return tuple(c for c in (held.card, played) if c is not None)


def _arbiter_irregularity(state: TableState, irr: Irregularity) -> Json:
    out = irr.as_dict()
    entry = situation_of(irr)
    out["title"] = entry.title if entry is not None else irr.situation.replace("_", " ")
    out["option_args"] = option_args(state, irr)
    out["option_sentences"] = option_sentences(state, irr)
    out["ruling_sentence"] = ruling_sentence(state, irr)
    out["line"] = irregularity_line(state, irr, public=False)
    out["public"] = _known_to_table(state, state.board, irr)
    return out


def _timeline(state: TableState, board: BoardState) -> list[Json]:
    """Every call and card of ``board`` with its time and think, stops, alerts and irregularities."""
    tempo = {(i.offender, i.t): i for i in map(state.irregularity, board.irregularity_ids)
             if i is not None and i.kind == _TEMPO}
    items: list[Json] = []
    calls = think_times(board, ActKind.CALL)
    for i, ((seat, think), call) in enumerate(zip(calls, board.auction.calls, strict=False)):
        t = board.call_times[i] if i < len(board.call_times) else None
        entry: Json = {"t": t, "seat": str(seat), "act": "call", "what": str(call), "think": round(think, 3),
                       "alert": i in board.alerts}
        hes = tempo.get((seat, t)) if t is not None else None
        if hes is not None:
            entry["hesitation"] = {"id": hes.id, "detail": hes.detail, "status": hes.status}
        items.append(entry)
    if board.play is not None:
        cards = board.play.played_cards()
        for i, ((seat, think), card) in enumerate(zip(think_times(board, ActKind.CARD), cards, strict=False)):
            t = board.play_times[i] if i < len(board.play_times) else None
            entry = {"t": t, "seat": str(seat), "act": "card", "what": str(card), "think": round(think, 3),
                     "trick": i // 4 + 1}
            hes = tempo.get((seat, t)) if t is not None else None
            if hes is not None:
                entry["hesitation"] = {"id": hes.id, "detail": hes.detail, "status": hes.status}
            items.append(entry)
    for seat, t in board.stops:
        items.append({"t": t, "seat": str(seat), "act": "stop", "what": "Stop", "think": None})
    for irr in map(state.irregularity, board.irregularity_ids):
        if irr is not None and irr.kind != _TEMPO:
            # an irregularity the table only notes (nothing to choose) is a note, not an alarm
            items.append({"t": irr.t, "seat": None if irr.offender is None else str(irr.offender),
                          "act": "irregularity", "what": f"{irr.id} {irr.kind} (Law {irr.law})", "think": None,
                          "id": irr.id, "title": _kind_title(irr.kind), "law": irr.law, "status": irr.status,
                          "note": irr.status == "noted" or not irr.options})
    items.sort(key=lambda e: (e["t"] is None, e["t"] or 0.0))
    return items


def _arbiter_board(state: TableState, board: BoardState) -> Json:
    out = _public_board(state, board, history=True)
    play = board.play
    deal = board.deal
    out["deal"] = None if deal is None else deal.pbn()
    out["hands"] = None if deal is None else _hands(deal.hands)
    out["hands_remaining"] = None if play is None else _hands(play.hands)
    if play is not None:
        out["current_trick"] = _trick(play.current)
        out["tricks"] = [_trick(t) for t in play.tricks]
        out["last_trick"] = _trick(play.tricks[-1]) if play.tricks else None
        dummy = play.hands[play.dummy]
        out["dummy_hand"] = None if dummy is None else _cards(sorted(dummy, reverse=True))
        out["lead_faced"] = _lead_faced(state, board)
    out["held_cards"] = [{"seat": str(h.seat), "card": str(h.card), "id": h.source, "t": h.t}
                         for h in board.held if h.card is not None]
    out["held_calls"] = [{"seat": str(h.seat), "call": str(h.call), "id": h.source, "t": h.t,
                          "text": held_call_line(state, h)} for h in board.held if h.call is not None]
    out["restrictions"] = [{"kind": o.kind, "seat": str(o.seat), "source": o.source,
                            "call": None if o.call is None else str(o.call), "suits": [str(x) for x in o.suits],
                            "mode": o.mode, "trick": o.trick, "text": restriction_line(state, board, o)}
                           for o in board.obligations]
    out["revokes"] = [{"id": rv.source, "seat": str(rv.seat), "trick": rv.trick, "suit": str(rv.suit),
                       "established": rv.established, "exempt": rv.exempt} for rv in board.revokes]
    out["exposed"] = [{"seat": str(s), "card": str(c), "major": m, "id": src} for s, c, m, src in board.exposed]
    if board.claim is not None and out["claim"] is not None:
        out["claim"]["statement"] = board.claim.statement
        out["claim"]["needed"] = sorted(str(s) for s in board.claim.needed)
    out["legal_calls"] = [str(c) for c in state.legal_calls()]
    out["legal_cards"] = _cards(state.legal_cards())
    out["timeline"] = _timeline(state, board)
    return out


def arbiter_view(state: TableState, *, seq: int = 0, now: float = 0.0, table_name: str = "",
                 health: Sequence[DeviceHealth] = (), notices: Sequence[Notice] = (),
                 history: int = 50) -> Json:
    """Everything, for the arbiter: the public view plus the deal, hands, irregularities with their
    options and arguments, enforcement, timeline, score sheet, device health and notices.

    ``history`` bounds the irregularities of earlier boards listed (those of the board in
    progress and all awaiting a ruling are always there).
    """
    board = state.board
    current = set(board.irregularity_ids) if board is not None else set()
    irrs = [i for i in state.irregularities if i.id in current or i.status == "awaiting_ruling"]
    earlier = [i for i in state.irregularities if i not in irrs][-history:] if history > 0 else []
    awaiting = state.awaiting()
    return {
        "kind": "arbiter", "seq": seq, "now": now, "table_name": table_name, "code": state.code.name,
        "settings": {k: v for k, v in state.settings if isinstance(v, str | int | float | bool)},
        "turn": None if state.turn is None else str(state.turn),
        "board": None if board is None else _arbiter_board(state, board),
        "arbiter_called": None if state.director_called is None else str(state.director_called),
        "waiting_for_arbiter": _waiting(state, board),
        "awaiting": [i.id for i in awaiting],
        "irregularities": [_arbiter_irregularity(state, i) for i in irrs],
        "earlier_irregularities": [i.as_dict() for i in earlier],
        "public_view": table_view(state, seq=seq, now=now, table_name=table_name),
        "score": _sheet(state),
        "finished": state.finished,
        "health": [{"device": h.device, "up": h.up, "detail": h.detail, "t": h.t} for h in health],
        "notices": [{"kind": str(n.kind), "seat": None if n.seat is None else str(n.seat), "reader": n.reader,
                     "uid": n.uid, "detail": n.detail, "t": n.t} for n in notices],
    }


def claim_help_view(state: TableState, seat: Seat | None = None) -> Json:
    """The arbiter's claim help (Laws 68-70): the position and its double-dummy value.

    ``seat`` is the claimer (default: the pending claim's, else declarer). ValueError when no
    play is in progress. The double-dummy solve can take a moment: call it off the event loop.
    """
    from controller.claimhelp import claim_help

    board = state.board
    if board is None or board.play is None or board.phase is not Phase.PLAY:
        raise ValueError("no play in progress: claim help needs a board being played")
    claimer = seat or (board.claim.seat if board.claim is not None else board.play.declarer)
    out = claim_help(board.play, claimer).as_dict()
    out["claim"] = None if board.claim is None else {
        "seat": str(board.claim.seat), "tricks": board.claim.tricks, "statement": board.claim.statement}
    return out
