"""The sensing layer: raw sensor events in, table actions out (pure, no clock reads)."""

from controller.sensing.deck import DeckError, DeckRegistry, EnrolledTag, parse_tag_text
from controller.sensing.events import ButtonPressed, ContactChanged, DeviceHealth, RawEvent, TagGone, TagSeen
from controller.sensing.translate import Notice, NoticeKind, Output, Sensing, Settings

__all__ = ["ButtonPressed", "ContactChanged", "DeckError", "DeckRegistry", "DeviceHealth", "EnrolledTag",
           "Notice", "NoticeKind", "Output", "RawEvent", "Sensing", "Settings", "TagGone", "TagSeen",
           "parse_tag_text"]
