"""Counting, picking, choosing how many, chance and resources: the builtins any game uses.

Each class is one builtin whole: its type rule (moved from the checker's
`f_<name>`), its closure (from the engine's `f_<name>`), its English (from the
renderer's `e_call`) and, where it has one, its formula. The limits of `die`
and `upto` live here, with the builtins they bound; the checker re-exports them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compiler.ir import nodes as n
from compiler.library.base import Builtin, Fn, register

if TYPE_CHECKING:
    from compiler.check.types import Scope, TypeChecker
    from compiler.engine.evaluate import Env, ExprCompiler
    from compiler.engine.explain import Ctx, Explainer, Reason
    from compiler.ir.english import English
    from compiler.rulebook.mathml import MathML

# Limits of the language, checked where a value is written and enforced where
# it is computed, so no rule can ask the engine for more than a table could hold.
MAX_DIE_SIDES = 100        # `die(n)`: the largest die made is the 100-sided one
MAX_UPTO = 1000            # `upto(n)`: a choice of how many, among at most 1,001 numbers

UNBOUND = object()   # what a name bound for each element had before: nothing


def element_alias(node: Any) -> str | None:
    """The name a collection gives its element (`pawn as q`), through any `where`."""
    if isinstance(node, n.Filtered):
        return element_alias(node.collection)
    if isinstance(node, n.Collection):
        return node.alias
    return None


def restore_var(vars: dict[str, Any], name: str, saved: Any) -> None:
    """Put back what a name was bound to before an element was (or unbind it)."""
    if saved is UNBOUND:
        vars.pop(name, None)
    else:
        vars[name] = saved


def each(env: Env, coll: Fn, value: Fn, alias: str | None) -> list[tuple[Any, Any]]:
    """Every element of a collection with its measure, `it` (and the alias) bound to it."""
    vars = env.vars
    saved_it = vars.get("it", UNBOUND)
    saved_alias = vars.get(alias, UNBOUND) if alias else UNBOUND
    out = []
    try:
        for x in coll(env):
            vars["it"] = x
            if alias:
                vars[alias] = x
            out.append((x, value(env)))
    finally:
        restore_var(vars, "it", saved_it)
        if alias:
            restore_var(vars, alias, saved_alias)
    return out


def _per_element(cx: ExprCompiler, node: n.Call) -> tuple[Fn, Fn, str | None]:
    return cx(node.args[0]), cx(node.args[1]), element_alias(node.args[0])


def _measured(tc: TypeChecker, node: n.Call, scope: Scope, measure: str) -> str:
    """A collection and a measure of each of its elements (`sum`, `top`): the collection's type."""
    from compiler.check.types import element
    t = tc.expect(node.args[0], scope, "set:any", f"the first argument of `{node.func}`")
    tc.expect(node.args[1], tc._per_element(node.args[0], element(t), scope), "int", measure)
    return t


@register
class Count(Builtin):
    name, group, returns = "count", "counting", "int"
    summary = "How many elements a collection has."
    example = "count(pawn of me)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 1):
            tc.expect(node.args[0], scope, "set:any", "what `count` counts")
        return "int"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        arg = node.args[0]
        # Fast path: features of a kind in an area are counted when areas merge.
        if isinstance(arg, n.Collection) and isinstance(arg.source, n.Name) \
                and arg.source.category == "feature" and arg.within is not None \
                and arg.within.type == "area" and arg.owner is None:
            kind = arg.source.id
            area = cx(arg.within)

            def count_features(env: Env) -> int:
                a = area(env)
                if a is None:
                    return 0
                areas = env.state.areas
                return areas.features[areas.find(a)].get(kind, 0)
            return count_features
        if isinstance(arg, n.Collection) and isinstance(arg.source, n.Name) \
                and arg.source.id == "tiles" and arg.source.ref == "builtin" \
                and arg.within is not None and arg.within.type == "area":
            area = cx(arg.within)
            return lambda env: 0 if (a := area(env)) is None else \
                len(env.state.areas.cells[env.state.areas.find(a)])
        f = cx(arg)
        return lambda env: len(f(env))

    def english(self, en: English, node: n.Call) -> str:
        return f"the number of {en.collection(node.args[0]).removeprefix('the ')}"

    def english_compared(self, en: English, node: n.Compare) -> str | None:
        left, right = node.left, node.right
        if not isinstance(right, n.Number):
            return None
        what = en.collection(left.args[0])
        if node.op == ">" and right.value == 0:
            return f"there is at least one of {what}"
        if node.op == "==" and right.value == 0:
            return f"there are no {what.removeprefix('the ')}"
        if node.op == "==" and right.value == 1:
            return f"there is exactly one of {what}"
        if node.op == ">" and right.value == 1:
            return f"there are several of {what}"
        if node.op == "<=" and right.value == 0:
            return f"there are no {what.removeprefix('the ')}"
        return None

    def mathml(self, mm: MathML, node: n.Call) -> list[str] | None:
        from compiler.rulebook.mathml import _mtext
        if node.args:
            return [_mtext(mm._phrase(node.args[0]))]
        return None


