"""Checks of the lines of a `given` block and of the expectations: the names they use.

A mixin of the `Checker`. A position is built, and an expectation compared, only
when the example runs; but a misspelt resource, a seat the example never seats,
an attribute nobody declared or `yes` where a condition needs `true` are plain
from the text. They are reported here, at the line they were written on, with
a suggestion, whether or not the examples are run (`rulebook check
--no-examples`, the language server).
"""

from __future__ import annotations

from typing import Any

from compiler.check.symbols import Symbols
from compiler.check.types import words
from compiler.diagnostics import did_you_mean
from compiler.ir import model as m
from compiler.ir import nodes as n

# What a reader might write for a condition, and what the language spells it.
_CONDITION_WORDS = {"yes": "true", "no": "false", "on": "true", "off": "false",
                    "True": "true", "False": "false", "1": "true", "0": "false"}


def attribute_value_problem(kind: str, value: Any, seats: list[str] | None = None) -> str | None:
    """Why `value`, as written after an attribute's name, cannot be of type `kind`."""
    said = "none" if value is None else str(value)
    if kind == "int" and not isinstance(value, int):
        return f"not `{said}`: write a whole number"
    if kind == "bool" and value not in ("true", "false"):
        meant = _CONDITION_WORDS.get(said)
        return f"not `{said}`: write " + (f"`{meant}`" if meant else "true or false")
    if kind == "player":
        if isinstance(value, int) or value in ("true", "false"):
            return f"not `{said}`: write a seat or none"
        if seats and value is not None and value not in seats:
            return f"and `{said}` is no seat of this example: write " + \
                ", ".join(f"`{s}`" for s in seats) + " or none"
    return None


class PositionFactChecks:
    sy: Symbols

    def report(self, loc: n.Loc | None, code: str, message: str, *, hint: str | None = None,
               severity: str = "error", focus: str | None = None) -> None: ...  # pragma: no cover

    # ------------------------------------------------------------ seats

    def example_seats(self, e: m.Example) -> list[str]:
        """Who plays in the example: its `players` line, else the game's first seats."""
        for f in e.given:
            if f.fact == "players":
                return [str(x) for x in f.args]
        return [s.id for s in self.sy.seats]

    def _seat(self, f: m.PositionFact, name: str, seats: list[str]) -> None:
        if name in seats or m.seat_by_place(name) is not None or not seats:
            return
        by_name = {s.name: s.id for s in self.sy.seats}
        if by_name.get(name) in seats:
            return
        self.report(f.loc, "unknown-name", f"`{name}` does not play in this example",
                    hint=did_you_mean(name, seats) or "the players are " + ", ".join(seats),
                    focus=name)

    # ------------------------------------------------------------ names

    def _resource(self, f: m.PositionFact, name: str) -> None:
        if self.sy.category(name) == "resource" or name in self.sy.families:
            return
        known = self.sy.of("resource") + list(self.sy.families)
        what = self.sy.category(name)
        self.report(f.loc, "unknown-name",
                    f"`{name}` is a {what}, not a resource" if what else
                    f"there is no resource `{name}` in this game",
                    hint=did_you_mean(name, known) or "the resources are " + ", ".join(known),
                    focus=name)

    def _piece_kind(self, f: m.PositionFact, kind: str) -> None:
        if self.sy.category(kind) == "piece":
            return
        known = self.sy.of("piece")
        self.report(f.loc, "unknown-name", f"there is no kind of piece `{kind}` in this game",
                    hint=did_you_mean(kind, known) or (
                        "the pieces are " + ", ".join(known) if known else
                        "this game has no pieces"), focus=kind)

    def _attribute(self, f: m.PositionFact, whose: str, name: str, value: Any,
                   table: dict[str, m.AttributeDecl], seats: list[str]) -> None:
        decl = table.get(name)
        if decl is None and whose == "player" and self.sy.category(name) == "resource":
            self.report(f.loc, "unknown-name", f"`{name}` is a resource, not an attribute",
                        hint=f"write what a player holds as `{name} {f.args[0]} AMOUNT`",
                        focus=name)
            return
        if decl is None and whose == "area" and name in ("closed", "open"):
            self.report(f.loc, "unknown-name", f"`{name}` is no attribute: whether an area is "
                        f"closed is a fact of its own", focus=name,
                        hint=f"write `expect {name} {f.args[0]}`")
            return
        if decl is None:
            self.report(f.loc, "unknown-name", f"unknown {whose} attribute `{name}`",
                        hint=did_you_mean(name, table) or (
                            "declared: " + ", ".join(sorted(table)) if table else
                            f"this game declares no {whose} attributes"), focus=name)
            return
        problem = attribute_value_problem(decl.type, value, seats)
        if problem:
            self.report(f.loc, "type", f"`{name}` is {words(decl.type)}, {problem}", focus=name)

    # ------------------------------------------------------------ facts

    def check_fact(self, f: m.PositionFact, seats: list[str]) -> None:
        """One line of a `given` block or one expectation: every name it uses is the game's."""
        a = f.args
        if f.fact == "turn":
            if a[0] < 1:
                self.report(f.loc, "range", f"turns are counted from 1, not {a[0]}",
                            focus=str(a[0]))
            self._seat(f, str(a[1]), seats)
            if a[2] not in self.sy.steps:
                self.report(f.loc, "unknown-name", f"unknown step `{a[2]}`",
                            hint=did_you_mean(a[2], self.sy.steps), focus=str(a[2]))
        elif f.fact == "step":
            if a[0] not in self.sy.steps:
                self.report(f.loc, "unknown-name", f"unknown step `{a[0]}`",
                            hint=did_you_mean(a[0], self.sy.steps), focus=str(a[0]))
        elif f.fact in ("amount", "delta"):
            self._resource(f, str(a[0]))
            holder = str(a[1])
            if holder != "pool" and ":" not in holder and "," not in holder:
                self._seat(f, holder, seats)
        elif f.fact == "piece":
            self._piece_kind(f, str(a[0]))
            if str(a[1]) != "none":
                self._seat(f, str(a[1]), seats)
        elif f.fact == "no_piece":
            self._piece_kind(f, str(a[0]))
        elif f.fact == "supply":
            self._seat(f, str(a[0]), seats)
            self._piece_kind(f, str(a[1]))
        elif f.fact == "area":
            self._attribute(f, "area", str(a[1]), a[2], self.sy.area_attrs, seats)
        elif f.fact == "player":
            self._seat(f, str(a[0]), seats)
            self._attribute(f, "player", str(a[1]), a[2], self.sy.player_attrs, seats)
        elif f.fact == "game":
            self._attribute(f, "game", str(a[0]), a[1], self.sy.game_attrs, seats)
        elif f.fact in ("winner", "waiting"):
            for seat in a:
                self._seat(f, str(seat), seats)
