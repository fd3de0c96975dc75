// The console's scoring desk (needs common.js and console.js): a "Correct / adjust" button on every
// traveller row opens a form to correct the result (Law 79C), give an artificial adjusted score to
// each side (Law 12C2), an assigned one, split or not (Law 12C1), or a procedural penalty (Law 90),
// each with who and why; the history lists every entry, and any of them can be taken back.
// Posts to /api/desk/... (docs/scoring-desk.md).
"use strict";

const DESK_KINDS = [
  ["correction", "Correct the result (Law 79C)"],
  ["artificial", "Artificial score: A+ / A / A- (Law 12C2)"],
  ["assigned", "Assigned score, split or not (Law 12C1)"],
  ["penalty", "Procedural penalty (Law 90)"],
];
const DESK_PATH = { correction: "corrections", artificial: "artificial", assigned: "assigned", penalty: "penalties" };
const AWARDS = [["A+", "average plus (A+)"], ["A", "average (A)"], ["A-", "average minus (A-)"]];

let deskAt = null;      // {board, table}: the traveller row the form is for
let deskEntries = [];   // the desk's entries, oldest first
let deskLoaded = 0;     // Date.now() of the last load

function selectNode(id, options, value) {
  return el("select", { id }, options.map(([v, words]) => el("option", { value: v, selected: v === value }, words)));
}

function field(label, input) {
  return el("label", { class: "desk-field" }, el("span", {}, label), input);
}

function deskValue(id) {
  const node = document.getElementById(id);
  return node ? node.value.trim() : "";
}

function resultFields(prefix, weight) {
  return el("div", { class: "desk-result", "data-prefix": prefix },
    field("Contract", el("input", { id: prefix + "contract", placeholder: "4S, 3NTX or Pass", autocomplete: "off", size: 6 })),
    field("By", selectNode(prefix + "declarer", SEATS.map((s) => [s, SEAT_NAME[s]]), "N")),
    field("Tricks", el("input", { id: prefix + "tricks", type: "number", min: 0, max: 13, inputmode: "numeric", size: 3 })),
    weight ? field("Weight %", el("input", { id: prefix + "weight", type: "number", min: 1, max: 100, inputmode: "decimal", size: 4 }))
      : null);
}

function kindFields(kind) {
  if (kind === "correction") {
    return [resultFields("desk-", false),
      field("Opening lead", el("input", { id: "desk-lead", placeholder: "HK (if known)", autocomplete: "off", size: 4 }))];
  }
  if (kind === "artificial") {
    return [field("North-South", selectNode("desk-ns", AWARDS, "A")), field("East-West", selectNode("desk-ew", AWARDS, "A"))];
  }
  if (kind === "assigned") {
    return [el("p", { class: "muted" }, "One result at 100 %, or up to three whose weights add up to 100 %."),
      resultFields("desk-1-", true), resultFields("desk-2-", true), resultFields("desk-3-", true)];
  }
  const unit = pointsUnit() === "MP" ? "Fraction of a top (0.25: a quarter)" : "IMPs";
  return [field("Side", selectNode("desk-side", [["NS", "North-South"], ["EW", "East-West"]], "NS")),
    field(unit, el("input", { id: "desk-amount", type: "number", min: 0, step: "any", inputmode: "decimal", size: 5 }))];
}

function played(prefix) {
  const contract = deskValue(prefix + "contract");
  const passed = /^pass/i.test(contract);
  const tricks = deskValue(prefix + "tricks");
  return { contract, declarer: passed ? null : deskValue(prefix + "declarer"),
    tricks: passed || tricks === "" ? null : Number(tricks) };
}

function deskBody(kind) {
  if (kind === "correction") {
    const lead = deskValue("desk-lead");
    return { ...played("desk-"), lead: lead ? lead.toUpperCase() : null };
  }
  if (kind === "artificial") return { ns: deskValue("desk-ns"), ew: deskValue("desk-ew") };
  if (kind === "assigned") {
    const results = ["desk-1-", "desk-2-", "desk-3-"].filter((p) => deskValue(p + "contract"))
      .map((p) => ({ ...played(p), weight: deskValue(p + "weight") === "" ? 100 : Number(deskValue(p + "weight")) }));
    return { results };
  }
  return { side: deskValue("desk-side"), amount: Number(deskValue("desk-amount")) };
}

function openDesk(board, table) {
  deskAt = { board, table };
  renderDeskForm("correction");
  document.getElementById("desk-panel").scrollIntoView({ block: "start" });
}

