"""The one root of the project's exceptions; each leaf also subclasses a builtin."""

from __future__ import annotations

__all__ = ["BridgeTableError", "NotationError", "RecordError"]


class BridgeTableError(Exception):
    """Root of every error this project raises on purpose."""


class NotationError(BridgeTableError, ValueError):
    """Text that is not valid notation for a card, call, seat, deal or contract."""


class RecordError(BridgeTableError, ValueError):
    """A record (PBN, LIN, table log) that cannot be read or replayed."""
