// The judge's table: choose a ruleset, start a position, and wire the board, the editor,
// the questions and sharing together. Opened with ?ruleset=ID, ?example=ID or #r=…&p=….

import { api, showError } from "./api.js";
import { Board } from "./board.js";
import { table, position, start, onChange, undo } from "./table.js";
import { setupEditor, wireEditor, editTap, fillForms, afterRedraw, el } from "./edit.js";
import { wireAsk, movesAt, refreshMoves, resetAsk, judge } from "./ask.js";
import { encodeShare, decodeShare, download } from "./share.js";

const $ = (id) => document.getElementById(id);
let rulesets = [];
let recordText = null;   // the record the slider replays
let busy = 0;

/** Run `fn`, showing "Working…" and any error in `where`. */
async function act(where, fn) {
  busy++; $("busy").hidden = false;
  try { showError(where, null); await fn(); } catch (e) { showError(where, e); }
  finally { if (--busy === 0) $("busy").hidden = true; }
}

const board = new Board($("board"), $("board-inner"), (tap) => {
  if ($("edit-mode").checked) editTap(tap); else movesAt(tap, board);
});

async function chooseRuleset(id) {
  const info = await api(`rulesets/${encodeURIComponent(id)}`);
  table.ruleset = id;
  table.info = info;
  $("ruleset").value = id;
  $("rulebook-link").href = info.rulebook;
  const players = [];
  for (let n = info.players.min; n <= info.players.max; n++) players.push(el("option", { value: n, textContent: n }));
  $("players").replaceChildren(...players);
  $("examples-none")?.remove();
  $("example").replaceChildren(...info.examples.map((x) => el("option", { value: x.id, textContent: [x.number, x.title || x.id].filter(Boolean).join(" · ") })));
  $("open-example").disabled = info.examples.length === 0;
  $("example-info").textContent = info.examples.length ? "" : "This ruleset has no worked examples.";
  renderLegend(info);
  $("as-seat").replaceChildren(el("option", { value: "", textContent: "the whole table (everything seen)" }),
    ...info.seats.map((s) => el("option", { value: s.id, textContent: s.name || s.id })));
  setupEditor(info);
}

function renderLegend(info) {
  const items = info.seats.map((s) => el("span", { className: "item" },
    el("span", { className: "swatch", style: `background:${s.colour}` }), s.name || s.id));
  for (const p of info.pieces) {
    const icon = el("span", { className: "item" });
    icon.innerHTML = p.svg || "";
    icon.append(p.name || p.kind);
    items.push(icon);
  }
  $("legend").replaceChildren(...items);
}

onChange((reply, { refit }) => {
  for (const id of ["table", "ask", "share"]) $(id).hidden = false;
  const s = reply.situation;
  $("situation").textContent = s.finished ? `${s.said} — the game is over.` : s.said;
  board.show(reply.svg, refit);
  if (refit) boardViews(reply.position);
  afterRedraw();
  fillForms(reply.position);
  resetAsk();
  refreshMoves();
  $("undo").disabled = table.undo.length === 0;
  $("applied").textContent = table.record.length ? `Moves applied: ${table.record.join(", ")}` : "";
  $("share-url").hidden = true;
  if (reply.problems && reply.problems.length) showError("board", { message: "The server notes:", problems: reply.problems });
});

const NARROW = 700;  // px of board: below it, several players' boards are too small to read at once

/** One button per player's board (for games with a board per player); on a narrow screen the
 *  table starts on the first player's board, readable, rather than all of them too small. */
function boardViews(pos) {
  const seats = table.info.per_player_board ? pos.players.map((p) => p.seat) : [];
  const names = Object.fromEntries(table.info.seats.map((s) => [s.id, s.name || s.id]));
  const of = (seat) => `[data-board="${seat}"], [data-cell^="${seat}/"]`;  // its label and its cells
  const buttons = seats.filter((seat) => $("board-inner").querySelector(of(seat))).map((seat) => {
    const b = el("button", { type: "button", textContent: names[seat] || seat });
    b.setAttribute("aria-label", `Show the board of ${names[seat] || seat}`);
    b.addEventListener("click", () => board.fitTo(of(seat)));
    return b;
  });
  $("board-views").replaceChildren(...buttons);
  $("board-views").hidden = buttons.length < 2;
  if (buttons.length > 1 && $("board").clientWidth < NARROW) board.fitTo(of(seats[0]));
}

