"""Named effects, choices between actions, and choosing how many.

A small game of wagers: a player stakes up to 3 coins (`upto`), then must
either double or walk away (`grant must either … or …`); both endings pay
through the same named effect (`effect` / `apply`), so the rule that pays is
written once and the engine runs it from both places.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.engine.position import Position, Rules
from compiler.load import load_files

GAME = '''
ruleset wagers {
    title "Wagers"
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
            apply pay(me, 2 * k)
        }
        action walk "walk away" {
            notation "walk {k}"
            choose k from upto(3)
            apply pay(me, k)
        }
    }
    rule main.pay "Paying" {
        text """Winnings are points."""
        effect pay(p, n) "pay {p} {n} points" {
            give n points to p
        }
    }
}
tiles base "Base" {
    tile s1 { face a [field, field, field, field] { field 0, 1, 2, 3 } }
    tile s2 { face a [field, field, field, field] { field 0, 1, 2, 3 } }
}
'''


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    folder = tmp_path_factory.mktemp("wagers")
    (folder / "wagers.rules").write_text(textwrap.dedent(GAME), encoding="utf-8")
    return Rules(load_files([folder / "wagers.rules"])[0])


@pytest.fixture
def start(rules: Rules) -> Position:
    return rules.start(2, stacks=[["s1", "s2"]])


def test_upto_offers_every_count_from_nothing_to_the_limit(start: Position) -> None:
    assert sorted(start.notation(m) for m in start.legal_moves()) == [
        "stake 0", "stake 1", "stake 2", "stake 3"]


def test_a_compulsory_choice_between_two_actions_offers_exactly_those(start: Position) -> None:
    after = start.apply("stake 2")
    assert sorted(after.notation(m) for m in after.legal_moves()) == ["double 2", "walk 2"]
    assert after.adjudicate("stake 1").verdict == "ILLEGAL"


def test_both_endings_pay_through_the_same_effect(start: Position) -> None:
    assert start.apply(["stake 2", "double 2"]).scores()["ann"] == 4
    assert start.apply(["stake 2", "walk 2"]).scores()["ann"] == 2


def wagers_with(tmp_path, old: str, new: str) -> Path:
    """The wagers game with one piece of its text changed, written where it can be loaded."""
    folder = tmp_path / "wagers"
    folder.mkdir()
    path = folder / "wagers.rules"
    path.write_text(textwrap.dedent(GAME).replace(old, new), encoding="utf-8")
    return path


def test_an_unknown_effect_is_an_error_with_a_suggestion(tmp_path) -> None:
    with pytest.raises(CompileError) as e:
        load_files([wagers_with(tmp_path, "apply pay(me, k)", "apply payy(me, k)")])
    [d] = e.value.diagnostics
    assert "unknown effect `payy`" in d.message and "pay" in (d.hint or "")


def test_an_effect_applied_with_the_wrong_number_of_values_is_an_error(tmp_path) -> None:
    with pytest.raises(CompileError) as e:
        load_files([wagers_with(tmp_path, "apply pay(me, k)", "apply pay(me)")])
    assert any("takes 2 argument(s), 1 given" in d.message for d in e.value.diagnostics)


def test_two_actions_written_alike_are_an_error(tmp_path) -> None:
    """`double {k}` and `walk {k}` made to read alike: a record could not tell them apart."""
    from compiler.engine.notation import notation_clashes
    path = wagers_with(tmp_path, 'notation "walk {k}"', 'notation "double {k}"')
    game = Rules(load_files([path])[0]).game
    [problem] = notation_clashes(game)
    assert "`double` and `walk` both read `double 1`" in problem.message
    assert problem.code == "notation" and problem.file.endswith("wagers.rules")


def test_the_wagers_notations_are_distinct(rules: Rules) -> None:
    from compiler.engine.notation import notation_clashes
    assert notation_clashes(rules.game) == []
