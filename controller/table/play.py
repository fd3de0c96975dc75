"""A card at the table and the irregularities of the play (Laws 41, 45E, 53-58, 60).

A card during the auction (Law 24), played twice or not in the hand (Laws 13-14), the
opening lead out of turn (Laws 41, 54; face down, D 41A) or by the declaring side (D 54
note; R 48), leads out of turn (Laws 53-56; the last trick), a premature lead or play by
a defender (Law 57), two cards at once (Law 58B), a fifth card to a trick (Law 45E), a
defender's card after declarer was told to retract his lead (Law 60). Acceptance by
playing on (Laws 53A, 54A, 60), the proper leader leading in his own right (Law 53C),
declarer facing his hand (Law 54A), dummy's hand faced (Law 41D). The players going on past
a card held for its ruling: the record follows them (``record._departs``). The rulings on leads
and early plays and declarer's lead options are in ``play_rulings``.
"""

from __future__ import annotations

from controller import actions as a
from controller import rulings as r
from controller.cards import Card
from controller.irregularities import Irregularity
from controller.rulings import Held
from controller.seats import Seat
from controller.table._common import (
    _declarer,
    _hold,
    _raise,
    _reject,
    _relabel,
    _reoffer,
    _settle,
    _unhold,
)
from controller.table.bridge1905 import _chooser_1905
from controller.table.penalties import (
    _add_penalty_card,
    _exposed_by_defender,
    _exposed_in_auction,
    _failure_to_play_penalty_card,
    _pending_designation,
    _pending_lead_option,
)
from controller.table.record import _departs
from controller.table.state import BoardState, Event, Phase, Step, TableState
from controller.table.tricks import _accept_lead, _play, _play_card, _swap_declarer
from controller.values import evolve


def _card(state: TableState, act: a.PlayCard) -> Step:
    board = state.board
    if board is None or board.phase is Phase.DONE:
        return _reject(state, f"{act.card} by {act.seat}: no board is being played", act)
    if board.phase is Phase.DECLARATION:
        return _reject(state, f"{act.card} by {act.seat} before the trumps are declared "
                       "(W 67, 68: the arbiter enters an exposed card)", act)
    if board.phase is Phase.AUCTION:
        return _exposed_in_auction(state, board, act.seat, (act.card,), act.t, led=True)
    play = board.play
    assert play is not None
    claim = board.claim
    if claim is not None and claim.disputed is not None and not state.code.rules.disputed_claim_plays_on:
        return _reject(state, f"{act.card} by {act.seat}: play has stopped for the arbiter's "
                       f"ruling on the disputed claim ({claim.disputed}, Law 70)", act)
    for held in board.held:
        if held.card is not None:
            irr = state.irregularity(held.source)
            if irr is not None and irr.status == "awaiting_ruling" and irr.situation in _BLOCKING_PLAY:
                return _card_while_held(state, board, held, irr, act)
    return _card_in_order(state, board, act)


_BLOCKING_PLAY = frozenset((
    "opening_lead_out_of_turn", "lead_from_wrong_hand_by_declarer",
    "lead_by_declarer_when_defender_on_lead", "lead_out_of_turn_by_defender",
    "lead_out_of_turn_last_trick", "premature_lead_by_defender", "premature_play_by_defender",
    "failure_to_play_penalty_card", "major_pc_partner_on_lead", "penalty_cards_designation",
    "lead_restriction_from_withdrawn_call", "opening_lead_face_down_out_of_turn"))


