"""The table: one immutable state and ``step(state, action) -> Step``.

``step`` never mutates and never raises for anything that can happen at a table. An
illegal call or card becomes an ``Irregularity`` (kind, situation and law of the code in
force, offender, chooser, options). An action that makes no sense now (a card before any
board, a claim of 14 tricks, a call while the arbiter is being waited for) is
``rejected`` with a clear message and leaves the state unchanged.

Irregular calls and cards are held aside (``BoardState.held``) until their ruling, or
until the next non-offender accepts them by acting (Laws 27A, 29A, 53, 60): the table
blocks only what the law stops. A ruling applies its option and leaves what the law
imposes afterwards on the board as values (``controller.rulings``): obligations in the
auction, penalty cards, lead and play restrictions, revoke records whose tricks are
transferred when the play ends (Law 64). Those are enforced at every later call and card.

One module per concept (each docstring lists its laws; underscored names are the
package's own, shared between its modules):

- ``state``: ``TableState`` and its queries, ``BoardState``, ``BoardOutcome``, ``Step``
- ``step``: ``step``, the session, the start of a board, a call of the Director
- ``auction``: calls, the auction's irregularities and their rulings (Laws 17-39)
- ``bridge1905``: the 1905 declaration and doubling (W 45-61, 76)
- ``play``: a card at the table, the play's irregularities and their rulings (Laws 41, 45E, 53-60)
- ``tricks``: a card played in turn into the trick (Laws 44, 57, 59, 61, 63A1)
- ``penalties``: penalty cards and lead restrictions (Laws 24, 26, 48-52)
- ``revokes``: revokes corrected, confirmed, adjusted, established by a claim (Laws 61-64)
- ``claims``: claims and concessions (Laws 68-71)
- ``apply``: a ruling checked, applied and undone (Laws 7, 13-14, 45E, 52, 82)
- ``closing``: a board closed and scored, revoke transfers, adjustments (Laws 12, 64, 79, 82)
- ``corrections``: the Director's corrections of a finished board's result (Law 79C)
- ``timing``: think times and hesitations (Laws 16, 73)
- ``_common``: irregularities raised and settled, calls and cards held, obligations
"""

from __future__ import annotations

from controller.table.closing import abandon_board, finish_session
from controller.table.state import BoardOutcome, BoardState, Event, Phase, Step, TableState
from controller.table.step import step
from controller.table.timing import think_times

__all__ = [
    "BoardOutcome", "BoardState", "Event", "Phase", "Step", "TableState", "abandon_board", "finish_session",
    "step", "think_times",
]
