"""USEBIO 1.2 results (the EBU's XML for club results) read into events to score, and written.

A USEBIO file holds ``EVENT`` elements; a pairs event lists its ``PARTICIPANTS`` (``PAIR``:
number, place, boards played, percentage) and its ``BOARD`` travellers (``TRAVELLER_LINE``:
pairs, contract, ``SCORE`` for North-South, match points or cross-IMPs); a teams event lists
``TEAM`` participants (total VPs, place, their pairs' cross-IMPs) and each ``MATCH`` (teams,
boards with both rooms' lines, IMPs, the two VP scores). An artificial score is written
``A60``/``A50``/``A40`` (or ``A+``/``A=``/``A-``), one for both sides or one per side.

The producing program (``PROGRAM_NAME``) gives what the file does not say:

- BBO Extractor, EBUScore and the other EBU programs: matchpoints 2 per pair beaten; places
  of a tie are printed alike, with "=" by TeamsScorer and EBUScore ("7=").
- TeamsScorer: cross-IMPs averaged over the other results (``PAIR_IMPS`` their sum), and
  for 3-board matches the integer 20-VP scale of its VP scores (``TEAMSSCORER_VP_3_BOARDS``).

The XML is parsed by the standard library, which never fetches an external entity or DTD;
a document declaring entities of its own is refused (as defusedxml does). Nothing in the
content of a file raises: what cannot be used is in ``warnings``; XML that is not
well-formed raises ``RecordError``.

``dumps``/``dump`` write scored events as USEBIO 1.2 in the structure read here, with each
event's conventions in a ``<?bridge-conventions?>`` processing instruction that the reader
takes over what it would guess from ``PROGRAM_NAME``; what they write reads back the same.
"""

from __future__ import annotations

import datetime
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from controller.errors import RecordError
from controller.fieldscore.check import fixed
from controller.fieldscore.conventions import conventions_text, parse_conventions, program_conventions
from controller.fieldscore.model import (
    Artificial,
    Award,
    Conventions,
    CrossImps,
    Event,
    EventScore,
    FieldScoreError,
    Match,
    Printed,
    Result,
    ResultsFile,
    ScoredResult,
    Scoring,
    Standing,
    VpScale,
)
from controller.records.people import NO_NAMES, PairPlayers, Roll
from controller.records.played import Plays, TablePlay, play_key

__all__ = ["PROGRAM", "TEAMSSCORER_VP_3_BOARDS", "Particulars", "dump", "dumps", "load", "loads"]

# The VP scores TeamsScorer 5.1 printed for the 3-board matches of the EBU's multiple-teams
# example: 10-10 for a draw, then 11 from 1 IMP, 12 from 2, 13 from 3, 14 from 5, 15 from 7,
# 16 from 9, 17 from 11, 18 from 14, 19 from 17, 20 from 20. All 40 matches fit it; margins
# 15, 17, 18 and 20 do not occur there, so the steps to 19 (at 17, 18 or 19) and to 20 (at
# 20 or 21) are taken as the regular pattern of such short-match scales (ACBL's 30-VP
# scale for 6-8 boards has the same steps: 17-19, 20-23).
TEAMSSCORER_VP_3_BOARDS = VpScale("TeamsScorer 20-VP scale for 3-board matches", (1, 2, 3, 5, 7, 9, 11, 14, 17, 20))

_ENTITY = re.compile(rb"<!ENTITY", re.IGNORECASE)


def load(path: str | os.PathLike[str]) -> ResultsFile:
    """The events of the USEBIO file at ``path`` (in the encoding its XML declaration names)."""
    p = Path(path)
    return loads(p.read_bytes(), source=p.name)


