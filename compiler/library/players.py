"""Players and what they hold: who is acting, who plays, the pool, teams, turn order, supplies.

Moved whole from the checker, the engine, the English renderer and the
rulebook's formulas (see `compiler/library/__init__.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compiler.ir import nodes as n
from compiler.library.base import Builtin, Fn, register

if TYPE_CHECKING:
    from compiler.check.types import Scope, TypeChecker
    from compiler.engine.evaluate import Env, ExprCompiler
    from compiler.engine.game import Game
    from compiler.ir.english import English
    from compiler.rulebook.formal import Formal
    from compiler.rulebook.mathml import MathML


@register
class Me(Builtin):
    name, group, returns, value = "me", "players", "player", True
    flat = True
    summary = "The player whose turn it is (in a player's view, that player)."
    example = "me.gold"

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        return lambda env: env.me

    def english(self, en: English, node: n.Name) -> str:
        return "you"


@register
class Players(Builtin):
    name, group, returns, value = "players", "players", "set:player", True
    summary = "Every player in the game, in seat order."
    example = "count(players)"

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        return lambda env: tuple(range(env.state.players))

    def english(self, en: English, node: n.Name) -> str:
        return "the players"


@register
class Next(Builtin):
    name, group, returns = "next", "players", "player"
    summary = ("The player some seats further on in seat order (clockwise): `next(p, 1)` sits "
               "next to p; a negative count goes the other way round.")
    example = "next(me, 1)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 2):
            tc.expect(node.args[0], scope, "player", "the first argument of `next`")
            tc.expect(node.args[1], scope, "int", "how many seats `next` counts")
        return "player"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        p_f, k_f = cx(node.args[0]), cx(node.args[1])

        def nxt(env: Env) -> Any:
            p = p_f(env)
            return None if p is None else (p + (k_f(env) or 0)) % env.state.players
        return nxt

    def english(self, en: English, node: n.Call) -> str:
        k = en(node.args[1])
        seats = "seat" if k == "1" else "seats"
        return f"the player {k} {seats} after {en(node.args[0])} in seat order"


@register
class Pool(Builtin):
    name, group, returns, value = "pool", "players", "holder", True
    summary = "The general supply of limited resources, which gives and takes them."
    example = "pool.gold"

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        from compiler.engine.state import POOL
        return lambda env: POOL

    def english(self, en: English, node: n.Name) -> str:
        return en.v.pool


@register
class Closer(Builtin):
    """Bound by the event, not looked up: inside a rule triggered when an area closes the
    checker finds `closer` in scope, so it compiles as that rule's variable."""

    name, group, returns, value = "closer", "players", "player", True
    only_in = "closes"
    summary = "The player who closed the area, in a rule triggered when an area closes."
    example = "closer"
    setting = """
        when lake a closes, at step score {
            set a.keeper to EXAMPLE
        }
    """

    def english(self, en: English, node: n.Name) -> str:
        return "the player who closed it"


def _owner(en: English, who: str) -> str:
    from compiler.ir.english import _possessive
    return "your" if who == "you" else _possessive(who)


