"""References inside rule prose.

Authors write `[[pawn]]` for a glossary term, `[[pawn|pawns]]` to show
another word, `[[rule:scoring.lakes]]` for a rule, `[[ruling:first_tile]]`
and `[[example:big_lake]]`. `[[page:rulings]]` links to a page the rulebook
generates. The checker validates every target; the rulebook turns each into a
link (and records the back-link).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Literal

REF = re.compile(r"\[\[([^\[\]|]+?)(?:\|([^\[\]]+?))?\]\]")

RefKind = Literal["term", "rule", "ruling", "example", "chapter", "page"]

# Pages the rulebook generates for every ruleset; `[[page:NAME]]` links to them.
GENERATED_PAGES = {
    "rulings": "Rulings",
    "glossary": "Glossary",
    "catalogue": "Tile catalogue",
    "examples": "Worked examples",
    "formats": "Positions and records",
}


@dataclass(frozen=True)
class ProseRef:
    kind: RefKind
    target: str
    label: str | None
    start: int
    end: int


def prose_refs(text: str) -> list[ProseRef]:
    out = []
    for match in REF.finditer(text):
        raw, label = match.group(1).strip(), match.group(2)
        kind: RefKind = "term"
        target = raw
        if ":" in raw:
            prefix, target = raw.split(":", 1)
            if prefix in ("rule", "ruling", "example", "chapter", "page"):
                kind = prefix  # type: ignore[assignment]
            else:
                kind = "term"
                target = raw
        out.append(ProseRef(kind, target.strip(), label.strip() if label else None,
                            match.start(), match.end()))
    return out


def plain(text: str) -> str:
    """The prose with references replaced by their words (for search snippets, tooltips)."""
    return REF.sub(lambda m: (m.group(2) or m.group(1).split(":")[-1]).replace("_", " "), text)


_SLOT = re.compile(r"\{(\w+)\}(\s+([\w’']+))?")


def fill(title: str, said: Mapping[str, str]) -> str:
    """A title with its `{placeholders}` said: "deal {n} cards to {p}", n = "3" → "deal 3 cards
    to p". A value that ends in the word the title says next is not followed by it again:
    n = "cards" gives "deal cards to p", not "deal cards cards"; a placeholder with nothing
    to say stays as written."""
    def one(slot: re.Match[str]) -> str:
        value = said.get(slot.group(1))
        if value is None:
            return slot.group(0)
        after, word = slot.group(2) or "", slot.group(3)
        if word and value.split()[-1:] == [word]:
            return value
        return value + after
    return _SLOT.sub(one, title)
