"""The table state and ``step``: whole boards, claims, and irregularities reported as data."""

from __future__ import annotations

from controller import actions as a
from controller.calls import Call
from controller.cards import Card
from controller.deal import Deal
from controller.seats import Seat, Vulnerability
from controller.table import Phase, Step, TableState, step

DEAL = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


def run(state: TableState, *acts: a.Action) -> Step:
    result = Step(state)
    for act in acts:
        result = step(result.state, act)
        state = result.state
    return result


def calls(dealer: Seat, text: str) -> list[a.Action]:
    out: list[a.Action] = []
    seat = dealer
    for token in text.split():
        out.append(a.MakeCall(seat, Call.parse(token)))
        seat = seat.lho
    return out


def board(number: int = 1, deal: Deal | None = DEAL) -> a.BoardStart:
    return a.BoardStart(number, None, None, deal)


def test_board_number_sets_dealer_and_vulnerability_law_2() -> None:
    s = run(TableState.new(), board(7)).state
    assert s.board is not None and s.board.dealer is Seat.S
    assert s.board.vulnerability is Vulnerability.BOTH and s.turn is Seat.S


def test_passed_out_board_scores_zero_law_22() -> None:
    s = run(TableState.new(), board(1), *calls(Seat.N, "Pass Pass Pass Pass")).state
    o = s.outcome()
    assert o is not None and o.status == "passed_out" and o.score_ns == 0


def test_whole_board_played_to_thirteen_tricks_is_scored_law_77() -> None:
    # N declares 1NT; E leads; each suit is held in sequence so every trick is easy to follow.
    s = run(TableState.new(), board(1), *calls(Seat.N, "1NT Pass Pass Pass")).state
    assert s.phase is Phase.PLAY and s.turn is Seat.E
    for _ in range(52):
        seat = s.turn
        assert seat is not None
        s = step(s, a.PlayCard(seat, s.legal_cards(seat)[-1])).state
    o = s.outcome()
    assert o is not None and o.status == "played" and o.tricks is not None
    assert o.tricks + o.board.play.won[1] == 13  # type: ignore[union-attr]


def test_agreed_claim_ends_the_board_law_68_69() -> None:
    s = run(TableState.new(), board(1), *calls(Seat.N, "3NT Pass Pass Pass"),
            a.PlayCard(Seat.E, Card.parse("CA")), a.Claim(Seat.N, 9),
            a.Agree(Seat.E)).state
    assert s.outcome() is None  # West has not agreed yet
    s = step(s, a.Agree(Seat.W)).state
    o = s.outcome()
    assert o is not None and o.status == "claimed" and o.tricks == 9 and o.result == "="
    assert o.score_ns == 400


def test_concession_gives_tricks_to_the_opponents_law_68() -> None:
    s = run(TableState.new(), board(1), *calls(Seat.N, "3NT Pass Pass Pass"),
            a.Concede(Seat.N, 5), a.Agree(Seat.E), a.Agree(Seat.W)).state
    o = s.outcome()
    assert o is not None and o.tricks == 8 and o.result == "-1" and o.score_ns == -50


def test_claim_of_more_tricks_than_remain_is_rejected_and_changes_nothing() -> None:
    s = run(TableState.new(), board(1), *calls(Seat.N, "3NT Pass Pass Pass")).state
    r = step(s, a.Claim(Seat.N, 14))
    assert r.state is s and r.events[0].kind == "rejected" and "14" in r.events[0].detail


def test_insufficient_bid_is_reported_with_law_27_and_lho_chooses() -> None:
    r = run(TableState.new(), board(1), *calls(Seat.N, "1S"), a.MakeCall(Seat.E, Call.parse("1H")))
    (irr,) = r.irregularities
    assert irr.kind == "insufficient_bid" and irr.law == "27" and irr.offender is Seat.E
    assert irr.chooser == "S" and irr.options == ("accept", "correct")
    assert r.state.board is not None and len(r.state.board.auction.calls) == 1


def test_call_out_of_rotation_is_reported_law_28_32() -> None:
    r = run(TableState.new(), board(1), a.MakeCall(Seat.S, Call.parse("1C")))
    (irr,) = r.irregularities
    assert irr.kind == "call_out_of_rotation" and irr.id == 1 and irr.offender is Seat.S


def test_inadmissible_double_of_partners_bid_law_36() -> None:
    r = run(TableState.new(), board(1), *calls(Seat.N, "1S Pass"),
            a.MakeCall(Seat.S, Call.parse("X")))
    (irr,) = r.irregularities
    assert irr.kind == "inadmissible_call" and irr.situation == "inadmissible_double"


