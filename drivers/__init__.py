"""Drivers: hardware turned into timestamped raw sensor events (``controller.sensing.events``).

``open_source(url, clock)`` opens any backend by its URL (``nfc:tty:AMA1:pn532?reader=N.play``,
``gpio:rpigpio``, ``sim://``, ``serial:///dev/ttyACM0?seat=N``); ``open_table(config, clock)`` opens
every device of a table config (``drivers.config.load``). Backends import their libraries
only when opened, so ``import drivers`` works on any machine.
"""

from drivers.base import Clock, Emit, EventSource, Indicator, monotonic
from drivers.config import ConfigError, TableConfig
from drivers.registry import TableDevices, TableIndicator, open_source, open_table

__all__ = ["Clock", "ConfigError", "Emit", "EventSource", "Indicator", "TableConfig", "TableDevices",
           "TableIndicator", "monotonic", "open_source", "open_table"]
