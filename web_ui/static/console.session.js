// The console's session panel (needs common.js and console.js): the round clock (the Director calls
// a round, its time runs down from the session's round time), the tables late for a round whose
// time is up, and what the players see at their tables (travellers of the boards they have played:
// on or off; the ranking at the end of the session, live, or never), with the session's end; the
// sessions kept, each one's ranking, and an event's totals over the ones ticked and this one.
"use strict";

const RANKING_WORD = { end: "at the end of the session", live: "as it stands, all along", never: "never" };

// seconds left -> "4:05", or "+0:30" once the time is up
function left(seconds) {
  return seconds >= 0 ? clock(seconds) : "+" + clock(-seconds);
}

function countdownNode(seconds) {
  return el("span", { class: "big countdown" + (seconds < 0 ? " over" : ""), "data-left": seconds }, left(seconds));
}

function tickCountdown() {
  const since = (Date.now() - roomAt) / 1000;
  for (const node of document.querySelectorAll(".countdown")) {
    const s = Number(node.dataset.left) - since;
    node.textContent = left(s);
    node.classList.toggle("over", s < 0);
  }
}

async function sessionAct(path, body, what) {
  replaceChildren("session-error", "");
  try {
    await api("POST", path, body);
  } catch (err) {
    replaceChildren("session-error", what + ": " + err.message);
  }
}

function clockNodes(c) {
  if (!c) return [el("p", { class: "muted" }, "No round clock: the console has no session file (tablectl console --session FILE).")];
  const nodes = [];
  if (!c.running) {
    nodes.push(el("div", { class: "session-clock" }, el("span", {}, "Rounds of " + c.minutes + " minutes, " + c.rounds + " rounds."),
      el("button", { type: "button", id: "clock-start", onclick: () => sessionAct("/api/clock/start", { round: 1 }, "Start round 1") },
        "Start round 1")));
    return nodes;
  }
  const next = c.round < c.rounds ? c.round + 1 : null;
  nodes.push(el("div", { class: "session-clock" },
    el("span", {}, "Round " + c.round + " of " + c.rounds),
    c.left !== null ? countdownNode(c.left) : null,
    el("span", { class: "muted" }, c.over ? "all the session's time is up" : c.left >= 0 ? "left" : "over time"),
    next ? el("button", { type: "button", id: "clock-next", onclick: () => sessionAct("/api/clock/start", { round: next }, "Call round " + next) },
      "Call round " + next + " now") : null,
    el("button", { type: "button", class: "secondary", id: "clock-stop", onclick: () => sessionAct("/api/clock/stop", {}, "Stop the clock") },
      "Stop the clock")));
  return nodes;
}

function lateNodes(late) {
  if (!late || !late.length) return [];
  return [el("ul", { class: "late-list", id: "late-tables" }, late.map((l) => el("li", { "data-table": l.table },
    "Table " + l.table + " is late for round " + l.round + ": " + l.played + " of " + l.due + " boards played, ",
    ticking(l.late_by), " over")))];
}

function playersNodes() {
  const p = room.players || { travellers: true, ranking: "end" };
  const travellers = el("input", { type: "checkbox", id: "players-travellers", checked: p.travellers });
  const ranking = el("select", { id: "players-ranking" }, Object.entries(RANKING_WORD).map(([value, words]) =>
    el("option", { value, selected: value === p.ranking }, words)));
  const save = () => sessionAct("/api/settings/players", { travellers: travellers.checked, ranking: ranking.value },
    "What the players see");
  travellers.addEventListener("change", save);
  ranking.addEventListener("change", save);
  return [el("div", { class: "players-settings" },
    el("label", { class: "check" }, travellers, el("span", {}, "Players see each board's results once every table has played it")),
    el("label", {}, "Players see the ranking ", ranking),
    endNodes(), releaseNodes()), keptNodes()];
}

// a new session (the console empties, the old one is kept) and the sessions kept
let keptOpen = false;
let keptShown = null;

function keptNodes() {
  const start = () => {
    if (!window.confirm("Start a new session? The console empties: the travellers, ranking and calls of this session "
      + "are kept under Earlier sessions, and every table's results page starts again.")) return;
    sessionAct("/api/session/new", {}, "Start a new session");
  };
  const details = el("details", { class: "kept", id: "kept-sessions", open: keptOpen },
    el("summary", {}, "Earlier sessions"), el("div", { id: "kept-list" }, keptShown || el("p", { class: "muted" }, "\u2026")));
  details.addEventListener("toggle", () => { keptOpen = details.open; if (details.open) loadKept(); });
  return el("div", { class: "new-session" },
    el("button", { type: "button", class: "secondary", id: "session-new", onclick: start }, "Start a new session"), details);
}

async function loadKept() {
  try {
    const kept = await api("GET", "/api/archive");
    keptShown = kept.length ? [el("ul", { class: "kept-list" }, kept.map((k) => el("li", { "data-name": k.name },
      el("input", { type: "checkbox", class: "event-pick", value: k.name, "aria-label": "in the event" }),
      el("button", { type: "button", class: "link", onclick: () => showKept(k.name) },
        "Session kept " + new Date(k.kept * 1000).toLocaleString())))),
    el("button", { type: "button", class: "secondary", id: "event-totals", onclick: showEvent },
      "Event totals: the ticked sessions and this one")] : el("p", { class: "muted" }, "None kept yet");
  } catch (err) {
    keptShown = el("p", { class: "error" }, err.message);
  }
  replaceChildren("kept-list", keptShown);
}

