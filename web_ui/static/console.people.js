// The console's players panel (needs common.js, console.js and console.desk.js): the club's roster
// imported from a CSV file (name, federation number, email, club: all of it, or nothing with every
// bad line named), each pair of the session named from the roster or a visitor typed in, a
// substitute from a given round on (the pair keeps its number and its score), and a pair late or
// gone for some rounds (each board it missed adjusted: A- to it, A+ to its opponents). The names follow on
// the ranking, the travellers and the scorecards (console.js pairNames, from the room's "names").
// Posts to /api/desk/roster/import, /api/desk/pairs, /api/desk/substitutes, /api/desk/absent
// (docs/scoring-desk.md).
// The movement as played: two pairs swapped places (a pair at the wrong table, a table the wrong way round),
// a table added sharing another table's boards, a table removed; each change kept with who, when and why,
// and taken back by Undo: /api/desk/moves (web_ui/desk_moves.py). The travellers follow.
"use strict";

let peopleRoster = [];    // the club's members: {name, federation_id, email, club}
let peoplePairs = null;   // GET /api/desk/pairs: {pairs, expected, rounds}
let peopleAt = null;      // {pair, section, what: "name"|"substitute"|"absent"}: the form open
let peopleLoaded = 0;

function memberWords(m) {
  return m.federation_id ? m.name + " (" + m.federation_id + ")" : m.name;
}

// what the Director typed or picked: a member "Name (number)", a member's name, or a visitor's name
function typedPlayer(text) {
  const value = text.trim();
  const picked = peopleRoster.find((m) => memberWords(m) === value);
  if (picked) return { name: picked.name, federation_id: picked.federation_id };
  const same = peopleRoster.filter((m) => m.name.toLowerCase() === value.toLowerCase());
  if (same.length === 1) return { name: same[0].name, federation_id: same[0].federation_id };
  return { name: value, federation_id: "" };
}

function playerInput(id, label) {
  return field(label, el("input", { id, list: "roster-names", autocomplete: "off", placeholder: "member or visitor" }));
}

function pairKey(section, pair) {
  return (section || "").toUpperCase() + "|" + pair;
}

function seatsOf(section, pair) {
  return ((room && room.names) || {})[pairKey(section, pair)] || [];
}

async function peoplePost(path, body) {
  replaceChildren("people-error", "");
  replaceChildren("people-info", "");
  try {
    return await api("POST", "/api/desk/" + path, body);
  } catch (err) {
    const lines = err.message.split(/[:;] (?=line \d+:)/);  // a roster's bad lines, one a line
    replaceChildren("people-error", lines.length > 1
      ? [el("span", {}, lines[0] + ":"), el("ul", { id: "roster-problems" }, lines.slice(1).map((l) => el("li", {}, l)))]
      : err.message);
    return null;
  }
}

async function importRoster(input) {
  const file = input.files && input.files[0];
  if (!file) return;
  const done = await peoplePost("roster/import", { csv: await file.text() });
  input.value = "";
  if (done) {
    replaceChildren("people-info", "Roster imported: " + done.added + " added, " + done.updated + " updated, "
      + done.members + " members.");
    loadPeople();
  }
}

async function savePair() {
  const body = { section: peopleAt.section || "", pair: peopleAt.pair };
  let path;
  if (peopleAt.what === "name") {
    path = "pairs";
    body.first = typedPlayer(deskValue("people-first"));
    body.second = typedPlayer(deskValue("people-second"));
    if (!body.first.name || !body.second.name) {
      replaceChildren("people-error", "Give both players' names.");
      return;
    }
  } else if (peopleAt.what === "absent") {
    path = "absent";
    body.from_round = Number(deskValue("people-from"));
    body.to_round = Number(deskValue("people-to"));
    body.reason = deskValue("people-reason");
    body.by = localStorage.getItem("deskBy") || "Director";
    if (!body.reason) {
      replaceChildren("people-error", "Say why: the reason is kept with the adjusted scores.");
      return;
    }
  } else {
    path = "substitutes";
    body.from_round = Number(deskValue("people-round"));
    body.seat = deskValue("people-seat");
    body.player = typedPlayer(deskValue("people-sub"));
    if (!body.player.name) {
      replaceChildren("people-error", "Give the substitute's name.");
      return;
    }
  }
  const done = await peoplePost(path, body);
  if (done) {
    if (done.entries) {
      replaceChildren("people-info", "Pair " + body.pair + ": " + done.entries.length
        + " board(s) adjusted, average minus to the pair, average plus to its opponents (see Correct / adjust).");
      if (typeof loadDesk === "function") loadDesk();
    }
    peopleAt = null;
    renderPeopleForm();
    loadPeople();
  }
}

