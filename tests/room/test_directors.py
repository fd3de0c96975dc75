"""The team of Directors (tablectl/room/directors.py, ``tablectl room director``): each Director's
name, PIN hash and rooms kept in directors.toml, an event's room holding only its own Directors,
and who did what kept in the console's store (a restarted console still shows who is on the way)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from controller.room.console import Room
from drivers.config import verify_pin
from tablectl.cli import main
from tablectl.room.bridge import RoomPlan, init_event
from tablectl.room.broker import init_room
from tablectl.room.console_store import ConsoleStore, restore
from tablectl.room.directors import DirectorError, add_director, load_directors, remove_director
from tests.web_ui.console_fake import CLUB, FakeConsole
from tests.web_ui.test_app import LOG


def _event(tmp_path: Path) -> Path:
    init_event(tmp_path / "ev", "congress", [RoomPlan("A", ("A1", "A2")), RoomPlan("B", ("B1", "B2"))],
               address="127.0.0.1")
    return tmp_path / "ev"


def test_an_events_team_is_kept_at_the_centre_and_each_room_holds_only_its_own_directors(tmp_path: Path) -> None:
    ev = _event(tmp_path)
    add_director(ev, "Max", "pbkdf2_sha256$1$00$00", head=True)
    add_director(ev, "Anna", "pbkdf2_sha256$1$00$11", rooms=["A"])
    add_director(ev, "Carl", "pbkdf2_sha256$1$00$22", rooms=["B"])
    centre = load_directors(ev / "centre" / "directors.toml")
    assert [d.name for d in centre.directors] == ["Max", "Anna", "Carl"]
    assert centre.tables == {"A": ("A1", "A2"), "B": ("B1", "B2")}
    anna = centre.find("anna")
    assert anna is not None and centre.scope(anna) == {"A1", "A2"}
    assert centre.scope(centre.directors[0]) is None  # the head Director sees every room
    room_a = load_directors(ev / "room-A" / "directors.toml")
    assert (room_a.room, [d.name for d in room_a.directors]) == ("A", ["Max", "Anna"])  # no room B PIN here
    assert room_a.scope(room_a.directors[1]) is None  # on room A's own console Anna sees all it holds
    for path in (ev / "centre" / "directors.toml", ev / "room-A" / "directors.toml"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_adding_a_director_again_changes_them_and_removing_takes_them_off_every_room(tmp_path: Path) -> None:
    ev = _event(tmp_path)
    add_director(ev, "Anna", "pbkdf2_sha256$1$00$11", rooms=["A"])
    add_director(ev, "Anna", "pbkdf2_sha256$1$00$33", rooms=["A", "B"])
    assert [d.rooms for d in load_directors(ev / "centre" / "directors.toml").directors] == [("A", "B")]
    assert [d.name for d in load_directors(ev / "room-B" / "directors.toml").directors] == ["Anna"]
    remove_director(ev, "ANNA")
    assert load_directors(ev / "room-A" / "directors.toml").directors == ()


@pytest.mark.parametrize(("rooms", "head", "message"), [
    ((), False, "name the rooms Anna covers"),
    (("C",), False, "no room C in this event"),
    (("A",), True, "give --head or --rooms, not both"),
])
def test_a_director_of_an_event_covers_its_rooms_or_every_room(tmp_path: Path, rooms: tuple[str, ...], head: bool,
                                                               message: str) -> None:
    ev = _event(tmp_path)
    with pytest.raises(DirectorError, match=message):
        add_director(ev, "Anna", "pbkdf2_sha256$1$00$11", head=head, rooms=rooms)
    assert not (ev / "centre" / "directors.toml").exists()


def test_room_director_add_keeps_the_pins_hash_only_and_the_console_reads_the_team(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    init_room(tmp_path / "club", "riverside", ["1", "2"], "127.0.0.1", 1999)
    monkeypatch.setenv("BRIDGE_DIRECTOR_PIN", "482915")
    assert main(["room", "director", "add", "--dir", str(tmp_path / "club"), "Anna Smith"]) == 0
    text = (tmp_path / "club" / "directors.toml").read_text()
    assert "482915" not in text
    [anna] = load_directors(tmp_path / "club" / "directors.toml").directors
    assert anna.name == "Anna Smith" and verify_pin("482915", anna.pin_hash)
    assert main(["room", "director", "list", "--dir", str(tmp_path / "club")]) == 0
    assert "Anna Smith: the room" in capsys.readouterr().out
    assert main(["room", "director", "add", "--dir", str(tmp_path / "club"), "Bob", "--rooms", "A"]) == 2
    assert "club room" in capsys.readouterr().err


def test_a_restarted_console_still_shows_who_is_on_the_way_and_who_closed_a_call(tmp_path: Path) -> None:
    fake = FakeConsole()
    fake.play("1", *LOG)
    fake.play("2", LOG[0], {"seat": "E", "director": True})
    store = ConsoleStore(tmp_path / "console.sqlite")
    for table in ("1", "2"):  # what the tables sent, kept as the console keeps it
        store.add([(table, "s-1", seq, kind, body, 1.0) for seq, kind, body in _outbox(fake, table)], {})
    irr, pressed = fake.open_calls("1")[0].key, fake.open_calls("2")[0].key
    store.mark(irr, "acknowledged", 2.0)
    store.act(2.0, "Anna", "on_my_way", "1", None, {"key": irr})
    store.mark(pressed, "resolved", 3.0)
    store.act(3.0, "Bob", "done", "2", None, {"key": pressed})
    again = Room(CLUB)
    restore(store, again, CLUB, 4.0)
    assert (again.calls[irr].state, again.calls[irr].by) == ("acknowledged", "Anna")
    assert (again.calls[pressed].state, again.calls[pressed].resolved_by) == ("resolved", "Bob")
    assert [(a["by"], a["kind"]) for a in store.acts()] == [("Bob", "done"), ("Anna", "on_my_way")]
    store.close()


def _outbox(fake: FakeConsole, table: str) -> list[tuple[int, str, str]]:
    """``table``'s alerts as its link published them (the fake's room keeps their bodies)."""
    import json
    out = []
    for seq, alert in enumerate((a for a in fake.room.alerts if a["table"] == table), start=1):
        body = {k: v for k, v in alert.items() if k not in ("table", "time")}
        out.append((seq, "alert", json.dumps({"v": 1, "club": CLUB, "table": table, "session": "s-1", "seq": seq,
                                              "prev": seq - 1, **body})))
    return out
