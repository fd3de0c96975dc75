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
      : Array.isArray(detail) ? detail.map((d) => {
        const where = (d.loc || []).filter((x) => x !== "body").join(" ");
        return (where ? where + ": " : "") + String(d.msg).replace(/^Value error, /, "");
      }).join("; ") : response.statusText;
    const error = new Error(text || ("error " + response.status));
    error.status = response.status;
    throw error;
  }
  return data;
}

// The PIN session of the arbiter's page and of the console: the same flow, each with its own
// paths ({login, logout, session}). It wires the log-in form and the log-out button, asks the
// server at once whether a session is live, and shows the log-in form whenever it ends.
// onStart() opens the page's live link; onSignedOut() closes it. Returns {api, showLogin, check}:
// api(method, path, body) sends with the session's CSRF token; check() asks, after the live link
// dropped, whether the session is still there.
function pinSession(paths, onStart, onSignedOut) {
  let csrf = null;
  const ended = "Your session has ended: log in again";

  function showLogin(message) {
    document.getElementById("login").hidden = false;
    document.getElementById("app").hidden = true;
    document.getElementById("logout").hidden = true;
    replaceChildren("login-error", message || "");
    replaceChildren("status", "signed out");
    document.getElementById("status").className = "status warn";
    onSignedOut();
    csrf = null;
  }

  function begin(token) {
    csrf = token;
    document.getElementById("login").hidden = true;
    document.getElementById("app").hidden = false;
    document.getElementById("logout").hidden = false;
    onStart();
  }

  async function api(method, path, body) {
    try {
      return await requestJson(method, path, body, csrf);
    } catch (err) {
      if (err.status === 401 && path !== paths.login) showLogin(ended);
      throw err;
    }
  }

  function check() {
    fetch(paths.session, { credentials: "same-origin" }).then((r) => {
      if (r.status === 401) showLogin(ended);
    }).catch(() => {});
  }

  document.getElementById("login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    unlockAudio();  // a click lets the page make sounds: the alarm's beep
    const pin = document.getElementById("pin");
    try {
      const name = document.getElementById("login-name");  // a console with a team of Directors: who signs in
      const body = name && !name.closest("[hidden]") ? { name: name.value.trim(), pin: pin.value } : { pin: pin.value };
      const result = await api("POST", paths.login, body);
      pin.value = "";
      begin(result.csrf);
    } catch (err) {
      replaceChildren("login-error", err.message);
    }
  });

  document.getElementById("logout").addEventListener("click", async () => {
    try { await requestJson("POST", paths.logout, undefined, csrf); } catch (err) { /* gone anyway */ }
    showLogin("");
  });

  fetch(paths.session, { credentials: "same-origin" }).then(async (r) => {
    if (r.ok) begin((await r.json()).csrf); else showLogin("");
  }).catch(() => showLogin(""));

  return { api, showLogin, check };
}

// --- irregularities and their options ------------------------------------------------------------

