// One renderer of a table's arbiter view (controller/views.py arbiter_view), shared by the table's
// arbiter page and the Director's console: the irregularities with their law, who chooses and the
// options (each the catalogue's plain sentence for this irregularity, its labelled inputs and a
// button; once ruled, the ruling as a sentence and no buttons); the deal, auction and play; the
// timeline; claim help; the
// score sheet; devices and notices; manual entries. Nothing here knows where it posts: every
// function that sends takes the URL (the table page posts to /api/arbiter/..., the console to
// /api/tables/{id}/...) and the page's send(url, body, what), which shows the answer.
// Needs common.js.
"use strict";

// "accept_see_dummy" -> "accept see dummy": a code in plain words (the options' sentences come from
// the catalogue, controller/catalogue, through the view)
function plain(code) {
  return code === null || code === undefined ? "" : String(code).replace(/_/g, " ");
}

// --- the alarm: a beep (once a click has unlocked the audio) and a vibration ----------------------

let alarmAudio = null;

function unlockAudio() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (Ctx && !alarmAudio) alarmAudio = new Ctx();
    if (alarmAudio && alarmAudio.state === "suspended") alarmAudio.resume();
  } catch (err) { alarmAudio = null; }
}

function beep() {
  if (!alarmAudio) return;
  const now = alarmAudio.currentTime;
  for (const [start, freq] of [[0, 880], [0.25, 660], [0.5, 880]]) {
    const osc = alarmAudio.createOscillator();
    const gain = alarmAudio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(0.4, now + start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + 0.2);
    osc.connect(gain).connect(alarmAudio.destination);
    osc.start(now + start);
    osc.stop(now + start + 0.22);
  }
}

function ringAlarm() {
  beep();
  if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
}

// --- requests -----------------------------------------------------------------------------------

// method path body -> the answer's JSON; rejects with an Error whose message is the server's detail
// and whose .status is the HTTP status (0: the server could not be reached)
async function requestJson(method, path, body, csrf) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin" });
  } catch (err) {
    const error = new Error("the server cannot be reached");
    error.status = 0;
    throw error;
  }
  let data = null;
  try { data = await response.json(); } catch (err) { data = null; }
  if (!response.ok) {
    const detail = data && data.detail;
    const text = typeof detail === "string" ? detail
      : Array.isArray(detail) ? detail.map((d) => d.msg).join("; ") : response.statusText;
    const error = new Error(text || ("error " + response.status));
    error.status = response.status;
    throw error;
  }
  return data;
}

// --- irregularities and their options ------------------------------------------------------------

// one argument's input inside its label (the catalogue's label); suits offered as checkboxes
function argInput(irr, option, spec) {
  const name = "arg-" + irr.id + "-" + option + "-" + spec.name;
  const label = plain(spec.label || spec.name);
  const labelled = (input) => el("label", { class: "arg", for: name }, el("span", { class: "arg-label" }, label), input);
  if (spec.type === "suit") {
    return labelled(el("select", { name: spec.name, id: name },
      (spec.choices || ["S", "H", "D", "C"]).map((s) => el("option", { value: s }, SUIT_SYMBOL[s] + " " + s))));
  }
  if (spec.type === "suits") {
    return el("fieldset", { class: "arg suits", id: name }, el("legend", { class: "arg-label" }, label),
      (spec.choices || ["S", "H", "D", "C"]).map((s) => el("label", { class: "flag" },
        el("input", { type: "checkbox", name: spec.name, value: s }), SUIT_SYMBOL[s] + " " + s)));
  }
  if (spec.type === "card" && spec.choices && spec.choices.length) {
    return labelled(el("select", { name: spec.name, id: name },
      spec.required ? null : el("option", { value: "" }, "\u2014"),
      spec.choices.map((c) => el("option", { value: c }, c))));
  }
  if (spec.type === "card") {
    return labelled(el("input", { name: spec.name, id: name, placeholder: "SK", size: 3, maxlength: 2 }));
  }
  if (spec.type === "tricks") {
    return labelled(el("input", { name: spec.name, id: name, type: "number", min: spec.min ?? 0, max: spec.max ?? 13,
      placeholder: "tricks", inputmode: "numeric" }));
  }
  return el("label", { class: "flag" }, el("input", { type: "checkbox", name: spec.name, id: name }), label);
}