function renderDeskForm(kind) {
  replaceChildren("desk-error", "");
  if (!deskAt) {
    replaceChildren("desk-form", el("p", { class: "muted" }, "Tap \u201cCorrect / adjust\u201d on a traveller's row."));
    return;
  }
  const kindSelect = selectNode("desk-kind", DESK_KINDS, kind);
  kindSelect.addEventListener("change", () => renderDeskForm(kindSelect.value));
  const signed = typeof me !== "undefined" && me && me.team ? me.director : null;  // a team's Director signs their own entries
  const by = signed || localStorage.getItem("deskBy") || "Director";
  replaceChildren("desk-form",
    el("h3", { id: "desk-where" }, "Board " + deskAt.board + ", table " + deskAt.table),
    field("What", kindSelect),
    el("div", { class: "desk-fields" }, kindFields(kind)),
    field("Why", el("input", { id: "desk-reason", placeholder: "the reason, kept with the entry", autocomplete: "off" })),
    field("Who", el("input", { id: "desk-by", value: by, autocomplete: "off", size: 12, readonly: signed ? "" : null })),
    el("div", { class: "desk-actions" },
      el("button", { type: "button", id: "desk-record", onclick: () => recordDesk(kind) }, "Record"),
      el("button", { type: "button", class: "secondary", onclick: () => { deskAt = null; renderDeskForm(); } }, "Cancel")));
}

async function deskPost(path, body) {
  replaceChildren("desk-error", "");
  try {
    await api("POST", "/api/desk/" + path, body);
    return true;
  } catch (err) {
    replaceChildren("desk-error", err.message);
    return false;
  }
}

async function recordDesk(kind) {
  const by = deskValue("desk-by") || "Director";
  if (!(typeof me !== "undefined" && me && me.team)) localStorage.setItem("deskBy", by);
  const body = { board: deskAt.board, table: deskAt.table, by, reason: deskValue("desk-reason"), ...deskBody(kind) };
  if (!body.reason) {
    replaceChildren("desk-error", "Say why: the reason is kept with the entry.");
    return;
  }
  if (await deskPost(DESK_PATH[kind], body)) {
    deskAt = null;
    renderDeskForm();
    loadDesk();
  }
}

async function undoDesk(entry) {
  const by = localStorage.getItem("deskBy") || "Director";
  if (await deskPost("undo", { entry: entry.id, by, reason: "taken back at the console" })) loadDesk();
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function renderDeskHistory() {
  if (!deskEntries.length) {
    replaceChildren("desk-history", el("p", { class: "muted" }, "No correction or adjusted score yet."));
    return;
  }
  replaceChildren("desk-history", el("ol", { class: "desk-history" }, deskEntries.slice().reverse().map((e) =>
    el("li", { "data-entry": e.id, class: e.undone ? "undone" : null },
      el("b", {}, "#" + e.id + " Board " + e.board + ", table " + e.table + ": "), e.what,
      e.undone ? el("span", { class: "finding" }, " (taken back)") : null, tableAnswer(e),
      el("small", { class: "muted" }, " \u2014 " + e.reason + " (" + e.by + ", " + when(e.at) +
        (e.from_room ? ", at " + (e.from_room.room ? "room " + e.from_room.room : "the table's room") + "'s console" : "") + ")"),
      !e.undone && e.kind !== "undo" && !e.from_room
        ? el("button", { type: "button", class: "secondary desk-undo", onclick: () => undoDesk(e) }, "Undo") : null))));
}

// whether the table's own log took the correction (Law 79C) or refused it, or has not answered yet
function tableAnswer(e) {
  if (!("table_answer" in e)) return null;  // an adjusted score: it goes to no table's log
  const a = e.table_answer;
  if (!a) return el("small", { class: "muted desk-answer" }, " \u00b7 not in the table's log yet");
  return a.accepted ? el("small", { class: "muted desk-answer" }, " \u00b7 in the table's log")
    : el("span", { class: "finding desk-answer" }, " \u00b7 the table refused it: " + (a.reason || "no reason given"));
}

// a table's log took or refused a correction (its "desk" alert): the history is read again to say so
let deskAnswersSeen = "";
function deskAnswersArrived() {
  const seen = JSON.stringify((room.alerts || []).filter((a) => a.alert === "desk").map((a) => [a.table, a.entry, a.time]));
  if (seen === deskAnswersSeen) return;
  const first = deskAnswersSeen === "";
  deskAnswersSeen = seen;
  if (!first) loadDesk();
}

async function loadDesk() {
  deskLoaded = Date.now();
  try {
    deskEntries = (await api("GET", "/api/desk")).entries;
  } catch (err) {
    replaceChildren("desk-error", err.message);
    return;
  }
  renderDeskHistory();
  loadKept();
}

// -- a kept session reopened as the live one (to correct it and export it again) -------------------------

function keptWords(k) {
  const m = /^console-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})/.exec(k.name);
  return m ? m[3] + "/" + m[2] + "/" + m[1] + " " + m[4] + ":" + m[5] : k.name;
}

