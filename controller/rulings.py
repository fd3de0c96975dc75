"""Rectification: the enforcement objects (obligations, penalty cards, revokes) and the pure rules that use them.

The codes' differences in rectification are named in ``RulesOfCode`` (``controller.codes.rules``,
re-exported here).

``table.step`` raises irregularities; once one is ruled (or accepted by the next
non-offender acting), what the law imposes afterwards lives on the board as plain values:

- ``Obligation``: a pass once or for the rest of the auction, no double now, a call to
  repeat, a Law 26 lead option, a lead requirement or prohibition, a Law 57 play option;
- ``PenaltyCard``: a defender's card face up on the table, minor or major (Law 50);
- ``RevokeRecord``: a revoke, whether it is established, and whether it is exempt from the
  trick transfer (Laws 63, 64);
- ``Held``: an irregular call or card that the table keeps aside until the ruling says
  what becomes of it.

The functions here answer the questions the table asks at each call and card: which
situation a call out of rotation is (Laws 29-32), whether an obligation forbids a call,
which cards a player may play under restrictions and penalty cards (Laws 50, 57, 59),
and how many tricks a revoke transfers (Law 64; 1905 W 87).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from controller.auction import Auction
from controller.calls import Call, CallKind
from controller.cards import Card, Rank, Suit
from controller.codes.rules import RulesOfCode
from controller.play import Play, Trick
from controller.seats import Seat, Side

__all__ = [
    "LEAD_BAN",
    "LEAD_OPT_26",
    "LEAD_REQ",
    "NO_X_NOW",
    "NO_X_SAME",
    "OOR_BID_RHO",
    "OOR_DOUBLE_RHO",
    "OOR_REPLACEMENT",
    "PASS_ALL",
    "PASS_ONCE",
    "PLAY_OPT_57",
    "REPEAT",
    "REPLACE_CALL",
    "REVOKE_OUTCOMES",
    "Held",
    "Obligation",
    "PenaltyCard",
    "Policy",
    "RevokeRecord",
    "RulesOfCode",
    "call_out_of_rotation_conditions",
    "call_out_of_rotation_situation",
    "cards_from",
    "change_lead_suits",
    "forbidden_call",
    "is_lowest_sufficient_same_denomination",
    "is_major",
    "lead_ban_suits",
    "lead_suits_of",
    "penalty_cards_to_designate",
    "playable_cards",
    "restriction_broken",
    "revoke_outcomes",
    "revoke_transfers",
    "skipped_turn",
    "take_back",
]

# Obligation kinds (docs/irregularities.md); the last four are waiting states of a rectification.
PASS_ONCE = "pass_once"
PASS_ALL = "pass_all"
NO_X_NOW = "no_double_now"
NO_X_SAME = "no_double_same"
REPEAT = "repeat"
LEAD_OPT_26 = "lead_option_26"
LEAD_REQ = "lead_require"
LEAD_BAN = "lead_ban"
PLAY_OPT_57 = "play_option_57"
REPLACE_CALL = "replace_call"            # the offender's next call replaces a cancelled one (27, 36)
OOR_BID_RHO = "oor_bid_rho"              # a cancelled bid at RHO's turn: what RHO does decides (31A)
OOR_DOUBLE_RHO = "oor_double_rho"        # the same for a double or redouble (32B)
OOR_REPLACEMENT = "oor_replacement"      # after RHO acted, the offender's call decides (31A2)


@dataclass(frozen=True, slots=True)
class Obligation:
    """What a seat must or may not do, and the irregularity it comes from (``source``).

    ``call`` is the call to repeat (REPEAT), the bid not to double again (NO_X_SAME), or the
    cancelled call (REPLACE_CALL and the OOR waiting states). ``suits`` are the suits a
    lead option may name (LEAD_OPT_26: empty when the withdrawn call named none, then
    declarer may only prohibit; under 2017 Law 26B the suits he may prohibit). ``mode`` is
    ``highest``, ``lowest``, ``forbid`` or ``require`` (2017 Law 57A) for PLAY_OPT_57, and
    the situation for REPLACE_CALL (``comparable``: 2017 Law 23, the arbiter judges the call).
    """

    kind: str
    seat: Seat
    source: int
    call: Call | None = None
    suits: tuple[Suit, ...] = ()
    mode: str = ""
    trick: int = 0


@dataclass(frozen=True, slots=True)
class PenaltyCard:
    """A defender's penalty card (Law 50): ``major`` unless a single card below 10 exposed by accident."""

    seat: Seat
    card: Card
    major: bool
    source: int


