"""A mutated rules file ends in a located error, or compiles into rules the engine can run.

The seeds are the project's own rules files. Each case changes one file of a
ruleset (cuts, copies, swaps, a token replaced by another of the file or by
something hostile: a number of 5,000 digits, 250 `not`s, a byte that is not
UTF-8, a line separator) and loads the ruleset again. Whatever comes out
must be one of two things, within the time and memory bounds:

- a `CompileError` whose every diagnostic names a file that was read, a
  place in it for a syntax error, and words a person can read; or
- a ruleset that the engine compiles, whose worked examples in the changed
  file run to a verdict (agreeing or not) without an exception; fuzzing,
  all its examples run and its rulebook pages are written.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compiler.diagnostics import CompileError
from compiler.engine.position import Rules
from compiler.engine.scenario import run_example
from compiler.load import RULES_DIR, display_path, load_files
from compiler.rulebook.pages import RulesetPages
from tests.fuzzing import (
    FUZZ, GROUP, budget, bounded, cached_parse, compile_error_is_located, located,
)

pytestmark = GROUP

# Rulesets whose files are mutated: the base game, a variant of it, the teams
# variant, the expansion with ships and battles, and a game of its own with
# dice and resource families. The suite seeds from the first three (quick to
# load); `make fuzz` from all five, their largest files included.
SEEDED = ("trian_deluxe", "tutorial_deep_space", "trian_teams", "trian_conquest",
          "trian_new_order")
QUICK = 3
LARGE = 25_000

# Things that broke the tools once, and their kin.
HOSTILE = [
    "9" * 5000, "2147483648", "1" + "0" * 400, "0", "-1", "-", "99999999999999999999",
    "(" * 140, ")" * 140, "not " * 250, "- " * 300, "if true then " * 80,
    '"', '"""', "\\", '"\\x"', '"\\u12"', "\u2028", "\u2029", "\x0b", "\x0c", "\x85", "\x00",
    "\t", "\r", "\r\n", "\ufeff", "²", "é", "#", "{", "}", "[", "]", "(", ")", ",", ":", ";",
    "[[nosuch|some words]]", "[[rule:nosuch]]", "[[ruling:]]", "[[", "]]",
    "die(2147483648)", "die(0)", "die(-3)", "stacks 10000000000", "stacks 0",
    "players 0 to 1000000000", "players 5 to 2", "turn 0", "rotation 99",
    "define f(a) = a.foo", "define g(a) = a.owner.foo", "let x = x", "apply nosuch()",
    "replace chapter", "remove rule", "add to rule", "extends", "tiles from", "copies",
    "per", "illustrates", "expect illegal per", "given {", "play \"\"", "end game",
    "a" * 300, "x" * 70_000,
]


def _seed_files() -> list[Path]:
    names = SEEDED if FUZZ else SEEDED[:QUICK]
    files = [f for name in names for f in sorted((RULES_DIR / name).glob("*.rules"))]
    return files if FUZZ else [f for f in files if f.stat().st_size <= LARGE]


SEEDS = _seed_files()
TOKEN = re.compile(r'"""(?:.|\n)*?"""|"(?:[^"\\\n]|\\.)*"|[A-Za-z_][A-Za-z0-9_.]*|[0-9]+|\S')


def _sort(token: str) -> str:
    if token.startswith('"'):
        return "string"
    if token[0].isdigit():
        return "number"
    if token[0].isalpha() or token[0] == "_":
        return "name"
    return "mark"


@st.composite
def mutations(draw: st.DrawFn) -> tuple[Path, bytes]:
    """A seed file and its text after one to three edits, as bytes (which may not be UTF-8)."""
    path = draw(st.sampled_from(SEEDS))
    text = path.read_text(encoding="utf-8")
    tokens = [m for m in TOKEN.finditer(text)]
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["token", "token", "token", "hostile", "cut", "copy",
                                     "lines", "text"]))
        at = draw(st.integers(0, max(0, len(text) - 1)))
        if kind == "token" and tokens:
            # Mostly a token of the same sort (a name for a name, a number for a
            # number), so the file still parses and the checker and engine meet it.
            old = draw(st.sampled_from(tokens))
            alike = [t for t in tokens if _sort(t.group(0)) == _sort(old.group(0))]
            new = draw(st.sampled_from(alike if draw(st.integers(0, 3)) else tokens)).group(0)
            if _sort(new) == "number" and draw(st.booleans()):
                new = draw(st.sampled_from(["0", "1", "2", "6", "7", "13", "100", "101",
                                            "999999999999999999", "2147483648"]))
            text = text[:old.start()] + new + text[old.end():]
        elif kind == "hostile":
            text = text[:at] + draw(st.sampled_from(HOSTILE)) + text[at:]
        elif kind == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 200)):]
        elif kind == "copy":
            size = draw(st.integers(1, 400))
            text = text[:at] + text[at:at + size] + text[at:]
        elif kind == "lines":
            lines = text.split("\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            if draw(st.booleans()):
                del lines[i]
            text = "\n".join(lines)
        else:
            text = text[:at] + draw(st.text(max_size=12)) + text[at:]
        tokens = [m for m in TOKEN.finditer(text)] if kind != "token" else tokens
    data = text.encode("utf-8")
    if draw(st.integers(0, 15)) == 0:  # now and then, a byte that is not UTF-8
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xe2\x80", b"\xed\xa0\x80"])) \
            + data[at:]
    return path, data


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of each seeded ruleset, whose files the cases overwrite and restore."""
    root = tmp_path_factory.mktemp("rules")
    for name in SEEDED:
        shutil.copytree(RULES_DIR / name, root / name)
    return root


@pytest.fixture
def remembered_parses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("compiler.load.parse_rules", cached_parse)


def load_mutated(copies: Path, seed: Path, data: bytes) -> None:
    """Load the seed's ruleset with `data` in place of the seed; assert the promise."""
    folder = copies / seed.parent.name
    target = folder / seed.name
    files = sorted(folder.glob("*.rules"))
    target.write_bytes(data)
    try:
        with bounded():
            try:
                ruleset, sources, warnings = load_files(files)
            except CompileError as e:
                read = {display_path(f) for f in files} | set(_base_files())
                compile_error_is_located(e, read)
                return
            for w in warnings:
                located(w)
            rules = Rules(ruleset)
            mutated = display_path(target)
            if not FUZZ:
                for ex in ruleset.examples:
                    if ex.loc is not None and ex.loc.file == mutated:
                        run_example(rules, ex)
                return
            # Fuzzing, the rulebook's pages are written too: every rule read in English.
            results = {ex.id: run_example(rules, ex) for ex in ruleset.examples}
            RulesetPages(rules, results, "").pages()
    finally:
        shutil.copyfile(seed, target)


def _base_files() -> list[str]:
    return [display_path(f) for f in RULES_DIR.glob("*/*.rules")]


@budget(45)
@given(case=mutations())
def test_a_mutated_rules_file_ends_in_a_located_error_or_runs(
        copies: Path, remembered_parses: None, case: tuple[Path, bytes]) -> None:
    seed, data = case
    load_mutated(copies, seed, data)
