// The console's session panel (needs common.js and console.js): the round clock (the Director calls
// a round, its time runs down from the session's round time), the tables late for a round whose
// time is up, and what the players see at their tables (travellers of the boards they have played:
// on or off; the ranking at the end of the session, live, or never), with the session's end.
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
  const ended = room.ended;
  return [el("div", { class: "players-settings" },
    el("label", { class: "check" }, travellers, el("span", {}, "Players see each board's results once they have played it")),
    el("label", {}, "Players see the ranking ", ranking),
    el("div", {}, room.over && !ended ? el("span", { class: "muted" }, "Every table has played all its boards. ") : null,
      el("button", { type: "button", id: "session-end", class: ended ? "secondary" : null,
        onclick: () => sessionAct("/api/session/end", { ended: !ended }, ended ? "Reopen the session" : "End the session") },
      ended ? "Session ended: reopen it" : "End the session")))];
}

function renderSession() {
  const c = room.clock;
  replaceChildren("clock-now", c && c.running ? "\u00b7 round " + c.round + (room.late && room.late.length ? ", " + room.late.length + " late" : "") : "");
  replaceChildren("session", clockNodes(c), lateNodes(room.late), playersNodes());
}

setInterval(tickCountdown, 1000);
