"""Errors that teach: a location, the source line with a caret, what was expected, a hint.

Every stage (parse, check, engine input) reports through `Diagnostic`, so a
rules author, a record writer and a judge all read the same kind of message.
"""

from __future__ import annotations

import difflib
import functools
import unicodedata
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel

from compiler.ir.nodes import Loc

# A quoted source line is cut to this many characters around the caret, and a
# message or hint to MAX_TEXT: a file of one 60,000-character line with 10,000
# mistakes on it still gets a message a reader can read (and memory can hold).
QUOTE_WIDTH = 160
MAX_TEXT = 600
# At most this many diagnostics are shown for one file, and in all; a summary
# says how many more were found. The first ones are the ones to fix first.
MAX_PER_FILE = 50
MAX_TOTAL = 200


def source_lines(text: str) -> list[str]:
    """The lines of a source as the parsers count them.

    Only "\n" ends a line (a "\r" before it is dropped). Python's
    `splitlines` also breaks at U+2028, form feeds and other separators,
    which the parsers do not count, so a quoted line would be the wrong one.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def decode_source(data: bytes, file: str) -> str:
    """The text of a file that must be UTF-8, or a `CompileError` naming the first bad byte.

    A byte-order mark at the start is dropped (some editors write one).
    """
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    try:
        return data[start:].decode("utf-8")
    except UnicodeDecodeError as e:
        at, upto = start + e.start, start + e.end  # offsets in the file, mark included
        good = data[start:at].decode("utf-8")
        line = good.count("\n") + 1
        column = len(good) - (good.rfind("\n") + 1) + 1
        shown_bytes = data[at:min(upto, at + 4)]
        bad = ("bytes " if len(shown_bytes) > 1 else "byte ") + " ".join(
            f"0x{b:02x}" for b in shown_bytes)
        begin = data.rfind(b"\n", 0, at) + 1
        finish = data.find(b"\n", at)
        quoted = data[max(begin, start):finish if finish >= 0 else len(data)]
        raise CompileError([Diagnostic(
            file=file, line=line, column=column, code="encoding",
            message=f"this file is not UTF-8 text: {bad} at offset {at:,} "
                    f"(line {line}, column {column}) is not valid UTF-8",
            hint="save the file as UTF-8 (most editors offer it under \"Save as\" or "
                 "\"Encoding\")", source_line=quoted.decode("utf-8", "replace"))]) from None


def shown(text: str, limit: int = 40) -> str:
    """A piece of source quoted inside a message: invisible characters made visible, cut short."""
    if len(text) > limit:
        text = text[:limit] + "…"
    return "".join(_visible(ch) for ch in text)


def _visible(ch: str) -> str:
    if ch == " " or unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp", "Zs", "Cs", "Co"):
        return ch
    return f"U+{ord(ch):04X}"


def _printable(line: str) -> str:
    """A source line safe to print with a caret under it: one cell per character.

    Tabs become spaces and control characters and line or paragraph separators
    become `�`, so the terminal neither breaks the line nor moves the caret.
    """
    out = []
    for ch in line:
        if ch == "\t":
            out.append(" ")
        elif unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs"):
            out.append("\ufffd")
        else:
            out.append(ch)
    return "".join(out)


def _cut(text: str | None) -> str | None:
    if text is None or len(text) <= MAX_TEXT:
        return text
    return text[:MAX_TEXT] + f"… ({len(text) - MAX_TEXT} more characters)"


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
    # Where the quoted `source_line` starts in the real line (0 unless it was cut).
    quote_start: int = 0

    def model_post_init(self, context: Any) -> None:
        """Keep a diagnostic small: cut a long source line around the caret, and long texts."""
        self.message = _cut(self.message) or ""
        self.hint = _cut(self.hint)
        self.file = _cut(self.file) or ""
        line = self.source_line
        if line is None or self.quote_start or len(line) <= QUOTE_WIDTH:
            return
        start = max(0, min(self.column - 1 - QUOTE_WIDTH // 2, len(line) - QUOTE_WIDTH))
        end = start + QUOTE_WIDTH
        lead = "…" if start > 0 else ""
        self.source_line = lead + line[start:end] + ("…" if end < len(line) else "")
        self.quote_start = start - len(lead)

    def render(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        head = f"{where}: {self.severity}: {self.message} [{self.code}]"
        out = [head]
        if self.source_line is not None:
            out.append(f"    {_printable(self.source_line).rstrip()}")
            at = max(0, self.column - 1 - self.quote_start)
            room = max(1, len(self.source_line) - at)
            width = max(1, (self.end_column - self.column) if self.end_column > self.column else 1)
            out.append("    " + " " * at + "^" * min(width, room))
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)


class CompileError(Exception):
    """Raised with every diagnostic found; `str()` renders them all."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = capped(diagnostics)
        super().__init__("\n".join(d.render() for d in self.diagnostics))


