"""Checks of the example facts about laid cards and of `expect value`.

A mixin of the `Checker`: what these lines say that no position can hold (a
card the game lacks, an attribute no laid card has, a value of the wrong
type) is reported at the line it is written on, before any example runs.
`expect value` types its expression like any rule's, with each seat's id
standing for that player (`count(tiles of red)`).
"""

from __future__ import annotations

from typing import Any

from compiler.check.facts import attribute_value_problem
from compiler.check.symbols import Symbols
from compiler.check.types import TypeChecker, words
from compiler.diagnostics import did_you_mean
from compiler.ir import model as m
from compiler.ir import nodes as n


def _literal_type(value: Any, seats: set[str], cards: set[str]) -> str:
    """What a value written after `is` is: a number, a condition, none, a seat, a card."""
    if value is None:
        return "none"
    if isinstance(value, int):
        return "int"
    if value in ("true", "false"):
        return "bool"
    if value in seats:
        return "player"
    if value in cards:
        return "card"
    return "name"


class ExampleFactChecks:
    sy: Symbols
    types: TypeChecker

    def report(self, loc: n.Loc | None, code: str, message: str, *, hint: str | None = None,
               severity: str = "error", focus: str | None = None) -> None: ...  # pragma: no cover

    def check_card_fact(self, f: m.PositionFact) -> None:
        """`card ID at CELL [down] [with NAME VALUE, …]`, given or expected."""
        card, _cell, _down, values = f.args
        if card not in self.sy.printed and card not in self.sy.cards:
            known = list(self.sy.printed) or list(self.sy.cards)
            self.report(f.loc, "unknown-name", f"there is no card `{card}` in this game",
                        hint=did_you_mean(card, known))
        for name, value in values:
            if name in self.sy.tile_holds:
                if not isinstance(value, int) or value < 0:
                    self.report(f.loc, "type", f"`{name}` is an amount held: write a whole "
                                               f"number, not `{value}`", focus=name)
                continue
            decl = self.sy.tile_attrs.get(name)
            if decl is None:
                known = sorted(set(self.sy.tile_attrs) | self.sy.tile_holds)
                self.report(f.loc, "unknown-name",
                            f"a laid card has no attribute or holding `{name}`",
                            hint=did_you_mean(name, known) or (
                                "declared: " + ", ".join(known) if known else
                                "no laid card holds or remembers anything in this game"))
                continue
            problem = attribute_value_problem(decl.type, value)
            if problem:
                self.report(f.loc, "type", f"`{name}` is {words(decl.type)}, {problem}",
                            focus=name)

    def check_value_expectation(self, f: m.PositionFact) -> None:
        """`expect value EXPR is VALUE`: the expression types, and the value is of its type."""
        expr, value = f.args
        seats = {s.id for s in self.sy.seats}
        before = self.types.reported
        t = self.types.expr(expr, {s: "player" for s in seats})
        if self.types.reported > before or t == "any":
            return
        if t.startswith("set:"):
            self.report(f.loc, "type", f"`expect value` compares one value, but this is "
                                       f"{words(t)}", hint="count it: `count(…)`", focus="value")
            return
        said = _literal_type(value, seats, set(self.sy.printed) | set(self.sy.cards))
        ok = said == t or (said == "none" and t not in ("int", "bool"))
        if not ok:
            shown = "none" if value is None else str(value)
            expected = {"int": "write a whole number", "bool": "write true or false",
                        "player": "write a seat (" + ", ".join(sorted(seats)) + ") or none",
                        "card": "write a card's id or none"}.get(
                t, f"only none can be written for {words(t)}")
            self.report(f.loc, "type", f"the value is {words(t)}, not `{shown}`: {expected}",
                        focus=shown)