function renderPeopleForm() {
  if (!peopleAt) {
    replaceChildren("people-form", "");
    return;
  }
  const where = "Pair " + (peopleAt.section ? peopleAt.section + " " : "") + peopleAt.pair;
  const seats = seatsOf(peopleAt.section, peopleAt.pair);
  const now = seats.length ? seats[seats.length - 1].names : null;
  const round = room && room.clock && room.clock.round ? room.clock.round : 1;
  const last = peoplePairs && peoplePairs.rounds ? peoplePairs.rounds : 99;
  const fields = peopleAt.what === "name"
    ? [playerInput("people-first", "North or East"), playerInput("people-second", "South or West")]
    : peopleAt.what === "absent"
    ? [field("Missed rounds from", el("input", { id: "people-from", type: "number", min: 1, max: last, value: 1, inputmode: "numeric" })),
      field("to", el("input", { id: "people-to", type: "number", min: 1, max: last, value: round, inputmode: "numeric" })),
      field("Why", el("input", { id: "people-reason", value: "arrived late", autocomplete: "off" })),
      el("p", { class: "muted" }, "Each board the pair missed is adjusted: average minus to the pair, average plus to "
        + "its opponents (Law 12C2). Each entry can be taken back under Correct / adjust.")]
    : [field("From round", el("input", { id: "people-round", type: "number", min: 1,
      max: peoplePairs && peoplePairs.rounds ? peoplePairs.rounds : 99, value: round, inputmode: "numeric" })),
    field("In place of", selectNode("people-seat", [["first", now ? now[0] : "North or East"],
      ["second", now ? now[1] : "South or West"]], "second")),
    playerInput("people-sub", "Substitute")];
  replaceChildren("people-form", el("div", { class: "desk-form" },
    el("h3", { id: "people-where" }, where + { name: ": its players", substitute: ": a substitute",
      absent: ": late or gone" }[peopleAt.what]),
    fields,
    el("div", { class: "desk-actions" },
      el("button", { type: "button", id: "people-save", onclick: savePair }, "Save"),
      el("button", { type: "button", class: "secondary", onclick: () => { peopleAt = null; renderPeopleForm(); } }, "Cancel"))));
  if (peopleAt.what === "name" && now) {
    document.getElementById("people-first").value = now[0];
    document.getElementById("people-second").value = now[1];
  }
}

function openPeople(section, pair, what) {
  peopleAt = { section, pair, what };
  replaceChildren("people-error", "");
  renderPeopleForm();
  document.getElementById("people-form").scrollIntoView({ block: "nearest" });
}

