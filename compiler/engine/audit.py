"""Audits: a check of a whole position that lists every breach with its rule.

A move is judged when it is made; an audit judges what is on the table (a
position brought to a judge, or the state at the end of a round when the rules
have players put their mistakes right). `audit NAME "…" { breach "…" per RULE
in COLLECTION }` declares it: every element of each breach's collection is a
breach of that rule. Findings come in declaration order, then in the order of
each collection (the board's reading order, seat order…), so two runs on one
position say the same thing in the same order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from compiler.engine.evaluate import Env, Fn, call_scoped
from compiler.engine.ruling import RuleCitation
from compiler.ir import model as m

if TYPE_CHECKING:
    from compiler.engine.game import Game
    from compiler.engine.position import Rules
    from compiler.engine.state import State


@dataclass(frozen=True)
class CompiledBreach:
    decl: m.BreachDecl
    collection: Fn
    element: str   # the checker's type of each element: "tile", "area", "piece"…


@dataclass(frozen=True)
class CompiledAudit:
    decl: m.AuditDecl
    breaches: tuple[CompiledBreach, ...]


@dataclass(frozen=True)
class Finding:
    """One breach found: which audit, the rule broken, its words, and the element at fault."""

    audit: str
    rule: str | None
    message: str
    element: Any
    type: str


class AuditFinding(BaseModel):
    """A finding as a judge reads it out: the rule (number, title, rulebook address), what is
    wrong in plain English naming the element, and where it is on the table."""

    audit: str
    audit_title: str
    rule: RuleCitation | None
    breach: str            # the breach as the rules word it
    message: str           # the element named, then the breach
    where: str             # "1,0" (a tile), "1,0:lake" (an area, a piece), "red" (a player)…
    element: str           # what kind of thing is at fault: "tile", "area", "piece"…

    def render(self) -> str:
        head = f"{self.rule.number} {self.rule.title}" if self.rule else self.audit_title
        lines = [f"✗ {head}: {self.message}"]
        if self.rule:
            lines.append(f"    {self.rule.url}")
        return "\n".join(lines)


def compile_audits(game: Game, decls: list[Any]) -> dict[str, CompiledAudit]:
    """Every audit of the ruleset, its collections compiled once."""
    out: dict[str, CompiledAudit] = {}
    for d in decls:
        if isinstance(d, m.AuditDecl):
            out[d.id] = CompiledAudit(d, tuple(
                CompiledBreach(b, game.expr(b.collection), (b.collection.type or "set:any")[4:])
                for b in d.breaches))
    return out


def _elements(env: Env, breach: CompiledBreach) -> tuple[Any, ...]:
    # An audit reads the position alone: the names bound where `faulty` is used
    # (an action's choices, a loop's element) are not its own.
    return tuple(call_scoped(env, breach.collection, (), []))


def run_audit(game: Game, st: State, audit_id: str) -> list[Finding]:
    """The breaches one audit finds, in the order its breaches are declared, then in the order
    of each collection."""
    audit = game.audits[audit_id]
    env = Env(game, st)
    env.memo = {}
    return [Finding(audit_id, b.decl.rule, b.decl.message, x, b.element)
            for b in audit.breaches for x in _elements(env, b)]


def run_audits(game: Game, st: State) -> list[Finding]:
    """Every audit's findings, audits in declaration order."""
    return [f for a in game.audits for f in run_audit(game, st, a)]


def faulty(env: Env, audit_id: str) -> tuple[Any, ...]:
    """`faulty(NAME)`: every element the audit finds, each once, in the order found.

    An audit only reads the position, which nothing changes while it runs: where it is
    asked while effects run (no memo then), it keeps its costly results for its own run."""
    out: list[Any] = []
    own = env.memo is None
    if own:
        env.memo = {}
    try:
        for b in env.game.audits[audit_id].breaches:
            for x in _elements(env, b):
                if x not in out:
                    out.append(x)
    finally:
        if own:
            env.memo = None
    return tuple(out)


# ------------------------------------------------------------------- words


def where(game: Game, st: State, f: Finding) -> str:
    """Where the element at fault is on the table, as positions and examples write it."""
    x, t = f.element, f.type
    if t in ("tile", "cell") and isinstance(x, tuple):
        return game.format_cell(x)  # `blue/1,0` on a board per player
    if t == "site" and isinstance(x, tuple):
        return game.format_site(x)
    if t == "area":
        return game.format_area(st, x)
    if t == "piece":
        p = st.piece(x)
        return game.format_site((p.cell, p.site))
    if t == "player" and isinstance(x, int):
        return game.seat_id(x)
    return str(x)


def at(game: Game, st: State, f: Finding, place: str) -> bool:
    """Whether an example's `at PLACE` points at the finding's element: its own place, or, for
    an area, any site of it (an area has no one name a reader would know)."""
    if place == where(game, st, f):
        return True
    if f.type == "area" and ":" in place and "/" not in place:
        cell_text, site = place.split(":", 1)
        try:
            cell = game.lattice.parse_cell(cell_text)
            return cell in st.board and \
                st.areas.find(game.site_area(st, (cell, site))) == st.areas.find(f.element)
        except (KeyError, ValueError):
            return False
    if f.type == "player" and isinstance(f.element, int):
        return place == game.seat_name(f.element)
    return False


def findings(rules: Rules, st: State) -> list[AuditFinding]:
    """Every breach of every audit, as a judge reads them out (see `Position.audit`)."""
    from compiler.engine.explain import explainer
    game = rules.game
    found = run_audits(game, st)
    if not found:
        return []
    words = explainer(game)
    words.context(st, {})
    out = []
    for f in found:
        decl = game.audits[f.audit].decl
        named = (game.laid_card_words(st, f.element, whose=True)
                 if f.type == "tile" and isinstance(f.element, tuple) else None) \
            or words.describe(f.element, f.type)
        out.append(AuditFinding(
            audit=f.audit, audit_title=decl.title, rule=rules.cite(f.rule), breach=f.message,
            message=f"{named[:1].upper()}{named[1:]}: {f.message}", where=where(game, st, f),
            element=f.type))
    return out


# ---------------------------------------------------------------- examples


def expectation_problem(rules: Rules, st: State, fact: m.PositionFact) -> str | None:
    """What is wrong with `expect breach TARGET [at PLACE]` or `expect no breach` after an
    example's moves, in the words of its other expectations; None: it holds.

    TARGET is an audit (any of its breaches), a rule an audit cites, or AUDIT.RULE."""
    from compiler.check.audits import breach_target
    game = rules.game
    found = run_audits(game, st)
    if fact.fact == "no_breach":
        if not found:
            return None
        return "expected no breach, but the audits find " + "; ".join(
            f"{f.rule or f.audit} at {where(game, st, f)}" for f in found)
    target, place = str(fact.args[0]), fact.args[1]
    meant = breach_target(rules.ruleset, target)
    if meant is None:
        return f"no audit and no rule an audit cites is called {target}"
    audit, rule = meant
    matching = [f for f in found if (audit is None or f.audit == audit)
                and (rule is None or f.rule == rule)]
    if place is not None:
        if any(at(game, st, f, str(place)) for f in matching):
            return None
        others = ", ".join(where(game, st, f) for f in matching)
        return f"expected a breach of {target} at {place}, but " + (
            f"the audits find it only at {others}" if others else "the audits find none")
    return None if matching else f"expected a breach of {target}, but the audits find none"
