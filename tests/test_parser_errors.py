"""Mistakes in rules files: each kind is reported at its place, in words, with a hint.

One test per kind of error, as an author would make it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.load import load_files
from compiler.parse import parse_rules
from compiler.parse.errors import SYNTAX_EXAMPLES
from tests.conftest import DELUXE, compile_errors

HEADER = """
ruleset demo {
    title "Demo"
    players 2 to 3
    chapters main
}
"""

MINIMAL = """
chapter main "Main" {
    rule main.board "Board" {
        lattice triangle
        edge space "space"
        match same
        area space "space" crosses space
        piece pawn "pawn"
        resource points "point" unlimited
        score is points
        supply by players { 2: pawn 3 3: pawn 2 }
        use tiles base
        step act "Act": must one of research
        action research "research" { give 1 points to me }
    }
}
tiles base "Base" { tile t1 { face a [space, space, space] { space 0, 1, 2 } } }
"""


def syntax_error(text: str):
    with pytest.raises(CompileError) as info:
        parse_rules(text, "demo.rules")
    [d] = info.value.diagnostics
    return d


def test_a_well_formed_minimal_ruleset_loads(tmp_path: Path) -> None:
    assert compile_errors(tmp_path, header=HEADER, main=MINIMAL) == []


# ---------------------------------------------------------------- syntax


def test_a_missing_closing_brace_names_the_block_left_open_and_where() -> None:
    d = syntax_error('chapter c "C" {\n  rule r "R" {\n    text "x"\n  }\n')
    assert d.code == "syntax"
    assert (d.line, d.column) == (1, 15)  # the chapter's `{`: the rule's was closed
    assert d.message == 'this `{` is never closed: the file ends inside `chapter c "C" {`'
    assert "}" in (d.hint or "")


def test_braces_in_strings_and_comments_do_not_count() -> None:
    d = syntax_error('chapter c "C" {  # a { in a comment\n  text "a } in a string"\n')
    assert (d.line, d.column) == (1, 15)


def test_an_unclosed_string_says_so_where_it_opens() -> None:
    d = syntax_error('chapter c "C" {\n  text "hello\n}\n')
    assert (d.line, d.column) == (2, 8)
    assert d.message == 'this string is never closed: the line ends before its closing `"`'


def test_a_word_the_lexer_cut_is_shown_whole_with_what_it_may_mean() -> None:
    d = syntax_error('chapter c "C" {\n  rule r "R" {\n    player attribute lucky: boolean\n'
                     '  }\n}\n')
    assert d.message.startswith("unexpected `boolean`")
    assert (d.column, d.end_column) == (29, 36)  # under the whole word, not `ean`
    assert d.hint == "did you mean `bool`?"


def test_unexpected_word_names_what_was_expected_in_words() -> None:
    d = syntax_error('chapter c "C" {\n  text hello\n}\n')
    assert (d.line, d.column) == (2, 8)
    assert "text must be a quoted string" in d.message
    assert "a quoted string" in d.message


def test_mistyped_keyword_gets_a_did_you_mean() -> None:
    d = syntax_error('chapter c "C" {\n  rul r "R" { }\n}\n')
    assert d.hint == "did you mean `rule`?"
    assert d.source_line == '  rul r "R" { }'
    rendered = d.render()
    assert "demo.rules:2:3" in rendered
    assert "\n      ^^^" in rendered


def test_single_quotes_are_explained() -> None:
    d = syntax_error("chapter c 'C' { }\n")
    assert "unexpected character `'`" in d.message
    assert d.hint and "double quotes" in d.hint


def test_an_incomplete_comparison_is_explained() -> None:
    d = syntax_error('chapter c "C" { rule r "R" { action a "A" { require count(tiles) > } } }')
    assert "a comparison needs a value on both sides" in d.message


def test_a_tile_face_without_labels_is_explained() -> None:
    d = syntax_error('tiles t "T" { tile t1 { face a { space 0 } } }')
    assert "lists its edge labels in brackets" in d.message


@pytest.mark.parametrize("message,examples", list(SYNTAX_EXAMPLES.items()))
def test_every_listed_mistake_produces_its_message(message: str, examples: list[str]) -> None:
    for text in examples:
        assert message in syntax_error(text).message, text


# --------------------------------------------------------------- names


def test_unknown_kind_in_a_prohibition_suggests_the_right_one(tmp_path: Path) -> None:
    broken = MINIMAL.replace("piece pawn \"pawn\"",
                             "piece pawn \"pawn\"\n        forbid pwn entering s when true")
    [d] = compile_errors(tmp_path, header=HEADER, main=broken)
    assert d.code == "unknown-name"
    assert "unknown piece kind `pwn`" in d.message
    assert d.hint == "did you mean `pawn`?"
    assert d.source_line is not None and d.source_line[d.column - 1:].startswith("pwn")


def test_unknown_resource_suggests_the_right_one(tmp_path: Path) -> None:
    broken = MINIMAL.replace("give 1 points to me", "give 1 point to me")
    [d] = compile_errors(tmp_path, header=HEADER, main=broken)
    assert "unknown resource `point`" in d.message
    assert d.hint == "did you mean `points`?"


def test_unknown_action_in_a_step(tmp_path: Path) -> None:
    broken = MINIMAL.replace("must one of research", "must one of reserch")
    [d] = compile_errors(tmp_path, header=HEADER, main=broken)
    assert "unknown action `reserch`" in d.message
    assert d.hint == "did you mean `research`?"


def test_unknown_attribute_lists_what_exists(tmp_path: Path) -> None:
    broken = MINIMAL.replace("give 1 points to me", "give me.pionts points to me")
    [d] = compile_errors(tmp_path, header=HEADER, main=broken)
    assert "a player has no attribute `pionts`" in d.message
    assert d.hint == "did you mean `points`?"


def test_dangling_rule_reference_in_prose(tmp_path: Path) -> None:
    broken = MINIMAL.replace('rule main.board "Board" {',
                             'rule main.board "Board" {\n        text "See [[rule:main.bord]]."')
    [d] = compile_errors(tmp_path, header=HEADER, main=broken)
    assert d.code == "dangling-reference"
    assert d.hint == "did you mean `main.board`?"


def test_duplicate_rule_id_points_at_the_first(tmp_path: Path) -> None:
    broken = MINIMAL.replace('rule main.board "Board" {',
                             'rule main.board "Twice" { }\n    rule main.board "Board" {')
    diags = compile_errors(tmp_path, header=HEADER, main=broken)
    assert any(d.code == "duplicate" and "rule `main.board` is declared twice" in d.message
               and "first declared at" in d.message for d in diags)


def test_chapter_not_listed_in_the_header(tmp_path: Path) -> None:
    extra = MINIMAL + '\nchapter extra "Extra" { }\n'
    [d] = compile_errors(tmp_path, header=HEADER, main=extra)
    assert "chapter `extra` is not listed" in d.message


# --------------------------------------------------------------- types


def test_comparing_a_number_with_a_collection_is_a_type_error(tmp_path: Path) -> None:
    broken = MINIMAL.replace("action research \"research\" {",
                             "action research \"research\" { require count(tiles) > tiles")
    [d] = compile_errors(tmp_path, header=HEADER, main=broken)
    assert d.code == "type"
    assert "compares numbers, not a collection of tiles" in d.message


def test_a_condition_that_is_not_yes_or_no(tmp_path: Path) -> None:
    broken = MINIMAL.replace("action research \"research\" {",
                             "action research \"research\" { require count(tiles)")
    [d] = compile_errors(tmp_path, header=HEADER, main=broken)
    assert "a requirement should be a yes/no condition, but this is a number" in d.message


def test_wrong_number_of_arguments(tmp_path: Path) -> None:
    broken = MINIMAL.replace("action research \"research\" {",
                             "action research \"research\" { require count(tiles, tiles) > 0")
    [d] = compile_errors(tmp_path, header=HEADER, main=broken)
    assert d.code == "arity"


# --------------------------------------------------------------- tiles


def test_a_face_with_the_wrong_number_of_edges(tmp_path: Path) -> None:
    broken = MINIMAL.replace("face a [space, space, space]", "face a [space, space]")
    [d] = compile_errors(tmp_path, header=HEADER, main=broken)
    assert "lists 2 edges; a triangle tile has 3" in d.message


def test_an_edge_no_segment_reaches(tmp_path: Path) -> None:
    broken = MINIMAL.replace("{ space 0, 1, 2 }", "{ space 0, 1 }")
    [d] = compile_errors(tmp_path, header=HEADER, main=broken)
    assert "edge 2 is `space`, so exactly one `space` segment must reach it (found 0)" \
        in d.message


# ------------------------------------------------- on the real ruleset


def test_planted_mistakes_in_the_real_ruleset_are_all_reported(tmp_path: Path) -> None:
    copy = tmp_path / "deluxe"
    shutil.copytree(DELUXE, copy)
    actions = copy / "actions.rules"
    actions.write_text(actions.read_text().replace(
        "forbid emissary entering s when s.tile has emissary",
        "forbid emisary entering s when s.tile has emissary"))
    areas = copy / "areas.rules"
    areas.write_text(areas.read_text().replace("set a.controller to p", "set a.controler to p"))
    with pytest.raises(CompileError) as info:
        load_files(sorted(copy.glob("*.rules")))
    found = {(Path(d.file).name, d.hint) for d in info.value.diagnostics}
    assert ("actions.rules", "did you mean `emissary`?") in found
    assert ("areas.rules", "did you mean `controller`?") in found


def test_a_missing_value_is_asked_for_as_a_value_not_as_a_list_of_first_words() -> None:
    """Where any expression may stand, the message names what the construct needs."""
    d = syntax_error('chapter c "C" { rule c.r "R" { action a "A" { give 1 points to } } }')
    assert d.message == "unexpected `}`; expected a value, such as `2`, `me` or `count(tiles)`"
    d = syntax_error('chapter c "C" { rule c.r "R" { define d = 1 + } }')
    assert d.message == "unexpected `}`; expected a value, such as `2`, `me` or `count(tiles)`"


def test_a_misspelt_statement_is_asked_for_as_a_statement_with_a_did_you_mean() -> None:
    d = syntax_error('chapter c "C" { rule c.r "R" { at start of turn { gve 1 points to me } } }')
    assert d.message == ("unexpected `gve`; expected `}` or a statement, such as `give`, "
                         "`place`, `set`, `if` or `grant`")
    assert d.hint == "did you mean `give`?"


def test_a_listed_mistake_is_recognised_after_other_items_too() -> None:
    """Lark's match_examples asks for the same depth of parse: the same mistake in a file's
    second chapter went unexplained. The sentence comes wherever it is made."""
    d = syntax_error('chapter b "B" { }\nchapter c "C" {\n  rule r "R" {\n    text "t"\n'
                     '    action a "A" {\n      give 1 points\n    }\n  }\n}')
    assert d.message.startswith("`give` says who receives: `give AMOUNT RESOURCE to WHOM`")


def test_an_unknown_name_in_a_trigger_names_what_the_event_binds(tmp_path: Path) -> None:
    [d] = [x for x in compile_errors(tmp_path, header=HEADER, main=MINIMAL.replace(
        'action research "research" { give 1 points to me }',
        'action research "research" { give 1 points to me }\n'
        '        when space a closes { give 1 points to owner }')) if x.severity == "error"]
    assert d.message == "unknown name `owner`"
    assert d.hint is not None and "bound here: `a` (an area), `closer` (a player)" in d.hint


def test_setting_a_resource_says_it_is_given_and_taken(tmp_path: Path) -> None:
    [d] = [x for x in compile_errors(tmp_path, header=HEADER, main=MINIMAL.replace(
        'action research "research" { give 1 points to me }',
        'action research "research" { set me.points to 3 }')) if x.severity == "error"]
    assert d.message == "`points` is a resource, not an attribute: it is given and taken, not set"
    assert d.hint == "`give 3 points to me`, or `give 1 points from me to pool` to take one away"
