"""The results files carry what each table played and who played, read back by other readers:
USEBIO 1.2 by lxml (libxml2) against the elements the EBU's programs write, PBN score tables by
endplay; a two-winner Mitchell tells its two winners apart (USEBIO ``WINNER_TYPE``/``DIRECTION``)."""

from __future__ import annotations

import datetime

from endplay.parsers import pbn as endplay_pbn
from lxml import etree

from controller.cards import Card
from controller.contract import Contract
from controller.deal import Deal
from controller.fieldscore import Event, Result, Scoring, score_event
from controller.records import scoretable, usebio
from controller.records.people import PairPlayers, Player
from controller.records.played import TablePlay, play_key
from controller.seats import Seat

DEAL = "N:AKQJ.AKQ.AKQ.432 T98.JT9.JT9.AKQJ 765.876.8765.T98 432.5432.432.765"

# A one-section Mitchell, NS pairs 1-3 and EW pairs 4-6: each direction has its own winner.
MITCHELL = Event("Tuesday Pairs", Scoring.MP, (
    Result("1", "1", "4", score=420), Result("1", "2", "5", score=450), Result("1", "3", "6", score=-50),
    Result("2", "1", "5", score=110), Result("2", "2", "6", score=140), Result("2", "3", "4", score=-100),
))
PLAYS = {
    play_key(None, "1", "1", "4"): TablePlay(Contract.parse("4S", Seat.N), 10, Card.parse("HQ")),
    play_key(None, "1", "2", "5"): TablePlay(Contract.parse("4S", Seat.S), 11, Card.parse("DJ")),
    play_key(None, "1", "3", "6"): TablePlay(Contract.parse("4SX", Seat.N), 9, None),
    play_key(None, "2", "1", "5"): TablePlay(Contract.parse("2H", Seat.N), 8, Card.parse("ST")),
    play_key(None, "2", "2", "6"): TablePlay(Contract.parse("3NT", Seat.S), 9, Card.parse("C2")),
    play_key(None, "2", "3", "4"): TablePlay(Contract.parse("3D", Seat.E), 9, Card.parse("HA")),
}


class Named:
    """A roll naming pair 1 (two members with federation numbers) and no one else."""

    def players(self, section: str | None, pair: str, round_: int | None = None) -> PairPlayers | None:
        if pair == "1":
            return PairPlayers(Player("Ann North", "509864"), Player("Bob South", "509863"))
        return None


def _usebio() -> etree._Element:
    score = score_event(MITCHELL)
    assert score.by_direction
    about = usebio.Particulars(club="Crawley BC", club_id="201789", date=datetime.date(2026, 11, 24),
                               version="1.2.3", roll=Named(), plays=PLAYS)
    text = usebio.dumps([score], about=about)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    return etree.fromstring(text.encode("utf-8"), parser)


def test_usebio_traveller_lines_carry_contract_declarer_lead_and_tricks() -> None:
    root = _usebio()
    lines = root.findall("EVENT/BOARD/TRAVELLER_LINE")
    assert len(lines) == 6
    first = lines[0]
    # in the order the EBU's programs write them: pairs, contract, declarer, lead, tricks, score
    assert [c.tag for c in first] == ["NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "CONTRACT", "PLAYED_BY", "LEAD",
                                      "TRICKS", "SCORE", "NS_MATCH_POINTS", "EW_MATCH_POINTS"]
    got = {(line.findtext("NS_PAIR_NUMBER"), line.getparent().findtext("BOARD_NUMBER")):
           (line.findtext("CONTRACT"), line.findtext("PLAYED_BY"), line.findtext("LEAD"), line.findtext("TRICKS"))
           for line in lines}
    assert got[("1", "1")] == ("4S", "N", "QH", "10")
    assert got[("3", "1")] == ("4Sx", "N", None, "9")
    assert got[("2", "2")] == ("3NT", "S", "2C", "9")
    assert got[("3", "2")] == ("3D", "E", "AH", "9")


def test_usebio_two_winner_mitchell_says_each_winners_direction() -> None:
    root = _usebio()
    event = root.find("EVENT")
    assert event is not None and event.findtext("WINNER_TYPE") == "2"
    winners = [(p.findtext("DIRECTION"), p.findtext("PAIR_NUMBER")) for p in event.iter("PAIR")
               if p.findtext("PLACE") == "1"]
    assert sorted(winners) == [("EW", "4"), ("NS", "2")]  # both at PLACE 1, told apart by DIRECTION
    assert {p.findtext("DIRECTION") for p in event.iter("PAIR")} == {"NS", "EW"}


def test_usebio_names_the_club_the_day_the_program_and_the_players() -> None:
    root = _usebio()
    assert root.tag == "USEBIO" and root.get("Version") == "1.2"
    assert (root.findtext("CLUB/CLUB_NAME"), root.findtext("CLUB/CLUB_ID_NUMBER")) == ("Crawley BC", "201789")
    event = root.find("EVENT")
    assert event is not None
    assert (event.findtext("PROGRAM_NAME"), event.findtext("PROGRAM_VERSION"), event.findtext("DATE")) == \
        ("tablectl", "1.2.3", "24/11/2026")
    pairs = {p.findtext("PAIR_NUMBER"): p for p in event.iter("PAIR")}
    assert [(pl.findtext("PLAYER_NAME"), pl.findtext("NATIONAL_ID_NUMBER")) for pl in pairs["1"].iter("PLAYER")] \
        == [("Ann North", "509864"), ("Bob South", "509863")]
    assert [pl.findtext("PLAYER_NAME") for pl in pairs["4"].iter("PLAYER")] == ["Unknown", "Unknown"]
    # what this project reads back is still the same event
    (back,) = usebio.loads(etree.tostring(root.getroottree(), encoding="UTF-8", xml_declaration=True)).events
    assert back.results == MITCHELL.results


def test_pbn_results_have_the_mandatory_result_tags_and_the_travellers_contracts() -> None:
    """PBN 2.1 §3 mandatory Declarer, Contract, Result tags; §5.7's Contract, Declarer, Result and
    Lead columns; §5.8's TotalMP."""
    text = scoretable.dumps([score_event(MITCHELL)], deals={"1": Deal.parse(DEAL), "2": Deal.parse(DEAL)},
                            plays=PLAYS)
    assert "TotalMP\\" in text and "TotalScoreMP" not in text
    records, _, warnings = scoretable.read(text)
    assert warnings == ()
    assert all(r.tag("Declarer") == "?" and r.tag("Contract") == "?" and r.tag("Result") == "?" for r in records)
    table = records[0].table("ScoreTable")
    assert table is not None
    rows = list(table.records())
    assert [(row["PairId_NS"], row["Contract"], row["Declarer"], row["Result"], row["Lead"]) for row in rows] == [
        ("1", "4S", "N", "10", "HQ"), ("2", "4S", "S", "11", "DJ"), ("3", "4SX", "N", "9", "-")]
    assert [len(b.deal.to_pbn()) > 0 for b in endplay_pbn.loads(text)] == [True, True]


def test_pbn_ranking_names_the_pairs_the_roll_names() -> None:
    text = scoretable.dumps([score_event(MITCHELL)], roll=Named())
    records, _, warnings = scoretable.read(text)
    assert warnings == ()
    table = records[0].table("TotalScoreTable")
    assert table is not None
    names = {row["PairId"]: row["Names"] for row in table.records()}
    assert names["1"] == "Ann North - Bob South" and names["4"] == "-"
    assert scoretable.loads(text).warnings == ()
