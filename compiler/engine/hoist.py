"""Hoisting a membership test out of a filter: `X as s where … count(Y as q where C(q) and s is in F(q)) > 0`.

Read as written, the inner count runs once per element `s` of X: every `q`
of Y is tested and `F(q)` (often a walk over the board) worked out again for
each `s`, so the cost is |X| × |Y| × F. But nothing in `C(q)` or `F(q)`
depends on `s`: the test is the same as `s is in` the union of `F(q)` over the
`q` that pass `C`, and that union is worked out once per evaluation of the
filter, at the first `s` that needs it.

The rewrite is exact. The inner conditions before the membership test are
evaluated for every `q`, in order, as the count did the first time it ran
(so a citation or trace they leave is left the same); later elements re-ran
the same pure evaluations. The membership test must come last in the inner
`and`, so that no condition is evaluated that the count would have skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from compiler.ir import nodes as n
from compiler.library.core import UNBOUND
from compiler.library.core import element_alias as _alias
from compiler.library.core import restore_var as _restore

if TYPE_CHECKING:
    from compiler.engine.evaluate import Env, ExprCompiler, Fn

_MISSING = object()


def _pattern(item: Any, outer: str) -> tuple[Any, Any, Any] | None:
    """(Y restricted by C, F, the inner alias) if `item` is `count(Y where C and outer is
    in F) > 0` with neither C, F nor Y mentioning `outer`; else None."""
    if not (isinstance(item, n.Compare) and item.op == ">" and isinstance(item.right, n.Number)
            and item.right.value == 0):
        return None
    call = item.left
    if not (isinstance(call, n.Call) and call.func == "count" and not call.defined
            and not call.ability and len(call.args) == 1 and isinstance(call.args[0], n.Filtered)):
        return None
    inner = call.args[0]
    cond = inner.cond
    items = list(cond.items) if isinstance(cond, n.Logic) and cond.op == "and" else [cond]
    test = items[-1]
    if not (isinstance(test, n.IsIn) and not test.negated and isinstance(test.value, n.Name)
            and test.value.ref == "var" and test.value.id == outer):
        return None
    alias = _alias(inner.collection)
    if alias == outer:
        return None
    others = items[:-1]
    if any(outer in n.names_in(x) for x in [inner.collection, test.collection, *others]):
        return None
    chosen = inner.collection
    if others:
        chosen = n.Filtered(collection=inner.collection,
                            cond=others[0] if len(others) == 1 else
                            n.Logic(op="and", items=others))
    return chosen, test.collection, alias


def hoisted_and(cx: ExprCompiler, cond: Any, outer: str | None
                ) -> tuple[Fn, Callable[[], Any], Callable[[Any], None]] | None:
    """The filter condition `cond` with each hoistable count replaced by a membership
    test in a union worked out once; with how to start and end one evaluation of the
    filter (the unions are forgotten between evaluations). None if nothing hoists."""
    if outer is None:
        return None
    items = list(cond.items) if isinstance(cond, n.Logic) and cond.op == "and" else [cond]
    found = [(i, _pattern(x, outer)) for i, x in enumerate(items)]
    if not any(p for _, p in found):
        return None
    unions: dict[int, Any] = {}  # per evaluation of the filter: union by item index
    parts: list[Fn] = []
    for i, p in found:
        if p is None:
            parts.append(cx(items[i]))
            continue
        chosen, over, alias = p
        parts.append(_member(cx(chosen), cx(over), alias, outer, unions, i))

    from compiler.engine.evaluate import conjunction
    test = conjunction(parts) if len(parts) > 1 else parts[0]

    def begin() -> Any:
        saved = dict(unions)
        unions.clear()
        return saved

    def end(saved: Any) -> None:
        unions.clear()
        unions.update(saved)
    return test, begin, end


def _member(chosen: Fn, over: Fn, alias: str | None, outer: str,
            unions: dict[int, Any], index: int) -> Fn:
    """`outer is in` the union of `over` for each element of `chosen`."""
    def union(env: Env) -> Any:
        vars = env.vars
        saved_it = vars.get("it", UNBOUND)
        saved_alias = vars.get(alias, UNBOUND) if alias else UNBOUND
        out: list[Any] = []
        try:
            for q in chosen(env):
                vars["it"] = q
                if alias:
                    vars[alias] = q
                out.extend(over(env))
        finally:
            _restore(vars, "it", saved_it)
            if alias:
                _restore(vars, alias, saved_alias)
        try:
            return frozenset(out)
        except TypeError:  # elements that cannot be hashed: test them one by one
            return out

    def member(env: Env) -> bool:
        got = unions.get(index, _MISSING)
        if got is _MISSING:
            got = unions[index] = union(env)
        return env.vars[outer] in got
    return member
