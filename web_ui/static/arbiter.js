// The arbiter page: PIN log-in, alerts, rulings, manual entries, deal, timeline, claim help, score, devices.
"use strict";

let csrf = null;
let socket = null;
let audio = null;
let seenAwaiting = null;   // ids of irregularities already announced
let lastView = null;

function showLogin(message) {
  document.getElementById("login").hidden = false;
  document.getElementById("app").hidden = true;
  document.getElementById("logout").hidden = true;
  replaceChildren("login-error", message || "");
  replaceChildren("status", "signed out");
  if (socket) { socket.close(); socket = null; }
  csrf = null;
}

async function api(method, path, body) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin" });
  let data = null;
  try { data = await response.json(); } catch (err) { data = null; }
  if (response.status === 401 && path !== "/api/arbiter/login") showLogin("Your session has ended: log in again");
  if (!response.ok) {
    const detail = data && data.detail;
    const text = typeof detail === "string" ? detail
      : Array.isArray(detail) ? detail.map((d) => d.msg).join("; ") : response.statusText;
    throw new Error(text || ("error " + response.status));
  }
  return data;
}

function unlockAudio() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (Ctx && !audio) audio = new Ctx();
    if (audio && audio.state === "suspended") audio.resume();
  } catch (err) { audio = null; }
}

function beep() {
  if (!audio) return;
  const now = audio.currentTime;
  for (const [start, freq] of [[0, 880], [0.25, 660], [0.5, 880]]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(0.4, now + start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + 0.2);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + start);
    osc.stop(now + start + 0.22);
  }
}

function announce(view) {
  const awaiting = view.irregularities.filter((i) => i.status === "awaiting_ruling");
  const ids = new Set(awaiting.map((i) => i.id));
  const fresh = seenAwaiting === null ? [] : awaiting.filter((i) => !seenAwaiting.has(i.id));
  seenAwaiting = ids;
  const alert = document.getElementById("alert");
  const urgent = awaiting.filter((i) => i.kind !== "tempo");
  if (urgent.length) {
    const irr = urgent[urgent.length - 1];
    alert.hidden = false;
    alert.replaceChildren(el("b", {}, "Irregularity " + irr.id + ": " + lawText(irr)),
      " \u2014 " + irr.detail + " \u00b7 chooses: " + irr.chooser);
  } else if (view.arbiter_called) {
    alert.hidden = false;
    alert.replaceChildren(el("b", {}, "Arbiter called by " + SEAT_NAME[view.arbiter_called]));
  } else {
    alert.hidden = true;
  }
  if (fresh.some((i) => i.kind !== "tempo")) {
    beep();
    if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
  }
}

function argInput(irr, option, spec) {
  const name = "arg-" + irr.id + "-" + option + "-" + spec.name;
  if (spec.type === "suit") {
    return el("select", { name: spec.name, id: name, "aria-label": spec.name },
      (spec.choices || ["S", "H", "D", "C"]).map((s) => el("option", { value: s }, SUIT_SYMBOL[s] + " " + s)));
  }
  if (spec.type === "card" && spec.choices && spec.choices.length) {
    return el("select", { name: spec.name, id: name, "aria-label": spec.name },
      spec.required ? null : el("option", { value: "" }, "\u2014"),
      spec.choices.map((c) => el("option", { value: c }, c)));
  }
  if (spec.type === "card") {
    return el("input", { name: spec.name, id: name, "aria-label": spec.name, placeholder: "SK", size: 3, maxlength: 2 });
  }
  if (spec.type === "tricks") {
    return el("input", { name: spec.name, id: name, "aria-label": spec.name, type: "number", min: 0, max: 13,
      placeholder: "tricks", inputmode: "numeric" });
  }
  return el("label", { class: "flag" }, el("input", { type: "checkbox", name: spec.name, id: name }), spec.label || spec.name);
}

