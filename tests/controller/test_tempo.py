"""Tempo evidence for the arbiter: think times, own pace, hesitations, skip bids (Laws 16, 73; R App. 2),
and the PBN 2.1 AuctionTimeTable and PlayTimeTable (PBN 2.1 §5.2, §5.4, §5.8)."""

from __future__ import annotations

import doctest
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import controller.tempo as tempo_module
from controller.auction import Auction
from controller.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call
from controller.records import pbn
from controller.seats import Seat
from controller.tempo import (
    SETTINGS_KEYS,
    ActKind,
    Pace,
    TempoSettings,
    TempoSettingsError,
    auction_time_table,
    hesitation,
    is_skip_bid,
    is_skip_bid_after,
    pbn_time,
    play_time_table,
    record_think,
    skip_bid_wait,
    think_time,
    think_times,
    unusual_speed,
)

CALL, CARD = ActKind.CALL, ActKind.CARD
DEFAULT = TempoSettings()


def pace_of(seat: Seat, kind: ActKind, *times: float) -> Pace:
    pace = Pace()
    for t in times:
        pace = pace.with_time(seat, kind, t)
    return pace


# -- think times ---------------------------------------------------------------------------

def test_think_time_is_the_time_since_the_previous_act_at_the_table() -> None:
    assert think_time(100.0, 107.5) == 7.5


def test_an_arbiter_call_pause_is_left_out_of_the_think_time() -> None:
    # Laws 16, 73: timers pause during an arbiter call
    assert think_time(100.0, 190.0, pauses=[(110.0, 170.0)]) == 30.0
    assert think_time(100.0, 190.0, pauses=[(50.0, 120.0), (185.0, 300.0)]) == 65.0
    assert think_time(100.0, 190.0, pauses=[(0.0, 90.0), (200.0, 300.0)]) == 90.0


def test_an_act_recorded_before_the_previous_one_counts_as_no_thought_law_33() -> None:
    assert think_time(100.0, 99.8) == 0.0


def test_think_time_rejects_a_time_that_is_not_a_number() -> None:
    with pytest.raises(ValueError, match="finite"):
        think_time(0.0, math.nan)


def test_think_times_of_a_board_run_from_its_start_then_from_each_act_at_the_table() -> None:
    acts = [(Seat.N, 12.0), (Seat.E, 14.0), (Seat.S, 30.0), (Seat.W, 29.9), (Seat.N, 35.0)]
    assert think_times(acts, start=10.0) == (
        (Seat.N, 2.0), (Seat.E, 2.0), (Seat.S, 16.0), (Seat.W, 0.0), (Seat.N, 5.0))


def test_think_times_leave_out_pauses() -> None:
    acts = [(Seat.E, 5.0), (Seat.S, 100.0)]
    assert think_times(acts, start=0.0, pauses=[(20.0, 80.0)]) == ((Seat.E, 5.0), (Seat.S, 35.0))


# -- own pace ------------------------------------------------------------------------------

def test_pace_is_an_immutable_value_kept_per_seat_and_kind() -> None:
    empty = Pace()
    pace = empty.with_time(Seat.E, CALL, 4.0).with_time(Seat.E, CARD, 9.0).with_time(Seat.W, CALL, 1.0)
    assert empty.count(Seat.E, CALL) == 0 and empty.median(Seat.E, CALL) is None
    assert pace.times(Seat.E, CALL) == (4.0,) and pace.times(Seat.E, CARD) == (9.0,)
    assert pace.times(Seat.W, CALL) == (1.0,) and pace.times(Seat.N, CALL) == ()
    assert eval(repr(pace), {"Pace": Pace}) == pace


def test_pace_median_and_spread_of_a_players_own_thinks() -> None:
    pace = pace_of(Seat.S, CALL, 2.0, 9.0, 4.0, 3.0, 5.0)
    assert pace.median(Seat.S, CALL) == 4.0
    assert pace.spread(Seat.S, CALL) == (3.0, 5.0)
    assert pace_of(Seat.S, CARD, 7.0).spread(Seat.S, CARD) == (7.0, 7.0)
    assert Pace().spread(Seat.S, CARD) is None


