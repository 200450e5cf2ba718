"""Moves a judge is asked about that are not moves here: unreadable text, things not on the
table, actions a variant took away. Each refusal says why in words, and changes nothing."""

from __future__ import annotations

import pytest

from compiler.engine.formats import PositionModel, from_state, position_from_model
from compiler.engine.position import IllegalMove, Position, Rules
from compiler.engine.scenario import settled
from tests import compiled


def _table(rules: Rules, step: str = "action", **extra) -> Position:
    """Xemh has laid t03 at 1,0 this turn, next to t01 at 0,0."""
    model = PositionModel.model_validate({
        "ruleset": rules.ruleset.id,
        "players": [{"seat": "quuylto"}, {"seat": "xemh"}],
        "tiles": [{"at": "0,0", "tile": "t01", "face": "a", "rotation": 0},
                  {"at": "1,0", "tile": "t03", "face": "a", "rotation": 1}],
        "turn": {"player": "xemh", "step": step, "placed": "1,0"}, **extra})
    return settled(position_from_model(rules, model))


@pytest.fixture(scope="module")
def family() -> Rules:
    return compiled.rules("trian_family")


def test_text_that_is_no_move_is_unreadable_and_says_what_moves_look_like(rules: Rules) -> None:
    ruling = _table(rules).adjudicate("xyzzy")
    assert ruling.verdict == "UNREADABLE"
    breach = ruling.moves[0].breaches[0]
    assert breach.rule is None and breach.code == "notation"
    assert "emissary x,y:site  (send an emissary)" in breach.detail
    assert "UNREADABLE" in ruling.render() and "ILLEGAL" not in ruling.render()


def test_a_misspelt_action_gets_a_did_you_mean(rules: Rules) -> None:
    ruling = _table(rules).adjudicate("emisary 1,0:planet")
    assert ruling.verdict == "UNREADABLE"
    assert "did you mean `emissary`?" in ruling.moves[0].breaches[0].message


def test_an_action_word_with_the_wrong_rest_says_how_that_action_is_written(rules: Rules) -> None:
    ruling = _table(rules).adjudicate("emissary 1,0")
    assert ruling.verdict == "UNREADABLE"
    assert "“send an emissary” is written `emissary x,y:site`" in \
        ruling.moves[0].breaches[0].message


@pytest.mark.parametrize("text", ["", "  ", ";", "research;;pass"])
def test_the_empty_move_is_unreadable_not_legal(rules: Rules, text: str) -> None:
    pos = _table(rules)
    ruling = pos.adjudicate(text)
    assert ruling.verdict == "UNREADABLE"
    with pytest.raises(IllegalMove):
        pos.apply(text)


def test_a_final_semicolon_is_not_an_empty_move(rules: Rules) -> None:
    assert _table(rules).adjudicate("research;").verdict == "LEGAL"


@pytest.mark.parametrize("text", ["emissary ٣,0:planet", "emissary 1" + "0" * 5000 + ",0:planet",
                                  "t05 a at 1²,1 r0"])
def test_numbers_are_ascii_digits_and_a_few_of_them(rules: Rules, text: str) -> None:
    ruling = _table(rules).adjudicate(text)
    assert ruling.verdict == "UNREADABLE"
    assert len(ruling.model_dump_json()) < 20_000  # the 5,000 digits are not echoed back


def test_a_move_naming_an_empty_position_is_illegal_citing_the_choice_that_needed_it(
        rules: Rules) -> None:
    ruling = _table(rules).adjudicate("emissary 9,9:planet")
    assert ruling.verdict == "ILLEGAL"
    breach = ruling.moves[0].breaches[0]
    assert breach.rule is not None and breach.rule.id == "actions.emissary"
    assert "there is no tile at 9,9" in breach.message


def test_a_move_naming_a_piece_that_is_not_there_is_illegal(rules: Rules) -> None:
    ruling = _table(rules).adjudicate("teleport emissary@0,0:planet to 1,0:planet")
    assert ruling.verdict == "ILLEGAL"
    breach = ruling.moves[0].breaches[0]
    assert breach.rule is not None and "there is no emissary at 0,0:planet" in breach.message


def test_building_a_station_in_the_family_game_cites_the_variant_removing_it(
        family: Rules) -> None:
    ruling = _table(family).adjudicate("upgrade station@1,0:planet")
    assert ruling.verdict == "ILLEGAL"
    breach = ruling.moves[0].breaches[0]
    assert "is not part of Family variant" in breach.message and "removes rule" in breach.message
    assert breach.rule is not None and breach.rule.url.endswith("/trian-family/changes/#removed")


def test_a_corvette_in_the_more_tiles_game_is_named_as_the_expansions_move() -> None:
    more = compiled.rules("trian_more_tiles")
    ruling = _table(more).adjudicate("corvette 1,0:space")
    assert ruling.verdict == "UNREADABLE"
    assert "is a move of Początek Podboju expansion (`trian_conquest`)" in \
        ruling.moves[0].breaches[0].message


def test_an_unreadable_or_absent_move_changes_nothing(rules: Rules, family: Rules) -> None:
    for r, text in [(rules, "xyzzy"), (rules, "emissary 9,9:planet"),
                    (family, "upgrade station@1,0:planet")]:
        pos = _table(r)
        before = from_state(pos.rules, pos.state)
        with pytest.raises(IllegalMove):
            pos.apply(f"research; {text}")
        assert from_state(pos.rules, pos.state) == before
