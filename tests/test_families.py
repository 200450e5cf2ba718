"""Resource families, player attributes, seat order and borrowed tiles.

A small market game: gems come in two colours (a family), a player may buy a
gem of the colour they choose, and the player with the most luck (a player
attribute) after each turn passes a point clockwise. A second ruleset borrows
the Deluxe edition's tiles without being a variant of it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.engine.formats import from_state, position_from_model
from compiler.engine.position import Position, Rules
from compiler.load import load_files
from tests import compiled

GAME = '''
ruleset market {
    title "Market"
    players 2 to 3
    seats ann "Ann", bob "Bob", cat "Cat"
    chapters main
}
chapter main "Main" {
    rule main.board "Board" {
        lattice square
        edge field "field"
        match same
        area field "field" crosses field {
            holds gem
        }
        piece pawn "pawn"
        resource points "point" unlimited
        resource ruby "ruby" plural "rubies" limit 2
        resource jade "jade" plural "jades" limit 2
        family gem "gem" plural "gems" of ruby, jade
        score is points
        supply by players { 2: pawn 1 3: pawn 1 }
        use tiles base
        stacks 1
        step act "Act": must one of buy, wish
        game ends after turn when count(stock) == 0
    }
    rule main.buy "Buying" {
        text """Take a gem of the colour you choose."""
        action buy "buy a gem" {
            notation "buy {k}"
            choose k from kinds(gem) where held(pool, it) > 0
            give 1 k to me
            if k is ruby {
                give 1 points to me
            }
        }
    }
    rule main.luck "Luck" {
        text """Wishing adds luck; luck passes a point to the next lucky player."""
        player attribute luck: int "has {value} luck"
        player attribute wished: bool "has wished this turn" reset each turn
        action wish "make a wish" {
            notation "wish"
            set me.luck to me.luck + 1
            set me.wished to true
        }
        at end of turn {
            let next = first(clockwise(me, players where it.luck > 0 and it != me))
            if next is not none {
                give 1 points to next
            }
        }
    }
}
tiles base "Base" {
    tile s1 { face a [field, field, field, field] { field 0, 1, 2, 3 } }
    tile s2 { face a [field, field, field, field] { field 0, 1, 2, 3 } }
    tile s3 { face a [field, field, field, field] { field 0, 1, 2, 3 } }
    tile s4 { face a [field, field, field, field] { field 0, 1, 2, 3 } }
}
'''


def compile_game(tmp_path: Path, text: str = GAME) -> Rules:
    folder = tmp_path / "market"
    folder.mkdir(exist_ok=True)
    (folder / "market.rules").write_text(textwrap.dedent(text), encoding="utf-8")
    return Rules(load_files([folder / "market.rules"])[0])


@pytest.fixture
def start(tmp_path: Path) -> Position:
    return compile_game(tmp_path).start(3, stacks=[["s1", "s2", "s3", "s4"]])


def compile_error(tmp_path: Path, old: str, new: str) -> str:
    with pytest.raises(CompileError) as e:
        compile_game(tmp_path, GAME.replace(old, new))
    return "\n".join(d.render() for d in e.value.diagnostics)


# ------------------------------------------------------------------ families

def test_a_player_chooses_the_kind_and_the_move_names_it(start: Position) -> None:
    assert sorted(start.notation(m) for m in start.legal_moves()) == ["buy jade", "buy ruby",
                                                                     "wish"]
    after = start.apply("buy ruby")
    assert after.state.player_res[0] == {"ruby": 1, "points": 1}


def test_the_family_name_reads_the_total_of_its_kinds(start: Position) -> None:
    after = start.apply(["buy ruby", "buy jade", "buy jade"])
    assert after.state.pool == {"ruby": 1, "jade": 0}
    assert sorted(after.notation(m) for m in after.legal_moves()) == ["buy ruby", "wish"]


def test_giving_a_family_is_refused_with_a_way_out(tmp_path: Path) -> None:
    message = compile_error(tmp_path, "give 1 k to me", "give 1 gem to me")
    assert "`gem` is a family" in message and "kinds(gem)" in message


def test_a_family_of_unknown_resources_is_an_error(tmp_path: Path) -> None:
    message = compile_error(tmp_path, "of ruby, jade", "of ruby, jdae")
    assert "unknown resource `jdae`" in message and "jade" in message


# ------------------------------------------------------- player attributes

def test_a_player_attribute_changes_and_is_kept_in_the_position(start: Position) -> None:
    after = start.apply("wish")
    assert after.state.player_attrs[0] == {"luck": 1}  # `wished` was reset at the turn's end
    again = position_from_model(start.rules, from_state(start.rules, after.state))
    assert again.state.player_attrs == after.state.player_attrs


def test_clockwise_finds_the_next_lucky_player_after_the_active_one(start: Position) -> None:
    # Ann wishes, Bob buys (Ann, the next lucky player after Bob, scores),
    # Cat buys a jade (Ann again).
    after = start.apply(["wish", "buy jade", "buy jade"])
    assert after.scores()["ann"] == 2


def test_an_unknown_player_attribute_is_an_error_with_a_suggestion(tmp_path: Path) -> None:
    message = compile_error(tmp_path, "set me.luck to me.luck + 1", "set me.lcuk to 1")
    assert "unknown player attribute `lcuk`" in message and "luck" in message


def test_a_player_attribute_may_not_shadow_a_resource(tmp_path: Path) -> None:
    message = compile_error(tmp_path, 'player attribute luck: int "has {value} luck"',
                            'player attribute luck: int "has {value} luck"\n'
                            '        player attribute ruby: int')
    assert "player attribute `ruby` has the name of a resource" in message


# ------------------------------------------------------------- borrowing

def test_a_ruleset_borrows_the_tiles_of_another_without_becoming_its_variant(
        tmp_path: Path) -> None:
    text = GAME.replace('    chapters main\n', '    tiles from trian_deluxe\n    chapters main\n')
    text = text.replace("use tiles base", "use tiles base")
    rules = compile_game(tmp_path, text)
    deluxe = compiled.ruleset("trian_deluxe")
    ids = {t.id for t in rules.ruleset.tilesets}
    assert ids == {t.id for t in deluxe.tilesets}  # its own `base` wins over the lender's
    assert rules.ruleset.extends is None and rules.ruleset.changes == []


def test_borrowing_from_an_unknown_ruleset_is_an_error_with_a_suggestion(
        tmp_path: Path) -> None:
    text = GAME.replace('    chapters main\n', '    tiles from trian_deluxx\n    chapters main\n')
    with pytest.raises(CompileError) as e:
        compile_game(tmp_path, text)
    [d] = e.value.diagnostics
    assert "borrows tiles from unknown ruleset `trian_deluxx`" in d.message
    assert "trian_deluxe" in (d.hint or "")
