"""Turning prose references into links, and keeping the back-links.

Every page of a ruleset lives in one folder, so a link is `page.md#anchor`.
A glossary link carries the term's definition as its title, which the theme
shows as a tooltip. Each reference is also recorded, so a rule can list the
rules that refer to it.
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from dataclasses import dataclass, field

from compiler import links as urls
from compiler.ir import model as m
from compiler.ir.cards import citation_id
from compiler.ir.prose import GENERATED_PAGES, plain, prose_refs


@dataclass
class Index:
    """Where every rule, term, ruling and example lives, and who refers to whom."""

    ruleset: m.Ruleset
    page_of_rules: dict[str, str] = field(default_factory=dict)  # compiler/links.py rule_pages
    rules: dict[str, m.Rule] = field(default_factory=dict)
    chapters: dict[str, m.Chapter] = field(default_factory=dict)
    terms: dict[str, m.Term] = field(default_factory=dict)
    rulings: dict[str, m.Ruling] = field(default_factory=dict)
    examples: dict[str, m.Example] = field(default_factory=dict)
    referenced_by: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    # Where each term is used, in reading order: ("rule", id) (a card is cited like a rule),
    # ("chapter", id), ("ruling", id), ("example", id).
    term_uses: dict[str, list[tuple[str, str]]] = field(
        default_factory=lambda: defaultdict(list))
    # Each term's names (title, plural, other names) as one whole-word pattern.
    term_words: dict[str, re.Pattern[str]] = field(default_factory=dict)
    rulings_of: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    examples_of: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    example_home: dict[str, str] = field(default_factory=dict)  # example -> rule it is shown under
    # Cards are cited like rules (`set.card`): the page of each, by citation.
    card_pages: dict[str, str] = field(default_factory=dict)
    # `[[page:catalogue]]`: the tile catalogue, or in a game of cards without tiles the
    # page of its first card set (the book then has no tile catalogue), with its title.
    catalogue: tuple[str, str] = ("catalogue", "Tile catalogue")
    # Prepended to every link: "" from the ruleset's own pages, "../other-book/"
    # when another ruleset's page quotes this one (a variant showing its base).
    prefix: str = ""

    @classmethod
    def of(cls, rs: m.Ruleset, prefix: str = "") -> Index:
        ix = cls(rs, prefix=prefix)
        for ch in rs.chapters:
            ix.chapters[ch.id] = ch
            stack = list(ch.rules)
            while stack:
                r = stack.pop()
                ix.rules[r.id] = r
                stack.extend(r.rules)
        ix.page_of_rules = urls.rule_pages(rs)
        for cs in rs.cardsets:
            for card in cs.cards:
                cited = citation_id(cs.id, card.id)
                ix.rules[cited] = card  # type: ignore[assignment]  # a number and a title
                ix.card_pages[cited] = urls.card_page(cited)
        if rs.cardsets and not rs.tiles():
            ix.catalogue = (urls.cardset_page(rs.cardsets[0].id), rs.cardsets[0].title)
        ix.terms = {t.id: t for t in rs.terms}
        ix.term_words = {t.id: re.compile(r"\b(" + "|".join(
            re.escape(w) for w in sorted({t.title, t.plural or t.title + "s", *t.also},
                                         key=len, reverse=True)) + r")\b", re.IGNORECASE)
            for t in rs.terms}
        ix.rulings = {r.id: r for r in rs.rulings}
        ix.examples = {e.id: e for e in rs.examples}
        for ch in rs.chapters:
            ix._uses_terms("chapter", ch.id, ch.text, ch.title)
        for r in rs.all_rules():
            for ref in prose_refs(r.text):
                if ref.kind == "rule" and ref.target != r.id:
                    ix._refer(ref.target, r.id)
            ix._uses_terms("rule", r.id, r.text, r.title)
            for d in r.decls:
                for cited in _citations(d):
                    if cited != r.id:
                        ix._refer(cited, r.id)
        for cs in rs.cardsets:
            for card in cs.cards:
                ix._uses_terms("rule", citation_id(cs.id, card.id), card.text, card.title)
        for ruling in rs.rulings:
            for rid in ruling.settles:
                ix.rulings_of[rid].append(ruling.id)
            ix._uses_terms("ruling", ruling.id,
                           " ".join((ruling.question, ruling.text, ruling.reason)), ruling.title)
        for ex in rs.examples:
            ix._uses_terms("example", ex.id, ex.text, ex.title)
        for ex in rs.examples:
            for rid in ex.illustrates:
                ix.examples_of[rid].append(ex.id)
            home = next((r for r in ex.illustrates if r not in ix.card_pages), None)
            if home is not None:  # shown under the first rule it illustrates (a card page shows none)
                ix.example_home[ex.id] = home
        return ix

    def _uses_terms(self, kind: str, ident: str, text: str, title: str = "") -> None:
        """Note where terms are used: linked from the text, or named in the title (a ruling
        titled "Pawns on a river" is about pawns even unlinked)."""
        used = [ref.target for ref in prose_refs(text) if ref.kind == "term"]
        used += [t for t, said in self.term_words.items() if said.search(title)]
        for term in used:
            if (kind, ident) not in self.term_uses[term]:
                self.term_uses[term].append((kind, ident))

    def _refer(self, target: str, source: str) -> None:
        if source not in self.referenced_by[target]:
            self.referenced_by[target].append(source)

    # ------------------------------------------------------------- addresses

    def page_of(self, name: str) -> str:
        """Where one of the book's generated pages is (`rulings`, `glossary`, `examples`...)."""
        return f"{self.prefix}{name}.md"

    def ruling_anchor(self, ruling_id: str) -> str:
        return urls.anchor(ruling_id)

    def term_anchor(self, term_id: str) -> str:
        return urls.anchor(term_id)

    def page_of_rule(self, rule_id: str) -> str:
        if rule_id in self.card_pages:
            return f"{self.prefix}{self.card_pages[rule_id]}.md"
        return f"{self.prefix}{self.page_of_rules[rule_id]}.md"

    def rule_link(self, rule_id: str, label: str | None = None) -> str:
        r = self.rules[rule_id]
        text = label or f"§{r.number}"
        title = html.escape(f"{r.number} {r.title}", quote=True)
        where = urls.card_anchor(rule_id) if rule_id in self.card_pages else urls.anchor(rule_id)
        return f'[{text}]({self.page_of_rule(rule_id)}#{where} "{title}")'

    def example_target(self, ex_id: str) -> str:
        """Where an example is shown, `page.md#anchor`: under the rule it is homed at, else
        on the examples page."""
        home = self.example_home.get(ex_id)
        page = self.page_of_rule(home) if home else self.page_of("examples")
        return f"{page}#{example_anchor(ex_id)}"

    def example_link(self, ex_id: str, label: str | None = None) -> str:
        ex = self.examples[ex_id]
        title = html.escape(ex.title, quote=True)
        return f'[{label or ex.number}]({self.example_target(ex_id)} "{title}")'

    def ruling_link(self, ruling_id: str, label: str | None = None) -> str:
        r = self.rulings[ruling_id]
        title = html.escape(r.title, quote=True)
        return f'[{label or "ruling " + r.number}]({self.page_of("rulings")}#{self.ruling_anchor(ruling_id)} "{title}")'

    def term_link(self, term_id: str, label: str | None = None) -> str:
        t = self.terms[term_id]
        tip = html.escape(plain(t.text), quote=True).replace("\n", " ")
        return f'[{label or t.title}]({self.page_of("glossary")}#{self.term_anchor(term_id)} "{tip}")'

    def chapter_link(self, chapter_id: str, label: str | None = None) -> str:
        ch = self.chapters[chapter_id]
        return f"[{label or ch.number + '. ' + ch.title}]({self.prefix}{chapter_id.replace('_', '-')}.md)"

    def term_uses_said(self, term_id: str) -> str:
        """Where a term is used, by kind, each place once: "§2.4, §7.1; cards: §L.3; rulings:
        TD-R3; examples: TD-E5" (the glossary's "Used in", the A–Z index's entries)."""
        uses = self.term_uses.get(term_id, [])
        rules = [u for k, u in uses if k == "rule" and u not in self.card_pages]
        cards = [u for k, u in uses if k == "rule" and u in self.card_pages]
        groups = [("", [self.rule_link(u) for u in rules]),
                  ("chapters: ", [self.chapter_link(u, f"§{self.chapters[u].number}")
                                  for k, u in uses if k == "chapter"]),
                  ("cards: ", [self.rule_link(u) for u in cards]),
                  ("rulings: ", [self.ruling_link(u, self.rulings[u].number)
                                 for k, u in uses if k == "ruling"]),
                  ("examples: ", [self.example_link(u) for k, u in uses if k == "example"])]
        return "; ".join(head + ", ".join(links) for head, links in groups if links)

    def ruling_lines(self, ruling: m.Ruling) -> list[str]:
        """A ruling's question, its answer and its reason, as the rulings page and the book
        on one page both say them."""
        lines = [f"**Question.** {self.prose(ruling.question)}", ""] if ruling.question else []
        lines += [f"**Ruling.** {self.prose(ruling.text)}", ""]
        if ruling.reason:
            lines += [f"**Why.** {self.prose(ruling.reason)}", ""]
        return lines

    # ------------------------------------------------------------------ prose

    def prose(self, text: str) -> str:
        """Rule prose with every `[[...]]` replaced by its Markdown link."""
        out = []
        last = 0
        for ref in prose_refs(text):
            out.append(text[last:ref.start])
            out.append(self.link(ref.kind, ref.target, ref.label))
            last = ref.end
        out.append(text[last:])
        return "".join(out)

    def link(self, kind: str, target: str, label: str | None) -> str:
        if kind == "rule":
            return self.rule_link(target, label)
        if kind == "ruling":
            return self.ruling_link(target, label)
        if kind == "example":
            return self.example_link(target, label)
        if kind == "chapter":
            return self.chapter_link(target, label)
        if kind == "page":
            page, title = self.catalogue if target == "catalogue" else (target, GENERATED_PAGES[target])
            return f"[{label or title}]({self.page_of(page)})"
        return self.term_link(target, label)


def example_anchor(ex_id: str) -> str:
    return "example-" + urls.anchor(ex_id)


def _citations(decl: object) -> list[str]:
    """Rules a declaration cites with `per RULE` (they refer to that rule)."""
    out = []
    for attr in ("params", "requires"):
        for clause in getattr(decl, attr, []) or []:
            if getattr(clause, "rule", None):
                out.append(clause.rule)
    return out
