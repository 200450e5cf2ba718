// Hands, zones and piles of a card game, edited by picking cards: search the ruleset's cards
// by name, put one into a pile, take one out, move one to another pile. The zones and cards
// are the ruleset's own declarations (GET /api/rulesets/{id}: zones, cards); the position's
// shape is the position file's (a shared zone a list of piles, a player's zone by seat,
// every pile top first). The raw JSON stays as the advanced way in (edit.js).

import { api, showError } from "./api.js";
import { table, position, draft, show } from "./table.js";

const $ = (id) => document.getElementById(id);
let chosen = null;          // {pile: key, index} of the card picked to move or remove
const RESULTS = 30;         // search hits shown at once

function el(tag, props = {}, ...children) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

function cardName(id) {
  if (id === null) return "an unknown card";
  const card = table.info.cards.find((c) => c.id === id);
  if (!card) return id;
  const twin = table.info.cards.some((c) => c.name === card.name && c.id !== id);
  return twin ? `${card.name} (${id})` : card.name;  // two printings of one name told apart
}

/** Every pile of the position: {key, title, cards (the array inside `pos`)}. */
export function pilesOf(pos) {
  const info = table.info;
  const seats = Object.fromEntries(info.seats.map((s) => [s.id, s.name || s.id]));
  const out = [];
  const add = (key, title, cards) => out.push({ key, title, cards });
  for (const zone of info.zones) {
    const value = (pos.zones || {})[zone.id];
    if (value === undefined) continue;
    const many = (piles) => piles.length > 1;
    if (Array.isArray(value)) {
      value.forEach((pile, i) => add(`${zone.id}|${i}`, many(value) ? `${zone.title}, pile ${i + 1}` : zone.title, pile));
    } else {
      for (const [seat, cards] of Object.entries(value)) {
        const who = seats[seat] || seat;
        if (cards.length && Array.isArray(cards[0])) {
          cards.forEach((pile, i) => add(`${zone.id}|${seat}|${i}`, `${zone.title} of ${who}, pile ${i + 1}`, pile));
        } else {
          add(`${zone.id}|${seat}`, `${zone.title} of ${who}`, cards);
        }
      }
    }
  }
  return out;
}

function pileIn(pos, key) { return pilesOf(pos).find((p) => p.key === key); }

/** Show the piles and the search's choices for the position shown. */
export function renderCards(pos) {
  const piles = pilesOf(pos);
  $("card-picker").hidden = piles.length === 0 || !table.info.cards.length;
  if ($("card-picker").hidden) return;
  const keep = $("card-target").value;
  $("card-target").replaceChildren(...piles.map((p) => el("option", { value: p.key, textContent: p.title })));
  $("card-move-to").replaceChildren(...piles.map((p) => el("option", { value: p.key, textContent: p.title })));
  if (piles.some((p) => p.key === keep)) $("card-target").value = keep;
  else {  // a player's pile (a hand) first: that is what a judge most often sets
    const players = new Set(table.info.zones.filter((z) => z.whose === "player").map((z) => z.id));
    const hand = piles.find((p) => players.has(p.key.split("|")[0]));
    if (hand) $("card-target").value = hand.key;
  }
  if (chosen && !(pileIn(pos, chosen.pile) && chosen.index < pileIn(pos, chosen.pile).cards.length)) chosen = null;
  $("card-piles").replaceChildren(...piles.map((p) => {
    const chips = p.cards.map((id, index) => {
      const picked = chosen && chosen.pile === p.key && chosen.index === index;
      const b = el("button", { type: "button", className: "chip", textContent: cardName(id) });
      b.setAttribute("aria-pressed", String(Boolean(picked)));
      b.setAttribute("aria-label", `${cardName(id)}, card ${index + 1} of ${p.title}${index === 0 ? " (top)" : ""}`);
      b.addEventListener("click", () => { chosen = picked ? null : { pile: p.key, index }; renderCards(position()); });
      return b;
    });
    const body = chips.length ? chips : [el("span", { className: "note", textContent: "empty" })];
    const box = el("details", { className: "pile" }, el("summary", { textContent: `${p.title} (${p.cards.length})` }),
      el("div", { className: "chips" }, ...body));
    box.open = p.cards.length <= 12 || (chosen && chosen.pile === p.key);
    return box;
  }));
  $("card-chosen-actions").hidden = !chosen;
  if (chosen) {
    const pile = pileIn(pos, chosen.pile);
    $("card-chosen").textContent = `${cardName(pile.cards[chosen.index])} in ${pile.title}:`;
  }
  renderResults();
}

