"""Raw sensor events -> table actions: the sensing layer's state machine (pure, no clock).

One file on purpose (over 600 lines): one state machine whose readers, bidding boxes and
deadlines share invariants (debounce, drop-out tolerance, what counts as played) that
splitting would scatter.

``Sensing`` is an immutable value. ``feed(event)`` and ``tick(t)`` each return the next
value and the outputs it produced: table actions (``MakeCall``, ``StopCard``,
``AlertCard``, ``PlayCard``, ``FaceCards``, ``PickUp``, ``CallDirector``) and ``Notice``
values for what is not a table action but the arbiter should know (an unknown tag, a
card pulled and put back, a reader gone silent...). Time comes only from the events'
``t`` and from ``tick(t)``; ``next_deadline`` tells the caller when to tick (nothing is
due: None, so an idle table costs nothing).

How each physical case is read (docs/architecture.md, sensing; the club's settings: docs/irregularities.md):

* **Bidding box.** A contact change counts once it has held for ``Settings.debounce``
  (a bounce shorter than that is nothing). A *pull* (``present=False``) of a bid, Pass,
  X or XX card opens, or joins, that seat's pending pull; the call is *provisional*
  (Law 18: a bid card counts once it is placed) and becomes a ``MakeCall`` when no card of the pull has changed for
  ``Settings.call_confirm`` seconds, or at once when another seat pulls a card, a card
  is put on any zone, or the arbiter button is pressed. Players pull a bid card
  with the cards in front of it, so the call is the highest bid card still out; Pass, X
  and XX are their own slots (two different calls out at once: ``ambiguous_pull``, no
  call). The call's ``t`` is the moment of the pull, for tempo. A bid card put back
  (``present=True``) before the call is confirmed is removed from the pull: if none is
  left, there is no call; either way the arbiter gets a ``pulled_and_returned`` notice
  (Law 16), or ``fingering`` when the card was out less than ``Settings.finger``.
  The Pass, X and XX slots hold several cards, so their contact closes again as the next
  card comes forward: for them a closing is never a put-back, and every opening is one
  card pulled. Returns are never calls: this is how the cards players put back at the
  end of the auction are told apart from pulls. Stop and Alert are shown at once:
  ``StopCard`` and ``AlertCard`` on the pull.
* **Play zone.** The first arrival of a card of the deck in play on ``<seat>.play`` is a
  ``PlayCard`` for that seat, whichever seat's card it is (a card in the wrong zone is
  for the table engine to judge). Face-down opening leads: readers cannot see faces, so
  the lead is reported when it arrives, face down or up; the session setting
  ``face_down_opening_lead`` tells the table engine what that means. A card once played
  is played for the rest of the board: repeated reads, drop-outs and quitted cards lying
  on, or gathered onto, any reader are never a new play (``withdraw`` undoes a play the
  table did not accept). Two cards arriving on one reader within
  ``Settings.simultaneous`` are two ``PlayCard`` in arrival order plus a ``simultaneous``
  notice (Law 58). The most recent card played, while its trick is incomplete, taken off
  its reader for longer than ``Settings.pickup_after`` is a ``PickUp``.
* **Spread zone.** Cards arriving on ``<seat>.spread`` are gathered into one
  ``FaceCards`` (dummy's hand, a hand faced for a claim, a card dropped face up) when the
  zone has been quiet for ``Settings.face_settle`` or at once before any other act. A
  faced, unplayed card taken off the spread zone and not played within
  ``Settings.pickup_after`` is a ``PickUp`` (dummy's cards go from the spread zone to
  dummy's play zone and are played, not picked up).
* **Tags that are not a card of the deck in play** (unknown UID: ``unknown_tag``;
  another deck: ``foreign_tag``; unknown reader: ``unknown_reader``; the ``board``
  reader: ``board`` with the UID, which the composition root maps to a board) give one
  notice per presence: a tag gone and back within ``Settings.dropout`` is the same one.
* **Buttons and health.** The ``director`` button is ``CallDirector``; a device going
  down or coming back is a ``device_down`` / ``device_up`` notice (the table carries on
  with manual entry). Unknown seats, slots and buttons are ``impossible_contact`` /
  ``unknown_button`` notices and change nothing.

What the composition root tells it: ``new_board(t, deck)`` once the next board's cards
are in the players' hands (nothing counts as played any more), ``end_board(t)`` when a
board is over (cards gathered over the readers are not plays), ``withdraw(card)`` when the
table refuses a play or a ruling takes a card back (its next arrival is reported again)
and ``mark_played(card)`` for a card the arbiter enters as played off the readers. The
deck in play is given to ``start``/``new_board`` or, if not, learned from the first card
of an enrolled deck seen on a seat's zone. Events are expected in time order (the
drivers' monotonic clock); what is due at or before an event's ``t`` is handled first,
so ticking more or less often never changes what is reported, only when.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from controller.actions import (
    AlertCard,
    CallDirector,
    FaceCards,
    MakeCall,
    PickUp,
    PlayCard,
    StopCard,
)
from controller.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call
from controller.cards import Card
from controller.seats import SEATS, Seat
from controller.sensing.deck import DeckRegistry
from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth, RawEvent, TagGone, TagSeen
from controller.values import evolve

__all__ = [
    "BOARD_READER",
    "SLOTS",
    "Notice",
    "NoticeKind",
    "Output",
    "Sensing",
    "Settings",
]

BOARD_READER = "board"
"""The reader that identifies the duplicate board by its tag."""


class NoticeKind(StrEnum):
    """What a ``Notice`` reports; each is shown to the arbiter, none changes the table."""

    UNKNOWN_TAG = "unknown_tag"
    """A tag that no enrolled deck has (hardware/cards.md: an event in its own right)."""
    FOREIGN_TAG = "foreign_tag"
    """A card of another enrolled deck than the one in play: in duplicate, with a deck per
    board, a card from another board (Law 17D; Law 13 for the hand it joined)."""
    UNKNOWN_READER = "unknown_reader"
    """A tag event from a reader name the table does not have (a wiring or config error)."""
    IMPOSSIBLE_CONTACT = "impossible_contact"
    """A contact of a seat or slot that does not exist."""
    UNKNOWN_BUTTON = "unknown_button"
    """A button press from an unknown seat or with an unknown name."""
    DEVICE_DOWN = "device_down"
    """A device (seat unit, reader) stopped answering: enter its actions by hand."""
    DEVICE_UP = "device_up"
    """A device answers (again)."""
    PULLED_AND_RETURNED = "pulled_and_returned"
    """A bid card pulled and put back before it became a call: UI for partner (Law 16)."""
    FINGERING = "fingering"
    """A bid card barely pulled and put back (out less than ``Settings.finger``; Law 16)."""
    AMBIGUOUS_PULL = "ambiguous_pull"
    """Two different calls out of one seat's box at once (e.g. Pass and 2H): no call made."""
    SIMULTANEOUS = "simultaneous"
    """Two or more cards arrived together on one play zone (Law 58)."""
    BOARD = "board"
    """A tag on the board reader: the composition root maps its UID to a board."""
    LOG_DAMAGED = "log_damaged"
    """Not from the sensors: the table's log lost inputs it had acknowledged (the runtime's own)."""


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the sensors saw that is not a table action, for the arbiter and the log.

    ``seat`` is the seat concerned, if any; ``reader`` the reader (or, for device health,
    the device) it came from; ``uid`` the tag's UID when a tag is concerned; ``detail``
    says what happened in words; ``t`` when.
    """

    kind: NoticeKind
    seat: Seat | None = None
    reader: str | None = None
    uid: str | None = None
    detail: str = ""
    t: float = 0.0


Output = MakeCall | StopCard | AlertCard | PlayCard | FaceCards | PickUp | CallDirector | Notice
"""What ``Sensing.feed`` and ``Sensing.tick`` produce."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The sensing layer's timing settings, in seconds (a table setting each).

    * ``call_confirm`` (1.5): a pulled bid card becomes a call when no card of the pull has
      been put back or pulled for this long (sooner if another seat acts).
    * ``dropout`` (0.3): a tag gone from a reader and back in less than this is the same
      presence (readers drop a tag for a moment).
    * ``debounce`` (0.03): a bidding-box contact must hold its new state this long to count.
    * ``simultaneous`` (0.2): two cards arriving on one play zone within this are played
      together (Law 58).
    * ``finger`` (0.5): a bid card put back after being out less than this is fingering,
      longer is pulled and put back (both Law 16, neither a call).
    * ``face_settle`` (2.0): cards arriving on a spread zone are one ``FaceCards`` until the
      zone has been quiet this long.
    * ``pickup_after`` (2.0): a card off its zone for this long has been taken back (a
      card turned over, or lifted for a moment, is not a pick-up).
    * ``read_cycle`` (0.12): the readers' read cycle (the seat unit's 100 ms, plus the link):
      cards of different seats reported within this of each other may have been put down in
      either order, and the engine deems the card in turn first (Law 58A, ``controller.engine``).
    """

    call_confirm: float = 1.5
    dropout: float = 0.3
    debounce: float = 0.03
    simultaneous: float = 0.2
    finger: float = 0.5
    face_settle: float = 2.0
    pickup_after: float = 2.0
    read_cycle: float = 0.12

    def __post_init__(self) -> None:
        for name in ("call_confirm", "dropout", "debounce", "simultaneous", "finger",
                     "face_settle", "pickup_after", "read_cycle"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value >= 0):
                raise ValueError(f"sensing setting {name} must be a number of seconds >= 0, "
                                 f"not {value!r}")
        if self.pickup_after < self.dropout:
            raise ValueError(f"sensing setting pickup_after ({self.pickup_after}) must be at "
                             f"least dropout ({self.dropout})")


# --- the bidding box: 40 slots ---------------------------------------------------------------

SLOTS: tuple[str, ...] = (*(str(b) for b in ALL_BIDS), "Pass", "X", "XX", "Stop", "Alert")
"""The bidding-box slot names, in slot order: 1C..7NT (0..34), Pass, X, XX, Stop, Alert."""

_PASS_SLOT, _X_SLOT, _XX_SLOT, _STOP_SLOT, _ALERT_SLOT = 35, 36, 37, 38, 39
_MULTI_CARD_SLOTS = frozenset((_PASS_SLOT, _X_SLOT, _XX_SLOT))
"""Slots holding several cards: the contact closes again as the next card comes forward."""
_CALL_OF_SLOT: tuple[Call, ...] = (*ALL_BIDS, PASS, DOUBLE, REDOUBLE)
_ALL_IN = (1 << len(SLOTS)) - 1
_SLOT_BY_NAME: dict[str, int] = {}
for _i, _name in enumerate(SLOTS):
    _SLOT_BY_NAME[_name] = _SLOT_BY_NAME[_name.upper()] = _i
for _i in range(7):
    _SLOT_BY_NAME[f"{_i + 1}N"] = _i * 5 + 4
_SLOT_BY_NAME |= {"P": _PASS_SLOT, "D": _X_SLOT, "R": _XX_SLOT}

_SEAT_BY_NAME: dict[str, Seat] = {str(s): s for s in SEATS}
_ZONES: dict[str, tuple[Seat, bool]] = {}
"""Reader name -> (seat, True for the play zone, False for the spread zone)."""
for _s in SEATS:
    _ZONES[f"{_s}.play"] = (_s, True)
    _ZONES[f"{_s}.spread"] = (_s, False)

_SPREAD: tuple[str, ...] = tuple(f"{s}.spread" for s in SEATS)
_ALL_PLAYED = (1 << 52) - 1
_NEVER = math.inf


@dataclass(frozen=True, slots=True)
class _Box:
    """One seat's bidding box: contact states and the pull not yet confirmed as a call."""

    raw: int = _ALL_IN
    """Bit i set: the contact of slot i last said the card is in."""
    stable: int = _ALL_IN
    """The same, debounced."""
    edges: tuple[tuple[int, float], ...] = ()
    """Slots whose raw state differs from the stable one, with the time of that change."""
    out: tuple[tuple[int, float], ...] = ()
    """The pending pull: (slot, time pulled) of the cards still out, in pull order."""
    back: tuple[tuple[int, float, float], ...] = ()
    """Cards of the pending pull put back: (slot, pulled, returned)."""
    last: float = 0.0
    """The time of the pending pull's latest change: its confirmation clock starts there."""
    deadline: float = _NEVER


