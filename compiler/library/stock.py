"""The stacks a tile game draws from: what may be drawn now, and what is left.

`stacks N …` declares the legacy zone (see `compiler/engine/zones.py`): these
builtins read it by its fixed key, so they cost what they always did on the
path every move of a tile game takes. They are the zone operations `tops` and
`cards` over that zone; a card game's own zones are read by name instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compiler.ir import nodes as n
from compiler.library.base import Builtin, Fn, register

if TYPE_CHECKING:
    from compiler.engine.evaluate import Env, ExprCompiler
    from compiler.ir.english import English


@register
class Drawable(Builtin):
    name, group, returns, value = "drawable", "zones", "set:card", True
    summary = ("The tiles a player may take from the stacks now: the top tile of each stack, "
               "each once (a face-down top tile nobody knows could be any tile not yet seen).")
    example = "count(drawable)"

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        from compiler.engine.zones import STACKS, tops

        def drawable(env: Env) -> tuple[Any, ...]:
            return tuple(tops(env.state, STACKS))
        return drawable

    def english(self, en: English, node: n.Name) -> str:
        return "the tiles on top of the stacks"


@register
class Stock(Builtin):
    name, group, returns, value = "stock", "zones", "set:card", True
    summary = "The tiles still in the stacks, on top or under others, known or not."
    example = "count(stock)"

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        from compiler.engine.zones import STACKS, cards

        def stock(env: Env) -> tuple[Any, ...]:
            return tuple(cards(env.state, STACKS))
        return stock

    def english(self, en: English, node: n.Name) -> str:
        return "the tiles left in the stacks"