@dataclass(frozen=True, slots=True)
class RevokeRecord:
    """A revoke by ``seat`` at ``trick`` in ``suit`` (the suit led or required).

    ``established`` follows Law 63; ``exempt`` names the reason no trick is transferred
    (Law 64B / R 64D): ``faced_card`` (the card not played was a penalty card faced on the
    table, D 64B3, R 64D3), ``twelfth_trick``, ``corrected``, ``adjusted:<tricks>``; a second
    revoke in the same suit and dummy's are found when the transfer is computed.
    """

    source: int
    seat: Seat
    trick: int
    suit: Suit
    established: bool = False
    exempt: str = ""


@dataclass(frozen=True, slots=True)
class Held:
    """An irregular call or card kept aside until its irregularity (``source``) is settled."""

    source: int
    seat: Seat
    call: Call | None = None
    card: Card | None = None
    t: float = 0.0


NOTIFY_LEVELS = ("log", "arbiter", "table")


@dataclass(frozen=True, slots=True)
class Policy:
    """The club's choices the Laws leave open (docs/irregularities.md, club settings), read from table settings.

    - ``notify``: per irregularity kind, who is told at once: ``log`` (kept, shown when the
      arbiter is called), ``arbiter`` (the default) or ``table``; key ``notify`` in the
      settings, e.g. ``{"revoke": "log", "*": "arbiter"}``.
    - ``face_down_opening_lead``: the opening lead is made face down (ACBL; D 41): a face-down
      lead by the wrong defender is returned without rectification (D 41A, 47).
    - ``simultaneous_window``: two cards from one seat this close together (seconds) were
      put down at once (Law 58B); a later second card is a fifth card (Law 45E).
    - ``timing``: the times of the log are real (false for records replayed from PBN or
      LIN, whose times are made up): tempo is judged only when they are.
    """

    notify: tuple[tuple[str, str], ...] = ()
    face_down_opening_lead: bool = False
    simultaneous_window: float = 0.5
    timing: bool = True

    @classmethod
    def from_settings(cls, settings: Mapping[str, object]) -> Policy:
        """The policy of a session's settings; ValueError naming the setting if one is wrong."""
        notify = settings.get("notify", {})
        if not isinstance(notify, dict):
            raise ValueError("setting 'notify' must map irregularity kinds to log, arbiter or table")
        for kind, level in notify.items():
            if level not in NOTIFY_LEVELS:
                raise ValueError(f"setting 'notify' for {kind!r}: {level!r} is not one of "
                                 f"{', '.join(NOTIFY_LEVELS)}")
        window = settings.get("simultaneous_window", 0.5)
        if isinstance(window, bool) or not isinstance(window, int | float) or not 0 <= window <= 10:
            raise ValueError(f"setting 'simultaneous_window' must be 0-10 seconds, not {window!r}")
        return cls(tuple((str(k), str(v)) for k, v in notify.items()),
                   bool(settings.get("face_down_opening_lead", False)), float(window),
                   bool(settings.get("timing", True)))

    def notify_of(self, kind: str) -> str:
        """Who is told at once of an irregularity of ``kind`` (the arbiter unless the club says)."""
        table = dict(self.notify)
        return table.get(kind, table.get("*", "arbiter"))


# --- the auction ----------------------------------------------------------------------------

def call_out_of_rotation_situation(auction: Auction, seat: Seat, call: Call) -> str:
    """The catalogue row of a call by ``seat`` while another seat is in turn (Laws 25, 30-32).

    A call at LHO's turn is a change of call unless nobody has called yet (D 30B2; R fn 12):
    the player's own call is the last one. A call at partner's turn is a call out of rotation
    (D 30B1(b), 31B, 32A; R 30B, 31A, 32A), also when its maker called just before his LHO:
    LHO's call stands between them, so it is a new call, not a substitute. The arbiter may
    still find it the change of an unintended call (D 25A allows one until partner calls):
    ``own_call_before_lho`` offers him that (``call_out_of_rotation_conditions``).
    """
    turn = auction.turn
    if turn is seat.lho:
        if auction.calls:
            return "change_of_call"
        position = "lho"
    elif turn is seat.partner:
        position = "partner"
    else:
        position = "rho"
    if call.kind is CallKind.PASS:
        if auction.last_bid is None or position == "lho":
            return "pass_oor_before_any_bid"
        return "pass_oor_rho_turn_after_bid" if position == "rho" else "pass_oor_partner_turn_after_bid"
    if call.kind is CallKind.BID:
        return {"rho": "bid_oor_rho_turn", "partner": "bid_oor_partner_turn",
                "lho": "bid_oor_lho_turn_first_round"}[position]
    if position == "lho" or not auction.is_legal(call, seat):
        return "double_oor_inadmissible"
    return "double_oor_rho_turn" if position == "rho" else "double_oor_partner_turn"


