"""Building the IR of rounds, game attributes, orders of play, `next turn` and steps that
each player takes (the grammar's "rounds, orders, turns" section).

A mixin of `ToIR`, kept apart so that the constructs of one part of the language
sit together and other parts can grow beside them without touching these.
"""

from __future__ import annotations

from typing import Any

from lark import Transformer_NonRecursive, v_args
from lark.tree import Meta

from compiler.ir import model as m


def unquote(token: str) -> str:
    from compiler.parse.transform import unquote as unquoted
    return unquoted(token)


@v_args(meta=True)
class TurnsMixin(Transformer_NonRecursive):
    """`round`, `game attribute`, `order`, `next turn to`, `each player` and `round` moments."""

    def _loc(self, meta: Meta) -> Any:  # provided by ToIR
        raise NotImplementedError

    def round_decl(self, meta: Meta, c: list[Any]) -> m.RoundDecl:
        return m.RoundDecl(id=str(c[0]), title=unquote(c[1]), count=int(c[2]), turns=c[3],
                           loc=self._loc(meta))

    def game_attr_decl(self, meta: Meta, c: list[Any]) -> m.GameAttribute:
        attr = self.attribute(meta, c)  # type: ignore[attr-defined]  (read as any attribute is)
        return m.GameAttribute(attribute=attr, loc=self._loc(meta))

    def order_decl(self, meta: Meta, c: list[Any]) -> m.OrderDecl:
        from compiler.parse.transform import SourceProblem
        parts = c[2:]
        terms = [x for x in parts if isinstance(x, m.Tiebreak)]
        starts = [x for x in parts if isinstance(x, _SeatsFrom)]
        if len(starts) > 1 or (starts and parts[-1] is not starts[0]):
            raise SourceProblem("`seats from …` breaks the ties left by the measures, so it "
                                "comes once, last", hint="write `order NAME \"…\" = most … "
                                "then seats from PLAYER`")
        return m.OrderDecl(id=str(c[0]), title=unquote(c[1]), order=terms,
                           start=starts[0].expr if starts else None, loc=self._loc(meta))

    def seats_from(self, meta: Meta, c: list[Any]) -> _SeatsFrom:
        return _SeatsFrom(c[0])

    def next_turn_decl(self, meta: Meta, c: list[Any]) -> m.NextTurnDecl:
        return m.NextTurnDecl(expr=c[0], loc=self._loc(meta))

    def each_in_order(self, meta: Meta, c: list[Any]) -> tuple[str, str | None]:
        return ("each", str(c[0]) if c else None)

    def round_target(self, meta: Meta, c: list[Any]) -> tuple[str, str]:
        return ("round", str(c[0]))

    # ------------------------------------------------ facts of examples

    def _turn_fact(self, meta: Meta, fact: str, args: list[Any]) -> m.PositionFact:
        return m.PositionFact(fact=fact, args=args, loc=self._loc(meta))  # type: ignore[arg-type]

    def pos_game(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._turn_fact(meta, "game", [str(c[0]), c[1]])

    def pos_round(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._turn_fact(meta, "round", [int(c[0]), int(c[1])])

    def pos_waiting(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._turn_fact(meta, "waiting", [str(x) for x in c])

    def expect_game(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._turn_fact(meta, "game", [str(c[0]), c[1]])

    def expect_round(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._turn_fact(meta, "round", [int(c[0]), int(c[1])])

    def expect_waiting(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._turn_fact(meta, "waiting", [str(x) for x in c])


class _SeatsFrom:
    """`seats from EXPR`: the last term of an order (checked: nothing may follow it)."""

    __slots__ = ("expr",)

    def __init__(self, expr: Any) -> None:
        self.expr = expr
