"""`action X "…" alongside Y`: an action offered wherever another one is.

A skill often answers a choice some other rule owns: the base asks a player to set combat
tokens aside, and a race may do it *and* something more. Without this, an author adds the
option by copying the base's grant. Here the new action says where it belongs, and this
pass writes it into every place that offers Y — the turn steps that list Y and the grants
(`grant must Y …`, `grant up to N of …`) that name it — as one more alternative of the same
choice. The engine and the rulebook then read the same, completed declarations: the grant's
English names the new option, and the rules cited for it stay the grant's.

Runs after a variant's edits and before the checker, so a base choice is joined by an
action a variant adds. A grant that fixes some of the choice's parameters (`with a = a`)
fixes them for the joiner too, so the joiner must declare them; that is reported here, at
the joiner, once per grant.
"""

from __future__ import annotations

from typing import Any

from compiler.diagnostics import Diagnostic, SourceMap, did_you_mean
from compiler.ir import model as m
from compiler.ir import nodes as n


def _with(names: list[str], after: str, joiner: str) -> list[str]:
    """`names` with `joiner` listed right after `after` (once)."""
    if joiner in names or after not in names:
        return names
    i = names.index(after)
    return names[:i + 1] + [joiner] + names[i + 1:]


def join_alongside(rs: m.Ruleset, sources: SourceMap) -> list[Diagnostic]:
    """Write each `alongside` action into the steps and grants of the actions it joins."""
    decls = rs.all_decls()
    actions = {d.id: d for d in decls if isinstance(d, m.Action)}
    joiners = [a for a in actions.values() if a.alongside]
    out: list[Diagnostic] = []
    for a in joiners:
        for target in a.alongside:
            if target not in actions or target == a.id:
                out.append(sources.diagnostic(
                    a.loc, "unknown-name",
                    f"`{a.id}` is offered alongside `{target}`, which is no action"
                    if target != a.id else f"`{a.id}` cannot be offered alongside itself",
                    hint=did_you_mean(target, [x for x in actions if x != a.id]),
                    focus=target))
    if out:
        return out
    places = list(n.walk([decls, rs.cardsets]))
    # Joined in turn until nothing changes: an action alongside a joiner joins its places too.
    changed = True
    while changed:
        changed = False
        for a in joiners:
            for target in a.alongside:
                for node in places:
                    if _join(node, target, a, sources, out):
                        changed = True
                        _note_change(rs, a, node)
    return out


def _note_change(rs: m.Ruleset, joiner: m.Action, place: Any) -> None:
    """A variant's action that joins a base rule's choice changes that rule's reading: list
    it under "What changes", beside the base's, as a replaced rule is."""
    if rs.extends is None or not place.rule:
        return
    new = {c.id for c in rs.changes if c.kind == "rule" and c.op in ("added", "replaced")}
    mine = joiner.rule or ""
    if not any(mine == r or mine.startswith(r + ".") for r in new):
        return  # the base's own joiner: the base already reads this way
    if place.rule not in {c.id for c in rs.changes if c.kind == "rule"}:
        rs.changes.append(m.Change(op="replaced", kind="rule", id=place.rule, loc=joiner.loc))


def _join(node: Any, target: str, joiner: m.Action, sources: SourceMap,
          out: list[Diagnostic]) -> bool:
    if isinstance(node, m.StepDecl):
        acts, also = _with(node.actions, target, joiner.id), _with(node.also, target, joiner.id)
        if (acts, also) != (node.actions, node.also):
            node.actions, node.also = acts, also
            return True
    elif isinstance(node, n.GrantOne):
        offered = [node.action, *node.alternatives]
        if target in offered and joiner.id not in offered:
            node.alternatives = _with(offered, target, joiner.id)[1:]
            params = {p.name for p in joiner.params}
            missing = [name for name, _ in node.bindings if name not in params]
            if missing:
                where = f" ({node.loc})" if node.loc else ""
                out.append(sources.diagnostic(
                    joiner.loc, "unknown-name",
                    f"`{joiner.id}` is offered alongside `{target}`, whose grant{where} fixes "
                    f"{', '.join(f'`{x}`' for x in missing)}; `{joiner.id}` has no such "
                    f"parameter", focus=joiner.id,
                    hint="declare it as `" + target + "` does: " + ", ".join(
                        f"`choose {x} from …`" for x in missing)))
            return True
    elif isinstance(node, n.GrantMany):
        acts = _with(node.actions, target, joiner.id)
        if acts != node.actions:
            node.actions = acts
            return True
    return False
