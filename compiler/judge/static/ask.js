// Asking the judge: the legal moves at a tapped place, a move typed with completion, the
// ruling (verdict, deciding rules as links, reasons, what follows, the text read aloud), a
// chance outcome when the rules need one, and Apply / Undo of the position after it.

import { api, showError } from "./api.js";
import { table, position, show } from "./table.js";
import { el } from "./edit.js";

const $ = (id) => document.getElementById(id);
let pending = null;   // {move, after} of the last ruling
let listed = 0;
/** The seat whose view judges (hidden cards stay hidden), or null for the whole table. */
function asSeat() { return $("as-seat").value || null; }       // a counter, so a slow answer for an old position is dropped

/** Fill the move box's completion with every legal move of the position shown. */
export async function refreshMoves() {
  const mine = ++listed;
  try {
    const reply = await api("moves", { ruleset: table.ruleset, position: position(), at: null, as: asSeat() });
    if (mine !== listed) return;
    $("move-options").replaceChildren(...reply.moves.slice(0, 1000).map((m) => el("option", { value: m.notation })));
  } catch (e) {
    if (mine === listed) $("move-options").replaceChildren();
  }
}

/** A tap on the board outside edit mode: the legal moves touching that place. */
export async function movesAt(tap, board) {
  // a piece stands on a site: the moves there are the ones that touch it
  const piece = tap.piece !== null ? position().pieces[tap.piece] : null;
  const at = (piece && piece.at) || tap.site || tap.cell;
  if (!at) return;
  board.mark("chosen", [piece ? `[data-piece="${tap.piece}"]` : tap.site ? `[data-site="${tap.site}"]` : `[data-cell="${tap.cell}"]`]);
  $("at-moves").hidden = false;
  $("at-title").textContent = `Moves at ${at}`;
  try {
    const reply = await api("moves", { ruleset: table.ruleset, position: position(), at, as: asSeat() });
    showError("board", null);
    const buttons = reply.moves.map((m) => {
      const b = el("button", { type: "button", textContent: m.notation });
      b.addEventListener("click", () => { $("move").value = m.notation; judge(m.notation); });
      return b;
    });
    $("at-title").textContent = `${reply.count} legal move${reply.count === 1 ? "" : "s"} at ${at}`;
    $("at-list").replaceChildren(...(buttons.length ? buttons
      : [el("p", { className: "note", textContent: "No legal move touches this place now." })]));
  } catch (e) {
    $("at-list").replaceChildren();
    showError("board", e);
  }
}

/** Ask for the ruling on `move` and show it. */
export async function judge(move) {
  move = move.trim();
  if (!move) return showError("ask", { message: "Type a move, or tap a site on the board to see the moves there." });
  try {
    const reply = await api("adjudicate", { ruleset: table.ruleset, position: position(), move, as: asSeat() });
    showError("ask", null);
    render(move, reply);
  } catch (e) {
    $("ruling").hidden = true;
    showError("ask", e);
  }
}

function render(move, reply) {
  $("chance-form").hidden = !reply.chance;
  if (reply.chance) {
    $("chance-message").textContent = reply.chance.message;
    $("chance-form").dataset.move = move;
    $("chance-outcome").value = "";
    $("chance-outcome").focus();
  }
  $("ruling").hidden = false;
  const verdict = $("verdict");
  // a move chance must finish is not yet judged: the outcome is asked for, not a verdict shown
  verdict.textContent = reply.chance ? "Chance decides: give the outcome" : reply.verdict;
  verdict.className = `verdict ${reply.chance ? "chance" : reply.verdict.toLowerCase()}`;
  const ruling = reply.ruling || { moves: [] };
  const cited = new Map();
  for (const m of ruling.moves || []) {
    for (const r of [m.action_rule, ...(m.decided_by || []), ...(m.breaches || []).map((b) => b.rule)]) {
      if (r && r.url && !cited.has(r.id)) cited.set(r.id, r);
    }
  }
  $("ruling-rules").replaceChildren(...[...cited.values()].map((r) =>
    el("li", {}, el("a", { href: r.url, target: "_blank", rel: "noopener", textContent: `${r.number} ${r.title}` }))));
  const body = [];
  for (const m of ruling.moves || []) {
    for (const b of m.breaches || []) body.push(el("p", { className: "reason" }, `✗ ${b.message}`, b.detail ? ` (${b.detail})` : ""));
    if ((m.consequences || []).length) {
      body.push(el("h3", { textContent: "What follows" }));
      body.push(el("ul", {}, ...m.consequences.map((c) => el("li", { textContent: c.text }))));
    }
  }
  $("ruling-body").replaceChildren(...body);
  $("ruling-text").textContent = reply.text;
  // announced to a screen reader: the verdict and the first line of the ruling read aloud
  $("ruling-said").textContent = `${verdict.textContent}: ${move}. ${reply.chance ? reply.chance.message : (reply.text || "").split("\n").slice(0, 2).join(" ")}`;
  pending = reply.after ? { move, after: reply.after } : null;
  $("apply-move").hidden = !pending;
  $("ruling").scrollIntoView({ block: "nearest", behavior: "smooth" });
}

export function wireAsk() {
  $("as-seat").addEventListener("change", () => { resetAsk(); refreshMoves(); });
  $("ask-form").addEventListener("submit", (e) => { e.preventDefault(); judge($("move").value); });
  $("chance-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const outcome = $("chance-outcome").value.trim();
    if (!outcome) return showError("ask", { message: "Say the outcome first (for example what the dice show)." });
    const move = `${$("chance-form").dataset.move.replace(/\s*!.*$/, "")} ! ${outcome}`;
    $("move").value = move;
    judge(move);
  });
  $("apply-move").addEventListener("click", () => {
    if (!pending) return;
    show(pending.after, { push: true, move: pending.move });
    pending = null;
    $("apply-move").hidden = true;
  });
  $("copy-text").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("ruling-text").textContent);
      $("copy-text").textContent = "Copied";
    } catch {
      const range = document.createRange();
      range.selectNodeContents($("ruling-text"));
      getSelection().removeAllRanges(); getSelection().addRange(range);
      $("copy-text").textContent = "Selected: copy it";
    }
    setTimeout(() => { $("copy-text").textContent = "Copy"; }, 2000);
  });
}

/** A new position: the last ruling and the moves listed belong to the old one. */
export function resetAsk() {
  pending = null;
  $("ruling").hidden = true;
  $("ruling-said").textContent = "";
  $("chance-form").hidden = true;
  $("at-moves").hidden = true;
  showError("ask", null);
}
