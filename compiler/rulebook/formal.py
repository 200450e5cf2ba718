"""The second reading of a rule: its declarations, as the engine reads them.

Under a rule's prose the rulebook shows each declaration of that rule in
English (conditions, choices, effects), its formulas as MathML, and the
source lines themselves. All of it is produced from the IR node the engine
runs, so it cannot drift from what the engine does.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.ir.english import English, Vocabulary, article, the
from compiler.library import LIBRARY
from compiler.load import REPO_ROOT
from compiler.rulebook.links import Index


# How a formula rendered from the rules begins: a block of its own (`box` shows them above
# the engine's box, where a reader looks for how a rule scores).
FORMULA = '<div class="formula">'


class Formal:
    def __init__(self, ruleset: m.Ruleset, index: Index) -> None:
        from compiler.rulebook.mathml import MathML
        self.rs = ruleset
        self.ix = index
        self.vocab = Vocabulary.of(ruleset)
        self.en = English(self.vocab)
        self.math = MathML(self.vocab)
        self.tilesets = {t.id: t for t in ruleset.tilesets}
        self.steps = [d for d in ruleset.all_decls() if isinstance(d, m.StepDecl)]

    # ------------------------------------------------------------------ box

    def box(self, rule: m.Rule) -> list[str]:
        """A rule's formulas, shown where a reader looks for them, then the collapsible "as
        the engine reads it" box with the rest of its declarations; or nothing."""
        decls = [d for d in rule.decls if not isinstance(d, (m.Look, m.CardLook))]
        if not decls:
            return []
        body: list[str] = []
        for d in decls:
            body += self.decl(d, rule)
            body.append("")
        formulas = [line for line in body if line.startswith(FORMULA)]
        body = [line for line in body if not line.startswith(FORMULA)]
        source = self.source(decls)
        if source:
            body += ["```rules", *source, "```", ""]
        out = [line for f in formulas for line in (f, "")]
        out += ['??? abstract "As the engine reads it"', ""]
        out += ["    " + line if line else "" for line in body]
        return out

    def decl(self, d: Any, rule: m.Rule) -> list[str]:
        handler = getattr(self, f"d_{d.decl}", None)
        return blocks_apart(handler(d, rule)) if handler else []

    def source(self, decls: list[Any]) -> list[str]:
        lines: list[str] = []
        for d in decls:
            loc = d.loc
            if loc is None:
                continue
            path = Path(loc.file)
            if not path.is_file():
                path = REPO_ROOT / loc.file
            if not path.is_file():
                continue
            text = path.read_text(encoding="utf-8").splitlines()
            chunk = text[loc.line - 1:loc.end_line]
            if chunk:
                chunk[0] = " " * (loc.column - 1) + chunk[0][loc.column - 1:]
            lines += textwrap.dedent("\n".join(chunk)).splitlines()
        return lines

    def cite(self, rule_id: str | None, here: m.Rule) -> str:
        if not rule_id or rule_id == here.id or rule_id not in self.ix.rules:
            return ""
        return f" ({self.ix.rule_link(rule_id)})"

    def formula_lines(self, html: str) -> list[str]:
        return ["", f'{FORMULA}{html}</div>', ""]

    # ----------------------------------------------------------- the board

    def d_lattice(self, d: m.LatticeDecl, rule: m.Rule) -> list[str]:
        from compiler.kernel.lattice import LATTICES
        lat = LATTICES[d.name]
        return [f"The board is a **{d.name}** grid: each tile has {lat.sides} edges and fits a "
                f"position in {lat.rotations} ways."]

    def d_edge(self, d: m.EdgeLabel, rule: m.Rule) -> list[str]:
        return [f"Edge label **{d.id}**: {d.title}."]

    def d_match(self, d: m.MatchDecl, rule: m.Rule) -> list[str]:
        if d.same:
            text = "Touching edges must carry the same label."
            if d.pairs:
                text += " Also allowed: " + ", ".join(f"{a} with {b}" for a, b in d.pairs) + "."
            return [text]
        return ["Touching edges must be one of these pairs: " +
                ", ".join(f"{a} with {b}" for a, b in d.pairs) + "."]

    def d_feature(self, d: m.FeatureKind, rule: m.Rule) -> list[str]:
        return [f"Feature **{d.id}**: {d.title}."]

    def d_area(self, d: m.AreaKind, rule: m.Rule) -> list[str]:
        parts = [f"Area kind **{d.id}** ({d.title}): runs across "
                 + " and ".join(f"*{e}*" for e in d.crosses) + " edges; closed when none of its "
                 "edges faces an empty position."]
        if d.holds:
            parts.append("It can hold " + ", ".join(self.vocab.many(r) for r in d.holds) + ".")
        for a in d.attributes:
            what = a.phrase.replace("{value}", "…") if a.phrase else a.name
            reset = ", cleared at the end of every turn" if a.reset_each_turn else ""
            given = f"; a position set up on the table takes it from the board: " \
                    f"{self.en(a.given)}" if a.given is not None else ""
            parts.append(f"It records *{a.name}* ({a.type}: “{what}”){reset}{given}.")
        return [" ".join(parts)]

    def d_piece(self, d: m.PieceKind, rule: m.Rule) -> list[str]:
        on = f"; it is put on top of {article(self.vocab.one(d.on))}" if d.on else ""
        if d.above:
            under = " or ".join(article(self.vocab.one(k)) for k in d.above)
            on += (f"; wherever it shares a site with {under}, it stands above it, "
                   "whichever came first")
        return [f"Piece kind **{d.id}** ({d.title}){on}."]

    def d_resource(self, d: m.ResourceKind, rule: m.Rule) -> list[str]:
        amount = f"there are {d.limit} in the game" if d.limit is not None else "unlimited"
        return [f"Resource **{d.id}** ({self.vocab.many(d.id)}): {amount}."]

    def d_score(self, d: m.ScoreDecl, rule: m.Rule) -> list[str]:
        return [f"The score is counted in {self.vocab.many(d.resource)}."]

    # ---------------------------------------------------------------- setup

    def d_supply(self, d: m.SupplyTable, rule: m.Rule) -> list[str]:
        kinds: list[str] = []
        for row in d.rows.values():
            for k in row:
                if k not in kinds:
                    kinds.append(k)
        head = "| Players | " + " | ".join(capital(self.vocab.many(k)) for k in kinds) + " |"
        sep = "|---|" + "---|" * len(kinds)
        rows = [f"| {count} | " + " | ".join(str(row.get(k, 0)) for k in kinds) + " |"
                for count, row in sorted(d.rows.items())]
        return ["Each player's supply:", "", head, sep, *rows]

    def d_zone(self, d: m.ZoneDecl, rule: m.Rule) -> list[str]:
        if d.legacy:
            return self._stacks(d)
        return [zone_sentence(d)]

    def d_cards_start(self, d: m.CardsStart, rule: m.Rule) -> list[str]:
        title = next((z.title for z in self.rs.all_decls()
                      if isinstance(z, m.ZoneDecl) and z.id == d.zone), d.zone)
        return [f"When the game is set up, every card is in {the(title)}."]

    def _stacks(self, d: m.ZoneDecl) -> list[str]:
        """The legacy zone, in the sentence the `stacks` declaration has always had."""
        hide = ""
        if d.hiding:
            hide = " No tile shows a face with " + " or ".join(
                article(self.vocab.one(f)) for f in d.hiding) + " on top."
        out = [f"The tiles are shuffled into {d.piles} stacks.{hide}"]
        if d.dealt:
            out.append("")
        for players, count in sorted(d.dealt.items()):
            sets = [self.tilesets[t].title if t in self.tilesets else t
                    for t in d.dealt_from.get(players, [])]
            whence = f" from {' and '.join(sets)}" if sets else ""
            out.append(f"- with {players} players, {count} tiles are dealt{whence}; "
                       f"the rest stay in the box")
        return out

    def d_teams(self, d: m.TeamsDecl, rule: m.Rule) -> list[str]:
        names = {s.id: s.name for s in self.rs.seats}
        out = ["The teams, which take turns (the first player of each team, then the second "
               "of each, and so on):", ""]
        for count, teams in sorted(d.rows.items()):
            sides = [" and ".join(names.get(s, s) for s in team) for team in teams]
            out.append(f"- with {count} players: {' against '.join(sides)}")
        return out

    def d_first_tile(self, d: m.FirstTileDecl, rule: m.Rule) -> list[str]:
        return [f"The first tile is laid at position {d.cell[0]},{d.cell[1]}."]

    def d_board(self, d: m.BoardDecl, rule: m.Rule) -> list[str]:
        return [f"Every player builds a {d.title} of their own, starting from its first tile; "
                f"tiles touch only tiles of the same {d.title}, and each {d.title}'s positions "
                f"are counted from its own first tile."]

    def d_use_tiles(self, d: m.UseTiles, rule: m.Rule) -> list[str]:
        sets = [self.tilesets[t] for t in d.tilesets if t in self.tilesets]
        return ["The game uses " + "; ".join(f"{s.title} ({len(s.tiles)} tiles)" for s in sets)
                + f": see the [tile catalogue]({self.ix.prefix}catalogue.md)."]

    # ---------------------------------------------------------------- turns

    def d_step(self, d: m.StepDecl, rule: m.Rule) -> list[str]:
        number = self.steps.index(d) + 1 if d in self.steps else "?"
        return [f"**Step {number}, {d.title}:** {self.step_words(d)}."]

    def step_words(self, d: m.StepDecl) -> str:
        """What a step lets its player do: "you must take one of: draw a tile, …"."""
        acts = [self.vocab.actions.get(a, a) for a in d.actions]
        what = {
            "must_one": "you must take one of: ",
            "may_one": "you may take one of: ",
            "may_any": "you may take any number of: ",
            "automatic": "no choice of action; triggered rules are settled here",
        }[d.mode]
        if d.at_once:
            what = "every player at once — nobody sees another’s choice until all have " \
                   "chosen: " + what
        elif d.who == "each":
            what = self._each(d) + what
        text = what + (", ".join(acts) if acts else "")
        if d.also:
            text += "; and, as often as needed: " + ", ".join(
                self.vocab.actions.get(a, a) for a in d.also)
        return text

    def _each(self, d: m.StepDecl) -> str:
        """"each player in turn, in the order of play (…): " before what the step allows."""
        order = next((o for o in self.rs.all_decls()
                      if isinstance(o, m.OrderDecl) and o.id == d.order), None)
        if order is None:
            return "each player in turn, in seat order from the active player: "
        return f"each player in turn, in {the(order.title)} ({self._order_words(order)}): "

    def _order_words(self, d: m.OrderDecl) -> str:
        """"most points, then most coins, then seat order from you"."""
        parts = [f"{t.direction} {self._measure(t.expr)}" for t in d.order]
        start = self.en(d.start) if d.start is not None else "the active player"
        parts.append(f"seat order from {start}")
        return ", then ".join(parts)

    def d_order(self, d: m.OrderDecl, rule: m.Rule) -> list[str]:
        return [f"**The {d.title}:** the players by {self._order_words(d)}."]

    def d_round(self, d: m.RoundDecl, rule: m.Rule) -> list[str]:
        turns = str(d.turns.value) if isinstance(d.turns, n.Number) else self.en(d.turns)
        many = d.title + ("s" if d.count != 1 else "")
        return [f"**Rounds:** the game lasts {d.count} {many} of {turns} turns each, "
                f"and ends after the last turn of the last {d.title}."]

    def d_game_attribute(self, d: m.GameAttribute, rule: m.Rule) -> list[str]:
        a = d.attribute
        kind = {"bool": "yes or no", "int": "a number", "player": "a player"}[a.type]
        said = f" (“the game {a.phrase}”)" if a.phrase else ""
        reset = "; it is reset at the end of every turn" if a.reset_each_turn else ""
        return [f"**The game's *{a.name.replace('_', ' ')}*:** {kind}{said}{reset}."]

    def d_player_attribute(self, d: m.PlayerAttribute, rule: m.Rule) -> list[str]:
        """Only a `secret` attribute reads here (the others show in what sets them)."""
        a = d.attribute
        if not a.secret:
            return []
        kind = {"bool": "yes or no", "int": "a number", "player": "a player"}[a.type]
        said = f" (“{a.phrase}”)" if a.phrase else ""
        return [f"**Each player's *{a.name.replace('_', ' ')}*, in secret:** {kind}{said}; "
                f"set while everyone chooses at once, it stays hidden from the others until "
                f"all have chosen."]

    def d_next_turn(self, d: m.NextTurnDecl, rule: m.Rule) -> list[str]:
        return [f"**The next turn** is played by {self.en(d.expr)}."]

    def d_action(self, d: m.Action, rule: m.Rule) -> list[str]:
        written = d.notation or d.id
        for p in d.params:
            written = written.replace("{" + p.name + "}", p.name.upper())
        out = [f"**Action: {d.title}**, written `{written}`."]
        if d.alongside:
            where = {a.id: a.rule for a in self.ix.ruleset.all_decls() if isinstance(a, m.Action)}
            joined = " or ".join(f"*{self.vocab.actions.get(a, a)}*{self.cite(where.get(a), rule)}"
                                 for a in d.alongside)
            out[0] += f" Offered wherever {joined} is, as one more way to answer that choice."
        for p in d.params:
            some = "one or more of" if p.subset else "one of"
            out.append(f"- Choose *{p.name}*: {some} {self.en.collection(p.domain)}"
                       f"{self.cite(p.rule, rule)}.")
        for r in d.requires:
            out.append(f"- Only if {self.en(r.cond)}{self.cite(r.rule, rule)}.")
        out += self.effects(d.effects, rule, "- Then ")
        return out

    def d_forbid(self, d: m.Forbid, rule: m.Rule) -> list[str]:
        by = (" by " + " or ".join(f"*{self.vocab.actions.get(a, a)}*" for a in d.actions)) \
            if d.actions else " by any action"
        kind = "a piece" if d.kind == "piece" else article(self.vocab.one(d.kind))
        return [f"**Forbidden**{by}: {kind} may not enter a site *{d.site_var}* when "
                f"{self.en(d.cond)}."]

    def d_trigger(self, d: m.Trigger, rule: m.Rule) -> list[str]:
        ev = d.event
        if ev.type == "closes":
            what = "an area" if ev.kind == "area" else article(self.vocab.one(ev.kind or ""))
            head = f"When {what} *{ev.var}* closes"
        elif ev.type == "laid":
            head = f"When a tile *{ev.var}* is laid"
        elif ev.type in ("enters", "leaves"):
            what = "a piece" if ev.kind == "piece" else article(self.vocab.one(ev.kind or ""))
            head = f"When {what} *{ev.var}* {ev.type} a site *{ev.site_var}*"
        elif ev.type == "returns":
            what = "a piece" if ev.kind == "piece" else article(self.vocab.one(ev.kind or ""))
            head = f"When {what} *{ev.var}* goes back to its owner's supply"
        else:
            target = {"game": "the game", "turn": "a turn"}.get(ev.target or "", "")
            if ev.target == "round":
                target = f"each {self.vocab.rounds.get(ev.round or '', ev.round)}"
            if ev.target == "step":
                step = next((s for s in self.steps if s.id == ev.step), None)
                target = f"step “{step.title if step else ev.step}”"
            head = f"At the {ev.moment} of {target}"
        if d.defer_to:
            step = next((s for s in self.steps if s.id == d.defer_to), None)
            head += f", settled in step “{step.title if step else d.defer_to}”"
        if d.where is not None:
            head += f", if {self.en(d.where)}"
        if d.after is not None and d.after in self.ix.rules:
            head += f", once the triggers of {self.ix.rule_link(d.after)} on it have run"
        return [f"**{head}:**"] + self.effects(d.body, rule, "- ")

    def effects(self, body: list[Any], rule: m.Rule, bullet: str) -> list[str]:
        out: list[str] = []
        lets: dict[str, Any] = {}
        for s in body:
            out.append(f"{bullet}{self.en.stmt(s)}.")
            out += self._formulas(s, lets)
            if isinstance(s, n.Let):
                lets[s.name] = s.value
        return out

    def _formulas(self, s: Any, lets: dict[str, Any]) -> list[str]:
        """A formula block for every `give` of a computed amount inside `s`."""
        return [line for _, html in self._gives(s, lets) for line in self.formula_lines(html)]

    def _gives(self, s: Any, lets: dict[str, Any]) -> list[tuple[n.Give, str]]:
        """Every `give` of a computed amount inside `s`, with its formula.

        `let` values seen so far are substituted, so a formula reads in full.
        """
        if isinstance(s, n.Give) and not isinstance(s.amount, n.Number):
            return [(s, self.math.give(s, lets=lets) or "")]
        found: list[tuple[n.Give, str]] = []
        inner = dict(lets)
        for attr in ("body", "then", "otherwise"):
            for x in getattr(s, attr, []) or []:
                found += self._gives(x, inner)
                if isinstance(x, n.Let):
                    inner[x.name] = x.value
        return found

    def computed_gives(self, rule: m.Rule) -> list[tuple[n.Give, str]]:
        """Each amount the rule gives by a formula (points, coins…), with the formula: what
        the quick reference lists."""
        found: list[tuple[n.Give, str]] = []
        for d in rule.decls:
            body = getattr(d, "effects", None) if isinstance(d, m.Action) else \
                getattr(d, "body", None) if isinstance(d, (m.Trigger, m.Effect)) else None
            lets: dict[str, Any] = {}
            for x in body or []:
                found += self._gives(x, lets)
                if isinstance(x, n.Let):
                    lets[x.name] = x.value
        return found

    def d_define(self, d: m.Define, rule: m.Rule) -> list[str]:
        name = d.title.replace("{", "").replace("}", "") if d.title else d.id
        label = "Condition" if d.cited else "Definition"
        return [f"**{label}:** {name}."] + self.formula_lines(self.math.define(d))

    def d_effect(self, d: m.Effect, rule: m.Rule) -> list[str]:
        name = d.title.replace("{", "*").replace("}", "*") if d.title else d.id
        return [f"**To {name}:**"] + self.effects(d.body, rule, "- ")

    def d_card_kind(self, d: m.CardKind, rule: m.Rule) -> list[str]:
        parts = [f"Card kind **{d.id}** ({d.title})"
                 + (f", which counts as {article(self.vocab.one(d.counts_as))}"
                    if d.counts_as else "") + "."]
        if d.properties:
            parts.append("Each card shows " + ", ".join(
                f"*{p.name}* ({p.kind})" for p in d.properties)
                + "; a card that does not show one has 0, no or nothing.")
        for a in d.abilities:
            said = (a.title or a.name).replace("{", "*").replace("}", "*")
            kind = f"a value ({a.returns})" if a.returns else "something it does"
            parts.append(f"Ability *{a.name}*: {said}, {kind}; each card says its own, and a "
                         "card that says none does nothing (or gives 0, or no).")
        if d.holds:
            parts.append("It can hold " + ", ".join(self.vocab.many(r) for r in d.holds) + ".")
        for attr in d.attributes:
            what = attr.phrase.replace("{value}", "…") if attr.phrase else attr.name
            parts.append(f"It records *{attr.name}* ({attr.type}: “{what}”).")
        return [" ".join(parts)]

    def ability_lines(self, card: m.CardDef) -> list[str]:
        """A card's abilities as the engine reads them, for its entry in the catalogue."""
        out: list[str] = []
        for body in card.abilities:
            decl = self.vocab.abilities.get(body.name)
            title = (decl.title or body.name) if decl is not None else body.name
            for i, ((p, _), mine) in enumerate(zip(decl.params if decl else [], body.params)):
                # The first parameter is the card itself, whatever the card calls it.
                title = title.replace("{" + p + "}", "this card" if i == 0 else mine)
            if body.expr is not None:
                out.append(f"**{capital(title)}:** {self.en(body.expr)}.")
            else:
                out.append(f"**{capital(title)}:**")
                out += [f"- {self.en.stmt(s)}." for s in body.body or ()]
        return blocks_apart(out)

    def d_audit(self, d: m.AuditDecl, rule: m.Rule) -> list[str]:
        """"**Title.** A breach of 7.3: its words — every … for which …", one line a breach."""
        out = [f"**{d.title}.** A check of the whole table (`rulebook audit`); it finds:"]
        for b in d.breaches:
            cited = self.ix.rule_link(b.rule) if b.rule and b.rule in self.ix.rules else "this rule"
            every = re.sub(r"^the ", "every one of the ", self.en.collection(b.collection))
            out.append(f"- a breach of {cited}: {b.message} — {every}.")
        return out

    def d_end(self, d: m.EndDecl, rule: m.Rule) -> list[str]:
        return [f"**The game ends** at the end of a turn after which {self.en(d.cond)}."]

    def d_winner(self, d: m.WinnerDecl, rule: m.Rule) -> list[str]:
        out = ["**The winner** is found by these measures, in order (a tie goes to the next):"]
        for i, t in enumerate(d.order, 1):
            out.append(f"{i}. the {t.direction} {self._measure(t.expr)}")
        return out

    def _measure(self, e: Any) -> str:
        """A per-player measure, where `it` is each player in turn."""
        if isinstance(e, n.Attr) and isinstance(e.obj, n.Name) and e.obj.id == "it":
            return self.vocab.many(e.name)
        if isinstance(e, n.Call) and e.func in LIBRARY:
            said = LIBRARY[e.func].measure_words(self, e)
            if said is not None:
                return said
        return self.en(e)


