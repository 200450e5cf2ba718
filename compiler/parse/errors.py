"""Syntax errors in words.

Lark reports what it saw and which terminals it expected. We turn terminal
names into words ("a quoted string", "`}`"), add a sentence for the common
mistakes (matched against known bad examples with `match_examples`), and point
at the place with a caret.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from compiler.diagnostics import Diagnostic, did_you_mean, shown, source_lines

# What each named terminal means, for "expected ..." messages.
TERMINAL_WORDS = {
    "NAME": "a name",
    "STRING": 'a quoted string ("..." or """...""")',
    "INT": "a whole number",
    "MINUS": "`-`",
    "SIGN": "`+` or `-`",
    "COMPARE": "a comparison (==, !=, <, <=, >, >=)",
    "ADD_OP": "`+` or `-`",
    "MUL_OP": "`*` or `/`",
    "TYPE_NAME": "a type (player, bool or int)",
    "MOST": "`most` or `fewest`",
    "MOMENT": "`start` or `end`",
    "SOME": "`some`",
    "NOT": "`not`",
    "$END": "the end of the file",
}

# Common mistakes, each with examples that produce it. `match_examples` finds
# the example whose parser state is the same as the error's, and we print its
# sentence. A test checks that every example here raises its message.
SYNTAX_EXAMPLES: dict[str, list[str]] = {
    "a rule needs an id and a quoted title before its `{`": [
        'chapter c "C" { rule r { } }',
        'chapter c "C" { rule { } }',
        'replace rule r { }',
    ],
    "`give` says who receives: `give AMOUNT RESOURCE to WHOM` (and `from WHOM` before `to` "
    "when it does not come from the pool)": [
        'chapter c "C" { rule r "R" { action a "A" { give 1 points } } }',
    ],
    "an event names what it is about, then what happens to it: `when lake a closes`, "
    "`when pawn p enters s`": [
        'chapter c "C" { rule r "R" { when lake closes { } } }',
    ],
    "text must be a quoted string": [
        'chapter c "C" { text hello }',
        'chapter c "C" { rule r "R" { text hello } }',
    ],
    "an action's parameter is written `choose NAME from COLLECTION`": [
        'chapter c "C" { rule r "R" { action a "A" { choose x in tiles } } }',
    ],
    "a comparison needs a value on both sides": [
        'chapter c "C" { rule r "R" { action a "A" { require count(tiles) > } } }',
    ],
    "a tile face lists its edge labels in brackets: `face a [x, y, z] { ... }`": [
        'tiles t "T" { tile t1 { face a { x 0 } } }',
    ],
    "a segment names an area kind, then the edges it reaches: `lake 0, 2 with island`": [
        'tiles t "T" { tile t1 { face a [x, y, z] { 0, 1 } } }',
    ],
    "a prohibition reads `forbid KIND entering SITE when CONDITION`": [
        'chapter c "C" { rule r "R" { forbid pawn at s when true } }',
        'chapter c "C" { rule r "R" { forbid pawn entering s true } }',
    ],
    "`if` in a statement takes a block in braces: `if COND { ... }`": [
        'chapter c "C" { rule r "R" { action a "A" { if true return x } } }',
        'chapter c "C" { rule r "R" { action a "A" { if me.points > 10 give 1 points to me } } }',
    ],
}


# What the language's constructs can start with, as the parser itself says (its `accepts`
# after a prefix that asks for one): when a parse stops where any of them could go, the
# message names the construct ("a value") instead of listing its first words.
_CONSTRUCTS = (
    ("a value, such as `2`, `me` or `count(tiles)`",
     'chapter c "C" { rule c.r "R" { define d = '),
    ("a value, such as `2`, `me` or `count(tiles)`",
     'chapter c "C" { rule c.r "R" { define d = 1 + '),
    ("a statement, such as `give`, `place`, `set`, `if` or `grant`",
     'chapter c "C" { rule c.r "R" { at start of turn { '),
)


@lru_cache(maxsize=4)
def _construct_starts(parser: Lark) -> tuple[tuple[str, frozenset[str]], ...]:
    out = []
    for words, prefix in _CONSTRUCTS:
        interactive = parser.parse_interactive(prefix)
        interactive.exhaust_lexer()
        starts = frozenset(interactive.accepts()) - {"RBRACE"}  # `}` is said on its own
        out.append((words, starts))
    return tuple(out)


@lru_cache(maxsize=4)
def _example_states(parser: Lark) -> tuple[tuple[str, int, frozenset[str]], ...]:
    """Where each of SYNTAX_EXAMPLES stops the parser: its state and what it accepted."""
    out = []
    for label, examples in SYNTAX_EXAMPLES.items():
        for text in examples:
            try:
                parser.parse(text)
            except UnexpectedInput as stop:
                state = getattr(stop, "state", None)
                if state is not None:
                    out.append((label, state.position,
                                frozenset(getattr(stop, "accepts", None) or ())))
    return tuple(out)


def _matching_sentence(parser: Lark, error: UnexpectedInput) -> str | None:
    """The sentence of the example that stops where `error` did. Lark's `match_examples`
    also asks for the same depth of stack, so an example written as a file's first item
    would not match the same mistake in its second; here the state and what the parser
    accepted there decide."""
    state = getattr(error, "state", None)
    if state is None:
        return None
    accepts = frozenset(getattr(error, "accepts", None) or ())
    for label, position, accepted in _example_states(parser):
        if position == state.position and (not accepts or not accepted or accepts == accepted):
            return label
    return None


def _words(parser: Lark, names: set[str]) -> list[str]:
    grouped: list[str] = []
    for words, starts in _construct_starts(parser):
        if starts <= names:
            if words not in grouped:
                grouped.append(words)
            names = names - starts
    return _terminal_words(parser, names) + grouped  # "`}` or a statement, such as …"


def _terminal_words(parser: Lark, names: set[str]) -> list[str]:
    terminals = {t.name: t for t in parser.terminals}
    out: set[str] = set()
    for name in names:
        if name in TERMINAL_WORDS:
            out.add(TERMINAL_WORDS[name])
            continue
        term = terminals.get(name)
        pattern = getattr(getattr(term, "pattern", None), "value", None)
        if term is not None and type(term.pattern).__name__ == "PatternStr":
            out.add(f"`{pattern}`")
        else:
            out.add(name.lower())
    return sorted(out)


def _keywords(parser: Lark, names: set[str]) -> list[str]:
    terminals = {t.name: t for t in parser.terminals}
    words = []
    for name in names:
        term = terminals.get(name)
        if term is not None and type(term.pattern).__name__ == "PatternStr":
            value = term.pattern.value
            if value.isidentifier():
                words.append(value)
    return words


def syntax_diagnostic(parser: Lark, error: UnexpectedInput, text: str, file: str) -> Diagnostic:
    """One diagnostic for a Lark syntax error."""
    sentence = _matching_sentence(parser, error)
    line = getattr(error, "line", 0) or 0
    column = getattr(error, "column", 0) or 0
    lines = source_lines(text)
    source_line = lines[line - 1] if 1 <= line <= len(lines) else None
    hint = None
    width = 1

    ends = isinstance(error, UnexpectedEOF) or (
        isinstance(error, UnexpectedToken) and error.token.type == "$END")
    unclosed = _unclosed_brace(text) if ends else None
    if unclosed is not None:  # say which block the file ends inside, and point at its `{`
        line, column = unclosed
        source_line = lines[line - 1]
        opened = shown(source_line[:column].strip(), 60)  # up to its `{`, comments aside
        return Diagnostic(file=file, line=line, column=column, end_column=column + 1,
                          code="syntax",
                          message=f"this `{{` is never closed: the file ends inside `{opened}`",
                          hint="add the `}` that ends this block (check the blocks inside it "
                               "too: each `{` needs its `}`)", source_line=source_line)
    if isinstance(error, UnexpectedToken):
        token = error.token
        expected = set(error.accepts or error.expected)
        if token.type == "$END":
            seen = "the end of the file"
            line = len(lines) or 1
            source_line = lines[-1] if lines else ""
            column = len(source_line) + 1
        else:
            word, start = _whole_word(text, token.start_pos, str(token))
            seen = f"`{shown(word)}`"
            width = min(len(word), WIDEST_CARET)
            column -= token.start_pos - start
            if word != str(token) or token.type == "NAME" and len(token) <= 100:
                hint = did_you_mean(word, _keywords(parser, expected) if word == str(token)
                                    else _all_words(parser))
        what = _words(parser, expected)
        message = f"unexpected {seen}; expected {_join(what)}"
        if token.type != "$END" and seen != f"`{shown(str(token))}`":
            # What was expected followed the word's first letters, which the lexer took
            # for a word of the language: of no use to the author.
            message = f"unexpected {seen}: no word of the language here"
    elif isinstance(error, UnexpectedCharacters):
        ch = text[error.pos_in_stream] if error.pos_in_stream < len(text) else ""
        rest = text[error.pos_in_stream + 1:].split("\n", 1)[0]
        if ch == '"' and '"' not in rest:
            return Diagnostic(file=file, line=line, column=column, end_column=column + 1,
                              code="syntax", message="this string is never closed: the line "
                                                     "ends before its closing `\"`",
                              hint='close it on the same line ("..."), or write text over '
                                   'several lines between three quotes ("""...""")',
                              source_line=source_line)
        message = f"unexpected character `{shown(ch)}`"
        allowed = _words(parser, set(error.allowed or ()))
        if allowed:
            message += f"; expected {_join(allowed)}"
        if ch == "'":
            hint = 'strings are written in double quotes: "..."'
    elif isinstance(error, UnexpectedEOF):
        line = len(lines) or 1
        source_line = lines[-1] if lines else ""
        column = len(source_line) + 1
        message = f"the file ends too early; expected {_join(_words(parser, set(error.expected)))}"
    else:  # pragma: no cover - Lark has no other kinds today
        message = str(error)

    if sentence:
        message = f"{sentence} ({message})"
    return Diagnostic(file=file, line=line, column=column, end_column=column + width,
                      code="syntax", message=message, hint=hint, source_line=source_line)


# A caret under a long token stops here: it marks where, the message says what.
WIDEST_CARET = 40


def _whole_word(text: str, start: int, token: str) -> tuple[str, int]:
    """The word a token was cut from, and where it starts: the lexer takes `bool` from
    `boolean` and leaves `ean`, which no author wrote."""
    if not token[:1].isalnum() and token[:1] != "_":
        return token, start
    first = start
    while first > 0 and (text[first - 1].isalnum() or text[first - 1] == "_"):
        first -= 1
    last = start + len(token)
    while last < len(text) and (text[last].isalnum() or text[last] == "_"):
        last += 1
    return text[first:last], first


def _all_words(parser: Lark) -> list[str]:
    """Every word of the language, the types its TYPE_NAME terminal spells included: what a
    cut-up word may have meant."""
    types = next((t.pattern.value for t in parser.terminals if t.name == "TYPE_NAME"), "")
    return _keywords(parser, {t.name for t in parser.terminals}) + re.findall(r"[a-z]+", types)


def _unclosed_brace(text: str) -> tuple[int, int] | None:
    """The line and column of the last `{` left open at the end of `text` (strings and
    comments skipped), or None when every brace is closed."""
    opened: list[tuple[int, int]] = []
    line, column, i = 1, 1, 0
    while i < len(text):
        ch = text[i]
        if text.startswith('"""', i):
            end = text.find('"""', i + 3)
            end = len(text) if end < 0 else end + 3
        elif ch == '"':
            end = i + 1
            while end < len(text) and text[end] not in '"\n':
                end += 2 if text[end] == "\\" else 1
            end = min(end + 1, len(text))
        elif ch == "#":
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
        else:
            if ch == "{":
                opened.append((line, column))
            elif ch == "}" and opened:
                opened.pop()
            end = i + 1
        for c in text[i:end]:
            line, column = (line + 1, 1) if c == "\n" else (line, column + 1)
        i = end
    return opened[-1] if opened else None


def _join(items: list[str]) -> str:
    if not items:
        return "nothing more"
    if len(items) <= 6:
        return ", ".join(items[:-1]) + (" or " if len(items) > 1 else "") + items[-1]
    return ", ".join(items[:6]) + f" or one of {len(items) - 6} more"