def _card_in_order(state: TableState, board: BoardState, act: a.PlayCard) -> Step:
    """A card with no blocking irregularity pending: detect, then play it."""
    play = board.play
    assert play is not None
    trick_no = play.trick_number
    bit = 1 << act.card.index
    seat = act.seat
    situation: str | None = None
    if board.played & bit:
        situation = "card_played_twice"
    elif board.deal is not None:
        holder = board.deal.holder(act.card)
        if holder is not None and holder is not seat and play.hands[seat] is not None:
            situation = "card_not_in_hand"
    if situation is not None:
        return _hold_card(state, board, situation, seat, act, trick_no)
    last = board.last_card
    # a second card right after the card that completed a trick is two cards at once (Law 58B),
    # unless that seat won the trick and so leads the next one
    contributed = play.current.card_of(seat) is not None or (
        last is not None and last[0] is seat and seat is not play.turn
        and act.t - last[1] <= state.policy.simultaneous_window)
    if contributed:
        return _extra_card(state, board, act)
    if seat is not play.turn:
        return _out_of_turn(state, board, act)
    # the seat in turn: lead options due, penalty cards, restrictions, revokes
    due = _pending_lead_option(state, board, seat) if board.irregularity_ids else None
    if due is not None:
        board = _hold(board, Held(due.id, seat, card=act.card, t=act.t))
        return Step(evolve(state, board=board),
                    (Event("held", f"{act.card}: declarer has not yet chosen his lead option "
                           f"({due.id}, Law {due.law}); the lead waits", seat, act.t),))
    designation = _pending_designation(state, board, seat) if board.penalty_cards else None
    if designation is not None:
        board = _hold(board, Held(designation.id, seat, card=act.card, t=act.t))
        return Step(evolve(state, board=board),
                    (Event("held", f"{act.card}: declarer has not yet designated which penalty card {seat} plays "
                           f"({designation.id}, Law {designation.law}); the card waits", seat, act.t),))
    failure = _failure_to_play_penalty_card(board, seat, act.card) if board.penalty_cards else None
    if failure is not None:
        return _hold_card(state, board, "failure_to_play_penalty_card", seat, act, trick_no,
                          detail=f"{seat} played {act.card} instead of the penalty card {failure}")
    return _play_card(state, board, seat, act.card, act.t, act.how)


def _hold_card(state: TableState, board: BoardState, situation: str, seat: Seat, act: a.PlayCard,
               trick: int, detail: str | None = None, offender: Seat | None = None) -> Step:
    """Raise ``situation`` and hold ``seat``'s card aside for its ruling; ``offender`` when it is
    not the hand the card came from (declarer for a card of dummy's, Laws 45, 55)."""
    # D 41A: the arbiter has a face-down lead out of turn returned (the catalogue's chooser)
    state, board, irr = _raise(state, board, situation, seat if offender is None else offender,
                               detail or f"{seat} {act.card}", act.t, trick, conditions=_lead_conditions(state, board))
    board = _hold(board, Held(irr.id, seat, card=act.card, t=act.t))
    return Step(evolve(state, board=board), (Event("irregularity", situation, seat, act.t),), (irr,))


def _lead_conditions(state: TableState, board: BoardState) -> frozenset[str]:
    """What the table knows that limits declarer's choice over an opening lead out of turn (Law 54):
    whether he could have seen dummy's cards, and then whether he stays declarer (2017 54C)."""
    if board.contract is None or not any(s is board.contract.declarer.partner for s, _ in board.faced):
        return frozenset()
    if state.code.rules.seen_dummy_keeps_declarer:
        return frozenset(("dummy_seen", "dummy_seen_keeps_declarer"))
    return frozenset(("dummy_seen",))


def _extra_card(state: TableState, board: BoardState, act: a.PlayCard) -> Step:
    """A second card from a seat that has played to the trick: two at once, early lead, fifth card."""
    play = board.play
    assert play is not None and board.contract is not None
    seat = act.seat
    declarer = board.contract.declarer
    last = board.last_card
    if last is not None and last[0] is seat and act.t - last[1] <= state.policy.simultaneous_window:
        situation = ("two_cards_at_once_declarer" if seat.side is declarer.side
                     else "two_cards_at_once_defender")
    elif seat.side is not declarer.side and play.current.card_of(seat.partner) is None:
        if _played_from_both_hands(board, declarer):
            # Law 57C (R 57): declarer has played from both hands: no rectification; the card is a
            # lead to the next trick, judged when this trick is complete (in turn, or Laws 53, 56)
            board = evolve(board, early_leads=(*board.early_leads, (seat, act.card, act.t)))
            return Step(evolve(state, board=board),
                        (Event("early_lead", f"{act.card} led before {seat.partner} played: declarer has played "
                               "from both hands, no rectification (Law 57C); it leads once the trick is complete",
                               seat, act.t),))
        situation = "premature_lead_by_defender"
    else:
        situation = "fifth_card_on_trick"
    return _hold_card(state, board, situation, seat, act, play.trick_number)


