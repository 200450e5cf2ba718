"""The game as a whole: `game`, whose attributes are the rounds' numbers and the declared
game attributes (`game.year`, `game.clockwise`).

A value of its own type, "game", so that the checker can tell `game.year` (a round's
number, read only) from `game.clockwise` (a `game attribute`, set by rules) and refuse
anything else with the list of what the game has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from compiler.ir import nodes as n
from compiler.library.base import Builtin, Fn, register

if TYPE_CHECKING:
    from compiler.engine.evaluate import ExprCompiler
    from compiler.ir.english import English

GAME = ("game",)  # the value `game` evaluates to: only its attributes are ever read


@register
class GameValue(Builtin):
    name, group, returns, value = "game", "players", "game", True
    summary = ("The game as a whole: `game.R` is the number of the round R (from 1), "
               "`game.A` a declared game attribute.")
    example = "game.backwards"
    setting = """
        game attribute backwards: bool "goes round backwards"
        when tile t laid {
            if EXAMPLE { give 1 points to me }
        }
    """

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        return lambda env: GAME

    def english(self, en: English, node: n.Name) -> str:
        return "the game"
