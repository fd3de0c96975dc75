// The console's print and export desk (web_ui/console_results.py): print the results (ranking,
// travellers, score cards), save them as a PDF, print the hand record with its double-dummy tables,
// and download the files other programs read (PBN, USEBIO, LIN). Every button asks the console
// first, so that "no result yet" is said here in words rather than as a page of JSON.
"use strict";

(function () {
  const ACTIONS = [
    { id: "print-results", label: "Print results", path: "/api/results.html", print: true,
      note: "ranking, travellers and score cards" },
    { id: "pdf-results", label: "Results as PDF", path: "/api/results.pdf", file: "results.pdf" },
    { id: "print-handrecord", label: "Print hand record", path: "/api/handrecord.html", print: true,
      note: "the deals with double-dummy tables and par" },
    { id: "pbn-results", label: "Results PBN", path: "/api/results.pbn", file: "results.pbn" },
    { id: "usebio-results", label: "Results USEBIO", path: "/api/results.usebio", file: "results.xml" },
    { id: "pbn-boards", label: "Boards PBN", path: "/api/boards.pbn", file: "boards.pbn" },
    { id: "lin-boards", label: "Boards LIN", path: "/api/boards.lin", file: "boards.lin" },
  ];

  function say(text, bad) {
    const note = document.getElementById("print-note");
    note.textContent = text;
    note.className = bad ? "error" : "muted";
  }

  // The server's words for a refusal ({"detail": "..."}), else its status.
  async function refusal(r) {
    try {
      const body = await r.json();
      if (body && typeof body.detail === "string") return body.detail;
    } catch (err) { /* not JSON */ }
    return "the console answered " + r.status;
  }

  function fileName(r, fallback) {
    const m = /filename="([^"]+)"/.exec(r.headers.get("content-disposition") || "");
    return m ? m[1] : fallback;
  }

  // A page printed from a hidden frame loading it from the console (its own inline style is allowed
  // there, not in a frame written from here): the browser's print dialog, where "Save as PDF" works too.
  function printPage(path) {
    const old = document.querySelector("iframe.print-frame");
    if (old) old.remove();
    const frame = document.createElement("iframe");
    frame.className = "print-frame";
    frame.setAttribute("aria-hidden", "true");
    frame.onload = () => { frame.contentWindow.focus(); frame.contentWindow.print(); };
    frame.src = path;
    document.body.append(frame);
  }

  function save(blob, name) {
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  async function run(action, button) {
    button.disabled = true;
    say(action.label + ": preparing\u2026", false);
    try {
      const r = await fetch(action.path, { credentials: "same-origin", cache: "no-store" });
      if (!r.ok) { say(action.label + ": " + await refusal(r), true); return; }
      if (action.print) {
        printPage(action.path);
        say(action.label + ": sent to the print dialog" + (action.note ? " (" + action.note + ")" : ""), false);
      } else {
        const name = fileName(r, action.file);
        save(await r.blob(), name);
        say(action.label + ": saved as " + name, false);
      }
    } catch (err) {
      say(action.label + ": cannot reach the console", true);
    } finally {
      button.disabled = false;
    }
  }

  function build() {
    const box = document.getElementById("print-actions");
    if (!box) return;
    for (const action of ACTIONS) {
      const button = document.createElement("button");
      button.type = "button";
      button.id = action.id;
      button.className = action.print ? "" : "secondary";
      button.textContent = action.label;
      button.addEventListener("click", () => run(action, button));
      box.append(button);
    }
  }

  build();
})();
