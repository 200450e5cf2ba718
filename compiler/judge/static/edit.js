// Edit mode: the position JSON is changed in the page, then sent to the server's check.
// Everything offered comes from the ruleset's declarations (tiles, pieces, seats, steps,
// resources, zones), never from a particular game.

import { api, showError } from "./api.js";
import { table, position, draft, propose } from "./table.js";
import { renderCards, wireCards } from "./cards.js";

const $ = (id) => document.getElementById(id);
/** A new element with these properties and children. */
export function el(tag, props = {}, ...children) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

const chosen = { tile: null, face: 0, rotation: 0, fits: [] };

export function tool() { return document.querySelector('input[name="tool"]:checked').value; }

/** Fill the editor's choices from the ruleset's declarations. */
export function setupEditor(info) {
  chosen.tile = null; chosen.face = 0; chosen.rotation = 0; chosen.fits = [];
  const hasTiles = info.tiles.length > 0;
  for (const value of ["tile", "untile"]) {
    document.querySelector(`input[name="tool"][value="${value}"]`).parentElement.hidden = !hasTiles;
  }
  document.querySelector('input[name="tool"][value="piece"]').parentElement.hidden = info.pieces.length === 0;
  document.querySelector('input[name="tool"][value="unpiece"]').parentElement.hidden = info.pieces.length === 0;
  const first = [...document.querySelectorAll('input[name="tool"]')].find((r) => !r.parentElement.hidden);
  if (first) { first.checked = true; showTool(); }
  $("tile-search").value = "";
  renderCatalogue(info);
  renderChosen();
  $("piece-kind").replaceChildren(...info.pieces.map((p) => el("option", { value: p.kind, textContent: p.name || p.kind })));
  $("piece-owner").replaceChildren(...info.seats.map((s) => el("option", { value: s.id, textContent: s.name || s.id })));
  $("turn-step").replaceChildren(...info.steps.map((s) => el("option", { value: s.id, textContent: s.title || s.id })));
}

function showTool() {
  const t = tool();
  for (const panel of document.querySelectorAll("[data-tool]")) panel.hidden = panel.dataset.tool !== t;
}

function faceOf(tile, index) { return tile.faces[index % tile.faces.length]; }

function renderCatalogue(info) {
  const query = $("tile-search").value.trim().toLowerCase();
  const buttons = [];
  for (const tile of info.tiles) {
    const words = [tile.id, ...tile.faces.map((f) => `${f.face} ${f.shows}`)].join(" ").toLowerCase();
    if (query && !query.split(/\s+/).every((w) => words.includes(w))) continue;
    const face = faceOf(tile, 0);
    const b = el("button", { type: "button", title: `${tile.id}: ${face.shows}` });
    b.dataset.tile = tile.id;
    b.setAttribute("aria-pressed", String(chosen.tile === tile));
    b.innerHTML = face.svg;
    b.append(el("span", { textContent: tile.id }));
    b.addEventListener("click", () => {
      chosen.tile = tile; chosen.face = 0; chosen.rotation = 0; chosen.fits = [];
      for (const o of $("catalogue").querySelectorAll("button")) o.setAttribute("aria-pressed", String(o === b));
      renderChosen();
      markFits();
    });
    buttons.push(b);
  }
  $("catalogue").replaceChildren(...(buttons.length ? buttons : [el("p", { className: "note", textContent: "No tile matches." })]));
}

function renderChosen() {
  const box = $("tile-chosen");
  for (const id of ["tile-rotate", "tile-flip", "tile-fits"]) $(id).disabled = !chosen.tile;
  if (!chosen.tile) { box.textContent = "No tile chosen."; return; }
  const face = faceOf(chosen.tile, chosen.face);
  $("tile-flip").disabled = chosen.tile.faces.length < 2;
  box.className = "tile-preview";
  box.innerHTML = face.svg;
  const svg = box.querySelector("svg");
  if (svg) svg.style.transform = `rotate(${(360 / (table.info.rotations || 1)) * chosen.rotation}deg)`;
  box.append(` ${chosen.tile.id}, face ${face.face}, rotation ${chosen.rotation}: ${face.shows}`);
}

function markFits() {
  const cells = new Set(chosen.fits.map((f) => f.at));
  board.mark("fits", [...cells].map((c) => `polygon.open[data-cell="${c}"]`));
}

