"""The LIN reader and writer: byte fixtures for each BBO quirk, round trips, the real corpus."""

from __future__ import annotations

import re
import time
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.auction import Auction
from controller.calls import PASS, Call
from controller.cards import DECK, Card
from controller.deal import Deal
from controller.play import Play
from controller.records import lin
from controller.records.model import BoardRecord, decode_text
from controller.seats import SEATS, Seat, Vulnerability
from tests.conftest import require_corpus

# Board 46 of the 2010 USBF semifinal (usbf_sf_14502.lin): East deals, hands S, W, N, E.
HANDS = "SJ5H9DAT862CQ8752,SKQT94HAK73DQ4C93,S872HQT5DJ97CAT64,SA63HJ8642DK53CKJ"
THREE_HANDS = "SJ5H9DAT862CQ8752,SKQT94HAK73DQ4C93,S872HQT5DJ97CAT64,"
DEAL_46 = Deal.parse("N:872.QT5.J97.AT64 A63.J8642.K53.KJ J5.9.AT862.Q8752 KQT94.AK73.Q4.93")

ROUND_TRIP_FIELDS = ("deal", "calls", "call_notes", "alerts", "play", "claim", "number",
                     "dealer", "vulnerability", "players", "room", "commentary")


def read(data: bytes, source: str = "fixture.lin") -> list[BoardRecord]:
    """The records of LIN bytes, decoded as :func:`lin.load` decodes a file."""
    return lin.loads(decode_text(data), source)


def one(data: bytes) -> BoardRecord:
    """The single record of LIN bytes."""
    records = read(data)
    assert len(records) == 1, records
    return records[0]


def calls(text: str) -> tuple[Call, ...]:
    """The calls of PBN tokens separated by spaces."""
    return tuple(Call.parse(t) for t in text.split())


def cards(text: str) -> tuple[Card, ...]:
    """The cards of PBN tokens separated by spaces."""
    return tuple(Card.parse(t) for t in text.split())


# ---------------------------------------------------------------------------- hand records


def test_hand_record_gives_deal_dealer_board_vulnerability_and_players_in_nesw_order() -> None:
    r = one(b"pn|south,west,north,east|st||md|4" + HANDS.encode() +
            b"|rh||ah|Board 46|sv|n|mb|1H|mb|p|mb|4H|mb|p|mb|p|mb|p|pg||")
    assert r.error is None and r.warnings == ()
    assert r.deal == DEAL_46
    assert r.dealer is Seat.E
    assert r.number == 46
    assert r.vulnerability is Vulnerability.NS
    assert r.players == ("north", "east", "south", "west")
    assert r.calls == calls("1H Pass 4H Pass Pass Pass")
    assert r.room is None
    assert r.tag("Board") == "46"


def test_single_hand_record_keeps_the_source_name() -> None:
    records = lin.loads("pn|a,b,c,d|st||md|4" + HANDS + "|ah|Board 1|", source="12345.lin")
    assert [r.source for r in records] == ["12345.lin"]


@pytest.mark.parametrize(("digit", "dealer"),
                         [("1", Seat.S), ("2", Seat.W), ("3", Seat.N), ("4", Seat.E)])
def test_first_digit_of_md_names_the_dealer_south_west_north_east(digit: str, dealer: Seat) -> None:
    assert one(f"md|{digit}{HANDS}|".encode()).dealer is dealer


def test_three_hands_with_trailing_comma_complete_the_deal() -> None:
    r = one(b"pn|a,b,c,d|st||md|4" + THREE_HANDS.encode() + b"|rh||ah|Board 46|sv|o|")
    assert r.deal == DEAL_46
    assert r.deal is not None and r.deal.is_complete


def test_hands_read_in_either_case_and_with_10_for_ten() -> None:
    lower = "sj5h9dA10862cq8752,skqt94hak73dq4c93,s872hq105dj97ca1064,"
    assert one(f"md|4{lower}|".encode()).deal == DEAL_46


