"""The sensing layer: raw sensor events in, table actions out (pure, no clock reads)."""

from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth, RawEvent, TagGone, TagSeen

__all__ = ["ButtonPressed", "ContactChanged", "DeviceHealth", "RawEvent", "TagGone", "TagSeen"]
