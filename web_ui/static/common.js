// Shared by the table, spectator and arbiter pages: live connection, cards, auction, trick.
"use strict";

const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SEATS = ["N", "E", "S", "W"];
const SEAT_NAME = { N: "North", E: "East", S: "South", W: "West" };
const SUIT_WORD = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function replaceChildren(id, ...children) {
  const node = document.getElementById(id);
  if (node) node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined));
  return node;
}

function suitClass(suit) {
  return suit === "H" || suit === "D" ? "red" : "black";
}

// "SA" -> <span class="card black">♠A</span>; a face-down card shows its back
function cardNode(card) {
  if (!card) return el("span", { class: "card back", title: "face down" }, "\u{1F0A0}");
  const suit = card[0];
  const rank = card.slice(1) === "T" ? "10" : card.slice(1);
  return el("span", { class: "card " + suitClass(suit), "data-card": card }, SUIT_SYMBOL[suit] + rank);
}

// "4H" -> 4♥, "3NT", "Pass", "X", "XX"
function callNode(call, alert) {
  const m = /^([1-7])([CDHS])$/.exec(call);
  const cls = "call" + (alert ? " alerted" : "") + (call === "Pass" ? " pass" : "");
  if (m) return el("span", { class: cls + " " + suitClass(m[2]) }, m[1] + SUIT_SYMBOL[m[2]]);
  return el("span", { class: cls }, call === "X" ? "X" : call === "XX" ? "XX" : call);
}

function contractNode(contract, declarer) {
  if (!contract) return el("span", { class: "muted" }, "\u2014");
  if (contract === "Pass") return el("span", {}, "Passed out");
  const m = /^([1-7])(C|D|H|S|NT)(X{0,2})$/.exec(contract);
  if (!m) return el("span", {}, contract);
  const denom = m[2] === "NT" ? "NT" : SUIT_SYMBOL[m[2]];
  const cls = m[2] === "NT" ? "" : suitClass(m[2]);
  return el("span", { class: "contract" }, el("span", { class: cls }, m[1] + denom + m[3]),
    declarer ? " by " + SEAT_NAME[declarer] : "");
}

// cards grouped by suit, spades first: one line per suit
function handNode(cards, label) {
  const bySuit = { S: [], H: [], D: [], C: [] };
  for (const c of cards || []) bySuit[c[0]].push(c);
  return el("div", { class: "hand" }, label ? el("div", { class: "hand-label" }, label) : null,
    ...["S", "H", "D", "C"].map((s) => el("div", { class: "suit-line" },
      el("span", { class: "suit " + suitClass(s) }, SUIT_SYMBOL[s]),
      bySuit[s].length ? bySuit[s].map((c) => el("span", { class: "rank", "data-card": c },
        c.slice(1) === "T" ? "10" : c.slice(1))) : el("span", { class: "muted" }, "\u2014"))));
}

// the auction as a grid, columns W N E S, starting in the dealer's column
function auctionNode(board) {
  const order = ["W", "N", "E", "S"];
  const table = el("table", { class: "auction", "aria-label": "auction" });
  table.append(el("tr", {}, order.map((s) => el("th", { class: s === board.dealer ? "dealer" : "" }, s))));
  let row = el("tr");
  let col = 0;
  const calls = board.auction || [];
  if (calls.length) {
    const first = order.indexOf(calls[0].seat);
    for (; col < first; col++) row.append(el("td"));
  }
  for (const item of calls) {
    const at = order.indexOf(item.seat);
    while (col % 4 !== at) { row.append(el("td")); col++; if (col % 4 === 0) { table.append(row); row = el("tr"); } }
    row.append(el("td", {}, callNode(item.call, item.alert)));
    col++;
    if (col % 4 === 0) { table.append(row); row = el("tr"); }
  }
  if (row.childNodes.length) table.append(row);
  // a call held aside for a ruling is not in the auction: it is named in words below it, with its seat
  // (the view model's sentence), never drawn in the column of the player whose turn it is
  const held = (board.held_calls || []).map((h) => el("p", { class: "held held-call", "data-seat": h.seat }, h.text));
  return el("div", { class: "auction-wrap" }, table, held);
}