function optionForm(irr, option) {
  const specs = (irr.option_args && irr.option_args[option]) || [];
  const form = el("form", { class: "option", "data-option": option },
    specs.map((spec) => argInput(irr, option, spec)),
    el("button", { type: "submit", class: "option-button", "data-irr": irr.id, "data-option": option },
      option.replace(/_/g, " ")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { id: irr.id, option };
    for (const spec of specs) {
      const input = form.elements[spec.name];
      if (!input) continue;
      if (spec.type === "flag") { if (input.checked) body[spec.name] = true; continue; }
      const value = input.value.trim();
      if (!value) continue;
      body[spec.name] = spec.type === "tricks" ? Number(value) : spec.type === "card" ? value.toUpperCase() : value;
    }
    await send("/api/arbiter/rulings", body, "Ruling " + option.replace(/_/g, " ") + " on " + irr.id);
  });
  return form;
}

async function send(path, body, what) {
  replaceChildren("action-error", "");
  try {
    const result = await api("POST", path, body);
    replaceChildren("action-info", what + ": done" + (result.events.length ? " \u2014 " +
      result.events.map((e) => e.kind + (e.detail ? " " + e.detail : "")).join("; ") : ""));
  } catch (err) {
    replaceChildren("action-info", "");
    replaceChildren("action-error", what + " refused: " + err.message);
  }
}

function irregularityNode(irr) {
  const open = irr.status === "awaiting_ruling" || (irr.kind === "revoke" && irr.status === "ruled");
  return el("div", { class: "irr-card irr-" + irr.status, "data-irr": irr.id },
    el("div", { class: "irr-head" }, el("b", {}, irr.id + ". " + lawText(irr)),
      el("span", { class: "muted" }, " " + irr.situation.replace(/_/g, " "))),
    el("div", {}, irr.detail),
    el("div", { class: "muted" }, "Offender " + (irr.offender || "\u2014") + " \u00b7 chooses " + irr.chooser +
      " \u00b7 " + irr.status.replace(/_/g, " ") + (irr.trick ? " \u00b7 trick " + irr.trick : "") +
      (irr.public ? " \u00b7 shown at the table" : " \u00b7 arbiter only")),
    irr.ruling ? el("div", {}, "Ruling: " + Object.entries(irr.ruling).map(([k, v]) => k + " " + v).join(", ")) : null,
    open ? el("div", { class: "options" }, irr.options.map((o) => optionForm(irr, o))) : null);
}

function dealNode(board) {
  if (!board.hands) return el("p", { class: "muted" }, "No hand record: hands are learnt as cards are seen");
  const remaining = board.hands_remaining || {};
  const handOf = (seat) => {
    const node = handNode(board.hands[seat], SEAT_NAME[seat] + (board.declarer === seat ? " (declarer)" : board.dummy === seat ? " (dummy)" : ""));
    const left = new Set(remaining[seat] || board.hands[seat]);
    for (const span of node.querySelectorAll("[data-card]")) if (!left.has(span.dataset.card)) span.classList.add("played");
    return el("div", { class: "deal-" + seat }, node);
  };
  return el("div", { class: "deal" }, SEATS.map(handOf), el("div", { class: "deal-centre" }, board.deal ? "" : ""));
}

function timelineNode(items) {
  const table = el("table", { class: "timeline" }, el("tr", {}, ["t", "seat", "act", "", "think"].map((h) => el("th", {}, h))));
  for (const item of items) {
    table.append(el("tr", { class: item.hesitation ? "hesitation" : item.act === "irregularity" ? "irr-row" : "" },
      el("td", {}, item.t === null ? "" : Number(item.t).toFixed(1)), el("td", {}, item.seat || ""),
      el("td", {}, item.act), el("td", {}, item.act === "card" ? cardNode(item.what) : item.act === "call" ? callNode(item.what, item.alert) : item.what),
      el("td", {}, item.think === null || item.think === undefined ? "" : Number(item.think).toFixed(1) + " s",
        item.hesitation ? el("div", { class: "warn-text" }, "hesitation: " + item.hesitation.detail) : null)));
  }
  return table;
}

