"""Who may read and write in a club room (docs/room-protocol.md), against the real Mosquitto running the
configuration of ``tablectl room init`` (``club_broker``: club testclub, tables 1, 2, 3).

Showing that a message does *not* arrive uses a sentinel instead of a long wait: the
forbidden message is published at QoS 1 and acknowledged (so the broker has already routed
or dropped it), then an allowed message is sent to the same subscriber. Mosquitto queues a
subscriber's messages in the order it routes them, so once the sentinel is in, anything the
forbidden one produced would be in too.

Mosquitto 2.0 grants every subscription (SUBACK) and applies the ACL's read rules to each
message it would deliver: "cannot read" means "receives nothing", checked as such.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from tablectl.room.address import ClubTopics, Topics
from tests.room.conftest import CLUB, Broker, Peer

Peers = Callable[..., Peer]
CLUB_TOPICS = ClubTopics(CLUB)
T1, T2, T3 = (Topics(CLUB, t) for t in ("1", "2", "3"))


def _everything_of_table(t: Topics) -> list[str]:
    return [t.state, t.event, t.alert, t.result(1), f"{t.public}/state"]


def test_anonymous_client_is_refused(club_broker: Broker, peers: Peers) -> None:
    reason = peers(club_broker.url()).connect()
    assert reason.is_failure and reason.getName() == "Not authorized"


def test_wrong_password_is_refused(club_broker: Broker, peers: Peers) -> None:
    reason = peers(club_broker.url("2"), password="not-the-password").connect()
    assert reason.is_failure


def test_unknown_user_is_refused(club_broker: Broker, peers: Peers) -> None:
    url = club_broker.url("2").replace("table-2:", "table-9:")
    assert peers(url).connect().is_failure


def test_each_user_of_credentials_connects(club_broker: Broker, peers: Peers) -> None:
    for who in ("console", "1", "2", "3"):
        assert not peers(club_broker.url(who)).connect().is_failure


def test_table_cannot_publish_as_another_table(club_broker: Broker, peers: Peers) -> None:
    console = peers(club_broker.url("console")).connected()
    console.subscribe(CLUB_TOPICS.everything)
    table2 = peers(club_broker.url("2")).connected()
    for topic in _everything_of_table(T3):
        table2.publish(topic, b'{"forged": true}')
        table2.publish(topic, b'{"forged": true}', retain=True)
    table2.publish(T2.event, b"sentinel")
    console.wait_for(T2.event, b"sentinel")
    assert console.topics() == [T2.event]


def test_table_cannot_read_another_tables_topics(club_broker: Broker, peers: Peers) -> None:
    table3 = peers(club_broker.url("3")).connected()
    table3.publish(T3.state, b'{"online": true}', retain=True)
    table3.publish(T3.result(1), b'{"board": 1}', retain=True)
    table2 = peers(club_broker.url("2")).connected()
    table2.subscribe(f"{T3.base}/#")
    table2.subscribe(f"{T3.public}/#")
    table2.subscribe(T3.ack)
    table2.subscribe(T2.command)
    for topic in _everything_of_table(T3):
        table3.publish(topic, b"{}")
    console = peers(club_broker.url("console")).connected()
    console.publish(T3.ack, b'{"seq": 4}', retain=True)
    console.publish(T2.command, b"sentinel")
    table2.wait_for(T2.command, b"sentinel")
    assert table2.topics() == [T2.command]


def test_table_cannot_publish_on_any_command_topic_including_its_own(club_broker: Broker, peers: Peers) -> None:
    console = peers(club_broker.url("console")).connected()
    console.subscribe(CLUB_TOPICS.everything)
    table2 = peers(club_broker.url("2")).connected()
    table2.subscribe(T2.command)
    table3 = peers(club_broker.url("3")).connected()
    table3.subscribe(T3.command)
    for t in (T1, T2, T3):
        table2.publish(t.command, b'{"ruling": {"id": 1, "option": "accept"}}')
    console.publish(T2.command, b"sentinel")
    console.publish(T3.command, b"sentinel")
    table2.wait_for(T2.command, b"sentinel")
    table3.wait_for(T3.command, b"sentinel")
    console.wait_for(T3.command, b"sentinel")
    assert table2.topics() == [T2.command] and len(table2.messages) == 1
    assert table3.topics() == [T3.command] and len(table3.messages) == 1
    assert console.topics() == [T2.command, T3.command]


def test_table_reads_its_acknowledgement_but_cannot_write_any(club_broker: Broker, peers: Peers) -> None:
    table2 = peers(club_broker.url("2")).connected()
    table2.publish(T2.ack, b'{"seq": 999}', retain=True)
    table2.publish(T3.ack, b'{"seq": 999}', retain=True)
    console = peers(club_broker.url("console")).connected()
    console.subscribe(CLUB_TOPICS.acks)   # a forged retained ack would come now
    console.publish(T1.ack, b"sentinel")
    console.wait_for(T1.ack, b"sentinel")
    assert console.topics() == [T1.ack]
    console.publish(T2.ack, b'{"seq": 7}', retain=True)
    table2.subscribe(T2.ack)
    assert table2.wait_for(T2.ack).payload == b'{"seq": 7}'


def test_table_publishes_its_own_state_event_alert_result_and_public_feed_to_the_console(
        club_broker: Broker, peers: Peers) -> None:
    console = peers(club_broker.url("console")).connected()
    console.subscribe(CLUB_TOPICS.tables)
    console.subscribe(CLUB_TOPICS.public)
    table2 = peers(club_broker.url("2")).connected()
    sent = {topic: json.dumps({"v": 1, "table": "2", "topic": topic}).encode() for topic in _everything_of_table(T2)}
    for topic, payload in sent.items():
        table2.publish(topic, payload)
    for topic, payload in sent.items():
        assert console.wait_for(topic).payload == payload


def test_retained_state_and_results_reach_a_console_that_connects_later(club_broker: Broker, peers: Peers) -> None:
    table2 = peers(club_broker.url("2")).connected()
    table2.publish(T2.state, b'{"online": true, "board": 3}', retain=True)
    table2.publish(T2.result(2), b'{"board": 2}', retain=True)
    console = peers(club_broker.url("console")).connected()
    console.subscribe(CLUB_TOPICS.tables)
    assert console.wait_for(T2.state).retain
    assert console.wait_for(T2.result(2)).payload == b'{"board": 2}'


def test_only_the_console_may_subscribe_to_every_tables_topics(club_broker: Broker, peers: Peers) -> None:
    console = peers(club_broker.url("console")).connected()
    console.subscribe(CLUB_TOPICS.tables)
    table1 = peers(club_broker.url("1")).connected()
    table2 = peers(club_broker.url("2")).connected()
    for table in (table1, table2):
        table.subscribe(CLUB_TOPICS.tables)
        table.subscribe(f"bridge/{CLUB}/#")
        table.subscribe("#")
    table3 = peers(club_broker.url("3")).connected()
    for topic in (T3.state, T3.event, T3.alert, T3.result(4)):
        table3.publish(topic, b"{}")
    table2.publish(T2.event, b"{}")
    for topic in (T3.state, T3.event, T3.alert, T3.result(4), T2.event):
        console.wait_for(topic)
    console.publish(T1.command, b"sentinel")
    console.publish(T2.command, b"sentinel")
    table1.wait_for(T1.command, b"sentinel")
    table2.wait_for(T2.command, b"sentinel")
    # each sentinel twice or three times: one per matching subscription (MQTT 3.1.1 overlapping filters)
    assert set(table1.topics()) == {T1.command}
    assert set(table2.topics()) == {T2.command}


def test_console_command_reaches_its_table_and_no_other(club_broker: Broker, peers: Peers) -> None:
    table2 = peers(club_broker.url("2")).connected()
    table2.subscribe(T2.command)
    table2.subscribe(T3.command)
    table3 = peers(club_broker.url("3")).connected()
    table3.subscribe(T3.command)
    console = peers(club_broker.url("console")).connected()
    ruling = b'{"ruling": {"id": 2, "option": "forbid_suit", "suit": "S"}}'
    console.publish(T3.command, ruling)
    assert table3.wait_for(T3.command).payload == ruling
    console.publish(T2.command, b"sentinel")
    table2.wait_for(T2.command, b"sentinel")
    assert table2.topics() == [T2.command]


def test_tables_last_will_on_its_state_reaches_the_console(club_broker: Broker, peers: Peers) -> None:
    console = peers(club_broker.url("console")).connected()
    console.subscribe(T2.state)
    table2 = peers(club_broker.url("2"))
    table2.client.will_set(T2.state, b'{"online": false}', qos=1, retain=True)
    table2.connected()
    table2.publish(T2.state, b'{"online": true}', retain=True)
    console.wait_for(T2.state, b'{"online": true}')
    table2.client.loop_stop()
    sock = table2.client.socket()
    assert sock is not None
    sock.close()   # the connection dies without a DISCONNECT: the broker sends the will
    assert console.wait_for(T2.state, b'{"online": false}').topic == T2.state


def test_a_tables_players_read_only_their_own_results_and_only_the_console_writes_them(
        club_broker: Broker, peers: Peers) -> None:
    """What a table's players may see (controller.room.players) goes to that table alone: a table
    cannot read another's (they would see boards they have not played) nor forge its own."""
    table2 = peers(club_broker.url("2")).connected()
    table2.subscribe(T2.player_results)
    table2.subscribe(T3.player_results)
    table3 = peers(club_broker.url("3")).connected()
    table3.publish(T2.player_results, b'{"forged": true}', retain=True)  # a table cannot write any
    table2.publish(T2.player_results, b'{"forged": true}', retain=True)
    console = peers(club_broker.url("console")).connected()
    console.publish(T3.player_results, b'{"boards": ["9"]}', retain=True)
    console.publish(T2.player_results, b"sentinel", retain=True)
    table2.wait_for(T2.player_results, b"sentinel")
    assert [(m.topic, m.payload) for m in table2.messages] == [(T2.player_results, b"sentinel")]
    table3.subscribe(T3.player_results)  # retained: a table that (re)connects gets its latest at once
    assert table3.wait_for(T3.player_results).payload == b'{"boards": ["9"]}'


