"""A card played in turn into the trick, and everything that follows from it (Law 44).

The card's think time (Laws 16, 73); a revoke (Law 61), also one revealed later by a card
of a suit the player showed out of (Laws 61-64); a failure to comply with a lead or
play restriction (Law 59); a revoke established by playing to a later trick (Law 63A1); a
penalty card played leaves the table (Law 50); the trick won and the restrictions that
end with it (Laws 26, 57); the board played out; declarer's lead options at the next lead
(Laws 26, 50, 51); cards played early that count at their turn (Law 57 note, 60). An
accepted lead out of turn leads the trick (Laws 53, 54A); declarer and dummy exchanged
(Law 54A).
"""

from __future__ import annotations

from controller import rulings as r
from controller.cards import Card, Suit
from controller.contract import Contract
from controller.irregularities import Irregularity, detect_revoke
from controller.play import Trick
from controller.rulings import Held, Obligation, RevokeRecord
from controller.seats import Seat
from controller.table._common import _SUIT_NAMES, _raise
from controller.table.closing import _cite_revokes, _close
from controller.table.penalties import _designation_due, _lead_options_due
from controller.table.record import _opening_lead_faced
from controller.table.state import BoardState, Event, Phase, Step, TableState
from controller.table.timing import _since_last_act, _timed, _timer_after
from controller.tempo import ActKind
from controller.values import evolve


def _play_card(state: TableState, board: BoardState, seat: Seat, card: Card, t: float, how: str) -> Step:
    state, board, events, irrs = _play(state, board, seat, card, t, how)
    return Step(state, tuple(events), tuple(irrs))


