"""The running table's pure core: inputs -> sensing -> table, and the rebuild from the event log.

``Engine`` is an immutable value holding the sensing layer (``Sensing``) and the table
(``TableState``). Each input gives the next engine and what it derived, with no clock, no
thread and no I/O, so that the runtime (``tablectl.runtime``) and the rebuild after a
restart (``rebuild``) run exactly the same code (the log's rows are those of
``controller.records.eventlog``):

* ``feed(raw event)`` and ``tick(t)``: the sensing layer's outputs; each table action among
  them is stepped, notices are returned as they are;
* ``act(action, source)``: an action from outside the sensors (the session line, the
  arbiter's rulings and manual entries, a board started from its tag).

What the sensing layer must be told as the table moves on is told here, from the table's
own state, never from a guess: a ``BoardStart`` calls ``new_board`` first (what is pending
from the last board is reported and stepped before it), with the board's own deck when the
deck file has one named after it (``board_deck``); a board that ends calls
``end_board`` (cards gathered over the readers are not plays); and after every input the
cards the sensing layer counts as played are made to agree with the cards the table has on
it (the tricks and the cards held aside for a ruling): a card the table refused, or that a
ruling sent back to the hand or made a penalty card, is ``withdraw``-n, so that its next
arrival on a play zone is a play; a card the arbiter entered as played off the readers is
``mark_played``. (A penalty card is withdrawn too: the player puts it face up in front of
him and plays it, later, by putting it on his play zone.)

Its next *arrival*, not its next read: a card withdrawn while it still lies on a reader
(``Engine.places``) is kept in ``Engine.lying``, and a read of it on that reader is the same
presence (a reader's drop-out, a seat unit that restarts and reports every tag again) until
it has been gone from it for longer than the sensing layer's drop-out tolerance, or is read
on another zone; only then is it given back to the sensing layer, for which it is a new
arrival. Otherwise a card exposed during the auction, a penalty card or a refused lead left
where it lay would be read as a new call for the arbiter at every drop-out.

Cards from different seats put down at about the same moment: each seat unit reads its zones
in its own cycle, unsynchronised with the others, so two cards put down within one read cycle
(``Settings.read_cycle``) reach the Pi in either order, and several reader threads add their
own. The table orders them as the law does (Law 58A: a play made together with the legal play
of another player is deemed made after it): a sensed card from a seat that is not in turn,
while the play is on, is held for ``read_cycle`` (``Engine.held``); a card of the seat in turn
arriving meanwhile is stepped first, then each held card whose seat has come into turn, in
rotation. What is still held when ``read_cycle`` has passed, or when any other action comes,
is stepped in arrival order: a real play out of turn is reported one read cycle later, never
lost, and a near-simultaneous card is never a false irregularity.

An action from outside the sensors that the table refuses (a ruling the law does not
allow, an action that makes no sense now) changes nothing, here as in the table: the
sensing layer is not touched, so that no later bid card, card or contact is read
differently because of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from controller import actions as a
from controller.cards import DECK
from controller.codes import LOG_DEFAULT_CODE
from controller.records.eventlog import (
    OUTPUT_KINDS,
    PUBLISHED_KINDS,
    RAW_TYPES,
    BadRow,
    Derived,
    Input,
    Row,
    decode_input,
    output_rows,
)
from controller.sensing.deck import DeckRegistry
from controller.sensing.events import DeviceHealth, RawEvent, TagGone, TagSeen
from controller.sensing.translate import BOARD_READER, Notice, Sensing, Settings
from controller.table import BoardState, Phase, Step, TableState, step

__all__ = [
    "RAW_TYPES", "Derived", "Engine", "Outcome", "Rebuilt", "apply_input", "board_deck", "rebuild",
    "session_start", "table_mask",
]

_PLAIN = (a.MakeCall, a.PlayCard, a.StopCard, a.AlertCard, a.CallDirector, a.PickUp)
"""Sensed actions that, taken cleanly, never change which cards are on the table otherwise."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one input did: the next engine, the actions stepped, the notices, and for an
    action from outside the sensors its own ``Step``."""

    engine: Engine
    derived: tuple[Derived, ...] = ()
    notices: tuple[Notice, ...] = ()
    step: Step | None = None

    @property
    def changed(self) -> bool:
        """True if the input changed anything (a refused action alone changes nothing)."""
        return bool(self.notices) or any(d.rejected is None for d in self.derived)

    def rows(self, head: Row) -> tuple[Row, list[Row]]:
        """The log rows of this outcome: the input row ``head`` and the derived rows."""
        return head, output_rows(self.derived, self.notices)


def board_deck(decks: DeckRegistry, number: int | None) -> str | None:
    """The deck enrolled for board ``number`` (deck id ``board<number>``, the club's naming in
    hardware/decks.md), or None: then the sensing layer's table deck, or the first card seen.

    With it, a card of another board's deck is reported as such from the first card on (Law
    17D), even when it is the first card seen."""
    if number is None:
        return None
    name = f"board{number}"
    return name if decks.cards(name) else None


def _board_open(board: BoardState | None) -> bool:
    return board is not None and board.phase is not Phase.DONE


def table_mask(board: BoardState) -> int:
    """Bit ``card.index`` set for each card the table has on it: played, held for a ruling,
    played early and standing until its turn (``deferred``), or led early (``early_leads``)."""
    mask = 0
    play = board.play
    if play is not None:
        for trick in play.tricks:
            for c in trick.cards:
                mask |= 1 << c.index
        for c in play.current.cards:
            mask |= 1 << c.index
    for held in board.held:
        if held.card is not None:
            mask |= 1 << held.card.index
    for _seat, card in board.deferred:
        mask |= 1 << card.index
    for _seat, card, _t in board.early_leads:
        mask |= 1 << card.index
    return mask


@dataclass(frozen=True, slots=True)
class Engine:
    """The sensing layer and the table as one value (see the module doc).

    ``places``: (card index, reader) of each card of the deck in play lying on a seat's zone
    (read there, and not gone since). ``held``: sensed plays waiting for the card in turn
    (module doc). ``lying``: (card index, reader, time gone or None) of the
    cards withdrawn while they lay on that reader, whose reads there are not passed on until
    they have left it (module doc).
    """

    table: TableState
    sensing: Sensing
    places: tuple[tuple[int, str], ...] = ()
    lying: tuple[tuple[int, str, float | None], ...] = ()
    held: tuple[a.PlayCard, ...] = ()
    """Sensed cards of seats not in turn, waiting up to one read cycle for the card in turn (module doc)."""

    @classmethod
    def new(cls, decks: DeckRegistry, settings: Settings | None = None, deck: str | None = None) -> Engine:
        """An engine at power-on: no session line yet, nothing on the readers."""
        return cls(TableState.new(), Sensing.start(decks, settings, deck))

    @property
    def next_deadline(self) -> float | None:
        """When ``tick`` is next due (table time), or None when nothing is pending."""
        due = self.sensing.next_deadline
        if self.held:
            release = self.held[0].t + self.sensing.settings.read_cycle
            due = release if due is None else min(due, release)
        return due

    def feed(self, event: RawEvent) -> Outcome:
        """The engine after one raw sensor event (deadlines due before it first)."""
        if self.held and event.t >= self.held[0].t + self.sensing.settings.read_cycle:
            before = self.tick(event.t)  # the held cards' read cycle is over before this event
            after = before.engine._feed(event)
            return Outcome(after.engine, before.derived + after.derived, before.notices + after.notices)
        return self._feed(event)

    def _feed(self, event: RawEvent) -> Outcome:
        engine: Engine = self
        if isinstance(event, TagSeen | TagGone):
            moved = self._presence(event)
            if moved is None and isinstance(event, TagSeen):
                # a card withdrawn while it lay there, read again: the same presence (module doc)
                return Outcome(self._still_lying(event))
            engine = moved or self
        sensing, outs = engine.sensing.feed(event)
        if sensing is engine.sensing and not outs:
            return Outcome(engine)
        fold = _Fold(engine, sensing)
        fold.outputs(outs)
        return fold.done()

    def tick(self, t: float) -> Outcome:
        """The engine at table time ``t``: what has become due in the sensing layer, and the
        held cards whose read cycle is over (stepped as they came)."""
        sensing, outs = self.sensing.tick(t)
        expired = bool(self.held) and t >= self.held[0].t + self.sensing.settings.read_cycle
        if sensing is self.sensing and not expired:
            return Outcome(self)
        fold = _Fold(self, sensing)
        if expired:
            fold.release_held()
        fold.outputs(outs)
        return fold.done()

    def act(self, action: a.Action, source: str = "arbiter") -> Outcome:
        """The engine after an action from outside the sensors; the sensing layer's
        deadlines due by the action's time are handled first (call ``tick`` before)."""
        fold = _Fold(self, self.sensing)
        fold.release_held()  # any other act: the cards held come first, as they came
        result = fold.apply(action, source)
        return fold.done(result)

    def _card_index(self, event: TagSeen | TagGone) -> int | None:
        """The index of the card of the deck in play that ``event`` reads on a seat's zone, else None."""
        if event.reader == BOARD_READER or "." not in event.reader:
            return None
        tag = self.sensing.decks.get(event.uid)
        if tag is None or (self.sensing.deck is not None and tag.deck != self.sensing.deck):
            return None
        return tag.card.index

    def _presence(self, event: TagSeen | TagGone) -> Engine | None:
        """The engine with ``event``'s card on or off its zone; None for a read of a card
        withdrawn while it lay there that has not left since (it is not passed on)."""
        index = self._card_index(event)
        if index is None:
            return self
        here = (index, event.reader)
        lying = next((x for x in self.lying if x[0] == index), None)
        if isinstance(event, TagGone):
            if here not in self.places and (lying is None or lying[2] is not None):
                return self
            kept = tuple(x for x in self.lying if x[0] != index)
            if lying is not None and lying[1] == event.reader:
                kept = (*kept, (index, event.reader, event.t))
            elif lying is not None:
                kept = (*kept, lying)
            return replace(self, places=tuple(p for p in self.places if p != here), lying=kept)
        if lying is not None:
            gone = lying[2]
            if lying[1] == event.reader and (gone is None or event.t - gone <= self.sensing.settings.dropout):
                return None
            rest = tuple(x for x in self.lying if x[0] != index)
            return replace(self, places=(*(p for p in self.places if p[0] != index), here), lying=rest)
        if here in self.places:
            return self
        return replace(self, places=(*(p for p in self.places if p[0] != index), here))

    def _still_lying(self, event: TagSeen) -> Engine:
        """The engine after a read of a withdrawn card that never left its reader."""
        index = self._card_index(event)
        assert index is not None
        here = (index, event.reader)
        lying = tuple((i, r, None) if i == index else (i, r, g) for i, r, g in self.lying)
        places = self.places if here in self.places else (*self.places, here)
        if places is self.places and lying == self.lying:
            return self
        return replace(self, places=places, lying=lying)