@register
class Sum(Builtin):
    name, group, returns = "sum", "counting", "int"
    summary = "A measure of each element of a collection (`it`), added up."
    example = "sum(lake where it.keeper == me, it.gold)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 2):
            _measured(tc, node, scope, "what `sum` adds up")
        return "int"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        coll, value, alias = _per_element(cx, node)

        def total(env: Env) -> int:
            return sum(v for _, v in each(env, coll, value, alias))
        return total

    def english(self, en: English, node: n.Call) -> str:
        args = node.args
        return f"the sum, over {en.collection(args[0])}, of {en._element(args[0])(args[1])}"

    def mathml(self, mm: MathML, node: n.Call) -> list[str] | None:
        from compiler.rulebook.mathml import _mo, _mtext
        args = node.args
        if len(args) == 2:
            over = f"<munder>{_mo(chr(0x2211))}{_mtext(mm._phrase(args[0]))}</munder>"
            return [over, mm._operand(args[1], "*")]
        return None


@register
class Top(Builtin):
    name, group, returns = "top", "picking", "set:any"
    summary = "The elements of a collection with the highest measure (`it`), ties included."
    example = "top(players, it.points)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 2):
            return _measured(tc, node, scope, "the measure `top` compares")
        return "any"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        coll, value, alias = _per_element(cx, node)

        def top(env: Env) -> tuple[Any, ...]:
            scored = list(each(env, coll, value, alias))
            if not scored:
                return ()
            best = max(v for _, v in scored)
            return tuple(x for x, v in scored if v == best)
        return top

    def english(self, en: English, node: n.Call) -> str:
        args = node.args
        measure = en._element(args[0])(args[1])
        if measure.startswith("the number of "):
            return f"those of {en.collection(args[0])} with the most " \
                   f"{measure.removeprefix('the number of ')}"
        return f"those of {en.collection(args[0])} for whom {measure} is highest"


@register
class Highest(Builtin):
    name, group, returns = "highest", "counting", "int"
    summary = "The highest measure (`it`) of the elements of a collection; 0 when it is empty."
    example = "highest(players, it.points)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 2):
            _measured(tc, node, scope, "the measure `highest` compares")
        return "int"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        coll, value, alias = _per_element(cx, node)

        def highest(env: Env) -> int:
            return max((v or 0 for _, v in each(env, coll, value, alias)), default=0)
        return highest

    def english(self, en: English, node: n.Call) -> str:
        args = node.args
        return f"the highest {en._element(args[0])(args[1])} among {en.collection(args[0])} " \
               f"(0 if there are none)"


class _Extreme(Builtin):
    """`min` and `max`: the smallest or largest of some numbers (a missing one counts 0)."""

    returns = "int"
    group = "counting"
    word: str

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if not node.args:
            tc.report(node.loc, "arity", f"`{node.func}` needs at least one argument")
        for a in node.args:
            tc.expect(a, scope, "int", f"an argument of `{node.func}`")
        return "int"

    def english(self, en: English, node: n.Call) -> str:
        said = [en(a) for a in node.args]
        listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
        return f"the {self.word} of {listed}"

    def mathml(self, mm: MathML, node: n.Call) -> list[str] | None:
        from compiler.rulebook.mathml import APPLY, _fenced, _mo
        inner: list[str] = []
        for i, a in enumerate(node.args):
            if i:
                inner.append(_mo(","))
            inner.append(mm._operand(a, "frac"))
        return [f"<mi>{node.func}</mi>", _mo(APPLY), _fenced(inner)]