def test_opening_lead_out_of_turn_is_reported_law_54() -> None:
    r = run(TableState.new(), board(1), *calls(Seat.N, "1NT Pass Pass Pass"),
            a.PlayCard(Seat.W, Card.parse("DT")))
    (irr,) = r.irregularities
    assert irr.kind == "opening_lead_out_of_turn" and irr.law == "54"
    assert irr.chooser == "N" and "accept_become_dummy" in irr.options


def test_revoke_with_known_hands_is_seen_at_once_law_61() -> None:
    # E leads a club; S (holding clubs) plays a heart.
    r = run(TableState.new(), board(1), *calls(Seat.N, "1NT Pass Pass Pass"),
            a.PlayCard(Seat.E, Card.parse("CA")), a.PlayCard(Seat.S, Card.parse("H4")))
    (irr,) = r.irregularities
    assert irr.kind == "revoke" and irr.offender is Seat.S and irr.trick == 1
    assert irr.law == "61-64"


def test_revoke_without_hands_is_found_when_the_suit_is_shown_later_law_61() -> None:
    r = run(TableState.new(), board(1, deal=None), *calls(Seat.N, "1NT Pass Pass Pass"),
            a.PlayCard(Seat.E, Card.parse("CA")), a.PlayCard(Seat.S, Card.parse("H4")))
    assert r.irregularities == ()
    r = run(r.state, a.PlayCard(Seat.W, Card.parse("C5")), a.PlayCard(Seat.N, Card.parse("C2")),
            a.PlayCard(Seat.E, Card.parse("CK")), a.PlayCard(Seat.S, Card.parse("C8")))
    (irr,) = r.irregularities
    assert irr.kind == "revoke" and irr.offender is Seat.S and irr.trick == 1


def test_card_from_another_hand_is_a_deck_problem_law_13() -> None:
    r = run(TableState.new(), board(1), *calls(Seat.N, "1NT Pass Pass Pass"),
            a.PlayCard(Seat.E, Card.parse("SA")))
    (irr,) = r.irregularities
    assert irr.kind == "deck_problem" and irr.situation == "card_not_in_hand"


def test_ruling_with_an_option_the_law_does_not_give_is_refused() -> None:
    r = run(TableState.new(), board(1), *calls(Seat.N, "1S"), a.MakeCall(Seat.E, Call.parse("1H")))
    before = r.state
    r2 = step(before, a.Ruling("forbid_suit", 1))
    assert r2.state is before and "not offered" in r2.events[0].detail
    r3 = step(before, a.Ruling("accept"))
    irr = r3.state.irregularity(1)
    assert irr is not None and irr.status == "ruled"


def test_actions_without_a_board_are_rejected_not_raised() -> None:
    s = TableState.new()
    for act in (a.MakeCall(Seat.N, Call.parse("1C")), a.PlayCard(Seat.N, Card.parse("SA")),
                a.Agree(Seat.N), a.Adjust(9), a.Declare(Seat.N, None)):
        r = step(s, act)
        assert r.state is s and r.events[0].kind == "rejected"


def test_session_code_cannot_change_after_the_first_board() -> None:
    s = run(TableState.new(), board(1)).state
    r = step(s, a.SessionStart("rubber"))
    assert r.state is s and r.events[0].kind == "rejected"


def test_unknown_code_is_rejected_with_its_name() -> None:
    r = step(TableState.new(), a.SessionStart("whist"))
    assert "whist" in r.events[0].detail


def test_live_state_equals_the_replay_of_its_log(corpus: object) -> None:
    """Every corpus record, exported as table actions and replayed, gives the same board."""
    from pathlib import Path

    from controller.records import lin
    from controller.replay import board_actions, replay_records

    assert isinstance(corpus, Path)
    records = [r for f in sorted((corpus / "pbntools_bbo_online").rglob("*.lin"))[:150]
               for r in lin.load(f)]
    checked = 0
    for rec in records:
        result = replay_records([rec])
        if not result.state.boards or result.state.boards[-1].status == "incomplete":
            continue
        original = result.state.boards[-1]
        again = run(TableState.new(), *board_actions(original)).state
        copy = again.boards[-1]
        assert (copy.status, copy.tricks, copy.score_ns) == (original.status, original.tricks,
                                                            original.score_ns), rec.source
        assert copy.board.auction.calls == original.board.auction.calls
        if original.board.play is not None:
            assert copy.board.play is not None
            assert copy.board.play.played_cards() == original.board.play.played_cards()
        checked += 1
    assert checked > 100
