// The spectator page (vugraph): public information, the whole play, shown with the table's delay.
"use strict";

function renderSpectator(view) {
  renderPublic(view, { history: true });
  replaceChildren("delay", view.delay ? "shown " + view.delay + " s late" : "");
}

fetch("/api/spectator").then((r) => r.json()).then((v) => { if (!window.lastView) renderSpectator(v); }).catch(() => {});
liveSocket("/ws/spectator", renderSpectator, statusBadge("status"));