def test_cards_read_lower_upper_case_and_10() -> None:
    r = one(f"md|4{HANDS}|mb|1H|mb|p|mb|4H|mb|p|mb|p|mb|p|pc|c2|pc|C3|pc|cA|pc|Cj|pc|d10|".encode())
    assert r.play == cards("C2 C3 CA CJ DT")


@pytest.mark.parametrize(("letter", "vul"), [
    ("o", Vulnerability.NONE), ("0", Vulnerability.NONE), ("-", Vulnerability.NONE),
    ("n", Vulnerability.NS), ("e", Vulnerability.EW), ("b", Vulnerability.BOTH),
    ("O", Vulnerability.NONE), ("B", Vulnerability.BOTH)])
def test_sv_letter_gives_vulnerability_and_sv_0_means_none_vulnerable(
        letter: str, vul: Vulnerability) -> None:
    assert one(f"md|4{HANDS}|sv|{letter}|".encode()).vulnerability is vul


def test_alert_suffix_on_any_call_marks_it_alerted() -> None:
    r = one(f"md|4{HANDS}|mb|1H!|mb|p!|mb|3C!|mb|p|mb|4H|mb|p|mb|p|mb|p|".encode())
    assert r.calls == calls("1H Pass 3C Pass 4H Pass Pass Pass")
    assert r.alerts == (0, 1, 2)
    assert r.call_notes == ()


def test_explanation_attaches_to_the_call_before_it_and_alerts_it() -> None:
    r = one(f"md|4{HANDS}|mb|1H|mb|p|mb|3C!|an|jacoby 2N|mb|p|mb|4H|an|to play |mb|p|".encode())
    assert r.call_notes == ((2, "jacoby 2N"), (4, "to play"))
    assert r.alerts == (2, 4)


def test_suit_escapes_in_explanations_become_suit_symbols() -> None:
    r = one(f"md|4{HANDS}|mb|1C|an|nat5+!C|mb|1S|an|+5!s z 17 pc|".encode())
    assert r.call_notes == ((0, "nat5+♣"), (1, "+5♠ z 17 pc"))
    assert r.play == ()


def test_claim_mid_trick_gives_declarer_total() -> None:
    r = one(f"md|4{HANDS}|mb|1H|mb|p|mb|4H|mb|p|mb|p|mb|p|"
            f"pc|c2|pc|c3|pc|cA|pc|cJ|pg||pc|dQ|mc|9|pg||".encode())
    assert r.play == cards("C2 C3 CA CJ DQ")
    assert r.claim == 9
    assert r.tag("Result") == "9"


def test_no_claim_leaves_claim_and_result_unset() -> None:
    r = one(f"md|4{HANDS}|mb|1H|mb|p|mb|4H|mb|p|mb|p|mb|p|pc|c2|".encode())
    assert r.claim is None and r.tag("Result") is None


def test_commentary_anywhere_is_kept_and_never_breaks_parsing() -> None:
    r = one(f"nt|hello all|pg||\nmd|4{HANDS}|nt|before the calls|mb|1H|nt|between calls|"
            f"mb|p|mb|4H|mb|p|mb|p|mb|p|pc|c2|nt|inside a trick|pc|c3|pc|cA|pc|cJ|"
            f"nt|5@Ss and 3@Hs\nover two lines|pg||".encode())
    assert r.calls == calls("1H Pass 4H Pass Pass Pass")
    assert r.play == cards("C2 C3 CA CJ")
    assert r.commentary == ("hello all", "before the calls", "between calls", "inside a trick",
                            "5♠s and 3♥s\nover two lines")


def test_newlines_only_separate_pairs() -> None:
    r = one(f"md|4{HANDS}|\nmb|1H|\r\nmb|p|\nmb|4H|mb|p|\nmb|p|mb|p|\npc|c2|\n".encode())
    assert r.calls == calls("1H Pass 4H Pass Pass Pass")
    assert r.play == cards("C2")


