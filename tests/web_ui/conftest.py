"""Shared helpers of the web tests: an app over a ``LocalTable``, the arbiter's log-in,
``Revealed``: what the play has shown to everybody, worked out from the actions alone, and the
session the page tests show (``SESSION``, ``PENALTY_BOARD``, ``played``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from controller import actions as a
from controller.cards import DECK, Card
from controller.deal import Deal
from controller.records import tablelog
from controller.table import TableState
from web_ui.app import create_app
from web_ui.local import LocalTable
from web_ui.service import WebSettings

PIN = "2468"
SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios").glob("*.json"))
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([SHDC][AKQJT98765432])(?![A-Za-z0-9])")
CARD_TEXT = re.compile(r"^[SHDC][AKQJT98765432]$")


class FakeClock:
    """Monotonic seconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def settings(delay: float = 0.0) -> WebSettings:
    return WebSettings(check_pin=lambda pin: pin == PIN, spectator_delay=delay, table_name="Table 7",
                       hosts=("testserver",))


def make_app(table: LocalTable | None = None, delay: float = 0.0,
             clock: Callable[[], float] | None = None) -> tuple[FastAPI, LocalTable]:
    table = table or LocalTable()
    app = create_app(table, settings(delay), clock=clock) if clock else create_app(table, settings(delay))
    return app, table


