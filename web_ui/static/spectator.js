// The spectator page (vugraph): public information, the whole play, shown with the table's delay.
"use strict";

function renderSpectator(view) {
  renderPublic(view, { history: true });
  replaceChildren("delay", view.delay ? "shown " + view.delay + " s late" : "");
  // a board the room has not released: still to be played at other tables (web_ui/privacy.py)
  if (view.held_back) replaceChildren("board-info", el("span", { class: "held-back" }, view.held_back.text));
}

fetch("/api/spectator").then((r) => r.json()).then((v) => { if (!window.lastView) renderSpectator(v); }).catch(() => {});
liveSocket("/ws/spectator", renderSpectator, statusBadge("status"));
