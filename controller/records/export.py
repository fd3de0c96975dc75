"""The boards a table played, as PBN/LIN records carrying their irregularities and rulings.

PBN 2.1 §3.9 marks what it can: ``^I`` before an insufficient bid that was accepted,
``^S`` for a seat that lost its turn to an accepted call out of rotation, ``^R`` before a
revoke card that stood, ``^L`` before a lead out of turn that was accepted. A revoke
corrected before it was established (Law 62) left no revoke card in the play: the trick
holds the legal card that replaced it, unmarked, and the commentary names the card taken back. Every irregularity, with
its law, offender, chooser, options and ruling, is also written as commentary (PBN ``{}``,
LIN ``nt|``), and so are the revoke transfers. The think times go into the supplemental
AuctionTimeTable and PlayTimeTable sections (PBN 2.1 §5.4, §5.8); LIN has no place for them.

A result the Director corrected (Law 79C, ``controller.table.corrections``) is written as it stands:
PBN's Contract, Declarer, Result and Score are the corrected ones, while the auction and the play
stay as the table saw them, and the commentary gives each correction (who, when, why) and the
result as played. A reader that replays the record then finds the two apart, as they are. LIN has
no result of its own beyond a claim: its commentary carries the same lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from controller.cards import Card
from controller.irregularities import Irregularity
from controller.play import trick_winner
from controller.records.model import BoardRecord
from controller.seats import Seat
from controller.table import BoardOutcome, TableState, think_times
from controller.table.corrections import standing
from controller.tempo import ActKind, auction_time_table, play_time_table

__all__ = ["board_record", "records_of"]

_EVENT_TAGS = ("Event", "Site", "Date")


def records_of(state: TableState) -> list[BoardRecord]:
    """One record per finished board of ``state``, in the order played."""
    return [board_record(outcome, state) for outcome in state.boards]


def board_record(outcome: BoardOutcome, state: TableState) -> BoardRecord:
    """The record of one finished board, with its irregularities and timing."""
    b = outcome.board
    irregularities = [i for i in map(state.irregularity, b.irregularity_ids) if i is not None]
    settings = dict(state.settings)
    tags: list[tuple[str, str]] = [(name, str(settings.get(name.lower(), "?"))) for name in _EVENT_TAGS]
    tags.append(("Scoring", "MP" if state.code.rules.duplicated_boards else
                 {"rubber": "Rubber", "chicago": "Chicago"}.get(state.code.name, state.code.name)))
    contract, tricks, score_ns = b.contract, outcome.tricks, outcome.score_ns
    now = standing(state, b.index)
    if now is not None:  # Law 79C: the result that stands is the Director's; the auction and play as they were
        contract, tricks, score_ns = now.contract, (now.tricks if now.contract is not None else None), now.score_ns
    if contract is not None:
        tags += [("Declarer", str(contract.declarer)), ("Contract", contract.text)]
    elif b.auction.is_passed_out or now is not None:
        tags += [("Contract", "Pass")]
    if tricks is not None and contract is not None:
        tags.append(("Result", str(tricks)))
    if score_ns is not None:
        tags.append(("Score", f"NS {score_ns}"))
    tags.append(("Termination", {"played": "normal", "claimed": "normal", "passed_out": "normal",
                                 "adjusted": "adjudication", "redeal": "rules infraction"}.get(
                                     outcome.status, "unterminated")))
    play_cards, leaders = _play(outcome)
    if contract is not None and play_cards:
        tags.append(("Play", str(contract.declarer.lho)))
    return BoardRecord(
        source=f"table board {b.index}", number=b.number, dealer=b.dealer, vulnerability=b.vulnerability,
        deal=b.deal, calls=b.auction.calls, alerts=b.alerts, play=play_cards,
        claim=tricks if tricks is not None and len(play_cards) < 52 else None,
        marks=_play_marks(outcome, irregularities, leaders), tags=tuple(tags),
        commentary=tuple(_commentary(irregularities, outcome) + _corrections(outcome, state, now is not None)),
        call_marks=_call_marks(outcome), trick_leaders=leaders,
        sections=tuple(_time_tables(outcome)))


def _play(outcome: BoardOutcome) -> tuple[tuple[Card, ...], tuple[Seat, ...]]:
    play = outcome.board.play
    if play is None:
        return (), ()
    tricks = (*play.tricks, play.current) if play.current.cards else play.tricks
    cards = tuple(c for t in tricks for c in t.cards)
    return cards, tuple(t.leader for t in tricks)


def _call_marks(outcome: BoardOutcome) -> tuple[tuple[int, str], ...]:
    """``S`` for each seat passed over by an accepted call out of rotation, ``I`` for insufficient bids."""
    auction = outcome.board.auction
    marks: list[tuple[int, str]] = []
    expected = auction.dealer
    last_rank: int | None = None
    for i, (call, seat) in enumerate(zip(auction.calls, auction.seats, strict=True)):
        while expected is not seat:
            marks.append((i, "S"))
            expected = expected.lho
        expected = seat.lho
        if call.is_bid:
            if last_rank is not None and call.rank <= last_rank:
                marks.append((i, "I"))
            last_rank = call.rank
    return tuple(marks)


def _play_marks(outcome: BoardOutcome, irregularities: Sequence[Irregularity],
                leaders: Sequence[Seat]) -> tuple[tuple[int, str], ...]:
    """``R`` on each revoke card, ``L`` on each lead out of turn that stood."""
    play = outcome.board.play
    contract = outcome.board.contract
    if play is None or contract is None:
        return ()
    tricks = (*play.tricks, play.current) if play.current.cards else play.tricks
    marks: dict[int, str] = {}
    for irr in irregularities:
        if _corrected(outcome, irr):
            continue  # Law 62: the card in the trick is the legal one that replaced the revoke card
        if irr.kind == "revoke" and irr.trick is not None and irr.offender is not None \
                and irr.trick <= len(tricks):
            trick = tricks[irr.trick - 1]
            card = trick.card_of(irr.offender)
            if card is not None:
                marks[4 * (irr.trick - 1) + trick.cards.index(card)] = "R"
    proper = contract.declarer.lho
    for n, trick in enumerate(tricks):
        if trick.leader is not proper:
            marks[4 * n] = "L"
        if trick.is_complete:
            proper = trick_winner(trick.leader, trick.cards, play.trump)
    return tuple(sorted(marks.items()))


_REVOKE_CARD = re.compile(r"\bplayed ([SHDC][2-9TJQKA])\b")


def _corrected(outcome: BoardOutcome, irr: Irregularity) -> bool:
    """Whether ``irr`` is a revoke corrected before it was established (Law 62)."""
    return irr.kind == "revoke" and any(rv.source == irr.id and rv.exempt == "corrected"
                                        for rv in outcome.board.revokes)


def _correction(outcome: BoardOutcome, irr: Irregularity) -> str:
    """The commentary of a corrected revoke: the card taken back and the card that replaced it."""
    taken = _REVOKE_CARD.search(irr.detail)
    play = outcome.board.play
    tricks = () if play is None else (*play.tricks, play.current)
    trick = tricks[irr.trick - 1] if irr.trick is not None and irr.trick <= len(tricks) else None
    legal = trick.card_of(irr.offender) if trick is not None and irr.offender is not None else None
    return (f"Revoke corrected (Law 62): {irr.offender} took back {taken.group(1) if taken else 'the revoke card'}"
            f" at trick {irr.trick}" + (f" and played {legal} in its place" if legal is not None else ""))


def _commentary(irregularities: Sequence[Irregularity], outcome: BoardOutcome) -> list[str]:
    out = []
    for irr in irregularities:
        if _corrected(outcome, irr):
            out.append(_correction(outcome, irr))
        ruling = "" if irr.ruling is None else "; ruling: " + ", ".join(
            f"{k} {v}" for k, v in irr.ruling)
        out.append(f"Irregularity {irr.id}: {irr.kind} ({irr.situation}), Law {irr.law or '-'}: "
                   f"{irr.detail}; offender {irr.offender or '-'}; chooser {irr.chooser}; "
                   f"options {', '.join(irr.options) or '-'}{ruling}; {irr.status}")
    out.extend(outcome.notes)
    if outcome.status == "adjusted":
        out.append(f"Result assigned by the arbiter: declarer {outcome.tricks} tricks")
    return out


def _corrections(outcome: BoardOutcome, state: TableState, stands: bool) -> list[str]:
    """The Director's corrections of the board's result (Law 79C), each entry and its taking back, and what
    was played when one ``stands``: the record's Contract, Result and Score are then the corrected ones."""
    index = outcome.board.index
    out = [f"Law 79C: {e.words()} ({e.made})" for e in state.corrections if e.index == index]
    if stands:
        played = outcome.board.contract
        out.append("The result stands as corrected; as played: " + (
            "passed out" if played is None else
            f"{played.text} by {played.declarer}, {outcome.tricks} tricks") + f", NS {outcome.score_ns}")
    return out


def _time_tables(outcome: BoardOutcome) -> list[str]:
    """PBN AuctionTimeTable and PlayTimeTable: each call's and card's think time."""
    b = outcome.board
    lines: list[str] = []
    if b.call_times:
        seconds: list[float | None] = []
        skipped = [i for i, m in _call_marks(outcome) if m == "S"]
        for i, (_, think) in enumerate(think_times(b, ActKind.CALL)):
            seconds.extend([None] * skipped.count(i))  # a ^S token has no think time
            seconds.append(think)
        lines += auction_time_table(b.dealer, seconds)
    cards: list[tuple[Seat, float | None]] = list(think_times(b, ActKind.CARD))
    if cards and b.contract is not None:
        lines += play_time_table(b.contract.declarer.lho, cards)
    return lines
