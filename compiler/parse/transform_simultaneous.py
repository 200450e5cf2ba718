"""Building the IR of simultaneous choices: `each player at once` steps and
`grant A to each PLAYERS at once then apply E(…)` (the grammar's "simultaneous steps,
secrets" section). `secret` on a player attribute is read with the attribute itself.

A mixin of `ToIR`, kept apart so that the constructs of one part of the language sit
together and other parts can grow beside them without touching these.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer_NonRecursive, v_args
from lark.tree import Meta

from compiler.ir import nodes as n


class _AtOnce:
    """The `at once` of a grant (a marker, dropped once read)."""


class _Then:
    """The `then apply …` of a grant."""

    __slots__ = ("apply",)

    def __init__(self, apply: n.Apply) -> None:
        self.apply = apply


@v_args(meta=True)
class SimultaneousMixin(Transformer_NonRecursive):
    """`each player at once` and `grant … to each … [at once] [then apply …]`."""

    def _loc(self, meta: Meta) -> Any:  # provided by ToIR
        raise NotImplementedError

    def each_at_once(self, meta: Meta, c: list[Any]) -> tuple[str, str | None]:
        return ("each_at_once", None)

    def at_once(self, meta: Meta, c: list[Any]) -> _AtOnce:
        return _AtOnce()

    def grant_then(self, meta: Meta, c: list[Any]) -> _Then:
        return _Then(c[0])

    def grant_each(self, meta: Meta, c: list[Any]) -> n.GrantEach:
        must = isinstance(c[0], Token) and c[0].type == "MUST"
        if must:
            c = c[1:]
        then = next((x.apply for x in c if isinstance(x, _Then)), None)
        return n.GrantEach(action=str(c[0]), players=c[1], must=must,
                           at_once=any(isinstance(x, _AtOnce) for x in c), then=then,
                           loc=self._loc(meta))
