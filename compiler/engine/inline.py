"""A small definition read in place: its body compiled at each call, not a call kept.

A call of a definition is worked out once per memo for its arguments
(`ExprCompiler._define_call`): worth it for a count over the board, read again
from the memo at the next use. For a body that only reads a few attributes and
compares them (`x.owner is in allies(p)`) keeping the answer costs more than
the answer: a key, two lookups, a scope of its own, the citations gathered and
stored. A rule that asks such a definition of every piece or every area on the
board pays that for each one, so its cost grows with the board faster than the
rule's own reading does.

A *flat* body is made only of parts that cost the same however full the table
is: numbers, words, its parameters, attributes of pieces, sites and areas,
comparisons, `and`/`or`/`not`, arithmetic, `is none`, `is KIND`, `is in` a flat
value, `if … then … else`, builtins that say they are flat (`Builtin.flat`)
and calls of other flat definitions. Such a body is compiled again at each
call site, with every parameter reading its argument: an argument that is a
variable or a builtin value (`it`, `me`) is read where the parameter was; any
other (`e.area`) is worked out first, once, in order, and bound to a name of
its own for the body. Nothing else is bound: a flat body names nothing but
its parameters, and binds no `it` of its own that an argument could mean.

The value is the call's, and so is what it leaves behind: the rules the body
found true are cited as it finds them (a kept value cites them again in the
same order), and when the value is true (or non-zero, or non-empty) while a
move is carried out the definition's rule is traced after whatever the body
traced, as a kept call does (see `cited_once`). Only the keeping is gone.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.library import ATTRIBUTES, LIBRARY
from compiler.library.core import UNBOUND
from compiler.library.core import restore_var as _restore

if TYPE_CHECKING:
    from compiler.engine.evaluate import Env, ExprCompiler, Fn

# Types whose attributes and kinds are read in constant time (a card's are the card
# kind's own rules, a player's may be hidden in a view: those calls are kept).
_PLAIN = ("piece", "site", "area", "cell")
_hidden = itertools.count()


def flat(node: Any, params: set[str], defines: dict[str, m.Define],
         seen: frozenset[str] = frozenset()) -> bool:
    """Whether `node` (a definition's body, or part of one) is flat and names no variable
    but `params` (see the module's docstring)."""
    if isinstance(node, (n.Number, n.Text, n.Boolean, n.NoneValue)):
        return True
    if isinstance(node, n.Name):
        if node.ref == "var":
            return node.id in params
        return node.ref == "builtin" and getattr(LIBRARY.get(node.id), "flat", False)
    if isinstance(node, n.Attr):
        t = node.obj.type or ""
        if t not in _PLAIN or not flat(node.obj, params, defines, seen):
            return False
        return ATTRIBUTES.get((t, node.name)) is not None or t == "area"
    if isinstance(node, (n.Compare,)):
        return flat(node.left, params, defines, seen) and flat(node.right, params, defines, seen)
    if isinstance(node, n.Logic):
        return all(flat(x, params, defines, seen) for x in node.items)
    if isinstance(node, (n.Not, n.Neg)):
        return flat(node.value, params, defines, seen)
    if isinstance(node, n.Arith):
        return not (node.type or "").startswith("set:") and \
            flat(node.first, params, defines, seen) and \
            all(flat(x, params, defines, seen) for _, x in node.rest)
    if isinstance(node, n.IsNone):
        return flat(node.value, params, defines, seen)
    if isinstance(node, n.IsKind):
        return (node.value.type or "") in _PLAIN and flat(node.value, params, defines, seen)
    if isinstance(node, n.IsIn):
        return flat(node.value, params, defines, seen) and \
            flat(node.collection, params, defines, seen)
    if isinstance(node, n.IfExpr):
        return all(flat(x, params, defines, seen) for x in (node.cond, node.then, node.otherwise))
    if isinstance(node, n.Call):
        if node.ability or not all(flat(a, params, defines, seen) for a in node.args):
            return False
        if node.defined:
            d = defines.get(node.func)
            return d is not None and d.id not in seen and \
                flat(d.expr, set(d.params), defines, seen | {d.id})
        return getattr(LIBRARY.get(node.func), "flat", False)
    return False


def _substituted(node: Any, reads: dict[str, n.Name]) -> Any:
    """`node` with every variable named in `reads` replaced by its reading (the type the
    body's checker gave the parameter kept: the engine compiles on it)."""
    if isinstance(node, n.Name):
        if node.ref == "var" and node.id in reads:
            return reads[node.id].model_copy(update={"type": node.type, "loc": node.loc})
        return node
    if not isinstance(node, n.Node):
        return node
    update: dict[str, Any] = {}
    for key, value in node.__dict__.items():
        if isinstance(value, n.Node):
            update[key] = _substituted(value, reads)
        elif isinstance(value, list):
            update[key] = [(v[0], _substituted(v[1], reads)) if isinstance(v, tuple)
                           else _substituted(v, reads) for v in value]
    return node.model_copy(update=update)


def inlined(cx: ExprCompiler, node: n.Call, define: m.Define, rule: str | None,
            defines: dict[str, m.Define]) -> Fn | None:
    """The call `node` of `define` with the body compiled in place, or None when the body
    is not flat (then the call is kept as usual)."""
    params = list(define.params)
    if len(params) != len(node.args) or not flat(define.expr, set(params), defines,
                                                 frozenset({define.id})):
        return None
    reads: dict[str, n.Name] = {}
    hidden: list[tuple[str, Fn]] = []  # (name, argument) worked out before the body
    for param, arg in zip(params, node.args):
        if isinstance(arg, n.Name) and (arg.ref == "var" or (
                arg.ref == "builtin" and getattr(LIBRARY.get(arg.id), "value", False))):
            reads[param] = arg
        else:
            name = f"\0{define.id}.{param}.{next(_hidden)}"  # no rule can write this name
            reads[param] = n.Name(id=name, ref="var")
            hidden.append((name, cx(arg)))
    body = cx(_substituted(define.expr, reads))
    if hidden:
        body = _binding(body, hidden)
    if not rule:
        return body

    def traced(env: Env) -> Any:
        value = body(env)
        trace = env.trace
        if trace is not None and value and rule not in trace:
            trace.append(rule)
        return value
    return traced


def _binding(body: Fn, hidden: list[tuple[str, Fn]]) -> Fn:
    """`body` with the arguments in `hidden` worked out first, in order, each bound to its
    name while the body runs."""
    if len(hidden) == 1:
        (name, arg), = hidden

        def bound_one(env: Env) -> Any:
            vars = env.vars
            saved = vars.get(name, UNBOUND)
            vars[name] = arg(env)
            try:
                return body(env)
            finally:
                _restore(vars, name, saved)
        return bound_one

    def bound(env: Env) -> Any:
        vars = env.vars
        saved = [(name, vars.get(name, UNBOUND)) for name, _ in hidden]
        try:
            for name, arg in hidden:
                vars[name] = arg(env)
            return body(env)
        finally:
            for name, was in saved:
                _restore(vars, name, was)
    return bound

