// The Director's console: the whole room on one page, a phone first. PIN log-in; an alarm banner
// (with a beep and a vibration) the moment a table raises an irregularity or a player calls the
// Director; the queue of calls; a tile per table; a table's arbiter view with its options, drawn by
// arbiterview.js, rulings posted to /api/tables/{id}/rulings; the live ranking (a pair's scorecard
// when its row is tapped) and the travellers with each board's points. Live over /ws.
// Needs common.js and arbiterview.js.
"use strict";

const STATE_WORD = {
  lost: "OFFLINE IN PLAY", irregularity: "IRREGULARITY", called: "CALLED", offline: "OFFLINE", late: "LATE", round_finished: "ROUND OVER",
  idle: "BETWEEN BOARDS", playing: "PLAYING",
};
const STATE_MEANING = {
  lost: "gone in play: power? cable?", irregularity: "a ruling is awaited", called: "a call for the Director", offline: "the table is not connected",
  late: "boards left, round time up",
  round_finished: "waiting for the next round", idle: "no board in play", playing: "nothing to do",
};
const NEEDS_DIRECTOR = new Set(["lost", "irregularity", "called"]);
const PHASE_WORD = { auction: "Bidding", declaration: "Declaration", play: "Play", done: "Board over", idle: "No board" };
const SCORING_WORD = { MP: "matchpoints", Butler: "Butler IMPs", CrossIMP: "cross-IMPs", Teams: "teams" };
const FIELD_WORD = { NS: "North-South", EW: "East-West" };
const ROOM_FINDING = { 87: (c) => "Board " + c.board + " fouled (Law 87)", 15: (c) => "Board " + c.board + " out of its round (Law 15)",
  7: (c) => "Board " + c.board + " rotated (Law 7)" };

let socket = null;
let room = null;        // the latest room snapshot
let roomAt = 0;         // Date.now() when it came: waits and board times tick from it
let openTable = null;   // the table whose arbiter view is shown
let openTile = "";      // that table's tile as JSON: its view is fetched again when the tile changes
let viewText = "";      // the view drawn, as JSON: the same view is not drawn again (inputs keep their values)
let viewLoading = false;
let viewAgain = false;
let alarms = [];        // {table, text, received}: newest first, until opened or dismissed
let pushed = false;     // the open table has its own history entry (the phone's back button returns to the room)
let openPair = null;    // {pair, section}: the pair whose scorecard is shown under its ranking row

// --- session --------------------------------------------------------------------------------------

const session = pinSession({ login: "/api/login", logout: "/api/logout", session: "/api/session" }, start,
  () => { if (socket) { socket.close(); socket = null; } });
const api = session.api;

let me = null;          // who is signed in: {director, role, rooms, team}

// the sign-in form asks for the name when the console has a team of Directors
fetch("/api/sign-in", { credentials: "same-origin" }).then(async (r) => {
  if (r.ok && (await r.json()).team) document.getElementById("login-who").hidden = false;
}).catch(() => {});

async function whoAmI() {
  try {
    me = await api("GET", "/api/session");
  } catch (err) {
    return;
  }
  const who = document.getElementById("who");
  who.hidden = !me.team;
  replaceChildren("who", me.director + (me.role === "head" ? " \u00b7 head" : me.rooms.length ? " \u00b7 room " + me.rooms.join(", ") : ""));
  if (room) renderRoom();
}

function start() {
  whoAmI();
  const badge = statusBadge("status");
  socket = liveSocket("/ws", onMessage, (state) => {
    badge(state);
    if (state !== "live") session.check();
  });
  alertsStart();  // console.alarms.js: sound, screen, notifications
  const table = hashTable();
  if (table !== null) openTableView(table, false);
}

// the table the address names (#table-3), or null: a reloaded or typed address opens that table
function hashTable() {
  const m = /^#table-([A-Za-z0-9_-]{1,16})$/.exec(location.hash);
  return m ? m[1] : null;
}

function onMessage(message) {
  if (message.kind === "alarm" && message.broker) { ringAlarm(); notifyAlarm("The room's broker is lost", message.text); }
  else if (message.kind === "alarm") raiseAlarm(message);
  else if (message.kind === "room") {
    room = message;
    roomAt = Date.now();
    renderRoom();
  }
  else if (message.kind === "delta") applyDelta(message);
}

