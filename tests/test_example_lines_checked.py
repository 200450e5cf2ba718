"""Every line of an example's `given` and `expect` is checked before the example runs.

An author who misspells a resource in an expectation, seats a player the
example never seats, or writes `yes` for a condition hears it from `rulebook
check --no-examples` and from the editor, at the line, with a suggestion; not
later as "it is None" when the example happens to run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.diagnostics import CompileError, Diagnostic
from compiler.load import load_files

HEADER = 'ruleset house extends {base} {{ subtitle "House rules" }}\n'

# Line 5 of the file is the `given` line under test; line 10 the expectation.
EXAMPLE = '''example house_one "One example" {{
    given {{
        players quuylto, xemh, khaarquar
        turn 8 xemh step tile
        {given}
        stacks [t06], [t30]
    }}
    play "research"
    expect legal
    {expect}
}}
'''


def problems(tmp_path: Path, *, given: str = "", expect: str = "",
             base: str = "trian_deluxe") -> list[Diagnostic]:
    path = tmp_path / "house.rules"
    path.write_text(HEADER.format(base=base) + EXAMPLE.format(given=given, expect=expect))
    with pytest.raises(CompileError) as info:
        load_files([path])
    return [d for d in info.value.diagnostics if d.severity == "error"]


def test_a_misspelt_resource_in_an_expectation_is_named_with_its_fix(tmp_path: Path) -> None:
    [d] = problems(tmp_path, expect="expect pints xemh +1")
    assert d.message == "there is no resource `pints` in this game"
    assert d.hint == "did you mean `points`?"
    assert (d.line, d.column, d.end_column) == (11, 12, 17)


def test_a_misspelt_resource_in_a_given_line_is_named_too(tmp_path: Path) -> None:
    [d] = problems(tmp_path, given="minerls xemh 3")
    assert d.message == "there is no resource `minerls` in this game"
    assert d.hint == "did you mean `mineral`?"
    assert d.line == 6


def test_a_player_the_example_does_not_seat(tmp_path: Path) -> None:
    [d] = problems(tmp_path, expect="expect points xemm +1")
    assert d.message == "`xemm` does not play in this example"
    assert d.hint == "did you mean `xemh`?"


def test_a_winner_who_does_not_play(tmp_path: Path) -> None:
    [d] = problems(tmp_path, expect="expect winner borfnaree")
    assert d.message == "`borfnaree` does not play in this example"
    assert d.hint == "the players are quuylto, xemh, khaarquar"


def test_yes_for_a_condition_says_to_write_true(tmp_path: Path) -> None:
    [d] = problems(tmp_path, expect="expect area 0,0:nebula settled yes")
    assert d.message == "`settled` is a yes/no condition, not `yes`: write `true`"


def test_yes_for_a_seat_says_which_seats_there_are(tmp_path: Path) -> None:
    [d] = problems(tmp_path, expect="expect area 0,0:nebula controller yes")
    assert d.message == ("`controller` is a player, and `yes` is no seat of this example: "
                         "write `quuylto`, `xemh`, `khaarquar` or none")


def test_closed_is_a_fact_of_its_own_not_an_attribute(tmp_path: Path) -> None:
    [d] = problems(tmp_path, expect="expect area 0,0:nebula closed true")
    assert d.message.startswith("`closed` is no attribute")
    assert d.hint == "write `expect closed 0,0:nebula`"


def test_a_misspelt_piece_and_step(tmp_path: Path) -> None:
    piece, = problems(tmp_path, expect="expect emisary xemh at 2,0:nebula")
    assert piece.message == "there is no kind of piece `emisary` in this game"
    assert piece.hint == "did you mean `emissary`?"
    step, = problems(tmp_path, expect="expect step tyle")
    assert step.message == "unknown step `tyle`"
    assert step.hint == "did you mean `tile`?"


def test_an_attribute_no_one_declared(tmp_path: Path) -> None:
    [d] = problems(tmp_path, expect="expect player xemh has_rolled true")
    assert d.message == "unknown player attribute `has_rolled`"
    assert d.hint == "this game declares no player attributes"


def test_a_seat_by_its_place_is_accepted(tmp_path: Path) -> None:
    """`p2` is the second seat in every game; the engine reads it, so the check does too."""
    path = tmp_path / "house.rules"
    path.write_text(HEADER.format(base="trian_deluxe")
                    + EXAMPLE.format(given="", expect="expect points p2 +1"))
    ruleset, _sources, warnings = load_files([path])
    assert ruleset.id == "house"
    assert not [d for d in warnings if d.severity == "error"]
