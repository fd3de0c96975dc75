"""Bridge whist as the Laws of Bridge revised in 1905 have it (W 1-13 scoring, W 45-60 declaring).

There is no auction. The dealer names the trump suit or no trumps, or passes that choice to
his partner (W 45); the adversaries, then the trump maker's side, may double and redouble
without limit (W 50-57); the dealer plays both his own hand and dummy, and the eldest hand
(the dealer's left) leads (W 61). ``Declaration1905`` is that dialogue as an immutable value.

Scoring (W 1-11): each trick above six is worth 2 at spades, 4 clubs, 6 diamonds, 8 hearts,
12 no trumps, doubled again by each doubling (W 4, 50); 30 points from tricks make a game,
two games a rubber worth 100 (W 1, 2, 6, 11). Honours, chicane and slams are scored above
the line and never doubled (W 5-10). The laws do not say which side scores the odd tricks;
reading W 4 with W 89, whichever side takes more than six tricks scores its tricks above six
at the value of the declaration (there are no undertrick penalties in this game).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.calls import Denomination
from controller.cards import Rank
from controller.codes import Sheet, SheetEntry
from controller.codes.laws import BRIDGE1905_LAWS
from controller.codes.rules import BRIDGE1905_RULES, RulesOfCode
from controller.contract import Contract
from controller.deal import Deal
from controller.errors import BridgeTableError
from controller.scoring import DealResult
from controller.seats import SEATS, Seat, Side, Vulnerability

__all__ = [
    "BRIDGE1905_SCORE_LAWS",
    "FIVE_HONOURS_DIVIDED_PRINTED",
    "FIVE_HONOURS_DIVIDED_PROBABLE",
    "TRICK_VALUES",
    "W_ADVERSARY_NAMES_OR_PASSES_TRUMP",
    "W_DECLARATION_PASSED_BACK_TO_DEALER",
    "W_DOUBLE_BEFORE_MAY_I_LEAD",
    "W_REDOUBLE_OUT_OF_TURN",
    "W_TRUMP_NAMED_BY_PARTNER_UNINVITED",
    "W_UNEXPECTED_ACT",
    "Bridge1905",
    "Declaration1905",
    "DeclarationError",
    "DeclarationStep",
    "Sheet1905",
    "chicane_value",
    "honours_1905",
    "odd_trick_value",
    "slam_1905",
    "trick_score_1905",
]

TRICK_VALUES: dict[Denomination, int] = {
    Denomination.S: 2, Denomination.C: 4, Denomination.D: 6, Denomination.H: 8,
    Denomination.NT: 12,
}
"""Each trick above six, undoubled (W 4): spades are the lowest declaration in 1905."""

GAME = 30
"""Points from tricks alone that make a game (W 2)."""

RUBBER_BONUS = 100
"""Added to the winners of a rubber (W 6, 11)."""

GRAND_SLAM = 40
LITTLE_SLAM = 20
"""Thirteen and twelve tricks by one partnership, added to its honours (W 7, 8)."""

REVOKE_CAP = 28
"""The most a revoking side may reach toward game on the deal of its revoke (W 89)."""

FIVE_HONOURS_DIVIDED_PROBABLE: tuple[int, int, int, int] = (10, 20, 30, 40)
"""Five honours divided, spades, clubs, diamonds, hearts: five times the trick value.