def test_pace_keeps_only_the_last_window_of_thinks() -> None:
    pace = Pace.for_settings(TempoSettings(window=5))
    for t in range(1, 9):
        pace = pace.with_time(Seat.N, CARD, float(t))
    assert pace.times(Seat.N, CARD) == (4.0, 5.0, 6.0, 7.0, 8.0)
    long = pace_of(Seat.N, CALL, *[1.0] * 60)
    assert long.count(Seat.N, CALL) == 40  # the default window


def test_a_pace_window_below_one_is_rejected() -> None:
    with pytest.raises(ValueError, match="window"):
        Pace(window=0)


# -- hesitation ----------------------------------------------------------------------------

def test_a_think_three_times_the_players_own_pace_is_flagged_law_16() -> None:
    pace = pace_of(Seat.E, CALL, 6.0, 5.0, 7.0, 6.0)
    text = hesitation(pace, Seat.E, CALL, 41.0, DEFAULT)
    assert text == "E thought 41 s over a call; own median 6 s"
    assert hesitation(pace, Seat.E, CALL, 18.0, DEFAULT) is not None  # exactly 3 x 6 s


def test_a_think_under_three_times_the_players_own_pace_is_not_flagged_law_16() -> None:
    pace = pace_of(Seat.E, CALL, 6.0, 5.0, 7.0, 6.0)
    assert hesitation(pace, Seat.E, CALL, 17.9, DEFAULT) is None


def test_a_slow_players_normal_think_is_not_a_hesitation_law_73() -> None:
    # unvarying tempo is entirely proper, however slow (R Proprieties 2)
    pace = pace_of(Seat.N, CARD, 30.0, 35.0, 28.0, 32.0)
    assert hesitation(pace, Seat.N, CARD, 40.0, DEFAULT) is None


def test_a_think_under_the_minimum_is_never_flagged_law_73() -> None:
    quick = pace_of(Seat.W, CALL, 1.0, 1.0, 1.0, 1.0)
    assert hesitation(quick, Seat.W, CALL, 9.9, DEFAULT) is None  # 10 x own pace, under 10 s
    assert hesitation(quick, Seat.W, CALL, 10.0, DEFAULT) == "W thought 10 s over a call; own median 1 s"
    quick_cards = pace_of(Seat.W, CARD, 1.0, 1.0, 1.0, 1.0)
    assert hesitation(quick_cards, Seat.W, CARD, 7.9, DEFAULT) is None
    assert hesitation(quick_cards, Seat.W, CARD, 8.0, DEFAULT) is not None


def test_calls_and_cards_are_judged_against_their_own_pace_law_16() -> None:
    pace = pace_of(Seat.S, CARD, 20.0, 22.0, 25.0, 21.0)
    for t in (2.0, 2.0, 3.0, 2.0):
        pace = pace.with_time(Seat.S, CALL, t)
    assert hesitation(pace, Seat.S, CARD, 30.0, DEFAULT) is None
    assert hesitation(pace, Seat.S, CALL, 30.0, DEFAULT) == "S thought 30 s over a call; own median 2 s"


def test_with_little_history_the_absolute_fallback_applies_law_16() -> None:
    pace = pace_of(Seat.E, CALL, 1.0, 1.0, 1.0)  # three earlier calls, four needed
    assert hesitation(pace, Seat.E, CALL, 24.9, DEFAULT) is None
    assert hesitation(pace, Seat.E, CALL, 25.0, DEFAULT) == (
        "E thought 25 s over a call; no own pace yet (3 earlier calls), flagged from 25 s")
    assert hesitation(Pace(), Seat.E, CARD, 19.0, DEFAULT) is None
    assert hesitation(pace_of(Seat.E, CARD, 3.0), Seat.E, CARD, 20.0, DEFAULT) == (
        "E thought 20 s over a card; no own pace yet (1 earlier card), flagged from 20 s")


