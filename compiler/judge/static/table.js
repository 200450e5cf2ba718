// The table's state: the ruleset, the position shown, its undo stack and the moves applied.
// Every change of position goes through the server's check, so a refused edit changes nothing.

import { api, showError } from "./api.js";

export const table = {
  ruleset: null,      // id
  info: null,         // GET /api/rulesets/{id}
  reply: null,        // the PositionReply shown
  undo: [],           // [{reply, record}] to go back to
  record: [],         // notations of the moves applied in the page
  listeners: [],
};

export function position() { return table.reply && table.reply.position; }

/** A deep copy of the position, to edit. */
export function draft() { return structuredClone(position()); }

/** Call `fn(reply)` whenever the table shows a new position. */
export function onChange(fn) { table.listeners.push(fn); }

/** Show `reply`; with `push`, the position before it can be restored by Undo. */
export function show(reply, { push = false, move = null, refit = false } = {}) {
  if (push && table.reply) table.undo.push({ reply: table.reply, record: [...table.record] });
  if (!push) { /* a fresh start: nothing to undo to */ }
  if (move) table.record.push(move);
  table.reply = reply;
  for (const fn of table.listeners) fn(reply, { refit });
}

/** Start afresh from `reply` (a new set-up, an example, a record, a file, a link). */
export function start(reply) {
  table.undo = [];
  table.record = [];
  show(reply, { refit: true });
}

export function undo() {
  const last = table.undo.pop();
  if (!last) return;
  table.record = last.record;
  table.reply = last.reply;
  for (const fn of table.listeners) fn(last.reply, { refit: false });
}

/** Send an edited position to the server's check; show it if accepted, else say why in `where`.
 *  Returns true when accepted. */
export async function propose(edited, where) {
  try {
    const reply = await api("positions/check", { ruleset: table.ruleset, position: edited });
    showError(where, null);
    show(reply, { push: true });
    return true;
  } catch (e) {
    showError(where, e);
    return false;
  }
}
