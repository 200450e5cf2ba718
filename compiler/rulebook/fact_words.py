"""The "Checked:" line of a worked example for laid cards and `expect value`.

A reader of the rulebook sees what was checked in words: "Hut `hut1` lies
face down at `red/1,0`", "the number of red’s tiles is 3".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from compiler.engine.game import Game
from compiler.ir import model as m
from compiler.ir.english import English, Vocabulary


def checked(game: Game, f: m.PositionFact, seat_name: Callable[[str], str]) -> str:
    """`expect card …`, `expect no card …` or `expect value …` in words."""
    a = f.args
    if f.fact == "no_card":
        return f"no card lies at `{a[0]}`"
    if f.fact == "card":
        card, at, down, values = a
        info = game.cards.cards.get(card)
        said = f"{info.title} `{card}`" if info is not None else f"`{card}`"
        said += f" lies {'face down ' if down else ''}at `{at}`"
        if values:
            said += " with " + ", ".join(f"{name} {_shown(v, seat_name)}" for name, v in values)
        return said
    expr, want = a
    return f"{English(Vocabulary.of(game.ruleset))(expr)} is {_shown(want, seat_name)}"


def _shown(value: Any, seat_name: Callable[[str], str]) -> str:
    if value is None:
        return "none"
    return seat_name(str(value)) if isinstance(value, str) else str(value)
