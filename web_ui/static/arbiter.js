// The arbiter page: PIN log-in, alerts, rulings, manual entries, deal, timeline, claim help, score, devices.
// The arbiter view itself is drawn by arbiterview.js (shared with the Director's console).
"use strict";

let socket = null;
let seenAwaiting = null;   // ids of irregularities already announced
let lastView = null;

const session = pinSession(
  { login: "/api/arbiter/login", logout: "/api/arbiter/logout", session: "/api/arbiter/session" }, start,
  () => { if (socket) { socket.close(); socket = null; } });
const api = session.api;

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
      " \u2014 " + cardsInText(irr.detail) + " \u00b7 chooses: " + irr.chooser +
      (SEAT_NAME[irr.chooser] ? " (" + SEAT_NAME[irr.chooser] + ")" : ""));
  } else if (view.arbiter_called) {
    alert.hidden = false;
    alert.replaceChildren(el("b", {}, "Arbiter called by " + SEAT_NAME[view.arbiter_called]));
  } else {
    alert.hidden = true;
  }
  if (fresh.some((i) => i.kind !== "tempo")) ringAlarm();
}

// posts a ruling or an entry; the answer (the table's events, or why it refused) goes under the irregularities
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

function render(view) {
  lastView = view;
  window.lastView = view;
  replaceChildren("title", "Arbiter \u00b7 " + (view.table_name || ""));
  announce(view);
  renderArbiterView(view, "", "/api/arbiter/rulings", send);
}

function start() {
  seenAwaiting = null;
  const badge = statusBadge("status");
  socket = liveSocket("/ws/arbiter", render, (state) => {
    badge(state);
    if (state !== "live") session.check();
  });
}

replaceChildren("entry", entryFormNodes("", "/api/arbiter/actions", send, (message) => replaceChildren("action-error", message)));

document.getElementById("claimhelp-button").addEventListener("click", async () => {
  replaceChildren("claimhelp", el("p", { class: "muted" }, "solving\u2026"));
  try {
    replaceChildren("claimhelp", claimHelpNode(await api("GET", "/api/arbiter/claimhelp")));
  } catch (err) {
    replaceChildren("claimhelp", el("p", { class: "error" }, err.message));
  }
});