def blocks_apart(lines: list[str]) -> list[str]:
    """The lines with a blank line wherever a list meets a paragraph, either way round.

    Markdown runs a list on into the paragraph above it ("**When a tile is laid:**" then
    "- …" reads as one paragraph) and a paragraph into the list item above it, so a
    declaration's English is written as lines and spaced here, in one place."""
    out: list[str] = []
    for line in lines:
        if out and out[-1].strip() and line.strip() and not line.startswith(" ") \
                and not out[-1].startswith(" ") and _item(line) != _item(out[-1]):
            out.append("")
        out.append(line)
    return out


def _item(line: str) -> bool:
    return line.startswith(("- ", "* ")) or re.match(r"\d+\. ", line) is not None


def capital(text: str) -> str:
    """The first letter in capitals, the rest as written (names keep theirs)."""
    return text[:1].upper() + text[1:]


def zone_sentence(d: m.ZoneDecl) -> str:
    """A declared zone in one sentence: whose it is, how it is kept, who sees it."""
    title = d.title.removeprefix("the ")
    whose = f"Each player has {article(title)}" if d.per_player else f"There is one {title}"
    piles = f" of {d.piles} piles" if d.piles > 1 else ""
    kept = " whose cards keep their order (the top card first)" if d.ordered else \
        ", a set of cards in no order"
    seen = {"everyone": "everyone may look at its cards",
            "owner": "only its owner may look at its cards",
            "nobody": "nobody may look at its cards",
            "top": "the top card of each pile is face up"}[d.visible]
    play = "; the cards in it are in play" if d.in_play else ""
    return f"{whose}{piles}{kept}; {seen}{play}."