function renderResults() {
  const query = $("card-search").value.trim().toLowerCase();
  if (!query) { $("card-results").replaceChildren(); return; }
  const words = query.split(/\s+/);
  const hits = table.info.cards.filter((c) => words.every((w) => `${c.name} ${c.id}`.toLowerCase().includes(w)));
  const buttons = hits.slice(0, RESULTS).map((c) => {
    const b = el("button", { type: "button", className: "card-hit", title: `Put ${c.name} into the chosen pile` });
    b.innerHTML = c.svg;
    b.append(el("span", { textContent: cardName(c.id) }));
    b.setAttribute("aria-label", `Put ${cardName(c.id)} into ${$("card-target").selectedOptions[0]?.textContent || "the pile"}`);
    b.addEventListener("click", () => put(c.id));
    return b;
  });
  if (hits.length > RESULTS) buttons.push(el("p", { className: "note", textContent: `…and ${hits.length - RESULTS} more: type more of the name.` }));
  $("card-results").replaceChildren(...(buttons.length ? buttons : [el("p", { className: "note", textContent: "No card matches." })]));
}

/** The piles a copy of `id` could come from, the likeliest first: one nobody sees (the
 *  deck, the box), then the others; last, from nowhere (a position that shows only part of
 *  the table). A table has only so many copies of a card. */
function sources(pos, id, except) {
  const hidden = new Set(table.info.zones.filter((z) => z.visible === "nobody").map((z) => z.id));
  const piles = pilesOf(pos).filter((p) => p.key !== except && p.cards.includes(id));
  piles.sort((a, b) => Number(!hidden.has(a.key.split("|")[0])) - Number(!hidden.has(b.key.split("|")[0])));
  return [...piles.map((p) => p.key), null];
}

/** Put `id` on top of the chosen pile, taking it from the first pile the server's check
 *  accepts it from (the rules know which cards a set-up leaves out of play); when none is
 *  accepted, the first refusal is what the judge reads. */
async function put(id) {
  const key = $("card-target").value;
  const target = pileIn(position(), key);
  if (!target) return showError("edit", { message: "Choose the pile to put the card into." });
  const froms = sources(position(), id, key);
  const drafts = froms.map((from) => {
    const p = draft();
    if (from) { const pile = pileIn(p, from); pile.cards.splice(pile.cards.indexOf(id), 1); }
    pileIn(p, key).cards.unshift(id);
    return p;
  });
  await firstAccepted(drafts, (i) => `${cardName(id)} put on top of ${target.title}`
    + (froms[i] ? `, taken from ${pileIn(position(), froms[i]).title}.` : "."));
}

/** Try the edited positions in turn; show the first the server's check accepts and say
 *  `note(i)` of it, else show the first refusal. */
async function firstAccepted(drafts, note) {
  let refusal = null;
  for (const [i, p] of drafts.entries()) {
    try {
      const reply = await api("positions/check", { ruleset: table.ruleset, position: p });
      showError("edit", null);
      chosen = null;
      $("card-note").textContent = note(i);
      show(reply, { push: true });
      return;
    } catch (e) { refusal = refusal || e; }
  }
  showError("edit", refusal);
}

/** Take the chosen card out: off the table where the position shows only part of it, else
 *  back into a pile nobody sees (the box, the deck), the first the rules accept. */
async function removeChosen() {
  const hidden = pilesOf(position()).filter((p) => p.key !== chosen.pile
    && table.info.zones.some((z) => z.id === p.key.split("|")[0] && z.visible === "nobody" && z.whose === "shared"));
  const targets = [null, ...hidden.map((p) => p.key)];
  const { pile: key, index } = chosen;
  const id = pileIn(position(), key).cards[index];
  const drafts = targets.map((to) => {
    const p = draft();
    pileIn(p, key).cards.splice(index, 1);
    if (to) pileIn(p, to).cards.unshift(id);
    return p;
  });
  const from = pileIn(position(), key).title;
  await firstAccepted(drafts, (i) => `${cardName(id)} taken out of ${from}`
    + (targets[i] ? `, back into ${pileIn(position(), targets[i]).title}.` : "."));
}

async function moveChosen() {
  const { pile: key, index } = chosen;
  const from = pileIn(position(), key), to = pileIn(position(), $("card-move-to").value);
  if (to.key === key) return showError("edit", { message: "That card is in that pile already: choose another." });
  const id = from.cards[index];
  const p = draft();
  pileIn(p, key).cards.splice(index, 1);
  pileIn(p, to.key).cards.unshift(id);
  await firstAccepted([p], () => `${cardName(id)} moved from ${from.title} to the top of ${to.title}.`);
}

export function wireCards() {
  $("card-search").addEventListener("input", renderResults);
  $("card-target").addEventListener("change", renderResults);
  $("card-remove").addEventListener("click", () => chosen && removeChosen());
  $("card-move").addEventListener("click", () => chosen && moveChosen());
  $("card-unchoose").addEventListener("click", () => { chosen = null; renderCards(position()); });
}
