"""Nobody sees what they should not: every public payload, step by step, over real boards and the
scenario logs (exposed cards, leads out of turn, revokes, claims), through the views, HTTP and
WebSocket; and the rules of what is public when."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller import actions as a
from controller.cards import Card
from controller.records import pbn
from controller.records.tablelog import action_of
from controller.replay import board_actions, replay_records
from controller.table import TableState, step
from controller.views import arbiter_view, public_cards, spectator_view, table_view
from tests.web_ui.conftest import Revealed, make_app, scenario_logs

SCENARIOS = scenario_logs()
# scenarios where cards are exposed, led out of turn (face up and face down), revoked or claimed:
# these also run through HTTP and WebSocket (every scenario runs through the views)
CARD_SCENARIOS = [p for p in SCENARIOS if p.id in {
    "24b_card_led_during_auction[duplicate]", "24b_card_exposed_in_auction_honour_defender[rubber]",
    "41_face_down_opening_lead_out_of_turn_returned[duplicate]",
    "49_card_exposed_by_defender_honour_major_penalty_card[duplicate]",
    "54A_opening_lead_out_of_turn_accepted_declarer_becomes_dummy[duplicate]",
    "54D_opening_lead_out_of_turn_forbid_suit_while_leader_keeps_the_lead[duplicate]",
    "56_defender_lead_out_of_turn_rejected_major_penalty_card[duplicate]",
    "58_two_cards_at_once_defender_honour_major_penalty_card[duplicate]",
    "62_revoke_corrected_penalty_card_and_lead_options[duplicate]", "64A_revoke_one_trick_transferred[duplicate]",
    "70_disputed_claim_duplicate_play_stops_director_awards[duplicate]",
    "68_claim_by_declarer_agreed_by_both_defenders[duplicate]"}]


def _corpus_boards(corpus: Path, files: int = 6, per_file: int = 12) -> list[list[a.Action]]:
    """Real boards as table actions: set-up, calls, cards, claim or adjustment."""
    out: list[list[a.Action]] = []
    paths = sorted(corpus.rglob("*.PBN"))[:files] + sorted(corpus.rglob("*.pbn"))[:files]
    for path in paths:
        records = [r for r in pbn.load(path) if r.error is None and r.deal is not None and r.calls][:per_file]
        for rec in records:
            report = replay_records([rec], fast=False)  # the full table keeps its boards
            if report.state.boards and report.state.boards[-1].board.play is not None:
                out.append([a.SessionStart("duplicate"), *board_actions(report.state.boards[-1])])
    return out


def _walk(actions: list[a.Action]) -> Iterator[tuple[TableState, Revealed, str]]:
    state = TableState.new()
    seen = Revealed()
    for n, action in enumerate(actions):
        seen.before(action)
        state = step(state, action).state
        seen.after(state)
        yield state, seen, f"action {n} {action!r}"


@pytest.mark.parametrize("actions", SCENARIOS)
def test_no_concealed_card_in_any_public_view_of_a_scenario(actions: list[a.Action]) -> None:
    checked = 0
    for state, seen, where in _walk(actions):
        seen.check(table_view(state), "table " + where)
        seen.check(spectator_view(state), "spectator " + where)
        assert public_cards(state) <= seen.seen, where
        checked += 1
    assert checked == len(actions)


def test_no_concealed_card_in_any_public_view_of_real_boards(corpus: Path) -> None:
    boards = _corpus_boards(corpus)
    assert len(boards) >= 40
    payloads = 0
    for actions in boards:
        for state, seen, where in _walk(actions):
            seen.check(table_view(state), "table " + where)
            seen.check(spectator_view(state), "spectator " + where)
            payloads += 2
    assert payloads > 40 * 2 * 60


def _through_the_app(actions: list[a.Action]) -> int:
    """Feed ``actions`` to a running app; check every HTTP and WebSocket payload of table and spectators."""
    app, table = make_app()
    seen = Revealed()
    checked = 0
    with TestClient(app) as client, client.websocket_connect("/ws/table") as ws_table, \
            client.websocket_connect("/ws/spectator") as ws_spectator:
        last = {}
        for ws, name in ((ws_table, "ws table"), (ws_spectator, "ws spectator")):
            first = ws.receive_json()
            seen.check(first, name)
            last[name] = first["seq"]
        for n, action in enumerate(actions):
            seen.before(action)
            result = table.feed(action)
            seen.after(result.step.state)
            where = f"action {n} {action!r}"
            for path in ("/api/table", "/api/spectator"):
                seen.check(client.get(path).json(), f"GET {path} {where}")
                checked += 1
            for ws, name in ((ws_table, "ws table"), (ws_spectator, "ws spectator")):
                while last[name] < result.seq:  # a refused action sends nothing
                    payload: dict[str, Any] = ws.receive_json()
                    seen.check(payload, f"{name} {where}")
                    last[name] = payload["seq"]
                    checked += 1
        for fmt in ("pbn", "lin"):
            text = client.get(f"/api/records.{fmt}").text
            board = result.step.state.board
            if board is not None and board.phase.value != "done" and board.deal is not None:
                # the board in progress never reaches the public records
                assert board.deal.pbn() not in text
    return checked


@pytest.mark.parametrize("actions", CARD_SCENARIOS)
def test_no_concealed_card_reaches_table_or_spectator_clients(actions: list[a.Action]) -> None:
    assert _through_the_app(actions) >= 2 * len(actions)


def test_no_concealed_card_reaches_clients_on_real_boards(corpus: Path) -> None:
    boards = _corpus_boards(corpus, files=1, per_file=2)
    assert boards
    for actions in boards:
        assert _through_the_app(actions) >= 2 * len(actions)


def _state(*lines: dict[str, Any], settings: dict[str, Any] | None = None) -> TableState:
    state = TableState.new("duplicate", settings)
    for obj in lines:
        state = step(state, action_of(obj)).state
    return state


DEAL = "N:AKQJ.AKQ.AKQ.432 T98.JT9.JT9.AKQJ 765.876.8765.T98 432.5432.432.765"
AUCTION = [{"seat": "N", "call": "1NT"}, {"seat": "E", "call": "Pass"}, {"seat": "S", "call": "3NT"},
           {"seat": "W", "call": "Pass"}, {"seat": "N", "call": "Pass"}, {"seat": "E", "call": "Pass"}]
BOARD = {"board": {"number": 1, "dealer": "N", "vul": "None", "deal": DEAL}}


def test_dummy_is_public_only_once_the_opening_lead_is_faced_law_41d() -> None:
    before = _state(BOARD, *AUCTION)
    assert table_view(before)["board"]["dummy_hand"] is None
    assert public_cards(before) == frozenset()
    after = _state(BOARD, *AUCTION, {"seat": "E", "play": "ST"})
    dummy = table_view(after)["board"]["dummy_hand"]
    assert dummy == ["S7", "S6", "S5", "H8", "H7", "H6", "D8", "D7", "D6", "D5", "CT", "C9", "C8"]
    # dummy's cards played are no longer shown as held
    later = _state(BOARD, *AUCTION, {"seat": "E", "play": "ST"}, {"seat": "S", "play": "S5"})
    assert "S5" not in table_view(later)["board"]["dummy_hand"]


def test_a_face_down_opening_lead_stays_hidden_until_faced() -> None:
    settings = {"face_down_opening_lead": True}
    led = _state(BOARD, *AUCTION, {"seat": "E", "play": "ST"}, settings=settings)
    view = table_view(led)
    assert view["board"]["current_trick"]["cards"] == [{"seat": "E", "card": None, "face_down": True}]
    assert view["board"]["dummy_hand"] is None
    assert "ST" not in str(view)
    faced = _state(BOARD, *AUCTION, {"seat": "E", "play": "ST"}, {"seat": "S", "face": ["S7"]}, settings=settings)
    assert table_view(faced)["board"]["current_trick"]["cards"] == [{"seat": "E", "card": "ST"}]


def test_an_unnoticed_revoke_is_the_arbiters_alone_until_ruled() -> None:
    # E holds hearts and discards a club on a heart lead: a revoke nobody has pointed out
    state = _state(BOARD, *AUCTION, {"seat": "E", "play": "HJ"}, {"seat": "S", "play": "H6"},
                   {"seat": "W", "play": "H2"}, {"seat": "N", "play": "HA"},
                   {"seat": "N", "play": "DA"}, {"seat": "E", "play": "CA"})
    arb = arbiter_view(state)
    assert [i["kind"] for i in arb["irregularities"]] == ["revoke"]
    assert arb["irregularities"][0]["public"] is False
    assert table_view(state)["irregularities"] == []
    ruled = step(state, action_of({"ruling": {"option": "confirm"}})).state
    public = table_view(ruled)["irregularities"]
    assert [(i["kind"], i["status"], i["offender"]) for i in public] == [("revoke", "ruled", "E")]
    assert "detail" not in public[0] and "situation" not in public[0]


def test_a_lead_out_of_turn_is_public_with_its_law_and_offender_but_never_its_detail() -> None:
    state = _state(BOARD, *AUCTION, {"seat": "W", "play": "S2"})
    view = table_view(state)
    assert view["waiting_for_arbiter"] is True
    assert view["irregularities"] == [{"id": 1, "kind": "opening_lead_out_of_turn", "title": "Opening lead out of turn",
                                       "law": "54", "offender": "W", "status": "awaiting_ruling", "board": 1,
                                       "ruling": None, "text": "Opening lead out of turn (West: \u26602) \u2014 "
                                       "Waiting for North (declarer) to choose (Law 54)."}]
    assert view["board"]["held_cards"] == [{"seat": "W", "card": "S2"}]
    arb = arbiter_view(state)["irregularities"][0]
    assert arb["detail"] and arb["chooser"] == "N"
    assert arb["option_args"]["forbid_suit"] == [{"name": "suit", "type": "suit", "required": True,
                                                  "label": "suit forbidden", "choices": ["S"]}]
    assert arb["option_args"]["accept_see_dummy"] == []
    assert arb["option_sentences"]["accept_see_dummy"] == (
        "North accepts the lead of \u26602: dummy is faced and North plays second to the trick (Law 54).")
    assert arb["option_sentences"]["forbid_suit"] == (
        "North refuses the lead and forbids East to lead \u2660 while he keeps the lead; \u26602 goes back to "
        "West's hand (Law 54).")
    assert arb["ruling_sentence"] is None


def test_hesitations_are_shown_to_the_arbiter_only_laws_16_73() -> None:
    lines = [BOARD]
    t = 1.0
    for i, call in enumerate(AUCTION):
        t += 60.0 if i == 2 else 2.0
        lines.append({**call, "t": t})
    state = _state(*lines)
    arb = arbiter_view(state)
    assert [i["kind"] for i in arb["irregularities"]] == ["tempo"]
    assert any("hesitation" in item for item in arb["board"]["timeline"])
    assert table_view(state)["irregularities"] == []


def test_the_arbiter_sees_the_whole_deal_and_the_score_sheet_of_the_code() -> None:
    state = _state({"session": {"code": "rubber"}}, {"board": {"dealer": "N", "deal": DEAL}}, *AUCTION,
                   {"seat": "E", "play": "ST"}, {"seat": "N", "claim": 13}, {"seat": "E", "agree": True},
                   {"seat": "W", "agree": True})
    arb = arbiter_view(state)
    assert arb["board"]["deal"] == DEAL
    assert arb["board"]["hands"]["W"][0] == "S4"
    score = arb["score"]
    assert score["code"] == "rubber" and score["games"] == {"NS": 1, "EW": 0}
    assert table_view(state)["board"]["result"]["tricks"] == 13
    # a finished board's concealed hands stay concealed at the table
    assert "W" not in {f["seat"] for f in table_view(state)["board"]["faced"]}
    assert Card.parse("S4") not in public_cards(state)