// a trick as a compass: N at the top, S at the bottom; notes: {seat: [nodes]} shown beside each seat
// (its penalty cards, say)
function compassNode(trick, extra, notes) {
  const bySeat = {};
  for (const item of (trick && trick.cards) || []) bySeat[item.seat] = item;
  for (const item of extra || []) bySeat[item.seat] = Object.assign({ held: true }, item);
  const spot = (seat) => {
    const item = bySeat[seat];
    return el("div", { class: "spot spot-" + seat + (item && item.held ? " held" : ""), "data-seat": seat },
      el("div", { class: "spot-seat" }, seat),
      item ? cardNode(item.card) : el("span", { class: "card empty" }, ""),
      notes && notes[seat] ? el("div", { class: "seat-notes" }, notes[seat]) : null);
  };
  return el("div", { class: "compass", "aria-label": "current trick" }, SEATS.map(spot),
    el("div", { class: "spot-centre" }, trick && trick.winner ? "won by " + trick.winner : ""));
}

function suitsText(suits) {
  return (suits || []).map((s) => SUIT_SYMBOL[s]).join(" ");
}

// what a seat must or may not do, in the view model's words (controller/tablewords.py)
function restrictionText(r) {
  return r.text || null;
}

// "1H" -> "1♥" (text, for sentences)
function callText(call) {
  return String(call).replace(/^([1-7])([CDHS])$/, (m, level, suit) => level + SUIT_SYMBOL[suit]);
}

// "H3 and SK" -> "♥3 and ♠K": the card codes in a sentence of the table's, in suit symbols
function cardsInText(text) {
  if (text === null || text === undefined) return "";
  return String(text).replace(/(^|[^A-Za-z0-9])([SHDC])([AKQJT2-9])(?![A-Za-z0-9])/g,
    (m, before, suit, rank) => before + SUIT_SYMBOL[suit] + (rank === "T" ? "10" : rank));
}

function vulText(vul) {
  return { None: "Nobody vulnerable", NS: "N-S vulnerable", EW: "E-W vulnerable", Both: "All vulnerable" }[vul] || vul;
}

function lawText(irr) {
  return irr.kind.replace(/_/g, " ") + (irr.law ? " (Law " + irr.law + ")" : "");
}

// The result of the board just finished, and the totals of the score sheet
function scoreNode(score, board) {
  const parts = [];
  if (board && board.result) {
    const r = board.result;
    parts.push(el("div", { class: "result" }, "Board ", r.number ?? r.index, ": ",
      contractNode(r.contract, r.declarer), r.result ? " " + r.result : "",
      r.score_ns !== null && r.score_ns !== undefined ? el("b", {}, "  NS " + r.score_ns) : ""));
  }
  if (score && score.held_back) {
    parts.push(el("div", { class: "totals muted" }, "Totals are shown once every table has played these boards"));
  } else if (score) {
    const line = ["Total NS " + score.totals.NS, "EW " + score.totals.EW];
    if (score.games) line.push("games NS " + score.games.NS + " EW " + score.games.EW);
    if (score.below) line.push("below the line NS " + score.below.NS + " EW " + score.below.EW);
    if (score.deal_in_series) line.push("Chicago deal " + score.deal_in_series + " of 4");
    parts.push(el("div", { class: "totals" }, line.join(" \u00b7 ")));
  }
  return parts;
}

// A WebSocket that reconnects by itself with backoff; every message is a full view
function liveSocket(path, onPayload, onStatus) {
  let delay = 500;
  let socket = null;
  let closedByUs = false;
  const open = () => {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
    socket = new WebSocket(url);
    socket.onopen = () => { delay = 500; onStatus && onStatus("live"); };
    socket.onmessage = (event) => {
      try { onPayload(JSON.parse(event.data)); } catch (err) { console.error(err); }
    };
    socket.onclose = (event) => {
      if (closedByUs) return;
      onStatus && onStatus("reconnecting", event.code);
      const wait = delay + Math.random() * delay * 0.3;
      delay = Math.min(delay * 2, 10000);
      setTimeout(open, wait);
    };
  };
  open();
  return { close: () => { closedByUs = true; if (socket) socket.close(); } };
}

function statusBadge(id) {
  return (state) => {
    const node = document.getElementById(id);
    if (!node) return;
    node.textContent = state === "live" ? "live" : "reconnecting\u2026";
    node.className = "status " + (state === "live" ? "ok" : "warn");
  };
}
