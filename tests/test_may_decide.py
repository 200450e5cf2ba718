"""Which actions a definition can decide, read from the rules alone (`Explainer.may_decide`).

A ruling cites the definitions that took effect in allowing a move (`deciding`); working
that out means working the move out again. In Trian Deluxe, laying a tile or researching
calls no definition that has a rule of its own, so nothing can take effect there and a
ruling does not look; sending an emissary can be stopped by the Exmitter's field (a
prohibition reading `in_field`, a definition of its own rule), so a ruling looks. Over
seeded games, every move of an action found silent would have been found to decide
nothing had it been worked out again.
"""

import pytest

from compiler.engine import explain
from compiler.engine.explain import explainer
from compiler.engine.position import Rules
from compiler.engine.random_play import random_game
from compiler.load import load_ruleset


@pytest.fixture(scope="module")
def deluxe() -> Rules:
    return Rules(load_ruleset("trian_deluxe"))


@pytest.mark.parametrize(("action", "may"), [
    ("lay_tile", False), ("research", False), ("send_emissary", True)])
def test_an_action_may_be_decided_by_a_definition_only_if_it_reaches_one(
        deluxe: Rules, action: str, may: bool) -> None:
    game = deluxe.game
    assert explainer(game).may_decide(game.actions[action]) is may


@pytest.mark.parametrize("ruleset", ["trian_deluxe", "trian_new_order", "among_the_stars"])
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