class _Fold:
    """The mutable work of one input (one copy of the engine, frozen at the end)."""

    __slots__ = ("derived", "held", "lying", "notices", "places", "sensing", "table")

    def __init__(self, engine: Engine, sensing: Sensing) -> None:
        self.table = engine.table
        self.sensing = sensing
        self.places = engine.places
        self.lying = engine.lying
        self.held = engine.held
        self.derived: list[Derived] = []
        self.notices: list[Notice] = []

    def outputs(self, outs: Iterable[object]) -> None:
        for out in outs:
            if isinstance(out, Notice):
                self.notices.append(out)
            elif isinstance(out, a.PlayCard):
                self.sensed_play(out)
            else:
                self.release_held()
                self.apply(out, "sensing")  # type: ignore[arg-type]

    def sensed_play(self, play: a.PlayCard) -> None:
        """A card the readers saw played: held if its seat is not in turn (Law 58A, module doc),
        else stepped, followed by each held card whose seat it brings into turn."""
        board = self.table.board
        if board is None or board.phase is not Phase.PLAY or self.table.turn in (None, play.seat):
            self.apply(play, "sensing")
            self.release_in_turn(play.t)
            return
        self.held = (*self.held, play)

    def release_in_turn(self, t: float) -> None:
        """Step the held cards whose seat is in turn, one after the other, each deemed played
        after the card before it (Law 58A)."""
        while self.held:
            turn = self.table.turn
            board = self.table.board
            if turn is None or board is None or board.phase is not Phase.PLAY:
                return
            play = next((p for p in self.held if p.seat is turn), None)
            if play is None:
                return
            self.held = tuple(p for p in self.held if p is not play)
            t = max(t, play.t)
            self.apply(replace(play, t=t), "sensing")

    def release_held(self) -> None:
        """Step every held card, in arrival order (their read cycle is over, or another act comes)."""
        held, self.held = self.held, ()
        for play in held:
            self.apply(play, "sensing")

    def apply(self, action: a.Action, source: str) -> Step:
        if isinstance(action, a.BoardStart):
            self.sensing, outs = self.sensing.new_board(action.t, board_deck(self.sensing.decks, action.number))
            self.lying = ()
            self.outputs(outs)
        was_open = _board_open(self.table.board)
        result = step(self.table, action)
        self.table = result.state
        rejected = next((ev.detail or "rejected" for ev in result.events if ev.kind == "rejected"), None)
        self.derived.append(Derived(action, source, rejected, tuple(i.id for i in result.irregularities)))
        if was_open and not _board_open(self.table.board) and not isinstance(action, a.BoardStart):
            self.sensing, outs = self.sensing.end_board(action.t)
            self.outputs(outs)
        return result

    def reconcile(self) -> None:
        """Make the sensing layer's played cards those the table has on it (module doc)."""
        board = self.table.board
        if board is None or board.phase is Phase.DONE:
            return
        mask = table_mask(board)
        for play in self.held:  # waiting for their turn: played for the sensing layer
            mask |= 1 << play.card.index
        played = self.sensing.played
        if played == mask:
            return
        sensing = self.sensing
        extra, missing = played & ~mask, mask & ~played
        for card in DECK:
            bit = 1 << card.index
            if extra & bit:
                sensing = sensing.withdraw(card)
                where = next((r for i, r in self.places if i == card.index), None)
                if where is not None:
                    # still lying on a reader: its next read there is not a new arrival (module doc)
                    self.lying = (*(x for x in self.lying if x[0] != card.index), (card.index, where, None))
            elif missing & bit:
                sensing = sensing.mark_played(card)
        self.sensing = sensing

    def done(self, result: Step | None = None) -> Outcome:
        # a refused play from the sensors is taken back; an action the table refused from
        # anywhere else changed nothing, and nothing is told to the sensing layer (module doc)
        if any((d.source == "sensing" and d.rejected is not None) or (d.rejected is None and (
                d.source != "sensing" or d.irregularities or not isinstance(d.action, _PLAIN)))
               for d in self.derived):
            self.reconcile()
        engine = Engine(self.table, self.sensing, self.places, self.lying, self.held)
        return Outcome(engine, tuple(self.derived), tuple(self.notices), result)