def call_out_of_rotation_conditions(auction: Auction, seat: Seat) -> frozenset[str]:
    """The catalogue conditions of a call out of rotation by ``seat``: ``own_call_before_lho``
    when it comes at partner's turn and ``seat`` made the call just before his LHO's (the
    arbiter may find it a Law 25A change of that call)."""
    seats = auction.seats
    if auction.turn is seat.partner and len(seats) >= 2 and seats[-2] is seat and seats[-1] is seat.lho:
        return frozenset(("own_call_before_lho",))
    return frozenset()


def forbidden_call(obligations: Iterable[Obligation], seat: Seat, call: Call,
                   auction: Auction) -> Obligation | None:
    """The obligation of ``seat`` that ``call`` breaks, if any (Laws 30-32, 37)."""
    for ob in obligations:
        if ob.seat is not seat:
            continue
        if ob.kind in (PASS_ONCE, PASS_ALL) and call.kind is not CallKind.PASS:
            return ob
        if ob.kind == NO_X_NOW and call.kind in (CallKind.DOUBLE, CallKind.REDOUBLE):
            return ob
        if (ob.kind == NO_X_SAME and call.kind in (CallKind.DOUBLE, CallKind.REDOUBLE)
                and auction.last_bid == ob.call):
            return ob
        if ob.kind == REPEAT and call != ob.call:
            return ob
    return None


def change_lead_suits(withdrawn: Call, final: Call) -> tuple[Suit, ...] | None:
    """The suits of a Law 26 lead option after ``withdrawn`` was changed to ``final`` (R 26).

    R 26A: a suit bid not repeated by the final call gives that suit (require or prohibit);
    R 26B1: a notrump bid whose final call is not notrump, and R 26B2: a pass, double or
    redouble, give declarer the prohibition of any one suit (no suits named). None when
    the final call repeated the withdrawn denomination: no lead option.
    """
    if withdrawn.is_bid and final.is_bid and withdrawn.denomination is final.denomination:
        return None
    return lead_suits_of(withdrawn)


def skipped_turn(auction: Auction) -> int | None:
    """Where a closed auction reopens because a pass out of rotation skipped a player (Law 34).

    D 17E (formerly 34) and R 34: when the passes that close the auction include one out of
    rotation (accepted by the next call), a player never had his turn; the auction is not
    over. The answer is the index of the first pass out of rotation among the closing
    passes: that pass and every later one are cancelled and the auction reverts to the player who missed his turn,
    with no further rectification. None when the auction closed normally or is still open.
    """
    if not auction.is_complete:
        return None
    calls, seats = auction.calls, auction.seats
    last = max((i for i, c in enumerate(calls) if c.kind is not CallKind.PASS), default=-1)
    # a player who passed among the closing passes had his chance, even if later than his turn
    due = set(Seat) - ({seats[last]} if last >= 0 else set())
    if due <= set(seats[last + 1:]):
        return None
    expected = auction.dealer if last < 0 else seats[last].lho
    for i in range(last + 1, len(calls)):
        if seats[i] is not expected:
            return i
        expected = seats[i].lho
    return None


def is_lowest_sufficient_same_denomination(call: Call, withdrawn: Call, auction: Auction) -> bool:
    """Whether ``call`` replaces the insufficient bid ``withdrawn`` by the lowest sufficient bid in
    its denomination (D 27B1(a); 2017 27B1(a): "the same denomination(s)")."""
    last = auction.last_bid
    return (call.is_bid and call.denomination is withdrawn.denomination and last is not None
            and call.rank <= last.rank + 5)


def lead_ban_suits(auction: Auction, offender: Seat) -> tuple[Suit, ...]:
    """The suits declarer may prohibit under 2017 Law 26B: those ``offender`` did not specify in the
    legal auction (here: every suit he did not bid; the arbiter may correct it for artificial bids)."""
    named = {c.denomination.trump for c in auction.calls_of(offender)
             if c.is_bid and c.denomination is not None and c.denomination.trump is not None}
    return tuple(s for s in Suit if s not in named)


