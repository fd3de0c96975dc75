"""MicroPython firmware of the RP2040 seat unit (see ``README.md`` here for wiring and deployment).

``main.py`` and the ``seatfw`` package are copied to the unit. The package imports only
MicroPython modules; under CPython the emulator and the tests run the same code against
``firmware_bridge.sim_machine`` (hardware/README.md: one seat unit per seat).
"""