def _out_of_turn(state: TableState, board: BoardState, act: a.PlayCard) -> Step:
    """A card from a seat not in turn: a lead out of turn (53-56), or an early play (57)."""
    play = board.play
    assert play is not None and board.contract is not None
    seat = act.seat
    declarer = board.contract.declarer
    trick_no = play.trick_number
    rules = state.code.rules
    if not play.current.cards and seat.side is not declarer.side and _retraction_pending(state, board):
        # D 60 / R 60: a defender's card after declarer was told to retract his lead from the
        # wrong hand, before he leads from the right one, is a (major) penalty card
        state, board, irr = _raise(state, board, "defender_plays_after_retraction_ordered", seat,
                                   f"{seat} played {act.card} before declarer led from the right hand",
                                   act.t, trick_no)
        board = _add_penalty_card(board, seat, act.card, True, irr.id)
        return Step(evolve(state, board=board), (Event("penalty_card", f"{act.card} (Law 60)", seat, act.t),),
                    (irr,))
    if not play.current.cards:
        if not play.tricks:
            if seat.side is declarer.side:
                # D 54 note, R 48: not acceptable; the card goes back, no penalty
                state, board, irr = _raise(state, board, "opening_lead_by_declaring_side", seat,
                                           f"{seat} {act.card} before the opening lead", act.t, 1)
                return Step(evolve(state, board=board),
                            (Event("irregularity", irr.situation, seat, act.t),), (irr,))
            situation = ("opening_lead_face_down_out_of_turn" if state.policy.face_down_opening_lead
                         else "opening_lead_out_of_turn")
            if board.declaration is not None:
                # 1905 (W 60, 76): the dealer plays both hands, so only his RHO can lead out of turn
                # here; the maker of the trump chooses
                situation = "w_opening_lead_by_dealers_rho"
                state, board, irr = _raise(state, board, situation, seat,
                                           f"{seat} led {act.card} while {play.turn} was to lead", act.t,
                                           trick_no, chooser=_chooser_1905(situation, board.declaration))
                board = _hold(board, Held(irr.id, seat, card=act.card, t=act.t))
                return Step(evolve(state, board=board), (Event("irregularity", irr.situation, seat, act.t),),
                            (irr,))
        elif seat.side is declarer.side:
            situation = ("lead_from_wrong_hand_by_declarer" if play.turn.side is declarer.side
                         else "lead_by_declarer_when_defender_on_lead")
        else:
            situation = "lead_out_of_turn_by_defender"
        if trick_no == 13 and not rules.last_trick_lead_acceptable and situation != "opening_lead_out_of_turn":
            situation = "lead_out_of_turn_last_trick"
        # Law 55: declarer plays dummy's cards too (Law 45), so a lead from either of his hands
        # is declarer's irregularity; the card stays that hand's
        offender = declarer if seat.side is declarer.side and situation != "opening_lead_out_of_turn" else seat
        return _hold_card(state, board, situation, seat, act, trick_no,
                          detail=f"{seat} led {act.card} while {play.turn} was to lead", offender=offender)
    # a trick is in progress and the seat has not played to it
    current = play.current
    if (seat.side is not declarer.side and len(current.cards) == 1 and current.leader is seat.partner
            and board.last_card is not None and board.last_card[0] is seat.partner
            and act.t - board.last_card[1] <= state.policy.simultaneous_window
            and state.code.law("simultaneous_leads_by_defenders")):
        # Law 58A: both defenders led at once; the proper lead stands and this card is deemed played
        # after it, a premature play: a major penalty card (Laws 57, 50; DD 58)
        return _simultaneous_lead(state, board, seat, act.card, current.cards[0], act.t)
    both_declarer_hands = _played_from_both_hands(board, declarer)
    if (rules.play_at_rho_turn_checked and seat.side is not declarer.side and play.turn is seat.rho
            and not both_declarer_hands):
        legal = r.playable_cards(play, seat, board.obligations, board.penalty_cards)
        if legal is not None and act.card not in legal:
            # 2017 Law 57D: a card he could not legally play to this trick is a major penalty card
            state, board, irr = _raise(state, board, "play_at_rho_turn", seat,
                                       f"{seat} played {act.card} before {play.turn}: not a legal card for "
                                       "this trick", act.t, trick_no)
            board = _add_penalty_card(board, seat, act.card, True, irr.id)
            return Step(evolve(state, board=board), (Event("penalty_card", f"{act.card} (Law {irr.law})", seat,
                                                           act.t),), (irr,))
        # 2017 Law 57D: a card he may legally play waits for his turn; not a penalty card, but the
        # arbiter is told (Law 16 may apply)
        state, board, irr = _raise(state, board, "legal_card_at_rho_turn", seat,
                                   f"{seat} played {act.card} before {play.turn}: it is played at his turn", act.t,
                                   trick_no)
        board = evolve(board, deferred=(*board.deferred, (seat, act.card)))
        return Step(evolve(state, board=board),
                    (Event("deferred", f"{act.card} played before {play.turn}: it counts when {seat}'s turn comes "
                           f"(Law {irr.law})", seat, act.t),), (irr,))
    if seat.side is declarer.side or current.card_of(seat.partner) is not None or both_declarer_hands:
        # D 57 note: declarer's early card is played; a defender whose partner has played, or
        # after declarer played from both hands, is not rectified: the card waits for its turn
        board = evolve(board, deferred=(*board.deferred, (seat, act.card)))
        return Step(evolve(state, board=board),
                    (Event("deferred", f"{act.card} played early: it counts when {seat}'s turn comes "
                           "(Law 57)", seat, act.t),))
    return _hold_card(state, board, "premature_play_by_defender", seat, act, trick_no,
                      detail=f"{seat} played {act.card} before {play.turn}")