def test_the_fallback_never_goes_below_the_minimum() -> None:
    settings = TempoSettings(fallback_call_s=5.0)
    assert hesitation(Pace(), Seat.N, CALL, 9.0, settings) is None
    assert hesitation(Pace(), Seat.N, CALL, 10.0, settings) is not None


def test_a_call_within_the_skip_bid_wait_is_not_a_hesitation_law_73() -> None:
    quick = pace_of(Seat.E, CALL, 1.0, 1.0, 1.0, 1.0)
    assert hesitation(quick, Seat.E, CALL, 12.0, DEFAULT) is not None
    assert hesitation(quick, Seat.E, CALL, 12.0, DEFAULT, after_skip_bid=True) is None
    assert hesitation(Pace(), Seat.E, CALL, 30.0, DEFAULT, after_skip_bid=True) is None  # 20 s counted


def test_a_think_beyond_the_skip_bid_wait_is_judged_on_the_excess_law_73() -> None:
    pace = pace_of(Seat.E, CALL, 3.0, 3.0, 3.0, 3.0)
    assert hesitation(pace, Seat.E, CALL, 19.9, DEFAULT, after_skip_bid=True) is None  # 9.9 s counted
    assert hesitation(pace, Seat.E, CALL, 25.0, DEFAULT, after_skip_bid=True) == (
        "E thought 25 s over a call after a skip bid (15 s beyond the 10 s wait); own median 3 s")


def test_a_call_after_a_skip_bid_is_left_out_of_the_pace_statistics() -> None:
    # Laws 16, 73: required skip-bid waits are excluded from hesitation statistics
    pace = pace_of(Seat.W, CALL, 2.0)
    assert record_think(pace, Seat.W, CALL, 10.0, after_skip_bid=True) is pace
    assert record_think(pace, Seat.W, CALL, 3.0).times(Seat.W, CALL) == (2.0, 3.0)
    assert record_think(pace, Seat.W, CARD, 3.0, after_skip_bid=True).times(Seat.W, CARD) == (3.0,)


def test_unusual_speed_is_off_by_default_law_16() -> None:
    pace = pace_of(Seat.N, CALL, 12.0, 10.0, 14.0, 12.0)
    assert unusual_speed(pace, Seat.N, CALL, 0.5, DEFAULT) is None


def test_unusual_speed_when_on_flags_a_fraction_of_the_own_pace_law_16() -> None:
    on = TempoSettings(unusual_speed=True)
    pace = pace_of(Seat.N, CALL, 12.0, 10.0, 14.0, 12.0)
    assert unusual_speed(pace, Seat.N, CALL, 3.0, on) == "N took only 3 s over a call; own median 12 s"
    assert unusual_speed(pace, Seat.N, CALL, 3.1, on) is None
    assert unusual_speed(pace, Seat.N, CALL, 1.0, on, after_skip_bid=True) is None
    fast_player = pace_of(Seat.N, CARD, 2.0, 2.0, 2.0, 2.0)
    assert unusual_speed(fast_player, Seat.N, CARD, 0.1, on) is None
    assert unusual_speed(pace_of(Seat.N, CALL, 12.0), Seat.N, CALL, 0.1, on) is None


# -- skip bids -----------------------------------------------------------------------------

def bid(text: str) -> Call:
    return Call.parse(text)


@pytest.mark.parametrize(("previous", "call", "skip"), [
    ("1S", "3H", True), ("1S", "2H", False), ("1S", "2S", False), ("1S", "3S", True),
    ("1C", "1NT", False), ("1C", "2NT", True), ("1NT", "2C", False), ("1NT", "3C", True),
    ("1H", "4H", True), ("2D", "2NT", False), ("3NT", "4C", False), ("6S", "6NT", False), ("6S", "7NT", True),
    ("1S", "1H", False),  # insufficient: not a jump
])
def test_a_jump_over_the_previous_bid_is_a_skip_bid_law_73(previous: str, call: str, skip: bool) -> None:
    assert is_skip_bid(bid(previous).rank, bid(call), rubber_app2=False) is skip
    assert is_skip_bid(bid(previous).rank, bid(call), rubber_app2=True) is skip


