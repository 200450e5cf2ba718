"""`faulty(NAME)`: what an audit finds wrong, as a collection the rules can act on.

An audit (`audit NAME "…" { breach … }`, see `compiler/engine/audit.py`) lists
every breach of a position. Rules that let a player put things right (take a
faulty card out at the end of a round, say) need the same list the judge
reads, so `faulty` hands it to them rather than have the rules restate each
breach's condition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compiler.ir import nodes as n
from compiler.library.base import Builtin, Fn, register

if TYPE_CHECKING:
    from compiler.check.types import Scope, TypeChecker
    from compiler.engine.evaluate import Env, ExprCompiler
    from compiler.ir.english import English

_CROWDED = '''
audit crowded "Lakes with room for everyone" {
    breach "more than one pawn in a lake" in lake where count(pawn in it) > 1
}
at end of turn {
    for each l in EXAMPLE {
        give 1 gold from pool to me
    }
}
'''


@register
class Faulty(Builtin):
    name, group, returns = "faulty", "audits", "set:any"
    summary = ("Everything an audit finds wrong in the position, each once, in the order the "
               "audit lists its breaches: the elements a rule can let a player put right.")
    example = "faulty(crowded)"
    setting = _CROWDED

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        from compiler.check.audits import audit_element
        from compiler.diagnostics import did_you_mean
        if not tc._arity(node, 1):
            return "set:any"
        arg = node.args[0]
        audit = tc.sy.audits.get(arg.id) if isinstance(arg, n.Name) else None
        if audit is None:
            tc.report(arg.loc, "unknown-name",
                      f"`faulty` takes the name of an audit, not "
                      f"`{getattr(arg, 'id', None) or 'this'}`",
                      hint=did_you_mean(getattr(arg, "id", ""), tc.sy.audits) or (
                          None if tc.sy.audits else "declare one with `audit NAME \"…\" { "
                                                    "breach \"…\" in COLLECTION }`"))
            return "set:any"
        arg.type = "audit"
        return "set:" + audit_element(tc, audit)

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        from compiler.engine.audit import faulty
        audit = node.args[0].id  # type: ignore[attr-defined]

        def found(env: Env) -> tuple[Any, ...]:
            return faulty(env, audit)
        return found

    def english(self, en: English, node: n.Call) -> str:
        from compiler.check.types import PLURALS
        what = PLURALS.get((node.type or "set:any")[4:], "things")
        return f"the {what} the audit {node.args[0].id} finds at fault"  # type: ignore[attr-defined]
