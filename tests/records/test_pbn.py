"""The PBN 2.1 reader and writer: the quirks of real files, round trips, and the corpus."""

from __future__ import annotations

import random
import time
import tracemalloc
from pathlib import Path

import bridgebots
import pytest
from endplay.parsers import pbn as endplay_pbn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.auction import Auction
from controller.calls import ALL_BIDS, PASS, Call
from controller.cards import DECK, Card
from controller.deal import Deal
from controller.errors import RecordError
from controller.play import Play
from controller.records import pbn
from controller.records.model import BoardRecord
from controller.seats import SEATS, Seat, Vulnerability
from tests.conftest import CORPUS, require_corpus

DEAL = "N:AKQJ.T98.765.432 T987.AKQ.432.765 65432.765.AKQ.JT .J432.JT98.AKQ98"
"""A deal for the fixtures: the top spades North, hearts East, diamonds South, clubs West."""


def one(text: str) -> BoardRecord:
    """The only record of ``text``."""
    records = pbn.loads(text)
    assert len(records) == 1, records
    return records[0]


def calls(*tokens: str) -> tuple[Call, ...]:
    return tuple(Call.parse(t) for t in tokens)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def board(*lines: str, deal: str = DEAL, dealer: str = "N", extra: str = "") -> str:
    """A record with Board 1, the given dealer and deal, then ``lines``."""
    head = (f'[Event "Test"]\n[Board "1"]\n[Dealer "{dealer}"]\n[Vulnerable "None"]\n'
            f'[Deal "{deal}"]\n{extra}')
    return head + "\n".join(lines) + "\n"


# --- tags, records, comments -------------------------------------------------------


def test_board_dealer_vulnerability_deal_players_and_room_come_from_the_tags() -> None:
    r = one('[Event "E"]\n[Board "7"]\n[West "w"]\n[North "n"]\n[East "e"]\n[South "s"]\n'
            f'[Dealer "S"]\n[Vulnerable "All"]\n[Deal "{DEAL}"]\n[Room "Closed"]\n')
    assert (r.number, r.dealer, r.vulnerability) == (7, Seat.S, Vulnerability.BOTH)
    assert r.deal == Deal.parse(DEAL)
    assert r.players == ("n", "e", "s", "w")
    assert r.room == "closed"
    assert [name for name, _ in r.tags] == ["Event", "Board", "West", "North", "East", "South",
                                             "Dealer", "Vulnerable", "Deal", "Room"]
    assert r.error is None and r.warnings == ()
    assert r.calls is None and r.play == () and r.claim is None


@pytest.mark.parametrize(("text", "vulnerability"), [
    ("None", Vulnerability.NONE), ("Love", Vulnerability.NONE), ("NS", Vulnerability.NS),
    ("EW", Vulnerability.EW), ("All", Vulnerability.BOTH), ("Both", Vulnerability.BOTH)])
def test_vulnerable_accepts_none_love_ns_ew_all_both(text: str, vulnerability: Vulnerability
                                                     ) -> None:
    assert one(f'[Vulnerable "{text}"]\n').vulnerability is vulnerability


def test_a_hand_given_as_dash_is_unknown() -> None:
    r = one(board(deal="N:AKQJ.T98.765.432 - 65432.765.AKQ.JT .J432.JT98.AKQ98"))
    assert r.deal is not None and r.deal.hands[Seat.E] is None
    assert r.deal.hands[Seat.N] is not None


def test_blank_lines_separate_records_and_percent_lines_are_skipped() -> None:
    text = '% PBN 2.1\n% EXPORT\n[Board "1"]\n[Dealer "N"]\n\n\n%x\n[Board "2"]\n \t\n[Board "3"]\n'
    assert [r.number for r in pbn.loads(text)] == [1, 2, 3]


def test_a_second_board_tag_without_a_blank_line_starts_a_new_record() -> None:
    records = pbn.loads('[Board "1"]\n[Dealer "N"]\n[Board "2"]\n[Dealer "E"]\n')
    assert [(r.number, r.dealer) for r in records] == [(1, Seat.N), (2, Seat.E)]


def test_semicolon_comment_runs_to_the_end_of_the_line() -> None:
    r = one(board('[Auction "N"] ; the auction', "1NT Pass ; 2C", "Pass Pass"))
    assert r.calls == calls("1NT", "Pass", "Pass", "Pass")


