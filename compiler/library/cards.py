"""Cards in zones: `cards`, every card kept in a zone, which `cards in Z` narrows.

`cards in Z` lists the zone's cards top first, pile by pile, with repetition
(copies are indistinguishable, so `count` counts copies while a `choose` over
them offers each card once). The narrowing itself is compiled by
`compiler.engine.zones_eval`, since it reads a zone expression.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compiler.ir import nodes as n
from compiler.library.base import Builtin, Fn, register

if TYPE_CHECKING:
    from compiler.engine.evaluate import Env, ExprCompiler
    from compiler.ir.english import English


@register
class Cards(Builtin):
    name, group, returns, value = "cards", "zones", "set:card", True
    summary = ("Every card kept in a zone (not those laid on the board); `cards in Z` is the "
               "cards of one zone, top first, and `cards in hand of p` a player's.")
    example = "count(cards in deck)"
    setting = """
        zone deck "draw deck" shared ordered hidden
        at end of turn {
            if EXAMPLE > 0 {
                give 1 points to me
            }
        }
    """

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        from compiler.engine.zones import cards_top_first

        shared = [z for z in cx.game.zones[2:] if not z.per_player]
        per_player = [z for z in cx.game.zones[2:] if z.per_player]

        def cards(env: Env) -> tuple[Any, ...]:
            st = env.state
            out: list[Any] = []
            for z in shared + per_player:
                for key in z.keys(st.players):
                    out += cards_top_first(st, key, z.ordered)
            return tuple(out)
        return cards

    def english(self, en: English, node: n.Name) -> str:
        return "the cards in every zone"
