"""The table config file and the deck file: parsed into frozen values, errors naming key and file."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from drivers import config
from drivers.config import ConfigError, GpioPins, Listen, SeatDevices

EXAMPLE = '''
[table]
name = "Table 3"
code = "rubber"
deck = "decks/club.toml"
board_reader = "nfc:usb:072f:2200"

[arbiter]
pin_hash = "{pin_hash}"

[listen]
host = "0.0.0.0"
port = 8080

[seats.N]
unit = "serial:///dev/ttyACM0"
[seats.E]
play = "nfc:tty:AMA1:pn532"
spread = "nfc:tty:AMA2:pn532"

[gpio]
numbering = "BCM"
bouncetime_ms = 30
buttons = {{ N = 5, E = 6 }}
leds = {{ N = 12 }}
buzzers = {{ N = 18 }}
[gpio.contacts.E]
Pass = 22
"1NT" = 23
'''


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def test_the_example_config_parses_into_frozen_values(tmp_path: Path) -> None:
    pin_hash = config.hash_pin("2468", iterations=1000)
    path = write(tmp_path, EXAMPLE.format(pin_hash=pin_hash))
    table = config.load(path)
    assert (table.name, table.code, table.deck) == ("Table 3", "rubber", tmp_path / "decks" / "club.toml")
    assert table.seats == (SeatDevices("N", unit="serial:///dev/ttyACM0"),
                           SeatDevices("E", play="nfc:tty:AMA1:pn532", spread="nfc:tty:AMA2:pn532"))
    assert table.seat("W") == SeatDevices("W")
    assert table.listen == Listen("0.0.0.0", 8080)
    assert table.gpio_url == "gpio:rpigpio"
    assert table.gpio == GpioPins(buttons=(("N", 5), ("E", 6)), leds=(("N", 12),), buzzers=(("N", 18),),
                                  contacts=(("E", "Pass", 22), ("E", "1NT", 23)), bouncetime_ms=30)
    assert table.device_urls() == (("N.unit", "serial:///dev/ttyACM0"), ("E.play", "nfc:tty:AMA1:pn532"),
                                   ("E.spread", "nfc:tty:AMA2:pn532"), ("board", "nfc:usb:072f:2200"),
                                   ("gpio", "gpio:rpigpio"))
    assert table.arbiter_pin_hash is not None and config.verify_pin("2468", table.arbiter_pin_hash)
    assert not config.verify_pin("1357", table.arbiter_pin_hash)
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.name = "x"  # type: ignore[misc]


def test_a_minimal_config_has_defaults() -> None:
    """A config that names no code plays the 2017 Laws, the code clubs play (issue 17)."""
    table = config.loads('[table]\nname = "T1"\n')
    assert (table.code, table.seats, table.gpio, table.deck, table.listen) == (
        "duplicate2017", (), None, None, Listen())


@pytest.mark.parametrize(("text", "message"), [
    ('[table]\ncode = "duplicate"\n', "'table.name' is missing in .*table.toml"),
    ('[table]\nname = "T"\ncode = "whist"\n', "'table.code' in .*table.toml: must be one of"),
    ('[table]\nname = "T"\n[seats.X]\nplay = "nfc:tty:AMA1:pn532"\n', "'seats.X' in .*: is not a seat"),
    ('[table]\nname = "T"\n[seats.N]\npley = "nfc:tty:AMA1:pn532"\n', "unknown key 'seats.N.pley' in"),
    ('[table]\nname = "T"\n[seats.N]\nplay = "usb:072f"\n', "'seats.N.play' in .*: 'usb:072f' is not a "),
    ('[table]\nname = "T"\n[listen]\nport = "http"\n', "'listen.port' in .*: must be a whole number 1"),
    ('[table]\nname = "T"\n[arbiter]\npin_hash = "1234"\n', "'arbiter.pin_hash' in .*: must be 'pbkdf2"),
    ('[table]\nname = "T"\n[gpio]\nbuttons = { N = 5 }\nleds = { N = 5 }\n', r"\[gpio\] in .*: LED N: pin 5"),
    ('[table]\nname = "T"\n[gpio.contacts.N]\n8NT = 4\n', r"\[gpio\] in .*: contact N '8NT' is not"),
    ('[table]\nname = "T"\n[gpio]\nnumbering = "BOARD"\nleds = { N = 4 }\n', "4 is not a usable BOARD"),
    ('[table]\nname = "T"\n[gpio]\nbouncetime_ms = true\n', "'gpio.bouncetime_ms' in"),
    ('[table\nname = "T"\n', "table.toml is not valid TOML"),
    ('[table]\nname = "T"\n[extra]\n', "unknown key 'extra' in"),
])
def test_errors_name_the_key_and_the_file(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        config.load(write(tmp_path, text))


def test_a_missing_config_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"cannot read table config .*nothing\.toml"):
        config.load(tmp_path / "nothing.toml")


def test_the_deck_file_is_the_json_that_enrol_writes(tmp_path: Path) -> None:
    path = tmp_path / "club.json"
    path.write_text('{"format": "bridgetable-decks", "version": 1, "decks": '
                    '{"red": {"SA": "04a1b2c3d4e5f6", "H7": "04A1B2C3D4E5F7"}, "blue": {"SA": "A1B2C3D4"}}}')
    deck = config.load_deck(path)
    assert deck.lookup("04A1B2C3D4E5F6").deck == "red" and str(deck.lookup("04A1B2C3D4E5F6").card) == "SA"
    assert str(deck.get("A1B2C3D4")) == "blue:SA"
    assert deck.get("04000000000000") is None
    assert deck.to_mapping()["red"] == {"SA": "04A1B2C3D4E5F6", "H7": "04A1B2C3D4E5F7"}
    assert deck.decks() == ("blue", "red")


def test_a_deck_file_of_the_older_toml_form_is_still_read(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('[red]\nSA = "04a1b2c3d4e5f6"\nH7 = "04A1B2C3D4E5F7"\n[blue]\nSA = "A1B2C3D4"\n')
    assert config.load_deck(path).to_mapping() == {"blue": {"SA": "A1B2C3D4"},
                                                   "red": {"SA": "04A1B2C3D4E5F6", "H7": "04A1B2C3D4E5F7"}}


@pytest.mark.parametrize(("text", "message"), [
    ('{"format": "bridgetable-decks", "version": 1, "decks": {"red": {"SZ": "04A1B2C3D4E5F6"}}}',
     r"club.json: deck file: deck 'red', card 'SZ'"),
    ('{"format": "bridgetable-decks", "version": 1, "decks": {"red": {"SA": "04A1"}}}',
     r"deck 'red', card 'SA': invalid tag UID '04A1'"),
    ('{"format": "bridgetable-decks", "version": 1, "decks": '
     '{"red": {"SA": "04A1B2C3D4E5F6"}, "blue": {"SA": "04a1b2c3d4e5f6"}}}',
     "tag 04A1B2C3D4E5F6 is already enrolled as"),
    ('{"decks": {}}', "not a 'bridgetable-decks' document"),
    ('[red\n', r"club.json is not a deck file \(JSON, or the older TOML form\)"),
])
def test_deck_file_errors_name_the_file_and_the_card(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "club.json"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        config.load_deck(path)


def test_a_missing_deck_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"cannot read deck file .*nothing\.json"):
        config.load_deck(tmp_path / "nothing.json")


def test_a_sim_deck_path_is_relative_to_the_config_file(tmp_path: Path) -> None:
    text = ('[table]\nname = "T"\n[seats.N]\nunit = "sim://?deck=decks/club.json&deck_id=deck1"\n'
            '[seats.S]\nplay = "sim://?deck=/abs/club.json"\n')
    table = config.loads(text, tmp_path / "tables" / "table.toml")
    assert table.seat("N").unit == f"sim://?deck={tmp_path}/tables/decks/club.json&deck_id=deck1"
    assert table.seat("S").play == "sim://?deck=/abs/club.json"


def test_pin_maps_refuse_a_pin_used_twice_and_a_seat_with_two_buttons() -> None:
    with pytest.raises(ConfigError, match="pin 5 is already the button N"):
        GpioPins(buttons=(("N", 5),), contacts=(("N", "Pass", 5),))
    with pytest.raises(ConfigError, match="a seat has two button pins"):
        GpioPins(buttons=(("N", 5), ("N", 6)))
    with pytest.raises(ConfigError, match="not a number"):
        GpioPins.from_query("button.N=five", "gpio:rpigpio?button.N=five")
    with pytest.raises(ConfigError, match=r"unknown GPIO option 'lamp\.N'"):
        GpioPins.from_query("lamp.N=5", "gpio:rpigpio?lamp.N=5")


def test_board_map_and_hand_record_are_paths_relative_to_the_config(tmp_path: Path) -> None:
    path = tmp_path / "club" / "table.toml"
    cfg = config.loads('[table]\nname = "T"\nboards = "boards.toml"\nhand_record = "deals/s1.pbn"\n', path)
    assert cfg.boards == tmp_path / "club" / "boards.toml"
    assert cfg.hand_record == tmp_path / "club" / "deals" / "s1.pbn"
    assert config.loads('[table]\nname = "T"\n').hand_record is None
