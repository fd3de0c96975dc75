// The table page (players): public information only, pushed over /ws/table. The spectator page
// draws with the same renderPublic (and the whole play).
"use strict";

const LEAD_KINDS = new Set(["lead_require", "lead_ban", "lead_option_26"]);

// "To call: East" in the auction, "To play: ..." in the play
function turnText(view, board) {
  if (board.phase === "done") return "Board finished";
  if (!view.turn) return "";
  const who = SEAT_NAME[view.turn] + (board.dummy === view.turn && board.phase === "play" ? " (dummy)" : "");
  if (board.phase === "auction") return "To call: " + who;
  if (board.phase === "declaration") return "To declare: " + who;
  return "To play: " + who;
}

// the cards each seat has on the table besides the trick: penalty cards (Law 50) and cards
// exposed during the auction (Law 24), shown beside that seat
function seatNotes(board) {
  const notes = {};
  const add = (seat, node) => (notes[seat] = notes[seat] || []).push(node);
  for (const p of board.penalty_cards || []) {
    add(p.seat, el("div", { class: "seat-card penalty", "data-penalty": p.card },
      el("span", { class: "seat-card-label" }, (p.major ? "major" : "minor") + " penalty card"), " ", cardNode(p.card)));
  }
  for (const x of board.exposed || []) {
    add(x.seat, el("div", { class: "seat-card exposed" }, el("span", { class: "seat-card-label" }, "exposed"), " ",
      cardNode(x.card)));
  }
  return notes;
}

// one line per irregularity, in the view model's words: the seat, the call or card, and what follows
// (the ruling in the catalogue's sentence, or who is to choose)
function irregularityLine(irr) {
  return el("li", { class: "irr irr-" + irr.status, "data-irr": irr.id }, irr.text);
}

// the session's boards at this table, one row each: number, contract, declarer, result, score
function resultsNode(score) {
  const boards = (score && score.boards) || [];
  if (!boards.length) return el("p", { class: "muted" }, "No board finished yet");
  const table = el("table", { class: "results", "aria-label": "results of the session" },
    el("tr", {}, ["Board", "Contract", "Declarer", "Result", "Score NS"].map((h) => el("th", { scope: "col" }, h))));
  for (const b of boards) {
    const passed = b.contract === "Pass";
    const row = el("tr", { "data-board": b.number ?? b.index, class: b.status === "corrected" ? "corrected" : null },
      el("td", {}, b.number ?? b.index),
      el("td", {}, passed ? "Passed out" : contractNode(b.contract, null)),
      el("td", {}, b.declarer ? SEAT_NAME[b.declarer] : "\u2014"),
      el("td", {}, b.result || (passed ? "" : (b.status || "").replace(/_/g, " "))),
      el("td", { class: "score-ns" }, b.score_ns === null || b.score_ns === undefined ? "" : b.score_ns));
    table.append(row);
    if (b.status === "corrected" && b.original) table.append(correctionRow(b));
  }
  return table;
}

// the line under a board the Director corrected (Law 79C): what the table had recorded, who corrected it and why
function correctionRow(b) {
  const o = b.original;
  const was = o.contract === "Pass" ? "passed out"
    : (o.contract || "") + (o.result || "") + (o.declarer ? " by " + SEAT_NAME[o.declarer] : "") +
      (o.score_ns === null || o.score_ns === undefined ? "" : ", " + o.score_ns);
  const by = b.corrected_by || {};
  return el("tr", { class: "correction-note", "data-corrected": b.number ?? b.index },
    el("td", { colspan: 5 }, "Corrected by the Director" + (by.by ? " (" + by.by + ")" : "") + ": the table had " +
      was + (by.reason ? ". " + by.reason : "")));
}