def loads(data: str | bytes, source: str = "<string>") -> ResultsFile:
    """The events of a USEBIO document; RecordError if it is not well-formed or declares entities."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if _ENTITY.search(raw):
        raise RecordError(f"{source}: the document declares XML entities: refused")
    try:
        # processing instructions kept: the conventions of the files ``dumps`` writes
        root = ET.fromstring(data, parser=ET.XMLParser(target=ET.TreeBuilder(insert_pis=True)))
    except ET.ParseError as exc:
        raise RecordError(f"{source}: not well-formed XML ({exc})") from None
    if root.tag != "USEBIO":
        raise RecordError(f"{source}: not a USEBIO document (root element <{root.tag}>)")
    warnings: list[str] = []
    events: list[Event] = []
    for ev in root.iter("EVENT"):
        read = _teams_events(ev, warnings) if ev.find(".//MATCH") is not None else [_pairs_event(ev, warnings)]
        events.extend(_own_conventions(ev, e, warnings) for e in read)
    return ResultsFile(source, tuple(events), tuple(warnings))


def _own_conventions(ev: ET.Element, event: Event, warnings: list[str]) -> Event:
    """``event`` with the conventions its ``<?bridge-conventions SCORING: ...?>`` states, if any."""
    for child in ev:
        # a processing instruction's tag is the ET.PI factory, not a str (typeshed says str)
        if isinstance(child.tag, str) or not (child.text or "").startswith(_CONVENTIONS_PI):
            continue
        scoring, _, text = (child.text or "")[len(_CONVENTIONS_PI):].partition(":")
        if scoring.strip() != event.scoring.value:
            continue
        try:
            conventions = parse_conventions(text, event.conventions)
        except FieldScoreError as exc:
            warnings.append(f"{event.name}: <?{_CONVENTIONS_PI}?>: {exc}: the program's defaults are used")
            return event
        return replace(event, conventions=conventions,
                       notes=(f"conventions as the file states them: {text.strip()}",))
    return event


def _text(elem: ET.Element, path: str) -> str | None:
    v = elem.findtext(path)
    if v is None:
        return None
    v = v.strip()
    return v or None


def _is_ebu_program(program: str | None) -> bool:
    return bool(program) and any(p in (program or "").lower() for p in ("teamsscorer", "ebuscore", "scorebridge"))


def _line_result(board: str, line: ET.Element, section: str | None, warnings: list[str]) -> Result | None:
    ns, ew, score = _text(line, "NS_PAIR_NUMBER"), _text(line, "EW_PAIR_NUMBER"), _text(line, "SCORE")
    if ns is None or ew is None or score is None:
        warnings.append(f"board {board}: a traveller line without pairs or score: ignored")
        return None
    try:
        return Result(board, ns, ew, score=int(score), section=section)
    except ValueError:
        pass
    try:
        return Result(board, ns, ew, artificial=Artificial.parse(score), section=section)
    except FieldScoreError:
        warnings.append(f"board {board}, {ns} v {ew}: unreadable score {score!r}: ignored")
        return None


def _sections(ev: ET.Element) -> Iterator[tuple[str | None, ET.Element]]:
    """The event's sections (``SECTION`` elements, by SECTION_ID), or the event itself as one."""
    sections = list(ev.iter("SECTION"))
    if not sections:
        yield None, ev
    for s in sections:
        yield s.get("SECTION_ID") or _text(s, "SECTION_ID"), s


def _place(printed: list[Printed], key: tuple[str, ...], text: str | None, marked: bool) -> None:
    if text is not None:
        printed.append(Printed(key, "place" if marked else "rank", text, "PLACE"))


