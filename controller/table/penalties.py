"""Penalty cards and lead restrictions (Laws 24, 26, 48-52).

Cards exposed during the auction (Law 24: a card on the play zone counts as led; the
partner passes once; a defender's become penalty cards when the play starts), cards
exposed by a defender during the play, faced on the table or entered by the arbiter (Laws
48, 49; declarer's never are), major and minor penalty cards (Law 50) and the arbiter's
finding on them, declarer's lead options when the offender's partner gets the lead (Law 26
after a withdrawn call, Laws 50D, 51 with major penalty cards), and the failure to play a
penalty card (Law 52). Declarer's choice is applied in ``play`` (``_rule_lead_option``);
the ruling on a failure to play one in ``apply``.
"""

from __future__ import annotations

from controller import actions as a
from controller import rulings as r
from controller.cards import Card, Rank
from controller.irregularities import Irregularity
from controller.rulings import Obligation, PenaltyCard
from controller.seats import Seat
from controller.table._common import _SUIT_NAMES, _declarer, _oblige, _raise, _Refused, _reject
from controller.table.state import BoardState, Event, Phase, Step, TableState
from controller.values import evolve


def _exposed_in_auction(state: TableState, board: BoardState, seat: Seat, cards: tuple[Card, ...],
                        t: float, led: bool, deliberate: bool = False) -> Step:
    """Cards seen during the auction (Law 24): a card on the play zone counts as led.

    Before the first call of the board, under a code whose rules have
    ``card_exposed_before_auction_returns`` (2017: WBF Laws Committee minute of 15 August 2017),
    the card goes back to the hand with no rectification (Law 16D: extraneous information).
    """
    if state.code.rules.card_exposed_before_auction_returns and not board.auction.calls:
        what = " ".join(str(c) for c in cards)
        state, board, irr = _raise(state, board, "card_exposed_before_auction", seat,
                                   f"{seat} exposed {what} before the first call: back to the hand", t)
        return Step(evolve(state, board=board), (Event("irregularity", irr.situation, seat, t),
                                                 Event("returned", f"{what} goes back to {seat}'s hand, no "
                                                       f"rectification (Law {irr.law})", seat, t)), (irr,))
    several = len(cards) > 1 or any(s is seat for s, _, _, _ in board.exposed)
    honour = any(c.rank >= 10 for c in cards)
    if led:
        situation = "card_led_during_auction"
    elif several or honour:
        situation = "card_exposed_in_auction_honour_or_several"
    else:
        situation = "card_exposed_in_auction_single_low"
    what = " ".join(str(c) for c in cards)
    state, board, irr = _raise(state, board, situation, seat, f"{seat} exposed {what} during the auction", t)
    major = led or several or honour or deliberate
    board = evolve(board, exposed=(*board.exposed, *((seat, c, major, irr.id) for c in cards)))
    events = [Event("irregularity", situation, seat, t)]
    if major:
        board = _oblige(board, Obligation(r.PASS_ONCE, seat.partner, irr.id))
        events.append(Event("rectification", f"{seat.partner} must pass at his next turn (Law 24)",
                            seat.partner, t))
    return Step(evolve(state, board=board), tuple(events), (irr,))


def _expose(state: TableState, act: a.ExposeCard) -> Step:
    """A card exposed off the readers, entered by the arbiter (Laws 24, 48, 49, 50)."""
    board = state.board
    if board is None or board.phase is Phase.DONE:
        return _reject(state, "an exposed card is recorded during a board", act)
    if board.phase is Phase.AUCTION:
        return _exposed_in_auction(state, board, act.seat, (act.card,), act.t, led=False,
                                   deliberate=act.deliberate)
    if board.contract is None or board.play is None:
        return _reject(state, "an exposed card needs the auction or the play", act)
    if act.seat.side is board.contract.declarer.side:
        return Step(state, (Event("exposed", f"{act.card}: declarer's and dummy's cards are never "
                                  "penalty cards (Law 48)", act.seat, act.t),))
    return _exposed_by_defender(state, board, act.seat, (act.card,), act.t, act.deliberate)