// one argument's input inside its label (the catalogue's label); suits offered as checkboxes
function argInput(irr, option, spec) {
  const name = "arg-" + irr.id + "-" + option + "-" + spec.name;
  const label = plain(spec.label || spec.name);
  const labelled = (input) => el("label", { class: "arg", for: name }, el("span", { class: "arg-label" }, label), input);
  if (spec.type === "suit") {
    return labelled(el("select", { name: spec.name, id: name },
      (spec.choices || ["S", "H", "D", "C"]).map((s) => el("option", { value: s }, SUIT_SYMBOL[s] + " " + SUIT_WORD[s]))));
  }
  if (spec.type === "suits") {
    return el("fieldset", { class: "arg suits", id: name }, el("legend", { class: "arg-label" }, label),
      (spec.choices || ["S", "H", "D", "C"]).map((s) => el("label", { class: "flag" },
        el("input", { type: "checkbox", name: spec.name, value: s }), SUIT_SYMBOL[s] + " " + SUIT_WORD[s])));
  }
  if (spec.type === "card" && spec.choices && spec.choices.length) {
    return labelled(el("select", { name: spec.name, id: name },
      spec.required ? null : el("option", { value: "" }, "\u2014"),
      spec.choices.map((c) => el("option", { value: c }, cardsInText(c)))));
  }
  if (spec.type === "card") {
    return labelled(el("input", { name: spec.name, id: name, placeholder: "e.g. SK", size: 5, maxlength: 3 }));
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
    else if (key === "card") parts.push(cardsInText(value));
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
    irr.detail ? el("div", { class: "irr-detail" }, cardsInText(irr.detail)) : null,
    el("div", { class: "muted" }, "Offender " + (SEAT_NAME[irr.offender] || "\u2014") + " \u00b7 chooses " +
      irr.chooser + (SEAT_NAME[irr.chooser] ? " (" + SEAT_NAME[irr.chooser] + ")" : "") +
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

// the board's calls and cards with their think times; an irregularity the arbiter rules on stands
// out as its own row, the notes (a long think noted, an irregularity only recorded) stay quiet
function timelineNode(items) {
  const table = el("table", { class: "timeline" },
    el("tr", {}, ["time", "seat", "", "think"].map((h) => el("th", { scope: "col" }, h))));
  const time = (item) => el("td", {}, item.t === null || item.t === undefined ? "" : Number(item.t).toFixed(1));
  for (const item of items) {
    if (item.act === "irregularity") {
      const title = (item.title || plain(item.what)) + (item.law ? " (Law " + item.law + ")" : "");
      table.append(el("tr", { class: item.note ? "note-row" : "irr-row", "data-irr": item.id },
        time(item), el("td", {}, item.seat || ""),
        el("td", { colspan: 2 }, item.note
          ? "Noted: " + title
          : el("b", {}, "\u26a0 Irregularity " + item.id + ": " + title + (item.status ? " \u00b7 " + plain(item.status) : "")))));
      continue;
    }
    const hes = item.hesitation;
    const noteOnly = hes && hes.status !== "awaiting_ruling";  // an alert (Law 16) waits for the arbiter
    table.append(el("tr", { class: hes ? (noteOnly ? "act-row noted-think" : "act-row hesitation") : "act-row" },
      time(item), el("td", {}, item.seat || ""),
      el("td", {}, item.act === "card" ? cardNode(item.what) : item.act === "call" ? callNode(item.what, item.alert)
        : plain(item.what)),
      el("td", {}, item.think === null || item.think === undefined ? "" : Number(item.think).toFixed(1) + " s",
        hes ? el("div", { class: noteOnly ? "muted note" : "warn-text" },
          (noteOnly ? "note: " : "hesitation: ") + hes.detail) : null)));
  }
  return table;
}

function extrasNodes(board) {
  const extras = [];
  for (const p of board.penalty_cards) extras.push(el("div", {}, (p.major ? "Major" : "Minor") + " penalty card of " + SEAT_NAME[p.seat] + " ", cardNode(p.card)));
  for (const r of board.restrictions) {
    extras.push(el("div", { class: "muted" }, (restrictionText(r) || SEAT_NAME[r.seat] + ": " + plain(r.kind) + " " +
      suitsText(r.suits) + " " + plain(r.mode)) + " (irregularity " + r.source + ")"));
  }
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
  return score.duplicated_boards ? [boards] : [sheet, boards];  // duplicate: each board alone
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
    part("turn", view.turn ? ["To act: " + SEAT_NAME[view.turn],
      board.legal_cards.length ? el("span", { class: "legal" }, " \u00b7 legal: ", board.legal_cards.map((c) => [cardNode(c), " "]).flat()) : null]
      : plain(board.phase));
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
// A manual entry is checked here first (a wrong card or call is told in words), then shown as the
// sentence of what will be recorded, and sent only once the arbiter confirms it.

// kind, its name in the list, whether it needs a seat, what its value is (null: none)
const ENTRY_KINDS = [
  ["play", "card deemed played (Law 45)", true, "card"], ["designate", "dummy's card designated", true, "card"],
  ["expose", "card exposed", true, "card"], ["call", "call", true, "call"], ["face", "cards faced", true, "cards"],
  ["claim", "claim (tricks)", true, "tricks"], ["concede", "concession (tricks)", true, "tricks"],
  ["agree", "agrees to the claim", true, null], ["dispute", "disputes the claim", true, null],
  ["director", "arbiter called", true, null], ["adjust", "adjust: declarer's tricks", false, "tricks"],
  ["undo_ruling", "undo ruling (id)", false, "id"], ["board", "new board (number, deal)", false, "number"],
];

const VALUE_LABEL = {
  card: "Card (e.g. SK or H10)", call: "Call (e.g. 1NT, Pass, X)", cards: "Cards (e.g. SA S7 HK)",
  tricks: "Tricks (0 to 13)", id: "Irregularity number", number: "Board number (optional)",
};

// "sk", "S10", "♠K" -> "SK"; null when it is not a card
function parseCard(text) {
  const t = String(text).trim().toUpperCase().replace("\u2660", "S").replace("\u2665", "H").replace("\u2666", "D")
    .replace("\u2663", "C").replace(/^([SHDC])\s*10$/, "$1T");
  return /^[SHDC][AKQJT2-9]$/.test(t) ? t : null;
}

// "pass", "p", "x", "1n", "1♥" -> "Pass", "Pass", "X", "1NT", "1H"; null when it is not a call
function parseCall(text) {
  const t = String(text).trim().toUpperCase().replace("\u2660", "S").replace("\u2665", "H").replace("\u2666", "D")
    .replace("\u2663", "C").replace(/\s+/g, "");
  if (t === "PASS" || t === "P") return "Pass";
  if (t === "X" || t === "DOUBLE" || t === "DBL") return "X";
  if (t === "XX" || t === "REDOUBLE" || t === "RDBL") return "XX";
  const m = /^([1-7])(C|D|H|S|NT?)$/.exec(t);
  return m ? m[1] + (m[2] === "N" ? "NT" : m[2]) : null;
}

// what the form says -> {body, sentence} to confirm, or {error} in words
function entryOf(kindCode, seat, value, extra) {
  const kind = ENTRY_KINDS.find((k) => k[0] === kindCode);
  if (!kind) return { error: "Choose what happened." };
  const [, , needsSeat, type] = kind;
  if (needsSeat && !SEAT_NAME[seat]) return { error: "Choose the seat: North, East, South or West." };
  const who = SEAT_NAME[seat];
  if (type === "card") {
    const card = parseCard(value);
    if (!card) return { error: (value ? "\u201c" + value + "\u201d is not a card" : "Enter a card") +
      ": write the suit letter (S, H, D or C) then the rank, e.g. SK for \u2660K or H10 for \u266510." };
    const c = cardsInText(card);
    if (kindCode === "play") return { body: { seat, play: card, deemed: true }, sentence: who + " plays " + c + " (a card deemed played, Law 45)." };
    if (kindCode === "designate") return { body: { seat, designate: card }, sentence: who + " designates " + c + " from dummy." };
    return { body: { seat, expose: card }, sentence: who + " exposes " + c + "." };
  }
  if (type === "call") {
    const call = parseCall(value);
    if (!call) return { error: (value ? "\u201c" + value + "\u201d is not a call" : "Enter a call") +
      ": a bid from 1C to 7NT, Pass, X (double) or XX (redouble)." };
    return { body: { seat, call }, sentence: who + " calls " + callText(call) + "." };
  }
  if (type === "cards") {
    const words = String(value).trim().split(/[\s,]+/).filter(Boolean);
    const cards = words.map(parseCard);
    const bad = words.filter((w, i) => !cards[i]);
    if (!words.length || bad.length) return { error: (bad.length ? "\u201c" + bad.join(" ") + "\u201d " +
      (bad.length > 1 ? "are not cards" : "is not a card") : "Enter the cards") + ": write each as suit then rank, e.g. SA S7 HK." };
    return { body: { seat, face: cards }, sentence: who + " faces " + cards.map(cardsInText).join(" ") + "." };
  }
  if (type === "tricks" || type === "id" || (type === "number" && value)) {
    const n = Number(value);
    const max = type === "tricks" ? 13 : type === "number" ? 9999 : 1000000;
    const min = type === "tricks" ? 0 : 1;
    if (!/^\d+$/.test(String(value).trim()) || n < min || n > max) {
      return { error: (value ? "\u201c" + value + "\u201d is not " : "Enter ") + (type === "tricks" ? "a number of tricks from 0 to 13."
        : type === "id" ? "an irregularity's number (see the list of irregularities)." : "a board number.") };
    }
    if (kindCode === "claim") return { body: { seat, claim: n }, sentence: who + " claims " + n + " trick" + (n === 1 ? "" : "s") + "." };
    if (kindCode === "concede") return { body: { seat, concede: n }, sentence: who + " concedes " + n + " trick" + (n === 1 ? "" : "s") + "." };
    if (kindCode === "adjust") return { body: { adjust: { tricks: n } }, sentence: "Declarer's tricks are set to " + n + " (an adjustment)." };
    if (kindCode === "undo_ruling") return { body: { undo_ruling: n }, sentence: "The ruling on irregularity " + n + " is undone." };
  }
  if (kindCode === "board") {
    const board = {};
    if (value) board.number = Number(value);
    if (extra) board.deal = extra;
    return { body: { board }, sentence: "A new board starts" + (value ? ": board " + value : "") + (extra ? ", with the deal given" : "") + "." };
  }
  if (kindCode === "agree") return { body: { seat, agree: true }, sentence: who + " agrees to the claim." };
  if (kindCode === "dispute") return { body: { seat, agree: false }, sentence: who + " disputes the claim." };
  if (kindCode === "director") return { body: { seat, director: true }, sentence: who + " calls the arbiter." };
  return { error: "Choose what happened." };
}

// The manual entry form (labelled; no seat chosen in advance; checked, then confirmed) and the raw
// table-log line, posting to actionsUrl; ids start with prefix.
function entryFormNodes(prefix, actionsUrl, send, onError) {
  const id = (name) => prefix + name;
  const field = (label, input, extraClass) => el("label", { class: "field" + (extraClass ? " " + extraClass : ""), for: input.id },
    el("span", { class: "field-label" }, label), input);
  const kind = el("select", { id: id("entry-kind"), name: "kind" }, ENTRY_KINDS.map(([v, t]) => el("option", { value: v }, t)));
  const seat = el("select", { id: id("entry-seat"), name: "seat" }, el("option", { value: "", selected: true }, "choose\u2026"),
    SEATS.map((s) => el("option", { value: s }, SEAT_NAME[s])));
  const value = el("input", { id: id("entry-value"), name: "value", autocomplete: "off" });
  const extra = el("input", { id: id("entry-extra"), name: "deal", autocomplete: "off", placeholder: "N:AKQ.... (optional)" });
  const valueLabel = el("span", { class: "field-label" });
  const seatField = field("Seat", seat);
  const valueField = el("label", { class: "field", for: value.id }, valueLabel, value);
  const extraField = field("Deal (PBN)", extra, "wide");
  const error = el("p", { id: id("entry-error"), class: "error", role: "alert" });
  const confirmText = el("p", { id: id("entry-confirm-text"), class: "confirm-text" });
  const recordButton = el("button", { type: "button", id: id("entry-record") }, "Record it");
  const changeButton = el("button", { type: "button", id: id("entry-change"), class: "secondary" }, "Change");
  const confirm = el("div", { id: id("entry-confirm"), class: "confirm", hidden: true },
    el("p", { class: "confirm-head" }, "This will be recorded:"), confirmText, el("div", { class: "confirm-buttons" }, recordButton, changeButton));
  let pending = null;
  const shape = () => {
    const [, , needsSeat, type] = ENTRY_KINDS.find((k) => k[0] === kind.value);
    seatField.hidden = !needsSeat;
    valueField.hidden = type === null;
    valueLabel.textContent = type ? VALUE_LABEL[type] : "";
    extraField.hidden = kind.value !== "board";
  };
  const hideConfirm = () => { pending = null; confirm.hidden = true; };
  kind.addEventListener("change", () => { shape(); hideConfirm(); error.textContent = ""; });
  for (const input of [seat, value, extra]) input.addEventListener("input", hideConfirm);
  const form = el("form", { id: id("entry-form"), class: "entry", novalidate: true },
    field("What happened", kind, "wide"), seatField, valueField, extraField,
    el("button", { type: "submit", id: id("entry-check") }, "Check"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const entry = entryOf(kind.value, seat.value, value.value.trim(), extra.value.trim());
    if (entry.error) { error.textContent = entry.error; hideConfirm(); return; }
    error.textContent = "";
    pending = { body: entry.body, what: kind.selectedOptions[0].textContent };
    confirmText.textContent = entry.sentence;
    confirm.hidden = false;
  });
  recordButton.addEventListener("click", async () => {
    if (!pending) return;
    const { body, what } = pending;
    hideConfirm();
    await send(actionsUrl, body, what);
  });
  changeButton.addEventListener("click", hideConfirm);
  shape();
  const raw = el("input", { id: id("raw"), placeholder: '{"seat":"S","play":"SK"}', autocomplete: "off" });
  const rawForm = el("form", { id: id("raw-form"), class: "entry" }, field("Table-log action (JSON)", raw, "wide"),
    el("button", { type: "submit" }, "Send"));
  rawForm.addEventListener("submit", (event) => {
    event.preventDefault();
    let body;
    try { body = JSON.parse(raw.value); } catch (err) { onError("This line is not JSON: write one action as in the table log, e.g. {\"seat\": \"S\", \"play\": \"SK\"}."); return; }
    send(actionsUrl, body, "Table-log line");
  });
  return [form, error, confirm, el("details", {}, el("summary", {}, "Table-log line"), rawForm)];
}