def _play(state: TableState, board: BoardState, seat: Seat, card: Card, t: float,
          how: str) -> tuple[TableState, BoardState, list[Event], list[Irregularity]]:
    """Play ``card`` by ``seat`` (in turn) into the trick, with everything that follows from it."""
    play = board.play
    assert play is not None
    trick_no = play.trick_number
    events: list[Event] = []
    irrs: list[Irregularity] = []
    claim = board.claim
    if claim is not None:
        events.append(Event("claim_withdrawn" if claim.disputed is None else "play_after_claim",
                            "play continued", seat, t))
        if claim.disputed is None:
            claim = None
    if state.policy.timing and _since_last_act(board, t) >= state.tempo.min_card_s:
        state, board, tempo = _timed(state, board, seat, ActKind.CARD, t, False)
        if tempo is not None:
            irrs.append(tempo)
    led = play.current.suit_led
    revoke = detect_revoke(play, seat, card)
    broken = (r.restriction_broken(play, seat, card, board.obligations)
              if board.obligations and not revoke else None)
    shown_out = board.shown_out
    if revoke is None and play.hands[seat] is None:
        late = _revoke_shown_later(board, seat, card)
        if late is not None:
            # the card that reveals the revoke was a penalty card on the table at the time:
            # the revoke was made in failing to play a faced card (D 64B3; R 64D3)
            twelfth = late == 12 and state.code.rules.twelfth_trick_revoke_corrected
            faced = not twelfth and state.code.rules.faced_card_revoke_exempt and _faced_since(
                state, board, seat, card, late)
            situation = "revoke_twelfth_trick" if twelfth else "revoke_faced_card" if faced else "revoke"
            state, board, irr = _raise(state, board, situation, seat,
                                       f"{seat} showed out of {_SUIT_NAMES[card.suit]} at trick {late} and now "
                                       f"plays {card}" + (" (a penalty card on the table)" if faced else ""),
                                       t, late)
            established = trick_no > late
            board = evolve(board, revokes=(*board.revokes, RevokeRecord(
                irr.id, seat, late, card.suit, established,
                "twelfth_trick" if twelfth else "faced_card" if faced else "")))
            irrs.append(irr)
            # Laws 61-64: that show-out is now one revoke, reported once; later cards of
            # the suit reveal nothing more (a later show-out starts a new ledger entry)
            shown_out = tuple(x for x in shown_out if not (x[0] is seat and x[1] is card.suit))
        if led is not None and card.suit is not led:
            shown_out = (*shown_out, (seat, led, trick_no))
    if revoke is not None and led is not None:
        # D 64B3, R 64D3: when every card of the suit led that he held lay face up on the table
        # as a penalty card, the revoke was made in failing to play a faced card: no transfer
        twelfth = trick_no == 12 and state.code.rules.twelfth_trick_revoke_corrected
        only_faced = (_only_faced_cards_of(board, seat, led)
                      if not twelfth and state.code.rules.faced_card_revoke_exempt else "")
        situation = "revoke_twelfth_trick" if twelfth else "revoke_faced_card" if only_faced else "revoke"
        holding = f"only the penalty card {only_faced}" if only_faced else _SUIT_NAMES[led]
        state, board, irr = _raise(state, board, situation, seat,
                                   f"{seat} played {card} on a {_SUIT_NAMES[led]} lead holding {holding}",
                                   t, trick_no)
        board = evolve(board, revokes=(*board.revokes, RevokeRecord(
            irr.id, seat, trick_no, led, False,
            "twelfth_trick" if twelfth else "faced_card" if only_faced else "")))
        irrs.append(irr)
    if broken is not None:
        state, board, irr = _raise(state, board, "failure_to_comply_with_restriction", seat,
                                   f"{seat} played {card} though he could comply with "
                                   f"{broken.kind.replace('_', ' ')} (Law 59)", t, trick_no)
        irrs.append(irr)
    # Law 63: the revoker or his partner playing to a later trick establishes his revoke
    if board.revokes:
        revokes = []
        for rv in board.revokes:
            if (not rv.established and rv.seat.side is seat.side and trick_no > rv.trick
                    and state.code.rules.both_sides_revokes_on_one_trick_corrected and any(
                        o.trick == rv.trick and o.seat.side is not rv.seat.side and not o.established
                        and not o.exempt for o in board.revokes)):
                # 2017 Law 62C3: both sides revoked on this trick and only one side has played to the
                # next: both revokes are still to be corrected (63B), so this one is not established
                if play.current.card_of(seat.partner) is None and not any(
                        e.kind == "revoke_both_sides" for e in events):
                    events.append(Event("revoke_both_sides", f"both sides revoked at trick {rv.trick}: both "
                                        "revokes must be corrected (Law 62C3)", rv.seat, t))
            elif not rv.established and rv.seat.side is seat.side and trick_no > rv.trick:
                rv = evolve(rv, established=True)
                events.append(Event("revoke_established", f"revoke at trick {rv.trick} by {rv.seat}",
                                    rv.seat, t))
            revokes.append(rv)
        if revokes != list(board.revokes):
            board = evolve(board, revokes=tuple(revokes))
            state = _cite_revokes(state, board)
    pcs = board.penalty_cards
    if pcs and any(pc.card == card for pc in pcs):
        pcs = tuple(pc for pc in pcs if pc.card != card)
    play = play.with_card(card)
    bit = 1 << card.index
    board = evolve(board, play=play, played=board.played | bit, shown_out=shown_out,
                   play_times=(*board.play_times, t), penalty_cards=pcs, last_card=(seat, t),
                   obligations=_after_card(board.obligations, seat, trick_no, led is None)
                   if board.obligations else (), claim=claim, last_t=_timer_after(board, t))
    events.append(Event("card", str(card) + (f" ({how})" if how else ""), seat, t))
    if board.standing and not play.tricks and len(play.current.cards) == 1:
        state, board, more = _opening_lead_faced(evolve(state, board=board), board, t)
        events.extend(more)
    if not play.current.cards and play.tricks:
        winner = play.tricks[-1].winner
        assert winner is not None
        events.append(Event("trick", f"trick {len(play.tricks)} to {winner}", winner, t))
        if board.obligations:  # most boards have none: no copy of the board for nothing
            board = evolve(board, obligations=tuple(
                o for o in board.obligations
                if not (o.kind == r.PLAY_OPT_57 or (o.kind == r.LEAD_BAN and o.seat is not winner))))
    state = evolve(state, board=board)
    if play.is_complete:
        state = _close(state, board, "played", play.declarer_tricks)
        events.append(Event("board_done", "13 tricks played", None, t))
        return state, board, events, irrs
    if not play.current.cards and (board.obligations or board.penalty_cards):
        state, board, more = _lead_options_due(state, board, t)
        events.extend(more)
        irrs.extend(i for i in state.irregularities[-1:] if more and i.id == state.irregularity_count)
    if board.deferred:
        state, board, more_events, more_irrs = _play_deferred(state, board, t)
        events, irrs = events + more_events, irrs + more_irrs
    if board.early_leads and board.play is not None and not board.play.current.cards and board.phase is Phase.PLAY:
        state, board, more_events, more_irrs = _release_early_leads(state, board, t)
        events, irrs = events + more_events, irrs + more_irrs
    if board.penalty_cards and board.phase is Phase.PLAY:
        state, board, more_events, more_irrs = _designation_due(state, board, t)
        events, irrs = events + more_events, irrs + more_irrs
    return state, board, events, irrs


