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
    from compiler.engine.explain import Ctx, Explainer, Reason
    from compiler.engine.game import Game
    from compiler.engine.state import State
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
    replaces: ClassVar[tuple[str, ...]] = ()  # parts of the demo the setting stands in for
    only_in: ClassVar[str | None] = None   # "closes": a value bound only by that event
    # A value that is every element of one sort (`pieces`): `in` and `of` narrow it as they
    # narrow a kind of that category ("" for pieces of any kind); None: it cannot be narrowed.
    narrows: ClassVar[str | None] = None
    # An action requiring this call of its own four chosen variables is listed from the
    # kernel's placement index, not by trying every combination (`fits`).
    placement: ClassVar[bool] = False
    # Costs the same however full the table is (a seat, a team): a definition made only of
    # such reads is compiled in place at each call, not kept in the memo (engine/inline.py).
    flat: ClassVar[bool] = False

    def check(self, tc: TypeChecker, node: Any, scope: Scope) -> str:
        """The type rule: report what is wrong with the arguments; return the result's type."""
        return self.returns

    def compile(self, cx: ExprCompiler, node: Any) -> Fn:
        raise NotImplementedError(f"`{self.name}` has no evaluation")

    def english(self, en: English, node: Any) -> str:
        raise NotImplementedError(f"`{self.name}` has no English reading")

    def english_negated(self, en: English, node: n.Call) -> str | None:
        """`not` this call, read as one phrase ("… fits nowhere"); None: the general negation."""
        return None

    def english_compared(self, en: English, node: n.Compare) -> str | None:
        """A comparison whose left side is this call, read as one phrase ("there are no …")."""
        return None

    def english_of(self, en: English, node: Any, owner: str) -> str | None:
        """This value narrowed to one player's (`frontier of p`), read as one phrase
        ("the empty positions next to your station"); None: "<owner's> <value>"."""
        return None

    def mathml(self, mm: MathML, node: n.Call) -> list[str] | None:
        """This call inside a formula; None: its English, as text."""
        return None

    def measure_words(self, formal: Formal, node: n.Call) -> str | None:
        """This call as a per-player measure of the winner (`it` is each player); None: English."""
        return None

    def explain(self, game: Game, st: State, env: Env, node: n.Call) -> str | None:
        """The kernel's reason this call, required by an action, was false; None: nothing to add."""
        return None

    def why_not_in(self, ex: Explainer, value: Any, node: n.Call, ctx: Ctx, type_: str
                   ) -> Reason | None:
        """Why `value` is not among what this call gives here; None: the plain reading."""
        return None

    def why_compared(self, ex: Explainer, node: n.Compare, ctx: Ctx, actual: bool
                     ) -> Reason | None:
        """Why a comparison whose left side is this call is `actual`; None: the plain reading."""
        return None

    def described(self, ex: Explainer, node: n.Name, ctx: Ctx) -> str | None:
        """This value in a reason, said with what it is in the position; None: its English."""
        return None


class KernelAttribute:
    """An attribute every piece, site or area has without being declared (`p.owner`).

    Found in `ATTRIBUTES` by the type it belongs to and its name; `compile`
    gets the closure of the object it is read from.
    """

    of: ClassVar[str]                      # "piece", "site", "area": what has it
    name: ClassVar[str]
    returns: ClassVar[str]
    summary: ClassVar[str]
    example: ClassVar[str]                 # an expression using it, valid in the reference's demo
    # A reason says its value where the object is known ("the site of it (1,0:lake)").
    described: ClassVar[bool] = False
    # In a formula, `x.NAME is KIND` said of a collection's element: "carrying a tower".
    preposition: ClassVar[str | None] = None

    def compile(self, cx: ExprCompiler, node: n.Attr, obj: Fn) -> Fn:
        raise NotImplementedError(f"`{self.of}.{self.name}` has no evaluation")

    def english(self, en: English, node: n.Attr, x: str) -> str:
        """The attribute of `x` (the object already in words)."""
        raise NotImplementedError(f"`{self.of}.{self.name}` has no English reading")

    def english_negated(self, en: English, node: n.Attr) -> str | None:
        """`not` this attribute, read as one phrase; None: the general negation."""
        return None

    def mathml_is_none(self, negated: bool) -> str | None:
        """In a formula, `x.NAME is none` (or `is not none`) of a collection's element."""
        return None

    def why(self, ex: Explainer, node: n.Attr, ctx: Ctx, actual: bool) -> Reason | None:
        """Why this yes/no attribute is `actual` here, in words; None: the plain reading."""
        return None


LIBRARY: dict[str, Builtin] = {}
ATTRIBUTES: dict[tuple[str, str], KernelAttribute] = {}


def register(cls: type[Builtin]) -> type[Builtin]:
    """Add a builtin to `LIBRARY`, once: a second one of the same name is a mistake."""
    if cls.name in LIBRARY:
        raise ValueError(f"two builtins are called `{cls.name}`")
    LIBRARY[cls.name] = cls()
    return cls


def register_attribute(cls: type[KernelAttribute]) -> type[KernelAttribute]:
    """Add a kernel attribute to `ATTRIBUTES`, once per type and name."""
    key = (cls.of, cls.name)
    if key in ATTRIBUTES:
        raise ValueError(f"two attributes are called `{cls.of}.{cls.name}`")
    ATTRIBUTES[key] = cls()
    return cls


def attributes_of(type_: str) -> dict[str, str]:
    """The kernel attributes of a type, with their types, in the order they were written."""
    return {a.name: a.returns for (of, _), a in ATTRIBUTES.items() if of == type_}
