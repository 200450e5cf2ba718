"""The rulebook's pages, in Markdown, for one ruleset.

A page per chapter, with every rule under a numbered, linkable heading; its
prose with links; the box showing how the engine reads it; its rulings,
examples and back-links. Then the pages every ruleset gets: rulings,
glossary, worked examples, tile catalogue, and the file formats.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compiler import links as urls
from compiler.engine import chance, zone_play
from compiler.engine.formats import from_state, position_schema
from compiler.engine.notation import PATTERNS
from compiler.engine.records import TAGS
from compiler.engine.position import Position, Rules, split_moves
from compiler.engine.scenario import ExampleResult
from compiler.ir import model as m
from compiler.ir.english import counted, negate
from compiler.ir.cards import citation_id
from compiler.ir.prose import plain
from compiler.rulebook import a_to_z, history, offline, printed, quickref
from compiler.rulebook.formal import Formal, capital
from compiler.rulebook.links import Index, example_anchor
from compiler.rulebook.svg import (board_key, board_svg, face_svg, grid_svg, key_html,
                                   rotations_svg)

NOTATION_WORDS = {
    "card": "a tile id, e.g. `t17`", "face": "a face, e.g. `a`", "cell": "a position, `x,y`",
    "tile": "a position, `x,y`", "int": "a number", "site": "a site, `x,y:name`",
    "piece": "a piece, `kind@x,y:name`", "area": "any site of the area, `x,y:name`",
    "player": "a seat id",
}


@dataclass
class Page:
    path: str      # relative to the docs folder
    title: str
    text: str


class RulesetPages:
    def __init__(self, rules: Rules, results: dict[str, ExampleResult],
                 sample_record: str | None = None) -> None:
        self.rules = rules
        self.rs = rules.ruleset
        self.game = rules.game
        self.results = results
        self.ix = Index.of(self.rs)
        self.formal = Formal(self.rs, self.ix)
        self.slug = urls.slug(self.rs.id)
        self.sample_record = sample_record
        # Set by `link_books`: the book this one extends, and the books extending it.
        self.base: RulesetPages | None = None
        self.variants: list[RulesetPages] = []
        self.base_ix: Index | None = None
        self.base_formal: Formal | None = None

    def link_books(self, books: dict[str, RulesetPages]) -> None:
        """Know the base this ruleset extends (to show it beside changed rules) and its variants."""
        base = books.get(self.rs.extends or "")
        if base is None:
            return
        self.base = base
        base.variants.append(self)
        self.base_ix = Index.of(base.rs, prefix=f"../{base.slug}/")
        self.base_formal = Formal(base.rs, self.base_ix)

    @property
    def label(self) -> str:
        return self.rs.subtitle or self.rs.title

    def change(self, kind: str, ident: str) -> m.Change | None:
        return next((c for c in self.rs.changes if c.kind == kind and c.id == ident), None)

    # ------------------------------------------------------------- all pages

    def pages(self) -> list[Page]:
        out = [self.index_page(),
               self._page(quickref.PAGE, quickref.TITLE,
                          quickref.page_lines(self.rs, self.ix, self.formal))]
        out += [page for ch in self.rs.chapters for page in self.chapter_pages(ch)]
        # A game of cards lists its card sets where a game of tiles lists its tiles.
        tiles = [self.catalogue_page()] if self.rs.tiles() or not self.rs.cardsets else []
        out += [self.rulings_page(), self.glossary_page(),
                self._page(a_to_z.PAGE, a_to_z.TITLE, a_to_z.page_lines(self.rs, self.ix)),
                self.examples_page(),
                *tiles, *[self.cards_page(cs) for cs in self.rs.cardsets],
                self.formats_page()]
        if self.base is not None:
            out.append(self.changes_page())
        out.append(self._page(printed.PAGE, f"{self.label}, on one page",
                              printed.page_lines(self.rs)))
        if self.rs.history:
            out.append(self._page(history.PAGE, history.TITLE,
                                  history.history_lines(self.rs, self.ix)))
        return out

    def nav(self) -> list[Any]:
        title = self.rs.subtitle or self.rs.id
        entries: list[Any] = [{"Overview": f"{self.slug}/index.md"},
                              {quickref.TITLE: f"{self.slug}/{quickref.PAGE}"}]
        if self.base is not None:
            entries.append({"What changes": f"{self.slug}/changes.md"})
        for ch in self.rs.chapters:
            page = f"{self.slug}/{ch.id.replace('_', '-')}.md"
            if ch.page_per_rule:  # a section: the chapter's page, then one per rule
                entries.append({f"{ch.number}. {ch.title}": [{"In this chapter": page}] + [
                    {f"{r.number} {r.title}": f"{self.slug}/{self.ix.page_of_rules[r.id]}.md"}
                    for r in ch.rules]})
            else:
                entries.append({f"{ch.number}. {ch.title}": page})
        entries += [{"Rulings": f"{self.slug}/rulings.md"},
                    {"Glossary": f"{self.slug}/glossary.md"},
                    {a_to_z.TITLE: f"{self.slug}/{a_to_z.PAGE}"},
                    {"Worked examples": f"{self.slug}/examples.md"}]
        # A game of cards lists its card sets where a game of tiles lists its tiles.
        if self.rs.tiles() or not self.rs.cardsets:
            entries.append({"Tile catalogue": f"{self.slug}/catalogue.md"})
        entries += [{cs.title: f"{self.slug}/{urls.cardset_page(cs.id)}.md"}
                    for cs in self.rs.cardsets]
        entries.append({"Positions and records": f"{self.slug}/formats.md"})
        if self.rs.history:
            entries.append({history.TITLE: f"{self.slug}/{history.PAGE}"})
        entries.append({"On one page, to print": f"{self.slug}/{printed.PAGE}"})
        return [{title: entries}]

    def search_entries(self) -> list[dict[str, str]]:
        """What this book's search finds besides its headings (search.py): each worked example,
        by its id and title, where it is shown."""
        out = []
        for ex in self.rs.examples:
            page, anchor = self.ix.example_target(ex.id).split("#", 1)
            where = page.removesuffix(".md").removesuffix("index")
            out.append({"location": f"{self.slug}/{where}/#{anchor}".replace("//", "/"),
                        "title": f"{ex.number} · {ex.title}", "text": plain(ex.text)})
        return out

    def extra_files(self) -> dict[str, str | bytes]:
        files: dict[str, str | bytes] = {
            f"{self.slug}/position.schema.json": json.dumps(position_schema(), indent=2),
            f"{self.slug}/{printed.pdf_name(self.rs.id)}": printed.pdf(self.rs)}
        if self.sample_record:
            files[f"{self.slug}/sample.record"] = self.sample_record
        return files

    def _page(self, name: str, title: str, lines: list[str]) -> Page:
        """A page of this book. Its title names the book as well (the browser's tab, the
        header once scrolled, search results, Next and Previous: "Glossary · Family variant"),
        and `book` and `game` let the template name them in the header and the tab."""
        named = title if self.label in title else f"{title} · {self.label}"
        head = ["---", f"title: {json.dumps(named)}", f"book: {json.dumps(self.label)}",
                f"game: {json.dumps(self.rs.title)}", "---", ""]
        return Page(f"{self.slug}/{name}", title, "\n".join(head + lines).rstrip() + "\n")

    # ------------------------------------------------------------ overview

    def index_page(self) -> Page:
        rs = self.rs
        lines = [f"# {rs.title}", "", f"*{rs.subtitle}*" if rs.subtitle else "", ""]
        version = (f"[Rules version {rs.version}]({history.PAGE})" if rs.history
                   else f"Rules version {rs.version}")
        lines += [f"For {rs.player_counts} players. {version}.", "", self.ask_the_judge(), "",
                  f"To print, or to read with no connection: [the whole book on one page]"
                  f"({printed.PAGE}), or [as a PDF]({printed.pdf_name(rs.id)}).", "",
                  offline.keep_button()]
        if rs.source:
            lines += ["", f"Source: {rs.source}. The facts and numbers are the source's; every "
                          f"sentence here is written afresh."]
        if self.base is not None:
            lines += ["", f'!!! info "A variant of {self.base.rs.title}: {self.base.label}"', "",
                      f"    Played by the rules of [{self.base.label}]"
                      f"(../{self.base.slug}/index.md) except for what is listed under "
                      f"[What changes](changes.md): {len(self.rs.changes)} changes. Rules "
                      f"that differ show both readings in tabs."]
        if self.variants:
            lines += ["", "Variants of this ruleset: " + ", ".join(
                f"[{v.label}](../{v.slug}/changes.md)" for v in self.variants) + "."]
        lines += ["", "## Contents", ""]
        for ch in rs.chapters:
            # A bullet, the number in the link: Markdown would renumber an ordered list
            # (7a is no list number, and a removed chapter leaves a gap it would close).
            lines.append(f"- {self.ix.chapter_link(ch.id)}")
            for r in ch.rules:
                lines.append(f"    - {self.ix.rule_link(r.id, r.number + ' ' + r.title)}")
        lines += ["", "## Also in this rulebook", "",
                  f"- [{quickref.TITLE}]({quickref.PAGE}): the turn, every action and every "
                  f"formula, on one page to keep open at the table.",
                  f"- [Rulings](rulings.md): the {counted(len(rs.rulings), 'place')} where the "
                  f"printed rules left a question, and how we settle it.",
                  "- [Glossary](glossary.md): every term, with a short definition.",
                  f"- [{a_to_z.TITLE}]({a_to_z.PAGE}): every term, rule, card and ruling, by "
                  f"its name.",
                  f"- [Worked examples](examples.md): {counted(len(rs.examples), 'example')}, each "
                  f"one played "
                  f"against the engine when this book was built.",
                  *([f"- [Tile catalogue](catalogue.md): "
                    f"{'all ' if len(rs.tiles()) > 1 else ''}{counted(len(rs.tiles()), 'tile')}, "
                    "both faces."]
                    if rs.tiles() or not rs.cardsets else []),
                  *[f"- [{cs.title}]({urls.cardset_page(cs.id)}.md): "
                    f"{counted(len(cs.cards), 'card')}, each drawn, numbered and read as "
                    "the engine reads it." for cs in rs.cardsets],
                  "- [Positions and records](formats.md): how to describe a table or a whole game "
                  "to the engine, and ask it for a ruling."]
        steps = [d for d in rs.all_decls() if isinstance(d, m.StepDecl)]
        if steps:
            lines += ["", "## A turn in brief", ""]
            for i, s in enumerate(steps, 1):
                lines.append(f"{i}. **{s.title}** ({self.ix.rule_link(s.rule) if s.rule else ''})")
        return self._page("index.md", rs.subtitle or rs.title, lines)

    # ------------------------------------------------------------ chapters

    def chapter_pages(self, ch: m.Chapter) -> list[Page]:
        """A chapter's page with its rules; or, in a chapter with a page per rule, its page
        listing them and one page for each."""
        lines = [f"# {ch.number}. {ch.title}", "", self.ask_the_judge(), ""]
        if ch.text:
            lines += [self.ix.prose(ch.text), ""]
        if not ch.page_per_rule:
            for r in ch.rules:
                lines += self.rule_section(r, 2)
            return [self._page(f"{ch.id.replace('_', '-')}.md", f"{ch.number}. {ch.title}",
                               lines)]
        lines += ["## In this chapter", ""]
        lines += [f"- {self.ix.rule_link(r.id, f'{r.number} {r.title}')}" for r in ch.rules]
        pages = [self._page(f"{ch.id.replace('_', '-')}.md", f"{ch.number}. {ch.title}", lines)]
        for r in ch.rules:
            heading, *rest = self.rule_section(r, 1)
            pages.append(self._page(f"{self.ix.page_of_rules[r.id]}.md",
                                    f"{r.number} {r.title}",
                                    [heading, "", self.ask_the_judge(), *rest]))
        return pages

    def ask_the_judge(self) -> str:
        """A button opening the judge on this ruleset: shown only where a judge answers
        (site/assets/javascripts/judge-links.js asks it first)."""
        return (f'<a class="judge-link md-button" href="{urls.judge_link(self.rs.id)}" '
                f'data-search-exclude title="Set up a disputed position by these rules and '
                f'get a ruling">Ask the judge</a>')

    def rule_section(self, r: m.Rule, depth: int) -> list[str]:
        hashes = "#" * min(depth, 6)
        lines = [f"{hashes} {r.number} {r.title} {{ #{urls.anchor(r.id)} }}", ""]
        ch = self.change("rule", r.id)
        if ch is not None and ch.op == "replaced" and self.base is not None \
                and self.base_ix is not None:
            lines += self.rule_tabs(r, ch)
        else:
            if ch is not None and ch.op == "added":
                lines += [f'<span class="new-rule">New in: {html.escape(self.label)}</span>', ""]
            if r.text:
                lines += [self.ix.prose(r.text), ""]
            lines += self.formal.box(r)
        lines += self.meta(r)
        for ex_id in self.ix.examples_of.get(r.id, []):
            if self.ix.example_home.get(ex_id) == r.id:
                lines += self.example_block(self.results[ex_id])
        for child in r.rules:
            lines += self.rule_section(child, depth + 1)
        return lines

    def rule_tabs(self, r: m.Rule, ch: m.Change) -> list[str]:
        """A changed rule: this ruleset's reading, and the base's beside it in a linked tab."""
        assert self.base is not None and self.base_ix is not None and self.base_formal is not None
        mine = [self.ix.prose(r.text), ""] if r.text else []
        mine += self.formal.box(r)
        lines = [f'=== "{self.label}"', ""] + _indent(mine)
        old = self.base.ix.rules.get(r.id) if ch.op == "replaced" else None
        if old is not None:
            theirs = [f"*{old.number} {old.title}*, as *{self.base.label}* has it "
                      f"({self.base_ix.rule_link(r.id, 'open')}):", ""]
            theirs += [self.base_ix.prose(old.text), ""] if old.text else []
            theirs += self.base_formal.box(old)
            lines += [f'=== "{self.base.label}"', ""] + _indent(theirs)
        else:
            lines += [f'=== "{self.base.label}"', "",
                      f"    Not in *{self.base.label}*: this rule is new here.", ""]
        return lines

    def meta(self, r: m.Rule) -> list[str]:
        parts = []
        changed = []
        for v in self.variants:
            c = v.change("rule", r.id)
            if c is None:
                continue
            if c.op == "removed":
                changed.append(f"[{v.label}: removed](../{v.slug}/changes.md#removed)")
            else:
                changed.append(f"[{v.label}](../{v.slug}/{v.ix.page_of_rule(r.id)}"
                               f"#{urls.anchor(r.id)})")
        if changed:
            parts.append("**Changed in:** " + ", ".join(changed))
        rulings = self.ix.rulings_of.get(r.id, [])
        if rulings:
            parts.append("**Rulings:** " + ", ".join(
                self.ix.ruling_link(x, f"{self.ix.rulings[x].number} {self.ix.rulings[x].title}")
                for x in rulings))
        examples = self.ix.examples_of.get(r.id, [])
        if examples:
            parts.append("**Examples:** " + ", ".join(self.ix.example_link(x) for x in examples))
        refs = self.ix.referenced_by.get(r.id, [])
        if refs:
            parts.append("**Referenced by:** " + ", ".join(self.ix.rule_link(x) for x in refs))
        if not parts:
            return []
        return ['<div class="rule-meta" markdown>', " · ".join(parts), "</div>", ""]

    def _property_words(self, card: Any, name: str, value: int | bool | str) -> str:
        """A printed property in its kind's words ("costs 1 coin"), else by its name
        ("upkeep cost 1")."""
        phrase = self.game.cards.property_phrase(card.id, name)
        if phrase is not None and "{value}" in phrase:
            return self.game.fill(phrase, value)
        if phrase is not None and isinstance(value, bool) and "{" not in phrase:
            return phrase if value else negate(phrase)
        shown = str(value).lower() if isinstance(value, bool) else value
        return f"{name.replace('_', ' ')} {shown}"

    # ------------------------------------------------------------ examples

    def example_block(self, res: ExampleResult) -> list[str]:
        ex = res.example
        head = f"{ex.number} · {ex.title}"
        lines = [f'<div class="admonition example" id="{example_anchor(ex.id)}" markdown>',
                 f'<p class="admonition-title">{html.escape(head)}</p>', ""]
        verified = "✓ Verified against the engine" if res.ok else "✗ Disagrees with the engine"
        opener = (f' <a class="judge-link" href="{urls.judge_link(self.rs.id, ex.id)}" '
                  f'data-search-exclude>Open in the judge</a>')
        lines += [f'<span class="verified">{verified}</span> '
                  + "Illustrates " + ", ".join(self.ix.rule_link(x) for x in ex.illustrates)
                  + opener, ""]
        if ex.text:
            lines += [self.ix.prose(ex.text), ""]
        lines += self._from_set_up(ex)
        lines += self.diagrams(res)
        if ex.play:
            lines += [f"**Move:** `{'; '.join(ex.play)}`", ""]
        if res.ruling is not None:
            lines += self.ruling_lines(res)
        if res.end_effects:
            lines += ["**End of the game, as the engine plays it:**", ""]
            lines += self.effects_table([(e.text, [r.id for r in ([e.rule] if e.rule else [])
                                                   + e.also]) for e in res.end_effects])
        checks = [self.expectation(f) for f in ex.expect]
        if checks:
            lines += ["**Checked:** " + "; ".join(f"{c} ✓" for c in checks) + ".", ""]
        lines += ["</div>", ""]
        return lines

    @staticmethod
    def _from_set_up(ex: m.Example) -> list[str]:
        """An example that begins at the set-up says so, with what chance decided there."""
        start = next((f for f in ex.given if f.fact == "start"), None)
        if start is None:
            return []
        seed, setup = start.args[0], start.args[1]
        if setup:
            said = ", its chance deciding " + ", ".join(
                f"`{html.escape(x if len(x) <= 60 else x[:59] + '…')}`" for x in str(setup).split())
        elif seed is not None:
            said = f", its chance drawn from the seed {seed}"
        else:
            said = ""
        return [f"**From the set-up**{said}.", ""]

    def diagrams(self, res: ExampleResult) -> list[str]:
        before, after = res.before, res.after
        if before is None:
            return []
        marks, ghost, arrows, laid = self._move_marks(res)
        # The example's own table: its seats, named and coloured as it lists them.
        figs = [_figure(board_svg(before.game, before.state, marks=marks, ghost=ghost,
                                  arrows=arrows, max_width=420),
                        f"Before: {self._situation(before)}")]
        if after is not None and after is not before and (res.ruling is None or
                                                           res.ruling.verdict == "LEGAL"):
            figs.append(_figure(board_svg(after.game, after.state, highlight=laid, max_width=420),
                                f"After: {self._situation(after)}"))
        shown = [before.state] + ([after.state] if len(figs) > 1 else [])
        key = key_html(board_key(before.game, shown, marks=marks, arrows=arrows, ghost=ghost,
                                 highlight=laid if len(figs) > 1 else ()))
        return ['<div class="diagrams">' + "".join(figs) + key + "</div>", ""]

    def _move_marks(self, res: ExampleResult) -> tuple[list[Any], Any, list[Any], list[Any]]:
        marks: list[Any] = []
        arrows: list[Any] = []
        laid: list[Any] = []
        ghost = None
        pos = res.before
        if pos is None or res.ruling is None:
            return marks, ghost, arrows, laid
        texts = [t for t in split_moves("; ".join(res.example.play)) if isinstance(t, str)]
        for text, mr in zip([t for t in texts if t.strip()], res.ruling.moves):
            try:
                move = pos.parse(text)
            except ValueError:
                break
            action = self.game.actions.get(move.action)
            tone = "focus" if mr.verdict == "LEGAL" else "bad"
            values = move.values
            if action is not None and action.placement is not None:
                card, face, cell, rot = (values.get(p) for p in action.placement)
                if mr.verdict == "LEGAL":
                    laid.append(cell)
                else:
                    ghost = (card, face, cell, rot)
            else:
                points = []
                for p in (action.params if action else []):
                    v = values.get(p.name)
                    if p.type == "site":
                        points.append(v)
                    elif p.type == "piece" and v in pos.state.pieces:
                        q = pos.state.pieces[v]
                        points.append((q.cell, q.site))
                marks += [(s, tone) for s in points]
                if len(points) == 2:
                    arrows.append((points[0], points[1]))
            if mr.verdict != "LEGAL":
                break
            pos = pos.apply(text)
        return marks, ghost, arrows, laid

    def _situation(self, pos: Position) -> str:
        s = pos.situation()
        if s.finished:
            return "the game is over"
        if s.at_once:  # nobody is first: "every player chooses at once (still to choose: …)"
            return s.said()
        step = pos.game.steps[pos.state.turn.step].title
        name = pos.game.seat_name(pos.state.turn.active)
        return f"turn {s.turn}, {name} to play, step “{step}”"

    def ruling_lines(self, res: ExampleResult) -> list[str]:
        ruling = res.ruling
        assert ruling is not None
        lines = [f"**The engine rules:** {ruling.verdict}", ""]
        for mv in ruling.moves:
            if mv.verdict == "ILLEGAL":
                for b in mv.breaches:
                    rule = self.ix.rule_link(b.rule.id, f"{b.rule.number} {b.rule.title}") \
                        if b.rule else b.code
                    detail = f" ({html.escape(b.detail)})" if b.detail else ""
                    see = "".join(f" See {self.ix.rule_link(c.id, f'{c.number} {c.title}')}."
                                  for c in b.also if c.id in self.ix.rules)
                    lines.append(f"- `{mv.move}` breaks {rule}: {html.escape(b.message)}{detail}."
                                 f"{see}")
                lines.append("")
        effects = [(c.text, [r.id for r in ([c.rule] if c.rule else []) + c.also])
                   for mv in ruling.moves if mv.verdict == "LEGAL" for c in mv.consequences]
        if effects and ruling.verdict == "LEGAL":
            lines += ["What follows:", ""]
            lines += self.effects_table(effects)
        return lines

    def effects_table(self, effects: list[tuple[str, list[str]]]) -> list[str]:
        """What follows from a move, each line with the rule it applies (and the rules of
        the definitions that decided it)."""
        lines = ['<div class="effects" markdown>', "", "| | What happens | Rule |",
                 "|---:|---|---|"]
        for i, (text, rules) in enumerate(effects, 1):
            link = ", ".join(self.ix.rule_link(r) for r in rules if r in self.ix.rules)
            lines.append(f"| {i} | {html.escape(text)} | {link} |")
        return lines + ["", "</div>", ""]

    def expectation(self, f: m.PositionFact) -> str:
        g = self.game
        a = f.args
        seat = self._seat_name
        if f.fact == "legal":
            return "the moves are legal"
        if f.fact == "illegal":
            if a:
                return "illegal under " + ", ".join(self.ix.rule_link(str(x)) for x in a)
            return "the move is illegal"
        if f.fact == "delta":
            return f"{self._holder(str(a[1]))} {int(a[2]):+d} {g.title(str(a[0]), True)}"  # type: ignore[arg-type]
        if f.fact == "amount":
            return f"{self._holder(str(a[1]))} holds {a[2]} {g.title(str(a[0]), int(a[2]) != 1)}"  # type: ignore[arg-type]
        if f.fact == "area":
            return self._area_expectation(str(a[0]), str(a[1]), a[2])
        if f.fact in ("closed", "open"):
            return f"the area at `{a[0]}` is {f.fact}"
        if f.fact == "piece":
            return f"{seat(str(a[1]))}’s {g.title(str(a[0]))} stands at `{a[2]}`"
        if f.fact == "no_piece":
            return f"no {g.title(str(a[0]))} at `{a[1]}`"
        if f.fact == "supply":
            return f"{seat(str(a[0]))} has {a[2]} {g.title(str(a[1]), int(a[2]) != 1)} in supply"  # type: ignore[arg-type]
        if f.fact == "winner":
            return "the winner: " + ", ".join(seat(str(x)) for x in a)
        if f.fact == "step":
            step = next((s.title for s in g.steps if s.id == a[0]), a[0])
            return f"the game waits in step “{step}”"
        if f.fact == "no_breach":
            return "no check of the whole table finds a breach"
        if f.fact == "breach":
            # The target is a rule an audit cites, an audit, or AUDIT.RULE.
            target = str(a[0])
            audits = {d.id: d for d in self.rs.all_decls() if isinstance(d, m.AuditDecl)}
            head, _, rest = target.partition(".")
            if target in self.ix.rules:
                named = self.ix.rule_link(target)
            elif target in audits:
                named = f"the check “{audits[target].title}”"
            elif head in audits and rest in self.ix.rules:
                named = f"{self.ix.rule_link(rest)} (the check “{audits[head].title}”)"
            else:
                named = f"`{target}`"
            return f"a breach of {named}" + (f" at `{a[1]}`" if a[1] is not None else "")
        if f.fact in ("card", "no_card", "value", "zone", "zone_size", "game", "round",
                      "waiting"):
            from compiler.rulebook.fact_words import checked
            return checked(g, f, seat)
        return f.fact

    def _area_expectation(self, site: str, name: str, value: Any) -> str:
        """"the area at `0,0:system` is controlled by Xemh", in the attribute's own words."""
        phrase = next((at.phrase for d in self.rs.all_decls() if isinstance(d, m.AreaKind)
                       for at in d.attributes if at.name == name and at.phrase), None)
        where = f"the area at `{site}`"
        if value in (None, "none"):
            shown = "nobody"
        else:
            shown = self._seat_name(str(value))
        if phrase is None:
            return f"{where}: {name.replace('_', ' ')} is {shown}"
        if "{value}" not in phrase:
            yes = str(value).lower() in ("true", "yes", "1")
            return f"{where} is {'' if yes else 'not '}{phrase}"
        if value in (None, "none"):
            return f"{where} is not {phrase.split('{value}')[0].strip()} anybody"
        return f"{where} is {phrase.replace('{value}', shown)}"

    def _seat_name(self, seat: str) -> str:
        for s in self.rs.seats:
            if s.id == seat:
                return s.name
        return seat

    def _holder(self, holder: str) -> str:
        if holder == "pool":
            return self.rs.pool
        if ":" in holder:
            return f"the area at `{holder}`"
        return self._seat_name(holder)

    # ------------------------------------------------------------ rulings

    # ------------------------------------------------------------- variants

    def changes_page(self) -> Page:
        """Every rule, tile, example... this variant adds, replaces or removes, beside the base."""
        assert self.base is not None and self.base_ix is not None
        base, bix = self.base, self.base_ix
        rs = self.rs
        lines = [f"# What changes: {self.label}", "",
                 f"This ruleset extends [{base.rs.title}: {base.label}](../{base.slug}/index.md) "
                 f"and is played by its rules, except for what is listed here. The list is made "
                 f"from the rules files themselves, so it is complete.", ""]
        ops = {op: [c for c in rs.changes if c.op == op] for op in ("added", "replaced", "removed")}
        counts = ", ".join(f"{len(v)} {k}" for k, v in ops.items() if v)
        lines += [f"In all: {counts}.", ""]
        rules = {op: [c for c in cs if c.kind == "rule"] for op, cs in ops.items()}
        if rules["replaced"]:
            lines += ["## Rules replaced { #replaced }", ""]
            for c in rules["replaced"]:
                new, old = self.ix.rules[c.id], base.ix.rules.get(c.id)
                lines += [f"### {new.number} {new.title}", "",
                          f"Here: {self.ix.rule_link(c.id, new.number + ' ' + new.title)}"
                          + (f" · {base.label}: {bix.rule_link(c.id, old.number + ' ' + old.title)}"
                             if old else ""), "",
                          '<div class="compare" markdown>', "",
                          '<div markdown>', "", f"**{self.label}**", "",
                          self.ix.prose(new.text) if new.text else "*(no text)*", "", "</div>", "",
                          '<div markdown>', "", f"**{base.label}**", "",
                          (bix.prose(old.text) if old and old.text else "*(no text)*"), "",
                          "</div>", "", "</div>", ""]
                lines += self._readings_compared(new, old)
        if rules["added"]:
            lines += ["## Rules added { #added }", ""]
            for c in rules["added"]:
                r = self.ix.rules[c.id]
                lines.append(f"- {self.ix.rule_link(c.id, r.number + ' ' + r.title)}")
            lines.append("")
        if rules["removed"]:
            lines += ["## Rules removed { #removed }", ""]
            for c in rules["removed"]:
                old = base.ix.rules.get(c.id)
                label = f"{old.number} {old.title}" if old else c.id
                lines.append(f"- {bix.rule_link(c.id, label)}" if old else f"- `{c.id}`")
            lines.append("")
        others = [c for c in rs.changes if c.kind != "rule"]
        if others:
            lines += ["## Everything else { #other }", "",
                      "| Change | What | Id |", "|---|---|---|"]
            for c in others:
                lines.append(f"| {c.op} | {self._kind_words(c.kind)} | {self._change_link(c)} |")
            lines.append("")
        return self._page("changes.md", f"What changes: {self.label}", lines)

    def _readings_compared(self, new: m.Rule, old: m.Rule | None) -> list[str]:
        """What the engine reads in a replaced rule beside what it read in the base's, when
        they differ: a rule may change only there, its text the same."""
        assert self.base_formal is not None
        here = self._reading(self.formal, new)
        there = self._reading(self.base_formal, old) if old is not None else []
        unlinked = re.compile(r"\]\([^)]*\)")
        if [unlinked.sub("]", x) for x in here] == [unlinked.sub("]", x) for x in there]:
            return []
        same = bool(old) and new.text == old.text
        lead = ("The text is the same; what changes is what the engine reads:" if same
                else "What the engine reads:")
        return [lead, "", '<div class="compare" markdown>', "",
                '<div markdown>', "", f"**{self.label}**", "", *(here or ["*(nothing)*"]), "",
                "</div>", "", '<div markdown>', "", f"**{self.base.label if self.base else ''}**",
                "", *(there or ["*(nothing)*"]), "", "</div>", "", "</div>", ""]

    @staticmethod
    def _reading(formal: Formal, rule: m.Rule) -> list[str]:
        return [line for d in rule.decls if not isinstance(d, (m.Look, m.CardLook))
                for line in [*formal.decl(d, rule), ""]]

    @staticmethod
    def _kind_words(kind: str) -> str:
        return {"tiles": "tile set", "tile": "tile", "term": "glossary term", "ruling": "ruling",
                "example": "worked example", "chapter": "chapter", "cards": "card set",
                "card": "card"}.get(kind, kind)

    def _change_link(self, c: m.Change) -> str:
        assert self.base_ix is not None
        ix = self.base_ix if c.op == "removed" else self.ix
        try:
            if c.kind == "example":
                return ix.example_link(c.id, f"{ix.examples[c.id].number} {ix.examples[c.id].title}")
            if c.kind == "ruling":
                return ix.ruling_link(c.id, f"{ix.rulings[c.id].number} {ix.rulings[c.id].title}")
            if c.kind == "term":
                return ix.term_link(c.id)
            if c.kind == "chapter":
                return ix.chapter_link(c.id)
            if c.kind in ("tile", "tiles"):
                return f"[`{c.id}`]({ix.prefix}catalogue.md)"
            if c.kind == "cards":
                return f"[`{c.id}`]({ix.prefix}{urls.cardset_page(c.id)}.md)"
            if c.kind == "card" and c.parent:
                return ix.rule_link(citation_id(c.parent, c.id), f"`{c.id}`")
        except KeyError:
            pass
        return f"`{c.id}`"

    def rulings_page(self) -> Page:
        lines = ["# Rulings", "",
                 "Where the printed rules are silent, unclear, or contradict themselves, a careful "
                 "judge has to choose. These are our choices, each with its reason. The rules they "
                 "settle link here, and the engine plays by them.", ""]
        for r in self.rs.rulings:
            lines += [f"## {r.number} {r.title} {{ #{urls.anchor(r.id)} }}", ""]
            lines += self.ix.ruling_lines(r)
            if r.settles:
                lines += ["**Settles:** " + ", ".join(
                    self.ix.rule_link(x, f"{self.ix.rules[x].number} {self.ix.rules[x].title}")
                    for x in r.settles), ""]
        return self._page("rulings.md", "Rulings", lines)

    # ------------------------------------------------------------ glossary

    def glossary_page(self) -> Page:
        lines = ["# Glossary", ""]
        for t in sorted(self.rs.terms, key=lambda t: t.title.lower()):
            lines += [f"## {capital(t.title)} {{ #{urls.anchor(t.id)} }}", ""]
            if t.text:
                lines += [self.ix.prose(t.text), ""]
            extra = []
            if t.plural:
                extra.append(f"plural: *{t.plural}*")
            if t.also:
                extra.append("also: " + ", ".join(f"*{a}*" for a in t.also))
            if extra:
                lines += ["(" + "; ".join(extra) + ")", ""]
            uses = self.ix.term_uses_said(t.id)
            lines += [f"Used in {uses}.", ""] if uses else []
        return self._page("glossary.md", "Glossary", lines)

    # ------------------------------------------------------------ examples

    def examples_page(self) -> Page:
        lines = ["# Worked examples", "",
                 "Every example below was played against the engine when this rulebook was "
                 "built: the position was loaded, the moves adjudicated, and every stated result "
                 "compared with what the engine computed. A single disagreement stops the build.",
                 "",
                 # Out of search: each example is found by its own entry (search.py), and the
                 # whole table as one result buried every search under a page of text.
                 '<div data-search-exclude markdown>', "",
                 "| | Example | Illustrates |", "|---|---|---|"]
        for ex in self.rs.examples:
            lines.append(f"| {ex.number} | {self.ix.example_link(ex.id, ex.title)} | "
                         + ", ".join(self.ix.rule_link(r) for r in ex.illustrates) + " |")
        lines += ["", "</div>", ""]
        homeless = [ex for ex in self.rs.examples if ex.id not in self.ix.example_home]
        for ex in homeless:
            lines += self.example_block(self.results[ex.id])
        return self._page("examples.md", "Worked examples", lines)

    # ----------------------------------------------------------- catalogue

    def catalogue_page(self) -> Page:
        tiles = self.rs.tiles()
        lines = ["# Tile catalogue", ""]
        for ts in self.rs.tilesets:
            if ts.text and any(t in tiles for t in ts.tiles):
                lines += [f'!!! note "{html.escape(ts.title)}"', ""]
                lines += ["    " + line if line else "" for line in
                          self.ix.prose(ts.text).splitlines()]
                lines.append("")
        lines += [f"{len(tiles)} tiles. Edges are listed clockwise from edge 0; a tile laid with "
                  "turn *r* puts its edge *k* on side *k + r* of its position.", "",
                  '<div class="tile-grid">']
        for t in tiles:
            faces = []
            for f in t.faces:
                svg = face_svg(self.game, t.id, f.name, size=110)
                desc = ", ".join(f.edges)
                segs = "; ".join(
                    s.kind + (" (" + ", ".join(s.features) + ")" if s.features else "")
                    for s in f.segments)
                faces.append(f'<figure class="tile-face">{svg}<figcaption><b>{t.id} {f.name}</b>'
                             f"<br>{html.escape(desc)}<br><small>{html.escape(segs)}</small>"
                             f"</figcaption></figure>")
            lines.append(f'<div class="tile-card" id="tile-{t.id}">{"".join(faces)}</div>')
        lines += ["</div>", ""]
        return self._page("catalogue.md", "Tile catalogue", lines)

    def cards_page(self, cs: m.CardSet) -> Page:
        """A card set: its note, then each card drawn, numbered, with its text and abilities."""
        from compiler.rulebook.cards_svg import card_svg
        lines = [f"# {cs.title}", ""]
        if cs.text:
            lines += [f'!!! note "{html.escape(cs.title)}"', ""]
            lines += ["    " + line if line else "" for line in
                      self.ix.prose(cs.text).splitlines()]
            lines.append("")
        copies = sum(c.copies for c in cs.cards)
        printed = f"{len(cs.cards)} printed card{'' if len(cs.cards) == 1 else 's'}"
        lines += [f"{printed}, {copies} with their copies. Rulings cite a card by its number, "
                  "as they cite a rule.", ""]
        for card in cs.cards:
            cited = citation_id(cs.id, card.id)
            lines += [f"## {card.number} {card.title} {{ #{urls.card_anchor(cited)} }}", "",
                      f'<figure class="card-picture">{card_svg(self.game, card.id, 180)}'
                      "</figure>", ""]
            facts = [f"`{card.id}`", f"{card.copies} cop{'y' if card.copies == 1 else 'ies'}"]
            if card.features:
                facts.append("with " + ", ".join(card.features))
            facts += [self._property_words(card, k, v) for k, v in card.props.items()]
            lines += [" · ".join(facts), ""]
            if card.like is not None and card.like in self.game.cards.cards:
                original = self.game.cards.cards[card.like]
                lines += [f"Another printing of [{original.number} {original.title}]"
                          f"(#{urls.card_anchor(original.cited)}).", ""]
            if card.text:
                lines += [self.ix.prose(card.text), ""]
            box = self.formal.ability_lines(card)
            if box:
                lines += ['??? abstract "As the engine reads it"', ""]
                lines += ["    " + line if line else "" for line in box]
                lines.append("")
            for ex_id in self.ix.examples_of.get(cited, []):
                ex = self.ix.examples[ex_id]
                lines += [f"Example: {self.ix.example_link(ex_id, ex.number + ' ' + ex.title)}.",
                          ""]
            for ruling_id in self.ix.rulings_of.get(cited, []):
                lines += [f"Ruling: {self.ix.ruling_link(ruling_id)}.", ""]
        return self._page(f"{urls.cardset_page(cs.id)}.md", cs.title, lines)

    # ------------------------------------------------------------- formats

    def _turn_formats(self) -> list[str]:
        """Seat prefixes, `turn.waiting` and the `game` block, for a ruleset that has steps each
        player takes or rounds (nothing for the others, whose pages stay as they were)."""
        rules = self.game.turn_rules
        out: list[str] = []
        if rules.each_steps:
            steps = ", ".join(f"“{s.title}”" for s in self.game.steps if s.id in rules.each_steps)
            seat = self.game.seat_id(1 if len(self.game.seats) > 1 else 0)
            out += ["### Moves that name their seat", "",
                    f"In a step each player takes ({steps}), and for a choice the rules give a "
                    f"player out of turn, a move starts with the seat that decides: "
                    f"`{seat}: pass`. Records write it so, and reading it checks that this seat "
                    "is the one to decide now; a move without it is read as the move of "
                    "whoever decides now. In a position file, `turn.waiting` lists the seats "
                    "still to take the step, the first deciding now.", ""]
        out += self._at_once_formats()
        if rules.round is not None or rules.game_attrs:
            out += ["### The game as a whole", "",
                    "A position's `game` block says where the rounds stand (`round`, the `turn` "
                    "within it and how many `turns` it has) and the game's attributes; "
                    "`turn.phase` is `round_end` or `turn_end` while a decision granted at the "
                    "end of a round or turn is made. In a worked example: `round 2 turn 1`, "
                    "`game NAME VALUE`, `waiting SEAT, SEAT`.", ""]
        return out

    def _chance_outside_moves(self) -> list[str]:
        """How a record keeps the outcomes no move decides (set-up, the table's between
        moves), for a ruleset that shuffles or whose sample record has any."""
        record = self.sample_record or ""
        setup = next((line for line in record.splitlines() if line.startswith("[Setup ")), None)
        table = next((line for line in record.splitlines() if "; ! " in line), None)
        if not (chance.shuffles(self.rs.all_decls()) or setup or table):
            return []
        out = ["### Chance outside moves", "",
               "Some outcomes are no move's own: what a shuffle or a draw gives while the game "
               "is set up, or once a round is over. They are written down as well, so a record "
               "replays exactly without its seed.", "",
               "- **`Setup`** lists what chance decided while the game was set up, in order. A "
               "shuffle's outcome is the zone, a colon and its cards in their new order, top "
               "card first, separated by commas: `deck:c3,c1,c2` (a player's zone is named "
               "with the seat, `hand.red:c2,c1`).",
               "- A **table decision** is `!` followed by what chance decided once a move's "
               "turn was over (the end of a round, the start of the next one, its deal): it "
               "is written as a decision of its own, right after the move whose end led to "
               "it. For instance, in `6. sell c2 ! 1; ! deck:c2,c1,c6,c4` the die roll `1` is "
               "the sale's "
               "own outcome, and the deck's new order at the start of the next round is the "
               "table's.", "",
               "A replay refuses a missing outcome, or one that cannot be (a card the zone does "
               "not hold, one left out), at the move it belongs to, with its turn and what the "
               "outcome should look like. To ask for a ruling on such a move, give the table's "
               "outcomes as a record does, `sell c2 ! 1; ! deck:c2,c1,c6,c4`, or after the "
               "move's own: `sell c2 ! 1 deck:c2,c1,c6,c4`.", ""]
        shown = [x if len(x) < 110 else x[:105] + " …" for x in (setup, table) if x]
        if shown:
            out += ["From the sample record below:", "", "```text", *shown, "```", ""]
        return out

    def _at_once_formats(self) -> list[str]:
        """Choices made at once: who may move, secret values, grants made together (nothing
        for a ruleset without them)."""
        steps = [s for s in self.game.steps if s.at_once]
        if not steps and not self.game.grant_eachs:
            return []
        second = 1 if len(self.game.seats) > 1 else 0
        seat, name = self.game.seat_id(second), self.game.seat_name(second)
        where = ", ".join(f"“{s.title}”" for s in steps) or "the choices granted to each player"
        secret = sorted(a.name for a in self.game.player_attrs.values() if a.secret)
        out = ["### Choices made at once", "",
               f"Where every player chooses at the same time ({where}), anyone who has not "
               f"chosen yet may move first: `{seat}: …` is {name}'s choice even while a "
               f"seat before theirs has not chosen; a second choice is refused. A record may "
               f"give the choices in any order."]
        if secret:
            out[-1] += (" A secret value chosen there and not yet shown to the others is "
                        "listed in its player's `hidden` (" +
                        ", ".join(f"`{a}`" for a in secret) + ").")
        if self.game.grant_eachs:
            out[-1] += (" Choices granted together to several players that still wait for "
                        "answers are `turn.groups`, each with the values of what follows them "
                        "(`then`); each of their grants names its `group`.")
        return out + [""]

    def _laid_cards_formats(self) -> list[str]:
        """Boards of one's own and printed cards laid on them, as a position file writes them
        (nothing for a ruleset of one shared board and no printed cards)."""
        g = self.game
        out: list[str] = []
        if g.per_player:
            seat = g.seat_id(0)
            out.append(f"Every player has a board of their own. Each entry of `tiles` names "
                       f"its `board` (a seat id, `\"board\": \"{seat}\"`), and its `at` "
                       f"counts from that board's origin. Examples write such a cell with the "
                       f"seat first, `{seat}/1,0`; a move writes a cell of the mover's own "
                       f"board without the seat.")
        if self.rs.cards():
            out.append("A card laid on a board is an entry of `tiles` too: a card turned face "
                       "down where it lies has `\"face\": \"down\"`, what it holds is in "
                       "`holds` (by resource) and the values of its kind's attributes in "
                       "`attributes`; a `recorded` attribute the file leaves out reads none: not known.")
        return [" ".join(out), ""] if out else []

    def formats_page(self) -> Page:
        game = self.game
        lines = ["# Positions and records", "",
                 "The engine reads a table in two ways: a **position file** (JSON), describing the "
                 "table as players see it, or a **game record**, the moves from the start. Either "
                 "can be given to `rulebook moves`, `rulebook adjudicate` and `rulebook replay`; "
                 "they are told apart by their content (a position file starts with `{`), not "
                 "by the file's name.", ""]
        lines += self._coordinates()
        lines += ["## Moves", "",
                  "Each action is written in a fixed notation. Every move prints this way and "
                  "reads back the same.", "", "| Action | Written | Rule |", "|---|---|---|"]
        for a in game.actions.values():
            written = a.decl.notation or a.id
            for p in a.params:
                word = p.name.upper()
                written = written.replace("{" + p.name + "}", word)
            rule = self.ix.rule_link(a.rule) if a.rule else ""
            lines.append(f"| {a.decl.title} | `{written}` | {rule} |")
        lines += ["| pass (end the step, when allowed) | `pass` | |", "",
                  "Where the notation shows a parameter in capitals, write it as follows:", ""]
        types = sorted({p.type.removeprefix("set:") for a in game.actions.values()
                        for p in a.params})
        words = dict(NOTATION_WORDS)
        printed = self.rs.cards()
        if printed:  # a game of printed cards names them by their ids, not tiles'
            words["card"] = f"a card id from the catalogue, e.g. `{printed[0].id}`"
        if game.per_player:
            words["cell"] = words["tile"] = ("a position, `x,y` on the mover's own board, "
                                             f"`{game.seat_id(1 % len(game.seats))}/x,y` on "
                                             "another player's")
        for t in types:
            if t in words:
                lines.append(f"- {t}: {words[t]}")
        lines += ["- several pieces: separated by spaces",
                  "- numbers: the digits 0-9, at most nine of them", "",
                  "Text that is not a move at all is **UNREADABLE**: the answer cites no rule and "
                  "lists what moves look like. A well-formed move that names something not on "
                  "the table (a tile at an empty position, a site the tile lacks, a piece that is "
                  "not there) is **ILLEGAL**, citing the rule of the choice that needed it. A "
                  "move of an action a variant took away is ILLEGAL too, citing what took it "
                  "away. The empty move is unreadable; a sequence of moves is written with `;` "
                  "between them.", ""]
        lines += self._turn_formats()
        lines += ["## Position files", "",
                  "A position file is JSON. Tiles, pieces (listed bottom first when stacked), "
                  "area states, each player's holdings, the stacks (top first; `null` for a tile "
                  "nobody has seen) and whose turn and step it is. Supplies, the pool and the "
                  "stacks may be left out: they are derived from the set-up. The engine refuses a "
                  "position that cannot be on a table (edges that do not match, pieces that are "
                  "not accounted for...), listing every problem with its place in the file.", "",
                  "Among what no table can show: more pieces than the game gives (a kind left out "
                  "of a player's `supply` holds what the set-up gives minus those on the board); "
                  "two pieces where a prohibition allows one; a tile both laid and discarded; "
                  "negative counts; a grant with nothing remaining; `finished` before the game's "
                  "end; a step that needs the tile laid this turn without `turn.placed`.", "",
                  "What follows from the board is computed, not trusted: an area attribute "
                  "declared `given as` (below) takes its value from the board where the file "
                  "leaves it out, and a value the file gives must agree with the board, except "
                  "for an area the turn still has a rule pending for (`turn.pending`).", ""]
        if zone_play.table(self.game):
            home = zone_play.start_zone(self.game)
            unsaid = ("Every card the set-up puts in play must be somewhere: the zone the cards "
                      "start in holds only what the set-up (and the rules of play) leave there. "
                      "A position that shows only part of the table says `\"partial\": true`; "
                      "the cards it leaves unsaid are then in the zone the cards start in, face "
                      "down, as in the worked examples. ") if home is not None else ""
            where = "" if home is not None else ("A card said to be nowhere is in the zone "
                                                 "the cards start in, face down. ")
            lines += ["The cards in zones (`zones`): a shared zone is a list of piles, a "
                      "player's zone maps each seat to its cards; every pile is listed top "
                      "first (an unordered zone's cards in any order) and `null` is a card "
                      "nobody at the table knows. " + where + "No card may be in more places "
                      "than the game has copies of it. " + unsaid + "`revealed` lists the zones "
                      "turned face up (`chosen red` for one player's). A file that is one "
                      "player's view of the table says whose in `view` "
                      "([A player's view](#a-players-view)).", ""]
        lines += self._laid_cards_formats()
        given = [(k, a) for k in self.game.area_kinds for a in k.attributes if a.given is not None]
        if given:
            lines += ["| Area | Attribute | Taken from the board |", "|---|---|---|"]
            lines += [f"| {k.title} | `{a.name}` | {self.rules.english(a.given)} |"
                      for k, a in given]
            lines.append("")
        lines += [
                  "Its JSON Schema: [position.schema.json](position.schema.json).", ""]
        sample = self._sample_position()
        if sample:
            lines += ['??? example "A position file"', "", "    ```json"]
            lines += ["    " + line for line in sample.splitlines()]
            lines += ["    ```", ""]
        lines += ['??? info "The JSON Schema"', "", "    ```json"]
        lines += ["    " + line for line in json.dumps(position_schema(), indent=2).splitlines()]
        lines += ["    ```", ""]
        lines += ["## Game records", "",
                  "A record is a header of tags, then one line per turn: the turn's number and its "
                  "decisions, separated by `;`. Every random outcome is written down: the "
                  "`Stacks` tag gives the order of the shuffled tiles (top first, stacks "
                  "separated by `|`), and each placement names its tile, face, position and turn, "
                  "so a record replays identically. A `pass` is written only where it is needed "
                  "to understand the record; the end of a line ends the turn. Comments start "
                  "with `#`.", "", "| Tag | What it holds |", "|---|---|"]
        lines += [f"| `{tag}` | {what} |" for tag, what in TAGS.items()]
        how = ("The cards start in a zone of their own, so a record needs neither `Stacks` "
               "nor `Seed`: what the set-up does with them is in `Setup`." if
               zone_play.start_zone(game) is not None else "A record must say how the tiles "
               "lie (`Stacks`) or the seed they were shuffled with (`Seed`).")
        lines += ["", how + " `Players` names the seats in playing order; any "
                  "seats of the ruleset may sit at the table. A `Result` other than `*` must be "
                  "what the replay reaches: the scores and the winners. Other tags (an event, a "
                  "date) are kept and ignored.", ""]
        lines += self._chance_outside_moves()
        if self.sample_record:
            head = self.sample_record.splitlines()
            shown = [line if len(line) < 110 else line[:105] + " …" for line in head[:14]]
            lines += ["```text", *shown, "…", "```", "",
                      "The whole record: [sample.record](sample.record). Replay it with "
                      f"`rulebook replay {self.rs.id} sample.record`.", ""]
        move = self._sample_move()
        lines += ["## Asking for a ruling", "", "```console",
                  f"$ rulebook moves {self.rs.id} position.json",
                  f"$ rulebook adjudicate {self.rs.id} position.json \"{move}\"",
                  f"$ rulebook adjudicate {self.rs.id} game.record \"{move}\" --json",
                  "```", "",
                  "The answer is LEGAL, ILLEGAL or UNREADABLE, with the rules that decide it "
                  "(numbers, titles and links into this book), the reasons for an illegal move, "
                  "and for a legal one everything that follows from it.", ""]
        lines += self._audits()
        lines += self._views()
        lines += ["Every command ends with the same exit codes:", ""]
        from compiler.cli import EXIT_CODES  # the command line's own table
        lines += [f"- `{code}`: {what}" for code, what in sorted(EXIT_CODES.items())]
        lines.append("")
        return self._page("formats.md", "Positions and records", lines)

    def _audits(self) -> list[str]:
        """How to ask what is wrong with a whole table, where the rules declare audits."""
        audits = self.game.audits
        if not audits:
            return []
        listed = "; ".join(f"**{a.decl.title}** ({self.ix.rule_link(a.decl.rule)})"
                           if a.decl.rule in self.ix.rules else f"**{a.decl.title}**"
                           for a in audits.values())
        return ["## Checking a whole table", "", "```console",
                f"$ rulebook audit {self.rs.id} position.json",
                f"$ rulebook audit {self.rs.id} position.json --json",
                "```", "",
                "An audit lists every breach on the table, each with the rule it breaks "
                "(number, title and link), what is wrong in words and where it is; it exits "
                f"with 1 when it finds anything. The audits of these rules: {listed}.", ""]

    def _views(self) -> list[str]:
        """A player's view of the table: `--as SEAT`, view positions and view records."""
        from compiler.engine.views import hides_anything
        g, rid = self.game, self.rs.id
        seat = g.seat_id(0)
        lines = ["## A player's view", "",
                 "A judge sees the whole table; a player does not. Every command that reads a "
                 "table takes `--as SEAT` and shows it as that player sees it: every card or "
                 "tile they cannot see is unknown.", "", "```console",
                 f"$ rulebook moves {rid} position.json --as {seat}",
                 f"$ rulebook adjudicate {rid} game.record \"{self._sample_move()}\" --as {seat}",
                 f"$ rulebook replay {rid} game.record --as {seat} --json",
                 f"$ rulebook audit {rid} position.json --as {seat}",
                 f"$ rulebook play {rid} --as {seat}",
                 "```", "",
                 "A view is an ordinary position: its file says whose view it is (`\"view\": "
                 f"\"{seat}\"`) and has `null` for every card that player cannot see, and it "
                 "lists moves, judges them and replays from there like any other. The rules "
                 "judge a move the same way in a view as at the full table; where a choice "
                 "needs a card the view hides, every card that could be there is offered, and a "
                 "card taken unseen is said to be a hidden card. A view file that shows more "
                 "than its player may see is read as that player sees it.", "",
                 "Cards laid on the board are public, face-down ones included: everyone saw "
                 "where they went. In zones:", "",
                 "| Zone | Whose cards are seen |", "|---|---|"]
        seen = {"everyone": "everyone sees every card",
                "owner": "only its owner sees the cards (everyone, once turned face up)",
                "nobody": "nobody sees the cards, until they are turned face up",
                "top": "everyone sees the top card of each pile; the rest lie face down"}
        shown = []
        if g.stacks_zone is not None or not zone_play.table(g):
            shown.append(("the stacks", "top"))
        shown += [(zone_play.zone_title(g, z.key(0)).split("'s ", 1)[-1], z.visible)
                  for z in zone_play.table(g).values()]
        lines += [f"| {title} | {seen[visible]} |" for title, visible in shown]
        lines += ["", "`rulebook play --as SEAT` writes a **view record**, tagged `[View "
                  "\"SEAT\"]`: the others' choices of cards that player never saw, and what "
                  "chance decided out of their sight, are written `?`, and the seed and the "
                  "order of the stacks are left out. It is a player's notes of the game, not a "
                  "game: it does not replay.", ""]
        if hides_anything(g):
            lines += ["Random play never peeks: each random player chooses from the moves "
                      "they can list from their own view.", "",
                      "The cards offered for a hidden card are those that could be in its "
                      "place: a card the player has not seen, and that the table cannot rule "
                      "out of that zone. A card everyone saw put aside (left in the box at "
                      "set-up, or in a deck of its own) is never offered for another player's "
                      "hand. A view file says so zone by zone in `could_hold`; a position "
                      "file without it carries no history, so it rules nothing out.", "",
                      "A ruling judged from a view says so (its JSON names the seat in "
                      "`view`). What follows the move is stated only as far as that player "
                      "can know it: where it turns on another player's secret they cannot "
                      "see, the ruling says so and stops there (`depends_on_unseen`), with "
                      "no scores after it, rather than guess.", ""]
            sample = self._sample_view()
            if sample:
                lines += [f'??? example "A view: {sample[0]}"', "", "    ```json"]
                lines += ["    " + line for line in sample[1].splitlines()]
                lines += ["    ```", ""]
        return lines

    def _sample_view(self) -> tuple[str, str] | None:
        """The first worked example's table with cards in zones, as its next player to
        decide sees it: (what it shows, the view as JSON)."""
        for res in self.results.values():
            before = res.before
            if before is None or not any(p for piles in before.state.zones.values()
                                         for p in piles):
                continue
            seat = before.active
            view = before.view(seat)
            model = from_state(self.rules, view.state)
            said = f"the table of “{res.example.title}” as {self.game.seat_name(seat)} sees it"
            return said, compact_json(model.model_dump(mode="json", exclude_defaults=True))
        return None

    def _coordinates(self) -> list[str]:
        """The coordinate system, drawn and said from the lattice itself."""
        import inspect
        g = self.game
        lattice = g.lattice
        first = g.first_cell
        cells = [first, *lattice.around(first)]
        fmt = lattice.format_cell
        lines = ["## Positions on the board", "",
                 f"Positions (cells) are written `x,y`; the first tile lies at `{fmt(first)}`. "
                 "The sides of a cell (its *slots*) are numbered clockwise. This game's "
                 f"{lattice.name} lattice, in the engine's own words: "
                 f"*{' '.join((inspect.getdoc(type(lattice)) or '').split())}* "
                 "Across each slot lies one neighbour, which sees the same side under its own "
                 "slot number:", "",
                 grid_svg(g, cells), "",
                 "| Cell | " + " | ".join(f"across slot {s}" for s in range(lattice.sides))
                 + " |", "|---|" + "---|" * lattice.sides]
        shown = [first] + [lattice.neighbour(first, s)[0] for s in range(1)]
        for c in shown:
            row = []
            for s in range(lattice.sides):
                nb, back = lattice.neighbour(c, s)
                row.append(f"`{fmt(nb)}` (its slot {back})")
            lines.append(f"| `{fmt(c)}` | " + " | ".join(row) + " |")
        lines += ["", f"A tile's own edges are numbered clockwise too. Laid with rotation `r`, "
                  f"its edge `k` lies on slot `(k + r) mod {lattice.sides}`: rotation 0 puts "
                  f"edge 0 on slot 0, rotation 1 puts it on slot 1, and so on. A site is written "
                  f"`x,y:name`, the name from the tile's face (see the tile catalogue).", ""]
        card = next(iter(sorted(g.catalogue.card_faces)), None)
        if card is not None:
            face = g.catalogue.card_faces[card][0]
            lines += [rotations_svg(g, card, face), "",
                      f"*Tile {card}, face {face}, laid at `{fmt(first)}` with each rotation; "
                      f"the numbers are its own edges.*", ""]
        return lines

    def _sample_move(self) -> str:
        for ex in self.rs.examples:
            res = self.results.get(ex.id)
            if res and res.ok and ex.play and res.ruling and res.ruling.verdict == "LEGAL":
                return str(split_moves(ex.play[0])[0])  # with a table decision after it
        return "pass"

    def _sample_position(self) -> str | None:
        """The table of the first worked example with pieces on it, or, in a game without
        pieces, the example table that places the most cards (laid and in zones), as a
        position file writes it."""
        for res in self.results.values():
            if res.before is not None and res.before.state.pieces:
                return self._sample_json(res.before.state)
        def known(st: Any) -> int:  # the cards the example places, in zones and on boards
            return len(st.board) + sum(c is not None for piles in st.zones.values()
                                       for pile in piles for c in pile)
        tables = [r.before.state for r in self.results.values() if r.before is not None
                  and r.before.state.board and any(p for ps in r.before.state.zones.values()
                                                   for p in ps)]
        return self._sample_json(max(tables, key=known)) if tables else None

    def _sample_json(self, st: Any) -> str:
        model = from_state(self.rules, st)
        return compact_json(model.model_dump(mode="json", exclude_defaults=True))


