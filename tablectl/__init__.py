"""``tablectl``: the one composition root that wires controller, drivers, storage and web."""
