"""Parse tree -> IR for chance outside moves in worked examples: `start`, the game as
its set-up leaves it, with the set-up's outcomes given (`setup "deck:c3,c1,…"`) or
drawn from a seed (`seed 7`).

A mixin of `ToIR`, kept apart so the slice that added it touches the shared
transformer in one line; construction only, as everywhere in parsing.
"""

from __future__ import annotations

from typing import Any

from lark import Transformer_NonRecursive, v_args
from lark.tree import Meta

from compiler.ir import model as m


@v_args(meta=True)
class ChanceMixin(Transformer_NonRecursive):
    """The transformer methods of `pos_start` in `grammar/rules.lark`."""

    def pos_start(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        parts = dict(c)
        return m.PositionFact(fact="start", args=[parts.get("seed"), parts.get("setup")],
                              loc=self._loc(meta))  # type: ignore[attr-defined]

    def start_seed(self, meta: Meta, c: list[Any]) -> tuple[str, int]:
        return ("seed", int(c[0]))

    def start_setup(self, meta: Meta, c: list[Any]) -> tuple[str, str]:
        from compiler.parse.transform import unquote
        return ("setup", unquote(c[0]))