def _pairs_event(ev: ET.Element, warnings: list[str]) -> Event:
    program = _text(ev, "PROGRAM_NAME")
    name = _text(ev, "EVENT_DESCRIPTION") or "USEBIO event"
    method = (_text(ev, "BOARD_SCORING_METHOD") or "MATCH_POINTS").upper()
    scoring = Scoring.MP
    conventions = Conventions()
    notes = ["matchpoints 2 per pair beaten, 1 per tie"]
    if "CROSS" in method:
        scoring = Scoring.CROSS_IMP
        conventions = Conventions(cross_imps=CrossImps.AVERAGE if _is_ebu_program(program) else CrossImps.SUM)
        notes = [f"cross-IMPs {conventions.cross_imps.value}"]
    elif "IMP" in method or "BUTLER" in method:
        scoring = Scoring.BUTLER
        notes = ["Butler: datum the mean of the scores to the nearest 10"]
    conventions, program_notes = program_conventions(program, scoring, conventions)
    notes.extend(program_notes)
    results: list[Result] = []
    printed: list[Printed] = []
    participants: list[tuple[str | None, str]] = []
    places = [t for t in (p.findtext("PLACE") for p in ev.iter("PAIR")) if t]
    marked = any("=" in t for t in places)
    for section, elem in _sections(ev):
        for pair in elem.iter("PAIR"):
            number = _text(pair, "PAIR_NUMBER")
            if number is None:
                continue
            participants.append((section, number))
            key = ("pair", section or "", number)
            _place(printed, key, _text(pair, "PLACE"), marked)
            for tag, fname in (("BOARDS_PLAYED", "boards"), ("PERCENTAGE", "percent"),
                               ("TOTAL_SCORE", "total"), ("PAIR_IMPS", "total")):
                value = _text(pair, tag)
                if value is not None:
                    printed.append(Printed(key, fname, value, tag))
        for board_elem in elem.iter("BOARD"):
            board = _text(board_elem, "BOARD_NUMBER") or "?"
            for line in board_elem.iter("TRAVELLER_LINE"):
                result = _line_result(board, line, section, warnings)
                if result is None:
                    continue
                results.append(result)
                _line_points(printed, result, line)
    return Event(name, scoring, tuple(results), conventions, pairs=tuple(participants), producer=program,
                 notes=tuple(notes), printed=tuple(printed))


def _line_points(printed: list[Printed], result: Result, line: ET.Element) -> None:
    key = ("result", result.section or "", result.board, result.ns, result.ew)
    for tag, fname in (("NS_MATCH_POINTS", "points_ns"), ("EW_MATCH_POINTS", "points_ew"),
                       ("NS_CROSS_IMP_POINTS", "points_ns"), ("EW_CROSS_IMP_POINTS", "points_ew")):
        value = _text(line, tag)
        if value is not None:
            printed.append(Printed(key, fname, value, tag))


def _teams_events(ev: ET.Element, warnings: list[str]) -> list[Event]:
    """A teams event (matches, VPs) and, when its lines carry cross-IMPs, its pairs' cross-IMP event."""
    program = _text(ev, "PROGRAM_NAME")
    name = _text(ev, "EVENT_DESCRIPTION") or "USEBIO teams"
    team_printed: list[Printed] = []
    pair_printed: list[Printed] = []
    teams: list[tuple[str | None, str]] = []
    pairs: list[tuple[str | None, str]] = []
    participants = ev.findall(".//PARTICIPANTS/TEAM")
    marked = any("=" in (t.findtext("PLACE") or "") for t in participants)
    for team in participants:
        team_id = team.get("TEAM_ID") or _text(team, "TEAM_ID")
        if team_id is None:
            continue
        team_id = team_id.strip()
        teams.append((None, team_id))
        key = ("pair", "", team_id)
        _place(team_printed, key, _text(team, "PLACE"), marked)
        for tag, fname in (("TOTAL_SCORE", "total"), ("WINS_OR_DRAWS", "wins")):
            value = _text(team, tag)
            if value is not None:
                team_printed.append(Printed(key, fname, value, tag))
        for pair in team.iter("PAIR"):
            number = _text(pair, "PAIR_NUMBER")
            if number is None:
                continue
            pairs.append((None, number))
            for tag, fname in (("BOARDS_PLAYED", "boards"), ("PAIR_IMPS", "total")):
                value = _text(pair, tag)
                if value is not None:
                    pair_printed.append(Printed(("pair", "", number), fname, value, tag))
    matches: list[Match] = []
    lines: list[Result] = []
    for m in ev.iter("MATCH"):
        match = _match(m, warnings, team_printed, pair_printed, lines)
        if match is not None:
            matches.append(match)
    teamsscorer = (program or "").lower().startswith("teamsscorer")
    conventions = Conventions()
    if teamsscorer and {len(m.boards) for m in matches} == {3}:
        conventions = Conventions(vp=TEAMSSCORER_VP_3_BOARDS)
    vp_note = f"VPs on the {conventions.vp.name}" if conventions.vp is not None else "no VPs"
    out = [Event(name, Scoring.TEAMS, tuple(lines), conventions, matches=tuple(matches), pairs=tuple(teams),
                 producer=program, notes=("IMPs between the two rooms of each match", vp_note),
                 printed=tuple(team_printed))]
    if pair_printed:
        mode = CrossImps.AVERAGE if _is_ebu_program(program) else CrossImps.SUM
        ebu = _is_ebu_program(program)
        pair_conventions = Conventions(cross_imps=mode, board_decimals=2 if ebu else None)
        out.append(Event(name, Scoring.CROSS_IMP, tuple(lines), pair_conventions, pairs=tuple(pairs),
                         producer=program,
                         notes=(f"pairs: cross-IMPs {mode.value} over the other results"
                                + (", each rounded to 2 decimals before the pair's total" if ebu else ""),),
                         printed=tuple(pair_printed)))
    return out


