"""Which actions a definition can decide, read from the rules alone (`Explainer.may_decide`).

A ruling cites the definitions that took effect in allowing a move (`deciding`); working
that out means working the move out again. In Trian Deluxe, laying a tile or researching
calls no definition that has a rule of its own, so nothing can take effect there and a
ruling does not look. Sending an emissary is forbidden `when in_field(s.tile)` (the
Exmitter's field, a definition of its own rule): where the move is allowed that came out
false, and took no effect either. In Trian Conquest, launching a Corvette is forbidden
when `count(corvette where in_space(it, s.area)) > 0`: `in_space` may hold of a Corvette
elsewhere even where the launch is allowed, so a ruling looks. Over seeded games, every
move of an action found silent would have been found to decide nothing had it been
worked out again.
"""

import pytest

from compiler.engine import explain
from compiler.engine.explain import explainer
from compiler.engine.position import Rules
from compiler.engine.random_play import random_game
from compiler.load import load_ruleset


@pytest.mark.parametrize(("ruleset", "action", "may"), [
    ("trian_deluxe", "lay_tile", False), ("trian_deluxe", "research", False),
    ("trian_deluxe", "send_emissary", False), ("trian_conquest", "launch_corvette", True)])
def test_an_action_may_be_decided_by_a_definition_only_if_one_can_take_effect(
        ruleset: str, action: str, may: bool) -> None:
    game = Rules(load_ruleset(ruleset)).game
    assert explainer(game).may_decide(game.actions[action]) is may


@pytest.mark.parametrize("ruleset", ["trian_deluxe", "trian_conquest", "trian_new_order",
                                     "among_the_stars"])
def test_a_silent_action_decides_nothing_when_worked_out_again(
        ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules(load_ruleset(ruleset))
    ex = explainer(rules.game)
    silent: list[tuple[str, list[str]]] = []

    def observe(done) -> None:  # type: ignore[no-untyped-def]
        action = done.action
        if action is None or ex.may_decide(action):
            return
        with monkeypatch.context() as m:  # worked out again, as if it could decide
            m.setattr(ex, "may_decide", lambda a: True)
            silent.append((action.id, explain.deciding(
                done.before.game, done.before.state, action, done.values)))

    random_game(rules, 4, seed=3, observe=observe)
    assert silent, "the game played no move of a silent action"
    assert [(a, found) for a, found in silent if found] == []
