"""Checks of audits: what an audit may find, and the examples that expect its findings.

An audit lists elements of the position (tiles, pieces, areas, players, cards,
cells, sites), each a breach of a rule. Every breach of one audit must list
elements of one type, because `faulty(NAME)` hands them to the rules as one
collection; an element of any other type (a number, a yes-or-no test) could
not be pointed at on the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compiler.check.types import element, words
from compiler.diagnostics import did_you_mean
from compiler.ir import model as m
from compiler.ir import nodes as n

if TYPE_CHECKING:
    from compiler.check.types import TypeChecker

# The elements an audit may find: things a judge can point at on the table.
AUDITED = ("tile", "piece", "area", "player", "card", "cell", "site")


def audit_element(tc: TypeChecker, audit: m.AuditDecl) -> str:
    """The element type of an audit's findings, typed quietly (for `faulty` before the audit
    itself is checked, which reports its own mistakes): the first breach's that is known."""
    busy = tc.sy.auditing
    if audit.id in busy:  # an audit that reads its own findings: reported by the audit
        return "any"
    busy.add(audit.id)
    saved, reported = tc._report, tc.reported
    tc._report = lambda *a, **k: None
    try:
        found = [element(tc.expr(b.collection, {})) for b in audit.breaches]
    finally:
        tc._report, tc.reported = saved, reported
        busy.discard(audit.id)
    return next((t for t in found if t != "any"), "any")


class AuditChecks:
    """The checker's handlers for audits (mixed into `compiler.check.Checker`)."""

    rs: m.Ruleset
    sy: Any
    types: TypeChecker
    report: Any
    _cites: Any
    rule_hint: Any

    def d_audit(self, d: m.AuditDecl) -> None:
        first: tuple[str, m.BreachDecl] | None = None
        for b in d.breaches:
            got = self.types.expr(b.collection, {})
            self._cites(b.rule, b.loc)
            if b.rule is None:
                self.report(b.loc, "structure", f"a breach of audit `{d.id}` cites no rule",
                            hint="write the audit inside a rule, or add `per RULE`")
            if got == "any":
                continue
            if not got.startswith("set:") or element(got) not in AUDITED:
                self.report(b.collection.loc, "type",
                            f"a breach lists what is found wrong (a collection of tiles, "
                            f"pieces, areas, players or cards), but this is {words(got)}")
                continue
            if first is None:
                first = (got, b)
            elif element(got) != element(first[0]):
                self.report(b.collection.loc, "type",
                            f"the breaches of audit `{d.id}` must find one kind of thing: the "
                            f"first finds {words(first[0]).removeprefix('a collection of ')}, "
                            f"this one {words(got).removeprefix('a collection of ')}",
                            hint="`faulty(" + d.id + ")` is one collection; write a second "
                                 "audit for the other kind")
        if self._reads_itself(d):
            self.report(d.loc, "structure", f"audit `{d.id}` uses `faulty({d.id})`: an audit "
                        f"cannot be decided by its own findings")

    def _reads_itself(self, d: m.AuditDecl) -> bool:
        return any(isinstance(x, n.Call) and x.func == "faulty" and x.args
                   and isinstance(x.args[0], n.Name) and x.args[0].id == d.id
                   for b in d.breaches for x in n.walk(b.collection))

    def check_breach_expectation(self, f: m.PositionFact) -> None:
        """`expect breach X`: X names an audit, a rule an audit cites, or AUDIT.RULE."""
        target = str(f.args[0])
        if breach_target(self.rs, target) is None:
            known = sorted({a.id for a in audits(self.rs)} |
                           {b.rule for a in audits(self.rs) for b in a.breaches if b.rule})
            self.report(f.loc, "unknown-name",
                        f"`expect breach {target}` names no audit and no rule an audit cites",
                        hint=did_you_mean(target, known) or (
                            "audits: " + ", ".join(a.id for a in audits(self.rs))
                            if audits(self.rs) else "the ruleset declares no `audit`"))


def audits(rs: m.Ruleset) -> list[m.AuditDecl]:
    return [d for d in rs.all_decls() if isinstance(d, m.AuditDecl)]


def breach_target(rs: m.Ruleset, target: str) -> tuple[str | None, str | None] | None:
    """What `expect breach TARGET` means: (audit, rule), either None for "any"; None: nothing."""
    found = audits(rs)
    for a in found:
        if target == a.id:
            return a.id, None
        for b in a.breaches:
            if b.rule and target == f"{a.id}.{b.rule}":
                return a.id, b.rule
    if any(b.rule == target for a in found for b in a.breaches):
        return None, target
    return None