def test_an_opening_two_bid_is_a_skip_bid_only_under_rubber_app2() -> None:
    assert not is_skip_bid(None, bid("2S"), rubber_app2=False)
    assert is_skip_bid(None, bid("2S"), rubber_app2=True)
    assert is_skip_bid(None, bid("3NT"), rubber_app2=True)
    assert not is_skip_bid(None, bid("1NT"), rubber_app2=True)


def test_passes_doubles_and_redoubles_are_never_skip_bids() -> None:
    for call in (PASS, DOUBLE, REDOUBLE):
        assert not is_skip_bid(None, call, True) and not is_skip_bid(0, call, True)


@given(st.sampled_from(ALL_BIDS), st.sampled_from(ALL_BIDS))
def test_a_skip_bid_is_higher_than_the_cheapest_bid_of_its_denomination(previous: Call, call: Call) -> None:
    sufficient = [b for b in ALL_BIDS if b.denomination is call.denomination and b.rank > previous.rank]
    expected = call in sufficient and call.level > sufficient[0].level
    assert is_skip_bid(previous.rank, call, rubber_app2=False) is expected


def test_skip_bid_after_reads_the_auctions_last_bid() -> None:
    assert is_skip_bid_after(Auction.of(Seat.N, "1D Pass"), bid("2S"), False)
    assert not is_skip_bid_after(Auction.of(Seat.N, "1D X"), bid("1S"), False)
    assert not is_skip_bid_after(Auction.of(Seat.N, "Pass"), bid("2H"), False)
    assert is_skip_bid_after(Auction.of(Seat.N, "Pass"), bid("2H"), True)


def test_skip_bid_wait_too_fast_is_flagged_rubber_app2() -> None:
    assert skip_bid_wait(True, 3.0, DEFAULT, seat=Seat.E) == (
        "E called 3 s after the skip bid (Stop card shown); about 10 s is expected, under 8 s is too fast")
    # with or without the Stop card, the next player should wait (D 73 ACBL note)
    assert skip_bid_wait(False, 7.5, DEFAULT) == ("the next player called 7.5 s after the skip bid"
                                                  " (no Stop card); about 10 s is expected,"
                                                  " under 8 s is too fast")


def test_a_wait_of_eight_seconds_or_more_is_respected_law_73() -> None:
    assert skip_bid_wait(True, 8.0, DEFAULT) is None
    assert skip_bid_wait(True, 120.0, DEFAULT) is None  # long waits: off by default


def test_a_conspicuously_long_skip_bid_wait_is_flagged_when_set_law_73() -> None:
    settings = TempoSettings(skip_bid_long_wait_s=30.0)
    assert skip_bid_wait(False, 30.0, settings) is None
    assert skip_bid_wait(False, 31.0, settings, seat=Seat.S) == (
        "S waited 31 s after the skip bid (no Stop card); about 10 s is expected")


# -- settings ------------------------------------------------------------------------------

def test_default_tempo_settings() -> None:
    s = TempoSettings()
    assert (s.factor, s.min_call_s, s.min_card_s, s.min_history) == (3.0, 10.0, 8.0, 4)
    assert (s.fallback_call_s, s.fallback_card_s, s.window) == (25.0, 20.0, 40)
    assert (s.skip_bid_wait_s, s.skip_bid_min_wait_s, s.skip_bid_long_wait_s) == (10.0, 8.0, None)
    assert not s.unusual_speed and not s.rubber_app2
    assert TempoSettings.from_settings({}) == s


def test_table_settings_override_the_tempo_defaults() -> None:
    s = TempoSettings.from_settings({
        "tempo_factor": 4, "tempo_min_call_s": 12.0, "tempo_min_card_s": 6, "tempo_min_history": 6,
        "tempo_fallback_call_s": 30, "tempo_fallback_card_s": 15.5, "tempo_window": 20,
        "tempo_unusual_speed": True, "tempo_speed_fraction": 0.1, "tempo_speed_min_median_s": 4,
        "skip_bid_wait_s": 12, "skip_bid_min_wait_s": 9, "skip_bid_long_wait_s": 40,
        "rubber_app2": True, "club_laws": True, "board_time_s": 420,  # not ours: ignored
    })
    assert s == TempoSettings(4, 12.0, 6, 6, 30, 15.5, 20, True, 0.1, 4, 12, 9, 40, True)
    assert set(SETTINGS_KEYS.values()) == set(TempoSettings.__dataclass_fields__)