def test_commentary_in_braces_spans_lines_and_is_kept() -> None:
    r = one(board("{first line", "", "second line}", '[Auction "N"]', "1NT AP"))
    assert r.commentary == ("first line\n\nsecond line",)
    assert r.calls == calls("1NT", "Pass", "Pass", "Pass")


def test_braces_do_not_nest_so_a_stray_closing_brace_does_not_derail_the_next_record() -> None:
    text = (board("{outer {inner} rest", "}", '[Auction "N"]', "1NT AP")
            + "\n" + board('[Auction "N"]', "Pass AP"))
    first, second = pbn.loads(text)
    assert first.commentary == ("outer {inner",)
    assert first.calls == calls("1NT", "Pass", "Pass", "Pass")
    assert any("stray" in w for w in first.warnings)
    assert second.calls == calls("Pass", "Pass", "Pass", "Pass") and second.error is None


def test_escaped_quote_and_backslash_in_a_tag_value() -> None:
    r = one(r'[Event "The \"Open\" \\ Teams"]' + "\n")
    assert r.tag("Event") == 'The "Open" \\ Teams'


def test_hash_tag_copies_previous_record_value() -> None:
    _, second = pbn.loads('[Event "Malta"]\n[Board "1"]\n\n[Event "#"]\n[Board "2"]\n')
    assert second.tag("Event") == "Malta"
    assert second.warnings == ()


def test_hash_tag_without_previous_value_is_dropped_with_a_warning() -> None:
    _, second = pbn.loads('[Event "A"]\n\n[Event "#"]\n[Section "#"]\n')
    assert second.tag("Section") is None
    assert second.tag("Event") == "A"
    assert any("Section" in w for w in second.warnings)


def test_rpbridge_record_without_deal_inherits_the_board_tags_of_the_previous_record() -> None:
    text = (board('[Declarer "S"]', '[Contract "1NT"]', '[Auction "N"]', "Pass Pass 1NT AP",
                  dealer="N")
            + '\n[West "x"]\n[Declarer "S"]\n[Contract "1NT"]\n[Auction "N"]\nPass Pass 1NT AP\n')
    first, second = pbn.loads(text)
    assert (second.number, second.dealer, second.vulnerability, second.deal) == (
        first.number, first.dealer, first.vulnerability, first.deal)
    assert second.tag("Event") == "Test"
    assert any("previous record" in w for w in second.warnings)


def test_record_without_deal_or_play_inherits_nothing() -> None:
    _, second = pbn.loads(board() + '\n[Event "Other"]\n[Board "2"]\n')
    assert second.deal is None and second.dealer is None


def test_source_names_the_file_the_record_and_its_line(tmp_path: Path) -> None:
    path = tmp_path / "match.pbn"
    path.write_bytes(b'% PBN\n[Board "1"]\n\n[Board "2"]\n')
    assert [r.source for r in pbn.load(path)] == ["match.pbn record 1 (line 2)",
                                                 "match.pbn record 2 (line 4)"]


def test_cp1252_file_is_decoded(tmp_path: Path) -> None:
    path = tmp_path / "acbl.pbn"
    path.write_bytes(b'[Event "Caf\xe9 Pairs"]\r\n[West "Jos\xe9"]\r\n[Board "1"]\r\n')
    r = pbn.load(path)[0]
    assert r.tag("Event") == "Café Pairs" and r.players == ("", "", "", "José")


def test_crlf_line_ends_are_read_as_line_ends() -> None:
    text = board('[Auction "N"]', "1NT Pass", "Pass Pass").replace("\n", "\r\n")
    text += "\r\n" + board().replace("\n", "\r\n")
    first, second = pbn.loads(text)
    assert first.calls == calls("1NT", "Pass", "Pass", "Pass")
    assert first.warnings == () and second.number == 1


def test_a_bad_record_gets_an_error_and_reading_goes_on() -> None:
    text = (board(deal="N:AKQJ.T98.765.432 AKQ.AKQ.432.765 - -") + "\n"
            + board('[Auction "N"]', "1C 8S") + "\n"
            + board('[Contract "1NT"]', '[Play "E"]', "SZ S2 S3 S4") + "\n"
            + board('[Auction "N"]', "1NT AP"))
    records = pbn.loads(text)
    assert [r.error is not None for r in records] == [True, True, True, False]
    assert "8S" in (records[1].error or "") and "SZ" in (records[2].error or "")
    assert records[3].calls == calls("1NT", "Pass", "Pass", "Pass")