def _match(m: ET.Element, warnings: list[str], team_printed: list[Printed], pair_printed: list[Printed],
           lines: list[Result]) -> Match | None:
    home, away = _text(m, "TEAM"), _text(m, "OPPOSING_TEAM")
    if home is None or away is None:
        warnings.append("a MATCH without TEAM or OPPOSING_TEAM: ignored")
        return None
    key = ("match", home, away)
    for tag, fname in (("TEAM_SCORE", "vp_home"), ("OPPOSING_TEAM_SCORE", "vp_away")):
        value = _text(m, tag)
        if value is not None:
            team_printed.append(Printed(key, fname, value, tag))
    boards = []
    for b in m.iter("BOARD"):
        board = _text(b, "BOARD_NUMBER") or "?"
        rooms: dict[str, Result] = {}
        for line in b.iter("TRAVELLER_LINE"):
            result = _line_result(board, line, None, warnings)
            if result is None:
                continue
            lines.append(result)
            _line_points(pair_printed, result, line)
            rooms[(_text(line, "DIRECTION") or "").upper()] = result
        if "NS" in rooms and "EW" in rooms:
            boards.append((rooms["NS"], rooms["EW"]))
            value = _text(b, "IMPS")
            if value is not None:
                team_printed.append(Printed(("match_board", home, away, board), "imps", value, "IMPS"))
        else:
            warnings.append(f"match {home} v {away}, board {board}: not both rooms (DIRECTION NS and EW)")
    return Match(home, away, tuple(boards), _text(m, "ROUND_NUMBER"))


# --- writing -----------------------------------------------------------------------------

PROGRAM = "tablectl"
"""The ``PROGRAM_NAME`` of the files this project writes."""

_CONVENTIONS_PI = "bridge-conventions"
_METHOD = {Scoring.MP: "MATCH_POINTS", Scoring.BUTLER: "BUTLER_IMPS", Scoring.CROSS_IMP: "CROSS_IMPS",
           Scoring.TEAMS: "IMPS"}
_AWARD_PERCENT = {Award.PLUS: "60", Award.AVERAGE: "50", Award.MINUS: "40"}


@dataclass(frozen=True, slots=True)
class Particulars:
    """What a federation's processing asks of a club's file beyond the scores: the club (name
    and its federation number), the day played, the program's version, who played (``roll``)
    and what each table played (``plays``)."""

    club: str = ""
    club_id: str = ""
    date: datetime.date | None = None
    version: str = ""
    roll: Roll = NO_NAMES
    plays: Plays = field(default_factory=dict)