def test_an_overridden_factor_changes_what_is_flagged_law_16() -> None:
    pace = pace_of(Seat.E, CALL, 6.0, 6.0, 6.0, 6.0)
    assert hesitation(pace, Seat.E, CALL, 20.0, DEFAULT) is not None
    assert hesitation(pace, Seat.E, CALL, 20.0, TempoSettings.from_settings({"tempo_factor": 4})) is None
    little = TempoSettings.from_settings({"tempo_min_history": 1})
    assert hesitation(pace_of(Seat.E, CALL, 2.0), Seat.E, CALL, 10.0, little) is not None


@pytest.mark.parametrize(("key", "value"), [
    ("tempo_factor", 0), ("tempo_factor", 0.5), ("tempo_factor", "3"), ("tempo_factor", True),
    ("tempo_factor", math.nan), ("tempo_min_call_s", -1), ("tempo_min_card_s", None),
    ("tempo_min_history", 0), ("tempo_min_history", 2.5), ("tempo_window", 3),
    ("tempo_fallback_call_s", 0), ("tempo_fallback_card_s", math.inf),
    ("tempo_unusual_speed", "yes"), ("tempo_speed_fraction", 1), ("tempo_speed_min_median_s", -2),
    ("skip_bid_wait_s", 0), ("skip_bid_min_wait_s", 11), ("skip_bid_long_wait_s", 10),
    ("skip_bid_long_wait_s", "long"), ("rubber_app2", 1),
])
def test_nonsense_tempo_settings_are_rejected_naming_the_key(key: str, value: object) -> None:
    with pytest.raises(ValueError, match=f"tempo setting {key} = "):
        TempoSettings.from_settings({key: value})
    with pytest.raises(TempoSettingsError):
        TempoSettings.from_settings({key: value})


def test_nonsense_fields_are_rejected_on_construction_too() -> None:
    with pytest.raises(TempoSettingsError, match="factor"):
        TempoSettings(factor=-1)


# -- PBN 2.1 time tables -------------------------------------------------------------------

def test_pbn_time_elements_are_minutes_and_seconds_or_hours_pbn_5_4() -> None:
    assert pbn_time(0) == "00:00"
    assert pbn_time(7.49) == "00:07" and pbn_time(7.5) == "00:08"
    assert pbn_time(59.5) == "01:00" and pbn_time(754) == "12:34"
    assert pbn_time(3599.4) == "59:59" and pbn_time(3600) == "01:00:00"
    assert pbn_time(42, hours=True) == "00:00:42" and pbn_time(90061) == "25:01:01"
    assert pbn_time(None) == "?"
    with pytest.raises(ValueError, match="invalid time"):
        pbn_time(-1)


def test_auction_time_table_has_a_row_per_call_token_pbn_5_4() -> None:
    assert auction_time_table(Seat.N, [4.2, 2.0, 61.0, 1.6, 0.4, 1.0]) == [
        '[AuctionTimeTable "Time"]',
        "00:04", "00:02", "01:01", "00:02", "00:00", "00:01",
    ]


def test_auction_time_table_with_total_time_since_the_start_of_the_board_pbn_5_4() -> None:
    assert auction_time_table(Seat.E, [4.0, None, 12.0], total_seconds=[34.0, None, 3661.0]) == [
        '[AuctionTimeTable "Time;TotalTime"]',
        "00:04 00:00:34",
        "? ?",
        "00:12 01:01:01",
    ]


