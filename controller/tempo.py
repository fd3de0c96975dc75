"""Tempo as evidence for the arbiter: think times, own pace, hesitations, skip-bid waits, PBN time tables.

One file on purpose (just over 600 lines): Laws 16 and 73 as one measure (pace, notes,
alerts, the skip-bid wait) and its export, which must agree with each other.

A change of tempo is not in itself an infraction (Law 73 / R Proprieties 2); an
unmistakable hesitation or unusual speed is unauthorized information for partner
(Law 16). What a timing record can give the arbiter is the fact (Laws 16, 73): how long
a player thought, against his own pace for the same kind of act. These functions only
say what the clock shows, never a verdict, and what they say is for the arbiter's eyes
only: think times shown at the table would themselves pass information.

Everything here is pure: times are plain seconds on the table's common clock, given by
the caller; nothing reads a clock.

The PBN part writes the supplemental sections AuctionTimeTable and PlayTimeTable of
PBN 2.1 (§5.2, §5.4, §5.8); see ``auction_time_table``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum

from controller.auction import Auction
from controller.calls import Call
from controller.errors import BridgeTableError
from controller.seats import Seat
from controller.values import evolve

__all__ = [
    "SETTINGS_KEYS",
    "ActKind",
    "Pace",
    "TempoSettings",
    "TempoSettingsError",
    "alert_point",
    "auction_time_table",
    "hesitation",
    "is_skip_bid",
    "is_skip_bid_after",
    "pbn_time",
    "play_time_table",
    "record_think",
    "skip_bid_wait",
    "think_time",
    "think_times",
    "unusual_hesitation",
    "unusual_speed",
]


class TempoSettingsError(BridgeTableError, ValueError):
    """A tempo setting that makes no sense (a negative time, a factor below 1, a wrong type)."""


class ActKind(StrEnum):
    """What a think was over: a call or a card. Each has its own pace (Laws 16, 73)."""

    CALL = "call"
    CARD = "card"

    def __repr__(self) -> str:
        return f"ActKind.{self.name}"


# table-settings key -> TempoSettings field
SETTINGS_KEYS: dict[str, str] = {
    "tempo_factor": "factor",
    "tempo_min_call_s": "min_call_s",
    "tempo_min_card_s": "min_card_s",
    "tempo_min_history": "min_history",
    "tempo_fallback_call_s": "fallback_call_s",
    "tempo_fallback_card_s": "fallback_card_s",
    "tempo_window": "window",
    "tempo_unusual_speed": "unusual_speed",
    "tempo_speed_fraction": "speed_fraction",
    "tempo_speed_min_median_s": "speed_min_median_s",
    "skip_bid_wait_s": "skip_bid_wait_s",
    "skip_bid_min_wait_s": "skip_bid_min_wait_s",
    "skip_bid_long_wait_s": "skip_bid_long_wait_s",
    "rubber_app2": "rubber_app2",
    "tempo_alert_factor": "alert_factor",
    "tempo_alert_min_s": "alert_min_s",
    "tempo_alert_min_history": "alert_min_history",
    "tempo_alert_from_trick": "alert_from_trick",
    "tempo_alert_declarer": "alert_declarer",
}
"""The table-settings keys ``TempoSettings.from_settings`` reads, each with the field it sets."""

_KEY_OF_FIELD = {f: k for k, f in SETTINGS_KEYS.items()}


@dataclass(frozen=True, slots=True)
class TempoSettings:
    """How tempo is judged at a table; every threshold in seconds of think time.

    Hesitation (Law 16 "unmistakable hesitation", Law 73 / R Proprieties 2 tempo):

    - ``factor`` (3.0): a think is long when it is at least ``factor`` times the median of
      the player's own earlier thinks of the same kind (calls apart from cards).
    - ``min_call_s`` (10), ``min_card_s`` (8): below these nothing is ever flagged, however
      quick the player usually is: a few seconds are no "unmistakable" hesitation.
    - ``min_history`` (4): the own pace is used once the seat has this many earlier thinks
      of the kind; before that ``fallback_call_s`` (25) and ``fallback_card_s`` (20) are
      the thresholds.
    - ``window`` (40): the pace keeps only the last ``window`` thinks of each kind.
    - ``unusual_speed`` (off), ``speed_fraction`` (0.25), ``speed_min_median_s`` (6): when
      on, a think at most ``speed_fraction`` of the own median is reported as unusual speed
      (Law 16 "unusual speed", R 16A "unwonted speed"), for a player whose median is at
      least ``speed_min_median_s`` (someone who always plays fast cannot be unusually fast).

    Such a think is a note on the timeline, for the arbiter who looks; it is an alert (a
    tempo irregularity awaiting his word) only when it is unusual for that player at that
    point, by this measure (``alert_point``, ``unusual_hesitation``):

    - ``alert_factor`` (5.0), ``alert_min_s`` (15): the think is at least ``alert_factor``
      times the player's own median for that kind of act, and at least ``alert_min_s``
      (a player who usually calls in 4 s is alerted from 20 s, one who takes 10 s from 50 s);
    - ``alert_min_history`` (6): the player has at least that many earlier thinks of the kind
      (his usual pace is known); before that his long thinks are notes only;
    - the point: any call (partner still has calls to make); in the play only a defender's
      card (declarer's partner, dummy, makes no decision that a hesitation could suggest:
      ``alert_declarer`` (off) includes declarer's), not before trick ``alert_from_trick`` (2):
      the opening lead and the first trick, when dummy first comes down, are where everybody
      is expected to think; and never over a card he had to play (his only legal card, the
      last trick).

    Skip bids (Law 73 ACBL note; R Appendix 2): after a skip bid the next player should
    wait about ``skip_bid_wait_s`` (10) and appear to consider his call. A wait under
    ``skip_bid_min_wait_s`` (8) is reported as too fast; one over ``skip_bid_long_wait_s``
    (None: off) as conspicuously long. ``rubber_app2`` (off): R Appendix 2 in force, so
    that any opening bid at the two level or higher is also a skip bid.
    """

    factor: float = 3.0
    min_call_s: float = 10.0
    min_card_s: float = 8.0
    min_history: int = 4
    fallback_call_s: float = 25.0
    fallback_card_s: float = 20.0
    window: int = 40
    unusual_speed: bool = False
    speed_fraction: float = 0.25
    speed_min_median_s: float = 6.0
    skip_bid_wait_s: float = 10.0
    skip_bid_min_wait_s: float = 8.0
    skip_bid_long_wait_s: float | None = None
    rubber_app2: bool = False
    alert_factor: float = 5.0
    alert_min_s: float = 15.0
    alert_min_history: int = 6
    alert_from_trick: int = 2
    alert_declarer: bool = False

    def __post_init__(self) -> None:
        _check({f.name: getattr(self, f.name) for f in fields(self)}, lambda name: name)

    @classmethod
    def from_settings(cls, settings: Mapping[str, object]) -> TempoSettings:
        """The defaults overridden by the keys of ``SETTINGS_KEYS`` found in a table-settings dict.

        Keys: ``tempo_factor``, ``tempo_min_call_s``, ``tempo_min_card_s``,
        ``tempo_min_history``, ``tempo_fallback_call_s``, ``tempo_fallback_card_s``,
        ``tempo_window``, ``tempo_unusual_speed``, ``tempo_speed_fraction``,
        ``tempo_speed_min_median_s``, ``skip_bid_wait_s``, ``skip_bid_min_wait_s``,
        ``skip_bid_long_wait_s`` (a number, or None for off), ``rubber_app2``,
        ``tempo_alert_factor``, ``tempo_alert_min_s``, ``tempo_alert_min_history``,
        ``tempo_alert_from_trick``, ``tempo_alert_declarer``; their meaning is that of the
        fields. Other keys are ignored. Raises TempoSettingsError (a
        ValueError) naming the key for a value of the wrong type or out of range.
        """
        values = {f.name: getattr(_DEFAULTS, f.name) for f in fields(cls)}
        for key, name in SETTINGS_KEYS.items():
            if key in settings:
                values[name] = settings[key]
        _check(values, lambda name: _KEY_OF_FIELD[name])
        return replace(_DEFAULTS, **values)

    def min_s(self, kind: ActKind) -> float:
        """The think time below which nothing of ``kind`` is flagged."""
        return self.min_call_s if kind is ActKind.CALL else self.min_card_s

    def fallback_s(self, kind: ActKind) -> float:
        """The threshold of ``kind`` used while the seat has too little history."""
        return self.fallback_call_s if kind is ActKind.CALL else self.fallback_card_s


def _check(values: Mapping[str, object], label: Callable[[str], str]) -> None:
    """Raise TempoSettingsError, naming the field by ``label``, for a nonsense value."""

    def bad(name: str, why: str) -> TempoSettingsError:
        return TempoSettingsError(f"tempo setting {label(name)} = {values[name]!r}: {why}")

    def flag(name: str) -> bool:
        v = values[name]
        if not isinstance(v, bool):
            raise bad(name, "expected true or false")
        return v

    def count(name: str) -> int:
        v = values[name]
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise bad(name, "expected a whole number of at least 1")
        return v

    def number(name: str, positive: bool) -> float:
        v = values[name]
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise bad(name, "expected a number of seconds" if name.endswith("_s") else "expected a number")
        if v < 0 or (positive and v == 0):
            raise bad(name, "must be more than 0" if positive else "must not be negative")
        return float(v)

    flag("unusual_speed")
    flag("rubber_app2")
    flag("alert_declarer")
    count("alert_min_history")
    if count("alert_from_trick") > 13:
        raise bad("alert_from_trick", "must be a trick, 1 to 13")
    if number("alert_factor", positive=True) < 1:
        raise bad("alert_factor", "must be at least 1")
    number("alert_min_s", positive=False)
    min_history = count("min_history")
    if count("window") < min_history:
        raise bad("window", f"must keep at least {label('min_history')} = {min_history} thinks")
    if number("factor", positive=True) < 1:
        raise bad("factor", "must be at least 1: a think shorter than the own pace is no hesitation")
    for name in ("min_call_s", "min_card_s", "speed_min_median_s"):
        number(name, positive=False)
    for name in ("fallback_call_s", "fallback_card_s"):
        number(name, positive=True)
    if number("speed_fraction", positive=True) >= 1:
        raise bad("speed_fraction", "must be less than 1")
    wait = number("skip_bid_wait_s", positive=True)
    if number("skip_bid_min_wait_s", positive=False) > wait:
        raise bad("skip_bid_min_wait_s", f"must not be more than {label('skip_bid_wait_s')} = {wait:g}")
    if values["skip_bid_long_wait_s"] is not None and number("skip_bid_long_wait_s", positive=True) <= wait:
        raise bad("skip_bid_long_wait_s", f"must be more than {label('skip_bid_wait_s')} = {wait:g}")


_DEFAULTS = TempoSettings()


# -- think times ---------------------------------------------------------------------------

def think_time(previous_t: float, t: float, pauses: Sequence[tuple[float, float]] = ()) -> float:
    """The think time of an act at ``t``: seconds since the previous act at the table at ``previous_t``.

    Time inside ``pauses`` (``(from, to)`` intervals, e.g. an arbiter call: Laws 16, 73
    asks that timers stop then) is left out. An act recorded before the previous one
    (simultaneous acts, Laws 33 and 58, ordered within the clock's accuracy) counts as no
    thought: 0.
    """
    if not (math.isfinite(previous_t) and math.isfinite(t)):
        raise ValueError(f"think time between {previous_t!r} and {t!r}: times must be finite")
    paused = 0.0
    for start, end in pauses:
        paused += max(0.0, min(end, t) - max(start, previous_t))
    return max(0.0, t - previous_t - paused)


def think_times(acts: Sequence[tuple[Seat, float]], start: float,
                pauses: Sequence[tuple[float, float]] = ()) -> tuple[tuple[Seat, float], ...]:
    """Each timed act ``(seat, t)`` of a board with its think time, in the order given.

    The first act's think runs from ``start`` (the board's start); each other's from the
    act before it at the table, whoever made it: the opening lead's think runs from the
    final pass. ``pauses`` as in ``think_time``.
    """
    out: list[tuple[Seat, float]] = []
    previous = start
    for seat, t in acts:
        out.append((seat, think_time(previous, t, pauses)))
        previous = max(previous, t)
    return tuple(out)


# -- own pace ------------------------------------------------------------------------------

_EMPTY: tuple[tuple[float, ...], ...] = ((), (), (), ())


@dataclass(frozen=True, slots=True)
class Pace:
    """Each seat's recent think times, calls apart from cards: the player's own tempo.

    ``calls[seat]`` and ``cards[seat]`` hold the last ``window`` thinks, oldest first.
    A seat is one player for as long as he sits there: when players change seats (a new
    round), start a new Pace, or keep one per player.
    """

    calls: tuple[tuple[float, ...], ...] = _EMPTY
    cards: tuple[tuple[float, ...], ...] = _EMPTY
    window: int = 40

    def __post_init__(self) -> None:
        if isinstance(self.window, bool) or not isinstance(self.window, int) or self.window < 1:
            raise ValueError(f"invalid pace window {self.window!r}: expected a whole number of at least 1")
        if len(self.calls) != 4 or len(self.cards) != 4:
            raise ValueError("a pace holds think times for exactly four seats")

    @classmethod
    def for_settings(cls, settings: TempoSettings) -> Pace:
        """An empty pace keeping the window of ``settings``."""
        return cls(window=settings.window)

    def times(self, seat: Seat, kind: ActKind) -> tuple[float, ...]:
        """The kept think times of ``seat`` over ``kind``, oldest first."""
        return (self.calls if ActKind(kind) is ActKind.CALL else self.cards)[seat]

    def with_time(self, seat: Seat, kind: ActKind, seconds: float) -> Pace:
        """The pace after ``seat`` thought ``seconds`` over a ``kind``; only the last ``window`` are kept."""
        call = kind == ActKind.CALL
        table = self.calls if call else self.cards
        kept = (*table[seat], float(seconds))
        if len(kept) > self.window:
            kept = kept[-self.window:]
        table = (*table[:seat], kept, *table[seat + 1:])
        # evolve skips __post_init__: the window and the four seats are unchanged
        return evolve(self, calls=table) if call else evolve(self, cards=table)

    def count(self, seat: Seat, kind: ActKind) -> int:
        """How many think times of ``seat`` over ``kind`` are kept."""
        return len(self.times(seat, kind))

    def median(self, seat: Seat, kind: ActKind) -> float | None:
        """The median of the kept think times of ``seat`` over ``kind``; None without any."""
        times = self.times(seat, kind)
        return statistics.median(times) if times else None

    def spread(self, seat: Seat, kind: ActKind) -> tuple[float, float] | None:
        """The lower and upper quartile of the kept think times (Laws 16, 73 "median and spread")."""
        times = self.times(seat, kind)
        if not times:
            return None
        if len(times) == 1:
            return (times[0], times[0])
        q1, _, q3 = statistics.quantiles(times, n=4, method="inclusive")
        return (q1, q3)


def _counted(seconds: float, after_skip_bid: bool, settings: TempoSettings) -> float:
    """The part of a think that is the player's own: a required skip-bid wait is not."""
    if after_skip_bid:
        return max(0.0, seconds - settings.skip_bid_wait_s)
    return seconds


def record_think(pace: Pace, seat: Seat, kind: ActKind, seconds: float, *,
                 after_skip_bid: bool = False) -> Pace:
    """The pace after a think, leaving out a call made right after an opponent's skip bid.

    Required skip-bid waits must be kept out of hesitation statistics (Laws 16, 73): the
    wait hides how long the player really thought, so such a call says nothing about his
    pace. Call ``hesitation`` first, with the pace before this think.
    """
    if after_skip_bid and ActKind(kind) is ActKind.CALL:
        return pace
    return pace.with_time(seat, kind, seconds)


def _secs(seconds: float) -> str:
    """``41 s``, ``6 s``, ``2.5 s``: whole seconds from 10 up, tenths below."""
    if seconds >= 10 or seconds == int(seconds):
        return f"{seconds:.0f} s"
    return f"{seconds:.1f} s"


def hesitation(pace: Pace, seat: Seat, kind: ActKind, seconds: float, settings: TempoSettings, *,
               after_skip_bid: bool = False) -> str | None:
    """An explanation when ``seat`` thought far longer over a ``kind`` than his own pace, else None.

    Evidence for the arbiter's first question under Law 16 ("was there a hesitation?")
    and for Law 73 / R Proprieties 2 (tempo); never a verdict. ``pace`` is the pace
    *before* this think. The rule, in seconds:

    - counted = ``seconds``; for a call right after an opponent's skip bid
      (``after_skip_bid``) the required wait is not his thinking: counted =
      ``seconds - skip_bid_wait_s`` (at least 0). A call within the wait is thus never a
      hesitation; a longer one is judged on what went beyond the wait.
    - with ``min_history`` or more earlier thinks of the kind, the threshold is
      ``max(min_s, factor * own median)``; with fewer, ``max(min_s, fallback_s)``.
    - flagged when counted >= threshold.

    >>> hesitation(Pace().with_time(Seat.E, ActKind.CALL, 6.0), Seat.E, ActKind.CALL, 41.0,
    ...            TempoSettings(min_history=1))
    'E thought 41 s over a call; own median 6 s'
    """
    kind = ActKind(kind)
    counted = _counted(seconds, after_skip_bid, settings)
    what = f"{seat} thought {_secs(seconds)} over a {kind}"
    if after_skip_bid:
        what += (f" after a skip bid ({_secs(counted)} beyond the {_secs(settings.skip_bid_wait_s)}"
                 " wait)")
    n = pace.count(seat, kind)
    median = pace.median(seat, kind)
    if n >= settings.min_history and median is not None:
        if counted >= max(settings.min_s(kind), settings.factor * median):
            return f"{what}; own median {_secs(median)}"
        return None
    threshold = max(settings.min_s(kind), settings.fallback_s(kind))
    if counted >= threshold:
        earlier = f"{n} earlier {kind}" + ("" if n == 1 else "s")
        return f"{what}; no own pace yet ({earlier}), flagged from {_secs(threshold)}"
    return None


def alert_point(kind: ActKind, trick: int | None, declaring_side: bool, settings: TempoSettings,
                choices: int | None = None) -> bool:
    """Whether a long think at this point may be an alert (``TempoSettings``): any call; a
    defender's card from trick ``alert_from_trick`` on (declarer's too with ``alert_declarer``),
    unless he had no choice (``choices``: the cards he could legally play, None if unknown; at
    the last trick there is one): a think over a forced card suggests nothing."""
    if ActKind(kind) is ActKind.CALL:
        return True
    if declaring_side and not settings.alert_declarer:
        return False
    if choices == 1 or trick == 13:
        return False
    return trick is not None and trick >= settings.alert_from_trick


def unusual_hesitation(pace: Pace, seat: Seat, kind: ActKind, seconds: float, settings: TempoSettings, *,
                       after_skip_bid: bool = False) -> str | None:
    """Why a think is unusual for this player by the alert measure, else None (Laws 16, 73).

    With at least ``alert_min_history`` earlier thinks of the kind (``pace`` is the pace
    before this think), the think counted (the skip-bid wait left out, as in ``hesitation``)
    is at least ``max(alert_min_s, alert_factor * own median)``. Whether the point of the
    hand allows an alert is ``alert_point``.

    >>> pace = Pace()
    >>> for _ in range(6):
    ...     pace = pace.with_time(Seat.E, ActKind.CALL, 4.0)
    >>> unusual_hesitation(pace, Seat.E, ActKind.CALL, 22.0, TempoSettings())
    'unusual for E: 22 s, at least 5 times his own median of 4 s over his last 6 calls'
    """
    kind = ActKind(kind)
    n = pace.count(seat, kind)
    median = pace.median(seat, kind)
    if n < settings.alert_min_history or median is None:
        return None
    counted = _counted(seconds, after_skip_bid, settings)
    if counted >= max(settings.alert_min_s, settings.alert_factor * median):
        return (f"unusual for {seat}: {_secs(counted)}, at least {settings.alert_factor:g} times his own median "
                f"of {_secs(median)} over his last {n} {kind}s")
    return None


def unusual_speed(pace: Pace, seat: Seat, kind: ActKind, seconds: float, settings: TempoSettings, *,
                  after_skip_bid: bool = False) -> str | None:
    """An explanation when ``seat`` acted far faster than his own pace (Law 16 "unusual speed"), else None.

    Only with ``settings.unusual_speed`` on, once the seat has ``min_history`` earlier
    thinks of the kind and an own median of at least ``speed_min_median_s``: flagged
    when ``seconds <= speed_fraction * median``. A call right after a skip bid is judged
    by ``skip_bid_wait`` instead.
    """
    kind = ActKind(kind)
    if not settings.unusual_speed or (after_skip_bid and kind is ActKind.CALL):
        return None
    median = pace.median(seat, kind)
    if pace.count(seat, kind) < settings.min_history or median is None:
        return None
    if median >= settings.speed_min_median_s and seconds <= settings.speed_fraction * median:
        return f"{seat} took only {_secs(seconds)} over a {kind}; own median {_secs(median)}"
    return None


# -- skip bids -----------------------------------------------------------------------------

def is_skip_bid(previous_bid_rank: int | None, bid: Call, rubber_app2: bool) -> bool:
    """Whether ``bid`` is a skip bid (Law 73 ACBL note; R Appendix 2).

    A skip bid is a jump: a bid at a level higher than the lowest sufficient level in its
    denomination over the previous bid (of rank ``previous_bid_rank``, ``Call.rank``).
    With no previous bid there is nothing to jump over, so an opening bid is a skip bid
    only under R Appendix 2 (``rubber_app2``), which adds any opening bid at the two
    level or higher. Passes, doubles, redoubles and insufficient bids are not skip bids.
    """
    if not bid.is_bid or bid.denomination is None:
        return False
    if previous_bid_rank is None:
        return rubber_app2 and bid.level >= 2
    if bid.rank <= previous_bid_rank:
        return False
    lowest = (previous_bid_rank - bid.denomination.value) // 5 + 2
    return bid.level > lowest


def is_skip_bid_after(auction: Auction, call: Call, rubber_app2: bool) -> bool:
    """Whether ``call``, made in ``auction`` (the auction before it), is a skip bid; see ``is_skip_bid``."""
    last = auction.last_bid
    return is_skip_bid(None if last is None else last.rank, call, rubber_app2)


def skip_bid_wait(stop_shown: bool, wait_seconds: float, settings: TempoSettings, *,
                  seat: Seat | None = None) -> str | None:
    """An explanation when the next player's wait after a skip bid was too fast (or too long), else None.

    After a skip bid, with or without the Stop card, the next player should wait about
    ``skip_bid_wait_s`` seconds and appear to consider his call (Law 73, ACBL note;
    R Appendix 2). Flagged when ``wait_seconds < skip_bid_min_wait_s``, and, if
    ``skip_bid_long_wait_s`` is set, when ``wait_seconds > skip_bid_long_wait_s``.
    ``seat`` (the next player) only names him in the text.
    """
    who = "the next player" if seat is None else str(seat)
    card = "Stop card shown" if stop_shown else "no Stop card"
    expected = f"about {_secs(settings.skip_bid_wait_s)} is expected"
    if wait_seconds < settings.skip_bid_min_wait_s:
        return (f"{who} called {_secs(wait_seconds)} after the skip bid ({card}); {expected},"
                f" under {_secs(settings.skip_bid_min_wait_s)} is too fast")
    long = settings.skip_bid_long_wait_s
    if long is not None and wait_seconds > long:
        return f"{who} waited {_secs(wait_seconds)} after the skip bid ({card}); {expected}"
    return None


# -- PBN time tables -----------------------------------------------------------------------

def pbn_time(seconds: float | None, *, hours: bool = False) -> str:
    """A PBN 2.1 time table element (§5.4, §5.8): ``MM:SS``, or ``HH:MM:SS`` from one hour on.

    Whole seconds, rounded half up; ``hours`` always writes ``HH:MM:SS``. None, an
    unknown time, is ``?`` (§5.2).
    """
    if seconds is None:
        return "?"
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"invalid time {seconds!r}: expected seconds, 0 or more")
    whole = math.floor(seconds + 0.5)
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    if h or hours:
        return f"{h:02d}:{m:02d}:{s:02d}"
    return f"{m:02d}:{s:02d}"