def _box(s: Settings, raw: int, stable: int, edges: tuple[tuple[int, float], ...],
         out: tuple[tuple[int, float], ...], back: tuple[tuple[int, float, float], ...],
         last: float) -> _Box:
    deadline = last + s.call_confirm if out else _NEVER
    for _slot, t in edges:
        if t + s.debounce < deadline:
            deadline = t + s.debounce
    return _Box(raw, stable, edges, out, back, last, deadline)


_Faces = tuple[tuple[Card, ...], float, float]
"""A seat's cards arriving on its spread zone, not yet reported: (cards, first t, last t)."""
_NO_FACES: _Faces = ((), 0.0, 0.0)
_EMPTY_BOXES = (_Box(), _Box(), _Box(), _Box())
_EMPTY_FACES = (_NO_FACES, _NO_FACES, _NO_FACES, _NO_FACES)


@dataclass(frozen=True, slots=True)
class Sensing:
    """The sensing layer's state; ``feed`` and ``tick`` give the next one and its outputs.

    Build it with ``Sensing.start(decks)``. Tell it when a board begins (``new_board``)
    and ends (``end_board``), and when the table takes back a play it did not accept or
    the arbiter enters one the readers did not see (``withdraw``, ``mark_played``).
    """

    decks: DeckRegistry
    settings: Settings = Settings()
    deck: str | None = None
    """The deck in play (None: the next card of an enrolled deck seen decides)."""
    table_deck: str | None = None
    """The deck given to ``start``, which ``new_board`` goes back to when given none."""
    played: int = 0
    """Bit ``card.index`` set: that card has been played this board."""
    faced: int = 0
    """Bit ``card.index`` set: that card has been reported faced and not picked up."""
    plays: int = 0
    """Number of cards played this board (a trick is complete at each multiple of 4)."""
    last_play: tuple[str, Card, float] | None = None
    """The most recent play: reader, card, time."""
    burst: tuple[Card, ...] = ()
    """The cards of the most recent play's reader arriving together with it (Law 58)."""
    boxes: tuple[_Box, ...] = _EMPTY_BOXES
    """Each seat's bidding box, in seat order."""
    faces: tuple[_Faces, ...] = _EMPTY_FACES
    """Each seat's cards arriving on its spread zone, not yet reported."""
    pickups: tuple[tuple[str, Card, float], ...] = ()
    """Cards off their zone, maybe taken back: reader, card, time gone."""
    others: frozenset[tuple[str, str]] = frozenset()
    """(reader, uid) of the tags present that are not a card of the deck in play."""
    gone: tuple[tuple[str, str, float], ...] = ()
    """Such tags gone less than ``dropout`` ago: reader, uid, time gone."""
    health: tuple[tuple[str, bool], ...] = ()
    """The last reported state of each device."""
    deadline: float = _NEVER
    """The earliest time at which something pending becomes due."""

    # --- building and board boundaries ---------------------------------------------------

    @classmethod
    def start(cls, decks: DeckRegistry, settings: Settings | None = None,
              deck: str | None = None) -> Sensing:
        """The sensing state at power-on: every bid card in its box, nothing on the readers."""
        return cls(decks, settings or Settings(), deck, deck)

    @property
    def next_deadline(self) -> float | None:
        """When ``tick`` should next be called, or None when nothing is pending."""
        return None if self.deadline == _NEVER else self.deadline

    def new_board(self, t: float, deck: str | None = None) -> tuple[Sensing, tuple[Output, ...]]:
        """The state for a new board at time ``t``, once its cards are in the players' hands.

        What is pending is reported first (what is due by ``t``, then pending calls and
        faced cards at once); then no card counts as played or faced. ``deck`` is the
        board's deck (None: the one given to ``start``; if none was, learned from the
        board's first card).
        """
        w = _Work(self)
        w.advance(t)
        w.settle(None)
        w.deck = deck if deck is not None else self.table_deck
        w.played = w.faced = w.plays = 0
        w.last_play, w.burst, w.pickups = None, (), []
        return w.freeze(), tuple(w.out)

    def end_board(self, t: float) -> tuple[Sensing, tuple[Output, ...]]:
        """The state after the board at time ``t``: what is pending is reported, then no card
        is a new play or faced until ``new_board``.

        Between boards players gather their cards over the readers: none of that is an action.
        """
        w = _Work(self)
        w.advance(t)
        w.settle(None)
        w.played, w.pickups = _ALL_PLAYED, []
        return w.freeze(), tuple(w.out)

    def withdraw(self, card: Card) -> Sensing:
        """The state in which ``card`` is no longer played or faced (its play was refused or
        retracted by a ruling), so its next arrival on a zone is reported again."""
        bit = 1 << card.index
        if not (self.played | self.faced) & bit:
            return self
        last = self.last_play
        return evolve(self, played=self.played & ~bit, faced=self.faced & ~bit,
                      plays=self.plays - 1 if self.played & bit else self.plays,
                      last_play=None if last is not None and last[1] == card else last)

    def mark_played(self, card: Card) -> Sensing:
        """The state in which ``card`` counts as played (entered by the arbiter: a card
        deemed played off the readers), so its arrival on a reader is not a new play."""
        bit = 1 << card.index
        if self.played & bit:
            return self
        return evolve(self, played=self.played | bit, plays=self.plays + 1)

    # --- inputs ----------------------------------------------------------------------------

    def feed(self, event: RawEvent) -> tuple[Sensing, tuple[Output, ...]]:
        """The next state and the outputs of one raw sensor event (deadlines due first)."""
        cls = type(event)
        if cls is TagSeen:
            if event.t < self.deadline and self._unchanged_by_seen(event):  # type: ignore[arg-type]
                return self, ()  # the commonest event: a card still there, read again
        elif cls is ContactChanged:
            if event.t < self.deadline and self._unchanged_by_contact(event):  # type: ignore[arg-type]
                return self, ()
        elif cls not in (TagGone, ButtonPressed, DeviceHealth):
            raise TypeError(f"not a raw sensor event: {event!r}")
        w = _Work(self)
        if event.t >= self.deadline:
            w.advance(event.t)
        if cls is TagSeen:
            w.seen(event)  # type: ignore[arg-type]
        elif cls is TagGone:
            w.tag_gone(event)  # type: ignore[arg-type]
        elif cls is ContactChanged:
            w.contact(event)  # type: ignore[arg-type]
        elif cls is ButtonPressed:
            w.button(event)  # type: ignore[arg-type]
        else:
            w.device(event)  # type: ignore[arg-type]
        return w.freeze(), tuple(w.out)

    def tick(self, t: float) -> tuple[Sensing, tuple[Output, ...]]:
        """The next state and outputs at time ``t``: what has become due (calls confirmed,
        contacts settled, cards faced or picked up)."""
        if t < self.deadline:
            return self, ()
        w = _Work(self)
        w.advance(t)
        return w.freeze(), tuple(w.out)

    def _unchanged_by_seen(self, ev: TagSeen) -> bool:
        """True if ``ev`` is a read of a tag that is known to be there (changes nothing)."""
        tag = self.decks.get(ev.uid)
        if tag is not None and tag.deck == self.deck and ev.reader in _ZONES:
            return bool(self.played >> tag.card.index & 1) and not self.pickups
        return (ev.reader, ev.uid) in self.others

    def _unchanged_by_contact(self, ev: ContactChanged) -> bool:
        """True if ``ev`` reports the state the contact already had."""
        seat = _SEAT_BY_NAME.get(ev.seat)
        slot = _SLOT_BY_NAME.get(ev.slot)
        if seat is None or slot is None:
            return False  # (an unusual spelling, or a notice to give: the slow path)
        return bool(self.boxes[seat].raw >> slot & 1) == ev.present