def login(client: TestClient) -> str:
    """Log in as the arbiter; returns the CSRF token (the cookie stays in the client)."""
    r = client.post("/api/arbiter/login", json={"pin": PIN})
    assert r.status_code == 200, r.text
    csrf: str = r.json()["csrf"]
    return csrf


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Debian Chromium (Playwright's browser), one for the test module."""
    from playwright.sync_api import sync_playwright

    from tests.web_ui.test_browser import ARGS, CHROMIUM

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def client() -> Iterator[tuple[TestClient, LocalTable]]:
    app, table = make_app()
    with TestClient(app, base_url="http://testserver") as c:
        yield c, table


def scenario_logs() -> list[Any]:
    """(id, actions) of every scenario under every code it runs in, the session line first."""
    out = []
    for path in SCENARIOS:
        spec = json.loads(path.read_text(encoding="utf-8"))
        for code in spec.get("codes", ["duplicate"]):
            lines = [{"t": 0, "session": {"code": code, **spec.get("settings", {})}}, *spec["log"]]
            acts = [tablelog.action_of(obj) for obj in lines]
            out.append(pytest.param(acts, id=f"{path.stem}[{code}]"))
    return out


class Revealed:
    """The cards the play has shown to everybody, from the actions (never from the views).

    A card put on a play zone, faced on a spread zone or exposed is seen; under the
    ``face_down_opening_lead`` setting the opening lead only once another card is played or
    faced; dummy's hand (from the deal) once the opening lead is seen (Law 41D).
    """

    def __init__(self) -> None:
        self.face_down = False
        self.seen: set[Card] = set()
        self.pending: list[Card] = []   # a face-down opening lead not yet faced
        self.lead_seen = False
        self.deal: Deal | None = None

    def before(self, action: a.Action) -> None:
        if isinstance(action, a.SessionStart):
            self.face_down = dict(action.settings).get("face_down_opening_lead") is True
        elif isinstance(action, a.BoardStart):
            self.seen, self.pending, self.lead_seen, self.deal = set(), [], False, action.deal
        elif isinstance(action, a.PlayCard):
            if self.pending:
                self._faced()
            if self.face_down and not self.lead_seen:
                self.pending.append(action.card)
            else:
                self.seen.add(action.card)
        elif isinstance(action, a.FaceCards):
            self._faced()
            self.seen.update(action.cards)
        elif isinstance(action, a.ExposeCard):
            self.seen.add(action.card)
        elif isinstance(action, a.Ruling) and isinstance(dict(action.args).get("card"), str):
            self.seen.add(Card.parse(str(dict(action.args)["card"])))  # a card the ruling puts on the table

    def _faced(self) -> None:
        self.seen.update(self.pending)
        self.pending = []
        self.lead_seen = True

    def after(self, state: TableState) -> None:
        """Dummy's hand once the opening lead has been seen (a card of the play is on the table)."""
        board = state.board
        if board is None or board.play is None or self.deal is None:
            return
        play = board.play
        if not (play.tricks or play.current.cards):
            return
        if not self.face_down:
            self.lead_seen = True
        if self.lead_seen:
            hand = self.deal.hands[play.dummy]
            if hand is not None:
                self.seen.update(hand)

    def check(self, payload: Any, where: str) -> None:
        """Every card named in ``payload`` is seen, structurally and in the raw JSON text."""
        for card_text in _card_strings(payload):
            assert Card.parse(card_text) in self.seen, f"{where}: concealed card {card_text} in a public payload"
        text = json.dumps(payload)
        concealed = {str(c) for c in DECK if c not in self.seen}
        leaked = sorted(set(CARD_TOKEN.findall(text)) & concealed)
        assert not leaked, f"{where}: concealed card token(s) {leaked} in the public JSON"


def _card_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if CARD_TEXT.match(value):
            yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _card_strings(k)
            yield from _card_strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _card_strings(v)


PAGE_DEAL = "N:AKQJ.AKQ.AKQ.432 T98.JT9.JT9.AKQJ 765.876.8765.T98 432.5432.432.765"
_AUCTION_3NT: list[dict[str, Any]] = [
    {"seat": "N", "call": "1NT"}, {"seat": "E", "call": "Pass"}, {"seat": "S", "call": "2NT"},
    {"seat": "W", "call": "Pass"}, {"seat": "N", "call": "3NT"}, {"seat": "E", "call": "Pass"},
    {"seat": "S", "call": "Pass"}, {"seat": "W", "call": "Pass"}]
SESSION: list[dict[str, Any]] = [
    {"board": {"number": 2, "dealer": "E", "vul": "NS", "deal": PAGE_DEAL}},
    {"seat": "E", "call": "Pass"}, {"seat": "S", "call": "Pass"}, {"seat": "W", "call": "Pass"},
    {"seat": "N", "call": "Pass"},
    {"board": {"number": 3, "dealer": "N", "vul": "None", "deal": PAGE_DEAL}}, *_AUCTION_3NT,
    {"seat": "E", "play": "HJ"}, {"seat": "N", "claim": 12}, {"seat": "E", "agree": True}, {"seat": "W", "agree": True},
]
"""Two boards finished at this table: board 2 passed out, board 3 3NT by North made with three
overtricks (+490)."""

PENALTY_BOARD: list[dict[str, Any]] = [
    {"board": {"number": 4, "dealer": "N", "vul": "None", "deal": PAGE_DEAL}}, *_AUCTION_3NT,
    {"seat": "E", "play": "HJ"}, {"seat": "S", "play": "H8"}, {"seat": "W", "play": "H5"}, {"seat": "N", "play": "HA"},
    {"seat": "W", "expose": "H3", "deliberate": True}, {"ruling": {"id": 1, "option": "acknowledge"}},
    {"seat": "N", "play": "C2"}, {"seat": "E", "play": "CA"}, {"seat": "S", "play": "C8"}, {"seat": "W", "play": "C5"},
]
"""Board 4 (tests/scenarios/50_major_penalty_card_partner_on_lead_forbid_suit.json): West exposed
\u26653 on purpose, a major penalty card (Laws 49, 50); East has won the trick and is on lead, and
declarer is to choose (irregularity 2, Laws 50, 51)."""

FORBID_HEARTS: dict[str, Any] = {"ruling": {"id": 2, "option": "forbid_suit", "suit": "H"}}


def played(table: LocalTable, lines: list[dict[str, Any]], revealed: Revealed | None = None) -> LocalTable:
    """``table`` after ``lines`` (table-log objects), as the sensors would report them (at the
    line's own ``t`` when it has one, else at the table's clock); ``revealed`` follows what the
    play shows to everybody."""
    for obj in lines:
        action = tablelog.action_of(obj)
        if revealed is not None:
            revealed.before(action)
        if "t" in obj:
            table.feed(action)
        else:
            table.submit(action)
        if revealed is not None:
            revealed.after(table.snapshot().state)
    return table