The W 6 table is garbled here: it repeats the "four in one hand" row (16, 32, 48, 64, and
100 at no trumps, where only four aces exist). Every other honours row is a fixed multiple
of the trick value, which puts this one at five times. A club that
confirms the printed row passes ``FIVE_HONOURS_DIVIDED_PRINTED`` to ``Bridge1905``.
"""

FIVE_HONOURS_DIVIDED_PRINTED: tuple[int, int, int, int] = (16, 32, 48, 64)
"""The five-honours-divided row as the source prints it (W 6), spades to hearts."""

_ROW_INDEX = {Denomination.S: 0, Denomination.C: 1, Denomination.D: 2, Denomination.H: 3}

W_TRUMP_NAMED_BY_PARTNER_UNINVITED = "w_trump_named_by_partner_uninvited"
W_DECLARATION_PASSED_BACK_TO_DEALER = "w_declaration_passed_back_to_dealer"
W_ADVERSARY_NAMES_OR_PASSES_TRUMP = "w_adversary_names_or_passes_trump"
W_DOUBLE_BEFORE_MAY_I_LEAD = "w_double_before_may_i_lead"
W_REDOUBLE_OUT_OF_TURN = "w_redouble_out_of_turn"
W_UNEXPECTED_ACT = "w_unexpected_act"
"""Not a kind of docs/irregularities.md: an act the laws give no meaning to (a declaration after the trump is
named, W 49; a double before it; anything once play may begin, W 57). It changes nothing."""

BRIDGE1905_SCORE_LAWS: dict[str, str] = BRIDGE1905_LAWS | {
    W_TRUMP_NAMED_BY_PARTNER_UNINVITED: "46",
    W_DECLARATION_PASSED_BACK_TO_DEALER: "47",
    W_ADVERSARY_NAMES_OR_PASSES_TRUMP: "48",
    W_DOUBLE_BEFORE_MAY_I_LEAD: "54, 59",
    W_REDOUBLE_OUT_OF_TURN: "55",
    W_UNEXPECTED_ACT: "49, 57, 60",
    "w_consultation_on_doubling": "55",
    "w_lead_before_doubling_complete": "56, 58",
    "w_opening_lead_by_dealers_rho": "60, 76",
    "w_card_exposed_before_trump_named": "67",
    "w_card_exposed_before_first_lead": "68",
    "w_exposed_card_called": "69-72, 80",
    "w_failure_to_obey_call": "75",
    "w_missed_trick_omission": "83",
    "change_of_call": "49",
    "deal_out_of_turn": "43",
    "trick_count_disagreement": "12",
    "score_arithmetic_error": "12, 13",
}
"""1905 references, with the declaring and doubling situations of the 1905 game (W 45-57)."""


# ---------------------------------------------------------------------------------------
# Scoring functions


def odd_trick_value(denomination: Denomination, doublings: int = 0) -> int:
    """The value of one trick above six: the W 4 value doubled by each doubling (W 50)."""
    return TRICK_VALUES[denomination] << doublings


def trick_score_1905(denomination: Denomination, doublings: int, tricks: int) -> int:
    """Points of a side taking ``tricks``: tricks above six at the odd-trick value (W 4, 50)."""
    return max(tricks - 6, 0) * odd_trick_value(denomination, doublings)


def _known(deal: Deal | None) -> Deal | None:
    if deal is None:
        return None
    deal = deal.completed()
    return deal if deal.is_complete else None


def honours_1905(deal: Deal | None, denomination: Denomination,
                 five_divided: tuple[int, int, int, int] = FIVE_HONOURS_DIVIDED_PROBABLE,
                 ) -> tuple[Side, int] | None:
    """The side credited with honours and their value (W 5, 6), or None.

    Honours are the ace, king, queen, knave and ten of trumps, or the four aces at no
    trumps, credited to the side that held them in the deal (W 6). The side holding the
    majority scores, by the W 6 row its holding matches; at no trumps two aces each score
    nothing. None when the hands are not all known.
    """
    deal = _known(deal)
    if deal is None:
        return None
    trump = denomination.trump
    per_seat = []
    for seat in SEATS:
        hand = deal.hand(seat) or frozenset()
        if trump is None:
            per_seat.append(sum(1 for c in hand if c.rank is Rank.ACE))
        else:
            per_seat.append(sum(1 for c in hand if c.suit is trump and c.rank.is_honour))
    by_side = [per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]]
    if by_side[0] == by_side[1]:
        return None
    side = Side.NS if by_side[0] > by_side[1] else Side.EW
    held = by_side[side]
    in_one = max(per_seat[side], per_seat[side + 2])
    if trump is None:
        if in_one == 4:
            return side, 100
        return side, (40 if held == 4 else 30)
    v = TRICK_VALUES[denomination]
    if held == 5:
        if in_one == 5:
            return side, 10 * v
        if in_one == 4:
            return side, 9 * v
        return side, five_divided[_ROW_INDEX[denomination]]
    if held == 4:
        return side, (8 if in_one == 4 else 4) * v
    return side, 2 * v


def chicane_value(deal: Deal | None, denomination: Denomination, side: Side) -> int:
    """Chicane of ``side``: a hand void of trumps is worth three honours, both hands four (W 9).

    Three honours are twice the trick value (W 6); four honours are taken as the value of
    four honours divided, four times the trick value. Nothing at no trumps (W 6 shows no
    chicane there) or when the hands are not all known.
    """
    deal = _known(deal)
    trump = denomination.trump
    if deal is None or trump is None:
        return 0
    voids = 0
    for seat in (Seat(side.value), Seat(side.value + 2)):
        hand = deal.hand(seat) or frozenset()
        if not any(c.suit is trump for c in hand):
            voids += 1
    return (0, 2, 4)[voids] * TRICK_VALUES[denomination]


def slam_1905(tricks: int, gained_by_revoke: int) -> int:
    """Grand slam 40 for thirteen tricks, little slam 20 for twelve (W 7, 8).

    Tricks gained from a revoke penalty do not count toward a slam (W 7).
    """
    played = tricks - gained_by_revoke
    if played >= 13:
        return GRAND_SLAM
    if played == 12:
        return LITTLE_SLAM
    return 0


# ---------------------------------------------------------------------------------------
# The sheet and the code


def _add(pair: tuple[int, int], side: Side, value: int) -> tuple[int, int]:
    return (pair[0] + value, pair[1]) if side is Side.NS else (pair[0], pair[1] + value)


@dataclass(frozen=True, slots=True)
class Sheet1905(Sheet):
    """A 1905 score sheet: games in the current rubber and points toward game, by side.

    ``rubbers`` counts rubbers won (W 1); ``rubber_ended`` is True when the last deal won one.
    """

    games: tuple[int, int] = (0, 0)
    below: tuple[int, int] = (0, 0)
    rubbers: int = 0
    rubber_ended: bool = False


@dataclass(frozen=True, slots=True)
class Bridge1905:
    """The 1905 game: trumps declared by the dealer or his partner, games of 30 (W 1-13, 45-60).

    ``five_honours_divided`` is the garbled W 6 row (spades, clubs, diamonds, hearts; the
    probable values by default). ``max_odd_trick_value`` is a club's cap on doubling (the
    footnote to W 55; clubs used 100 or 200): no double may take the odd trick above it.
    """

    five_honours_divided: tuple[int, int, int, int] = FIVE_HONOURS_DIVIDED_PROBABLE
    max_odd_trick_value: int | None = None
    name: str = "bridge1905"
    declares_trumps: bool = True
    rules: RulesOfCode = BRIDGE1905_RULES

    def law(self, situation: str) -> str:
        return BRIDGE1905_SCORE_LAWS.get(situation, "")

    def new_sheet(self) -> Sheet1905:
        return Sheet1905()

    def declaration(self, dealer: Seat) -> Declaration1905:
        """The declaring dialogue of a new deal by ``dealer``, with this table's doubling cap."""
        return Declaration1905.start(dealer, self.max_odd_trick_value)

    def deal_setup(self, sheet: Sheet, number: int | None, dealer: Seat | None,
                   vulnerability: Vulnerability | None) -> tuple[Seat, Vulnerability]:
        """The dealer in rotation (W 32); there is no vulnerability in this game.

        The deal goes to the left after every deal (no deal is passed out: the trump must be
        named, W 45). A dealer given by the log is taken as it is: a deal out of turn not
        corrected before the next deal stands (W 43), and the rotation goes on from it.
        """
        if dealer is None:
            dealer = sheet.last_dealer.lho if sheet.last_dealer is not None else Seat.N
        return dealer, Vulnerability.NONE

    def score_deal(self, sheet: Sheet, result: DealResult) -> tuple[Sheet, tuple[SheetEntry, ...]]:
        """Score one deal: odd tricks, honours, chicane, slam, game and rubber (W 1-11, 85-89).

        ``result.tricks`` are the dealer's side's tricks, with the three-trick revoke
        transfers (W 87) already made: the penalty is counted before anything else (W 85) and
        only in the current game (W 88). ``result.revoke_tricks`` says which side revoked:
        that side cannot win a game on the deal, nor reach more than 28 toward game (W 89);
        its trick points beyond 28 are not scored (the laws leave that open; W 89 reads as a
        limit on the trick score itself). A game wipes both sides' points toward the next game.
        """
        s = _sheet_1905(sheet)
        deal = s.deals + 1
        contract = result.contract
        if contract is None:
            return replace(s, deals=deal, last_dealer=result.dealer, rubber_ended=False), ()
        denomination = contract.denomination
        makers = contract.declarer.side
        tricks = _add((0, 0), makers, result.tricks)
        tricks = _add(tricks, makers.other, 13 - result.tricks)
        winner = makers if result.tricks > 6 else makers.other
        revoked = result.revoke_tricks[winner] > 0
        points = trick_score_1905(denomination, contract.doubled, tricks[winner])
        previous = s.below[winner]
        if revoked:
            points = min(points, max(REVOKE_CAP - previous, 0))
        entries: tuple[SheetEntry, ...] = ()
        if points:
            entries += (SheetEntry(deal, winner, points, True, "trick points"),)
        entries += self._honour_entries(deal, result.deal, denomination)
        for side in Side:
            slam = slam_1905(tricks[side], result.revoke_tricks[side.other])
            if slam:
                entries += (SheetEntry(deal, side, slam, False, "slam"),)
        below, games, rubbers, ended = _add(s.below, winner, points), s.games, s.rubbers, False
        if below[winner] >= GAME and not revoked:
            below, games = (0, 0), _add(games, winner, 1)
            if games[winner] == 2:
                entries += (SheetEntry(deal, winner, RUBBER_BONUS, False, "rubber"),)
                games, rubbers, ended = (0, 0), rubbers + 1, True
        new = Sheet1905(s.entries + entries, deal, result.dealer, s.points_with(entries),
                        games, below, rubbers, ended)
        return new, entries

    def _honour_entries(self, deal: int, cards: Deal | None,
                        denomination: Denomination) -> tuple[SheetEntry, ...]:
        """Honours less the adversaries' chicane, and the side's own chicane (W 6, 9).

        A deduction larger than the honours leaves them at nothing (the laws do not say;
        with the W 6 values it cannot happen).
        """
        honours = honours_1905(cards, denomination, self.five_honours_divided)
        if honours is None:
            return ()
        side, value = honours
        value = max(value - chicane_value(cards, denomination, side.other), 0)
        own = chicane_value(cards, denomination, side)
        entries: tuple[SheetEntry, ...] = ()
        if value:
            entries += (SheetEntry(deal, side, value, False, "honours"),)
        if own:
            entries += (SheetEntry(deal, side, own, False, "chicane"),)
        return entries

    def finish(self, sheet: Sheet) -> tuple[Sheet, tuple[SheetEntry, ...]]:
        """Nothing: the 1905 laws give no premium for an unfinished rubber.

        Only the winners of a rubber add 100 (W 11); there is no counterpart of rubber
        bridge's Law 80, so the points scored so far stand as they are.
        """
        return sheet, ()