// the tiles in the room's order: numbers in number order, then the rest
function tableOrder(a, b) {
  const na = /^[0-9]+$/.test(a.table), nb = /^[0-9]+$/.test(b.table);
  if (na && nb) return Number(a.table) - Number(b.table);
  if (na !== nb) return na ? -1 : 1;
  return a.table < b.table ? -1 : a.table > b.table ? 1 : 0;
}

// the changes since version `base` (tiles and calls that changed, new alerts, results when they moved):
// applied to a room at that version or later; a room behind it (a push lost to a slow link) is
// fetched whole
function applyDelta(delta) {
  if (!room || delta.base > room.version) { fetchRoom(); return; }
  const { kind, base, tiles, alerts, full, alerts_count, travellers_changed, scores, calls_changed, calls_gone,
    ranking_changed, ranking_gone, ranking_count, ...rest } = delta;
  if (ranking_changed && !mergeRanking(ranking_changed, ranking_gone, ranking_count)) { fetchRoom(); return; }
  if (travellers_changed) {
    const kept = room.travellers.filter((t) => !(String(t.board) in travellers_changed));
    for (const traveller of Object.values(travellers_changed)) if (traveller) kept.push(traveller);
    room.travellers = kept.sort((a, b) => tableOrder({ table: String(a.board) }, { table: String(b.board) }));
  }
  if (scores && scores.boards_changed) {
    const { boards_changed, ...head } = scores;
    const boards = Object.assign({}, room.scores ? room.scores.boards : {});
    for (const [board, rows] of Object.entries(boards_changed)) {
      if (rows) boards[board] = rows;
      else delete boards[board];
    }
    room.scores = { ...head, boards };
  } else if (scores) room.scores = scores;
  if (full) room.tiles = tiles.slice();
  else if (tiles.length) {
    const at = new Map(room.tiles.map((t, i) => [t.table, i]));
    for (const tile of tiles) {
      if (at.has(tile.table)) room.tiles[at.get(tile.table)] = tile;
      else room.tiles.push(tile);
    }
    room.tiles.sort(tableOrder);
  }
  const fresh = Math.max(0, Math.min(alerts.length, alerts_count - (room.alerts_count || 0)));
  if (fresh) room.alerts = room.alerts.concat(alerts.slice(alerts.length - fresh)).slice(-30);
  Object.assign(room, rest);
  if (!("calls" in rest)) mergeCalls(calls_changed, calls_gone);  // console.calls.js
  room.alerts_count = alerts_count;
  roomAt = Date.now();
  renderRoom();
}

// the ranking's rows that moved (each with its place `at`) and those gone, merged by pair and section
// into the page's ranking; false when the result is not a ranking of `count` rows (the room is fetched)
function mergeRanking(changed, gone, count) {
  const key = (r) => (r.section || "") + "\n" + r.pair;
  const rows = new Map((room.ranking || []).map((r, i) => [key(r), [i, r]]));
  for (const r of gone || []) rows.delete(key(r));
  for (const m of changed) rows.set(key(m.row), [m.at, m.row]);
  const merged = [...rows.values()].sort((a, b) => a[0] - b[0]);
  if (merged.length !== count || merged.some(([at], i) => at !== i)) return false;
  room.ranking = merged.map(([, r]) => r);
  return true;
}

let roomFetching = false;
async function fetchRoom() {
  if (roomFetching) return;
  roomFetching = true;
  try {
    const whole = await api("GET", "/api/room");
    if (!room || whole.version >= room.version) {
      room = whole;
      roomAt = Date.now();
      renderRoom();
    }
  } catch (err) {
    // the next push tries again
  } finally {
    roomFetching = false;
  }
}

// --- words and times --------------------------------------------------------------------------------

// seconds -> "4:05" (or "1:04:05")
function clock(seconds) {
  const s = Math.max(0, Math.floor(Number(seconds) || 0));
  const two = (n) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return (h ? h + ":" + two(m) : String(m)) + ":" + two(s % 60);
}

// a time that goes on counting on the page, from `seconds` when the room snapshot came
function ticking(seconds, cls) {
  return el("span", { class: "ticking " + (cls || ""), "data-base": Number(seconds) || 0 }, clock(seconds));
}

