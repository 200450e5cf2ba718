"""Every builtin has one home, and that home is complete.

A builtin in `compiler/library/` carries its own summary, example and English
reading; its example compiles inside the small ruleset of the language
reference and reads as plain English. The checker accepts exactly the names of
the library, so a builtin cannot be known to one stage and missing from another. The kernel's
attributes (`p.owner`, `a.closed`) are held to the same: each is one class in
`ATTRIBUTES`, with a summary and an example that compiles and reads.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from compiler.check.symbols import BUILTIN_VALUES, EVENT_VALUES, FUNCTIONS
from compiler.diagnostics import CompileError, Diagnostic
from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.ir.english import English, Vocabulary
from compiler.library import (ATTRIBUTES, LIBRARY, Builtin, KernelAttribute, attributes_of, events,
                              functions, values)
from compiler.load import load_files
from compiler.rulebook.reference import BASE_ID, GROUPS, Construct, example_lines, wrap

ENTRIES = [pytest.param(b, id=name) for name, b in LIBRARY.items()]
KERNEL = [pytest.param(a, id=f"{of}.{name}") for (of, name), a in ATTRIBUTES.items()]


def _construct(builtin: Builtin) -> Construct:
    """The builtin's example as the reference would wrap it: a value in the demo's
    `research` action, or, when it needs declarations, in a rule of its own."""
    if builtin.setting:
        return Construct(name=f"builtin {builtin.name}", grammar_rule="atom", group=GROUPS[5],
                         context="rule", summary=builtin.summary, replaces=builtin.replaces,
                         example=builtin.setting.replace("EXAMPLE", builtin.example))
    return Construct(name=f"builtin {builtin.name}", grammar_rule="atom", group=GROUPS[5],
                     context="expr", summary=builtin.summary, example=builtin.example)


def _compile(construct: Construct, tmp_path: Path) -> tuple[m.Ruleset, list[Diagnostic], Path]:
    folder = tmp_path / BASE_ID
    folder.mkdir()
    path = folder / "example.rules"
    path.write_text(wrap(construct), encoding="utf-8")
    try:
        rs, _, warnings = load_files([path])
    except CompileError as e:
        return m.Ruleset.model_construct(), list(e.diagnostics), path
    return rs, list(warnings), path


def _uses(value: Any, name: str, file: str, lines: tuple[int, int],
          of: str | None = None) -> list[Any]:
    """The calls of (or references to) `name` written in the example's lines; with `of`,
    the readings of the attribute `name` of something of that type."""
    found: list[Any] = []
    if isinstance(value, (list, tuple)):
        for x in value:
            found += _uses(x, name, file, lines, of)
    elif isinstance(value, dict):
        for x in value.values():
            found += _uses(x, name, file, lines, of)
    elif isinstance(value, BaseModel):
        loc = getattr(value, "loc", None)
        here = loc is not None and Path(loc.file).name == file and \
            lines[0] <= loc.line <= lines[1]
        if here and of is not None:
            if isinstance(value, n.Attr) and value.name == name and value.obj.type == of:
                found.append(value)
        elif here and ((isinstance(value, n.Call) and value.func == name and not value.defined)
                       or (isinstance(value, n.Name) and value.id == name)):
            found.append(value)
        for field in type(value).model_fields:
            found += _uses(getattr(value, field), name, file, lines, of)
    return found


@pytest.mark.parametrize("builtin", ENTRIES)
def test_every_builtin_says_what_it_is_with_an_example_and_an_english_reading(
        builtin: Builtin) -> None:
    assert builtin.summary and builtin.summary.endswith("."), builtin.name
    assert builtin.example, builtin.name
    assert builtin.group, builtin.name
    assert type(builtin).english is not Builtin.english, f"`{builtin.name}` has no English"


@pytest.mark.parametrize("builtin", ENTRIES)
def test_every_example_compiles_in_the_reference_ruleset_and_reads_as_english(
        builtin: Builtin, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    construct = _construct(builtin)
    rs, diagnostics, path = _compile(construct, tmp_path)
    assert diagnostics == [], "\n".join(d.render() for d in diagnostics) + "\n\n" + wrap(construct)
    used = _uses(rs, builtin.name, path.name, example_lines(construct))
    assert used, f"the example of `{builtin.name}` does not use it"
    _reads_as_english(rs, used)


def _reads_as_english(rs: m.Ruleset, used: list[Any]) -> None:
    """Each use, and `not` it, reads as words: no call left unread (`name(`), no None."""
    en = English(Vocabulary.of(rs))
    for node in used:
        for said in (en(node), en(n.Not(value=node, loc=node.loc, type="bool"))):
            assert said and not re.search(r"\w\(", said) and "None" not in said, said


@pytest.mark.parametrize("attribute", KERNEL)
def test_every_kernel_attribute_says_what_it_is_and_its_example_compiles_and_reads(
        attribute: KernelAttribute, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert attribute.summary and attribute.summary.endswith("."), attribute.name
    assert type(attribute).english is not KernelAttribute.english, attribute.name
    monkeypatch.chdir(tmp_path)
    construct = Construct(name=f"attribute {attribute.name}", grammar_rule="atom",
                          group=GROUPS[5], context="expr", summary=attribute.summary,
                          example=attribute.example)
    rs, diagnostics, path = _compile(construct, tmp_path)
    assert diagnostics == [], "\n".join(d.render() for d in diagnostics) + "\n\n" + wrap(construct)
    used = _uses(rs, attribute.name, path.name, example_lines(construct), of=attribute.of)
    assert used, f"the example of `{attribute.of}.{attribute.name}` does not read it"
    _reads_as_english(rs, used)


def _unknown(expr: str, tmp_path: Path) -> list[str]:
    """What the checker says is unknown in `expr`, written as a value in the demo ruleset."""
    construct = Construct(name="probe", grammar_rule="atom", group=GROUPS[5], context="expr",
                          summary="A probe.", example=expr)
    folder = tmp_path / f"probe{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    _, diagnostics, _ = _compile(construct, folder)
    return [d.message for d in diagnostics
            if d.message.startswith(("unknown name", "unknown function"))]


def test_the_checker_accepts_exactly_the_library(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    expected = set(LIBRARY)
    probes = sorted(expected | {"counts", "player", "nonesuch"})
    accepted = {name for name in probes
                if not _unknown(name, tmp_path) or not _unknown(f"{name}()", tmp_path)}
    assert accepted == expected


def test_the_symbol_table_derives_its_names_from_the_library() -> None:
    assert set(FUNCTIONS) == {b.name for b in functions()}
    assert len(FUNCTIONS) == len(set(FUNCTIONS))
    assert set(BUILTIN_VALUES) == {b.name for b in values()}
    assert EVENT_VALUES == {b.name: b.returns for b in events()}


def test_a_piece_has_exactly_the_kernel_attributes_the_checker_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker's "a piece has: …" hint lists the library's attributes, no more, no less."""
    monkeypatch.chdir(tmp_path)
    construct = Construct(name="probe", grammar_rule="atom", group=GROUPS[5], context="expr",
                          summary="A probe.", example="count(pawn where it.nonesuch)")
    _, diagnostics, _ = _compile(construct, tmp_path)
    hints = [d.hint or "" for d in diagnostics if "no attribute `nonesuch`" in d.message]
    assert hints == ["a piece has: " + ", ".join(sorted(attributes_of("piece")))]
