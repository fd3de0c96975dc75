// The players name themselves before the first board (web_ui/table_players.py): picked from the
// club's roster (names and federation numbers only) by name or number, or typed. Shown only while
// the table has begun no board; the names go to the table's log and on to the Director's console.
"use strict";

const PLAYER_SEATS = ["N", "S", "E", "W"];
let rosterMembers = [];

function memberLabel(m) {
  return m.federation_id ? m.name + " (" + m.federation_id + ")" : m.name;
}

// what a field holds: a roster member by its label or its number, else the name as typed
function playerOf(text) {
  const value = text.trim().replace(/\s+/g, " ");
  if (!value) return null;
  const member = rosterMembers.find((m) => memberLabel(m) === value || (m.federation_id && m.federation_id === value));
  return member ? { name: member.name, federation_id: member.federation_id || "" } : { name: value };
}

function namedText(named) {
  return PLAYER_SEATS.filter((s) => named[s]).map((s) => SEAT_NAME[s] + " " + named[s].name).join(", ");
}

function showPlayersPanel(open, named) {
  const panel = document.getElementById("players-panel");
  panel.hidden = !open;
  const info = document.getElementById("players-info");
  if (open && named && Object.keys(named).length) info.textContent = "Named: " + namedText(named);
}

async function loadPlayersPanel() {
  const state = await fetch("/api/table/players").then((r) => r.json());
  showPlayersPanel(state.open, state.named);
  if (!state.open) return;
  const roster = await fetch("/api/table/roster").then((r) => r.json());
  rosterMembers = roster.members || [];
  replaceChildren("roster-list", rosterMembers.map((m) => el("option", { value: memberLabel(m) })));
}

async function sendPlayers(event) {
  event.preventDefault();
  const form = event.target;
  const body = {};
  for (const seat of PLAYER_SEATS) {
    const player = playerOf(form.elements[seat].value);
    if (player) body[seat] = player;
  }
  const info = document.getElementById("players-info");
  const answer = await fetch("/api/table/players", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const got = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const detail = typeof got.detail === "string" ? got.detail : "check the names (letters, a number of letters and digits)";
    info.textContent = "Not sent: " + detail;
    return;
  }
  info.textContent = "Thank you, sent to the Director: " + namedText(got.named || {});
}

if (document.body.classList.contains("table-page")) {
  document.getElementById("players-form").addEventListener("submit", (e) => { sendPlayers(e).catch(() => {}); });
  loadPlayersPanel().catch(() => {});
  // the first board begun: the panel goes (the Director names the players from then on)
  window.onTableView = (view) => {
    if (view.board || ((view.score && view.score.boards) || []).length) showPlayersPanel(false);
  };
}
