"""The room's results from the Director's console: ``results_router(console, director) -> APIRouter``.

Behind the Director's session (``director`` is the console app's session check, a FastAPI
dependency: ``web_ui.console.create_console_app`` makes it, so it comes in as a parameter):

- ``GET /api/ranking``: the ranking so far (``controller.room.results.RoomResults.report``):
  ``{"name", "scoring", "by_direction", "session", "fouled", "ranking": [{"pair", "section",
  "direction", "boards", "total", "percent", "average", "rank", "tied", "place"}]}``;
- ``GET /api/scorecards/{pair}?section=A``: a pair's boards, points and place (404: no such pair);
- ``GET /api/results.pbn``: the session as PBN 2.1 results, ``[ScoreTable]`` travellers and the
  ``[TotalScoreTable]`` ranking (``controller.records.scoretable.dumps``), each board's deal with it;
- ``GET /api/results.usebio``: the same as USEBIO 1.2 XML (``controller.records.usebio.dumps``),
  with the club, the day, the program's version, the players and each table's contract, declarer,
  lead and tricks;
- ``GET /api/results.html``: the printable page of the ranking, the travellers and every pair's
  score card (``controller.records.resultspage``); ``GET /api/results.pdf`` the same page printed
  by Chromium (``--print-to-pdf``; 503 when the console's machine has no Chromium);
- ``GET /api/handrecord.html``: the hand record of the boards played, with each board's
  double-dummy table and par (``tablectl handrecord``'s sheet; ``?analysis=false``: the hands alone);
- ``GET /api/boards.pbn`` and ``GET /api/boards.lin``: every table's deal, auction and play
  (``controller.records.roomboards``), the players named when the Director's roll names them.

The results files carry the session's scoring conventions, so that ``tablectl score FILE`` reading
either ranks the pairs as the console does. A fouled board's groups are boards of their own
(``7``, ``7b``: Law 87B). 404 until a board has a result. The contracts, the players and the boards'
play come from the console's room (its ``room``); a console that offers only the ``ResultsService``
writes the results without them. Names come from the console's ``people`` (the Players panel's names, a
``controller.records.people.Roll``) when it has one.
"""

from __future__ import annotations

import asyncio
import datetime
import importlib.metadata
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast, runtime_checkable

from fastapi import APIRouter, Depends, HTTPException
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from controller.deal import Deal
from controller.fieldscore.model import EventScore
from controller.records import lin, pbn, scoretable, usebio
from controller.records.handrecord import HandRecordBoard, hand_record_html
from controller.records.model import BoardRecord
from controller.records.people import NO_NAMES, Roll
from controller.records.played import TablePlay, plays_of_room
from controller.records.resultspage import results_html
from controller.records.roomboards import room_records
from controller.room.console import Room

__all__ = ["ResultsService", "results_router"]

Json = dict[str, Any]


@runtime_checkable
class ResultsService(Protocol):
    """What the results need of the console (``tablectl.room.console.Console``)."""

    def results(self) -> tuple[EventScore | None, Mapping[str, Deal]]:
        """The session scored so far (None: no result yet) and each scored board's deal."""
        ...

    def ranking(self) -> Json:
        """The ranking so far with how it was scored (``RoomResults.report``)."""
        ...

    def scorecard(self, pair: str, section: str | None = None) -> Json:
        """A pair's session so far (``RoomResults.scorecard``)."""
        ...


class _OfRoom:
    """The results of a console that offers only its ``room`` (a ``controller.room.console.Room``)."""

    def __init__(self, room: Room, lock: Any) -> None:
        self.room = room
        self.lock = lock

    def results(self) -> tuple[EventScore | None, Mapping[str, Deal]]:
        with self.lock:
            return self.room.results.event_score(), self.room.results.export_deals()

    def ranking(self) -> Json:
        with self.lock:
            return self.room.results.report()

    def scorecard(self, pair: str, section: str | None = None) -> Json:
        with self.lock:
            return self.room.scorecard(pair, section)


def _service(console: object) -> ResultsService:
    if isinstance(console, ResultsService):
        return console
    room = getattr(console, "room", None)
    if isinstance(room, Room):
        return _OfRoom(room, getattr(console, "_lock", None) or threading.RLock())
    raise TypeError(f"{type(console).__name__} offers no results (ResultsService) and no room")


