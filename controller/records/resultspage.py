"""The session's results as one printable HTML page (pure): ranking, travellers, personal score cards.

What the Director pins on the club's board or hands to the players at the end of a session,
and what the console turns into a PDF (Chromium prints this page). The page takes the room's
own values (``RoomResults.report()``, ``.travellers()``, ``.scores()`` and each pair's
``.scorecard()``) and computes nothing: a function from values to text. It is one
self-contained document (its CSS inline, no script, no external resource) that reads on a
phone (390 px) and prints on A4: ``@media print`` drops the colours, keeps a table from being
cut across two pages and starts the score cards on a page of their own.

A board with a single result compares it with nobody: its points print as "only result", not
as a 0 that would read as a bottom. Pairs with no result yet are listed apart, under their own
heading. Names come from a ``Roll`` (``controller.records.people``) when the Director has one.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from controller.records.people import NO_NAMES, Roll

__all__ = ["results_html"]

Json = Mapping[str, Any]
_FIELD = {"NS": "North-South", "EW": "East-West"}
_SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

_CSS = """
body { font: 15px/1.35 system-ui, sans-serif; color: #1b1b1b; margin: 0; background: #fff; }
main { max-width: 60rem; margin: 0 auto; padding: .8rem; }
h1 { font-size: 1.4rem; margin: .2rem 0; } h2 { font-size: 1.15rem; margin: 1.2rem 0 .4rem; }
p.sub { color: #555; margin: 0 0 .6rem; }
table { border-collapse: collapse; width: 100%; margin: 0 0 .9rem; break-inside: avoid; }
caption { text-align: left; font-weight: 700; padding: .25rem 0; }
th, td { padding: .3rem .35rem; border-bottom: 1px solid #ccc; text-align: left; vertical-align: top; }
th { color: #555; font-weight: 600; font-size: .85rem; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.field th { color: #1e6b4f; font-size: 1rem; padding-top: .8rem; }
.muted { color: #6b6b6b; } .red { color: #c0162c; }
.names { display: block; color: #555; font-size: .85rem; }
.wide { overflow-x: auto; }
@media (max-width: 30rem) { body { font-size: 14px; } th, td { padding: .25rem .2rem; } .opt { display: none; } }
@media print {
  @page { size: A4; margin: 12mm; }
  body { font-size: 10.5pt; } main { max-width: none; padding: 0; }
  .red { color: #000; } tr.field th { color: #000; }
  section.cards { break-before: page; }
  .wide { overflow: visible; } .opt { display: table-cell; }
}
"""


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value))


def _num(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    return str(value)


def _contract(text: object) -> str:
    """``4S`` as ``4♠`` (hearts and diamonds in red); Pass as "passed out"."""
    if not isinstance(text, str) or not text:
        return "—"
    if text.upper() == "PASS":
        return "passed out"
    level, rest = text[:1], text[1:]
    suit = rest[:1]
    if suit in _SUIT:
        cls = ' class="red"' if suit in "HD" else ""
        return f"{_e(level)}<span{cls}>{_SUIT[suit]}</span>{_e(rest[1:])}"
    return _e(text)


def _names(roll: Roll, section: object, pair: object) -> str:
    players = roll.players(section if isinstance(section, str) else None, str(pair))
    if players is None:
        return ""
    return f'<span class="names">{_e(players.first.name)} &amp; {_e(players.second.name)}</span>'


def _ranking(report: Json, roll: Roll) -> list[str]:
    rows = list(report.get("ranking") or ())
    percent = any(r.get("percent") is not None for r in rows)
    head = ["Place", "Pair", "Boards", "Score"] + (["%"] if percent else [])
    numeric = ' class="num"'
    out = ['<table class="ranking"><caption>Ranking</caption><tr>' +
           "".join(f'<th{numeric if h in ("Boards", "Score", "%") else ""}>{h}</th>' for h in head) + "</tr>"]
    direction: object = None
    ranked = [r for r in rows if r.get("place") or r.get("boards")]
    waiting = [r for r in rows if not (r.get("place") or r.get("boards"))]
    for r in ranked:
        if report.get("by_direction") and r.get("direction") and r.get("direction") != direction:
            direction = r.get("direction")
            out.append(f'<tr class="field"><th colspan="{len(head)}">{_e(_FIELD.get(str(direction), direction))}'
                       "</th></tr>")
        section = f" ({_e(r['section'])})" if r.get("section") else ""
        out.append(f'<tr data-pair="{_e(r.get("pair"))}"><td>{_e(r.get("place"))}</td>'
                   f'<td>Pair {_e(r.get("pair"))}{section}{_names(roll, r.get("section"), r.get("pair"))}</td>'
                   f'<td class="num">{_e(r.get("boards"))}</td><td class="num">{_num(r.get("total"))}</td>'
                   + (f'<td class="num">{_num(r.get("percent"))}</td>' if percent else "") + "</tr>")
    if waiting:
        out.append(f'<tr class="field"><th colspan="{len(head)}">No result yet</th></tr>')
        for r in waiting:
            where = _FIELD.get(str(r.get("direction")), "")
            out.append(f'<tr data-pair="{_e(r.get("pair"))}"><td></td><td>Pair {_e(r.get("pair"))}'
                       f'{_names(roll, r.get("section"), r.get("pair"))}</td>'
                       f'<td class="num muted" colspan="{len(head) - 2}">{_e(where)}</td></tr>')
    out.append("</table>")
    return out


def _points(points: object, top: object) -> str:
    if top == 0 and points in (0, 0.0, None):
        return '<span class="muted">only result</span>'
    return _num(points)


def _travellers(travellers: Sequence[Json], scores: Json) -> list[str]:
    out = ['<h2>Travellers</h2>']
    boards = scores.get("boards") or {}
    for t in travellers:
        board = str(t.get("board"))
        out.append(f'<div class="wide"><table class="traveller" data-board="{_e(board)}">'
                   f"<caption>Board {_e(board)}</caption><tr><th>NS</th><th>EW</th><th>Contract</th><th>By</th>"
                   '<th class="opt">Lead</th><th class="num">Tricks</th><th class="num">NS score</th>'
                   '<th class="num">NS pts</th><th class="num">EW pts</th></tr>')
        for r in t.get("results") or ():
            seat = (boards.get(board) or {}).get(str(r.get("table"))) or {}
            pairs = r.get("pairs") or {}
            top = seat.get("top")
            ns, ew = seat.get("ns", pairs.get("NS")), seat.get("ew", pairs.get("EW"))
            out.append(f"<tr><td>{_e(ns)}</td><td>{_e(ew)}</td>"
                       f"<td>{_contract(r.get('contract'))}</td><td>{_e(r.get('declarer'))}</td>"
                       f'<td class="opt">{_e(r.get("lead"))}</td><td class="num">{_e(r.get("tricks"))}</td>'
                       f'<td class="num">{_e(r.get("score_ns"))}</td>'
                       f'<td class="num">{_points(seat.get("points_ns"), top)}</td>'
                       f'<td class="num">{_points(seat.get("points_ew"), top)}</td></tr>')
        out.append("</table></div>")
    return out


def _cards(cards: Sequence[Json], roll: Roll) -> list[str]:
    out = ['<section class="cards"><h2>Personal score cards</h2>']
    for card in cards:
        st = card.get("standing") or {}
        head = f"Pair {_e(card.get('pair'))}" + (f" ({_e(card['section'])})" if card.get("section") else "")
        if st.get("place"):
            head += f" · place {_e(st['place'])}"
        if st.get("percent") is not None:
            head += f" · {_num(st['percent'])}%"
        out.append(f'<div class="wide"><table class="scorecard" data-pair="{_e(card.get("pair"))}"><caption>{head}'
                   f'{_names(roll, card.get("section"), card.get("pair"))}</caption>'
                   "<tr><th>Board</th><th>Against</th><th>Contract</th><th>Result</th>"
                   '<th class="num">Score</th><th class="num">Points</th></tr>')
        for b in card.get("boards") or ():
            by = f" {_e(b.get('declarer'))}" if b.get("declarer") else ""
            out.append(f"<tr data-board=\"{_e(b.get('board'))}\"><td>{_e(b.get('board'))}</td>"
                       f"<td>{_e(b.get('opponents'))}</td><td>{_contract(b.get('contract'))}{by}</td>"
                       f"<td>{_e(b.get('result'))}</td><td class=\"num\">{_e(b.get('score'))}</td>"
                       f'<td class="num">{_points(b.get("points"), b.get("top"))}</td></tr>')
        if not card.get("boards"):
            out.append('<tr><td colspan="6" class="muted">No board yet</td></tr>')
        out.append("</table></div>")
    out.append("</section>")
    return out


def results_html(report: Json, travellers: Sequence[Json], scores: Json, cards: Sequence[Json], *,
                 roll: Roll = NO_NAMES, club: str = "", date: str = "") -> str:
    """The printable page (module doc) of a session's ``report`` (ranking), ``travellers``,
    ``scores`` (each table's points) and the pairs' score ``cards``."""
    name = str(report.get("name") or "Results")
    sub = " · ".join(x for x in (club, date, str(report.get("scoring") or "").upper()) if x)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{_e(name)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>", "<main>",
           f"<h1>{_e(name)}</h1>", f'<p class="sub">{_e(sub)}</p>']
    out += _ranking(report, roll)
    out += _travellers(travellers, scores)
    out += _cards(cards, roll)
    out += ["</main>", "</body>", "</html>", ""]
    return "\n".join(out)