def test_auction_time_table_of_an_auction_section_from_another_seat_than_the_dealer_pbn_3_5() -> None:
    # import format: [Auction "W"] with dealer S has "-" for W, N and E before the dealer's call
    assert auction_time_table(Seat.S, [5.0, 3.0], first=Seat.W) == [
        '[AuctionTimeTable "Time"]', "-", "-", "-", "00:05", "00:03"]
    assert auction_time_table(Seat.N, [5.0], first=Seat.W, total_seconds=[5.0]) == [
        '[AuctionTimeTable "Time;TotalTime"]', "- -", "00:05 00:00:05"]
    assert auction_time_table(Seat.N, [5.0], first=Seat.N) == ['[AuctionTimeTable "Time"]', "00:05"]


def test_no_calls_no_auction_time_table() -> None:
    assert auction_time_table(Seat.N, []) == []
    with pytest.raises(ValueError, match="2 total times for 1 calls"):
        auction_time_table(Seat.N, [1.0], total_seconds=[1.0, 2.0])


# PBN 2.1 §1.2, the standard's example game: West leads; North ruffs trick 1 and leads to
# trick 2, which the play section still writes from West's column.
EXAMPLE = """[Event "International Amsterdam Airport Schiphol Bridgetournament"]
[Site "Amsterdam, The Netherlands NLD"]
[Date "1995.06.10"]
[Board "1"]
[West "Podgor"]
[North "Westra"]
[East "Kalish"]
[South "Leufkens"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"]
[Scoring "IMP"]
[Declarer "S"]
[Contract "5HX"]
[Result "9"]
[Auction "N"]
1D      1S   3H 4S
4NT X    Pass   Pass
5C      X    5H     X
Pass    Pass Pass
[Play "W"]
SK H3 S4 S3
C5 C2 C6 CK
S2 H6 S5 S7
C8 CA CT C4
D2 DA DT D3
D4 DK H5 H7
-  -  -  H2
*
"""


def test_play_time_table_rows_follow_the_play_sections_seat_columns_pbn_5_8() -> None:
    played = [(Seat.W, 30.0), (Seat.N, 5.0), (Seat.E, 2.0), (Seat.S, 3.0),   # trick 1, W leads
              (Seat.N, 7.0), (Seat.E, 1.0), (Seat.S, 4.0), (Seat.W, 2.5)]    # trick 2, N leads
    assert play_time_table(Seat.W, played) == [
        '[PlayTimeTable "Time"]',
        "00:30", "00:05", "00:02", "00:03",
        "00:03", "00:07", "00:01", "00:04",
    ]


def test_play_time_table_marks_cards_not_played_before_a_claim_pbn_5_2() -> None:
    played = [(Seat.E, 10.0), (Seat.S, 2.0), (Seat.W, 3.0), (Seat.N, 4.0),
              (Seat.S, 5.0)]  # South leads to trick 2, then claims
    assert play_time_table(Seat.E, played, total_seconds=[100.0, 102.0, 105.0, 109.0, 114.0]) == [
        '[PlayTimeTable "Time;TotalTime"]',
        "00:10 00:01:40", "00:02 00:01:42", "00:03 00:01:45", "00:04 00:01:49",
        "- -", "00:05 00:01:54", "- -", "- -",
    ]


def test_play_time_table_rows_match_the_card_tokens_the_pbn_writer_writes_pbn_5_8() -> None:
    (record,) = pbn.loads(EXAMPLE)
    assert record.deal is not None and len(record.play) == 25
    # a card's think time here is its index in the order of play, to find it again
    played = []
    for i, card in enumerate(record.play):
        holder = record.deal.holder(card)
        assert holder is not None
        played.append((holder, float(i)))
    rows = play_time_table(Seat.W, played)[1:]
    text = pbn.dumps([record])
    tokens = " ".join(text[text.index('[Play "W"]'):].splitlines()[1:8]).split()
    assert len(tokens) == len(rows) == 28
    for token, row in zip(tokens, rows, strict=True):
        if token == "-":
            assert row == "-"
        else:
            index = int(row[3:])
            assert str(record.play[index]) == token