function render(view) {
  lastView = view;
  window.lastView = view;
  replaceChildren("title", "Arbiter \u00b7 " + (view.table_name || ""));
  announce(view);
  const board = view.board;
  const pending = view.irregularities.slice().sort((a, b) =>
    (b.status === "awaiting_ruling") - (a.status === "awaiting_ruling") || b.id - a.id);
  replaceChildren("pending", pending.length ? pending.map(irregularityNode) : el("p", { class: "muted" }, "None on this board"));
  if (board) {
    replaceChildren("board-info", el("span", { class: "board-no" }, "Board " + (board.number ?? board.index)),
      el("span", {}, "Dealer " + board.dealer), el("span", { class: "vul vul-" + board.vul }, vulText(board.vul)),
      el("span", {}, view.code));
    replaceChildren("deal", dealNode(board));
    replaceChildren("auction", auctionNode(board));
    replaceChildren("contract", contractNode(board.contract, board.declarer));
    replaceChildren("turn", view.turn ? "To act: " + SEAT_NAME[view.turn] +
      (board.legal_cards.length ? " \u00b7 legal: " + board.legal_cards.join(" ") : "") : board.phase);
    replaceChildren("trick", compassNode(board.current_trick, board.held_cards));
    replaceChildren("tricks-won", el("span", { class: "won" }, "NS ", el("b", {}, board.tricks_won.NS)),
      el("span", { class: "won" }, "EW ", el("b", {}, board.tricks_won.EW)));
    const extras = [];
    for (const p of board.penalty_cards) extras.push(el("div", {}, (p.major ? "Major" : "Minor") + " penalty card " + p.seat + " ", cardNode(p.card)));
    for (const r of board.restrictions) extras.push(el("div", { class: "muted" }, r.seat + ": " + r.kind.replace(/_/g, " ") + " " + r.suits.join(" ") + " " + (r.mode || "") + " (from " + r.source + ")"));
    for (const rv of board.revokes) extras.push(el("div", {}, "Revoke " + rv.id + " by " + rv.seat + " at trick " + rv.trick + (rv.established ? ", established" : ", not established") + (rv.exempt ? " (" + rv.exempt + ")" : "")));
    if (board.claim) extras.push(el("div", { class: "claim" }, "Claim by " + board.claim.seat + ": " + board.claim.tricks + " tricks; agreed " + (board.claim.agreed.join(", ") || "\u2014") + (board.claim.disputed ? " \u00b7 disputed" : "") + (board.claim.statement ? " \u00b7 \u201c" + board.claim.statement + "\u201d" : "")));
    replaceChildren("extras", extras);
    replaceChildren("timeline", timelineNode(board.timeline));
  } else {
    replaceChildren("board-info", "No board yet");
    for (const id of ["deal", "auction", "contract", "turn", "trick", "tricks-won", "extras", "timeline"]) replaceChildren(id);
  }
  replaceChildren("score", scoreNode(view.score, board));
  const sheet = el("table", { class: "sheet" }, el("tr", {}, ["deal", "side", "points", "", "what"].map((h) => el("th", {}, h))));
  for (const e of view.score.entries) sheet.append(el("tr", {}, el("td", {}, e.deal), el("td", {}, e.side), el("td", {}, e.points), el("td", {}, e.below ? "below" : "above"), el("td", {}, e.label)));
  const boards = el("table", { class: "sheet" }, el("tr", {}, ["board", "contract", "result", "NS"].map((h) => el("th", {}, h))));
  for (const b of view.score.boards) boards.append(el("tr", {}, el("td", {}, b.number ?? b.index), el("td", {}, contractNode(b.contract, b.declarer)), el("td", {}, b.result || b.status), el("td", {}, b.score_ns ?? "")));
  replaceChildren("sheet", view.score.code === "duplicate" ? boards : [sheet, boards]);
  replaceChildren("health", view.health.length ? view.health.map((h) => el("div", { class: h.up ? "ok-text" : "warn-text" },
    (h.up ? "\u2714 " : "\u2716 ") + h.device + (h.detail ? ": " + h.detail : ""))) : el("p", { class: "muted" }, "No device reports"));
  replaceChildren("notices", view.notices.slice().reverse().map((n) => el("div", { class: "notice" },
    Number(n.t).toFixed(1) + " " + n.kind.replace(/_/g, " ") + (n.seat ? " " + n.seat : "") + (n.detail ? ": " + n.detail : ""))));
}

