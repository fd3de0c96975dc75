"""The rulings on leads and early plays (Laws 54-58) and declarer's lead options (Laws 26, 50D, 51):
accept or refuse a lead out of turn, the premature play's options, two cards at once, the penalty
card declarer designates and the lead restrictions he chooses. Detection is in ``play``.
"""

from __future__ import annotations

from controller import rulings as r
from controller.cards import Suit
from controller.irregularities import Irregularity
from controller.rulings import Held, Obligation, PenaltyCard
from controller.seats import Seat
from controller.table._common import (
    _SUIT_NAMES,
    _card_arg,
    _declarer,
    _oblige,
    _Refused,
    _settle,
    _suit_arg,
    _unhold,
)
from controller.table.penalties import _add_penalty_card, _lead_options_due
from controller.table.state import BoardState, Event, TableState
from controller.table.tricks import _accept_lead, _play, _swap_declarer
from controller.values import evolve


def _rule_lead(state: TableState, board: BoardState, irr: Irregularity, held: Held, option: str,
               args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Laws 53-56 and 54: accept the lead out of turn, or send it back (penalty card for a defender)."""
    offender = irr.offender
    assert offender is not None and held.card is not None and board.contract is not None
    board = _unhold(board, irr.id)
    state = evolve(state, board=board)
    if option in ("accept", "accept_see_dummy"):
        # the card leads from the hand it came from (dummy's, when declarer led from dummy: Law 55)
        state, board, events = _accept_lead(state, board, held.seat, held)
        return state, events
    if option == "accept_become_dummy":
        if state.code.rules.seen_dummy_keeps_declarer and any(s is _declarer(board).partner for s, _ in board.faced):
            raise _Refused("declarer could have seen dummy's cards: he must accept the lead and stays declarer "
                           "(Law 54C)")
        state, board, events = _swap_declarer(state, board, held)
        return state, events
    dummy = _declarer(board).partner
    if irr.situation == "opening_lead_out_of_turn" and any(s is dummy for s, _ in board.faced):
        raise _Refused("declarer could have seen dummy's cards: he must accept the lead (Law 54; R 54B)")
    if option in ("require_suit", "forbid_suit") and "suit" in args and _suit_arg(args) is not held.card.suit:
        raise _Refused(f"declarer may only require or forbid the suit of the card led ({held.card.suit.name})")
    defender = offender.side is not _declarer(board).side
    if not defender or irr.situation == "opening_lead_face_down_out_of_turn":
        return state, [Event("returned", f"{held.card} goes back to {held.seat}'s hand without penalty", held.seat, t)]
    board = _add_penalty_card(board, offender, held.card, True, irr.id)
    events = [Event("penalty_card", f"{held.card} is a major penalty card (Laws 50, 56)", offender, t)]
    if option in ("require_suit", "forbid_suit"):
        # Law 54D with 50D2: declarer's choice now; the card goes back to the hand
        suit = held.card.suit
        kind = r.LEAD_REQ if option == "require_suit" else r.LEAD_BAN
        board = _oblige(board, Obligation(kind, offender.partner, irr.id, suits=(suit,)))
        board = evolve(board, penalty_cards=tuple(pc for pc in board.penalty_cards
                                                  if not (pc.seat is offender and pc.card.suit is suit)),
                       lead_options_for=board.play.trick_number if board.play else 0)
        events = [Event("restriction", f"{offender.partner} {'must lead' if kind == r.LEAD_REQ else 'may not lead'}"
                        f" {_SUIT_NAMES[suit]}; {held.card} goes back to the hand (Law 54)", offender.partner, t)]
        return evolve(state, board=board), events
    if option == "leave_penalty_card":
        board = evolve(board, lead_options_for=board.play.trick_number if board.play else 0)
        return evolve(state, board=board), events
    # reject (Law 56): declarer's lead options when the partner has the lead
    board = evolve(board, lead_options_for=0)
    state, board, more = _lead_options_due(evolve(state, board=board), board, t)
    return state, events + more


def _rule_premature(state: TableState, board: BoardState, irr: Irregularity, held: Held | None,
                    option: str, args: dict[str, object]) -> tuple[TableState, list[Event]]:
    """Law 57: partner plays highest or lowest of the suit led, or not a named suit; the card is a
    major penalty card (D; R states it only when partner wins the trick: chosen here for every case)."""
    offender = irr.offender
    if held is None or held.card is None or offender is None or board.play is None:
        raise _Refused("the card is no longer waiting for a ruling")
    partner = offender.partner
    trick = board.play.trick_number
    if option in ("forbid_suit", "require_suit"):
        # require_suit: 2017 Law 57A3 (the catalogue offers it only where the code has it)
        suit = _suit_arg(args)
        if suit is board.play.current.suit_led:
            raise _Refused("the suit named must be other than the suit led")
        ob = Obligation(r.PLAY_OPT_57, partner, irr.id, suits=(suit,), mode=option.split("_")[0], trick=trick)
    else:
        ob = Obligation(r.PLAY_OPT_57, partner, irr.id, mode="highest" if option == "require_highest"
                        else "lowest", trick=trick)
    board = _unhold(board, irr.id)
    board = _oblige(board, ob)
    board = _add_penalty_card(board, offender, held.card, True, irr.id)
    return evolve(state, board=board), [Event("restriction", f"{partner}: {option.replace('_', ' ')} "
                                              f"(Law 57); {held.card} is a major penalty card", partner, irr.t)]


def _rule_two_cards(state: TableState, board: BoardState, irr: Irregularity, held: Held | None,
                    args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Law 58B: the player names the card he played; the other is a penalty card (defender) or goes back."""
    offender = irr.offender
    if held is None or held.card is None or offender is None or board.play is None or board.contract is None:
        raise _Refused("the cards are no longer waiting for a ruling")
    chosen = _card_arg(args)
    play = board.play
    played = play.current.card_of(offender)
    if played is None and play.tricks:
        played = play.tricks[-1].card_of(offender) if not play.current.cards else None
    if chosen not in (held.card, played):
        raise _Refused(f"the card played must be {held.card} or {played}")
    board = _unhold(board, irr.id)
    other = held.card
    events: list[Event] = []
    if chosen == held.card and played is not None:
        new_play, removed = r.take_back(play, r.cards_from(play, played))
        board = evolve(board, play=new_play, played=board.played & ~(1 << played.index),
                       deferred=(*board.deferred, *((s, c) for s, c in removed[1:])))
        state, board, events, _ = _play(evolve(state, board=board), board, offender, chosen, held.t, "")
        other = played
    if offender.side is not _declarer(board).side:
        board = _add_penalty_card(board, offender, other, False, irr.id)
        events.append(Event("penalty_card", f"{other} (Law 58B)", offender, t))
    else:
        events.append(Event("returned", f"{other} back to declarer's hand (Law 58B)", offender, t))
    return evolve(state, board=board), events


def _rule_designation(state: TableState, board: BoardState, irr: Irregularity, held: Held | None,
                      args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """D 51 item 1 (R 50): declarer designates which of the defender's penalty cards is played; it
    is played. A card the defender put down before the choice, if not a penalty card already,
    becomes a major penalty card (Law 52: a card played instead of a penalty card)."""
    seat = irr.offender
    play = board.play
    if seat is None or play is None or play.turn is not seat:
        raise _Refused("it is no longer the defender's turn to play")
    card = _card_arg(args)
    allowed = r.penalty_cards_to_designate(play, seat, board.obligations, board.penalty_cards)
    if card not in allowed:
        raise _Refused(f"declarer may designate only {' or '.join(str(c) for c in allowed) or 'none now'}")
    board = _unhold(board, irr.id)
    events: list[Event] = []
    if held is not None and held.card is not None and held.card != card and not any(
            pc.seat is seat and pc.card == held.card for pc in board.penalty_cards):
        board = _add_penalty_card(board, seat, held.card, True, irr.id)
        events.append(Event("penalty_card", f"{held.card} put down before declarer designated: a major penalty "
                            "card (Law 52)", seat, t))
    state, board, more, _ = _play(evolve(state, board=board), board, seat, card, t, "designated by declarer")
    return state, events + more


def _rule_lead_option(state: TableState, board: BoardState, irr: Irregularity, held: Held | None,
                      option: str, args: dict[str, object], t: float) -> tuple[TableState, list[Event]]:
    """Declarer's lead option (Laws 26, 50D, 51): require or forbid a suit, or no restriction."""
    assert irr.offender is not None
    leader = irr.offender.partner
    events: list[Event] = []
    pcs = board.penalty_cards
    if option in ("require_suit", "forbid_suit"):
        suit = _suit_arg(args)
        if irr.situation == "major_pc_partner_on_lead":
            allowed = {pc.card.suit for pc in pcs if pc.seat is irr.offender and pc.major}
        else:
            ob = next((o for o in board.obligations if o.kind == r.LEAD_OPT_26 and o.source == irr.id), None)
            allowed = set(ob.suits) if ob is not None and ob.suits else set(Suit)
        if suit not in allowed:
            raise _Refused(f"declarer may name only {', '.join(sorted(_SUIT_NAMES[s] for s in allowed))}")
        kind = r.LEAD_REQ if option == "require_suit" else r.LEAD_BAN
        named: tuple[Suit, ...] = (suit,)
        if kind == r.LEAD_BAN and irr.situation == "major_pc_partner_on_lead":
            named = _prohibited_pc_suits(state, pcs, irr.offender, suit, args, allowed)
        board = _oblige(board, Obligation(kind, leader, irr.id, suits=named))
        if irr.situation == "major_pc_partner_on_lead":
            # the penalty cards of the suit(s) named go back to the hand (Laws 50D2, 51)
            board = evolve(board, penalty_cards=tuple(pc for pc in pcs if not (
                pc.seat is irr.offender and pc.card.suit in named)))
        events.append(Event("restriction", f"{leader} {'must lead' if kind == r.LEAD_REQ else 'may not lead'} "
                            f"{' or '.join(_SUIT_NAMES[s] for s in named)}", leader, t))
    board = evolve(board, obligations=tuple(o for o in board.obligations
                                            if not (o.kind == r.LEAD_OPT_26 and o.seat is leader)))
    board = _unhold(board, irr.id)
    state = evolve(state, board=board)
    if held is not None and held.card is not None:
        # the lead made before the choice (DD 47): it stands if legal, else a major penalty card
        play = board.play
        assert play is not None
        legal = r.playable_cards(play, leader, board.obligations, board.penalty_cards)
        complies = r.restriction_broken(play, leader, held.card, board.obligations) is None and (
            legal is None or held.card in legal or not any(
                o.kind in (r.LEAD_REQ, r.LEAD_BAN) and o.seat is leader for o in board.obligations))
        if complies:
            state = _settle(state, irr.id, "ruled", option=option, **args)
            state, board, more, _ = _play(state, board, leader, held.card, held.t, "")
            return state, events + more
        board = _add_penalty_card(board, leader, held.card, True, irr.id)
        events.append(Event("penalty_card", f"{held.card} led before the choice breaks it: a major penalty "
                            "card; lead again", leader, t))
        state = evolve(state, board=board)
    return state, events


def _prohibited_pc_suits(state: TableState, pcs: tuple[PenaltyCard, ...], offender: Seat, suit: Suit,
                         args: dict[str, object], allowed: set[Suit]) -> tuple[Suit, ...]:
    """The suits a prohibition covers when a defender has penalty cards in several suits (Law 51).

    R 51: every suit in which he has a penalty card. D 51 (DD 51 item 3b): one or more of
    them, as declarer names: ``"suit"``, plus any others in ``"suits"`` (e.g. ``["H", "D"]``).
    """
    if state.code.rules.pc_prohibition_covers_every_suit:
        return tuple(sorted({pc.card.suit for pc in pcs if pc.seat is offender}))
    named = {suit}
    extra = args.get("suits")
    if isinstance(extra, list | tuple):
        for value in extra:
            named.add(_suit_arg({"suit": value}))
    if not named <= allowed:
        raise _Refused(f"declarer may name only {', '.join(sorted(_SUIT_NAMES[s] for s in allowed))}")
    return tuple(sorted(named))