def lead_suits_of(call: Call) -> tuple[Suit, ...]:
    """The suits a withdrawn call names, for Law 26 (none for NT, pass, double, redouble).

    The arbiter may edit them for artificial calls (Law 26).
    """
    if call.kind is CallKind.BID and call.denomination is not None and call.denomination.trump is not None:
        return (call.denomination.trump,)
    return ()


# --- penalty cards and restrictions ----------------------------------------------------------

def is_major(card: Card, deliberate: bool, others: int = 0) -> bool:
    """Whether a penalty card is major: an honour (A-10), exposed deliberately, or one of two
    or more penalty cards of the same player (Law 50)."""
    return deliberate or card.rank >= Rank.TEN or others > 0


def _restrictions(obligations: Iterable[Obligation], seat: Seat, trick: int,
                  leading: bool) -> list[Obligation]:
    out = []
    for ob in obligations:
        if ob.seat is not seat:
            continue
        wanted = ob.kind in (LEAD_REQ, LEAD_BAN) if leading else ob.kind == PLAY_OPT_57 and ob.trick == trick
        if wanted:
            out.append(ob)
    return out


def playable_cards(play: Play, seat: Seat, obligations: Iterable[Obligation],
                   penalty_cards: Iterable[PenaltyCard]) -> tuple[Card, ...] | None:
    """The cards ``seat`` may play now, or None when its hand is unknown.

    Precedence (D 50, 59; R 44, 50, 59): follow suit first; then a lead or play restriction
    (Laws 26, 50, 54, 57), unless the player cannot comply; then a major penalty card that
    can legally be played must be; then a minor penalty card bars the other cards of its
    suit below the 10.
    """
    hand = play.hands[seat]
    if hand is None:
        return None
    cards = sorted(hand, reverse=True)
    led = play.current.suit_led
    leading = led is None
    if led is not None:
        follow = [c for c in cards if c.suit is led]
        if follow:
            cards = follow
    for ob in _restrictions(obligations, seat, play.trick_number, leading):
        narrowed = _apply_restriction(ob, cards, led)
        if narrowed:
            cards = narrowed
    mine = [pc for pc in penalty_cards if pc.seat is seat and pc.card in hand]
    majors = [pc.card for pc in mine if pc.major and pc.card in cards]
    if majors:
        return tuple(majors)
    for pc in mine:
        if not pc.major:
            barred = [c for c in cards if c.suit is pc.card.suit and c.rank < Rank.TEN and c != pc.card]
            kept = [c for c in cards if c not in barred]
            if kept:
                cards = kept
    return tuple(cards)


def penalty_cards_to_designate(play: Play, seat: Seat, obligations: Iterable[Obligation],
                               penalty_cards: Iterable[PenaltyCard]) -> tuple[Card, ...]:
    """The penalty cards of ``seat`` that may legally be played now, when there are two or more:
    declarer designates which one is played (D 51 item 1; R 50). Empty otherwise.

    With the hand known: the penalty cards among ``playable_cards``. Without it, only what is
    certain: all of them when leading free of any restriction, those of the suit led when
    following (he must play a major penalty card of the suit led before another card of it).
    """
    obligations = tuple(obligations)
    pcs = tuple(penalty_cards)
    mine = [pc.card for pc in pcs if pc.seat is seat and pc.major]
    if len(mine) < 2:
        return ()
    legal = playable_cards(play, seat, obligations, pcs)
    if legal is not None:
        cards = [c for c in mine if c in legal]
    elif any(o.seat is seat and o.kind in (LEAD_REQ, LEAD_BAN, PLAY_OPT_57) for o in obligations):
        return ()
    else:
        led = play.current.suit_led
        cards = mine if led is None else [c for c in mine if c.suit is led]
    return tuple(sorted(cards, reverse=True)) if len(cards) >= 2 else ()


def _apply_restriction(ob: Obligation, cards: list[Card], led: Suit | None) -> list[Card]:
    if ob.kind == LEAD_REQ:
        return [c for c in cards if c.suit in ob.suits]
    if ob.kind == LEAD_BAN:
        return [c for c in cards if c.suit not in ob.suits]
    if ob.mode == "forbid":
        return [c for c in cards if c.suit not in ob.suits]
    if ob.mode == "require":
        # 2017 Law 57A3: a card of the suit named (other than the suit led: only once void in it)
        return [c for c in cards if c.suit in ob.suits]
    of_led = [c for c in cards if c.suit is led]
    if not of_led:
        return cards
    return [of_led[0]] if ob.mode == "highest" else [of_led[-1]]


