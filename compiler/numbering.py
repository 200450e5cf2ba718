"""Numbers that stay put: chapters, rules, rulings and worked examples.

A number is given once, where the item is first written, and never moves.
A root ruleset numbers in reading order (chapter 3, rule 3.2, sub-rule
3.2.1). A variant keeps every number it inherits, whether it leaves the rule
alone, adds to it or replaces it; what it adds is numbered around them, as
the Magic: The Gathering Comprehensive Rules are: after the last of its
siblings it takes the next free whole number (3.7), between two siblings the
number of the one before it plus a letter (3.2a, 3.2b). A removed rule leaves
a gap: its number is retired and never given to another rule of that
ruleset or of its own variants.

Rulings and examples are numbered per declaring ruleset, behind the ruleset's
short code: `BG-R5` is the fifth ruling the ruleset `base_game` wrote, and it
is `BG-R5` in every variant that inherits it, while a variant's own rulings
take its own code (`BGE-R1` for `base_game_expansion`). A code is declared in
the ruleset header (`code "BG"`) or derived from the ruleset's name (its
words' initials); two rulesets of one site must not share one, or their ids
would collide.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TypeVar

from compiler.ir import model as m

CODE_SHAPE = re.compile(r"[A-Z][A-Z0-9]{0,5}")
_LAST = re.compile(r"(\d+)([a-z]*)$")

Numbered = TypeVar("Numbered", m.Chapter, m.Rule, m.Ruling, m.Example)


def derived_code(ruleset_id: str) -> str:
    """The code a ruleset gets when it declares none: its name's initials, `base_game` → BG;
    a word of digits counts whole (`base_game_2` → BG2)."""
    words = [w for w in ruleset_id.split("_") if w]
    return "".join(w if w.isdigit() else w[0] for w in words).upper()[:6] or "X"


def code_of(rs: m.Ruleset) -> str:
    """The code that prefixes the ids of the rulings and examples `rs` itself writes."""
    return rs.code or derived_code(rs.id)


def code_problem(code: str) -> str | None:
    """Why a declared code cannot be one; None when it can."""
    if CODE_SHAPE.fullmatch(code):
        return None
    return (f"code `{code}` cannot prefix ruling and example ids: write 1 to 6 capital letters "
            f"or digits, starting with a letter (like \"AB\")")


def number(rs: m.Ruleset) -> None:
    """Give a number to every chapter, rule, ruling and example of `rs` that has none yet,
    shifting nothing that has one. Chapters are first put in the order of the contents."""
    order = {cid: i for i, cid in enumerate(rs.contents)}
    rs.chapters.sort(key=lambda c: order.get(c.id, len(order)))
    retired = set(rs.retired)
    _fill(rs.chapters, "", retired)

    def walk(rules: list[m.Rule], prefix: str) -> None:
        _fill(rules, prefix, retired)
        for r in rules:
            walk(r.rules, r.number)

    for ch in rs.chapters:
        walk(ch.rules, ch.number)
    code = code_of(rs)
    _fill_ids(rs.rulings, f"{code}-R")
    _fill_ids(rs.examples, f"{code}-E")


def retire(rs: m.Ruleset, gone: m.Chapter | m.Rule) -> None:
    """A removed chapter or rule keeps its number out of use, so that no later rule takes it."""
    if gone.number:
        rs.retired.append(gone.number)


def inherited_code_clash(rs: m.Ruleset) -> str | None:
    """The message when a variant's code is already one its bases number their rulings or
    examples with (their ids and the variant's would collide); None when it is free."""
    code = code_of(rs)
    taken = next((x.number for x in [*rs.rulings, *rs.examples]
                  if x.number.startswith(f"{code}-")), None)
    if taken is None:
        return None
    return (f"`{rs.id}` has the code `{code}`, which a ruleset it builds on already uses "
            f"({taken}); declare another in its header: `code \"…\"`")


def code_clashes(rulesets: Iterable[m.Ruleset]) -> list[str]:
    """One message for each code that two or more rulesets of a site share: their rulings'
    and examples' ids would collide."""
    by_code: dict[str, list[m.Ruleset]] = {}
    for rs in rulesets:
        by_code.setdefault(code_of(rs), []).append(rs)
    out = []
    for code, same in sorted(by_code.items()):
        if len(same) < 2:
            continue
        names = ", ".join(f"{rs.id} ({'declared' if rs.code else 'from its name'})"
                          for rs in same)
        out.append(f"rulesets {names} share the code `{code}`, which prefixes their ruling "
                   f"and example ids (`{code}-R1`, `{code}-E1`); give each its own in its "
                   f"header: `code \"…\"`")
    return out


def sort_key(number: str) -> tuple[tuple[int, str], ...]:
    """Numbers in reading order: 3.2 < 3.2a < 3.2b < 3.10."""
    out = []
    for part in number.split("."):
        found = _LAST.fullmatch(part)
        out.append((int(found.group(1)), found.group(2)) if found else (10 ** 9, part))
    return tuple(out)


def find(items: Sequence[Numbered], said: str) -> list[Numbered]:
    """The items `said` names: by id, by full number (`BG-E36`, any case), or, failing both,
    by a number without its code (`E36`): one item when unambiguous, else every candidate."""
    by_id = [x for x in items if x.id == said]
    if by_id:
        return by_id
    key = said.strip().upper()
    exact = [x for x in items if x.number.upper() == key]
    if exact:
        return exact
    return [x for x in items if x.number.upper().partition("-")[2] == key] if key else []


# ------------------------------------------------------------------ filling


def _fill(items: list[Numbered], prefix: str, retired: set[str]) -> None:
    """Number the unnumbered among siblings: after the last numbered one, the next free whole
    number; before a numbered one, the number of the sibling before it plus a letter."""
    taken = {x.number for x in items if x.number} | {r for r in retired
                                                       if _parent(r) == prefix}
    last = max((k for k, x in enumerate(items) if x.number), default=-1)
    before = ""
    for k, x in enumerate(items):
        if not x.number:
            x.number = _next_whole(prefix, taken) if k > last else \
                _lettered(before or _join(prefix, "0"), taken)
            taken.add(x.number)
        before = x.number


def _fill_ids(items: Iterable[m.Ruling | m.Example], stem: str) -> None:
    used = [int(x.number[len(stem):]) for x in items
            if x.number.startswith(stem) and x.number[len(stem):].isdigit()]
    n = max(used, default=0)
    for x in items:
        if not x.number:
            n += 1
            x.number = f"{stem}{n}"


def _join(prefix: str, last: str) -> str:
    return f"{prefix}.{last}" if prefix else last


def _parent(number: str) -> str:
    return number.rpartition(".")[0]


def _next_whole(prefix: str, taken: set[str]) -> str:
    wholes = [int(found.group(1)) for t in taken
              if (found := _LAST.fullmatch(t.rpartition(".")[2]))]
    return _join(prefix, str(max(wholes, default=0) + 1))


def _lettered(before: str, taken: set[str]) -> str:
    """The first free number after `before` with a letter: 3.2 → 3.2a, 3.2a → 3.2b."""
    found = _LAST.search(before)
    stem = before[:found.start(2)] if found else before
    letter = found.group(2) if found and found.group(2) else ""
    while True:
        letter = _next_letters(letter)
        if stem + letter not in taken:
            return stem + letter


def _next_letters(letters: str) -> str:
    """a, b, … z, za, zb, …: letters that sort after the ones before them."""
    if not letters:
        return "a"
    if letters[-1] == "z":
        return letters + "a"
    return letters[:-1] + chr(ord(letters[-1]) + 1)
