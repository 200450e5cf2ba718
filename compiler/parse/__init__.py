"""Text -> IR: Lark parses, `ToIR` builds nodes, `errors` explains mistakes."""

from __future__ import annotations

from typing import Any

from lark.exceptions import UnexpectedInput, VisitError

from compiler.diagnostics import CompileError, Diagnostic
from compiler.parse.errors import syntax_diagnostic
from compiler.parse.grammar import rules_parser
from compiler.parse.transform import ToIR


def parse_rules(text: str, file: str = "<text>") -> list[Any]:
    """Parse one `.rules` file into its top-level IR items.

    Raises `CompileError` with one diagnostic if the text is not well formed.
    """
    parser = rules_parser()
    try:
        tree = parser.parse(text)
    except UnexpectedInput as error:
        raise CompileError([syntax_diagnostic(parser, error, text, file)]) from None
    try:
        return ToIR(file).transform(tree)
    except VisitError as error:  # a value the grammar accepts but the IR cannot hold
        meta = error.obj.meta if hasattr(error.obj, "meta") else None
        line = getattr(meta, "line", 0)
        lines = text.splitlines()
        raise CompileError([Diagnostic(
            file=file, line=line, column=getattr(meta, "column", 0), code="syntax",
            message=f"cannot read this {error.rule}: {error.orig_exc}",
            source_line=lines[line - 1] if 0 < line <= len(lines) else None)]) from None
