// What keeps the Director alerted (needs common.js, arbiterview.js and console.js): the room's broker
// lost (one loud alarm naming the cause and since when, apart from the tables), whether the alarm
// can sound (a browser plays no sound before a first tap: the page says so until then), the screen
// kept awake while the console is open (Wake Lock, where the browser has it), and a notification
// for an alarm while the page is hidden (where the Director allowed them).
"use strict";

let brokerLostSince = null;  // the broker loss already rung for
let wakeLock = null;

// --- the room's broker ------------------------------------------------------------------------------

function renderBroker() {
  const b = room && room.broker;
  const box = document.getElementById("broker-alarm");
  if (b && b.connected && b.alerts) {  // the alerts' own connection reconnecting: late, not lost
    box.hidden = false;
    box.replaceChildren(el("span", { class: "alarm-text" }, b.alerts.text),
      el("span", { class: "alarm-hint" }, "Held up for ", ticking(room.now - b.alerts.since)));
    brokerLostSince = null;
    return;
  }
  if (!b || b.connected) {
    box.hidden = true;
    brokerLostSince = null;
    return;
  }
  box.hidden = false;
  box.replaceChildren(el("span", { class: "alarm-text" }, b.text),
    el("span", { class: "alarm-hint" }, "Lost for ", ticking(room.now - b.since), "; the tables' tiles show what they last said"));
  if (brokerLostSince !== b.since) {
    brokerLostSince = b.since;
    ringAlarm();
    notifyAlarm("The room's broker is lost", b.text);
  }
}

// --- sound, screen, notifications ---------------------------------------------------------------------

function soundOn() {
  return typeof alarmAudio !== "undefined" && alarmAudio !== null && alarmAudio.state === "running";
}

function renderAlertState() {
  const on = soundOn();
  const sound = document.getElementById("sound");
  sound.textContent = on ? "Sound on" : "Sound off: tap to turn the alarm sound on";
  sound.className = "sound " + (on ? "sound-on" : "sound-off");
  sound.setAttribute("aria-pressed", on ? "true" : "false");
  const wake = document.getElementById("wake");
  wake.textContent = !("wakeLock" in navigator) ? "Screen may sleep: this browser cannot keep it on"
    : wakeLock && !wakeLock.released ? "Screen stays on" : "Screen may sleep";
  const notify = document.getElementById("notify");
  notify.textContent = !("Notification" in window) ? "" : Notification.permission === "granted" ? "Notifications on"
    : Notification.permission === "denied" ? "Notifications blocked" : "Notifications off";
}

async function keepAwake() {
  if (!("wakeLock" in navigator) || document.visibilityState !== "visible") { renderAlertState(); return; }
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    wakeLock.addEventListener("release", renderAlertState);
  } catch (err) {
    wakeLock = null;
  }
  renderAlertState();
}

async function turnSoundOn() {
  unlockAudio();
  if (alarmAudio && alarmAudio.state !== "running") {
    try { await alarmAudio.resume(); } catch (err) { /* stays off: the page says so */ }
  }
  if ("Notification" in window && Notification.permission === "default") {
    try { await Notification.requestPermission(); } catch (err) { /* not allowed here */ }
  }
  keepAwake();
  renderAlertState();
}

// a notification for an alarm while the page is not in view (where the Director allowed them)
function notifyAlarm(title, text) {
  if (!("Notification" in window) || Notification.permission !== "granted" || document.visibilityState === "visible") return;
  try { new Notification(title, { body: text, tag: "director-alarm", renotify: true, requireInteraction: true }); }
  catch (err) { /* some browsers only notify from a service worker */ }
}

function alertsStart() {
  document.getElementById("alert-state").hidden = false;
  keepAwake();
}

document.getElementById("sound").addEventListener("click", turnSoundOn);
document.addEventListener("pointerdown", () => setTimeout(renderAlertState, 50));
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") keepAwake(); });
setInterval(renderAlertState, 2000);