@pytest.mark.parametrize("line", [
    '[Event "{}"]', '[Event "{}"] {{a comment}}', '[Event "{}"] [Site "Here"]',
], ids=["tag-line", "tag-and-commentary", "two-tags"])
@pytest.mark.parametrize("value", ["x" * 2_000_000, 'ab\\"' * 500_000], ids=["plain", "escapes"])
def test_an_overlong_tag_value_is_read_in_bounded_memory_and_is_an_error_of_its_record_only(
        line: str, value: str) -> None:
    text = (board('[Auction "N"]', "1NT AP") + "\n" + line.format(value) + "\n" + board()[15:] + "\n"
            + board('[Auction "N"]', "2C AP"))
    tracemalloc.start()
    try:
        records = pbn.loads(text, "big.pbn")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * len(text)  # was ~190 bytes a byte: 4.9 GB for a 30 MB tag
    first, big, last = records
    assert first.error is None and last.error is None and last.calls == calls("2C", "Pass", "Pass", "Pass")
    assert big.source == "big.pbn record 2 (line 9)" and big.number == 1
    assert big.error == (f"the [Event] tag at line 9 is {len(value):,} characters long, more than the "
                         f"{pbn.MAX_TAG_VALUE:,} a tag value may have; record not read")
    assert all(len(v) < 100 for _, v in big.tags)


@pytest.mark.parametrize("section", ['[Auction "N"]', '[Play "E"]'])
def test_a_long_section_token_is_read_in_bounded_memory(section: str) -> None:
    text = board(section, "1NT" + "$1=2=!" * 4000) + "\n" + board('[Auction "N"]', "2C AP")
    tracemalloc.start()
    try:
        first, second = pbn.loads(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * len(text)  # the annotations are found without backtracking (was ~170 bytes a byte)
    assert first.error is not None or first.calls == calls("1NT")
    assert second.calls == calls("2C", "Pass", "Pass", "Pass")


def test_a_tag_value_up_to_the_limit_is_read_whole() -> None:
    value = 'ab\\"' * (pbn.MAX_TAG_VALUE // 4)  # as long as may be, read as a quarter fewer characters
    record = one(f'[Event "{value}"]\n' + board()[15:])
    assert record.error is None and dict(record.tags)["Event"] == value.replace('\\"', '"')


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('[]{}"\\;%#^*-=!?$ \n\r\tSHDCNTXPA1234567Board')),
               max_size=300))
def test_loads_never_raises_for_any_text(text: str) -> None:
    for record in pbn.loads(text):
        pbn.dumps([record])


# --- the auction section -------------------------------------------------------------


def test_ap_ends_the_auction_with_passes() -> None:
    assert one(board('[Auction "N"]', "1C 1S 2H AP")).calls == calls(
        "1C", "1S", "2H", "Pass", "Pass", "Pass")


def test_calls_are_read_in_any_case() -> None:
    assert one(board('[Auction "N"]', "pass 1nt x xx ap")).calls == calls(
        "Pass", "1NT", "X", "XX", "Pass", "Pass", "Pass")


def test_note_reference_gives_the_preceding_call_the_note_text() -> None:
    r = one(board('[Auction "N"]', "1C =1= Pass 1NT =2= Pass", "Pass Pass",
                  '[Note "1: 11-13,17-19 or clubs"]', '[Note "2:9-11, no 4cM"]'))
    assert r.call_notes == ((0, "11-13,17-19 or clubs"), (2, "9-11, no 4cM"))
    assert r.tag("Note") == "2:9-11, no 4cM"


def test_note_without_its_note_tag_is_a_warning() -> None:
    r = one(board('[Auction "N"]', "1C 2NT =0= ! 3H AP"))
    assert r.call_notes == () and r.alerts == (1,)
    assert any("note 0" in w for w in r.warnings)


@pytest.mark.parametrize("auction", ["1H Pass 2C ! Pass", "1H Pass 2C! Pass", "1H Pass 2C !=1= Pass"])
def test_exclamation_mark_after_a_call_spaced_or_glued_is_an_alert(auction: str) -> None:
    r = one(board('[Auction "N"]', auction, "Pass Pass", '[Note "1:x"]'))
    assert r.calls == calls("1H", "Pass", "2C", "Pass", "Pass", "Pass")
    assert r.alerts == (2,)


