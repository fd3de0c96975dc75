"""The sensing layer: raw sensor events -> table actions and notices (docs/architecture.md, sensing;
docs/irregularities.md)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.actions import (
    AlertCard,
    CallDirector,
    FaceCards,
    MakeCall,
    PickUp,
    PlayCard,
    StopCard,
)
from controller.calls import ALL_BIDS, Call
from controller.cards import DECK, Card
from controller.seats import Seat
from controller.sensing import (
    ButtonPressed,
    ContactChanged,
    DeckRegistry,
    DeviceHealth,
    Notice,
    NoticeKind,
    Output,
    RawEvent,
    Sensing,
    Settings,
    TagGone,
    TagSeen,
)
from controller.sensing.translate import SLOTS

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def uid(card: str, deck: int = 1) -> str:
    return f"04{deck:02X}{Card.parse(card).index:010X}"


def _registry() -> DeckRegistry:
    r = DeckRegistry()
    for deck in (1, 2):
        for c in DECK:
            r = r.enrol(uid(str(c), deck), c, f"deck{deck}")
    return r


DECKS = _registry()
UNKNOWN = "04FFFFFFFFFFFF"


def seen(reader: str, card: str, t: float, deck: int = 1) -> TagSeen:
    return TagSeen(reader, uid(card, deck), t)


def gone(reader: str, card: str, t: float, deck: int = 1) -> TagGone:
    return TagGone(reader, uid(card, deck), t)


def pull(seat: str, slot: str, t: float) -> ContactChanged:
    return ContactChanged(seat, slot, False, t)


def put_back(seat: str, slot: str, t: float) -> ContactChanged:
    return ContactChanged(seat, slot, True, t)


def run(events: Iterable[RawEvent], until: float | None = None,
        state: Sensing | None = None) -> tuple[Sensing, list[Output]]:
    """Feed ``events`` in order, then tick at ``until``; the final state and every output."""
    s = state or Sensing.start(DECKS, deck="deck1")
    outs: list[Output] = []
    for ev in events:
        s, out = s.feed(ev)
        outs.extend(out)
    if until is not None:
        s, out = s.tick(until)
        outs.extend(out)
    return s, outs


def actions(outs: Sequence[Output]) -> list[Output]:
    return [o for o in outs if not isinstance(o, Notice)]


def notices(outs: Sequence[Output], kind: NoticeKind | None = None) -> list[Notice]:
    return [o for o in outs if isinstance(o, Notice) and (kind is None or o.kind is kind)]


def call(seat: Seat, text: str, t: float) -> MakeCall:
    return MakeCall(seat, Call.parse(text), t)


def play(seat: Seat, card: str, t: float) -> PlayCard:
    return PlayCard(seat, Card.parse(card), t)


# --- the play zone ----------------------------------------------------------------------------

def test_a_card_arriving_on_a_play_zone_is_played_by_that_seat() -> None:
    _, outs = run([seen("W.play", "SK", 40.2)])
    assert outs == [play(W, "SK", 40.2)]


def test_repeated_reads_of_a_card_still_present_are_one_play() -> None:
    _, outs = run([seen("W.play", "SK", t / 10) for t in range(1, 30)], until=10)
    assert outs == [play(W, "SK", 0.1)]


def test_a_brief_drop_out_is_the_same_presence() -> None:
    _, outs = run([seen("W.play", "SK", 1.0), gone("W.play", "SK", 1.5), seen("W.play", "SK", 1.6)],
                  until=10)
    assert outs == [play(W, "SK", 1.0)]


def test_a_quitted_card_seen_again_on_its_reader_is_not_a_new_play_law_65() -> None:
    trick = [seen("W.play", "SK", 1), seen("N.play", "S2", 2), seen("E.play", "S3", 3),
             seen("S.play", "S4", 4)]
    # each player turns his card face down in front of him, on or near the reader
    quitting = [gone("W.play", "SK", 5), gone("S.play", "S4", 5.1), seen("W.play", "SK", 9),
                seen("S.play", "S4", 9.5), seen("W.play", "SK", 30)]
    _, outs = run([*trick, *quitting], until=40)
    assert actions(outs) == [play(W, "SK", 1), play(N, "S2", 2), play(E, "S3", 3), play(S, "S4", 4)]


def test_a_trick_gathered_onto_the_winners_reader_is_not_played_again_rubber_law_65() -> None:
    trick = [seen("W.play", "SK", 1), seen("N.play", "S2", 2), seen("E.play", "S3", 3),
             seen("S.play", "S4", 4)]
    gather = [gone("N.play", "S2", 5), gone("E.play", "S3", 5), gone("S.play", "S4", 5),
              seen("W.play", "S2", 5.5), seen("W.play", "S3", 5.5), seen("W.play", "S4", 5.6)]
    _, outs = run([*trick, *gather], until=20)
    assert len(actions(outs)) == 4 and notices(outs) == []


def test_two_cards_arriving_at_once_are_two_plays_in_arrival_order_and_a_law_58_notice() -> None:
    _, outs = run([seen("E.play", "HQ", 10.00), seen("E.play", "H3", 10.04)])
    assert actions(outs) == [play(E, "HQ", 10.00), play(E, "H3", 10.04)]
    (n,) = notices(outs, NoticeKind.SIMULTANEOUS)
    assert n.seat is E and n.reader == "E.play" and "HQ H3" in n.detail and "Law 58" in n.detail


def test_three_cards_at_once_name_all_three() -> None:
    _, outs = run([seen("E.play", "HQ", 10.0), seen("E.play", "H3", 10.05),
                   seen("E.play", "H4", 10.1)])
    assert len(actions(outs)) == 3
    assert notices(outs, NoticeKind.SIMULTANEOUS)[-1].detail.startswith("HQ H3 H4")


def test_cards_arriving_apart_or_on_different_readers_are_not_simultaneous() -> None:
    _, outs = run([seen("E.play", "HQ", 10.0), seen("E.play", "H3", 11.0),
                   seen("S.play", "H4", 11.05)])
    assert len(actions(outs)) == 3 and notices(outs) == []


def test_a_card_on_another_seats_play_zone_is_reported_as_that_seats_play() -> None:
    # South's card put down in front of West: the table engine judges it, not the sensors
    _, outs = run([seen("W.play", "DA", 3.0)])
    assert outs == [play(W, "DA", 3.0)]


def test_a_face_down_opening_lead_is_reported_when_it_arrives() -> None:
    # readers cannot see faces: the face-down lead is a play; turning it over changes nothing
    _, outs = run([seen("W.play", "C7", 1.0), gone("W.play", "C7", 20.0),
                   seen("W.play", "C7", 20.8)], until=60)
    assert outs == [play(W, "C7", 1.0)]


def test_the_card_just_played_taken_back_is_a_pickup_and_not_played_again() -> None:
    _, outs = run([seen("W.play", "SK", 1.0), gone("W.play", "SK", 3.0)], until=10)
    assert outs == [play(W, "SK", 1.0), PickUp(W, Card.parse("SK"), 3.0)]
    _, outs = run([seen("W.play", "SK", 1.0), gone("W.play", "SK", 3.0), seen("W.play", "SK", 8.0)],
                  until=10)
    assert actions(outs) == [play(W, "SK", 1.0), PickUp(W, Card.parse("SK"), 3.0)]


def test_a_card_of_a_complete_trick_taken_off_is_not_a_pickup() -> None:
    trick = [seen("W.play", "SK", 1), seen("N.play", "S2", 2), seen("E.play", "S3", 3),
             seen("S.play", "S4", 4)]
    _, outs = run([*trick, gone("S.play", "S4", 5)], until=20)
    assert len(actions(outs)) == 4


def test_an_earlier_card_taken_off_after_the_next_play_is_not_a_pickup() -> None:
    _, outs = run([seen("W.play", "SK", 1), gone("W.play", "SK", 1.5), seen("N.play", "S2", 2)],
                  until=20)
    assert actions(outs) == [play(W, "SK", 1), play(N, "S2", 2)]


def test_a_play_the_table_refused_can_be_made_again_after_withdraw() -> None:
    s, outs = run([seen("W.play", "SK", 1.0)])
    s = s.withdraw(Card.parse("SK"))
    s, outs = run([gone("W.play", "SK", 2), seen("W.play", "SK", 30.0)], state=s)
    assert actions(outs) == [play(W, "SK", 30.0)]
    assert s.withdraw(Card.parse("HA")) is s


def test_a_card_deemed_played_by_the_arbiter_is_not_a_new_play_when_it_reaches_a_reader() -> None:
    s = Sensing.start(DECKS, deck="deck1").mark_played(Card.parse("D5"))
    assert s.mark_played(Card.parse("D5")) is s
    _, outs = run([seen("E.play", "D5", 4.0)], state=s)
    assert outs == []


# --- the spread zone --------------------------------------------------------------------------

DUMMY = ["SA", "S7", "S4", "HK", "HQ", "H9", "D8", "D6", "D2", "CA", "CJ", "C9", "C3"]


def test_dummys_hand_spread_on_the_spread_zone_is_one_facecards_once_it_settles() -> None:
    events = [seen("N.spread", c, 50 + 0.4 * i) for i, c in enumerate(DUMMY)]
    s, outs = run(events)
    assert outs == []
    assert s.next_deadline == pytest.approx(50 + 0.4 * 12 + 2.0)
    _, outs = run([], until=60, state=s)
    assert outs == [FaceCards(N, tuple(Card.parse(c) for c in DUMMY), 50.0)]


def test_cards_faced_so_far_are_reported_before_the_next_play() -> None:
    events = [seen("N.spread", c, 50 + 0.1 * i) for i, c in enumerate(DUMMY[:3])]
    _, outs = run([*events, seen("E.play", "H2", 50.5)])
    assert outs == [FaceCards(N, tuple(Card.parse(c) for c in DUMMY[:3]), 50.0), play(E, "H2", 50.5)]


def test_a_card_faced_again_or_read_again_on_the_spread_zone_is_not_faced_twice() -> None:
    _, outs = run([seen("N.spread", "SA", 1), seen("N.spread", "SA", 1.1), gone("N.spread", "SA", 1.2),
                   seen("N.spread", "SA", 1.3)], until=10)
    assert outs == [FaceCards(N, (Card.parse("SA"),), 1)]


def test_dummys_card_moved_from_the_spread_to_the_play_zone_is_played_not_picked_up() -> None:
    _, outs = run([seen("N.spread", "SA", 1), seen("N.spread", "S7", 1.1),
                   gone("N.spread", "S7", 10), seen("N.play", "S7", 10.6)], until=30)
    assert actions(outs) == [FaceCards(N, (Card.parse("SA"), Card.parse("S7")), 1),
                             play(N, "S7", 10.6)]


def test_a_faced_card_taken_back_into_the_hand_is_a_pickup() -> None:
    # a hand faced for a claim, then one card picked up again
    _, outs = run([seen("S.spread", "HA", 1), seen("S.spread", "HK", 1.2), gone("S.spread", "HK", 9)],
                  until=30)
    assert actions(outs) == [FaceCards(S, (Card.parse("HA"), Card.parse("HK")), 1),
                             PickUp(S, Card.parse("HK"), 9)]
    # faced again later: reported again
    _, outs = run([seen("S.spread", "HA", 1), gone("S.spread", "HA", 9), seen("S.spread", "HA", 40)],
                  until=50)
    assert actions(outs)[-1] == FaceCards(S, (Card.parse("HA"),), 40)


def test_a_card_that_crosses_the_spread_zone_before_it_settles_is_never_faced() -> None:
    _, outs = run([seen("S.spread", "HA", 1), gone("S.spread", "HA", 1.1)], until=30)
    assert outs == []


def test_a_played_card_put_on_a_spread_zone_is_not_faced() -> None:
    _, outs = run([seen("W.play", "SK", 1), seen("W.spread", "SK", 10)], until=30)
    assert outs == [play(W, "SK", 1)]


# --- tags that are not cards of the deck in play ----------------------------------------------

def test_an_unknown_tag_is_one_notice_per_presence_and_no_action() -> None:
    ev = [TagSeen("E.play", UNKNOWN, 1), TagSeen("E.play", UNKNOWN, 1.1), TagGone("E.play", UNKNOWN, 1.2),
          TagSeen("E.play", UNKNOWN, 1.3)]
    _, outs = run(ev, until=5)
    (n,) = outs
    assert isinstance(n, Notice) and n.kind is NoticeKind.UNKNOWN_TAG
    assert (n.seat, n.reader, n.uid, n.t) == (E, "E.play", UNKNOWN, 1)
    _, outs = run([*ev, TagGone("E.play", UNKNOWN, 2), TagSeen("E.play", UNKNOWN, 9)])
    assert len(notices(outs, NoticeKind.UNKNOWN_TAG)) == 2  # gone for good, then back


def test_a_card_of_another_deck_is_a_foreign_tag_notice_and_no_action() -> None:
    _, outs = run([seen("S.play", "SA", 1, deck=2)])
    (n,) = outs
    assert isinstance(n, Notice) and n.kind is NoticeKind.FOREIGN_TAG
    assert "deck2:SA" in n.detail and "deck1" in n.detail


def test_the_deck_in_play_is_learned_from_its_first_card() -> None:
    s = Sensing.start(DECKS)
    s, outs = run([seen("S.play", "SA", 1, deck=2), seen("W.play", "SK", 2, deck=1)], state=s)
    assert s.deck == "deck2"
    assert actions(outs) == [play(S, "SA", 1)] and notices(outs)[0].kind is NoticeKind.FOREIGN_TAG


def test_a_tag_from_a_reader_the_table_does_not_have_is_a_notice() -> None:
    _, outs = run([seen("X.play", "SA", 1), seen("X.play", "SA", 1.5)])
    assert [n.kind for n in notices(outs)] == [NoticeKind.UNKNOWN_READER]


def test_the_board_reader_reports_the_board_tag_once_per_presence() -> None:
    board_uid = "04B0A4D0000007"
    _, outs = run([TagSeen("board", board_uid, 0.5), TagSeen("board", board_uid, 0.6),
                   TagGone("board", board_uid, 0.7), TagSeen("board", board_uid, 0.8)], until=5)
    assert outs == [Notice(NoticeKind.BOARD, None, "board", board_uid, "board tag", 0.5)]


# --- the bidding box ----------------------------------------------------------------------------

def test_a_pulled_bid_card_becomes_a_call_when_not_returned_within_the_interval() -> None:
    s, outs = run([pull("S", "1NT", 3.1)], until=3.1 + 1.0)
    assert outs == []  # still provisional (Law 18: a bid card counts once it is placed)
    _, outs = run([], until=3.1 + 1.6, state=s)
    assert outs == [call(S, "1NT", 3.1)]


def test_a_pulled_bid_card_becomes_a_call_at_once_when_the_next_seat_acts() -> None:
    _, outs = run([pull("S", "1NT", 3.1), pull("W", "Pass", 3.6)], until=3.7)
    assert outs == [call(S, "1NT", 3.1)]
    _, outs = run([pull("S", "Pass", 3.1), seen("W.play", "C7", 3.5)])
    assert outs == [call(S, "Pass", 3.1), play(W, "C7", 3.5)]


def test_the_call_is_the_highest_bid_card_pulled_together() -> None:
    # 3H is pulled with the cards in front of it (1C..3D); the contacts open a few ms apart
    stack = [pull("E", str(b), 5.0 + 0.002 * i) for i, b in enumerate(ALL_BIDS[:13])]
    assert ALL_BIDS[12] == Call.parse("3H")
    _, outs = run(stack, until=10)
    assert outs == [call(E, "3H", 5.0 + 0.002 * 12)]


def test_the_next_call_is_the_highest_of_the_cards_newly_out() -> None:
    first = [pull("E", b, 5.0 + 0.002 * i) for i, b in enumerate(["1C", "1D", "1H"])]
    second = [pull("E", b, 20.0 + 0.002 * i) for i, b in enumerate(["1S", "1NT", "2C", "2D"])]
    _, outs = run([*first, *second], until=30)
    assert outs == [call(E, "1H", 5.004), call(E, "2D", 20.006)]


def test_a_bid_card_pulled_and_put_back_is_not_a_call_law_16() -> None:
    _, outs = run([pull("N", "2S", 1.0), put_back("N", "2S", 2.0)], until=10)
    assert actions(outs) == []
    (n,) = notices(outs, NoticeKind.PULLED_AND_RETURNED)
    assert n.seat is N and "2S" in n.detail and "Law 16" in n.detail


def test_fingering_a_bid_card_is_a_notice_not_a_call_law_16() -> None:
    _, outs = run([pull("N", "2S", 1.0), put_back("N", "2S", 1.2), pull("N", "Pass", 3.0)], until=10)
    assert actions(outs) == [call(N, "Pass", 3.0)]
    assert [n.kind for n in notices(outs)] == [NoticeKind.FINGERING]


def test_the_top_card_of_a_pull_put_back_leaves_the_next_highest_as_the_call() -> None:
    stack = [pull("W", b, 1.0 + 0.002 * i) for i, b in enumerate(["3D", "3H", "3S"])]
    _, outs = run([*stack, put_back("W", "3S", 1.8)], until=10)
    assert actions(outs) == [call(W, "3H", 1.002)]
    assert [n.kind for n in notices(outs)] == [NoticeKind.PULLED_AND_RETURNED]


def test_the_confirmation_interval_runs_from_the_last_change_of_the_pull() -> None:
    s, outs = run([pull("W", "3H", 1.0), pull("W", "3S", 1.4), put_back("W", "3S", 2.0)], until=3.2)
    assert outs == []
    _, outs = run([], until=3.6, state=s)
    assert actions(outs) == [call(W, "3H", 1.0)]


def pass_card(seat: str, t: float, slot: str = "Pass") -> list[ContactChanged]:
    """One card pulled from a slot holding several: the contact opens, then closes again
    as the next card comes forward."""
    return [pull(seat, slot, t), put_back(seat, slot, t + 0.2)]


def test_each_pass_pulled_from_a_slot_of_several_cards_is_a_call() -> None:
    _, outs = run([*pass_card("E", 1.0), *pass_card("E", 9.0), *pass_card("S", 12.0, "X"),
                   *pass_card("W", 14.0, "XX")], until=20)
    assert outs == [call(E, "Pass", 1.0), call(E, "Pass", 9.0), call(S, "X", 12.0),
                    call(W, "XX", 14.0)]


def test_cards_returned_to_the_box_at_the_end_of_the_auction_are_not_calls() -> None:
    auction = [pull("N", "1NT", 1), *pass_card("E", 3), pull("S", "3NT", 5), *pass_card("W", 7),
               *pass_card("N", 9), *pass_card("E", 11)]
    returns = [put_back(seat, slot, 20 + i * 0.1) for i, (seat, slot) in
               enumerate([("N", "1NT"), ("S", "3NT")])]
    _, outs = run([*auction, *returns], until=40)
    assert [str(o.call) for o in outs if isinstance(o, MakeCall)] == ["1NT", "Pass", "3NT", "Pass",
                                                                       "Pass", "Pass"]
    assert len(outs) == 6


def test_contact_bounce_shorter_than_the_debounce_is_nothing() -> None:
    _, outs = run([pull("N", "1C", 1.0), put_back("N", "1C", 1.01), pull("N", "1C", 1.015),
                   put_back("N", "1C", 1.02)], until=10)
    assert outs == []


def test_a_repeated_contact_report_changes_nothing() -> None:
    s = Sensing.start(DECKS)
    s2, outs = s.feed(put_back("N", "1C", 1.0))
    assert s2 is s and outs == ()


def test_the_call_time_is_the_moment_of_the_pull() -> None:
    _, outs = run([pull("E", "4S", 12.25)], until=20)
    assert outs == [call(E, "4S", 12.25)]


def test_stop_and_alert_cards_are_shown_at_once() -> None:
    _, outs = run([pull("N", "Stop", 1.0), put_back("N", "Stop", 3.0), pull("N", "3C", 3.5),
                   pull("S", "Alert", 4.0)], until=4.1)
    assert outs == [StopCard(N, 1.0), call(N, "3C", 3.5), AlertCard(S, 4.0)]


def test_two_different_calls_out_at_once_are_ambiguous_and_not_a_call() -> None:
    _, outs = run([pull("N", "Pass", 1.0), pull("N", "2H", 1.1)], until=10)
    assert actions(outs) == []
    (n,) = notices(outs, NoticeKind.AMBIGUOUS_PULL)
    assert n.seat is N and "2H Pass" in n.detail


@pytest.mark.parametrize(("seat", "slot"), [("N", "8S"), ("N", "Foo"), ("Q", "1C"), ("n", "1C")])
def test_a_contact_that_cannot_happen_is_a_notice_and_changes_nothing(seat: str, slot: str) -> None:
    s = Sensing.start(DECKS)
    s2, outs = s.feed(ContactChanged(seat, slot, False, 1.0))
    assert s2 == s
    (n,) = outs
    assert isinstance(n, Notice) and n.kind is NoticeKind.IMPOSSIBLE_CONTACT


def test_slot_names_accept_the_pbn_and_lin_spellings() -> None:
    assert len(SLOTS) == 40
    for spelling, expected in [("1n", "1NT"), ("PASS", "Pass"), ("p", "Pass"), ("d", "X"), ("r", "XX"),
                               ("STOP", "Stop"), ("alert", "Alert")]:
        _, outs = run([pull("E", spelling, 1.0)], until=5)
        assert len(outs) == 1
        o = outs[0]
        if isinstance(o, MakeCall):
            assert str(o.call) == expected
        else:
            assert expected in ("Stop", "Alert")


# --- buttons and devices ------------------------------------------------------------------------

def test_the_call_the_arbiter_button_calls_the_arbiter_after_confirming_a_pending_call() -> None:
    _, outs = run([pull("N", "2H", 1.0), ButtonPressed("E", "director", 1.5)])
    assert outs == [call(N, "2H", 1.0), CallDirector(E, 1.5)]


def test_an_unknown_button_is_a_notice() -> None:
    _, outs = run([ButtonPressed("E", "coffee", 1.0), ButtonPressed("Z", "director", 1.0)])
    assert [n.kind for n in notices(outs)] == [NoticeKind.UNKNOWN_BUTTON] * 2
    assert actions(outs) == []


def test_a_reader_going_silent_is_a_notice_for_the_arbiter_and_its_return_another() -> None:
    _, outs = run([seen("W.play", "SK", 1), DeviceHealth("seat-E", False, "USB unplugged", 2),
                   DeviceHealth("seat-E", False, "still unplugged", 3), seen("N.play", "S2", 4),
                   DeviceHealth("seat-E", True, "", 9)])
    assert actions(outs) == [play(W, "SK", 1), play(N, "S2", 4)]
    kinds = [(n.kind, n.reader, n.t) for n in notices(outs)]
    assert kinds == [(NoticeKind.DEVICE_DOWN, "seat-E", 2), (NoticeKind.DEVICE_UP, "seat-E", 9)]
    assert "USB unplugged" in notices(outs)[0].detail


# --- board boundaries, time and purity ----------------------------------------------------------

def test_cards_gathered_after_the_board_are_not_plays_until_the_next_board() -> None:
    s, outs = run([seen("W.play", "SK", 1), pull("N", "Pass", 2)])
    s, flushed = s.end_board(2.5)
    assert flushed == (call(N, "Pass", 2),)
    s, outs = run([seen("N.play", "HA", 3), seen("N.spread", "HK", 3.1)], until=20, state=s)
    assert outs == []
    s, _ = s.new_board(25, "deck2")
    s, outs = run([seen("N.play", "HA", 30, deck=2), seen("N.play", "SK", 31, deck=1)], state=s)
    assert actions(outs) == [play(N, "HA", 30)]
    assert notices(outs)[0].kind is NoticeKind.FOREIGN_TAG


def test_an_idle_table_has_no_deadline_and_tick_changes_nothing() -> None:
    s = Sensing.start(DECKS)
    assert s.next_deadline is None
    assert s.tick(1e9) == (s, ())
    s, _ = s.feed(pull("N", "1C", 1.0))
    assert s.next_deadline == pytest.approx(1.03)
    assert s.tick(1.0)[0] is s


def test_feeding_never_changes_the_state_it_was_given() -> None:
    s0 = Sensing.start(DECKS, deck="deck1")
    s1, out1 = s0.feed(seen("W.play", "SK", 1))
    s2, out2 = s0.feed(seen("W.play", "SK", 1))
    assert s1 == s2 and out1 == out2 and s0.played == 0


def test_settings_refuse_negative_or_inconsistent_times() -> None:
    with pytest.raises(ValueError, match="call_confirm"):
        Settings(call_confirm=-1)
    with pytest.raises(ValueError, match="pickup_after"):
        Settings(dropout=1.0, pickup_after=0.5)
    assert Settings().call_confirm == 1.5 and Settings().debounce == 0.03


def test_a_non_event_is_a_programmer_error() -> None:
    with pytest.raises(TypeError):
        Sensing.start(DECKS).feed("SA")  # type: ignore[arg-type]


# --- properties ---------------------------------------------------------------------------------

def _bounce(slot: str, start: float, gaps: list[float], final_present: bool) -> list[ContactChanged]:
    """Edges of one contact bouncing: alternating states ``gaps`` apart, ending in ``final_present``."""
    n = len(gaps) + 1
    if n % 2 == 0:
        n += 1
        gaps = [*gaps, 0.001]
    states = [(final_present if (n - 1 - i) % 2 == 0 else not final_present) for i in range(n)]
    times = [start]
    for g in gaps:
        times.append(times[-1] + g)
    return [ContactChanged("S", slot, present, t) for present, t in zip(states, times, strict=True)]


bounce_gaps = st.lists(st.floats(0.0005, 0.025), max_size=8)


@given(bounce_gaps, bounce_gaps, st.sampled_from(SLOTS[:38]), st.floats(0.0, 100.0))
@settings(max_examples=200, deadline=None)
def test_any_bounce_around_a_real_pull_yields_exactly_one_call(
        before: list[float], after: list[float], slot: str, t0: float) -> None:
    # contact chatter as the card starts to move, a real pull, then chatter as it leaves
    edges = _bounce(slot, t0, before, final_present=False)
    edges += [ContactChanged("S", slot, present, edges[-1].t + 0.001 + 0.002 * i)
              for i, present in enumerate([True, False] * (len(after) // 2))]
    _, outs = run(edges, until=t0 + 10)
    assert len(outs) == 1
    (o,) = outs
    assert isinstance(o, MakeCall) and o.seat is S and str(o.call) == slot


@given(st.permutations(ALL_BIDS[:9]), st.lists(st.floats(0.0, 0.05), min_size=9, max_size=9))
@settings(max_examples=100, deadline=None)
def test_a_stack_pulled_in_any_contact_order_is_the_call_of_its_highest_card(
        order: list[Call], gaps: list[float]) -> None:
    t, events = 1.0, []
    for c, g in zip(order, gaps, strict=True):
        t += g
        events.append(pull("E", str(c), t))
    _, outs = run(events, until=20)
    assert [str(o.call) for o in outs if isinstance(o, MakeCall)] == [str(ALL_BIDS[8])]


@given(st.lists(st.tuples(st.booleans(), st.floats(0.0, 3.0)), max_size=20))
@settings(max_examples=200, deadline=None)
def test_any_reads_and_drop_outs_of_one_card_on_its_reader_are_one_play(
        steps: list[tuple[bool, float]]) -> None:
    t, events = 1.0, [seen("W.play", "SK", 1.0)]
    for present, gap in steps:
        t += gap
        events.append(seen("W.play", "SK", t) if present else gone("W.play", "SK", t))
    _, outs = run(events, until=t + 10)
    assert [o for o in outs if isinstance(o, PlayCard)] == [play(W, "SK", 1.0)]
    assert notices(outs) == []


@given(st.lists(st.tuples(st.sampled_from(["N", "E", "S", "W"]), st.sampled_from(SLOTS[:38]),
                          st.booleans(), st.floats(0.0, 2.0)), max_size=25))
@settings(max_examples=100, deadline=None)
def test_the_same_events_always_give_the_same_outputs(
        steps: list[tuple[str, str, bool, float]]) -> None:
    t, events = 0.0, []
    for seat, slot, present, gap in steps:
        t += gap
        events.append(ContactChanged(seat, slot, present, t))
    assert run(events, until=t + 5) == run(events, until=t + 5)
    # and feeding the events one tick at a time changes nothing
    s, outs = Sensing.start(DECKS, deck="deck1"), []
    for ev in events:
        s, o = s.tick(ev.t - 1e-9)
        outs.extend(o)
        s, o = s.feed(ev)
        outs.extend(o)
    s, o = s.tick(t + 5)
    assert [*outs, *o] == run(events, until=t + 5)[1]


TAG_EVENTS = st.lists(
    st.tuples(st.booleans(), st.sampled_from(["N.play", "E.play", "S.spread", "board", "Q.play"]),
              st.sampled_from([uid("SA"), uid("SK"), uid("H2"), uid("SA", 2), UNKNOWN]),
              st.floats(0.0, 3.0)),
    max_size=30)


@given(TAG_EVENTS, st.lists(st.floats(0.0, 1.0), min_size=30, max_size=30))
@settings(max_examples=150, deadline=None)
def test_ticking_between_events_never_changes_what_is_reported(
        steps: list[tuple[bool, str, str, float]], fractions: list[float]) -> None:
    t, events = 0.0, []
    for present, reader, tag, gap in steps:
        t += gap
        events.append(TagSeen(reader, tag, t) if present else TagGone(reader, tag, t))
    expected = run(events, until=t + 10)[1]
    s, outs, prev = Sensing.start(DECKS, deck="deck1"), [], 0.0
    for ev, f in zip(events, fractions, strict=False):
        s, o = s.tick(prev + (ev.t - prev) * f)  # a timer firing at any moment in between
        outs.extend(o)
        s, o = s.feed(ev)
        outs.extend(o)
        prev = ev.t
    s, o = s.tick(t + 10)
    assert [*outs, *o] == expected
    assert s.next_deadline is None  # everything pending has been settled


@given(st.lists(st.one_of(
    st.builds(TagSeen, st.sampled_from(["N.play", "W.spread", "board", "x"]),
              st.sampled_from([uid("SA"), uid("D9"), UNKNOWN, ""]), st.floats(0, 100)),
    st.builds(TagGone, st.sampled_from(["N.play", "W.spread", "board", "x"]),
              st.sampled_from([uid("SA"), uid("D9"), UNKNOWN, ""]), st.floats(0, 100)),
    st.builds(ContactChanged, st.sampled_from(["N", "E", "Z", ""]),
              st.sampled_from([*SLOTS, "8S", ""]), st.booleans(), st.floats(0, 100)),
    st.builds(ButtonPressed, st.sampled_from(["N", "W", "?"]), st.sampled_from(["director", "x"]),
              st.floats(0, 100)),
    st.builds(DeviceHealth, st.sampled_from(["seat-N", "board"]), st.booleans(), st.text(max_size=5),
              st.floats(0, 100)),
), max_size=40))
@settings(max_examples=150, deadline=None)
def test_any_events_in_any_order_give_only_actions_and_notices(events: list[RawEvent]) -> None:
    s, outs = run(events, until=1000)
    kinds = (MakeCall, StopCard, AlertCard, PlayCard, FaceCards, PickUp, CallDirector, Notice)
    assert all(isinstance(o, kinds) for o in outs)
    assert len([o for o in outs if isinstance(o, PlayCard)]) <= 2  # SA and D9 at most once each
    assert s.next_deadline is None


def test_new_board_without_a_deck_goes_back_to_the_tables_deck() -> None:
    s = Sensing.start(DECKS, deck="deck2")
    s, _ = s.new_board(1.0, "deck1")
    assert s.deck == "deck1"
    s, _ = s.new_board(2.0)
    assert s.deck == "deck2"
    s, _ = Sensing.start(DECKS).new_board(1.0)
    assert s.deck is None


def test_a_new_board_reports_what_was_pending_first() -> None:
    s, outs = run([seen("S.spread", "HA", 1.0), pull("N", "Pass", 1.5)])
    assert outs == []  # the pull is still settling, the faced card still gathering
    s, outs2 = s.new_board(1.6)
    # the pull settles at 1.53 (an act: the faced card is reported first), then is confirmed
    assert outs2 == (FaceCards(S, (Card.parse("HA"),), 1.0), call(N, "Pass", 1.5))
    assert s.played == 0 and s.next_deadline is None


def test_a_card_put_down_in_place_of_one_taken_back_is_a_new_play() -> None:
    _, outs = run([seen("W.play", "SK", 1.0), gone("W.play", "SK", 3.0), seen("W.play", "SQ", 6.0)],
                  until=10)
    assert actions(outs) == [play(W, "SK", 1.0), PickUp(W, Card.parse("SK"), 3.0), play(W, "SQ", 6.0)]