function renderPeople() {
  if (!document.getElementById("people")) return;
  const expected = peoplePairs && peoplePairs.expected.length ? peoplePairs.expected
    : Object.keys((room && room.names) || {}).map((k) => ({ section: k.split("|")[0], pair: k.split("|")[1] }));
  const list = expected.map((p) => {
    const seats = seatsOf(p.section, p.pair);
    return el("li", { "data-pair": p.pair, "data-section": p.section || "" },
      el("b", {}, "Pair " + (p.section ? p.section + " " : "") + p.pair + " "),
      seats.length ? seats.map((s, i) => el("span", { class: "people-seat" }, i ? " \u00b7 from round " + s.from + ": " : "",
        s.names.join(" & "))) : el("span", { class: "muted" }, "not named"),
      el("span", { class: "people-actions" },
        el("button", { type: "button", class: "secondary people-name", onclick: () => openPeople(p.section, p.pair, "name") },
          seats.length ? "Rename" : "Name"),
        seats.length ? el("button", { type: "button", class: "secondary people-sub",
          onclick: () => openPeople(p.section, p.pair, "substitute") }, "Substitute") : null,
        peoplePairs && peoplePairs.expected.length ? el("button", { type: "button", class: "secondary people-absent",
          onclick: () => openPeople(p.section, p.pair, "absent") }, "Late") : null));
  });
  const file = el("input", { type: "file", id: "roster-file", accept: ".csv,text/csv,text/plain" });
  file.addEventListener("change", () => importRoster(file));
  replaceChildren("people",
    el("datalist", { id: "roster-names" }, peopleRoster.map((m) => el("option", { value: memberWords(m) }))),
    el("div", { class: "roster-import" },
      el("span", { id: "roster-count" }, "Club roster: " + peopleRoster.length + (peopleRoster.length === 1 ? " member" : " members")),
      el("label", { class: "desk-field" }, el("span", {}, "Import a CSV file (name, federation number, email, club)"), file)),
    list.length ? el("ul", { class: "people-list", id: "people-pairs" }, list)
      : el("p", { class: "muted" }, "No pair yet: the console has no session file."));
}

async function loadPeople() {
  peopleLoaded = Date.now();
  try {
    peopleRoster = (await api("GET", "/api/desk/roster")).members;
    peoplePairs = await api("GET", "/api/desk/pairs");
  } catch (err) {
    if (err.status !== 401) replaceChildren("people-error", err.message);
    return;
  }
  renderPeople();
  loadMoves();
}

// -- the movement as played --------------------------------------------------------------------------

const MOVE_KINDS = [["swap", "Two pairs swapped places"], ["add-table", "A table added"],
  ["remove-table", "A table removed"]];
let movesEntries = [];
let movesSittings = [];  // the movement as changed: {section, round, table, ns, ew, boards, sit_out}
let movesRound = null;   // the round whose tables are listed

function movesBox() {
  let box = document.getElementById("moves");
  if (!box) {
    box = el("div", { id: "moves", class: "moves" });
    document.getElementById("people-panel").append(box);
  }
  return box;
}

function moveFields(kind) {
  const rounds = peoplePairs && peoplePairs.rounds ? peoplePairs.rounds : 99;
  const round = room && room.clock && room.clock.round ? room.clock.round : 1;
  const number = (id, label, value, extra) => field(label, el("input", { id, type: "number", min: 1, max: extra || 200,
    value: value === null ? "" : value, inputmode: "numeric" }));
  const pair = (id, label) => field(label, el("input", { id, size: 4, autocomplete: "off", inputmode: "numeric" }));
  const what = kind === "swap" ? [pair("moves-a", "Pair"), pair("moves-b", "and pair")]
    : kind === "add-table" ? [number("moves-table", "New table", null), pair("moves-ns", "North-South pair"),
      pair("moves-ew", "East-West pair"), number("moves-shares", "Shares the boards of table", 1)]
    : [number("moves-table", "Table", null)];
  return [...what, number("moves-from", "From round", round, rounds),
    field("to round (empty: to the end)", el("input", { id: "moves-to", type: "number", min: 1, max: rounds,
      inputmode: "numeric" }))];
}

function renderMoveForm(kind) {
  const pick = selectNode("moves-kind", MOVE_KINDS, kind);
  pick.addEventListener("change", () => renderMoveForm(pick.value));
  replaceChildren("moves-form", field("What changed", pick), el("div", { class: "desk-fields" }, moveFields(kind)),
    field("Why", el("input", { id: "moves-reason", placeholder: "the reason, kept with the change", autocomplete: "off" })),
    el("div", { class: "desk-actions" }, el("button", { type: "button", id: "moves-save", onclick: () => saveMove(kind) },
      "Change the movement")));
}

async function movePost(path, body) {
  replaceChildren("moves-error", "");
  try {
    return await api("POST", "/api/desk/moves/" + path, body);
  } catch (err) {
    replaceChildren("moves-error", err.message);
    return null;
  }
}