def test_other_suffix_annotations_and_nags_are_dropped() -> None:
    r = one(board('[Auction "N"]', "1C? 1D !! 1H$4 $12 1S ?! AP"))
    assert r.calls == calls("1C", "1D", "1H", "1S", "Pass", "Pass", "Pass")
    assert r.alerts == () and r.warnings == ()


def test_star_and_dash_end_the_auction_where_the_record_stops() -> None:
    assert one(board('[Auction "N"]', "1C 1S *")).calls == calls("1C", "1S")
    r = one(board('[Auction "N"]', "1C 1S - 2H"))
    assert r.calls == calls("1C", "1S")
    assert any("2H" in w for w in r.warnings)


def test_commentary_inside_the_auction_is_commentary_not_calls() -> None:
    r = one(board('[Auction "N"]', "1C {natural} 1S", "{ Pass 2C }Pass AP"))
    assert r.calls == calls("1C", "1S", "Pass", "Pass", "Pass")
    assert r.commentary == ("natural", "Pass 2C")


def test_auction_commented_out_leaves_no_calls_and_a_warning() -> None:
    r = one(board('[Contract "1NT"]', '[Auction "W"]', "{ 1D Pass 1H Pass", "Pass Pass }",
                  '[Play "N"]', "S2 S5 SA S3", "*", dealer="W"))
    assert r.calls == ()
    assert r.warnings == ("the auction section holds no calls",)
    assert r.play == cards("S2 S5 SA S3")  # the trump suit comes from [Contract]


def test_irregularity_mark_on_a_call_is_a_warning() -> None:
    r = one(board('[Auction "N"]', "1S ^I 1H 2H AP"))
    assert r.calls == calls("1S", "1H", "2H", "Pass", "Pass", "Pass")
    assert any("^I" in w and "call 2" in w for w in r.warnings)


def test_auction_from_another_seat_than_the_dealer_is_kept_as_written_with_a_warning() -> None:
    r = one(board('[Auction "E"]', "1C AP", dealer="N"))
    assert r.dealer is Seat.N
    assert r.calls == calls("1C", "Pass", "Pass", "Pass")
    assert any("not from the dealer" in w for w in r.warnings)


def test_dropped_leading_passes_are_put_back_when_the_declarer_says_so() -> None:
    # shared_deals.pbn (rpbridge.net): dealer S, declarer W, the opening pass left out
    r = one(board('[Declarer "W"]', '[Contract "6N"]', '[Auction "S"]',
                  "1C 1H X 2H", "3C Pass 3H Pass", "3NT Pass 4C Pass", "4H Pass 4S X",
                  "5C Pass 6NT AP", dealer="S"))
    assert r.calls is not None and r.calls[:2] == calls("Pass", "1C")
    contract = Auction.of(Seat.S, [str(c) for c in r.calls]).contract()
    assert contract is not None and contract.declarer is Seat.W
    assert any("1 leading pass" in w for w in r.warnings)


@pytest.mark.parametrize("declarer", ["N", "^S"])
def test_leading_passes_are_not_added_when_the_declarer_agrees_or_is_marked(declarer: str
                                                                             ) -> None:
    r = one(board(f'[Declarer "{declarer}"]', '[Auction "N"]', "1NT AP"))
    assert r.calls == calls("1NT", "Pass", "Pass", "Pass")


def test_no_auction_section_means_no_calls() -> None:
    assert one(board('[Contract "4S"]', '[Declarer "N"]')).calls is None


def test_notes_on_their_own_lines_after_the_section_belong_to_it() -> None:
    r = one(board('[Auction "N"]', "1C =1= Pass", '[Note "1:auction note"]', "1D =2= AP",
                  '[Note "2:second"]', '[Play "E"]', "S2 =1= S3 S4 SA", '[Note "1:play note"]',
                  "*"))
    assert r.call_notes == ((0, "auction note"), (2, "second"))
    assert r.calls == calls("1C", "Pass", "1D", "Pass", "Pass", "Pass")
    assert r.play == cards("S2 S3 S4 SA")


@given(st.randoms(use_true_random=False), st.sampled_from(SEATS), st.integers(1, 3))
def test_leading_passes_move_the_declarer_as_many_seats(rnd: random.Random, dealer: Seat,
                                                        k: int) -> None:
    auction = Auction(dealer).with_call(rnd.choice(ALL_BIDS))
    while not auction.is_complete:
        auction = auction.with_call(PASS if rnd.random() < 0.5 else rnd.choice(
            auction.legal_calls()))
    shifted = Auction(dealer)
    for call in (PASS,) * k + auction.calls:
        shifted = shifted.with_call(call)
    before, after = auction.contract(), shifted.contract()
    assert before is not None and after is not None
    assert (after.level, after.denomination, after.doubled) == (
        before.level, before.denomination, before.doubled)
    assert after.declarer is before.declarer.offset(k)


