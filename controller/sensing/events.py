"""Raw sensor events: what drivers report, before any bridge meaning (docs/architecture.md, raw sensor events).

Drivers build these and hand them to the sensing layer; the controller owns the types so
that dependencies point inward. Every event carries ``t``, monotonic seconds from the
driver's injected clock. Readers are named ``<seat>.<zone>`` (``N.play``, ``E.spread``) or
``board``; tag UIDs are upper-case hex strings (``04A1B2C3D4E5F6``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ButtonPressed", "ContactChanged", "DeviceHealth", "RawEvent", "TagGone", "TagSeen"]


@dataclass(frozen=True, slots=True)
class TagSeen:
    """A tag came into the field of ``reader``."""

    reader: str
    uid: str
    t: float


@dataclass(frozen=True, slots=True)
class TagGone:
    """A tag left the field of ``reader``."""

    reader: str
    uid: str
    t: float


@dataclass(frozen=True, slots=True)
class ContactChanged:
    """The contact of bidding-box ``slot`` at ``seat`` changed: ``present`` is True when the card is in."""

    seat: str
    slot: str
    present: bool
    t: float


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A button at ``seat`` was pressed (``name``: ``director`` for call-the-arbiter)."""

    seat: str
    name: str
    t: float


@dataclass(frozen=True, slots=True)
class DeviceHealth:
    """A device went ``up`` or down (``up`` False), with a human-readable ``detail``."""

    device: str
    up: bool
    detail: str
    t: float


RawEvent = TagSeen | TagGone | ContactChanged | ButtonPressed | DeviceHealth