def restriction_broken(play: Play, seat: Seat, card: Card,
                       obligations: Iterable[Obligation]) -> Obligation | None:
    """The lead or play restriction ``card`` breaks though ``seat`` could comply (Law 59), if any.

    Only decidable when the hand is known; following suit always comes first.
    """
    hand = play.hands[seat]
    if hand is None:
        return None
    led = play.current.suit_led
    cards = sorted(hand | {card}, reverse=True)
    if led is not None:
        follow = [c for c in cards if c.suit is led]
        if follow:
            cards = follow
    for ob in _restrictions(obligations, seat, play.trick_number, led is None):
        allowed = _apply_restriction(ob, cards, led)
        if allowed and card not in allowed:
            return ob
    return None


# --- the play: taking cards back --------------------------------------------------------------

def cards_from(play: Play, card: Card) -> int:
    """How many cards have been played since ``card``, ``card`` included (what ``take_back`` needs)."""
    played = play.played_cards()
    return len(played) - played.index(card)


def take_back(play: Play, count: int) -> tuple[Play, tuple[tuple[Seat, Card], ...]]:
    """The play with its last ``count`` cards taken back into their hands, and those cards.

    Used to correct a revoke (Law 62) or a card played in error: a completed trick is
    reopened, its winner's trick taken off the count.
    """
    removed: list[tuple[Seat, Card]] = []
    hands = list(play.hands)
    current, tricks, won = play.current, play.tricks, play.won
    for _ in range(count):
        if not current.cards:
            if not tricks:
                break
            last = tricks[-1]
            tricks = tricks[:-1]
            assert last.winner is not None
            won = (won[0] - 1, won[1]) if last.winner.side is Side.NS else (won[0], won[1] - 1)
            current = Trick(last.leader, last.cards)
        seat = current.seat_of(len(current.cards) - 1)
        card = current.cards[-1]
        current = Trick(current.leader, current.cards[:-1])
        hand = hands[seat]
        if hand is not None:
            hands[seat] = hand | {card}
        removed.append((seat, card))
    removed.reverse()
    new = Play(play.trump, play.declarer, current, tricks, won,
               (hands[0], hands[1], hands[2], hands[3]))
    return new, tuple(removed)


# --- revoke transfers ---------------------------------------------------------------------------

def _won_from(play: Play, side: Side, trick: int, claimed: Mapping[Side, int]) -> int:
    """Tricks ``side`` won from trick number ``trick`` on, tricks claimed included (Laws 61-64)."""
    n = sum(1 for i, t in enumerate(play.tricks, 1)
            if i >= trick and t.winner is not None and t.winner.side is side)
    return n + claimed.get(side, 0)


_SUIT_WORDS = {Suit.C: "clubs", Suit.D: "diamonds", Suit.H: "hearts", Suit.S: "spades"}


def revoke_transfers(play: Play, revokes: Iterable[RevokeRecord], penalty: str,
                     both_sides_exempt: bool,
                     claimed: Mapping[Side, int] | None = None) -> tuple[tuple[int, int], tuple[str, ...]]:
    """Tricks each side (NS, EW) gives up for its established revokes, and notes for the arbiter
    (``revoke_outcomes`` without the reason of each revoke)."""
    lost, notes, _ = revoke_outcomes(play, revokes, penalty, both_sides_exempt, claimed)
    return lost, notes


REVOKE_OUTCOMES = ("revoke_transfer_revoker_won", "revoke_transfer_partner_won", "revoke_transfer_nos_won",
                   "revoke_exempt_no_trick", "revoke_exempt_second", "revoke_exempt_dummy",
                   "revoke_faced_card", "revoke_exempt_both_sides", "revoke_transfer_w87")
"""What decided an established revoke's transfer; each is a key of the code's law references
(``Code.law``), so that the report cites the exact law (e.g. D 64A1, R 64C, D 64B3)."""