# --- the play section ----------------------------------------------------------------

# 4H by South, West leads. Columns are W N E S. Trick 1: W S2, N SA wins. Trick 2, N leads
# D2: S wins with DA. Trick 3, S leads C2: E ruffs with H2. Trick 4, E leads H9, then a claim.
PLAY_ROWS = ("S2 SA S3 S4", "D3 D2 D4 DA", "C5 C6 H2 C2", "-  H3 H9 -")
PLAYED = "S2 SA S3 S4 D2 D4 DA D3 C2 C5 C6 H2 H9"


def test_play_rows_are_put_in_played_order_by_trick_winners_and_trumps() -> None:
    r = one(board('[Declarer "S"]', '[Contract "4H"]', '[Result "10"]', '[Auction "N"]',
                  "Pass Pass 4H AP", '[Play "W"]', *PLAY_ROWS, "*"))
    assert r.play == cards(PLAYED)
    assert r.claim == 10
    assert any("after a gap" in w for w in r.warnings)  # H3 was shown but not in turn


def test_play_trump_comes_from_the_contract_tag_without_an_auction() -> None:
    r = one(board('[Declarer "S"]', '[Contract "4H"]', '[Play "W"]', *PLAY_ROWS))
    assert r.play == cards(PLAYED) and r.calls is None


def test_play_in_notrump_lets_a_discard_lose() -> None:
    r = one(board('[Contract "3NT"]', '[Declarer "S"]', '[Play "W"]', *PLAY_ROWS))
    # trick 3 is won by C6 (North), who leads H3 to trick 4
    assert r.play == cards("S2 SA S3 S4 D2 D4 DA D3 C2 C5 C6 H2 H3 H9")


def test_play_tokens_ten_lower_case_double_dash_and_annotations() -> None:
    r = one(board('[Contract "1NT"]', '[Declarer "S"]', '[Play "W"]',
                  "s10 SA! S3 $1 S4 {a comment}", "D3 =1= D2? -- DA", "*"))
    assert r.play == cards("ST SA S3 S4 D2")
    assert r.commentary == ("a comment",)


def test_padding_rows_of_dashes_without_star_end_the_play() -> None:
    r = one(board('[Contract "1NT"]', '[Declarer "S"]', '[Result "7"]', '[Play "W"]',
                  "S2 SA S3 S4", "- - - -", "- - - -"))
    assert r.play == cards("S2 SA S3 S4") and r.claim == 7
    assert r.warnings == ()


@pytest.mark.parametrize("row", ["HK HA ^R D4 H4", "HK HA ^RD4 H4"])
def test_revoke_mark_before_a_card_is_recorded_at_its_played_index(row: str) -> None:
    # Columns W N E S; West leads HK, North wins with HA and leads to trick 2.
    r = one(board('[Contract "2S"]', '[Declarer "S"]', '[Play "W"]', row, "S4 S2 ^L S3 SA",
                  "*"))
    assert r.play == cards("HK HA D4 H4 S2 S3 SA S4")
    assert r.marks == ((2, "R"), (5, "L"))


def test_result_after_the_play_section_is_the_claim() -> None:
    r = one(board('[Contract "1NT"]', '[Declarer "S"]', '[Play "W"]', "S2 SA S3 S4", "*",
                  '[Result "9"]'))
    assert r.claim == 9


def test_complete_play_has_no_claim_even_with_a_result() -> None:
    text = board('[Contract "1NT"]', '[Declarer "S"]', '[Result "^7"]',
                 '[Auction "N"]', "Pass Pass 1NT AP", '[Play "W"]', *_complete_play_rows())
    r = one(text)
    assert len(r.play) == 52 and r.claim is None
    assert any("irregular result" in w for w in r.warnings)


def _complete_play_rows() -> list[str]:
    """Thirteen rows of a legal play of DEAL in 1NT by South (West leads)."""
    deal = Deal.parse(DEAL)
    play = Play.start(Seat.S, None, deal)
    rows: list[list[str]] = []
    while not play.is_complete:
        leader = play.current.leader
        row = ["-"] * 4
        for k in range(4):
            card = play.legal_cards()[0]
            row[(leader + k - Seat.W) & 3] = str(card)
            play = play.with_card(card)
        rows.append(row)
    return [" ".join(row) for row in rows]