function selectTab(name) {
  for (const b of document.querySelectorAll("[data-tab]")) {
    b.setAttribute("aria-selected", String(b.dataset.tab === name));
    b.tabIndex = b.dataset.tab === name ? 0 : -1;  // one stop in the tab order; arrows for the rest
  }
  for (const p of document.querySelectorAll("[data-panel]")) p.hidden = p.dataset.panel !== name;
}

async function openExample(id) {
  const reply = await api("positions/example", { ruleset: table.ruleset, example: id });
  start(reply);
  const ex = reply.example;
  const parts = [[ex.number, ex.title].filter(Boolean).join(" · ")];
  if (ex.moves.length) parts.push(`the move asked: ${ex.moves.join("; ")}`);
  if (ex.verdict) parts.push(`the rulebook's verdict: ${ex.verdict}`);
  $("example-info").textContent = parts.join(" — ");
  if (ex.moves.length) {  // the example's question, asked at once: its ruling is what the page shows
    $("move").value = ex.moves.join("; ");
    await judge(ex.moves.join("; "));
  }
}

async function replayRecord(upto) {
  const reply = await api("positions/record", { ruleset: table.ruleset, record: recordText, upto });
  start(reply);
  const r = reply.record;
  const slider = $("record-upto");
  slider.max = r.total; slider.value = r.upto;
  $("record-slider").hidden = false;
  $("record-at").textContent = `${r.upto} of ${r.total}`;
  const last = r.decisions.find((d) => d.number === r.upto);
  $("record-move").textContent = last ? `Decision ${last.number}: ${last.player} played ${last.move}` : "The start of the game.";
}

async function readFile(input, area) {
  const file = input.files[0];
  if (!file) return;
  if (file.size > 1_000_000) throw new Error(`${file.name} is larger than 1 MB: the judge takes files up to 1 MB.`);
  area.value = await file.text();
}

function wireStart() {
  const tabs = [...document.querySelectorAll("[data-tab]")];
  for (const b of tabs) {
    b.addEventListener("click", () => selectTab(b.dataset.tab));
    b.addEventListener("keydown", (e) => {  // a tab list's keys: arrows move along it
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
      if (!step) return;
      e.preventDefault();
      const next = tabs[(tabs.indexOf(b) + step + tabs.length) % tabs.length];
      selectTab(next.dataset.tab);
      next.focus();
    });
  }
  $("ruleset").addEventListener("change", () => act("start", async () => {
    await chooseRuleset($("ruleset").value);
    history.replaceState(null, "", `?ruleset=${encodeURIComponent(table.ruleset)}`);
    await newGame();
  }));
  $("new-game").addEventListener("click", () => act("start", newGame));
  $("open-example").addEventListener("click", () => act("start", () => openExample($("example").value)));
  $("record-file").addEventListener("change", () => act("start", () => readFile($("record-file"), $("record-text"))));
  $("position-file").addEventListener("change", () => act("start", () => readFile($("position-file"), $("position-text"))));
  $("load-record").addEventListener("click", () => act("start", async () => {
    recordText = $("record-text").value;
    if (!recordText.trim()) throw new Error("Paste a game record, or choose its file, first.");
    await replayRecord(null);
  }));
  let timer = null;
  $("record-upto").addEventListener("input", () => {
    $("record-at").textContent = `${$("record-upto").value} of ${$("record-upto").max}`;
    clearTimeout(timer);
    timer = setTimeout(() => act("start", () => replayRecord(Number($("record-upto").value))), 150);
  });
  for (const [id, step] of [["record-prev", -1], ["record-next", 1]]) {
    $(id).addEventListener("click", () => {
      const slider = $("record-upto");
      const upto = Math.min(Number(slider.max), Math.max(0, Number(slider.value) + step));
      if (upto !== Number(slider.value)) act("start", () => replayRecord(upto));
    });
  }
  $("load-position").addEventListener("click", () => act("start", async () => {
    let pos;
    try { pos = JSON.parse($("position-text").value); } catch (e) {
      throw new Error(`This is not a position file: it is not JSON (${e.message}).`);
    }
    if (pos && typeof pos.ruleset === "string" && pos.ruleset !== table.ruleset) await chooseRuleset(pos.ruleset);
    start(await api("positions/check", { ruleset: table.ruleset, position: pos }));
  }));
}