def _table(tag: str, times: Sequence[float | str | None],
           totals: Sequence[float | str | None] | None) -> list[str]:
    """The tag line and rows of a time table; a str element is written as it is."""

    def cell(v: float | str | None, hours: bool) -> str:
        return v if isinstance(v, str) else pbn_time(v, hours=hours)

    if totals is None:
        return [f'[{tag} "Time"]', *(cell(v, False) for v in times)]
    return [f'[{tag} "Time;TotalTime"]',
            *(f"{cell(v, False)} {cell(w, True)}" for v, w in zip(times, totals, strict=True))]


def auction_time_table(dealer: Seat, call_seconds: Sequence[float | None], *,
                       first: Seat | None = None,
                       total_seconds: Sequence[float | None] | None = None) -> list[str]:
    """The PBN 2.1 AuctionTimeTable of an auction (PBN 2.1 §5.4, table format §5.2), as text lines.

    ``call_seconds`` are the think times of the calls in the order of the call tokens of
    the Auction section, from the dealer's (the first call in export format, §3.5).
    ``first``: the seat of the Auction tag when it is not the dealer (import format): a
    ``-`` row stands for each ``-`` call token before the dealer. ``total_seconds``,
    when given, adds the column TotalTime: the time of each call since the start of the
    board. An unknown time (None) is written ``?``.

    The tag value names the columns (``Time`` or ``Time;TotalTime``); each following line
    is one row, one call: Time as ``MM:SS`` (``HH:MM:SS`` from an hour on), TotalTime as
    ``HH:MM:SS``, whole seconds, elements separated by one space (export format, §5.2).
    In export format supplemental sections follow the Play section, sorted by tag name
    (§3.1): AuctionTimeTable before PlayTimeTable. No calls, no table: ``[]``.

    >>> auction_time_table(Seat.N, [4, 2.4, 12])
    ['[AuctionTimeTable "Time"]', '00:04', '00:02', '00:12']
    """
    if total_seconds is not None and len(total_seconds) != len(call_seconds):
        raise ValueError(f"{len(total_seconds)} total times for {len(call_seconds)} calls")
    if not call_seconds:
        return []
    lead = 0 if first is None else (dealer - first) & 3
    times: list[float | str | None] = ["-"] * lead + list(call_seconds)
    totals: list[float | str | None] | None = None
    if total_seconds is not None:
        totals = ["-"] * lead + list(total_seconds)
    return _table("AuctionTimeTable", times, totals)


