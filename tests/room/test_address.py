"""The room address ``mqtt://[USER[:PASSWORD]@]HOST[:PORT]/CLUB`` and the topic tree (docs/room-protocol.md)."""

from __future__ import annotations

import pytest

from tablectl.room.address import (
    AddressError,
    ClubAddress,
    ClubTopics,
    TopicParts,
    Topics,
    table_user,
    valid_name,
)


def test_full_address_gives_every_part() -> None:
    a = ClubAddress.parse("mqtt://table-2:s3cret@club.lan:1884/riverside")
    assert (a.scheme, a.host, a.port, a.club, a.username, a.password, a.tls) == \
        ("mqtt", "club.lan", 1884, "riverside", "table-2", "s3cret", False)
    assert a.table_id == "2"


def test_default_port_is_1883_for_mqtt_and_8883_for_mqtts() -> None:
    assert ClubAddress.parse("mqtt://club.lan/c").port == 1883
    a = ClubAddress.parse("mqtts://club.lan/c")
    assert (a.port, a.tls) == (8883, True)


def test_address_without_credentials_has_no_user() -> None:
    a = ClubAddress.parse("mqtt://192.168.1.10/riverside/")
    assert (a.host, a.username, a.password, a.table_id) == ("192.168.1.10", None, None, None)


def test_ipv6_host_round_trips_in_brackets() -> None:
    a = ClubAddress.parse("mqtt://console:pw@[fd00::1]:1999/c")
    assert a.host == "fd00::1"
    assert a.url(hide_password=False) == "mqtt://console:pw@[fd00::1]:1999/c"


def test_url_hides_the_password_unless_asked() -> None:
    a = ClubAddress.parse("mqtts://console:p%40ss%2Fword@club.lan/c")
    assert a.password == "p@ss/word"
    assert a.url() == str(a) == "mqtts://console:***@club.lan/c"
    assert a.url(hide_password=False) == "mqtts://console:p%40ss%2Fword@club.lan/c"
    assert ClubAddress.parse(a.url(hide_password=False)) == a


def test_tls_address_names_its_ca_file() -> None:
    a = ClubAddress.parse("mqtts://table-1:pw@club.lan/c?ca=/etc/bridgetable/room%20ca.crt")
    assert (a.tls, a.ca_file) == (True, "/etc/bridgetable/room ca.crt")
    assert a.url() == "mqtts://table-1:***@club.lan/c?ca=/etc/bridgetable/room%20ca.crt"
    assert ClubAddress.parse(a.url(hide_password=False)) == a
    assert ClubAddress.parse("mqtts://club.lan/c").with_ca_file("/x.crt").ca_file == "/x.crt"


def test_repr_never_shows_the_password() -> None:
    assert "s3cret" not in repr(ClubAddress.parse("mqtt://table-1:s3cret@h/c"))


def test_with_credentials_keeps_the_room() -> None:
    a = ClubAddress.parse("mqtt://h:2000/c").with_credentials("table-7", "pw")
    assert a.url(hide_password=False) == "mqtt://table-7:pw@h:2000/c"
    assert a.without_credentials() == ClubAddress.parse("mqtt://h:2000/c")


@pytest.mark.parametrize(("url", "message"), [
    ("http://h/c", "unknown scheme 'http'"),
    ("club.lan/c", "expected mqtt://"),
    ("mqtt://h", "the club is missing"),
    ("mqtt://h/", "the club is missing"),
    ("mqtt:///c", "host is missing"),
    ("mqtt://h/a/b", "the club is one name"),
    ("mqtt://h/a+b", "club name 'a\\+b' is not valid"),
    ("mqtt://h/a#", "'#' is an MQTT wildcard"),
    ("mqtt://h/my club", "is not valid"),
    ("mqtt://h:99999/c", "port"),
    ("mqtt://h:x/c", "port"),
    ("mqtt://h/c?x=1", "the only query"),
    ("mqtts://h/c?ca=/a&ca=/b", "the only query"),
    ("mqtt://h/c?ca=/etc/room.crt", "mqtts:// \\(TLS\\) only"),
    ("mqtt://:pw@h/c", "user name is empty"),
])
def test_bad_address_says_what_is_wrong(url: str, message: str) -> None:
    with pytest.raises(AddressError, match=message):
        ClubAddress.parse(url)


