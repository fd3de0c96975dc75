"""``tablectl room init``: the broker files of a club (passwords by the real mosquitto_passwd)."""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path

import pytest

from tablectl.cli import main
from tablectl.room import process
from tablectl.room.address import ClubAddress
from tablectl.room.broker import RoomError, acl_text, broker_command, init_room, load_room, parse_tables
from tests.room.conftest import require_mosquitto


@pytest.fixture(autouse=True)
def _passwd() -> None:
    require_mosquitto(passwd=True)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(("spec", "tables"), [
    ("3", ["1", "2", "3"]),
    ("1-3", ["1", "2", "3"]),
    ("1-2,7,10-11", ["1", "2", "7", "10", "11"]),
    ("A1,A2,B-1", ["A1", "A2", "B-1"]),
    ("A1-A3,B9", ["A1", "A2", "A3", "B9"]),  # a section's tables
])
def test_tables_are_a_count_ranges_or_ids(spec: str, tables: list[str]) -> None:
    assert parse_tables(spec) == tables


@pytest.mark.parametrize(("spec", "message"), [
    ("0", "a count"), ("3-1", "empty"), ("1,1", "twice"), ("1-3,2", "twice"), ("a+b", "neither"), ("", "neither"),
])
def test_bad_table_list_says_why(spec: str, message: str) -> None:
    with pytest.raises(RoomError, match=message):
        parse_tables(spec)


def test_init_writes_private_files_with_a_password_per_user(tmp_path: Path) -> None:
    room = init_room(tmp_path / "room", "riverside", ["1", "2"], "127.0.0.1", 1999)
    for path in (room.passwd, room.acl, room.conf, room.credentials):
        assert _mode(path) == 0o600, path
    assert _mode(room.persistence) == 0o700
    users = [line.split(":")[0] for line in room.passwd.read_text().splitlines()]
    assert users == ["console", "table-1", "table-2", "alerts-console"]  # and the console's alert lane
    assert "s3cret" not in room.passwd.read_text() and "$7$" in room.passwd.read_text()   # hashed
    assert len(set(room.passwords.values())) == 3


def test_conf_has_no_anonymous_access_and_names_its_files(tmp_path: Path) -> None:
    room = init_room(tmp_path, "riverside", ["1"], "0.0.0.0", 1883, address="club.lan")
    conf = room.conf.read_text().splitlines()
    for line in ("allow_anonymous false", f"password_file {room.passwd}", f"acl_file {room.acl}",
                 "listener 1883 0.0.0.0", "persistence true", f"persistence_location {room.persistence}/",
                 "log_dest stderr"):
        assert line in conf
    assert any(line.startswith("max_queued_messages ") for line in conf)
    assert not any(line.startswith(("certfile", "keyfile")) for line in conf)


def test_acl_lets_a_table_write_only_its_topics_and_read_only_its_command_acks_and_players_results() -> None:
    blocks = acl_text("c", ["1", "2"]).split("\n\n")[1:]
    assert blocks[0].splitlines() == [
        "user console",
        "topic read bridge/c/#",
        "topic write bridge/c/table/+/command",
        "topic write bridge/c/table/+/results",
        "topic write bridge/c/table/+/desk",
        "topic write bridge/c/roster",
        "topic write bridge/c/console/ack/#",
        "# a retained result the console refuses (a board the session does not have) is cleared by it",
        "topic write bridge/c/table/+/result/#",
    ]
    assert blocks[2].strip().splitlines() == [
        "user table-2",
        "topic write bridge/c/table/2/state",
        "topic write bridge/c/table/2/event",
        "topic write bridge/c/table/2/alert",
        "topic write bridge/c/table/2/result/#",
        "topic write bridge/c/public/2/#",
        "topic read bridge/c/table/2/command",
        "topic read bridge/c/console/ack/2",
        "topic read bridge/c/console/head/2",
        "topic read bridge/c/table/2/results",
        "topic read bridge/c/table/2/desk",
        "topic read bridge/c/roster",
    ]
    rules = [line for line in acl_text("c", ["1"]).splitlines() if line and not line.startswith("#")]
    assert rules[0].startswith("user ")   # no rule before the first user: nothing for anonymous


def test_credentials_give_each_table_its_url_and_a_config_line(tmp_path: Path) -> None:
    room = init_room(tmp_path, "riverside", ["1", "2"], "0.0.0.0", 1883, address="club.lan")
    data = tomllib.loads(room.credentials.read_text())
    assert data["broker"] == "mqtt://club.lan/riverside"
    console = ClubAddress.parse(data["console"]["url"])
    assert (console.username, console.password) == ("console", room.passwords["console"])
    table2 = data["tables"]["2"]
    assert ClubAddress.parse(table2["url"]) == room.address_of("2")
    assert room.url("2") == f"mqtt://table-2:{room.passwords['table-2']}@club.lan/riverside"
    table_toml = '[table]\nname = "Table 2"\n' + table2["config"]
    assert tomllib.loads(table_toml)["club"] == {"url": table2["url"], "table_id": "2"}


def test_running_init_again_with_more_tables_keeps_the_passwords(tmp_path: Path) -> None:
    first = init_room(tmp_path, "riverside", ["1", "2"], "127.0.0.1", 1999)
    second = init_room(tmp_path, "riverside", ["1", "2", "3"], "127.0.0.1", 1999)
    assert {u: second.passwords[u] for u in first.passwords} == dict(first.passwords)
    assert "table-3" in second.passwords and second.passwords["table-3"] not in first.passwords.values()
    assert load_room(tmp_path).passwords == second.passwords


