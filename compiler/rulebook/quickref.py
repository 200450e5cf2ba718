"""A book's quick reference: one page to keep open at the table.

The turn step by step, every action with what it needs, and every amount the rules compute
(points, coins, cards), each formula drawn as the rule's own page draws it and linked to
that rule. Everything here is read from the same declarations the engine plays, so it cannot
drift from the rules it summarises.
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler.ir import model as m
from compiler.rulebook.formal import Formal, capital
from compiler.rulebook.links import Index

PAGE = "quick-reference.md"
TITLE = "Quick reference"


def page_lines(rs: m.Ruleset, ix: Index, formal: Formal) -> list[str]:
    lines = [f"# {TITLE}", "",
             "The turn, every action and every formula, each linked to its rule.", ""]
    lines += _turn(rs, ix, formal)
    lines += _actions(rs, ix, formal)
    lines += _formulas(rs, ix, formal)
    return lines


def _held(rs: m.Ruleset) -> Iterator[tuple[m.Rule, m.Declaration]]:
    """Every rule's declarations, in reading order, with the rule that holds them."""
    return ((r, d) for r in rs.all_rules() for d in r.decls)


def _turn(rs: m.Ruleset, ix: Index, formal: Formal) -> list[str]:
    out: list[str] = []
    for rule, d in _held(rs):
        if isinstance(d, m.RoundDecl):
            out += [f"{formal.d_round(d, rule)[0]} ({ix.rule_link(rule.id)})", ""]
    steps = [(rule, d) for rule, d in _held(rs) if isinstance(d, m.StepDecl)]
    out += [f"{i}. **{d.title}:** {formal.step_words(d)} ({ix.rule_link(rule.id)})"
            for i, (rule, d) in enumerate(steps, 1)]
    return ["## The turn", "", *out, ""] if out else []


def _actions(rs: m.Ruleset, ix: Index, formal: Formal) -> list[str]:
    rows = []
    for rule, d in _held(rs):
        if not isinstance(d, m.Action):
            continue
        written = d.notation or d.id
        for p in d.params:
            written = written.replace("{" + p.name + "}", p.name.upper())
        needs = "; ".join(formal.en(r.cond) for r in d.requires) or "—"
        rows.append(f"| {capital(d.title)} | `{written}` | {needs} | "
                    f"{ix.rule_link(rule.id)} |")
    if not rows:
        return []
    return ["## Actions", "", "| Action | Written | Only if | Rule |", "|---|---|---|---|",
            *rows, ""]


def _formulas(rs: m.Ruleset, ix: Index, formal: Formal) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for rule in rs.all_rules():
        gives = [html for _, html in formal.computed_gives(rule) if html not in seen]
        if not gives:
            continue
        seen.update(gives)
        out += [f"**{ix.rule_link(rule.id, rule.number + ' ' + rule.title)}**", ""]
        for html in gives:
            out += formal.formula_lines(html)
    return ["## Formulas", "", *out] if out else []