def test_only_the_console_writes_a_tables_corrections_and_only_that_table_reads_them(
        club_broker: Broker, peers: Peers) -> None:
    """The Director's corrections of a table's results (Law 79C) go to that table alone: no table may
    forge them (its own or another's, it would change a score) nor read another table's."""
    table2 = peers(club_broker.url("2")).connected()
    table2.subscribe(T2.desk)
    table2.subscribe(T3.desk)
    table2.subscribe(T2.command)
    table3 = peers(club_broker.url("3")).connected()
    table3.subscribe(T3.desk)
    table3.publish(T2.desk, b'{"forged": true}', retain=True)  # a table cannot write any
    table2.publish(T2.desk, b'{"forged": true}', retain=True)
    table2.publish(T3.desk, b'{"forged": true}', retain=True)
    console = peers(club_broker.url("console")).connected()
    console.publish(T3.desk, b'{"kind": "desk", "table": "3"}', retain=True)
    assert table3.wait_for(T3.desk).payload == b'{"kind": "desk", "table": "3"}'
    console.publish(T2.command, b"sentinel")
    table2.wait_for(T2.command, b"sentinel")
    assert table2.topics() == [T2.command]  # nothing of table 3's, nothing forged
    late = peers(club_broker.url("2")).connected()  # nothing forged was retained either
    late.subscribe(T2.desk)
    console.publish(T2.desk, b"sentinel", retain=True)
    assert late.wait_for(T2.desk).payload == b"sentinel" and len(late.messages) == 1


def test_only_the_console_writes_the_clubs_roster_and_every_table_reads_it(club_broker: Broker, peers: Peers) -> None:
    """The roster the players pick their names from at the table page comes from the console alone."""
    roster = CLUB_TOPICS.roster
    table1 = peers(club_broker.url("1")).connected()
    table1.subscribe(roster)
    table2 = peers(club_broker.url("2")).connected()
    table2.publish(roster, b'{"forged": true}', retain=True)  # routed (or dropped) before what follows
    console = peers(club_broker.url("console")).connected()
    console.publish(roster, b'{"kind": "roster", "members": []}', retain=True)
    assert table1.wait_for(roster).payload == b'{"kind": "roster", "members": []}'
    assert len(table1.messages) == 1  # nothing forged came first
    table3 = peers(club_broker.url("3")).connected()
    table3.subscribe(roster)
    assert table3.wait_for(roster).payload == b'{"kind": "roster", "members": []}'