class _Work:
    """A private, mutable copy of a ``Sensing`` for the span of one input.

    ``feed`` and ``tick`` copy the state once, apply every step to this copy and freeze it
    once: one event may settle several contacts, confirm a call and report faced cards,
    and copying the whole frozen state at each of those steps would cost more than the
    steps themselves. Nothing outside this module ever sees a ``_Work``.
    """

    __slots__ = ("boxes", "burst", "deck", "decks", "faced", "faces", "gone", "health",
                 "last_play", "others", "out", "pickups", "played", "plays", "settings",
                 "table_deck")

    def __init__(self, s: Sensing) -> None:
        self.decks = s.decks
        self.settings = s.settings
        self.deck = s.deck
        self.table_deck = s.table_deck
        self.played = s.played
        self.faced = s.faced
        self.plays = s.plays
        self.last_play = s.last_play
        self.burst = s.burst
        self.boxes = list(s.boxes)
        self.faces = list(s.faces)
        self.pickups = list(s.pickups)
        self.others = s.others
        self.gone = list(s.gone)
        self.health = s.health
        self.out: list[Output] = []

    def freeze(self) -> Sensing:
        return Sensing(self.decks, self.settings, self.deck, self.table_deck, self.played,
                       self.faced, self.plays, self.last_play, self.burst, tuple(self.boxes),
                       tuple(self.faces), tuple(self.pickups), self.others, tuple(self.gone),
                       self.health, self.earliest())

    # time ----------------------------------------------------------------------------------

    def earliest(self) -> float:
        """The earliest time at which something pending becomes due."""
        st = self.settings
        d = _NEVER
        for box in self.boxes:
            if box.deadline < d:
                d = box.deadline
        for cards, _first, last in self.faces:
            if cards and last + st.face_settle < d:
                d = last + st.face_settle
        for _r, _c, t in self.pickups:
            if t + st.pickup_after < d:
                d = t + st.pickup_after
        for _r, _u, t in self.gone:
            if t + st.dropout < d:
                d = t + st.dropout
        return d

    def advance(self, t: float) -> None:
        """Handle, in time order, everything due at or before ``t``."""
        while self.fire_earliest(t):
            pass

    def fire_earliest(self, t_max: float) -> bool:
        """Handle the one pending item due first, if it is due by ``t_max`` (ties: contacts,
        tags, pick-ups, faces, calls); False if nothing is."""
        st = self.settings
        best = _NEVER
        what = (0, 0, 0)  # kind, index, sub-index
        for i, box in enumerate(self.boxes):
            for j, (_slot, t) in enumerate(box.edges):
                if t + st.debounce < best:
                    best, what = t + st.debounce, (0, i, j)
        for i, (_r, _u, t) in enumerate(self.gone):
            if t + st.dropout < best:
                best, what = t + st.dropout, (1, i, 0)
        for i, (_r, _c, t) in enumerate(self.pickups):
            if t + st.pickup_after < best:
                best, what = t + st.pickup_after, (2, i, 0)
        for i, (cards, _f, last) in enumerate(self.faces):
            if cards and last + st.face_settle < best:
                best, what = last + st.face_settle, (3, i, 0)
        for i, box in enumerate(self.boxes):
            if box.out and box.deadline < best:
                best, what = box.deadline, (4, i, 0)
        if best > t_max:
            return False
        kind, i, j = what
        if kind == 0:
            self.settle_contact(SEATS[i], j)
        elif kind == 1:
            del self.gone[i]  # gone for good: its next read is a new presence
        elif kind == 2:
            self.pickup_due(i)
        elif kind == 3:
            self.flush_faces(SEATS[i])
        else:
            self.confirm(SEATS[i])
        return True

    def settle(self, actor: Seat | None, own_pull: bool = True,
               keep_faces: Seat | None = None) -> None:
        """Before an act of ``actor``: confirm the other seats' pending pulls (and the actor's
        own unless ``own_pull`` is False) and report the cards faced so far (except those of
        ``keep_faces``, whose spread zone the act adds to)."""
        boxes, faces = self.boxes, self.faces
        if not (boxes[0].out or boxes[1].out or boxes[2].out or boxes[3].out
                or faces[0][0] or faces[1][0] or faces[2][0] or faces[3][0]):
            return  # nothing pending: the usual case
        pending = [(boxes[seat].out[0][1], seat) for seat in SEATS
                   if boxes[seat].out and (own_pull or seat is not actor)]
        if pending:
            for _t, seat in sorted(pending):
                self.confirm(seat)
        for seat in SEATS:
            if self.faces[seat][0] and seat is not keep_faces:
                self.flush_faces(seat)

    # tags ------------------------------------------------------------------------------

    def seen(self, ev: TagSeen) -> None:
        reader, uid = ev.reader, ev.uid
        zone = _ZONES.get(reader)
        tag = self.decks.get(uid)
        if zone is not None and tag is not None and (self.deck is None or tag.deck == self.deck):
            self.card_seen(zone[0], zone[1], reader, tag.deck, tag.card, ev.t)
            return
        key = (reader, uid)
        if key in self.others:
            return  # still there: a repeated read
        self.others = self.others | {key}
        for i, (r, u, _t) in enumerate(self.gone):
            if r == reader and u == uid:
                del self.gone[i]  # back within the drop-out tolerance: the same presence
                return
        where = zone[0] if zone is not None else None
        if reader == BOARD_READER:
            detail = "board tag" if tag is None else f"board tag (enrolled as {tag})"
            self.out.append(Notice(NoticeKind.BOARD, None, reader, uid, detail, ev.t))
        elif zone is None:
            self.out.append(Notice(NoticeKind.UNKNOWN_READER, None, reader, uid,
                                   f"tag seen by reader {reader!r}, which the table does not "
                                   "have", ev.t))
        elif tag is None:
            self.out.append(Notice(NoticeKind.UNKNOWN_TAG, where, reader, uid,
                                   f"tag {uid} is not an enrolled card", ev.t))
        else:
            self.out.append(Notice(NoticeKind.FOREIGN_TAG, where, reader, uid,
                                   f"{tag} is not a card of the deck in play ({self.deck}): {tag.card} "
                                   f"of deck {tag.deck}, a card from another board's deck (Law 17D)",
                                   ev.t))

    def card_seen(self, seat: Seat, is_play: bool, reader: str, deck: str, card: Card,
                  t: float) -> None:
        """A card of the deck in play arrives (or is read again) on a seat's zone."""
        bit = 1 << card.index
        if self.pickups:
            self.drop_pickups(card, reader)  # back on the zone it left: not taken back
        if self.played & bit:
            return  # a card already played: repeated read, drop-out or quitted card
        if self.deck is None:
            self.deck = deck
        if is_play:
            self.settle(seat)
            self.play(seat, reader, card, t)
            return
        if self.faced & bit or any(card in f[0] for f in self.faces):
            return
        self.settle(seat, keep_faces=seat)
        cards, first, _last = self.faces[seat]
        self.faces[seat] = ((*cards, card), first if cards else t, t)

    def play(self, seat: Seat, reader: str, card: Card, t: float) -> None:
        self.out.append(PlayCard(seat, card, t))
        last = self.last_play
        if last is not None and last[0] == reader and t - last[2] <= self.settings.simultaneous:
            self.burst = (*self.burst, card)
            self.out.append(Notice(NoticeKind.SIMULTANEOUS, seat, reader, None,
                                   f"{' '.join(map(str, self.burst))} arrived together on "
                                   f"{reader} (Law 58)", t))
        else:
            self.burst = (card,)
        self.played |= 1 << card.index
        self.plays += 1
        self.last_play = (reader, card, t)

    def tag_gone(self, ev: TagGone) -> None:
        reader, uid = ev.reader, ev.uid
        key = (reader, uid)
        if key in self.others:
            self.others = self.others - {key}
            self.gone.append((reader, uid, ev.t))
            return
        zone = _ZONES.get(reader)
        tag = self.decks.get(uid)
        if zone is None or tag is None or tag.deck != self.deck:
            return
        card = tag.card
        bit = 1 << card.index
        seat, is_play = zone
        if is_play:
            live = self.latest_and_open(reader, card)
        else:
            live = bool(self.faced & bit and not self.played & bit) or card in self.faces[seat][0]
        if live and not any(r == reader and c == card for r, c, _t in self.pickups):
            self.pickups.append((reader, card, ev.t))

    def latest_and_open(self, reader: str, card: Card) -> bool:
        """True if ``card`` is the latest card played, from ``reader``, and its trick is open."""
        last = self.last_play
        return last is not None and last[1] == card and last[0] == reader and self.plays % 4 != 0

    def drop_pickups(self, card: Card, reader: str) -> None:
        self.pickups = [p for p in self.pickups if not (p[1] == card and p[0] == reader)]

    def pickup_due(self, i: int) -> None:
        """A card off its zone for ``pickup_after``: taken back, unless it was played since."""
        reader, card, t = self.pickups.pop(i)
        seat, is_play = _ZONES[reader]
        bit = 1 << card.index
        if is_play:
            if self.latest_and_open(reader, card):
                self.out.append(PickUp(seat, card, t))
            return
        if self.played & bit:
            return  # moved to a play zone and played (dummy's card)
        cards, first, last = self.faces[seat]
        if card in cards:  # came and went before it was reported: never faced
            rest = tuple(c for c in cards if c != card)
            self.faces[seat] = (rest, first, last) if rest else _NO_FACES
        elif self.faced & bit:
            self.out.append(PickUp(seat, card, t))
            self.faced &= ~bit

    def flush_faces(self, seat: Seat) -> None:
        """Report the cards gathered on ``seat``'s spread zone as faced (those that are off
        the zone at this moment were only passing over it, and are left out)."""
        cards, first, _last = self.faces[seat]
        self.faces[seat] = _NO_FACES
        if self.pickups:
            reader = _SPREAD[seat]
            absent = {c for r, c, _t in self.pickups if r == reader}
            if absent:
                cards = tuple(c for c in cards if c not in absent)
                self.pickups = [p for p in self.pickups if p[0] != reader or p[1] not in absent]
        for c in cards:
            self.faced |= 1 << c.index
        if cards:
            self.out.append(FaceCards(seat, cards, first))

    # the bidding box ------------------------------------------------------------------------

    def contact(self, ev: ContactChanged) -> None:
        seat = _SEAT_BY_NAME.get(ev.seat)
        slot = _SLOT_BY_NAME.get(ev.slot)
        if slot is None:
            slot = _SLOT_BY_NAME.get(ev.slot.upper())
        if seat is None or slot is None:
            what = f"seat {ev.seat!r}" if seat is None else f"slot {ev.slot!r}"
            self.out.append(Notice(NoticeKind.IMPOSSIBLE_CONTACT, seat, None, None,
                                   f"bidding-box contact of {what}, which the table does not "
                                   f"have (present={ev.present})", ev.t))
            return
        box = self.boxes[seat]
        bit = 1 << slot
        if bool(box.raw & bit) == ev.present:
            return  # the state it already had: a repeated report
        raw = box.raw ^ bit
        edges = tuple(e for e in box.edges if e[0] != slot)
        if (raw ^ box.stable) & bit:
            edges = (*edges, (slot, ev.t))
        self.boxes[seat] = _box(self.settings, raw, box.stable, edges, box.out, box.back, box.last)

    def settle_contact(self, seat: Seat, j: int) -> None:
        """A contact change that has held for the debounce time: a pull or a return."""
        box = self.boxes[seat]
        slot, t = box.edges[j]
        bit = 1 << slot
        stable = box.stable ^ bit
        edges = box.edges[:j] + box.edges[j + 1:]
        self.boxes[seat] = _box(self.settings, box.raw, stable, edges, box.out, box.back, box.last)
        if stable & bit:
            if slot not in _MULTI_CARD_SLOTS:  # (for those: the next card coming forward)
                self.returned(seat, slot, t)
            return
        self.settle(seat, own_pull=False)
        if slot == _STOP_SLOT:
            self.out.append(StopCard(seat, t))
        elif slot == _ALERT_SLOT:
            self.out.append(AlertCard(seat, t))
        else:
            box = self.boxes[seat]
            self.boxes[seat] = _box(self.settings, box.raw, box.stable, box.edges,
                                    (*box.out, (slot, t)), box.back, t)

    def returned(self, seat: Seat, slot: int, t: float) -> None:
        box = self.boxes[seat]
        i = next((k for k, (sl, _p) in enumerate(box.out) if sl == slot), -1)
        if i < 0:
            return  # not part of a pending pull: a card put back after its call
        rest = box.out[:i] + box.out[i + 1:]
        back = (*box.back, (slot, box.out[i][1], t))
        if rest:
            self.boxes[seat] = _box(self.settings, box.raw, box.stable, box.edges, rest, back, t)
            return
        self.notice_returns(seat, back)
        self.boxes[seat] = _box(self.settings, box.raw, box.stable, box.edges, (), (), t)

    def confirm(self, seat: Seat) -> None:
        """The pending pull of ``seat`` becomes its call: the highest bid card still out."""
        box = self.boxes[seat]
        bids = [(slot, t) for slot, t in box.out if slot < _PASS_SLOT]
        firsts: dict[int, float] = {}
        for slot, t in box.out:
            if slot >= _PASS_SLOT and slot not in firsts:
                firsts[slot] = t  # two Pass cards pulled at once are still one Pass
        candidates = list(firsts.items())
        if bids:
            candidates.append(max(bids))
        if len(candidates) == 1:
            slot, t = candidates[0]
            self.out.append(MakeCall(seat, _CALL_OF_SLOT[slot], t))
        else:
            names = " ".join(SLOTS[slot] for slot, _t in sorted(candidates))
            self.out.append(Notice(NoticeKind.AMBIGUOUS_PULL, seat, None, None,
                                   f"{names} out of {seat}'s bidding box together: no call "
                                   "made; the arbiter enters the call", box.out[0][1]))
        self.notice_returns(seat, box.back)
        self.boxes[seat] = _box(self.settings, box.raw, box.stable, box.edges, (), (), 0.0)

    def notice_returns(self, seat: Seat, back: tuple[tuple[int, float, float], ...]) -> None:
        """Tell the arbiter of bid cards pulled and put back (Law 16), if any."""
        finger = self.settings.finger
        fingered = [b for b in back if b[2] - b[1] < finger]
        returned = [b for b in back if b[2] - b[1] >= finger]
        for kind, group, how in ((NoticeKind.FINGERING, fingered, "touched and put back"),
                                 (NoticeKind.PULLED_AND_RETURNED, returned, "pulled and put back")):
            if group:
                names = " ".join(SLOTS[slot] for slot, _p, _r in group)
                spans = ", ".join(f"{SLOTS[slot]} out {r - p:.2f} s" for slot, p, r in group)
                self.out.append(Notice(kind, seat, None, None,
                                       f"{seat}: {names} {how}, not a call ({spans}; Law 16)",
                                       group[0][1]))

    # buttons and health ----------------------------------------------------------------------

    def button(self, ev: ButtonPressed) -> None:
        seat = _SEAT_BY_NAME.get(ev.seat)
        if seat is None or ev.name != "director":
            self.out.append(Notice(NoticeKind.UNKNOWN_BUTTON, seat, None, None,
                                   f"button {ev.name!r} pressed at seat {ev.seat!r}", ev.t))
            return
        self.settle(seat)
        self.out.append(CallDirector(seat, ev.t))

    def device(self, ev: DeviceHealth) -> None:
        known = dict(self.health)
        if known.get(ev.device) is ev.up:
            return  # the state it already had
        known[ev.device] = ev.up
        self.health = tuple(sorted(known.items()))
        kind = NoticeKind.DEVICE_UP if ev.up else NoticeKind.DEVICE_DOWN
        state = "up" if ev.up else "down: enter its actions by hand"
        self.out.append(Notice(kind, None, ev.device, None,
                               f"{ev.device} {state}" + (f" ({ev.detail})" if ev.detail else ""),
                               ev.t))