def test_no_cards_no_play_time_table_and_a_seat_plays_once_to_a_trick() -> None:
    assert play_time_table(Seat.N, []) == []
    with pytest.raises(ValueError, match="two cards by N in trick 1"):
        play_time_table(Seat.N, [(Seat.N, 1.0), (Seat.N, 2.0)])
    with pytest.raises(ValueError, match="1 total times for 2 cards"):
        play_time_table(Seat.N, [(Seat.N, 1.0), (Seat.E, 2.0)], total_seconds=[1.0])


def test_the_examples_in_the_docstrings_hold() -> None:
    result = doctest.testmod(tempo_module)
    assert result.failed == 0 and result.attempted >= 2


# -- the alert: unusual for that player at that point -----------------------------------------

def test_a_note_becomes_an_alert_only_when_unusual_for_the_player_law_16() -> None:
    """Laws 16, 73 (Duplicate Decisions; R 16A, Proprieties 2 in Laws of Rubber Bridge 2014): the alert
    measure is at least
    tempo_alert_factor (5) times the own median and tempo_alert_min_s (15 s), once his pace rests
    on tempo_alert_min_history (6) thinks; a shorter long think is a note only."""
    from controller.tempo import unusual_hesitation

    usual = pace_of(Seat.E, CALL, *([4.0] * 6))
    assert hesitation(usual, Seat.E, CALL, 14.0, DEFAULT) is not None       # a note (>= 3 x 4 s, >= 10 s)
    assert unusual_hesitation(usual, Seat.E, CALL, 14.0, DEFAULT) is None   # not an alert (< 5 x 4 s)
    assert unusual_hesitation(usual, Seat.E, CALL, 20.0, DEFAULT) is not None
    assert unusual_hesitation(pace_of(Seat.E, CALL, *([4.0] * 5)), Seat.E, CALL, 40.0, DEFAULT) is None
    quick = pace_of(Seat.E, CALL, *([1.0] * 6))
    assert unusual_hesitation(quick, Seat.E, CALL, 14.0, DEFAULT) is None   # under 15 s
    # a call right after a skip bid is judged on what went beyond the 10 s wait
    assert unusual_hesitation(usual, Seat.E, CALL, 29.0, DEFAULT, after_skip_bid=True) is None


def test_an_alert_needs_a_point_where_partner_could_be_told_something_law_16() -> None:
    """Law 16 (Duplicate Decisions): a hesitation matters when partner still has decisions to make. Choice: any
    call; in the play a defender's card from trick 2 on with a choice (not the opening lead or the
    first trick, where everybody thinks; not a forced card; not declarer's, whose partner is dummy)."""
    from controller.tempo import alert_point

    assert alert_point(CALL, None, False, DEFAULT)
    assert alert_point(CARD, 5, False, DEFAULT, choices=3)
    assert not alert_point(CARD, 1, False, DEFAULT)
    assert not alert_point(CARD, 5, True, DEFAULT)
    assert alert_point(CARD, 5, True, TempoSettings.from_settings({"tempo_alert_declarer": True}))
    assert not alert_point(CARD, 5, False, DEFAULT, choices=1)
    assert not alert_point(CARD, 13, False, DEFAULT)
    assert alert_point(CARD, 1, False, TempoSettings.from_settings({"tempo_alert_from_trick": 1}), choices=2)


def test_the_alert_measure_is_a_table_setting() -> None:
    s = TempoSettings.from_settings({"tempo_alert_factor": 4, "tempo_alert_min_s": 12, "tempo_alert_min_history": 3,
                                     "tempo_alert_from_trick": 3, "tempo_alert_declarer": True})
    assert (s.alert_factor, s.alert_min_s, s.alert_min_history, s.alert_from_trick, s.alert_declarer) == (
        4, 12, 3, 3, True)
    assert (DEFAULT.alert_factor, DEFAULT.alert_min_s, DEFAULT.alert_min_history, DEFAULT.alert_from_trick,
            DEFAULT.alert_declarer) == (5.0, 15.0, 6, 2, False)
    with pytest.raises(TempoSettingsError, match="tempo_alert_factor"):
        TempoSettings.from_settings({"tempo_alert_factor": 0.5})