function tick() {
  const since = (Date.now() - roomAt) / 1000;
  for (const node of document.querySelectorAll(".ticking")) node.textContent = clock(Number(node.dataset.base) + since);
}

function tableUrl(table, rest) {
  return "/api/tables/" + encodeURIComponent(table) + (rest || "");
}

// --- the alarm banner -----------------------------------------------------------------------------

function raiseAlarm(message) {
  alarms = [{ table: String(message.table), text: message.text, received: message.received },
    ...alarms.filter((a) => !(a.table === String(message.table) && a.text === message.text))].slice(0, 4);
  renderAlarms();
  ringAlarm();
  notifyAlarm("Table " + message.table, message.text);  // console.alarms.js: when the page is hidden
}

function dismissAlarms(table) {
  alarms = alarms.filter((a) => a.table !== table);
  renderAlarms();
}

function renderAlarms() {
  const box = document.getElementById("alarms");
  box.hidden = alarms.length === 0;
  box.replaceChildren(...alarms.map((alarm) => el("div", { class: "alarm", "data-table": alarm.table },
    el("button", { type: "button", class: "alarm-open", onclick: () => openTableView(alarm.table) },
      el("span", { class: "alarm-text" }, alarm.text), el("span", { class: "alarm-hint" }, "Tap to open table " + alarm.table)),
    el("button", { type: "button", class: "alarm-dismiss", "aria-label": "dismiss the alarm of table " + alarm.table,
      onclick: () => { alarms = alarms.filter((a) => a !== alarm); renderAlarms(); } }, "\u00d7"))));
}

// an alarm whose table has no open call and needs nothing any more in a snapshot taken after it came is over
function settleAlarms() {
  const open = new Set(room.calls.filter((c) => c.state !== "resolved").map((c) => c.table));
  for (const t of room.tiles) if (NEEDS_DIRECTOR.has(t.colour)) open.add(t.table);  // e.g. gone in play
  const before = alarms.length;
  alarms = alarms.filter((a) => open.has(a.table) || typeof a.received !== "number" || room.now < a.received);
  if (alarms.length !== before) renderAlarms();
}

// --- the room -------------------------------------------------------------------------------------

function renderRoom() {
  const tiles = room.tiles;
  const waiting = room.calls.filter((c) => c.state !== "resolved");
  const needing = tiles.filter((t) => NEEDS_DIRECTOR.has(t.colour)).length;
  const offline = tiles.filter((t) => t.colour === "offline" || t.colour === "lost").length;
  const brokerLost = room.broker && !room.broker.connected;
  replaceChildren("title", "Director" + (room.club ? " \u00b7 " + room.club : ""));
  replaceChildren("summary", brokerLost ? el("b", { class: "needing" }, "Room link lost")
    : needing ? el("b", { class: "needing" }, needing + (needing === 1 ? " table needs you" : " tables need you"))
      : "All quiet", " \u00b7 " + tiles.length + (tiles.length === 1 ? " table" : " tables"),
  offline && !brokerLost ? " \u00b7 " + offline + " offline" : null);
  renderBroker();  // console.alarms.js
  if (typeof deskAnswersArrived === "function") deskAnswersArrived();  // console.desk.js
  document.title = (waiting.length ? "(" + waiting.length + ") " : "") + "Director";
  settleAlarms();
  renderCalls();
  renderTiles();
  renderRanking();
  renderSession();  // console.session.js: the round clock, the late tables, what the players see
  replaceChildren("travellers", room.travellers.length ? room.travellers.map(travellerNode)
    : el("p", { class: "muted" }, "No board finished yet"));
  if (openTable !== null) renderTableHead();
}

function legendNode() {
  return Object.keys(STATE_WORD).map((colour) => el("span", { class: "legend-item" },
    el("span", { class: "state-word tile-" + colour }, STATE_WORD[colour]), " " + STATE_MEANING[colour]));
}