let board = null;

/** Re-mark where the chosen tile fits after the board is redrawn. */
export function afterRedraw() { chosen.fits = []; if (board) markFits(); }

export function wireEditor(theBoard) {
  board = theBoard;
  for (const r of document.querySelectorAll('input[name="tool"]')) r.addEventListener("change", showTool);
  $("tile-search").addEventListener("input", () => renderCatalogue(table.info));
  $("tile-rotate").addEventListener("click", () => {
    chosen.rotation = (chosen.rotation + 1) % (table.info.rotations || 1); renderChosen();
  });
  $("tile-flip").addEventListener("click", () => {
    chosen.face = (chosen.face + 1) % chosen.tile.faces.length; chosen.fits = []; renderChosen(); markFits();
  });
  $("tile-fits").addEventListener("click", async () => {
    try {
      const reply = await api("fits", { ruleset: table.ruleset, position: position(), tile: chosen.tile.id,
        face: faceOf(chosen.tile, chosen.face).face });
      chosen.fits = reply.placements;
      markFits();
      showError("edit", chosen.fits.length ? null : { message: `Tile ${chosen.tile.id} fits nowhere on this board.` });
    } catch (e) { showError("edit", e); }
  });
  $("players-apply").addEventListener("click", applyPlayers);
  $("turn-apply").addEventListener("click", applyTurn);
  $("zones-apply").addEventListener("click", applyZones);
  wireCards();
}

/** Send an edit; when it is refused, the forms show the position as it still is. */
async function submit(p) {
  if (!(await propose(p, "edit"))) fillForms(position());
}

/** A tap on the board in edit mode. */
export async function editTap(tap) {
  const t = tool();
  const p = draft();
  // on a board per player the picture names a cell "seat/x,y"; the position file says board and at
  const at = tap.board && tap.cell && tap.cell.startsWith(`${tap.board}/`) ? tap.cell.slice(tap.board.length + 1) : tap.cell;
  if (t === "tile") {
    if (!chosen.tile) return showError("edit", { message: "Choose a tile from the catalogue first." });
    if (!tap.open) return showError("edit", { message: `Cell ${tap.cell} already holds a tile: tap an open (dashed) cell, or remove that tile first.` });
    const face = faceOf(chosen.tile, chosen.face);
    let placement = { face: face.face, rotation: chosen.rotation };
    const here = chosen.fits.filter((f) => f.at === tap.cell);
    if (here.length && !here.some((f) => f.rotation === chosen.rotation && f.face === face.face)) placement = here[0];
    const laid = { at, tile: chosen.tile.id, face: placement.face, rotation: placement.rotation };
    if (tap.board) laid.board = tap.board;
    p.tiles.push(laid);
    takeFromStacks(p, chosen.tile.id);
  } else if (t === "untile") {
    const i = p.tiles.findIndex((x) => x.at === at && (!tap.board || x.board === tap.board));
    if (i < 0) return showError("edit", { message: `No tile at ${tap.cell}.` });
    p.tiles.splice(i, 1);
    if (!tap.board) {
      for (const x of p.pieces.filter((x) => x.at.startsWith(`${tap.cell}:`))) supply(p, x, +1);
      p.pieces = p.pieces.filter((x) => !x.at.startsWith(`${tap.cell}:`));
    }
  } else if (t === "piece") {
    if (!tap.site) return showError("edit", { message: "Tap a site (a corner, edge or centre of a tile) to put a piece there." });
    const piece = { kind: $("piece-kind").value, owner: $("piece-owner").value, at: tap.site };
    p.pieces.push(piece);
    supply(p, piece, -1);
  } else if (t === "unpiece") {
    let i = tap.piece;
    if (i === null && tap.site) i = p.pieces.map((x) => x.at).lastIndexOf(tap.site);
    if (i === null || i < 0) return showError("edit", { message: "No piece there: tap a piece to remove it." });
    supply(p, p.pieces[i], +1);
    p.pieces.splice(i, 1);
  }
  await submit(p);
}

/** A piece put on the board comes from its owner's supply, and a piece taken off goes back,
 *  when the position counts that supply: the game has only so many. */
