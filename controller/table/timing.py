"""Think times and hesitations (Laws 16, 73): each call and card is timed from the previous
act at the table and judged against the player's own pace; the time while the table waits
for a ruling or for the arbiter is nobody's think (Laws 16, 73; D 16, 73; R 16A).
"""

from __future__ import annotations

from controller import rulings as r
from controller.irregularities import Irregularity
from controller.seats import Seat
from controller.table._common import _raise
from controller.table.state import BoardState, Phase, TableState
from controller.tempo import ActKind, Pace, alert_point, hesitation, record_think, think_time, unusual_hesitation
from controller.values import evolve


def _since_last_act(board: BoardState, t: float) -> float:
    """Seconds since the previous call or card at the table (the board's start for the first)."""
    return t - (board.start_t if board.last_t is None else board.last_t)


def _timed(state: TableState, board: BoardState, seat: Seat, kind: ActKind, t: float,
           after_skip: bool) -> tuple[TableState, BoardState, Irregularity | None]:
    """Time one call or card (Laws 16, 73): a think far beyond the player's own pace is a note on
    the timeline (``hesitation``); an alert for the arbiter only when it is unusual for that
    player at that point (``unusual_hesitation``: the measure of ``TempoSettings``)."""
    think = max(0.0, _since_last_act(board, t))
    irr = None
    # the player's own pace is read from the timing already kept, and only for a long think:
    # most acts cost one subtraction (the caller copies the board once with ``last_t=t``)
    if think >= state.tempo.min_s(kind):
        pace = _pace(state, board, seat, kind)
        why = hesitation(pace, seat, kind, think, state.tempo, after_skip_bid=after_skip)
        if why is not None:
            play = board.play
            trick = play.trick_number if play is not None else None
            declaring = play is not None and seat.side is play.declarer.side
            legal = (r.playable_cards(play, seat, board.obligations, board.penalty_cards)
                     if play is not None and kind is ActKind.CARD else None)
            point = alert_point(kind, trick, declaring, state.tempo, None if legal is None else len(legal))
            unusual = (unusual_hesitation(pace, seat, kind, think, state.tempo, after_skip_bid=after_skip)
                       if point else None)
            situation = "unusual_hesitation" if unusual else "hesitation"
            state, board, irr = _raise(state, board, situation, seat,
                                       why + (f" ({unusual})" if unusual else ""), t, trick)
    return state, board, irr


def think_times(board: BoardState, kind: ActKind) -> list[tuple[Seat, float]]:
    """Each call's or card's think time on ``board``, in order: the time since the previous act."""
    if kind is ActKind.CALL:
        seats: list[Seat] = list(board.auction.seats)
        times, previous = board.call_times, board.start_t
    else:
        play = board.play
        if play is None:
            return []
        seats = [trick.seat_of(i) for trick in (*play.tricks, play.current) for i in range(len(trick.cards))]
        times, previous = board.play_times, board.call_times[-1] if board.call_times else board.start_t
    out: list[tuple[Seat, float]] = []
    for s, t in zip(seats, times, strict=False):
        out.append((s, think_time(previous, t, board.pauses) if board.pauses else max(0.0, t - previous)))
        previous = t
    return out


def _pause_timers(state: TableState, irr: Irregularity, t: float) -> TableState:
    """The state with the think timer stopped while the arbiter ruled on ``irr`` (Laws 16, 73).

    The pause runs from the irregularity (or the last act, if later) to the ruling: that
    time is the arbiter's, not the next player's think (D 16, 73; R 16A judge a player's own
    tempo). ``last_t`` moves on by the pause, so the next act's think leaves it out, and the
    pause is kept for ``think_times``.
    """
    board = state.board
    if board is None or board.phase is Phase.DONE:
        return state
    last = board.start_t if board.last_t is None else board.last_t
    # (a wait the table was in has already been left out up to now: ``_end_wait``)
    start = max(last, irr.t, board.pauses[-1][1] if board.pauses else last)
    if t <= start:
        return state
    return evolve(state, board=evolve(board, last_t=last + (t - start), pauses=(*board.pauses, (start, t))))


def _timer_after(board: BoardState, t: float) -> float:
    """Where the think timer stands after a card at ``t``: at ``t``, never back before where it stood.

    A ruling or a player's choice may put in a card held aside at the time it was put down (a
    card played instead of a penalty card, accepted by declarer; an accepted lead out of turn):
    the timer does not go back to that time, so the next player's think starts when play
    resumes, not while the table waited (D 16, 73; R 16A; docs/irregularities.md, "Tempo")."""
    return t if board.last_t is None else max(t, board.last_t)


def _thinks(board: BoardState, seat: Seat, kind: ActKind) -> list[float]:
    """``seat``'s think times over calls or cards on ``board``, in order."""
    return [x for s, x in think_times(board, kind) if s is seat]


def _pace(state: TableState, board: BoardState, seat: Seat, kind: ActKind) -> Pace:
    """The player's recent thinks (this board and the ones before), as a tempo ``Pace``."""
    window = state.tempo.window
    times = _thinks(board, seat, kind)
    for outcome in reversed(state.boards):
        if len(times) >= window:
            break
        times = _thinks(outcome.board, seat, kind) + times
    pace = Pace.for_settings(state.tempo)
    for x in times[-window:]:
        pace = record_think(pace, seat, kind, x)
    return pace


def _end_wait(state: TableState, t: float) -> TableState:
    """The state with the wait in progress ended at ``t``: that time is nobody's think.

    While the table waits for a ruling (a call or card held aside, a lead option or a
    designation awaited, a disputed claim that stops the play) or for the arbiter after a call
    of the Director, no think time runs (Laws 16, 73; D 16, 73; R 16A): ``last_t`` moves on by
    the wait and the interval is kept in ``pauses`` for ``think_times``.
    """
    board = state.board
    if board is None or board.waiting_since is None:
        return state
    last = board.start_t if board.last_t is None else board.last_t
    start = max(last, board.waiting_since)
    board = evolve(board, waiting_since=None)
    if t > start:
        board = evolve(board, last_t=last + (t - start), pauses=(*board.pauses, (start, t)))
    return evolve(state, board=board)


_WAITED_FOR = frozenset(("lead_restriction_from_withdrawn_call", "major_pc_partner_on_lead",
                         "penalty_cards_designation"))


def _start_wait(state: TableState, t: float, director_called: bool) -> TableState:
    """The state with a wait started at ``t`` when the table now waits for a ruling or for the
    arbiter (``_end_wait``); unchanged otherwise."""
    board = state.board
    if board is None or board.phase is Phase.DONE or board.waiting_since is not None:
        return state
    claim = board.claim
    # a claim or concession suspends the play (D 68D; 2017 68D) until it is agreed, withdrawn, ruled or
    # played on; under a code where a disputed claim is played out (R 69, 70) the play goes on
    waits = (director_called or bool(board.held)
             or (claim is not None and (claim.disputed is None or not state.code.rules.disputed_claim_plays_on))
             or any(i is not None and i.status == "awaiting_ruling" and i.situation in _WAITED_FOR
                    for i in map(state.irregularity, board.irregularity_ids)))
    return evolve(state, board=evolve(board, waiting_since=t)) if waits else state