def _played_from_both_hands(board: BoardState, declarer: Seat) -> bool:
    """Whether declarer has played to the current trick from both his hands (Law 57C), a card he
    played early from either hand included: it stands and counts at its turn (Law 57 note)."""
    play = board.play
    assert play is not None
    early = {s for s, _ in board.deferred}
    return all(play.current.card_of(s) is not None or s in early for s in (declarer, declarer.partner))


def _simultaneous_lead(state: TableState, board: BoardState, seat: Seat, card: Card, lead: Card,
                       t: float, raised: int | None = None) -> Step:
    """Both defenders led at once (Law 58A): ``seat``'s card, deemed played after his partner's
    proper lead, is a major penalty card (Law 50; DD 58); noted for the arbiter. ``raised``: the
    irregularity already raised for the card when it was read first (relabelled, not raised again)."""
    play = board.play
    assert play is not None
    detail = f"{seat} {card} and {seat.partner}'s lead {lead} at once: {card} is deemed played after it"
    if raised is None:
        state, board, irr = _raise(state, board, "simultaneous_leads_by_defenders", seat, detail, t, play.trick_number)
        new: tuple[Irregularity, ...] = (irr,)
    else:
        state, new = _relabel(state, board, raised, "simultaneous_leads_by_defenders", detail), ()
    board = _add_penalty_card(board, seat, card, True, raised if raised is not None else new[0].id)
    law = state.code.law("simultaneous_leads_by_defenders")
    return Step(evolve(state, board=board), (Event("penalty_card", f"{card}: led together with {seat.partner}'s "
                                                   f"lead, a major penalty card (Laws {law})", seat, t),), new)