function tileNode(tile) {
  const s = tile.state || {};
  const lines = [];
  lines.push(el("span", { class: "tile-line tile-board" },
    el("span", { class: "nowrap" }, s.board !== null && s.board !== undefined ? "Board " + s.board : "No board"),
    s.round ? [" \u00b7 ", el("span", { class: "nowrap" }, "round " + s.round)] : null));
  if (tile.colour === "offline" || tile.colour === "lost") {
    lines.push(el("span", { class: "tile-line" }, tile.seen ? ["last heard ", ticking(room.now - tile.seen), " ago"] : "never heard"));
  }
  const awaiting = (s.awaiting || []).filter((a) => a.alarm !== false);
  for (const irr of awaiting.slice(0, 2)) {
    lines.push(el("span", { class: "tile-line tile-need" }, irr.what + (irr.offender ? " by " + irr.offender : "")));
  }
  for (const call of room.calls.filter((c) => c.origin === "room" && c.table === tile.table && c.state !== "resolved").slice(0, 2)) {
    lines.push(el("span", { class: "tile-line tile-need" }, (ROOM_FINDING[call.law] || ((c) => c.what))(call)));
  }
  const late = (room.late || []).find((l) => l.table === tile.table);
  if (late) lines.push(el("span", { class: "tile-line tile-need" }, "Late for round " + late.round + ": " + late.played
    + " of " + late.due + " boards, ", ticking(late.late_by), " over"));
  if (s.arbiter_called && NEEDS_DIRECTOR.has(tile.colour)) lines.push(el("span", { class: "tile-line tile-need" }, (SEAT_NAME[s.arbiter_called] || s.arbiter_called) + " called the Director"));
  const phase = s.phase || "idle";
  if (phase !== "idle") {
    lines.push(el("span", { class: "tile-line" }, PHASE_WORD[phase] || plain(phase),
      s.contract ? [" \u00b7 ", contractNode(s.contract, s.declarer)] : null));
  }
  if (s.tricks && phase === "play") lines.push(el("span", { class: "tile-line" }, "Tricks NS " + s.tricks.NS + " \u00b7 EW " + s.tricks.EW));
  if (s.result && phase === "done") {
    const r = s.result;
    const words = [r.result ? "Result " + r.result : r.status === "passed_out" ? null : plain(r.status),
      r.score_ns !== null && r.score_ns !== undefined ? "NS " + r.score_ns : null].filter(Boolean);
    if (words.length) lines.push(el("span", { class: "tile-line" }, words.join(" \u00b7 ")));
  }
  if (s.board_elapsed !== null && s.board_elapsed !== undefined && phase !== "done" && phase !== "idle" &&
      tile.colour !== "offline") {
    const since = tile.state_time ? Math.max(0, room.now - tile.state_time) : 0;
    lines.push(el("span", { class: "tile-line tile-time" }, ticking(s.board_elapsed + since), " on this board"));
  }
  return el("button", { type: "button", class: "tile tile-" + tile.colour, "data-table": tile.table, "data-colour": tile.colour,
    onclick: () => openTableView(tile.table) },
  el("span", { class: "tile-head" }, el("span", { class: "tile-no" }, el("small", {}, "Table"), tile.table),
    el("span", { class: "state-word tile-" + tile.colour }, STATE_WORD[tile.colour] || plain(tile.colour))),
  lines);
}

// the tables needing the Director first, the one waiting longest first; then every other table in order
function renderTiles() {
  const needing = room.tiles.filter((t) => NEEDS_DIRECTOR.has(t.colour))
    .sort((a, b) => (a.oldest_call ?? Infinity) - (b.oldest_call ?? Infinity));
  const others = room.tiles.filter((t) => !NEEDS_DIRECTOR.has(t.colour));
  const nodes = [];
  if (needing.length) nodes.push(el("h3", { class: "tile-group needing" }, "Needs you"), ...needing.map(tileNode));
  if (others.length) nodes.push(el("h3", { class: "tile-group" }, needing.length ? "Other tables" : "All tables"), ...others.map(tileNode));
  if (!room.tiles.length) nodes.push(el("p", { class: "muted" }, "No table has reported yet"));
  replaceChildren("tiles", nodes);
}

function resultText(r) {
  if (r.status === "passed_out" || r.contract === "Pass") return "passed out";
  const result = r.result || plain(r.status);
  return r.status === "adjusted" || r.status === "claimed" ? result + " (" + plain(r.status) + ")" : result;
}

// the points of one side as the page shows them: 2 decimals at most, no trailing zeros
function points(value) {
  if (value === null || value === undefined) return "";
  return String(Math.round(value * 100) / 100);
}

