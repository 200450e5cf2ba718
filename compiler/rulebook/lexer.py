"""A Pygments lexer for the `.rules` language.

Why: rulebooks, READMEs and the MkDocs site quote `.rules` source, and Pygments
(which MkDocs, Sphinx and `pygmentize` all use) only colours it if a lexer is
registered. This one is installed as the `pygments.lexers` entry point `rules`
(see pyproject.toml), so a fenced block tagged ```rules just works.

The lexer is a highlighter, not a parser: Lark's contextual lexer lets a
keyword such as `at` stand as a name wherever the parser could not accept the
keyword, but here every language keyword is coloured as one. The keyword list
is written out rather than read from grammar/rules.lark at import time (the
grammar is not shipped as package data); tests/test_lexer.py checks it against
the grammar's quoted words both ways, so the two cannot drift apart. Editors colour `.rules`
files with a TextMate grammar written from these lists (`python -m compiler.lsp.textmate`;
tests/test_textmate.py fails until it is written again after a change here).

Only language words belong here; a game's vocabulary lives in its rules/ folder.
"""

from __future__ import annotations

from typing import ClassVar

from pygments.lexer import RegexLexer, bygroups, default, words
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String,
                            Whitespace)

__all__ = ["RulesLexer", "KEYWORDS", "CONSTANTS", "TYPES", "RULE_ID_KEYWORDS", "IDENT",
           "RULE_ID"]

#: Literal values of the language.
CONSTANTS: tuple[str, ...] = ("none", "true", "false")

#: Attribute types (the grammar's TYPE_NAME terminal).
TYPES: tuple[str, ...] = ("player", "bool", "int")

#: Every other word the grammar spells out, alphabetically.
KEYWORDS: tuple[str, ...] = (
    "ability", "above", "action", "actions", "add", "after", "alongside", "also", "among", "and",
    "any",
    "apply", "area", "as", "at", "attribute", "audit", "automatic", "badge", "band", "board",
    "bottom", "breach", "by",
    "card", "cards", "chapter", "chapters", "choose", "clear", "closed", "closes", "code", "condition",
    "copies", "count", "counts", "crosses", "dark", "dealing", "define", "discard", "down", "draw",
    "each", "edge", "effect", "either", "else", "end", "ends", "entering", "enters", "every",
    "example", "expect", "extends", "face", "family", "feature", "features", "fewest", "first",
    "for", "forbid", "from", "game", "give", "given", "grant", "has", "hiding", "holds", "if",
    "illegal", "illustrates", "in", "is", "kind", "laid", "lattice", "lay", "leaves", "left",
    "legal", "let", "like", "limit", "look", "mark", "match", "may", "most", "move", "must",
    "next", "no", "not", "notation", "of", "on", "one", "open", "or", "order", "page", "per", "piece",
    "place", "placed", "play", "players", "plural", "pool", "property", "question", "reason",
    "recorded", "remove", "replace", "require", "reset", "resource", "return", "returns",
    "right", "rotation", "round", "rule", "ruleset", "ruling", "same", "score", "seats", "set",
    "settles", "some", "source", "stack", "stacks", "start", "step", "subtitle", "suffix",
    "supply", "teams", "term", "text", "then", "tile", "tiles", "title", "to", "top", "trigger",
    "turn",
    "turns", "unlimited", "use", "value", "version", "vs", "waiting", "when", "where", "winner",
    "with",
    # zones (slice S4 of issue 10)
    "deal", "hidden", "ordered", "piles", "private", "public", "reveal", "rotate", "shared",
    "showing", "shuffle", "unordered", "zone",
    # examples from the set-up (slice S9 of issue 10)
    "seed", "setup",
    # choices made at once (slice S6 of issue 10)
    "once", "secret",
)

#: Keywords whose rule ids, on the same line, are labels (`rule a.b`, `settles a.b, c.d`).
RULE_ID_KEYWORDS: tuple[str, ...] = ("rule", "per", "illustrates", "settles")

#: A name, and a rule's id (names joined by dots); the TextMate grammar takes them too.
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
RULE_ID = rf"{IDENT}(?:\.{IDENT})*"


class RulesLexer(RegexLexer):
    """Highlights `.rules` source: keywords, rule ids, prose with [[references]]."""

    name = "Rules"
    aliases: ClassVar[list[str]] = ["rules"]
    filenames: ClassVar[list[str]] = ["*.rules"]
    mimetypes: ClassVar[list[str]] = ["text/x-rules"]

    tokens: ClassVar[dict[str, list]] = {
        "root": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"""', String.Doc, "prose"),
            (r'"(?:[^"\\\n]|\\.)*"', String.Double),
            # `page per rule` names no rule: `rule` there is the keyword.
            (r"\b(page)([ \t]+)(per)([ \t]+)(rule)\b",
             bygroups(Keyword, Whitespace, Keyword, Whitespace, Keyword)),
            (rf"\b({'|'.join(RULE_ID_KEYWORDS)})([ \t]+)({RULE_ID})",
             bygroups(Keyword, Whitespace, Name.Label), "more-rule-ids"),
            (words(CONSTANTS, prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (words(TYPES, prefix=r"\b", suffix=r"\b"), Keyword.Type),
            (words(KEYWORDS, prefix=r"\b", suffix=r"\b"), Keyword),
            (rf"(\.)({IDENT})", bygroups(Punctuation, Name.Attribute)),
            (rf"{IDENT}(?=\()", Name.Function),
            (IDENT, Name),
            (r"[0-9]+", Number.Integer),
            (r"==|!=|<=|>=|[<>=+\-*/]", Operator),
            (r"[{}()\[\],:.;?]", Punctuation),
        ],
        # `settles a.b, c.d`: each further id follows a comma, possibly on the next line.
        "more-rule-ids": [
            (rf"(\s*)(,)(\s*)({RULE_ID})",
             bygroups(Whitespace, Punctuation, Whitespace, Name.Label)),
            default("#pop"),
        ],
        # Triple-quoted prose: [[term]], [[rule:a.b]], [[term|shown text]] are links.
        "prose": [
            (r'"""', String.Doc, "#pop"),
            (r"\[\[[^\]\n]*\]\]", String.Interpol),
            (r'[^"\[]+', String.Doc),
            (r'["\[]', String.Doc),
        ],
    }
