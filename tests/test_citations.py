"""Rulings cite the rule that decided them, even where it only changed a test.

A small game of wagers: a player stakes coins, then must double or walk away.
A player with 2 coins or fewer left is bold (a `condition` of its own rule),
and a bold player's double pays three times the stake. The bold rule is
cited when, and only when, boldness made the difference; and a move the
compulsory choice does not offer is refused citing the rule that made it.
"""

from __future__ import annotations

import textwrap

import pytest

from compiler.diagnostics import CompileError
from compiler.engine.position import Position, Rules
from compiler.load import load_files

GAME = '''
ruleset bold_wagers {
    title "Bold wagers"
    players 2 to 2
    seats ann "Ann", bob "Bob"
    chapters main
}
chapter main "Main" {
    rule main.board "Board" {
        lattice square
        edge field "field"
        match same
        area field "field" crosses field
        piece pawn "pawn"
        resource points "point" unlimited
        resource coin "coin" limit 20
        score is points
        supply by players { 2: pawn 1 }
        use tiles base
        stacks 1
        step act "Act": must one of stake
        game ends after turn when count(players where it.points >= 10) > 0
    }
    rule main.start "Purses" {
        text """Each player starts with 5 coins."""
        at start of game {
            for each p in players {
                give 5 coin to p
            }
        }
    }
    rule main.stake "Staking" {
        text """Stake up to 3 coins, then double or walk away."""
        action stake "stake coins" {
            notation "stake {k}"
            choose k from upto(min(3, me.coin))
            give k coin from me to pool
            grant must either double or walk with k = k
        }
        action double "double" {
            notation "double {k}"
            choose k from upto(3)
            give (if bold(me) then 3 else 2) * k points to me
        }
        action walk "walk away" {
            notation "walk {k}"
            choose k from upto(3)
            give k points to me
        }
    }
    rule main.bold "Boldness" {
        text """A player with 2 coins or fewer left is bold: doubling pays three times."""
        condition bold(p) "{p} is bold" = p.coin <= 2
    }
}
tiles base "Base" {
    tile s1 { face a [field, field, field, field] { field 0, 1, 2, 3 } }
    tile s2 { face a [field, field, field, field] { field 0, 1, 2, 3 } }
}
'''


def load(tmp_path, text: str) -> Rules:
    path = tmp_path / "bold_wagers.rules"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return Rules(load_files([path])[0])


@pytest.fixture
def start(tmp_path) -> Position:
    return load(tmp_path, GAME).start(2, stacks=[["s1", "s2"]])


def cited(pos: Position, move: str) -> list[str]:
    ruling = pos.adjudicate(move)
    assert ruling.verdict == "LEGAL"
    return [c.id for c in ruling.moves[0].decided_by]


def test_a_condition_that_held_is_cited(start: Position) -> None:
    """Staking 3 of 5 coins leaves Ann bold: her double pays 9, and the ruling says why."""
    after = start.apply("stake 3")
    assert "main.bold" in cited(after, "double 3")
    assert after.apply("double 3").scores()["ann"] == 9


def test_a_condition_that_did_not_hold_is_not_cited(start: Position) -> None:
    """Staking 1 coin leaves Ann 4: she is not bold, and boldness is not cited."""
    after = start.apply("stake 1")
    assert cited(after, "double 1") == ["main.board", "main.stake"]
    assert after.apply("double 1").scores()["ann"] == 2


def test_a_move_the_compulsory_choice_leaves_out_cites_the_rule_that_made_it(
        start: Position) -> None:
    """After staking, only doubling or walking away is open: staking again is refused
    by the turn's step and by the staking rule that demands the choice."""
    ruling = start.apply("stake 2").adjudicate("stake 1")
    assert ruling.verdict == "ILLEGAL"
    breaches = ruling.moves[0].breaches
    assert [b.rule.id for b in breaches if b.rule] == ["main.board", "main.stake"]
    assert "double, walk away" in breaches[1].message


def test_a_condition_must_be_a_yes_or_no_test(tmp_path) -> None:
    with pytest.raises(CompileError) as e:
        load(tmp_path, GAME.replace('condition bold(p) "{p} is bold" = p.coin <= 2',
                                    'condition bold(p) "{p} is bold" = p.coin'))
    assert any("the condition `bold` should be true or false" in d.message
               for d in e.value.diagnostics)