// an event of several sessions: each partnership (its players, whatever its pair number) carried over
async function showEvent() {
  const picked = [...document.querySelectorAll(".event-pick:checked")].map((x) => x.value);
  const query = picked.map((n) => "session=" + encodeURIComponent(n)).join("&");
  try {
    const event = await api("GET", "/api/desk/event?" + query + (query ? "&" : "") + "now=true");
    keptShown = [el("p", {}, el("b", {}, "Event totals"), " \u00b7 " + event.sessions.length + " sessions"),
      el("ol", { class: "ranking-list", id: "event-ranking" }, event.ranking.map((r) => el("li", {},
        el("span", { class: "rank-place" }, r.place),
        " " + (r.players ? r.players.join(" & ") : "Pair " + Object.values(r.sessions)[0].pair + " (not named)") + " ",
        el("span", { class: "rank-value" }, r.percent !== null ? r.percent.toFixed(2) + "%" : points(r.total)),
        el("small", { class: "muted" }, " " + r.played + " of " + event.sessions.length + " sessions")))),
      el("button", { type: "button", class: "link", onclick: loadKept }, "All kept sessions")];
  } catch (err) {
    keptShown = el("p", { class: "error" }, err.message);
  }
  replaceChildren("kept-list", keptShown);
}

async function showKept(name) {
  try {
    const kept = await api("GET", "/api/archive/" + encodeURIComponent(name));
    const ranking = kept.report.ranking || [];
    keptShown = [el("p", {}, el("b", {}, kept.report.name), " \u00b7 " + kept.travellers.length + " boards"),
      ranking.length ? el("ol", { class: "ranking-list", id: "kept-ranking" }, ranking.map((r) => el("li", { "data-pair": r.pair },
        el("span", { class: "rank-place" }, r.place || "\u2013"), " Pair " + (r.section ? r.section + " " : "") + r.pair + " ",
        keptNames(kept.names, r),
        el("span", { class: "rank-value" }, r.percent !== null && r.percent !== undefined ? r.percent.toFixed(2) + "%" : points(r.total)))))
        : el("p", { class: "muted" }, "No result in that session"),
      el("button", { type: "button", class: "link", onclick: loadKept }, "All kept sessions")];
  } catch (err) {
    keptShown = el("p", { class: "error" }, err.message);
  }
  replaceChildren("kept-list", keptShown);
}

function keptNames(names, r) {
  const seats = (names || {})[(r.section || "").toUpperCase() + "|" + r.pair];
  return seats && seats.length ? seats[0].names.join(" & ") + " " : null;
}

// "End the session": asked again, then a minute to take it back before the tables see it
function endNodes() {
  const ended = room.ended;
  if (ended && room.undo_left) {
    return el("div", { class: "undo-end", id: "session-ending" },
      el("span", {}, "The session ends for the players in ", countdownNode(room.undo_left), "."),
      el("button", { type: "button", id: "session-undo", onclick: () => sessionAct("/api/session/end", { ended: false }, "Undo") },
        "Undo: keep the session going"));
  }
  const end = () => {
    if (!window.confirm("End the session? Every table will show the final results (and the ranking, if you chose so). "
      + "You can undo it within a minute.")) return;
    sessionAct("/api/session/end", { ended: true, confirm: true }, "End the session");
  };
  return el("div", {}, room.over && !ended ? el("span", { class: "muted" }, "Every table has played all its boards. ") : null,
    el("button", { type: "button", id: "session-end", class: ended ? "secondary" : null,
      onclick: ended ? () => sessionAct("/api/session/end", { ended: false }, "Reopen the session") : end },
    ended ? "Session ended: reopen it" : "End the session"));
}

// the boards still kept from the players (some table has still to play them), and the Director's release
function releaseNodes() {
  const released = room.released || { all: false, boards: [] };
  const input = el("input", { type: "text", inputmode: "numeric", id: "release-board", "aria-label": "board number",
    placeholder: "board" });
  const release = (event) => {
    event.preventDefault();
    if (input.value) sessionAct("/api/boards/release", { board: input.value.trim(), released: true }, "Show board " + input.value);
  };
  return el("form", { class: "release-form", onsubmit: release },
    el("span", { class: "muted", id: "released-boards" }, released.all ? "Players may see every board."
      : "Players see a board once every table has played it" + (released.boards.length
        ? " (shown now: " + released.boards.join(", ") + ")." : ".")),
    input, el("button", { type: "submit", class: "secondary" }, "Show it now"));
}

function renderSession() {
  const c = room.clock;
  replaceChildren("clock-now", c && c.running ? "\u00b7 round " + c.round + (room.late && room.late.length ? ", " + room.late.length + " late" : "") : "");
  replaceChildren("session", clockNodes(c), lateNodes(room.late), playersNodes());
}

setInterval(tickCountdown, 1000);
