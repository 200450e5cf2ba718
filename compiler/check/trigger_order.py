"""A warning when two triggers on one event depend on each other's order and none is stated.

The triggers on one event run in reading order (engine/game.py `in_order`). Across files —
a variant's trigger beside its base's — that order is an accident of how the rules were
assembled; inside one file it is easily lost when a rule moves. A trigger that reads what
another one writes can pay 2 or 7 depending on it, and nothing on the page says so. So when
two triggers on the same event are such that one writes a resource or an attribute the
other reads, and neither is written `after` the other's rule, `rulebook check` warns, says
which runs first today, and shows the `after` that would state it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from compiler.ir import model as m
from compiler.ir import nodes as n


class _Reporter(Protocol):
    def report(self, loc: n.Loc | None, code: str, message: str, *, hint: str | None = None,
               severity: str = "error", focus: str | None = None) -> None: ...


@dataclass
class _Access:
    """What a trigger reads and writes, by name: resources and attributes."""
    reads: set[str] = field(default_factory=set)
    writes: set[str] = field(default_factory=set)


def _access(trigger: m.Trigger, defines: dict[str, m.Define],
            effects: dict[str, m.Effect]) -> _Access:
    """Follow the trigger's statements, and the effects and definitions they use."""
    out = _Access()
    seen: set[str] = set()
    targets: set[int] = set()  # the `x.a` that `set x.a to …` writes: not a read of `a`
    todo: list[Any] = [trigger.where, trigger.body]
    while todo:
        for node in n.walk(todo.pop()):  # a statement comes before the nodes inside it
            if isinstance(node, n.Give):
                out.writes.add(node.resource)
            elif isinstance(node, (n.SetAttr, n.ClearAttr)):
                out.writes.add(node.target.name)
                targets.add(id(node.target))
            elif isinstance(node, n.Attr) and id(node) not in targets \
                    and getattr(node.obj, "type", None) != "card":
                out.reads.add(node.name)  # a card's printed property never changes
            elif isinstance(node, n.Call) and node.defined and node.func not in seen:
                seen.add(node.func)
                if node.func in defines:
                    todo.append(defines[node.func].expr)
            elif isinstance(node, n.Apply) and not node.ability and node.effect not in seen:
                seen.add(node.effect)
                if node.effect in effects:
                    todo.append(effects[node.effect].body)
    return out


def _kinds(trigger: m.Trigger) -> frozenset[str] | None:
    """The kinds of area or piece the event can be about; None when any."""
    ev = trigger.event
    if ev.kind and ev.kind not in ("area", "piece"):
        return frozenset({ev.kind})
    if trigger.where is not None and ev.var:
        said = _kinds_said(trigger.where, ev.var)
        if said is not None:
            return frozenset(said)
    return None


def _kinds_said(cond: Any, var: str) -> set[str] | None:
    """`a is X or a is Y` (alone or and-ed with more): the kinds it allows; None if unsaid."""
    if isinstance(cond, n.IsKind) and not cond.negated and isinstance(cond.value, n.Name) \
            and cond.value.id == var:
        return {cond.kind}
    if isinstance(cond, n.Logic):
        parts = [_kinds_said(x, var) for x in cond.items]
        if cond.op == "or":
            if any(p is None for p in parts):
                return None
            return set().union(*(p for p in parts if p is not None))
        known = [p for p in parts if p is not None]
        return set.intersection(*known) if known else None
    return None


def _same_moment(a: m.Trigger, b: m.Trigger) -> bool:
    """Whether the two can run on one and the same event, in one batch."""
    x, y = a.event, b.event
    if x.type != y.type or a.defer_to != b.defer_to:
        return False
    if x.type == "moment":
        return (x.moment, x.target, x.step, x.round) == (y.moment, y.target, y.step, y.round)
    ka, kb = _kinds(a), _kinds(b)
    return ka is None or kb is None or bool(ka & kb)


def _orders(t: m.Trigger, other: m.Trigger) -> bool:
    """`t` is written `after` the other's rule (or a rule around it)."""
    want, rule = t.after or "", other.rule or ""
    return bool(want) and (rule == want or rule.startswith(want + "."))


def event_words(t: m.Trigger) -> str:
    """When a trigger runs, in words: "when a lake closes", "at the end of the turn"."""
    ev = t.event
    kinds = sorted(_kinds(t) or [])
    what = " or ".join(("an " if k[:1] in "aeiou" else "a ") + k for k in kinds) if kinds \
        else ("an area" if ev.type == "closes" else "a piece")
    if ev.type == "moment":
        return f"at the {ev.moment} of the {ev.step or ev.round or ev.target}"
    return {"closes": f"when {what} closes", "laid": "when a tile is laid",
            "enters": f"when {what} enters", "leaves": f"when {what} leaves",
            "returns": f"when {what} returns"}.get(ev.type, f"on `{ev.type}`")


def check_trigger_order(ck: _Reporter, ruleset: m.Ruleset) -> None:
    decls = ruleset.all_decls()
    defines = {d.id: d for d in decls if isinstance(d, m.Define)}
    effects = {d.id: d for d in decls if isinstance(d, m.Effect)}
    triggers = [d for d in decls if isinstance(d, m.Trigger) and d.loc is not None]
    access = {id(t): _access(t, defines, effects) for t in triggers}
    for i, first in enumerate(triggers):
        for later in triggers[i + 1:]:
            if not _same_moment(first, later):
                continue
            if _orders(first, later) or _orders(later, first):
                continue
            a, b = access[id(first)], access[id(later)]
            shared = sorted((a.writes & b.reads) | (b.writes & a.reads))
            if not shared:
                continue
            name = shared[0]
            writer, reader = (first, later) if name in a.writes else (later, first)
            runs = "first" if reader is first else "second"
            because = ("of the order the files are read in"
                       if first.loc.file != later.loc.file  # type: ignore[union-attr]
                       else f"it is written {'before' if runs == 'first' else 'after'} it")
            ck.report(reader.loc, "order",
                      f"this trigger reads `{name}`, which the trigger of `{writer.rule}` changes "
                      f"({writer.loc}); both run {event_words(reader)}, and this one runs "
                      f"{runs} only because {because}",
                      severity="warning", focus="",
                      hint=f"to run once `{name}` is changed, write `after {writer.rule}` "
                           f"before the trigger's `{{`" if runs == "first" else
                           f"to state the order, write `after {writer.rule}` before the "
                           f"trigger's `{{`")