def test_caret_result_is_the_claim_with_a_warning() -> None:
    r = one(board('[Contract "1NT"]', '[Declarer "S"]', '[Result "^13"]', '[Play "W"]',
                  "S2 SA S3 S4", "*"))
    assert r.claim == 13
    assert any("'^13'" in w for w in r.warnings)


@pytest.mark.parametrize(("result", "claim"), [("NS 9", 9), ("EW 3", 10), ("ten", None)])
def test_side_results_are_turned_into_declarer_tricks_and_others_warned(result: str,
                                                                        claim: int | None
                                                                        ) -> None:
    r = one(board('[Contract "1NT"]', '[Declarer "S"]', f'[Result "{result}"]'))
    assert r.claim == claim
    assert (claim is None) == any("not understood" in w for w in r.warnings)


def test_unplayed_table_is_a_record_without_calls_or_claim() -> None:
    # RealBridge: players "Dummy n#", Contract "Pass", no auction, empty result
    r = one(board('[North "Dummy 2#"]', '[South "Dummy 1#"]', '[Declarer ""]',
                  '[Contract "Pass"]', '[Result ""]'))
    assert r.calls is None and r.claim is None and r.play == () and r.error is None
    assert r.players == ("Dummy 2#", "", "Dummy 1#", "")


def test_passed_out_board_has_no_claim() -> None:
    r = one(board('[Contract "Pass"]', '[Result "0"]', '[Auction "N"]', "Pass Pass Pass Pass"))
    assert r.calls == (PASS,) * 4 and r.claim is None


# --- the writer ----------------------------------------------------------------------


def test_dumps_writes_the_export_header_and_the_mandatory_tags_in_order() -> None:
    r = BoardRecord(source="x", number=3, dealer=Seat.S, vulnerability=Vulnerability.EW,
                    deal=Deal.parse(DEAL), tags=(("HomeTeam", "A"), ("Event", "Cup")))
    lines = pbn.dumps([r]).splitlines()
    assert lines[:2] == ["% PBN 2.1", "% EXPORT"]
    assert lines[-1] == ""  # the record's closing empty line
    assert [line.split()[0][1:] for line in lines[2:-1]] == [
        "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
        "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result", "HomeTeam"]
    assert '[Event "Cup"]' in lines and '[Board "3"]' in lines and '[Dealer "S"]' in lines
    assert '[Vulnerable "EW"]' in lines
    assert f'[Deal "{Deal.parse(DEAL).pbn(Seat.S)}"]' in lines


def test_dumps_cannot_write_a_lone_hash_value_and_writes_it_empty() -> None:
    # '#' would be read back as a copy of the previous record's tag
    text = pbn.dumps([BoardRecord(source="x", tags=(("Stage", "#"),), players=("#", "", "", ""))])
    assert '[Stage ""]' in text and '[North ""]' in text and "#" not in text


def test_dumps_writes_four_calls_a_line_with_alerts_and_notes() -> None:
    """An alert is a note that reads ``Alert``, not ``1C!`` (PBN 2.1 §3.7: ``!`` grades a call)."""
    r = BoardRecord(source="x", number=1, dealer=Seat.N, calls=calls(
        "1C", "Pass", "1NT", "Pass", "Pass", "Pass"), call_notes=((2, 'says "12-14"'),),
        alerts=(0,))
    text = pbn.dumps([r])
    assert ('[Auction "N"]\n1C =1= Pass 1NT =2= Pass\nPass Pass\n[Note "1:Alert"]\n'
            '[Note "2:says \\"12-14\\""]\n') in text
    assert "!" not in text
    assert '[Contract "1NT"]' in text and '[Declarer "S"]' in text
    back = pbn.loads(text)[0]
    assert back.alerts == (0,) and back.call_notes == ((2, 'says "12-14"'),)


