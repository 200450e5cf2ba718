"""A book's A–Z index: every topic a reader might look up, in alphabetical order.

The glossary's terms, each with every place that uses it; every rule, card and ruling by its
title. A reader who remembers a word ("shuffle") and not a chapter finds it under its
letter; the letters at the top jump there, which a phone needs on a long page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from compiler.ir import model as m
from compiler.ir.cards import citation_id
from compiler.rulebook.formal import capital
from compiler.rulebook.links import Index

PAGE = "a-z.md"
TITLE = "A–Z index"

_ARTICLE = re.compile(r"^(a|an|the)\s+", re.IGNORECASE)


@dataclass(frozen=True)
class Entry:
    heading: str   # as the reader looks it up: "Shuffling the deck"
    said: str      # the Markdown after it: links to where it is

    @property
    def key(self) -> str:
        """Sorted by its words, not its article or a number: "A tile that fits nowhere"
        under T, "Step 1: gathering" under S."""
        return _ARTICLE.sub("", self.heading).lower()


def page_lines(rs: m.Ruleset, ix: Index) -> list[str]:
    # One line per name: a card printed twice, a rule and the card it governs.
    merged: dict[str, Entry] = {}
    for e in _entries(rs, ix):
        same = merged.get(e.heading.lower())
        merged[e.heading.lower()] = e if same is None else Entry(same.heading,
                                                                 f"{same.said}; {e.said}")
    letters: dict[str, list[Entry]] = {}
    for e in sorted(merged.values(), key=lambda e: (e.key, e.heading)):
        first = e.key[:1].upper()
        letters.setdefault(first if first.isalpha() else "#", []).append(e)
    jump = " ".join(f"[{letter}](#{_anchor(letter)})" for letter in letters)
    lines = [f"# {TITLE}", "",
             "Every term, rule, card and ruling of this book, by its name.", "",
             f'<p class="a-to-z-letters" data-search-exclude markdown>{jump}</p>', ""]
    for letter, listed in letters.items():
        lines += [f"## {letter} {{ #{_anchor(letter)} }}", ""]
        lines += [f"- **{e.heading}**: {e.said}" for e in listed]
        lines.append("")
    return lines


def _anchor(letter: str) -> str:
    return "letter-" + ("other" if letter == "#" else letter.lower())


def _entries(rs: m.Ruleset, ix: Index) -> list[Entry]:
    out = []
    for t in rs.terms:
        uses = ix.term_uses_said(t.id)
        said = ix.term_link(t.id, "in the glossary") + (f"; used in {uses}" if uses else "")
        out.append(Entry(capital(t.title), said))
    for r in rs.all_rules():
        out.append(Entry(capital(r.title), ix.rule_link(r.id)))
    for cs in rs.cardsets:
        for card in cs.cards:
            cited = citation_id(cs.id, card.id)
            if cited in ix.rules:
                out.append(Entry(capital(card.title), f"{ix.rule_link(cited)} ({cs.title})"))
    for ruling in rs.rulings:
        out.append(Entry(capital(ruling.title), ix.ruling_link(ruling.id, f"ruling {ruling.number}")))
    return out