def capped(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The first MAX_PER_FILE diagnostics of each file (MAX_TOTAL in all), then a count of the rest.

    Past a few dozen, more messages help nobody: they usually repeat one
    mistake, and printing them all can take longer than fixing the first.
    """
    kept: list[Diagnostic] = []
    per_file: dict[str, int] = {}
    dropped: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        if d.code == "too-many":
            kept.append(d)
            continue
        n = per_file.get(d.file, 0)
        if n >= MAX_PER_FILE or len(kept) >= MAX_TOTAL:
            dropped.setdefault(d.file, []).append(d)
            continue
        per_file[d.file] = n + 1
        kept.append(d)
    for file, rest in dropped.items():
        errors = sum(1 for d in rest if d.severity == "error")
        what = _count(errors, "error") if errors == len(rest) else \
            _count(len(rest), "warning") if not errors else \
            _count(len(rest), "problem") + f" ({_count(errors, 'error')})"
        kept.append(Diagnostic(file=file, line=rest[0].line, column=rest[0].column,
                               severity="error" if errors else "warning", code="too-many",
                               message=f"{what} more in this file, not shown",
                               hint="fix the ones above first; many are often one mistake"))
    return kept


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


class SourceMap:
    """The text of every file read, to quote source lines in messages."""

    def __init__(self) -> None:
        self.texts: dict[str, list[str]] = {}

    def add(self, file: str, text: str) -> None:
        self.texts[file] = source_lines(text)

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

    def locate(self, loc: Loc | None, written: str, nth: int = 0,
               skip: Iterable[Loc | None] = ()) -> Loc | None:
        """Where `written` appears for the `nth` time inside `loc`, outside the places `skip`.

        Prose is kept as a string without places; this finds a piece of it (a
        reference) back in the source. A piece that runs over a line break is
        found by its first line. Without a match, `loc` itself.
        """
        if loc is None or not written:
            return loc
        needle = written.split("\n", 1)[0]
        holes = [(x.line, x.column, x.end_line, x.end_column) for x in skip if x is not None]
        found = -1
        for number in range(loc.line, max(loc.end_line, loc.line) + 1):
            text = self.line(loc.file, number)
            if text is None:
                break
            at = text.find(needle, loc.column - 1 if number == loc.line else 0)
            while at >= 0:
                column = at + 1
                inside = number == loc.end_line and column >= loc.end_column > 0
                hidden = any((l0, c0) <= (number, column) < (l1, c1) for l0, c0, l1, c1 in holes)
                if not inside and not hidden:
                    found += 1
                    if found == nth:
                        return Loc(file=loc.file, line=number, column=column, end_line=number,
                                   end_column=column + len(needle))
                at = text.find(needle, at + 1)
        return loc

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


@functools.lru_cache(maxsize=2048)
def _close_matches(name: str, candidates: tuple[str, ...]) -> list[str]:
    """Remembered: a file that misspells one name a thousand times asks a thousand times."""
    if len(name) > 100:
        return []
    return difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A "did you mean" hint for a mistyped name, or None if nothing is close."""
    close = _close_matches(name, tuple(sorted(set(candidates))))
    if not close:
        return None
    if len(close) == 1:
        return f"did you mean `{close[0]}`?"
    return "did you mean " + ", ".join(f"`{c}`" for c in close[:-1]) + f" or `{close[-1]}`?"


class Repeats:
    """Problems reported across several rulesets, each said once.

    A variant inherits its base's examples and files: a failure there fails in
    every ruleset built on it, and one message naming them all is enough.
    """

    def __init__(self) -> None:
        self.found: dict[tuple[str, ...], list[str]] = {}
        self.hints: dict[tuple[str, ...], dict[str, str]] = {}

    def add(self, ruleset: str, *lines: str, hint: str | None = None) -> bool:
        """Note a problem (its lines) in `ruleset`, with what this ruleset would advise
        (`hint`); True if it was not seen before."""
        seen = self.found.setdefault(tuple(lines), [])
        if ruleset not in seen:
            seen.append(ruleset)
        if hint is not None:
            self.hints.setdefault(tuple(lines), {})[ruleset] = hint
        return len(seen) == 1

    def hint(self, lines: tuple[str, ...]) -> str | None:
        """The advice for a problem, if every ruleset that found it gave some: a failure
        also found where the advice does not apply (an example failing in the ruleset that
        wrote it, not only in variants that inherit it) gets none."""
        given = self.hints.get(lines, {})
        names = self.found.get(lines, [])
        return given[names[0]] if names and all(r in given for r in names) else None

    def where(self, lines: tuple[str, ...]) -> str:
        """" in A, B and C" when a problem was found in more than one ruleset, else ""."""
        names = self.found.get(lines, [])
        if len(names) < 2:
            return ""
        return " in " + ", ".join(names[:-1]) + " and " + names[-1]