@register
class Min(_Extreme):
    name, word = "min", "smallest"
    summary = "The smallest of some numbers."
    example = "min(me.gold, 3)"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        args = [cx(a) for a in node.args]
        return lambda env: min((a(env) or 0) for a in args)


@register
class Max(_Extreme):
    name, word = "max", "largest"
    summary = "The largest of some numbers."
    example = "max(count(pawn of me), 2)"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        args = [cx(a) for a in node.args]
        return lambda env: max((a(env) or 0) for a in args)


@register
class Only(Builtin):
    name, group, returns = "only", "picking", "any"
    summary = ("The one element of a collection that must hold exactly one (a rules error "
               "otherwise, so guard it).")
    example = "only(top(players, it.points))"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        from compiler.check.types import element
        if tc._arity(node, 1):
            return element(tc.expect(node.args[0], scope, "set:any", "the argument of `only`"))
        return "any"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        from compiler.engine.evaluate import RuleError
        f = cx(node.args[0])

        def only(env: Env) -> Any:
            items = f(env)
            if len(items) != 1:
                raise RuleError(f"`only` needs exactly one element, found {len(items)}")
            return items[0]
        return only

    def english(self, en: English, node: n.Call) -> str:
        return f"the single one of {en.collection(node.args[0])}"


@register
class First(Builtin):
    name, group, returns = "first", "picking", "any"
    summary = "The first element of a collection in its order, or none when it is empty."
    example = "first(clockwise(me, players))"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        from compiler.check.types import element
        if tc._arity(node, 1):
            return element(tc.expect(node.args[0], scope, "set:any", "the argument of `first`"))
        return "any"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        coll = cx(node.args[0])

        def first(env: Env) -> Any:
            items = coll(env)
            return items[0] if items else None
        return first

    def english(self, en: English, node: n.Call) -> str:
        return f"the first of {en.collection(node.args[0])}"


@register
class Upto(Builtin):
    name, group, returns = "upto", "choosing", "set:int"
    summary = (f"The whole numbers from 0 to n (n at most {MAX_UPTO:,}), for a choice of "
               "how many.")
    example = "upto(me.gold)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        from compiler.check.types import _literal_int
        if tc._arity(node, 1):
            tc.expect(node.args[0], scope, "int", "the argument of `upto`")
            top = _literal_int(node.args[0])
            if top is not None and top > MAX_UPTO:
                tc.report(node.args[0].loc, "range",
                          f"`upto` offers a choice of 0 to at most {MAX_UPTO:,}, not {top:,}")
        return "set:int"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        """The whole numbers from 0 to n: a choice of how many."""
        from compiler.engine.evaluate import RuleError
        top = cx(node.args[0])

        def upto(env: Env) -> tuple[int, ...]:
            n_top = top(env) or 0
            if n_top > MAX_UPTO:  # bounded as a written number is by the checker
                raise RuleError(f"`upto` offers a choice of 0 to at most {MAX_UPTO:,}, "
                                f"and this one would go to {n_top:,}")
            return tuple(range(0, max(-1, n_top) + 1))
        return upto

    def english(self, en: English, node: n.Call) -> str:
        return f"a number from 0 to {en(node.args[0])}"

    def why_not_in(self, ex: Explainer, value: Any, node: n.Call, ctx: Ctx, type_: str
                   ) -> Reason | None:
        """"1 is more than the smallest of 1 and your coins (0)": the top, with its value."""
        from compiler.engine.explain import _UNKNOWN, Reason
        top = ex.safe(node.args[0], ctx)
        if top is _UNKNOWN or not isinstance(value, int) or not isinstance(top, int):
            return None
        if value < 0:
            return Reason(f"{value} is less than 0")
        if value <= top:
            return None
        words = ex.words(ctx)(node.args[0])
        shown = "" if words == str(top) else f" ({top})"
        return Reason(f"{value} is more than {words}{shown}")


