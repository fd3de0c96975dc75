"""The table state and ``step``: whole boards, claims, and irregularities reported as data."""

from __future__ import annotations

from controller import actions as a
from controller.auction import Auction
from controller.calls import Call
from controller.cards import Card, Suit
from controller.codes.rubber import club_reference
from controller.deal import Deal
from controller.rulings import change_lead_suits, skipped_turn
from controller.seats import Seat, Vulnerability
from controller.table import Phase, Step, TableState, step, think_times
from controller.tempo import ActKind

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
    assert irr.law == "62"  # not yet established: it must be corrected (Law 62)


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
        result = replay_records([rec], fast=False)  # the full table, whose boards it keeps
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


def test_three_passes_that_skipped_a_player_reopen_the_auction_for_him_law_34() -> None:
    # N 1H, E pass, W pass out of rotation (accepted by N's pass): S never called
    skipped = Auction(Seat.N)
    for seat, token in ((Seat.N, "1H"), (Seat.E, "Pass"), (Seat.W, "Pass"), (Seat.N, "Pass")):
        skipped = skipped.with_call(Call.parse(token), seat)
    assert skipped.is_complete and skipped_turn(skipped) == 2
    assert skipped_turn(Auction.of(Seat.N, "1H Pass Pass Pass")) is None
    assert skipped_turn(Auction.of(Seat.N, "1H Pass")) is None


def test_a_skipped_player_still_calls_before_the_contract_is_set_law_34() -> None:
    s = run(TableState.new(), board(), *[a.MakeCall(seat, Call.parse(tok)) for seat, tok in (
        (Seat.N, "1H"), (Seat.E, "Pass"), (Seat.W, "Pass"), (Seat.N, "Pass"))]).state
    assert s.board is not None and s.board.phase is Phase.AUCTION and s.turn is Seat.S
    assert [str(c) for c in s.board.auction.calls] == ["1H", "Pass"]


def test_change_of_call_lead_option_only_when_the_suit_is_not_repeated_r_26() -> None:
    assert change_lead_suits(Call.parse("1C"), Call.parse("2C")) is None
    assert change_lead_suits(Call.parse("1C"), Call.parse("1NT")) == (Suit.C,)
    assert change_lead_suits(Call.parse("1NT"), Call.parse("2NT")) is None
    assert change_lead_suits(Call.parse("1NT"), Call.parse("2C")) == ()
    assert change_lead_suits(Call.parse("Pass"), Call.parse("1C")) == ()


def test_club_law_reference_sits_beside_every_law_it_amends_part_viii() -> None:
    assert club_reference("31A") == "31A, Club 31"
    assert club_reference("55A, 53") == "55A, 53, Club 55"
    assert club_reference("16, Proprieties 2") == "16, Proprieties 2, Club 16"
    assert club_reference("10C, 11, 12") == "10C, 11, 12"


def test_the_arbiters_ruling_time_is_not_the_next_players_think_law_16() -> None:
    s = run(TableState.new(), board(), a.MakeCall(Seat.N, Call.parse("1NT"), 2.0),
            a.MakeCall(Seat.E, Call.parse("1S"), 4.0), a.Ruling("correct", 1, (), 90.0),
            a.MakeCall(Seat.E, Call.parse("2C"), 92.0)).state
    assert s.board is not None and not any(i.kind == "tempo" for i in s.irregularities)
    assert think_times(s.board, ActKind.CALL)[-1] == (Seat.E, 4.0)
