"""Every id a compiled ruleset declares: its kind, where it is written, what it says.

Hover, go to definition and completion all read this one table. It walks the
compiled `Ruleset`, so a variant's ids include its bases' (each at the file and
line that declares it) and what a variant replaced or removed is gone. The
words come from the compiler: a rule's prose, the English reading the rulebook
prints for a declaration, the rulebook's own address for its permalink.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from compiler import links as urls
from compiler.ir import cards as c
from compiler.ir import model as m
from compiler.ir.nodes import Loc
from compiler.ir.prose import plain, prose_refs

# What a declaration that is not a `decl` calls itself in the language.
_KINDS: dict[type[BaseModel], str] = {
    m.Chapter: "chapter", m.Rule: "rule", m.Term: "term", m.Ruling: "ruling",
    m.Example: "example", m.TileSet: "tile set", m.TileDef: "tile", c.CardSet: "card set",
    c.CardDef: "card", m.AttributeDecl: "attribute", c.AbilityDecl: "ability",
    c.PropertyDecl: "property",
}

# A link of the rulebook's pages to another of its pages: `](page.md#anchor`.
_PAGE_LINK = re.compile(r"\]\(([^)\s]+\.md(?:#[^)\s]*)?)")

# An id as written: a name, or names joined by dots (`setup.board`).
ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


@dataclass(frozen=True)
class Entry:
    """One declared id."""

    id: str
    kind: str
    loc: Loc
    node: Any
    number: str = ""
    title: str = ""
    link: str | None = None


class Index:
    """The ids of one compiled ruleset, and what an editor shows of each."""

    def __init__(self, ruleset: m.Ruleset) -> None:
        from compiler.rulebook.links import Index as Book
        self.ruleset = ruleset
        self.book = Book.of(ruleset)
        self.entries: dict[str, list[Entry]] = {}
        self._walk(ruleset, None)

    def _walk(self, value: Any, cardset: str | None) -> None:
        if isinstance(value, (list, tuple)):
            for item in value:
                self._walk(item, cardset)
            return
        if not isinstance(value, BaseModel) or isinstance(value, (Loc, m.Change, m.Edit)):
            return
        entry = self._entry(value, cardset)
        if entry is not None:
            self.entries.setdefault(entry.id, []).append(entry)
        inner = value.id if isinstance(value, c.CardSet) else cardset
        for name in type(value).model_fields:
            self._walk(getattr(value, name), inner)

    def _entry(self, node: BaseModel, cardset: str | None) -> Entry | None:
        kind = _KINDS.get(type(node)) or getattr(node, "decl", None)
        ident = getattr(node, "id", None) or getattr(node, "name", None)
        loc = getattr(node, "loc", None)
        if not isinstance(kind, str) or not isinstance(ident, str) or loc is None:
            return None
        if isinstance(node, c.CardDef) and cardset is not None:
            ident = c.citation_id(cardset, ident)  # a card is cited like a rule
        return Entry(ident, kind.replace("_", " "), loc, node, getattr(node, "number", "") or "",
                     getattr(node, "title", "") or "", self._link(node, ident, kind))

    # ------------------------------------------------------------- addresses

    def _link(self, node: BaseModel, ident: str, kind: str) -> str | None:
        """The node's permalink in the rulebook; a declaration's is its rule's."""
        book = self.book
        if kind == "rule" or (kind == "card" and ident in book.card_pages):
            where = urls.card_anchor(ident) if kind == "card" else urls.anchor(ident)
            return self._url(f"{book.page_of_rule(ident)}#{where}")
        if kind == "chapter":
            return self._url(f"{ident.replace('_', '-')}.md")
        if kind == "term":
            return self._url(f"{book.page_of('glossary')}#{book.term_anchor(ident)}")
        if kind == "ruling":
            return self._url(f"{book.page_of('rulings')}#{book.ruling_anchor(ident)}")
        if kind == "example":
            return self._url(book.example_target(ident))
        rule = getattr(node, "rule", None)
        if isinstance(rule, str) and rule in book.page_of_rules:
            return self._url(f"{book.page_of_rule(rule)}#{urls.anchor(rule)}")
        return None

    def _prose(self, text: str) -> str:
        """Prose as the rulebook prints it, its references linked to the published book."""
        try:
            linked = self.book.prose(text)
        except KeyError:  # a reference the ruleset does not declare (checked elsewhere)
            return plain(text)
        return _PAGE_LINK.sub(lambda found: f"]({self._url(found.group(1))}", linked)

    def _url(self, target: str) -> str:
        """`page.md#anchor` (as the rulebook's pages link) as the published address."""
        page, _, where = target.partition("#")
        path = urls.page(self.ruleset.id, page.removesuffix(".md"))
        return urls.site_url() + path + (f"#{where}" if where else "")

    # ------------------------------------------------------------- look-ups

    def at(self, line_text: str, character: int) -> list[Entry]:
        """The entries of the id under the cursor (0-based `character` in `line_text`).

        In prose, a reference names what it refers to: `[[gem]]` the term,
        `[[rule:a.b]]` the rule (or the card cited like one). Elsewhere `a.b.c` is tried
        whole, then shorter from the right up to the part under the cursor, then that
        part alone: `me.score` finds the attribute `score`.
        """
        for ref in prose_refs(line_text):
            if ref.start <= character < ref.end:
                found = self.entries.get(ref.target, [])
                kinds = {"rule": ("rule", "card")}.get(ref.kind, (ref.kind,))
                return [e for e in found if e.kind in kinds] or found
        for match in ID.finditer(line_text):
            if not match.start() <= character <= match.end():
                continue
            parts = match.group().split(".")
            offset, upto = match.start(), 0
            for i, part in enumerate(parts):
                offset += len(part) + 1
                if character < offset:
                    upto = i
                    break
            else:
                upto = len(parts) - 1
            for end in range(len(parts), upto, -1):
                whole = self.entries.get(".".join(parts[:end]))
                if whole:
                    return whole
            return self.entries.get(parts[upto], [])
        return []

    def references(self) -> list[tuple[str, Entry]]:
        """What prose may link to, as written inside `[[…]]`: a term by its id, a rule (or a
        card, cited like one), ruling, example or chapter as `kind:id`."""
        out: list[tuple[str, Entry]] = []
        for ident, entries in sorted(self.entries.items()):
            for e in entries:
                if e.kind == "term":
                    out.append((ident, e))
                elif e.kind in ("rule", "card", "ruling", "example", "chapter"):
                    out.append((f"{'rule' if e.kind == 'card' else e.kind}:{ident}", e))
        return out

    def hover(self, entries: list[Entry]) -> str:
        """Markdown for `entries`: kind, number and title, the text, the permalink."""
        return "\n\n---\n\n".join(self._describe(e) for e in entries)

    def _describe(self, e: Entry) -> str:
        # Rules, chapters and cards are cited by section number; rulings and examples by
        # their own (`TD-R5`).
        number = ("§" if e.kind in ("rule", "chapter", "card") else "") + e.number
        head = f"**{e.kind}** `{e.id}`" + (f" {number}" if e.number else "")
        if e.title:
            head += f" — {plain(e.title)}"
        out = [head]
        text = self._text(e)
        if text:
            out.append(text)
        if e.link:
            out.append(f"[{e.link}]({e.link})")
        return "\n\n".join(out)

    def _text(self, e: Entry) -> str:
        """The rulebook's words: its prose, or the English reading of a declaration."""
        node = e.node
        if isinstance(node, m.Ruling):
            return "\n".join(self._prose(line) for line in self.book.ruling_lines(node)).strip()
        prose = getattr(node, "text", "")
        if isinstance(prose, str) and prose.strip():
            return self._prose(prose.strip())
        if isinstance(node, m.Decl):
            from compiler.ir.english import declaration_readings
            try:
                readings = declaration_readings(self.ruleset, [node])
            except Exception:  # noqa: BLE001  a reading is extra: a hover still shows the rest
                return ""
            return "\n".join(f"- {text}" for _, text in readings)
        return ""