def test_keys_are_read_in_either_case() -> None:
    r = one(f"PN|a,b,c,d|MD|4{HANDS}|AH|Board 3|SV|E|MB|1H|Mb|P|PC|HA|MC|10|".encode())
    assert (r.number, r.vulnerability, r.calls, r.play, r.claim) == (
        3, Vulnerability.EW, calls("1H Pass"), cards("HA"), 10)
    assert r.players == ("c", "d", "a", "b")


def test_fifth_pass_after_the_auction_ended_is_dropped_with_a_warning() -> None:
    # 52118.lin c4: 1D p 3N p p p p
    r = one(f"md|3{HANDS}|mb|1D|mb|p|mb|3N|mb|p|mb|p|mb|p|mb|p|an|oops|pc|c2|".encode())
    assert r.calls == calls("1D Pass 3NT Pass Pass Pass")
    assert r.call_notes == ()
    assert r.error is None
    assert any("after the auction ended" in w for w in r.warnings)


def test_incomplete_auction_is_kept_with_a_warning() -> None:
    # 46742.lin boards 1-6: the operator stopped entering calls
    r = one(f"qx|o1|md|3{HANDS}|sv|o|mb|1D|mb|p|mb|1S|".encode())
    assert r.calls == calls("1D Pass 1S")
    assert r.error is None
    assert any("auction not complete" in w for w in r.warnings)


def test_deal_without_calls_has_no_auction() -> None:
    # 52435.lin boards 16-20 and 9 wronie boards: deal only
    r = one(f"pn|a,b,c,d|st||md|1{THREE_HANDS}|rh||ah|Board 3|sv|e|pg||".encode())
    assert r.calls is None and r.play == () and r.error is None


def test_passed_out_board_has_four_passes_and_no_warning() -> None:
    r = one(f"md|1{HANDS}|mb|p|mb|p|mb|p|mb|p|".encode())
    assert r.calls == (PASS,) * 4 and r.warnings == ()


# ---------------------------------------------------------------------------- broken input


def test_empty_md_gives_an_error_record_and_reading_goes_on() -> None:
    # 46992.lin boards 1-2: md|| and no deal at all
    records = read(f"vg|2003 Vanderbilt Final,Final,I,1,2,A,0,B,0|pn|a,b,c,d,e,f,g,h|"
                   f"qx|o1|st||md||sv|o|mb|p|mb|1S|pc|sA|"
                   f"qx|c1|st||md|3{HANDS}|sv|o|mb|p|".encode())
    assert len(records) == 2
    assert records[0].error is not None and "no deal" in records[0].error
    assert records[0].deal is None
    assert records[1].error is None and records[1].deal == DEAL_46


def test_table_without_md_is_an_error_record() -> None:
    (r,) = read(b"qx|o5|mb|1S|mb|p|")
    assert r.error == "no deal" and r.number == 5


def test_invalid_call_or_card_sets_error_naming_input_and_line() -> None:
    records = read(f"md|4{HANDS}|mb|1H|\nmb|8S|pc|ZZ|\nmd|4{HANDS}|mb|1H|".encode(), "x.lin")
    assert len(records) == 2
    assert records[0].error is not None
    assert "invalid call '8S' at line 2 of x.lin" in records[0].error
    assert "invalid card 'ZZ' at line 2 of x.lin" in records[0].error
    assert records[1].error is None and records[1].calls == calls("1H")


@pytest.mark.parametrize("hands", [
    "SAKQJT98765432H2,,,",                 # 14 cards
    "SA,SA,,",                             # a card twice
    "SAX,,,",                              # not a rank
    "AKQ,,,",                              # no suit letter
])
def test_impossible_deal_is_an_error_record(hands: str) -> None:
    r = one(f"md|1{hands}|mb|p|".encode())
    assert r.error is not None and "invalid" in r.error and r.deal is None