def _release_early_leads(state: TableState, board: BoardState,
                         t: float) -> tuple[TableState, BoardState, list[Event], list[Irregularity]]:
    """A lead made before the trick was complete (Law 57C) now counts as a lead to this trick: in
    turn it is the lead, else a lead out of turn (Laws 53, 56) judged as any other card."""
    # the card goes to the table as if put down now (``play`` imports this module)
    from controller.actions import PlayCard
    from controller.table.play import _card

    events: list[Event] = []
    irrs: list[Irregularity] = []
    for seat, card, _t in board.early_leads:
        board = evolve(board, early_leads=tuple(x for x in board.early_leads if x[1] != card))
        result = _card(evolve(state, board=board), PlayCard(seat, card, t))
        state = result.state
        board = state.board if state.board is not None else board
        events.extend(result.events)
        irrs.extend(result.irregularities)
    return state, board, events, irrs


def _after_card(obligations: tuple[Obligation, ...], seat: Seat, trick: int,
                leading: bool) -> tuple[Obligation, ...]:
    """Obligations left after ``seat`` plays: a lead requirement is used up by the lead (Law 26)."""
    if not obligations:
        return obligations
    return tuple(o for o in obligations
                 if not (o.seat is seat and leading and o.kind == r.LEAD_REQ))


def _play_deferred(state: TableState, board: BoardState,
                   t: float) -> tuple[TableState, BoardState, list[Event], list[Irregularity]]:
    """Cards played early that stand (Law 57 note, 60) count when their seat's turn comes."""
    events: list[Event] = []
    irrs: list[Irregularity] = []
    while board.deferred and board.play is not None and board.phase is Phase.PLAY:
        turn = board.play.turn
        mine = [d for d in board.deferred if d[0] is turn]
        if not mine:
            break
        seat, card = mine[0]
        board = evolve(board, deferred=tuple(d for d in board.deferred if d != mine[0]))
        state, board, ev, ir = _play(evolve(state, board=board), board, seat, card, t, "")
        events.extend(ev)
        irrs.extend(ir)
    return state, board, events, irrs


def _only_faced_cards_of(board: BoardState, seat: Seat, suit: Suit) -> str:
    """The penalty cards of ``suit`` that ``seat`` holds, as text, when they are all the cards of
    ``suit`` in his hand (he can follow only with a card faced on the table); else ``""``."""
    play = board.play
    hand = play.hands[seat] if play is not None else None
    if hand is None or not board.penalty_cards:
        return ""
    of_suit = {c for c in hand if c.suit is suit}
    faced = {pc.card for pc in board.penalty_cards if pc.seat is seat}
    return " ".join(str(c) for c in sorted(of_suit, reverse=True)) if of_suit and of_suit <= faced else ""


def _faced_since(state: TableState, board: BoardState, seat: Seat, card: Card, trick: int) -> bool:
    """Whether ``card`` has been a penalty card of ``seat`` on the table since trick ``trick`` or
    before (a card exposed during the auction has been one since the play began)."""
    for pc in board.penalty_cards:
        if pc.seat is seat and pc.card == card:
            source = state.irregularity(pc.source)
            return source is None or source.trick is None or source.trick <= trick
    return False


def _revoke_shown_later(board: BoardState, seat: Seat, card: Card) -> int | None:
    """The trick at which ``seat`` showed out of ``card``'s suit, now shown to have been a revoke."""
    for s, suit, trick in board.shown_out:
        if s is seat and suit is card.suit:
            return trick
    return None


def _accept_lead(state: TableState, board: BoardState, offender: Seat,
                 held: Held) -> tuple[TableState, BoardState, list[Event]]:
    """A lead out of turn accepted: the offender's card leads the trick (Laws 53, 54A)."""
    play = board.play
    assert play is not None and held.card is not None
    play = evolve(play, current=Trick(offender))
    board = evolve(board, play=play)
    state, board, events, _ = _play(state, board, offender, held.card, held.t, "")
    return state, board, events


def _swap_declarer(state: TableState, board: BoardState,
                   held: Held) -> tuple[TableState, BoardState, list[Event]]:
    """Option 2 of Law 54: the lead stands and declarer's partner becomes declarer."""
    assert board.contract is not None and board.play is not None and held.card is not None
    contract = board.contract
    new_declarer = contract.declarer.partner
    contract = Contract(contract.level, contract.denomination, contract.doubled, new_declarer)
    play = evolve(board.play, declarer=new_declarer, current=Trick(held.seat))
    board = evolve(board, contract=contract, play=play)
    state, board, events, _ = _play(evolve(state, board=board), board, held.seat, held.card, held.t, "")
    return state, board, [Event("contract", f"{contract} (declarer and dummy exchanged, Law 54A)",
                                new_declarer, held.t), *events]
