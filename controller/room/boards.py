"""One board seen at two tables: the same deal, another deal (Law 87), or the same hands rotated (Law 7), pure.

A board is *rotated* when its four hands are the hands of the board as other tables played it,
each moved on by the same number of seats: the North cards at East, the East cards at South...
(turned by 1 seat), or every hand at its partner's seat (2 seats), or at the seat before (3).
The cards went back into the wrong pockets, or the board was put on the table the wrong way round.

The catalogue calls it ``board_rotated`` (D 7; Duplicate Decisions on Law 7): the stationary
players are the first answerable for the board's proper position. Played the wrong way round
(turned by 2 seats: North played the South hand) the result stands and is scored with the
others, as the North-South pair still held the North-South cards; turned by 1 or 3 seats
(North-South held the East-West cards) the result is scored as played, against the tables that
played it the same way, which changes who it is compared with. The Director lets the board be
finished and turns the round's other boards the right way. Cards in the wrong pockets that are
not a rotation (some cards of one hand in another) are a fouled board (Law 87), scored by groups.
"""

from __future__ import annotations

from controller.cards import Card
from controller.deal import Deal

__all__ = ["deals_differ", "merged", "rotation", "turned"]

_MIN_COMPARED = 39
"""Cards that must be known in both deals to call one a rotation of the other: three hands' worth
(two hands swapped are a rotation only if the other two moved on too: Law 87 otherwise)."""


def deals_differ(a: Deal, b: Deal) -> bool:
    """True when some card is known in both deals and held by different seats."""
    for i, hand in enumerate(a.hands):
        if hand is None:
            continue
        for j, other in enumerate(b.hands):
            if i != j and other is not None and hand & other:
                return True
    return False


def merged(a: Deal, b: Deal) -> Deal:
    """What two deals that do not differ say together (each hand the union of what either knows)."""
    hands = [x if y is None else y if x is None else x | y for x, y in zip(a.hands, b.hands, strict=True)]
    return Deal((hands[0], hands[1], hands[2], hands[3]))


def turned(deal: Deal, seats: int) -> Deal:
    """``deal`` with every hand moved on ``seats`` seats clockwise (1: North's cards at East)."""
    k = seats % 4
    hands = [deal.hands[(i - k) % 4] for i in range(4)]
    return Deal((hands[0], hands[1], hands[2], hands[3]))


def _known(deal: Deal) -> frozenset[Card]:
    out: set[Card] = set()
    for hand in deal.hands:
        if hand is not None:
            out |= hand
    return frozenset(out)


def rotation(played: Deal, board: Deal) -> int | None:
    """By how many seats (1-3) ``played`` is ``board`` turned: ``turned(board, k)`` holds the same
    cards at the same seats, and three hands' worth of cards are known in both. None when it is
    the same deal, another deal, or too little is known to tell."""
    if not deals_differ(played, board) or len(_known(played) & _known(board)) < _MIN_COMPARED:
        return None
    for k in (1, 2, 3):
        if not deals_differ(played, turned(board, k)):
            return k
    return None