def test_partial_deal_is_kept_with_a_warning() -> None:
    r = one(b"md|1SAKQJHAKQ,,,|")
    assert r.deal is not None and r.deal.hands[Seat.S] is not None
    assert r.deal.hands[Seat.N] is None
    assert any("incomplete deal" in w for w in r.warnings)


def test_ah_or_qx_without_number_leaves_number_unset() -> None:
    assert one(f"md|1{HANDS}|ah||".encode()).number is None
    assert one(f"qx|o|md|1{HANDS}|".encode()).number is None


def test_empty_or_noise_text_gives_no_records() -> None:
    assert read(b"") == []
    assert read(b"pg||st||rh||nt|only chat|") == []


@given(st.text(max_size=200))
@settings(max_examples=150, deadline=None)
def test_any_text_loads_without_exception(text: str) -> None:
    assert isinstance(lin.loads(text), list)


_KEYS = ("pn", "md", "ah", "sv", "mb", "an", "pc", "mc", "qx", "nt", "vg", "rs", "pg", "st",
         "MD", "xx", "", "\n")
_VALUES = st.one_of(
    st.sampled_from(["", "1", "p", "p!", "1N", "7NT", "d", "r", "hA", "d10", "13", "14", "o12",
                     "c3", "Board 7", "0", "b", "S", "a,b,c,d,e,f,g,h", "3" + HANDS,
                     "4" + THREE_HANDS, "1SA,SA,,", "²", "٣", "!S", ",,,,,,"]),
    st.text(max_size=12).map(lambda s: s.replace("|", "")))


@given(st.lists(st.tuples(st.sampled_from(_KEYS), _VALUES), max_size=60))
@settings(max_examples=300, deadline=None)
def test_any_soup_of_lin_pairs_loads_without_exception(pairs: list[tuple[str, str]]) -> None:
    text = "".join(f"{k}|{v}|" for k, v in pairs)
    for r in lin.loads(text):
        assert r.error is not None or r.deal is not None


# ---------------------------------------------------------------------------- vugraph


VUGRAPH = (
    "vg|2010 USBF SF A,Segment 4 of 8,I,46,47,Nickell,80,Fleisher,99|\n"
    "rs|4HE=,4HE-1,,3NW+1|\n"
    "pn|S1,W1,N1,E1,S2,W2,N2,E2|pg||\n"
    "qx|o46|st||md|4" + HANDS + "|sv|0|mb|1H|mb|p|mb|4H|mb|p|mb|p|mb|p|pc|c2|mc|10|pg||\n"
    "nt|well played|pg||\n"
    "qx|c46|st||md|4" + THREE_HANDS + "|sv|o|mb|1H|mb|p|mb|4H|mb|p|mb|p|mb|p|mc|9|\n"
    "qx|c47,BOARD 47|st||md|1" + HANDS + "|sv|n|mb|p|mb|1D|mb|p|mb|1N|mb|p|mb|3N|"
    "mb|p|mb|p|mb|p|mc|10|\n"
)


def test_vugraph_tables_start_at_qx_with_room_and_board() -> None:
    records = read(VUGRAPH.encode(), "usbf.lin")
    assert [(r.number, r.room) for r in records] == [(46, "open"), (46, "closed"), (47, "closed")]
    assert [r.source for r in records] == [
        "usbf.lin board 46 open", "usbf.lin board 46 closed", "usbf.lin board 47 closed"]
    assert [r.claim for r in records] == [10, 9, 10]
    assert records[0].vulnerability is Vulnerability.NONE
    assert records[0].deal == records[1].deal == DEAL_46
    assert records[0].commentary == ("well played",)


def test_eight_names_give_open_room_first_four_and_closed_room_last_four() -> None:
    open_room, closed_room, _ = read(VUGRAPH.encode())
    assert open_room.players == ("N1", "E1", "S1", "W1")
    assert closed_room.players == ("N2", "E2", "S2", "W2")