function scoresOf(board) {
  return (room.scores && room.scores.boards && room.scores.boards[board]) || {};
}

function pointsUnit() {
  return room.scores && room.scores.scoring !== "MP" ? "IMP" : "MP";
}

function travellerNode(traveller) {
  const scores = scoresOf(traveller.board);
  const fouled = room.scores && room.scores.fouled && room.scores.fouled[traveller.board];
  const table = el("table", { class: "traveller", "data-board": traveller.board },
    el("caption", {}, "Board " + traveller.board, fouled ? el("span", { class: "finding" }, " \u00b7 fouled (Law 87)") : null),
    el("tr", {}, ["Table", "Contract", "By", "Result", "NS", pointsUnit()].map((h) => el("th", {}, h))));
  for (const r of traveller.results) {
    const s = scores[r.table] || {};
    const pairs = r.pairs && r.pairs.NS !== undefined ? r.pairs.NS + " v " + r.pairs.EW : null;
    const marks = [s.label && s.label !== traveller.board ? "deal " + s.label : null, s.law15 ? "wrong round" : null]
      .filter(Boolean);
    table.append(el("tr", { "data-table": r.table, class: marks.length ? "marked" : null },
      el("td", {}, r.table, pairs ? el("small", { class: "pairs" }, pairs) : null,
        pairs && s.ns ? [pairNames(s.section, s.ns, s.round), pairNames(s.section, s.ew, s.round)] : null,
        marks.length ? el("small", { class: "finding" }, marks.join(", ")) : null),
      el("td", {}, r.contract && r.contract !== "Pass" ? contractNode(r.contract) : "\u2014"),
      el("td", {}, r.declarer || ""),
      el("td", {}, resultText(r)),
      el("td", { class: "score" }, r.score_ns ?? ""),
      el("td", { class: "points" }, s.points_ns === null || s.points_ns === undefined ? ""
        : [points(s.points_ns), el("small", {}, "/" + points(s.points_ew))])));
  }
  return table;
}

// --- the ranking and a pair's scorecard -------------------------------------------------------------

function pairWords(r) {
  const teams = room.scores && room.scores.scoring === "Teams";
  return (teams ? "" : "Pair ") + (r.section ? r.section + " " : "") + r.pair;
}

// the players the Director named for a pair (console.desk.js), in round `round` (none given: now)
function pairNames(section, pair, round) {
  const seats = (room.names || {})[(section || "").toUpperCase() + "|" + pair] || [];
  const now = seats.filter((s) => !round || s.from <= round).pop();
  return now ? el("small", { class: "pair-names" }, now.names.join(" & ")) : null;
}

function rankingValue(r) {
  const scoring = room.scores ? room.scores.scoring : "MP";
  if (scoring === "MP") return r.percent === null || r.percent === undefined ? "\u2014" : r.percent.toFixed(2) + "%";
  if (scoring === "Teams") return points(r.total) + " VP";
  return (r.total > 0 ? "+" : "") + points(r.total) + " IMP";
}

// sections playing the same boards (controller/fieldscore/field.py): the pair's place in the other ranking
function otherPlace(r) {
  const official = room.scores && room.scores.official;
  if (!official || r.field_place === undefined) return null;
  return official === "section" ? "field " + (r.field_place || "\u2013") : "section " + (r.section_place || "\u2013");
}

function samePair(a, b) {
  return a !== null && b !== null && a.pair === b.pair && (a.section || "") === (b.section || "");
}