@dataclass(frozen=True)
class _Extras:
    """What the console's room adds to the results: each table's play, the boards' records, the
    club, the names; empty for a console without a room."""

    plays: dict[tuple[str, str, str, str], TablePlay] = field(default_factory=dict)
    travellers: list[Json] = field(default_factory=list)
    scores: Json = field(default_factory=dict)
    cards: list[Json] = field(default_factory=list)
    records: list[BoardRecord] = field(default_factory=list)
    club: str = ""
    roll: Roll = NO_NAMES


def _roll(console: object) -> Roll:
    """The console's names: its ``people`` (the Players panel's roster and seating,
    ``tablectl.room.console_people.People``), else none."""
    people = getattr(console, "people", None)
    return cast(Roll, people) if callable(getattr(people, "players", None)) else NO_NAMES


def _extras(console: object, name: str) -> _Extras:
    """Read the console's room under its lock (module doc)."""
    room = getattr(console, "room", None)
    roll = _roll(console)
    if not isinstance(room, Room):
        return _Extras(roll=roll)
    lock: AbstractContextManager[Any] = getattr(console, "_lock", None) or nullcontext()
    with lock:
        results = room.results
        travellers, scores, report = results.travellers(), results.scores(), results.report()
        raw = {b: dict(tables) for b, tables in results.results.items()}
        cards = [results.scorecard(str(r["pair"]), r.get("section")) for r in report.get("ranking") or ()]
        club = room.club
    records, _ = room_records(raw, scores, roll=roll, event=name, site=club,
                              date=datetime.date.today().strftime("%Y.%m.%d"))
    return _Extras(plays_of_room(travellers, scores, raw), travellers, scores, cards, records, club, roll)


def program_version() -> str:
    """This program's installed version, for USEBIO's ``PROGRAM_VERSION``."""
    try:
        return importlib.metadata.version("bridgetable")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _chromium() -> str | None:
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def print_to_pdf(page: str, timeout: float = 120.0) -> bytes:
    """``page`` (a self-contained HTML document) printed to PDF by headless Chromium; RuntimeError
    when there is no Chromium or it fails."""
    browser = _chromium()
    if browser is None:
        raise RuntimeError("no Chromium on this machine to print the PDF: print the page instead")
    with tempfile.TemporaryDirectory(prefix="results-pdf-") as tmp:
        source, target = Path(tmp) / "results.html", Path(tmp) / "results.pdf"
        source.write_text(page, encoding="utf-8")
        done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                               f"--user-data-dir={tmp}/profile", f"--print-to-pdf={target}", source.as_uri()],
                              capture_output=True, timeout=timeout, check=False)
        if not target.exists() or target.stat().st_size == 0:
            raise RuntimeError(f"Chromium could not print the PDF (exit {done.returncode})")
        return target.read_bytes()


PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'"
"""The printable pages' policy: their own inline CSS, no script, nothing fetched (they are self-contained);
the console's own page may frame them to print them."""
_PAGE_HEADERS = {"Content-Security-Policy": PAGE_CSP, "X-Frame-Options": "SAMEORIGIN"}