def test_vugraph_header_and_results_become_tags() -> None:
    open46, closed46, closed47 = read(VUGRAPH.encode())
    assert open46.tag("Event") == "2010 USBF SF A"
    assert open46.tag("Room") == "Open" and closed46.tag("Room") == "Closed"
    assert open46.tag("Board") == "46"
    assert open46.tag("RecordedResult") == "4HE="
    assert closed46.tag("RecordedResult") == "4HE-1"
    assert closed47.tag("RecordedResult") == "3NW+1"
    assert closed46.tag("Result") == "9"


def test_names_given_again_apply_to_the_tables_after_them() -> None:
    text = (f"pn|a,b,c,d,e,f,g,h|qx|o1|md|1{HANDS}|mb|p|"
            f"pn|i,j,k,l,m,n,o,p|qx|c1|md|1{HANDS}|mb|p|")
    first, second = read(text.encode())
    assert first.players == ("c", "d", "a", "b")
    assert second.players == ("o", "p", "m", "n")


# ---------------------------------------------------------------------------- files


def test_load_reads_bytes_with_bom_and_cp1252(tmp_path: Path) -> None:
    path = tmp_path / "20784108.lin"
    path.write_bytes(b"\xef\xbb\xbfpn|J\xc3\xb3zef,b,c,d|md|4" + HANDS.encode() + b"|")
    (r,) = lin.load(path)
    assert r.source == "20784108.lin" and r.players[2] == "Józef"
    path.write_bytes(b"pn|J\xf3zef,b,c,d|md|4" + HANDS.encode() + b"|")
    assert lin.load(path)[0].players[2] == "Józef"


def test_dump_then_load_gives_the_records_back(tmp_path: Path) -> None:
    records = read(VUGRAPH.encode())
    path = tmp_path / "out.lin"
    lin.dump(records, path)
    assert_same_boards(records, lin.load(path))


def test_writer_gives_a_bbo_hand_record() -> None:
    r = one(f"pn|s,w,n,e|st||md|4{HANDS}|rh||ah|Board 46|sv|o|mb|1H|mb|p|mb|3C!|an|jacoby|"
            f"mb|p|mb|4H|mb|p|mb|p|mb|p|pc|c2|pc|c3|pc|cA|pc|cJ|pc|dQ|mc|9|".encode())
    assert lin.dumps([r]) == (
        "pn|s,w,n,e|st||md|4SJ5H9DAT862CQ8752,SKQT94HAK73DQ4C93,S872HQT5DJ97CAT64,"
        "SA63HJ8642DK53CKJ|rh||ah|Board 46|sv|o|mb|1H|mb|p|mb|3C!|an|jacoby|mb|p|mb|4H|"
        "mb|p|mb|p|mb|p|pg||pc|C2|pc|C3|pc|CA|pc|CJ|pg||pc|DQ|mc|9|pg||\n")


def test_writer_escapes_suit_symbols_and_drops_bars() -> None:
    r = BoardRecord("x", dealer=Seat.N, deal=DEAL_46, calls=calls("1C"),
                    call_notes=((0, "3+♣ | 11+"),), alerts=(0,), commentary=("5♠s",))
    text = lin.dumps([r])
    assert "an|3+!C / 11+|" in text and "nt|5@Ss|" in text


def assert_same_boards(expected: list[BoardRecord], got: list[BoardRecord]) -> None:
    """Fail unless the records agree on everything LIN can carry."""
    assert len(got) == len(expected)
    for a, b in zip(expected, got, strict=True):
        for name in ROUND_TRIP_FIELDS:
            assert getattr(a, name) == getattr(b, name), (a.source, name)


# ---------------------------------------------------------------------------- round trip


_NAMES = st.text("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789_~.", min_size=1, max_size=10)
_TEXT = st.text("abcdefghijklmnopqrstuvwxyz0123456789 +-=/;:()♠♥♦♣", min_size=1,
                max_size=20).map(str.strip).filter(bool)