def compact_json(value: Any, indent: int = 0, width: int = 80) -> str:
    """JSON indented by two, except that a list of plain values or empty ones (a pile of
    cards, a stack of tiles, mostly `null` in a view; a zone of empty piles) runs along the
    line, wrapped at `width`: a sample position stays readable instead of a column of a
    hundred `null`s."""
    pad = " " * indent
    if isinstance(value, dict) and value:
        items = [f"{pad}  {json.dumps(k, ensure_ascii=False)}: "
                 f"{compact_json(v, indent + 2, width)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list) and value:
        if all(not isinstance(v, (dict, list)) or not v for v in value):
            words = [json.dumps(v, ensure_ascii=False) for v in value]
            one = "[" + ", ".join(words) + "]"
            if indent + len(one) <= width:
                return one
            rows: list[list[str]] = [[]]
            for w in words:
                if rows[-1] and indent + 2 + len(", ".join(rows[-1] + [w])) + 1 > width:
                    rows.append([])
                rows[-1].append(w)
            return "[\n" + ",\n".join(f"{pad}  " + ", ".join(r) for r in rows) + f"\n{pad}]"
        return "[\n" + ",\n".join(f"{pad}  {compact_json(v, indent + 2, width)}"
                                   for v in value) + f"\n{pad}]"
    return json.dumps(value, ensure_ascii=False)


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line if line else "" for line in "\n".join(lines).split("\n")]