def test_an_alerted_call_and_the_last_record_read_back_with_endplay_and_bridgebots(tmp_path: Path) -> None:
    """The alert as a note and the closing empty line (PBN 2.1 §2.1) read by two other programs."""
    r = BoardRecord(source="x", number=1, dealer=Seat.N, deal=Deal.parse(DEAL), calls=calls(
        "1C", "X", "XX", "Pass", "Pass", "Pass"), alerts=(0, 2), claim=7)
    path = tmp_path / "alert.pbn"
    pbn.dump([r, r], path)
    boards = endplay_pbn.load(path.open(encoding="utf-8"))
    assert len(boards) == 2
    assert [b.alertable for b in boards[1].auction] == [True, False, True, False, False, False]
    deal = bridgebots.parse_pbn(path)[0]
    assert len(deal.board_records) == 2  # the last record, closed by its empty line, is read too
    assert deal.board_records[1].bidding_record == ["1C", "X", "XX", "PASS", "PASS", "PASS"]


def test_dumps_writes_tricks_in_seat_columns_from_the_leader_with_marks_dashes_and_star() -> None:
    r = BoardRecord(source="x", number=1, dealer=Seat.N, deal=Deal.parse(DEAL),
                    calls=calls("Pass", "Pass", "4H", "Pass", "Pass", "Pass"),
                    play=cards(PLAYED), marks=((12, "R"),), claim=10)
    text = pbn.dumps([r])
    assert ('[Play "W"]\nS2 SA S3 S4\nD3 D2 D4 DA\nC5 C6 H2 C2\n- - ^R H9 -\n*\n') in text
    assert '[Result "10"]' in text
    again = one(text)
    assert (again.play, again.marks, again.claim) == (r.play, r.marks, r.claim)


def test_dumps_refuses_cards_played_without_a_contract_to_order_the_tricks() -> None:
    r = BoardRecord(source="x.lin board 3", dealer=Seat.N, calls=calls("1C"),
                    play=cards("S2 SA"))
    with pytest.raises(RecordError, match=r"x\.lin board 3"):
        pbn.dumps([r])


def test_dump_then_load_gives_the_same_records(tmp_path: Path) -> None:
    records = pbn.loads(board('[Declarer "S"]', '[Contract "4H"]', '[Result "10"]',
                              '[Auction "N"]', "Pass Pass 4H AP", '[Play "W"]', *PLAY_ROWS))
    path = tmp_path / "out.pbn"
    pbn.dump(records, path)
    back = pbn.load(path)
    assert [_fields(r) for r in back] == [_fields(r) for r in records]


def _fields(r: BoardRecord) -> tuple[object, ...]:
    """Everything a record says, without where it came from and what the reader noticed."""
    return (r.number, r.dealer, r.vulnerability, r.deal, r.calls, r.call_notes, r.alerts,
            r.play, r.claim, r.marks, r.room, r.players, r.commentary, r.error)


_TEXT = st.text(alphabet=st.sampled_from(list('abcXYZ 019"\\\'%;#[]!?=-*^')), max_size=12)


@st.composite
def legal_boards(draw: st.DrawFn) -> BoardRecord:
    """A random board: a deal, a legal auction (maybe unfinished) and a legal play (maybe cut)."""
    rnd = draw(st.randoms(use_true_random=False))
    deck = list(DECK)
    rnd.shuffle(deck)
    deal = Deal((frozenset(deck[0:13]), frozenset(deck[13:26]), frozenset(deck[26:39]),
                 frozenset(deck[39:52])))
    dealer = draw(st.sampled_from(SEATS))
    auction = Auction(dealer)
    while not auction.is_complete and rnd.random() > 0.02:
        legal = auction.legal_calls()
        auction = auction.with_call(PASS if rnd.random() < 0.6 else rnd.choice(legal))
    contract = auction.contract()
    play: tuple[Card, ...] = ()
    claim = None
    if contract is not None:
        state = Play.start(contract.declarer, contract.denomination.trump, deal)
        for _ in range(draw(st.sampled_from([0, 1, 7, 26, 38, 51, 52, 52]))):
            state = state.with_card(rnd.choice(state.legal_cards()))
        play = state.played_cards()
        if len(play) < 52:
            claim = draw(st.none() | st.integers(0, 13))
    n_calls = len(auction.calls)
    alerts: tuple[int, ...] = ()
    notes: tuple[tuple[int, str], ...] = ()
    if n_calls:
        alerts = tuple(sorted({rnd.randrange(n_calls) for _ in range(rnd.randrange(3))}))
        notes = tuple(sorted(((rnd.randrange(n_calls), draw(_TEXT).strip())
                              for _ in range(rnd.randrange(3))), key=lambda n: n[0]))
    marks = tuple(sorted({(rnd.randrange(len(play)), rnd.choice("RLS"))
                          for _ in range(rnd.randrange(2))})) if play else ()
    marks = tuple(dict(marks).items())
    names = draw(st.none() | st.tuples(_TEXT, _TEXT, _TEXT, _TEXT))
    players = names if names is not None and any(names) and "#" not in names else ()
    tags = tuple((name, value) for name, value in (
        ("Event", draw(_TEXT)), ("Stage", draw(_TEXT)), ("HomeTeam", draw(_TEXT)))
        if value != "#")
    return BoardRecord(
        source="generated", number=draw(st.integers(1, 64)), dealer=dealer,
        vulnerability=draw(st.sampled_from(list(Vulnerability))), deal=deal,
        calls=auction.calls, call_notes=notes, alerts=alerts, play=play, claim=claim,
        marks=marks, tags=tags, room=draw(st.sampled_from([None, "open", "closed"])),
        players=players, commentary=tuple(t.replace("}", "").strip() for t in draw(
            st.lists(_TEXT, max_size=2))))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_boards())
