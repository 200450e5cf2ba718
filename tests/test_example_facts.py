"""Example facts about laid cards, and `expect value`.

A worked example can lay a card with what it holds and remembers (`card hut1 at
red/1,0 with wood 1, filled 2`), expect a card face down where it lies, and
expect any value the rules can compute (`expect value count(tiles of red) is
3`). Mistakes are reported at their line before anything runs; a value that
differs says what the engine found.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.engine.position import Rules
from compiler.engine.scenario import model_from_facts, run_example
from compiler.engine.formats import position_from_model
from compiler.load import load_files, load_ruleset

OUTPOSTS = Path(__file__).parent / "rulesets" / "outposts"

GIVEN = """
    given {
        players red, blue
        turn 3 red step act
        card t1 at red/0,0
        card hut1 at red/1,0 with filled 1
        card t2 at red/2,0
        card hut2 at red/0,1 with wood 1, filled 2
        card t3 at blue/0,0
        stacks [t4, t5]
    }
"""


def with_example(tmp_path: Path, body: str, source: str | None = None) -> Path:
    """The outposts fixture (or `source`) with one more example, written in `tmp_path`."""
    source = source or (OUTPOSTS / "outposts.rules").read_text(encoding="utf-8")
    source += f'\nexample extra "An extra example" {{\n    illustrates camp.clearing\n{body}}}\n'
    (tmp_path / "outposts.rules").write_text(source, encoding="utf-8")
    return tmp_path / "outposts.rules"


def line(tmp_path: Path, written: str) -> int:
    """The line of the extra example that says `written`."""
    text = (tmp_path / "outposts.rules").read_text(encoding="utf-8")
    return text[:text.rindex(written)].count("\n") + 1


def failures(tmp_path: Path, body: str, source: str | None = None) -> list[str]:
    rules = Rules(load_ruleset(with_example(tmp_path, body, source).parent))
    [ex] = [e for e in rules.ruleset.examples if e.id == "extra"]
    return run_example(rules, ex).failures


def diagnostics(tmp_path: Path, body: str) -> list[str]:
    try:
        load_files([with_example(tmp_path, body)])
    except CompileError as e:
        return [f"{d.line}: {d.message}" + (f" (hint: {d.hint})" if d.hint else "")
                for d in e.diagnostics]
    return []


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules(load_ruleset(OUTPOSTS))


def test_a_card_given_with_what_it_holds_and_remembers_lies_so(rules: Rules) -> None:
    [ex] = [e for e in rules.ruleset.examples if e.id == "clearing_a_hut_at_the_edge"]
    st = position_from_model(rules, model_from_facts(rules, ex.given)).state
    hut = rules.game.parse_cell("red/1,0", None, st.players)
    assert st.board[hut][0:2] == ("hut1", "front")
    assert st.tile_res[hut] == {"wood": 1}
    assert st.tile_attrs[hut] == {"filled": 2}


def test_a_hut_cleared_where_it_holds_the_camp_together_is_expected_face_down(
        tmp_path: Path) -> None:
    assert failures(tmp_path, GIVEN + '    play "clear 1,0"\n'
                                      "    expect card hut1 at red/1,0 down\n") == []


def test_a_card_expected_face_down_that_lies_face_up_fails_saying_so(tmp_path: Path) -> None:
    said = failures(tmp_path, GIVEN + '    play "clear 1,0"\n'
                                      "    expect card hut2 at red/0,1 down\n")
    n = line(tmp_path, "expect card hut2")
    assert said == [f"expected hut2 at red/0,1 to lie face down, but it lies face up (line {n})"]


def test_what_a_card_remembers_is_compared_after_the_moves(tmp_path: Path) -> None:
    said = failures(tmp_path, GIVEN + '    play "clear 1,0"\n'
                                      "    expect card hut2 at red/0,1 with wood 1, filled 3\n"
                                      "    expect no card at red/1,0\n")
    n = line(tmp_path, "expect card hut2")
    assert said == [f"expected filled of hut2 at red/0,1 to be 3, but it is 2 (line {n})",
                    f"expected no card at red/1,0, but hut1 lies there (line {n + 1})"]


def test_an_expected_value_that_differs_says_what_the_engine_found(tmp_path: Path) -> None:
    said = failures(tmp_path, GIVEN + '    play "clear 1,0"\n'
                                      "    expect value count(tiles of red) is 5\n"
                                      "    expect value count(tiles of blue) is 1\n"
                                      "    expect value red.points is 0\n")
    n = line(tmp_path, "expect value count(tiles of red)")
    assert said == [f"expected the number of red’s tiles to be 5, but it is 4 (line {n})"]


def test_an_expected_value_of_the_wrong_type_is_reported_at_its_line(tmp_path: Path) -> None:
    said = diagnostics(tmp_path, GIVEN + "    expect value count(tiles of red) is true\n"
                                         "    expect value tiles of red is 3\n")
    n = line(tmp_path, "expect value count")
    assert said == [
        f"{n}: the value is a number, not `true`: write a whole number",
        f"{n + 1}: `expect value` compares one value, but this is a collection of tiles "
        "(hint: count it: `count(…)`)"]


def test_a_card_fact_naming_what_no_laid_card_has_is_reported_with_a_suggestion(
        tmp_path: Path) -> None:
    said = diagnostics(tmp_path, GIVEN + "    expect card hut9 at red/1,0 with filed 2\n")
    n = line(tmp_path, "expect card hut9")
    assert said == [f"{n}: there is no card `hut9` in this game "
                    "(hint: did you mean `hut2` or `hut1`?)",
                    f"{n}: a laid card has no attribute or holding `filed` "
                    "(hint: did you mean `filled`?)"]


def test_the_rulebook_says_in_words_what_an_example_checked_of_cards_and_values(
        rules: Rules) -> None:
    from compiler.rulebook.fact_words import checked
    [ex] = [e for e in rules.ruleset.examples if e.id == "clearing_a_hut_at_the_edge"]
    said = [checked(rules.game, f, str.title) for f in ex.expect
            if f.fact in ("card", "no_card", "value")]
    assert said == ["no card lies at `red/0,1`",
                    "Hut `hut1` lies at `red/1,0` with wood 1, filled 2",
                    "the number of red’s tiles is 2"]


def recorded(tmp_path: Path, body: str) -> list[str]:
    """`failures`, in outposts where how often a hut was filled is `recorded`: a position
    may leave it out (nobody knows), and a hut built in play starts at 0."""
    source = (OUTPOSTS / "outposts.rules").read_text(encoding="utf-8").replace(
        'attribute filled: int "has been filled {value} times"',
        'attribute filled: int "has been filled {value} times" recorded')
    return failures(tmp_path, body, source)


def test_a_recorded_attribute_a_position_leaves_out_reads_none(tmp_path: Path) -> None:
    assert recorded(tmp_path, GIVEN + "    expect value count(tiles where it.filled is none) "
                                      "is 3\n") == []


def test_a_hut_built_in_play_remembers_from_zero(tmp_path: Path) -> None:
    body = GIVEN.replace("stacks [t4, t5]", "stacks [hut1, t4]").replace(
        "        card hut1 at red/1,0 with filled 1\n", "        card t4 at red/1,0\n").replace(
        "stacks [hut1, t4]", "stacks [hut1, t5]")
    assert recorded(tmp_path, body + '    play "hut1 front at 3,0"\n'
                                     "    expect card hut1 at red/3,0 with filled 1, wood 2\n"
                    ) == []


def test_a_card_with_copies_may_lie_on_the_boards_as_often_as_the_game_has_it(
        tmp_path: Path) -> None:
    source = (OUTPOSTS / "outposts.rules").read_text(encoding="utf-8").replace(
        'card hut1 "Hut" { }', 'card hut1 "Hut" { copies 2 }')
    two = GIVEN.replace("card hut2 at red/0,1 with wood 1, filled 2",
                        "card hut1 at red/0,1 with wood 1, filled 2")
    assert failures(tmp_path, two + "    expect card hut1 at red/0,1\n", source) == []
    three = two.replace("card t3 at blue/0,0", "card hut1 at blue/0,0")
    assert failures(tmp_path, three, source) == [
        "the given position is not valid: zones: hut1 is on the board 3 times, but the game "
        "has 2 copies of it"]


def test_a_breach_on_a_players_board_is_expected_at_that_boards_cell(tmp_path: Path) -> None:
    source = (OUTPOSTS / "outposts.rules").read_text(encoding="utf-8").replace(
        '    rule camp.end "The end" {',
        '    rule camp.empty "Empty huts" {\n'
        '        text """An empty hut is a mistake on the table."""\n'
        '        audit empty "Empty huts" {\n'
        '            breach "it holds no wood" in tiles where it is hut and it.wood == 0\n'
        '        }\n'
        '    }\n\n'
        '    rule camp.end "The end" {')
    assert failures(tmp_path, GIVEN + "    expect breach empty at red/1,0\n", source) == []
    n = line(tmp_path, "expect breach")
    assert failures(tmp_path, GIVEN + "    expect breach empty at blue/1,0\n", source) == [
        f"expected a breach of empty at blue/1,0, but the audits find it only at red/1,0 "
        f"(line {n})"]


def test_a_recorded_zero_is_written_back_and_an_unknown_stays_unknown(tmp_path: Path) -> None:
    from compiler.engine.formats import from_state
    source = (OUTPOSTS / "outposts.rules").read_text(encoding="utf-8").replace(
        'attribute filled: int "has been filled {value} times"',
        'attribute filled: int "has been filled {value} times" recorded')
    body = GIVEN.replace("card hut1 at red/1,0 with filled 1", "card hut1 at red/1,0 with filled 0"
                         ).replace("with wood 1, filled 2", "with wood 1")
    rules = Rules(load_ruleset(with_example(tmp_path, body, source).parent))
    [ex] = [e for e in rules.ruleset.examples if e.id == "extra"]
    st = position_from_model(rules, model_from_facts(rules, ex.given)).state
    written = {t.tile: t.attributes for t in from_state(rules, st).tiles}
    assert (written["hut1"], written["hut2"]) == ({"filled": 0}, {})