function renderRanking() {
  const scores = room.scores || {};
  const ranking = room.ranking || [];
  replaceChildren("ranking-how", ranking.length ? [SCORING_WORD[scores.scoring] || scores.scoring,
    scores.session ? scores.session.name + " (" + scores.session.movement.replace("_", " ") + ")" : null,
    scores.official ? (scores.official === "section" ? "ranked in each section" : "ranked across the field") : null]
    .filter(Boolean).join(" \u00b7 ") : "");
  if (!ranking.length) {
    replaceChildren("ranking", el("p", { class: "muted" }, "No result yet"));
    return;
  }
  const fields = [];
  for (const r of ranking) {
    const direction = scores.by_direction ? FIELD_WORD[r.direction] || "" : "";
    const section = scores.official === "section" && r.section ? "Section " + r.section : "";
    const name = [section, direction].filter(Boolean).join(" \u00b7 ");
    let field = fields.find((f) => f.name === name);
    if (!field) fields.push(field = { name, rows: [] });
    field.rows.push(r);
  }
  if (openPair && !ranking.some((r) => samePair(r, openPair))) openPair = null;
  replaceChildren("ranking", fields.map((field) => el("div", { class: "field" },
    field.name ? el("h3", { class: "field-name" }, field.name) : null,
    el("ol", { class: "ranking-list" }, field.rows.map((r) => {
      const open = samePair(r, openPair);
      return el("li", { "data-pair": r.pair, "data-section": r.section || "" },
        el("button", { type: "button", class: "rank-row" + (open ? " open" : ""), "aria-expanded": open ? "true" : "false",
          onclick: () => { openPair = open ? null : { pair: r.pair, section: r.section || null }; renderRanking(); } },
        el("span", { class: "rank-place" }, r.place || "\u2013"),
        el("span", { class: "rank-pair" }, pairWords(r), pairNames(r.section, r.pair)),
        el("span", { class: "rank-value" }, rankingValue(r)),
        el("span", { class: "rank-boards" }, r.boards + (r.boards === 1 ? " board" : " boards")
          + (otherPlace(r) ? " \u00b7 " + otherPlace(r) : ""))),
        open ? scorecardNode(r) : null);
    })))));
}

// a pair's boards so far, from the travellers and their points: round, opponents, contract, result, its score and points
function scorecardNode(standing) {
  const rows = [];
  for (const traveller of room.travellers) {
    const scores = scoresOf(traveller.board);
    for (const r of traveller.results) {
      const s = scores[r.table];
      if (!s || (s.section || "") !== (standing.section || "") || (s.ns !== standing.pair && s.ew !== standing.pair)) continue;
      const ns = s.ns === standing.pair;
      rows.push({ board: traveller.board, round: s.round, table: r.table, r, ns, s,
        opponents: ns ? s.ew : s.ns,
        score: r.score_ns === null || r.score_ns === undefined ? null : ns ? r.score_ns : -r.score_ns,
        points: ns ? s.points_ns : s.points_ew });
    }
  }
  rows.sort((a, b) => (a.round || 0) - (b.round || 0) || Number(a.board) - Number(b.board));
  const rounds = rows.some((x) => x.round);
  const mp = pointsUnit() === "MP";
  const card = el("table", { class: "scorecard", "data-pair": standing.pair },
    el("caption", {}, pairWords(standing), pairNames(standing.section, standing.pair), standing.direction ? " \u00b7 " + FIELD_WORD[standing.direction] : null,
      standing.place ? " \u00b7 " + standing.place : null, " \u00b7 " + rankingValue(standing)),
    el("tr", {}, [rounds ? "Rd" : null, "Bd", "v", "Contract", "Result", "Score", pointsUnit()].filter(Boolean)
      .map((h) => el("th", {}, h))));
  for (const x of rows) {
    const marks = [x.s.label && x.s.label !== x.board ? "deal " + x.s.label : null, x.s.law15 ? "wrong round" : null]
      .filter(Boolean);
    card.append(el("tr", { "data-board": x.board },
      rounds ? el("td", {}, x.round ?? "") : null,
      el("td", {}, x.board, marks.length ? el("small", { class: "finding" }, marks.join(", ")) : null),
      el("td", {}, x.opponents, standing.direction ? null : el("small", {}, x.ns ? "as NS" : "as EW"),
        pairNames(standing.section, x.opponents, x.round)),
      el("td", {}, x.r.contract && x.r.contract !== "Pass" ? [contractNode(x.r.contract), " ", x.r.declarer || ""] : "\u2014"),
      el("td", {}, resultText(x.r)),
      el("td", { class: "score" }, x.score ?? ""),
      el("td", { class: "points" }, mp && x.s.top ? [points(x.points), el("small", {}, "/" + points(x.s.top))] : points(x.points))));
  }
  card.append(el("tr", { class: "total" }, el("td", { colspan: rounds ? 6 : 5 }, "Total, " + standing.boards +
    (standing.boards === 1 ? " board" : " boards")), el("td", { class: "points" }, points(standing.total))));
  return card;
}

// --- one table --------------------------------------------------------------------------------------

