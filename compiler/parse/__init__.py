"""Text -> IR: Lark parses, `ToIR` builds nodes, `errors` explains mistakes."""

from __future__ import annotations

import pickle
import re
import threading
from collections import OrderedDict
from typing import Any

from lark import Token
from lark.exceptions import UnexpectedInput, UnexpectedToken, VisitError
from pydantic import BaseModel, ValidationError

from compiler.diagnostics import CompileError, Diagnostic, shown, source_lines
from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.parse.errors import syntax_diagnostic
from compiler.parse.grammar import rules_parser
from compiler.parse.transform import SourceProblem, ToIR

# How deeply expressions and statements may sit inside one another. The real
# rules nest about 15 deep; every later stage (checker, engine, English
# reading, formulas) walks the nodes recursively, so a bound here keeps them
# all within Python's stack.
MAX_NESTING = 64


def parse_rules(text: str, file: str = "<text>") -> list[Any]:
    """Parse one `.rules` file into its top-level IR items.

    Raises `CompileError` with one diagnostic if the text is not well formed.

    A file read again with the same text is not parsed again: a variant's base is read
    for every variant, and a process (the build, a test session) compiles a ruleset many
    times. Parsing is most of compiling, and the items kept, pickled, read back in about an
    eighth of the time (a deep copy took a fifth), so they are kept from a file's second
    reading on (a command that compiles one ruleset once pays nothing for it). Every caller
    gets items of its own, so what one changes (a variant edits its base) no other sees.
    """
    key = (file, text)
    with _TABLES:
        kept = _KEPT.get(key)
        if kept is not None:
            _KEPT.move_to_end(key)
    if kept is not None:  # (read outside the lock: what is kept is bytes, never changed)
        return pickle.loads(kept)
    items = _parsed(text, file)
    with _TABLES:
        again = _READ.pop(key, False)
        if not again:  # the first reading: remembered, not kept
            _remember(_READ, key, True)
    if again:
        pickled = pickle.dumps(items, protocol=pickle.HIGHEST_PROTOCOL)
        with _TABLES:
            _remember(_KEPT, key, pickled)
    return items


# The files read once (by file name and text), and the items of those read again, most
# recently used last: a bounded number of each, the oldest forgotten (an editor checks every
# version of a file; a file's items, pickled, weigh up to about 300 KB, and the
# repository's rulesets hold 62 files, 2.4 MB in all).
_READ: OrderedDict[tuple[str, str], bool] = OrderedDict()
_KEPT: OrderedDict[tuple[str, str], bytes] = OrderedDict()
KEEP = 128
# The tables are read and written under this lock: the judge's app compiles in a thread
# of its own, and the language server checks in one.
_TABLES = threading.Lock()


def _remember(table: OrderedDict[tuple[str, str], Any], key: tuple[str, str], value: Any
              ) -> None:
    table[key] = value
    if len(table) > KEEP:
        table.popitem(last=False)


def forget_parsed() -> None:
    """Parse every file afresh from now on, as a new process would (`rulebook bench` times
    a ruleset's whole compile, whatever was compiled before it in the same process)."""
    with _TABLES:
        _READ.clear()
        _KEPT.clear()


def _parsed(text: str, file: str) -> list[Any]:
    """`parse_rules` without what it keeps."""
    parser = rules_parser()
    try:
        tree = parser.parse(text, on_error=_keyword_as_name)
    except UnexpectedInput as error:
        raise CompileError([syntax_diagnostic(parser, error, text, file)]) from None
    try:
        items = ToIR(file).transform(tree)
    except VisitError as error:  # a value the grammar accepts but the IR cannot hold
        raise CompileError([_visit_diagnostic(error, text, file)]) from None
    deep = too_deep(items)
    if deep is not None:
        loc = deep.loc
        lines = source_lines(text)
        line = loc.line if loc else 0
        raise CompileError([Diagnostic(
            file=file, line=line, column=loc.column if loc else 0, code="too-deep",
            message=f"nested too deeply: expressions and statements may sit at most "
                    f"{MAX_NESTING} deep inside one another",
            hint="name a part with `define` or `let`, and use the name",
            source_line=lines[line - 1] if 0 < line <= len(lines) else None)])
    return items


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _keyword_as_name(error: UnexpectedInput) -> bool:
    """Read a keyword as a name where the parser can take a name but not the keyword.

    The contextual lexer reserves a keyword only where the parser could accept it,
    but LALR shares states: after a value or a block, the lexer may still take
    `effect` for the keyword that starts a declaration, where only a name (a card's
    ability `effect(t) { … }`) can follow. Then the word is fed again as a name;
    anything else stays the error it was.
    """
    if not isinstance(error, UnexpectedToken):
        return False
    token = error.token
    if token.type == "NAME" or "NAME" not in error.accepts or not _NAME.fullmatch(str(token)):
        return False
    try:
        error.interactive_parser.feed_token(Token.new_borrow_pos("NAME", str(token), token))
    except UnexpectedInput:
        return False
    return True


def _visit_diagnostic(error: VisitError, text: str, file: str) -> Diagnostic:
    obj = error.obj
    if isinstance(obj, Token):
        line, column, end = obj.line or 0, obj.column or 0, (obj.column or 0) + len(obj)
        what = "number" if obj.type == "INT" else f"`{shown(str(obj))}`"
    else:
        meta = getattr(obj, "meta", None)
        line, column = getattr(meta, "line", 0), getattr(meta, "column", 0)
        end = getattr(meta, "end_column", 0) if getattr(meta, "end_line", 0) == line else 0
        what = str(error.rule).replace("_", " ")
    lines = source_lines(text)
    cause = error.orig_exc
    if isinstance(cause, SourceProblem):
        message, hint = cause.message, cause.hint
    elif isinstance(cause, ValidationError):  # the words of the model are not the author's
        message, hint = f"this {what} cannot stand here", None
    else:
        message, hint = f"cannot read this {what}: {shown(str(cause), 200)}", None
    return Diagnostic(file=file, line=line, column=column, end_column=end, code="syntax",
                      message=message, hint=hint,
                      source_line=lines[line - 1] if 0 < line <= len(lines) else None)


def too_deep(items: list[Any]) -> n.Node | None:
    """The first node nested more than MAX_NESTING deep in `items`, if any (no recursion)."""
    stack: list[tuple[Any, int]] = [(item, 0) for item in items
                                    if not isinstance(item, m.TileSet)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, n.Node):
            depth += 1
            if depth > MAX_NESTING:
                return value
        if isinstance(value, BaseModel):
            if isinstance(value, n.Loc):
                continue
            stack.extend((getattr(value, name), depth) for name in type(value).model_fields)
        elif isinstance(value, (list, tuple)):
            stack.extend((x, depth) for x in value)
    return None