def _retraction_pending(state: TableState, board: BoardState) -> bool:
    """Whether declarer was told to retract a lead from the wrong hand and has not yet led (Law 60)."""
    play = board.play
    if play is None or play.current.cards:
        return False
    for id_ in reversed(board.irregularity_ids):
        irr = state.irregularity(id_)
        if (irr is not None and irr.situation == "lead_from_wrong_hand_by_declarer"
                and irr.trick == play.trick_number and irr.status == "ruled"
                and dict(irr.ruling or ()).get("option") == "reject"):
            return True
    return False


def _card_while_held(state: TableState, board: BoardState, held: Held, irr: Irregularity,
                     act: a.PlayCard) -> Step:
    """A card while a lead or play irregularity awaits its ruling: acceptance by playing on, or wait."""
    play = board.play
    assert play is not None and board.contract is not None and held.card is not None
    seat = act.seat
    offender = held.seat
    situation = irr.situation
    if situation in ("lead_restriction_from_withdrawn_call", "major_pc_partner_on_lead"):
        return _table_goes_on(state, board, held, irr, act)
    if situation == "penalty_cards_designation" and seat is not offender and held.card in \
            r.penalty_cards_to_designate(play, offender, board.obligations, board.penalty_cards):
        # D 51, 2017 51A: the defender put down one of the penalty cards declarer could designate and
        # declarer played on: the table has taken that card as the one played
        state = _settle(state, irr.id, "accepted", option="designate", card=str(held.card), by=str(seat))
        board = _unhold(board, irr.id)
        state, board, events, irrs = _play(evolve(state, board=board), board, offender, held.card, held.t, "")
        first = Event("accepted", f"{irr.id}: {seat} played on: {held.card} is the penalty card {offender} plays "
                      f"(Law {irr.law})", seat, act.t)
        rest = _card(state, act)
        return Step(rest.state, (first, *events, *rest.events), (*irrs, *rest.irregularities))
    if situation == "penalty_cards_designation":
        return _table_goes_on(state, board, held, irr, act)
    if (situation == "opening_lead_out_of_turn" and seat is _declarer(board).partner
            and offender.side is not seat.side):
        # R 54A: declarer playing first from dummy accepts the lead; dummy's card may not be
        # withdrawn and counts when dummy's turn comes
        declarer = _declarer(board)
        state = _settle(state, irr.id, "accepted", option="accept_see_dummy", by=str(declarer))
        board = _unhold(board, irr.id)
        board = evolve(board, deferred=(*board.deferred, (seat, act.card)))
        state, board, events = _accept_lead(state, board, offender, held)
        first = Event("accepted", f"{irr.id} accepted: declarer played {act.card} from dummy; it counts at "
                      f"{seat}'s turn (Law 54A)", declarer, act.t)
        return Step(state, (first, *events))
    if situation.startswith(("opening_lead", "lead_")) and situation != "opening_lead_face_down_out_of_turn":
        if seat is offender.lho and situation != "lead_out_of_turn_last_trick":
            # Law 53A (and 54A for the opening lead): playing to it accepts it
            option = "accept_see_dummy" if situation == "opening_lead_out_of_turn" else "accept"
            state = _settle(state, irr.id, "accepted", option=option, by=str(seat))
            board = _unhold(board, irr.id)
            state, board, events = _accept_lead(state, board, offender, held)
            first = Event("accepted", f"{irr.id} accepted: {seat} played to the lead out of turn (Law 53)",
                          seat, act.t)
            rest = _card(state, act)
            return Step(rest.state, (first, *events, *rest.events), rest.irregularities)
        if (seat is play.turn and seat is offender.partner and situation in (
                "lead_out_of_turn_by_defender", "opening_lead_out_of_turn")
                and act.t - held.t <= state.policy.simultaneous_window
                and state.code.law("simultaneous_leads_by_defenders")):
            # Law 58A: both defenders led at once: the proper leader's lead stands and his partner's
            # card is deemed played after it, a major penalty card (Law 50); the alarm raised for it is
            # the same irregularity, now seen for what it was
            board = _unhold(board, irr.id)
            rest = _card_in_order(evolve(state, board=board), board, act)
            assert rest.state.board is not None
            after = _simultaneous_lead(rest.state, rest.state.board, offender, held.card, act.card, act.t, irr.id)
            return Step(after.state, (*rest.events, *after.events), (*rest.irregularities, *after.irregularities))
        if seat is play.turn:
            # Law 53C: the proper leader leads in his own right; the card led out of turn goes back
            state = _settle(state, irr.id, "superseded", option="reject", by=str(seat))
            board = _unhold(board, irr.id)
            first = Event("superseded", f"{irr.id}: {seat} led in his own right; {held.card} goes back "
                          f"to its hand without penalty ({state.code.law('cite:proper_leader_leads')})", seat, act.t)
            rest = _card_in_order(evolve(state, board=board), board, act)
            return Step(rest.state, (first, *rest.events), rest.irregularities)
    if situation.startswith("premature") and seat.side is not offender.side:
        # Law 60: a non-offender playing before the ruling forfeits the rectification
        state = _settle(state, irr.id, "accepted", option="accept", by=str(seat))
        board = _unhold(board, irr.id)
        board = evolve(board, deferred=(*board.deferred, (offender, held.card)))
        first = Event("accepted", f"{irr.id}: {seat} played on; {held.card} counts at {offender}'s "
                      "turn (Law 60)", seat, act.t)
        rest = _card_in_order(evolve(state, board=board), board, act)
        return Step(rest.state, (first, *rest.events), rest.irregularities)
    if situation == "failure_to_play_penalty_card" and seat.side is _declarer(board).side:
        # Law 52B: declarer playing on accepts the card played
        state = _settle(state, irr.id, "accepted", option="accept_play", by=str(seat))
        board = _unhold(board, irr.id)
        state, board, events, irrs = _play(state, board, offender, held.card, held.t, "")
        rest = _card(state, act)
        return Step(rest.state, (*events, *rest.events), (*irrs, *rest.irregularities))
    if situation == "lead_out_of_turn_last_trick":
        # the law lets nobody accept it: the card waits for the right hand's lead (R 53; 2017 53A)
        return _reject(state, f"{act.card} by {seat}: irregularity {irr.id} ({irr.situation}, Law "
                       f"{irr.law}) awaits the lead from the right hand", act)
    return _table_goes_on(state, board, held, irr, act)