@register
class Supply(Builtin):
    name, group, returns = "supply", "players", "int"
    summary = "How many pieces of a kind a player has left in their supply."
    example = "supply(me, pawn)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 2):
            tc.expect(node.args[0], scope, "player", "the first argument of `supply`")
            tc.kind_name(node.args[1], ("piece",), "the second argument of `supply`")
        return "int"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        who = cx(node.args[0])
        kind = node.args[1].id  # type: ignore[attr-defined]
        return lambda env: env.state.supply[who(env)].get(kind, 0)

    def english(self, en: English, node: n.Call) -> str:
        args = node.args
        who = en(args[0])
        kind = args[1].id  # type: ignore[attr-defined]
        return f"the number of {en.v.many(kind)} in {_owner(en, who)} supply"

    def english_compared(self, en: English, node: n.Compare) -> str | None:
        from compiler.ir.english import article
        left, right = node.left, node.right
        if not isinstance(right, n.Number) or right.value != 0:
            return None
        if node.op == ">":
            who = en(left.args[0])
            kind = left.args[1].id  # type: ignore[attr-defined]
            return f"{_owner(en, who)} supply has {article(en.v.one(kind))}"
        if node.op in ("==", "<="):
            who = en(left.args[0])
            kind = left.args[1].id  # type: ignore[attr-defined]
            return f"{_owner(en, who)} supply has no {en.v.one(kind)} left"
        return None

    def mathml(self, mm: MathML, node: n.Call) -> list[str] | None:
        from compiler.rulebook.mathml import _mtext, _poss, esc
        args = node.args
        if not (len(args) == 2 and isinstance(args[1], n.Name)):
            return None
        who = args[0]
        noun = mm._noun(args[1].id)
        if isinstance(who, n.Name) and who.ref == "builtin" and who.id == "me":
            return [_mtext(f"{noun} in your supply")]
        said = mm.en(who)
        if said.startswith("the ") or said == "it":
            return [_mtext(f"{noun} in supply")]
        return [_mtext(f"{noun} in {esc(_poss(said))} supply")]

    def measure_words(self, formal: Formal, node: n.Call) -> str | None:
        if isinstance(node.args[0], n.Name) and node.args[0].id == "it":
            return f"{formal.vocab.many(node.args[1].id)} left in supply"  # type: ignore[attr-defined]
        return None


def _teamed(env: Env, game: Game, team: tuple[int, ...]) -> tuple[int, ...]:
    """A team read from the teams declaration: where partners made a difference, the
    rule that declares the teams decided too."""
    if len(team) > 1 and env.trace is not None and game.teams_decl is not None:
        rule = game.teams_decl.rule
        if rule and rule not in env.trace:
            env.trace.append(rule)
    return team


@register
class Allies(Builtin):
    name, group, returns = "allies", "players", "set:player"
    flat = True
    summary = "A player and the partners on their team (just the player when nobody has a team)."
    example = "allies(me)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        """`allies(p)`: p and the partners on p's team (just p when nobody has a team)."""
        if tc._arity(node, 1):
            tc.expect(node.args[0], scope, "player", "the argument of `allies`")
        return "set:player"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        who = cx(node.args[0])
        game = cx.game

        def allies(env: Env) -> tuple[int, ...]:
            return _teamed(env, game, game.team_of(env.state.players, who(env)))
        return allies

    def english(self, en: English, node: n.Call) -> str:
        who = en(node.args[0])
        return "you and your partners" if who == "you" else f"{who} and their partners"


@register
class Captain(Builtin):
    name, group, returns = "captain", "players", "player"
    flat = True
    summary = "The first seat of a player's team, which holds what the team holds."
    example = "captain(me)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        """`captain(p)`: the first seat of p's team, which holds what the team holds."""
        if tc._arity(node, 1):
            tc.expect(node.args[0], scope, "player", "the argument of `captain`")
        return "player"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        who = cx(node.args[0])
        game = cx.game

        def captain(env: Env) -> Any:
            p = who(env)
            return None if p is None else \
                _teamed(env, game, game.team_of(env.state.players, p))[0]
        return captain

    def english(self, en: English, node: n.Call) -> str:
        who = en(node.args[0])
        return "your team" if who == "you" else f"the team of {who}"


@register
class Clockwise(Builtin):
    name, group, returns = "clockwise", "players", "set:player"
    summary = "The players of a collection in turn order, starting from a given player."
    example = "clockwise(me, players)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 2):
            tc.expect(node.args[0], scope, "player", "where the round starts")
            tc.expect(node.args[1], scope, "set:player", "the players put in turn order")
        return "set:player"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        """The players of a collection in turn order, starting from a given player."""
        start, coll = cx(node.args[0]), cx(node.args[1])

        def clockwise(env: Env) -> tuple[Any, ...]:
            n_players = env.state.players
            first = start(env) or 0
            chosen = set(coll(env))
            return tuple(p for p in ((first + i) % n_players for i in range(n_players))
                         if p in chosen)
        return clockwise

    def english(self, en: English, node: n.Call) -> str:
        return f"{en.collection(node.args[1])} in turn order from {en(node.args[0])}"
