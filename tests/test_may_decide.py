"""Which actions a definition can decide, read from the rules alone (`Explainer.may_decide`,
`Explainer.may_cite`).

A ruling cites the definitions that took effect in allowing a move (`deciding`) and the
conditions that held (what a check cites); working either out means working the move out
again. In Trian Deluxe, laying a tile or researching calls no definition that has a rule
of its own, so nothing can take effect there and a ruling does not look. Sending an
emissary is forbidden `when in_field(s.tile)` (the Exmitter's field, a definition of its
own rule): where the move is allowed that came out false, and took no effect either. In
Trian Conquest, launching a Corvette is forbidden when
`count(corvette where in_space(it, s.area)) > 0`: `in_space` may hold of a Corvette
elsewhere even where the launch is allowed, so a ruling looks. Trian New Order declares
conditions: an emissary may be sent into an exmitter's field by a player who is
`adapted` (a condition, which then held), while an exchange meets none. Over seeded
games, every move of an action found silent would have been found to decide and cite
nothing had it been worked out again.
"""

import pytest

from compiler.engine.actions import check
from compiler.engine.explain import deciding, explainer
from compiler.engine.performed import Performed
from compiler.engine.random_play import random_game
from tests import compiled


@pytest.mark.parametrize(("ruleset", "action", "may"), [
    ("trian_deluxe", "lay_tile", False), ("trian_deluxe", "research", False),
    ("trian_deluxe", "send_emissary", False), ("trian_conquest", "launch_corvette", True)])
def test_an_action_may_be_decided_by_a_definition_only_if_one_can_take_effect(
        ruleset: str, action: str, may: bool) -> None:
    game = compiled.rules(ruleset).game
    assert explainer(game).may_decide(game.actions[action]) is may


@pytest.mark.parametrize(("action", "may"), [("send_emissary", True), ("exchange", False)])
def test_a_check_may_cite_a_condition_only_if_one_can_hold(action: str, may: bool) -> None:
    game = compiled.rules("trian_new_order").game
    assert explainer(game).may_cite(game.actions[action]) is may


@pytest.mark.parametrize("ruleset", ["trian_deluxe", "trian_conquest", "trian_new_order",
                                     "among_the_stars"])
def test_a_silent_action_decides_and_cites_nothing_when_worked_out_again(ruleset: str) -> None:
    rules = compiled.rules(ruleset)
    ex = explainer(rules.game)
    found: list[tuple[str, str, object]] = []

    def observe(done: Performed) -> None:
        action, before = done.action, done.before
        if action is None:
            return
        if not ex.may_decide(action):
            found.append((action.id, "decides", deciding(
                before.game, before.state, action, done.values)))
        if not ex.may_cite(action):
            cites: dict[str, None] = {}
            check(before.game, before.state, action, dict(done.values), cites)
            found.append((action.id, "cites", list(cites)))

    random_game(rules, 4, seed=3, observe=observe)
    assert found, "the game played no move of a silent action"
    assert [(a, what, rules) for a, what, rules in found if rules] == []