def dump(scores: Sequence[EventScore], path: str | os.PathLike[str], *, program: str = PROGRAM,
         about: Particulars | None = None) -> None:
    """Write ``dumps(scores)`` to ``path``."""
    Path(path).write_bytes(dumps(scores, program=program, about=about).encode("utf-8"))


def dumps(scores: Sequence[EventScore], *, program: str = PROGRAM, about: Particulars | None = None) -> str:
    """The events as a USEBIO 1.2 document, in the structure this module reads.

    A pairs event: ``PARTICIPANTS`` (each ``PAIR``'s number, place, "=" marking a shared one,
    boards played, total and percentage) and a ``BOARD`` per board with its
    ``TRAVELLER_LINE``s (pairs, ``SCORE`` for North-South, ``A60``/``A50``/``A40`` for an
    artificial score, match points or IMPs for each side), in a ``SECTION`` each when the
    event has sections. A teams event: each ``TEAM``'s total, wins and place, and each
    ``MATCH`` (round, teams, VPs, per board the home team's IMPs and both rooms' lines,
    ``DIRECTION`` NS where the home team sat North-South); a cross-IMP pairs event of the
    same name that follows it goes in with it (each team's ``PAIR``s, the lines' cross-IMPs),
    as TeamsScorer writes them. Every value is the one the scores give. The event's
    conventions travel in a ``<?bridge-conventions SCORING: ...?>`` processing instruction
    (valid under the USEBIO DTD; other programs skip it). Procedural penalties are not written.

    ``about`` adds the ``CLUB`` (``CLUB_NAME``, ``CLUB_ID_NUMBER``), each event's ``DATE``
    (DD/MM/YYYY) and ``PROGRAM_VERSION``, ``WINNER_TYPE`` (2 when each direction is ranked
    apart, and then each ``PAIR``'s ``DIRECTION``), each pair's two ``PLAYER``s (``PLAYER_NAME``
    and the federation's ``NATIONAL_ID_NUMBER``; ``Unknown`` for a pair the roll does not
    name) and each traveller line's ``CONTRACT``, ``PLAYED_BY``, ``LEAD`` and ``TRICKS``.
    """
    about = about or Particulars()
    root = ET.Element("USEBIO", {"Version": "1.2"})
    if about.club:
        club = _sub(root, "CLUB")
        _sub(club, "CLUB_NAME", about.club)
        if about.club_id:
            _sub(club, "CLUB_ID_NUMBER", about.club_id)
    i = 0
    while i < len(scores):
        score = scores[i]
        if score.event.scoring is Scoring.TEAMS:
            pairs = scores[i + 1] if i + 1 < len(scores) and scores[i + 1].event.scoring is Scoring.CROSS_IMP \
                and scores[i + 1].event.name == score.event.name else None
            root.append(_teams_element(score, pairs, program, about))
            i += 2 if pairs is not None else 1
        else:
            root.append(_pairs_element(score, program, about))
            i += 1
    ET.indent(root, space="  ")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">\n'
            + ET.tostring(root, encoding="unicode") + "\n")


def _sub(parent: ET.Element, tag: str, text: str | None = None, attrib: dict[str, str] | None = None) -> ET.Element:
    elem = ET.SubElement(parent, tag, attrib or {})
    if text is not None:
        elem.text = text
    return elem


