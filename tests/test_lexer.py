"""The Pygments lexer for `.rules` source.

It is found by name, it colours every ruleset in rules/ without an error
token, it knows exactly the words the grammar spells out, and it picks out
rule ids and prose references.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation, String,
                            _TokenType as TokenType)

from compiler.load import REPO_ROOT, RULES_DIR
from compiler.parse.grammar import GRAMMAR_DIR
from compiler.rulebook.lexer import CONSTANTS, KEYWORDS, TYPES, RulesLexer

RULES_FILES = sorted(RULES_DIR.rglob("*.rules"))


def tokens(source: str) -> list[tuple[TokenType, str]]:
    """The lexer's tokens for `source`, whitespace left out."""
    return [(t, v) for t, v in RulesLexer().get_tokens(source) if v.strip()]


def grammar_words() -> set[str]:
    """Every alphabetic quoted literal in grammar/rules.lark, comments ignored."""
    text = (GRAMMAR_DIR / "rules.lark").read_text(encoding="utf-8")
    code = "\n".join(line.split("//", 1)[0] for line in text.splitlines())
    return set(re.findall(r'"([A-Za-z]+)"', code))


# ------------------------------------------------------------- registration ---

def test_the_lexer_is_registered_with_pygments_as_rules() -> None:
    """The `pygments.lexers` entry point makes `rules` and `*.rules` resolve to it."""
    assert isinstance(get_lexer_by_name("rules"), RulesLexer)
    assert isinstance(get_lexer_for_filename("ruleset.rules"), RulesLexer)


# ---------------------------------------------------------- real rulesets ---

def test_there_are_rules_files_to_lex() -> None:
    assert RULES_FILES


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_every_rules_file_lexes_without_error_tokens(path: Path) -> None:
    """Nothing in a real ruleset falls through the lexer's patterns."""
    source = path.read_text(encoding="utf-8")
    errors = [v for t, v in RulesLexer().get_tokens(source) if t in Error]
    assert not errors, f"unlexed text in {path.name}: {errors[:10]}"


# ------------------------------------------------------ keywords vs grammar ---

def test_the_grammar_words_are_found() -> None:
    """Guards the extraction itself: a broken regex would make the next tests vacuous."""
    assert {"ruleset", "chapter", "rule", "expect", "none", "most", "int"} <= grammar_words()


@pytest.mark.parametrize("word", sorted(grammar_words()))
def test_every_grammar_word_is_a_keyword(word: str) -> None:
    """The lexer cannot fall behind the grammar: each literal it spells is a keyword."""
    [(token, value)] = tokens(word)
    assert value == word and token in Keyword, f"{word!r} lexes as {token}"


def test_the_lexer_has_no_keyword_the_grammar_lacks() -> None:
    """Nor run ahead of it: a word dropped from the grammar is dropped here too."""
    assert set(KEYWORDS) | set(CONSTANTS) | set(TYPES) == grammar_words()


# ------------------------------------------------------------------ snippets ---

def test_a_rule_id_is_a_label_and_a_prose_reference_is_interpolated() -> None:
    toks = tokens('rule actions.teleport "x" { text """See [[rule:a.b]]""" }')
    assert toks[0] == (Keyword, "rule")
    assert toks[1] == (Name.Label, "actions.teleport")
    assert toks[2] == (String.Double, '"x"')
    assert (Keyword, "text") in toks
    assert (String.Interpol, "[[rule:a.b]]") in toks
    assert (String.Doc, "See ") in toks


@pytest.mark.parametrize("keyword", ["per", "illustrates", "settles"])
def test_rule_ids_after_citing_keywords_are_labels(keyword: str) -> None:
    """A comma-separated list of ids, even one that wraps, is all labels."""
    toks = tokens(f"{keyword} a.b,\n    c")
    assert toks == [(Keyword, keyword), (Name.Label, "a.b"), (Punctuation, ","), (Name.Label, "c")]


def test_a_rule_keyword_without_an_id_does_not_claim_the_next_line() -> None:
    """`remove every rule` ends its line; the next line's words are not rule ids."""
    toks = tokens("remove every rule\nrule a.b \"T\" {}")
    assert toks[:4] == [(Keyword, "remove"), (Keyword, "every"), (Keyword, "rule"), (Keyword, "rule")]
    assert toks[4] == (Name.Label, "a.b")


def test_a_colour_is_a_string_and_a_hash_outside_strings_is_a_comment() -> None:
    toks = tokens('look x: fill "#ff4d4d"  # drawn in red')
    assert (String.Double, '"#ff4d4d"') in toks
    assert toks[-1] == (Comment.Single, "# drawn in red")


def test_a_site_is_numbers_punctuation_and_a_name() -> None:
    toks = tokens("-1,0:core")
    assert toks == [(Operator, "-"), (Number.Integer, "1"), (Punctuation, ","),
                    (Number.Integer, "0"), (Punctuation, ":"), (Name, "core")]


def test_expressions_have_operators_constants_and_attributes() -> None:
    """After a dot a word is an attribute even if it is also a keyword (`s.tile`)."""
    toks = tokens("require s.tile.count >= 2 and x != none")
    assert (Operator, ">=") in toks and (Operator, "!=") in toks
    assert (Keyword.Constant, "none") in toks
    assert (Name.Attribute, "tile") in toks
    assert all(t is not Error for t, _ in toks)
