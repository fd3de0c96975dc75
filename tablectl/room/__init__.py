"""The club room: tables and the Director's console linked through a Mosquitto broker (docs/room-protocol.md)."""