def _figure(svg: str, caption: str) -> str:
    one_line = " ".join(svg.split())
    return f"<figure>{one_line}<figcaption>{html.escape(caption)}</figcaption></figure>"


def site_index(rulesets: list[RulesetPages]) -> Page:
    lines = ["# Rulebooks", "",
             "Rules written once, in a rules language, and read twice: by a judging engine that "
             "knows every legal move, and by this book. Every rule has a number and a permanent "
             "link; every worked example was played against the engine when the book was built.",
             ""]
    for p in rulesets:
        rs = p.rs
        players = str(rs.players_min) if rs.players_min == rs.players_max \
            else f"{rs.players_min}–{rs.players_max}"
        lines += [f"## [{rs.title}: {rs.subtitle or rs.id}]({p.slug}/index.md)", ""]
        if p.base is not None:
            lines += [f"A variant of [{p.base.label}]({p.base.slug}/index.md): "
                      f"[what changes]({p.slug}/changes.md).", ""]
        lines += [f"{players} players · {len(rs.all_rules())} rules · "
                  f"{len(rs.rulings)} rulings · {len(rs.examples)} verified examples", ""]
    lines += ["## Asking the engine", "",
              "```console",
              "$ rulebook moves RULESET position.json          # every legal move",
              "$ rulebook adjudicate RULESET position.json MOVE  # the ruling, with its rules",
              "$ rulebook replay RULESET game.record            # the position after a game",
              "$ rulebook audit RULESET position.json           # every breach, with its rule",
              "```", ""]
    return Page("index.md", "Rulebooks", "\n".join(lines))


def write(pages: list[Page], extra: dict[str, str], docs: Path) -> None:
    for p in pages:
        path = docs / p.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(p.text, encoding="utf-8")
    for name, text in extra.items():
        path = docs / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


__all__ = ["Page", "PATTERNS", "RulesetPages", "plain", "site_index", "write"]
