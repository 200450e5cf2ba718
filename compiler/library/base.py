"""What a builtin is: one class holding everything the pipeline knows of it.

A builtin (`count`, `me`, `supply`…) used to be written in five or six places:
its name in the symbol table, its type rule in the checker, its closure in the
engine, its English in the renderer, its formula in the rulebook and its
example in the reference. Here each one is a single class, and every consumer
asks the registry `LIBRARY` for it, so growing the language means writing one
class, not editing six files in step.

The library sits beside the pipeline: the checker, the engine and the readings
import it; it imports them back only inside the methods that need them (at
check or compile time, never at run time of a closure), so no cycle forms.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from compiler.ir import nodes as n

if TYPE_CHECKING:
    from compiler.check.types import Scope, TypeChecker
    from compiler.engine.evaluate import Env, ExprCompiler
    from compiler.ir.english import English
    from compiler.rulebook.formal import Formal
    from compiler.rulebook.mathml import MathML

Fn = Callable[["Env"], Any]


class Builtin:
    """One builtin name or function of the language.

    Subclasses set the class attributes and override `check` (the type rule:
    arity, argument types, the result type), `compile` (the closure, chosen
    once from the checked node, so nothing is dispatched on values at run
    time) and `english`. The other hooks let a builtin read better in a
    particular place (compared with a number, negated, in a formula, as a
    winner's measure); returning None keeps the general reading.
    """

    name: ClassVar[str]
    value: ClassVar[bool] = False          # a name (`me`), not a call (`count(…)`)
    returns: ClassVar[str] = "any"         # the checker's type of the result
    group: ClassVar[str]                   # "counting", "players": where the reference files it
    summary: ClassVar[str]                 # what it is, in our own words
    example: ClassVar[str]                 # an expression using it, valid in the reference's demo
    # Rule-level source the example needs around it (declarations, a trigger), with
    # EXAMPLE where it goes; empty: the example is a value in the demo's `research` action.
    setting: ClassVar[str] = ""
    only_in: ClassVar[str | None] = None   # "closes": a value bound only by that event

    def check(self, tc: TypeChecker, node: Any, scope: Scope) -> str:
        """The type rule: report what is wrong with the arguments; return the result's type."""
        return self.returns

    def compile(self, cx: ExprCompiler, node: Any) -> Fn:
        raise NotImplementedError(f"`{self.name}` has no evaluation")

    def english(self, en: English, node: Any) -> str:
        raise NotImplementedError(f"`{self.name}` has no English reading")

    def english_compared(self, en: English, node: n.Compare) -> str | None:
        """A comparison whose left side is this call, read as one phrase ("there are no …")."""
        return None

    def mathml(self, mm: MathML, node: n.Call) -> list[str] | None:
        """This call inside a formula; None: its English, as text."""
        return None

    def measure_words(self, formal: Formal, node: n.Call) -> str | None:
        """This call as a per-player measure of the winner (`it` is each player); None: English."""
        return None


LIBRARY: dict[str, Builtin] = {}


def register(cls: type[Builtin]) -> type[Builtin]:
    """Add a builtin to `LIBRARY`, once: a second one of the same name is a mistake."""
    if cls.name in LIBRARY:
        raise ValueError(f"two builtins are called `{cls.name}`")
    LIBRARY[cls.name] = cls()
    return cls