def _number(value: float) -> str:
    """``value`` to 2 decimals (as ``check`` rounds), without trailing zeros."""
    text = fixed(value, 2)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def _event_head(score: EventScore, event_type: str, program: str, about: Particulars,
                extra: Sequence[EventScore] = ()) -> ET.Element:
    event = score.event
    ev = ET.Element("EVENT", {"EVENT_TYPE": event_type})
    for s in (score, *extra):
        text = f"{s.event.scoring.value}: {conventions_text(s.event.conventions)}".replace("?>", "? >")
        ev.append(ET.ProcessingInstruction(_CONVENTIONS_PI, text))
    _sub(ev, "PROGRAM_NAME", program)
    if about.version:
        _sub(ev, "PROGRAM_VERSION", about.version)
    _sub(ev, "EVENT_DESCRIPTION", event.name)
    if about.date is not None:
        _sub(ev, "DATE", about.date.strftime("%d/%m/%Y"))
    _sub(ev, "BOARD_SCORING_METHOD", _METHOD[event.scoring])
    return ev


def _place_text(st: Standing) -> str | None:
    if st.rank is None:
        return None
    return f"{st.rank}=" if st.tied > 1 else str(st.rank)


def _score_text(r: Result) -> str:
    if r.weighted:  # USEBIO 1.2 has no form for a weighted score (Law 12C1(c))
        return "/".join(f"{s}@{w:g}" for s, w in r.weighted)
    if r.artificial is None:
        return str(r.score)
    ns, ew = _AWARD_PERCENT[r.artificial.ns], _AWARD_PERCENT[r.artificial.ew]
    return f"A{ns}" if ns == ew else f"A{ns}A{ew}"


def _pairs_element(score: EventScore, program: str, about: Particulars) -> ET.Element:
    event = score.event
    mp = event.scoring is Scoring.MP
    ev = _event_head(score, "PAIRS", program, about)
    _sub(ev, "WINNER_TYPE", "2" if score.by_direction else "1")
    sections = sorted({st.section or "" for st in score.standings} | {r.section or "" for r in event.results})
    for section in sections:
        parent = ev if sections == [""] else _sub(ev, "SECTION", attrib={"SECTION_ID": section})
        participants = _sub(parent, "PARTICIPANTS")
        for st in score.standings:
            if (st.section or "") != section:
                continue
            pair = _sub(participants, "PAIR")
            _sub(pair, "PAIR_NUMBER", st.pair)
            if score.by_direction and st.direction:
                _sub(pair, "DIRECTION", st.direction)
            place = _place_text(st)
            if place is not None:
                _sub(pair, "PLACE", place)
            _sub(pair, "BOARDS_PLAYED", str(st.boards))
            _sub(pair, "TOTAL_SCORE", _number(st.total))
            if mp and st.percent is not None:
                _sub(pair, "PERCENTAGE", _number(st.percent))
            _players(pair, about.roll.players(st.section, st.pair))
        boards: dict[str, list[ScoredResult]] = {}
        for b in score.boards:
            for s in b.results:
                if (s.result.section or "") == section:
                    boards.setdefault(b.board, []).append(s)
        for number, lines in boards.items():
            board = _sub(parent, "BOARD")
            _sub(board, "BOARD_NUMBER", number)
            for s in lines:
                _line(board, s, "MATCH_POINTS" if mp else "CROSS_IMP_POINTS", plays=about.plays)
    return ev


def _players(pair: ET.Element, players: PairPlayers | None) -> None:
    """The pair's two ``PLAYER``s: name and federation number; ``Unknown`` when unnamed."""
    for player in (players.first, players.second) if players is not None else (None, None):
        elem = _sub(pair, "PLAYER")
        _sub(elem, "PLAYER_NAME", "Unknown" if player is None else player.name)
        if player is not None and player.federation_id:
            _sub(elem, "NATIONAL_ID_NUMBER", player.federation_id)


def _contract_text(played: TablePlay) -> str:
    """USEBIO's contract: ``4S``, ``3NTx``, ``2Hxx``, ``PASS``."""
    c = played.contract
    if c is None:
        return "PASS"
    return f"{c.level}{c.denomination}" + "x" * int(c.doubled)