def _filename(name: str, ext: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "results"
    return f"{stem}.{ext}"


def results_router(console: object, director: Callable[..., Any]) -> APIRouter:
    """The results' routes (module doc) over ``console``, each behind the ``director`` dependency."""
    service = _service(console)
    api = APIRouter(prefix="/api", tags=["results"], dependencies=[Depends(director)])

    async def scored() -> tuple[EventScore, Mapping[str, Deal]]:
        score, deals = await asyncio.to_thread(service.results)
        if score is None:
            raise HTTPException(404, "no board has a result yet")
        return score, deals

    @api.get("/ranking", summary="The ranking so far: every pair's total, percentage and place")
    async def ranking() -> Json:
        return await asyncio.to_thread(service.ranking)

    @api.get("/scorecards/{pair}", summary="A pair's session so far: its boards, points and place")
    async def scorecard(pair: str, section: str | None = None) -> Json:
        card = await asyncio.to_thread(service.scorecard, pair, section)
        if not card["boards"] and card["standing"] is None:
            raise HTTPException(404, f"no pair {pair!r}" + (f" in section {section}" if section else ""))
        return card

    async def extras(name: str) -> _Extras:
        return await asyncio.to_thread(_extras, console, name)

    def attachment(name: str, ext: str) -> dict[str, str]:
        return {"Content-Disposition": f'attachment; filename="{_filename(name, ext)}"'}

    @api.get("/results.pbn", response_class=PlainTextResponse,
             summary="The session's results as PBN 2.1: travellers ([ScoreTable]) and ranking ([TotalScoreTable])")
    async def results_pbn() -> PlainTextResponse:
        score, deals = await scored()
        more = await extras(score.event.name)
        text = await asyncio.to_thread(scoretable.dumps, [score], deals=deals, plays=more.plays, roll=more.roll)
        return PlainTextResponse(text, headers=attachment(score.event.name, "pbn"))

    @api.get("/results.usebio", summary="The session's results as USEBIO 1.2 XML", response_class=Response)
    async def results_usebio() -> Response:
        score, _ = await scored()
        more = await extras(score.event.name)
        about = usebio.Particulars(club=more.club, date=datetime.date.today(), version=program_version(),
                                   roll=more.roll, plays=more.plays)
        text = await asyncio.to_thread(usebio.dumps, [score], about=about)
        return Response(text, media_type="application/xml", headers=attachment(score.event.name, "xml"))

    async def page() -> tuple[str, str]:
        score, _ = await scored()
        more = await extras(score.event.name)
        report = await asyncio.to_thread(service.ranking)
        return score.event.name, results_html(report, more.travellers, more.scores, more.cards, roll=more.roll,
                                              club=more.club, date=datetime.date.today().strftime("%d %B %Y"))

    @api.get("/results.html", response_class=HTMLResponse,
             summary="The results as a printable page: ranking, travellers and every pair's score card")
    async def results_page() -> HTMLResponse:
        _, text = await page()
        return HTMLResponse(text, headers=_PAGE_HEADERS)

    @api.get("/results.pdf", response_class=Response, summary="The printable results page as a PDF (Chromium)")
    async def results_pdf() -> Response:
        name, text = await page()
        try:
            data = await asyncio.to_thread(print_to_pdf, text)
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
            raise HTTPException(503, str(exc)) from None
        return Response(data, media_type="application/pdf", headers=attachment(name, "pdf"))

    @api.get("/handrecord.html", response_class=HTMLResponse,
             summary="The hand record of the boards played, with double-dummy tables and par")
    async def handrecord(analysis: bool = True) -> HTMLResponse:
        score, deals = await scored()
        boards = [HandRecordBoard(int(label), deal) for label, deal in sorted(deals.items(), key=lambda kv: (
            len(kv[0]), kv[0])) if label.isdigit() and int(label) > 0]
        if not boards:
            raise HTTPException(404, "no board has a complete deal yet")
        if analysis:
            from tablectl.handrecord import analyse  # DDS through endplay, loaded only when asked

            boards = await asyncio.to_thread(analyse, boards)
        return HTMLResponse(hand_record_html(boards, title=f"{score.event.name}: hand record"),
                            headers=_PAGE_HEADERS)

    async def board_records() -> tuple[str, list[BoardRecord]]:
        score, _ = await scored()
        more = await extras(score.event.name)
        if not more.records:
            raise HTTPException(404, "no table's play has reached the console yet")
        return score.event.name, more.records

    @api.get("/boards.pbn", response_class=PlainTextResponse,
             summary="Every table's deal, auction and play as PBN 2.1")
    async def boards_pbn() -> PlainTextResponse:
        name, records = await board_records()
        return PlainTextResponse(await asyncio.to_thread(pbn.dumps, records), headers=attachment(name, "pbn"))

    @api.get("/boards.lin", response_class=PlainTextResponse,
             summary="Every table's deal, auction and play as LIN (BBO's format)")
    async def boards_lin() -> PlainTextResponse:
        name, records = await board_records()
        return PlainTextResponse(await asyncio.to_thread(lin.dumps, records), headers=attachment(name, "lin"))

    return api