def test_rotate_makes_new_passwords_for_everyone(tmp_path: Path) -> None:
    first = init_room(tmp_path, "riverside", ["1", "2"], "127.0.0.1", 1999)
    rotated = init_room(tmp_path, "riverside", ["1", "2"], "127.0.0.1", 1999, rotate=True)
    assert not set(first.passwords.values()) & set(rotated.passwords.values())


def test_load_room_reads_back_what_init_wrote(tmp_path: Path) -> None:
    room = init_room(tmp_path, "riverside", ["1", "2"], "127.0.0.1", 1999)
    again = load_room(tmp_path)
    assert (again.address, again.tables, again.listen) == (room.address, room.tables, "127.0.0.1")
    assert again.conf == room.conf


def test_tls_listener_uses_the_certificate_and_mqtts(tmp_path: Path) -> None:
    cert, key = tmp_path / "room.crt", tmp_path / "room.key"
    cert.write_text("cert")
    key.write_text("key")
    room = init_room(tmp_path / "room", "riverside", ["1"], "0.0.0.0", tls_cert=cert, tls_key=key, address="club.lan",
                     client_ca="/etc/bridgetable/room.crt")
    conf = room.conf.read_text().splitlines()
    assert "listener 8883 0.0.0.0" in conf and f"certfile {cert}" in conf and f"keyfile {key}" in conf
    assert room.url("1").startswith("mqtts://table-1:")
    assert room.address_of("1").ca_file == "/etc/bridgetable/room.crt"
    assert tomllib.loads(room.credentials.read_text())["certificate"] == str(cert)
    assert load_room(room.directory).address == room.address


def test_tls_needs_both_certificate_and_key(tmp_path: Path) -> None:
    with pytest.raises(RoomError, match="both"):
        init_room(tmp_path, "c", ["1"], tls_cert=tmp_path / "x.crt")
    with pytest.raises(RoomError, match="not a file"):
        init_room(tmp_path, "c", ["1"], tls_cert=tmp_path / "x.crt", tls_key=tmp_path / "x.key")
    with pytest.raises(RoomError, match="needs --tls-cert"):
        init_room(tmp_path, "c", ["1"], client_ca="/etc/bridgetable/room.crt")


def test_bad_club_or_table_is_refused_before_writing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="club name"):
        init_room(tmp_path / "a", "my club", ["1"])
    with pytest.raises(ValueError, match="table id"):
        init_room(tmp_path / "b", "c", ["1", "+"])
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_room_init_command_writes_the_room(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["room", "init", "--dir", str(tmp_path), "--club", "riverside", "--tables", "4",
                 "--listen", "127.0.0.1", "--port", "1999"]) == 0
    assert load_room(tmp_path).tables == ("1", "2", "3", "4")
    out = capsys.readouterr().out
    assert "4 tables" in out and "tablectl room broker --dir" in out
    assert not any(p in out for p in load_room(tmp_path).passwords.values())


def test_room_init_command_reports_a_bad_club(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["room", "init", "--dir", str(tmp_path), "--club", "a/b", "--tables", "2"]) == 2
    assert "club name 'a/b' is not a valid name" in capsys.readouterr().err


def test_broker_command_runs_mosquitto_in_the_foreground(tmp_path: Path) -> None:
    assert broker_command(tmp_path / "mosquitto.conf") == [process.find_mosquitto(), "-c",
                                                          str(tmp_path / "mosquitto.conf")]


def test_room_broker_without_mosquitto_says_how_to_install_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    init_room(tmp_path, "riverside", ["1"], "127.0.0.1", 1999)
    monkeypatch.setattr(process.os, "access", lambda path, mode: False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert main(["room", "broker", "--dir", str(tmp_path)]) == 2
    assert "apt-get install mosquitto" in capsys.readouterr().err


def test_room_broker_on_a_directory_without_a_room_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["room", "broker", "--dir", str(tmp_path)]) == 2
    assert "tablectl room init" in capsys.readouterr().err


def test_room_init_gives_the_console_the_master_key_and_each_table_only_its_own(tmp_path: Path) -> None:
    from web_ui.arbiter_link import LinkChecker, signed_link, table_key

    room = init_room(tmp_path, "riverside", ["1", "2"], "127.0.0.1", 1883)
    master = room.key_file("console").read_text().strip().encode()
    one = room.key_file("1").read_text().strip().encode()
    assert master == room.link_master and len(master) == 64 and one == table_key(master, "1")
    for who in ("console", "1", "2"):
        assert room.key_file(who).stat().st_mode & 0o777 == 0o600
    assert master not in room.key_file("1").read_bytes() and one != room.key_file("2").read_text().strip().encode()
    assert init_room(tmp_path, "riverside", ["1", "2"], "127.0.0.1", 1883).link_master == master  # kept
    link = signed_link(master, "2", "http://t", 1000.0)
    query = dict(part.split("=", 1) for part in link.split("?", 1)[1].split("&"))
    table2 = LinkChecker(table_key(master, "2"), "2", lambda: 1000.0)
    assert table2.refusal("2", query["exp"], query["nonce"], query["sig"]) is None
    forged = signed_link(one, "2", "http://t", 1000.0)  # table 1's key, read off its Pi, as a master
    query = dict(part.split("=", 1) for part in forged.split("?", 1)[1].split("&"))
    assert table2.refusal("2", query["exp"], query["nonce"], query["sig"]) is not None
