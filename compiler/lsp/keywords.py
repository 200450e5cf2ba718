"""The words of the rules language, read from its grammar (grammar/rules.lark).

Completion offers exactly what the parser accepts: a word added to the grammar
is offered without a list to keep in step.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lark.lexer import PatternRE, PatternStr

from compiler.parse.grammar import rules_parser

# A terminal that is a choice of words, as Lark compiles `"player" | "bool" | "int"`.
_WORD_CHOICE = re.compile(r"\(\?:([A-Za-z]+(?:\|[A-Za-z]+)*)\)")


@lru_cache(maxsize=None)
def keywords() -> tuple[str, ...]:
    """Every word the grammar spells out, alphabetically."""
    words: set[str] = set()
    for terminal in rules_parser().terminals:
        pattern = terminal.pattern
        if isinstance(pattern, PatternStr) and pattern.value.isalpha():
            words.add(pattern.value)
        elif isinstance(pattern, PatternRE):
            choice = _WORD_CHOICE.fullmatch(pattern.value)
            if choice:
                words.update(choice.group(1).split("|"))
    return tuple(sorted(words))


@lru_cache(maxsize=None)
def type_names() -> tuple[str, ...]:
    """The types an attribute can have (the grammar's TYPE_NAME)."""
    for terminal in rules_parser().terminals:
        if terminal.name == "TYPE_NAME":
            choice = _WORD_CHOICE.fullmatch(terminal.pattern.value)
            if choice:
                return tuple(choice.group(1).split("|"))
    return ()