function supply(p, piece, change) {
  const owner = p.players.find((x) => x.seat === piece.owner);
  if (owner && owner.supply && piece.kind in owner.supply) {
    owner.supply[piece.kind] = Math.max(0, owner.supply[piece.kind] + change);
  }
}

/** A tile laid from the catalogue leaves the stacks it was in: the game has only so many copies. */
function takeFromStacks(p, id) {
  for (const stack of p.stacks || []) {
    const i = stack.indexOf(id);
    if (i >= 0) { stack.splice(i, 1); return; }
  }
}

/** Fill the players', turn and zone editors from the position shown. */
export function fillForms(pos) {
  const info = table.info;
  const holdable = info.resources.filter((r) => !r.holders || r.holders.includes("player"));
  const names = Object.fromEntries(info.seats.map((s) => [s.id, s.name || s.id]));
  const sets = pos.players.map((pl, i) => {
    const fs = el("fieldset", {}, el("legend", { textContent: names[pl.seat] || pl.seat }));
    const ids = [...new Set([...holdable.map((r) => r.id), ...Object.keys(pl.resources || {})])];
    for (const id of ids) {
      const r = info.resources.find((x) => x.id === id);
      const input = el("input", { type: "number", min: 0, value: (pl.resources || {})[id] ?? 0 });
      input.dataset.player = i; input.dataset.resource = id;
      fs.append(el("label", {}, (r && r.name) || id, input));
    }
    for (const [kind, count] of Object.entries(pl.supply || {})) {
      const input = el("input", { type: "number", min: 0, value: count });
      input.dataset.player = i; input.dataset.supply = kind;
      fs.append(el("label", {}, `supply: ${kind}`, input));
    }
    return fs;
  });
  $("players-fields").replaceChildren(...sets);
  $("turn-player").replaceChildren(...pos.players.map((pl) => el("option", { value: pl.seat, textContent: names[pl.seat] || pl.seat })));
  $("turn-player").value = pos.turn.player;
  $("turn-step").value = pos.turn.step;
  $("turn-number").value = pos.turn.number ?? 1;
  const zones = [];
  for (const [name, value] of Object.entries(pos.zones || {})) zones.push(zoneBox(`zone:${name}`, name, value));
  pos.players.forEach((pl, i) => {
    if (pl.hidden) zones.push(zoneBox(`hidden:${i}`, `hand of ${names[pl.seat] || pl.seat}`, pl.hidden));
  });
  $("zones-editor").hidden = zones.length === 0;
  $("zones-fields").replaceChildren(...zones);
  renderCards(pos);
}

function zoneBox(key, title, value) {
  const area = el("textarea", { rows: 3, spellcheck: false, value: JSON.stringify(value) });
  area.dataset.zone = key;
  return el("label", { className: "block" }, title, area);
}

async function applyPlayers() {
  const p = draft();
  for (const input of $("players-fields").querySelectorAll("input")) {
    const pl = p.players[Number(input.dataset.player)];
    const n = Number(input.value);
    if (!Number.isInteger(n) || n < 0) return showError("edit", { message: `${input.parentElement.textContent.trim()}: a whole number of 0 or more, please.` });
    if (input.dataset.resource) { pl.resources = pl.resources || {}; pl.resources[input.dataset.resource] = n; }
    else { pl.supply[input.dataset.supply] = n; }
  }
  await submit(p);
}

async function applyTurn() {
  const p = draft();
  const player = $("turn-player").value, step = $("turn-step").value, number = Number($("turn-number").value);
  if (!Number.isInteger(number) || number < 1) return showError("edit", { message: "The turn is a whole number, 1 or more." });
  if (player !== p.turn.player) { p.turn.placed = null; p.turn.arrived = []; p.turn.grants = []; }
  if (player !== p.turn.player || step !== p.turn.step) p.turn.taken = 0;
  Object.assign(p.turn, { player, step, number });
  await submit(p);
}

async function applyZones() {
  const p = draft();
  for (const area of $("zones-fields").querySelectorAll("textarea")) {
    let value;
    try { value = JSON.parse(area.value); } catch (e) {
      return showError("edit", { message: `${area.parentElement.firstChild.textContent}: this is not JSON (${e.message}).` });
    }
    const [kind, key] = area.dataset.zone.split(/:(.*)/);
    if (kind === "zone") p.zones[key] = value; else p.players[Number(key)].hidden = value;
  }
  await submit(p);
}
