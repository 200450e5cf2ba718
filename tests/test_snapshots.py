"""Snapshots of everything the compiler says in words, so a refactor that moves code cannot
change a word unnoticed.

Four kinds of text, one plain file each under `tests/snapshots/`:

- `<ruleset>.english.txt`: the English reading of every declaration of a ruleset (the walk
  of `tests/test_agnostic.py::english_readings`), one labelled line each;
- `<ruleset>.mathml.txt`: the MathML of every formula box the rulebook shows under a rule
  (`Formal.box`, as the chapter pages call it), under the rule's id;
- `language-reference.md`: the generated "Language reference" page;
- `diagnostics.txt`: the rendered errors of every input `tests/test_parser_errors.py` feeds
  the compiler, under the name of the test that feeds it.

When a change is meant to alter these texts, regenerate them with
`RULEBOOK_GOLDEN=update .venv/bin/python -m pytest tests/test_snapshots.py` (as the golden
playthroughs are) and review the diff in version control. A mismatch fails with a short
unified diff of what changed.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import tests.test_parser_errors as parser_errors
from compiler.diagnostics import CompileError, Diagnostic
from compiler.ir import model as m
from compiler.parse.errors import SYNTAX_EXAMPLES
from compiler.rulebook.formal import Formal
from compiler.rulebook.links import Index
from compiler.rulebook.reference import reference_page
from tests import compiled
from tests.test_agnostic import english_readings

SNAPSHOTS = Path(__file__).parent / "snapshots"
RULESETS = compiled.names()
DIFF_LINES = 40


def matches_snapshot(file: str, text: str) -> None:
    """Compare `text` with the snapshot `file`, or write it when asked to (or when missing)."""
    path = SNAPSHOTS / file
    updating = os.environ.get("RULEBOOK_GOLDEN") == "update"
    if updating or not path.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not updating:
            pytest.fail(f"{file} was missing and has been written; commit it")
        return
    want = path.read_text(encoding="utf-8")
    if want == text:
        return
    diff = list(difflib.unified_diff(want.splitlines(), text.splitlines(),
                                     f"tests/snapshots/{file}", "now", n=1, lineterm=""))
    more = len(diff) - DIFF_LINES
    shown = diff[:DIFF_LINES] + ([f"... and {more} more lines of diff"] if more > 0 else [])
    pytest.fail(f"{file} no longer matches what the compiler says:\n" + "\n".join(shown) +
                "\nIf the change is intended: RULEBOOK_GOLDEN=update .venv/bin/python -m pytest "
                "tests/test_snapshots.py", pytrace=False)


# ------------------------------------------------------------------ per ruleset


@pytest.mark.parametrize("name", RULESETS)
def test_every_declaration_reads_in_the_same_english(name: str) -> None:
    lines = [f"{label}: {text}" for label, text in english_readings(compiled.ruleset(name))]
    assert lines, f"{name} has no declaration to read"
    matches_snapshot(f"{name}.english.txt", "\n".join(lines) + "\n")


def formula_boxes(rs: m.Ruleset) -> Iterator[tuple[str, str]]:
    """(rule id, formula markup) for every formula the rulebook shows under a rule."""
    formal = Formal(rs, Index.of(rs))
    for rule in rs.all_rules():
        for line in formal.box(rule):
            if '<div class="formula">' in line:
                yield rule.id, line.strip()


@pytest.mark.parametrize("name", RULESETS)
def test_every_formula_box_renders_the_same_mathml(name: str) -> None:
    lines = [f"{rule}:\n{markup}\n" for rule, markup in formula_boxes(compiled.ruleset(name))]
    assert lines, f"{name} shows no formula"
    matches_snapshot(f"{name}.mathml.txt", "\n".join(lines))


# ------------------------------------------------------------------ the language


def test_the_language_reference_page_reads_the_same() -> None:
    matches_snapshot("language-reference.md", reference_page())


# ------------------------------------------------------------------ diagnostics


def parser_error_diagnostics(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Run every test of `tests/test_parser_errors.py` and keep what the compiler told it.

    The tests are run as they are, with their helpers (`syntax_error`, `compile_errors`,
    `load_files`) wrapped to record each diagnostic, so every input added there is
    snapshotted here without being copied.
    """
    heard: list[Diagnostic] = []

    def recording(fn: Callable[..., Any], *, raises: bool = False) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                got = fn(*args, **kwargs)
            except CompileError as e:
                heard.extend(e.diagnostics)
                raise
            if not raises:
                heard.extend(got if isinstance(got, list) else [got])
            return got
        return wrapper

    monkeypatch.setattr(parser_errors, "syntax_error", recording(parser_errors.syntax_error))
    monkeypatch.setattr(parser_errors, "compile_errors", recording(parser_errors.compile_errors))
    monkeypatch.setattr(parser_errors, "load_files",
                        recording(parser_errors.load_files, raises=True))

    def cases() -> Iterator[tuple[str, Callable[[], None]]]:
        for name, fn in vars(parser_errors).items():
            if not name.startswith("test_") or not callable(fn):
                continue
            params = inspect.signature(fn).parameters
            if "message" in params:  # parametrized over the listed syntax mistakes
                for message, examples in SYNTAX_EXAMPLES.items():
                    yield f"{name}[{message}]", functools.partial(fn, message, examples)
            elif "tmp_path" in params:
                folder = tmp / name
                folder.mkdir()
                yield name, functools.partial(fn, folder)
            else:
                yield name, fn

    out: list[str] = []
    for name, run in cases():
        heard.clear()
        run()
        out.append(f"== {name}")
        out += [d.render().replace(str(tmp), "<tmp>") for d in heard] or ["(no diagnostic)"]
        out.append("")
    return out


def test_every_parser_error_input_is_reported_in_the_same_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = parser_error_diagnostics(tmp_path, monkeypatch)
    matches_snapshot("diagnostics.txt", "\n".join(lines))
