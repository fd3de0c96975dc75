"""A table whose log lost acknowledged inputs tells the room: an ``alert`` (``log_damaged``) on
its ``alert`` topic, through the real Mosquitto, saying what was lost and since which ``seq``."""

from __future__ import annotations

import json
from pathlib import Path

from tablectl.room.link import TableLink
from tablectl.runtime import TableRuntime
from tests.room.conftest import Broker, Peer
from tests.tablectl.test_log_damage import AUCTION, DAMAGES, _power_cut
from tests.tablectl.test_runtime import _setup


def test_a_table_whose_wal_was_lost_tells_the_room_what_it_lost(anon_broker: Broker, tmp_path: Path) -> None:
    db, acknowledged, session = _power_cut(tmp_path, AUCTION)
    DAMAGES["the WAL deleted"](db)
    peer = Peer(anon_broker.url()).connected()
    peer.subscribe("bridge/testclub/table/1/alert")
    rt = TableRuntime(db, _setup())
    rt.start()
    link = TableLink(rt, anon_broker.address(), "1", keepalive=2)
    link.start()
    try:
        message = json.loads(peer.wait_for("bridge/testclub/table/1/alert", timeout=15).payload)
        lost = [r for r in acknowledged if r.is_input]  # the whole log was in the WAL
        assert message["alert"] == "log_damaged" and message["alarm"] is True
        assert message["session"] == session and message["seq"] > acknowledged[-1].seq
        assert message["lost_inputs"] == len(lost) and message["since"] == 1
        assert f"{len(lost)} acknowledged input(s) lost since seq 1" in message["what"]
    finally:
        link.stop()
        rt.stop()
        peer.close()
