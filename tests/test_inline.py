"""A flat definition read in place (engine/inline.py) against the same call kept in the memo.

The team game's `teams_piece(x, p)` and `team_controls(a, p)` are flat: asked of
every piece and area along a seeded game, in place and kept, they must give the
same value, cite the same rules in the same order, trace the same rules while a
move is carried out, and leave the caller's variables as they found them.
"""

import random

import pytest

from compiler.engine.evaluate import Env, ExprCompiler
from compiler.engine.inline import flat
from compiler.engine.position import Position, Rules
from compiler.ir import model as m
from compiler.ir import nodes as n
from tests import compiled


class _Kept(ExprCompiler):
    """The expression compiler with every definition's call kept in the memo."""

    def _in_place(self, node: n.Call, rule: str | None) -> None:
        return None


@pytest.fixture(scope="module")
def rules() -> Rules:
    return compiled.rules("trian_teams")


def _defines(rules: Rules) -> dict[str, m.Define]:
    return {d.id: d for d in rules.game.decls if isinstance(d, m.Define)}


def _is_flat(rules: Rules, name: str) -> bool:
    d = _defines(rules)[name]
    return flat(d.expr, set(d.params), _defines(rules), frozenset({name}))


def test_the_team_readings_are_flat_and_a_count_is_not(rules: Rules) -> None:
    assert _is_flat(rules, "teams_piece")
    assert _is_flat(rules, "team_controls")
    assert not _is_flat(rules, "leaders")      # a count over the area's emissaries
    assert not _is_flat(rules, "team_points")  # a sum over the team


def _var(name: str, type_: str) -> n.Name:
    return n.Name(id=name, ref="var", type=type_)


ME = n.Name(id="me", ref="builtin", type="player")
# `teams_piece(x, me)`: both arguments read in place; `team_controls(x.area, me)`: the
# area is worked out first and bound for the body.
CALLS = {
    "teams_piece": n.Call(func="teams_piece", args=[_var("x", "piece"), ME], defined=True,
                          type="bool"),
    "team_controls": n.Call(func="team_controls", args=[
        n.Attr(obj=_var("x", "piece"), name="area", type="area"), ME], defined=True,
        type="bool"),
}


def _read(f, env: Env, x: int) -> tuple:
    env.vars = {"x": x, "it": "caller's"}
    env.cites, env.trace = {}, []
    value = f(env)
    return value, list(env.cites), list(env.trace), env.vars


def test_in_place_and_kept_agree_along_a_game(rules: Rules) -> None:
    game = rules.game
    in_place = {k: ExprCompiler(game)(c) for k, c in CALLS.items()}
    kept = {k: _Kept(game)(c) for k, c in CALLS.items()}
    rng = random.Random(3)
    pos, _ = Position.set_up(rules, 4, seed=3, sampler=rng)
    compared = held = traced = 0
    while not pos.finished:
        st = pos.state
        for me in range(st.players):
            for x in st.pieces:
                for name in CALLS:
                    a = _read(in_place[name], Env(game, st, me=me), x)
                    memo_env = Env(game, st, me=me)
                    memo_env.memo = {}
                    b = _read(kept[name], memo_env, x)
                    assert a == b
                    assert a[3] == {"x": x, "it": "caller's"}
                    compared += 1
                    held += bool(a[0])
                    traced += bool(a[2])
        pos, _ = pos.play(rng.choice(pos.legal_moves()), chance=rng)
    assert compared > 1000 and held > 100 and traced >= held
