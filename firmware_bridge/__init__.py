"""The Pi <-> seat-unit link (docs/architecture.md: frames, codec, seat firmware, pty emulator).

- ``PROTOCOL.md``: the wire protocol, byte by byte;
- ``codec``: COBS + CRC-16 frames and the resynchronising ``FrameDecoder``;
- ``messages``: the typed messages and their ``encode``/``decode``;
- ``link``: ``SeatLink``, the supervisor of one unit's serial port (reader thread, reconnection);
- ``firmware/``: the RP2040 seat unit's MicroPython firmware;
- ``sim_machine``: a simulated ``machine`` module with the seat's parts, to run that firmware here;
- ``emulator``: the firmware on a simulated seat behind a pty (``python -m firmware_bridge.emulator``).

Importing the package imports none of its modules (pyserial is needed only by ``link``).
"""