def test_error_message_never_shows_the_password() -> None:
    with pytest.raises(ValueError) as info:
        ClubAddress.parse("mqtt://table-1:s3cret@h/bad+club")
    assert "s3cret" not in str(info.value) and "table-1:***@h" in str(info.value)


@pytest.mark.parametrize(("text", "ok"), [
    ("1", True), ("A12", True), ("east-wing_2", True), ("", False), ("+", False), ("#", False),
    ("a/b", False), ("a b", False), ("é", False), ("x" * 64, True), ("x" * 65, False),
])
def test_names_are_letters_digits_dash_and_underscore(text: str, ok: bool) -> None:
    assert valid_name(text) is ok


def test_table_topics_follow_the_tree() -> None:
    t = Topics("riverside", "12")
    assert t.state == "bridge/riverside/table/12/state"
    assert t.event == "bridge/riverside/table/12/event"
    assert t.alert == "bridge/riverside/table/12/alert"
    assert t.result(7) == "bridge/riverside/table/12/result/7"
    assert t.results == "bridge/riverside/table/12/result/+"
    assert t.command == "bridge/riverside/table/12/command"
    assert t.ack == "bridge/riverside/console/ack/12"
    assert t.player_results == "bridge/riverside/table/12/results"
    assert t.public == "bridge/riverside/public/12"
    assert t.head_ack == "bridge/riverside/console/head/12"
    assert t.desk == "bridge/riverside/table/12/desk"
    assert t.subscriptions == (t.command, t.ack, t.head_ack, t.player_results, t.desk, t.roster)
    assert ClubAddress.parse("mqtt://h/riverside").topics("12") == t


def test_console_filters_cover_every_table() -> None:
    c = ClubAddress.parse("mqtt://h/riverside").club_topics()
    assert c.tables == "bridge/riverside/table/+/#"
    assert c.everything == "bridge/riverside/#"
    assert c.commands == "bridge/riverside/table/+/command"
    assert c.acks == "bridge/riverside/console/ack/+"
    assert c.results == "bridge/riverside/table/+/result/+"
    assert c.player_results == "bridge/riverside/table/+/results"
    assert c.console_subscriptions == (c.tables, c.acks)
    assert c.parse("bridge/riverside/table/12/results") == TopicParts("12", "results")


@pytest.mark.parametrize("table", ["+", "#", "1/2", "", "a b"])
def test_a_wildcard_can_never_become_a_table_id(table: str) -> None:
    with pytest.raises(AddressError, match="table id"):
        Topics("club", table)
    with pytest.raises(AddressError):
        table_user(table)


def test_a_board_name_is_checked_too() -> None:
    with pytest.raises(AddressError, match="board"):
        Topics("club", "1").result("#")


@pytest.mark.parametrize(("topic", "parts"), [
    ("bridge/c/table/3/state", TopicParts("3", "state")),
    ("bridge/c/table/3/result/12", TopicParts("3", "result", "12")),
    ("bridge/c/table/3/command", TopicParts("3", "command")),
    ("bridge/c/console/ack/3", TopicParts("3", "ack")),
    ("bridge/c/console/head/3", TopicParts("3", "head_ack")),
    ("bridge/c/public/3/state", TopicParts("3", "public", "state")),
    ("bridge/other/table/3/state", None),
    ("bridge/c/table/3/nonsense", None),
    ("bridge/c/table/3/result", None),
    ("elsewhere", None),
])
def test_console_reads_a_topic_back(topic: str, parts: TopicParts | None) -> None:
    assert ClubTopics("c").parse(topic) == parts


def test_table_user_is_table_dash_id() -> None:
    assert table_user("12") == "table-12"
