"""The language reference tells the truth and leaves nothing out.

Every construct's example compiles, inside a small complete ruleset, to the IR
it documents, and shows the syntax it documents; the worked examples among
them pass in the engine. The grammar excerpts are the grammar's own text.
Every top-level item, declaration, statement and form of the grammar, and
every declaration and statement class of the IR, has its entry: adding a
kind to the language without documenting it fails here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from compiler.check.symbols import FUNCTIONS
from compiler.diagnostics import CompileError
from compiler.engine.position import Rules
from compiler.engine.scenario import run_example
from compiler.ir import model as m
from compiler.load import load_files
from compiler.rulebook.reference import (
    BASE, BASE_ID, CONSTRUCTS, GRAMMAR_FILE, GROUPS, VARIANT_ID, Construct, alternatives,
    base_source, declaration_classes, example_lines, example_nodes, expression_classes,
    grammar_excerpt, grammar_names, node_names, reference_page, statement_classes, wrap,
)

CASES = [pytest.param(c, id=c.anchor) for c in CONSTRUCTS]
WORKED = [pytest.param(c, id=c.anchor) for c in CONSTRUCTS if "example" in example_nodes(c)]


def compile_construct(c: Construct, tmp_path: Path,
                      monkeypatch: pytest.MonkeyPatch) -> tuple[m.Ruleset, list[Any], Path]:
    """Write the wrapped example as a ruleset folder (a variant beside its base) and load it."""
    monkeypatch.chdir(tmp_path)
    if c.context == "variant":
        base = tmp_path / BASE_ID
        base.mkdir()
        (base / "base.rules").write_text(base_source(), encoding="utf-8")
        folder = tmp_path / VARIANT_ID
    else:
        folder = tmp_path / BASE_ID
    folder.mkdir()
    path = folder / "example.rules"
    path.write_text(wrap(c), encoding="utf-8")
    try:
        rs, _, warnings = load_files([path])
    except CompileError as e:
        pytest.fail(f"the example of `{c.name}` does not compile:\n"
                    + "\n".join(d.render() for d in e.diagnostics) + "\n\n" + wrap(c))
    return rs, warnings, path


def nodes_written_in(value: Any, file: str, lines: tuple[int, int]) -> set[str]:
    """The class names of the IR objects inside `value` that were written in those lines."""
    found: set[str] = set()
    if isinstance(value, (list, tuple)):
        for x in value:
            found |= nodes_written_in(x, file, lines)
    elif isinstance(value, dict):
        for x in value.values():
            found |= nodes_written_in(x, file, lines)
    elif isinstance(value, BaseModel):
        loc = getattr(value, "loc", None)
        if loc is not None and Path(loc.file).name == file and lines[0] <= loc.line <= lines[1]:
            found.add(type(value).__name__)
        for name in type(value).model_fields:
            found |= nodes_written_in(getattr(value, name), file, lines)
    return found


# ------------------------------------------------------------- the examples


@pytest.mark.parametrize("construct", CASES)
def test_every_example_compiles_without_errors_or_warnings(
        construct: Construct, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, warnings, _ = compile_construct(construct, tmp_path, monkeypatch)
    assert warnings == [], "\n".join(d.render() for d in warnings)


@pytest.mark.parametrize("construct", CASES)
def test_every_example_compiles_to_the_ir_it_documents(
        construct: Construct, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rs, _, path = compile_construct(construct, tmp_path, monkeypatch)
    found = nodes_written_in(rs, path.name, example_lines(construct))
    assert set(construct.ir) <= found, f"missing {set(construct.ir) - found}; found {found}"


@pytest.mark.parametrize("construct", CASES)
def test_every_example_shows_the_syntax_it_documents(construct: Construct) -> None:
    shown = example_nodes(construct)
    assert set(construct.shows) <= shown, f"missing {set(construct.shows) - shown}"
    own = node_names(construct.grammar_rule)
    if own and not construct.shows:
        assert own & shown, f"the example never uses `{construct.grammar_rule}`"


@pytest.mark.parametrize("construct", WORKED)
def test_the_worked_examples_of_the_reference_pass_in_the_engine(
        construct: Construct, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rs, _, _ = compile_construct(construct, tmp_path, monkeypatch)
    assert rs.examples
    rules = Rules(rs)
    for ex in rs.examples:
        result = run_example(rules, ex)
        assert result.ok, "\n".join(result.failures)


def test_the_wrapped_ruleset_without_an_example_compiles_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "base.rules"
    path.write_text(base_source(), encoding="utf-8")
    _, _, warnings = load_files([path])
    assert warnings == []


def test_an_example_replaces_only_parts_the_base_ruleset_has() -> None:
    known = set(BASE) | {"variant header"}
    for c in CONSTRUCTS:
        assert set(c.replaces) <= known, c.name


# ---------------------------------------------------------------- coverage


def test_every_grammar_rule_named_by_the_reference_exists() -> None:
    names = grammar_names()
    for c in CONSTRUCTS:
        for rule in c.grammar_rules:
            assert rule in names, f"{c.name}: no rule `{rule}` in grammar/rules.lark"


def test_every_construct_belongs_to_a_group_and_has_a_unique_heading() -> None:
    assert all(c.group in GROUPS for c in CONSTRUCTS)
    assert all(c.group == "Expressions" for c in CONSTRUCTS if c.context == "expr")
    assert all(c.group == "Variants" for c in CONSTRUCTS if c.context == "variant")
    assert all(c.group == "Examples and rulings" for c in CONSTRUCTS
               if {"example", "ruling"} & example_nodes(c))
    anchors = [c.anchor for c in CONSTRUCTS]
    assert len(anchors) == len(set(anchors))


def test_every_top_level_item_has_a_construct() -> None:
    documented = {c.grammar_rule for c in CONSTRUCTS}
    items = [a for a in alternatives("_item") if a != "_decl"]
    assert items and set(items) <= documented, set(items) - documented


def test_every_declaration_of_the_grammar_has_a_construct() -> None:
    documented = {c.grammar_rule for c in CONSTRUCTS}
    decls = alternatives("_decl")
    assert len(decls) >= 20
    assert set(decls) <= documented, set(decls) - documented


def test_every_statement_of_the_grammar_has_a_construct() -> None:
    documented = {c.grammar_rule for c in CONSTRUCTS}
    stmts = alternatives("_stmt")
    assert len(stmts) >= 13
    assert set(stmts) <= documented, set(stmts) - documented


def test_every_form_of_the_grammar_appears_in_some_example() -> None:
    """Every rule and alternative that can show in a parse tree: events, moments, deferral,
    expression forms, position facts, expectations, header fields, tile sets, edits."""
    shown: set[str] = set()
    for c in CONSTRUCTS:
        shown |= example_nodes(c)
    for form in ("closes_event", "enters_event", "leaves_event", "laid_event", "at_trigger",
                 "step_target", "turn_target", "game_target", "deferral", "filtered", "is_in",
                 "has", "owned", "alias", "call", "given", "play", "expect_winner"):
        assert form in node_names()
    missing = node_names() - shown
    assert not missing, f"no example of the reference shows: {sorted(missing)}"


def test_every_declaration_class_of_the_ir_has_a_construct() -> None:
    classes = declaration_classes()
    assert {cls.__name__ for cls in classes} >= {"Action", "Forbid", "Trigger", "Look"}
    missing = [cls.__name__ for cls in classes if not any(cls.__name__ in c.ir for c in CONSTRUCTS)]
    assert not missing, f"IR declarations without a reference entry: {missing}"


def test_every_statement_and_expression_class_of_the_ir_has_a_construct() -> None:
    documented = {name for c in CONSTRUCTS for name in c.ir}
    for cls in statement_classes() + expression_classes():
        assert cls.__name__ in documented, cls.__name__


# ----------------------------------------------------------------- grammar


def test_a_grammar_excerpt_is_the_rule_as_the_grammar_file_writes_it() -> None:
    text = GRAMMAR_FILE.read_text(encoding="utf-8")
    for c in CONSTRUCTS:
        for rule in c.grammar_rules:
            excerpt = grammar_excerpt(rule)
            assert excerpt in text
            assert excerpt.lstrip("?!").startswith(rule)


def test_a_grammar_excerpt_keeps_the_continuation_lines() -> None:
    excerpt = grammar_excerpt("_decl")
    assert len(excerpt.splitlines()) == len(alternatives("_decl"))
    assert grammar_excerpt("trigger").splitlines()[1].lstrip().startswith("|")


def test_an_unknown_grammar_rule_is_an_error() -> None:
    with pytest.raises(KeyError):
        grammar_excerpt("no_such_rule")


# -------------------------------------------------------------------- page


def test_the_page_has_a_section_per_construct_with_its_example_and_grammar() -> None:
    page = reference_page()
    assert page.startswith("---\ntitle: Language reference")
    for group in GROUPS:
        assert f"\n## {group}\n" in page
    for c in CONSTRUCTS:
        assert f"\n### {c.name} {{#{c.anchor}}}\n" in page
        assert c.summary in page
        section = page.split(f"{{#{c.anchor}}}", 1)[1].split("\n### ", 1)[0]
        assert "```rules\n" in section and '??? abstract "Grammar"' in section
        for rule in c.grammar_rules:
            for line in grammar_excerpt(rule).splitlines():
                assert "    " + line in section


def test_the_page_lists_every_declaration_class_with_its_construct() -> None:
    page = reference_page()
    for cls in declaration_classes():
        row = next(line for line in page.splitlines() if f"| `{cls.__name__}` |" in line)
        assert "](#ref-" in row and "**missing**" not in row


def test_every_built_in_function_is_used_by_some_example() -> None:
    used = {name for c in CONSTRUCTS for name in re.findall(r"\b(\w+)\(", c.example)}
    assert set(FUNCTIONS) <= used, set(FUNCTIONS) - used