def _exposed_by_defender(state: TableState, board: BoardState, seat: Seat, cards: tuple[Card, ...], t: float,
                         deliberate: bool = False, events: tuple[Event, ...] = ()) -> Step:
    """Cards a defender exposes during the play (Laws 49, 50): each a penalty card, minor when it
    is a single card below the 10 exposed by accident, else major (enforced from then on).

    Cards already played or already penalty cards are not exposed again (a penalty card put
    face up in front of its owner, as Law 50 asks). When a defender on lead has not led yet
    and his partner now has a major penalty card, declarer's lead options are offered at once.
    """
    play = board.play
    assert play is not None
    hand = play.hands[seat]
    mine = {pc.card for pc in board.penalty_cards if pc.seat is seat}
    new = tuple(c for c in cards if not board.played >> c.index & 1 and c not in mine
                and (hand is None or c in hand))
    if not new:
        return Step(evolve(state, board=board), events)
    what = " ".join(str(c) for c in new)
    state, board, irr = _raise(state, board, "card_exposed_by_defender", seat,
                               f"{seat} exposed {what}" + (" deliberately" if deliberate else ""), t,
                               play.trick_number)
    for card in new:
        board = _add_penalty_card(board, seat, card, deliberate, irr.id)
    kinds = ", ".join(f"{pc.card} {'major' if pc.major else 'minor'}" for pc in board.penalty_cards
                      if pc.seat is seat)
    out = [*events, Event("penalty_card", f"{what} (Laws 49, 50): {kinds}", seat, t)]
    if not play.current.cards and play.turn is seat.partner and board.lead_options_for == play.trick_number:
        board = evolve(board, lead_options_for=0)
        state, board, more = _lead_options_due(evolve(state, board=board), board, t)
        out.extend(more)
    return Step(evolve(state, board=board), tuple(out), tuple(
        i for i in state.irregularities if i.id >= irr.id))


def _rule_exposed(state: TableState, board: BoardState, irr: Irregularity,
                  option: str) -> tuple[TableState, list[Event]]:
    """The arbiter's finding on a card a defender exposed (Laws 49, 50): as it stands
    (``acknowledge``), exposed deliberately (``deliberate``: major penalty cards), or not
    penalty cards at all (``no_penalty``: an external cause, DD 49; a claim, Law 68)."""
    ours = [pc for pc in board.penalty_cards if pc.source == irr.id]
    if option == "acknowledge":
        return state, []
    if not ours:
        raise _Refused("the exposed cards are no longer penalty cards (played, or picked up by a lead option)")
    words = " ".join(str(pc.card) for pc in ours)
    if option == "deliberate":
        board = evolve(board, penalty_cards=tuple(evolve(pc, major=True) if pc.source == irr.id else pc
                                                  for pc in board.penalty_cards))
        return evolve(state, board=board), [Event("penalty_card", f"{words}: exposed deliberately, major "
                                                  "(Law 50)", irr.offender, irr.t)]
    board = evolve(board, penalty_cards=tuple(pc for pc in board.penalty_cards if pc.source != irr.id))
    return evolve(state, board=board), [Event("returned", f"{words}: not penalty cards; back to the hand "
                                              "(Law 49)", irr.offender, irr.t)]


def _add_penalty_card(board: BoardState, seat: Seat, card: Card, deliberate: bool,
                      source: int) -> BoardState:
    """A defender's penalty card; with two or more, all are major (Law 50)."""
    others = [pc for pc in board.penalty_cards if pc.seat is seat]
    pc = PenaltyCard(seat, card, r.is_major(card, deliberate, len(others)), source)
    pcs = tuple(evolve(p, major=True) if p.seat is seat else p for p in board.penalty_cards)
    return evolve(board, penalty_cards=(*pcs, pc))


def _failure_to_play_penalty_card(board: BoardState, seat: Seat, card: Card) -> Card | None:
    """The penalty card ``seat`` had to play instead of ``card``, when that is certain (Law 52).

    A major penalty card: certain when the hand is known, when the seat leads, or when the
    card played shows that the seat could not follow suit. A minor one (Law 50): another
    card of its suit below the 10 played before it, which is never allowed.
    """
    mine = [pc for pc in board.penalty_cards if pc.seat is seat]
    if any(pc.card == card for pc in mine):
        return None
    play = board.play
    assert play is not None
    minor = next((pc.card for pc in mine if not pc.major and pc.card.suit is card.suit
                  and card.rank < Rank.TEN), None)
    if minor is not None and (play.hands[seat] is None or minor in (
            r.playable_cards(play, seat, board.obligations, board.penalty_cards) or ())):
        return minor
    majors = [pc.card for pc in mine if pc.major]
    if not majors:
        return None
    if play.hands[seat] is not None:
        legal = r.playable_cards(play, seat, board.obligations, board.penalty_cards)
        if legal and card not in legal and any(m in legal for m in majors):
            return next(m for m in majors if m in legal)
        return None
    led = play.current.suit_led
    restricted = any(o.seat is seat and o.kind in (r.LEAD_REQ, r.LEAD_BAN, r.PLAY_OPT_57)
                     for o in board.obligations)
    if restricted:
        return None
    if led is None:
        return majors[0]
    same = [m for m in majors if m.suit is led]
    if same and card.suit is led:
        return same[0]
    if card.suit is not led:
        return same[0] if same else majors[0]
    return None


