"""What differs between two compiled rulesets, by id.

Works on any two rulesets, related or not: rules, tiles, cards, examples, terms and
rulings are matched by id and compared by content (ignoring where they were
written and how they are numbered). `rulebook diff` prints it; a variant's
"What changes" page shows the same facts from the variant's own record.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from compiler.ir import model as m
from compiler.ir.english import declaration_readings

IGNORED = {"loc", "number", "type", "written"}


@dataclass
class Difference:
    kind: str            # rule, tile, card, example, term, ruling, chapter
    id: str
    op: str              # added, removed, changed
    title: str = ""
    text_diff: list[str] = field(default_factory=list)
    declarations_changed: bool = False
    # How the engine's reading changed, line by line in English (a unified diff).
    reading_diff: list[str] = field(default_factory=list)


def _content(node: Any) -> Any:
    """A node's content without locations, numbers or inferred types."""
    if isinstance(node, list):
        return [_content(x) for x in node]
    if isinstance(node, tuple):
        return tuple(_content(x) for x in node)
    if isinstance(node, dict):
        return {k: _content(v) for k, v in node.items() if k not in IGNORED}
    if hasattr(node, "model_dump"):
        return _content(node.model_dump())
    return node


def _table(rs: m.Ruleset, kind: str) -> dict[str, Any]:
    if kind == "rule":
        return rs.rule_index()
    if kind == "tile":
        return {t.id: t for t in rs.tiles()}
    if kind == "card":
        return {c.id: c for c in rs.cards()}
    if kind == "chapter":
        return {c.id: c for c in rs.chapters}
    return {x.id: x for x in {"example": rs.examples, "term": rs.terms,
                              "ruling": rs.rulings}[kind]}


def diff(a: m.Ruleset, b: m.Ruleset) -> list[Difference]:
    """Everything `b` adds, removes or changes relative to `a`."""
    out: list[Difference] = []
    for kind in ("chapter", "rule", "tile", "card", "term", "ruling", "example"):
        old, new = _table(a, kind), _table(b, kind)
        for ident, item in new.items():
            if ident not in old:
                out.append(Difference(kind, ident, "added", getattr(item, "title", "")))
        for ident, item in old.items():
            if ident not in new:
                out.append(Difference(kind, ident, "removed", getattr(item, "title", "")))
        for ident in [i for i in new if i in old]:
            x, y = old[ident], new[ident]
            if kind in ("rule", "chapter"):
                # A rule's own content: its sub-rules are compared on their own.
                cx = _content(x.model_copy(update={"rules": []}))
                cy = _content(y.model_copy(update={"rules": []}))
            else:
                cx, cy = _content(x), _content(y)
            if cx == cy:
                continue
            text_x, text_y = getattr(x, "text", ""), getattr(y, "text", "")
            lines = list(difflib.unified_diff(
                text_x.strip().splitlines(), text_y.strip().splitlines(),
                fromfile=f"{a.id}", tofile=f"{b.id}", lineterm="", n=1))
            decls = kind in ("rule", "chapter") and \
                _content(getattr(x, "decls", [])) != _content(getattr(y, "decls", []))
            read = list(difflib.unified_diff(
                _reading(a, x), _reading(b, y), fromfile=a.id, tofile=b.id, lineterm="",
                n=1)) if decls else []
            out.append(Difference(kind, ident, "changed", getattr(y, "title", ""), lines, decls,
                                  read))
    return out


def _reading(rs: m.Ruleset, item: Any) -> list[str]:
    """A rule's or chapter's own declarations in English, one part a line."""
    return [f"{label.split(' ', 1)[1]}: {text}"
            for label, text in declaration_readings(rs, getattr(item, "decls", []))]
