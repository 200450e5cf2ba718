"""The TextMate grammar editors colour `.rules` files with (editors/vscode/syntaxes/).

It is written from the Pygments lexer's words by `python -m compiler.lsp.textmate`;
the committed file must be what that writes, and it must colour every word of the
language the way the grammar spells it.
"""

from __future__ import annotations

import json
import re

from compiler.lsp.keywords import keywords
from compiler.lsp.textmate import FILE, grammar, text


def pattern(scope: str) -> re.Pattern[str]:
    [found] = [p["match"] for p in grammar()["patterns"] if p.get("name") == scope]
    return re.compile(found)


def test_the_committed_grammar_is_the_one_the_lexer_writes() -> None:
    assert FILE.read_text(encoding="utf-8") == text(), (
        "editors/vscode/syntaxes/rules.tmLanguage.json is stale: run "
        "`python -m compiler.lsp.textmate`")


def test_the_grammar_is_the_rules_language_scope() -> None:
    written = json.loads(FILE.read_text(encoding="utf-8"))
    assert written["scopeName"] == "source.rules"
    assert written["fileTypes"] == ["rules"]


def test_every_word_of_the_language_is_coloured_as_a_keyword_constant_or_type() -> None:
    """The words are those the parser accepts (grammar/rules.lark), each matched whole."""
    coloured = [pattern(s) for s in ("keyword.other.rules", "constant.language.rules",
                                     "storage.type.rules")]
    missing = [w for w in keywords() if not any(p.fullmatch(w) for p in coloured)]
    assert not missing
    assert pattern("keyword.other.rules").fullmatch("forbid")
    assert not pattern("keyword.other.rules").search("forbidden")  # a whole word only
    assert pattern("storage.type.rules").fullmatch("bool")
    assert pattern("constant.language.rules").fullmatch("none")


def test_a_rule_id_after_rule_is_a_label() -> None:
    """`replace rule actions.research`: the id is a label, as the rulebook's pages colour it."""
    [labels] = [p for p in grammar()["patterns"] if "begin" in p and "rule" in p["begin"]
                and "patterns" in p]
    opening = re.compile(labels["begin"]).search('replace rule actions.research "Research" {')
    assert opening is not None and opening.group(1) == "rule"
    [label] = [p["match"] for p in labels["patterns"] if p["name"] == "entity.name.label.rules"]
    assert re.compile(label).match("actions.research \"Research\"").group() == "actions.research"


def test_the_vs_code_extension_contributes_the_language_and_this_grammar() -> None:
    extension = FILE.parents[1]
    manifest = json.loads((extension / "package.json").read_text(encoding="utf-8"))
    [language] = manifest["contributes"]["languages"]
    assert language["id"] == "rules" and language["extensions"] == [".rules"]
    [written] = manifest["contributes"]["grammars"]
    assert (written["language"], written["scopeName"]) == ("rules", "source.rules")
    assert (extension / written["path"]).resolve() == FILE.resolve()
    assert manifest["contributes"]["configuration"]["properties"]["rulebook.command"][
        "default"] == ["rulebook", "lsp"]