# -- the rebuild -------------------------------------------------------------------------------

@dataclass(slots=True)
class Rebuilt:
    """The engine rebuilt from a log, and what the rebuild found.

    ``actions`` are the table actions the table took, in order (the table log);
    ``rejected`` the table's refusals (``row <seq>: <reason>``); ``mismatches`` say where the
    stored derived actions differ from those derived again (the inputs win); ``bad`` are the
    damaged rows skipped.
    """

    engine: Engine
    actions: list[a.Action] = field(default_factory=list)
    inputs: int = 0
    last_input: int = 0
    last_t: float = 0.0
    bad: list[BadRow] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    health: dict[str, DeviceHealth] = field(default_factory=dict)
    notices: list[Notice] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)


def session_start(session: Mapping[str, Any]) -> a.SessionStart:
    """The session line (at table time 0) of a log's ``session`` meta: the code and the table settings."""
    settings = dict(session)
    code = str(settings.pop("code", LOG_DEFAULT_CODE))
    return a.SessionStart(code, tuple(settings.items()), 0.0)


def apply_input(engine: Engine, row: Row) -> Outcome:
    """The outcome of one stored input on ``engine``; ValueError for an input that cannot be read."""
    return _take(engine, decode_input(row))


def _take(engine: Engine, given: Input) -> Outcome:
    item = given.item
    if item is None:
        return engine.tick(given.t)
    if isinstance(item, RAW_TYPES):
        return engine.feed(item)
    return engine.act(item, given.source)