function renderTableHead() {
  const tile = room && room.tiles.find((t) => t.table === openTable);
  const node = document.getElementById("t-state");
  node.className = "state-word" + (tile ? " tile-" + tile.colour : "");
  node.textContent = tile ? STATE_WORD[tile.colour] || plain(tile.colour) : "";
  const calls = room ? room.calls.filter((c) => c.table === openTable && c.state !== "resolved") : [];
  replaceChildren("t-calls", calls.map(callItem));
  const text = JSON.stringify(tile || null);
  if (text !== openTile) {
    openTile = text;
    loadView();
  }
}

function openTableView(table, push = true) {
  table = String(table);
  const again = openTable === table;
  openTable = table;
  dismissAlarms(table);
  document.getElementById("room-view").hidden = true;
  document.getElementById("table-view").hidden = false;
  replaceChildren("t-title", "Table " + table);
  if (!again) {
    openTile = "";
    viewText = "";
    replaceChildren("t-action-info");
    replaceChildren("t-action-error");
    replaceChildren("t-entry", entryFormNodes("t-", tableUrl(table, "/actions"), send,
      (message) => replaceChildren("t-action-error", message)));
    if (push && !pushed) history.pushState({ table }, "", "#table-" + table);
    else history.replaceState({ table }, "", "#table-" + table);
    pushed = pushed || push;
  }
  window.scrollTo(0, 0);
  api("POST", tableUrl(table, "/open")).catch((err) => replaceChildren("t-action-error", err.message));
  if (room) renderTableHead();
  loadView();
}

function showRoom() {
  openTable = null;
  pushed = false;
  document.getElementById("table-view").hidden = true;
  document.getElementById("room-view").hidden = false;
}

async function loadView() {
  if (openTable === null) return;
  if (viewLoading) { viewAgain = true; return; }
  viewLoading = true;
  const table = openTable;
  try {
    const view = await api("GET", tableUrl(table));
    if (table === openTable) drawView(view);
  } catch (err) {
    if (table === openTable) {
      viewText = "";
      document.getElementById("t-arbiter").hidden = true;
      const missing = document.getElementById("t-missing");
      missing.hidden = false;
      missing.textContent = err.status === 404 ? "Table " + table + " has not sent its state yet." : err.message;
    }
  } finally {
    viewLoading = false;
    if (viewAgain) { viewAgain = false; loadView(); }
  }
}

function drawView(view) {
  const text = JSON.stringify(view);
  if (text === viewText) return;
  viewText = text;
  document.getElementById("t-missing").hidden = true;
  document.getElementById("t-arbiter").hidden = false;
  document.getElementById("t-claim-panel").hidden = !view.claim_help;
  renderArbiterView(view, "t-", tableUrl(openTable, "/rulings"), send);
}

// posts a ruling or an entry to the open table; says whether the table accepted it, refused it
// (and why) or did not answer
async function send(url, body, what) {
  const table = openTable;
  replaceChildren("t-action-error");
  replaceChildren("t-action-info", what + ": sent to table " + table + ", waiting for its answer\u2026");
  try {
    await api("POST", url, body);
    replaceChildren("t-action-info", what + ": accepted by table " + table);
    loadView();
  } catch (err) {
    replaceChildren("t-action-info");
    const why = err.status === 409 ? "refused: " + err.message
      : err.status === 504 ? "no answer: " + err.message
        : err.status === 422 ? "not valid: " + err.message : err.message;
    replaceChildren("t-action-error", what + " \u2014 " + why);
  }
}

// --- wiring -------------------------------------------------------------------------------------------

replaceChildren("legend", legendNode());
setInterval(tick, 1000);

// a page reloaded in a session has had no click yet: the first touch unlocks the audio
document.addEventListener("pointerdown", unlockAudio, { once: true });

document.getElementById("back").addEventListener("click", () => {
  if (pushed) history.back();
  else { showRoom(); history.replaceState(null, "", location.pathname); }
});

// back, forward, or an address typed or linked (#table-3: no state of ours, the hash says which table)
window.addEventListener("popstate", (event) => {
  if (!socket) return;  // signed out: the log-in's start() reads the address
  const table = event.state && event.state.table ? String(event.state.table) : hashTable();
  if (table !== null) openTableView(table, false);
  else showRoom();
});
