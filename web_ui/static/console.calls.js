// The queue of calls for the Director on the console (needs common.js and console.js): each call
// with its table, what happened and for how long it has waited, who is on the way; "On my way",
// "Go instead" and "Done" (POST /api/calls/mark); a push's calls that changed merged into the room.
"use strict";

const CALL_WORD = { called: "WAITING", acknowledged: "ON MY WAY", being_ruled: "BEING RULED", resolved: "DONE" };

function callWhat(call) {
  const what = call.what || "Director called";
  return call.irregularity !== null && call.irregularity !== undefined && call.seat ? what + " by " + call.seat : what;
}

// only the calls that changed (a delta's `calls_changed`, `calls_gone`): the others wait on, counted
// from the push's `now`
function mergeCalls(changed, gone) {
  const goneKeys = new Set((gone || []).map((c) => c.key));
  const fresh = new Map((changed || []).map((c) => [c.key, c]));
  room.calls = room.calls.filter((c) => !goneKeys.has(c.key) && !fresh.has(c.key)).concat([...fresh.values()]);
  for (const call of room.calls) if (call.state !== "resolved") call.waited = Math.max(0, room.now - call.since);
}

function callItem(call) {
  const open = call.state !== "resolved";
  return el("li", { class: "call-item call-" + call.state, "data-key": call.key, "data-table": call.table },
    el("button", { type: "button", class: "call-open", "aria-label": "open table " + call.table,
      onclick: () => openTableView(call.table) },
    el("span", { class: "call-table" }, el("small", {}, "Table"), el("b", {}, call.table)),
    el("span", { class: "call-body" },
      el("span", { class: "call-what" }, callWhat(call)),
      el("span", { class: "call-meta" }, [call.board ? "board " + call.board : null, call.law ? "Law " + call.law : null]
        .filter(Boolean).join(" \u00b7 ")))),
    el("span", { class: "call-state" }, el("b", { class: "call-word" }, CALL_WORD[call.state] || plain(call.state)),
      open ? [" for ", ticking(call.waited, "waited")] : call.outcome ? " \u00b7 " + plain(call.outcome) : null,
      open && call.by ? el("span", { class: "call-by" + (mine(call) ? " mine" : "") }, whoGoes(call)) : null),
    open ? el("span", { class: "call-actions" },
      call.state === "called" ? el("button", { type: "button", class: "ack", onclick: () => markCall(call.key, "acknowledged") }, "On my way") : null,
      call.by && !mine(call) ? el("button", { type: "button", class: "instead", onclick: () => markCall(call.key, "acknowledged", true) }, "Go instead") : null,
      el("button", { type: "button", class: "done", onclick: () => markCall(call.key, "resolved") }, "Done")) : null);
}

// the call is the signed-in Director's own (they are on the way, or at the table)
function mine(call) {
  return !!(me && call.by === me.director);
}

// who is on the way to the call, or at its table, in words
function whoGoes(call) {
  const who = mine(call) ? "You" : call.by;
  const verb = mine(call) ? "are" : "is";
  return call.state === "being_ruled" ? who + " " + verb + " at the table" : who + " " + verb + " on the way";
}

function renderCalls() {
  const byAge = (a, b) => a.since - b.since;
  const open = room.calls.filter((c) => c.state !== "resolved").sort(byAge);
  const resolved = room.calls.filter((c) => c.state === "resolved").sort((a, b) => b.since - a.since);
  replaceChildren("calls-count", open.length ? String(open.length) : "");
  replaceChildren("calls", open.length ? open.map(callItem) : el("li", { class: "muted none" }, "No call waiting"));
  document.getElementById("resolved-calls").hidden = resolved.length === 0;
  replaceChildren("resolved", resolved.map(callItem));
}

async function markCall(key, state, takeOver) {
  try {
    await api("POST", "/api/calls/mark", takeOver ? { key, state, take_over: true } : { key, state });
  } catch (err) {
    replaceChildren(openTable === null ? "calls-error" : "t-action-error", err.message);
  }
}
