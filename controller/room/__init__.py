"""The club room, pure: what a table tells the room (``messages``) and the room as the
Director's console knows it (``console``). No I/O: the MQTT link and the console's server
live in ``tablectl.room``."""
