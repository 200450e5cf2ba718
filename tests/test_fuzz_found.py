"""What fuzzing found in rules files, each pinned down as the author would meet it.

Every case here once ended in a Python traceback, a hang, or a message of
hundreds of megabytes. Each is now a diagnostic at the place of the mistake,
in words; the fuzz tests keep looking for more.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compiler.cli import app
from compiler.diagnostics import MAX_PER_FILE, CompileError, Diagnostic
from compiler.engine.position import Rules
from compiler.load import RULES_DIR, load_files
from tests.fuzzing import bounded, compile_error_is_located

HEADER = 'ruleset house extends trian_deluxe { subtitle "House rules" }\n'


def variant(tmp_path: Path, body: str | bytes) -> Path:
    """A variant of the base game whose single file is HEADER then `body` (from line 2)."""
    path = tmp_path / "house.rules"
    data = body if isinstance(body, bytes) else body.encode("utf-8")
    path.write_bytes(HEADER.encode("utf-8") + data)
    return path


def errors(path: Path) -> list[Diagnostic]:
    with bounded(seconds=60, megabytes=800):
        with pytest.raises(CompileError) as info:
            load_files([path])
    compile_error_is_located(info.value)
    return info.value.diagnostics


def test_a_rules_file_that_is_not_utf8_names_the_file_and_the_byte(tmp_path: Path) -> None:
    path = variant(tmp_path, b'chapter c "Caf\xe9" { }\n')
    [d] = errors(path)
    assert d.file.endswith("house.rules") and (d.line, d.column) == (2, 15)
    assert "not UTF-8" in d.message and "byte 0xe9 at offset 76" in d.message
    assert d.source_line == 'chapter c "Caf\ufffd" { }'


def test_a_number_of_5000_digits_is_too_large_at_its_place(tmp_path: Path) -> None:
    path = variant(tmp_path, 'chapter c "C" { rule c.r "R" { define big = ' + "9" * 5000 + " } }")
    [d] = errors(path)
    assert (d.line, d.column) == (2, 45)
    assert d.message == ("a number of 5,000 digits is too large: numbers in rules files have "
                         "at most 18 digits")
    assert len(d.render()) < 1000  # the quoted line is cut around the caret


def test_250_nots_are_nested_too_deeply(tmp_path: Path) -> None:
    path = variant(tmp_path, 'chapter c "C" { rule c.r "R" { define d = ' + "not " * 250
                   + "true } }")
    [d] = errors(path)
    assert d.line == 2 and d.code == "too-deep"
    assert d.hint == "name a part with `define` or `let`, and use the name"


def test_140_parentheses_are_one_number(tmp_path: Path) -> None:
    path = variant(tmp_path, 'chapter c "C" { rule c.r "R" { define d = ' + "(" * 140 + "1"
                   + ")" * 140 + " } }")
    ruleset, _, warnings = load_files([path])
    [define] = next(r for r in ruleset.all_rules() if r.id == "c.r").decls
    assert define.expr.value == 1
    assert [w.message for w in warnings] == ["definition `d` is never used"]


def test_a_die_of_two_billion_sides_is_refused_when_checked(tmp_path: Path) -> None:
    path = variant(tmp_path, 'chapter c "C" { rule c.r "R" { define d = die(2147483648) } }')
    [d] = [d for d in errors(path) if d.severity == "error"]
    assert d.message == "a die has 1 to 100 sides, not 2,147,483,648"
    assert (d.line, d.column) == (2, 47)


def test_a_die_whose_sides_are_computed_is_bounded_when_rolled(tmp_path: Path) -> None:
    path = variant(tmp_path, '''
replace rule actions.research "Research" {
    text "Roll a die with a thousand sides per tile on the board."
    action research "research" {
        notation "research"
        give die(count(tiles) * 1000) points to me
    }
}
''')
    ruleset, _, _ = load_files([path])
    pos = Rules(ruleset).start(2, seed=1)
    pos = pos.apply(pos.legal_moves()[0])  # lay the first tile: research is open now
    with bounded(megabytes=300):
        ruling = pos.adjudicate("research ! 7")
    assert ruling.verdict == "ILLEGAL"
    [breach] = ruling.moves[0].breaches
    assert breach.message == ("the rules cannot carry this out: a die has 1 to 100 sides, and "
                              "this one would have 1,000")


def test_ten_to_the_400_stacks_is_refused_when_read(tmp_path: Path) -> None:
    path = variant(tmp_path, 'chapter c "C" { rule c.r "R" { stacks 1' + "0" * 400 + " } }")
    [d] = errors(path)
    assert "a number of 401 digits is too large" in d.message


def test_more_stacks_than_tiles_is_refused_when_checked(tmp_path: Path) -> None:
    path = variant(tmp_path, 'chapter c "C" { rule c.r "R" { stacks 100000000 } }')
    [d] = errors(path)
    assert d.message == "100,000,000 stacks, but the game has only 72 tiles to deal into them"
    assert (d.line, d.column) == (2, 32)


def test_a_choice_of_upto_a_billion_is_refused_when_checked(tmp_path: Path) -> None:
    path = variant(tmp_path, '''
replace rule actions.research "Research" {
    text "Research, and say how many."
    action research "research {n}" {
        notation "research {n}"
        choose n from upto(1000000000)
        give 1 points to me
    }
}
''')
    [d] = [d for d in errors(path) if d.severity == "error"]
    assert d.message == "`upto` offers a choice of 0 to at most 1,000, not 1,000,000,000"


def test_ten_thousand_errors_on_one_line_print_fifty_and_a_count(tmp_path: Path) -> None:
    path = variant(tmp_path, 'chapter c "C" { rule c.r "R" { define f = '
                   + " + ".join(["nosuch"] * 10_000) + " } }")
    found = errors(path)
    assert len(found) == MAX_PER_FILE + 1
    assert found[-1].code == "too-many"
    assert found[-1].message == "9,950 errors more in this file, not shown"
    assert len(str(CompileError(found))) < 30_000


def test_an_attribute_of_an_untyped_parameter_is_an_error_not_a_crash(tmp_path: Path) -> None:
    path = variant(tmp_path, 'chapter c "C" {\n  rule c.r "R" {\n    define f(a) = a.foo\n  }\n}\n')
    [d] = [d for d in errors(path) if d.severity == "error"]
    assert d.message == "cannot tell what `a` is, so its attribute `foo` cannot be read"
    assert (d.line, d.column, d.end_column) == (4, 21, 24)


EXAMPLE = '''
example house_turn "A given position" {{
    given {{
        players quuylto, xemh
        turn {turn} xemh step tile
        {fact}
    }}
    play "research"
    expect illegal
}}
'''


def test_an_example_at_turn_0_is_reported_at_its_line(tmp_path: Path) -> None:
    path = variant(tmp_path, EXAMPLE.format(turn=0, fact=""))
    [d] = errors(path)
    assert d.message == "turns are counted from 1, not 0"
    assert (d.line, d.column) == (6, 14)


def test_a_text_value_for_a_number_attribute_is_reported_at_its_line(tmp_path: Path) -> None:
    path = variant(tmp_path, EXAMPLE.format(turn=3, fact="area 0,0:nebula gathered hello"))
    [d] = errors(path)
    assert d.message == "`gathered` is a number, not `hello`: write a whole number"
    assert (d.line, d.column) == (7, 25)


def test_a_rule_declared_twice_in_a_replaced_chapter_is_an_error(tmp_path: Path) -> None:
    path = variant(tmp_path, '''replace chapter actions "Step 3: one action" {
    rule actions.research "Research" { text "One." }
    rule actions.research "Research again" { text "Two." }
}
''')
    [d] = errors(path)
    assert d.message.startswith("rule `actions.research` is declared twice (first declared at ")
    assert (d.line, d.column) == (4, 10)


def test_a_dangling_reference_is_reported_where_it_is_written(tmp_path: Path) -> None:
    path = variant(tmp_path, '''chapter c "C" {
    text """
    First line.
    See the [[nosuch|some words]] here.
    """
}
''')
    [d] = errors(path)
    assert d.message == "`[[nosuch]]` refers to no term"
    assert (d.line, d.column, d.end_column) == (5, 13, 34)


def test_a_line_separator_in_a_string_does_not_shift_the_quoted_line(tmp_path: Path) -> None:
    path = variant(tmp_path, 'chapter c "C" { text "one\u2028two" }\nchapter d "D" { oops }\n')
    [d] = errors(path)
    assert d.line == 3 and d.source_line == 'chapter d "D" { oops }'
    assert "\u2028" not in d.render()


def test_a_line_separator_outside_a_string_is_named(tmp_path: Path) -> None:
    path = variant(tmp_path, 'chapter c "C" {\u2028}\n')
    [d] = errors(path)
    assert d.message.startswith("unexpected character `U+2028`")
    assert "\u2028" not in d.render()


def test_an_inherited_example_that_fails_is_printed_once_naming_its_rulesets(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("trian_deluxe", "trian_six", "trian_more_tiles"):
        shutil.copytree(RULES_DIR / name, tmp_path / name)
    spoiled = tmp_path / "trian_deluxe" / "examples_areas.rules"
    spoiled.write_text(spoiled.read_text().replace("expect points quuylto +4",
                                                   "expect points quuylto +5", 1))
    monkeypatch.chdir(tmp_path)  # the variants now extend the spoiled copy
    result = CliRunner().invoke(app, ["check", "trian_deluxe", "trian_six", "trian_more_tiles"])
    assert result.exit_code == 1
    said = result.output
    assert said.count("example `nebula_four` disagrees") == 1
    assert ("trian_deluxe/examples_areas.rules:5:1: error: example `nebula_four` disagrees with "
            "the engine in trian_deluxe, trian_six and trian_more_tiles [example]") in said


def test_nesting_as_deep_as_allowed_compiles_plays_and_is_written(tmp_path: Path) -> None:
    """At the limit, every stage that walks the nodes (checker, engine, English,
    formulas) stays within Python's stack, with room to spare."""
    import sys

    from compiler.engine.scenario import run_example
    from compiler.parse import MAX_NESTING
    from compiler.rulebook.pages import RulesetPages
    depth = MAX_NESTING - 6
    body = "give 1 points to me"
    for _ in range(depth // 2):
        body = f"if true {{ {body} }}"
    path = variant(tmp_path, f'''
replace rule actions.research "Research" {{
    text "Deep."
    define deep_not = {"not " * depth}true
    define deep_sum = {"-" * depth}1
    define deep_if = {"if true then " * depth}1{" else 0" * depth}
    action research "research" {{
        notation "research"
        require deep_not() or deep_sum() <= 1 and deep_if() >= 0
        {body}
    }}
}}
''')
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(600)  # well under Python's default of 1,000
    try:
        ruleset, _, _ = load_files([path])
        rules = Rules(ruleset)
        pos = rules.start(2, seed=1)
        pos = pos.apply(pos.legal_moves()[0])
        assert pos.adjudicate("research").verdict == "LEGAL"
        results = {ex.id: run_example(rules, ex) for ex in ruleset.examples}
        pages = RulesetPages(rules, results, "").pages()
    finally:
        sys.setrecursionlimit(limit)
    assert any("Deep." in page.text for page in pages)


def test_setting_something_that_is_no_attribute_is_said_in_words(tmp_path: Path) -> None:
    path = variant(tmp_path, '''replace rule actions.research "Research" {
    text "Research."
    action research "research" {
        notation "research"
        set points to 3
    }
}
''')
    [d] = errors(path)
    assert d.message == "`set` changes an attribute of something"
    assert d.hint == "write `set THING.ATTRIBUTE to VALUE`"
    assert (d.line, d.column) == (6, 9)