@st.composite
def boards(draw: st.DrawFn) -> BoardRecord:
    """A random legal board: deal, auction by legal calls, play by legal cards, maybe a claim."""
    order = draw(st.permutations(DECK))
    deal = Deal.of({seat: order[13 * i:13 * i + 13] for i, seat in enumerate(SEATS)})
    dealer = draw(st.sampled_from(SEATS))
    auction = Auction(dealer)
    while not auction.is_complete:
        legal = auction.legal_calls()
        call = PASS if draw(st.booleans()) else draw(st.sampled_from(legal))
        auction = auction.with_call(call)
    made = auction.calls
    if draw(st.integers(0, 4)) == 0:
        made = made[:draw(st.integers(1, len(made)))]
    play: tuple[Card, ...] = ()
    claim = None
    contract = auction.contract()
    if contract is not None and len(made) == len(auction.calls):
        p = Play.start(contract.declarer, contract.denomination.trump, deal)
        for _ in range(draw(st.integers(0, 52))):
            p = p.with_card(draw(st.sampled_from(p.legal_cards())))
        play = p.played_cards()
        if len(play) < 52:
            claim = draw(st.none() | st.integers(0, 13))
    alerts = draw(st.sets(st.integers(0, len(made) - 1)))
    noted = draw(st.sets(st.sampled_from(sorted(alerts)))) if alerts else set()
    notes = tuple((i, draw(_TEXT)) for i in sorted(noted))
    players = draw(st.just(()) | st.tuples(_NAMES, _NAMES, _NAMES, _NAMES))
    return BoardRecord(
        source="random",
        number=draw(st.none() | st.integers(1, 128)),
        dealer=dealer,
        vulnerability=draw(st.none() | st.sampled_from(list(Vulnerability))),
        deal=deal,
        calls=made,
        call_notes=notes,
        alerts=tuple(sorted(alerts)),
        play=play,
        claim=claim,
        room=draw(st.sampled_from([None, "open", "closed"])),
        players=players,
        commentary=tuple(draw(st.lists(_TEXT, max_size=2))),
    )


@given(st.lists(boards(), min_size=1, max_size=3))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_writing_then_reading_gives_the_same_boards(records: list[BoardRecord]) -> None:
    got = lin.loads(lin.dumps(records))
    assert_same_boards(records, got)
    assert all(r.error is None for r in got)


# ---------------------------------------------------------------------------- corpus


def corpus_dir() -> Path:
    """The corpus of real records; skip (fail under CI) when it is not there."""
    return require_corpus()


@cache
def corpus_records(path: Path) -> dict[Path, list[BoardRecord]]:
    """The records of every .lin file under ``path``, by file."""
    return {f: lin.load(f) for f in sorted(path.rglob("*.lin"))}


def test_every_corpus_lin_file_loads_quickly_with_full_deals() -> None:
    root = corpus_dir()
    start = time.perf_counter()
    by_file = corpus_records(root)
    assert time.perf_counter() - start < 5
    assert len(by_file) >= 781
    for records in by_file.values():
        assert records
        for r in records:
            if r.deal is not None and r.deal.is_complete:
                assert all(h is not None and len(h) == 13 for h in r.deal.hands)
                assert len(frozenset().union(*(h for h in r.deal.hands if h))) == 52


def test_usbf_vugraph_gives_30_records_with_claims_on_all() -> None:
    records = lin.load(corpus_dir() / "bridgebots_tests" / "usbf_sf_14502.lin")
    assert len(records) == 30
    assert all(r.claim is not None for r in records)
    assert all(r.error is None and r.deal is not None and r.deal.is_complete for r in records)
    assert [r.number for r in records] == [n for n in range(46, 61) for _ in (0, 1)]
    assert [r.room for r in records] == ["open", "closed"] * 15
    assert records[0].players == ("Rodwell", "Weinstein", "Meckstroth", "Levin")
    assert records[1].players == ("Martel", "Mahmood", "Stansby", "Hamman")