def _normal(value: object) -> object:
    return json.loads(json.dumps(value, sort_keys=True))


def rebuild(rows: Iterable[Row | BadRow], start: Engine) -> Rebuilt:
    """Re-run every stored input on ``start`` and check the derived rows against the stored ones.

    ``run``, ``alert`` and ``result`` rows are ignored (they are outputs only).
    """
    out = Rebuilt(start)
    group: list[Row] = []
    head: Row | None = None
    outcome: Outcome | None = None

    def close() -> None:
        if head is None:
            return
        stored = [r for r in group if r.kind in OUTPUT_KINDS]
        fresh: list[Row] = [] if outcome is None else outcome.rows(head)[1]
        mine = [(r.kind, _normal(dict(r.body))) for r in fresh]
        theirs = [(r.kind, _normal(dict(r.body))) for r in stored]
        if mine != theirs:
            out.mismatches.append(f"input {head.seq} ({head.kind} at t={head.t:.3f}): stored "
                                  f"{_brief(theirs)}, derived again {_brief(mine)}")

    for row in rows:
        if isinstance(row, BadRow):
            out.bad.append(row)
            continue
        if row.kind in PUBLISHED_KINDS:
            continue
        out.last_t = max(out.last_t, row.t)
        if not row.is_input:
            if head is not None and row.input == head.seq:
                group.append(row)
            continue
        close()
        head, group, outcome = row, [], None
        try:
            given = decode_input(row)
            outcome = _take(out.engine, given)
        except (ValueError, TypeError) as exc:
            out.bad.append(BadRow(row.seq, f"input row {row.seq} cannot be used: {exc}; skipped"))
            continue
        out.engine = outcome.engine
        out.inputs += 1
        out.last_input = row.seq
        for d in outcome.derived:
            if d.rejected is None:
                out.actions.append(d.action)
            else:
                out.rejected.append(f"row {row.seq}: {d.rejected}")
        out.notices.extend(outcome.notices)
        if isinstance(given.item, DeviceHealth):
            out.health[given.item.device] = given.item
    close()
    return out


def _brief(rows: Sequence[tuple[str, object]]) -> str:
    text = json.dumps(rows)
    return text if len(text) < 300 else text[:297] + "..."

