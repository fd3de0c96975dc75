"""Scoring as small named pure functions (Law 81 of rubber bridge; duplicate Law 77).

The numbers are those of the codes' scoring laws (R 72-74, 81; D 77; W 2-11); the duplicate-only
premiums (partscore 50, game 300/500) come from the official Law 77 table, which the duplicate sources do not print.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.calls import Denomination
from controller.contract import Contract
from controller.deal import Deal
from controller.seats import Seat, Side, Vulnerability

__all__ = [
    "DealResult",
    "duplicate_score",
    "game_premium",
    "insult_bonus",
    "overtrick_points",
    "slam_premium",
    "trick_points",
    "undertrick_penalty",
]


@dataclass(frozen=True, slots=True)
class DealResult:
    """What a deal produced, for any code: contract (None if passed out) and declarer's tricks.

    ``tricks`` already include tricks transferred for a revoke (Law 64; R 77).
    ``revoke_tricks`` maps each side to the tricks it gave up for revokes (1905 W 87-89 need it).
    """

    contract: Contract | None
    tricks: int
    vulnerability: Vulnerability
    dealer: Seat
    deal: Deal | None = None
    revoke_tricks: tuple[int, int] = (0, 0)
    number: int | None = None


def trick_points(contract: Contract) -> int:
    """Trick points for the odd tricks bid: 20 minors, 30 majors, 40+30 notrump, x2 per double (Law 81)."""
    per = 20 if contract.denomination.is_minor else 30
    points = per * contract.level
    if contract.denomination is Denomination.NT:
        points += 10
    return points << contract.doubled


def overtrick_points(contract: Contract, overtricks: int, vulnerable: bool) -> int:
    """Overtricks: trick value undoubled; 100/200 doubled, 200/400 redoubled (Law 81)."""
    if overtricks <= 0:
        return 0
    if contract.doubled == 0:
        per = 20 if contract.denomination.is_minor else 30
        return per * overtricks
    per = 200 if vulnerable else 100
    return per * overtricks * (2 if contract.doubled >= 2 else 1)


def insult_bonus(contract: Contract) -> int:
    """50 for making a doubled contract, 100 redoubled (Law 81)."""
    return (0, 50, 100)[min(contract.doubled, 2)]


def slam_premium(contract: Contract, vulnerable: bool) -> int:
    """Small slam 500/750, grand slam 1000/1500, for a slam contract made (Law 81)."""
    if contract.level == 6:
        return 750 if vulnerable else 500
    if contract.level == 7:
        return 1500 if vulnerable else 1000
    return 0


def undertrick_penalty(down: int, doubled: int, vulnerable: bool) -> int:
    """Points to the defenders for ``down`` undertricks (Law 81; D 77)."""
    if down <= 0:
        return 0
    if doubled == 0:
        return down * (100 if vulnerable else 50)
    if vulnerable:
        points = 200 + 300 * (down - 1)
    else:
        points = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return points * (2 if doubled >= 2 else 1)


def game_premium(points: int, vulnerable: bool) -> int:
    """Duplicate: 300/500 for a game (100+ trick points), else 50 for a partscore (Law 77)."""
    if points >= 100:
        return 500 if vulnerable else 300
    return 50


def duplicate_score(contract: Contract | None, tricks: int, vulnerability: Vulnerability) -> int:
    """North-South's score on a duplicate board (Law 77); 0 for a passed-out board (Law 22)."""
    if contract is None:
        return 0
    side = contract.declarer.side
    vul = vulnerability.is_vulnerable(side)
    diff = tricks - contract.tricks_needed
    if diff < 0:
        score = -undertrick_penalty(-diff, contract.doubled, vul)
    else:
        points = trick_points(contract)
        score = (points + game_premium(points, vul) + slam_premium(contract, vul)
                 + insult_bonus(contract) + overtrick_points(contract, diff, vul))
    return score if side is Side.NS else -score
