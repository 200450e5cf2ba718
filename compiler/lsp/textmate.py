"""The TextMate grammar for `.rules` files (scope `source.rules`), from the Pygments lexer's data.

VS Code, Sublime Text, TextMate and many others colour a language from a
TextMate grammar; the rulebook's own pages colour it with the Pygments lexer
(compiler/rulebook/lexer.py). Both take the language's words and its id
patterns from that lexer, so the two agree on what a keyword is. The grammar
is written, not built on install: editors read a file. Write it again after
changing the lexer's words:

    python -m compiler.lsp.textmate          # editors/vscode/syntaxes/rules.tmLanguage.json

tests/test_textmate.py fails while the committed file is not what this writes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from compiler.load import REPO_ROOT
from compiler.rulebook.lexer import CONSTANTS, IDENT, KEYWORDS, RULE_ID, RULE_ID_KEYWORDS, TYPES

FILE = REPO_ROOT / "editors" / "vscode" / "syntaxes" / "rules.tmLanguage.json"


def _words(words: tuple[str, ...]) -> str:
    return r"\b(?:" + "|".join(sorted(words, key=lambda w: (-len(w), w))) + r")\b"


def grammar() -> dict[str, Any]:
    """The grammar, in the order the lexer tries its patterns."""
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/"
                   "tmlanguage.json",
        "name": "Rules",
        "scopeName": "source.rules",
        "fileTypes": ["rules"],
        "comment": "Written by `python -m compiler.lsp.textmate` from compiler/rulebook/lexer.py;"
                   " do not edit.",
        "patterns": [
            {"name": "comment.line.number-sign.rules", "match": "#.*$"},
            {"name": "string.quoted.triple.rules", "begin": '"""', "end": '"""',
             "patterns": [{"name": "markup.underline.link.rules",
                           "match": r"\[\[[^\]\n]*\]\]"}]},
            {"name": "string.quoted.double.rules", "match": r'"(?:[^"\\\n]|\\.)*"'},
            # `page per rule` names no rule: `rule` there is the keyword.
            {"match": r"\b(page)[ \t]+(per)[ \t]+(rule)\b",
             "captures": {str(i): {"name": "keyword.other.rules"} for i in (1, 2, 3)}},
            # `rule a.b`, `settles a.b, c.d`: the ids after these words are labels.
            {"begin": rf"\b({'|'.join(RULE_ID_KEYWORDS)})[ \t]+(?={RULE_ID})",
             "beginCaptures": {"1": {"name": "keyword.other.rules"}},
             "end": r"(?<=[A-Za-z0-9_])(?![ \t]*,)",
             "patterns": [{"name": "entity.name.label.rules", "match": RULE_ID},
                          {"name": "punctuation.separator.comma.rules", "match": ","}]},
            {"name": "constant.language.rules", "match": _words(CONSTANTS)},
            {"name": "storage.type.rules", "match": _words(TYPES)},
            {"name": "keyword.other.rules", "match": _words(KEYWORDS)},
            {"match": rf"(\.)({IDENT})",
             "captures": {"1": {"name": "punctuation.accessor.rules"},
                          "2": {"name": "variable.other.member.rules"}}},
            {"name": "entity.name.function.rules", "match": rf"{IDENT}(?=\()"},
            {"name": "variable.other.rules", "match": IDENT},
            {"name": "constant.numeric.integer.rules", "match": "[0-9]+"},
            {"name": "keyword.operator.rules", "match": r"==|!=|<=|>=|[<>=+\-*/]"},
        ],
    }


def text() -> str:
    """The grammar as the committed file holds it."""
    return json.dumps(grammar(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """Write the grammar to the file named, or to FILE."""
    import argparse
    parser = argparse.ArgumentParser(prog="python -m compiler.lsp.textmate",
                                     description="Write the TextMate grammar of .rules files.")
    parser.add_argument("target", nargs="?", type=Path, default=FILE,
                        help=f"where to write it (default: {FILE})")
    target = parser.parse_args(argv).target
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