function entryBody() {
  const kind = document.getElementById("entry-kind").value;
  const seat = document.getElementById("entry-seat").value;
  const value = document.getElementById("entry-value").value.trim();
  const extra = document.getElementById("entry-extra").value.trim();
  const cards = value.toUpperCase().split(/[\s,]+/).filter(Boolean);
  switch (kind) {
    case "play": return { seat, play: value.toUpperCase(), deemed: true };
    case "designate": return { seat, designate: value.toUpperCase() };
    case "expose": return { seat, expose: value.toUpperCase() };
    case "call": return { seat, call: value };
    case "face": return { seat, face: cards };
    case "claim": return { seat, claim: Number(value) };
    case "concede": return { seat, concede: Number(value) };
    case "agree": return { seat, agree: true };
    case "dispute": return { seat, agree: false };
    case "director": return { seat, director: true };
    case "adjust": return { adjust: { tricks: Number(value) } };
    case "undo_ruling": return { undo_ruling: Number(value) };
    case "board": {
      const board = {};
      if (value) board.number = Number(value);
      if (extra) board.deal = extra;
      return { board };
    }
  }
  return {};
}

function start() {
  document.getElementById("login").hidden = true;
  document.getElementById("app").hidden = false;
  document.getElementById("logout").hidden = false;
  seenAwaiting = null;
  const badge = statusBadge("status");
  socket = liveSocket("/ws/arbiter", render, (state) => {
    badge(state);
    if (state !== "live") {
      fetch("/api/arbiter/session", { credentials: "same-origin" }).then((r) => {
        if (r.status === 401) showLogin("Your session has ended: log in again");
      }).catch(() => {});
    }
  });
}

document.getElementById("login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  unlockAudio();
  const pin = document.getElementById("pin");
  try {
    const result = await api("POST", "/api/arbiter/login", { pin: pin.value });
    csrf = result.csrf;
    pin.value = "";
    start();
  } catch (err) {
    replaceChildren("login-error", err.message);
  }
});

document.getElementById("logout").addEventListener("click", async () => {
  try { await fetch("/api/arbiter/logout", { method: "POST", headers: { "X-CSRF-Token": csrf || "" }, credentials: "same-origin" }); } catch (err) { /* gone anyway */ }
  showLogin("");
});

document.getElementById("entry-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send("/api/arbiter/actions", entryBody(), document.getElementById("entry-kind").selectedOptions[0].textContent);
});

document.getElementById("raw-form").addEventListener("submit", (event) => {
  event.preventDefault();
  let body;
  try { body = JSON.parse(document.getElementById("raw").value); } catch (err) {
    replaceChildren("action-error", "not JSON: " + err.message);
    return;
  }
  send("/api/arbiter/actions", body, "Table-log line");
});

document.getElementById("claimhelp-button").addEventListener("click", async () => {
  replaceChildren("claimhelp", el("p", { class: "muted" }, "solving\u2026"));
  try {
    const help = await api("GET", "/api/arbiter/claimhelp");
    replaceChildren("claimhelp",
      el("p", {}, "Claimer " + help.claimer + " \u00b7 remaining tricks " + help.remaining_tricks +
        " \u00b7 double dummy: ", el("b", { id: "dd-tricks" }, help.dd_tricks === null ? "unknown" : help.dd_tricks)),
      help.outstanding_trumps.length ? el("p", {}, "Outstanding trumps: ", help.outstanding_trumps.map(cardNode)) : null,
      el("div", { class: "deal small" }, SEATS.map((s) => el("div", { class: "deal-" + s },
        help.hands[s] ? handNode(help.hands[s], SEAT_NAME[s]) : el("p", {}, SEAT_NAME[s] + ": unknown")))),
      help.claim && help.claim.statement ? el("p", {}, "Statement: \u201c" + help.claim.statement + "\u201d") : null);
  } catch (err) {
    replaceChildren("claimhelp", el("p", { class: "error" }, err.message));
  }
});

fetch("/api/arbiter/session", { credentials: "same-origin" }).then(async (r) => {
  if (r.ok) { csrf = (await r.json()).csrf; start(); } else showLogin("");
}).catch(() => showLogin(""));
