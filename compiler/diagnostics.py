"""Errors that teach: a location, the source line with a caret, what was expected, a hint.

Every stage (parse, check, engine input) reports through `Diagnostic`, so a
rules author, a record writer and a judge all read the same kind of message.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel

from compiler.ir.nodes import Loc


class Diagnostic(BaseModel):
    file: str
    line: int = 0
    column: int = 0
    end_column: int = 0
    severity: Literal["error", "warning"] = "error"
    code: str
    message: str
    hint: str | None = None
    source_line: str | None = None

    def render(self) -> str:
        head = f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message} [{self.code}]"
        out = [head]
        if self.source_line is not None:
            out.append(f"    {self.source_line.rstrip()}")
            width = max(1, (self.end_column - self.column) if self.end_column > self.column else 1)
            out.append("    " + " " * max(0, self.column - 1) + "^" * width)
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)


class CompileError(Exception):
    """Raised with every diagnostic found; `str()` renders them all."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.render() for d in diagnostics))


class SourceMap:
    """The text of every file read, to quote source lines in messages."""

    def __init__(self) -> None:
        self.texts: dict[str, list[str]] = {}

    def add(self, file: str, text: str) -> None:
        self.texts[file] = text.splitlines()

    def line(self, file: str, line: int) -> str | None:
        lines = self.texts.get(file)
        if lines is None or not 1 <= line <= len(lines):
            return None
        return lines[line - 1]

    def diagnostic(self, loc: Loc | None, code: str, message: str, *, hint: str | None = None,
                   severity: Literal["error", "warning"] = "error",
                   fallback_file: str = "<ruleset>", focus: str | None = None) -> Diagnostic:
        """A diagnostic at `loc`; with `focus`, the caret narrows to that word inside it."""
        if loc is None:
            return Diagnostic(file=fallback_file, code=code, message=message, hint=hint,
                              severity=severity)
        line, column = loc.line, loc.column
        end = loc.end_column if loc.end_line == loc.line else 0
        if focus:
            found = self._find(loc, focus)
            if found:
                line, column = found
                end = column + len(focus)
        return Diagnostic(file=loc.file, line=line, column=column, end_column=end,
                          severity=severity, code=code, message=message, hint=hint,
                          source_line=self.line(loc.file, line))

    def _find(self, loc: Loc, word: str) -> tuple[int, int] | None:
        last = max(loc.end_line, loc.line)
        for number in range(loc.line, last + 1):
            text = self.line(loc.file, number) or ""
            start = loc.column - 1 if number == loc.line else 0
            at = text.find(word, start)
            while at >= 0:
                before = text[at - 1] if at > 0 else " "
                after = text[at + len(word)] if at + len(word) < len(text) else " "
                if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
                    return number, at + 1
                at = text.find(word, at + 1)
        return None


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A "did you mean" hint for a mistyped name, or None if nothing is close."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=3, cutoff=0.6)
    if not close:
        return None
    if len(close) == 1:
        return f"did you mean `{close[0]}`?"
    return "did you mean " + ", ".join(f"`{c}`" for c in close[:-1]) + f" or `{close[-1]}`?"