async function saveMove(kind) {
  const by = localStorage.getItem("deskBy") || "Director";
  const num = (id) => (deskValue(id) === "" ? null : Number(deskValue(id)));
  const body = { by, reason: deskValue("moves-reason"), from_round: num("moves-from"), to_round: num("moves-to") };
  if (kind === "swap") Object.assign(body, { a: deskValue("moves-a"), b: deskValue("moves-b") });
  else if (kind === "add-table") Object.assign(body, { table: num("moves-table"), ns: deskValue("moves-ns"),
    ew: deskValue("moves-ew"), shares: num("moves-shares") });
  else body.table = num("moves-table");
  if (!body.reason) {
    replaceChildren("moves-error", "Say why: the reason is kept with the change.");
    return;
  }
  if (await movePost(kind, body)) {
    renderMoveForm(kind);
    loadMoves();
  }
}

function renderMoves() {
  replaceChildren("moves-history", movesEntries.length
    ? el("ol", { class: "desk-history" }, movesEntries.slice().reverse().map((e) =>
      el("li", { "data-move": e.id, class: e.undone ? "undone" : null },
        el("b", {}, "#" + e.id + " "), e.what, e.undone ? el("span", { class: "finding" }, " (taken back)") : null,
        el("small", { class: "muted" }, " \u2014 " + e.reason + " (" + e.by + ", " + when(e.at) + ")"),
        !e.undone && e.kind !== "undo" ? el("button", { type: "button", class: "secondary moves-undo",
          onclick: async () => { if (await movePost("undo", { entry: e.id, by: localStorage.getItem("deskBy") || "Director",
            reason: "taken back at the console" })) loadMoves(); } }, "Undo") : null)))
    : el("p", { class: "muted" }, "Played as planned: no change yet."));
}

function boardsWords(boards) {
  return boards.length === 1 ? "board " + boards[0] : "boards " + boards[0] + "-" + boards[boards.length - 1];
}

// who sits where in one round, as the movement now stands (the Director checks a change here)
function renderSittings() {
  const rounds = [...new Set(movesSittings.map((s) => s.round))].sort((a, b) => a - b);
  if (!rounds.length) {
    replaceChildren("moves-sittings", "");
    return;
  }
  if (!rounds.includes(movesRound)) movesRound = room && room.clock && rounds.includes(room.clock.round) ? room.clock.round : rounds[0];
  const pick = selectNode("moves-round", rounds.map((r) => [String(r), "Round " + r]), String(movesRound));
  pick.addEventListener("change", () => { movesRound = Number(pick.value); renderSittings(); });
  const sections = new Set(movesSittings.map((s) => s.section)).size > 1;
  replaceChildren("moves-sittings", field("Who sits where", pick), el("ul", { class: "moves-sittings" },
    movesSittings.filter((s) => s.round === movesRound).map((s) =>
      el("li", { "data-table": (s.section || "") + s.table },
        el("b", {}, "Table " + (sections ? s.section : "") + s.table + ": "),
        s.sit_out ? "sit-out (" + s.ns + " v " + s.ew + ")" : s.ns + " v " + s.ew + ", " + boardsWords(s.boards)))));
}

async function loadMoves() {
  if (!peoplePairs || !peoplePairs.expected.length) return;  // no session file: no movement to change
  const box = movesBox();
  if (!document.getElementById("moves-form")) {
    box.append(el("h3", {}, "The movement as played"), el("p", { id: "moves-error", class: "error", role: "alert" }),
      el("div", { id: "moves-form", class: "desk-form" }), el("div", { id: "moves-history" }),
      el("div", { id: "moves-sittings" }));
    renderMoveForm("swap");
  }
  try {
    const got = await api("GET", "/api/desk/moves");
    movesEntries = got.entries;
    movesSittings = got.sittings;
  } catch (err) {
    replaceChildren("moves-error", err.message);
    return;
  }
  renderMoves();
  renderSittings();
}

// every room push redraws the session panel: the names may have changed (the list is drawn again;
// an open form is left as it is)
new MutationObserver(() => {
  if (Date.now() - peopleLoaded > 5000) loadPeople(); else renderPeople();
}).observe(document.getElementById("session"), { childList: true });