def _designation_due(state: TableState, board: BoardState,
                     t: float) -> tuple[TableState, BoardState, list[Event], list[Irregularity]]:
    """Declarer designates which penalty card a defender plays when two or more may legally be
    played (D 51 item 1; R 50): asked as soon as that defender's turn comes."""
    play = board.play
    if (play is None or board.contract is None or board.phase is not Phase.PLAY or not board.penalty_cards
            or not state.code.law("penalty_cards_designation")):
        return state, board, [], []
    seat = play.turn
    if seat.side is _declarer(board).side or _pending_designation(state, board, seat) is not None:
        return state, board, [], []
    cards = r.penalty_cards_to_designate(play, seat, board.obligations, board.penalty_cards)
    if not cards:
        return state, board, [], []
    words = " ".join(str(c) for c in cards)
    state, board, irr = _raise(state, board, "penalty_cards_designation", seat,
                               f"{seat} may legally play the penalty cards {words}: declarer designates one",
                               t, play.trick_number)
    declarer = _declarer(board)
    return state, board, [Event("designation", f"{irr.id}: declarer designates which of {words} {seat} plays "
                                f"(Law {irr.law})", declarer, t)], [irr]


def _pending_designation(state: TableState, board: BoardState, seat: Seat) -> Irregularity | None:
    """The designation of a penalty card that ``seat`` waits for at this trick, if any (Law 51)."""
    play = board.play
    for id_ in reversed(board.irregularity_ids):
        irr = state.irregularity(id_)
        if (irr is not None and irr.situation == "penalty_cards_designation" and irr.offender is seat
                and irr.status == "awaiting_ruling" and play is not None and irr.trick == play.trick_number):
            return irr
    return None


def _pending_lead_option(state: TableState, board: BoardState, seat: Seat) -> Irregularity | None:
    for id_ in reversed(board.irregularity_ids):
        irr = state.irregularity(id_)
        if (irr is not None and irr.status == "awaiting_ruling" and irr.situation in
                ("lead_restriction_from_withdrawn_call", "major_pc_partner_on_lead")
                and irr.offender is not None and irr.offender.partner is seat):
            return irr
    return None


def _lead_options_due(state: TableState, board: BoardState,
                      t: float) -> tuple[TableState, BoardState, list[Event]]:
    """Declarer's lead options when the offender's partner gets the lead (Laws 26, 50, 51)."""
    play = board.play
    if play is None or board.contract is None or board.lead_options_for == play.trick_number:
        return state, board, []
    leader = play.turn
    declarer = board.contract.declarer
    events: list[Event] = []
    board = evolve(board, lead_options_for=play.trick_number)
    for ob in board.obligations:
        if ob.kind == r.LEAD_OPT_26 and ob.seat is leader:
            source = state.irregularity(ob.source)
            kind = source.kind if source is not None else "call_out_of_rotation"
            suits = ", ".join(_SUIT_NAMES[s] for s in ob.suits) or "any one suit (prohibit only)"
            may = ("prohibit one of" if state.code.rules.lead_restriction_prohibit_only
                   else "require or prohibit")
            state, board, irr = _raise(
                state, board, "lead_restriction_from_withdrawn_call", leader.partner,
                f"{leader} is on lead after a withdrawn call by {leader.partner}: declarer may "
                f"{may} {suits} ({state.code.law('cite:lead_restriction')})", t, play.trick_number, kind=kind,
                conditions=frozenset(("named_suit",)) if ob.suits else frozenset())
            kept = tuple(o for o in board.obligations if o is not ob)
            board = evolve(board, obligations=(*kept, Obligation(r.LEAD_OPT_26, leader, irr.id, suits=ob.suits,
                                                                 mode="raised")))
            events.append(Event("lead_option", f"{irr.id}: declarer's choice before {leader} leads",
                                declarer, t))
            return state, board, events
    majors = [pc for pc in board.penalty_cards if pc.seat is leader.partner and pc.major]
    if majors and leader.side is not declarer.side:
        cards = " ".join(str(pc.card) for pc in majors)
        state, board, irr = _raise(
            state, board, "major_pc_partner_on_lead", leader.partner,
            f"{leader} is on lead while {leader.partner} has the major penalty card(s) {cards}: "
            "declarer may require or forbid a suit of them, or leave them (Laws 50, 51)", t,
            play.trick_number)
        events.append(Event("lead_option", f"{irr.id}: declarer's choice before {leader} leads",
                            declarer, t))
    return state, board, events