def _line(board: ET.Element, s: ScoredResult | None, points: str | None, result: Result | None = None,
          direction: str | None = None, plays: Plays | None = None) -> None:
    r = result if result is not None else s.result if s is not None else None
    assert r is not None
    line = _sub(board, "TRAVELLER_LINE")
    if direction is not None:
        _sub(line, "DIRECTION", direction)
    _sub(line, "NS_PAIR_NUMBER", r.ns)
    _sub(line, "EW_PAIR_NUMBER", r.ew)
    played = (plays or {}).get(play_key(r.section, r.board, r.ns, r.ew))
    if played is not None:
        _sub(line, "CONTRACT", _contract_text(played))
        if played.declarer is not None:
            _sub(line, "PLAYED_BY", str(played.declarer))
        if played.lead is not None:  # rank then suit, as the EBU's programs write it
            _sub(line, "LEAD", str(played.lead)[1:] + str(played.lead)[0])
        if played.contract is not None and played.tricks is not None:
            _sub(line, "TRICKS", str(played.tricks))
    _sub(line, "SCORE", _score_text(r))
    if s is not None and points is not None:
        _sub(line, f"NS_{points}", _number(s.points_ns))
        _sub(line, f"EW_{points}", _number(s.points_ew))


def _teams_element(score: EventScore, pairs: EventScore | None, program: str, about: Particulars) -> ET.Element:
    event = score.event
    ev = _event_head(score, "TEAMS", program, about, () if pairs is None else (pairs,))
    if event.conventions.vp is not None:
        _sub(ev, "MATCH_SCORING_METHOD", "VPS")
    if pairs is not None:
        _sub(ev, "PAIRWISE_SCORING_METHOD", "CROSS_IMPS")
    team_of: dict[str, str] = {}
    for m in event.matches:
        for home_ns, away_ns in m.boards:
            team_of.setdefault(home_ns.ns, m.home)
            team_of.setdefault(home_ns.ew, m.away)
            team_of.setdefault(away_ns.ns, m.away)
            team_of.setdefault(away_ns.ew, m.home)
    participants = _sub(ev, "PARTICIPANTS")
    for st in score.standings:
        team = _sub(participants, "TEAM", attrib={"TEAM_ID": st.pair})
        _sub(team, "TOTAL_SCORE", _number(st.total))
        _sub(team, "WINS_OR_DRAWS", str(st.wins or 0))
        place = _place_text(st)
        if place is not None:
            _sub(team, "PLACE", place)
        for pst in pairs.standings if pairs is not None else ():
            if team_of.get(pst.pair) == st.pair:
                pair = _sub(team, "PAIR")
                _sub(pair, "PAIR_NUMBER", pst.pair)
                _sub(pair, "BOARDS_PLAYED", str(pst.boards))
                _sub(pair, "PAIR_IMPS", _number(pst.total))
    cross: dict[tuple[str, str, str], ScoredResult] = {}
    for b in pairs.boards if pairs is not None else ():
        for s in b.results:
            cross.setdefault((s.result.board, s.result.ns, s.result.ew), s)
    for ms in score.matches:
        m = ms.match
        match = _sub(ev, "MATCH")
        if m.round is not None:
            _sub(match, "ROUND_NUMBER", m.round)
        _sub(match, "TEAM", m.home)
        _sub(match, "OPPOSING_TEAM", m.away)
        if ms.home_vps is not None and ms.away_vps is not None:
            _sub(match, "TEAM_SCORE", _number(ms.home_vps))
            _sub(match, "OPPOSING_TEAM_SCORE", _number(ms.away_vps))
        for (home_ns, away_ns), (number, gained) in zip(m.boards, ms.imps, strict=True):
            board = _sub(match, "BOARD")
            _sub(board, "BOARD_NUMBER", number)
            _sub(board, "IMPS", str(gained))
            for direction, r in (("NS", home_ns), ("EW", away_ns)):
                scored = cross.get((r.board, r.ns, r.ew))
                _line(board, scored, "CROSS_IMP_POINTS" if scored is not None else None, r, direction,
                      about.plays)
    return ev