// the ruling body of an option's form: {id, option, ...its arguments}
function rulingBody(form, irr, option, specs) {
  const body = { id: irr.id, option };
  for (const spec of specs) {
    if (spec.type === "suits") {
      const picked = Array.from(form.querySelectorAll("input[name='" + spec.name + "']:checked")).map((i) => i.value);
      if (picked.length) body[spec.name] = picked;
      continue;
    }
    const input = form.elements[spec.name];
    if (!input) continue;
    if (spec.type === "flag") { if (input.checked) body[spec.name] = true; continue; }
    const value = input.value.trim();
    if (!value) continue;
    body[spec.name] = spec.type === "tricks" ? Number(value) : spec.type === "card" ? value.toUpperCase() : value;
  }
  return body;
}

// one option: its sentence, its labelled inputs and its button; submitting it posts the ruling to rulingsUrl
function optionForm(irr, option, rulingsUrl, send) {
  const specs = (irr.option_args && irr.option_args[option]) || [];
  const sentence = irr.option_sentences && irr.option_sentences[option];
  const button = el("button", { type: "submit", class: "option-button", "data-irr": irr.id, "data-option": option },
    plain(option));
  const form = el("form", { class: "option", "data-option": option },
    sentence ? el("p", { class: "option-sentence" }, sentence) : null,
    el("div", { class: "option-inputs" }, specs.map((spec) => argInput(irr, option, spec)), button));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;  // one tap, one ruling
    try {
      await send(rulingsUrl, rulingBody(form, irr, option, specs), "Ruling " + plain(option) + " on " + irr.id);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

// {"option": "forbid_suit", "suit": "S"} -> "forbid suit ♠"
function rulingText(ruling) {
  const parts = [plain(ruling.option)];
  for (const [key, value] of Object.entries(ruling)) {
    if (key === "option") continue;
    if (key === "suit") parts.push(SUIT_SYMBOL[value] || value);
    else if (key === "tricks") parts.push(value + " tricks");
    else if (key === "card") parts.push(value);
    else if (key === "by") parts.push("by " + value);
    else if (value === true) parts.push(plain(key));
    else if (value === false) parts.push("not " + plain(key));
    else parts.push(plain(key) + " " + plain(value));
  }
  return parts.join(" ");
}

// what was decided: "Ruled: <the option's sentence>" (or accepted by acting on), else the ruling's codes
function rulingNode(irr) {
  if (!irr.ruling) return null;
  if (irr.ruling_sentence && (irr.status === "ruled" || irr.status === "accepted")) {
    return el("div", { class: "ruling" }, (irr.status === "ruled" ? "Ruled: " : "Accepted: ") + irr.ruling_sentence);
  }
  return el("div", { class: "ruling" }, "Ruling: " + rulingText(irr.ruling));
}

function irregularityNode(irr, rulingsUrl, send) {
  const options = () => irr.options.map((o) => optionForm(irr, o, rulingsUrl, send));
  // a revoke ruled on may be ruled again (corrected, or its transfer adjusted: Laws 62, 64C), on request
  const again = irr.kind === "revoke" && irr.status === "ruled";
  const title = irr.title || plain(irr.situation);
  return el("div", { class: "irr-card irr-" + irr.status, "data-irr": irr.id },
    el("div", { class: "irr-head" }, el("b", {}, irr.id + ". " + lawText(irr)),
      title.toLowerCase() === plain(irr.kind) ? null : el("span", { class: "muted" }, " " + title)),
    irr.detail ? el("div", {}, irr.detail) : null,
    el("div", { class: "muted" }, "Offender " + (irr.offender || "\u2014") + " \u00b7 chooses " + irr.chooser +
      " \u00b7 " + plain(irr.status) + (irr.trick ? " \u00b7 trick " + irr.trick : "") +
      (irr.public ? " \u00b7 shown at the table" : " \u00b7 arbiter only")),
    rulingNode(irr),
    irr.status === "awaiting_ruling" ? el("div", { class: "options" }, options()) : null,
    again ? el("details", { class: "rule-again" }, el("summary", {}, "Rule again"), el("div", { class: "options" }, options()))
      : null);
}

// the irregularities awaiting a ruling first, then the latest
function irregularitiesNode(view, rulingsUrl, send) {
  const pending = view.irregularities.slice().sort((a, b) =>
    (b.status === "awaiting_ruling") - (a.status === "awaiting_ruling") || b.id - a.id);
  return pending.length ? pending.map((irr) => irregularityNode(irr, rulingsUrl, send))
    : el("p", { class: "muted" }, "None on this board");
}

// --- the board ------------------------------------------------------------------------------------

function dealNode(board) {
  if (!board.hands) return el("p", { class: "muted" }, "No hand record: hands are learnt as cards are seen");
  const remaining = board.hands_remaining || {};
  const handOf = (seat) => {
    const node = handNode(board.hands[seat], SEAT_NAME[seat] + (board.declarer === seat ? " (declarer)" : board.dummy === seat ? " (dummy)" : ""));
    const left = new Set(remaining[seat] || board.hands[seat]);
    for (const span of node.querySelectorAll("[data-card]")) if (!left.has(span.dataset.card)) span.classList.add("played");
    return el("div", { class: "deal-" + seat }, node);
  };
  return el("div", { class: "deal" }, SEATS.map(handOf), el("div", { class: "deal-centre" }));
}

function timelineNode(items) {
  const table = el("table", { class: "timeline" }, el("tr", {}, ["t", "seat", "act", "", "think"].map((h) => el("th", {}, h))));
  for (const item of items) {
    table.append(el("tr", { class: item.hesitation ? "hesitation" : item.act === "irregularity" ? "irr-row" : "" },
      el("td", {}, item.t === null ? "" : Number(item.t).toFixed(1)), el("td", {}, item.seat || ""),
      el("td", {}, plain(item.act)), el("td", {}, item.act === "card" ? cardNode(item.what) : item.act === "call" ? callNode(item.what, item.alert) : plain(item.what)),
      el("td", {}, item.think === null || item.think === undefined ? "" : Number(item.think).toFixed(1) + " s",
        item.hesitation ? el("div", { class: "warn-text" }, "hesitation: " + item.hesitation.detail) : null)));
  }
  return table;
}

function extrasNodes(board) {
  const extras = [];
  for (const p of board.penalty_cards) extras.push(el("div", {}, (p.major ? "Major" : "Minor") + " penalty card " + p.seat + " ", cardNode(p.card)));
  for (const r of board.restrictions) extras.push(el("div", { class: "muted" }, r.seat + ": " + plain(r.kind) + " " + r.suits.join(" ") + " " + (r.mode || "") + " (from " + r.source + ")"));
  for (const rv of board.revokes) extras.push(el("div", {}, "Revoke " + rv.id + " by " + rv.seat + " at trick " + rv.trick + (rv.established ? ", established" : ", not established") + (rv.exempt ? " (" + plain(rv.exempt) + ")" : "")));
  if (board.claim) extras.push(el("div", { class: "claim" }, "Claim by " + board.claim.seat + ": " + board.claim.tricks + " tricks; agreed " + (board.claim.agreed.join(", ") || "\u2014") + (board.claim.disputed ? " \u00b7 disputed" : "") + (board.claim.statement ? " \u00b7 \u201c" + board.claim.statement + "\u201d" : "")));
  return extras;
}

// claim help (Laws 68-70): the position and its double-dummy value, or why there is none
function claimHelpNode(help) {
  if (!help) return el("p", { class: "muted" }, "No claim pending");
  if (help.error) return el("p", { class: "error" }, help.error);
  return [
    el("p", {}, "Claimer " + help.claimer + " \u00b7 remaining tricks " + help.remaining_tricks +
      " \u00b7 double dummy: ", el("b", { class: "dd-tricks" }, help.dd_tricks === null ? "unknown" : help.dd_tricks)),
    help.outstanding_trumps.length ? el("p", {}, "Outstanding trumps: ", help.outstanding_trumps.map(cardNode)) : null,
    el("div", { class: "deal small" }, SEATS.map((s) => el("div", { class: "deal-" + s },
      help.hands[s] ? handNode(help.hands[s], SEAT_NAME[s]) : el("p", {}, SEAT_NAME[s] + ": unknown")))),
    help.claim && help.claim.statement ? el("p", {}, "Statement: \u201c" + help.claim.statement + "\u201d") : null,
  ];
}

function sheetNodes(score) {
  const sheet = el("table", { class: "sheet" }, el("tr", {}, ["deal", "side", "points", "", "what"].map((h) => el("th", {}, h))));
  for (const e of score.entries) sheet.append(el("tr", {}, el("td", {}, e.deal), el("td", {}, e.side), el("td", {}, e.points), el("td", {}, e.below ? "below" : "above"), el("td", {}, e.label)));
  const boards = el("table", { class: "sheet" }, el("tr", {}, ["board", "contract", "result", "NS"].map((h) => el("th", {}, h))));
  for (const b of score.boards) boards.append(el("tr", {}, el("td", {}, b.number ?? b.index), el("td", {}, contractNode(b.contract, b.declarer)), el("td", {}, b.result || plain(b.status)), el("td", {}, b.score_ns ?? "")));
  return score.code === "duplicate" ? [boards] : [sheet, boards];
}

function boardInfoNodes(view) {
  const board = view.board;
  if (!board) return ["No board yet"];
  return [el("span", { class: "board-no" }, "Board " + (board.number ?? board.index)),
    el("span", {}, "Dealer " + board.dealer), el("span", { class: "vul vul-" + board.vul }, vulText(board.vul)),
    el("span", {}, view.code)];
}

// Fills the page's parts of an arbiter view: each part is the element with id prefix + name
// (pending, board-info, deal, auction, contract, turn, trick, tricks-won, extras, timeline, score,
// sheet, health, notices, claimhelp); a part the page does not have is skipped.
function renderArbiterView(view, prefix, rulingsUrl, send) {
  const part = (name, ...children) => replaceChildren(prefix + name, ...children);
  const board = view.board;
  part("pending", irregularitiesNode(view, rulingsUrl, send));
  part("board-info", boardInfoNodes(view));
  if (board) {
    part("deal", dealNode(board));
    part("auction", auctionNode(board));
    part("contract", contractNode(board.contract, board.declarer));
    part("turn", view.turn ? "To act: " + SEAT_NAME[view.turn] +
      (board.legal_cards.length ? " \u00b7 legal: " + board.legal_cards.join(" ") : "") : plain(board.phase));
    part("trick", compassNode(board.current_trick, board.held_cards));
    part("tricks-won", el("span", { class: "won" }, "NS ", el("b", {}, board.tricks_won.NS)),
      el("span", { class: "won" }, "EW ", el("b", {}, board.tricks_won.EW)));
    part("extras", extrasNodes(board));
    part("timeline", timelineNode(board.timeline));
  } else {
    for (const name of ["deal", "auction", "contract", "turn", "trick", "tricks-won", "extras", "timeline"]) part(name);
  }
  if ("claim_help" in view) part("claimhelp", claimHelpNode(view.claim_help));
  part("score", scoreNode(view.score, board));
  part("sheet", sheetNodes(view.score));
  part("health", view.health.length ? view.health.map((h) => el("div", { class: h.up ? "ok-text" : "warn-text" },
    (h.up ? "\u2714 " : "\u2716 ") + h.device + (h.detail ? ": " + h.detail : ""))) : el("p", { class: "muted" }, "No device reports"));
  part("notices", view.notices.slice().reverse().map((n) => el("div", { class: "notice" },
    Number(n.t).toFixed(1) + " " + plain(n.kind) + (n.seat ? " " + n.seat : "") + (n.detail ? ": " + n.detail : ""))));
}

// --- manual entries and corrections ---------------------------------------------------------------

const ENTRY_KINDS = [
  ["play", "card deemed played (Law 45)"], ["designate", "dummy's card designated"], ["expose", "card exposed"],
  ["call", "call"], ["face", "cards faced"], ["claim", "claim (tricks)"], ["concede", "concession (tricks)"],
  ["agree", "agrees to the claim"], ["dispute", "disputes the claim"], ["director", "arbiter called"],
  ["adjust", "adjust: declarer's tricks"], ["undo_ruling", "undo ruling (id)"], ["board", "new board (number, deal)"],
];

function entryBody(kind, seat, value, extra) {
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

// The manual entry form and the raw table-log line, posting to actionsUrl; ids start with prefix.
function entryFormNodes(prefix, actionsUrl, send, onError) {
  const id = (name) => prefix + name;
  const kind = el("select", { id: id("entry-kind"), "aria-label": "what" }, ENTRY_KINDS.map(([v, t]) => el("option", { value: v }, t)));
  const seat = el("select", { id: id("entry-seat"), "aria-label": "seat" }, SEATS.map((s) => el("option", {}, s)));
  const value = el("input", { id: id("entry-value"), "aria-label": "value", placeholder: "SK / 1NT / 9 / id" });
  const extra = el("input", { id: id("entry-extra"), "aria-label": "deal", placeholder: "deal N:... (new board)" });
  const form = el("form", { id: id("entry-form"), class: "entry" }, kind, seat, value, extra, el("button", { type: "submit" }, "Enter"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send(actionsUrl, entryBody(kind.value, seat.value, value.value.trim(), extra.value.trim()), kind.selectedOptions[0].textContent);
  });
  const raw = el("input", { id: id("raw"), "aria-label": "table-log action", placeholder: '{"seat":"S","play":"SK"}' });
  const rawForm = el("form", { id: id("raw-form"), class: "entry" }, raw, el("button", { type: "submit" }, "Send"));
  rawForm.addEventListener("submit", (event) => {
    event.preventDefault();
    let body;
    try { body = JSON.parse(raw.value); } catch (err) { onError("not JSON: " + err.message); return; }
    send(actionsUrl, body, "Table-log line");
  });
  return [form, el("details", {}, el("summary", {}, "Table-log line"), rawForm)];
}