def _table_goes_on(state: TableState, board: BoardState, held: Held, irr: Irregularity, act: a.PlayCard) -> Step:
    """A card while a card held for a ruling waits, the law giving it no meaning of its own: the players
    went on. The held card is in the record as the table has it (played in turn, a lead standing, or a
    card played early that counts at its turn), the new card is taken as any other, and the arbiter is
    told once (``record._departs``); the irregularity gone past still awaits him."""
    play = board.play
    assert play is not None and held.card is not None
    board = _unhold(board, irr.id)
    state = evolve(state, board=board)
    if not play.current.cards and held.seat is not play.turn and act.seat is play.turn:
        # the player in turn leads: the table has taken the card led out of turn back (a face-down one,
        # D 41A, goes back without rectification); the arbiter still rules on it if he must
        first = Event("superseded", f"{irr.id}: {act.seat} led in turn; {held.card} is back in {held.seat}'s hand",
                      act.seat, act.t)
        state, board, told, alert = _departs(state, board, irr, act.seat, f"led {act.card}", act.t)
        rest = _card_in_order(evolve(state, board=board), board, act)
        return Step(rest.state, (*told, first, *rest.events), (*alert, *rest.irregularities))
    events: list[Event] = []
    raised: list[Irregularity] = []
    if held.seat is play.turn:
        state, board, events, raised = _play(state, board, held.seat, held.card, held.t, "")
    elif not play.current.cards:
        state, board, events = _accept_lead(state, board, held.seat, held)
    else:
        board = evolve(board, deferred=(*board.deferred, (held.seat, held.card)))
        events = [Event("deferred", f"{held.card} counts when {held.seat}'s turn comes", held.seat, act.t)]
    state, board, told, more = _departs(evolve(state, board=board), board, irr, act.seat, f"played {act.card}",
                                        act.t)
    rest = _card(evolve(state, board=board), act)
    return Step(rest.state, (*told, *events, *rest.events), (*raised, *more, *rest.irregularities))


