// The arbiter page: PIN log-in, alerts, rulings, manual entries, deal, timeline, claim help, score, devices.
// The arbiter view itself is drawn by arbiterview.js (shared with the Director's console).
"use strict";

let csrf = null;
let socket = null;
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
  try {
    return await requestJson(method, path, body, csrf);
  } catch (err) {
    if (err.status === 401 && path !== "/api/arbiter/login") showLogin("Your session has ended: log in again");
    throw err;
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

replaceChildren("entry", entryFormNodes("", "/api/arbiter/actions", send, (message) => replaceChildren("action-error", message)));

document.getElementById("claimhelp-button").addEventListener("click", async () => {
  replaceChildren("claimhelp", el("p", { class: "muted" }, "solving\u2026"));
  try {
    replaceChildren("claimhelp", claimHelpNode(await api("GET", "/api/arbiter/claimhelp")));
  } catch (err) {
    replaceChildren("claimhelp", el("p", { class: "error" }, err.message));
  }
});

fetch("/api/arbiter/session", { credentials: "same-origin" }).then(async (r) => {
  if (r.ok) { csrf = (await r.json()).csrf; start(); } else showLogin("");
}).catch(() => showLogin(""));
