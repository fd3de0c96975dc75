"""The seats' lights and buzzers: who is waited for, shown at the table.

The LED of each seat concerned (the offender of an irregularity awaiting the arbiter, the
seat that called him) is lit while that lasts; the offender's buzzer sounds when the
irregularity is raised. A light that fails never stops the table: it is logged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from controller.engine import Outcome
from controller.seats import Seat
from controller.table import TableState
from drivers.base import Indicator

__all__ = ["indicate", "seats_to_light", "set_lights"]

log = logging.getLogger("tablectl.runtime")


def indicate(indicator: Indicator, state: TableState, outcomes: Sequence[Outcome],
             lit: frozenset[Seat]) -> frozenset[Seat]:
    """Buzz the offenders of the irregularities ``outcomes`` raised for the arbiter, and set the
    LEDs from ``lit`` (those on now) to what ``state`` asks; the LEDs on afterwards."""
    for o in outcomes:
        for d in o.derived:
            for id_ in d.irregularities:
                irr = state.irregularity(id_)
                if irr is not None and irr.notify != "log" and irr.status == "awaiting_ruling":
                    for seat in ((irr.offender,) if irr.offender is not None else tuple(Seat)):
                        _safely(indicator.buzz, str(seat), 200)
    return set_lights(indicator, seats_to_light(state), lit)


def set_lights(indicator: Indicator, wanted: frozenset[Seat], lit: frozenset[Seat]) -> frozenset[Seat]:
    """Switch the LEDs that differ between ``lit`` (on now) and ``wanted``; ``wanted``."""
    for seat in Seat:
        if (seat in wanted) != (seat in lit):
            _safely(indicator.set_led, str(seat), seat in wanted)
    return wanted


def seats_to_light(state: TableState) -> frozenset[Seat]:
    """The seats whose LED is lit: offenders of irregularities awaiting the arbiter, and the caller."""
    seats: set[Seat] = set()
    for irr in state.awaiting():
        if irr.notify != "log" and irr.kind != "tempo" and irr.offender is not None:
            seats.add(irr.offender)
    if state.director_called is not None:
        seats.add(state.director_called)
    return frozenset(seats)


def _safely(fn: Callable[..., None], *args: object) -> None:
    try:
        fn(*args)
    except Exception as exc:  # a seat's LED must never stop the table
        log.warning("indicator %s%r failed: %s", getattr(fn, "__name__", fn), args, exc)