def test_writing_then_reading_a_random_legal_board_gives_it_back(record: BoardRecord) -> None:
    text = pbn.dumps([record])
    back = one(text)
    assert _fields(back) == _fields(record)
    assert back.warnings == ()
    for name, value in record.tags:
        assert back.tag(name) == value
    assert pbn.dumps([back]) == text


# --- the corpus ----------------------------------------------------------------------



@pytest.fixture(scope="module")
def pbn_corpus() -> dict[Path, list[BoardRecord]]:
    """Every PBN file of the corpus, read; missing is a skip, or a failure under CI."""
    require_corpus()
    start = time.perf_counter()
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix.lower() == ".pbn")
    read = {path: pbn.load(path) for path in files}
    elapsed = time.perf_counter() - start
    total = sum(len(records) for records in read.values())
    print(f"\n{len(files)} PBN files, {total} records in {elapsed:.2f} s "
          f"({total / elapsed:.0f} records/s)")
    return read


def test_corpus_every_pbn_file_loads_with_records_and_no_errors(
        pbn_corpus: dict[Path, list[BoardRecord]]) -> None:
    assert pbn_corpus
    for path, records in pbn_corpus.items():
        assert records, path
        assert [r.source for r in records if r.error] == [], path
    by_group: dict[str, int] = {}
    for path, records in pbn_corpus.items():
        group = path.relative_to(CORPUS).parts[0]
        by_group[group] = by_group.get(group, 0) + len(records)
    # the record counts the corpus's notes give for each source
    assert by_group.get("cs221_ebl_pbn") == 2160
    assert by_group.get("endplay_tests") == 7933


def test_corpus_ebl_files_hold_the_15_revoke_marks(
        pbn_corpus: dict[Path, list[BoardRecord]]) -> None:
    revokes = [(r.source, r.play[index]) for path, records in pbn_corpus.items()
               if "cs221_ebl_pbn" in path.parts for r in records
               for index, letter in r.marks if letter == "R"]
    assert len(revokes) == 15, revokes


def test_corpus_auctions_are_legal_and_agree_with_the_recorded_declarer(
        pbn_corpus: dict[Path, list[BoardRecord]]) -> None:
    illegal: list[str] = []
    disagree: list[str] = []
    for records in pbn_corpus.values():
        for r in records:
            if r.calls is None:
                continue
            auction = Auction(r.dealer or Seat.N)
            legal = True
            for call in r.calls:
                legal = legal and auction.is_legal(call)
                auction = auction.with_call(call)
            if not legal:
                illegal.append(r.source)
            contract = auction.contract()
            declarer = (r.tag("Declarer") or "").strip()
            if contract is not None and declarer in ("N", "E", "S", "W") and (
                    str(contract.declarer) != declarer):
                disagree.append(r.source)
    print(f"\n{len(illegal)} illegal auctions, {len(disagree)} declarers disagree")
    assert len(illegal) <= 3, illegal
    assert disagree == []


def test_corpus_records_survive_writing_and_reading_back(
        pbn_corpus: dict[Path, list[BoardRecord]]) -> None:
    for path, records in pbn_corpus.items():
        sample = records[:1500]  # example3.pbn alone has 7,632
        back = pbn.loads(pbn.dumps(sample))
        assert [_fields(r) for r in back] == [_fields(r) for r in sample], path
        for r, b in zip(sample, back, strict=True):
            for name, _ in r.tags:
                if name != "Note":
                    assert b.tag(name) == r.tag(name), (r.source, name)