def _face(state: TableState, act: a.FaceCards) -> Step:
    board = state.board
    if board is None:
        return _reject(state, "cards faced before any board", act)
    if not act.cards:
        return _reject(state, "no card faced", act)
    if board.phase is Phase.AUCTION:
        return _exposed_in_auction(state, board, act.seat, act.cards, act.t, led=False)
    board = evolve(board, faced=(*board.faced, (act.seat, act.cards)))
    play = board.play
    events = [Event("faced", " ".join(str(c) for c in act.cards), act.seat, act.t)]
    if play is not None and board.contract is not None and not play.tricks:
        for held in board.held:
            irr = state.irregularity(held.source)
            if (irr is not None and irr.situation == "opening_lead_out_of_turn"
                    and irr.status == "awaiting_ruling" and act.seat is board.contract.declarer):
                # Law 54A: declarer spreading his hand accepts the lead and becomes dummy
                state = _settle(state, irr.id, "accepted", option="accept_become_dummy", by=str(act.seat))
                board = _unhold(board, irr.id)
                state, board, more = _swap_declarer(state, board, held)
                return Step(state, (*events, Event("accepted", f"{irr.id}: declarer faced his hand "
                                                   "and becomes dummy (Law 54A)", act.seat, act.t),
                                    *more))
    if play is not None and board.contract is not None and act.seat is board.contract.declarer.partner:
        for held in board.held:
            irr = state.irregularity(held.source)
            if irr is not None and irr.situation == "opening_lead_out_of_turn" and irr.status == "awaiting_ruling":
                # declarer can now see dummy's cards: only what Law 54 still allows is offered
                state = _reoffer(state, irr.id, _lead_conditions(state, board))
    if play is not None and play.hands[act.seat] is None and act.seat is play.dummy:
        hands = list(play.hands)
        hands[act.seat] = frozenset(act.cards)
        board = evolve(board, play=evolve(play, hands=(hands[0], hands[1], hands[2], hands[3])))
    if (play is not None and board.phase is Phase.PLAY and board.contract is not None
            and act.seat.side is not board.contract.declarer.side):
        played = sum(1 for trick in (*play.tricks, play.current) if trick.card_of(act.seat) is not None)
        whole_hand = len(set(act.cards)) >= 13 - played > 1
        if board.claim is not None or whole_hand:
            # Laws 68, 70 (R 49 note): cards faced in making, agreeing to or disputing a claim are
            # not penalty cards, and a defender who faces his hand makes a claim or concession
            # (D 68): the arbiter enters it; he may still treat the cards as information
            why = ("faced for the claim" if board.claim is not None
                   else "a defender facing his hand claims or concedes (Law 68): the arbiter enters it")
            events.append(Event("exposed", f"{why}: not penalty cards (Laws 68, 70)", act.seat, act.t))
            return Step(evolve(state, board=board), tuple(events))
        # Laws 49, 50: a defender's card face up on the table is a penalty card
        return _exposed_by_defender(state, board, act.seat, act.cards, act.t, events=tuple(events))
    return Step(evolve(state, board=board), tuple(events))