def play_time_table(opening_leader: Seat, card_seconds: Sequence[tuple[Seat, float | None]], *,
                    total_seconds: Sequence[float | None] | None = None) -> list[str]:
    """The PBN 2.1 PlayTimeTable of the play (PBN 2.1 §5.8, table format §5.2), as text lines.

    ``card_seconds`` are the cards as played, each as (seat of the player, think time);
    every four make a trick. Rows follow the card tokens of the Play section (§3.6): a
    trick per line, in seat columns from the opening leader, whoever led the trick; a
    card not played in the last trick (a claim) is a ``-`` token there, so its row is
    ``-`` (irrelevant, §5.2). ``total_seconds`` and the format as in
    ``auction_time_table``. No cards, no table: ``[]``.

    Raises ValueError when a seat plays twice to one trick.
    """
    if total_seconds is not None and len(total_seconds) != len(card_seconds):
        raise ValueError(f"{len(total_seconds)} total times for {len(card_seconds)} cards")
    if not card_seconds:
        return []
    times: list[float | str | None] = []
    totals: list[float | str | None] = []
    for start in range(0, len(card_seconds), 4):
        row_times: list[float | str | None] = ["-"] * 4
        row_totals: list[float | str | None] = ["-"] * 4
        filled = [False] * 4
        for k, (seat, seconds) in enumerate(card_seconds[start:start + 4]):
            column = (seat - opening_leader) & 3
            if filled[column]:
                raise ValueError(f"two cards by {seat} in trick {start // 4 + 1}")
            filled[column] = True
            row_times[column] = seconds
            if total_seconds is not None:
                row_totals[column] = total_seconds[start + k]
        times.extend(row_times)
        totals.extend(row_totals)
    return _table("PlayTimeTable", times, totals if total_seconds is not None else None)