def _sheet_1905(sheet: Sheet) -> Sheet1905:
    if isinstance(sheet, Sheet1905):
        return sheet
    return Sheet1905(sheet.entries, sheet.deals, sheet.last_dealer, sheet.points)


# ---------------------------------------------------------------------------------------
# Declaring trumps and doubling (W 45-60)


class DeclarationError(BridgeTableError, ValueError):
    """A question the declaration cannot answer yet (the contract before the trump is named)."""


@dataclass(frozen=True, slots=True)
class DeclarationStep:
    """The dialogue after one act, and the 1905 situation (W 45-57) the act raised, if any."""

    declaration: Declaration1905
    situation: str | None = None


@dataclass(frozen=True, slots=True)
class Declaration1905:
    """The declaring and doubling dialogue of one deal (W 45-57), as an immutable value.

    Acts are ``("declare", Denomination)``, ``("pass_to_partner",)``, ``("double",)`` (a
    double or redouble) and ``("satisfied",)`` (declining to double: the eldest hand's "May
    I lead?", his partner's "Yes" and the trump maker's side's "Satisfied"). ``apply`` never
    raises: an irregular act returns the state it leads to (the act provisionally standing)
    with its situation, and ``pending`` holds that situation until ``rule`` settles it or the
    next act accepts it by acting.
    """

    dealer: Seat
    max_odd_trick_value: int | None = None
    denomination: Denomination | None = None
    maker: Seat | None = None
    doublings: int = 0
    passed: bool = False
    doubling_side: Side | None = None
    first_satisfied: bool = False
    last_doublers: tuple[Seat | None, Seat | None] = (None, None)
    closed: bool = False
    pending: str | None = None
    prior: Declaration1905 | None = None

    @classmethod
    def start(cls, dealer: Seat, max_odd_trick_value: int | None = None) -> Declaration1905:
        """The dialogue of a deal by ``dealer``: he names the trump or passes it (W 45)."""
        return cls(dealer, max_odd_trick_value)

    # -- queries ---------------------------------------------------------------------

    @property
    def eldest(self) -> Seat:
        """The eldest hand, the dealer's left: first to double (W 51), opening leader (W 61)."""
        return self.dealer.lho

    @property
    def adversaries(self) -> Side:
        return self.dealer.side.other

    @property
    def turn(self) -> Seat | None:
        """The seat expected to act, or None once play may begin."""
        if self.denomination is None:
            return self.dealer.partner if self.passed else self.dealer
        if self.closed or self.doubling_side is None:
            return None
        first = self._first_right(self.doubling_side)
        return first.partner if self.first_satisfied else first

    @property
    def is_complete(self) -> bool:
        """True when the play may begin (W 57) and no irregularity awaits a ruling."""
        return self.closed and self.pending is None

    @property
    def odd_trick_value(self) -> int | None:
        """The value of a trick above six as doubled so far (W 4, 50); None before the trump."""
        if self.denomination is None:
            return None
        return odd_trick_value(self.denomination, self.doublings)

    def contract(self) -> Contract:
        """The contract in 1905 form: level 1, every doubling counted, the dealer as declarer.

        The dealer plays both hands whoever named the trump (W 61). Asking before the trump
        is named is a programmer's error (``DeclarationError``).
        """
        if self.denomination is None:
            raise DeclarationError(f"no trump has been named yet on {self.dealer}'s deal")
        return Contract(1, self.denomination, self.doublings, self.dealer)

    def _first_right(self, side: Side) -> Seat:
        """Who doubles first for ``side`` (W 51-53, 55).

        The player who last (re)doubled for it; before that, the eldest hand for the
        adversaries and the trump maker for his side.
        """
        last = self.last_doublers[side]
        if last is not None:
            return last
        if side is self.adversaries:
            return self.eldest
        return self.maker if self.maker is not None else self.dealer

    def _may_double(self) -> bool:
        """False when a club's cap forbids the next doubling (W 55 footnote)."""
        value = self.odd_trick_value
        cap = self.max_odd_trick_value
        return value is not None and (cap is None or 2 * value <= cap)

    # -- acts ------------------------------------------------------------------------

    def apply(self, seat: Seat, act: tuple[object, ...]) -> DeclarationStep:
        """The dialogue after ``seat``'s ``act``, with the 1905 situation (W 45-57) it raised, if any.

        An act by anyone while a ruling is pending accepts the irregular act (acceptance by
        acting, docs/irregularities.md, club settings; W 46 says so of a trump named uninvited).
        """
        verb = act[0] if act else None
        base = self._settled()
        if self.closed:
            return DeclarationStep(self, W_UNEXPECTED_ACT)
        if self.denomination is None:
            return base._declaring(seat, verb, act)
        return base._doubling(seat, verb)

    def rule(self, stands: bool) -> Declaration1905:
        """The dialogue once the pending irregularity is ruled on.

        ``stands`` True: the irregular act stands, or the deal goes on without a new deal
        (W 46 trump stands; W 47 the offender is made to name the trump; W 48 as if nothing
        had been said; W 54, 59, 55 the double stands). False: a new deal for the
        declaration irregularities (W 46-48: the same dealer starts again once the table has
        redealt); the double before "May I lead?" is struck out and the eldest hand keeps
        his right (W 54, 59); a (re)double out of turn is struck out and there is no more
        doubling on the deal (W 55).
        """
        if self.pending is None:
            return self
        if stands:
            return replace(self, pending=None, prior=None)
        prior = self.prior if self.prior is not None else replace(self, pending=None)
        if self.pending == W_DOUBLE_BEFORE_MAY_I_LEAD:
            return prior
        if self.pending == W_REDOUBLE_OUT_OF_TURN:
            return replace(prior, closed=True)
        return Declaration1905.start(self.dealer, self.max_odd_trick_value)

    def _settled(self) -> Declaration1905:
        if self.pending is None:
            return self
        return replace(self, pending=None, prior=None)

    def _irregular(self, new: Declaration1905, situation: str) -> DeclarationStep:
        return DeclarationStep(replace(new, pending=situation, prior=self), situation)

    def _declared(self, denomination: Denomination, maker: Seat) -> Declaration1905:
        new = replace(self, denomination=denomination, maker=maker,
                      doubling_side=self.adversaries)
        return new if new._may_double() else replace(new, closed=True)

    def _declaring(self, seat: Seat, verb: object, act: tuple[object, ...]) -> DeclarationStep:
        """Naming the trump or passing it to partner (W 45-48)."""
        named = act[1] if verb == "declare" and len(act) > 1 else None
        if verb == "declare" and not isinstance(named, Denomination):
            return DeclarationStep(self, W_UNEXPECTED_ACT)
        if seat.side is self.adversaries:
            if verb in ("declare", "pass_to_partner"):
                return self._irregular(self, W_ADVERSARY_NAMES_OR_PASSES_TRUMP)
            return DeclarationStep(self, W_UNEXPECTED_ACT)
        if seat is self.dealer:
            if self.passed:
                return DeclarationStep(self, W_UNEXPECTED_ACT)
            if isinstance(named, Denomination):
                return DeclarationStep(self._declared(named, seat))
            if verb == "pass_to_partner":
                return DeclarationStep(replace(self, passed=True))
            return DeclarationStep(self, W_UNEXPECTED_ACT)
        if isinstance(named, Denomination):
            if self.passed:
                return DeclarationStep(self._declared(named, seat))
            return self._irregular(self._declared(named, seat), W_TRUMP_NAMED_BY_PARTNER_UNINVITED)
        if verb == "pass_to_partner":
            return self._irregular(self, W_DECLARATION_PASSED_BACK_TO_DEALER)
        return DeclarationStep(self, W_UNEXPECTED_ACT)

    def _double(self, seat: Seat) -> Declaration1905:
        """A double by ``seat``: the other side's first right comes next (W 52, 53, 55)."""
        doublers = list(self.last_doublers)
        doublers[seat.side] = seat
        new = replace(self, doublings=self.doublings + 1, doubling_side=seat.side.other,
                      first_satisfied=False, last_doublers=(doublers[0], doublers[1]))
        return new if new._may_double() else replace(new, closed=True)

    def _doubling(self, seat: Seat, verb: object) -> DeclarationStep:
        """Doubling, redoubling and being satisfied (W 50-57, 59)."""
        turn = self.turn
        if verb == "satisfied":
            if seat is not turn:
                # W 59: asking to lead out of turn costs the eldest hand nothing; any other
                # "satisfied" out of turn gives up no right either.
                return DeclarationStep(self)
            if self.first_satisfied:
                return DeclarationStep(replace(self, closed=True))
            return DeclarationStep(replace(self, first_satisfied=True))
        if verb != "double":
            return DeclarationStep(self, W_UNEXPECTED_ACT)
        if seat is turn:
            return DeclarationStep(self._double(seat))
        if self.doublings == 0 and seat.side is not self.adversaries:
            return DeclarationStep(self, W_UNEXPECTED_ACT)
        if (self.doublings == 0 and seat is self.dealer.rho
                and not self.first_satisfied):
            return self._irregular(self._double(seat), W_DOUBLE_BEFORE_MAY_I_LEAD)
        return self._irregular(self._double(seat), W_REDOUBLE_OUT_OF_TURN)