def revoke_outcomes(play: Play, revokes: Iterable[RevokeRecord], penalty: str, both_sides_exempt: bool,
                    claimed: Mapping[Side, int] | None = None
                    ) -> tuple[tuple[int, int], tuple[str, ...], tuple[tuple[int, str], ...]]:
    """Tricks each side (NS, EW) gives up for its established revokes, notes for the arbiter,
    and what decided each established revoke (its ``source`` and one of ``REVOKE_OUTCOMES``).

    Law 64 (D 2008 as Duplicate Decisions states it; R 64A-C, the same numbers): if the revoker won the
    revoke trick, one trick plus one more if his side won any later trick (D 64A1, R 64A);
    otherwise one trick if his side won that or a later trick (D 64A2; R 64B when partner
    won it, 64C when the non-offenders did); never more than his side won from the revoke
    trick on (D 64B1, R 64D1). Exemptions (D 64B, R 64D): a second revoke in the same suit by
    the same player, a revoke by dummy or in failing to play a faced card (a penalty card),
    the twelfth trick (corrected instead: not counted here), and in D both sides revoking.
    1905 (W 87): three tricks from the revoking side to the adversaries, at most what the
    revoking side has won (the source is silent; the arbiter may adjust).
    """
    claimed = claimed or {}
    counted: list[RevokeRecord] = []
    notes: list[str] = []
    why: list[tuple[int, str]] = []
    seen: set[tuple[Seat, Suit]] = set()
    for r in revokes:
        if r.exempt == "twelfth_trick":
            notes.append(f"revoke by {r.seat} on the twelfth trick, not corrected: no transfer; the arbiter may "
                         "restore equity (D 62D, 64B6; R 62, 64D5)")
            continue
        if not r.established or (r.exempt and r.exempt != "faced_card"):
            continue
        if r.exempt == "faced_card":
            # D 64B3, R 64D3: still a revoke (a later one in the suit is a second revoke), never a transfer
            seen.add((r.seat, r.suit))
            notes.append(f"revoke by {r.seat} in failing to play a faced card (a penalty card) in "
                         f"{_SUIT_WORDS[r.suit]}: no transfer (D 64B3; R 64D3)")
            why.append((r.source, "revoke_faced_card"))
            continue
        if (r.seat, r.suit) in seen:
            notes.append(f"second revoke by {r.seat} in {_SUIT_WORDS[r.suit]}: no transfer "
                         + ("(D 64B2; R 64D2)" if penalty != "w87" else "(W 87 is silent: the arbiter may adjust)"))
            why.append((r.source, "revoke_exempt_second"))
            continue
        seen.add((r.seat, r.suit))
        if r.seat is play.dummy:
            notes.append(f"revoke by dummy {r.seat}: no transfer "
                         + ("(D 64B3; R 64D3)" if penalty != "w87" else "(W 65, 85)"))
            why.append((r.source, "revoke_exempt_dummy"))
            continue
        counted.append(r)
    # a revoke exempt from transfer (dummy's, a faced card's, a second one) is still a revoke of its
    # side: both sides have revoked when each side has an established one (D 64: no transfer)
    sides = {r.seat.side for r in revokes if r.established and r.exempt in ("", "faced_card")}
    if both_sides_exempt and len(sides) == 2 and counted:
        why.extend((r.source, "revoke_exempt_both_sides") for r in counted)
        return (0, 0), (*notes, "both sides revoked: no transfer; the arbiter restores equity (D 64)"), tuple(why)
    lost = [0, 0]
    for r in counted:
        side = r.seat.side
        n_os = _won_from(play, side, r.trick, claimed)
        winner = play.tricks[r.trick - 1].winner if r.trick <= len(play.tricks) else None
        if penalty == "w87":
            total = sum(1 for t in play.tricks if t.winner is not None and t.winner.side is side)
            n = min(3, total + claimed.get(side, 0))
            if n < 3:
                notes.append(f"the revoking side had only {n} tricks to give up (W 87 is silent)")
            why.append((r.source, "revoke_transfer_w87"))
        elif n_os == 0:
            n = 0
            why.append((r.source, "revoke_exempt_no_trick"))
        elif winner is r.seat:
            n = 1 + (1 if _won_from(play, side, r.trick + 1, claimed) > 0 else 0)
            why.append((r.source, "revoke_transfer_revoker_won"))
        else:
            n = 1
            why.append((r.source, "revoke_transfer_partner_won" if winner is r.seat.partner
                        else "revoke_transfer_nos_won"))
        n = min(n, n_os) if penalty != "w87" else n
        lost[side] += n
    return (lost[0], lost[1]), tuple(notes), tuple(why)