@register
class Die(Builtin):
    name, group, returns = "die", "choosing", "int"
    summary = (f"A roll of a die of n sides (1 to {MAX_DIE_SIDES}), decided by chance and "
               "recorded with the move.")
    example = "die(6) + me.gold"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        """`die(6)`: a roll, decided by chance and recorded with the move."""
        from compiler.check.types import _literal_int
        if tc._arity(node, 1):
            tc.expect(node.args[0], scope, "int", "the number of sides of `die`")
            sides = _literal_int(node.args[0])
            if sides is not None and not 1 <= sides <= MAX_DIE_SIDES:
                tc.report(node.args[0].loc, "range",
                          f"a die has 1 to {MAX_DIE_SIDES} sides, not {sides:,}")
        return "int"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        from compiler.engine.evaluate import RuleError
        sides = cx(node.args[0])

        def die(env: Env) -> int:
            n_sides = sides(env)
            # A computed number of sides is bounded here as a written one is by
            # the checker: the faces are listed, and a roll records one of them.
            if not isinstance(n_sides, int) or not 1 <= n_sides <= MAX_DIE_SIDES:
                raise RuleError(f"a die has 1 to {MAX_DIE_SIDES} sides, and this one would have "
                                f"{'none' if n_sides is None else f'{n_sides:,}'}")
            faces = [str(i) for i in range(1, n_sides + 1)]
            return int(env.outcome(faces, None, f"a roll of a {n_sides}-sided die"))
        return die

    def english(self, en: English, node: n.Call) -> str:
        return f"a roll of a {en(node.args[0])}-sided die"


# Where the examples of `kinds` and `held` go: a family of resources to choose among.
_GEMS = """
    resource ruby "ruby" plural "rubies" limit 5
    resource jade "jade" plural "jades" limit 5
    family gem "gem" plural "gems" of ruby, jade
    at end of turn {
        for each k in kinds(gem) as g where held(me, g) > 2 {
            give 1 k from me to pool
        }
    }
"""


@register
class Kinds(Builtin):
    name, group, returns = "kinds", "resources", "set:kind"
    summary = "The members of a resource family, as values a player may choose among."
    example = "kinds(gem)"
    setting = _GEMS.replace("kinds(gem) as g where held(me, g) > 2", "EXAMPLE")

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        from compiler.diagnostics import did_you_mean
        if tc._arity(node, 1):
            arg = node.args[0]
            if not (isinstance(arg, n.Name) and arg.id in tc.sy.families):
                tc.report(arg.loc, "type", "`kinds` takes the name of a resource family",
                          hint=did_you_mean(getattr(arg, "id", ""), tc.sy.families))
            else:
                arg.type = "family"
        return "set:kind"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        """The members of a resource family, as values a player may choose."""
        members = tuple(cx.game.families[node.args[0].id])  # type: ignore[attr-defined]
        return lambda env: members

    def english(self, en: English, node: n.Call) -> str:
        return f"the kinds of {en.v.many(node.args[0].id)}"  # type: ignore[attr-defined]


@register
class Held(Builtin):
    name, group, returns = "held", "resources", "int"
    summary = "How much of a resource kind (often a chosen one) a player, an area or the pool holds."
    example = "held(me, g)"
    setting = _GEMS.replace("held(me, g)", "EXAMPLE")

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        from compiler.check.types import words
        if tc._arity(node, 2):
            t = tc.expr(node.args[0], scope)
            if t not in ("player", "area", "holder", "any"):
                tc.report(node.args[0].loc, "type",
                          f"resources are held by players, areas or the pool, not {words(t)}")
            tc.expect(node.args[1], scope, "kind", "the kind whose amount is read")
        return "int"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        from compiler.engine.effects import holding
        holder, kind = cx(node.args[0]), cx(node.args[1])
        htype = node.args[0].type

        def held(env: Env) -> int:
            h, k = holder(env), kind(env)
            if h is None or k is None:
                return 0
            return holding(env.state, h, htype, k)
        return held

    def english(self, en: English, node: n.Call) -> str:
        from compiler.ir.english import agree
        return f"what {agree(en(node.args[0]), 'holds')} of {en(node.args[1])}"
