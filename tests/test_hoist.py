"""Hoisting `count(Y where … s is in F(q)) > 0` out of a filter over `s` (engine/hoist.py).

The hoisted filter must give what the filter read as written gives: checked on
the expansion's `contested` (the places in sight of another player's ship)
against its reading site by site, along a seeded random game.
"""

import random

import pytest

from compiler.engine.evaluate import Env, ExprCompiler, call_scoped
from compiler.engine.hoist import hoisted_and
from compiler.engine.position import Position, Rules
from compiler.ir import model as m
from compiler.ir import nodes as n
from tests import compiled


@pytest.fixture(scope="module")
def rules() -> Rules:
    return compiled.rules("trian_conquest")


def _define(rules: Rules, name: str) -> m.Define:
    return next(d for d in rules.game.decls if isinstance(d, m.Define) and d.id == name)


def _value(rules: Rules, st, name: str, args: list) -> tuple:
    body, params = rules.game.defines[name]
    return call_scoped(Env(rules.game, st), body, params, args)


def test_contested_is_hoisted(rules: Rules) -> None:
    node = _define(rules, "contested").expr
    assert isinstance(node, n.Filtered)
    assert hoisted_and(ExprCompiler(rules.game), node.cond, "s") is not None


def test_not_hoisted_when_the_test_depends_on_the_element(rules: Rules) -> None:
    """Named under another alias, the element is not the one tested: nothing hoists."""
    node = _define(rules, "contested").expr
    assert hoisted_and(ExprCompiler(rules.game), node.cond, "t") is None


def test_hoisted_contested_matches_the_site_by_site_reading(rules: Rules) -> None:
    game = rules.game
    rng = random.Random(7)
    pos, _ = Position.set_up(rules, 4, seed=7, sampler=rng)
    compared = 0
    while not pos.finished and compared < 400:
        st = pos.state
        ships = [p for p in st.pieces.values()
                 if game.is_a(p.kind, "corvette") or game.is_a(p.kind, "rogue")]
        every_site = game.expr(n.Name(id="sites", ref="builtin"))(Env(game, st))
        space = [s for s in every_site if game.site_info(st, s).kind == "space"]
        for x in ships:
            expected = tuple(s for s in space
                             if any(st.pieces[q].owner != x.owner
                                    for q in _value(rules, st, "in_sight", [s])))
            assert _value(rules, st, "contested", [x.id]) == expected
            compared += 1
        pos, _ = pos.play(rng.choice(pos.legal_moves()), chance=rng)
    assert compared > 50
