// The players' results page (web_ui/player_results.py): the travellers of the boards this table has
// played, each seated pair's scorecard, and the ranking once the Director publishes it. It asks
// GET /api/results again every 15 seconds (a phone left on the table keeps up without a socket).
"use strict";

const REFRESH_MS = 15000;
let ours = new Set();   // the pairs seated here: their rows are marked

function resultWords(r) {
  if (r.status === "passed_out" || r.contract === "Pass") return "passed out";
  return r.result || (r.status || "").replace(/_/g, " ");
}

function pairsText(p) {
  return p && p.NS !== undefined ? p.NS + " v " + p.EW : "";
}

function travellerNode(t, table) {
  const node = el("table", { class: "traveller", "data-board": t.board },
    el("caption", {}, "Board " + t.board),
    el("tr", {}, ["Pairs", "Contract", "By", "Result", "NS"].map((h) => el("th", {}, h))));
  for (const r of t.results) {
    node.append(el("tr", { class: r.table === table ? "ours" : null, "data-table": r.table },
      el("td", {}, pairsText(r.pairs) || "Table " + r.table),
      el("td", {}, r.contract && r.contract !== "Pass" ? contractNode(r.contract) : "\u2014"),
      el("td", {}, r.declarer || ""),
      el("td", {}, resultWords(r)),
      el("td", { class: "num" }, r.score_ns ?? "")));
  }
  return node;
}

function points(value) {
  return value === null || value === undefined ? "" : String(Math.round(value * 100) / 100);
}

// A board's points: on a board with a single result nobody is compared (top 0), and "0" would
// read as a bottom: it says so instead.
function pointsNode(b) {
  if (b.top === 0 && (b.points === 0 || b.points === null || b.points === undefined)) {
    return el("td", { class: "num muted alone", title: "no other table has played this board yet" }, "only result");
  }
  return el("td", { class: "num" }, points(b.points));
}

function scorecardNode(card) {
  const st = card.standing;
  const head = "Pair " + card.pair + (st && st.place ? " \u00b7 place " + st.place : "")
    + (st && st.percent !== null && st.percent !== undefined ? " \u00b7 " + points(st.percent) + "%" : "");
  const node = el("table", { class: "scorecard", "data-pair": card.pair }, el("caption", {}, head),
    el("tr", {}, ["Board", "Against", "Contract", "Score", "Points"].map((h) => el("th", {}, h))));
  for (const b of card.boards) {
    if (b.held) {  // the room keeps the board back until every table has played it
      node.append(el("tr", { "data-board": b.board, class: "held" },
        el("td", {}, b.board), el("td", {}, b.opponents),
        el("td", { colspan: "3", class: "muted" }, "shown once every table has played it")));
      continue;
    }
    const played = b.contract && b.contract !== "Pass";
    node.append(el("tr", { "data-board": b.board },
      el("td", {}, b.board), el("td", {}, b.opponents),
      el("td", {}, played ? [contractNode(b.contract), " " + (b.declarer || "") + " " + resultWords(b)] : resultWords(b)),
      el("td", { class: "num" }, b.score ?? ""), pointsNode(b)));
  }
  if (!card.boards.length) node.append(el("tr", {}, el("td", { colspan: "5", class: "muted" }, "No board yet")));
  return node;
}

const FIELD_WORDS = { NS: "North-South", EW: "East-West" };

function rankingRow(r, value) {
  return el("li", { class: ours.has(r.pair) ? "ours" : null, "data-pair": r.pair },
    el("span", { class: "place" }, r.place || ""), el("span", { class: "pair" }, "Pair " + r.pair),
    el("span", { class: "value" }, value));
}

// The ranked pairs, under a heading per direction when each direction is ranked apart; then the
// pairs with no result yet, under a heading of their own (never under the last direction's).
function rankingNodes(ranking) {
  const nodes = [];
  let direction = null;
  const waiting = [];
  for (const r of ranking) {
    if (!r.place && !r.boards) { waiting.push(r); continue; }
    if (r.direction && r.direction !== direction) {
      direction = r.direction;
      nodes.push(el("li", { class: "field-head" }, FIELD_WORDS[direction] || direction));
    }
    const value = r.percent !== null && r.percent !== undefined ? points(r.percent) + "%" : points(r.total);
    nodes.push(rankingRow(r, value));
  }
  if (waiting.length) {
    nodes.push(el("li", { class: "field-head" }, "No result yet"));
    for (const r of waiting) nodes.push(rankingRow(r, FIELD_WORDS[r.direction] || ""));
  }
  return nodes;
}

function noteText(data) {
  if (!data.available) return "The results come from the Director's console: none yet.";
  const s = data.settings || {};
  const parts = [];
  if (!s.travellers) parts.push("The Director does not show the boards' results at the tables.");
  else if (!data.travellers.length) parts.push("A board's results appear here once every table has played it.");
  if (data.ranking) parts.push(data.ended ? "The session is over: the final ranking." : "The ranking as it stands.");
  else if (s.ranking === "end") parts.push("The ranking is shown at the end of the session.");
  return parts.join(" ");
}

function render(data) {
  document.getElementById("title").textContent = "Results" + (data.table_name ? " \u00b7 " + data.table_name : "");
  ours = new Set(data.scorecards.map((c) => c.pair));
  replaceChildren("note", noteText(data));
  document.getElementById("scorecards-panel").hidden = !data.scorecards.length;
  replaceChildren("scorecards", data.scorecards.map(scorecardNode));
  document.getElementById("travellers-panel").hidden = !data.travellers.length;
  replaceChildren("travellers", data.travellers.map((t) => travellerNode(t, data.table)));
  document.getElementById("ranking-panel").hidden = !data.ranking;
  replaceChildren("ranking-title", data.ended ? "Final ranking" : "Ranking");
  replaceChildren("ranking", data.ranking ? rankingNodes(data.ranking) : []);
}

async function load() {
  const status = document.getElementById("status");
  try {
    const r = await fetch("/api/results", { credentials: "same-origin", cache: "no-store" });
    if (!r.ok) throw new Error("HTTP " + r.status);
    render(await r.json());
    status.textContent = "up to date";
    status.className = "status ok";
  } catch (err) {
    status.textContent = "cannot reach the table";
    status.className = "status warn";
  }
}

load();
setInterval(load, REFRESH_MS);