_RS_RE = re.compile(r"^([1-7])([CDHSN])([NESW])(x{0,2})(=|[+-]\d+)$", re.IGNORECASE)


def test_usbf_auctions_and_claims_agree_with_the_rs_results() -> None:
    for r in lin.load(corpus_dir() / "bridgebots_tests" / "usbf_sf_14502.lin"):
        m = _RS_RE.match(r.tag("RecordedResult") or "")
        assert m is not None and r.dealer is not None and r.calls is not None, r.source
        contract = Auction.of(r.dealer, [str(c) for c in r.calls]).contract()
        assert contract is not None, r.source
        level, denom, declarer, doubled, result = m.groups()
        assert (contract.level, contract.denomination.name[0], contract.declarer.name,
                contract.doubled) == (int(level), denom.upper(), declarer.upper(), len(doubled))
        assert r.claim == contract.tricks_needed + (0 if result == "=" else int(result))


def test_wronie_lin_dir_gives_736_records() -> None:
    folder = (corpus_dir() / "pbntools_bbo_online" / "test_8_bbo_wronie_20130824"
              / "Wronie_9533_Pairs_2720_PRZYJACIELE_WRONIA")
    records = [r for f in sorted(folder.glob("*.lin")) for r in lin.load(f)]
    assert len(records) == 736
    assert sum(r.calls is None for r in records) == 9
    assert all(r.source.endswith(".lin") for r in records)


def test_bbo_hand_record_play_follows_the_deal_card_by_card() -> None:
    root = corpus_dir() / "pbntools_bbo_online"
    checked = 0
    for path, records in corpus_records(corpus_dir()).items():
        if root not in path.parents:
            continue
        for r in records:
            if r.dealer is None or r.calls is None or r.deal is None:
                continue
            contract = Auction.of(r.dealer, [str(c) for c in r.calls]).contract()
            if contract is None:
                continue
            play = Play.start(contract.declarer, contract.denomination.trump, r.deal)
            for card in r.play:
                assert card in play.legal_cards(), (r.source, card)
                play = play.with_card(card)
            checked += 1
    assert checked > 700


def test_corpus_lin_records_survive_writing_and_reading() -> None:
    for records in corpus_records(corpus_dir()).values():
        assert_same_boards(records, lin.loads(lin.dumps(records)))


def test_several_hand_records_in_one_text_split_at_each_deal() -> None:
    text = (f"pn|a,b,c,d|st||md|1{HANDS}|rh||ah|Board 1|sv|o|mb|p|mb|p|mb|p|mb|p|pg||\n"
            f"pn|e,f,g,h|st||md|2{THREE_HANDS}|rh||ah|Board 2|sv|n|mb|1S|\n"
            f"st||md|3{HANDS}|rh||ah|Board 3|sv|e|")
    records = lin.loads(text, "hands.lin")
    assert [(r.number, r.dealer, r.players[0]) for r in records] == [
        (1, Seat.S, "c"), (2, Seat.W, "g"), (3, Seat.N, "g")]
    assert [r.source for r in records] == [
        "hands.lin board 1", "hands.lin board 2", "hands.lin board 3"]


def test_card_after_the_claim_is_kept_with_a_warning() -> None:
    r = one(f"md|4{HANDS}|mb|1H|mb|p|mb|4H|mb|p|mb|p|mb|p|pc|c2|mc|10|pc|c3|".encode())
    assert r.play == cards("C2 C3") and r.claim == 10
    assert any("after the claim" in w for w in r.warnings)


def test_line_numbers_in_messages_count_newlines_inside_values() -> None:
    (r,) = read(f"md|4{HANDS}|nt|two\nlines|\nmb|9X|".encode(), "c.lin")
    assert r.error == "invalid call '9X' at line 3 of c.lin"
