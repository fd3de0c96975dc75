// The table page (players): public information only, pushed over /ws/table.
"use strict";

const RESTRICTION_LABEL = {
  pass_once: "must pass at the next turn", pass_all: "must pass for the rest of the auction",
  no_double_now: "may not double or redouble now", repeat: "must repeat the call",
  lead_require: "must lead", lead_ban: "may not lead", play_option_57: "plays as the arbiter ruled (Law 57)",
};

// Renders a public payload (table or spectator) into the page's common elements
function renderPublic(view, opts) {
  window.lastView = view;
  document.title = view.table_name || "Bridge table";
  replaceChildren("title", view.table_name || "Bridge table");
  const board = view.board;
  const banner = document.getElementById("banner");
  if (view.arbiter_called || view.waiting_for_arbiter) {
    banner.hidden = false;
    banner.textContent = view.arbiter_called
      ? "Arbiter called by " + SEAT_NAME[view.arbiter_called]
      : "Waiting for the arbiter's ruling";
  } else {
    banner.hidden = true;
    banner.textContent = "";
  }
  if (!board) {
    replaceChildren("board-info", view.waiting ? "The spectator view starts after the delay" : "Waiting for a board");
    for (const id of ["auction", "contract", "turn", "trick", "tricks-won", "last-trick", "dummy", "faced"]) replaceChildren(id);
    replaceChildren("score", scoreNode(view.score, null));
    return;
  }
  replaceChildren("board-info",
    el("span", { class: "board-no" }, "Board " + (board.number ?? board.index)),
    el("span", {}, "Dealer " + SEAT_NAME[board.dealer]),
    el("span", { class: "vul vul-" + board.vul }, vulText(board.vul)));
  replaceChildren("auction", auctionNode(board));
  replaceChildren("contract", contractNode(board.contract, board.declarer));
  replaceChildren("turn", view.turn ? "To play: " + SEAT_NAME[view.turn] : board.phase === "done" ? "Board finished" : "");
  replaceChildren("trick", compassNode(board.current_trick, board.held_cards));
  replaceChildren("tricks-won",
    el("span", { class: "won" }, "NS ", el("b", { id: "won-ns" }, board.tricks_won.NS)),
    el("span", { class: "won" }, "EW ", el("b", { id: "won-ew" }, board.tricks_won.EW)));
  if (opts && opts.history && board.tricks) {
    replaceChildren("last-trick", historyNode(board.tricks));
  } else {
    replaceChildren("last-trick", board.last_trick
      ? el("div", { class: "last-trick" }, el("span", { class: "muted" }, "Last trick: "),
        board.last_trick.cards.map((c) => el("span", {}, c.seat + " ", cardNode(c.card), " ")),
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
  for (const p of board.penalty_cards || []) {
    faced.push(el("div", { class: "penalty" }, (p.major ? "Major" : "Minor") + " penalty card " + p.seat + " ", cardNode(p.card)));
  }
  for (const x of board.exposed || []) {
    faced.push(el("div", { class: "penalty" }, "Exposed by " + x.seat + " ", cardNode(x.card)));
  }
  for (const r of board.restrictions || []) {
    const label = RESTRICTION_LABEL[r.kind];
    if (!label) continue;
    faced.push(el("div", { class: "restriction" }, SEAT_NAME[r.seat] + " " + label +
      ((r.suits || []).length ? " " + r.suits.map((s) => SUIT_SYMBOL[s]).join(" ") : "") + (r.mode && r.kind === "play_option_57" ? " (" + r.mode + ")" : "")));
  }
  if (board.claim) {
    faced.push(el("div", { class: "claim" }, "Claim by " + SEAT_NAME[board.claim.seat] + ": " + board.claim.tricks +
      " tricks" + (board.claim.disputed ? " (disputed)" : board.claim.agreed.length ? " (agreed by " + board.claim.agreed.join(", ") + ")" : "")));
  }
  replaceChildren("faced", faced);
  replaceChildren("score", scoreNode(view.score, board));
  replaceChildren("irregularities", (view.irregularities || []).map((irr) =>
    el("div", { class: "irr irr-" + irr.status, "data-irr": irr.id },
      el("b", {}, lawText(irr)), irr.offender ? " \u2014 " + SEAT_NAME[irr.offender] : "",
      " \u00b7 " + irr.status.replace(/_/g, " "),
      irr.ruling ? " \u00b7 ruling: " + irr.ruling.option.replace(/_/g, " ") + (irr.ruling.suit ? " " + SUIT_SYMBOL[irr.ruling.suit] : "") +
        (irr.ruling.tricks !== undefined ? " " + irr.ruling.tricks + " tricks" : "") : "")));
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