let reopenNote = "";  // what the last reopening did, shown under the kept sessions

async function loadKept() {
  let kept;
  try {
    kept = await api("GET", "/api/archive");
  } catch (err) {
    return;
  }
  let box = document.getElementById("reopen");
  if (!box) {
    box = el("div", { id: "reopen" });
    document.getElementById("desk-panel").append(box);
  }
  const chosen = document.getElementById("reopen-name");
  const was = chosen ? chosen.value : null;
  box.replaceChildren(el("h3", {}, "Kept sessions"), kept.length
    ? el("div", { class: "desk-form" },
      field("Session", selectNode("reopen-name", kept.map((k) => [k.name, keptWords(k)]), was || kept[0].name)),
      el("p", { class: "muted" }, "Reopen it as the live session to correct it and export it again; the session "
        + "now live is kept (unless it holds nothing)."),
      el("div", { class: "desk-actions" }, el("button", { type: "button", id: "reopen-session", class: "secondary",
        onclick: reopenKept }, "Reopen")))
    : el("p", { class: "muted" }, "No kept session yet."), el("p", { id: "reopen-info", class: "info", role: "status" },
    reopenNote));
}

async function reopenKept() {
  replaceChildren("desk-error", "");
  const name = deskValue("reopen-name");
  try {
    const done = await api("POST", "/api/desk/sessions/reopen", { name });
    reopenNote = "Reopened the session of " + keptWords({ name }) + (done.kept
      ? "; the one it replaced is kept as " + keptWords({ name: done.kept }) + "." : ".");
    await loadDesk();
  } catch (err) {
    replaceChildren("desk-error", err.message);
  }
}

// what the Director's entries made of a traveller's row, in a few words
function deskMark(r) {
  const penalties = [r.penalty_ns ? "NS -" + r.penalty_ns : null, r.penalty_ew ? "EW -" + r.penalty_ew : null]
    .filter(Boolean).join(", ");
  const score = r.artificial ? "adjusted " + r.artificial
    : r.weighted ? "adjusted " + r.weighted.map(([s, w]) => s + " " + w + "%").join(", ")
      : r.status === "adjusted" ? "adjusted" : r.original ? "corrected (was " + (r.original.contract || "")
        + " " + (r.original.score_ns ?? "") + ")" : null;
  return [score, penalties ? "penalty " + penalties : null].filter(Boolean).join("; ") || null;
}

// a button on every traveller row, each time the travellers are drawn again
function deskButtons() {
  for (const t of document.querySelectorAll("#travellers table.traveller")) {
    const traveller = room && room.travellers.find((x) => String(x.board) === t.dataset.board);
    for (const row of t.querySelectorAll("tr[data-table]")) {
      if (row.querySelector(".desk-open") || !row.firstElementChild) continue;
      const r = traveller && traveller.results.find((x) => x.table === row.dataset.table);
      const mark = r && r.desk ? deskMark(r) : null;
      if (mark) {  // a row of its own under the table's: the traveller keeps its width on a phone
        row.after(el("tr", { class: "desk-mark-row", "data-for": row.dataset.table },
          el("td", { colspan: row.children.length }, el("small", { class: "finding desk-mark" }, mark))));
      }
      // under the table's number: no column of its own, so that a traveller still fits a phone
      row.firstElementChild.append(el("button", { type: "button", class: "desk-open secondary",
        title: "Correct / adjust board " + t.dataset.board + " at table " + row.dataset.table,
        onclick: () => openDesk(t.dataset.board, row.dataset.table) }, "Correct / adjust"));
    }
  }
  if (Date.now() - deskLoaded > 2000) loadDesk();
}

new MutationObserver(deskButtons).observe(document.getElementById("travellers"), { childList: true });
renderDeskForm();