// Renders a public payload (table or spectator) into the page's elements
function renderPublic(view, opts) {
  window.lastView = view;
  if (window.onTableView) window.onTableView(view);  // table.players.js: the naming panel goes with the first board
  document.title = view.table_name || "Bridge table";
  replaceChildren("title", view.table_name || "Bridge table");
  const board = view.board;
  const banner = document.getElementById("banner");
  const answer = view.director;  // the Director's answer from the console (web_ui/privacy.py)
  if (answer) {
    banner.hidden = false;
    banner.textContent = answer.text + (view.waiting_for_arbiter && answer.answer === "done"
      ? ": waiting for the ruling to be entered" : "");
  } else if (view.arbiter_called || view.waiting_for_arbiter) {
    banner.hidden = false;
    banner.textContent = view.arbiter_called
      ? "Arbiter called by " + SEAT_NAME[view.arbiter_called]
      : "Waiting for the arbiter's ruling";
  } else {
    banner.hidden = true;
    banner.textContent = "";
  }
  replaceChildren("results", resultsNode(view.score));
  const irrs = view.irregularities || [];
  replaceChildren("irregularities", irrs.length ? el("ul", { class: "irr-list" }, irrs.map(irregularityLine))
    : el("p", { class: "muted" }, "None on this board"));
  if (!board) {
    replaceChildren("board-info", view.waiting ? "The spectator view starts after the delay" : "Waiting for a board");
    for (const id of ["auction", "contract", "turn", "trick", "tricks-won", "last-trick", "dummy", "faced",
      "restrictions"]) replaceChildren(id);
    replaceChildren("score", scoreNode(view.score, null));
    return;
  }
  replaceChildren("board-info",
    el("span", { class: "board-no" }, "Board " + (board.number ?? board.index)),
    el("span", {}, "Dealer " + SEAT_NAME[board.dealer]),
    el("span", { class: "vul vul-" + board.vul }, vulText(board.vul)));
  replaceChildren("auction", auctionNode(board));
  replaceChildren("contract", contractNode(board.contract, board.declarer));
  replaceChildren("turn", turnText(view, board));
  replaceChildren("trick", compassNode(board.current_trick, board.held_cards, seatNotes(board)));
  replaceChildren("tricks-won",
    el("span", { class: "won" }, "NS ", el("b", { id: "won-ns" }, board.tricks_won.NS)),
    el("span", { class: "won" }, "EW ", el("b", { id: "won-ew" }, board.tricks_won.EW)));
  const rules = (board.restrictions || []).map((r) => {
    const text = restrictionText(r);
    return text ? el("li", { class: LEAD_KINDS.has(r.kind) ? "restriction lead" : "restriction", "data-seat": r.seat },
      text) : null;
  }).filter(Boolean);
  replaceChildren("restrictions", rules.length ? el("ul", { class: "restrictions" }, rules) : null);
  if (opts && opts.history && board.tricks) {
    replaceChildren("last-trick", historyNode(board.tricks));
  } else {
    replaceChildren("last-trick", board.last_trick
      ? el("div", { class: "last-trick" }, el("span", { class: "muted" }, "Last trick: "),
        board.last_trick.cards.map((c) => el("span", { class: "nowrap" }, c.seat + " ", cardNode(c.card), " ")),
        board.last_trick.winner ? "\u2192 " + board.last_trick.winner : "")
      : null);
  }
  replaceChildren("dummy", board.dummy_hand
    ? handNode(board.dummy_hand, SEAT_NAME[board.dummy] + " (dummy)")
    : el("p", { class: "muted" }, "Dummy is shown once the opening lead is faced"));
  const faced = [];
  for (const f of board.faced || []) {
    if (board.dummy_hand && f.seat === board.dummy) continue;
    faced.push(handNode(f.cards, "Faced by " + SEAT_NAME[f.seat]));
  }
  if (board.claim) {
    faced.push(el("div", { class: "claim" }, "Claim by " + SEAT_NAME[board.claim.seat] + ": " + board.claim.tricks +
      " tricks" + (board.claim.disputed ? " (disputed)" : board.claim.agreed.length ? " (agreed by " + board.claim.agreed.join(", ") + ")" : "")));
  }
  replaceChildren("faced", faced);
  replaceChildren("score", scoreNode(view.score, board));
}

function historyNode(tricks) {
  const table = el("table", { class: "history" }, el("tr", {}, el("th", {}, "#"), el("th", {}, "Lead"),
    el("th", { colspan: 4 }, "Cards"), el("th", {}, "Won")));
  tricks.forEach((t, i) => table.append(el("tr", {}, el("td", {}, i + 1), el("td", {}, t.leader),
    t.cards.map((c) => el("td", {}, cardNode(c.card))), el("td", {}, t.winner || ""))));
  return table;
}

if (document.body.classList.contains("table-page")) {
  fetch("/api/table").then((r) => r.json()).then((v) => { if (!window.lastView) renderPublic(v); }).catch(() => {});
  liveSocket("/ws/table", (view) => renderPublic(view), statusBadge("status"));
}