async function newGame() {
  start(await api("positions/new", { ruleset: table.ruleset, players: Number($("players").value), seed: 1 }));
}

function wireTable() {
  $("zoom-in").addEventListener("click", () => board.zoom(1.25));
  $("zoom-out").addEventListener("click", () => board.zoom(0.8));
  $("zoom-fit").addEventListener("click", () => board.fit());
  $("edit-mode").addEventListener("change", () => {
    $("editor").hidden = !$("edit-mode").checked;
    $("board").classList.toggle("editing", $("edit-mode").checked);
    $("at-moves").hidden = true;
    board.mark("chosen", []);
  });
  $("undo").addEventListener("click", undo);
  $("export-position").addEventListener("click", () =>
    download(`${table.ruleset}-position.json`, JSON.stringify(position(), null, 2) + "\n"));
  $("export-record").addEventListener("click", () => {
    if (!table.record.length) return showError("page", { message: "No move has been applied yet: nothing to record." });
    download(`${table.ruleset}-moves.txt`, table.record.join("\n") + "\n", "text/plain");
  });
  $("share-link").addEventListener("click", () => act("page", async () => {
    const url = `${location.origin}${location.pathname}#${await encodeShare(table.ruleset, position())}`;
    $("share-url").value = url;
    $("share-url").hidden = false;
    try {
      await navigator.clipboard.writeText(url);
      $("share-note").textContent = "The link is copied: whoever opens it sees this table.";
    } catch {
      $("share-url").select();
      $("share-note").textContent = "Copy the link above: whoever opens it sees this table.";
    }
  }));
}

async function boot() {
  if (window.matchMedia("(max-width: 600px)").matches) $("legend-box").open = false;  // folded on a phone
  wireStart(); wireTable(); wireEditor(board); wireAsk();
  await act("page", async () => {
    rulesets = (await api("rulesets")).rulesets;
    $("ruleset").replaceChildren(...rulesets.map((r) => el("option", { value: r.id, textContent: r.title + (r.subtitle ? ` — ${r.subtitle}` : "") })));
    const params = new URLSearchParams(location.search);
    const shared = await decodeShare(location.hash).catch((e) => { showError("page", e); return null; });
    const wanted = (shared && shared.ruleset) || params.get("ruleset") || rulesets[0].id;
    if (!rulesets.some((r) => r.id === wanted)) throw new Error(`There is no ruleset “${wanted}”. Choose one from the list.`);
    await chooseRuleset(wanted);
    if (shared) {
      start(await api("positions/check", { ruleset: wanted, position: shared.position }));
    } else if (params.get("example")) {
      selectTab("example");
      $("example").value = params.get("example");
      await openExample(params.get("example"));
    } else {
      await newGame();
    }
  });
  if (!table.ruleset && rulesets.length) await act("page", () => chooseRuleset(rulesets[0].id));
}

window.addEventListener("hashchange", () => act("page", async () => {
  const shared = await decodeShare(location.hash);
  if (!shared) return;
  if (shared.ruleset !== table.ruleset) await chooseRuleset(shared.ruleset);
  start(await api("positions/check", { ruleset: shared.ruleset, position: shared.position }));
}));

boot();
