"""Parse tree -> IR for the example facts about laid cards, and `expect value`.

A mixin of `ToIR` (see `transform.py`). A laid card's fact carries its card,
its cell, whether it lies face down and what it holds or remembers (`card lab
at red/0,1 down with scored 4`); `expect value` carries an expression, which
the checker types like any other, and the value it should have.
"""

from __future__ import annotations

from typing import Any

from lark import Transformer_NonRecursive, v_args
from lark.tree import Meta

from compiler.ir import model as m
from compiler.ir import nodes as n


class _Down:
    """The `down` of a card fact (a marker: the production has no children)."""


DOWN = _Down()


def card_args(c: list[Any]) -> list[Any]:
    """`[card, cell, down, [[name, value], …]]` from a card fact's children."""
    values: list[list[Any]] = []
    for x in c[2:]:
        if isinstance(x, list):
            values = x
    return [str(c[0]), c[1], any(x is DOWN for x in c[2:]), values]


@v_args(meta=True)
class FactsTransformer(Transformer_NonRecursive):
    """Methods for `pos_card`, `expect card`, `expect no card` and `expect value`."""

    # Provided by ToIR.
    def _fact(self, meta: Meta, fact: str, args: list[Any]) -> m.PositionFact: ...  # pragma: no cover

    def pos_card(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "card", card_args(c))

    def expect_card(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "card", card_args(c))

    def expect_no_card(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "no_card", [c[0]])

    def face_down(self, meta: Meta, c: list[Any]) -> _Down:
        return DOWN

    def card_values(self, meta: Meta, c: list[Any]) -> list[list[Any]]:
        return list(c)

    def card_value(self, meta: Meta, c: list[Any]) -> list[Any]:
        return [str(c[0]), c[1]]

    def expect_value(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        expr: n.Expr = c[0]
        return self._fact(meta, "value", [expr, c[1]])
